"""training/train_dmc.py, the Deep Monte-Carlo self-play trainer: its returns, its
overlapping actor and learner, its checkpoints and resumes, and its config checks. They
need torch (the ``train`` extra), so they are marked ``training``:

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_train_dmc.py
"""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402
from yokai_septet import models  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "training" / "train_dmc.py"

TINY = """
variant = "{variant}"
seed = 3
hidden = [32]
envs = 24
steps = 20
learning_rate = 0.001
minibatch = 256
checkpoint_rollouts = 3
torch_threads = 1
[opponents]
heuristic = 0.25
past = 0.25
[eval]
games = 8
seed = 5
"""


def _load():
    spec = importlib.util.spec_from_file_location("train_dmc", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(config: Path, out: Path, *extra: str, check: bool = True):
    return subprocess.run([sys.executable, str(SCRIPT), str(config), "--out", str(out), *extra],
                          cwd=ROOT, capture_output=True, text=True, check=check)


def _config(tmp_path: Path, variant: str = "4p", **edits) -> Path:
    text = TINY.format(variant=variant)
    for k, v in edits.items():
        line = re.compile(rf"^{k} = .*$", re.M)
        text = line.sub(f"{k} = {v}", text, 1) if line.search(text) else f"{k} = {v}\n{text}"
    p = tmp_path / f"dmc-{variant}.toml"
    p.write_text(text)
    return p


def _rollout(variant: str, steps: int = 120):
    dmc = _load()
    import torch

    cfg = {**{k: d for k, (_, d) in dmc.KEYS.items()},
           **{"variant": variant, "seed": 11, "hidden": [16], "envs": 6, "steps": steps,
              "learning_rate": 0.001, "checkpoint_rollouts": 1, "opponents": {}}}
    actor = dmc.Rollouts(cfg)
    actor.start_segment(cfg["seed"], 0)
    torch.manual_seed(0)
    game = ys.Game(variant=variant)
    size = models.features(np.zeros((1, len(game.observation()))), np.zeros(1, int),
                           cfg["inputs"], actor.actions).shape[1]
    actor.last_net = dmc.make_net(size, [16], actor.actions)
    return actor, actor.play(actor.last_net, None, steps, np.random.default_rng(0), 0.1)


@pytest.mark.parametrize("variant", ["4p", "3p", "seal"])
def test_every_decision_of_a_round_is_paid_its_sides_points_margin_of_that_round(variant):
    """The return: the round's `points` reward of the mover's seat over the scale. So in a
    round, a seat's decisions share one return, partners share it, the returns are
    zero-sum over the seats, and each is a whole number of points over the scale."""
    actor, b = _rollout(variant)
    seats = 3 if variant == "3p" else 4
    sides = 3 if variant == "3p" else 2
    assert b["decisions"] > len(b["target"]) > 0
    nonzero = 0
    for r in np.unique(b["round"]):
        of = b["round"] == r
        by_seat = {}
        for s, t in zip(b["seat"][of], b["target"][of]):
            by_seat.setdefault(int(s), set()).add(float(t))
        assert all(len(v) == 1 for v in by_seat.values()), by_seat
        ret = {s: v.pop() for s, v in by_seat.items()}
        assert set(ret) == set(range(seats)), "self-play: every seat decides in a round"
        for s in range(seats):
            assert ret[s] == pytest.approx(ret[s % sides])
        # 3p's reward subtracts the others' average: a whole number of half points.
        unit = actor.scale * (2 if variant == "3p" else 1)
        assert sum(ret.values()) == pytest.approx(0, abs=1e-5)
        assert all(abs(x * unit - round(x * unit)) < 1e-4 for x in ret.values())
        nonzero += any(x != 0 for x in ret.values())
    assert nonzero > 0


def test_decisions_of_a_round_still_in_play_wait_for_their_return():
    actor, b = _rollout("4p", steps=15)  # a 4p round is longer than 15 steps
    assert b["decisions"] == 15 * 6 and len(b["target"]) == 0
    b2 = actor.play(actor.last_net, None, 120, np.random.default_rng(1), 0.0)
    # The first 15 steps' rounds (ids 0..5) are paid in the next rollout.
    assert set(range(6)) <= set(b2["round"].tolist())
    assert len(b2["target"]) <= 15 * 6 + b2["decisions"]


def test_in_the_warm_up_the_network_plays_the_heuristics_card_but_for_its_exploration():
    actor, _ = _rollout("4p", steps=0)
    b = actor.play(actor.last_net, None, 200, np.random.default_rng(2), 0.0, follow_hint=True)
    assert len(b["target"]) > 0 and (b["action"] == b["hint"]).all()
    b = actor.play(actor.last_net, None, 200, np.random.default_rng(3), 0.5, follow_hint=True)
    # Half the decisions are random legal cards, some of them the heuristic's own.
    assert 0.15 < (b["action"] != b["hint"]).mean() < 0.5


def test_a_network_started_at_the_heuristic_plays_the_heuristics_cards_in_rust(tmp_path):
    dmc = _load()
    import tomllib

    cfg = {**{k: d for k, (_, d) in dmc.KEYS.items()},
           **tomllib.loads(_config(tmp_path, heuristic_prior="0.1").read_text())}
    game = ys.Game(variant="4p", seed=7)
    actions = len(game.legal_mask())
    net = dmc.make_net(len(game.observation()) + actions, dmc.hidden_widths(cfg, actions),
                       actions, cfg["heuristic_prior"])
    path = tmp_path / "start.safetensors"
    dmc.save_model(net, cfg, path)
    mine, theirs = ys.Bot(f"nn:{path}", seed=1), ys.Bot("heuristic", seed=1)
    played = 0
    while not game.is_over and played < 200:
        a = mine.act(game)
        assert a == theirs.act(game)
        game.step(a)
        played += 1
    assert played > 40


def test_a_run_stopped_and_resumed_draws_the_curve_and_model_of_a_run_never_stopped(tmp_path):
    cfg = _config(tmp_path)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    _run(cfg, whole, "--segments", "2")
    _run(cfg, parts, "--segments", "1")
    resumed = _run(cfg, parts, "--segments", "2")
    assert "resuming" in resumed.stdout
    assert (whole / "dmc-0002.safetensors").read_bytes() == \
        (parts / "dmc-0002.safetensors").read_bytes()
    keys = ("segment", "decisions", "trained", "loss", "evals")
    a, b = (json.loads((d / "curve.json").read_text()) for d in (whole, parts))
    assert [{k: p[k] for k in keys} for p in a] == [{k: p[k] for k in keys} for p in b]
    assert a[1]["decisions"] > a[0]["decisions"] > 0


def test_a_run_that_has_its_segments_trains_no_more(tmp_path):
    """``--segments N`` is the checkpoints in all: the same command again after them trains
    nothing (issue 72: it trained one more segment, ``dmc-0003`` after ``--segments 2``)."""
    cfg, out = _config(tmp_path), tmp_path / "run"
    _run(cfg, out, "--segments", "2")
    model = (out / "dmc.safetensors").read_bytes()
    again = _run(cfg, out, "--segments", "2")
    assert "nothing to train" in again.stdout
    assert not (out / "dmc-0003.safetensors").exists()
    assert (out / "dmc.safetensors").read_bytes() == model
    assert len(json.loads((out / "curve.json").read_text())) == 2


def test_twenty_sittings_in_a_row_each_stopped_at_its_budget_all_exit_0(tmp_path):
    """A run started twenty times in a row, each sitting stopped at its budget (one more
    segment): every sitting exits 0 (issue 72: one in five died at exit, after its last
    checkpoint, with SIGABRT, its learner thread never joined)."""
    cfg, out = _config(tmp_path, checkpoint_rollouts=1, steps=10), tmp_path / "run"
    sittings = [_run(cfg, out, "--segments", str(k), check=False) for k in range(1, 21)]
    failed = [(k + 1, r.returncode, r.stderr[-400:]) for k, r in enumerate(sittings)
              if r.returncode != 0 or "terminate called" in r.stderr]
    assert not failed, failed
    assert (out / "dmc-0020.safetensors").exists()
    assert not (out / "dmc-0021.safetensors").exists()


def test_a_checkpoint_plays_in_rust_as_nn_path_and_says_how_it_was_made(tmp_path):
    out = tmp_path / "run"
    _run(_config(tmp_path, "3p"), out, "--segments", "1")
    path = out / "dmc-0001.safetensors"
    m = models.load(path)
    assert m.variant == "3p" and m.inputs == "observation+heuristic"
    assert m.metadata["recipe"].startswith("dmc") and m.metadata["seed"] == "3"
    assert int(m.metadata["decisions"]) == json.loads((out / "curve.json").read_text())[0][
        "decisions"]
    s = ys.arena([f"nn:{path}", "heuristic"], variant="3p", games=3, seed=1)
    assert s["games"] == 3
    # ...and a VectorEnv seats it as the opponent.
    env = ys.VectorEnv(4, "3p", opponents=f"nn:{path}", seed=2)
    obs, info = env.reset()
    env.step((np.random.default_rng(0).random(info["action_mask"].shape)
              * info["action_mask"]).argmax(1))


@pytest.mark.parametrize("edit, message", [
    ({"envs": "0"}, "envs = 0, expected a positive integer"),
    ({"epsilon": "2"}, "epsilon = 2, expected a number in [0, 1]"),
    ({"widths": "3"}, "unknown key 'widths'"),
    ({"inputs": '"pixels"'}, "inputs = 'pixels'"),
    ({"warmup_segments": "-1"}, "warmup_segments = -1, expected an integer >= 0"),
    ({"heuristic_prior": "0.1", "inputs": '"observation"'},
     'heuristic_prior needs inputs = "observation+heuristic"'),
])
def test_a_bad_config_is_refused_naming_the_key_before_any_work(tmp_path, edit, message):
    r = _run(_config(tmp_path, **edit), tmp_path / "run", check=False)
    assert r.returncode != 0 and message in r.stderr, r.stderr
    assert not (tmp_path / "run" / "state.pt").exists()


def test_opponent_shares_that_leave_no_self_play_are_refused(tmp_path):
    p = _config(tmp_path)
    p.write_text(p.read_text().replace("past = 0.25", "past = 0.75"))
    r = _run(p, tmp_path / "run", check=False)
    assert r.returncode != 0 and "[opponents] shares add up to 1 or more" in r.stderr


def test_a_run_of_another_config_in_the_same_folder_is_refused(tmp_path):
    out = tmp_path / "run"
    _run(_config(tmp_path), out, "--segments", "1")
    r = _run(_config(tmp_path, learning_rate="0.002"), out, "--segments", "2", check=False)
    assert r.returncode != 0 and "differs in learning_rate" in r.stderr


def test_the_shipped_configs_are_sound():
    dmc = _load()
    import tomllib

    for p in sorted((ROOT / "training" / "configs").glob("dmc-*.toml")):
        assert dmc.config_problem(tomllib.loads(p.read_text())) == "", p.name
