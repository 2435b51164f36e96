"""make_vec's env, the autoreset modes and NormalizeObservation against VectorEnv's own
step: env-steps/s of the step call, same N, same run.

    python benches/make_vec_speed.py [--envs 256] [--threads 1] [--seconds 4] [--rounds 3]
        [--obs-dtype uint8] [--only NAME ...]

Prints the medians (over rounds, interleaved so that load drifts hit every row alike) of
``VectorEnv(N)`` built directly (NEXT_STEP, the default), of
``gymnasium.make_vec("YokaiSeptet-v0", num_envs=N)`` (the vector entry point), of
``VectorEnv(N, autoreset_mode=SAME_STEP)`` (final_obs included), and of gymnasium's
``NormalizeObservation`` over the default env, each as a ratio to the first row; a random legal policy runs
outside the timed calls. Timed in CPU time of the calling thread (``time.thread_time``),
which with ``--threads 1`` does all of the step's work, so other processes' load on the
machine does not count (the load average is printed anyway). ``--only`` runs the rows
named (e.g. ``--only 'VectorEnv(N)'`` with an older build that lacks the others)."""

import argparse
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np
from gymnasium.wrappers.vector import NormalizeObservation

sys.path.insert(0, str(Path(__file__).resolve().parent))
from python_speed import load_line, median_rates  # noqa: E402

import yokai_septet as ys  # noqa: E402


def step_rate(v, seconds, seed=0):
    rng = np.random.default_rng(seed)
    _, infos = v.reset(seed=seed)
    state = {"mask": infos["action_mask"]}

    def step():
        keys = rng.random(state["mask"].shape) * state["mask"]
        a = keys.argmax(axis=1)
        t0 = time.thread_time()
        *_, infos = v.step(a)
        dt = time.thread_time() - t0
        state["mask"] = infos["action_mask"]
        return dt

    return median_rates(step, v.num_envs, seconds)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--obs-dtype", default="uint8", choices=["uint8", "float32"])
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args(argv)
    kw = dict(num_threads=a.threads, obs_dtype=a.obs_dtype)
    same_step = dict(kw, autoreset_mode="same_step")
    builders = {
        "VectorEnv(N)": lambda: ys.VectorEnv(a.envs, **kw),
        "make_vec(vector_entry_point)": lambda: gymnasium.make_vec(
            "YokaiSeptet-v0", num_envs=a.envs, vectorization_mode="vector_entry_point", **kw
        ),
        "VectorEnv(N, SAME_STEP)": lambda: ys.VectorEnv(a.envs, **same_step),
        "NormalizeObservation(NEXT_STEP)": lambda: NormalizeObservation(ys.VectorEnv(a.envs, **kw)),
    }
    if a.only:
        builders = {name: builders[name] for name in a.only}
    rates = {name: [] for name in builders}
    for _ in range(a.rounds):
        for name, build in builders.items():
            rates[name].append(step_rate(build(), a.seconds))
    print(f"N={a.envs}, threads={a.threads}, obs_dtype={a.obs_dtype}; {load_line()}")
    base = float(np.median(next(iter(rates.values()))))
    for name, r in rates.items():
        m = float(np.median(r))
        print(f"{name:32s} {m / 1e3:8.1f} k env-steps/s  ({m / base:.2f}x)")


if __name__ == "__main__":
    main()
