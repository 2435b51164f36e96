"""Masked rollouts with TorchRL: ``torchrl.envs.PettingZooWrapper(use_mask=True)`` over the
``yokai_septet`` AEC env, stepped one env at a time or batched (``SerialEnv`` in this
process, ``ParallelEnv`` across processes), with random actions drawn inside each agent's
action mask by a policy that reads ``(group, "action_mask")``.

    pip install -e '.[frameworks]'
    python examples/torchrl_rollout.py --envs 8 --steps 200

With ``use_mask=True`` TorchRL puts in the tensordict each agent's ``mask`` (whether it
acts now) beside its ``action_mask`` (its legal cards, all 0 when it does not act); a
policy masks its logits with ``action_mask``, like :func:`masked_random_policy` here. Agents are grouped one per group, as TorchRL does for
AEC envs, and only the agent to move acts.
"""

from __future__ import annotations

import argparse
import time

import yokai_septet as ys


def make_env(variant: str = "4p"):
    from torchrl.envs import PettingZooWrapper

    return PettingZooWrapper(ys.env(variant=variant, max_rounds=3), use_mask=True)


def masked_random_policy(group_map):
    """A TorchRL policy (tensordict in, tensordict out) that picks a uniformly random
    legal card for every agent, from its ``(group, "action_mask")``."""
    import torch

    def policy(td):
        for group in group_map:
            mask = td[group, "action_mask"].bool()
            logits = torch.zeros(mask.shape).masked_fill(~mask, float("-inf"))
            # Agents not to move have an all-False mask: any action, it is ignored.
            logits[~mask.any(-1)] = 0.0
            td[group, "action"] = torch.distributions.Categorical(logits=logits).sample()
        return td

    return policy


def batched(envs: int, variant: str, processes: bool = False):
    from torchrl.envs import ParallelEnv, SerialEnv

    return (ParallelEnv if processes else SerialEnv)(envs, lambda: make_env(variant))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=ys.VARIANTS)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--steps", type=int, default=200, help="steps per env")
    ap.add_argument("--processes", action="store_true", help="ParallelEnv")
    ap.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.torch_threads)  # one per core contends with the env's threads
    groups = make_env(args.variant).group_map
    env = batched(args.envs, args.variant, args.processes)
    t = time.perf_counter()
    td = env.rollout(args.steps, masked_random_policy(groups),
                     break_when_any_done=False)
    dt = time.perf_counter() - t
    steps = args.envs * args.steps
    print(f"rollout {tuple(td.batch_size)}: {steps} masked steps in {dt:.1f} s, "
          f"{steps / dt:,.0f} steps/s")
    env.close()


if __name__ == "__main__":
    main()
