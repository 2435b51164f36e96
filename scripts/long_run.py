#!/usr/bin/env python3
"""Long soak run (issue 9): many decisions through the Python ``Game`` loop and through
``VectorEnv``, watching resident memory.

    python scripts/long_run.py                       # 10M Game + 100M VectorEnv decisions
    python scripts/long_run.py --game 1e6 --vector 1e7   # a shorter run

Phase 1 plays random games with ``Game`` (legal_actions, step, an observation into a
reused buffer every decision, a fresh observation and mask now and then, the record and
a ``from_record`` replay at the end of games). Phase 2 steps a self-play ``VectorEnv``
(N envs, T threads, uint8 observations, ``copy=False``) with random legal actions.

Resident memory (VmRSS from /proc/self/status, else ``resource`` peak) is printed at the
start, every ``--every`` seconds and at the end. The baseline of each phase is taken
after its warm-up (the first ``--warmup`` fraction of its decisions); the script exits
with status 1 if either phase grew by more than ``--limit-mb`` after its warm-up.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

import yokai_septet as ys


def rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


class Watch:
    def __init__(self, name: str, total: int, warmup: float, every: float):
        self.name, self.total, self.every = name, total, every
        self.warm_at = int(total * warmup)
        self.t0 = self.last = time.perf_counter()
        self.start = rss_mb()
        self.base: float | None = None
        self.peak = self.start
        print(f"[{name}] start: {total:,} decisions, rss {self.start:.1f} MB", flush=True)

    def tick(self, done: int) -> None:
        if self.base is None and done >= self.warm_at:
            self.base = rss_mb()
            print(f"[{self.name}] after warm-up ({done:,} decisions): rss {self.base:.1f} MB",
                  flush=True)
        now = time.perf_counter()
        if now - self.last >= self.every:
            self.last = now
            r = rss_mb()
            self.peak = max(self.peak, r)
            rate = done / (now - self.t0)
            print(f"[{self.name}] {done:>13,} decisions  {rate / 1e6:7.3f} M/s  "
                  f"rss {r:8.1f} MB  (+{r - (self.base or self.start):.1f})", flush=True)

    def end(self, done: int) -> float:
        el = time.perf_counter() - self.t0
        r = rss_mb()
        base = self.base if self.base is not None else self.start
        growth = r - base
        print(f"[{self.name}] end: {done:,} decisions in {el:.1f} s ({done / el / 1e6:.3f} M/s); "
              f"rss start {self.start:.1f} MB, after warm-up {base:.1f} MB, end {r:.1f} MB, "
              f"peak {max(self.peak, r):.1f} MB, growth after warm-up {growth:+.1f} MB",
              flush=True)
        return growth


VARIANTS = ["4p", "3p", "seal", "seal-short"]


def game_phase(total: int, w: Watch, seed: int) -> None:
    rng = random.Random(seed)
    done = games = 0
    bufs = {}
    while done < total:
        v = VARIANTS[games % 4]
        g = ys.Game(v, seed=rng.randrange(2**64), max_rounds=8 if v == "seal" else None)
        buf = bufs.setdefault(v, np.zeros(g.observation_size, dtype=np.float32))
        while g.phase != "over":
            la = g.legal_actions()
            g.step(la[int(rng.random() * len(la))])
            done += 1
            if g.current_player >= 0:
                g.observation(out=buf)
            if done & 1023 == 0:
                g.observation(0)
                g.legal_mask()
                w.tick(done)
        games += 1
        rec = g.record()
        if games % 64 == 0:
            assert ys.Game.from_record(rec).record() == rec
            ys.Game.from_record(g.record_json())
    w.tick(done)
    print(f"[game] {games:,} games", flush=True)
    return done


def vector_phase(total: int, w: Watch, n: int, threads: int, seed: int) -> int:
    try:
        env = ys.VectorEnv(n, "4p", seed=seed, self_play=True, num_threads=threads,
                           obs_dtype="uint8", copy=False)
    except ValueError:  # no uint8 observations
        env = ys.VectorEnv(n, "4p", seed=seed, self_play=True, num_threads=threads,
                           copy=False)
    print(f"[vector] N={n} threads={env.num_threads} obs dtype {env.observations.dtype}",
          flush=True)
    rng = np.random.default_rng(seed)
    _, info = env.reset()
    noise = np.empty(info["action_mask"].shape, dtype=np.float32)
    done = episodes = 0
    while done < total:
        rng.random(out=noise, dtype=np.float32)
        actions = np.argmax(info["action_mask"] * (noise + 0.01), axis=1)
        _, _, term, trunc, info = env.step(actions)
        episodes += int(term.sum() + trunc.sum())
        done += n
        w.tick(done)
    print(f"[vector] {episodes:,} episodes finished", flush=True)
    return done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", type=float, default=10e6, help="Game-loop decisions")
    ap.add_argument("--vector", type=float, default=100e6, help="VectorEnv decisions")
    ap.add_argument("--num-envs", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warmup", type=float, default=0.05, help="warm-up fraction")
    ap.add_argument("--every", type=float, default=15.0, help="report every N seconds")
    ap.add_argument("--limit-mb", type=float, default=20.0)
    a = ap.parse_args()
    print(f"yokai_septet {ys.__version__}; rss at start {rss_mb():.1f} MB", flush=True)
    failed = []
    if a.game > 0:
        w = Watch("game", int(a.game), a.warmup, a.every)
        done = game_phase(int(a.game), w, a.seed)
        if w.end(done) > a.limit_mb:
            failed.append("game")
    if a.vector > 0:
        w = Watch("vector", int(a.vector), a.warmup, a.every)
        done = vector_phase(int(a.vector), w, a.num_envs, a.threads, a.seed)
        if w.end(done) > a.limit_mb:
            failed.append("vector")
    if failed:
        print(f"FAIL: resident memory grew by more than {a.limit_mb} MB after warm-up in: "
              f"{', '.join(failed)}", flush=True)
        return 1
    print(f"OK: resident memory flat (within {a.limit_mb} MB after warm-up)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
