"""The PettingZoo AEC environment passes PettingZoo's own checkers for every variant."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_api(variant):
    api_test(ys.env(variant=variant, max_rounds=2), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
def test_seed(variant):
    seed_test(lambda: ys.env(variant=variant, max_rounds=2), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("reward_mode", ["win", "points"])
def test_full_games_zero_sum_and_masks(variant, reward_mode):
    e = ys.env(variant=variant, reward_mode=reward_mode, max_rounds=3)
    e.reset(seed=3)
    totals = {a: 0.0 for a in e.possible_agents}
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, rew, term, trunc, info = e.last()
        totals[agent] += rew
        assert obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(rng.choice(legal)))
    assert abs(sum(totals.values())) < 1e-4 or variant == "3p"


def test_render_modes():
    e = ys.env(render_mode="ansi")
    e.reset(seed=1)
    assert "seat 0" in e.render()
    with pytest.raises(ValueError):
        ys.env(render_mode="rgb")


def test_illegal_action_raises_and_changes_nothing():
    e = ys.env()
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ys.IllegalActionError):
        e.step(bad)
    assert (e.observe(e.agent_selection)["observation"] == obs["observation"]).all()
