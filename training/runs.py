"""A training run's folder: its resumable state, its checkpoints and its curve, and the
budget that ends a sitting.

A run trains in *segments* and saves after each one: the model (``PREFIX-SSSS.safetensors``
and ``PREFIX.safetensors``, the latest), ``state.pt`` (all a resume needs, written
atomically), ``curve.json`` and ``curve.png``. Only the last ``keep`` checkpoint files, every
``keep_every``-th (the milestones a later ``curve`` evaluates) and a copy of the best one
(by the segment's evaluation, ``PREFIX-best.safetensors``) stay; ``curve.json`` keeps
every point.

Budgets (:func:`add_budget_arguments`): ``--decisions`` and ``--segments`` count the whole
run, so the same command started again after they are reached trains nothing more;
``--minutes`` counts this sitting. A sitting ends at the first checkpoint after any of
them is reached.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any, Dict, List, Optional

import torch

#: The last checkpoint files kept, and the period of the milestones kept besides them.
KEEP, KEEP_EVERY = 3, 10


def parse_count(text: str) -> int:
    """``20000000``, ``20_000_000``, ``20M`` or ``500k``."""
    m = re.fullmatch(r"\s*([0-9][0-9_]*(?:\.[0-9]+)?)\s*([kKmMgG]?)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (e.g. 20000000, 20M, 500k)")
    n = float(m.group(1).replace("_", "")) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[
        m.group(2).lower()]
    if n < 1 or n != int(n):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole count")
    return int(n)


def add_budget_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--decisions", type=parse_count, default=None,
                    help="stop at the first checkpoint after the run has trained on this "
                         "many of the network's decisions in all (e.g. 20M); the same "
                         "command started again after that trains nothing more")
    ap.add_argument("--segments", type=int, default=None,
                    help="stop after this many checkpoints in all")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop at the first checkpoint after this many minutes of this "
                         "sitting (a load-dependent budget: prefer --decisions)")


class Budget:
    """When a sitting stops (see the module's text)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.decisions, self.segments, self.minutes = (args.decisions, args.segments,
                                                       args.minutes)

    def reached(self, segment: int, decisions: int, sitting_seconds: float) -> bool:
        return ((self.decisions is not None and decisions >= self.decisions)
                or (self.segments is not None and segment >= self.segments)
                or (self.minutes is not None and sitting_seconds >= self.minutes * 60))


class Run:
    """The folder ``out`` of a run whose checkpoints are ``prefix-SSSS.safetensors``."""

    def __init__(self, out: Path, prefix: str, keep: int = KEEP,
                 keep_every: int = KEEP_EVERY) -> None:
        self.out, self.prefix, self.keep, self.keep_every = Path(out), prefix, keep, keep_every
        self.out.mkdir(parents=True, exist_ok=True)
        self.state_path = self.out / "state.pt"

    def checkpoint(self, segment: int) -> Path:
        return self.out / f"{self.prefix}-{segment:04d}.safetensors"

    @property
    def latest(self) -> Path:
        return self.out / f"{self.prefix}.safetensors"

    @property
    def best(self) -> Path:
        return self.out / f"{self.prefix}-best.safetensors"

    def load(self) -> Optional[Dict[str, Any]]:
        if not self.state_path.exists():
            return None
        return torch.load(self.state_path, weights_only=False)

    def save(self, state: Dict[str, Any]) -> None:
        tmp = self.state_path.with_suffix(".tmp")
        torch.save(state, tmp)
        os.replace(tmp, self.state_path)

    def write_curve(self, curve: List[Dict], name: str = "curve") -> None:
        (self.out / f"{name}.json").write_text(json.dumps(curve, indent=1))

    def prune(self, curve: List[Dict], score: str) -> None:
        """Keeps the last ``keep`` checkpoint files and the milestones (every
        ``keep_every``-th segment), and copies the best so far (the curve's highest
        ``score`` of its first evaluation) to ``PREFIX-best``; the others go.
        Past-checkpoint opponents draw from the files that stay."""
        segments = sorted(int(p.stem.rsplit("-", 1)[1]) for p in
                          self.out.glob(f"{self.prefix}-[0-9]*.safetensors"))
        best = max(curve, key=lambda p: p["evals"][0][score])["segment"] if curve else None
        if best is not None and self.checkpoint(best).exists():
            data = self.checkpoint(best).read_bytes()
            if not self.best.exists() or self.best.read_bytes() != data:
                tmp = self.best.with_suffix(".tmp")
                tmp.write_bytes(data)
                os.replace(tmp, self.best)
        for s in segments[:-self.keep] if self.keep else segments:
            if self.keep_every and s % self.keep_every == 0:
                continue
            self.checkpoint(s).unlink()

    def kept_checkpoints(self, before: int) -> List[Path]:
        """The checkpoint files still on disk from segments before ``before``."""
        return sorted(p for p in self.out.glob(f"{self.prefix}-[0-9]*.safetensors")
                      if int(p.stem.rsplit("-", 1)[1]) < before)
