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
    bad.write_text(
        "import yokai_septet as ys\nys.arena(games='many')\nys.Game(seed='x')\n"
        "ys.env().step_all()\nys.ArenaSpec(games='many')\n"
    )
    r = mypy(str(bad))
    assert r.returncode == 1
    assert 'Argument "games" to "arena"' in r.stdout
    assert 'Argument "seed" to "Game"' in r.stdout
    # ys.env() is typed (not Any), and so is ArenaSpec
    assert '"AECEnvProtocol" has no attribute "step_all"' in r.stdout
    assert 'Argument "games" to "ArenaSpec"' in r.stdout


def stubtest(*allowlists: Path) -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "mypy.stubtest", "yokai_septet._core", "--concise"]
    for a in allowlists:
        args += ["--allowlist", str(a)]
    # Outside the repository: the installed module, not the source tree's files.
    return subprocess.run(args, cwd=HERE / "typing", capture_output=True, text=True)


def test_core_stub_matches_the_compiled_module():
    """mypy's stubtest: every name, signature and default in _core.pyi is the compiled
    module's (the allowlists say why for each exception)."""
    from yokai_septet import _core

    assert hasattr(_core, "bench_arena"), "every build ships the bench functions"
    r = stubtest(HERE / "typing" / "stubtest_allowlist.txt")
    assert r.returncode == 0, r.stdout + r.stderr


def test_stubtest_catches_a_wrong_stub(tmp_path):
    """The check can fail: a stub with a parameter the module lacks is reported."""
    stub = (ROOT / "python" / "yokai_septet" / "_core.pyi").read_text()
    wrong = stub.replace("def solve(self) -> int: ...", "def solve(self, depth: int) -> int: ...")
    assert wrong != stub
    pkg = tmp_path / "yokai_septet"
    pkg.mkdir()
    (pkg / "__init__.pyi").write_text("")
    (pkg / "_core.pyi").write_text(wrong)
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "yokai_septet._core", "--concise",
         "--ignore-missing-stub"],
        cwd=HERE / "typing", capture_output=True, text=True,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
    )
    assert r.returncode == 1
    assert "yokai_septet._core.Game.solve" in r.stdout
