"""PNG plots of the numbers the package produces: Elo ratings as bars (a ladder, or an
arena report) and learning curves.

Needs matplotlib (``pip install ".[plots]"``), imported only when a plot
is drawn: ``import yokai_septet.plots`` works without it. Plots are written with the
non-interactive ``Agg`` backend, so they work on machines without a display.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Optional, Sequence, Union

from ._core import InvalidTypeError, InvalidValueError
from ._extras import missing_extra

Path = Union[str, "os.PathLike[str]"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ModuleNotFoundError as e:
        raise missing_extra(e, "plots", "yokai_septet.plots") from e
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def elo_ratings(source: Any) -> dict[str, float]:
    """Bot name → Elo, from a mapping of that shape or an arena report
    (:func:`yokai_septet.arena`'s ``dict``, whose ``entries`` carry ``bot`` and ``elo``)."""
    if isinstance(source, Mapping) and "entries" in source:
        return {str(e["bot"]): float(e["elo"]) for e in source["entries"]}
    if isinstance(source, Mapping):
        return {str(k): float(v) for k, v in source.items()}
    raise InvalidTypeError(
        f"expected a mapping of bot name to Elo or an arena report, not {type(source).__name__}"
    )


def elo_bars(
    path: Path,
    ratings: Any,
    *,
    title: str = "Elo ratings",
    errors: Optional[Mapping[str, float]] = None,
) -> str:
    """Writes a horizontal bar chart of Elo ratings (highest on top) to ``path`` (PNG);
    ``errors`` gives optional ± error bars by name. Returns the path."""
    elo = elo_ratings(ratings)
    if not elo:
        raise InvalidValueError("no ratings to plot")
    names = sorted(elo, key=lambda name: elo[name])
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 0.45 * len(names) + 1.4))
    xerr = [errors.get(n, 0.0) for n in names] if errors else None
    colors = ["#2a6fc9" if elo[n] >= 0 else "#d2372c" for n in names]
    ax.barh(names, [elo[n] for n in names], xerr=xerr, color=colors, capsize=3)
    ax.axvline(0, color="k", lw=0.8)
    for i, n in enumerate(names):
        ax.annotate(f"{elo[n]:+.0f}", (elo[n], i), xytext=(4 if elo[n] >= 0 else -4, 0),
                    textcoords="offset points", va="center",
                    ha="left" if elo[n] >= 0 else "right", fontsize=8)
    ax.set_xlabel("Elo")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return os.fspath(path)


def learning_curve(
    path: Path,
    x: Sequence[float],
    series: Mapping[str, Sequence[float]],
    *,
    xlabel: str = "training step",
    ylabel: str = "win rate",
    title: str = "Learning curve",
    hlines: Optional[Mapping[str, float]] = None,
    ylim: Optional[tuple[float, float]] = None,
) -> str:
    """Writes one line per named series against ``x`` to ``path`` (PNG), with optional
    labelled horizontal reference lines (``hlines``). Returns the path."""
    if not series:
        raise InvalidValueError("no series to plot")
    for name, ys in series.items():
        if len(ys) != len(x):
            raise InvalidValueError(f"series {name!r} has {len(ys)} points, x has {len(x)}")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, ys in series.items():
        ax.plot(x, ys, "o-", label=name)
    for k, (name, y) in enumerate((hlines or {}).items()):
        ax.axhline(y, ls=[":", "--", "-."][k % 3], c="grey", lw=0.9, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return os.fspath(path)
