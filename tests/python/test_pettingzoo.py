"""The PettingZoo AEC environment passes PettingZoo's own checkers for every variant."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import yokai_septet as ys
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

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
    if reward_mode == "points" or variant != "3p":
        assert abs(sum(totals.values())) < 1e-4, totals
    else:
        # 3p, reward "win": every player wins (+1) or loses (-1) on its own, or the
        # round cap cut the game and nobody has anything.
        values = set(totals.values())
        assert values <= {-1.0, 1.0} or values == {0.0}, totals


def test_render_modes():
    e = ys.env(render_mode="ansi")
    e.reset(seed=1)
    assert "seat 0" in e.render()
    with pytest.raises(ValueError):
        ys.env(render_mode="rgb")


def test_illegal_action_raise_changes_nothing():
    e = ys.env(illegal_action="raise")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ys.IllegalActionError):
        e.step(bad)
    assert (e.observe(e.agent_selection)["observation"] == obs["observation"]).all()
    assert not any(e.terminations.values())
    assert type(e.unwrapped) is ys.raw_env and not isinstance(e.env, TerminateIllegalWrapper)


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_action_lose_ends_the_game_for_every_agent(variant):
    e = ys.env(variant=variant, illegal_reward=-2.0, max_rounds=2)  # "lose": the default
    e.reset(seed=1)
    offender = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert isinstance(e.env, TerminateIllegalWrapper)  # PettingZoo's own wrapper
    assert e.rewards[offender] == -2.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != offender)
    assert e.infos[offender]["illegal_action"] is True
    assert not e.observe(offender)["action_mask"].any()
    for agent in e.agent_iter():
        e.step(None)
    assert e.agents == []
    with pytest.raises(TypeError):
        e2 = ys.env(variant=variant)
        e2.reset(seed=1)
        e2.step(1.5)


def test_illegal_action_values_are_checked():
    with pytest.raises(ValueError, match="illegal_action"):
        ys.env(illegal_action="ignore")


def test_observation_key_for_rllib_action_masking():
    e = ys.env(observation_key="observations", max_rounds=2)
    e.reset(seed=0)
    obs, *_ = e.last()
    assert set(obs) == {"observations", "action_mask"}
    assert set(e.observation_space(e.agent_selection).spaces) == {"observations", "action_mask"}
    assert obs in e.observation_space(e.agent_selection)
    api_test(ys.env(observation_key="observations", max_rounds=2), num_cycles=100)
    with pytest.raises(ValueError, match="observation_key"):
        ys.env(observation_key="obs")


def test_env_shows_raw_envs_parameters_and_the_illegal_action_wrappers():
    """``ys.env`` takes ``raw_env``'s parameters, with the same defaults, and the two of
    the ``TerminateIllegalWrapper`` it adds (``illegal_action``, ``illegal_reward``)."""
    import inspect

    shown = inspect.signature(ys.env).parameters
    raw = inspect.signature(ys.raw_env).parameters
    wrapper = ["illegal_action", "illegal_reward"]
    assert [n for n in shown if n not in wrapper] == list(raw)
    assert set(shown) - set(raw) == set(wrapper)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in shown.values())
    assert all(shown[n].default == p.default for n, p in raw.items())
    # The signature is what env accepts: every parameter, by keyword.
    e = ys.env(**{n: p.default for n, p in shown.items()})
    e.reset(seed=0)


def test_env_is_what_its_type_says():
    """ys.env() is typed AECEnvProtocol (mypy checks the user script against it): the
    object it returns has every member of the protocol, with raw_env's game behind it."""
    import inspect

    assert inspect.signature(ys.env).return_annotation == "AECEnvProtocol"
    e = ys.env(max_rounds=1)
    e.reset(seed=0)
    assert isinstance(e, ys.AECEnvProtocol)
    assert isinstance(e.unwrapped, ys.raw_env) and isinstance(e.unwrapped.game, ys.Game)
    members = {
        n for n in ys.AECEnvProtocol.__dict__ if not n.startswith("_")
    } | set(ys.AECEnvProtocol.__annotations__)
    assert {"reset", "step", "last", "agent_iter", "rewards", "unwrapped"} <= members
    for name in members:
        assert hasattr(e, name), name
