"""Decisions per second of ``ys.evaluate`` with Python agents, next to the Rust arena on
the same line-up shape, in one run (not a test).

    python benches/evaluate_speed.py [--games G] [--repeat R]

Rows (4p, 100-round cap, duplicate deals, one side played by the agent, the other by the
built-in ``random`` bot): the Rust arena with the ``heuristic`` bot on one thread (no
Python in the loop); ``ys.evaluate`` with an ``act(game)`` object wrapping the same bot;
``ys.evaluate`` with a numpy batched policy (the lowest legal card) at several batch
sizes. Each row is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import time

import yokai_septet as ys
from compare_peers import machine_line  # benches/, beside this script


class HeuristicByAct:
    name = "heuristic via act(game)"

    def __init__(self) -> None:
        self.bot = ys.Bot("heuristic")

    def act(self, game):
        return self.bot.act(game)


def lowest_legal(observations, masks):
    return masks.argmax(axis=1)


def timed(fn, repeat: int) -> float:
    """Best decisions/s of ``repeat`` runs of ``fn() -> summary``."""
    best = 0.0
    for _ in range(repeat):
        t = time.perf_counter()
        s = fn()
        best = max(best, s["decisions"] / (time.perf_counter() - t))
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    g, r = args.games, args.repeat
    rows = [("Rust arena, heuristic vs random, 1 thread",
             timed(lambda: ys.arena(["heuristic", "random"], "4p", g, threads=1), r))]
    rows.append(("ys.evaluate, act(game) object (heuristic bot) vs random",
                 timed(lambda: ys.evaluate([HeuristicByAct(), "random"], "4p", g), r)))
    for b in (1, 16, 256):
        rows.append((f"ys.evaluate, batched numpy policy vs random, batch_size={b}",
                     timed(lambda: ys.evaluate([lowest_legal, "random"], "4p", g,
                                               batch_size=b), r)))
    print(f"\n{machine_line()}, {g} games per run, best of {r}\n")
    print("| path | decisions/s | ratio to the Rust arena |")
    print("|---|---:|---:|")
    for what, x in rows:
        print(f"| {what} | {x:,.0f} | {x / rows[0][1]:.3f} |")


if __name__ == "__main__":
    main()
