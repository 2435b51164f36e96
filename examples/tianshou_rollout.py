"""Masked rollouts with Tianshou 2: ``tianshou.env.PettingZooEnv`` over ``yokai_septet.env``,
stepped as a vectorized env (``DummyVectorEnv``, or ``SubprocVectorEnv`` across processes)
by a ``Collector``, every seat played by Tianshou's masked random policy through its
``MultiAgentPolicy``.

    pip install -e '.[frameworks]'
    python examples/tianshou_rollout.py --envs 16 --steps 20000

Tianshou's PettingZoo wrapper reads PettingZoo's ``observation`` / ``action_mask`` keys
(the env's defaults) and hands policies ``obs.obs``, ``obs.mask`` and ``obs.agent_id``.
Swap a learning algorithm's policy in for one seat's random policy to train it; evaluate
the result with ``yokai_septet.evaluate``.
"""

from __future__ import annotations

import argparse
import time

import yokai_septet as ys


def make_collector(envs: int, variant: str, subprocess: bool = False):
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv, SubprocVectorEnv

    def make():
        return PettingZooEnv(ys.env(variant=variant, max_rounds=3))

    vec = (SubprocVectorEnv if subprocess else DummyVectorEnv)([make for _ in range(envs)])
    one = make()
    policy = MultiAgentPolicy({
        agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm(one.action_space).policy
        for agent in one.agents
    })
    buffer = VectorReplayBuffer(20_000, buffer_num=envs)
    return Collector(policy, vec, buffer), buffer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=ys.VARIANTS)
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--subprocess", action="store_true", help="SubprocVectorEnv")
    ap.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)  # one per core contends with the env's threads
    collector, _ = make_collector(args.envs, args.variant, args.subprocess)
    collector.reset()
    t = time.perf_counter()
    stats = collector.collect(n_step=args.steps)
    dt = time.perf_counter() - t
    print(f"{stats.n_collected_steps} masked steps and {stats.n_collected_episodes} episodes "
          f"in {dt:.1f} s: {stats.n_collected_steps / dt:,.0f} steps/s")


if __name__ == "__main__":
    main()
