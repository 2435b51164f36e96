"""Trains a baseline policy for one variant by imitating a search bot, and evaluates it
against the heuristic bot after every stage.

    pip install ".[train]"                                   # torch (CPU is enough)
    python training/train_baseline.py training/configs/4p.toml --out runs/4p

The recipe (``docs/baselines.md`` says why):

0. Pretrain (``[pretrain]``): the heuristic bot plays every seat and the network learns
   its card. With ``inputs = "observation+heuristic"`` (the network also reads a one-hot
   of the heuristic's card) this teaches it to copy the heuristic exactly.
1. Bootstrap (``[bootstrap]``): games where the teacher (``pimc``, a search bot), or the
   bot named by ``players``, plays every seat; every decision is recorded with the
   teacher's card and its value of each legal card (``yokai_septet.models.imitation_data``,
   generated in Rust on every core).
2. Behaviour cloning: the MLP learns a softmax of the teacher's values (cross-entropy
   over the legal cards), so it departs from the heuristic where the search does.
   ``[train] schedule = "cosine"`` decays the learning rate to zero over these passes
   (the default, ``"constant"``, keeps it).
3. DAgger (``[dagger]``, off in the shipped configs): the student (``nn:student.safetensors``,
   run by the Rust ``nn`` bot) plays one side against the heuristic; the teacher labels
   the student's decisions; the network is trained again on everything so far. Repeat.
4. Expert iteration (``[expert_iteration]``, :func:`expert_iteration`): the current
   network plays (``players``, by default ``nn:{student}`` at every seat), the search
   ``teacher`` labels every decision with its card and values (as in the bootstrap), the
   network trains on the labels of the last ``window`` iterations with one optimizer
   throughout, and the new model becomes ``{student}`` for the next iteration: a bot-name
   template, so a search the network guides (``ismcts-nn:800:{student}``) grows stronger
   with it. Each iteration's model is kept as ``student-exit-K.safetensors``. After each
   one the run writes ``exit-state.pt`` (model, optimizer, curve, random state; the replay
   window is the cached ``exit-K.npz`` files): a run killed part-way and started again
   with the same command goes on from the last completed iteration and ends with the
   models of an uninterrupted run. A raised ``iterations`` (or other ``threads``) goes on
   further; any other change to the config is refused.
5. Fine-tuning (``[finetune]``, in every shipped config): PPO from the model above,
   playing one side of whole games against ``opponent`` bots for a +1 win / -1 loss
   reward (0 for a game stopped by ``max_rounds``), with a critic that reads the full
   state (:func:`finetune`).

A config may start from a saved model instead of a fresh network: ``init = "PATH"``
(same variant, inputs and hidden widths), e.g. another run's ``student.safetensors``, so
that PPO goes on where that run stopped (its metadata records the file's name and hash).

After every iteration the student plays a duplicate-deal arena against ``[eval]
opponent`` (the Rust arena), and against each bot of ``[eval] opponents`` (fixed
opponents, e.g. ``["pimc"]``) on the same deals. The script writes into ``--out``: ``student.safetensors``
(the final model, playable as ``nn:PATH``; PPO's evaluated checkpoints are also kept as
``student-ppo-U.safetensors``), ``curve.json`` (per iteration: labels so far,
CPU and wall seconds, win rates and their Wilson 95% intervals) and ``learning_curve.png``
(with matplotlib). ``--install`` copies the model to ``crates/yokai-septet-models/models/<variant>.safetensors``,
the file the ``nn`` bot ships.

Everything is seeded from the config's ``seed``: the games and labels come from the
Rust arena's seeds, torch's initialisation, the shuffling and PPO's sampling from
``seed``; with the same torch build and thread count a run reproduces its model.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Callable

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

ROOT = Path(__file__).resolve().parent.parent


def make_net(obs_size: int, hidden: list, actions: int) -> nn.Sequential:
    layers: list = []
    width = obs_size
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, actions))
    return nn.Sequential(*layers)


class Data:
    """Every labelled decision gathered so far: uint8 observations, bool masks, the
    teacher's cards, its per-card values (NaN where it did not search), a tree search
    teacher's share of its visits of each card (NaN elsewhere) and the heuristic bot's
    cards (the extra input of an ``observation+heuristic`` network)."""

    KEYS = ("observations", "masks", "labels", "values", "visits", "heuristic")

    def __init__(self) -> None:
        self.parts: list = []

    def add(self, d: dict) -> int:
        self.parts.append(tuple(d[k] for k in self.KEYS))
        return len(d["labels"])

    def arrays(self):
        return [np.concatenate([p[i] for p in self.parts]) for i in range(len(self.KEYS))]

    def __len__(self) -> int:
        return sum(len(p[2]) for p in self.parts)


def gather(out: Path, name: str, depends: dict | None = None, **kwargs) -> dict:
    """``models.imitation_data(**kwargs)``, cached in ``out/name.npz`` (the data depends
    only on the arguments, and on ``depends``, e.g. the hashes of the model files the bots
    read, so a cached file is reused when they are the same)."""
    path = out / f"{name}.npz"
    key = json.dumps({**{k: v for k, v in kwargs.items() if k != "threads"}, **(depends or {})},
                     sort_keys=True)
    if path.exists():
        cached = np.load(path)
        if str(cached["key"]) == key:
            got = {k: cached[k] for k in Data.KEYS if k in cached.files}
            if "visits" not in got and "values" in got:
                # Saved before visits were recorded: its teacher reported none (only
                # tree searches do, and they reported nothing at all then).
                got["visits"] = np.full_like(got["values"], np.nan)
            if all(k in got for k in Data.KEYS):
                return got
    d = models.imitation_data(**kwargs, progress=ProgressLog.callback(f"labels {name}"))
    np.savez(path, key=key, **{k: d[k] for k in Data.KEYS})
    return d


def passing_picks(d: dict, variant: str) -> np.ndarray:
    """Which of ``d``'s decisions are passing picks (the observation's phase field)."""
    phase = next(f for f in ys.Game(variant=variant).layout() if f["name"] == "phase")
    return d["observations"][:, phase["offset"]] == 1  # its first entry: "pass"


def subset(d: dict, keep: np.ndarray) -> dict:
    """The decisions of ``d`` where ``keep`` is true."""
    return {k: d[k][keep] for k in Data.KEYS}


TARGETS = ("values", "visits")


def targets(masks: torch.Tensor, labels: torch.Tensor, values: torch.Tensor,
            heuristic: torch.Tensor, temperature: float, margin: float,
            visits: torch.Tensor | None = None) -> torch.Tensor:
    """The distribution to imitate: where the teacher searched, a softmax of its values
    over the cards it valued (near-equal cards share the mass: the teacher's choice
    between them is noise); elsewhere, and with ``temperature = 0``, its card. With
    ``margin > 0``, where the heuristic's card is valued within ``margin`` of the best
    card, the heuristic's card alone: depart from it only where the search is sure.
    With ``visits`` (``[train] target = "visits"``), where a tree search teacher
    reported its visits, their shares instead (AlphaZero's target: the search's own
    policy, which plays the most visited card; a rarely tried card's mean value is
    noise, its few visits say how little the search thought of it), margin or not."""
    onehot = torch.zeros(masks.shape).scatter_(1, labels[:, None], 1.0)
    valued = ~torch.isnan(values)
    searched = valued.any(dim=1, keepdim=True)
    if temperature > 0:
        soft = torch.softmax(
            torch.where(valued, values / temperature, torch.full_like(values, -1e9)), dim=1
        )
        target = torch.where(searched, soft, onehot)
    else:
        target = onehot
    if margin > 0:
        filled = torch.where(valued, values, torch.full_like(values, -1e9))
        best = filled.max(dim=1).values
        at_heuristic = filled.gather(1, heuristic[:, None])[:, 0]
        keep = searched[:, 0] & (at_heuristic >= best - margin)
        heur = torch.zeros(masks.shape).scatter_(1, heuristic[:, None], 1.0)
        target = torch.where(keep[:, None], heur, target)
    if visits is not None:
        visited = ~torch.isnan(visits).all(dim=1, keepdim=True)
        target = torch.where(visited, torch.nan_to_num(visits, nan=0.0), target)
    return target


def net_input(obs: torch.Tensor, heuristic: torch.Tensor, inputs: str,
              actions: int) -> torch.Tensor:
    """The network's input rows: ``yokai_septet.models.features``, as a tensor."""
    return torch.from_numpy(models.features(obs.numpy(), heuristic.numpy(), inputs, actions))


SCHEDULES = ("constant", "cosine")


def lr_factor(schedule: str, steps: int) -> Callable[[int], float]:
    """The learning rate's factor at step ``t`` of ``steps``: 1 throughout
    (``"constant"``), or a cosine from 1 down to 0 (``"cosine"``: the last steps average
    over many batches of noisy search labels instead of following the latest few)."""
    if schedule == "constant":
        return lambda t: 1.0
    if schedule == "cosine":
        return lambda t: 0.5 * (1 + math.cos(math.pi * min(t, steps) / max(steps, 1)))
    raise ValueError(f"schedule '{schedule}', expected one of {SCHEDULES}")


def make_optimizer(net: nn.Sequential, cfg: dict) -> torch.optim.AdamW:
    return torch.optim.AdamW(
        net.parameters(), lr=cfg["learning_rate"], weight_decay=cfg["weight_decay"]
    )


def train(net: nn.Sequential, data: Data, cfg: dict, rng: np.random.Generator,
          inputs: str, opt: torch.optim.Optimizer | None = None) -> dict:
    """``cfg["epochs"]`` passes of masked cross-entropy against :func:`targets` over all
    data but a held-out twentieth; returns the loss and the agreement with the teacher's
    card on the training and the held-out decisions. With ``opt`` (expert iteration) the
    passes go on with that optimizer and its state, else with a fresh one."""
    obs, masks, labels, values, visits, heur = (torch.from_numpy(a) for a in data.arrays())
    use_visits = cfg.get("target", "values") == "visits"
    actions = masks.shape[1]
    n = len(labels)
    perm = torch.from_numpy(np.random.default_rng(0).permutation(n))
    held, fit = perm[: n // 20], perm[n // 20 :]
    opt = opt if opt is not None else make_optimizer(net, cfg)
    bs, temp = cfg["batch_size"], cfg.get("temperature", 0.0)
    margin = cfg.get("margin", 0.0)
    steps = cfg["epochs"] * -(-len(fit) // bs)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lr_factor(cfg.get("schedule", "constant"), steps)
    )
    # Whole lines with an ETA, on a terminal and in a log alike.
    log = ProgressLog("imitation", steps, unit="minibatch")
    step = 0
    for epoch in range(cfg["epochs"]):
        order = fit[torch.from_numpy(rng.permutation(len(fit)))]
        total, agree = 0.0, 0
        for start in range(0, len(order), bs):
            log.update(step, epoch=epoch + 1)
            step += 1
            idx = order[start : start + bs]
            x = net_input(obs[idx], heur[idx], inputs, actions)
            logits = net(x).masked_fill(~masks[idx], -1e9)
            target = targets(masks[idx], labels[idx], values[idx], heur[idx], temp, margin,
                             visits[idx] if use_visits else None)
            loss = -(target * torch.log_softmax(logits, dim=1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            agree += (logits.argmax(1) == labels[idx]).sum().item()
    log.close(step, loss=total / max(len(fit), 1))
    with torch.no_grad():
        x = net_input(obs[held], heur[held], inputs, actions)
        logits = net(x).masked_fill(~masks[held], -1e9)
        held_agree = (logits.argmax(1) == labels[held]).float().mean().item()
    return {"loss": total / len(fit), "agreement": agree / len(fit),
            "held_out_agreement": held_agree}


FINETUNE_KEYS = ("updates", "opponent", "envs", "steps", "max_rounds", "temperature",
                 "learning_rate", "critic_learning_rate", "critic_warmup", "clip", "epochs",
                 "minibatch", "gae_lambda", "eval_every")


def config_problem(cfg: dict) -> str:
    """What is wrong with the config's ``teacher``, ``init``, ``[train] schedule`` or
    ``[finetune]`` section, as "[section] key = value, expected ..." ("" if nothing;
    ``updates = 0`` turns the fine-tuning stage off)."""
    for section in ("train", "finetune"):
        schedule = cfg.get(section, {}).get("schedule", "constant")
        if schedule not in SCHEDULES:
            return f"[{section}] schedule = '{schedule}', expected one of {SCHEDULES}"
    target = cfg.get("train", {}).get("target", "values")
    if target not in TARGETS:
        return f"[train] target = {target!r}, expected one of {TARGETS}"
    searched = (cfg.get("bootstrap", {}).get("games", 0) > 0
                or cfg.get("dagger", {}).get("iterations", 0) > 0)
    if searched and "teacher" not in cfg:
        return "teacher is missing (the bot whose values [bootstrap] and [dagger] learn)"
    boot = cfg.get("bootstrap", {})
    pass_games = boot.get("pass_games", 0)
    if pass_games != 0:
        if type(pass_games) is not int or pass_games < 0:
            return f"[bootstrap] pass_games = {pass_games!r}, expected a positive integer"
        if "pass_teacher" not in boot:
            return ("[bootstrap] pass_games is set but pass_teacher is missing (the search"
                    " that labels the passing picks, e.g. 'pimc:1/1400')")
        if boot.get("games", 0) <= 0:
            return ("[bootstrap] pass_games needs bootstrap games beside it (a positive integer"
                    " `games`): trained on passing picks alone, the network loses its card play")
        try:
            ys.Bot(boot["pass_teacher"])
        except (ValueError, TypeError) as e:
            return f"[bootstrap] pass_teacher = {boot['pass_teacher']!r}: {e}"
    init = cfg.get("init")
    if init is not None:
        if not isinstance(init, str):
            return f"init = {init!r}, expected the path of a model file"
        problem = init_problem(cfg, Path(init))
        if problem:
            return problem
    problem = exit_problem(cfg)
    if problem:
        return problem
    ft = cfg.get("finetune")
    if ft is None or ft.get("updates", 1) == 0:
        return ""
    missing = [k for k in FINETUNE_KEYS if k not in ft]
    if missing:
        return f"[finetune] lacks {', '.join(missing)}"
    for k in ("updates", "envs", "steps", "epochs", "minibatch", "eval_every"):
        if type(ft[k]) is not int or ft[k] <= 0:
            return f"[finetune] {k} = {ft[k]!r}, expected a positive integer"
    for k in ("temperature", "learning_rate", "critic_learning_rate", "clip", "gae_lambda"):
        if type(ft[k]) not in (int, float) or not ft[k] > 0:
            return f"[finetune] {k} = {ft[k]!r}, expected > 0"
    if cfg.get("inputs") == "observation+heuristic" and ft["opponent"] != "heuristic":
        # VectorEnv.bot_actions() gives the opponents' bot's card at the learner's seat
        # too: that is the heuristic's card, which this network reads, only if they are
        # heuristic bots.
        return (f"[finetune] opponent = '{ft['opponent']}', expected 'heuristic' for a"
                " network that reads the heuristic's card")
    return ""


def init_problem(cfg: dict, path: Path) -> str:
    """What keeps the model file ``init`` from being this config's starting network ("" if
    nothing): it must exist and have the config's variant, inputs and hidden widths."""
    if not path.is_file():
        return f"init = '{path}': no such file"
    try:
        m = models.load(path)
    except ValueError as e:
        return f"init = '{path}': {e}"
    widths = [w.shape[0] for w, _ in m.layers[:-1]]
    for key, have, want in (("variant", m.variant, cfg["variant"]),
                            ("inputs", m.inputs, cfg.get("inputs", "observation")),
                            ("hidden", widths, cfg["hidden"])):
        if have != want:
            return f"init = '{path}': its {key} is {have!r}, the config's {want!r}"
    return ""


def gae(rew: np.ndarray, done: np.ndarray, value: np.ndarray, env_of: np.ndarray,
        bounds: list, last: np.ndarray, lam: float) -> tuple:
    """Generalised advantage estimates (gamma 1) of a rollout's learner decisions, in the
    order they were taken: ``env_of[k]`` is decision ``k``'s env, ``rew[k]`` the reward
    that came after it, ``done[k]`` whether its episode ended before that env's next one;
    ``bounds`` cut the decisions into table steps; ``last[i]`` is env ``i``'s latest
    decision (-1: none). An env's latest decision whose episode goes on is *held*: its
    return is not known yet, so it gets no advantage here and its value bootstraps the
    decisions before it. Returns ``(advantages, held)``."""
    n, n_envs = len(rew), len(last)
    hold = np.zeros(n, bool)
    open_ = (last >= 0) & ~done[np.maximum(last, 0)]
    hold[last[open_]] = True
    next_v, next_adv = np.zeros(n_envs, np.float32), np.zeros(n_envs, np.float32)
    next_v[open_] = value[last[open_]]
    adv = np.zeros(n, np.float32)
    for j in range(len(bounds) - 2, -1, -1):
        s, e = bounds[j], bounds[j + 1]
        ids, live = env_of[s:e], (~done[s:e]).astype(np.float32)
        delta = rew[s:e] + live * next_v[ids] - value[s:e]
        ad = delta + lam * live * next_adv[ids]
        ad[hold[s:e]] = 0.0
        adv[s:e] = ad
        next_v[ids], next_adv[ids] = value[s:e], ad
    return adv, hold


def finetune(net: nn.Sequential, variant: str, inputs: str, cfg: dict, seed: int,
             checkpoint: Callable[[str, dict], None]) -> None:
    """PPO from the imitation model. The network plays one side (both seats of a team; one
    seat in ``3p``) of whole games against ``cfg["opponent"]`` bots, rewarded +1 for a
    win and -1 for a loss (0 for a game stopped by ``max_rounds``), and samples its card
    from a softmax of its logits at ``temperature``: at 1 the imitation model's sampled
    play loses most games, at 0.2 it plays about as well as its greedy self (the bot
    plays greedily). The critic is a separate network that reads the full state
    (``state_tensor``) besides the side's observation; only training sees it, and the
    policy still reads its seat's view alone.
    For the first ``critic_warmup`` updates only the critic learns, so the first policy
    steps use a fitted baseline. Calls ``checkpoint("ppo U", stats)`` every
    ``eval_every`` updates and after the last."""
    sides = ys.Game(variant).num_sides
    n_envs, steps = cfg["envs"], cfg["steps"]
    env = ys.VectorEnv(
        n_envs, variant, seed=seed + 5000, episode="game", max_rounds=cfg["max_rounds"],
        self_play=True, opponents=cfg["opponent"], reward_mode="win", num_threads=1,
        obs_dtype="uint8", state_tensor=True, autoreset_mode="same_step",
    )
    actions = env.single_action_space_n
    obs, info = env.reset()
    critic = nn.Sequential(
        nn.Linear(info["state"].shape[1] + obs.shape[1], 256), nn.ReLU(),
        nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1),
    )
    opt = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"])
    # The policy's rate over its own updates (after the critic's warm-up): constant, or
    # a cosine to zero, so the last updates settle instead of wandering with the noise of
    # each rollout's game results.
    policy_updates = cfg["updates"] - cfg["critic_warmup"]
    factor = lr_factor(cfg.get("schedule", "constant"), policy_updates)
    copt = torch.optim.Adam(critic.parameters(), lr=cfg["critic_learning_rate"])
    side = np.arange(n_envs) % sides  # env i's learner: the seats with seat % sides == side[i]
    rows = np.arange(n_envs)
    tau, clip, lam = cfg["temperature"], cfg["clip"], cfg["gae_lambda"]
    stats = {"decisions": 0, "games": 0, "wins": 0}

    def logits_of(x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        return (net(x) / tau).masked_fill(~m, -1e9)

    # Each env's decision still in flight when a rollout ends: (inputs, mask, card,
    # log-prob, value, critic input, env, reward so far). It is trained in the next
    # rollout, once its return is known, and bootstraps the decisions before it.
    held = None
    log = ProgressLog("finetune", cfg["updates"], unit="update")
    for update in range(1, cfg["updates"] + 1):
        log.update(update - 1)
        cols: list = [[] for _ in range(7)] if held is None else [[h] for h in held[:7]]
        cap = steps * n_envs + n_envs
        rew, done = np.zeros(cap, np.float32), np.zeros(cap, bool)
        last = np.full(n_envs, -1)  # each env's latest learner decision
        bounds = [0]
        if held is not None:
            n_held = held[6].size
            rew[:n_held] = held[7]
            last[held[6]] = np.arange(n_held)
            bounds.append(n_held)
        with torch.inference_mode():
            for _ in range(steps):
                a = env.bot_actions()  # the opponents' cards, and the heuristic's at ours
                idx = np.flatnonzero(info["to_play"] % sides == side)
                if idx.size:
                    x = torch.from_numpy(models.features(obs[idx], a[idx], inputs, actions))
                    m = torch.from_numpy(info["action_mask"][idx])
                    c = torch.from_numpy(
                        np.concatenate([info["state"][idx], obs[idx]], 1).astype(np.float32))
                    logits = logits_of(x, m)
                    card = torch.distributions.Categorical(logits=logits).sample()
                    logp = torch.log_softmax(logits, -1).gather(1, card[:, None])[:, 0]
                    for col, v in zip(cols, (x, m, card, logp, critic(c)[:, 0], c, idx)):
                        col.append(v)
                    a[idx] = card.numpy()
                    last[idx] = np.arange(bounds[-1], bounds[-1] + idx.size)
                    bounds.append(bounds[-1] + idx.size)
                obs, r, term, trunc, info = env.step(a)
                mine = r[rows, side]
                has = last >= 0
                rew[last[has]] += mine[has]
                ended = term | trunc
                stats["games"] += int(ended.sum())
                stats["wins"] += int((mine[ended] > 0).sum())
                done[last[ended & has]] = True
        n = bounds[-1]
        x, m, card, logp, value, c = (torch.cat(col) for col in cols[:6])
        env_of = np.concatenate(cols[6])
        rew, done, value_np = rew[:n], done[:n], value.numpy()
        stats["decisions"] += n - (0 if held is None else held[6].size)  # new ones only
        adv, hold = gae(rew, done, value_np, env_of, bounds, last, lam)
        h = torch.from_numpy(np.flatnonzero(hold))
        held = (x[h], m[h], card[h], logp[h], value[h], c[h], env_of[hold], rew[hold])
        keep = torch.from_numpy(np.flatnonzero(~hold))
        ret = torch.from_numpy(adv + value_np)[keep]
        ad = torch.from_numpy(adv)[keep]
        ad = (ad - ad.mean()) / (ad.std() + 1e-8)
        x, m, card, logp, c = x[keep], m[keep], card[keep], logp[keep], c[keep]
        # ---- PPO epochs (the policy only after the critic's warm-up)
        opt.param_groups[0]["lr"] = cfg["learning_rate"] * factor(
            max(update - cfg["critic_warmup"] - 1, 0))
        for _ in range(cfg["epochs"]):
            for mb in torch.randperm(len(keep)).split(cfg["minibatch"]):
                vloss = (critic(c[mb])[:, 0] - ret[mb]).pow(2).mean()
                copt.zero_grad()
                vloss.backward()
                nn.utils.clip_grad_norm_(critic.parameters(), 1.0)
                copt.step()
                if update > cfg["critic_warmup"]:
                    new = torch.log_softmax(logits_of(x[mb], m[mb]), -1)
                    ratio = (new.gather(1, card[mb, None])[:, 0] - logp[mb]).exp()
                    loss = -torch.min(ratio * ad[mb],
                                      ratio.clamp(1 - clip, 1 + clip) * ad[mb]).mean()
                    opt.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                    opt.step()
        if update % cfg["eval_every"] == 0 or update == cfg["updates"]:
            checkpoint(f"ppo {update}", {
                "decisions": stats["decisions"], "updates": update,
                "sampled_win_rate": stats["wins"] / max(stats["games"], 1),
                "critic_loss": vloss.item(),
            })
            stats["games"] = stats["wins"] = 0
    log.close(cfg["updates"])


def evaluate(path: Path, variant: str, cfg: dict, threads: int) -> dict:
    r = models.evaluate_vs_baseline(f"nn:{path}", variant, cfg["games"], cfg["seed"],
                                    baseline=cfg["opponent"], threads=threads,
                                    progress=ProgressLog.callback("evaluate"))
    return {k: r[k] for k in ("win_rate", "ci95", "games")}


# ---- Expert iteration ([expert_iteration])

#: The keys of ``[expert_iteration]``: their kind and default (``None``: required;
#: ``"[train]"``: the ``[train]`` section's value).
EXIT_KEYS = {
    "iterations": ("count", None),
    "teacher": ("bot", None),
    "players": ("bot", "nn:{student}"),
    "games": ("count", None),
    "max_rounds": ("count", 30),
    "window": ("count", 1),
    "epochs": ("count", "[train]"),
    "learning_rate": ("rate", "[train]"),
}


def bot_problem(where: str, name: object, student: Path | None) -> str:
    """What is wrong with the bot name ``name`` at ``where`` ("" if nothing). With
    ``student``, a template whose one field, ``{student}``, is filled with that model's
    path (the current network's file); without, a fixed name."""
    if not isinstance(name, str):
        return f"{where} = {name!r}, expected a bot name"
    filled = name
    if student is not None:
        try:
            filled = name.format(student=student)
        except (KeyError, IndexError, ValueError):
            return f"{where} = {name!r}: its only field may be {{student}} (the network's file)"
    elif "{" in name:
        return f"{where} = {name!r}: a fixed opponent, expected no {{student}} in it"
    try:
        ys.Bot(filled)
    except (ValueError, TypeError) as e:
        return f"{where} = {name!r}: {e}"
    return ""


def exit_problem(cfg: dict) -> str:
    """What is wrong with the config's ``[expert_iteration]`` or ``[eval] opponents`` ("" if
    nothing; no section or ``iterations = 0`` turns the stage off)."""
    ev = cfg.get("eval", {})
    opponents = ev.get("opponents", [])
    if not isinstance(opponents, list):
        return f"[eval] opponents = {opponents!r}, expected a list of bot names"
    for name in opponents:
        problem = bot_problem("[eval] opponents", name, None)
        if problem:
            return problem
    ex = cfg.get("expert_iteration")
    if ex is None or ex.get("iterations", 1) == 0:
        return ""
    for key in ex:
        if key not in EXIT_KEYS:
            return f"[expert_iteration] {key}: unknown key, expected one of {', '.join(EXIT_KEYS)}"
    missing = [k for k, (_, default) in EXIT_KEYS.items() if default is None and k not in ex]
    if missing:
        return f"[expert_iteration] lacks {', '.join(missing)}"
    # The shipped model of the variant stands in for the student files to come.
    stand_in = ROOT / "crates" / "yokai-septet-models" / "models" / f"{cfg['variant']}.safetensors"
    for key, (kind, _) in EXIT_KEYS.items():
        if key not in ex:
            continue
        value, where = ex[key], f"[expert_iteration] {key}"
        if kind == "count" and (type(value) is not int or value <= 0):
            return f"{where} = {value!r}, expected a positive integer"
        if kind == "rate" and (type(value) not in (int, float) or not value > 0):
            return f"{where} = {value!r}, expected > 0"
        if kind == "bot":
            problem = bot_problem(where, value, stand_in)
            if problem:
                return problem
    return ""


def exit_train_config(cfg: dict) -> dict:
    """The ``[train]`` settings of the expert iteration's passes (its own ``epochs`` and
    ``learning_rate`` where it has them)."""
    ex = cfg["expert_iteration"]
    return {**cfg["train"], **{k: ex[k] for k in ("epochs", "learning_rate") if k in ex}}


def resume_problem(saved: dict, cfg: dict) -> str:
    """How the config a checkpoint was saved under differs from ``cfg`` ("" if only in
    ``threads`` or ``[expert_iteration] iterations``: a run may be taken further than it
    was meant to go, on any number of cores)."""
    def loose(c: dict) -> dict:
        c = {k: v for k, v in c.items() if k != "threads"}
        if "expert_iteration" in c:
            c["expert_iteration"] = {k: v for k, v in c["expert_iteration"].items()
                                     if k != "iterations"}
        return c

    a, b = loose(saved), loose(cfg)
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            return f"its {key} was {a.get(key)!r}"
    return ""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def student_file(out: Path, k: int) -> Path:
    """The model expert iteration ``k`` ends with (0: the one it starts from)."""
    return out / f"student-exit-{k}.safetensors"


def exit_labels(out: Path, cfg: dict, k: int, threads: int) -> dict:
    """Iteration ``k``'s labelled games: ``players`` at every seat, every decision labelled
    by ``teacher``, both with ``{student}`` the model iteration ``k - 1`` ended with. Cached
    in ``out/exit-K.npz`` under that model's hash, so a resumed run rebuilds its replay
    window from the files (or regenerates the same labels where they are gone)."""
    ex, variant = cfg["expert_iteration"], cfg["variant"]
    players = ex.get("players", EXIT_KEYS["players"][1])
    student = student_file(out, k - 1)
    sides = list(range(ys.Game(variant).num_sides))
    return gather(
        out, f"exit-{k}", depends={"student_sha256": sha256(student)},
        bots=[players.format(student=student)] * len(sides),
        teacher=ex["teacher"].format(student=student), labelled=sides, variant=variant,
        games=ex["games"], seed=cfg["seed"] + 20000 + k,
        max_rounds=ex.get("max_rounds", EXIT_KEYS["max_rounds"][1]),
        threads=threads,
    )


def expert_iteration(net: nn.Sequential, cfg: dict, out: Path, rng: np.random.Generator,
                     threads: int, checkpoint: Callable[[str, dict], None],
                     save_state: Callable[[int, torch.optim.Optimizer], None],
                     resume: dict | None) -> None:
    """Expert iteration: the current network (through ``players``, e.g. ``nn:{student}``
    or a search guided by it) plays ``games`` games; ``teacher`` (a search, maybe guided by
    the same network) labels every decision with its card and values; the network is
    trained (:func:`train`, one optimizer throughout) on the labels of the last ``window``
    iterations; the new model is evaluated (``checkpoint``) and becomes ``{student}``.
    After each iteration ``save_state`` writes what a resumed run needs; ``resume`` is
    that state, where a run goes on."""
    ex = cfg["expert_iteration"]
    tcfg = exit_train_config(cfg)
    opt = make_optimizer(net, tcfg)
    start = 0
    if resume is not None:
        opt.load_state_dict(resume["optimizer"])
        start = resume["iteration"]
    else:
        shutil.copyfile(out / "student.safetensors", student_file(out, 0))
    window = ex.get("window", EXIT_KEYS["window"][1])
    replay = [exit_labels(out, cfg, k, threads) for k in range(max(1, start - window + 2), start + 1)]
    total, began = ex["iterations"], time.time()
    for k in range(start + 1, total + 1):
        clock = time.time(), time.process_time()
        replay = (replay + [exit_labels(out, cfg, k, threads)])[-window:]
        # What each part of an iteration costs, in seconds (the labels: 0 where cached).
        cost = {"label_wall": time.time() - clock[0], "label_cpu": time.process_time() - clock[1]}
        data = Data()
        for d in replay:
            data.add(d)
        clock = time.time(), time.process_time()
        stats = train(net, data, tcfg, rng, inputs=cfg.get("inputs", "observation"), opt=opt)
        cost.update(train_wall=time.time() - clock[0], train_cpu=time.process_time() - clock[1])
        checkpoint(f"exit {k}", {**stats, "exit_labels": len(replay[-1]["labels"]),
                                 "window_labels": len(data), "seconds": cost})
        save_state(k, opt)
        done = k - start
        left = (time.time() - began) * (total - k) / done
        print(f"expert iteration {k}/{total}: about {_clock(left)} left", flush=True)


def plot_ticks(curve: list, most: int = 12) -> list:
    """The stages the plot names: every stage before PPO, and PPO's checkpoints thinned to
    at most the rest of ``most`` (at least the last), counted back from the last so that
    the final model is named (a long PPO run would otherwise crowd out where it started)."""
    ppo = [i for i, p in enumerate(curve) if "decisions" in p["train"]]
    ticks = [i for i, p in enumerate(curve) if "decisions" not in p["train"]]
    if ppo:
        every = math.ceil(len(ppo) / max(most - len(ticks), 1))
        ticks += ppo[::-1][::every]
    return sorted(ticks)


def plot(curve: list, variant: str, opponent: str, out: Path) -> None:
    """The win rate against ``opponent`` (and each of ``[eval] opponents``) after each
    stage, with its 95% interval and the labels gathered so far (heuristic + search +
    expert iteration), or PPO's decisions played so far."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    # The [eval] opponent, then each fixed opponent of `[eval] opponents` (where evaluated).
    series = [(opponent, list(enumerate(p["eval"] for p in curve)))]
    for o in dict.fromkeys(o for p in curve for o in p.get("vs", {})):
        series.append((o, [(i, p["vs"][o]) for i, p in enumerate(curve) if o in p.get("vs", {})]))
    fair = 1 / ys.Game(variant).num_sides
    fig, ax = plt.subplots(figsize=(min(10.0, max(6.0, 0.8 * len(curve))), 3.6), dpi=120)
    for name, points in series:
        x = [i for i, _ in points]
        ax.fill_between(x, [e["ci95"][0] for _, e in points], [e["ci95"][1] for _, e in points],
                        alpha=0.2)
        ax.plot(x, [e["win_rate"] for _, e in points], "o-",
                label=f"nn vs {name} ({points[-1][1]['games']} games, 95% interval)")
    ax.axhline(fair, color="k", ls="--", lw=1, label="as strong as its opponent")
    ticks = plot_ticks(curve)
    ax.set_xticks(ticks)
    ax.set_xticklabels(
        [f"{p['stage']}\n{p['train']['decisions'] / 1e6:.1f}M moves" if "decisions" in p["train"]
         else f"{p['stage']}\n{p['labels'] // 1000}k labels" for p in (curve[i] for i in ticks)],
        fontsize=7,
    )
    ax.set_ylabel("win rate (duplicate deals)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{variant}: training/train_baseline.py, after each stage", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, default=None,
                    help="default runs/<the config's name>, e.g. runs/4p")
    ap.add_argument("--install", action="store_true",
                    help="copy the final model to crates/yokai-septet-models/models/<variant>.safetensors")
    args = ap.parse_args()
    try:
        cfg = tomllib.loads(args.config.read_text())
    except tomllib.TOMLDecodeError as e:
        sys.exit(f"{args.config}: {e}")
    problem = config_problem(cfg)
    if problem:
        # Before hours of label generation, not after.
        sys.exit(f"{args.config}: {problem}")
    variant, seed, teacher = cfg["variant"], cfg["seed"], cfg.get("teacher")
    out = args.out or Path("runs") / args.config.stem
    if "init" in cfg and (out / "student.safetensors").resolve() == Path(cfg["init"]).resolve():
        # The run would overwrite the model it starts from, and a rerun would start elsewhere.
        sys.exit(f"{args.config}: init = '{cfg['init']}' is the student.safetensors this run"
                 f" writes in {out}; pass another --out")
    out.mkdir(parents=True, exist_ok=True)
    threads = cfg.get("threads", 0)
    torch.set_num_threads(cfg.get("torch_threads", 1))
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    game = ys.Game(variant=variant)
    obs_size, actions = len(game.observation()), len(game.legal_mask())
    inputs = cfg.get("inputs", "observation")
    in_size = models.features(np.zeros((1, obs_size)), np.zeros(1, int), inputs, actions).shape[1]
    net = make_net(in_size, cfg["hidden"], actions)
    # `init`: start from a saved model (e.g. another run's student) instead of a fresh
    # network, so PPO can go on from where a run stopped. Its file's hash goes into the
    # metadata, which names the chain that made the model.
    init = cfg.get("init")
    if init is not None:
        net.load_state_dict(models.load(init).to_torch().state_dict())
        provenance = {"init": Path(init).name,
                      "init_sha256": hashlib.sha256(Path(init).read_bytes()).hexdigest()}
    else:
        provenance = {}
    student = out / "student.safetensors"
    data = Data()
    curve: list = []
    t0, c0 = time.time(), time.process_time()

    labels = {"pretrain": 0, "passes": 0, "search": 0, "exit": 0}
    # A run killed during expert iteration goes on from its last completed iteration.
    state_path = out / "exit-state.pt"
    resume = torch.load(state_path, weights_only=False) if state_path.exists() else None
    if resume is not None:
        problem = resume_problem(resume["config"], cfg)
        if problem:
            sys.exit(f"{args.config}: {out} holds the checkpoint ({state_path.name}) of a run"
                     f" of another config ({problem}); pass another --out, or delete it to"
                     " start over")
        net.load_state_dict(resume["net"])
        curve[:] = resume["curve"]
        labels.update(resume["labels"])
        rng.bit_generator.state = resume["numpy_rng"]
        torch.set_rng_state(resume["torch_rng"])
        # Costs count every sitting's time.
        t0, c0 = time.time() - resume["wall_seconds"], time.process_time() - resume["cpu_seconds"]
        print(f"resuming {out} after expert iteration {resume['iteration']}", flush=True)
    pre, boot = cfg.get("pretrain"), cfg.get("bootstrap", {})
    # Who plays the labelled games: the teacher itself, or another bot whose positions the
    # teacher labels (`players = "heuristic"`: the positions the student meets).
    players = boot.get("players", teacher)

    def checkpoint(stage: str, stats: dict) -> None:
        labels["exit"] += stats.get("exit_labels", 0)
        models.Model.from_torch(
            net, variant, inputs, seed=str(seed), stage=stage, trained_by="training/train_baseline.py",
            pretrain_teacher=pre["teacher"] if pre else "none",
            pretrain_labels=str(labels["pretrain"]),
            search_teacher=teacher if labels["search"] else "none",
            search_labels=str(labels["search"]),
            search_players=players if labels["search"] else "none",
            pass_teacher=boot.get("pass_teacher", "none") if labels["passes"] else "none",
            pass_labels=str(labels["passes"]),
            exit_teacher=exit_cfg.get("teacher", "none") if labels["exit"] else "none",
            exit_labels=str(labels["exit"]),
            ppo_decisions=str(stats.get("decisions", 0)), **provenance,
        ).save(student)
        if "decisions" in stats or "exit_labels" in stats:  # a PPO or expert iteration's model
            # Kept: with a constant schedule, a run with fewer `updates` (same seed) would
            # stop at this very model; expert iteration's next games use it.
            shutil.copyfile(student, out / f"student-{stage.replace(' ', '-')}.safetensors")
        clock = time.time(), time.process_time()
        ev = evaluate(student, variant, cfg["eval"], threads)
        # The fixed opponents of `[eval] opponents`, on the same deals.
        vs = {o: evaluate(student, variant, {**cfg["eval"], "opponent": o}, threads)
              for o in cfg["eval"].get("opponents", [])}
        point = {
            "stage": stage,
            "labels": labels["search"] + labels["pretrain"] + labels["exit"],
            "search_labels": labels["search"],
            "exit_labels": labels["exit"],
            "cpu_hours": (time.process_time() - c0) / 3600,
            "wall_minutes": (time.time() - t0) / 60,
            "train": stats,
            "eval": ev,
            "vs": vs,
            "eval_seconds": {"wall": time.time() - clock[0], "cpu": time.process_time() - clock[1]},
        }
        curve.append(point)
        lo, hi = ev["ci95"]
        if "decisions" in stats:
            fit = (f"{stats['decisions']:>9} decisions (sampled play won"
                   f" {stats['sampled_win_rate']:.3f})")
        elif stats:
            fit = (f"agreement {stats['agreement']:.3f}"
                   f" (held out {stats['held_out_agreement']:.3f})")
        else:  # the starting network, before any training
            fit = ""
        print(f"{stage:>10}: {point['labels']:>8} labels  cpu {point['cpu_hours'] * 60:6.1f} min"
              f"  wall {point['wall_minutes']:6.1f} min  {fit}"
              f"  vs {cfg['eval']['opponent']}: {ev['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]"
              + "".join(f"  vs {o}: {e['win_rate']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"
                        for o, e in vs.items()),
              flush=True)
        (out / "curve.json").write_text(json.dumps({"config": cfg, "curve": curve}, indent=1))
        plot(curve, variant, cfg["eval"]["opponent"], out / "learning_curve.png")

    def imitation_stages() -> None:
        """Pretraining, the bootstrap and DAgger (each where the config has it)."""
        if pre:
            # Stage 0: clone a cheap teacher on plenty of games (the basics: follow suit, win
            # and duck tricks), then learn the search teacher's finer choices on top.
            sides = list(range(ys.Game(variant).num_sides))
            warm = Data()
            warm.add(gather(
                out, "pretrain", bots=[pre["teacher"]] * len(sides), teacher=pre["teacher"],
                labelled=sides, variant=variant, games=pre["games"], seed=seed + 1000,
                max_rounds=pre["max_rounds"], threads=threads,
            ))
            labels["pretrain"] = len(warm)
            # A constant learning rate: this stage copies the heuristic exactly (held-out
            # agreement 1.000), which a decayed one stopped short of.
            stats = train(net, warm, {**cfg["train"], "epochs": pre["epochs"], "schedule": "constant"},
                          rng, inputs)
            del warm
            checkpoint("pretrain", stats)
        pass_games = boot.get("pass_games", 0)  # checked: only beside bootstrap games
        if boot.get("games", 0) > 0:
            labelled = list(range(ys.Game(variant).num_sides))  # every side (every seat in 3p)
            chunk = boot.get("chunk_games", boot["games"])

            def chunks(name: str, labeller: str, games: int, offset: int):
                """The labelled games in chunks of `chunk_games`, each cached on its own (chunk
                k on seed + offset + 100 k), so a bigger run reuses a smaller one's labels."""
                for k, start in enumerate(range(0, games, chunk)):
                    yield gather(
                        out, name if k == 0 else f"{name}-{k}", bots=[players] * len(labelled),
                        teacher=labeller, labelled=labelled, variant=variant,
                        games=min(chunk, games - start), seed=seed + offset + 100 * k,
                        max_rounds=boot["max_rounds"], threads=threads,
                    )

            for d in chunks("bootstrap", teacher, boot["games"], 0):
                # With a `pass_teacher` its labels replace the teacher's passing picks.
                data.add(subset(d, ~passing_picks(d, variant)) if pass_games else d)
            # Passing picks of other games, labelled by a search that gives them a budget
            # (`pimc:N/P`): `pimc` passes as the heuristic.
            for d in chunks("passes", boot.get("pass_teacher", ""), pass_games, 50):
                labels["passes"] += data.add(subset(d, passing_picks(d, variant)))
            labels["search"] = len(data)
            checkpoint("bootstrap", train(net, data, cfg["train"], rng, inputs))
        dag = cfg.get("dagger", {})
        for k in range(1, dag.get("iterations", 0) + 1):
            data.add(models.imitation_data(
                [f"nn:{student}", dag["opponent"]], teacher, labelled=[0], variant=variant,
                games=dag["games"], seed=seed + k, max_rounds=dag["max_rounds"],
                threads=threads,
            ))
            labels["search"] = len(data)
            checkpoint(f"dagger {k}", train(net, data, cfg["train"], rng, inputs))

    exit_cfg = cfg.get("expert_iteration", {})

    def save_state(iteration: int, opt: torch.optim.Optimizer) -> None:
        """What a resumed run needs after expert iteration ``iteration``, written whole or
        not at all (a run killed while writing it keeps the previous one)."""
        tmp = state_path.with_suffix(".tmp")
        torch.save({
            "iteration": iteration, "config": cfg, "net": net.state_dict(),
            "optimizer": opt.state_dict(), "numpy_rng": rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(), "curve": curve, "labels": labels,
            "wall_seconds": time.time() - t0, "cpu_seconds": time.process_time() - c0,
        }, tmp)
        os.replace(tmp, state_path)

    if resume is None:
        checkpoint("untrained" if init is None else "init", {})
        imitation_stages()
    if exit_cfg.get("iterations", 0) > 0:
        expert_iteration(net, cfg, out, rng, threads, checkpoint, save_state, resume)
    if cfg.get("finetune", {}).get("updates", 0) > 0:
        finetune(net, variant, inputs, cfg["finetune"], seed, checkpoint)
    if args.install:
        target = ROOT / "crates" / "yokai-septet-models" / "models" / f"{variant}.safetensors"
        shutil.copyfile(student, target)
        print(f"installed {target}")
    print(f"done: {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
