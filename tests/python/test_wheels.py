"""The release artifacts as a user installs them (`pytest -m wheels`, after
`bash scripts/build_wheels.sh`): the manylinux wheel into a fresh virtualenv whose PATH has
no cargo or rustc, and the sdist into one with the toolchain. Each runs
scripts/smoke_test.py (the README's quickstart, a VectorEnv step, an `nn` decision)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
SMOKE = ROOT / "scripts" / "smoke_test.py"

pytestmark = pytest.mark.wheels


def artifact(pattern: str) -> Path:
    found = sorted(DIST.glob(pattern))
    assert found, f"no {pattern} in dist/: run `bash scripts/build_wheels.sh` first"
    return found[-1]


def path_without_rust() -> str:
    keep = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not any((Path(d) / tool).exists() for tool in ("cargo", "rustc"))
    ]
    return os.pathsep.join(keep)


def fresh_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    return where / "bin" / "python"


def test_the_wheel_is_manylinux2014():
    wheel = artifact("*.whl")
    assert "manylinux_2_17" in wheel.name or "manylinux2014" in wheel.name, wheel.name
    assert "abi3" in wheel.name, wheel.name
    auditwheel = ROOT / ".venv-wheels" / "bin" / "auditwheel"
    shown = subprocess.run([str(auditwheel), "show", str(wheel)], capture_output=True, text=True, check=True)
    assert 'manylinux_2_17' in shown.stdout, shown.stdout


def test_the_wheel_installs_in_seconds_and_runs_without_rust(tmp_path):
    wheel = artifact("*.whl")
    python = fresh_venv(tmp_path / "venv")
    env = {**os.environ, "PATH": f"{python.parent}{os.pathsep}{path_without_rust()}"}
    env.pop("VIRTUAL_ENV", None)
    assert shutil.which("cargo", path=env["PATH"]) is None
    start = time.monotonic()
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], env=env, check=True)
    print(f"pip install of the wheel: {time.monotonic() - start:.1f} s")
    run = subprocess.run(
        [str(python), str(SMOKE), "--no-rust"], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "smoke: ok" in run.stdout
    assert str(tmp_path) in run.stdout, "the package must come from the fresh venv, not the tree"


def test_the_sdist_builds_and_runs_with_a_toolchain(tmp_path):
    sdist = artifact("*.tar.gz")
    python = fresh_venv(tmp_path / "venv")
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(sdist)], check=True)
    run = subprocess.run([str(python), str(SMOKE)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "smoke: ok" in run.stdout


def test_the_wheel_passes_stubtest_as_documented(tmp_path):
    """docs/api.md's stubtest command, run as written against the plain wheel (no test
    helpers, no extras) in a fresh virtualenv with only mypy beside it."""
    from test_typing import documented_stubtest

    wheel = artifact("*.whl")
    python = fresh_venv(tmp_path / "venv")
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel), "mypy>=1.18"],
                   check=True)
    cwd, args = documented_stubtest()
    run = subprocess.run([str(python), *args[1:]], cwd=cwd, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
