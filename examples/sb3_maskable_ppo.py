"""The Gymnasium environment ``YokaiSeptet-v0`` with sb3-contrib's ``MaskablePPO``.

    pip install ".[train]"         # see docs/training.md for the CPU-only torch install
    python examples/sb3_maskable_ppo.py --timesteps 200000

``YokaiSeptetEnv`` exposes ``action_masks()``, which ``MaskablePPO`` calls before every
step, so the agent only ever picks legal cards (passing picks included). The learner sits
at a ``4p`` table of ``heuristic`` bots and trains on single-round episodes.

The script evaluates the untrained policy first and the trained one at the end, on the
same games, so a run shows whether it learned. The default budget (20,000 steps) only
shows the wiring; docs/training.md says which budget shows learning. torch runs on one
thread by default (``--torch-threads``): on a small machine the environment needs a core
too. ``--variant`` picks the table.
"""

from __future__ import annotations

import argparse
import time

import gymnasium

import yokai_septet  # noqa: F401  (registers YokaiSeptet-v0)


def win_rate(model, opponents: str, games: int, seed: int = 1000, variant: str = "4p") -> float:
    env = gymnasium.make("YokaiSeptet-v0", variant=variant, episode="game", max_rounds=30,
                         learner_seat=None, opponents=opponents)
    wins = 0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, term, trunc, info = env.step(int(action))
            done = term or trunc
        wins += reward > 0
    return wins / games


def progress_callback(total: int):
    """An SB3 callback that prints a progress line with an ETA every 5 seconds (SB3 says
    nothing while it learns with ``verbose=0``)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def _on_training_start(self) -> None:
            self.log = yokai_septet.ProgressLog("MaskablePPO", total)

        def _on_step(self) -> bool:
            self.log.update(self.num_timesteps)
            return True

        def _on_training_end(self) -> None:
            self.log.close()

    return Progress()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=yokai_septet.VARIANTS)
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=100, help="evaluation games per table")
    ap.add_argument("--torch-threads", "--threads", dest="torch_threads", type=int, default=1,
                    help="torch CPU threads (default 1)")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.torch_threads)
    env = gymnasium.make("YokaiSeptet-v0", variant=args.variant, episode="round", learner_seat=None,
                         opponents="heuristic", reward_mode="win")
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=0, verbose=0)
    before = {opp: win_rate(model, opp, args.games, variant=args.variant) for opp in ("random", "heuristic")}
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=progress_callback(args.timesteps))
    minutes = (time.perf_counter() - start) / 60
    print(f"MaskablePPO, {args.timesteps} steps in {minutes:.1f} min "
          f"({args.timesteps / 60 / max(minutes, 1e-9):.0f} steps/s)")
    for opp in ("random", "heuristic"):
        print(f"  game win rate vs a {opp} table: untrained {before[opp]:.2f}, "
              f"trained {win_rate(model, opp, args.games, variant=args.variant):.2f} ({args.games} games)")


if __name__ == "__main__":
    main()
