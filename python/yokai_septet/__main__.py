"""``python -m yokai_septet``: the ``yokai-septet`` command-line tool (``serve``, ``play``,
``replay``, …), the same as the console script."""

from .cli import main

main()
