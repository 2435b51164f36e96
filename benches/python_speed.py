"""Decisions per second through the Python API (not a test).

    python benches/python_speed.py [--seconds S]

(a) a plain Python loop over Game (legal_actions + random.choice + step),
(b) the PettingZoo AEC env (observe + mask + step), (c) VectorEnv N=1024 at 1 and 2
threads, self-play and learner-vs-random-bots, observations encoded every step.
"""

import argparse
import random
import time

import numpy as np

import yokai_septet as ys


def bench_game(seconds, variant="4p"):
    rng = random.Random(0)
    choice = rng.choice
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = ys.Game(variant, seed=seed)
        seed += 1
        step, legal = g.step, g.legal_actions
        while g.phase != "over":
            step(choice(legal()))
            n += 1
    return n / (time.perf_counter() - t0)


def aec_random_loop(env, seconds):
    """Decisions per second of uniformly random masked actions through any PettingZoo AEC
    env (also used by compare_peers.py for PettingZoo's own card envs)."""
    rng = np.random.default_rng(0)
    n, t0, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    return n / (time.perf_counter() - t0)


def bench_pettingzoo(seconds, variant="4p"):
    return aec_random_loop(ys.env(variant=variant), seconds)


def first_legal(masks):
    # A cheap vectorised policy: the first legal action of every env.
    return masks.argmax(axis=1)


def bench_vector(seconds, threads, self_play, variant="4p", n_envs=1024):
    v = ys.VectorEnv(n_envs, variant=variant, seed=0, num_threads=threads,
                     self_play=self_play, copy=False)
    obs, info = v.reset()
    masks = v.masks
    for _ in range(5):
        v.step_all(first_legal(masks))
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        v.step_all(first_legal(masks))
        steps += 1
    dt = time.perf_counter() - t0
    return steps * n_envs / dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    s = args.seconds
    print(f"(a) Game loop, 4p:            {bench_game(s) / 1e3:8.0f} k decisions/s")
    print(f"(a) Game loop, seal:          {bench_game(s, 'seal') / 1e3:8.0f} k decisions/s")
    print(f"(b) PettingZoo AEC, 4p:       {bench_pettingzoo(s) / 1e3:8.0f} k decisions/s")
    for threads in (1, 2):
        sp = bench_vector(s, threads, True)
        print(f"(c) VectorEnv N=1024 self-play, {threads} thread(s): {sp / 1e6:6.2f} M decisions/s")
    for threads in (1, 2):
        learner = bench_vector(s, threads, False)
        print(f"(c) VectorEnv N=1024 learner vs 3 random bots, {threads} thread(s): "
              f"{learner / 1e6:6.2f} M learner steps/s (each also runs ~3 bot decisions)")


if __name__ == "__main__":
    main()
