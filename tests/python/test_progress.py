"""Progress of the long Python calls (``arena``, ``evaluate``, ``models.imitation_data``):
a callback sees every game counted up to the total, the results do not depend on it, a
plain line is drawn on stderr when asked (no tqdm needed), and bad values are refused by
name. On a terminal and piped: tests/python/test_cli_terminal.py."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import models
from yokai_septet._progress import progress_bar

ARGS = dict(variant="4p", games=40, seed=3, max_rounds=3)


def recorder():
    calls = []
    return calls, lambda done, total: calls.append((done, total))


def check_counts(calls, total):
    assert calls, "the callback was never called"
    assert calls[-1] == (total, total)
    done = [d for d, _ in calls]
    assert done == sorted(done) and all(t == total for _, t in calls)


def test_arena_reports_every_game_and_the_summary_does_not_change():
    calls, cb = recorder()
    with_bar = ys.arena(["heuristic", "random"], progress=cb, **ARGS)
    check_counts(calls, 40)
    assert with_bar == ys.arena(["heuristic", "random"], progress=False, **ARGS)


def test_evaluate_with_a_python_policy_reports_every_game():
    def first_legal(obs, masks):
        return np.argmax(masks, axis=1)

    calls, cb = recorder()
    s = ys.evaluate([first_legal, "random"], progress=cb, **ARGS)
    check_counts(calls, 40)
    assert [d for d, _ in calls] == list(range(1, 41))
    assert s == ys.evaluate([first_legal, "random"], **ARGS)


def test_imitation_data_reports_every_game():
    calls, cb = recorder()
    d = models.imitation_data(["random", "random"], "heuristic", progress=cb, **ARGS)
    check_counts(calls, 40)
    e = models.imitation_data(["random", "random"], "heuristic", **ARGS)
    assert all(np.array_equal(d[k], e[k], equal_nan=True) for k in d)


def test_a_failing_callback_raises_once_the_work_is_over():
    def boom(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        ys.arena(["heuristic", "random"], progress=boom, **ARGS)


@pytest.mark.parametrize("bad", [1, "yes", 2.5])
def test_bad_progress_values_are_refused_by_name(bad):
    with pytest.raises(TypeError, match="progress"):
        ys.arena(["heuristic", "random"], progress=bad, **ARGS)
    with pytest.raises(TypeError, match="progress"):
        ys._core.arena(["heuristic", "random"], progress=bad, spec=ys.ArenaSpec(**ARGS))


def test_the_plain_line_counts_and_estimates_what_is_left(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    cb, close = progress_bar(True, "arena")
    cb(0, 10)
    cb(10, 10)
    close()
    text = err.getvalue()
    assert "arena: 0/10 games" in text and "arena: 10/10 games" in text
    assert text.endswith("\n")
    # Off the terminal (a StringIO is none), the default draws nothing.
    cb, close = progress_bar(None, "arena")
    assert cb is None


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_log_prints_whole_lines_with_an_eta_every_few_seconds():
    # Training loops report with it: whole lines (a log keeps them), at most every
    # `every` seconds, each with the time left.
    out, clock = io.StringIO(), FakeClock()
    log = ys.ProgressLog("ppo 4p", 1000, every=5.0, stream=out, clock=clock)
    assert log.update(0)
    clock.now += 2
    assert not log.update(100), "printed again within 5 seconds"
    clock.now += 3
    assert log.update(250, loss=0.123456)
    clock.now += 10
    log.close(1000)
    lines = out.getvalue().splitlines()
    assert lines[0] == "ppo 4p: 0/1,000 steps (0%), 0:00 elapsed"
    assert lines[1] == "ppo 4p: 250/1,000 steps (25%), 0:05 elapsed, about 0:15 left; loss 0.1235"
    assert lines[2] == "ppo 4p: 1,000/1,000 steps (100%), 0:15 elapsed"
    assert "\r" not in out.getvalue()


def test_progress_log_callback_fits_the_progress_arguments(capsys):
    s = ys.arena(["heuristic", "random"], progress=ys.ProgressLog.callback("eval"), **ARGS)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("eval: ") and lines[-1].startswith(f"eval: {s['games']}/{s['games']} games")


TRAINING_SCRIPTS = ["examples/cleanrl_ppo.py", "examples/sb3_maskable_ppo.py",
                    "examples/train_selfplay.py", "examples/evaluate_own_agent.py",
                    "examples/openspiel_dqn.py", "examples/rllib_ppo_masked.py",
                    "training/train_baseline.py"]


def test_every_training_script_reports_with_progress_lines():
    # A run of minutes that printed nothing while it trained left people guessing.
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    trains = [p for p in (root / "examples").glob("*.py")
              if any(w in p.read_text() for w in (".learn(", "backward()", ".train()", "dqn."))]
    assert {str(p.relative_to(root)) for p in trains} <= set(TRAINING_SCRIPTS)
    for name in TRAINING_SCRIPTS:
        text = (root / name).read_text()
        assert "ProgressLog" in text, f"{name} trains without progress lines"
