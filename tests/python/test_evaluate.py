"""Your own agents in the duplicate-deal arena: ``ys.evaluate`` (and ``ys.arena`` with
policies), with batched policies and objects with ``act(game)``."""

import numpy as np
import pytest

import yokai_septet as ys

KW = dict(games=24, seed=5, max_rounds=3)


class PyHeuristic:
    """The built-in heuristic bot behind a Python ``act(game)`` (it uses no randomness)."""

    name = "py-heuristic"

    def __init__(self):
        self.bot = ys.Bot("heuristic")

    def act(self, game):
        return self.bot.act(game)


def lowest_legal(observations, masks):
    """A batched policy: the lowest legal card of every row."""
    assert observations.dtype == np.float32 and masks.dtype == bool
    assert observations.shape[0] == masks.shape[0]
    return masks.argmax(axis=1)


class LowestLegal:
    """The same policy, one decision at a time."""

    def act(self, game):
        return game.legal_actions()[0]


def without_labels(summary):
    return {**summary, "entries": [{**e, "bot": None} for e in summary["entries"]]}


@pytest.mark.parametrize("variant", ["4p", "3p", "seal"])
def test_python_agent_gets_the_rust_arenas_deals_and_statistics(variant):
    rust = ys.arena(["heuristic", "random"], variant, **KW)
    python = ys.evaluate([PyHeuristic(), "random"], variant, **KW)
    assert python["entries"][0]["bot"] == "py-heuristic"
    assert without_labels(python) == without_labels(rust)


def test_batched_policy_and_act_object_agree_at_any_batch_size():
    by_act = ys.evaluate([LowestLegal(), "heuristic"], **KW)
    for batch_size in (1, 7, 256):
        batched = ys.evaluate([lowest_legal, "heuristic"], batch_size=batch_size, **KW)
        assert batched["entries"][0]["bot"] == "lowest_legal"
        assert without_labels(batched) == without_labels(by_act)
    assert by_act["games"] == 24
    assert by_act["decisions"] > 0


def test_summary_has_win_rate_interval_elo_and_points():
    s = ys.arena([lowest_legal, "random"], "4p", **KW)
    me, them = s["entries"]
    assert me["wins"] + them["wins"] + me["draws"] == s["games"]
    assert 0 <= me["ci95"][0] <= me["win_rate"] <= me["ci95"][1] <= 1
    assert me["elo"] == pytest.approx(-them["elo"])
    # With teams the margin per game is the difference of the teams' points per game.
    margin = me["points_per_game"] - them["points_per_game"]
    assert me["board_margin"]["mean"] == pytest.approx(margin)


def test_one_entry_per_seat_mixing_all_three_shapes():
    s = ys.evaluate([lowest_legal, "random", LowestLegal(), "heuristic"], "4p", **KW)
    assert [e["bot"] for e in s["entries"]] == [
        "lowest_legal", "random", "LowestLegal", "heuristic"
    ]
    assert [e["seats"] for e in s["entries"]] == [1, 1, 1, 1]


def test_illegal_action_names_the_agent_seat_and_game():
    def always_zero(observations, masks):
        return np.zeros(len(masks), dtype=np.int64)

    with pytest.raises(ys.IllegalActionError, match=r"always_zero \(seat \d\) in arena game \d+"):
        ys.evaluate([always_zero, "random"], **KW)


def test_bad_policy_output_and_bad_entries_are_clear_errors():
    with pytest.raises(ValueError, match="shape"):
        ys.evaluate([lambda o, m: [0], "random"], **KW)
    with pytest.raises(TypeError, match="float"):
        ys.evaluate([lambda o, m: m.argmax(1).astype(float), "random"], **KW)
    with pytest.raises(TypeError, match="neither a bot name"):
        ys.evaluate([3, "random"], **KW)
    with pytest.raises(ValueError, match="nope"):
        ys.evaluate([lowest_legal, "nope"], **KW)
    with pytest.raises(ValueError, match="give 1, 2 or 4"):
        ys.evaluate([lowest_legal, "random", "random"], **KW)
    with pytest.raises(ValueError, match="batch_size"):
        ys.evaluate([lowest_legal, "random"], batch_size=0, **KW)


def test_arena_counts_reject_a_game_not_dealt_by_the_arena():
    from yokai_septet import _core

    args = dict(bots=["heuristic", "random"], spec=ys.ArenaSpec("4p", games=4, seed=1, max_rounds=2))
    deal_seed, seats, bot_seeds = _core._arena_setup(0, **args)
    assert len(seats) == len(bot_seeds) == 4
    g = ys.Game("4p", "advanced", deal_seed + 1, max_rounds=2)
    while g.phase != "over":
        g.step(g.legal_actions()[0])
    with pytest.raises(ValueError, match="not set up as the arena deals it"):
        _core._arena_game_counts(0, g, [0] * 4, [0] * 4, [0] * 4, **args)
    other = ys.Game("4p", "advanced", deal_seed + 1).record()["rounds"][0]
    one_round = dict(args, spec=args["spec"].replace(max_rounds=1))
    deal_seed, _, _ = _core._arena_setup(0, **one_round)
    redealt = ys.Game.from_deal(other["hands"], other["trump_card"], "4p", "advanced",
                                deal_seed, max_rounds=1)
    while redealt.phase != "over":
        redealt.step(redealt.legal_actions()[0])
    with pytest.raises(ValueError, match="not set up as the arena deals it"):
        _core._arena_game_counts(0, redealt, [0] * 4, [0] * 4, [0] * 4, **one_round)
    unfinished = ys.Game("4p", "advanced", deal_seed, max_rounds=2)
    with pytest.raises(ValueError, match="not over"):
        _core._arena_game_counts(0, unfinished, [0] * 4, [0] * 4, [0] * 4, **args)
    with pytest.raises(ValueError, match="not within"):
        _core._arena_setup(4, **args)
