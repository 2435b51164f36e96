"""The local arena (yokai_septet.arena and its slice/merge pieces) and the VectorEnv
features that distributed collection builds on (env_offset, bot_actions). No Ray needed."""

import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import _core

LINEUP = ["heuristic", "random"]


def test_local_arena_summary():
    s = ys.arena(LINEUP, "4p", 40, seed=3, max_rounds=5)
    assert s["games"] == 40 and s["variant"] == "4p"
    h, r = s["entries"]
    assert (h["bot"], r["bot"]) == ("heuristic", "random")
    assert h["wins"] + r["wins"] + h["draws"] == 40
    assert 0 <= h["ci95"][0] <= h["win_rate"] <= h["ci95"][1] <= 1
    assert h["elo"] == pytest.approx(-r["elo"])
    assert ys.arena(LINEUP, "4p", 40, seed=3, max_rounds=5, threads=1) == s
    assert ys.arena(LINEUP, "4p", 40, seed=4, max_rounds=5) != s
    with pytest.raises(ValueError, match="nope"):
        ys.arena(["heuristic", "nope"])
    with pytest.raises(ValueError, match="variant"):
        ys.arena(LINEUP, "5p")


def test_slices_merge_into_the_whole_arena():
    kw = dict(bots=LINEUP, variant="3p", games=20, seed=8, max_rounds=3)
    whole = ys.arena(**kw)
    total = _core._arena_total_games(**kw)
    assert total == 21  # rounded up to whole duplicate groups of 3
    parts = [_core._arena_counts(a, b, **kw) for a, b in [(9, 21), (0, 4), (4, 9)]]
    assert sum(p["games"] for p in parts) == total
    assert _core._arena_summary(parts, **kw) == whole
    with pytest.raises(ValueError, match="overlap"):
        _core._arena_summary(parts + parts[:1], **kw)
    with pytest.raises(ValueError, match="cover"):
        _core._arena_summary(parts[1:], **kw)
    with pytest.raises(ValueError, match="range"):
        _core._arena_counts(20, 22, **kw)


def test_env_offset_numbers_envs_of_a_larger_batch():
    big = ys.VectorEnv(6, "4p", seed=3, self_play=True, num_threads=1)
    part = ys.VectorEnv(2, "4p", seed=3, self_play=True, num_threads=1, env_offset=4)
    assert part.env_offset == 4
    for i in range(2):
        assert part.game_seed(i) == big.game_seed(4 + i)
    for _ in range(40):
        a_big, a_part = big.bot_actions(), part.bot_actions()
        np.testing.assert_array_equal(a_part, a_big[4:])
        obs_big, *_ = big.step(a_big)
        obs_part, *_ = part.step(a_part)
        np.testing.assert_array_equal(obs_part, obs_big[4:])


def test_bot_actions_are_legal_and_reproducible():
    for variant in ["4p", "3p", "seal"]:
        runs = []
        for _ in range(2):
            env = ys.VectorEnv(5, variant, seed=1, self_play=True, opponents="heuristic")
            acts = []
            for _ in range(60):
                a = env.bot_actions()
                assert env.masks[np.arange(5), a].all()
                acts.append(a)
                env.step(a)
            runs.append(np.array(acts))
        np.testing.assert_array_equal(runs[0], runs[1])
