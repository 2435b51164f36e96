"""Gymnasium env (check_env for every variant), Bot, and VectorEnv determinism/agreement."""

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
    env = gym.make("YokaiSeptet-v0", variant=variant, max_rounds=2)
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
    env = gym.make("YokaiSeptet-v0").unwrapped
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, _, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"]
    env = gym.make("YokaiSeptet-v0", illegal_action="raise").unwrapped
    env.reset(seed=1)
    with pytest.raises(ys.IllegalActionError):
        env.step(bad)
    with pytest.raises(TypeError):
        env.step(1.0)
    for kw in [dict(opponents="genius"), dict(learner_seat=4), dict(reward_mode="x"),
               dict(variant="9p"), dict(opponents=["random"] * 3)]:
        with pytest.raises(ValueError):
            gym.make("YokaiSeptet-v0", **kw)


# ---------------------------------------------------------------- VectorEnv


def rollout(v, steps, seed=0):
    rng = np.random.default_rng(seed)
    obs, info = v.reset(seed=5)
    traj = [obs.copy()]
    for _ in range(steps):
        m = info["action_mask"]
        a = np.array([rng.choice(np.flatnonzero(row)) for row in m])
        obs, r, te, tr, info = v.step(a)
        traj += [a, obs.copy(), r.copy(), te.copy(), tr.copy(), info["to_play"].copy()]
    return traj


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("self_play", [False, True])
def test_vector_deterministic_across_threads(variant, self_play):
    kw = dict(variant=variant, seed=3, self_play=self_play, max_rounds=2)
    t1 = rollout(ys.VectorEnv(16, num_threads=1, **kw), 150)
    t2 = rollout(ys.VectorEnv(16, num_threads=2, **kw), 150)
    for a, b in zip(t1, t2):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_self_play_agrees_with_game(variant):
    v = ys.VectorEnv(4, variant=variant, seed=9, self_play=True, reward_mode="win",
                     num_threads=2, copy=True)
    obs, info = v.reset()
    games = [ys.Game(variant, seed=v.game_seed(i)) for i in range(4)]
    rng = np.random.default_rng(1)
    for _ in range(400):
        acts = []
        for i, g in enumerate(games):
            assert info["to_play"][i] == g.current_player
            assert (info["action_mask"][i] == g.legal_mask()).all()
            assert (obs[i] == g.observation()).all()
            acts.append(int(rng.choice(g.legal_actions())))
        obs, r, te, tr, info = v.step(np.array(acts))
        for i, g in enumerate(games):
            expect = g.step_rewards(acts[i], "win")
            assert np.allclose(r[i], expect)
            if g.phase == "over":
                assert te[i] != g.truncated and tr[i] == g.truncated
                games[i] = ys.Game(variant, seed=v.game_seed(i))
            else:
                assert not te[i] and not tr[i]


def test_vector_learner_mode_agrees_with_bots():
    v = ys.VectorEnv(3, "4p", seed=2, learner_seat=1, opponents="random", num_threads=1)
    obs, info = v.reset()
    assert (info["to_play"] == 1).all()
    assert v.learner_seats() == [1, 1, 1]
    assert obs.shape == (3, ys.Game().observation_size)
    obs, r, te, tr, info = v.step(np.argmax(info["action_mask"], axis=1))
    assert r.shape == (3,) and (info["to_play"] == 1).all()


def test_vector_errors():
    for bad in [0, -1, 2**40]:
        with pytest.raises(ValueError):
            ys.VectorEnv(bad)
    with pytest.raises(TypeError):
        ys.VectorEnv(1.5)
    for kw in [dict(variant="x"), dict(num_threads=0), dict(learner_seat=4), dict(seed=-1),
               dict(opponents="genius"), dict(reward_mode="x"), dict(obs_dtype="int32"),
               dict(self_play=True, learner_seat=1), dict(opponents=["random"] * 2)]:
        with pytest.raises(ValueError):
            ys.VectorEnv(2, **kw)
    v = ys.VectorEnv(2, seed=1)
    obs, info = v.reset()
    before = obs.copy()
    bad = np.flatnonzero(~info["action_mask"][1])[0]
    good = np.flatnonzero(info["action_mask"][0])[0]
    with pytest.raises(ys.IllegalActionError, match="env 1"):
        v.step(np.array([good, bad]))
    with pytest.raises(ys.IllegalActionError, match="env 0"):
        v.step(np.array([-1, good]))
    assert (v.observations == before).all()
    with pytest.raises(TypeError):
        v.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError):
        v.step(np.array([good]))


def test_vector_uint8_obs_matches_float():
    a = ys.VectorEnv(4, seed=1, obs_dtype="uint8", num_threads=1)
    b = ys.VectorEnv(4, seed=1, num_threads=1)
    oa, _ = a.reset()
    ob, _ = b.reset()
    assert oa.dtype == np.uint8 and (oa == ob).all()


def test_vector_concurrent_use_works_or_raises_runtime_error():
    import threading

    v = ys.VectorEnv(256, seed=1, self_play=True, num_threads=2)
    v.reset()
    errors, runtime = [], []

    def worker():
        for _ in range(50):
            try:
                v.step(v.action_masks().argmax(axis=1))
            except RuntimeError as e:
                runtime.append(e)
            except ys.IllegalActionError:
                pass  # the masks went stale under the other thread
            except Exception as e:  # pragma: no cover
                errors.append(e)

    ts = [threading.Thread(target=worker) for _ in range(3)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors
    assert all("borrow" in str(e).lower() for e in runtime)
    v.step(v.action_masks().argmax(axis=1))  # still usable
