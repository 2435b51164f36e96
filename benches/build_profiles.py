"""Release profiles compared: the CPU time a clean build of the `yokai-septet` binary takes
under each, and the engine's speed it then runs at (`yokai-septet bench`, interleaved
runs, median decisions per CPU-second, so that other load on the machine matters less).

    python3 benches/build_profiles.py                  # fat/1, thin/1, thin/16, off/16
    python3 benches/build_profiles.py --profiles fat/1,thin/16 --repeat 7

Each profile builds in its own target folder (target/profiles/LTO-CGU), from scratch, with
the dependencies included: what `pip install .` from source compiles. A profile is
`LTO/CODEGEN_UNITS` and is set through CARGO_PROFILE_RELEASE_* variables, so Cargo.toml is
not edited.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build(profile: str, features: str) -> tuple[Path, float, float]:
    lto, cgu = profile.split("/")
    target = ROOT / "target" / "profiles" / f"{lto}-{cgu}"
    shutil.rmtree(target, ignore_errors=True)
    env = {
        **os.environ,
        "CARGO_TARGET_DIR": str(target),
        "CARGO_PROFILE_RELEASE_LTO": lto,
        "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": cgu,
    }
    cpu0, wall0 = child_cpu(), time.monotonic()
    subprocess.run(
        ["cargo", "build", "--release", "--locked", "--quiet", "-p", "yokai-septet-cli", "--bin", "yokai-septet",
         "--features", features],
        cwd=ROOT, env=env, check=True,
    )
    return target / "release" / "yokai-septet", child_cpu() - cpu0, time.monotonic() - wall0


def bench_once(binary: Path, variant: str, seconds: float) -> float:
    """Decisions per CPU-second of one `bench` run."""
    cpu0 = child_cpu()
    out = subprocess.run(
        [str(binary), "bench", "--variant", variant, "--seconds", str(seconds)],
        capture_output=True, text=True, check=True,
    ).stdout
    cpu = child_cpu() - cpu0
    m = re.search(rf"{re.escape(variant)}:\s+([0-9.]+) decisions/s", out)
    assert m, out
    return float(m.group(1)) * seconds / cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", default="fat/1,thin/1,thin/16,off/16")
    ap.add_argument("--features", default="raster", help="what the wheel's build compiles too")
    ap.add_argument("--variant", default="4p")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    profiles = args.profiles.split(",")
    print(f"# nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    built = {}
    for p in profiles:
        binary, cpu, wall = build(p, args.features)
        built[p] = binary
        print(f"built {p}: {cpu / 60:.1f} CPU-min, {wall / 60:.1f} wall-min", flush=True)
    rates: dict[str, list[float]] = {p: [] for p in profiles}
    for _ in range(args.repeat):
        for p in profiles:  # interleaved, so drift hits every profile alike
            rates[p].append(bench_once(built[p], args.variant, args.seconds))
    base = statistics.median(rates[profiles[0]])
    print(f"\n| profile (lto/codegen-units) | {args.variant} decisions per CPU-second, median of {args.repeat} | against {profiles[0]} |")
    print("|---|---:|---:|")
    for p in profiles:
        med = statistics.median(rates[p])
        print(f"| {p} | {med / 1e6:.2f} M (range {min(rates[p]) / 1e6:.2f}–{max(rates[p]) / 1e6:.2f}) | {med / base:.3f} |")
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
