"""Progress of long runs (``arena``, ``evaluate``, ``models.imitation_data``) on stderr.

``progress`` arguments take

- ``None`` (the default): a bar where stderr is a terminal, nothing otherwise (piped
  output, logs and notebooks' captured stderr stay clean);
- ``True``: a bar in any case; ``False``: nothing;
- a callable ``progress(done, total)``: called as games finish (about ten times a second),
  for your own display or logging.

The bar is ``tqdm``'s where it is installed, else one plain line rewritten in place
(``arena 4p: 120/400 games, 0:12 elapsed, about 0:28 left``).

Training loops (``examples/``, ``training/train_baseline.py``) report with
:class:`ProgressLog` instead: whole lines, never rewritten in place, so that a log file
keeps them as a terminal shows them.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Optional, Tuple

from ._core import InvalidTypeError

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


class ProgressLog:
    """Progress lines with an ETA for a loop of ``total`` units (``"step"``): one at the
    first :meth:`update`, then at most every ``every`` seconds, and one at :meth:`close`.
    Each is a whole line on ``stream`` (stdout by default), flushed, so that it shows on
    a terminal and in a piped log alike::

        ppo 4p: 12,288/200,000 steps (6%), 0:41 elapsed, about 10:27 left; return 0.12

    ``update(done, **metrics)`` is cheap when it prints nothing: call it every step."""

    def __init__(self, desc: str, total: int, unit: str = "step", every: float = 5.0,
                 stream: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.desc = desc
        self.total = max(int(total), 1)
        self.unit = unit
        self.every = every
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.shown: Optional[float] = None
        self.done = 0

    def line(self, done: int, metrics: dict[str, Any]) -> str:
        """The line for ``done`` units with ``metrics`` (floats to 4 significant digits)."""
        elapsed = self.clock() - self.start
        text = (f"{self.desc}: {done:,}/{self.total:,} {self.unit}s "
                f"({100 * done / self.total:.0f}%), {_clock(elapsed)} elapsed")
        if 0 < done < self.total:
            text += f", about {_clock(elapsed * (self.total - done) / done)} left"
        if metrics:
            text += "; " + ", ".join(
                f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                for k, v in metrics.items())
        return text

    @classmethod
    def callback(cls, desc: str, unit: str = "game", every: float = 5.0) -> Callback:
        """A ``progress(done, total)`` callback (what ``arena``, ``evaluate`` and
        ``models.imitation_data`` take) that prints these lines: every ``every`` seconds,
        and a last one when ``done`` reaches ``total``."""
        log: list[ProgressLog] = []

        def progress(done: int, total: int) -> None:
            if not log:
                log.append(cls(desc, total, unit=unit, every=every))
            if done >= total:
                log[0].close(done)
            else:
                log[0].update(done)
        return progress

    def update(self, done: int, **metrics: Any) -> bool:
        """Reports ``done`` units (and ``metrics``) if ``every`` seconds have passed since
        the last line (or none was printed yet); returns whether it printed."""
        self.done = done
        now = self.clock()
        if self.shown is not None and now - self.shown < self.every:
            return False
        self.shown = now
        self._print(self.line(done, metrics))
        return True

    def close(self, done: Optional[int] = None, **metrics: Any) -> None:
        """The last line: the units done (``done``, else the last update's) and the time
        it took."""
        if done is not None:
            self.done = done
        self._print(self.line(self.done, metrics))

    def _print(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stdout
        stream.write(text + "\n")
        stream.flush()


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
    raise InvalidTypeError(
        f"progress must be True, False, None or a callable progress(done, total), not {progress!r}"
    )
