"""Decisions per second through the Python API (not a test).

    python benches/python_speed.py [--seconds S] [--threads 1,2] [--envs 1024]
                                   [--vector-only]

(a) a plain Python loop over Game (legal_actions + random.choice + step),
(b) the PettingZoo AEC env (observe + mask + step),
(c) VectorEnv, self-play, uint8 observations, for each thread count of --threads
    (e.g. 1,2,4,8,16 on a 16-core machine) and each N of --envs:
    - the default path, ``obs, r, term, trunc, info = v.step(actions)`` (copy=True), with
      actions drawn in numpy from ``info["action_mask"]``, and with the Rust bots'
      ``bot_actions()``;
    - the in-place path, ``copy=False`` + ``step_all``, with numpy-drawn actions;
    next to (d) the yardstick of the per-env cost: the same work per env (engine step,
    observation encode, mask) done by hand in Rust on one thread, measured in the same run.

Each figure is the best of several timing windows within ``--seconds`` (other work on a
shared machine can only slow a window down).
"""

import argparse
import random
import time

import numpy as np

import yokai_septet as ys
from yokai_septet import _core


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


class NumpyRandomPolicy:
    """A uniformly random legal action per env, drawn in numpy: ``argmax(mask * key)`` over
    a cycled pool of random keys (what a Python policy costs at least)."""

    def __init__(self, n_envs, n_actions, seed=0):
        rng = np.random.default_rng(seed)
        self.keys = rng.integers(1, 256, size=(64, n_envs, n_actions), dtype=np.uint8)
        self.scratch = np.empty((n_envs, n_actions), np.uint8)
        self.k = 0

    def __call__(self, mask):
        self.k = (self.k + 1) & 63
        np.multiply(mask.view(np.uint8), self.keys[self.k], out=self.scratch)
        return self.scratch.argmax(axis=1)


def best_rate(step, per_call, seconds, windows=10):
    """Best throughput (per_call units per second) over ``windows`` timing windows."""
    step()  # warm up (first allocations, thread start)
    best, end = 0.0, time.perf_counter() + seconds
    window = seconds / windows
    while time.perf_counter() < end:
        calls, t0 = 0, time.perf_counter()
        while True:
            step()
            calls += 1
            dt = time.perf_counter() - t0
            if dt >= window:
                break
        best = max(best, calls * per_call / dt)
    return best


def bench_vector(seconds, threads, n_envs=1024, dtype="uint8", policy="numpy",
                 api="default", variant="4p", self_play=True):
    """Decisions (env steps) per second of a VectorEnv. ``api="default"``: ``v.step(a)``
    as made (copy=True), actions from the returned ``info``; ``api="inplace"``:
    ``copy=False`` and ``step_all(a)``, actions from the ``masks`` buffer. ``policy``:
    ``"numpy"`` (:class:`NumpyRandomPolicy`) or ``"bots"`` (``bot_actions()``, Rust)."""
    inplace = api == "inplace"
    v = ys.VectorEnv(n_envs, variant=variant, seed=0, num_threads=threads,
                     self_play=self_play, obs_dtype=dtype, copy=not inplace)
    obs, info = v.reset()
    draw = NumpyRandomPolicy(n_envs, v.single_action_space.n)
    state = {"info": info}
    if inplace:
        masks = v.masks
        if policy == "bots":
            def step():
                v.step_all(v.bot_actions())
        else:
            def step():
                v.step_all(draw(masks))
    elif policy == "bots":
        def step():
            v.step(v.bot_actions())
    else:
        def step():
            state["info"] = v.step(draw(state["info"]["action_mask"]))[4]
    return best_rate(step, n_envs, seconds)


def bench_parts(seconds, n_games=1024, dtype="uint8", variant="4p"):
    """Decisions per second of the per-env work done by hand in Rust on one thread, over
    ``n_games`` games (the same working set as a VectorEnv of that many envs)."""
    best = 0.0
    for _ in range(5):
        decisions, dt = _core.bench_step_parts(variant, seconds / 5, dtype, n_games)
        best = max(best, decisions / dt)
    return best


def vector_rows(seconds, threads_list, envs_list):
    """Prints the VectorEnv table and returns {(n, threads, path): decisions/s}."""
    parts = {}
    for n in envs_list:
        parts[n] = bench_parts(seconds, n)
        print(f"(d) yardstick, N={n}, Rust by hand, 1 thread: engine step + uint8 encode + "
              f"mask: {parts[n] / 1e6:6.2f} M/s = {1e9 / parts[n]:5.1f} ns per env-step")
    paths = [("default, numpy actions", dict(api="default", policy="numpy")),
             ("default, bot_actions()", dict(api="default", policy="bots")),
             ("copy=False + step_all, numpy actions", dict(api="inplace", policy="numpy"))]
    out = {}
    print("\n| N | path | " + " | ".join(f"{t} thr" for t in threads_list)
          + " | speed-up at " + str(threads_list[-1]) + " |")
    print("|---|---|" + "---:|" * (len(threads_list) + 1))
    for n in envs_list:
        for label, kw in paths:
            rates = [bench_vector(seconds, t, n, **kw) for t in threads_list]
            for t, r in zip(threads_list, rates):
                out[(n, t, label)] = r
            cells = " | ".join(f"{r / 1e6:.2f} M" for r in rates)
            print(f"| {n} | {label} | {cells} | {rates[-1] / rates[0]:.2f}x |", flush=True)
    if 1 in threads_list:
        for n in envs_list:
            r = out[(n, 1, "default, bot_actions()")]
            print(f"\nN={n}, 1 thread, default path with bot_actions(): {1e9 / r:.1f} ns per "
                  f"env-step = {parts[n] / r:.2f}x the yardstick (engine step + encode + mask "
                  f"over as many games; the VectorEnv figure includes the bots' own pick)")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated VectorEnv thread counts, e.g. 1,2,4,8,16")
    ap.add_argument("--envs", default="1024", help="comma-separated N, e.g. 1024,16384")
    ap.add_argument("--vector-only", action="store_true", help="only (c) and (d)")
    args = ap.parse_args()
    s = args.seconds
    if not args.vector_only:
        print(f"(a) Game loop, 4p:            {bench_game(s) / 1e3:8.0f} k decisions/s")
        print(f"(a) Game loop, seal:          {bench_game(s, 'seal') / 1e3:8.0f} k decisions/s")
        print(f"(b) PettingZoo AEC, 4p:       {bench_pettingzoo(s) / 1e3:8.0f} k decisions/s")
    print("(c) VectorEnv 4p self-play, uint8 observations, decisions/s:")
    vector_rows(s, [int(t) for t in args.threads.split(",")],
                [int(n) for n in args.envs.split(",")])


if __name__ == "__main__":
    main()
