"""Decisions per second through the Python API (not a test).

    python benches/python_speed.py [--seconds S] [--threads 1,2] [--envs 1024]
                                   [--vector-only] [--hidden 64] [--blas-threads 1]
    python benches/python_speed.py --scaling [--envs 256,1024,4096,16384] [--rounds 3]
    python benches/python_speed.py --async [--envs 4096] [--batches 2,4] [--hidden 64]
    python benches/python_speed.py --real [--envs 1024,4096] [--policies tanh,torch]
                                   [--under-load] [--blas-threads 1] [--torch-threads 1]
    python benches/python_speed.py --sb3 [--under-load] [--envs 64]

Default run:

(a) a plain Python loop over Game (legal_actions + random.choice + step),
(b) the PettingZoo AEC env (observe + mask + step),
(c) VectorEnv, self-play, uint8 observations, for each thread count of --threads
    (e.g. 1,2,4,8,16 on a 16-core machine) and each N of --envs:
    - the default path, ``obs, r, term, trunc, info = v.step(actions)`` (copy=True), with
      actions drawn in numpy from ``info["action_mask"]``, and with the Rust bots'
      ``bot_actions()``;
    - the same with a policy's work between steps: ``obs.astype(float32) @ W`` with a
      fixed ``W`` of ``[D, --hidden]``, then the numpy draw (``MatmulPolicy``);
    - the in-place path, ``copy=False`` + ``step_all``, with numpy-drawn actions;
    next to (d) the yardstick of the per-env cost: the same work per env (engine step,
    observation encode, mask) done by hand in Rust on one thread, measured in the same run
    (needs a build with the ``bench`` feature: ``maturin develop --release --features
    bench``).

``--scaling``: the thread-scaling table of docs/performance.md: for each N, the default
path with ``MatmulPolicy`` between steps, every thread count of --threads, interleaved
round by round (so slow minutes on a shared machine touch every column alike).

``--async``: a PPO-shaped loop (``MatmulPolicy`` between steps) at each N, synchronous
``step`` against the asynchronous ``recv``/``send`` with ``batch_size = N / k`` for each k
of --batches, on each thread count, interleaved round by round.

``--real``: policies as users run them, with no thread variable set (numpy's BLAS and
torch at their default thread counts): ``tanh(obs @ W)`` in numpy (``W`` of ``[D,
--hidden]``, :class:`TanhPolicy`) and a small torch MLP (:class:`TorchPolicy`; skipped with
a note when torch is missing), each at every N and thread count, through ``step`` and
through ``send``/``recv`` (``batch_size = N / 2``), interleaved round by round.
``--under-load`` runs a CPU hog (a busy Python process pinned to the last core) during the
measurement, as on a shared machine. ``--blas-threads 1`` / ``--torch-threads 1`` give the
single-threaded-policy rows. Set ``OPENBLAS_CORETYPE`` / ``OPENBLAS_L2_SIZE`` (hints that
old OpenBLAS builds need on some CPUs, and that slow a current one) are reported, never
changed.

``--sb3``: sb3-contrib's ``MaskablePPO("MlpPolicy")`` on ``SB3VecEnv(N)`` with SB3's
defaults, torch at its default threads against ``torch.set_num_threads(1)``, interleaved
round by round: environment steps per second of ``learn`` (rollouts and updates).

Every rate is the median over ``--windows`` timing windows of a run, and two rates are
printed: **step-only** (env-steps per second of the time spent inside the env's calls:
``step``, or ``recv`` + ``send``) and **whole loop** (env-steps per second of the loop,
the policy included). The load average is printed with each table: figures taken while
other work ran are not comparable with a quiet machine's.

numpy's BLAS threads: ``--blas-threads`` (default 1; ``default`` with ``--real`` and
``--sb3``) sets ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS``
before numpy loads (``default``: sets nothing, numpy's own choice); see docs/vector.md,
"Threads", for what a multi-threaded policy changes.
"""

import argparse
import os
import sys


def _set_blas_threads(argv):
    """Sets the BLAS thread count from --blas-threads before numpy is imported."""
    n = "default" if "--real" in argv or "--sb3" in argv else "1"
    for i, a in enumerate(argv):
        if a == "--blas-threads" and i + 1 < len(argv):
            n = argv[i + 1]
        elif a.startswith("--blas-threads="):
            n = a.split("=", 1)[1]
    if n == "default":  # the loop as users write it: nothing set
        return
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, n)


if __name__ == "__main__":
    _set_blas_threads(sys.argv)

import random  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import yokai_septet as ys  # noqa: E402
from yokai_septet import _core  # noqa: E402


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

    def __call__(self, obs, mask):
        self.k = (self.k + 1) & 63
        np.multiply(mask.view(np.uint8), self.keys[self.k], out=self.scratch)
        return self.scratch.argmax(axis=1)


class MatmulPolicy(NumpyRandomPolicy):
    """:class:`NumpyRandomPolicy` after a fixed matrix product over the observations,
    ``obs.astype(float32) @ W`` with ``W`` of ``[D, hidden]``: a stand-in for a policy's
    forward pass (its cost grows with the batch, as a network's does)."""

    def __init__(self, n_envs, n_actions, obs_size, hidden=64, seed=0):
        super().__init__(n_envs, n_actions, seed)
        self.w = np.random.default_rng(seed + 1).random((obs_size, hidden), dtype=np.float32)
        self.h = None

    def __call__(self, obs, mask):
        self.h = obs.astype(np.float32) @ self.w
        return super().__call__(obs, mask)


class TanhPolicy(NumpyRandomPolicy):
    """A numpy policy as users write one: ``tanh(obs @ W)`` (float32, ``W`` of ``[D,
    hidden]``), then the numpy draw; numpy's BLAS at whatever thread count it has."""

    def __init__(self, n_envs, n_actions, obs_size, hidden=64, seed=0):
        super().__init__(n_envs, n_actions, seed)
        self.w = np.random.default_rng(seed + 1).standard_normal(
            (obs_size, hidden), dtype=np.float32) / np.sqrt(obs_size)
        self.h = None

    def __call__(self, obs, mask):
        self.h = np.tanh(obs.astype(np.float32) @ self.w)
        return super().__call__(obs, mask)


class TorchPolicy:
    """A small torch MLP (``D -> hidden -> tanh -> num_actions``) with masked argmax, at
    torch's default intra-op threads (``--torch-threads`` aside)."""

    def __init__(self, n_envs, n_actions, obs_size, hidden=64, seed=0):
        import torch

        torch.manual_seed(seed)
        self.torch = torch
        self.net = torch.nn.Sequential(torch.nn.Linear(obs_size, hidden), torch.nn.Tanh(),
                                       torch.nn.Linear(hidden, n_actions))

    def __call__(self, obs, mask):
        torch = self.torch
        with torch.no_grad():
            logits = self.net(torch.from_numpy(obs).float())
            logits[~torch.from_numpy(mask)] = -torch.inf
            return logits.argmax(1).numpy()


def have_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def median_rates(step, per_call, seconds, windows=10):
    """(step-only, whole-loop) throughput in per_call units per second: medians over
    ``windows`` timing windows. ``step()`` runs one loop iteration and returns the seconds
    it spent inside the env's calls."""
    step()  # warm up (first allocations, threads)
    step()
    window = seconds / windows
    inner, whole = [], []
    for _ in range(windows):
        calls, in_env, t0 = 0, 0.0, time.perf_counter()
        while True:
            in_env += step()
            calls += 1
            dt = time.perf_counter() - t0
            if dt >= window:
                break
        inner.append(calls * per_call / in_env)
        whole.append(calls * per_call / dt)
    return float(np.median(inner)), float(np.median(whole))


def make_policy(policy, n_envs, n_actions, obs_size, hidden):
    if policy == "matmul":
        return MatmulPolicy(n_envs, n_actions, obs_size, hidden)
    if policy == "tanh":
        return TanhPolicy(n_envs, n_actions, obs_size, hidden)
    if policy == "torch":
        return TorchPolicy(n_envs, n_actions, obs_size, hidden)
    return NumpyRandomPolicy(n_envs, n_actions)


def bench_vector(seconds, threads, n_envs=1024, dtype="uint8", policy="numpy",
                 api="default", variant="4p", self_play=True, hidden=64, windows=10,
                 spin_us=None):
    """(step-only, whole-loop) decisions (env steps) per second of a VectorEnv, medians
    of ``windows`` windows. ``api="default"``: ``v.step(a)`` as made (copy=True), actions
    from the returned ``info``; ``api="inplace"``: ``copy=False`` and ``step_all(a)``,
    actions from the ``masks`` buffer. ``policy``: ``"numpy"`` (:class:`NumpyRandomPolicy`),
    ``"matmul"`` (:class:`MatmulPolicy`, ``hidden`` wide) or ``"bots"`` (``bot_actions()``,
    Rust: counted as the env's time)."""
    inplace = api == "inplace"
    kw = {} if spin_us is None else {"spin_us": spin_us}
    v = ys.VectorEnv(n_envs, variant=variant, seed=0, num_threads=threads,
                     self_play=self_play, obs_dtype=dtype, copy=not inplace, **kw)
    obs, info = v.reset()
    draw = make_policy(policy, n_envs, v.single_action_space.n, obs.shape[1], hidden)
    clock = time.perf_counter
    bots = policy == "bots"
    env_step = v.step_all if inplace else v.step
    # What the policy reads: the env's own buffers in place, else the last step's copies.
    latest = [v.observations, v.masks] if inplace else [obs, info["action_mask"]]

    def step():
        a = None if bots else draw(*latest)
        t = clock()
        out = env_step(v.bot_actions() if bots else a)
        dt = clock() - t
        if not inplace:
            latest[:] = out[0], out[4]["action_mask"]
        return dt

    return median_rates(step, n_envs, seconds, windows)


def bench_async(seconds, threads, n_envs, batch_size, hidden=64, dtype="uint8",
                windows=10, spin_us=None, policy="matmul"):
    """(step-only, whole-loop) env-steps per second of the asynchronous loop: ``recv`` a
    batch, compute its actions with ``policy`` (see :func:`make_policy`), ``send`` them;
    medians of ``windows`` windows. Step-only counts the time inside ``recv`` and
    ``send``."""
    kw = {} if spin_us is None else {"spin_us": spin_us}
    v = ys.VectorEnv(n_envs, "4p", seed=0, num_threads=threads, self_play=True,
                     obs_dtype=dtype, batch_size=batch_size, **kw)
    v.async_reset()
    draw = make_policy(policy, batch_size, v.single_action_space.n,
                       v.single_observation_space.shape[0], hidden)
    clock = time.perf_counter

    def step():
        t = clock()
        obs, r, te, tr, info = v.recv()
        dt = clock() - t
        a = draw(obs, info["action_mask"])
        t = clock()
        v.send(a, info["env_id"])
        return dt + clock() - t

    return median_rates(step, batch_size, seconds, windows)


def bench_parts(seconds, n_games=1024, dtype="uint8", variant="4p"):
    """Decisions per second of the per-env work done by hand in Rust on one thread, over
    ``n_games`` games (the same working set as a VectorEnv of that many envs); ``None``
    without the ``bench`` feature. Median of five runs."""
    if not hasattr(_core, "bench_step_parts"):
        return None
    rates = []
    for _ in range(5):
        decisions, dt = _core.bench_step_parts(variant, seconds / 5, dtype, n_games)
        rates.append(decisions / dt)
    return float(np.median(rates))


def call_ms(policy, obs, mask, repeat):
    """Milliseconds of one ``policy(obs, mask)`` call: the median of ``repeat``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        policy(obs, mask)
        times.append(time.perf_counter() - t)
    return 1e3 * float(np.median(times))


def policy_ms(n_envs, hidden, obs_size=711, repeat=50):
    """Milliseconds of one MatmulPolicy call over ``n_envs`` uint8 observations (median)."""
    p = MatmulPolicy(n_envs, 49, obs_size, hidden)
    obs = np.random.default_rng(0).integers(0, 2, (n_envs, obs_size), dtype=np.uint8)
    mask = np.ones((n_envs, 49), bool)
    return call_ms(p, obs, mask, repeat)


def numpy_ms(n_envs, repeat=50):
    """Milliseconds of one NumpyRandomPolicy call over ``n_envs`` masks (median)."""
    p = NumpyRandomPolicy(n_envs, 49)
    mask = np.random.default_rng(0).random((n_envs, 49)) < 0.3
    return call_ms(p, None, mask, repeat)


def load_line():
    try:
        la = os.getloadavg()
        load = f"load average {la[0]:.2f}, {la[1]:.2f}, {la[2]:.2f}"
    except OSError:
        load = "load average ?"
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "not set")
    hints = [f"{v}={os.environ[v]}" for v in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
             if v in os.environ]
    torch_threads = ""
    if "torch" in sys.modules:
        torch_threads = f", torch threads {sys.modules['torch'].get_num_threads()}"
    return (f"nproc={os.cpu_count()}, {load}, OPENBLAS_NUM_THREADS {blas}{torch_threads}, "
            f"OpenBLAS hints {', '.join(hints) or 'none set'}")


def measure_in_rounds(envs_list, rounds, one_round):
    """{key: [one run per round]}: ``one_round(n)`` yields (key, run) as it measures, so
    every cell of N=n is measured once a round, interleaved, which spreads a changing load
    over all of them."""
    results = {}
    for n in envs_list:
        for _ in range(rounds):
            for key, run in one_round(n):
                results.setdefault(key, []).append(run)
        print(f"  N={n} done ({load_line()})", file=sys.stderr, flush=True)
    return results


def median_pair(runs):
    """The (step-only, whole-loop) medians of (step-only, whole-loop) runs: a table's cell
    from its rounds."""
    return float(np.median([r[0] for r in runs])), float(np.median([r[1] for r in runs]))


def rounds_footer(rounds, windows):
    """The line under a table measured in rounds: the load now and what its cells are."""
    return (f"\n{load_line()} at the end; step-only / whole loop, M env-steps/s, median of "
            f"{rounds} rounds of {windows}-window medians\n")


def fmt_pair(p):
    return f"{p[0] / 1e6:.2f} / {p[1] / 1e6:.2f} M"


def vector_rows(seconds, threads_list, envs_list, hidden=64, windows=10):
    """Prints the VectorEnv table and returns {(n, threads, path): (step-only, loop)}."""
    parts = {}
    for n in envs_list:
        parts[n] = bench_parts(seconds, n)
        if parts[n] is None:
            print("(d) yardstick: not in this build (maturin develop --release --features "
                  "bench)")
            break
        print(f"(d) yardstick, N={n}, Rust by hand, 1 thread: engine step + uint8 encode + "
              f"mask: {parts[n] / 1e6:6.2f} M/s = {1e9 / parts[n]:5.1f} ns per env-step")
    paths = [("default, numpy actions", dict(api="default", policy="numpy")),
             (f"default, matmul policy (H={hidden}) + numpy actions",
              dict(api="default", policy="matmul", hidden=hidden)),
             ("default, bot_actions()", dict(api="default", policy="bots")),
             ("copy=False + step_all, numpy actions", dict(api="inplace", policy="numpy"))]
    out = {}
    print(f"\n{load_line()}; step-only / whole loop, env-steps per second, median of "
          f"{windows} windows")
    print("\n| N | path | " + " | ".join(f"{t} thr" for t in threads_list)
          + f" | step-only speed-up at {threads_list[-1]} | whole-loop speed-up |")
    print("|---|---|" + "---:|" * (len(threads_list) + 2))
    for n in envs_list:
        for label, kw in paths:
            rates = [bench_vector(seconds, t, n, windows=windows, **kw) for t in threads_list]
            for t, r in zip(threads_list, rates):
                out[(n, t, label)] = r
            cells = " | ".join(fmt_pair(r) for r in rates)
            print(f"| {n} | {label} | {cells} | {rates[-1][0] / rates[0][0]:.2f}x | "
                  f"{rates[-1][1] / rates[0][1]:.2f}x |", flush=True)
        print(f"  (matmul policy, N={n}: {policy_ms(n, hidden):.2f} ms per call)")
    if 1 in threads_list and parts.get(envs_list[0]):
        for n in envs_list:
            r = out[(n, 1, "default, bot_actions()")][0]
            print(f"\nN={n}, 1 thread, default path with bot_actions(), step-only: "
                  f"{1e9 / r:.1f} ns per env-step = {parts[n] / r:.2f}x the yardstick "
                  "(engine step + encode + mask over as many games; the VectorEnv figure "
                  "includes the bots' own pick)")
    return out


def scaling_table(seconds, threads_list, envs_list, hidden=64, rounds=3, windows=10,
                  spin_us=None, policies=("numpy", "matmul")):
    """The thread-scaling table: default path, a Python policy between steps (the numpy
    draw alone, and MatmulPolicy), thread counts interleaved round by round; each cell the
    median over rounds of the run medians."""
    print(f"VectorEnv 4p self-play, uint8, default step, policies {', '.join(policies)} "
          f"(matmul: H={hidden}) between steps; {load_line()} at the start")

    def one_round(n):
        for p in policies:
            for t in threads_list:
                yield (n, p, t), bench_vector(seconds, t, n, policy=p, hidden=hidden,
                                              windows=windows, spin_us=spin_us)

    results = measure_in_rounds(envs_list, rounds, one_round)
    base = threads_list[0]
    print(rounds_footer(rounds, windows))
    print("| N | policy | policy ms | " + " | ".join(f"{t} thr" for t in threads_list)
          + " | " + " | ".join(f"{t} vs {base}: step-only, loop" for t in threads_list[1:])
          + " |")
    print("|---:|---|---:|" + "---:|" * (2 * len(threads_list) - 1))
    for n in envs_list:
        for p in policies:
            med = {t: median_pair(results[(n, p, t)]) for t in threads_list}
            cells = " | ".join(fmt_pair(med[t]) for t in threads_list)
            ups = " | ".join(f"{med[t][0] / med[base][0]:.2f}x, {med[t][1] / med[base][1]:.2f}x"
                             for t in threads_list[1:])
            ms = policy_ms(n, hidden) if p == "matmul" else numpy_ms(n)
            label = f"matmul H={hidden}" if p == "matmul" else "numpy draw"
            print(f"| {n} | {label} | {ms:.2f} | {cells} | {ups} |", flush=True)
    return results


def async_table(seconds, threads_list, envs_list, batches, hidden=64, rounds=3, windows=10,
                spin_us=None):
    """Synchronous step against recv/send with batch_size = N / k, MatmulPolicy between
    steps, interleaved round by round."""
    print(f"PPO-shaped loop: VectorEnv 4p self-play, uint8, MatmulPolicy (H={hidden}); "
          f"{load_line()} at the start")

    def one_round(n):
        for t in threads_list:
            yield (n, t, "sync"), bench_vector(seconds, t, n, policy="matmul", hidden=hidden,
                                               windows=windows, spin_us=spin_us)
            for k in batches:
                yield (n, t, k), bench_async(seconds, t, n, n // k, hidden, windows=windows,
                                             spin_us=spin_us)

    results = measure_in_rounds(envs_list, rounds, one_round)
    print(rounds_footer(rounds, windows))
    print("| N | policy ms (whole batch) | threads | path | step-only / whole loop | "
          "whole loop vs sync |")
    print("|---:|---:|---:|---|---:|---:|")
    for n in envs_list:
        ms = policy_ms(n, hidden)
        for t in threads_list:
            med = {}
            for key in ["sync"] + list(batches):
                med[key] = median_pair(results[(n, t, key)])
            for key in ["sync"] + list(batches):
                label = "sync `step`" if key == "sync" else f"async, batch_size = N/{key}"
                print(f"| {n} | {ms:.2f} | {t} | {label} | {fmt_pair(med[key])} | "
                      f"{med[key][1] / med['sync'][1]:.2f}x |", flush=True)
    return results


class CpuHog:
    """A busy Python process pinned to the last core (where the OS allows pinning), for
    measurements under load; stopped on exit."""

    def __enter__(self):
        import subprocess

        self.p = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        if hasattr(os, "sched_setaffinity"):
            try:
                os.sched_setaffinity(self.p.pid, {max(os.sched_getaffinity(0))})
            except OSError:
                pass
        return self

    def __exit__(self, *exc):
        self.p.kill()
        self.p.wait()


def real_table(seconds, threads_list, envs_list, policies, hidden=64, rounds=3, windows=10,
               batches=2, spin_us=None, torch_threads=None):
    """Policies as users run them: ``step`` and ``send``/``recv`` (``batch_size = N /
    batches``) at every N and thread count, interleaved round by round; each cell the
    median over rounds of the run medians."""
    if "torch" in policies and not have_torch():
        print("(torch rows skipped: torch is not installed)")
        policies = [p for p in policies if p != "torch"]
    if "torch" in policies and torch_threads:
        import torch

        torch.set_num_threads(torch_threads)
    print(f"VectorEnv 4p self-play, uint8, policies {', '.join(policies)} (H={hidden}); "
          f"{load_line()} at the start")

    def one_round(n):
        for p in policies:
            for t in threads_list:
                yield (n, p, t, "step"), bench_vector(seconds, t, n, policy=p, hidden=hidden,
                                                      windows=windows, spin_us=spin_us)
                yield (n, p, t, "async"), bench_async(seconds, t, n, n // batches, hidden,
                                                      windows=windows, spin_us=spin_us,
                                                      policy=p)

    results = measure_in_rounds(envs_list, rounds, one_round)
    base = threads_list[0]
    print(rounds_footer(rounds, windows))
    print("| N | policy | path | " + " | ".join(f"{t} thr" for t in threads_list) + " | "
          + " | ".join(f"{t} vs {base} thr: step-only, loop" for t in threads_list[1:])
          + " | loop vs `step`, " + ", ".join(f"{t} thr" for t in threads_list) + " |")
    print("|---:|---|---|" + "---:|" * (2 * len(threads_list)))
    for n in envs_list:
        for p in policies:
            med = {}
            for key in ("step", "async"):
                for t in threads_list:
                    med[(t, key)] = median_pair(results[(n, p, t, key)])
            for key in ("step", "async"):
                label = "`step`" if key == "step" else f"`send`/`recv`, N/{batches}"
                cells = " | ".join(fmt_pair(med[(t, key)]) for t in threads_list)
                ups = " | ".join(
                    f"{med[(t, key)][0] / med[(base, key)][0]:.2f}x, "
                    f"{med[(t, key)][1] / med[(base, key)][1]:.2f}x" for t in threads_list[1:])
                vs = ", ".join(f"{med[(t, key)][1] / med[(t, 'step')][1]:.2f}x"
                               for t in threads_list)
                print(f"| {n} | {p} | {label} | {cells} | {ups} | {vs} |", flush=True)
    return results


def sb3_table(seconds, envs_list, rounds=3):
    """MaskablePPO steps per second, torch at its default threads against one thread."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from yokai_septet.sb3 import SB3VecEnv
    except ImportError as e:
        print(f"(SB3 rows skipped: {e.name} is not installed; pip install '.[train]')")
        return {}
    import warnings

    default_threads = torch.get_num_threads()
    print(f"MaskablePPO(n_steps=16) on SB3VecEnv, 4p learner vs random, uint8; {load_line()} "
          "at the start")
    results = {}
    n_steps = 16  # a rollout of 16 * N steps: a few seconds even where torch's threads fight
    for n in envs_list:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the oversubscription warning: measured here
            env = SB3VecEnv(n, variant="4p", obs_dtype="uint8")
            model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, seed=0)
        for _ in range(rounds):
            for threads in (default_threads, 1):
                torch.set_num_threads(threads)
                steps, t0 = 0, time.perf_counter()
                while time.perf_counter() - t0 < seconds:
                    model.learn(n_steps * n, reset_num_timesteps=False)
                    steps += n_steps * n
                results.setdefault((n, threads), []).append(steps / (time.perf_counter() - t0))
        torch.set_num_threads(default_threads)
    print(f"\n{load_line()} at the end; env-steps/s of learn(), median of {rounds} rounds\n")
    print("| N | torch threads | steps/s | vs 1 thread |")
    print("|---:|---:|---:|---:|")
    for n in envs_list:
        one = float(np.median(results[(n, 1)]))
        for threads in (default_threads, 1):
            r = float(np.median(results[(n, threads)]))
            print(f"| {n} | {threads} | {r:.0f} | {r / one:.2f}x |", flush=True)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated VectorEnv thread counts, e.g. 1,2,4,8,16")
    ap.add_argument("--envs", default=None,
                    help="comma-separated N (default 1024; --scaling: 256,1024,4096,16384; "
                         "--async: 4096)")
    ap.add_argument("--vector-only", action="store_true", help="only (c) and (d)")
    ap.add_argument("--scaling", action="store_true", help="the thread-scaling table")
    ap.add_argument("--async", dest="async_", action="store_true",
                    help="asynchronous recv/send against synchronous step")
    ap.add_argument("--batches", default="2,4", help="--async: N / batch_size values")
    ap.add_argument("--real", action="store_true",
                    help="policies as users run them (numpy tanh(obs @ W), a torch MLP), "
                         "step and send/recv")
    ap.add_argument("--sb3", action="store_true",
                    help="MaskablePPO on SB3VecEnv: torch's default threads against 1")
    ap.add_argument("--under-load", action="store_true",
                    help="--real, --sb3: a CPU hog on one core during the measurement")
    ap.add_argument("--torch-threads", type=int, default=None,
                    help="--real: torch.set_num_threads (default: torch's own)")
    ap.add_argument("--hidden", type=int, default=64,
                    help="width of the matrix product of MatmulPolicy")
    ap.add_argument("--rounds", type=int, default=3, help="--scaling, --async: rounds")
    ap.add_argument("--windows", type=int, default=10, help="timing windows per run")
    ap.add_argument("--policies", default=None,
                    help="--scaling: the policies between steps (default numpy,matmul); "
                         "--real: default tanh,torch")
    ap.add_argument("--spin-us", type=int, default=None,
                    help="VectorEnv(spin_us=...): how long idle stepping threads poll "
                         "before they sleep (default: the VectorEnv's)")
    ap.add_argument("--blas-threads", default="1",
                    help="numpy's BLAS threads (set before numpy loads; 'default': not set, "
                         "the default with --real)")
    args = ap.parse_args()
    s = args.seconds
    threads = [int(t) for t in args.threads.split(",")]
    if args.real or args.sb3:
        import contextlib

        hog = CpuHog() if args.under_load else contextlib.nullcontext()
        if args.under_load:
            print("under load: a CPU hog pinned to one core during the measurement")
        with hog:
            if args.sb3:
                sb3_table(s, [int(n) for n in (args.envs or "64").split(",")], args.rounds)
            else:
                envs = [int(n) for n in (args.envs or "1024,4096").split(",")]
                policies = (args.policies or "tanh,torch").split(",")
                real_table(s, threads, envs, policies, args.hidden, args.rounds,
                           args.windows, spin_us=args.spin_us,
                           torch_threads=args.torch_threads)
        return
    if args.scaling:
        envs = [int(n) for n in (args.envs or "256,1024,4096,16384").split(",")]
        scaling_table(s, threads, envs, args.hidden, args.rounds, args.windows, args.spin_us,
                      (args.policies or "numpy,matmul").split(","))
        return
    if args.async_:
        envs = [int(n) for n in (args.envs or "4096").split(",")]
        batches = [int(k) for k in args.batches.split(",")]
        async_table(s, threads, envs, batches, args.hidden, args.rounds, args.windows,
                    args.spin_us)
        return
    envs = [int(n) for n in (args.envs or "1024").split(",")]
    if not args.vector_only:
        print(f"(a) Game loop, 4p:            {bench_game(s) / 1e3:8.0f} k decisions/s")
        print(f"(a) Game loop, seal:          {bench_game(s, 'seal') / 1e3:8.0f} k decisions/s")
        print(f"(b) PettingZoo AEC, 4p:       {bench_pettingzoo(s) / 1e3:8.0f} k decisions/s")
    print("(c) VectorEnv 4p self-play, uint8 observations, decisions/s:")
    vector_rows(s, threads, envs, args.hidden, args.windows)


if __name__ == "__main__":
    main()
