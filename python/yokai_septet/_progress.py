"""Progress of long runs (``arena``, ``evaluate``, ``models.imitation_data``) on stderr.

``progress`` arguments take

- ``None`` (the default): a bar where stderr is a terminal, nothing otherwise (piped
  output, logs and notebooks' captured stderr stay clean);
- ``True``: a bar in any case; ``False``: nothing;
- a callable ``progress(done, total)``: called as games finish (about ten times a second),
  for your own display or logging.

The bar is ``tqdm``'s where it is installed, else one plain line rewritten in place
(``arena 4p: 120/400 games, 0:12 elapsed, about 0:28 left``).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Optional, Tuple

#: What a ``progress`` argument may be.
Progress = Any

Callback = Callable[[int, int], None]


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    h, m = divmod(s, 3600)
    m, s = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class _Line:
    """One line on stderr, rewritten in place at most five times a second."""

    def __init__(self, desc: str, stream: Any, unit: str) -> None:
        self.desc = desc
        self.unit = unit
        self.stream = stream
        self.start = time.monotonic()
        self.shown = 0.0
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.shown < 0.2:
            return
        self.shown = now
        elapsed = now - self.start
        text = f"{self.desc}: {done}/{total} {self.unit}s, {_clock(elapsed)} elapsed"
        if 0 < done < total:
            text += f", about {_clock(elapsed * (total - done) / done)} left"
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.width:
            self.stream.write("\n")
            self.stream.flush()


class _Tqdm:
    """A ``tqdm`` bar driven by ``(done, total)``."""

    def __init__(self, desc: str, tqdm: Any, unit: str) -> None:
        self.bar = tqdm(desc=desc, unit=unit, total=None, leave=False)

    def __call__(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        self.bar.close()


def progress_bar(
    progress: Progress, desc: str, unit: str = "game"
) -> Tuple[Optional[Callback], Callable[[], None]]:
    """The callback a ``progress`` argument asks for (or ``None``), and what ends it. Also
    for the training scripts' own loops (``unit="epoch"``)."""
    if progress is None:
        isatty = getattr(sys.stderr, "isatty", None)
        progress = bool(isatty and isatty())
    if progress is False:
        return None, lambda: None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            line = _Line(desc, sys.stderr, unit)
            return line, line.close
        bar = _Tqdm(desc, tqdm, unit)
        return bar, bar.close
    if callable(progress):
        return progress, lambda: None
    raise TypeError(
        f"progress must be True, False, None or a callable progress(done, total), not {progress!r}"
    )
