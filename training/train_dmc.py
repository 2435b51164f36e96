"""Deep Monte-Carlo (DMC) self-play training: a network Q(observation, card) learned from
the returns of its own games, as DouZero learns Dou Dizhu.

    pip install ".[train]"                                             # torch (CPU is enough)
    python training/train_dmc.py training/configs/dmc-4p.toml --out runs/dmc-4p --minutes 60
    python training/train_dmc.py training/configs/dmc-4p.toml --out runs/dmc-4p --minutes 60   # goes on
    python training/train_dmc.py curve runs/dmc-4p --opponents heuristic pimc --games 200

``docs/training.md#deep-monte-carlo`` is the user's page; in short:

- **The network** is the ``nn`` bot's MLP: the observation (and, with ``inputs =
  "observation+heuristic"``, a one-hot of the heuristic bot's card) in, one value per card
  id out. Its outputs are action values, so the bot that plays the highest is its greedy
  policy: a saved checkpoint plays as ``nn:PATH`` in Rust, with no Python.
- **Acting**: every seat a network plays picks the legal card of highest value, or with
  probability ``epsilon`` a uniformly random legal card. Pass picks are decisions like
  any other.
- **The return** of a decision is the round's value for the mover's side: the points its
  side gained in the round the decision belongs to minus the opponents' (the ``VectorEnv``
  ``"points"`` reward; ``3p``: minus the average of the two others), over the scoring's
  target (or the seals to win). Every decision of a round has its round's return: the
  same objective ``pimc`` and ``ismcts`` play for, without their round-win and game-win
  bonuses, and a dense one (a game is many rounds).
- **A start at the heuristic** (``heuristic_prior``): the network is initialised to add
  that value to the heuristic's card through a path of its own (see ``make_net``), so
  its first greedy policy is the heuristic's, not a random one.
- **Warm-up** (``warmup_segments``): in the first segments the network's seats play the
  heuristic's card (or, with probability ``warmup_epsilon``, a random legal one) and the
  past checkpoints' seats play the heuristic, so the network first learns the action
  values of the heuristic's games: its greedy policy is then one step of policy
  improvement over the heuristic, where self-play from random weights starts far below
  it. After the warm-up the network plays its own greedy cards, as above.
- **The loss** is the squared error between the value of the card played and its return.
- **Opponents**: in most envs the network plays every seat (self-play); in a share of
  envs (``[opponents]``) one side is ``heuristic``, ``pimc``, or an earlier checkpoint
  (``past``), so the network cannot overfit its own style.
- **Actors and learner overlap**: the learner thread trains on rollout ``k - 1`` while the
  actor plays rollout ``k`` with the weights learned from rollout ``k - 2``. That lag is
  fixed, so a run is deterministic for a given torch build and thread count.
- **Checkpoints** close every ``checkpoint_rollouts`` rollouts (a *segment*): the learner
  drains, the model, the optimiser and the curve are saved, the model plays ``[eval]`` on
  fixed duplicate deals (seeds the training never uses), and every env is dealt afresh
  from the segment's seed. A run stopped at any point and started again with the same
  command goes on from its last checkpoint and draws the same curve as a run never
  stopped. ``--minutes`` ends the run at the first checkpoint after the budget.

The run writes into ``--out``: ``dmc-SSSS.safetensors`` (the model after segment SSSS,
playable as ``nn:PATH``; metadata: recipe, decisions trained, seed), ``dmc.safetensors``
(the latest), ``state.pt`` (what a resume needs), ``curve.json`` and ``curve.png``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

import yokai_septet as ys
from yokai_septet import models
from yokai_septet._progress import ProgressLog, _clock

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

#: Every config key: its kind and default (None: required).
KEYS = {
    "variant": ("variant", None),
    "seed": ("count", None),
    "hidden": ("widths", None),
    "inputs": ("inputs", "observation+heuristic"),
    "envs": ("count", None),
    "steps": ("count", None),
    "max_rounds": ("count", 30),
    "epsilon": ("rate", 0.05),
    "warmup_segments": ("count0", 0),
    "warmup_epsilon": ("rate", 0.2),
    "heuristic_prior": ("rate", 0.0),
    "learning_rate": ("rate", None),
    "minibatch": ("count", 4096),
    "epochs": ("count", 1),
    "checkpoint_rollouts": ("count", None),
    "torch_threads": ("count0", 0),
}
OPPONENT_KEYS = ("heuristic", "pimc", "past")
EVAL_KEYS = {"opponent": ("bot", "heuristic"), "games": ("count", 200), "seed": ("count", None)}


def _kind_problem(kind: str, v: object) -> str:
    ok = {
        "variant": isinstance(v, str) and v in ys._core.VARIANTS,
        "count": isinstance(v, int) and not isinstance(v, bool) and v > 0,
        "count0": isinstance(v, int) and not isinstance(v, bool) and v >= 0,
        "rate": isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 1,
        "widths": isinstance(v, list) and bool(v)
        and all(isinstance(w, int) and not isinstance(w, bool) and w > 0 for w in v),
        "inputs": v in models.INPUTS,
        "bot": isinstance(v, str),
    }[kind]
    want = {"variant": f"one of {list(ys._core.VARIANTS)}", "count": "a positive integer",
            "count0": "an integer >= 0", "rate": "a number in [0, 1]",
            "widths": "a non-empty list of positive integers",
            "inputs": f"one of {list(models.INPUTS)}", "bot": "a bot name"}[kind]
    return "" if ok else f"{v!r}, expected {want}"


def config_problem(cfg: dict) -> str:
    """What is wrong with a config (which key, and why), or "" when it is sound."""
    for k in cfg:
        if k not in KEYS and k not in ("opponents", "eval"):
            return f"unknown key '{k}' (known: {', '.join([*KEYS, 'opponents', 'eval'])})"
    for k, (kind, default) in KEYS.items():
        if k not in cfg and default is None:
            return f"missing key '{k}'"
        p = _kind_problem(kind, cfg.get(k, default))
        if p:
            return f"{k} = {p}"
    opp = cfg.get("opponents", {})
    if not isinstance(opp, dict):
        return "[opponents] must be a table of shares of the envs"
    for k, v in opp.items():
        if k not in OPPONENT_KEYS:
            return f"[opponents] unknown key '{k}' (known: {', '.join(OPPONENT_KEYS)})"
        p = _kind_problem("rate", v)
        if p:
            return f"[opponents] {k} = {p}"
    if cfg.get("heuristic_prior") and cfg.get("inputs", KEYS["inputs"][1]) != \
            "observation+heuristic":
        return "heuristic_prior needs inputs = \"observation+heuristic\""
    if sum(opp.values()) >= 1:
        return "[opponents] shares add up to 1 or more: no env would be left for self-play"
    ev = cfg.get("eval", {})
    if not isinstance(ev, dict):
        return "[eval] must be a table"
    for k in ev:
        if k not in EVAL_KEYS:
            return f"[eval] unknown key '{k}' (known: {', '.join(EVAL_KEYS)})"
    for k, (kind, default) in EVAL_KEYS.items():
        if k not in ev and default is None:
            return f"[eval] missing key '{k}'"
        p = _kind_problem(kind, ev.get(k, default))
        if p:
            return f"[eval] {k} = {p}"
    return ""


def hidden_widths(cfg: dict, actions: int) -> list:
    """The hidden layers' widths: ``hidden``, each with ``actions`` more units for the
    heuristic's path when ``heuristic_prior`` is set."""
    extra = actions if cfg["heuristic_prior"] else 0
    return [h + extra for h in cfg["hidden"]]


def make_net(in_size: int, hidden: list, actions: int, prior: float = 0.0) -> nn.Sequential:
    """The MLP ``in_size -> hidden... -> actions``. With ``prior > 0`` (an
    ``observation+heuristic`` input, and ``actions`` of each hidden layer's units set
    aside) the last ``actions`` units of every hidden layer start as a copy of the
    heuristic's one-hot (the input's last ``actions`` values; a ReLU passes 0 and 1
    unchanged) and the output adds ``prior`` to the heuristic's card: the network starts
    out playing the heuristic, as a plain MLP the Rust ``nn`` bot runs. Every weight
    then trains as usual."""
    layers: list = []
    widths = [in_size, *hidden]
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    layers.append(nn.Linear(widths[-1], actions))
    net = nn.Sequential(*layers)
    if prior:
        with torch.no_grad():
            *hiddens, out = [m for m in net if isinstance(m, nn.Linear)]
            for i, lin in enumerate(hiddens):
                if i:  # the units of the path feed nothing but the path
                    lin.weight[:, -actions:] = 0
                lin.weight[-actions:, :] = 0  # which reads only the one-hot
                lin.weight[-actions:, -actions:] = torch.eye(actions)
                lin.bias[-actions:] = 0
            out.weight.zero_()  # the rest of the network starts silent
            out.bias.zero_()
            out.weight[:, -actions:] = prior * torch.eye(actions)
    return net


def sub_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed for one use of the run's seed (domain-tagged by ``parts``)."""
    h = hashlib.blake2b(repr((seed, "dmc", *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") >> 1


class Group:
    """Envs in which the network plays the seats in ``learns`` (one row per env, one column
    per seat) and ``bot`` (a bot name, or ``"past"``: an earlier checkpoint) the others.
    The seats the network plays are named ``heuristic`` in the env, so ``bot_actions()``
    also gives the heuristic's card there: the extra input of an
    ``observation+heuristic`` network."""

    def __init__(self, name: str, variant: str, n: int, learner_side: int | None, bot: str,
                 max_rounds: int) -> None:
        seats = 3 if variant == "3p" else 4
        sides = 3 if variant == "3p" else 2
        side_of = np.arange(seats) % sides
        self.name, self.bot = name, bot
        learns = np.ones(seats, bool) if learner_side is None else side_of == learner_side
        named = bot if bot in ("heuristic", "pimc") else "heuristic"
        opponents = ["heuristic" if learns[s] else named for s in range(seats)]
        self.env = ys.VectorEnv(
            n, variant, episode="game", max_rounds=max_rounds, self_play=True,
            opponents=opponents, reward_mode="points", num_threads=1, obs_dtype="uint8",
            autoreset_mode="same_step",
        )
        self.learns = learns
        self.obs = self.info = None

    def reset(self, seed: int) -> None:
        self.obs, self.info = self.env.reset(seed=seed)


class Rollouts:
    """The actor's side: the env groups, and every network decision whose round has not
    ended yet (its return is not known)."""

    def __init__(self, cfg: dict) -> None:
        v = cfg["variant"]
        self.variant, self.cfg = v, cfg
        sides = 3 if v == "3p" else 2
        shares = cfg.get("opponents", {})
        self.groups: list[Group] = []
        used = 0
        for bot in OPPONENT_KEYS:
            n = int(round(shares.get(bot, 0) * cfg["envs"] / sides))
            for side in range(sides if n else 0):
                self.groups.append(Group(f"{bot}/{side}", v, n, side, bot, cfg["max_rounds"]))
                used += n
        self.groups.insert(0, Group("self", v, cfg["envs"] - used, None, "self",
                                    cfg["max_rounds"]))
        game = ys.Game(variant=v)
        layout = {f["name"]: f for f in game.layout()}
        self.round_at = layout["round"]["offset"]
        self.actions = len(game.legal_mask())
        # The return's unit: the seals to win in the seal variants, else the advanced
        # scoring's target (the envs' default scoring), as `round_value` scales a round.
        self.scale = {"seal-short": 4.0}.get(v, 7.0)
        self.pending: list = []

    def start_segment(self, seed: int, segment: int) -> None:
        """Deals every env afresh from the segment's seed; decisions in flight are dropped
        (their rounds will never end), so a resumed run starts exactly here."""
        for i, g in enumerate(self.groups):
            g.reset(sub_seed(seed, 1, segment, i))
        self.pending = [{"parts": [], "uid": np.full(g.env.num_envs, -1)}
                        for g in self.groups]
        self.next_uid = 0
        # Every round's rewards by its id, once it has ended.
        self.round_rewards = np.zeros((1024, 4), np.float32)
        self.round_ended = np.zeros(1024, bool)

    def _new_ids(self, count: int) -> np.ndarray:
        ids = self.next_uid + np.arange(count)
        self.next_uid += count
        if self.next_uid > len(self.round_ended):
            grow = max(self.next_uid, 2 * len(self.round_ended))
            self.round_rewards = np.resize(self.round_rewards, (grow, 4))
            self.round_ended = np.concatenate(
                [self.round_ended, np.zeros(grow - len(self.round_ended), bool)])
        return ids

    def greedy(self, net: nn.Sequential, obs: np.ndarray, hint: np.ndarray, info: dict,
               rows: np.ndarray) -> np.ndarray:
        """The legal card of highest value to ``net`` in each env of ``rows``."""
        x = torch.from_numpy(models.features(obs[rows], hint[rows], self.cfg["inputs"],
                                             self.actions))
        mask = torch.from_numpy(info["action_mask"][rows])
        return net(x).masked_fill(~mask, -torch.inf).argmax(1).numpy()

    def play(self, net: nn.Sequential, past: nn.Sequential | None, steps: int,
             rng: np.random.Generator, epsilon: float, follow_hint: bool = False) -> dict:
        """Plays ``steps`` steps of every env; returns the network's decisions whose rounds
        ended: ``obs``, ``hint`` (the heuristic's card), ``action``, ``target`` (the
        return), ``seat`` and ``round`` (an id of the round, unique in the segment), and
        ``decisions``, how many the network made in these steps. With ``follow_hint``
        (the warm-up) the network's seats play the heuristic's card instead of their
        greedy one, still exploring with ``epsilon``."""
        done_parts: list = []
        decisions = 0
        for g, pend in zip(self.groups, self.pending):
            n = g.env.num_envs
            rows = np.arange(n)
            uid = pend["uid"]
            if (uid < 0).any():  # a round id for every env's round in progress
                new = uid < 0
                uid[new] = self._new_ids(int(new.sum()))
            for _ in range(steps):
                obs, info = g.obs, g.info
                to_play = info["to_play"]
                hint = g.env.bot_actions()
                action = hint.copy()
                live = to_play >= 0
                mine = live & g.learns[np.maximum(to_play, 0)]
                idx = np.flatnonzero(mine)
                with torch.inference_mode():
                    if idx.size:
                        a = hint[idx].copy() if follow_hint else self.greedy(net, obs, hint,
                                                                             info, idx)
                        explore = rng.random(idx.size) < epsilon
                        if explore.any():
                            m = info["action_mask"][idx[explore]]
                            a[explore] = (rng.random(m.shape) * m).argmax(1)
                        action[idx] = a
                        pend["parts"].append((obs[idx], hint[idx], a, to_play[idx],
                                              uid[idx].copy()))
                        decisions += idx.size
                    theirs = np.flatnonzero(live & ~mine)
                    if past is not None and g.bot == "past" and theirs.size:
                        action[theirs] = self.greedy(past, obs, hint, info, theirs)
                before = obs[:, self.round_at]
                g.obs, r, term, trunc, g.info = g.env.step(action)
                ended = term | trunc | (g.obs[:, self.round_at] != before)
                if ended.any():
                    e = np.flatnonzero(ended)
                    self.round_rewards[uid[e], : r.shape[1]] = r[e]
                    self.round_ended[uid[e]] = True
                    uid[e] = self._new_ids(e.size)
            # Decisions whose rounds ended get their returns; the others wait.
            if not pend["parts"]:
                continue
            o, h, a, seat, u = (np.concatenate(c) for c in zip(*pend["parts"]))
            known = self.round_ended[u]
            if known.any():
                ret = self.round_rewards[u[known], seat[known]]
                done_parts.append((o[known], h[known], a[known],
                                   (ret / self.scale).astype(np.float32), seat[known],
                                   u[known]))
            pend["parts"] = [(o[~known], h[~known], a[~known], seat[~known], u[~known])]
        keys = ("obs", "hint", "action", "target", "seat", "round")
        if not done_parts:
            return {**{k: np.zeros(0) for k in keys}, "decisions": decisions}
        return {**{k: np.concatenate(c) for k, c in zip(keys, zip(*done_parts))},
                "decisions": decisions}


class Learner(threading.Thread):
    """Trains on each rollout in order, on its own thread, and publishes the weights after
    each one (``weights_after(k)`` waits for them)."""

    def __init__(self, net: nn.Sequential, opt: torch.optim.Optimizer, cfg: dict,
                 actions: int) -> None:
        super().__init__(daemon=True)
        self.net, self.opt, self.cfg, self.actions = net, opt, cfg, actions
        self.cv = threading.Condition()
        self.queue: list = []
        self.trained = -1
        self.published: dict = {}
        self.samples = 0
        self.seconds = 0.0
        self.losses: list = []
        self.error: BaseException | None = None

    def submit(self, k: int, batch: dict) -> None:
        with self.cv:
            self.queue.append((k, batch))
            self.cv.notify_all()

    def weights_after(self, k: int) -> dict:
        with self.cv:
            self.cv.wait_for(lambda: self.trained >= k or self.error is not None)
            if self.error is not None:
                raise RuntimeError("the learner thread failed") from self.error
            return self.published[k]

    def publish(self, k: int) -> None:
        with self.cv:
            self.published = {j: w for j, w in self.published.items() if j >= k - 2}
            self.published[k] = {n: p.detach().clone() for n, p in
                                 self.net.state_dict().items()}
            self.trained = k
            self.cv.notify_all()

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

    def train(self, k: int, b: dict) -> None:
        n = len(b["target"])
        if n == 0:
            return
        x_all = b["obs"]
        gen = torch.Generator().manual_seed(sub_seed(self.cfg["seed"], 2, k))
        for _ in range(self.cfg["epochs"]):
            for mb in torch.randperm(n, generator=gen).split(self.cfg["minibatch"]):
                i = mb.numpy()
                x = torch.from_numpy(models.features(x_all[i], b["hint"][i],
                                                     self.cfg["inputs"], self.actions))
                q = self.net(x).gather(1, torch.from_numpy(b["action"][i]).long()[:, None])
                loss = (q[:, 0] - torch.from_numpy(b["target"][i])).pow(2).mean()
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), 40.0)
                self.opt.step()
                self.losses.append(loss.item())
        self.samples += n * self.cfg["epochs"]


def save_model(net: nn.Sequential, cfg: dict, path: Path, **meta: object) -> None:
    models.Model.from_torch(
        net, cfg["variant"], cfg["inputs"], recipe="dmc (training/train_dmc.py)",
        config=json.dumps(cfg, sort_keys=True), seed=cfg["seed"],
        **{k: str(v) for k, v in meta.items()},
    ).save(path)


def evaluate(path: Path, cfg: dict, opponent: str, games: int, seed: int,
             threads: int = 0) -> dict:
    r = models.evaluate_vs_baseline(f"nn:{path}", cfg["variant"], games, seed,
                                    baseline=opponent, threads=threads)
    return {"opponent": opponent, **{k: r[k] for k in (
        "games", "win_rate", "ci95", "board_win_rate", "board_ci95")}}


def plot(curve: list, out: Path, title: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, key, label in ((axes[0], "decisions", "training decisions (millions)"),
                           (axes[1], "wall_seconds", "wall time (hours)")):
        scale = 1e6 if key == "decisions" else 3600
        for opp in sorted({e["opponent"] for p in curve for e in p["evals"]}):
            pts = [(p[key] / scale, e) for p in curve for e in p["evals"]
                   if e["opponent"] == opp]
            xs = [x for x, _ in pts]
            ax.errorbar(xs, [e["win_rate"] for _, e in pts],
                        yerr=np.array([[e["win_rate"] - e["ci95"][0],
                                        e["ci95"][1] - e["win_rate"]] for _, e in pts]).T,
                        marker="o", capsize=3, label=f"vs {opp}")
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (95% interval)")
    axes[0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def train(args: argparse.Namespace) -> None:
    try:
        cfg = tomllib.loads(args.config.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        sys.exit(f"{args.config}: {e}")
    problem = config_problem(cfg)
    if problem:
        sys.exit(f"{args.config}: {problem}")
    for k, (_, default) in KEYS.items():
        cfg.setdefault(k, default)
    ev = {k: cfg.get("eval", {}).get(k, d) for k, (_, d) in EVAL_KEYS.items()}
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    if cfg["torch_threads"]:
        torch.set_num_threads(cfg["torch_threads"])
    torch.manual_seed(cfg["seed"])
    game = ys.Game(variant=cfg["variant"])
    obs_size, actions = len(game.observation()), len(game.legal_mask())
    in_size = models.features(np.zeros((1, obs_size)), np.zeros(1, int), cfg["inputs"],
                              actions).shape[1]
    widths = hidden_widths(cfg, actions)
    net = make_net(in_size, widths, actions, cfg["heuristic_prior"])
    opt = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"])
    state_path = out / "state.pt"
    segment, decisions, trained, curve = 0, 0, 0, []
    wall0, cpu0 = 0.0, 0.0
    if state_path.exists():
        saved = torch.load(state_path, weights_only=False)
        for k, (_, default) in KEYS.items():  # keys added since the run began
            saved["config"].setdefault(k, default)
        if saved["config"] != cfg:
            diff = sorted(k for k in {*saved["config"], *cfg}
                          if saved["config"].get(k) != cfg.get(k))
            sys.exit(f"{args.config}: {out} holds a run of another config (differs in "
                     f"{', '.join(diff)}); pass another --out, or delete it to start over")
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        segment, decisions, trained = saved["segment"], saved["decisions"], saved["trained"]
        curve, wall0, cpu0 = saved["curve"], saved["wall_seconds"], saved["cpu_seconds"]
        print(f"resuming {out} at segment {segment} ({decisions:,} decisions)", flush=True)
    if args.segments is not None and segment >= args.segments:
        print(f"{out} has its {args.segments} segments: nothing to train", flush=True)
        return
    actor = Rollouts(cfg)
    learner = Learner(net, opt, cfg, actions)
    learner.start()
    C, steps = cfg["checkpoint_rollouts"], cfg["steps"]
    start, cpu_start = time.monotonic(), time.process_time()
    acting = 0.0
    while args.segments is None or segment < args.segments:
        first = segment * C
        actor.start_segment(cfg["seed"], segment)
        learner.publish(first - 1)  # the weights at the segment's start
        past = None
        warming = segment < cfg["warmup_segments"]
        if cfg.get("opponents", {}).get("past") and not warming:
            pick = np.random.default_rng(sub_seed(cfg["seed"], 3, segment))
            pasts = sorted(out.glob("dmc-[0-9]*.safetensors"))
            pasts = [p for p in pasts if int(p.stem[4:]) < segment]
            past = make_net(in_size, widths, actions)
            if pasts:
                past.load_state_dict(models.load(pasts[pick.integers(len(pasts))])
                                     .to_torch().state_dict())
            else:
                past.load_state_dict(net.state_dict())
        player = make_net(in_size, widths, actions)
        seg_decisions = 0
        t_seg = time.perf_counter()
        log = ProgressLog(f"dmc {cfg['variant']} segment {segment + 1}", C, unit="rollout")
        for k in range(first, first + C):
            log.update(k - first, decisions=decisions + seg_decisions)
            player.load_state_dict(learner.weights_after(max(k - 2, first - 1)))
            t = time.perf_counter()
            rng = np.random.default_rng(sub_seed(cfg["seed"], 4, k))
            batch = actor.play(player, past, steps, rng,
                               cfg["warmup_epsilon"] if warming else cfg["epsilon"],
                               follow_hint=warming)
            acting += time.perf_counter() - t
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
        path = out / f"dmc-{segment:04d}.safetensors"
        save_model(net, cfg, path, segment=segment, decisions=decisions, trained=trained)
        save_model(net, cfg, out / "dmc.safetensors", segment=segment, decisions=decisions,
                   trained=trained)
        e = evaluate(path, cfg, ev["opponent"], ev["games"], ev["seed"])
        loss = float(np.mean(learner.losses)) if learner.losses else float("nan")
        learner.losses.clear()
        point = {"segment": segment, "decisions": decisions, "trained": trained,
                 "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                 "actor_decisions_per_second": round(seg_decisions / seg_seconds),
                 "learner_samples_per_second": round(learner.samples / max(learner.seconds,
                                                                            1e-9)),
                 "loss": loss, "evals": [e]}
        learner.samples, learner.seconds = 0, 0.0
        curve.append(point)
        torch.save({"config": cfg, "net": net.state_dict(), "opt": opt.state_dict(),
                    "segment": segment, "decisions": decisions, "trained": trained,
                    "curve": curve, "wall_seconds": wall, "cpu_seconds": cpu},
                   state_path.with_suffix(".tmp"))
        os.replace(state_path.with_suffix(".tmp"), state_path)
        (out / "curve.json").write_text(json.dumps(curve, indent=1))
        plot(curve, out / "curve.png", f"DMC {cfg['variant']} ({args.config.name})")
        print(f"segment {segment}: {decisions:,} decisions, {_clock(wall)} wall, "
              f"{point['actor_decisions_per_second']:,} decisions/s acting, "
              f"{point['learner_samples_per_second']:,} samples/s learning, loss {loss:.4f};"
              f" vs {e['opponent']} {e['win_rate']:.3f} [{e['ci95'][0]:.3f}, "
              f"{e['ci95'][1]:.3f}]", flush=True)
        if args.minutes is not None and time.monotonic() - start >= args.minutes * 60:
            break
    learner.submit(-1, None)
    # Joined before the interpreter shuts down: a daemon thread still inside torch there
    # made torch's threads abort the process (exit 134) after the last checkpoint.
    learner.join()


def curve_cmd(args: argparse.Namespace) -> None:
    """Evaluates every checkpoint of a run against ``--opponents`` on the same fixed
    duplicate deals, and writes ``curve-full.json`` and ``curve-full.png``."""
    state = torch.load(args.run / "state.pt", weights_only=False)
    cfg, points = state["config"], state["curve"]
    results = []
    for p in points:
        if args.every and p["segment"] % args.every and p is not points[-1]:
            continue
        path = args.run / f"dmc-{p['segment']:04d}.safetensors"
        evals = [evaluate(path, cfg, o, args.games, args.seed, args.threads)
                 for o in args.opponents]
        results.append({**{k: p[k] for k in ("segment", "decisions", "wall_seconds")},
                        "evals": evals})
        print(json.dumps(results[-1]), flush=True)
    (args.run / "curve-full.json").write_text(json.dumps(results, indent=1))
    plot(results, args.run / "curve-full.png", f"DMC {cfg['variant']}: fixed duplicate deals")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "curve":
        ap = argparse.ArgumentParser(prog="train_dmc.py curve", description=curve_cmd.__doc__)
        ap.add_argument("run", type=Path)
        ap.add_argument("--opponents", nargs="+", default=["heuristic", "pimc"])
        ap.add_argument("--games", type=int, default=200)
        ap.add_argument("--seed", type=int, default=7_000_000)
        ap.add_argument("--every", type=int, default=0, help="every Nth checkpoint (0: all)")
        ap.add_argument("--threads", type=int, default=0)
        curve_cmd(ap.parse_args(sys.argv[2:]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, default=None,
                    help="default runs/<the config's name>; a run there goes on")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop at the first checkpoint after this many minutes")
    ap.add_argument("--segments", type=int, default=None,
                    help="stop after this many checkpoints in all")
    args = ap.parse_args()
    args.out = args.out or Path("runs") / args.config.stem
    train(args)


if __name__ == "__main__":
    main()
