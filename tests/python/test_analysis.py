"""Exact values with every hand visible (``Game.solve``, ``Game.solve_moves``) and the
double-dummy analysis of a record (``yokai_septet.analyze``, ``yokai-septet analyze``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading

import pytest

import yokai_septet as ys

SCRIPT = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable), "yokai-septet")


def late_position(seed: int, cards: int = 3) -> ys.Game:
    """A 4p round between heuristic bots, stopped once the player to move holds at most
    ``cards`` cards."""
    for s in range(seed, seed + 50):
        g = ys.Game("4p", seed=s, episode="round")
        bots = [ys.Bot("heuristic", seed=s + p) for p in range(4)]
        while g.phase != "over":
            if g.phase == "play" and len(g.hand(g.current_player)) <= cards:
                return g
            g.step(bots[g.current_player].act(g))
    raise AssertionError("no round lasted that long")


def minimax(g: ys.Game, root: int) -> int:
    """Plain minimax to the round's end through ``Game.step``, scored from the record's
    round result as the solver's objective defines it (docs/search.md): 2 x (root's round
    points - the most of an opponent's) + 1 if root's team won the round, else - 1."""
    result = g.record()["rounds"][0]["result"]
    if result is not None:
        pts = result["points"]
        theirs = max(pts[p] for p in range(4) if p % 2 != root % 2)
        won = 1 if root in result["winners"] else -1
        return 2 * (pts[root] - theirs) + won
    ours = g.current_player % 2 == root % 2
    values = []
    for a in g.legal_actions():
        h = g.clone()
        h.step(a)
        values.append(minimax(h, root))
    return max(values) if ours else min(values)


@pytest.mark.parametrize("seed", [0, 7, 21])
def test_solve_moves_is_exact_by_plain_minimax(seed):
    g = late_position(seed)
    root = g.current_player
    values = g.solve_moves()
    assert sorted(values) == g.legal_actions()
    for card, v in values.items():
        h = g.clone()
        h.step(card)
        assert v == minimax(h, root), (card, values)
    assert g.solve() == max(values.values())
    # A round is won exactly when its value is positive (R7: +1 over a points lead that
    # is never negative for a winner, at most -1 for a loser).
    assert g.solve_win() == (g.solve() > 0)
    # Nothing changed: the position is still to be played.
    assert g.current_player == root and sorted(g.solve_moves()) == g.legal_actions()


def test_solve_outside_the_play_phase_is_a_value_error():
    g = ys.Game("4p", seed=1)
    assert g.phase == "pass"
    with pytest.raises(ValueError, match="passing phase"):
        g.solve()
    with pytest.raises(ValueError, match="passing phase"):
        g.solve_moves()
    with pytest.raises(ValueError, match="passing phase"):
        g.solve_win()
    g = ys.Game("seal-short", seed=1, episode="round")
    while g.phase != "over":
        g.step(g.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        g.solve()


def heuristic_record(variant: str, seed: int) -> dict:
    g = ys.Game(variant, seed=seed, max_rounds=2)
    bots = [ys.Bot("heuristic", seed=seed + p) for p in range(g.num_players)]
    while g.phase != "over":
        g.step(bots[g.current_player].act(g))
    return g.record()


@pytest.mark.parametrize("variant", ["4p", "3p", "seal", "seal-short"])
def test_analyze_scores_every_play_and_agrees_with_solve_moves(variant):
    rec = heuristic_record(variant, 3)
    a = ys.analyze(rec, budget=50_000)
    assert a["version"] == 2 and a["variant"] == variant and a["budget"] == 50_000
    assert a["point_of_view"].startswith("each value is for the side of the player who moved")
    plays = [c for r in rec["rounds"] for t in r["tricks"] for c in t["cards"]]
    assert [p["card"] for p in a["plays"]] == plays
    solved = [p for p in a["plays"] if p["status"] == "solved"]
    assert solved, "the last plays of a round are within any budget"
    for p in a["plays"]:
        if p["status"] == "solved":
            values = dict(p["values"])
            assert p["best"] == max(values.values())
            assert p["chosen"] == values[p["card"]]
            assert p["cost"] == p["best"] - p["chosen"]
            assert sorted(p["best_cards"]) == sorted(c for c, v in values.items() if v == p["best"])
        elif p["status"] == "estimated":
            # Over the budget: every legal card's value sampled, and why it is not exact.
            values = dict(p["values"])
            assert p["card"] in values and len(values) >= 2
            assert p["best"] == max(values.values())
            assert p["chosen"] == values[p["card"]]
            assert p["cost"] == pytest.approx(p["best"] - p["chosen"])
            assert sorted(p["best_cards"]) == sorted(c for c, v in values.items() if v == p["best"])
            assert p["forecast"] > 50_000 and p["worlds"] > 0 and p["nodes"] is None
        else:
            assert p["status"] == "forced" and p["cost"] == 0
    # The overall shares, as people quote them: each status's fraction of the plays.
    statuses = [p["status"] for p in a["plays"]]
    for status in ("solved", "forced", "estimated"):
        assert a["shares"][status] == pytest.approx(statuses.count(status) / len(statuses))
    assert sum(a["shares"].values()) == pytest.approx(1.0)
    assert a["shares"]["solved"] > 0
    for seat, t in enumerate(a["seats"]):
        mine = [p for p in solved if p["seat"] == seat]
        assert t["solved"] == len(mine)
        assert t["cost"] == sum(p["cost"] for p in mine)
        assert t["costly"] == sum(1 for p in mine if p["cost"] > 0)
    # The last solved play of round 0, replayed: Game.solve_moves gives the same values.
    last = max((p for p in solved if p["round"] == 0), key=lambda p: (p["trick"], p["index"]))
    g = ys.Game.from_deal(rec["rounds"][0]["hands"], rec["rounds"][0]["trump_card"], variant=variant,
                          scoring=rec["scoring"], seed=rec["seed"], max_rounds=rec.get("max_rounds"))
    for c in [c for ps in rec["rounds"][0]["passes"] for c in ps]:
        g.step(c)
    for t, trick in enumerate(rec["rounds"][0]["tricks"]):
        for i, c in enumerate(trick["cards"]):
            if (t, i) == (last["trick"], last["index"]):
                break
            g.step(c)
        else:
            continue
        break
    assert sorted(g.solve_moves().items()) == [tuple(v) for v in last["values"]]


def test_analyze_matches_the_command_line_json(tmp_path):
    rec = heuristic_record("4p", 5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    p = subprocess.run([SCRIPT, "analyze", str(path), "--budget", "50000", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", "no progress bar into a pipe"
    # The same data, the shares of solved, forced and estimated plays included.
    a = ys.analyze(json.dumps(rec), budget=50_000)
    assert set(a["shares"]) == {"solved", "forced", "estimated"}
    assert json.loads(p.stdout) == a


def test_analyze_leaves_no_play_unscored_at_the_default_budget():
    """Issue 60: at the default budget every play is solved, estimated or forced; the
    estimates are the same from run to run (their worlds are keyed by the seed)."""
    rec = heuristic_record("4p", 7)
    a = ys.analyze(rec)
    assert a["shares"]["estimated"] > 0, "a 4p round's first plays are over the default budget"
    assert "skipped" not in a["shares"]
    assert {p["status"] for p in a["plays"]} <= {"solved", "estimated", "forced"}
    assert all(p["values"] for p in a["plays"] if p["status"] != "forced")
    b = ys.analyze(json.dumps(rec))
    assert [p["values"] for p in a["plays"]] == [p["values"] for p in b["plays"]]


def test_analyze_refuses_bad_records_and_budgets():
    rec = heuristic_record("3p", 1)
    with pytest.raises(ValueError, match="budget"):
        ys.analyze(rec, budget=0)
    bad = json.loads(json.dumps(rec))
    bad["rounds"][0]["tricks"][0]["winner"] = (bad["rounds"][0]["tricks"][0]["winner"] + 1) % 3
    with pytest.raises(ValueError, match=r"rounds\[0\]\.tricks\[0\]\.winner"):
        ys.analyze(bad)
    with pytest.raises(ValueError, match="not valid JSON"):
        ys.analyze("{oops")
    with pytest.raises(TypeError):
        ys.analyze(rec, budget="many")


def test_analyze_releases_the_gil():
    rec = heuristic_record("4p", 2)
    ticks = 0
    done = threading.Event()

    def work():
        ys.analyze(rec, budget=300_000)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    t.join()
    # Held, the GIL would stop this loop for the whole analysis (tenths of a second).
    assert ticks > 10
