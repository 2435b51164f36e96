"""A trained model against built-in bots on fixed duplicate deals, and its learning curve.

Every evaluation is a duplicate-deal arena (``models.evaluate_vs_baseline``): the model's
greedy play (the ``nn`` bot running its weights file in Rust) against ``opponent`` on the
same deals with the seats swapped, reported as the game win rate and the duplicate
boards' win rate, each with its 95% interval. The deals come from ``seed``, which a run
never trains on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List

import numpy as np

from yokai_septet import models

KEYS = ("games", "win_rate", "ci95", "board_win_rate", "board_ci95")


def evaluate(path: Path, variant: str, opponent: str, games: int, seed: int,
             threads: int = 0) -> Dict:
    """The model file at ``path`` against ``opponent``."""
    r = models.evaluate_vs_baseline(f"nn:{path}", variant, games, seed, baseline=opponent,
                                    threads=threads)
    return {"opponent": opponent, **{k: r[k] for k in KEYS}}


def plot(curve: List[Dict], out: Path, title: str) -> None:
    """Win rates (with their intervals) against training decisions and wall time, one
    line per opponent; nothing without matplotlib."""
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
            ax.errorbar([x for x, _ in pts], [e["win_rate"] for _, e in pts],
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
