"""``yokai_septet.ArenaSpec``: the settings of a duplicate-deal arena, in one typed value.

Every arena entry point (:func:`yokai_septet.arena`, :func:`yokai_septet.evaluate`,
``yokai_septet.distributed.arena``, ``yokai_septet.models.imitation_data`` and the compiled
``_core.arena`` family) takes either these settings as keywords or one ``spec=ArenaSpec(...)``.
"""

from __future__ import annotations

import dataclasses
import operator
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ._core import SCORINGS, VARIANTS

#: The largest ``games`` the Rust arena accepts.
MAX_GAMES = 1 << 48
#: The largest ``threads`` the Rust arena accepts.
MAX_THREADS = 1024


def _quoted(names: list[str]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def _integer(value: Any, field: str, lo: int, hi: Optional[int] = None) -> int:
    """``value`` as an ``int`` in ``lo..hi`` (a Python or numpy integer, not a bool;
    ``hi=None``: no upper bound): ``TypeError`` for another type, ``ValueError`` out of
    range, each naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{field} must be an int or a numpy integer, not {type(value).__name__} "
            f"({value!r})"
        )
    v = operator.index(value)
    if v < lo or (hi is not None and v > hi):
        bounds = f"in {lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{field} {v!r} is out of range: it must be an integer {bounds}")
    return v


@dataclass(frozen=True)
class ArenaSpec:
    """The settings of a duplicate-deal arena (what is played and how), validated when
    built; a bad field is a ``ValueError`` (a value out of range or unknown) or a
    ``TypeError`` (a wrong type) that names it.

    - ``variant``: ``"4p"``, ``"3p"``, ``"seal"`` or ``"seal-short"``.
    - ``games``: how many games (rounded up to whole duplicate groups), ``1 .. 2**48``.
    - ``seed``: where every deal and bot seed comes from, ``0 .. 2**64-1``.
    - ``scoring``: ``"advanced"`` or ``"basic"``; the seal variants ignore it (``None``
      is accepted there).
    - ``max_rounds``: the round cap of each game (``None``: none).
    - ``duplicate``: each deal played once per seating of the line-up.
    - ``threads``: Rust threads (``None`` or ``0``: every core); never changes the result.
    - ``batch_size``: how many games :func:`yokai_septet.evaluate` plays at once for a
      batched Python policy; never changes the result of a deterministic policy.

    The same spec gives the same summary at any ``threads``. ``spec.kwargs()`` is the
    keyword form; ``spec.replace(games=10)`` a changed copy.
    """

    variant: str = "4p"
    games: int = 1000
    seed: int = 0
    scoring: Optional[str] = "advanced"
    max_rounds: Optional[int] = 100
    duplicate: bool = True
    threads: Optional[int] = None
    batch_size: int = 256

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise ValueError(
                f"unknown variant {self.variant!r}: valid variants are {_quoted(VARIANTS)}"
            )
        if self.scoring is None:
            if not self.variant.startswith("seal"):
                raise ValueError(
                    f"scoring None is only for the seal variants: valid scorings for "
                    f"{self.variant!r} are {_quoted(SCORINGS)}"
                )
        elif not isinstance(self.scoring, str) or self.scoring not in SCORINGS:
            raise ValueError(
                f"unknown scoring {self.scoring!r}: valid scorings are {_quoted(SCORINGS)}"
            )
        if not isinstance(self.duplicate, (bool, np.bool_)):
            raise TypeError(
                f"duplicate must be a bool, not {type(self.duplicate).__name__} "
                f"({self.duplicate!r})"
            )
        # Numbers are kept as plain ints (a numpy integer given is converted).
        set_field = object.__setattr__
        set_field(self, "duplicate", bool(self.duplicate))
        set_field(self, "games", _integer(self.games, "games", 1, MAX_GAMES))
        set_field(self, "seed", _integer(self.seed, "seed", 0, 2**64 - 1))
        if self.max_rounds is not None:
            set_field(self, "max_rounds", _integer(self.max_rounds, "max_rounds", 1, 2**32 - 1))
        if self.threads is not None:
            set_field(self, "threads", _integer(self.threads, "threads", 0, MAX_THREADS))
        set_field(self, "batch_size", _integer(self.batch_size, "batch_size", 1))

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the compiled arena functions (``_core.arena`` and the
        rest): every field but ``batch_size``, which only :func:`yokai_septet.evaluate`
        uses."""
        return {
            "variant": self.variant,
            "games": self.games,
            "seed": self.seed,
            "scoring": self.scoring,
            "max_rounds": self.max_rounds,
            "duplicate": self.duplicate,
            "threads": self.threads,
        }

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
        raise TypeError(f"spec must be a yokai_septet.ArenaSpec, not {type(spec).__name__}")
    given = [k for k, v in keywords.items() if _differs(v, getattr(defaults, k))]
    if given:
        raise TypeError(
            "give the arena's settings either as spec= or as keywords, not both "
            f"({', '.join(given)} given with spec=)"
        )
    return spec


def _differs(value: Any, default: Any) -> bool:
    return bool(type(value) is not type(default) or value != default)
