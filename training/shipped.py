"""The model files the crates ship, which a training script's ``--install`` replaces: the
policy and value models in ``crates/yokai-septet-models/models``, the belief models in
``crates/yokai-septet-beliefs/models`` (``cargo build`` embeds what is there)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

CRATES = Path(__file__).resolve().parents[1] / "crates"


def shipped_file(name: str) -> Path:
    """The shipped model file ``name`` (``4p.safetensors``, ``value-4p.safetensors``,
    ``belief-4p.safetensors``)."""
    crate = "yokai-septet-beliefs" if name.startswith("belief-") else "yokai-septet-models"
    return CRATES / crate / "models" / name


def install(model: Path, name: str) -> None:
    """Copies ``model`` over the shipped file ``name``, saying so on stderr."""
    dest = shipped_file(name)
    shutil.copyfile(model, dest)
    print(f"installed {dest}", file=sys.stderr)
