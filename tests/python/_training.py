"""What the trainers' tests share: a tiny config edited line by line, and a method run as
a person runs it (``python -m training.METHOD CONFIG --out OUT ...`` from the repository
root)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A run of a few seconds on fresh weights started at the heuristic, evaluated on 8
#: games; ``tiny(**keys)`` adds or replaces a method's own keys.
TINY = """\
variant = "4p"
seed = 3
init = "none"
hidden = [32]
heuristic_prior = 0.1
envs = 24
steps = 16
learning_rate = 0.001
minibatch = 256
checkpoint_rollouts = 3
torch_threads = 1
[opponents]
heuristic = 0.25
past = 0.25
[eval]
opponent = "heuristic"
games = 8
seed = 5
"""


def edited(text: str, **keys) -> str:
    """``text`` with each top-level ``key = value`` line of ``keys`` replaced (or added
    first)."""
    for k, v in keys.items():
        line = re.compile(rf"^{k} = .*$", re.M)
        text = line.sub(f"{k} = {v}", text, count=1) if line.search(text) \
            else f"{k} = {v}\n{text}"
    return text


def tiny(**keys) -> str:
    """:data:`TINY` with a method's own keys replaced or added."""
    return edited(TINY, **keys)


def config(tmp_path: Path, text: str, name: str = "tiny.toml", **keys) -> Path:
    """``edited(text, **keys)`` written to ``tmp_path / name``."""
    path = tmp_path / name
    path.write_text(edited(text, **keys))
    return path


def run(method: str, config: Path, out: Path, *extra: str, check: bool = True):
    """``python -m training.METHOD CONFIG --out OUT EXTRA...``, its output captured."""
    return subprocess.run([sys.executable, "-m", f"training.{method}", str(config), "--out",
                           str(out), *extra], cwd=ROOT, capture_output=True, text=True,
                          check=check)
