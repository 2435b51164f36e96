"""``python -m yokai_septet``: the ``yokai-septet`` command-line tool (``serve``, ``play``,
``replay``, …), the same as the console script. Importing this module runs nothing."""

from .cli import main

if __name__ == "__main__":
    main()
