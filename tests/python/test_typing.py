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


# The optional modules and the module each needs (its extra's).
EXTRAS = {"distributed": "ray", "openspiel": "pyspiel", "sb3": "stable_baselines3"}

# What stubtest cannot see in an optional module whose extra is installed (it checks the
# module then): `except ModuleNotFoundError as e` at module level binds `e` for mypy only
# (Python deletes it after the block), and pyspiel's Game and State are pybind11 classes,
# whose metaclass mypy does not know.
PRESENT_EXTRA = {
    "distributed": ["yokai_septet.distributed.e"],
    "openspiel": [
        "yokai_septet.openspiel.e",
        "yokai_septet.openspiel.YokaiSeptetGame",
        "yokai_septet.openspiel.YokaiSeptetState",
    ],
}


def allowlists(core, tmp: "Path | None" = None) -> list[Path]:
    """The allowlists for this build: the common one, the entries of the features it was
    built without, and (with ``tmp``: the whole package) the modules of missing extras."""
    import importlib.util

    out = [HERE / "typing" / "stubtest_allowlist.txt"]
    if not hasattr(core, "_error_examples"):
        out.append(HERE / "typing" / "stubtest_allowlist_no_test_helpers.txt")
    if tmp is not None:
        missing = [m for m, dep in EXTRAS.items() if importlib.util.find_spec(dep) is None]
        extras = tmp / "stubtest_allowlist_extras.txt"
        extras.write_text(
            (HERE / "typing" / "stubtest_allowlist_extras.txt").read_text()
            + "".join(f"yokai_septet.{m}\n" for m in missing)
            + "".join(
                f"{entry}\n"
                for m, entries in PRESENT_EXTRA.items()
                if m not in missing
                for entry in entries
            )
        )
        out.append(extras)
    return out


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
    r = stubtest(*allowlists(_core))
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_whole_package_passes_stubtest_as_documented(tmp_path):
    """``python -m mypy.stubtest yokai_septet`` with the project's config (docs/api.md,
    "Typing"): every module's annotations and signatures are the running package's, the
    pure-Python ones (their source is their stub) and the compiled one (_core.pyi); a
    module whose extra is not installed is left out (it cannot be imported)."""
    from yokai_septet import _core

    args = [sys.executable, "-m", "mypy.stubtest", "yokai_septet", "--concise",
            "--mypy-config-file", str(ROOT / "pyproject.toml")]
    for a in allowlists(_core, tmp_path):
        args += ["--allowlist", str(a)]
    r = subprocess.run(args, cwd=HERE / "typing", capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


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
