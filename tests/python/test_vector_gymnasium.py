"""VectorEnv as a gymnasium.vector.VectorEnv: spaces, the three autoreset modes (against
gymnasium's own SyncVectorEnv), final_obs, masks in infos,
step_async/step_wait, gymnasium's own vector wrappers and data checks, and the lifetime
of the arrays it returns (copy=True: never overwritten; copy=False: one set, in place),
determinism at any thread count, agreement with Game and the bots, errors, make_vec,
signature and pickling."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import data_shares_objects
from gymnasium.vector import AutoresetMode

import yokai_septet as ys
from yokai_septet._gym import YokaiSeptetEnv

VARIANTS = ["4p", "3p", "seal", "seal-short"]


def masked_random(rng, mask):
    """A uniformly random legal action per env."""
    keys = rng.random(mask.shape) * mask
    return keys.argmax(axis=1)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_is_a_gymnasium_vector_env_with_batched_spaces(variant, obs_dtype):
    default = ys.VectorEnv(5, variant, seed=1, obs_dtype=obs_dtype, max_rounds=2)
    assert default.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP  # gymnasium's
    # SAME_STEP: every env has a decision pending after every step.
    v = ys.VectorEnv(5, variant, seed=1, obs_dtype=obs_dtype, max_rounds=2,
                     autoreset_mode="same_step")
    assert isinstance(v, gymnasium.vector.VectorEnv)
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

    env = RecordEpisodeStatistics(ys.VectorEnv(6, "3p", seed=4, max_rounds=2,
                                               autoreset_mode="same_step"))
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


# ---------------------------------------------------------------- resets


def test_reset_without_a_seed_deals_new_games_and_a_seed_replays_them():
    """Gymnasium's convention: reset() continues each env's random stream (never the same
    deals again); reset(seed=s) starts it again, so the same seed gives the same games."""
    v = ys.VectorEnv(6, seed=3, self_play=True)
    seeds = lambda: [v.game_seed(i) for i in range(6)]  # noqa: E731
    o0, _ = v.reset()  # a new env's first reset: its seed's first games
    s0 = seeds()
    o1, _ = v.reset()
    s1 = seeds()
    assert not np.array_equal(o0, o1) and set(s0).isdisjoint(s1)
    o2, _ = v.reset(seed=3)
    assert np.array_equal(o2, o0) and seeds() == s0
    o3, _ = v.reset()
    assert np.array_equal(o3, o1) and seeds() == s1
    v.reset(seed=5)
    s5 = seeds()
    v.reset(seed=5)
    assert seeds() == s5 and s5 != s0
    # A fresh env with the same seed: the same first games as reset(seed=...)
    w = ys.VectorEnv(6, seed=5, self_play=True)
    w.reset()
    assert [w.game_seed(i) for i in range(6)] == s5


def test_a_reset_after_steps_never_replays_a_game_of_the_env():
    """After steps (some games finished, so some envs are further along their streams),
    a plain reset still gives every env a game it has not played; a seeded reset replays
    the seed's first games at any thread count."""
    a = ys.VectorEnv(6, seed=8, self_play=True, num_threads=2, max_rounds=1)
    a.reset()
    first = [a.game_seed(i) for i in range(6)]
    seen = [{s} for s in first]
    for _ in range(60):
        a.step(a.bot_actions())
        for i in range(6):
            seen[i].add(a.game_seed(i))
    assert any(len(s) > 1 for s in seen), "some env finished a game"
    a.reset()
    for i in range(6):
        assert a.game_seed(i) not in seen[i]
    a.reset(seed=8)
    assert [a.game_seed(i) for i in range(6)] == first


# ---------------------------------------------------------------- autoreset modes

MODES = list(AutoresetMode)


def vector_seed(seed, env, episode, k):
    """The vector env's seed derivation (the engine's rng.rs ``vector_seed``), written again for
    the reference below: SplitMix64's finaliser folded over golden-ratio multiples."""
    m, golden = (1 << 64) - 1, 0x9E3779B97F4A7C15

    def fin(z):
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & m
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & m
        return z ^ (z >> 31)

    h = fin(seed ^ golden)
    for x in (env, episode, k):
        h = fin(h ^ (x * golden & m))
    return h


class DealtEnv(YokaiSeptetEnv):
    """The single env, dealing the games of env ``index`` of a VectorEnv seeded ``seed``
    (deal, bots and all): a reset with a seed starts that stream again, one without moves
    on to its next game, as the VectorEnv's resets and autoresets do."""

    def __init__(self, index, seed, **kw):
        super().__init__(illegal_action="raise", **kw)
        self.index, self.master, self.deal = index, seed, -1

    def reset(self, *, seed=None, options=None):
        gymnasium.Env.reset(self, seed=seed)
        self.deal = 0 if seed is not None or self.deal < 0 else self.deal + 1
        derived = lambda k: vector_seed(self.master, self.index, self.deal, k)  # noqa: E731
        self.game = ys.Game(seed=derived(0), **self._config)
        for p, bot in enumerate(self._bots):
            bot.reseed(derived(1 + p))
        self._play_bots()
        self._done = False
        return self.game.observation(self.learner_seat), self._info()


def reference(n, mode, seed, **kw):
    """gymnasium's own SyncVectorEnv over the single env, playing the VectorEnv's games."""
    fns = [lambda i=i: DealtEnv(i, seed, **kw) for i in range(n)]
    return gymnasium.vector.SyncVectorEnv(fns, autoreset_mode=mode)


def assert_same_step(ours, theirs, next_step=False):
    """One step's results of the VectorEnv and of the reference agree: observations,
    rewards, flags, the masks gymnasium sets, and final_obs/final_info where set. A
    single env whose episode has ended offers action 0 alone (issue 64), as the
    VectorEnv's NEXT_STEP rows do (the one action the next step ignores, issue 60); the
    VectorEnv's DISABLED rows and SAME_STEP ``final_info`` offer none (no step follows)."""
    (oa, ra, ta, ua, ia), (ob, rb, tb, ub, ib) = ours, theirs
    np.testing.assert_array_equal(oa, ob)
    np.testing.assert_allclose(ra, rb)
    np.testing.assert_array_equal(ta, tb)
    np.testing.assert_array_equal(ua, ub)
    have = ib.get("_action_mask", np.ones(len(oa), bool))
    want = np.array(ib["action_mask"], dtype=bool)
    ended = np.asarray(ta) | np.asarray(ua)
    if "final_obs" not in ib:  # NEXT_STEP or DISABLED: the rows hold the ended games
        assert (want[ended].sum(axis=1) == 1).all() and want[ended, 0].all()
        if not next_step:
            want[ended] = False
    np.testing.assert_array_equal(ia["action_mask"][have], want[have])
    assert ("final_obs" in ia) == ("final_obs" in ib)
    if "final_obs" in ib:
        ended = ib["_final_obs"]
        np.testing.assert_array_equal(ia["_final_obs"], ended)
        np.testing.assert_array_equal(ia["_final_info"], ib["_final_info"])
        fa, fb = ia["final_info"], ib["final_info"]
        single = np.array(fb["action_mask"][ended], dtype=bool)
        assert single[:, 0].all() and (single.sum(axis=1) == 1).all()
        np.testing.assert_array_equal(fa["action_mask"][ended], np.zeros_like(single))
        for i in np.flatnonzero(ended):
            np.testing.assert_array_equal(ia["final_obs"][i], ib["final_obs"][i])
        assert all(x is None for x in ia["final_obs"][~ended])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kw", [dict(variant="3p", max_rounds=1),
                                dict(variant="4p", episode="round", learner_seat=1)])
def test_every_autoreset_mode_matches_gymnasiums_sync_vector_env(mode, kw):
    """The same games and actions through the VectorEnv and through gymnasium's
    SyncVectorEnv over the single env, in each autoreset mode: every step agrees, and so
    does a plain reset midway (under DISABLED both reset the ended envs with
    options={"reset_mask": ...})."""
    n, seed = 4, 7
    ours = ys.VectorEnv(n, seed=seed, num_threads=2, autoreset_mode=mode, **kw)
    theirs = reference(n, mode, seed, **kw)
    assert ours.metadata["autoreset_mode"] is theirs.metadata["autoreset_mode"] is mode
    a, b = ours.reset(seed=seed), theirs.reset(seed=seed)
    np.testing.assert_array_equal(a[0], b[0])
    rng = np.random.default_rng(1)
    ended = 0
    for t in range(150):
        if t == 75:  # a plain reset mid-game: every env moves on to its next game
            a, b = ours.reset(), theirs.reset()
            np.testing.assert_array_equal(a[0], b[0])
        actions = masked_random(rng, a[-1]["action_mask"])
        a, b = ours.step(actions), theirs.step(actions)
        assert ours.observation_space.contains(a[0])
        assert_same_step(a, b, next_step=mode is AutoresetMode.NEXT_STEP)
        done = a[2] | a[3]
        ended += int(done.sum())
        if mode is AutoresetMode.DISABLED and done.any():
            a = ours.reset(options={"reset_mask": done.copy()})
            b = theirs.reset(options={"reset_mask": done.copy()})
            assert_same_step((*a[:1], 0, False, False, a[1]), (*b[:1], 0, False, False, b[1]))
    assert ended > n


def test_autoreset_mode_arguments():
    for given, mode in [(AutoresetMode.NEXT_STEP, AutoresetMode.NEXT_STEP),
                        ("next_step", AutoresetMode.NEXT_STEP), ("NextStep", AutoresetMode.NEXT_STEP),
                        ("SAME_STEP", AutoresetMode.SAME_STEP), ("disabled", AutoresetMode.DISABLED),
                        (None, AutoresetMode.NEXT_STEP)]:
        v = ys.VectorEnv(2, autoreset_mode=given)
        assert v.metadata["autoreset_mode"] is v.autoreset_mode is mode
    assert ys.VectorEnv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    for bad in ["next", "", "same-step", 3, AutoresetMode]:
        with pytest.raises(ValueError, match=r"unknown autoreset_mode .*\"next_step\""):
            ys.VectorEnv(2, autoreset_mode=bad)


def test_disabled_refuses_to_step_an_ended_env_until_a_masked_reset():
    v = ys.VectorEnv(3, "3p", seed=1, max_rounds=1, autoreset_mode="disabled")
    obs, info = v.reset()
    rng = np.random.default_rng(0)
    done = np.zeros(3, bool)
    while not done.any():
        obs, r, te, tr, info = v.step(masked_random(rng, info["action_mask"]))
        done = te | tr
    i = int(np.flatnonzero(done)[0])
    before = obs.copy()
    with pytest.raises(RuntimeError, match=f"env {i}'s episode is over.*reset_mask"):
        v.step(masked_random(rng, info["action_mask"]))
    assert np.array_equal(v.observations, before) and v.episodes()[i] == 1
    for options, err in [({"reset_mask": list(done)}, TypeError),
                         ({"reset_mask": done[:2]}, ValueError),
                         ({"reset_mask": done.astype(int)}, TypeError),
                         ({"reset_mask": np.zeros(3, bool)}, ValueError)]:
        with pytest.raises(err, match="reset_mask"):
            v.reset(options=options)
    with pytest.raises(ValueError, match="seed"):
        v.reset(seed=1, options={"reset_mask": done})
    obs, info = v.reset(options={"reset_mask": done})
    np.testing.assert_array_equal(obs[~done], before[~done])
    assert info["action_mask"][done].any(axis=1).all()
    assert v.episodes()[i] == 0
    v.step(masked_random(rng, info["action_mask"]))


def test_final_obs_is_kept_while_held():
    """copy=True: the rows final_obs holds are never written again while held."""
    v = ys.VectorEnv(8, "3p", seed=3, max_rounds=1, autoreset_mode="same_step")
    obs, info = v.reset()
    rng = np.random.default_rng(2)
    kept = []
    for _ in range(120):
        obs, r, te, tr, info = v.step(masked_random(rng, info["action_mask"]))
        if "final_obs" in info:
            assert v.single_observation_space.contains(info["final_obs"][info["_final_obs"]][0])
            kept.append((info["final_obs"], [x.copy() for x in info["final_obs"] if x is not None]))
    assert len(kept) > 2
    for held, snap in kept:
        for x, y in zip([x for x in held if x is not None], snap):
            np.testing.assert_array_equal(x, y)


# ---------------------------------------------------------------- team mode


def test_team_mode_plays_both_seats_of_one_team():
    for side in (0, 1):
        v = ys.VectorEnv(8, "4p", seed=2, learner_team=side, opponents="heuristic",
                         autoreset_mode="same_step")
        obs, info = v.reset()
        rng = np.random.default_rng(side)
        for _ in range(150):
            assert set(info["to_play"] % 2) == {side}
            obs, r, term, trunc, info = v.step(masked_random(rng, info["action_mask"]))
            assert r.shape == (8,)
    with pytest.raises(ValueError, match="no teams"):
        ys.VectorEnv(2, "3p", learner_team=0)
    with pytest.raises(ValueError, match="out of range"):
        ys.VectorEnv(2, "4p", learner_team=2)
    with pytest.raises(ValueError, match="not both"):
        ys.VectorEnv(2, "4p", learner_team=0, learner_seat=1)
    with pytest.raises(ValueError, match="self_play"):
        ys.VectorEnv(2, "4p", learner_team=0, self_play=True)
    drawn = ys.VectorEnv(16, "seal", seed=1, learner_team=None)
    _, info = drawn.reset()
    assert set(info["to_play"] % 2) == {0, 1}


# ---------------------------------------------------------------- the output spec


def test_every_output_of_the_spec_reaches_python():
    spec = ys.VectorEnv._output_spec()
    names = [s[0] for s in spec]
    assert names[:6] == ["obs", "mask", "reward", "terminated", "truncated", "to_play"]
    v = ys.VectorEnv(3, seed=1, state_tensor=True, autoreset_mode="same_step")
    obs, info = v.reset()
    keys = {key for _, key, *_ in spec if key is not None} - {"env_id"}
    assert set(info) == keys - {"final_obs"}  # only on a step that ends an episode
    assert v._outputs()[names.index("env_id")] is None  # only in asynchronous batches
    while "final_obs" not in info:
        *_, info = v.step(v.bot_actions())
    assert keys < set(info)


# ---------------------------------------------------------------- asynchronous stepping


def per_env_policy(mask_row, env, t):
    """A legal action that depends only on the env, its own step count and its mask."""
    legal = np.flatnonzero(mask_row)
    if not len(legal):  # NEXT_STEP: an ended env's action is ignored
        return 0
    return int(legal[(env * 7919 + t * 104729) % len(legal)])


def sync_trajectories(n, steps, **kw):
    v = ys.VectorEnv(n, seed=4, **kw)
    obs, info = v.reset(seed=4)
    out = [[] for _ in range(n)]
    for t in range(steps):
        a = np.array([per_env_policy(info["action_mask"][i], i, t) for i in range(n)])
        obs, r, te, tr, info = v.step(a)
        for i in range(n):
            out[i].append((obs[i].copy(), np.copy(r[i]), te[i], tr[i],
                           info["action_mask"][i].copy(), info["to_play"][i]))
    return out


@pytest.mark.parametrize("kw", [dict(self_play=True), dict(learner_seat=None),
                                dict(learner_team=1),
                                dict(learner_seat=None, autoreset_mode="next_step")])
@pytest.mark.parametrize("threads,batch", [(1, 4), (2, 6), (2, 12), (3, 3)])
def test_async_and_sync_give_identical_per_env_trajectories(kw, threads, batch):
    n, steps = 12, 60
    want = sync_trajectories(n, steps, num_threads=1, **kw)
    v = ys.VectorEnv(n, seed=4, num_threads=threads, batch_size=batch, **kw)
    assert v.batch_size == batch
    v.async_reset(seed=4)
    got = [[] for _ in range(n)]
    t = np.zeros(n, int)
    first = np.ones(n, bool)
    while min(len(g) for g in got) < steps:
        obs, r, te, tr, info = v.recv()
        ids = info["env_id"]
        assert len(ids) == batch and obs.shape[0] == batch
        for k, i in enumerate(ids):
            if not first[i] and len(got[i]) < steps:
                got[i].append((obs[k].copy(), np.copy(r[k]), te[k], tr[k],
                               info["action_mask"][k].copy(), info["to_play"][k]))
            first[i] = False
        acts = np.array([per_env_policy(info["action_mask"][k], i, t[i])
                         for k, i in enumerate(ids)])
        t[ids] += 1
        order = np.random.default_rng(int(ids[0])).permutation(batch)
        v.send(acts[order], ids[order])  # any order of the batch's envs
    for i in range(n):
        for a, b in zip(want[i], got[i]):
            for x, y in zip(a, b):
                assert np.array_equal(x, y), f"env {i}"
    # Once every batch is back, the synchronous API works again.
    while True:
        try:
            v.reset()
            break
        except RuntimeError:
            v.recv()


def test_async_refusals_change_nothing():
    v = ys.VectorEnv(8, seed=1, self_play=True, batch_size=4, num_threads=2,
                     illegal_action="raise")
    with pytest.raises(RuntimeError, match="nothing sent"):
        v.recv()
    v.async_reset()
    with pytest.raises(RuntimeError, match="recv"):
        v.step(np.zeros(8, np.int64))
    with pytest.raises(RuntimeError, match="recv"):
        v.async_reset()
    obs, r, te, tr, info = v.recv()
    assert list(info["env_id"]) == [0, 1, 2, 3]
    bad = np.flatnonzero(~info["action_mask"][2])[0]
    acts = info["action_mask"].argmax(1)
    acts[2] = bad
    with pytest.raises(ys.IllegalActionError, match="env 2"):
        v.send(acts)
    with pytest.raises(ValueError, match="one batch"):
        v.send(acts[:3], info["env_id"][:3])
    with pytest.raises(ValueError, match="not in batch"):
        v.send(info["action_mask"].argmax(1), np.array([0, 1, 2, 5]))
    with pytest.raises(RuntimeError, match="being stepped"):
        v.game_seed(5)
    # The refusals changed nothing: env 1 still plays the game a plain reset deals it.
    twin = ys.VectorEnv(8, seed=1, self_play=True)
    twin.reset()
    assert v.game_seed(1) == twin.game_seed(1)
    rev = v.bot_actions(info["env_id"][::-1])  # in the order given
    assert all(info["action_mask"][3 - k][a] for k, a in enumerate(rev))
    v.send(v.bot_actions(info["env_id"]))  # the batch received last
    with pytest.raises(RuntimeError, match="being stepped"):
        v.send(np.zeros(4, np.int64), np.arange(4))
    for _ in range(2):
        v.recv()
    obs, info = v.reset()  # every batch is back: synchronous again
    assert obs.shape[0] == 8
    for bad_batch in (0, 3, 9):
        with pytest.raises(ValueError, match="batch_size"):
            ys.VectorEnv(8, batch_size=bad_batch)


def test_step_async_step_wait_with_batches_match_step():
    a = ys.VectorEnv(12, seed=3, batch_size=4, num_threads=2, max_rounds=1,
                     autoreset_mode="same_step", illegal_action="raise")
    b = ys.VectorEnv(12, seed=3, max_rounds=1, autoreset_mode="same_step",
                     illegal_action="raise")
    _, ia = a.reset()
    _, ib = b.reset()
    rng = np.random.default_rng(5)
    finals = 0
    for _ in range(50):
        acts = masked_random(rng, ia["action_mask"])
        a.step_async(acts)
        ra = a.step_wait()
        rb = b.step(acts)
        assert data_equivalence(ra, rb, exact=True)  # final_obs included
        finals += "final_obs" in ra[4]
        ia = ra[4]
    assert finals > 0
    bad = masked_random(rng, ia["action_mask"])
    bad[7] = np.flatnonzero(~ia["action_mask"][7])[0]
    with pytest.raises(ys.IllegalActionError, match="env 7"):
        a.step_async(bad)
    a.step(masked_random(rng, ia["action_mask"]))  # nothing was sent


def test_spin_setting():
    v = ys.VectorEnv(4, num_threads=2, spin_us=0)
    assert v.spin_us == 0
    v.spin_us = 250
    assert v.spin_us == 250
    v.step(v.bot_actions())
    for bad in (-1, 10**8):
        with pytest.raises(ValueError, match="spin_us"):
            ys.VectorEnv(2, spin_us=bad)


# ------------------------------------------------------------------ gymnasium.make_vec


@pytest.mark.parametrize("mode", ["vector_entry_point", None])
def test_make_vec_gives_the_rust_vector_env(mode):
    kw = {} if mode is None else {"vectorization_mode": mode}
    v = gymnasium.make_vec(
        "YokaiSeptet-v0", num_envs=3, variant="3p", opponents="heuristic",
        max_rounds=2, num_threads=2, **kw,
    )
    assert type(v) is ys.VectorEnv
    assert v.num_envs == 3 and v.spec.id == "YokaiSeptet-v0"
    assert v.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    direct = ys.VectorEnv(3, "3p", opponents="heuristic", max_rounds=2)
    for a, b in zip(rollout(v, 40, 5), rollout(direct, 40, 5)):
        np.testing.assert_array_equal(a, b)


def test_make_vec_takes_makes_options_with_makes_defaults():
    v = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2)
    single = gymnasium.make("YokaiSeptet-v0")
    assert v.single_observation_space == single.observation_space
    assert v.single_action_space == single.action_space
    # learner_seat defaults to 0 in both.
    assert (v.reset(seed=0)[1]["to_play"] == 0).all()


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"render_mode": "ansi"}, "render_env"),
        ({"max_episode_steps": 10}, "max_rounds"),
    ],
)
def test_make_vec_refuses_single_env_options_it_cannot_honour(kw, words):
    with pytest.raises(ValueError, match=words):
        gymnasium.make_vec(
            "YokaiSeptet-v0", num_envs=2, vectorization_mode="vector_entry_point", **kw
        )


def test_make_vec_passes_the_autoreset_mode():
    """The vector entry point takes autoreset_mode as a keyword; gymnasium itself refuses
    vector_kwargs for a vector entry point, and gives them to SyncVectorEnv in sync mode."""
    for mode in (AutoresetMode.SAME_STEP, "disabled"):
        v = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, autoreset_mode=mode)
        assert type(v) is ys.VectorEnv
        assert v.metadata["autoreset_mode"] is AutoresetMode(v._autoreset_mode)
        assert v.autoreset_mode is not AutoresetMode.NEXT_STEP
    with pytest.raises(gymnasium.error.Error, match="vector_kwargs"):
        gymnasium.make_vec("YokaiSeptet-v0", num_envs=2,
                           vector_kwargs={"autoreset_mode": AutoresetMode.NEXT_STEP})
    s = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, vectorization_mode="sync",
                           vector_kwargs={"autoreset_mode": AutoresetMode.NEXT_STEP})
    assert s.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def test_sync_mode_still_loops_over_single_envs():
    v = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(v, gymnasium.vector.SyncVectorEnv)


def test_the_shown_defaults_are_the_real_ones():
    import inspect

    sig = inspect.signature(ys.VectorEnv)
    defaults = {
        n: p.default for n, p in sig.parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    # learner_seat's 0 applies when no learner_team is given (the two exclude each other).
    del defaults["learner_team"]
    explicit = ys.VectorEnv(3, **defaults)
    for a, b in zip(rollout(ys.VectorEnv(3), 30, 2), rollout(explicit, 30, 2)):
        np.testing.assert_array_equal(a, b)


def test_make_vec_defaults_are_makes():
    import inspect

    from yokai_septet._gym import YokaiSeptetEnv
    from yokai_septet._vector import make_vec

    vec = inspect.signature(make_vec).parameters
    single = inspect.signature(YokaiSeptetEnv).parameters
    # Vector-only refusals aside, every option of make is an option of make_vec, same
    # default (illegal_action's included: "lose" for both).
    assert vec["illegal_action"].default == "lose"
    for name in set(single) - {"render_seat"}:
        assert vec[name].default == single[name].default, name


def test_pickling_is_refused_with_what_to_do_instead():
    import copy
    import pickle

    v = ys.VectorEnv(2, seed=1)
    for dump in (pickle.dumps, copy.deepcopy):
        with pytest.raises(TypeError, match="constructor arguments.*env_offset"):
            dump(v)


# ---------------------------------------------------------------- VectorEnv


def rollout(v, steps, seed=0):
    """Every array of ``steps`` random legal steps (final observations included; under
    DISABLED the ended envs are reset by mask)."""
    rng = np.random.default_rng(seed)
    obs, info = v.reset(seed=5)
    traj = [obs.copy()]
    for _ in range(steps):
        a = masked_random(rng, info["action_mask"])
        obs, r, te, tr, info = v.step(a)
        traj += [a, obs.copy(), r.copy(), te.copy(), tr.copy(), info["to_play"].copy()]
        if "final_obs" in info:
            traj += [np.stack(info["final_obs"][info["_final_obs"]])]
        if v.autoreset_mode is AutoresetMode.DISABLED and (te | tr).any():
            obs, info = v.reset(options={"reset_mask": te | tr})
            traj += [obs.copy()]
    return traj


@pytest.mark.parametrize("variant, mode", [(v, "same_step") for v in VARIANTS]
                         + [("seal", "next_step"), ("3p", "disabled")])
@pytest.mark.parametrize("self_play", [False, True])
def test_vector_deterministic_across_threads(variant, mode, self_play):
    kw = dict(variant=variant, seed=3, self_play=self_play, max_rounds=2, autoreset_mode=mode)
    t1 = rollout(ys.VectorEnv(16, num_threads=1, **kw), 150)
    t2 = rollout(ys.VectorEnv(16, num_threads=2, **kw), 150)
    assert len(t1) == len(t2)
    for a, b in zip(t1, t2):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_self_play_agrees_with_game(variant):
    v = ys.VectorEnv(4, variant=variant, seed=9, self_play=True, reward_mode="win",
                     num_threads=2, copy=True, autoreset_mode="same_step")
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
    v = ys.VectorEnv(2, seed=1, illegal_action="raise")
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


def test_vector_concurrent_use_works_or_raises_vector_env_in_use_error():
    import threading

    v = ys.VectorEnv(256, seed=1, self_play=True, num_threads=2)
    v.reset()
    errors, runtime = [], []

    def worker():
        for _ in range(50):
            try:
                v.step(v.action_masks().argmax(axis=1))
            except ys.VectorEnvInUseError as e:
                runtime.append(e)
            except ys.IllegalActionError:
                pass  # the masks went stale under the other thread
            except Exception as e:  # pragma: no cover
                errors.append(e)

    ts = [threading.Thread(target=worker) for _ in range(3)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors
    assert all("in use by another thread or call" in str(e) for e in runtime)
    v.step(v.action_masks().argmax(axis=1))  # still usable


# ------------------------------------------------------- gymnasium's stock vector wrappers

# Every gymnasium 1.x vector wrapper that fits a discrete masked env runs on the default
# env (NEXT_STEP, gymnasium's default); the reward, action and info wrappers also on
# SAME_STEP, which the observation wrappers refuse (gymnasium's VectorObservationWrapper).
# The action wrappers ClipAction/RescaleAction need a Box action space, the rendering
# ones a renderer; NumpyToTorch (torch) is tested in the frameworks tier.
SAME, NEXT = AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP
STOCK_WRAPPERS = {
    "RecordEpisodeStatistics": ((), SAME),
    "NormalizeReward": ((), SAME),
    "ClipReward": ((-0.5, 0.5), SAME),
    "TransformReward": ((lambda r: 2 * r,), SAME),
    "TransformAction": ((lambda a: a, None), SAME),
    "DictInfoToList": ((), SAME),
    "NormalizeObservation": ((), NEXT),
    "DtypeObservation": ((np.float64,), NEXT),
    "TransformObservation": ((lambda o: o,), NEXT),
    "RescaleObservation": ((0.0, 1.0), NEXT),
    "FlattenObservation": ((), NEXT),
    "ReshapeObservation": (((ys.Game("3p").observation_size, 1),), NEXT),
}


@pytest.mark.parametrize("name, mode", [(n, None) for n in sorted(STOCK_WRAPPERS)]
                         + [(n, m) for n, (_, m) in sorted(STOCK_WRAPPERS.items()) if m is SAME])
def test_stock_vector_wrapper_runs_whole_games(name, mode):
    from gymnasium.wrappers import vector as wrappers

    args, works_on = STOCK_WRAPPERS[name]
    kw = {} if mode is None else {"autoreset_mode": mode}  # None: the default env
    v = ys.VectorEnv(4, "3p", seed=2, max_rounds=1, **kw)
    w = getattr(wrappers, name)(v, *args)
    rng = np.random.default_rng(0)
    obs, infos = w.reset(seed=2)
    ended = 0
    for _ in range(80):
        obs, r, te, tr, infos = w.step(masked_random(rng, v.masks))
        assert len(obs) == 4 and r.shape == (4,)
        assert w.observation_space.contains(obs)
        ended += int((te | tr).sum())
    assert ended > 0  # whole games, through the autoreset
    if name == "ClipReward":
        assert np.abs(r).max() <= 0.5
    if name == "DictInfoToList":
        assert isinstance(infos, list) and "action_mask" in infos[0]
    if name == "RescaleObservation":
        assert obs.min() >= 0.0 and obs.max() <= 1.0
    if works_on is NEXT:  # gymnasium's own refusal of SAME_STEP stays
        with pytest.raises(ValueError, match="NEXT_STEP"):
            getattr(wrappers, name)(ys.VectorEnv(2, seed=0, autoreset_mode="same_step"), *args)


# ------------------------------------------------ the properties after every stepping path

PROPERTIES = ("observations", "masks", "rewards", "terminated", "truncated", "to_play", "states")


def state_now(v):
    """Every property, action_masks() and the infos of the state now (copies)."""
    out = {p: np.array(getattr(v, p), copy=True) for p in PROPERTIES}
    out["action_masks()"] = v.action_masks().copy()
    infos = v._infos()
    for key in ("action_mask", "to_play", "state"):
        out["infos:" + key] = np.array(infos[key], copy=True)
    return out


def assert_state(ours, expected):
    for key, want in expected.items():
        np.testing.assert_array_equal(ours[key], want, err_msg=key)


def rows(state, lo, hi):
    return {k: a[lo:hi] for k, a in state.items()}


def joined(first, second, cut):
    """Rows ``:cut`` of ``first`` and ``cut:`` of ``second``."""
    return {k: np.concatenate([first[k][:cut], second[k][cut:]]) for k in first}


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_every_property_is_the_current_state_after_every_stepping_path(mode):
    """After step, reset, send/recv (a full round and part of one) and step_async/
    step_wait, every property, action_masks() and the infos are the envs' state now: those
    of a twin stepped synchronously with the same actions. While batches are in flight
    they raise, saying why. And v.step(v.masks.argmax(1)) after a round of recvs is legal."""
    kw = dict(variant="3p", seed=4, max_rounds=1, state_tensor=True, autoreset_mode=mode)
    v = ys.VectorEnv(8, batch_size=4, num_threads=2, **kw)
    twin = ys.VectorEnv(8, **kw)
    rng = np.random.default_rng(3)
    v.reset(seed=4)
    twin.reset(seed=4)
    assert_state(state_now(v), state_now(twin))
    for _ in range(3):  # step
        acts = masked_random(rng, twin.masks)
        v.step(acts)
        twin.step(acts)
        assert_state(state_now(v), state_now(twin))
    # async_reset and a full round of recv
    v.async_reset()
    twin.reset()
    v.recv()
    for p in PROPERTIES:
        with pytest.raises(RuntimeError, match=f"{p} is not known while batches are being"):
            getattr(v, p)
    with pytest.raises(RuntimeError, match="not received yet"):
        v.action_masks()
    _, _, _, _, info = v.recv()
    assert_state(state_now(v), state_now(twin))
    ended = 0
    for _ in range(40):  # send/recv, batch by batch, whole rounds
        acts = masked_random(rng, twin.masks)
        v.send(acts[:4], np.arange(4))
        v.send(acts[4:], np.arange(4, 8))
        with pytest.raises(RuntimeError, match="2 of the 2 batches sent are not received"):
            v.masks
        v.recv()
        v.recv()
        *_, te, tr, _ = twin.step(acts)
        ended += int((te | tr).sum())
        assert_state(state_now(v), state_now(twin))
    assert ended > 0  # the autoreset is crossed
    # part of a round: batch 0 stepped, batch 1 not
    before = state_now(twin)
    acts = masked_random(rng, twin.masks)
    v.send(acts[:4], np.arange(4))
    v.recv()
    twin.step(np.concatenate([acts[:4], masked_random(rng, twin.masks[4:])]))
    assert_state(rows(state_now(v), 0, 4), rows(state_now(twin), 0, 4))
    assert_state(rows(state_now(v), 4, 8), rows(before, 4, 8))
    # step_async/step_wait (the twin catches up on batch 1 through a fresh pair)
    v.reset(seed=9)
    twin.reset(seed=9)
    for _ in range(3):
        acts = masked_random(rng, twin.masks)
        v.step_async(acts)
        with pytest.raises(RuntimeError, match="not received yet"):
            v.observations
        v.step_wait()
        twin.step(acts)
        assert_state(state_now(v), state_now(twin))
    # the call the issue names: legal after a full round of recvs
    v.async_reset()
    twin.reset()
    v.recv()
    v.recv()
    v.step(v.masks.argmax(1))
    twin.step(twin.masks.argmax(1))
    assert_state(state_now(v), state_now(twin))


# ------------------------------------------------------------------ illegal actions


@pytest.mark.parametrize("kw", [dict(), dict(self_play=True), dict(learner_team=1),
                                dict(autoreset_mode="same_step"),
                                dict(autoreset_mode="disabled", illegal_reward=-2.5)])
def test_an_action_outside_the_mask_loses_that_envs_episode_by_default(kw):
    """The default, illegal_action="lose" (Gymnasium's contract: step takes every
    element of action_space): env 1's episode ends as lost, the acting seat (team)
    rewarded illegal_reward and the other seats 0, its game as it was; the other envs
    step exactly as a twin stepped with legal actions only."""
    penalty = kw.get("illegal_reward", -1.0)
    v = ys.VectorEnv(4, "4p", seed=2, num_threads=1, **kw)
    twin = ys.VectorEnv(4, "4p", seed=2, num_threads=1, **kw)
    assert v.illegal_action == "lose"
    obs, info = v.reset(seed=2)
    twin.reset(seed=2)
    mask, seat = info["action_mask"], info["to_play"][1]
    acts = mask.argmax(1)
    twin_out = twin.step(acts)
    acts[1] = np.flatnonzero(~mask[1])[0]
    obs2, r, term, trunc, info2 = v.step(acts)
    assert info2["illegal_action"].tolist() == [False, True, False, False]
    assert term[1] and not trunc[1] and v.episodes()[1] == 1
    if kw.get("self_play"):
        assert r[1].tolist() == [penalty if p == seat else 0.0 for p in range(4)]
    else:
        assert r[1] == penalty
    others = [0, 2, 3]
    np.testing.assert_array_equal(obs2[others], twin_out[0][others])
    np.testing.assert_array_equal(r[others], twin_out[1][others])
    mode = v.autoreset_mode
    if mode is AutoresetMode.SAME_STEP:
        np.testing.assert_array_equal(info2["final_obs"][1], obs[1])  # the offender's view
        assert info2["action_mask"][1].any() and info2["to_play"][1] >= 0
        return
    np.testing.assert_array_equal(obs2[1], obs[1])  # the game as it was
    assert info2["to_play"][1] == -1
    offered = np.flatnonzero(info2["action_mask"][1]).tolist()
    assert offered == ([0] if mode is AutoresetMode.NEXT_STEP else [])
    if mode is AutoresetMode.DISABLED:
        return
    acts = info2["action_mask"].argmax(1)
    _, r3, term3, _, info3 = v.step(acts)  # env 1's action is ignored: its next game
    assert not info3["illegal_action"].any() and not term3[1] and (r3[1] == 0).all()
    assert info3["to_play"][1] >= 0 and info3["action_mask"][1].any()


@pytest.mark.parametrize("bad", [99, -5, 2**63 - 1, 2**70, -(2**70)])
def test_every_out_of_range_integer_loses_too(bad):
    """Not a card id of the variant: as illegal as any other action under "lose" (the
    single env does the same), whatever its size; non-integers stay a TypeError."""
    v = ys.VectorEnv(3, seed=1, num_threads=1)
    _, info = v.reset()
    acts = [int(a) for a in info["action_mask"].argmax(1)]
    acts[2] = bad
    given = np.array(acts, dtype=object)
    _, r, term, _, info = v.step(given)
    assert term.tolist() == [False, False, True] and r[2] == -1.0
    assert given[2] == bad, "the caller's array is left as it was"
    with pytest.raises(TypeError):
        v.step([0.5, 0, 0])


def test_raise_is_the_opt_in_and_changes_nothing():
    v = ys.VectorEnv(3, seed=1, num_threads=1, illegal_action="raise")
    obs, info = v.reset()
    acts = info["action_mask"].argmax(1)
    acts[1] = np.flatnonzero(~info["action_mask"][1])[0]
    with pytest.raises(ys.IllegalActionError, match="env 1"):
        v.step(acts)
    np.testing.assert_array_equal(v.observations, obs)
    assert v.episodes() == [0, 0, 0]
    assert "illegal_action" not in v.step(info["action_mask"].argmax(1))[4]
    with pytest.raises(ValueError, match="illegal_action"):
        ys.VectorEnv(2, illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_reward"):
        ys.VectorEnv(2, illegal_reward=float("nan"))


def test_make_vec_takes_illegal_action_and_illegal_reward():
    v = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, illegal_reward=-3.0)
    assert type(v) is ys.VectorEnv and v.illegal_action == "lose"
    _, info = v.reset(seed=0)
    acts = info["action_mask"].argmax(1)
    acts[0] = np.flatnonzero(~info["action_mask"][0])[0]
    _, r, term, _, info = v.step(acts)
    assert term[0] and r[0] == -3.0 and info["illegal_action"][0]
    strict = gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, illegal_action="raise")
    _, info = strict.reset(seed=0)
    with pytest.raises(ys.IllegalActionError):
        strict.step(acts)
