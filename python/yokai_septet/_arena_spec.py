"""``yokai_septet.ArenaSpec``: the settings of a duplicate-deal arena, in one typed value.

Every arena entry point (:func:`yokai_septet.arena`, :func:`yokai_septet.evaluate`,
``yokai_septet.distributed.arena``, ``yokai_septet.models.imitation_data``) takes either
these settings as keywords or one ``spec=ArenaSpec(...)``; the compiled ``_core.arena``
family takes only a spec.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, TypedDict

from . import _core
from ._core import InvalidTypeError
from ._signatures import settings_parameters, show_signature

# The arena's settings table (crates/yokai-septet-bots/src/arena/settings.rs): every field's default and check.
_TABLE = {row["name"]: row for row in _core._settings_spec()["arena"]}


@dataclass(frozen=True)
class ArenaSpec:
    """The settings of a duplicate-deal arena (what is played and how), declared once in
    the arena's settings table (``_core._settings_spec()["arena"]``: defaults, ranges),
    validated when built by the same code as every arena function; a bad field is a ``ValueError`` (a value out of range or unknown) or a
    ``TypeError`` (a wrong type) that names it.

    - ``variant``: ``"4p"``, ``"3p"``, ``"seal"`` or ``"seal-short"``.
    - ``games``: how many games (rounded up to whole duplicate groups), ``1 .. 2**48``.
    - ``seed``: where every deal and bot seed comes from, ``0 .. 2**64-1``.
    - ``scoring``: ``"advanced"`` or ``"basic"``; the seal variants ignore it (``None``
      is accepted there).
    - ``max_rounds``: the round cap of each game (``None``: none).
    - ``duplicate``: each deal played once per seating of the line-up.
    - ``rounds``: single rounds from fresh deals, each scored by its round points, instead
      of whole games (most strength questions are about card play inside a round).
    - ``sequential``: stop once the first entry's anytime-valid board interval excludes
      its fair share (5% error rate, looked at after every board); ``games`` is then the
      budget. Two entries only; not with ``yokai_septet.distributed``.
    - ``threads``: Rust threads (``None`` or ``0``: every core); never changes the result.
    - ``batch_size``: how many games :func:`yokai_septet.evaluate` plays at once for a
      batched Python policy; never changes the result of a deterministic policy.

    The same spec gives the same summary at any ``threads``. ``spec.kwargs()`` is the
    keyword form; ``spec.replace(games=10)`` a changed copy.
    """

    variant: str = _TABLE["variant"]["default"]
    games: int = _TABLE["games"]["default"]
    seed: int = _TABLE["seed"]["default"]
    scoring: Optional[str] = _TABLE["scoring"]["default"]
    max_rounds: Optional[int] = _TABLE["max_rounds"]["default"]
    duplicate: bool = _TABLE["duplicate"]["default"]
    rounds: bool = _TABLE["rounds"]["default"]
    sequential: bool = _TABLE["sequential"]["default"]
    threads: Optional[int] = _TABLE["threads"]["default"]
    batch_size: int = _TABLE["batch_size"]["default"]

    def __post_init__(self) -> None:
        # Checked in Rust by the table, as the arena functions check it; numbers and
        # flags are kept as plain Python ones (a numpy integer or bool given is converted).
        for name, value in _core._check_arena_spec(self).items():
            object.__setattr__(self, name, value)

    def kwargs(self) -> dict[str, Any]:
        """The arena's settings as keywords (of :func:`yokai_septet.arena` and the rest):
        every field but ``batch_size``, which only :func:`yokai_septet.evaluate` uses."""
        return {k: getattr(self, k) for k in _TABLE if k != "batch_size"}

    def replace(self, **changes: Any) -> "ArenaSpec":
        """A copy with ``changes`` (validated like a new spec)."""
        return dataclasses.replace(self, **changes)


#: The defaults, as the signatures of the arena functions show them.
DEFAULT = ArenaSpec()


def resolve(spec: Optional[ArenaSpec], defaults: ArenaSpec = DEFAULT, **keywords: Any) -> ArenaSpec:
    """The settings a call runs with: ``spec`` when given, else the ``keywords`` (a
    function's arena keywords, whose own defaults are ``defaults``). Both at once, that is
    ``spec`` with a keyword that is not left at its default, is a ``TypeError``."""
    if spec is None:
        return ArenaSpec(**keywords)
    if not isinstance(spec, ArenaSpec):
        raise InvalidTypeError(f"spec must be a yokai_septet.ArenaSpec, not {type(spec).__name__}")
    given = [k for k, v in keywords.items() if _differs(v, getattr(defaults, k))]
    if given:
        raise InvalidTypeError(
            "give the arena's settings either as spec= or as keywords, not both "
            f"({', '.join(given)} given with spec=)"
        )
    return spec


def _differs(value: Any, default: Any) -> bool:
    return bool(type(value) is not type(default) or value != default)


class ArenaKeywords(TypedDict, total=False):
    """The arena's keyword-only settings but ``batch_size``, for type checkers: an arena
    function that passes them on as they are takes them as its ``**kwargs``
    (:func:`show_arena_keywords` shows them from the table)."""

    scoring: Optional[str]
    max_rounds: Optional[int]
    duplicate: bool
    rounds: bool
    sequential: bool
    threads: Optional[int]


def show_arena_keywords(f: Callable[..., Any]) -> None:
    """Makes ``inspect`` show the arena table's rows of :class:`ArenaKeywords` as ``f``'s
    first keyword-only parameters, in place of its ``**kwargs``."""
    own = [p for p in inspect.signature(f).parameters.values() if p.kind is not p.VAR_KEYWORD]
    at = next(i for i, p in enumerate(own) if p.kind is p.KEYWORD_ONLY)
    rows = [p for p in settings_parameters("arena") if p.name in ArenaKeywords.__optional_keys__]
    show_signature(f, [*own[:at], *rows, *own[at:]])


def check_arena_keywords(what: str, settings: Mapping[str, Any]) -> None:
    """Refuses a keyword in ``settings`` (the ``**kwargs`` of the function ``what``) that
    is not one of :class:`ArenaKeywords`, as Python refuses an unknown keyword."""
    unknown = sorted(set(settings) - ArenaKeywords.__optional_keys__)
    if unknown:
        raise InvalidTypeError(f"{what}() got an unexpected keyword argument {unknown[0]!r}")
