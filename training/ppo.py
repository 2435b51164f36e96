"""PPO with a privileged critic: the policy sees only its seat's observation, the critic
sees every hand, and GAE(lambda) on that critic takes the deal's luck out of the
advantages (PerfectDou's "perfect-training-imperfect-execution").

    pip install ".[train]"                                              # torch (CPU is enough)
    python -m training.ppo training/configs/ppo-4p.toml --decisions 20M    # from the repo root
    python -m training.ppo training/configs/ppo-4p.toml --decisions 40M    # goes on to 40M
    python -m training.ppo curve runs/ppo-4p --opponents heuristic pimc nn --games 400

``docs/training.md`` ("PPO with a privileged critic") is the user's page; in short:

- **The policy** is the ``nn`` bot's MLP (by default the variant's shipped ``nn`` model,
  ``init = "shipped"``): it reads the observation and the heuristic's card, and its
  logits over ``temperature`` are the acting policy. A checkpoint is an ``nn`` weights
  file: Rust plays it greedily as ``nn:PATH``, with no Python.
- **The critic** reads the privileged state tensor (every hand; ``VectorEnv(state_tensor=
  True)``) and the mover's observation, and predicts the mover's side's return.
- **The return** of a decision is its round's margin for the mover's side over the game's
  target (``infos["round_margin"]`` and ``VectorEnv.target``): a round is an episode of its
  own, and a side's decisions in it (both partners' in the team variants) are one
  sequence for GAE (``training/advantages.py``). Passing picks are decisions like any other.
- **Opponents**: self-play in most envs; in a share of them one side is ``heuristic``,
  ``pimc`` or an earlier checkpoint (``past``).
- **Actor and learner overlap** with a fixed lag, as in ``training/dmc.py``: the learner
  trains on rollout ``k - 1`` while the actor plays rollout ``k`` with the weights after
  ``k - 2``; the stored log-probabilities are the acting policy's, so PPO's ratio corrects
  for the lag. A run is deterministic for a given torch build and thread count, and a run
  stopped at any point and started again with the same command goes on from its last
  checkpoint as if never stopped.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, Optional

import numpy as np
import torch
import torch.nn as nn

from yokai_septet import models
from yokai_septet._progress import ProgressLog, _clock

from . import config as configs
from .advantages import gae
from .evaluate import evaluate, plot
from .nets import Sizes, critic_input, heuristic_start, load_policy, masked_logits, mlp, \
    policy_input
from .rollouts import OPPONENTS, Rollouts, sampler, sub_seed
from .runs import Budget, Run, add_budget_arguments

RECIPE = "ppo (training/ppo.py)"

#: Every config key: its kind and default (None: required).
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
    "gae_lambda": ("rate", 0.9),
    "clip": ("rate", 0.1),
    "entropy": ("number0", 0.0),
    "learning_rate": ("positive", None),
    "critic_learning_rate": ("positive", 3e-4),
    "critic_hidden": ("widths", [512, 256]),
    "critic_warmup": ("count0", 2),
    "epochs": ("count", 2),
    "minibatch": ("count", 4096),
    "max_grad_norm": ("positive", 0.5),
    "checkpoint_rollouts": ("count", None),
    "keep_checkpoints": ("count", 3),
    "keep_every": ("count0", 10),
    "torch_threads": ("count0", 0),
    "opponents": {k: ("rate", 0.0) for k in OPPONENTS},
    "eval": {"opponent": ("bot", "nn"), "games": ("count", 200), "seed": ("seed", None)},
}


def check(cfg: Dict[str, Any]) -> str:
    if sum(cfg["opponents"].values()) >= 1:
        return "[opponents] shares add up to 1 or more: no env would be left for self-play"
    if cfg["heuristic_prior"] and cfg["inputs"] != "observation+heuristic":
        return "heuristic_prior needs inputs = \"observation+heuristic\""
    if cfg["init"] not in ("shipped", "none") and not Path(cfg["init"]).is_file():
        return f"init = {cfg['init']!r}: no such model file"
    return ""


def make_policy(cfg: Dict[str, Any], sizes: Sizes) -> tuple:
    """``(net, inputs, init_note)``: the policy the run starts from."""
    if cfg["init"] == "none":
        extra = sizes.actions if cfg["heuristic_prior"] else 0
        net = mlp(sizes.policy_input(cfg["inputs"]), [h + extra for h in cfg["hidden"]],
                  sizes.actions)
        if cfg["heuristic_prior"]:
            heuristic_start(net, sizes.actions, cfg["heuristic_prior"])
        return net, cfg["inputs"], "none"
    net, inputs, model = load_policy(cfg["init"], cfg["variant"])
    return net, inputs, cfg["init"]


class Learner(threading.Thread):
    """Trains on each rollout in order, on its own thread, and publishes the policy's
    weights after each one (``weights_after(k)`` waits for them). Joined by ``close``."""

    def __init__(self, policy: nn.Module, critic: nn.Module, cfg: Dict[str, Any],
                 inputs: str, actions: int) -> None:
        super().__init__(name="ppo-learner")
        self.policy, self.critic, self.cfg = policy, critic, cfg
        self.inputs, self.actions = inputs, actions
        self.opt = torch.optim.Adam(policy.parameters(), lr=cfg["learning_rate"])
        self.copt = torch.optim.Adam(critic.parameters(), lr=cfg["critic_learning_rate"])
        self.cv = threading.Condition()
        self.queue: list = []
        self.trained = -1
        self.published: Dict[int, Dict[str, torch.Tensor]] = {}
        self.samples = 0
        self.seconds = 0.0
        self.stats: list = []
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
                                 self.policy.state_dict().items()}
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
                self.train(k, batch)
                self.seconds += time.perf_counter() - t
                self.publish(k)
        except BaseException as e:  # handed to the actor, which raises it
            with self.cv:
                self.error = e
                self.cv.notify_all()

    def values(self, c: torch.Tensor) -> np.ndarray:
        with torch.no_grad():
            return torch.cat([self.critic(part)[:, 0] for part in c.split(8192)]).numpy()

    def train(self, k: int, b: dict) -> None:
        n = len(b["target"])
        if n == 0:
            return
        cfg = self.cfg
        x = policy_input(b["obs"], b["hint"], self.inputs, self.actions)
        c = critic_input(b["state"], b["obs"])
        mask = torch.from_numpy(b["mask"])
        act = torch.from_numpy(b["action"]).long()
        old = torch.from_numpy(b["logp"])
        v = self.values(c)
        adv_np = gae(v, b["target"], b["round"], b["side"], b["step"], cfg["gae_lambda"])
        ret = torch.from_numpy(adv_np + v)
        adv = torch.from_numpy(adv_np)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        learn_policy = k >= cfg["critic_warmup"]
        gen = torch.Generator().manual_seed(sub_seed(cfg["seed"], "minibatch", k))
        s = {"value_loss": [], "policy_loss": [], "kl": [], "clipped": [], "entropy": []}
        for _ in range(cfg["epochs"]):
            for mb in torch.randperm(n, generator=gen).split(cfg["minibatch"]):
                vloss = (self.critic(c[mb])[:, 0] - ret[mb]).pow(2).mean()
                self.copt.zero_grad()
                vloss.backward()
                nn.utils.clip_grad_norm_(self.critic.parameters(), cfg["max_grad_norm"])
                self.copt.step()
                s["value_loss"].append(vloss.item())
                if not learn_policy:
                    continue
                logits = masked_logits(self.policy, x[mb], mask[mb], cfg["temperature"])
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(1, act[mb, None])[:, 0]
                ratio = (logp - old[mb]).exp()
                a = adv[mb]
                ploss = -torch.min(ratio * a, ratio.clamp(1 - cfg["clip"],
                                                          1 + cfg["clip"]) * a).mean()
                ent = -(logp_all.exp() * logp_all).sum(-1).mean()
                loss = ploss - cfg["entropy"] * ent
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), cfg["max_grad_norm"])
                self.opt.step()
                with torch.no_grad():
                    s["policy_loss"].append(ploss.item())
                    s["kl"].append((old[mb] - logp).mean().item())
                    s["clipped"].append(((ratio - 1).abs() > cfg["clip"]).float().mean().item())
                    s["entropy"].append(ent.item())
        target_var = float(np.var(b["target"]))
        self.stats.append({
            **{key: float(np.mean(vals)) for key, vals in s.items() if vals},
            # How much of the returns' spread the critic explains, before this update.
            "critic_explained": 1 - float(np.var(b["target"] - v)) / max(target_var, 1e-12),
            "advantage_variance": float(np.var(adv_np)),
            "return_variance": target_var,
        })
        self.samples += n * cfg["epochs"]


def save_model(net: nn.Module, cfg: Dict[str, Any], inputs: str, path: Path,
               **meta: object) -> None:
    models.Model.from_torch(
        net, cfg["variant"], inputs, recipe=RECIPE, config=json.dumps(cfg, sort_keys=True),
        seed=cfg["seed"], **{k: str(v) for k, v in meta.items()},
    ).save(path)


def train(args: argparse.Namespace) -> None:
    cfg = configs.read(args.config, KEYS, check)
    run = Run(args.out, "ppo", keep=cfg["keep_checkpoints"], keep_every=cfg["keep_every"])
    budget = Budget(args)
    if cfg["torch_threads"]:
        torch.set_num_threads(cfg["torch_threads"])
    torch.manual_seed(cfg["seed"])
    sizes = Sizes(cfg["variant"])
    policy, inputs, init_note = make_policy(cfg, sizes)
    critic = mlp(sizes.state + sizes.observation, cfg["critic_hidden"], 1)
    learner = Learner(policy, critic, cfg, inputs, sizes.actions)
    segment, decisions, trained, curve = 0, 0, 0, []
    wall0, cpu0 = 0.0, 0.0
    saved = run.load()
    if saved is not None:
        if saved["config"] != cfg:
            diff = sorted(k for k in {*saved["config"], *cfg}
                          if saved["config"].get(k) != cfg.get(k))
            sys.exit(f"{args.config}: {run.out} holds a run of another config (differs in "
                     f"{', '.join(diff)}); pass another --out, or delete it to start over")
        policy.load_state_dict(saved["policy"])
        critic.load_state_dict(saved["critic"])
        learner.opt.load_state_dict(saved["opt"])
        learner.copt.load_state_dict(saved["copt"])
        segment, decisions, trained = saved["segment"], saved["decisions"], saved["trained"]
        curve, wall0, cpu0 = saved["curve"], saved["wall_seconds"], saved["cpu_seconds"]
        print(f"resuming {run.out} at segment {segment} ({decisions:,} decisions)",
              flush=True)
    if budget.reached(segment, decisions, 0.0):
        print(f"{run.out}: the budget is reached already ({segment} segments, "
              f"{decisions:,} decisions); nothing to do", flush=True)
        return
    actor = Rollouts(cfg["variant"], cfg["envs"], cfg["opponents"], cfg["max_rounds"],
                     inputs, state_tensor=True)
    learner.start()
    try:
        _train_segments(cfg, args, run, budget, actor, learner, policy, critic, inputs,
                        sizes, init_note, segment, decisions, trained, curve, wall0, cpu0)
    finally:
        learner.close()


def _train_segments(cfg, args, run, budget, actor, learner, policy, critic, inputs, sizes,
                    init_note, segment, decisions, trained, curve, wall0, cpu0) -> None:
    C, steps = cfg["checkpoint_rollouts"], cfg["steps"]
    start, cpu_start = time.monotonic(), time.process_time()
    while True:
        first = segment * C
        actor.start_segment(sub_seed(cfg["seed"], "segment", segment))
        learner.publish(first - 1)  # the weights at the segment's start
        past = None
        if cfg["opponents"]["past"]:
            pick = np.random.default_rng(sub_seed(cfg["seed"], "past", segment))
            pasts = run.kept_checkpoints(before=segment + 1)
            past = copy.deepcopy(policy)
            if pasts:
                past.load_state_dict(models.load(pasts[pick.integers(len(pasts))])
                                     .to_torch().state_dict())
        player = copy.deepcopy(policy)
        choose = sampler(player, inputs, sizes.actions, cfg["temperature"])
        seg_decisions = 0
        t_seg = time.perf_counter()
        log = ProgressLog(f"ppo {cfg['variant']} segment {segment + 1}", C, unit="rollout")
        for k in range(first, first + C):
            log.update(k - first, decisions=decisions + seg_decisions)
            player.load_state_dict(learner.weights_after(max(k - 2, first - 1)))
            rng = np.random.default_rng(sub_seed(cfg["seed"], "act", k))
            batch = actor.play(choose, past, steps, rng)
            seg_decisions += batch["decisions"]
            trained += len(batch["target"])
            learner.submit(k, batch)
        learner.weights_after(first + C - 1)  # drain
        log.close(C)
        seg_seconds = time.perf_counter() - t_seg
        decisions += seg_decisions
        segment += 1
        wall = wall0 + time.monotonic() - start
        cpu = cpu0 + time.process_time() - cpu_start
        meta = dict(segment=segment, decisions=decisions, trained=trained, init=init_note)
        save_model(policy, cfg, inputs, run.checkpoint(segment), **meta)
        save_model(policy, cfg, inputs, run.latest, **meta)
        ev = cfg["eval"]
        e = evaluate(run.checkpoint(segment), cfg["variant"], ev["opponent"], ev["games"],
                     ev["seed"])
        stats = {k: float(np.mean([s[k] for s in learner.stats if k in s]))
                 for k in {k for s in learner.stats for k in s}}
        learner.stats.clear()
        point = {"segment": segment, "decisions": decisions, "trained": trained,
                 "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                 "actor_decisions_per_second": round(seg_decisions / seg_seconds),
                 "learner_samples_per_second": round(
                     learner.samples / max(learner.seconds, 1e-9)),
                 **{k: round(v, 5) for k, v in sorted(stats.items())}, "evals": [e]}
        learner.samples, learner.seconds = 0, 0.0
        curve.append(point)
        run.save({"config": cfg, "policy": policy.state_dict(),
                  "critic": critic.state_dict(), "opt": learner.opt.state_dict(),
                  "copt": learner.copt.state_dict(), "segment": segment,
                  "decisions": decisions, "trained": trained, "curve": curve,
                  "wall_seconds": wall, "cpu_seconds": cpu})
        run.prune(curve, "board_win_rate")
        run.write_curve(curve)
        plot(curve, run.out / "curve.png", f"PPO {cfg['variant']} ({args.config.name})")
        print(f"segment {segment}: {decisions:,} decisions, {_clock(wall)} wall, "
              f"{point['actor_decisions_per_second']:,} decisions/s acting, critic explains "
              f"{stats.get('critic_explained', float('nan')):.3f} of the returns' variance;"
              f" vs {e['opponent']} {e['win_rate']:.3f} [{e['ci95'][0]:.3f}, "
              f"{e['ci95'][1]:.3f}]", flush=True)
        if budget.reached(segment, decisions, time.monotonic() - start):
            break


def curve_cmd(args: argparse.Namespace) -> None:
    """Evaluates the run's kept checkpoints (the last few and the best) and its latest
    model against ``--opponents`` on the same fixed duplicate deals, and writes
    ``curve-full.json`` and ``curve-full.png``."""
    run = Run(args.run, "ppo")
    state = run.load()
    if state is None:
        sys.exit(f"{args.run}: no run here (no state.pt)")
    cfg, points = state["config"], state["curve"]
    results = []
    for p in points:
        path = run.checkpoint(p["segment"])
        if not path.exists():
            continue
        evals = [evaluate(path, cfg["variant"], o, args.games, args.seed, args.threads)
                 for o in args.opponents]
        results.append({**{k: p[k] for k in ("segment", "decisions", "wall_seconds")},
                        "evals": evals})
        print(json.dumps(results[-1]), flush=True)
    run.write_curve(results, "curve-full")
    plot(results, run.out / "curve-full.png", f"PPO {cfg['variant']}: fixed duplicate deals")


def main(argv: Optional[list] = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "curve":
        ap = argparse.ArgumentParser(prog="python -m training.ppo curve",
                                     description=curve_cmd.__doc__)
        ap.add_argument("run", type=Path)
        ap.add_argument("--opponents", nargs="+", default=["heuristic", "pimc", "nn"])
        ap.add_argument("--games", type=int, default=400)
        ap.add_argument("--seed", type=int, default=8_000_000)
        ap.add_argument("--threads", type=int, default=0)
        curve_cmd(ap.parse_args(argv[1:]))
        return
    ap = argparse.ArgumentParser(prog="python -m training.ppo",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, default=None,
                    help="default runs/<the config's name>; a run there goes on")
    add_budget_arguments(ap)
    args = ap.parse_args(argv)
    args.out = args.out or Path("runs") / args.config.stem
    train(args)


if __name__ == "__main__":
    main()
