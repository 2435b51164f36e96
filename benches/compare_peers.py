"""Side-by-side throughput: yokai-septet next to other card-game RL environments.

    python3 benches/compare_peers.py [--seconds S] [--no-install] [--skip-peers]
                                     [--threads 1,2]

Not part of CI. On first use it creates its own virtualenv ``.venv-peers`` (git-ignored),
installs this package (``pip install .``, a release build; its ``_core.bench_*`` functions
serve the Rust rows) and the peers (``open_spiel``, ``rlcard``,
``pettingzoo[classic]``) into it, and re-runs itself there. Everything is measured in one
run on the same machine; each measurement runs for ``--seconds``.

Rows (decisions per second; a decision = one action by a player, chance nodes excluded):

- yokai-septet: the Rust core (random playouts on one thread, dealing included); the plain
  Python ``Game`` loop (``legal_actions`` + ``random.choice`` + ``step``); ``VectorEnv``
  N=1024 self-play at each thread count of ``--threads``, uint8 and float32 observations,
  through the default ``step`` (and ``copy=False`` + ``step_all``), random legal actions
  chosen in numpy or by the Rust bots, and with a policy's work between steps (a fixed
  matrix product over the observations, ``python_speed.MatmulPolicy``); per-variant cost
  (3p, 4p, seal) of the Rust core.
- OpenSpiel ``hearts`` and ``spades`` stepped from Python (random legal actions, chance
  nodes sampled), and ``hearts`` played entirely in C++ by ``pyspiel.evaluate_bots`` with
  uniform random bots (one Python call per game; decisions per game counted by replaying
  games in Python).
- PettingZoo classic ``leduc_holdem_v4`` and ``texas_holdem_v4`` (AEC loop, random masked
  actions).
- RLCard ``leduc-holdem`` and ``doudizhu`` with random agents (``env.run``).

The ratio column compares each row with this project's corresponding path: Python-driven
loops (``VectorEnv`` included: what batching buys a Python user) with the ``Game`` loop,
C++/Rust-side loops with the Rust core. ``VectorEnv`` rows count the whole loop (the
policy's time included), and also print the step-only rate (the time inside ``step``).
Each row is the median of ``--repeat`` runs (each ``VectorEnv`` run itself the median of
its timing windows); the load average is printed with the table. numpy's BLAS runs on one
thread (``OPENBLAS_NUM_THREADS=1`` unless set), as in ``python_speed.py``, except in the
last table: ``VectorEnv`` with policies as users run them (numpy's ``tanh(obs @ W)`` and a
torch MLP at their default threads, ``python_speed.py --real``, run without the thread
variables this script set).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

# The variables set here, not by the user: the real-policy rows run without them.
SET_HERE = [v for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
            if v not in os.environ]
for _var in SET_HERE:
    os.environ[_var] = "1"

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-peers"
PEERS = ["open_spiel==2.0.2", "rlcard", "pettingzoo[classic]", "numpy"]


def ensure_venv(install: bool) -> None:
    """Re-executes this script inside .venv-peers, creating and filling it if needed."""
    py = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not py.exists():
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        install = True
    if install:
        pip = [str(py), "-m", "pip", "install", "-q"]
        subprocess.check_call(pip + ["--upgrade", "pip"])
        subprocess.check_call(pip + PEERS)
        # A plain build: it has the `_core.bench_*` functions the Rust rows call.
        subprocess.check_call(pip + [str(ROOT)])
    os.execv(str(py), [str(py), __file__, *sys.argv[1:], "--no-install"])


# ---------------------------------------------------------------- yokai-septet


def _bench_core():
    """`_core`, with its `bench_*` functions (every build since issue 60 has them)."""
    import yokai_septet._core as core

    if not hasattr(core, "bench_random_playouts"):
        raise RuntimeError("this build of yokai_septet has no _core.bench_* functions: it "
                           "predates them; reinstall this clone (pip install .)")
    return core


def ys_core(seconds: float, variant: str = "4p") -> float:
    core = _bench_core()

    games, decisions, dt = core.bench_random_playouts(variant, seconds, 1)
    return decisions / dt


def ys_arena(seconds: float, threads: int, variant: str = "4p") -> float:
    """Random-vs-random duplicate arena; games sized to run about `seconds`."""
    core = _bench_core()

    games, decisions, dt = core.bench_arena(variant, ["random", "random"], 200, threads)
    per_second = games / dt
    games, decisions, dt = core.bench_arena(variant, ["random", "random"],
                                            max(200, int(per_second * seconds)), threads)
    return decisions / dt


def ys_game_loop(seconds: float, variant: str = "4p") -> float:
    from python_speed import bench_game  # benches/, beside this script

    return bench_game(seconds, variant)


STEP_ONLY = {}  # label -> step-only rates of the runs, printed with the table


def ys_vector(seconds: float, threads: int, dtype: str, n_envs: int = 1024,
              variant: str = "4p", policy: str = "numpy", api: str = "default",
              key: str = "") -> float:
    """Whole-loop decisions per second (the policy's time included) of self-play, every
    seat played by uniformly random legal actions: drawn in numpy (`policy="numpy"`, what
    a Python policy costs at least), after a fixed matrix product over the observations
    (`policy="matmul"`, a stand-in for a forward pass), or by the built-in `random` bots in
    Rust through `bot_actions()` (`policy="bots"`, the environment's own cost); through the
    default `v.step(a)` (`api="default"`) or `copy=False` + `step_all` (`api="inplace"`).
    The step-only rate goes to `STEP_ONLY[key]`. See `python_speed.bench_vector`."""
    from python_speed import bench_vector  # benches/, beside this script

    step_only, whole = bench_vector(seconds, threads, n_envs, dtype, policy, api, variant)
    STEP_ONLY.setdefault(key, []).append(step_only)
    return whole


# ---------------------------------------------------------------- OpenSpiel


def _spiel_random_game(state, rng) -> int:
    """Plays `state` to the end from Python; returns the number of decisions."""
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n


def spiel_python(seconds: float, name: str) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        n += _spiel_random_game(game.new_initial_state(), rng)
    return n / (time.perf_counter() - t0)


def spiel_cpp(seconds: float, name: str) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    sample = 50
    per_game = sum(_spiel_random_game(game.new_initial_state(), rng)
                   for _ in range(sample)) / sample
    players = game.num_players()
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(players)]
    games, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
    return games * per_game / (time.perf_counter() - t0)


# ---------------------------------------------------------------- PettingZoo, RLCard


def pettingzoo_loop(seconds: float, name: str) -> float:
    import importlib

    from python_speed import aec_random_loop  # benches/, beside this script

    return aec_random_loop(importlib.import_module(f"pettingzoo.classic.{name}").env(), seconds)


def rlcard_loop(seconds: float, name: str) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make(name, config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        trajectories, _ = env.run(is_training=False)
        # Each player's trajectory alternates state, action, state, ...
        n += sum((len(t) - 1) // 2 for t in trajectories)
    return n / (time.perf_counter() - t0)


# ---------------------------------------------------------------- report


REPEAT = 3


def measure(label, fn, *args, **kwargs):
    """Median of REPEAT runs."""
    try:
        r = _median([fn(*args, **kwargs) for _ in range(REPEAT)])
    except Exception as e:  # a peer that fails to import or run is reported, not fatal
        print(f"  {label}: failed ({type(e).__name__}: {e})", file=sys.stderr)
        return None
    print(f"  {label}: {r:,.0f} decisions/s", file=sys.stderr)
    return r


def _median(xs):
    xs = sorted(xs)
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def machine_line() -> str:
    """Date, cores, CPU, load and Python: the line under which a run's figures go."""
    cpu = platform.processor() or platform.machine()
    try:
        load = "%.1f" % os.getloadavg()[0]
    except OSError:
        load = "?"
    return (f"{datetime.date.today()}, nproc={os.cpu_count()}, {cpu}, load average {load}, "
            f"Python {platform.python_version()}")


def fmt(x):
    if x is None:
        return "n/a"
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    return f"{x / 1e3:.1f} k"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0, help="per run")
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the median counts")
    ap.add_argument("--no-install", action="store_true",
                    help="use .venv-peers as it is (no pip install)")
    ap.add_argument("--skip-peers", action="store_true", help="only yokai-septet rows")
    ap.add_argument("--threads", default="1,2",
                    help="thread counts for the VectorEnv rows and the scaling table, "
                         "e.g. 1,2,4,8,16 on a 16-core machine")
    ap.add_argument("--no-real", action="store_true",
                    help="skip the table of policies at their default threads")
    ap.add_argument("--here", action="store_true",
                    help="run in the current interpreter, no virtualenv")
    args = ap.parse_args()
    if not args.here:
        ensure_venv(install=not args.no_install)
    s = args.seconds
    global REPEAT
    REPEAT = max(1, args.repeat)

    rows = []  # (what, implementation, decisions/s, reference key[, step-only label])
    ref = {}
    print(f"measuring (median of {REPEAT} runs of {s:g} s per row)...", file=sys.stderr)
    ref["core"] = measure("ys core 4p", ys_core, s)
    rows.append(("yokai-septet 4p: Rust core, random playouts, 1 thread", "Rust", ref["core"], "core"))
    ref["game"] = measure("ys Game loop 4p", ys_game_loop, s)
    rows.append(("yokai-septet 4p: Python `Game` loop (legal_actions + random.choice + step)",
                 "Python over Rust", ref["game"], "game"))
    threads_list = [int(t) for t in args.threads.split(",")]

    def vector_row(what, impl, *a, key=None):
        label = f"ys VectorEnv {what}"
        r = measure(label, ys_vector, *a, key=label)
        rows.append((f"yokai-septet 4p: `VectorEnv` N=1024, {what}", impl, r, "game", label))
        if key:
            ref[key] = r

    for dtype in ("uint8", "float32"):
        for threads in threads_list:
            vector_row(f"{threads} thread(s), {dtype} obs, self-play, default `step`, random "
                       "actions in numpy", "Rust batch + numpy", s, threads, dtype,
                       key=("vector", dtype, threads))
    for threads in threads_list:
        vector_row(f"{threads} thread(s), uint8 obs, self-play, default `step`, a policy's "
                   "work between steps (`obs.astype(float32) @ W`, W 711x64, then numpy "
                   "actions)", "Rust batch + numpy", s, threads, "uint8", 1024, "4p", "matmul")
        vector_row(f"{threads} thread(s), uint8 obs, self-play, `copy=False` + `step_all`, "
                   "random actions in numpy", "Rust batch + numpy", s, threads, "uint8", 1024,
                   "4p", "numpy", "inplace")
        vector_row(f"{threads} thread(s), uint8 obs, self-play, default `step`, random "
                   "actions from `bot_actions()` (Rust)", "Rust batch", s, threads, "uint8",
                   1024, "4p", "bots")
    if not args.skip_peers:
        for name in ("hearts", "spades"):
            r = measure(f"OpenSpiel {name} (Python loop)", spiel_python, s, name)
            rows.append((f"OpenSpiel `{name}`: Python loop over pyspiel, random play",
                         "Python over C++", r, "game"))
            ref[("spiel_python", name)] = r
        r = measure("OpenSpiel hearts (C++ evaluate_bots)", spiel_cpp, s, "hearts")
        rows.append(("OpenSpiel `hearts`: `evaluate_bots`, C++ uniform random bots",
                     "C++", r, "core"))
        for name in ("leduc_holdem_v4", "texas_holdem_v4"):
            r = measure(f"PettingZoo {name}", pettingzoo_loop, s, name)
            rows.append((f"PettingZoo classic `{name}`: AEC loop, random masked actions",
                         "Python", r, "game"))
        for name in ("leduc-holdem", "doudizhu"):
            r = measure(f"RLCard {name}", rlcard_loop, s, name)
            rows.append((f"RLCard `{name}`: `env.run` with random agents", "Python", r, "game"))

    # Scaling: threads (arena, VectorEnv) and variants (Rust core).
    scale = []
    for label, fn, extra in [("arena 4p, random bots", ys_arena, ()),
                             ("VectorEnv 4p N=1024 uint8, default step, numpy actions",
                              ys_vector, ("uint8",)),
                             ("VectorEnv 4p N=1024 uint8, default step, matmul policy",
                              ys_vector, ("uint8", 1024, "4p", "matmul")),
                             ("VectorEnv 4p N=1024 uint8, default step, bot_actions",
                              ys_vector, ("uint8", 1024, "4p", "bots")),
                             ("VectorEnv 4p N=16384 uint8, default step, bot_actions",
                              ys_vector, ("uint8", 16384, "4p", "bots"))]:
        kw = lambda t: {"key": f"{label} {t}t"} if fn is ys_vector else {}  # noqa: E731
        rates = [measure(f"{label} {t}t", fn, s, t, *extra, **kw(t)) for t in threads_list]
        only = ([_median(STEP_ONLY[f"{label} {t}t"]) if STEP_ONLY.get(f"{label} {t}t") else None
                 for t in threads_list] if fn is ys_vector else None)
        scale.append((label, rates, only))
    per_variant = []
    for variant in ("3p", "4p", "seal", "seal-short"):
        r = ref["core"] if variant == "4p" else measure(f"ys core {variant}", ys_core, s, variant)
        per_variant.append((variant, r))

    names = {"core": "Rust core 4p", "game": "`Game` loop 4p"}
    print(f"\n{machine_line()}, median of {REPEAT} runs of {s:g} s per row; `VectorEnv` "
          "rows: whole loop (policy included), step-only in parentheses\n")
    print("| environment / path | implementation | decisions/s | ratio to ours | compared with |")
    print("|---|---|---:|---:|---|")
    for what, impl, r, key, *label in rows:
        base = ref.get(key)
        ratio = f"{r / base:.3g}×" if r and base else "n/a"
        only = STEP_ONLY.get(label[0]) if label else None
        extra = f" ({fmt(_median(only))} step-only)" if only else ""
        print(f"| {what} | {impl} | {fmt(r)}{extra} | {ratio} | {names[key]} |")
    hearts = ref.get(("spiel_python", "hearts"))
    for (key, dtype, threads), r in [(k, v) for k, v in ref.items() if k[0:1] == ("vector",)]:
        if hearts and r:
            print(f"\nVectorEnv default `step`, N=1024, {threads} thread(s), {dtype}, numpy "
                  f"actions: {fmt(r)} decisions/s = {r / hearts:.1f}× the pyspiel `hearts` "
                  "Python loop")
    last = threads_list[-1]
    print(f"\nScaling with threads (speed-up and efficiency at {last} threads; VectorEnv "
          "rows: whole loop, then step-only):\n")
    print("| path | " + " | ".join(f"{t} thr" for t in threads_list)
          + " | speed-up | efficiency |")
    print("|---|" + "---:|" * (len(threads_list) + 2))
    for label, rates, only in scale:
        for what, rs in [(label, rates)] + ([(f"{label}, step-only", only)] if only else []):
            if all(rs):
                up = rs[-1] / rs[0] * threads_list[0]
                print(f"| {what} | " + " | ".join(fmt(r) for r in rs)
                      + f" | {up:.2f}× | {up / last:.0%} |")
    print("\nCost per variant (Rust core, random playouts, 1 thread, dealing included):\n")
    print("| variant | decisions/s | ns per decision | relative to 4p |")
    print("|---|---:|---:|---:|")
    base4 = dict(per_variant).get("4p")
    for variant, r in per_variant:
        if r:
            rel = f"{base4 / r:.2f}×" if base4 else "n/a"
            print(f"| {variant} | {fmt(r)} | {1e9 / r:.1f} | {rel} |")
    if not args.no_real:
        print("\n`VectorEnv` with policies as users run them (numpy and torch at their "
              "default threads):\n", flush=True)
        env = {k: v for k, v in os.environ.items() if k not in SET_HERE}
        subprocess.run([sys.executable, str(ROOT / "benches" / "python_speed.py"), "--real",
                        "--envs", "1024", "--threads", args.threads, "--rounds",
                        str(REPEAT), "--seconds", f"{s:g}"], env=env, check=False)


if __name__ == "__main__":
    main()
