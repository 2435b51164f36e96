"""make_vec's env against VectorEnv's own: env-steps/s of the step call, same N, same run.

    python benches/make_vec_speed.py [--envs 256] [--threads 1] [--seconds 4] [--rounds 3]

Prints the medians (over rounds, interleaved so that load drifts hit both alike) of
``VectorEnv(N)`` built directly and of ``gymnasium.make_vec("YokaiSeptet-v0", num_envs=N)``
(the vector entry point), with a random legal policy outside the timed calls."""

import argparse
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np

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
        t0 = time.perf_counter()
        *_, infos = v.step(a)
        dt = time.perf_counter() - t0
        state["mask"] = infos["action_mask"]
        return dt

    return median_rates(step, v.num_envs, seconds)[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    kw = dict(num_threads=a.threads, obs_dtype="uint8")
    builders = {
        "VectorEnv(N)": lambda: ys.VectorEnv(a.envs, **kw),
        "make_vec(vector_entry_point)": lambda: gymnasium.make_vec(
            "YokaiSeptet-v0", num_envs=a.envs, vectorization_mode="vector_entry_point", **kw
        ),
    }
    rates = {name: [] for name in builders}
    for _ in range(a.rounds):
        for name, build in builders.items():
            rates[name].append(step_rate(build(), a.seconds))
    print(f"N={a.envs}, threads={a.threads}; {load_line()}")
    base = float(np.median(rates["VectorEnv(N)"]))
    for name, r in rates.items():
        m = float(np.median(r))
        print(f"{name:32s} {m / 1e3:8.1f} k env-steps/s  ({m / base:.2f}x)")


if __name__ == "__main__":
    main()
