"""The single Gymnasium env (check_env for every variant) and Bot. VectorEnv's tests are in
test_vector_gymnasium.py."""

import random

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
    with pytest.raises(ValueError, match="random"):
        ys.Bot("genius")
    with pytest.raises(ValueError):
        ys.Bot("random", seed=-1)
    with pytest.raises(TypeError):
        ys.Bot("random", seed=1.5)
    g = ys.Game(seed=4)
    assert ys.Bot("random", 7).act(g) == ys.Bot("random", 7).act(g)
    assert repr(ys.Bot("heuristic")) == 'Bot("heuristic")'
    for bad in ["pimc-dd:0", "ismcts:", "ismcts:x"]:
        with pytest.raises(ValueError, match="pimc-dd"):
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
def test_check_env(variant):
    # check_env steps unmasked random actions: illegal_action="lose" ends the episode
    # instead of raising (the default, "raise", is every env's).
    env = gym.make("YokaiSeptet-v0", variant=variant, max_rounds=2, illegal_action="lose")
    check_env(env.unwrapped, skip_render_check=True)


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
    env = gym.make("YokaiSeptet-v0", illegal_action="lose").unwrapped
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, _, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"]
    # out of range is illegal too; a non-integer is a type error, not a lost episode
    env.reset(seed=1)
    assert env.step(999)[2]
    env.reset(seed=1)
    with pytest.raises(ys.InvalidTypeError):
        env.step(1.0)
    # the default is "raise", as for the PettingZoo env and make_vec
    env = gym.make("YokaiSeptet-v0").unwrapped
    assert env.illegal_action == "raise"
    env.reset(seed=1)
    with pytest.raises(ys.IllegalActionError):
        env.step(bad)
    with pytest.raises(TypeError):
        env.step(1.0)
    for kw in [dict(opponents="genius"), dict(learner_seat=4), dict(reward_mode="x"),
               dict(variant="9p"), dict(opponents=["random"] * 3)]:
        with pytest.raises(ValueError):
            gym.make("YokaiSeptet-v0", **kw)
