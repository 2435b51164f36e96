"""Train a small masked PPO agent against the built-in heuristic bots with
``yokai_septet.VectorEnv`` (learner-vs-bots mode), then evaluate it against ``random``
and ``heuristic`` tables and plot its learning curve.

    pip install ".[examples]"          # torch, matplotlib (and sb3-contrib)
    python examples/train_selfplay.py --minutes 8 --threads 2

The learner sits at a random seat of a ``4p`` table; the other three seats (its partner
included) are bots. Training episodes are single rounds (reward +1 / -1 for the round's
result, so credit assignment is short); evaluation plays whole games (to 7 points) with
the greedy policy at tables of ``random`` and of ``heuristic`` bots:

- vs random: learner + random partner against two random bots. A random learner wins
  about 50%; anything clearly above is skill.
- vs heuristic: learner + heuristic partner against two heuristic bots. A heuristic
  learner would win 50% (by symmetry); a random learner much less. Closing the gap
  towards 50% is the measure of progress.

Writes ``learning_curve.png`` and ``train_result.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn

import yokai_septet as ys


class Policy(nn.Module):
    """A shared MLP trunk with a masked policy head and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, num_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def make_env(num_envs: int, opponents: str, seed: int, episode: str, threads: int):
    return ys.VectorEnv(
        num_envs,
        variant="4p",
        seed=seed,
        episode=episode,
        max_rounds=30,
        learner_seat=None,
        opponents=opponents,
        reward_mode="win",
        num_threads=threads,
    )


@torch.no_grad()
def evaluate(policy, opponents: str, games: int, threads: int, seed: int = 12345) -> float:
    """Greedy policy (``policy=None``: uniformly random) at a table of ``opponents``;
    returns the share of whole games won (truncated games count as not won)."""
    env = make_env(min(games, 100), opponents, seed, "game", threads)
    obs, info = env.reset()
    rng = np.random.default_rng(seed)
    wins = done = 0
    while done < games:
        mask = info["action_mask"]
        if policy is None:
            a = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        else:
            logits, _ = policy(torch.from_numpy(obs), torch.from_numpy(mask))
            a = logits.argmax(-1).numpy()
        obs, r, term, trunc, info = env.step(a)
        ended = term | trunc
        wins += int((r[ended] > 0).sum())
        done += int(ended.sum())
    return wins / done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=8.0, help="training time budget")
    ap.add_argument("--threads", type=int, default=2, help="torch and env threads")
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--steps", type=int, default=32, help="rollout length per env")
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--eval-every", type=float, default=1.0, help="minutes between evaluations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="train_out")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    env = make_env(args.envs, "heuristic", args.seed, "round", args.threads)
    obs, info = env.reset()
    policy = Policy(obs.shape[1], env.single_action_space_n)
    opt = torch.optim.Adam(policy.parameters(), lr=5e-4)
    N, T = args.envs, args.steps
    gamma, lam, clip, epochs, minibatch = 1.0, 0.95, 0.2, 4, 1024

    curve = []

    def log_eval(elapsed: float, steps: int, pol) -> None:
        row = {
            "minutes": round(elapsed / 60, 2),
            "decisions": steps,
            "vs_random": evaluate(pol, "random", args.eval_games, args.threads),
            "vs_heuristic": evaluate(pol, "heuristic", args.eval_games, args.threads),
        }
        curve.append(row)
        print(json.dumps(row), flush=True)

    baseline = {
        "random_policy_vs_random": evaluate(None, "random", args.eval_games, args.threads),
        "random_policy_vs_heuristic": evaluate(None, "heuristic", args.eval_games, args.threads),
    }
    print("baseline", json.dumps(baseline), flush=True)
    start = time.time()
    log_eval(0.0, 0, policy)
    last_eval, steps, budget = start, 0, args.minutes * 60
    while time.time() - start < budget:
        b_obs = torch.zeros((T, N, obs.shape[1]))
        b_mask = torch.zeros((T, N, env.single_action_space_n), dtype=torch.bool)
        b_act = torch.zeros((T, N), dtype=torch.long)
        b_logp, b_val, b_rew, b_done = (torch.zeros((T, N)) for _ in range(4))
        with torch.no_grad():
            for t in range(T):
                o, m = torch.from_numpy(obs), torch.from_numpy(info["action_mask"])
                logits, v = policy(o, m)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
                b_obs[t], b_mask[t], b_act[t] = o, m, a
                b_logp[t], b_val[t] = dist.log_prob(a), v
                obs, r, term, trunc, info = env.step(a.numpy())
                b_rew[t] = torch.from_numpy(r)
                b_done[t] = torch.from_numpy((term | trunc).astype(np.float32))
            _, next_v = policy(torch.from_numpy(obs), torch.from_numpy(info["action_mask"]))
        steps += T * N
        # GAE over the rollout; an episode end cuts the bootstrap.
        adv = torch.zeros((T, N))
        gae = torch.zeros(N)
        for t in reversed(range(T)):
            nv = next_v if t == T - 1 else b_val[t + 1]
            nonterm = 1.0 - b_done[t]
            delta = b_rew[t] + gamma * nv * nonterm - b_val[t]
            gae = delta + gamma * lam * nonterm * gae
            adv[t] = gae
        ret = adv + b_val
        f = lambda x: x.reshape(T * N, *x.shape[2:])  # noqa: E731
        o, m, a, lp, ad, rt = map(f, (b_obs, b_mask, b_act, b_logp, adv, ret))
        ad = (ad - ad.mean()) / (ad.std() + 1e-8)
        for _ in range(epochs):
            for idx in torch.randperm(T * N).split(minibatch):
                logits, v = policy(o[idx], m[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(a[idx]) - lp[idx]).exp()
                pg = -torch.min(ratio * ad[idx], ratio.clamp(1 - clip, 1 + clip) * ad[idx]).mean()
                vf = (v - rt[idx]).pow(2).mean()
                loss = pg + 0.5 * vf - 0.01 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        if time.time() - last_eval > args.eval_every * 60:
            log_eval(time.time() - start, steps, policy)
            last_eval = time.time()
    train_minutes = (time.time() - start) / 60
    if curve[-1]["decisions"] != steps:
        log_eval(time.time() - start, steps, policy)

    result = {"baseline": baseline, "curve": curve, "train_minutes": round(train_minutes, 2),
              "decisions": steps, "eval_games": args.eval_games}
    with open(os.path.join(args.out, "train_result.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    torch.save(policy.state_dict(), os.path.join(args.out, "policy.pt"))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        x = [c["minutes"] for c in curve]
        plt.figure(figsize=(6, 4))
        plt.plot(x, [c["vs_random"] for c in curve], "o-", label="learner vs random table")
        plt.plot(x, [c["vs_heuristic"] for c in curve], "o-", label="learner vs heuristic table")
        plt.axhline(baseline["random_policy_vs_heuristic"], ls=":", c="grey",
                    label="random policy vs heuristic table")
        plt.axhline(0.5, ls="--", c="k", lw=0.8, label="parity (heuristic learner: 0.5)")
        plt.xlabel("training minutes")
        plt.ylabel(f"game win rate ({args.eval_games} games, greedy)")
        plt.ylim(0, 1)
        plt.legend(fontsize=8)
        plt.title("Yokai Septet 4p: masked PPO vs built-in bots")
        plt.tight_layout()
        plt.savefig(os.path.join(args.out, "learning_curve.png"), dpi=120)
    except ImportError:
        print("matplotlib not installed: no plot")
    print(json.dumps({"final": curve[-1], "baseline": baseline, "train_minutes": result["train_minutes"]}))


if __name__ == "__main__":
    main()
