"""Trains the belief model of one variant: who holds each card a seat cannot see, read
from the seat's observation and the round's play log (``docs/inference.md``). The `-inf`
search bots draw their worlds from it.

    pip install ".[train]"                                    # torch (CPU is enough)
    python -m training.train_belief training/configs/belief-4p.toml --out runs/belief-4p

1. Data: self-play games of the bots in ``[data] players`` (each entry ``[name, games]``:
   the bot plays every seat), generated in Rust (``models.imitation_data``). Every
   decision of the play phase is a position; its labels are free: where every card the
   decider cannot see really is (``holders``), with the seats it cannot rule out
   (``possible``) and the uniform sampler's probabilities (``uniform``), the baseline.
2. The network: an MLP over the observation and the play log (how each card of the
   round was played: led, over, under, ruff, discard, by seat), one logit per card id
   and other seat; the
   probability of a seat holding a card is the softmax of the card's logits over the
   seats that may hold it. Loss: the cross-entropy of the true holder, over the cards
   with two or more possible holders.
   The network's logit is added to the log of the uniform sampler's probability, so
   an untrained network is the uniform sampler and it learns only what the constraints
   do not say; the epoch kept is the best on validation games of their own seed.
3. Held-out games (``[eval]``, their own seed): log-loss and Brier score of the model and
   of the uniform sampler, overall and per phase of the round (by the decider's hand
   size: ``early`` just after the pass, ``mid``, ``late``), written to ``calibration.json``
   and printed as the table of ``docs/inference.md``.

``--install`` copies the model to ``crates/yokai-septet-beliefs/models/belief-<variant>.safetensors``,
the file the `-inf` bots ship (float16 with ``half = true`` in the config: half the bytes). Everything is seeded from the config: with the same torch
build and thread count a run reproduces its model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

import yokai_septet as ys
from yokai_septet import _core, models

from training.shipped import install, shipped_file

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

#: Phases of a round, by the share of its hand the decider still holds.
PHASES = (("early", 0.75, 1.01), ("mid", 0.4, 0.75), ("late", 0.0, 0.4))


def games_data(variant: str, players: list, seed: int, max_rounds: int, threads: int,
               keep: float, cache: Path | None = None) -> dict:
    """The positions and labels of self-play games: each ``[bot, games]`` of ``players``
    (or ``[bot, games, keep]``) plays every seat of its games, in chunks of at most 1000
    games (chunk ``j`` of entry ``k`` on seed ``seed + 1000 k + j``), of which a share
    ``keep`` of the play decisions is kept at random (each entry its own random stream):
    the positions of one round share their hidden hands, and a network that sees many of
    them learns the deals by heart instead of how players play. With ``cache``, each
    entry's kept rows are saved there and read back by a later run asking the same
    (the search bots' games are the costly part of a run)."""
    parts = []
    for k, (bot, games, *entry_keep) in enumerate(players):
        share = float(entry_keep[0]) if entry_keep else keep
        key = f"{variant}-{bot.replace(':', '_')}-{games}-{seed + 1000 * k}-{max_rounds}-{share}"
        path = cache / f"{key}.npz" if cache else None
        t, kept = time.time(), 0
        if path and path.exists():
            with np.load(path) as saved:
                part = {name: saved[name] for name in saved.files}
            part["source"] = np.full(len(part["holders"]), k, dtype=np.int64)
            parts.append(part)
            print(f"  {bot}: {games} games, {len(part['holders'])} positions read from {path}",
                  file=sys.stderr)
            continue
        rng = np.random.default_rng([seed, k])
        chunks = []
        for j, start in enumerate(range(0, int(games), 1000)):
            d = models.imitation_data(
                [bot, bot], bot, labelled=(0, 1), variant=variant,
                games=min(1000, int(games) - start), seed=seed + 1000 * k + j,
                max_rounds=max_rounds, threads=threads,
            )
            rows = d["possible"].any(axis=1) & (rng.random(len(d["holders"])) < share)
            part = {key: d[key][rows] for key in ("observations", "holders", "possible", "uniform")}
            # The network's input: the observation, then the play log.
            part["observations"] = np.concatenate([part["observations"], d["play_log"][rows]], 1)
            chunks.append(part)
            kept += int(rows.sum())
        if chunks:
            part = {key: np.concatenate([c[key] for c in chunks]) for key in chunks[0]}
            if path:
                path.parent.mkdir(parents=True, exist_ok=True)
                np.savez(path, **part)
            part["source"] = np.full(kept, k, dtype=np.int64)
            parts.append(part)
        print(f"  {bot}: {games} games, {kept} positions kept, {time.time() - t:.0f} s",
              file=sys.stderr)
    out = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    out["sources"] = [bot for bot, *_ in players]
    return out


def read_belief(path: Path, inputs: int, hidden: list, cards: int, others: int):
    """The belief model of a safetensors file (``_core._model_write``'s layout, float16 or
    float32), as a :class:`BeliefMlp` with those widths; ``None`` when the file has
    other widths (a model of another shape cannot be compared position by position)."""
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    net = BeliefMlp(inputs, hidden, cards, others)
    linears = [m for m in net.net if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for i, layer in enumerate(linears):
            for name, param in (("weight", layer.weight), ("bias", layer.bias)):
                info = header.get(f"layers.{i}.{name}")
                if info is None or list(info["shape"]) != list(param.shape):
                    return None
                a, b = (8 + size + o for o in info["data_offsets"])
                dtype = {"F16": np.float16, "F32": np.float32}[info["dtype"]]
                param.copy_(torch.from_numpy(np.frombuffer(raw[a:b], dtype=dtype).astype(np.float32)
                                             .reshape(param.shape)))
    net.eval()
    return net


def targets(d: dict, n: int):
    """Per position and card: the allowed other seats ``[N, C, n-1]`` (bool), the true
    holder's index among them ``[N, C]`` (0 where unused) and which cards count (two
    possible holders or more)."""
    possible = d["possible"].astype(np.int64)
    allowed = np.stack([(possible >> k) & 1 for k in range(1, n)], axis=-1).astype(bool)
    holder = d["holders"].astype(np.int64) - 1
    counted = allowed.sum(-1) >= 2
    holder = np.where(counted, holder, 0)
    return allowed, holder, counted


class BeliefMlp(nn.Module):
    def __init__(self, inputs: int, hidden: list, cards: int, others: int):
        super().__init__()
        widths = [inputs, *hidden, cards * others]
        layers: list = []
        for i in range(len(widths) - 1):
            layers.append(nn.Linear(widths[i], widths[i + 1]))
            if i + 2 < len(widths):
                layers.append(nn.ReLU())
        self.net = nn.Sequential(*layers)
        self.cards, self.others = cards, others

    def forward(self, x):  # [B, inputs] -> log-probabilities [B, C, n-1] (masked later)
        return self.net(x).view(-1, self.cards, self.others)


def log_probs(logits, allowed, uniform):
    """The model's log-probability of each allowed seat holding each card: the uniform
    sampler's probability (which knows the hand sizes) times the exponential of the
    network's logit, normalised over the allowed seats. The sampler draws deals in
    proportion to the product of the cards' ``exp(logit)`` under the same constraints, so
    the network learns only what the constraints do not already say."""
    base = torch.log(uniform.clamp_min(1e-12))
    return torch.log_softmax((logits + base).masked_fill(~allowed, -1e9), dim=-1)


def scores(p_true, p_all, holder_onehot, counted):
    """Mean log-loss and Brier score over the counted cards."""
    ll = -np.log(np.clip(p_true[counted], 1e-12, 1.0)).mean()
    brier = ((p_all - holder_onehot) ** 2).sum(-1)[counted].mean()
    return float(ll), float(brier)


def evaluate(net, d: dict, n: int) -> dict:
    allowed, holder, counted = targets(d, n)
    with torch.no_grad():
        x = torch.from_numpy(d["observations"])
        u = torch.from_numpy(d["uniform"][:, :, 1:n])
        lp = torch.cat([
            log_probs(net(x[i : i + 4096].float()), torch.from_numpy(allowed[i : i + 4096]),
                      u[i : i + 4096])
            for i in range(0, len(x), 4096)
        ])
    p_model = lp.exp().numpy() * allowed
    p_uniform = d["uniform"][:, :, 1:n]
    onehot = np.eye(n - 1)[holder]
    hand = d["observations"][:, : d["holders"].shape[1]].sum(1)
    share = hand / hand.max()
    rows = {}
    # Every phase, then the positions of each bot's games alone (all phases).
    slices = [(name, (share >= lo) & (share < hi)) for name, lo, hi in (("all", 0.0, 1.01), *PHASES)]
    bots = list(dict.fromkeys(d["sources"]))  # an entry's bot may come twice (two seeds)
    for bot in bots:
        games = np.isin(d["source"], [k for k, b in enumerate(d["sources"]) if b == bot])
        slices.append((f"{bot} games", games))
        slices += [(f"{bot} games, {name}", games & (share >= lo) & (share < hi))
                   for name, lo, hi in PHASES]
    for name, sel in slices:
        c = counted & sel[:, None]
        take = lambda p: np.take_along_axis(p, holder[..., None], -1)[..., 0]  # noqa: E731
        m_ll, m_br = scores(take(p_model), p_model, onehot, c)
        u_ll, u_br = scores(take(p_uniform), p_uniform, onehot, c)
        rows[name] = {
            "positions": int(sel.sum()), "cards": int(c.sum()),
            "uniform_log_loss": u_ll, "model_log_loss": m_ll,
            "log_loss_reduction": 1 - m_ll / u_ll,
            "uniform_brier": u_br, "model_brier": m_br,
        }
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config")
    ap.add_argument("--out", required=True)
    ap.add_argument("--install", action="store_true")
    ap.add_argument("--cache", type=Path, default=None,
                    help="a folder where each entry's positions are kept for later runs")
    args = ap.parse_args()
    cfg = tomllib.loads(Path(args.config).read_text())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    variant, seed = cfg["variant"], int(cfg["seed"])
    n = ys.Game(variant).num_players
    torch.manual_seed(seed)
    torch.set_num_threads(int(cfg.get("torch_threads", 1)))
    data_cfg, ev = cfg["data"], cfg["eval"]
    rounds, threads, keep = data_cfg["max_rounds"], cfg["threads"], data_cfg["keep"]
    print("training games", file=sys.stderr)
    train = games_data(variant, data_cfg["players"], seed, rounds, threads, keep, args.cache)
    print("validation games (to choose the epoch)", file=sys.stderr)
    # The validation and held-out games may keep another share than the training games
    # (fewer positions a round in training: less to learn by heart).
    valid = games_data(variant, data_cfg["validation"], seed + 500, rounds, threads,
                       ev.get("keep", keep), args.cache)
    print("held-out games", file=sys.stderr)
    held = games_data(variant, ev["players"], int(ev["seed"]), rounds, threads,
                      ev.get("keep", keep), args.cache)
    allowed, holder, counted = targets(train, n)
    cards = train["holders"].shape[1]
    net = BeliefMlp(train["observations"].shape[1], cfg["hidden"], cards, n - 1)
    t = cfg["train"]
    opt = torch.optim.AdamW(net.parameters(), lr=t["learning_rate"], weight_decay=t["weight_decay"])
    x = torch.from_numpy(train["observations"])  # uint8: converted a batch at a time
    al, ho, co = (torch.from_numpy(a) for a in (allowed, holder, counted))
    un = torch.from_numpy(train["uniform"][:, :, 1:n])
    best, best_state = float("inf"), None
    g = torch.Generator().manual_seed(seed)
    steps = t["epochs"] * ((len(x) + t["batch_size"] - 1) // t["batch_size"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    for epoch in range(t["epochs"]):
        order = torch.randperm(len(x), generator=g)
        total, count = 0.0, 0
        for i in range(0, len(x), t["batch_size"]):
            b = order[i : i + t["batch_size"]]
            lp = log_probs(net(x[b].float()), al[b], un[b])
            nll = -lp.gather(-1, ho[b][..., None])[..., 0]
            loss = nll[co[b]].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * int(co[b].sum())
            count += int(co[b].sum())
        v = evaluate(net, valid, n)["all"]["model_log_loss"]
        print(f"epoch {epoch + 1}: train log-loss {total / count:.4f}, validation {v:.4f}",
              file=sys.stderr)
        if v < best:
            best, best_state = v, {k: t.clone() for k, t in net.state_dict().items()}
    net.load_state_dict(best_state)
    net.eval()
    half = bool(cfg.get("half", False))
    if half:  # measured as shipped: the weights rounded to float16
        with torch.no_grad():
            for p in net.parameters():
                p.copy_(p.half().float())
    table = evaluate(net, held, n)
    # The model shipped now, on the same held-out positions: what installing would change.
    shipped_path = shipped_file(f"belief-{variant}.safetensors")
    shipped = (read_belief(shipped_path, x.shape[1], cfg["hidden"], cards, n - 1)
               if shipped_path.exists() else None)
    shipped_table = evaluate(shipped, held, n) if shipped is not None else {}
    layers = [
        (m.weight.detach().numpy().astype(np.float32), m.bias.detach().numpy().astype(np.float32))
        for m in net.net if isinstance(m, nn.Linear)
    ]
    path = out / f"belief-{variant}.safetensors"
    meta = [("config", Path(args.config).name), ("positions", str(len(x)))]
    _core._model_write(str(path), variant, "observation+play_log", layers, meta, belief=True,
                       half=half)
    (out / "calibration.json").write_text(
        json.dumps({"model": table, "shipped": shipped_table}, indent=2) + "\n")
    print("| phase | positions | cards | log-loss uniform | shipped | this model | reduction "
          "(shipped → this) | Brier uniform | shipped | this model |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in table.items():
        o = shipped_table.get(name)
        old_ll = f"{o['model_log_loss']:.4f}" if o else "–"
        old_red = f"{100 * o['log_loss_reduction']:.1f}% → " if o else ""
        old_br = f"{o['model_brier']:.4f}" if o else "–"
        print(f"| {name} | {r['positions']} | {r['cards']} | {r['uniform_log_loss']:.4f} "
              f"| {old_ll} | {r['model_log_loss']:.4f} | {old_red}{100 * r['log_loss_reduction']:.1f}% "
              f"| {r['uniform_brier']:.4f} | {old_br} | {r['model_brier']:.4f} |")
    print(f"wrote {path} ({path.stat().st_size} bytes)", file=sys.stderr)
    if args.install:
        install(path, f"belief-{variant}.safetensors")


if __name__ == "__main__":
    main()
