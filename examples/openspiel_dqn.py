"""Train OpenSpiel's DQN (PyTorch) on ``python_yokai_septet`` through ``rl_environment``,
then measure it against the heuristic bot in the duplicate-deal arena.

    pip install -e '.[frameworks]'      # open-spiel, torch (and the other frameworks)
    python examples/openspiel_dqn.py                 # --decisions 10k (or --minutes 5)

One DQN agent per seat learns by self-play, as in OpenSpiel's ``dqn_breakthrough``
example, on the game with ``scoring="basic"`` (a game to 2 points: short episodes with
the +1/-1 result at the end). Its input is the information-state tensor, which is the
engine's observation vector, so the trained Q-network of seat 0 is directly a batched
policy for :func:`yokai_septet.evaluate`: greedy over the legal cards. The evaluation
plays ``--eval-games`` duplicate games of the same rules against the ``heuristic`` and
``random`` bots and prints the win rate with its 95% interval.

The budget is ``--decisions``, every seat's decisions (default 10,000: minutes on a busy
2-core machine, since ``rl_environment`` builds every seat's information state at every
step), so that a run trains the same on any machine; it ends with the episode that
reaches it. ``--minutes`` gives a time slot instead.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import yokai_septet as ys

DEFAULT_DECISIONS = 10_000


class QPolicy:
    """A DQN agent's greedy masked action, as a batched policy for ys.evaluate."""

    def __init__(self, agent, name: str = "openspiel-dqn") -> None:
        self.agent = agent
        self.name = name

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            q = self.agent._q_network(torch.from_numpy(observations)).numpy()
        return np.where(masks, q, -np.inf).argmax(axis=1)


def count(text: str) -> int:
    """A positive whole count: ``12000000``, ``12_000_000``, ``12M`` or ``500k``."""
    scale = {"k": 10**3, "m": 10**6}.get(text[-1:].lower(), 1)
    n = float(text[:-1] if scale > 1 else text) * scale
    if not (1 <= n < 1e15 and n == int(n)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole count (e.g. 10k)")
    return int(n)


def minutes(text: str) -> float:
    """A positive number of minutes."""
    m = float(text)
    if not 0 < m < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of minutes")
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=["4p", "3p"])
    budget_unit = ap.add_mutually_exclusive_group()
    budget_unit.add_argument("--decisions", type=count,
                             help=f"training budget in decisions of all seats (e.g. 10k; "
                                  f"default {DEFAULT_DECISIONS:,}): the same on any machine")
    budget_unit.add_argument("--minutes", type=minutes,
                             help="training budget in wall minutes instead: what it buys "
                                  "depends on the machine's load")
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = ap.parse_args()  # before the imports, so that a bad command fails fast
    # Registers python_yokai_septet, and names the extra to install when pyspiel is missing.
    import yokai_septet.openspiel  # noqa: F401

    import pyspiel
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    torch.set_num_threads(args.torch_threads)  # one per core contends with the env's threads

    params = {"variant": args.variant, "scoring": "basic", "max_rounds": 20}
    env = rl_environment.Environment(
        pyspiel.load_game("python_yokai_septet", params),
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=args.seed),
    )
    n = env.num_players
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(player_id=p, state_representation_size=size, num_actions=actions,
                hidden_layers_sizes=[128, 128], replay_buffer_capacity=50_000,
                batch_size=128, learning_rate=1e-3, optimizer_str="adam",
                epsilon_decay_duration=50_000, min_buffer_size_to_learn=1_000,
                learn_every=8, update_target_network_every=1_000, seed=args.seed + p)
        for p in range(n)
    ]
    t0, episodes, steps = time.perf_counter(), 0, 0
    by_decisions = args.minutes is None
    budget = (args.decisions or DEFAULT_DECISIONS) if by_decisions else args.minutes * 60

    def spent() -> float:
        """The budget used so far, in its unit; a budget ends only between episodes."""
        return steps if by_decisions else time.perf_counter() - t0

    progress = ys.ProgressLog("dqn", int(budget),
                              unit="decision" if by_decisions else "training second")
    while spent() < budget:
        progress.update(int(spent()), episodes=episodes, decisions=steps)
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action])
            steps += 1
        for a in agents:
            a.step(ts)
        episodes += 1
    progress.close(int(spent()), episodes=episodes, decisions=steps)
    print(f"trained {episodes} episodes ({steps} decisions, "
          f"{steps / (time.perf_counter() - t0):.0f} decisions/s) in "
          f"{(time.perf_counter() - t0) / 60:.1f} min")

    policy = QPolicy(agents[0])
    for opponent in ("heuristic", "random"):
        s = ys.evaluate([policy, opponent], args.variant, args.eval_games, seed=args.seed,
                        scoring="basic", max_rounds=20)
        me = s["entries"][0]
        lo, hi = me["ci95"]
        print(f"openspiel-dqn vs {opponent}: win rate {me['win_rate']:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f}), Elo {me['elo']:+.0f}, {s['games']} games")


if __name__ == "__main__":
    main()
