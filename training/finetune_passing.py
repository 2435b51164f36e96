"""Fine-tunes a model's passing picks only, from a search teacher's labels, keeping its
card play: a short stage after ``train_baseline.py`` (docs/inference.md, "Passing").

    python -m training.finetune_passing crates/yokai-septet-models/models/4p.safetensors \\
        --games 300 --out runs/4p-passing

The model (``players``, by default ``nn:MODEL``) plays whole games; ``teacher`` (a search
that searches its passes, ``pimc:1/1400``) labels every seat's passing picks
(``yokai_septet.models.imitation_data``). The network keeps every weight it has and
gains ``units`` hidden units in its first layer, gated on the observation's "pass" phase
flag (bias ``-GATE``, weight ``+GATE`` from the flag): outside passing they are zero, so
the card play is exactly the old model's (checked on every card decision of the games,
logits equal bit for bit). Only the new units' weights train, on a softmax of the
teacher's values of the picks (``temperature``). A held-out tenth of the decisions (in
blocks of 64: mostly rounds the training never saw) reports the picks' agreement with the
teacher before and after. The model is written to ``OUT/student.safetensors`` (the same
format, a wider first layer) with the old metadata plus ``pass_teacher``,
``pass_labels``, ``pass_players`` and ``pass_stage``. Seeded from ``seed``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

import yokai_septet as ys
from yokai_septet import models

from .train_baseline import Data, gather, net_input, passing_picks, subset, targets

# The gate of the added units: far above anything the other inputs add up to, so that
# outside passing their pre-activation stays negative (checked on every card decision).
GATE = 1000.0


def forward(layers: list, x: np.ndarray) -> np.ndarray:
    """The MLP's logits in numpy float32 (ReLU between layers), as the Rust bot computes."""
    for i, (w, b) in enumerate(layers):
        x = x @ w.T + b
        if i < len(layers) - 1:
            x = np.maximum(x, 0)
    return x


def split_by_game(d: dict, held_share: float, seed: int) -> tuple[dict, dict]:
    """``d``'s decisions split into training and held-out parts by blocks of 64
    consecutive decisions (a game's decisions are consecutive, so held-out picks mostly
    come from rounds the training never saw)."""
    n = len(d["labels"])
    blocks = np.arange(n) // 64
    held = np.random.default_rng(seed).random(blocks.max() + 1) < held_share
    keep = held[blocks]
    return subset(d, ~keep), subset(d, keep)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="the model file to start from")
    ap.add_argument("--out", required=True, help="the run folder (labels cached there)")
    ap.add_argument("--games", type=int, default=300, help="labelled games")
    ap.add_argument("--teacher", default="pimc:1/1400", help="the search labelling the picks")
    ap.add_argument("--players", default=None, help="who plays the games (default nn:MODEL)")
    ap.add_argument("--seed", type=int, default=4790)
    ap.add_argument("--max-rounds", type=int, default=30)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--learning-rate", type=float, default=3e-4)
    ap.add_argument("--temperature", type=float, default=0.05)
    ap.add_argument("--units", type=int, default=64, help="hidden units added for passing")
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    start = models.load(args.model)
    variant, inputs = start.variant, start.inputs
    net = start.to_torch()
    digest = hashlib.sha256(Path(args.model).read_bytes()).hexdigest()
    players = args.players or f"nn:{args.model}"
    d = gather(out, "passes", depends={"model": digest}, bots=[players] * 2,
               teacher=args.teacher, labelled=[0, 1], variant=variant, games=args.games,
               seed=args.seed, max_rounds=args.max_rounds, threads=args.threads or None)
    actions = d["masks"].shape[1]
    fit, held = split_by_game(d, 0.1, args.seed)
    picks = {k: subset(v, passing_picks(v, variant)) for k, v in (("fit", fit), ("held", held))}
    phase = next(f for f in ys.Game(variant=variant).layout() if f["name"] == "phase")
    flag = phase["offset"]  # the "pass" entry of the phase one-hot (`passing_picks`)
    first, second = net[0], net[2]
    width = first.in_features
    gen = torch.Generator().manual_seed(args.seed)
    new_in = torch.nn.Parameter(torch.randn(args.units, width, generator=gen) * 0.01)
    new_out = torch.nn.Parameter(torch.zeros(second.out_features, args.units))
    for p in net.parameters():
        p.requires_grad_(False)

    def logits(d: dict) -> torch.Tensor:
        """The widened network's masked logits on ``d``'s decisions."""
        x = net_input(torch.from_numpy(d["observations"]), torch.from_numpy(d["heuristic"]),
                      inputs, actions)
        gated = torch.relu(x @ new_in.T + GATE * (x[:, flag : flag + 1] - 1))
        h = torch.relu(first(x))
        h = torch.relu(second(h) + gated @ new_out.T)
        return net[4:](h).masked_fill(~torch.from_numpy(d["masks"]), -1e9)

    assert len(net) >= 5, "a model with at least two hidden layers"

    def pick_agreement() -> float:
        with torch.no_grad():
            got = logits(picks["held"]).argmax(1).numpy()
        return float((got == picks["held"]["labels"]).mean())

    before = pick_agreement()
    target = targets(torch.from_numpy(picks["fit"]["masks"]),
                     torch.from_numpy(picks["fit"]["labels"]).long(),
                     torch.from_numpy(picks["fit"]["values"]),
                     torch.from_numpy(picks["fit"]["heuristic"]).long(), args.temperature, 0.0)
    opt = torch.optim.AdamW([new_in, new_out], lr=args.learning_rate, weight_decay=1e-4)
    bs, n = args.batch_size, len(target)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, bs):
            idx = order[s : s + bs]
            lp = torch.log_softmax(logits(subset(picks["fit"], idx)), 1)
            loss = -(target[idx] * lp).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}: loss {total / n:.4f}", flush=True)
    # Export: the new units as extra rows of the first layer and columns of the second.
    wide = list(models.Model.from_torch(net, variant, inputs).layers)
    with torch.no_grad():
        gate_w = new_in.clone()
        gate_w[:, flag] += GATE
        wide[0] = (np.concatenate([wide[0][0], gate_w.numpy()]),
                   np.concatenate([wide[0][1], np.full(args.units, -GATE, np.float32)]))
        wide[1] = (np.concatenate([wide[1][0], new_out.numpy()], axis=1), wide[1][1])
    every = {k: np.concatenate([fit[k], held[k]]) for k in Data.KEYS}
    played = subset(every, ~passing_picks(every, variant))
    x = models.features(played["observations"], played["heuristic"], inputs, actions)
    old_logits, new_logits = forward(start.layers, x), forward(wide, x)
    report = {
        "pass_labels_fit": n, "pass_labels_held": len(picks["held"]["labels"]),
        "held_pick_agreement_before": before, "held_pick_agreement_after": pick_agreement(),
        "card_decisions_checked": len(x),
        # The added units add exact zeros; only the sums' order may differ (BLAS blocks).
        "card_logits_max_abs_diff": float(np.abs(old_logits - new_logits).max()),
        "card_gates_closed": bool((x @ wide[0][0][-args.units:].T + wide[0][1][-args.units:]
                                   < 0).all()),
        "card_argmax_identical": bool(np.array_equal(
            np.where(played["masks"], old_logits, -np.inf).argmax(1),
            np.where(played["masks"], new_logits, -np.inf).argmax(1))),
    }
    print(json.dumps(report, indent=1), flush=True)
    if not (report["card_gates_closed"] and report["card_argmax_identical"]):
        sys.exit("the added units changed a card decision: not saved")
    meta = {k: v for k, v in start.metadata.items()}
    meta.update(pass_teacher=args.teacher, pass_labels=str(n), pass_players=players,
                pass_stage="training/finetune_passing.py",
                pass_start_sha256=digest)
    models.Model(variant, wide, meta, inputs).save(out / "student.safetensors")
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
