"""PPO with action masking in RLlib, on the PettingZoo env and a local Ray instance, then
the trained module evaluated in the duplicate-deal arena.

    pip install -e '.[frameworks]'      # ray[rllib], torch, torchrl, tianshou, open-spiel
    python examples/rllib_ppo_masked.py --iterations 20

Two options of ``yokai_septet.env`` make it plain RLlib, with no subclass:

- ``observation_key="observations"``: the observation dict is ``{"observations",
  "action_mask"}``, what RLlib's ``ActionMaskingTorchRLModule`` reads;
- ``illegal_action="lose"`` (the default, spelt out): RLlib's environment pre-check steps
  unmasked random actions; such an action ends the game (the offender gets -1) instead of
  raising.

All four seats share one policy (``"shared"``). Episodes are single rounds with
``reward_mode="points"`` (dense and zero-sum). After training, the module's greedy
masked policy is a batched policy for :func:`yokai_septet.evaluate`, and plays
``--eval-games`` duplicate games against the ``random`` and ``heuristic`` bots.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import yokai_septet as ys


def make_env(config: dict):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(ys.env(
        variant=config.get("variant", "4p"),
        episode="round",
        reward_mode="points",
        observation_key="observations",
        illegal_action="lose",
    ))


def build_algo(variant: str, batch: int, minibatch: int, epochs: int, seed: int):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env("yokai_septet", make_env)
    config = (
        PPOConfig()
        .environment("yokai_septet", env_config={"variant": variant})
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [128, 128]},
                    )
                }
            )
        )
        .env_runners(num_env_runners=0, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=3e-4)
        .debugging(seed=seed)
    )
    return config.build_algo()


class RLlibPolicy:
    """The trained module's greedy masked action: a batched policy for ys.evaluate."""

    def __init__(self, module, name: str = "rllib-ppo") -> None:
        self.module = module
        self.name = name

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        import torch
        from ray.rllib.core.columns import Columns

        with torch.no_grad():
            out = self.module.forward_inference({Columns.OBS: {
                "observations": torch.from_numpy(observations),
                "action_mask": torch.from_numpy(masks.astype(np.float32)),
            }})
        logits = out[Columns.ACTION_DIST_INPUTS].numpy()
        return np.where(masks, logits, -np.inf).argmax(axis=1)


def main() -> None:
    import ray

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=ys.VARIANTS)
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    ap.add_argument("--minibatch", type=int, default=500)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)  # one per core contends with the env's threads

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        algo = build_algo(args.variant, args.batch, args.minibatch, args.epochs, args.seed)
        t0 = time.perf_counter()
        # An iteration takes a few seconds here: a line (with its ETA) after each.
        progress = ys.ProgressLog("rllib ppo", args.iterations, unit="iteration", every=0)
        for i in range(args.iterations):
            r = algo.train()
            # Every seat plays the shared module and rewards are zero-sum, so the summed
            # episode return is always 0: report sampling and the learner's loss instead.
            runners = r.get("env_runners", {})
            learner = r.get("learners", {}).get("shared", {})
            print(f"iteration {i + 1}: "
                  f"{runners.get('num_env_steps_sampled_lifetime', 0):.0f} env steps, "
                  f"{runners.get('num_episodes_lifetime', 0):.0f} episodes, "
                  f"total loss {learner.get('total_loss', float('nan')):.4f}, "
                  f"{time.perf_counter() - t0:.0f} s, "
                  f"{runners.get('num_env_steps_sampled_lifetime', 0) / (time.perf_counter() - t0):,.0f} steps/s")
            progress.update(i + 1)
        policy = RLlibPolicy(algo.get_module("shared"))
        for opponent in ("random", "heuristic"):
            s = ys.evaluate([policy, opponent], args.variant, args.eval_games, seed=args.seed)
            me = s["entries"][0]
            lo, hi = me["ci95"]
            print(f"rllib-ppo vs {opponent}: win rate {me['win_rate']:.3f} "
                  f"(95% CI {lo:.3f}-{hi:.3f}), Elo {me['elo']:+.0f}, {s['games']} games")
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
