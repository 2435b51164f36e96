"""Decisions per second of the OpenSpiel wrapper (``python_yokai_septet``) next to
OpenSpiel's C++ ``hearts``, both stepped from Python the same way (not a test).

    python benches/openspiel_speed.py [--seconds S] [--repeat R] [--variant V]

Rows, measured in one run (each the best of ``--repeat`` runs of ``--seconds``): the plain
``Game`` loop (the engine without OpenSpiel), ``python_yokai_septet`` and ``hearts``
through pyspiel (random legal actions, chance nodes sampled from ``chance_outcomes``;
chance nodes are not decisions), and both with ``information_state_tensor`` read at every
decision, which is what learning algorithms do. Needs ``pip install -e '.[openspiel]'``.
"""

from __future__ import annotations

import argparse
import random
import time

import compare_peers  # benches/, beside this script
from compare_peers import fmt, machine_line, measure, spiel_python, ys_game_loop


def spiel_python_with_tensor(seconds: float, name: str, params: dict) -> float:
    """As ``spiel_python``, reading the acting player's information-state tensor before
    every decision."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = random.Random(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
    return n / (time.perf_counter() - t0)


def main() -> None:
    import yokai_septet.openspiel  # noqa: F401  (registers python_yokai_septet)

    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="4p")
    args = ap.parse_args()
    compare_peers.REPEAT = max(1, args.repeat)
    s, v = args.seconds, args.variant
    ours = f"python_yokai_septet(variant={v})"
    rows = [
        (f"yokai-septet {v}: Python `Game` loop (no OpenSpiel)",
         measure("Game loop", ys_game_loop, s, v)),
        (f"`{ours}`: pyspiel loop",
         measure("python_yokai_septet", lambda: _spiel(s, v))),
        ("`hearts` (C++): pyspiel loop", measure("hearts", spiel_python, s, "hearts")),
        (f"`{ours}`: pyspiel loop + information_state_tensor",
         measure("python_yokai_septet + tensor", spiel_python_with_tensor,
                 s, "python_yokai_septet", {"variant": v})),
        ("`hearts` (C++): pyspiel loop + information_state_tensor",
         measure("hearts + tensor", spiel_python_with_tensor, s, "hearts", {})),
    ]
    print(f"\n{machine_line()}, median of {compare_peers.REPEAT} runs of {s:g} s per row\n")
    print("| path | decisions/s | ratio to hearts, same loop |")
    print("|---|---:|---:|")
    hearts = {False: rows[2][1], True: rows[4][1]}
    for i, (what, r) in enumerate(rows):
        ref = hearts[i >= 3] if i >= 1 else None
        ratio = f"{r / ref:.2f}" if r and ref and i in (1, 3) else ""
        print(f"| {what} | {fmt(r)} | {ratio} |")


def _spiel(seconds: float, variant: str) -> float:
    """``spiel_python`` on python_yokai_septet with ``variant`` (loaded with parameters)."""
    import pyspiel

    game = pyspiel.load_game("python_yokai_septet", {"variant": variant})
    rng = random.Random(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        n += compare_peers._spiel_random_game(game.new_initial_state(), rng)
    return n / (time.perf_counter() - t0)


if __name__ == "__main__":
    main()
