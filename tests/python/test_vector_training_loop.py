"""What a training loop meets on ``VectorEnv``'s rows (issue 60): an ended env's mask under
each autoreset mode (the masked-softmax idiom must stay finite), and gymnasium's reward
wrappers in self-play through :class:`yokai_septet.SeatReward`. The torch version of the
mask test is marked ``training`` (``pip install ".[test,train]"; pytest -m training``)."""

import gymnasium
import numpy as np
import pytest
from gymnasium.wrappers.vector import NormalizeReward, RecordEpisodeStatistics

import yokai_septet as ys

MODES = [dict(self_play=True), dict(), dict(learner_team=1)]


def masked_softmax(logits, mask):
    """The usual idiom: illegal actions get -inf, then a softmax (numpy's version of
    ``logits.masked_fill(~mask, -inf)`` + ``Categorical``)."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def sample(p, rng):
    return (p.cumsum(axis=1) > rng.random((len(p), 1))).argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("kw", MODES)
def test_next_step_ended_rows_offer_one_action_so_the_masked_softmax_stays_finite(kw):
    # NEXT_STEP: the row of an env that just ended offers exactly action 0, the one its
    # next step ignores; an empty row made the softmax 0/0 (issue 60: 183 such rows in
    # 300 steps of 8 envs).
    envs = ys.VectorEnv(8, "4p", seed=3, episode="round", num_threads=1, **kw)
    rng = np.random.default_rng(0)
    obs, info = envs.reset(seed=3)
    ended_rows = 0
    for _ in range(300):
        mask = info["action_mask"]
        p = masked_softmax(rng.normal(size=mask.shape), mask)
        assert np.isfinite(p).all()
        obs, r, term, trunc, info = envs.step(sample(p, rng))
        ended = term | trunc
        ended_rows += int(ended.sum())
        one = np.zeros(mask.shape[1], dtype=bool)
        one[0] = True
        for i in ended.nonzero()[0]:
            np.testing.assert_array_equal(info["action_mask"][i], one)
            assert info["to_play"][i] == -1
        assert info["action_mask"].any(axis=1).all()
        np.testing.assert_array_equal(envs.action_masks(), info["action_mask"])
    assert ended_rows > 8


def test_the_async_batches_offer_the_same_single_action():
    envs = ys.VectorEnv(8, "3p", seed=1, episode="round", self_play=True, num_threads=1,
                        batch_size=4)
    rng = np.random.default_rng(1)
    envs.async_reset()
    ended_rows = 0
    for _ in range(400):
        obs, r, term, trunc, info = envs.recv()
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        ended = term | trunc
        ended_rows += int(ended.sum())
        assert (mask[ended].sum(axis=1) == 1).all() and mask[ended, 0].all()
        envs.send(sample(masked_softmax(rng.normal(size=mask.shape), mask), rng),
                  info["env_id"])
    assert ended_rows > 4


def test_same_step_rows_always_offer_an_action_and_disabled_ended_rows_none():
    # SAME_STEP deals the next game at once: every row is a real decision. DISABLED keeps
    # the ended game until a reset names it, and refuses to step it: its row stays empty
    # (documented: reset before the policy reads the masks).
    same = ys.VectorEnv(8, "4p", seed=2, episode="round", self_play=True,
                        autoreset_mode="same_step")
    off = ys.VectorEnv(8, "4p", seed=2, episode="round", self_play=True,
                       autoreset_mode="disabled")
    _, info = same.reset(seed=2)
    _, info_off = off.reset(seed=2)
    ended_off = 0
    for _ in range(150):
        assert info["action_mask"].any(axis=1).all()
        _, _, _, _, info = same.step(info["action_mask"].argmax(1))
        _, _, term, trunc, info_off = off.step(info_off["action_mask"].argmax(1))
        ended = term | trunc
        if ended.any():
            ended_off += int(ended.sum())
            assert not info_off["action_mask"][ended].any()
            _, info_off = off.reset(options={"reset_mask": ended})
        assert info_off["action_mask"].any(axis=1).all()
    assert ended_off > 0


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_own_vector_envs_over_the_single_env_never_hand_out_an_empty_row(mode):
    # make_vec's sync and async modes vectorize the single env under gymnasium's default
    # NEXT_STEP autoreset: the step that ends an episode hands out its info, whose mask
    # offers action 0 alone (issue 64), as VectorEnv's ended rows do.
    envs = gymnasium.make_vec("YokaiSeptet-v0", num_envs=3, vectorization_mode=mode,
                              episode="round", opponents="heuristic")
    rng = np.random.default_rng(2)
    obs, info = envs.reset(seed=2)
    ended_rows = 0
    for _ in range(300):
        mask = info["action_mask"]
        assert mask.any(axis=1).all()
        p = masked_softmax(rng.normal(size=mask.shape), mask)
        assert not np.isnan(p).any()
        obs, r, term, trunc, info = envs.step(sample(p, rng))
        for i in (term | trunc).nonzero()[0]:
            ended_rows += 1
            assert np.flatnonzero(info["action_mask"][i]).tolist() == [0]
    envs.close()
    assert ended_rows >= 3


# ------------------------------------------------------------ self-play reward wrappers


def episode_returns_by_hand(envs_kw, seat, steps, seed):
    """Every finished episode's return for ``seat`` in each env, from the bare env."""
    envs = ys.VectorEnv(4, "4p", seed=seed, episode="round", self_play=True, **envs_kw)
    _, info = envs.reset(seed=seed)
    acc, done = np.zeros(4), [[] for _ in range(4)]
    for _ in range(steps):
        _, r, term, trunc, info = envs.step(info["action_mask"].argmax(1))
        acc += r[:, seat]
        for i in (term | trunc).nonzero()[0]:
            done[i].append(acc[i])
            acc[i] = 0
    return done


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_record_episode_statistics_over_a_seat_view_of_self_play(mode):
    kw = dict(autoreset_mode=mode)
    envs = RecordEpisodeStatistics(
        ys.SeatReward(ys.VectorEnv(4, "4p", seed=5, episode="round", self_play=True, **kw),
                      seat=1))
    _, info = envs.reset(seed=5)
    got = [[] for _ in range(4)]
    for _ in range(200):
        _, r, term, trunc, info = envs.step(info["action_mask"].argmax(1))
        assert r.shape == (4,) and info["seat_rewards"].shape == (4, 4)
        np.testing.assert_array_equal(r, info["seat_rewards"][:, 1])
        if "episode" in info:
            for i in info["_episode"].nonzero()[0]:
                got[i].append(float(info["episode"]["r"][i]))
    want = episode_returns_by_hand(kw, 1, 200, 5)
    assert sum(map(len, want)) >= 4
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w)


def test_normalize_reward_over_a_seat_view_of_self_play():
    raw_env = ys.VectorEnv(4, "4p", seed=6, episode="round", self_play=True,
                           reward_mode="points")
    envs = NormalizeReward(ys.SeatReward(raw_env, seat=2))
    _, info = envs.reset(seed=6)
    nonzero = 0
    for _ in range(200):
        _, r, _, _, info = envs.step(info["action_mask"].argmax(1))
        raw = info["seat_rewards"][:, 2]
        assert r.shape == (4,) and np.isfinite(r).all()
        # Scaled, never moved: zero stays zero, a sign stays.
        np.testing.assert_array_equal(np.sign(r), np.sign(raw))
        nonzero += int((raw != 0).sum())
    assert nonzero > 0
    assert envs.return_rms.count > 1


def test_reward_wrappers_work_directly_where_rewards_are_one_per_env():
    # Learner and team modes: (num_envs,) rewards, no view needed.
    for kw in (dict(), dict(learner_team=0)):
        envs = NormalizeReward(RecordEpisodeStatistics(
            ys.VectorEnv(4, "4p", seed=7, episode="round", **kw)))
        _, info = envs.reset(seed=7)
        episodes = 0
        for _ in range(100):
            _, r, _, _, info = envs.step(info["action_mask"].argmax(1))
            assert r.shape == (4,)
            episodes += int(info.get("_episode", np.zeros(4, bool)).sum())
        assert episodes > 0


@pytest.mark.parametrize("wrapper", [RecordEpisodeStatistics, NormalizeReward])
@pytest.mark.parametrize("num_envs", [4, 6])
def test_reward_wrappers_on_bare_self_play_name_seat_reward(wrapper, num_envs):
    # Self-play rewards are (num_envs, num_players), and gymnasium's reward wrappers add
    # them to one running value per env: a TypeError naming ys.SeatReward, the way, at
    # the first step; with as many envs as seats (4) numpy alone would have broadcast
    # NormalizeReward's sum into a (4, 4) array without a word.
    envs = wrapper(ys.VectorEnv(num_envs, "4p", seed=0, self_play=True))
    _, info = envs.reset(seed=0)
    with pytest.raises(TypeError, match=r"ys\.SeatReward"):
        envs.step(info["action_mask"].argmax(1))


def test_self_play_rewards_are_an_array_for_everything_else():
    """What a training loop does with self-play rewards works as on a plain array, and
    gives plain arrays: a seat's column, scalars, per-seat rows, sums, in-place sums."""
    envs = ys.VectorEnv(6, "4p", seed=1, self_play=True, episode="round")
    _, info = envs.reset(seed=1)
    returns = np.zeros((6, 4))
    for _ in range(40):
        _, r, _, _, info = envs.step(info["action_mask"].argmax(1))
        returns += r
        returns[:, 0] += r[:, 0]
        assert isinstance(r, np.ndarray) and r.shape == (6, 4)
        assert type(r * 0.99) is np.ndarray and type(r.sum(axis=1)) is np.ndarray
        np.testing.assert_array_equal(r * np.ones(4), np.asarray(r))  # a per-seat vector
        np.testing.assert_array_equal(r + np.zeros((6, 1)), np.asarray(r))
    assert np.abs(returns).sum() > 0


def test_seat_reward_refuses_what_it_cannot_view():
    with pytest.raises(ValueError, match="self-play"):
        ys.SeatReward(ys.VectorEnv(2, "4p"))
    with pytest.raises(ValueError, match="seats are 0..2"):
        ys.SeatReward(ys.VectorEnv(2, "3p", self_play=True), seat=3)
    with pytest.raises(TypeError, match="seat must be an int"):
        ys.SeatReward(ys.VectorEnv(2, "3p", self_play=True), seat=1.0)
    assert isinstance(ys.SeatReward(ys.VectorEnv(2, "3p", self_play=True), seat=2),
                      gymnasium.vector.VectorWrapper)


# ------------------------------------------------------------ the training tier: torch


@pytest.mark.training
@pytest.mark.parametrize("kw", [dict(self_play=True), dict(batch_size=4, self_play=True), dict()])
def test_torch_categorical_over_masked_logits_never_sees_nan(kw):
    # The idiom, verbatim: masked_fill(~mask, -inf), then Categorical (which
    # validates its logits and raised on the NaN rows of ended envs).
    torch = pytest.importorskip("torch")
    from torch.distributions import Categorical

    torch.manual_seed(0)
    envs = ys.VectorEnv(8, "4p", seed=4, episode="round", num_threads=1, **kw)
    policy = torch.nn.Linear(envs.single_observation_space.shape[0], envs.single_action_space.n)
    asynchronous = envs.batch_size < envs.num_envs
    if asynchronous:
        envs.async_reset(seed=4)
    else:
        obs, info = envs.reset(seed=4)
    ended_rows = 0
    for _ in range(300):
        if asynchronous:
            obs, _, term, trunc, info = envs.recv()
            ended_rows += int((term | trunc).sum())
        mask = torch.as_tensor(info["action_mask"])
        with torch.no_grad():
            logits = policy(torch.as_tensor(obs, dtype=torch.float32))
        dist = Categorical(logits=logits.masked_fill(~mask, float("-inf")))
        actions = dist.sample()
        assert mask.gather(1, actions[:, None]).all()
        assert torch.isfinite(dist.log_prob(actions)).all()
        if asynchronous:
            envs.send(actions.numpy(), info["env_id"])
        else:
            obs, _, term, trunc, info = envs.step(actions.numpy())
            ended_rows += int((term | trunc).sum())
    assert ended_rows > 8
