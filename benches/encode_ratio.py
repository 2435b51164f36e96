#!/usr/bin/env python3
"""Prints the observation encoder's cost in engine steps from the last run of
`cargo bench -p yokai-septet --bench observation` (criterion's JSON under target/criterion).

The issue's target is "encoding costs less than 3 engine steps". Each figure comes from
one run, so the ratios hold even when a shared machine's speed drifts between runs:
- `encode`: one observation of a mid-round position (criterion's mean);
- `in rollout`: a playout that encodes at every decision minus the bare playout, per step;
- `floor`: zeroing a buffer of the observation's size with 64-byte stores (what writing
  the vector costs before any encoding work).
Yardsticks: `round step` (one round from a fixed start, the state hot: the engine's
fastest case) and `game step` (whole games from fresh seeds, dealing included).

    python3 benches/encode_ratio.py [target/criterion]
"""
import json
import sys
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
VARIANTS = ["4p", "3p", "seal", "seal-short"]


def per_element(group, bench):
    """Mean ns per element of throughput (per step for playouts), or None if not run."""
    d = ROOT / group / bench / "new"
    try:
        mean = json.loads((d / "estimates.json").read_text())["mean"]["point_estimate"]
        meta = json.loads((d / "benchmark.json").read_text())
    except FileNotFoundError:
        return None
    return mean / ((meta.get("throughput") or {}).get("Elements", 1))


def main():
    print("| variant | dtype | encode ns | floor ns | round step ns | encode / round step "
          "| in-rollout / round step | game step ns | encode / game step | in-rollout / game step |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    found = False
    for v in VARIANTS:
        rs, gs = per_element(v, "round_step"), per_element(v, "game_step")
        for t in ["u8", "f32"]:
            enc, floor = per_element(v, f"encode_{t}"), per_element(v, f"store_floor_{t}")
            rw = per_element(v, f"round_step_with_obs_{t}")
            gw = per_element(v, f"game_step_with_obs_{t}")
            if None in (rs, gs, enc, floor, rw, gw):
                continue
            found = True
            print(f"| {v} | {t} | {enc:.1f} | {floor:.1f} | {rs:.2f} | {enc / rs:.2f} "
                  f"| {(rw - rs) / rs:.2f} | {gs:.2f} | {enc / gs:.2f} | {(gw - gs) / gs:.2f} |")
    if not found:
        sys.exit(f"no complete results under {ROOT}: run `cargo bench -p yokai-septet --bench observation` first")


if __name__ == "__main__":
    main()
