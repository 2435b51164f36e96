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

After every iteration the student plays a duplicate-deal arena against ``[eval]
opponent`` (the Rust arena). The script writes into ``--out``: ``student.safetensors``
(the final model, playable as ``nn:PATH``), ``curve.json`` (per iteration: labels so far,
CPU and wall seconds, win rate and its Wilson 95% interval) and ``learning_curve.png``
(with matplotlib). ``--install`` copies the model to ``assets/models/<variant>.safetensors``,
the file the ``nn`` bot ships.

Everything is seeded from the config's ``seed``: the games and labels come from the
Rust arena's seeds, torch's initialisation and the shuffling from ``seed``; with the same
torch build and thread count a run reproduces its model.
"""

from __future__ import annotations

import argparse
import json
import math
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
    teacher's cards, its per-card values (NaN where it did not search) and the heuristic
    bot's cards (the extra input of an ``observation+heuristic`` network)."""

    KEYS = ("observations", "masks", "labels", "values", "heuristic")

    def __init__(self) -> None:
        self.parts: list = []

    def add(self, d: dict) -> int:
        self.parts.append(tuple(d[k] for k in self.KEYS))
        return len(d["labels"])

    def arrays(self):
        return [np.concatenate([p[i] for p in self.parts]) for i in range(len(self.KEYS))]

    def __len__(self) -> int:
        return sum(len(p[2]) for p in self.parts)


def gather(out: Path, name: str, **kwargs) -> dict:
    """``models.imitation_data(**kwargs)``, cached in ``out/name.npz`` (the data depends
    only on the arguments, so a cached file is reused when they are the same)."""
    path = out / f"{name}.npz"
    key = json.dumps({k: v for k, v in kwargs.items() if k != "threads"}, sort_keys=True)
    if path.exists():
        cached = np.load(path)
        if str(cached["key"]) == key and all(k in cached.files for k in Data.KEYS):
            return {k: cached[k] for k in Data.KEYS}
    d = models.imitation_data(**kwargs)
    np.savez(path, key=key, **{k: d[k] for k in Data.KEYS})
    return d


def targets(masks: torch.Tensor, labels: torch.Tensor, values: torch.Tensor,
            heuristic: torch.Tensor, temperature: float, margin: float) -> torch.Tensor:
    """The distribution to imitate: where the teacher searched, a softmax of its values
    over the cards it valued (near-equal cards share the mass: the teacher's choice
    between them is noise); elsewhere, and with ``temperature = 0``, its card. With
    ``margin > 0``, where the heuristic's card is valued within ``margin`` of the best
    card, the heuristic's card alone: depart from it only where the search is sure."""
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


def train(net: nn.Sequential, data: Data, cfg: dict, rng: np.random.Generator,
          inputs: str) -> dict:
    """``cfg["epochs"]`` passes of masked cross-entropy against :func:`targets` over all
    data but a held-out twentieth; returns the loss and the agreement with the teacher's
    card on the training and the held-out decisions."""
    obs, masks, labels, values, heur = (torch.from_numpy(a) for a in data.arrays())
    actions = masks.shape[1]
    n = len(labels)
    perm = torch.from_numpy(np.random.default_rng(0).permutation(n))
    held, fit = perm[: n // 20], perm[n // 20 :]
    opt = torch.optim.AdamW(
        net.parameters(), lr=cfg["learning_rate"], weight_decay=cfg["weight_decay"]
    )
    bs, temp = cfg["batch_size"], cfg.get("temperature", 0.0)
    margin = cfg.get("margin", 0.0)
    steps = cfg["epochs"] * -(-len(fit) // bs)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lr_factor(cfg.get("schedule", "constant"), steps)
    )
    for _ in range(cfg["epochs"]):
        order = fit[torch.from_numpy(rng.permutation(len(fit)))]
        total, agree = 0.0, 0
        for start in range(0, len(order), bs):
            idx = order[start : start + bs]
            x = net_input(obs[idx], heur[idx], inputs, actions)
            logits = net(x).masked_fill(~masks[idx], -1e9)
            target = targets(masks[idx], labels[idx], values[idx], heur[idx], temp, margin)
            loss = -(target * torch.log_softmax(logits, dim=1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            agree += (logits.argmax(1) == labels[idx]).sum().item()
    with torch.no_grad():
        x = net_input(obs[held], heur[held], inputs, actions)
        logits = net(x).masked_fill(~masks[held], -1e9)
        held_agree = (logits.argmax(1) == labels[held]).float().mean().item()
    return {"loss": total / len(fit), "agreement": agree / len(fit),
            "held_out_agreement": held_agree}


def evaluate(path: Path, variant: str, cfg: dict, threads: int) -> dict:
    s = ys.arena(
        [f"nn:{path}", cfg["opponent"]],
        variant=variant,
        games=cfg["games"],
        seed=cfg["seed"],
        threads=threads,
    )
    me = s["entries"][0]
    return {"win_rate": me["win_rate"], "ci95": me["ci95"], "games": s["games"]}


def plot(curve: list, variant: str, opponent: str, out: Path) -> None:
    """The win rate against ``opponent`` after each stage, with its 95% interval and the
    labels gathered so far (heuristic + search)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    x = range(len(curve))
    y = [p["eval"]["win_rate"] for p in curve]
    lo = [p["eval"]["ci95"][0] for p in curve]
    hi = [p["eval"]["ci95"][1] for p in curve]
    fair = 1 / 3 if variant == "3p" else 1 / 2
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    ax.fill_between(x, lo, hi, alpha=0.25, label="95% interval")
    ax.plot(x, y, "o-", label=f"nn vs {opponent} ({curve[-1]['eval']['games']} games)")
    ax.axhline(fair, color="k", ls="--", lw=1, label=f"as strong as {opponent}")
    ax.set_xticks(list(x))
    ax.set_xticklabels(
        [f"{p['stage']}\n{p['labels'] // 1000}k labels" for p in curve], fontsize=7
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
    ap.add_argument("--out", type=Path, default=None, help="default runs/<variant>")
    ap.add_argument("--install", action="store_true",
                    help="copy the final model to assets/models/<variant>.safetensors")
    args = ap.parse_args()
    try:
        cfg = tomllib.loads(args.config.read_text())
    except tomllib.TOMLDecodeError as e:
        sys.exit(f"{args.config}: {e}")
    schedule = cfg.get("train", {}).get("schedule", "constant")
    if schedule not in SCHEDULES:
        # Before hours of label generation, not after.
        sys.exit(f"{args.config}: [train] schedule = '{schedule}', expected one of {SCHEDULES}")
    variant, seed, teacher = cfg["variant"], cfg["seed"], cfg["teacher"]
    out = args.out or Path("runs") / variant
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
    student = out / "student.safetensors"
    data = Data()
    curve: list = []
    t0, c0 = time.time(), time.process_time()

    labels = {"pretrain": 0}
    pre, boot = cfg.get("pretrain"), cfg.get("bootstrap", {})
    # Who plays the labelled games: the teacher itself, or another bot whose positions the
    # teacher labels (`players = "heuristic"`: the positions the student meets).
    players = boot.get("players", teacher)

    def checkpoint(stage: str, stats: dict) -> None:
        models.Model.from_torch(
            net, variant, inputs, seed=str(seed), stage=stage, trained_by="training/train_baseline.py",
            pretrain_teacher=pre["teacher"] if pre else "none",
            pretrain_labels=str(labels["pretrain"]),
            search_teacher=teacher if len(data) else "none", search_labels=str(len(data)),
            search_players=players if len(data) else "none",
        ).save(student)
        ev = evaluate(student, variant, cfg["eval"], threads)
        point = {
            "stage": stage,
            "labels": len(data) + labels["pretrain"],
            "search_labels": len(data),
            "cpu_hours": (time.process_time() - c0) / 3600,
            "wall_minutes": (time.time() - t0) / 60,
            "train": stats,
            "eval": ev,
        }
        curve.append(point)
        lo, hi = ev["ci95"]
        print(f"{stage:>10}: {point['labels']:>8} labels  cpu {point['cpu_hours'] * 60:6.1f} min"
              f"  wall {point['wall_minutes']:6.1f} min  agreement {stats.get('agreement', 0):.3f}"
              f" (held out {stats.get('held_out_agreement', 0):.3f})"
              f"  vs {cfg['eval']['opponent']}: {ev['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]",
              flush=True)
        (out / "curve.json").write_text(json.dumps({"config": cfg, "curve": curve}, indent=1))
        plot(curve, variant, cfg["eval"]["opponent"], out / "learning_curve.png")

    checkpoint("untrained", {})
    if pre:
        # Stage 0: clone a cheap teacher on plenty of games (the basics: follow suit, win
        # and duck tricks), then learn the search teacher's finer choices on top.
        sides = list(range(3 if variant == "3p" else 2))
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
    if boot.get("games", 0) > 0:
        labelled = list(range(3 if variant == "3p" else 2))  # every side (every seat in 3p)
        # In chunks of `chunk_games` (each cached on its own, chunk k on seed + 100 k), so a
        # bigger run reuses a smaller one's search labels.
        chunk = boot.get("chunk_games", boot["games"])
        for k, start in enumerate(range(0, boot["games"], chunk)):
            data.add(gather(
                out, "bootstrap" if k == 0 else f"bootstrap-{k}", bots=[players] * len(labelled),
                teacher=teacher, labelled=labelled, variant=variant,
                games=min(chunk, boot["games"] - start), seed=seed + 100 * k,
                max_rounds=boot["max_rounds"], threads=threads,
            ))
        checkpoint("bootstrap", train(net, data, cfg["train"], rng, inputs))
    dag = cfg.get("dagger", {})
    for k in range(1, dag.get("iterations", 0) + 1):
        data.add(models.imitation_data(
            [f"nn:{student}", dag["opponent"]], teacher, labelled=[0], variant=variant,
            games=dag["games"], seed=seed + k, max_rounds=dag["max_rounds"],
            threads=threads,
        ))
        checkpoint(f"dagger {k}", train(net, data, cfg["train"], rng, inputs))
    if args.install:
        target = ROOT / "assets" / "models" / f"{variant}.safetensors"
        shutil.copyfile(student, target)
        print(f"installed {target}")
    print(f"done: {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
