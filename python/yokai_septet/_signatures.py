"""Signatures generated from the settings tables (``_core._settings_spec()``): a callable
that takes its settings as ``**kwargs`` (parsed by the table) shows the table's rows, in
order, with their defaults, so what ``inspect`` and ``help`` show cannot drift from what
the call accepts. Type checkers read the ``**kwargs``' ``Unpack`` of a ``TypedDict``
instead, whose names stubtest checks against the shown signature."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Collection

from . import _core


def settings_parameters(
    kind: str, *, keyword_only: bool = False, leave_out: Collection[str] = ()
) -> list[inspect.Parameter]:
    """The rows of the settings table ``kind`` as parameters, in order, with their defaults
    and annotations; each keeps its ``positional`` kind unless ``keyword_only``."""
    kinds = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [
        inspect.Parameter(
            row["name"], kinds[row["positional"] and not keyword_only],
            default=row.get("default", inspect.Parameter.empty), annotation=row["type"],
        )
        for row in _core._settings_spec()[kind]
        if row["name"] not in leave_out
    ]


def show_signature(f: Callable[..., Any], parameters: list[inspect.Parameter]) -> None:
    """Makes ``inspect`` (and ``help``) show ``parameters`` for ``f``, whose own signature
    takes them as ``**kwargs`` (typed by a ``TypedDict`` where those are all it takes)."""
    shown = inspect.Signature(parameters, return_annotation=inspect.signature(f).return_annotation)
    f.__signature__ = shown  # type: ignore[attr-defined]
