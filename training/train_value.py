"""Trains the value model of one variant: what the rest of a round is worth to each seat,
read from a whole deal (``docs/search.md``, "Value leaves"). ``ismcts`` with the ``:vW``
option values its leaves with it.

    pip install scikit-learn safetensors                     # numpy and scipy come with them
    python training/train_value.py training/configs/value-4p.toml --out runs/value-4p

1. Data: self-play arena games of ``[data] bots`` (``examples/value_data``, run here with
   ``cargo`` unless ``--data`` names its file). Every play-phase position of the true
   game is a row: its input is the observation of the seat to play and the other seats'
   hands; its target each seat's round value (``pimc``'s ``round_value``) of the round's
   end, from the seat to play clockwise. The file also holds what the heuristic playing
   the round out from the position gives (one ``ismcts`` playout of the true deal): the
   baseline the model must beat.
2. The network: an MLP (``[model] hidden``, ReLU), squared loss, Adam, fitted with
   scikit-learn's ``MLPRegressor`` on the sparse inputs. Games are split into training
   and held-out games by their index (``validation_share``, the last games): the
   positions of one round share one result, so held-out rows must come from other
   rounds. The epoch kept is the best on the held-out games.
3. Calibration (``calibration.json``, and the table of ``docs/search.md``): the held-out
   mean squared error against the round results, of the model, of the heuristic playout
   and of a constant (the training mean), overall and by phase of the round (the share of
   its hand the seat to play still holds: ``early``, ``mid``, ``late``).

The model is written as ``model.safetensors`` (``yokai-septet-value/1``, float16 with
``half = true``); ``--install`` copies it to
``crates/yokai-septet-models/models/value-<variant>.safetensors``, the file ``ismcts``
ships. Everything is seeded from the config: the same data and scikit-learn build give
the same model.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from safetensors import safe_open
from safetensors.numpy import save_file
from sklearn.neural_network import MLPRegressor

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent

#: Phases of a round, by the share of its hand the seat to play still holds.
PHASES = (("early", 0.75, 1.01), ("mid", 0.4, 0.75), ("late", 0.0, 0.4))
#: Cards each seat is dealt, by variant (docs/rules.md, R3).
HAND = {"4p": 12, "3p": 16, "seal": 14, "seal-short": 14}


def generate(cfg: dict, path: Path) -> None:
    """Runs ``examples/value_data`` for the config's ``[data]`` into ``path``."""
    d = cfg["data"]
    cmd = ["cargo", "run", "--release", "--quiet", "--example", "value_data", "--",
           "--variant", cfg["variant"], "--bots", d["bots"], "--games", str(d["games"]),
           "--seed", str(d["seed"]), "--threads", str(d.get("threads", 0)), "--out", str(path)]
    if d.get("max_rounds"):
        cmd += ["--max-rounds", str(d["max_rounds"])]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("config", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--data", type=Path, help="a value_data file (default: OUT/data.safetensors, made if missing)")
    ap.add_argument("--install", action="store_true", help="copy the model into the models crate")
    args = ap.parse_args()
    cfg = tomllib.loads(args.config.read_text())
    variant = cfg["variant"]
    args.out.mkdir(parents=True, exist_ok=True)
    data_path = args.data or args.out / "data.safetensors"
    if not data_path.exists():
        generate(cfg, data_path)
    a, meta = load(data_path)
    if meta.get("variant") != variant:
        sys.exit(f"{data_path}: data of {meta.get('variant')}, the config is for {variant}")
    x, y, playout = a["x"], a["targets"], a["playout"]
    games = a["games"].astype(np.int64)
    share = a["hand_len"].astype(np.float64) / HAND[variant]
    t = cfg["train"]
    cut = np.quantile(np.unique(games), 1.0 - t["validation_share"])
    train, held = games < cut, games >= cut
    print(f"{len(games)} positions of {len(np.unique(games))} games: "
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
    if cfg.get("half", True):
        # The engine runs the float16 weights: measure those.
        net.coefs_ = [w.astype(np.float16).astype(np.float64) for w in net.coefs_]
        net.intercepts_ = [b.astype(np.float16).astype(np.float64) for b in net.intercepts_]
    pred = net.predict(x[held])
    mean = y[train].mean(axis=0, keepdims=True)
    calibration = {
        "variant": variant,
        "positions": {"train": int(train.sum()), "held_out": int(held.sum())},
        "epoch": kept,
        "mse": {
            "model": mse_by_phase(pred, y[held], share[held]),
            "heuristic_playout": mse_by_phase(playout[held], y[held], share[held]),
            "constant": mse_by_phase(np.repeat(mean, held.sum(), 0), y[held], share[held]),
        },
    }
    (args.out / "calibration.json").write_text(json.dumps(calibration, indent=2) + "\n")
    info = {"config": args.config.name, "data": meta.get("bots", ""), "epoch": kept,
            "held_out_mse": round(calibration["mse"]["model"]["all"], 4)}
    model = args.out / "model.safetensors"
    write_model(net, variant, model, cfg.get("half", True), info)
    print("| phase | model | heuristic playout | constant |\n|---|---:|---:|---:|")
    for phase in ("all", *(p[0] for p in PHASES)):
        m = calibration["mse"]
        print(f"| {phase} | {m['model'][phase]:.4f} | {m['heuristic_playout'][phase]:.4f} "
              f"| {m['constant'][phase]:.4f} |")
    print(f"model: {model} (epoch {kept})", file=sys.stderr)
    if args.install:
        dest = ROOT / "crates/yokai-septet-models/models" / f"value-{variant}.safetensors"
        shutil.copyfile(model, dest)
        print(f"installed: {dest}", file=sys.stderr)


if __name__ == "__main__":
    main()
