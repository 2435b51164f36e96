"""training/dmc.py, Deep Monte-Carlo self-play on the shared loop: the warm-up plays the
heuristic's cards, a network started at the heuristic plays its cards in Rust, resumes
reproduce an unbroken run, a checkpoint plays as ``nn:PATH``, and bad configs are refused.
(The returns, the budgets and the checkpoints kept are the shared pieces',
``tests/python/test_ppo.py``.) They need torch (the ``train`` extra):

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_dmc.py
"""

import json
from pathlib import Path

import numpy as np
import pytest

import _training

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402
from yokai_septet import models  # noqa: E402


TINY = _training.tiny(variant='"{variant}"', steps=20)


def _config(tmp_path: Path, variant: str = "4p", **edits) -> Path:
    return _training.config(tmp_path, TINY.format(variant=variant), f"dmc-{variant}.toml",
                            **edits)

def _run(config: Path, out: Path, *extra: str, check: bool = True):
    return _training.run("dmc", config, out, *extra, check=check)


def _method(tmp_path: Path, **edits):
    from training import config as configs
    from training.dmc import DMC
    from training.nets import Sizes

    cfg = configs.read(_config(tmp_path, **edits), DMC.KEYS, DMC.check)
    return DMC(cfg, Sizes(cfg["variant"])), cfg


def test_in_the_warm_up_the_network_plays_the_heuristics_card_but_for_its_exploration(
        tmp_path):
    from training.rollouts import Rollouts

    method, cfg = _method(tmp_path, warmup_segments="1", warmup_epsilon="0.5")
    actor = Rollouts("4p", 8, {}, 30, method.inputs)
    actor.start_segment(1)
    choose, _ = method.acting(method.policy, None, 0)  # rollout 0: the warm-up
    b = actor.play(choose, None, 200, np.random.default_rng(3))
    # Half the decisions are random legal cards, some of them the heuristic's own.
    assert len(b["target"]) > 0 and 0.15 < (b["action"] != b["hint"]).mean() < 0.5
    method.cfg["warmup_epsilon"] = 0.0
    choose, _ = method.acting(method.policy, None, 0)
    actor.start_segment(2)  # the first rollout's rounds still in play are dropped
    b = actor.play(choose, None, 200, np.random.default_rng(4))
    assert (b["action"] == b["hint"]).all()
    assert method.plays_past(0) is False and method.plays_past(1) is True


def test_a_network_started_at_the_heuristic_plays_the_heuristics_cards_in_rust(tmp_path):
    from training.loop import save_model

    method, cfg = _method(tmp_path)
    path = tmp_path / "start.safetensors"
    save_model(method, cfg, path)
    game = ys.Game(variant="4p", seed=7)
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
