"""The training loop every self-play method shares: an actor and a learner that overlap, in
segments that checkpoint, evaluate and resume, under a budget.

A *method* (``training/ppo.py``, ``training/playout.py``) says how it acts and how it
learns; this module does the rest:

- **Actor and learner overlap** with a fixed lag: the learner thread trains on rollout
  ``k - 1`` while the actor plays rollout ``k`` with the policy's weights after ``k - 2``
  (``Learner.weights_after``). The lag is fixed, so a run is deterministic for a given
  torch build and thread count.
- **Segments**: every ``checkpoint_rollouts`` rollouts the learner drains, the policy is
  saved as an ``nn`` weights file, plays ``[eval]`` on fixed duplicate deals, and every env
  is dealt afresh from the segment's seed (decisions still in flight are dropped). A run
  stopped at any point and started again with the same command goes on from its last
  checkpoint as if never stopped; a config that differs from the saved run's is refused,
  naming the keys.
- **Budgets** (``training/runs.py``): ``--decisions`` and ``--segments`` count the whole
  run, ``--minutes`` this sitting.

A method is a class with ``prefix``, ``recipe``, ``title``, ``KEYS`` and ``check`` (its
config), ``state_tensor`` (whether its rollouts need state tensors), and, built from a
config: ``policy``, ``inputs``, ``init_note``, ``state()`` and ``load(state)`` (what a
resume needs besides the policy), ``acting(player, run, k)`` (the actor's
``(choose, annotate)`` for rollout ``k``, ``player`` holding the acting weights) and
``learn(k, batch)`` (one update from a rollout's decisions, on the learner thread,
returning statistics to log).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import torch

from yokai_septet import models
from yokai_septet._progress import ProgressLog, _clock

from . import config as configs
from .evaluate import evaluate, plot
from .nets import Sizes, heuristic_start, load_policy, mlp
from .rollouts import OPPONENTS, Rollouts, sub_seed
from .runs import Budget, Run, add_budget_arguments


#: The config keys every method shares: its kind and default (None: required).
KEYS: configs.Keys = {
    "variant": ("variant", None),
    "seed": ("seed", None),
    # The policy's start: the shipped nn model, a model file, or "none" (fresh weights of
    # `hidden` widths reading `inputs`, started at the heuristic when `heuristic_prior`).
    "init": ("model", "shipped"),
    "hidden": ("widths", [512, 256]),
    "inputs": ("inputs", "observation+heuristic"),
    "heuristic_prior": ("rate", 0.0),
    "envs": ("count", None),
    "steps": ("count", None),
    "max_rounds": ("count", 30),
    "temperature": ("positive", 0.25),
    "learning_rate": ("positive", None),
    "minibatch": ("count", 2048),
    "max_grad_norm": ("positive", 0.5),
    "checkpoint_rollouts": ("count", None),
    "keep_checkpoints": ("count", 3),
    "keep_every": ("count0", 10),
    "torch_threads": ("count0", 0),
    # The envs' stepping threads (0: every core).
    "env_threads": ("count0", 1),
    "opponents": {k: ("rate", 0.0) for k in OPPONENTS},
    "eval": {"opponent": ("bot", "nn"), "games": ("count", 200), "seed": ("seed", None)},
}


def check(cfg: Dict[str, Any]) -> str:
    """The shared keys' problems beyond their kinds ("" when none)."""
    if sum(cfg["opponents"].values()) >= 1:
        return "[opponents] shares add up to 1 or more: no env would be left for self-play"
    if cfg["heuristic_prior"] and cfg["inputs"] != "observation+heuristic":
        return "heuristic_prior needs inputs = \"observation+heuristic\""
    if cfg["init"] not in ("shipped", "none") and not Path(cfg["init"]).is_file():
        return f"init = {cfg['init']!r}: no such model file"
    return ""


def make_policy(cfg: Dict[str, Any], sizes: Sizes) -> tuple:
    """``(net, inputs, init_note)``: the policy a run starts from."""
    if cfg["init"] == "none":
        extra = sizes.actions if cfg["heuristic_prior"] else 0
        net = mlp(sizes.policy_input(cfg["inputs"]), [h + extra for h in cfg["hidden"]],
                  sizes.actions)
        if cfg["heuristic_prior"]:
            heuristic_start(net, sizes.actions, cfg["heuristic_prior"])
        return net, cfg["inputs"], "none"
    net, inputs, _ = load_policy(cfg["init"], cfg["variant"])
    return net, inputs, cfg["init"]


class Method:
    """What most methods share: the policy they start from (``make_policy``), one Adam
    optimiser for it, and the ``past`` opponents in every segment. A method with more to
    resume extends ``state`` and ``load``."""

    state_tensor = False

    def __init__(self, cfg: Dict[str, Any], sizes: Sizes) -> None:
        self.cfg, self.actions = cfg, sizes.actions
        self.policy, self.inputs, self.init_note = make_policy(cfg, sizes)
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=cfg["learning_rate"])

    def state(self) -> Dict[str, Any]:
        return {"opt": self.opt.state_dict()}

    def load(self, state: Dict[str, Any]) -> None:
        self.opt.load_state_dict(state["opt"])

    def plays_past(self, segment: int) -> bool:
        return True


class Learner(threading.Thread):
    """Trains on each rollout in order, on its own thread, and publishes the policy's
    weights after each one (``weights_after(k)`` waits for them). ``close`` joins it, so
    the interpreter never shuts down under a running thread."""

    def __init__(self, method: Any) -> None:
        super().__init__(name=f"{method.prefix}-learner")
        self.method = method
        self.cv = threading.Condition()
        self.queue: list = []
        self.trained = -1
        self.published: Dict[int, Dict[str, torch.Tensor]] = {}
        self.samples = 0
        self.seconds = 0.0
        self.stats: List[Dict[str, float]] = []
        self.error: Optional[BaseException] = None

    def submit(self, k: int, batch: Optional[dict]) -> None:
        with self.cv:
            self.queue.append((k, batch))
            self.cv.notify_all()

    def weights_after(self, k: int) -> Dict[str, torch.Tensor]:
        with self.cv:
            self.cv.wait_for(lambda: self.trained >= k or self.error is not None)
            if self.error is not None:
                raise RuntimeError("the learner thread failed") from self.error
            return self.published[k]

    def publish(self, k: int) -> None:
        with self.cv:
            self.published = {j: w for j, w in self.published.items() if j >= k - 2}
            self.published[k] = {n: p.detach().clone() for n, p in
                                 self.method.policy.state_dict().items()}
            self.trained = k
            self.cv.notify_all()

    def close(self) -> None:
        """Stops the thread after the rollouts already submitted, and waits for it."""
        self.submit(-1, None)
        self.join()

    def run(self) -> None:
        try:
            while True:
                with self.cv:
                    self.cv.wait_for(lambda: bool(self.queue))
                    k, batch = self.queue.pop(0)
                if batch is None:
                    return
                t = time.perf_counter()
                if len(batch["target"]):
                    self.stats.append(self.method.learn(k, batch))
                    self.samples += len(batch["target"])
                self.seconds += time.perf_counter() - t
                self.publish(k)
        except BaseException as e:  # handed to the actor, which raises it
            with self.cv:
                self.error = e
                self.cv.notify_all()

    def take_stats(self) -> Dict[str, float]:
        """The mean of each statistic since the last call."""
        keys = {k for s in self.stats for k in s}
        out = {k: float(np.mean([s[k] for s in self.stats if k in s])) for k in keys}
        self.stats.clear()
        return out


def save_model(method: Any, cfg: Dict[str, Any], path: Path, **meta: object) -> None:
    models.Model.from_torch(
        method.policy, cfg["variant"], method.inputs, recipe=method.recipe,
        config=json.dumps(cfg, sort_keys=True), seed=cfg["seed"],
        **{k: str(v) for k, v in meta.items()},
    ).save(path)


def train(method_cls: Any, args: argparse.Namespace) -> None:
    """Runs ``method_cls`` on ``args.config`` into ``args.out`` under the budget."""
    cfg = configs.read(args.config, method_cls.KEYS, method_cls.check)
    run = Run(args.out, method_cls.prefix, keep=cfg["keep_checkpoints"],
              keep_every=cfg["keep_every"])
    budget = Budget(args)
    if cfg["torch_threads"]:
        torch.set_num_threads(cfg["torch_threads"])
    torch.manual_seed(cfg["seed"])
    sizes = Sizes(cfg["variant"])
    method = method_cls(cfg, sizes)
    progress = {"segment": 0, "decisions": 0, "trained": 0, "curve": [],
                "wall_seconds": 0.0, "cpu_seconds": 0.0}
    saved = run.load()
    if saved is not None:
        if saved["config"] != cfg:
            diff = sorted(k for k in {*saved["config"], *cfg}
                          if saved["config"].get(k) != cfg.get(k))
            sys.exit(f"{args.config}: {run.out} holds a run of another config (differs in "
                     f"{', '.join(diff)}); pass another --out, or delete it to start over")
        method.policy.load_state_dict(saved["policy"])
        method.load(saved["method"])
        progress = {k: saved[k] for k in progress}
        print(f"resuming {run.out} at segment {progress['segment']} "
              f"({progress['decisions']:,} decisions)", flush=True)
    if budget.reached(progress["segment"], progress["decisions"], 0.0):
        print(f"{run.out}: the budget is reached already ({progress['segment']} segments, "
              f"{progress['decisions']:,} decisions); nothing to do", flush=True)
        return
    actor = Rollouts(cfg["variant"], cfg["envs"], cfg["opponents"], cfg["max_rounds"],
                     method.inputs, state_tensor=method.state_tensor,
                     num_threads=cfg["env_threads"] or None)
    learner = Learner(method)
    learner.start()
    try:
        _segments(method, cfg, args, run, budget, actor, learner, progress)
    finally:
        learner.close()


def _segments(method: Any, cfg: Dict[str, Any], args: argparse.Namespace, run: Run,
              budget: Budget, actor: Rollouts, learner: Learner, p: Dict[str, Any]) -> None:
    C, steps = cfg["checkpoint_rollouts"], cfg["steps"]
    start, cpu_start = time.monotonic(), time.process_time()
    wall0, cpu0 = p["wall_seconds"], p["cpu_seconds"]
    while True:
        segment = p["segment"]
        first = segment * C
        actor.start_segment(sub_seed(cfg["seed"], "segment", segment))
        learner.publish(first - 1)  # the weights at the segment's start
        past = None
        if cfg["opponents"]["past"] and method.plays_past(segment):
            pick = np.random.default_rng(sub_seed(cfg["seed"], "past", segment))
            pasts = run.kept_checkpoints(before=segment + 1)
            past = copy.deepcopy(method.policy)
            if pasts:
                past.load_state_dict(models.load(pasts[pick.integers(len(pasts))])
                                     .to_torch().state_dict())
        player = copy.deepcopy(method.policy)
        seg_decisions = 0
        t_seg = time.perf_counter()
        log = ProgressLog(f"{method.prefix} {cfg['variant']} segment {segment + 1}", C,
                          unit="rollout")
        for k in range(first, first + C):
            log.update(k - first, decisions=p["decisions"] + seg_decisions)
            player.load_state_dict(learner.weights_after(max(k - 2, first - 1)))
            choose, annotate = method.acting(player, run, k)
            rng = np.random.default_rng(sub_seed(cfg["seed"], "act", k))
            batch = actor.play(choose, past, steps, rng, annotate=annotate)
            seg_decisions += batch["decisions"]
            p["trained"] += len(batch["target"])
            learner.submit(k, batch)
        learner.weights_after(first + C - 1)  # drain
        log.close(C)
        seg_seconds = time.perf_counter() - t_seg
        p["decisions"] += seg_decisions
        p["segment"] = segment = segment + 1
        p["wall_seconds"] = wall = wall0 + time.monotonic() - start
        p["cpu_seconds"] = cpu0 + time.process_time() - cpu_start
        meta = dict(segment=segment, decisions=p["decisions"], trained=p["trained"],
                    init=method.init_note)
        save_model(method, cfg, run.checkpoint(segment), **meta)
        save_model(method, cfg, run.latest, **meta)
        ev = cfg["eval"]
        e = evaluate(run.checkpoint(segment), cfg["variant"], ev["opponent"], ev["games"],
                     ev["seed"])
        stats = learner.take_stats()
        point = {"segment": segment, "decisions": p["decisions"], "trained": p["trained"],
                 "wall_seconds": round(wall, 1), "cpu_seconds": round(p["cpu_seconds"], 1),
                 "actor_decisions_per_second": round(seg_decisions / seg_seconds),
                 "learner_samples_per_second": round(
                     learner.samples / max(learner.seconds, 1e-9)),
                 **{k: round(v, 5) for k, v in sorted(stats.items())}, "evals": [e]}
        learner.samples, learner.seconds = 0, 0.0
        p["curve"].append(point)
        run.save({"config": cfg, "policy": method.policy.state_dict(),
                  "method": method.state(), **p})
        run.prune(p["curve"], "board_win_rate")
        run.write_curve(p["curve"])
        plot(p["curve"], run.out / "curve.png",
             f"{method.title} {cfg['variant']} ({args.config.name})")
        shown = "; ".join(f"{k} {stats[k]:.3f}" for k in method.shown if k in stats)
        print(f"segment {segment}: {p['decisions']:,} decisions, {_clock(wall)} wall, "
              f"{point['actor_decisions_per_second']:,} decisions/s acting; {shown}; "
              f"vs {e['opponent']} {e['win_rate']:.3f} [{e['ci95'][0]:.3f}, "
              f"{e['ci95'][1]:.3f}]", flush=True)
        if budget.reached(segment, p["decisions"], time.monotonic() - start):
            break


def curve_cmd(method_cls: Any, args: argparse.Namespace) -> None:
    """Evaluates the run's kept checkpoints (the last few, the milestones) against
    ``--opponents`` on the same fixed duplicate deals, and writes ``curve-full.json`` and
    ``curve-full.png``."""
    run = Run(args.run, method_cls.prefix)
    state = run.load()
    if state is None:
        sys.exit(f"{args.run}: no run here (no state.pt)")
    cfg = state["config"]
    results = []
    for p in state["curve"]:
        path = run.checkpoint(p["segment"])
        if not path.exists():
            continue
        evals = [evaluate(path, cfg["variant"], o, args.games, args.seed, args.threads)
                 for o in args.opponents]
        results.append({**{k: p[k] for k in ("segment", "decisions", "wall_seconds")},
                        "evals": evals})
        print(json.dumps(results[-1]), flush=True)
    run.write_curve(results, "curve-full")
    plot(results, run.out / "curve-full.png",
         f"{method_cls.title} {cfg['variant']}: fixed duplicate deals")


def main(method_cls: Any, argv: Optional[list] = None) -> None:
    """The command line of a method: ``CONFIG [--out] [budget]``, or ``curve RUN``."""
    argv = sys.argv[1:] if argv is None else argv
    prog = f"python -m training.{method_cls.prefix}"
    if argv and argv[0] == "curve":
        ap = argparse.ArgumentParser(prog=f"{prog} curve", description=curve_cmd.__doc__)
        ap.add_argument("run", type=Path)
        ap.add_argument("--opponents", nargs="+", default=["heuristic", "pimc", "nn"])
        ap.add_argument("--games", type=int, default=400)
        ap.add_argument("--seed", type=int, default=8_000_000)
        ap.add_argument("--threads", type=int, default=0)
        curve_cmd(method_cls, ap.parse_args(argv[1:]))
        return
    ap = argparse.ArgumentParser(prog=prog, description=method_cls.__doc__.split("\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, default=None,
                    help="default runs/<the config's name>; a run there goes on")
    add_budget_arguments(ap)
    args = ap.parse_args(argv)
    args.out = args.out or Path("runs") / args.config.stem
    train(method_cls, args)
