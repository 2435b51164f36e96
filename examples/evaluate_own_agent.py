"""Train an agent, save it, load it back, and evaluate it against the built-in bots in the
duplicate-deal arena (``yokai_septet.evaluate``). Needs only numpy.

    python examples/evaluate_own_agent.py --out agent.npz
    yokai-septet play --bots examples.evaluate_own_agent:load_default  # play against it

The agent is a linear softmax policy over the observation vector, trained by imitation:
``VectorEnv`` self-play tables in which the ``heuristic`` bot decides every move
(``bot_actions()``) give (observation, legal mask, action) triples, and a few epochs of
masked cross-entropy fit the policy to them. It is saved as an ``.npz`` file (weights,
bias, variant), loaded into a :class:`LinearAgent`, and evaluated as a *batched policy*:
``agent(observations, masks) -> actions`` decides for up to ``batch_size`` arena games
per call. The summary's win rate (with its Wilson 95% interval), Elo and points per game
come from the same arena as ``yokai_septet.arena``, with the same deals.

``--bots module:attribute`` in ``yokai-septet play`` seats any such policy (``attribute``
is a policy, or a function of no arguments returning one): :func:`load_default` loads
``agent.npz`` from the working directory.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import yokai_septet as ys


class LinearAgent:
    """A linear softmax policy: ``agent(observations, masks)`` gives the most likely legal
    action of every row (a batched policy for ``yokai_septet.evaluate``)."""

    def __init__(self, weights: np.ndarray, bias: np.ndarray, variant: str) -> None:
        self.weights = np.asarray(weights, dtype=np.float32)
        self.bias = np.asarray(bias, dtype=np.float32)
        self.variant = variant
        self.name = f"linear-imitation-{variant}"

    def logits(self, observations: np.ndarray) -> np.ndarray:
        return observations @ self.weights + self.bias

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.where(masks, self.logits(observations), -np.inf).argmax(axis=1)

    def save(self, path: str) -> None:
        np.savez(path, weights=self.weights, bias=self.bias, variant=self.variant)

    @classmethod
    def load(cls, path: str) -> "LinearAgent":
        with np.load(path) as f:
            return cls(f["weights"], f["bias"], str(f["variant"]))


def load_default() -> LinearAgent:
    """The agent saved as ``agent.npz`` in the working directory (for ``play --bots``)."""
    return LinearAgent.load("agent.npz")


def collect(variant: str, samples: int, envs: int, seed: int):
    """``samples`` decisions of the heuristic bot in self-play (observation, mask, action)."""
    v = ys.VectorEnv(envs, variant=variant, seed=seed, self_play=True,
                     opponents="heuristic", max_rounds=20, autoreset_mode="same_step")
    obs, _ = v.reset()
    steps = -(-samples // envs)
    xs = np.empty((steps * envs, obs.shape[1]), dtype=np.float32)
    ms = np.empty((steps * envs, v.single_action_space_n), dtype=bool)
    ys_ = np.empty(steps * envs, dtype=np.int64)
    progress = ys.ProgressLog(f"collect {variant}", steps * envs, unit="decision")
    for t in range(steps):
        progress.update(t * envs)
        actions = v.bot_actions()
        sl = slice(t * envs, (t + 1) * envs)
        xs[sl], ms[sl], ys_[sl] = obs, v.action_masks(), actions
        obs, *_ = v.step(actions)
    progress.close(steps * envs)
    return xs, ms, ys_


def train(xs, ms, actions, epochs: int, lr: float, seed: int, variant: str) -> LinearAgent:
    """Masked softmax regression by minibatch gradient descent."""
    rng = np.random.default_rng(seed)
    d, a = xs.shape[1], ms.shape[1]
    agent = LinearAgent(np.zeros((d, a), np.float32), np.zeros(a, np.float32), variant)
    batches = -(-len(xs) // 512)
    progress = ys.ProgressLog("train", epochs * batches, unit="minibatch")
    for epoch in range(epochs):
        order = rng.permutation(len(xs))
        for i in range(0, len(xs), 512):
            progress.update(epoch * batches + i // 512)
            b = order[i:i + 512]
            x, m, y = xs[b], ms[b], actions[b]
            z = np.where(m, agent.logits(x), -np.inf)
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(b)), y] -= 1.0  # d(cross-entropy)/d(logits)
            agent.weights -= lr * (x.T @ p) / len(b)
            agent.bias -= lr * p.mean(axis=0)
        acc = (agent(xs, ms) == actions).mean()
        print(f"epoch {epoch + 1}: agrees with the heuristic bot on {acc:.1%} of its moves")
    progress.close(epochs * batches)
    return agent


def report(summary: dict) -> None:
    for e in summary["entries"]:
        lo, hi = e["ci95"]
        print(f"  {e['bot']:>24}: win rate {e['win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f}), "
              f"Elo {e['elo']:+.0f}, {e['points_per_game']:.2f} points/game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="4p", choices=ys.VARIANTS)
    ap.add_argument("--samples", type=int, default=200_000, help="heuristic decisions to imitate")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--games", type=int, default=1000, help="arena games per opponent")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="agent.npz")
    args = ap.parse_args()

    t0 = time.perf_counter()
    xs, ms, actions = collect(args.variant, args.samples, 256, args.seed)
    agent = train(xs, ms, actions, args.epochs, args.lr, args.seed, args.variant)
    agent.save(args.out)
    print(f"trained on {len(xs)} decisions in {time.perf_counter() - t0:.1f} s; saved {args.out}")

    loaded = LinearAgent.load(args.out)
    assert np.array_equal(loaded.weights, agent.weights)
    for opponent in ("random", "heuristic"):
        t = time.perf_counter()
        s = ys.evaluate([loaded, opponent], args.variant, args.games, seed=args.seed + 1)
        dt = time.perf_counter() - t
        print(f"{loaded.name} vs {opponent}: {s['games']} duplicate games in {dt:.1f} s "
              f"({s['decisions'] / dt:,.0f} decisions/s)")
        report(s)


if __name__ == "__main__":
    main()
