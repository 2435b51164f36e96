"""The Gymnasium environment ``YokaiSeptet-v0`` with sb3-contrib's ``MaskablePPO``
(a short run: a few thousand steps, to show the wiring).

    pip install ".[examples]"
    python examples/sb3_maskable_ppo.py --timesteps 20000

``YokaiSeptetEnv`` exposes ``action_masks()``, which ``MaskablePPO`` calls before every
step, so the agent only ever picks legal cards (passing picks included).
"""

from __future__ import annotations

import argparse

import gymnasium

import yokai_septet  # noqa: F401  (registers YokaiSeptet-v0)


def win_rate(model, opponents: str, games: int, seed: int = 1000) -> float:
    env = gymnasium.make("YokaiSeptet-v0", variant="4p", episode="game", max_rounds=30,
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timesteps", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=50, help="evaluation games per table")
    args = ap.parse_args()

    from sb3_contrib import MaskablePPO

    env = gymnasium.make("YokaiSeptet-v0", variant="4p", episode="round", learner_seat=None,
                         opponents="heuristic", reward_mode="win")
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=0, verbose=0)
    model.learn(total_timesteps=args.timesteps)
    for opp in ("random", "heuristic"):
        print(f"MaskablePPO after {args.timesteps} steps, game win rate vs {opp} table: "
              f"{win_rate(model, opp, args.games):.2f}")


if __name__ == "__main__":
    main()
