"""The examples that need nothing beyond the package run as a user runs them."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def test_evaluate_own_agent_trains_saves_loads_and_evaluates(tmp_path):
    out = tmp_path / "agent.npz"
    p = subprocess.run(
        [sys.executable, str(EXAMPLES / "evaluate_own_agent.py"), "--samples", "3000",
         "--epochs", "1", "--games", "8", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr
    assert out.exists()
    with np.load(out) as f:
        assert f["weights"].shape[1] == 49 and str(f["variant"]) == "4p"
    for opponent in ("random", "heuristic"):
        assert f"linear-imitation-4p vs {opponent}: 8 duplicate games" in p.stdout
    assert p.stdout.count("win rate") == 4


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_every_example_takes_a_variant_and_limits_torch_threads(path):
    # A torch example that leaves torch at one thread per core contends with the
    # environment's threads; on a busy 2-core machine that runs many times slower.
    text = path.read_text(encoding="utf-8")
    assert '"--variant"' in text, f"{path.name} has no --variant"
    if "torch" in text:
        assert '"--torch-threads"' in text, f"{path.name} has no --torch-threads"
        assert "set_num_threads(" in text, f"{path.name} never sets torch's threads"
    assert "/s" in text, f"{path.name} prints no rate"


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("yokai_septet.sb3", "stable_baselines3", "train"),
        ("yokai_septet.distributed", "ray", "ray"),
        ("yokai_septet.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_a_missing_extra_is_named_on_import(module, blocked, extra):
    code = f"import sys; sys.modules[{blocked!r}] = None; import {module}"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode != 0
    assert f'pip install ".[{extra}]" in the yokai-septet clone' in run.stderr, run.stderr[-500:]


@pytest.mark.parametrize(
    ("code", "extra"),
    [
        ("from yokai_septet import models; models.load('4p').to_torch()", "train"),
        ("from yokai_septet import plots; plots.learning_curve('x.png', [0], {'a': [0.5]})", "plots"),
    ],
)
def test_a_missing_extra_is_named_on_use(code, extra, tmp_path):
    blocked = "torch" if extra == "train" else "matplotlib"
    run = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.modules[{blocked!r}] = None; {code}"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode != 0
    assert f'pip install ".[{extra}]" in the yokai-septet clone' in run.stderr, run.stderr[-500:]
