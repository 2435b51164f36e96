"""The examples that need nothing beyond the package run as a user runs them."""

import subprocess
import sys
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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
