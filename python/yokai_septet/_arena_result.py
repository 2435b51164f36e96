"""``yokai_septet.ArenaResult``: an arena's summary, a dict that prints as a table."""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional


class TruncationWarning(UserWarning):
    """The round cap (``max_rounds``) decides an arena's result: the games it cut count
    as draws, and played out they could change who comes first (or most games were cut,
    and the result measures the cap, not the bots)."""


class ArenaResult(Dict[str, Any]):
    """An arena's summary: the dict ``yokai-septet arena --json`` holds under
    ``summary`` (``games``, ``truncated``, ``entries`` with each entry's ``win_rate``,
    ``ci95``, ``elo`` …), which prints as the command line's table: ``print(result)`` or
    ``result.table()``. ``warning`` says why the round cap decides the result, where it
    does (else ``None``); the table shows it too. Equal to a plain dict of the same
    summary."""

    def __init__(self, summary: Dict[str, Any], table: str, warning: Optional[str] = None):
        super().__init__(summary)
        self._table = table
        self.warning = warning

    def table(self) -> str:
        """The summary as the command line's table (``yokai-septet arena``)."""
        return self._table

    def __str__(self) -> str:
        return self._table

    def warn(self) -> "ArenaResult":
        """Issues :class:`TruncationWarning` (on stderr, through :mod:`warnings`) where the
        round cap decides the result; returns the result."""
        if self.warning:
            warnings.warn(TruncationWarning(self.warning), stacklevel=3)
        return self
