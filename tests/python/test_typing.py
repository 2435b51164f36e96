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


def test_user_script_runs(capsys):
    """What the typed script does works at run time too: it plays its game to the end,
    prints the arena's entries and the analysis's keys, and reaches its last env."""
    import runpy

    runpy.run_path(str(HERE / "typing" / "user_script.py"), run_name="__main__")
    out = capsys.readouterr().out
    winners = out.splitlines()[0]
    assert winners.startswith("[") and winners[1] != "]", out  # a finished game has winners
    assert "'win_rate'" in out and "dict_keys([" in out, out


def test_mypy_strict_catches_a_wrong_call(tmp_path):
    """The check can fail: a wrong argument type in a user script is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import yokai_septet as ys\nys.arena(games='many')\nys.Game(seed='x')\n"
        "ys.env().step_all()\nys.ArenaSpec(games='many')\nys.env(max_rounds='x')\n"
    )
    r = mypy(str(bad))
    assert r.returncode == 1
    assert 'Argument "games" to "arena"' in r.stdout
    assert 'Argument "seed" to "Game"' in r.stdout
    # ys.env() is typed (not Any), and so is ArenaSpec
    assert '"AECEnvProtocol" has no attribute "step_all"' in r.stdout
    assert 'Argument "games" to "ArenaSpec"' in r.stdout
    # env's keywords are typed (a TypedDict; inspect shows them from its settings table)
    assert 'Argument "max_rounds" to "env"' in r.stdout


ALLOWLIST = HERE / "typing" / "stubtest_allowlist.txt"


def documented_stubtest() -> tuple[Path, list[str]]:
    """The stubtest command of docs/api.md ("Typing"), as written there: its directory
    (``cd ...``) and arguments (``python`` is this interpreter)."""
    import re
    import shlex

    text = (ROOT / "docs" / "api.md").read_text()
    block = re.search(r"```sh\n(cd [^\n]*mypy\.stubtest[^`]*)```", text)
    assert block, "docs/api.md shows the stubtest command"
    words = shlex.split(block.group(1).replace("\\\n", " "))
    assert words[0] == "cd" and words[2] == "&&" and words[3] == "python", words
    return ROOT / words[1], [sys.executable, *words[4:]]


def stubtest(*args: str) -> subprocess.CompletedProcess:
    # Outside the repository: the installed module, not the source tree's files.
    return subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *args, "--concise"],
        cwd=HERE / "typing", capture_output=True, text=True,
    )


def test_core_stub_matches_the_compiled_module():
    """mypy's stubtest: every name, signature and default in _core.pyi is the compiled
    module's (the allowlist says why for each exception)."""
    from yokai_septet import _core

    assert hasattr(_core, "bench_arena"), "every build ships the bench functions"
    r = stubtest("yokai_septet._core", "--allowlist", str(ALLOWLIST))
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_whole_package_passes_stubtest_as_documented():
    """The command docs/api.md shows, run as written (from its directory, against the
    installed package, with the project's config and the one allowlist): every module's
    annotations and signatures are the running package's, the pure-Python ones (their
    source is their stub) and the compiled one (_core.pyi). The same command passes on
    the plain wheel, without the test helpers or any extra (the allowlist's entries match
    the empty string, and the test helper is in no ``__all__``): the wheels tier
    (tests/python/test_wheels.py) runs it there."""
    cwd, args = documented_stubtest()
    assert "--allowlist" in args and "--mypy-config-file" in args, args
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_test_helper_is_in_no_all():
    """The stub declares ``_core._error_examples`` (the test build's helper) but neither
    ``__all__`` names it, so stubtest checks it where it exists and passes over it in the
    wheel, which lacks it."""
    from yokai_septet import _core

    assert "_error_examples" not in _core.__all__
    stub = (ROOT / "python" / "yokai_septet" / "_core.pyi").read_text()
    assert "def _error_examples(" in stub
    assert '"_error_examples"' not in stub


def test_importing_main_runs_nothing():
    """``import yokai_septet.__main__`` (as stubtest and documentation tools do) neither
    prints the usage nor exits; ``python -m yokai_septet`` still runs the tool."""
    r = subprocess.run([sys.executable, "-c", "import yokai_septet.__main__"],
                       cwd=HERE / "typing", capture_output=True, text=True)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    r = subprocess.run([sys.executable, "-m", "yokai_septet", "--help"],
                       cwd=HERE / "typing", capture_output=True, text=True)
    assert r.returncode == 0 and "serve" in r.stdout, r.stdout + r.stderr


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
