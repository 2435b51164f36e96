"""The ``yokai-septet`` console script: the Rust command-line tool (``play``, ``replay``,
``bench``, ``arena``), run through ``_core.run_cli`` — the same code as the Rust binary
``cargo run --release -- <command>``."""

from __future__ import annotations

import signal
import sys
from typing import Optional, Sequence

from ._core import run_cli
from ._evaluate import load_policy


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the tool on ``argv`` (default: ``sys.argv[1:]``); exits with its exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Python's own output goes first, then the Rust code writes to the real stdout.
    sys.stdout.flush()
    sys.stderr.flush()
    # The Rust code runs without the GIL and never returns to the interpreter's signal
    # handling while it waits for input: let Ctrl-C end the process at once (like the Rust
    # binary; `play --save` keeps its record up to date at every prompt).
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    # `play --bots module:attribute` seats a Python policy: the loader is passed down to
    # the registry of this run (the Rust code never imports a private Python module).
    code = run_cli(["yokai-septet", *args], load_policy)
    if argv is None:
        sys.exit(code)
    return code


if __name__ == "__main__":
    main()
