"""Every Python snippet in the README and docs/ runs as written.

The snippets of one page run as one session, in order, like a notebook: snippet k runs
after snippets 0..k-1 of its page, in a fresh interpreter in an empty folder. A snippet
that needs an optional extra says so on the line before its fence,
`<!-- snippet: needs EXTRA -->`, and runs in that extra's tier (`pytest -m training`,
`-m frameworks`, `-m video`, `-m plots`); the snippets after it on the page do not see it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "python" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SNIPPET = re.compile(
    r"(?:^[ ]*<!-- snippet: needs (?P<extra>[\w-]+) -->\n)?^(?P<indent>[ ]*)```python\n(?P<code>.*?)^(?P=indent)```",
    re.S | re.M,
)
# The extras the default suite installs ('.[test,ray]'; open-spiel is in test) run there;
# the others run in their own tier.
TIER = {"train": "training", "frameworks": "frameworks", "video": "video", "plots": "plots"}
DEFAULT = {"ray", "openspiel"}


def snippets():
    for page in PAGES:
        found = list(SNIPPET.finditer(page.read_text(encoding="utf-8")))
        for k, m in enumerate(found):
            extra = m.group("extra")
            assert extra is None or extra in TIER or extra in DEFAULT, f"{page.name}: unknown extra {extra}"
            prefix = [textwrap.dedent(p.group("code")) for p in found[:k] if p.group("extra") in (None, *DEFAULT)]
            marks = [getattr(pytest.mark, TIER[extra])] if extra in TIER else []
            name = f"{page.relative_to(ROOT)}#{k}"
            yield pytest.param(prefix, textwrap.dedent(m.group("code")), id=name, marks=marks)


def test_the_docs_have_snippets():
    assert sum(1 for _ in snippets()) >= 15


@pytest.mark.parametrize(("prefix", "code"), list(snippets()))
def test_snippet_runs_as_written(prefix, code, tmp_path):
    program = "\n".join([*prefix, code])
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}
    run = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, f"{code}\n--- stderr ---\n{run.stderr[-3000:]}"
