"""yokai_septet.distributed on a local Ray instance: exact arenas, collection, retries."""

import os
import sys

import numpy as np
import pytest

import yokai_septet as ys

ray = pytest.importorskip(
    "ray", reason="ray is not installed (pip install '.[test,ray]' runs these tests)"
)
from yokai_septet import distributed  # noqa: E402

LINEUP = ["heuristic", "random"]


@pytest.fixture(scope="module", autouse=True)
def ray_local():
    # Ray workers cannot import this test module: ship its functions (policies, hooks) by
    # value, as they would be from a script's __main__.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def crash_once(marker_dir, task_index):
    """A `_before_task` hook: the worker running task `task_index` dies (os._exit) on its
    first attempt, leaving a marker file so that the retry goes through."""

    def hook(index):
        if index == task_index:
            marker = os.path.join(marker_dir, f"crashed-{index}")
            if not os.path.exists(marker):
                open(marker, "w").close()
                os._exit(1)

    return hook


# ---------------------------------------------------------------- arena


@pytest.mark.parametrize("num_tasks", [1, 2, 3])
@pytest.mark.parametrize("variant", ["4p", "3p", "seal"])
def test_distributed_arena_equals_local(variant, num_tasks):
    kw = dict(games=31, seed=11, max_rounds=4)
    local = ys.arena(LINEUP, variant, **kw)
    dist = distributed.arena(LINEUP, variant, num_tasks=num_tasks, **kw)
    assert dist == local


def test_distributed_arena_takes_an_arena_spec():
    spec = ys.ArenaSpec("3p", games=7, seed=4, max_rounds=3)
    local = ys.arena(LINEUP, spec=spec, progress=False)
    assert distributed.arena(LINEUP, spec=spec, num_tasks=2) == local
    assert distributed.arena(LINEUP, "3p", 7, 4, max_rounds=3, num_tasks=2) == local
    with pytest.raises(TypeError, match="not both"):
        distributed.arena(LINEUP, games=7, spec=spec)


def test_distributed_arena_plays_single_rounds_and_refuses_a_sequential_stop():
    spec = ys.ArenaSpec("4p", games=12, seed=4, rounds=True)
    local = ys.arena(LINEUP, spec=spec, progress=False)
    # Boards split between tasks are joined when the slices merge.
    assert distributed.arena(LINEUP, spec=spec, num_tasks=5) == local
    assert local["boards"] == 6 and local["rounds"]
    with pytest.raises(ValueError, match="sequential"):
        distributed.arena(LINEUP, spec=spec.replace(sequential=True), num_tasks=2)


def test_distributed_arena_defaults_and_odd_splits():
    kw = dict(games=10, seed=2, max_rounds=3, scoring="basic", duplicate=False)
    local = ys.arena("random,heuristic", "4p", **kw)
    # More tasks than games: the empty slices are dropped.
    assert distributed.arena("random,heuristic", "4p", num_tasks=25, **kw) == local
    assert distributed.arena("random,heuristic", "4p", **kw) == local
    with pytest.raises(ValueError, match="nope"):
        distributed.arena(["nope"], num_tasks=2)
    with pytest.raises(ValueError, match="num_tasks"):
        distributed.arena(LINEUP, num_tasks=0)


def test_distributed_arena_shows_and_takes_the_arena_tables_keywords():
    """Its keyword-only arena settings are shown from the arena's table (as the local
    arena's are written out), and a keyword that is none of them is refused before any
    task starts, ``batch_size`` (which only a local arena uses) included."""
    import inspect

    shown = inspect.signature(distributed.arena).parameters
    local = inspect.signature(ys.arena).parameters
    names = [n for n, p in shown.items() if p.kind is p.KEYWORD_ONLY][:6]
    assert names == ["scoring", "max_rounds", "duplicate", "rounds", "sequential", "threads"]
    assert [shown[n].default for n in names] == [local[n].default for n in names]
    for bad in ("scorng", "batch_size"):
        message = f"arena\\(\\) got an unexpected keyword argument '{bad}'"
        with pytest.raises(TypeError, match=message):
            distributed.arena(LINEUP, num_tasks=2, **{bad: 1})


def test_split_partitions():
    for total in [0, 1, 7, 100]:
        for parts in [1, 2, 3, 8]:
            s = distributed.split(total, parts)
            flat = [i for a, b in s for i in range(a, b)]
            assert flat == list(range(total))
            assert len(s) == min(parts, total)


def test_arena_survives_a_killed_worker(tmp_path):
    kw = dict(games=24, seed=5, max_rounds=4)
    local = ys.arena(LINEUP, "4p", **kw)
    hook = crash_once(str(tmp_path), task_index=1)
    dist = distributed.arena(
        LINEUP, "4p", num_tasks=3, max_retries=2, _before_task=hook, **kw
    )
    assert (tmp_path / "crashed-1").exists()  # the first attempt did die
    assert dist == local


def test_arena_without_retries_fails_loudly(tmp_path):
    hook = crash_once(str(tmp_path), task_index=0)
    with pytest.raises(ray.exceptions.RayError):
        distributed.arena(LINEUP, "4p", games=4, num_tasks=2, max_retries=0, _before_task=hook)


# ---------------------------------------------------------------- collect


def first_legal(obs, mask):
    return np.argmax(mask, axis=1)


def test_collect_shapes_and_contents():
    T, E = 30, 7
    b = distributed.collect("heuristic", T, E, "4p", seed=1, num_tasks=2, max_rounds=2)
    g = ys.Game("4p")
    D, A, P = g.observation().shape[0], g.num_actions, g.num_players
    assert b["observations"].shape == (T, E, D) and b["observations"].dtype == np.float32
    assert b["masks"].shape == (T, E, A) and b["masks"].dtype == np.bool_
    for k in ["actions", "seats", "env_ids", "episode_ids"]:
        assert b[k].shape == (T, E) and b[k].dtype == np.int64, k
    for k in ["terminated", "truncated", "dones"]:
        assert b[k].shape == (T, E) and b[k].dtype == np.bool_, k
    assert b["rewards"].shape == (T, E, P) and b["rewards"].dtype == np.float32
    assert b["last_observations"].shape == (E, D)
    assert b["last_masks"].shape == (E, A) and b["last_seats"].shape == (E,)
    # Every action was legal for the mask it was chosen under, by the seat to move.
    assert b["masks"][np.arange(T)[:, None], np.arange(E)[None, :], b["actions"]].all()
    assert ((b["seats"] >= 0) & (b["seats"] < P)).all()
    assert (b["env_ids"] == np.arange(E)).all()
    np.testing.assert_array_equal(b["dones"], b["terminated"] | b["truncated"])
    # Episodes advance exactly after each done.
    np.testing.assert_array_equal(
        b["episode_ids"][1:], b["episode_ids"][:-1] + b["dones"][:-1]
    )
    # Rewards only at episode ends in "win" mode.
    assert (b["rewards"][~b["dones"]] == 0).all()


def test_collect_matches_a_single_vector_env():
    T, E = 25, 5
    b = distributed.collect(first_legal, T, E, "3p", seed=9, num_tasks=3)
    env = ys.VectorEnv(E, "3p", seed=9, self_play=True, num_threads=1,
                        autoreset_mode="same_step")
    obs, info = env.reset()
    for t in range(T):
        np.testing.assert_array_equal(b["observations"][t], obs)
        a = first_legal(obs, info["action_mask"])
        np.testing.assert_array_equal(b["actions"][t], a)
        obs, r, term, trunc, info = env.step(a)
        np.testing.assert_array_equal(b["rewards"][t], r)
        np.testing.assert_array_equal(b["terminated"][t], term)


@pytest.mark.parametrize("policy", ["heuristic", "first_legal"])
def test_collect_is_deterministic(policy):
    pol = first_legal if policy == "first_legal" else policy
    kw = dict(seed=4, max_rounds=2)
    a = distributed.collect(pol, 20, 6, "seal-short", num_tasks=2, **kw)
    b = distributed.collect(pol, 20, 6, "seal-short", num_tasks=2, **kw)
    c = distributed.collect(pol, 20, 6, "seal-short", num_tasks=3, **kw)
    d = distributed.collect(pol, 20, 6, "seal-short", num_tasks=2, seed=5, max_rounds=2)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
        np.testing.assert_array_equal(a[k], c[k], err_msg=k)  # any task count
    assert not np.array_equal(a["observations"], d["observations"])


def test_collect_survives_a_killed_worker(tmp_path):
    kw = dict(seed=3, max_rounds=2)
    ref = distributed.collect("random", 15, 4, "4p", num_tasks=2, **kw)
    hook = crash_once(str(tmp_path), task_index=0)
    got = distributed.collect(
        "random", 15, 4, "4p", num_tasks=2, max_retries=2, _before_task=hook, **kw
    )
    assert (tmp_path / "crashed-0").exists()
    for k in ref:
        np.testing.assert_array_equal(ref[k], got[k], err_msg=k)


def test_collect_rejects_bad_policies():
    with pytest.raises(ValueError, match="nope"):
        distributed.collect("nope", 2, 2)
    with pytest.raises(TypeError):
        distributed.collect(3, 2, 2)
    with pytest.raises(ys.IllegalActionError):
        distributed.collect(lambda o, m: np.full(len(m), 99, np.int64), 2, 2, num_tasks=1)
