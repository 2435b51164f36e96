"""Writes the pictures of docs/pictures.md into docs/pictures/:

    python scripts/doc_pictures.py             # table_4p.png, seat_view_4p.png, table_seal.png
    python scripts/doc_pictures.py --browser   # also replay_viewer.png (needs the
                                               # `browser` extra and Chromium)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import yokai_septet as ys

OUT = os.path.join(os.path.dirname(__file__), "..", "docs", "pictures")


def random_game(variant: str, seed: int, actions: int) -> ys.Game:
    g = ys.Game(variant, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        g.step(int(rng.choice(g.legal_actions())))
    return g


def bot_game(variant: str, seed: int) -> ys.Game:
    g = ys.Game(variant, seed=seed, max_rounds=4)
    bots = [ys.Bot("heuristic", seed=seed + p) for p in range(g.num_players)]
    while g.phase != "over":
        g.step(bots[g.current_player].act(g))
    return g


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--browser", action="store_true", help="also screenshot the replay viewer")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    pictures = {
        "table_4p.png": random_game("4p", 7, 30).to_png(),
        "seat_view_4p.png": random_game("4p", 9, 2).to_png(seat=0),
        "table_seal.png": random_game("seal", 5, 150).to_png(),
    }
    for name, png in pictures.items():
        with open(os.path.join(OUT, name), "wb") as fh:
            fh.write(png)
    if args.browser:
        from playwright.sync_api import sync_playwright

        with tempfile.TemporaryDirectory() as tmp:
            record = os.path.join(tmp, "game.json")
            html = os.path.join(tmp, "game.html")
            with open(record, "w") as fh:
                fh.write(bot_game("4p", 5).record_json())
            script = shutil.which("yokai-septet") or os.path.join(
                os.path.dirname(sys.executable), "yokai-septet")
            subprocess.run([script, "replay", record, "--html", html], check=True)
            with sync_playwright() as p:
                chromium = os.environ.get("YS_CHROMIUM") or shutil.which("chromium")
                b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                page = b.new_page(viewport={"width": 1400, "height": 800})
                page.goto("file://" + html)
                for _ in range(7):
                    page.keyboard.press("ArrowRight")
                page.select_option("#seat", "1")
                page.screenshot(path=os.path.join(OUT, "replay_viewer.png"))
                b.close()


if __name__ == "__main__":
    main()
