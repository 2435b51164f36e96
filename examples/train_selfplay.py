"""Train a small masked PPO agent that plays *both seats of a team* against the built-in
bots with ``yokai_septet.VectorEnv`` (``self_play=True``), then plot its learning curve
and play a final arena-style evaluation against ``random`` and ``heuristic`` teams.

    pip install ".[train]"             # torch, matplotlib, sb3-contrib
    python examples/train_selfplay.py                # 4M decisions; --variant seal, seal-short
    python examples/train_selfplay.py --decisions 12M   # longer; --minutes 8: a time slot

The learner is a team, so the team variants (``4p``, ``seal``, ``seal-short``) are the
choices of ``--variant``; ``3p`` has no teams.

Training. ``--envs`` 4-player tables are stepped together in Rust. In every table one
team (seats {0,2} or {1,3}, alternating between tables) is the learner: whenever one of
its seats is to move, the shared policy decides from that seat's own observation (one
batched forward pass for all such tables); the other team's moves come from
``VectorEnv.bot_actions()``. So the learner never depends on a bot partner, and every
table yields data for two seats. Episodes are single rounds with ``reward_mode="points"``
(the round's points for the learner's team minus the other team's: dense, zero-sum, and
aligned with winning games to 7). Curriculum: the opponents are ``random`` bots for the
first ``--random-frac`` of the budget, then ``heuristic`` bots. Observations are
uint8 and become float once per batch. The PPO update uses GAE (gamma 1, lambda 0.95)
over each table's sequence of learner decisions; a table's decision still in flight when
a rollout ends is held back, bootstraps the decisions before it, and is trained in the
next rollout with its full return.

Evaluation (whole games to 7 points, greedy policy, ``--eval-games`` tables, the first
game of each table only, so that short games are not over-counted; half the tables seat
the learner as team 0, half as team 1; games stopped by the 30-round cap count as not
won):

- ``vs_random``: learner team (both seats) against a team of two ``random`` bots.
  A uniformly random learner wins about 50% here.
- ``vs_heuristic``: learner team against a team of two ``heuristic`` bots. A heuristic
  team would win 50% (by symmetry); a uniformly random team wins only a few percent.
  Closing in on 50% is the measure of progress.
- ``vs_baseline``: ``yokai_septet.models.evaluate_vs_baseline``: the learner against the
  shipped ``nn`` baseline on duplicate deals (``ys.evaluate``; 0.5 = as strong as it).

The script measures the random-policy baselines under exactly this evaluation at the
start, and plays a larger final evaluation (``--final-games``) at the end.

Budget. ``--decisions`` (default 4M; ``12M`` and ``500k`` are understood) counts the
learner's decisions, both seats in every table. The run stops after the first rollout
that reaches it (at most ``--envs`` x ``--steps`` decisions beyond), so the same command
and ``--seed`` train the same policy and draw the same curve (torch at one thread) on a
busy machine as on a quiet one. ``--minutes`` is a wall-clock slot instead (training
only, evaluation not counted): what it buys depends on the machine's load. The
curriculum switch and ``--eval-every`` are counted in the budget's unit. Wall and CPU
minutes are reported too.

The env steps on one thread and torch uses ``--torch-threads`` (default 1: env + torch = 2
threads). On a 2-core machine shared with another busy process, 2 torch threads were
~10x *slower* than 1 (thread contention), so keep the default there.

Writes ``learning_curve.png``, ``train_result.json`` and ``policy.pt`` into ``--out``.

Measured: the default command (4M decisions; curve points 400 games, final and baselines
2000), one torch + one env thread on a 2-core machine at load 7-12 shared with other
trainings and builds: 9.1 wall / 5.4 CPU minutes in all, 8,400 learner decisions/s:

    learner decisions    0   0.5M    1M  1.5M    2M  2.5M    3M  3.5M    4M
    vs random team     .53   .67   .74   .77   .74   .78   .80   .78   .77
    vs heuristic team  .03   .04   .07   .10   .15   .11   .13   .15   .15
    random policy: .49 vs the random team, .02 vs the heuristic team
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
from yokai_septet.models import evaluate_vs_baseline


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


VARIANT = "4p"  # set from --variant in main()
DEFAULT_DECISIONS = 4_000_000


def make_env(num_envs: int, opponents: str, seed: int, episode: str, reward: str):
    return ys.VectorEnv(
        num_envs,
        variant=VARIANT,
        seed=seed,
        episode=episode,
        max_rounds=30,
        self_play=True,
        opponents=opponents,
        reward_mode=reward,
        num_threads=1,
        obs_dtype="uint8",
        copy=False,
        autoreset_mode="same_step",  # every step a decision: no reset steps
    )


def count(text: str) -> int:
    """A positive whole count: ``12000000``, ``12_000_000``, ``12M`` or ``500k``."""
    scale = {"k": 10**3, "m": 10**6}.get(text[-1:].lower(), 1)
    n = float(text[:-1] if scale > 1 else text) * scale
    if not (1 <= n < 1e15 and n == int(n)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole count (e.g. 12M)")
    return int(n)


def minutes(text: str) -> float:
    """A positive number of minutes."""
    m = float(text)
    if not 0 < m < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of minutes")
    return m


def cpu_minutes() -> float:
    t = os.times()
    return (t.user + t.system) / 60


@torch.no_grad()
def evaluate(policy, opponents: str, games: int, seed: int = 12345) -> float:
    """Share of whole games won by the learner team (both seats played by ``policy``,
    greedy; ``policy=None``: uniformly random legal moves) against a team of
    ``opponents`` bots. Plays the first game of each of ``games`` tables."""
    env = make_env(games, opponents, seed, "game", "win")
    obs, info = env.reset()
    team = np.arange(games) % 2
    rng = np.random.default_rng(seed)
    result = np.zeros(games)  # +1 won, -1 lost, 0 not finished / truncated
    finished = np.zeros(games, dtype=bool)
    while not finished.all():
        mask = info["action_mask"]
        mine = (info["to_play"] & 1) == team
        a = env.bot_actions()
        idx = np.flatnonzero(mine & ~finished)
        if idx.size:
            if policy is None:
                score = rng.random((idx.size, mask.shape[1])) * mask[idx]
                a[idx] = score.argmax(1)
            else:
                o = torch.from_numpy(obs[idx]).float()
                logits, _ = policy(o, torch.from_numpy(mask[idx]))
                a[idx] = logits.argmax(-1).numpy()
        obs, r, term, trunc, info = env.step(a)
        ended = (term | trunc) & ~finished
        result[ended] = r[ended, team[ended]]
        finished |= ended
    return float((result > 0).mean())


def greedy(policy):
    """``policy`` as the batched ``policy(observations, masks) -> actions`` that
    ``yokai_septet.evaluate`` seats."""
    @torch.no_grad()
    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits, _ = policy(torch.from_numpy(obs).float(), torch.from_numpy(masks))
        return logits.argmax(-1).numpy()
    return act


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    budget_unit = ap.add_mutually_exclusive_group()
    budget_unit.add_argument("--decisions", type=count,
                             help=f"training budget in learner decisions (e.g. 12M, 500k; "
                                  f"default {DEFAULT_DECISIONS:,}): the same on any machine")
    budget_unit.add_argument("--minutes", type=minutes,
                             help="training budget in wall minutes instead (evaluation "
                                  "excluded): what it buys depends on the machine's load")
    ap.add_argument("--variant", default="4p", choices=("4p", "seal", "seal-short"))
    ap.add_argument("--torch-threads", "--threads", dest="torch_threads", type=int, default=1,
                    help="torch threads (the env steps on one more); 1 is best on busy 2 cores")
    ap.add_argument("--envs", type=int, default=512, help="tables stepped together")
    ap.add_argument("--steps", type=int, default=64, help="env steps per rollout")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--epochs", type=int, default=2, help="PPO epochs per rollout")
    ap.add_argument("--minibatch", type=int, default=2048)
    ap.add_argument("--reward", choices=["points", "win"], default="points",
                    help="round reward: points margin, or +1/-1 for the round")
    ap.add_argument("--random-frac", type=float, default=0.15,
                    help="share of the budget trained against random bots first")
    ap.add_argument("--eval-games", type=int, default=400, help="games per curve point")
    ap.add_argument("--final-games", type=int, default=2000, help="games of the final result")
    ap.add_argument("--eval-every",
                    help="budget between evaluations, in the budget's unit: decisions (e.g. "
                         "1M; default an eighth of the budget) or minutes (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="train_out")
    args = ap.parse_args()
    # The budget and everything scheduled along it (curriculum switch, evaluations) are
    # counted in one unit: learner decisions, or training seconds of a --minutes slot.
    by_decisions = args.minutes is None
    try:
        if by_decisions:
            budget = args.decisions = args.decisions or DEFAULT_DECISIONS
            every = count(args.eval_every) if args.eval_every else max(budget // 8, 1)
        else:
            budget = args.minutes * 60
            every = minutes(args.eval_every or "1") * 60
    except (argparse.ArgumentTypeError, ValueError) as e:
        ap.error(f"argument --eval-every: {e}")

    global VARIANT
    VARIANT = args.variant
    torch.set_num_threads(args.torch_threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    N, T = args.envs, args.steps
    envs = {o: make_env(N, o, args.seed + k, "round", args.reward)
            for k, o in enumerate(("random", "heuristic"))}
    A = envs["random"].single_action_space_n
    obs_size = envs["random"].observations.shape[1]
    policy = Policy(obs_size, A, args.hidden)
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)
    lam, clip = 0.95, 0.2
    rscale = 1 / 3 if args.reward == "points" else 1.0
    team = np.arange(N) % 2
    rows = np.arange(N)

    curve = []
    t0_wall, t0_cpu = time.time(), cpu_minutes()
    train_s = 0.0  # wall seconds spent training (a --minutes budget), evaluation excluded

    def log_eval(steps: int, games: int) -> dict:
        policy.eval()
        row = {
            "minutes": round(train_s / 60, 2),
            "wall_minutes": round((time.time() - t0_wall) / 60, 2),
            "cpu_minutes": round(cpu_minutes() - t0_cpu, 2),
            "decisions": steps,
            "vs_random": evaluate(policy, "random", games),
            "vs_heuristic": evaluate(policy, "heuristic", games),
            # Duplicate deals against the shipped baseline (the nn bot), as Pgx logs it.
            "vs_baseline": evaluate_vs_baseline(
                greedy(policy), VARIANT, games=games, seed=args.seed)["win_rate"],
            "games": games,
        }
        policy.train()
        curve.append(row)
        print(json.dumps(row), flush=True)
        return row

    tb = time.time()
    baseline = {
        "random_policy_vs_random": evaluate(None, "random", args.final_games),
        "random_policy_vs_heuristic": evaluate(None, "heuristic", args.final_games),
        "games": args.final_games,
        "seconds": round(time.time() - tb, 1),
    }
    print("baseline", json.dumps(baseline), flush=True)
    log_eval(0, args.eval_games)

    steps = updates = 0
    phase = "random"
    env = envs[phase]
    obs, info = env.reset()
    held = None  # the in-flight decision of each table, carried into the next rollout
    last_eval = 0.0
    prof = {"collect": 0.0, "update": 0.0}

    def spent() -> float:
        """The budget used so far, in its unit (evaluation time is not counted)."""
        return steps if by_decisions else train_s

    # The line's units are the budget's, and the ETA covers the training left.
    progress = ys.ProgressLog(f"self-play {VARIANT}", int(budget),
                              unit="decision" if by_decisions else "training second")
    while spent() < budget:
        progress.update(int(spent()), decisions=steps)
        t_start = time.time()
        if phase == "random" and spent() >= args.random_frac * budget:
            phase, held = "heuristic", None
            env = envs[phase]
            obs, info = env.reset()
            print(f"curriculum: heuristic opponents from decision {steps:,} "
                  f"(minute {train_s / 60:.2f})", flush=True)
        # ---- collect ----
        ch_obs, ch_mask, ch_act, ch_logp, ch_val, ch_env, bounds = [], [], [], [], [], [], [0]
        cap = T * N + N
        rew = np.zeros(cap, dtype=np.float32)
        done = np.zeros(cap, dtype=bool)
        last = np.full(N, -1)
        carried = 0  # held decisions, counted in the rollout that made them
        if held is not None:
            for lst, x in zip((ch_obs, ch_mask, ch_act, ch_logp, ch_val, ch_env), held[:6]):
                lst.append(x)
            carried = held[5].size
            rew[:carried] = held[6]
            last[held[5]] = np.arange(carried)
            bounds.append(carried)
        with torch.inference_mode():
            for _ in range(T):
                mask = info["action_mask"]
                idx = np.flatnonzero((info["to_play"] & 1) == team)
                a = env.bot_actions()
                if idx.size:
                    o = torch.from_numpy(obs[idx])
                    m = torch.from_numpy(mask[idx])
                    logits, v = policy(o.float(), m)
                    act = torch.distributions.Categorical(logits=logits).sample()
                    logp = torch.log_softmax(logits, -1).gather(1, act[:, None])[:, 0]
                    a[idx] = act.numpy()
                    k0 = bounds[-1]
                    ch_obs.append(o)
                    ch_mask.append(m)
                    ch_act.append(act)
                    ch_logp.append(logp)
                    ch_val.append(v)
                    ch_env.append(idx)
                    last[idx] = np.arange(k0, k0 + idx.size)
                    bounds.append(k0 + idx.size)
                obs, r, term, trunc, info = env.step(a)
                rl = r[rows, team]
                has = last >= 0
                np.add.at(rew, last[has], rl[has] * rscale)
                ended = (term | trunc) & has
                done[last[ended]] = True
        K = bounds[-1]
        steps += K - carried
        o_all = torch.cat(ch_obs)
        m_all = torch.cat(ch_mask)
        a_all = torch.cat(ch_act)
        lp_all = torch.cat(ch_logp)
        v_all = torch.cat(ch_val).numpy()
        e_all = np.concatenate(ch_env)
        rew, done = rew[:K], done[:K]
        # Hold back each table's last decision if its episode is still running.
        hold = np.zeros(K, dtype=bool)
        open_ = (last >= 0) & ~done[np.maximum(last, 0)]
        hold[last[open_]] = True
        # ---- GAE, per table, backwards over the step chunks ----
        next_v = np.zeros(N, dtype=np.float32)
        next_adv = np.zeros(N, dtype=np.float32)
        next_v[open_] = v_all[last[open_]]
        adv = np.zeros(K, dtype=np.float32)
        for j in range(len(bounds) - 2, -1, -1):
            s, e = bounds[j], bounds[j + 1]
            ids = e_all[s:e]
            nd = (~done[s:e]).astype(np.float32)
            h = hold[s:e]
            delta = rew[s:e] + nd * next_v[ids] - v_all[s:e]
            ad = delta + lam * nd * next_adv[ids]
            ad[h] = 0.0
            adv[s:e] = ad
            next_v[ids] = v_all[s:e]
            next_adv[ids] = ad
        keep = torch.from_numpy(np.flatnonzero(~hold))
        held_idx = torch.from_numpy(np.flatnonzero(hold))
        held = (o_all[held_idx], m_all[held_idx], a_all[held_idx], lp_all[held_idx],
                torch.from_numpy(v_all)[held_idx], e_all[hold], rew[hold])
        ret = torch.from_numpy(adv + v_all)[keep]
        ad = torch.from_numpy(adv)[keep]
        ad = (ad - ad.mean()) / (ad.std() + 1e-8)
        o, m, a_t, lp = o_all[keep], m_all[keep], a_all[keep], lp_all[keep]
        t_mid = time.time()
        prof["collect"] += t_mid - t_start
        # ---- PPO update ----
        n = keep.numel()
        for _ in range(args.epochs):
            for mb in torch.randperm(n).split(args.minibatch):
                logits, v = policy(o[mb].float(), m[mb])
                logp_all = torch.log_softmax(logits, -1)
                ratio = (logp_all.gather(1, a_t[mb, None])[:, 0] - lp[mb]).exp()
                pg = -torch.min(ratio * ad[mb], ratio.clamp(1 - clip, 1 + clip) * ad[mb]).mean()
                vf = (v - ret[mb]).pow(2).mean()
                p = logp_all.exp()
                ent = -(p * logp_all.masked_fill(~m[mb], 0.0)).sum(-1).mean()
                loss = pg + 0.5 * vf - 0.01 * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        updates += 1
        prof["update"] += time.time() - t_mid
        train_s += time.time() - t_start
        if spent() - last_eval > every and spent() < budget:
            print(f"  [{phase}] {steps} decisions, {steps / train_s:.0f}/s; collect "
                  f"{prof['collect']:.0f}s, update {prof['update']:.0f}s", flush=True)
            log_eval(steps, args.eval_games)
            last_eval = spent()

    progress.close(int(spent()), decisions=steps)
    final = log_eval(steps, args.final_games)
    result = {
        "baseline": baseline,
        "curve": curve,
        "final": final,
        "train_minutes": round(train_s / 60, 2),
        "wall_minutes": round((time.time() - t0_wall) / 60, 2),
        "cpu_minutes": round(cpu_minutes() - t0_cpu, 2),
        "decisions": steps,
        "decisions_per_s": round(steps / max(train_s, 1e-9)),
        "seconds_collect": round(prof["collect"], 1),
        "seconds_update": round(prof["update"], 1),
        "args": vars(args),
    }
    with open(os.path.join(args.out, "train_result.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    torch.save(policy.state_dict(), os.path.join(args.out, "policy.pt"))
    try:
        from yokai_septet.plots import learning_curve

        learning_curve(
            os.path.join(args.out, "learning_curve.png"),
            [c["decisions"] / 1e6 if by_decisions else c["minutes"] for c in curve],
            {
                "learner team vs random team": [c["vs_random"] for c in curve],
                "learner team vs heuristic team": [c["vs_heuristic"] for c in curve],
                "learner vs the shipped nn baseline": [c["vs_baseline"] for c in curve],
            },
            hlines={
                "random policy vs heuristic team": baseline["random_policy_vs_heuristic"],
                "parity (heuristic team: 0.5)": 0.5,
            },
            xlabel="learner decisions trained (millions)" if by_decisions
            else "training minutes (wall, evaluation excluded)",
            ylabel=f"game win rate (greedy; last point {args.final_games} games)",
            ylim=(0, 1),
            title="Yokai Septet 4p: masked PPO team vs built-in bots",
        )
    except ImportError:
        print("matplotlib not installed: no plot")
    keys = ("final", "baseline", "train_minutes", "wall_minutes", "cpu_minutes", "decisions",
            "decisions_per_s")
    print(json.dumps({k: result[k] for k in keys}))


if __name__ == "__main__":
    main()
