"""Trains the value model of one variant: what the rest of a round is worth to each seat,
read from a whole deal (``docs/search-speed.md``, "Value leaves"). ``ismcts`` with the
``:vW`` option values its leaves with it.

    pip install ".[train]"                                   # torch and safetensors
    python -m training.train_value training/configs/value-4p.toml --out runs/value-4p --install

1. Data: the config's ``[[data]]`` entries, each self-play arena games of a line-up
   (``yokai_septet.models.value_data``; a file ``OUT/data-K.safetensors`` already there is
   reused, and a new one is written there). Every play-phase position of the true game is
   a row: its input the observation of the seat to play and the other seats' hands; its
   target each seat's round value (``pimc``'s ``round_value``) of the round's end, from
   the seat to play clockwise. A row also holds what the heuristic playing the round out
   from the position gives (one ``ismcts`` playout of the true deal): the baseline to beat.
2. The network: an MLP (``[model] hidden``, ReLU; ``training.nets.mlp``) fitted in torch
   with Adam on half the squared error plus ``l2`` times half the squared weights per
   row (the objective scikit-learn's ``MLPRegressor``, which fitted the shipped models,
   minimizes). Every tenth deal (a hash of its number) is held out, with the duplicate
   games of a deal on one side: the positions of a round share one result, so held-out
   rows must come from other deals. The epoch kept is the best on the held-out deals.
3. Expert iteration: the entries of ``iteration = 1`` are played after the model of the
   entries before them is trained, with ``{model}`` in their bot names standing for it
   (the search with the model plays the next games); then the model is trained again on
   all of the data.
4. Calibration (``calibration-I.json`` per iteration, and the table printed): the
   held-out mean squared error against the round results of the model, of the heuristic
   playout, of their mixes (what ``:vW`` computes at a leaf) and of a constant (the
   training mean), overall and by phase of the round (the share of its hand the seat to
   play still holds: ``early``, ``mid``, ``late``).

The models are written as ``model-I.safetensors`` (``yokai-septet-value/1``, float16 with
``half = true``); ``--install`` copies the last iteration's to
``crates/yokai-septet-models/models/value-<variant>.safetensors``, the file ``ismcts``
ships. Everything is seeded from the config: the same data and torch build give the same
model. The shipped value models were fitted by scikit-learn before the move to torch: a
fresh run of a config gives other weights of a comparable fit, not those bytes.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np
import torch
from safetensors import safe_open
from safetensors.numpy import save_file

import yokai_septet as ys
from yokai_septet import models

from .nets import mlp
from .shipped import install

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

#: Phases of a round, by the share of its hand the seat to play still holds.
PHASES = (("early", 0.75, 1.01), ("mid", 0.4, 0.75), ("late", 0.0, 0.4))
#: The model's weights (percent) in the mixes whose error the calibration reports.
MIX_WEIGHTS = (25, 50, 75)
#: The data file's arrays (``models.value_data``'s, but ``input_size``, which is metadata).
FIELDS = ("row_starts", "columns", "values", "targets", "playout", "hand_len", "games")
#: Rows per forward pass when predicting.
PREDICT_BATCH = 8192


def generate(variant: str, entry: dict, path: Path, model: Path | None) -> None:
    """Plays one ``[[data]]`` entry's games (``models.value_data``) into ``path``;
    ``{model}`` in its bot names is the model of the previous iteration."""
    bots = entry["bots"]
    if "{model}" in bots:
        if model is None:
            sys.exit(f"data entry {entry}: '{{model}}' needs an earlier iteration's model")
        bots = bots.replace("{model}", str(model.resolve()))
    print(f"value data: {bots} x {entry['games']} games, seed {entry['seed']}", file=sys.stderr)
    t0 = time.time()
    # max_rounds 0: whole games, no cap.
    data = models.value_data(bots, variant=variant, games=entry["games"], seed=entry["seed"],
                             max_rounds=entry.get("max_rounds", 0) or None,
                             threads=entry.get("threads", 0), progress=True)
    meta = {"variant": variant, "bots": bots, "games": str(entry["games"]),
            "seed": str(entry["seed"]), "max_rounds": str(entry.get("max_rounds", 0)),
            "input_size": str(data["input_size"]), "inputs": "observation+hands"}
    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({k: np.ascontiguousarray(data[k]) for k in FIELDS}, str(path), metadata=meta)
    print(f"{len(data['hand_len'])} positions in {time.time() - t0:.1f} s -> {path}",
          file=sys.stderr)


def load(path: Path) -> tuple[dict, dict]:
    """The data file's arrays and metadata."""
    with safe_open(str(path), framework="numpy") as f:
        meta = f.metadata() or {}
        arrays = {k: f.get_tensor(k) for k in f.keys()}
    return arrays, meta


class Inputs:
    """Rows of the inputs of several data files, kept sparse (compressed sparse rows) and
    made dense a batch at a time."""

    def __init__(self, parts: Sequence[dict], size: int) -> None:
        starts, columns, values, base = [np.zeros(1, np.int64)], [], [], 0
        for a in parts:
            starts.append(a["row_starts"][1:].astype(np.int64) + base)
            base += len(a["columns"])
            columns.append(a["columns"].astype(np.int64))
            values.append(a["values"].astype(np.float32))
        self.starts = np.concatenate(starts)
        self.columns = np.concatenate(columns)
        self.values = np.concatenate(values)
        self.size = size

    def dense(self, rows: np.ndarray) -> torch.Tensor:
        """The rows ``rows`` as a float32 ``[len(rows), size]`` tensor."""
        lo, hi = self.starts[rows], self.starts[rows + 1]
        counts = hi - lo
        # Every nonzero entry's index in the concatenated arrays, row by row.
        entries = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        out = np.zeros((len(rows), self.size), np.float32)
        out[np.repeat(np.arange(len(rows)), counts), self.columns[entries]] = self.values[entries]
        return torch.from_numpy(out)


def predict(net: torch.nn.Sequential, x: Inputs, rows: np.ndarray) -> np.ndarray:
    """The net's values of the rows ``rows``."""
    with torch.no_grad():
        return np.concatenate([net(x.dense(rows[i:i + PREDICT_BATCH])).numpy()
                               for i in range(0, len(rows), PREDICT_BATCH)]
                              or [np.zeros((0, net[-1].out_features), np.float32)])


def fit(net: torch.nn.Sequential, x: Inputs, y: np.ndarray, train: np.ndarray,
        held: np.ndarray, share: np.ndarray, t: dict, seed: int) -> int:
    """Fits ``net`` for ``t["epochs"]`` passes over the rows ``train`` and leaves it at the
    epoch best on the rows ``held`` (returned, from 1)."""
    opt = torch.optim.Adam(net.parameters(), lr=t["learning_rate"])
    weights = [m.weight for m in net if isinstance(m, torch.nn.Linear)]
    rows, targets = np.flatnonzero(train), torch.from_numpy(y)
    rng = np.random.default_rng(seed)
    best, best_loss, kept = None, np.inf, 0
    for epoch in range(t["epochs"]):
        t0 = time.time()
        order = rng.permutation(rows)
        for i in range(0, len(order), t["batch_size"]):
            batch = order[i:i + t["batch_size"]]
            err = net(x.dense(batch)) - targets[batch]
            # The L2 term per row, on weights only, as MLPRegressor's alpha.
            l2 = sum((w ** 2).sum() for w in weights) * (t["l2"] / (2 * len(batch)))
            loss = (err ** 2).mean() / 2 + l2
            opt.zero_grad()
            loss.backward()
            opt.step()
        held_rows = np.flatnonzero(held)
        mse = mse_by_phase(predict(net, x, held_rows), y[held_rows], share[held_rows])["all"]
        print(f"epoch {epoch + 1}: held-out MSE {mse:.4f} ({time.time() - t0:.0f} s)",
              file=sys.stderr)
        if mse < best_loss:
            best_loss, best, kept = mse, copy.deepcopy(net.state_dict()), epoch + 1
    if best is not None:
        net.load_state_dict(best)
    return kept


def mse_by_phase(pred: np.ndarray, target: np.ndarray, share: np.ndarray) -> dict:
    """Mean squared error (over seats and positions), overall and per phase."""
    err = ((pred - target) ** 2).mean(axis=1)
    out = {"all": float(err.mean())}
    for name, lo, hi in PHASES:
        rows = (share >= lo) & (share < hi)
        out[name] = float(err[rows].mean()) if rows.any() else float("nan")
    return out


def write_model(net: torch.nn.Sequential, variant: str, path: Path, half: bool,
                info: dict) -> None:
    """The model as the engine reads it: ``layers.{i}.weight`` ``[outputs, inputs]`` and
    ``layers.{i}.bias``, metadata ``format``, ``variant``, ``inputs`` and how it was made."""
    dtype = np.float16 if half else np.float32
    tensors = {}
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    for i, lin in enumerate(linears):
        tensors[f"layers.{i}.weight"] = lin.weight.detach().numpy().astype(dtype)
        tensors[f"layers.{i}.bias"] = lin.bias.detach().numpy().astype(dtype)
    meta = {"format": "yokai-septet-value/1", "variant": variant, "inputs": "observation+hands"}
    meta.update({k: str(v) for k, v in info.items()})
    save_file(tensors, str(path), metadata=meta)


def train(cfg: dict, paths: list[Path], out: Path, iteration: int) -> Path:
    """Fits the model on the data files ``paths``; writes ``model-{iteration}.safetensors``
    and ``calibration-{iteration}.json`` into ``out`` and returns the model's path."""
    variant = cfg["variant"]
    parts, sources = [], []
    for k, path in enumerate(paths):
        a, meta = load(path)
        if meta.get("variant") != variant:
            sys.exit(f"{path}: data of {meta.get('variant')}, the config is for {variant}")
        # A deal is played once per seat rotation (2 games, 3 in 3p): its games stay on one
        # side of the split, so the held-out rounds were never seen in training.
        group = ys.Game(variant).num_sides
        a["deal"] = (a["games"].astype(np.int64) // group) * len(paths) + k
        parts.append(a)
        sources.append(f"{meta.get('bots')} x {meta.get('games')} games, seed {meta.get('seed')}, "
                       f"max rounds {meta.get('max_rounds') or 'none'}")
    x = Inputs(parts, int(meta["input_size"]))
    y, playout, deal, hand_len = (np.concatenate([a[k] for a in parts])
                                  for k in ("targets", "playout", "deal", "hand_len"))
    share = hand_len.astype(np.float64) / len(ys.Game(variant, seed=0).hand(0))  # cards dealt (R3)
    t = cfg["train"]
    # Every tenth deal (by a fixed hash of its number) is held out.
    held = (deal * 0x9E3779B1 >> 8) % round(1 / t["validation_share"]) == 0
    train = ~held
    print(f"iteration {iteration}: {len(deal)} positions of {len(np.unique(deal))} deals, "
          f"{train.sum()} to train, {held.sum()} held out", file=sys.stderr)
    torch.manual_seed(cfg["seed"])
    net = mlp(x.size, cfg["model"]["hidden"], y.shape[1])
    kept = fit(net, x, y, train, held, share, t, cfg["seed"])
    half = cfg.get("half", True)
    if half:
        # The engine runs the float16 weights: measure those.
        with torch.no_grad():
            for p in net.parameters():
                p.copy_(p.half().float())
    pred = predict(net, x, np.flatnonzero(held))
    mean = y[train].mean(axis=0, keepdims=True)
    calibration = {
        "variant": variant,
        "iteration": iteration,
        "data": sources,
        "positions": {"train": int(train.sum()), "held_out": int(held.sum())},
        "epoch": kept,
        "mse": {
            "model": mse_by_phase(pred, y[held], share[held]),
            "heuristic_playout": mse_by_phase(playout[held], y[held], share[held]),
            "constant": mse_by_phase(np.repeat(mean, held.sum(), 0), y[held], share[held]),
        },
        # What `ismcts:vW` computes at a leaf: W% of the model, the rest of the playout.
        "mix": {str(w): mse_by_phase(w / 100 * pred + (1 - w / 100) * playout[held], y[held],
                                     share[held])
                for w in MIX_WEIGHTS},
    }
    (out / f"calibration-{iteration}.json").write_text(json.dumps(calibration, indent=2) + "\n")
    info = {"config": cfg.get("name", ""), "iteration": iteration, "data": "; ".join(sources),
            "epoch": kept, "held_out_mse": round(calibration["mse"]["model"]["all"], 4)}
    model = out / f"model-{iteration}.safetensors"
    write_model(net, variant, model, half, info)
    mixes = " | ".join(f"mix {w}%" for w in MIX_WEIGHTS)
    print(f"| phase | model | heuristic playout | {mixes} | constant |\n"
          f"|---|---:|---:|{'---:|' * len(MIX_WEIGHTS)}---:|")
    for phase in ("all", *(p[0] for p in PHASES)):
        m, mix = calibration["mse"], calibration["mix"]
        cells = " | ".join(f"{mix[str(w)][phase]:.4f}" for w in MIX_WEIGHTS)
        print(f"| {phase} | {m['model'][phase]:.4f} | {m['heuristic_playout'][phase]:.4f} "
              f"| {cells} | {m['constant'][phase]:.4f} |")
    print(f"model: {model} (epoch {kept})", file=sys.stderr)
    return model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--install", action="store_true",
                    help="copy the last iteration's model into the models crate")
    args = ap.parse_args()
    cfg = tomllib.loads(args.config.read_text())
    cfg["name"] = args.config.name
    variant = cfg["variant"]
    args.out.mkdir(parents=True, exist_ok=True)
    entries = cfg["data"]
    model = None
    for iteration in sorted({e.get("iteration", 0) for e in entries}):
        paths = []
        for k, entry in enumerate(entries):
            if entry.get("iteration", 0) > iteration:
                continue
            path = args.out / f"data-{k}.safetensors"
            if not path.exists():  # a file made earlier by the same entry is reused
                generate(variant, entry, path, model)
            paths.append(path)
        model = train(cfg, paths, args.out, iteration)
    if args.install:
        install(model, f"value-{variant}.safetensors")


if __name__ == "__main__":
    main()
