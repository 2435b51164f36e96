"""Side-by-side throughput: yokai-septet next to other card-game RL environments.

    python3 benches/compare_peers.py [--seconds S] [--no-install] [--skip-peers]
                                     [--threads 1,2]

Not part of CI. On first use it creates its own virtualenv ``.venv-peers`` (git-ignored),
installs this package (``pip install .``, a release build) and the peers (``open_spiel``,
``rlcard``, ``pettingzoo[classic]``) into it, and re-runs itself there. Everything is
measured in one run on the same machine; each measurement runs for ``--seconds``.

Rows (decisions per second; a decision = one action by a player, chance nodes excluded):

- yokai-septet: the Rust core (random playouts on one thread, dealing included); the plain
  Python ``Game`` loop (``legal_actions`` + ``random.choice`` + ``step``); ``VectorEnv``
  N=1024 self-play at each thread count of ``--threads``, uint8 and float32 observations,
  through the default ``step`` (and ``copy=False`` + ``step_all``), random legal actions
  chosen in numpy or by the Rust bots; per-variant cost (3p, 4p, seal) of the Rust core.
- OpenSpiel ``hearts`` and ``spades`` stepped from Python (random legal actions, chance
  nodes sampled), and ``hearts`` played entirely in C++ by ``pyspiel.evaluate_bots`` with
  uniform random bots (one Python call per game; decisions per game counted by replaying
  games in Python).
- PettingZoo classic ``leduc_holdem_v4`` and ``texas_holdem_v4`` (AEC loop, random masked
  actions).
- RLCard ``leduc-holdem`` and ``doudizhu`` with random agents (``env.run``).

The ratio column compares each row with this project's corresponding path: Python-driven
loops (``VectorEnv`` included: what batching buys a Python user) with the ``Game`` loop,
C++/Rust-side loops with the Rust core. Each row is the best of ``--repeat`` runs, since
other work on a shared machine can only slow a run down.
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
        subprocess.check_call(pip + [str(ROOT)])
    os.execv(str(py), [str(py), __file__, *sys.argv[1:], "--no-install"])


# ---------------------------------------------------------------- yokai-septet


def ys_core(seconds: float, variant: str = "4p") -> float:
    import yokai_septet._core as core

    games, decisions, dt = core.bench_random_playouts(variant, seconds, 1)
    return decisions / dt


def ys_arena(seconds: float, threads: int, variant: str = "4p") -> float:
    """Random-vs-random duplicate arena; games sized to run about `seconds`."""
    import yokai_septet._core as core

    games, decisions, dt = core.bench_arena(variant, ["random", "random"], 200, threads)
    per_second = games / dt
    games, decisions, dt = core.bench_arena(variant, ["random", "random"],
                                            max(200, int(per_second * seconds)), threads)
    return decisions / dt


def ys_game_loop(seconds: float, variant: str = "4p") -> float:
    from python_speed import bench_game  # benches/, beside this script

    return bench_game(seconds, variant)


def ys_vector(seconds: float, threads: int, dtype: str, n_envs: int = 1024,
              variant: str = "4p", policy: str = "numpy", api: str = "default") -> float:
    """Self-play, every seat played by uniformly random legal actions: drawn in numpy
    (`policy="numpy"`, what a Python policy costs at least), or by the built-in `random`
    bots in Rust through `bot_actions()` (`policy="bots"`, the environment's own cost);
    through the default `v.step(a)` (`api="default"`) or `copy=False` + `step_all`
    (`api="inplace"`). See `python_speed.bench_vector`."""
    from python_speed import bench_vector  # benches/, beside this script

    return bench_vector(seconds, threads, n_envs, dtype, policy, api, variant)


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


def measure(label, fn, *args):
    """Best of REPEAT runs: the machine may be shared, and interference only slows."""
    try:
        r = max(fn(*args) for _ in range(REPEAT))
    except Exception as e:  # a peer that fails to import or run is reported, not fatal
        print(f"  {label}: failed ({type(e).__name__}: {e})", file=sys.stderr)
        return None
    print(f"  {label}: {r:,.0f} decisions/s", file=sys.stderr)
    return r


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
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the best counts")
    ap.add_argument("--no-install", action="store_true",
                    help="use .venv-peers as it is (no pip install)")
    ap.add_argument("--skip-peers", action="store_true", help="only yokai-septet rows")
    ap.add_argument("--threads", default="1,2",
                    help="thread counts for the VectorEnv rows and the scaling table, "
                         "e.g. 1,2,4,8,16 on a 16-core machine")
    ap.add_argument("--here", action="store_true",
                    help="run in the current interpreter, no virtualenv")
    args = ap.parse_args()
    if not args.here:
        ensure_venv(install=not args.no_install)
    s = args.seconds
    global REPEAT
    REPEAT = max(1, args.repeat)

    rows = []  # (what, implementation, decisions/s, reference key)
    ref = {}
    print(f"measuring (best of {REPEAT} runs of {s:g} s per row)...", file=sys.stderr)
    ref["core"] = measure("ys core 4p", ys_core, s)
    rows.append(("yokai-septet 4p: Rust core, random playouts, 1 thread", "Rust", ref["core"], "core"))
    ref["game"] = measure("ys Game loop 4p", ys_game_loop, s)
    rows.append(("yokai-septet 4p: Python `Game` loop (legal_actions + random.choice + step)",
                 "Python over Rust", ref["game"], "game"))
    threads_list = [int(t) for t in args.threads.split(",")]
    for dtype in ("uint8", "float32"):
        for threads in threads_list:
            r = measure(f"ys VectorEnv {dtype} {threads}t", ys_vector, s, threads, dtype)
            rows.append((f"yokai-septet 4p: `VectorEnv` N=1024, {threads} thread(s), {dtype} obs, "
                         "self-play, default `step`, random actions in numpy",
                         "Rust batch + numpy", r, "game"))
            ref[("vector", dtype, threads)] = r
    for threads in threads_list:
        r = measure(f"ys VectorEnv uint8 {threads}t, copy=False", ys_vector, s, threads, "uint8",
                    1024, "4p", "numpy", "inplace")
        rows.append((f"yokai-septet 4p: `VectorEnv` N=1024, {threads} thread(s), uint8 obs, "
                     "self-play, `copy=False` + `step_all`, random actions in numpy",
                     "Rust batch + numpy", r, "game"))
        r = measure(f"ys VectorEnv uint8 {threads}t, bot_actions", ys_vector, s, threads, "uint8",
                    1024, "4p", "bots")
        rows.append((f"yokai-septet 4p: `VectorEnv` N=1024, {threads} thread(s), uint8 obs, "
                     "self-play, default `step`, random actions from `bot_actions()` (Rust)",
                     "Rust batch", r, "game"))
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
                             ("VectorEnv 4p N=1024 uint8, default step, bot_actions",
                              ys_vector, ("uint8", 1024, "4p", "bots")),
                             ("VectorEnv 4p N=16384 uint8, default step, bot_actions",
                              ys_vector, ("uint8", 16384, "4p", "bots"))]:
        scale.append((label, [measure(f"{label} {t}t", fn, s, t, *extra)
                              for t in threads_list]))
    per_variant = []
    for variant in ("3p", "4p", "seal", "seal-short"):
        r = ref["core"] if variant == "4p" else measure(f"ys core {variant}", ys_core, s, variant)
        per_variant.append((variant, r))

    names = {"core": "Rust core 4p", "game": "`Game` loop 4p"}
    print(f"\n{machine_line()}, best of {REPEAT} runs of {s:g} s per row\n")
    print("| environment / path | implementation | decisions/s | ratio to ours | compared with |")
    print("|---|---|---:|---:|---|")
    for what, impl, r, key in rows:
        base = ref.get(key)
        ratio = f"{r / base:.3g}×" if r and base else "n/a"
        print(f"| {what} | {impl} | {fmt(r)} | {ratio} | {names[key]} |")
    hearts = ref.get(("spiel_python", "hearts"))
    for (key, dtype, threads), r in [(k, v) for k, v in ref.items() if k[0:1] == ("vector",)]:
        if hearts and r:
            print(f"\nVectorEnv default `step`, N=1024, {threads} thread(s), {dtype}, numpy "
                  f"actions: {fmt(r)} decisions/s = {r / hearts:.1f}× the pyspiel `hearts` "
                  "Python loop")
    last = threads_list[-1]
    print(f"\nScaling with threads (speed-up and efficiency at {last} threads):\n")
    print("| path | " + " | ".join(f"{t} thr" for t in threads_list)
          + " | speed-up | efficiency |")
    print("|---|" + "---:|" * (len(threads_list) + 2))
    for label, rates in scale:
        if all(rates):
            up = rates[-1] / rates[0] * threads_list[0]
            print(f"| {label} | " + " | ".join(fmt(r) for r in rates)
                  + f" | {up:.2f}× | {up / last:.0%} |")
    print("\nCost per variant (Rust core, random playouts, 1 thread, dealing included):\n")
    print("| variant | decisions/s | ns per decision | relative to 4p |")
    print("|---|---:|---:|---:|")
    base4 = dict(per_variant).get("4p")
    for variant, r in per_variant:
        if r:
            rel = f"{base4 / r:.2f}×" if base4 else "n/a"
            print(f"| {variant} | {fmt(r)} | {1e9 / r:.1f} | {rel} |")


if __name__ == "__main__":
    main()
