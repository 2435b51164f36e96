"""A CleanRL-style masked PPO loop (one file, no framework) on ``yokai_septet.VectorEnv``,
used directly as a ``gymnasium.vector.VectorEnv``: the batch is stepped in Rust, the
legal-action masks come in ``infos["action_mask"]``, and illegal logits are masked out
before sampling.

    pip install ".[train]"
    python examples/cleanrl_ppo.py --total-steps 200000 --num-envs 64 --variant 4p

torch runs on ``--torch-threads`` threads (default 1): for a network this small, more
threads only contend with the environment's own (``--threads``) and with each other, and
on a busy 2-core machine the default torch setting (one thread per core) runs many times
slower.

The learner plays seat 0 of 4-player single rounds (``--episode round``, the default) or
whole games (``--episode game``, cut after ``--max-rounds`` rounds if given) against
``--opponents`` bots, with ``reward_mode="points"``. Every ``--num-steps`` steps of all
envs make one rollout; GAE, then ``--epochs`` epochs of clipped PPO on minibatches.
Episodes reset in the same step (the loop asks for ``autoreset_mode="same_step"``; the
VectorEnv's default is gymnasium's ``NEXT_STEP``): a
step with ``terminated | truncated`` ends its episode, and the next observation already
starts the next one, so the value of that next observation is never bootstrapped into it.
A game the round cap cut (``truncated``) did not end by the rules, though: its step's
reward gets ``gamma * V(last observation)``, read from ``infos["final_obs"]``
(:func:`truncation_bonus`), as Stable-Baselines3 does.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn as nn

import yokai_septet as ys


class Agent(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, num_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor, action=None):
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.v(self.body(obs)).squeeze(-1)


def truncation_bonus(agent: Agent, truncated: np.ndarray, info: dict,
                     gamma: float) -> torch.Tensor:
    """``gamma * V(last observation)`` for each env whose game the round cap cut on this
    step, 0 elsewhere: the game would have gone on, so its value is bootstrapped. The last
    observation is ``info["final_obs"][i]`` (the returned one starts the next game)."""
    bonus = torch.zeros(len(truncated))
    cut = np.flatnonzero(truncated)
    if cut.size:
        last = torch.as_tensor(np.stack(info["final_obs"][cut]), dtype=torch.float32)
        with torch.no_grad():
            bonus[cut] = gamma * agent.value(last)
    return bonus


def train(total_steps: int = 100_000, num_envs: int = 64, num_steps: int = 32,
          epochs: int = 4, minibatches: int = 4, lr: float = 3e-4, gamma: float = 0.99,
          lam: float = 0.95, clip: float = 0.2, opponents: str = "random",
          seed: int = 0, threads: int | None = None, variant: str = "4p",
          episode: str = "round", max_rounds: int | None = None,
          torch_threads: int = 1, log_seconds: float = 0) -> dict:
    """Trains; returns ``{"updates", "episodes", "truncated", "mean_return_first",
    "mean_return_last", "steps_per_second"}`` (``truncated``: the episodes the round cap
    cut; mean episode return over the first and last quarter of the finished episodes).
    Prints a progress line with an ETA every ``log_seconds`` seconds (0: never)."""
    torch.set_num_threads(torch_threads)
    torch.manual_seed(seed)
    envs = ys.VectorEnv(num_envs, variant, seed=seed, episode=episode, max_rounds=max_rounds,
                        learner_seat=0, opponents=opponents, reward_mode="points",
                        obs_dtype="uint8", num_threads=threads, autoreset_mode="same_step")
    n_obs = envs.single_observation_space.shape[0]
    n_act = envs.single_action_space.n
    agent = Agent(n_obs, n_act)
    opt = torch.optim.Adam(agent.parameters(), lr=lr, eps=1e-5)

    obs_buf = torch.zeros((num_steps, num_envs, n_obs))
    mask_buf = torch.zeros((num_steps, num_envs, n_act), dtype=torch.bool)
    act_buf = torch.zeros((num_steps, num_envs), dtype=torch.long)
    logp_buf = torch.zeros((num_steps, num_envs))
    rew_buf = torch.zeros((num_steps, num_envs))
    done_buf = torch.zeros((num_steps, num_envs))
    val_buf = torch.zeros((num_steps, num_envs))

    obs, info = envs.reset(seed=seed)
    ep_return = np.zeros(num_envs)
    returns: list[float] = []
    truncated = 0
    updates = max(1, total_steps // (num_envs * num_steps))
    t0 = time.perf_counter()
    log = ys.ProgressLog(f"ppo {variant}", updates * num_envs * num_steps,
                         every=log_seconds) if log_seconds else None
    for u in range(updates):
        for t in range(num_steps):
            if log is not None:
                log.update((u * num_steps + t) * num_envs,
                           return_last_100=float(np.mean(returns[-100:])) if returns else float("nan"))
            o = torch.as_tensor(obs, dtype=torch.float32)
            m = torch.as_tensor(info["action_mask"])
            with torch.no_grad():
                a, logp, _, v = agent(o, m)
            obs_buf[t], mask_buf[t], act_buf[t], logp_buf[t], val_buf[t] = o, m, a, logp, v
            obs, r, term, trunc, info = envs.step(a.numpy())
            done = term | trunc
            rew_buf[t] = torch.as_tensor(r) + truncation_bonus(agent, trunc, info, gamma)
            truncated += int(trunc.sum())
            done_buf[t] = torch.as_tensor(done, dtype=torch.float32)
            ep_return += r
            returns.extend(ep_return[done].tolist())
            ep_return[done] = 0
        with torch.no_grad():
            next_v = agent(torch.as_tensor(obs, dtype=torch.float32),
                           torch.as_tensor(info["action_mask"]))[3]
        adv = torch.zeros_like(rew_buf)
        last = torch.zeros(num_envs)
        for t in reversed(range(num_steps)):
            nv = next_v if t == num_steps - 1 else val_buf[t + 1]
            nonterminal = 1.0 - done_buf[t]
            delta = rew_buf[t] + gamma * nv * nonterminal - val_buf[t]
            last = delta + gamma * lam * nonterminal * last
            adv[t] = last
        ret = adv + val_buf
        b = dict(obs=obs_buf.reshape(-1, n_obs), mask=mask_buf.reshape(-1, n_act),
                 act=act_buf.reshape(-1), logp=logp_buf.reshape(-1), adv=adv.reshape(-1),
                 ret=ret.reshape(-1))
        size = num_envs * num_steps
        for _ in range(epochs):
            for idx in torch.randperm(size).chunk(minibatches):
                _, logp, ent, v = agent(b["obs"][idx], b["mask"][idx], b["act"][idx])
                ratio = (logp - b["logp"][idx]).exp()
                a_ = b["adv"][idx]
                a_ = (a_ - a_.mean()) / (a_.std() + 1e-8)
                pg = torch.max(-a_ * ratio, -a_ * ratio.clamp(1 - clip, 1 + clip)).mean()
                loss = pg + 0.5 * ((v - b["ret"][idx]) ** 2).mean() - 0.01 * ent.mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
    if log is not None:
        log.close(updates * num_steps * num_envs)
    q = max(1, len(returns) // 4)
    return {
        "updates": updates,
        "episodes": len(returns),
        "truncated": truncated,
        "mean_return_first": float(np.mean(returns[:q])) if returns else float("nan"),
        "mean_return_last": float(np.mean(returns[-q:])) if returns else float("nan"),
        "steps_per_second": updates * num_envs * num_steps / (time.perf_counter() - t0),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=ys.VARIANTS)
    ap.add_argument("--total-steps", type=int, default=200_000)
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--num-steps", type=int, default=32)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--episode", default="round", choices=["round", "game"])
    ap.add_argument("--max-rounds", type=int, default=None,
                    help="cut games after this many rounds (truncated, bootstrapped)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None, help="VectorEnv threads (default: all cores)")
    ap.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = ap.parse_args()
    out = train(args.total_steps, args.num_envs, args.num_steps, opponents=args.opponents,
                seed=args.seed, threads=args.threads, variant=args.variant,
                episode=args.episode, max_rounds=args.max_rounds,
                torch_threads=args.torch_threads, log_seconds=5)
    print(f"{out['steps_per_second']:,.0f} steps/s")
    for k, v in out.items():
        print(f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}")


if __name__ == "__main__":
    main()
