"""A 1-million-game evaluation on Ray: heuristic vs random, 4-player, duplicate deals.

    pip install '.[ray]'
    python examples/ray_arena.py                      # a local Ray instance on every core
    python examples/ray_arena.py --games 100000 --num-cpus 2
    python examples/ray_arena.py --address auto       # an existing cluster (ray start ...)

Prints the summary and the games per second. The summary is exactly what the local
``yokai_septet.arena`` gives for the same arguments (``--check`` verifies it, playing the
games a second time locally).
"""

import argparse
import json
import time

import ray

import yokai_septet as ys
from yokai_septet import distributed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="heuristic,random")
    p.add_argument("--variant", default="4p")
    p.add_argument("--address", default=None, help="a Ray cluster (e.g. auto); default: local")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local instance")
    p.add_argument("--cpus-per-task", type=int, default=1)
    p.add_argument("--num-tasks", type=int, default=None)
    p.add_argument("--check", action="store_true", help="compare with the local arena")
    a = p.parse_args()

    if a.address:
        ray.init(address=a.address)
    else:
        ray.init(num_cpus=a.num_cpus, include_dashboard=False)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    args = dict(bots=a.bots, variant=a.variant, games=a.games, seed=a.seed)

    t = time.perf_counter()
    summary = distributed.arena(
        **args, num_tasks=a.num_tasks, cpus_per_task=a.cpus_per_task
    )
    seconds = time.perf_counter() - t
    print(json.dumps(summary, indent=1))
    print(
        f"{summary['games']} games on {cpus} Ray CPUs in {seconds:.1f} s: "
        f"{summary['games'] / seconds:,.0f} games/s"
    )
    if a.check:
        t = time.perf_counter()
        local = ys.arena(**args)
        seconds = time.perf_counter() - t
        print(f"local arena: {summary['games'] / seconds:,.0f} games/s; identical: {local == summary}")
        assert local == summary
    ray.shutdown()


if __name__ == "__main__":
    main()
