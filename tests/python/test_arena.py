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


def test_results_print_as_the_command_lines_table():
    s = ys.arena(LINEUP, "4p", 40, seed=3, max_rounds=None, threads=1)
    assert isinstance(s, ys.ArenaResult) and isinstance(s, dict)
    assert s == dict(s) and s.warning is None
    table = s.table()
    assert str(s) == table
    lines = table.splitlines()
    assert lines[0] == f"40 games of 4p (with duplicate), {s['rounds_per_game']:.2f} rounds/game, 0 truncated"
    assert lines[1].split()[:4] == ["bot", "seats", "wins", "win%"]
    assert lines[2].startswith("heuristic") and lines[3].startswith("random")
    assert f"{100 * s['entries'][0]['win_rate']:.2f}%" in lines[2]
    assert lines[4] == "20 boards of 2 games (paired 95% intervals over boards):"
    assert lines[6].startswith("heuristic") and lines[7].startswith("random")
    assert lines[8].startswith("40 games, ") and "games/s" in lines[8]
    # Python agents are named in the table as in the summary.
    def first_legal(obs, masks):
        return masks.argmax(1)
    e = ys.evaluate([first_legal, "random"], "4p", 8, seed=1, max_rounds=None)
    assert e["entries"][0]["bot"] == "first_legal"
    assert e.table().splitlines()[2].startswith("first_legal ")
    # Pickled (as Ray ships it), it is still the table.
    import pickle
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.table() == table


def test_boards_pair_each_deals_games():
    s = ys.arena(LINEUP, "4p", 40, seed=3, max_rounds=None, threads=1)
    assert (s["boards"], s["board_size"], s["rounds"], s["sequential"]) == (20, 2, False, None)
    h, r = s["entries"]
    # With teams the mean board win share is the win rate; the interval is the boards'.
    assert h["board_win_rate"]["mean"] == pytest.approx(h["win_rate"])
    lo, hi = h["board_win_rate"]["ci95"]
    assert 0 <= lo <= h["win_rate"] <= hi <= 1
    assert h["board_margin"]["mean"] == pytest.approx(-r["board_margin"]["mean"])
    assert h["board_margin"]["mean"] > 0 and h["unpaired_games_for_same_width"] > 0
    # In 3p a board is a deal's three games, and the shares of a board add up to 1.
    t = ys.arena(LINEUP, "3p", 30, seed=3, max_rounds=5)
    assert (t["boards"], t["board_size"]) == (10, 3)
    assert sum(e["board_win_rate"]["mean"] for e in t["entries"]) == pytest.approx(1)


def test_single_rounds_and_the_sequential_stop_from_python():
    s = ys.arena(LINEUP, "4p", 400, seed=5, rounds=True, threads=2)
    assert s["rounds"] and s["rounds_per_game"] == 1 and s["truncated"] == 0
    assert s == ys.arena(LINEUP, "4p", 400, seed=5, rounds=True, threads=1)
    assert s.table().startswith("400 single rounds of 4p")
    q = ys.arena(LINEUP, "4p", 2000, seed=5, rounds=True, sequential=True)
    v = q["sequential"]
    assert v["decided"] and v["interval"][0] > 0.5 and v["budget"] == 1000
    assert q["boards"] == v["boards"] < 1000 and q["games"] == 2 * v["boards"]
    assert "sequential stop (5% error rate): stopped after" in q.table()
    # A Python agent in the same arena stops at the same board: the boards are looked
    # at in board order, whatever order evaluate's games finish in.
    e = ys.evaluate([ys.Bot("heuristic"), "random"], "4p", 2000, seed=5, rounds=True,
                    sequential=True, batch_size=16)
    assert e["sequential"] == v and e["games"] == q["games"]
    assert [x["wins"] for x in e["entries"]] == [x["wins"] for x in q["entries"]]
    assert e["entries"][0]["board_margin"] == q["entries"][0]["board_margin"]
    with pytest.raises(ValueError, match="two bots"):
        ys.arena(["random"] * 4, "4p", 10, sequential=True)
    from yokai_septet import models
    with pytest.raises(ValueError, match="sequential"):
        models.imitation_data(LINEUP, "heuristic", games=4, sequential=True)


def test_a_round_cap_that_decides_the_result_warns_in_the_table_and_on_stderr(capfd):
    # Every 4p game cut after one round: every "win rate" is 50%, and nothing used to say so.
    with pytest.warns(ys.TruncationWarning, match="8 of 8 games were cut by the round cap"):
        s = ys.arena(LINEUP, "4p", 8, seed=3, max_rounds=1)
    assert s["truncated"] == 8 and "not ranked" in s.warning
    assert f"WARNING: {s.warning}" in str(s)
    with pytest.warns(ys.TruncationWarning):
        e = ys.evaluate([lambda obs, masks: masks.argmax(1), "random"], "4p", 8, max_rounds=1)
    assert "WARNING: 8 of 8 games" in e.table()
    # Not caught, the warning goes to stderr.
    import subprocess
    import sys
    code = ("import yokai_septet as ys; "
            "s = ys.arena(['heuristic', 'random'], games=4, max_rounds=1, progress=False)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "TruncationWarning: 4 of 4 games were cut" in p.stderr, p.stderr


@pytest.mark.parametrize("run", [ys.arena, ys.evaluate])
def test_no_games_is_refused(run):
    with pytest.raises(ValueError, match="games"):
        run(LINEUP, "4p", 0)


def test_slices_merge_into_the_whole_arena():
    kw = dict(bots=LINEUP, spec=ys.ArenaSpec("3p", games=20, seed=8, max_rounds=3))
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
