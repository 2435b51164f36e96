"""Trains the value model of one variant: what the rest of a round is worth to each seat,
read from a whole deal (``docs/search-speed.md``, "Value leaves"). ``ismcts`` with the
``:vW`` option values its leaves with it.

    pip install scikit-learn safetensors                     # numpy and scipy come with them
    python training/train_value.py training/configs/value-4p.toml --out runs/value-4p --install

1. Data: the config's ``[[data]]`` entries, each self-play arena games of a line-up
   (``crates/yokai-septet-bots/tools/value_data.rs``, run here with ``cargo``; a file ``OUT/data-K.safetensors``
   already there is reused). Every play-phase position of the true game is a row: its
   input the observation of the seat to play and the other seats' hands; its target each
   seat's round value (``pimc``'s ``round_value``) of the round's end, from the seat to
   play clockwise. A row also holds what the heuristic playing the round out from the
   position gives (one ``ismcts`` playout of the true deal): the baseline to beat.
2. The network: an MLP (``[model] hidden``, ReLU), squared loss, Adam, fitted with
   scikit-learn's ``MLPRegressor`` on the sparse inputs. Every tenth deal (a hash of its
   number) is held out, with the duplicate games of a deal on one side: the positions of
   a round share one result, so held-out rows must come from other deals. The epoch kept
   is the best on the held-out deals.
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
ships. Everything is seeded from the config: the same data and scikit-learn build give
the same model.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from safetensors import safe_open
from safetensors.numpy import save_file
from sklearn.neural_network import MLPRegressor

import yokai_septet as ys
from shipped import install  # training/shipped.py, beside this script

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent

#: Phases of a round, by the share of its hand the seat to play still holds.
PHASES = (("early", 0.75, 1.01), ("mid", 0.4, 0.75), ("late", 0.0, 0.4))
#: The model's weights (percent) in the mixes whose error the calibration reports.
MIX_WEIGHTS = (25, 50, 75)


def generate(variant: str, entry: dict, path: Path, model: Path | None) -> None:
    """Runs ``crates/yokai-septet-bots/tools/value_data.rs`` for one ``[[data]]`` entry into ``path``; ``{model}``
    in its bot names is the model of the previous iteration."""
    bots = entry["bots"]
    if "{model}" in bots:
        if model is None:
            sys.exit(f"data entry {entry}: '{{model}}' needs an earlier iteration's model")
        bots = bots.replace("{model}", str(model.resolve()))
    cmd = ["cargo", "run", "--release", "--quiet", "-p", "yokai-septet-bots", "--example", "value_data", "--",
           "--variant", variant, "--bots", bots, "--games", str(entry["games"]),
           "--seed", str(entry["seed"]), "--max-rounds", str(entry.get("max_rounds", 0)),
           "--threads", str(entry.get("threads", 0)), "--out", str(path)]
    print("$", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=ROOT, check=True)


def load(path: Path) -> tuple[dict, dict]:
    """The data file's arrays and metadata."""
    with safe_open(str(path), framework="numpy") as f:
        meta = f.metadata() or {}
        arrays = {k: f.get_tensor(k) for k in f.keys()}
    rows = len(arrays["hand_len"])
    x = sp.csr_matrix(
        (arrays["values"].astype(np.float32), arrays["columns"].astype(np.int32),
         arrays["row_starts"].astype(np.int64)),
        shape=(rows, int(meta["input_size"])),
    )
    arrays["x"] = x
    return arrays, meta


def mse_by_phase(pred: np.ndarray, target: np.ndarray, share: np.ndarray) -> dict:
    """Mean squared error (over seats and positions), overall and per phase."""
    err = ((pred - target) ** 2).mean(axis=1)
    out = {"all": float(err.mean())}
    for name, lo, hi in PHASES:
        rows = (share >= lo) & (share < hi)
        out[name] = float(err[rows].mean()) if rows.any() else float("nan")
    return out


def write_model(net: MLPRegressor, variant: str, path: Path, half: bool, info: dict) -> None:
    """The model as the engine reads it: ``layers.{i}.weight`` ``[outputs, inputs]`` and
    ``layers.{i}.bias``, metadata ``format``, ``variant``, ``inputs`` and how it was made."""
    dtype = np.float16 if half else np.float32
    tensors = {}
    for i, (w, b) in enumerate(zip(net.coefs_, net.intercepts_)):
        tensors[f"layers.{i}.weight"] = np.ascontiguousarray(w.T).astype(dtype)
        tensors[f"layers.{i}.bias"] = b.astype(dtype)
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
    x = sp.vstack([a["x"] for a in parts]).tocsr()
    y, playout, deal, hand_len = (np.concatenate([a[k] for a in parts])
                                  for k in ("targets", "playout", "deal", "hand_len"))
    share = hand_len.astype(np.float64) / len(ys.Game(variant, seed=0).hand(0))  # cards dealt (R3)
    t = cfg["train"]
    # Every tenth deal (by a fixed hash of its number) is held out.
    held = (deal * 0x9E3779B1 >> 8) % round(1 / t["validation_share"]) == 0
    train = ~held
    print(f"iteration {iteration}: {len(deal)} positions of {len(np.unique(deal))} deals, "
          f"{train.sum()} to train, {held.sum()} held out", file=sys.stderr)
    net = MLPRegressor(hidden_layer_sizes=tuple(cfg["model"]["hidden"]), activation="relu",
                       solver="adam", alpha=t["l2"], batch_size=t["batch_size"],
                       learning_rate_init=t["learning_rate"], random_state=cfg["seed"],
                       shuffle=True)
    best, best_loss = None, np.inf
    for epoch in range(t["epochs"]):
        t0 = time.time()
        net.partial_fit(x[train], y[train])
        loss = mse_by_phase(net.predict(x[held]), y[held], share[held])["all"]
        print(f"epoch {epoch + 1}: held-out MSE {loss:.4f} ({time.time() - t0:.0f} s)",
              file=sys.stderr)
        if loss < best_loss:
            best_loss = loss
            best = ([w.copy() for w in net.coefs_], [b.copy() for b in net.intercepts_], epoch + 1)
    net.coefs_, net.intercepts_, kept = best
    half = cfg.get("half", True)
    if half:
        # The engine runs the float16 weights: measure those.
        net.coefs_ = [w.astype(np.float16).astype(np.float64) for w in net.coefs_]
        net.intercepts_ = [b.astype(np.float16).astype(np.float64) for b in net.intercepts_]
    pred = net.predict(x[held])
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
