"""Prints docs/ladder.md's table of boards against games: for each arena report given
(the JSON of ``yokai-septet arena --json``), the first entry's win rate with its Wilson
half-width over games, the board win share with its paired half-width over boards, and
how many boards the paired interval needs to be as narrow as the Wilson interval of the
games played (``boards · (paired / Wilson)²``); then the same for the points margin,
as a z score (mean over its standard error).

    python scripts/board_power.py REPORT.json [REPORT.json ...]
"""

import json
import sys


def row(path: str) -> str:
    with open(path) as f:
        report = json.load(f)
    s = report["summary"]
    e = s["entries"][0]
    games, boards = s["games"], s["boards"]
    wilson = (e["ci95"][1] - e["ci95"][0]) / 2
    w = e["board_win_rate"]
    paired = (w["ci95"][1] - w["ci95"][0]) / 2
    needed = boards * (paired / wilson) ** 2
    m = e["board_margin"]
    z = m["mean"] / ((m["ci95"][1] - m["ci95"][0]) / 2 / 1.96)
    unit = "rounds" if s["rounds"] else "games"
    bots = " vs ".join(f"`{x['bot']}`" for x in s["entries"])
    return (
        f"| {bots} | {games} {unit} | {100 * e['win_rate']:.1f}% ±{100 * wilson:.1f} "
        f"| {boards} | {100 * w['mean']:.1f}% ±{100 * paired:.1f} "
        f"| {needed:.0f} ({needed * s['board_size']:.0f} {unit}) "
        f"| {games / (needed * s['board_size']):.2f}× "
        f"| {m['mean']:+.2f} ±{(m['ci95'][1] - m['ci95'][0]) / 2:.2f} (z {z:.1f}) |"
    )


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(
        "| question | played | win% ±Wilson | boards | board win% ±paired "
        "| boards for the Wilson width | fewer games | margin ±paired |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        print(row(path))


if __name__ == "__main__":
    main()
