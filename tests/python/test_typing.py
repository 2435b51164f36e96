"""Strict typing: ``mypy --strict`` on the package and on a user script, and mypy's
``stubtest`` on ``_core.pyi`` against the compiled module (mypy comes with the ``test``
extra)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def mypy(*args: str) -> subprocess.CompletedProcess:
    # The repository's pyproject.toml holds the [tool.mypy] settings (strict).
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *args],
        cwd=ROOT, capture_output=True, text=True,
    )


def test_package_passes_mypy_strict():
    r = mypy("-p", "yokai_septet")
    assert r.returncode == 0, r.stdout + r.stderr


def test_user_script_passes_mypy_strict():
    r = mypy(str(HERE / "typing" / "user_script.py"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_user_script_runs():
    """What the typed script does works at run time too."""
    import runpy

    runpy.run_path(str(HERE / "typing" / "user_script.py"), run_name="__main__")


def test_mypy_strict_catches_a_wrong_call(tmp_path):
    """The check can fail: a wrong argument type in a user script is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("import yokai_septet as ys\nys.arena(games='many')\nys.Game(seed='x')\n")
    r = mypy(str(bad))
    assert r.returncode == 1
    assert 'Argument "games" to "arena"' in r.stdout
    assert 'Argument "seed" to "Game"' in r.stdout
