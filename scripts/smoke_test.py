"""A release smoke test: what a new user does first, against an installed yokai-septet.

Runs the README's Python quickstart, one VectorEnv step, one `nn` decision and the
command-line tool's `rules`, and prints one line per check. `--no-rust` also fails if cargo or rustc is on PATH, to prove that the
wheel needed no toolchain. Used by the release workflow and by `pytest -m wheels`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-rust", action="store_true", help="fail if cargo or rustc is on PATH")
    args = ap.parse_args()
    if args.no_rust:
        found = [tool for tool in ("cargo", "rustc") if shutil.which(tool)]
        if found:
            print(f"smoke: a Rust toolchain is on PATH ({', '.join(found)})", file=sys.stderr)
            return 1
        print("smoke: no cargo or rustc on PATH")

    import numpy as np

    import yokai_septet as ys

    print(f"smoke: yokai_septet {ys.__version__} from {ys.__file__}")

    # The README's quickstart.
    g = ys.Game(variant="4p", scoring="advanced", seed=0)
    bot = ys.Bot("heuristic", seed=1)
    while g.phase != "over":
        g.step(bot.act(g) if g.current_player != 0 else g.legal_actions()[0])
    assert g.winners, g.winners
    print(f"smoke: quickstart game over, winners {g.winners}, scores {g.scores}")

    # One VectorEnv step.
    v = ys.VectorEnv(8, "4p", seed=0, num_threads=2, self_play=True, obs_dtype="uint8")
    obs, info = v.reset(seed=0)
    actions = np.argmax(info["action_mask"], axis=1)
    obs, rewards, terminated, truncated, info = v.step(actions)
    assert obs.shape[0] == 8 and obs.dtype == np.uint8, (obs.shape, obs.dtype)
    print(f"smoke: VectorEnv step, observations {obs.shape} {obs.dtype}")

    # One decision of the shipped neural-network baseline.
    g = ys.Game(variant="4p", seed=3)
    card = ys.Bot("nn", seed=0).act(g)
    assert card in g.legal_actions(), card
    print(f"smoke: nn chose card {card}")

    # The command-line tool of the wheel: its built-in rules are the rules document (a
    # checkout that made the crate's link to docs/rules.md a file of the link's text would
    # build a tool that prints that text).
    rules = subprocess.run([sys.executable, "-m", "yokai_septet", "rules"],
                           capture_output=True, text=True, check=True).stdout
    assert "R10" in rules and len(rules) > 5000, rules[:200]
    print(f"smoke: yokai-septet rules, {len(rules.splitlines())} lines")
    print("smoke: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
