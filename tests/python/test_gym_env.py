"""The single Gymnasium env (check_env for every variant) and Bot. VectorEnv's tests are in
test_vector_gymnasium.py."""

import random
import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]


# ---------------------------------------------------------------- Bot


@pytest.mark.parametrize("name", ["random", "heuristic", "pimc:4", "pimc-dd:2", "ismcts:20"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_play_legal_actions(name, variant):
    bot = ys.Bot(name, seed=1)
    g = ys.Game(variant, seed=1, max_rounds=1)
    while g.phase != "over":
        a = bot.act(g)
        assert isinstance(a, int) and a in g.legal_actions()
        g.step(a)
    with pytest.raises(ys.IllegalActionError):
        bot.act(g)


def test_bot_errors_and_determinism():
    # Every bot-name error lists every name, so each match names what is wrong with this one.
    with pytest.raises(ys.InvalidValueError, match="^unknown bot 'genius': valid names are "):
        ys.Bot("genius")
    with pytest.raises(ValueError):
        ys.Bot("random", seed=-1)
    with pytest.raises(TypeError):
        ys.Bot("random", seed=1.5)
    g = ys.Game(seed=4)
    assert ys.Bot("random", 7).act(g) == ys.Bot("random", 7).act(g)
    assert repr(ys.Bot("heuristic")) == 'Bot("heuristic")'
    for bad, why in [("pimc-dd:0", "the budget '0' is zero"),
                     ("ismcts:", "the budget is missing"),
                     ("ismcts:x", "the budget 'x' is neither N")]:
        with pytest.raises(ys.InvalidValueError,
                           match=f"^bad bot name '{re.escape(bad)}': {re.escape(why)}"):
            ys.Bot(bad)
    assert "pimc-dd" in ys.Bot.names() and "ismcts" in ys.Bot.names()


# ---------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("variant", ["4p", "3p", "seal"])
@pytest.mark.parametrize("reward_mode", ["win", "points"])
def test_play_bots_is_the_bot_loop(variant, reward_mode):
    """Game.play_bots plays exactly what Bot.act + step_rewards would, move for move."""
    for seed in range(3):
        n = ys.Game(variant).num_players
        games = [ys.Game(variant, seed=seed) for _ in range(2)]
        bots = [[ys.Bot("heuristic", seed=10 * seed + p) for p in range(n)] for _ in range(2)]
        learner = seed % n
        rng = random.Random(seed)
        while games[0].phase != "over":
            want = 0.0
            g = games[0]
            while g.phase != "over" and g.current_player != learner:
                want += g.step_rewards(bots[0][g.current_player].act(g), reward_mode)[learner]
            got = games[1].play_bots(bots[1], learner, reward_mode)
            assert got == want
            assert games[1].record() == games[0].record()
            if g.phase != "over":
                a = rng.choice(g.legal_actions())
                for game in games:
                    game.step(a)
    with pytest.raises(ValueError, match="one per seat"):
        ys.Game("4p").play_bots([ys.Bot("random")], 0)


def test_registered():
    assert "YokaiSeptet-v0" in gym.registry


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_env_passes_on_the_default_env(variant):
    """Gymnasium's checker steps unmasked random actions (its contract: ``step`` takes
    every element of ``action_space``): the env as users make it, with no extra
    argument, passes (the default ``illegal_action="lose"`` ends such an episode)."""
    check_env(gym.make("YokaiSeptet-v0", variant=variant))


def test_check_env_fails_where_illegal_actions_raise():
    """The check above can fail: the opt-in ``"raise"`` does not meet that contract."""
    with pytest.raises(ys.IllegalActionError):
        check_env(gym.make("YokaiSeptet-v0", illegal_action="raise"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_masked_episodes(variant):
    env = gym.make("YokaiSeptet-v0", variant=variant, max_rounds=2, learner_seat=None,
                   opponents="heuristic", reward_mode="points")
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert (mask == info["action_mask"]).all() and mask.any()
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert env.observation_space.contains(obs)
            done = term or trunc
        obs, info = env.reset()


def test_gym_illegal_modes():
    env = gym.make("YokaiSeptet-v0").unwrapped
    assert env.illegal_action == "lose"  # the default, as for every env of the package
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, trunc, info = env.step(bad)
    assert term and not trunc and r == -1.0 and info["illegal_action"]
    # the ended episode's mask offers one action, as VectorEnv's ended rows do
    assert np.flatnonzero(info["action_mask"]).tolist() == [0]
    with pytest.raises(ys.StateError, match="reset"):
        env.step(0)
    # out of range is illegal too; a non-integer is a type error, not a lost episode
    env.reset(seed=1)
    assert env.step(999)[2]
    env.reset(seed=1)
    with pytest.raises(ys.InvalidTypeError):
        env.step(1.0)
    # "raise", the opt-in for debugging: the error, and nothing changes
    env = gym.make("YokaiSeptet-v0", illegal_action="raise").unwrapped
    env.reset(seed=1)
    before = env.game.record()
    with pytest.raises(ys.IllegalActionError):
        env.step(bad)
    assert env.game.record() == before
    with pytest.raises(TypeError):
        env.step(1.0)
    for kw in [dict(opponents="genius"), dict(learner_seat=4), dict(reward_mode="x"),
               dict(variant="9p"), dict(opponents=["random"] * 3)]:
        with pytest.raises(ValueError):
            gym.make("YokaiSeptet-v0", **kw)
