"""VectorEnv as a gymnasium.vector.VectorEnv: spaces, autoreset mode, masks in infos,
step_async/step_wait, gymnasium's own vector wrappers and data checks, and the lifetime
of the arrays it returns (copy=True: never overwritten; copy=False: one set, in place)."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import data_shares_objects
from gymnasium.vector import AutoresetMode

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]


def masked_random(rng, mask):
    """A uniformly random legal action per env."""
    keys = rng.random(mask.shape) * mask
    return keys.argmax(axis=1)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_is_a_gymnasium_vector_env_with_batched_spaces(variant, obs_dtype):
    v = ys.VectorEnv(5, variant, seed=1, obs_dtype=obs_dtype, max_rounds=2)
    assert isinstance(v, gymnasium.vector.VectorEnv)
    assert v.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    g = ys.Game(variant)
    assert v.single_observation_space == gymnasium.spaces.Box(
        0, 255, (g.observation_size,), np.dtype(obs_dtype))
    assert v.single_action_space == gymnasium.spaces.Discrete(g.num_actions)
    assert v.observation_space.shape == (5, g.observation_size)
    assert v.action_space == gymnasium.spaces.MultiDiscrete([g.num_actions] * 5)
    obs, info = v.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert v.observation_space.contains(obs)
        assert info["action_mask"].shape == (5, g.num_actions) and info["action_mask"].any(1).all()
        a = masked_random(rng, info["action_mask"])
        assert v.action_space.contains(a)
        obs, r, term, trunc, info = v.step(a)
        assert r.shape == (5,) and term.dtype == bool and trunc.dtype == bool
    v.close()
    assert v.closed


def test_step_async_step_wait_match_step():
    a, b = ys.VectorEnv(8, seed=3), ys.VectorEnv(8, seed=3)
    oa, ia = a.reset()
    ob, ib = b.reset()
    rng = np.random.default_rng(1)
    for _ in range(100):
        acts = masked_random(rng, ia["action_mask"])
        a.step_async(acts)
        ra = a.step_wait()
        rb = b.step(acts)
        assert data_equivalence(ra, rb, exact=True)
        ia = ra[4]
    with pytest.raises(RuntimeError, match="step_async"):
        a.step_wait()


def test_same_step_autoreset_with_gymnasium_episode_statistics():
    """gymnasium's RecordEpisodeStatistics reads the autoreset mode from the metadata; its
    episode returns are the rewards summed per episode under SAME_STEP semantics."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(ys.VectorEnv(6, "3p", seed=4, max_rounds=2))
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(2)
    returns, ended = np.zeros(6), 0
    for _ in range(400):
        obs, r, term, trunc, info = env.step(masked_random(rng, info["action_mask"]))
        returns += r
        done = term | trunc
        if done.any():
            assert (info["_episode"] == done).all()
            np.testing.assert_allclose(info["episode"]["r"][done], returns[done])
            returns[done] = 0
            ended += done.sum()
    assert ended > 6


def test_default_arrays_are_never_overwritten():
    """copy=True (the default): what a step returned stays as it was, whatever follows;
    arrays the caller let go of are reused, so steady stepping allocates nothing new."""
    v = ys.VectorEnv(16, seed=5, self_play=True, num_threads=2)
    obs, info = v.reset()
    kept, snapshots = [], []
    rng = np.random.default_rng(3)
    for _ in range(30):
        out = v.step(masked_random(rng, info["action_mask"]))
        kept.append(out)
        snapshots.append([np.array(x, copy=True) for x in out[:4]] + [info["action_mask"].copy()])
        obs, info = out[0], out[4]
        assert not data_shares_objects(out[0], kept[-2][0]) if len(kept) > 1 else True
    for out, snap in zip(kept, snapshots):
        for x, y in zip(out[:4], snap[:4]):
            assert np.array_equal(x, y)
    # dropped arrays come back: ids repeat when nothing is kept
    kept.clear()
    snapshots.clear()
    ids = set()
    for _ in range(20):
        obs, r, te, tr, info = v.step(masked_random(rng, info["action_mask"]))
        ids.add(id(obs))
    assert len(ids) <= 3


def test_copy_false_overwrites_one_set_in_place():
    v = ys.VectorEnv(4, seed=6, copy=False)
    obs, info = v.reset()
    assert v.copy is False
    first = obs
    before = obs.copy()
    obs2, *_ = v.step(info["action_mask"].argmax(1))
    assert obs2 is first and v.observations is first
    assert not np.array_equal(before, obs2)


@pytest.mark.parametrize("copy", [True, False])
def test_same_results_whatever_the_buffer_mode(copy):
    ref = ys.VectorEnv(12, "seal", seed=7, num_threads=1, max_rounds=2)
    v = ys.VectorEnv(12, "seal", seed=7, num_threads=2, copy=copy, max_rounds=2)
    (oa, ia), (ob, ib) = ref.reset(), v.reset()
    rng = np.random.default_rng(4)
    for _ in range(150):
        assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])
        acts = masked_random(rng, ia["action_mask"])
        oa, ra, ta, _, ia = ref.step(acts)
        ob, rb, tb, _, ib = v.step(acts)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
