"""The training examples' budgets: ``--decisions`` (the default unit) beside ``--minutes``.
A decisions budget stops at the first rollout that reaches it and gives the same run
again from the same seed; a bad budget is refused by argparse before anything runs.
``train_selfplay.py`` imports torch, so its tests are marked ``training``;
``openspiel_dqn.py`` reads its command before it imports pyspiel, so its refusals run
everywhere.

    python -m pytest -m "training or not training" tests/python/test_example_budgets.py
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: A run of seconds: 8 tables of 8 steps make at most 64 learner decisions a rollout.
TINY = ["--envs", "8", "--steps", "8", "--hidden", "16", "--eval-games", "4",
        "--final-games", "4", "--torch-threads", "1"]
ROLLOUT_MAX = 8 * 8


def run_example(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd)


REFUSED = [
    (["--decisions", "500k", "--minutes", "2"],
     "argument --minutes: not allowed with argument --decisions"),
    (["--decisions", "0"], "argument --decisions: '0' is not a positive whole count"),
    (["--decisions", "1.5"], "argument --decisions: '1.5' is not a positive whole count"),
    (["--decisions", "many"], "argument --decisions: invalid count value: 'many'"),
    (["--minutes", "0"], "argument --minutes: '0' is not a positive number of minutes"),
]
EXAMPLE_NAMES = ["openspiel_dqn.py",
                 pytest.param("train_selfplay.py", marks=pytest.mark.training)]


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
@pytest.mark.parametrize(("args", "message"), REFUSED)
def test_a_bad_budget_is_refused_before_anything_runs(example, args, message, tmp_path):
    p = run_example(example, *args, cwd=tmp_path)
    assert p.returncode == 2, p.stdout + p.stderr
    assert message in p.stderr, p.stderr
    assert p.stdout == "" and list(tmp_path.iterdir()) == []


@pytest.mark.training
def test_an_evaluation_schedule_in_minutes_is_refused_under_a_decisions_budget(tmp_path):
    # The schedule is counted in the budget's unit: 0.5 is no count of decisions.
    p = run_example("train_selfplay.py", "--decisions", "1M", "--eval-every", "0.5",
                    cwd=tmp_path)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "argument --eval-every: '0.5' is not a positive whole count" in p.stderr
    assert list(tmp_path.iterdir()) == []


def train_selfplay(tmp_path: Path, *args: str) -> tuple[dict, str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    out = tmp_path / "out"
    p = run_example("train_selfplay.py", *TINY, *args, "--out", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return json.loads((out / "train_result.json").read_text()), p.stdout


@pytest.mark.training
def test_train_selfplay_stops_at_its_decisions_budget(tmp_path):
    result, stdout = train_selfplay(tmp_path, "--decisions", "1k", "--random-frac", "0.5",
                                    "--eval-every", "300")
    assert 1000 <= result["decisions"] < 1000 + ROLLOUT_MAX
    assert result["args"]["decisions"] == 1000 and result["args"]["minutes"] is None
    # The curriculum switch and the curve points are counted in decisions too.
    switch = next(line for line in stdout.splitlines() if line.startswith("curriculum:"))
    assert 500 <= int(switch.split("decision ")[1].split()[0].replace(",", "")) < 500 + ROLLOUT_MAX
    points = [c["decisions"] for c in result["curve"]]
    assert len(points) >= 4 and points[0] == 0 and points[-1] == result["decisions"]
    assert all(300 < b - a <= 300 + ROLLOUT_MAX for a, b in zip(points[:-2], points[1:-1]))
    assert (tmp_path / "out" / "learning_curve.png").stat().st_size > 0


@pytest.mark.training
def test_train_selfplay_by_decisions_repeats_from_its_seed(tmp_path):
    runs = [train_selfplay(tmp_path / str(k), "--decisions", "600", "--seed", "4")[0]
            for k in range(2)]
    keys = ("decisions", "vs_random", "vs_heuristic", "vs_baseline")
    curves = [[{k: c[k] for k in keys} for c in r["curve"]] for r in runs]
    assert curves[0] == curves[1]
    assert len(curves[0]) >= 3


@pytest.mark.training
def test_train_selfplay_still_takes_a_time_slot(tmp_path):
    result, _ = train_selfplay(tmp_path, "--minutes", "0.01")
    assert result["train_minutes"] >= 0.01 and result["args"]["decisions"] is None
