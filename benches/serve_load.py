"""Load test of the web app (`yokai-septet serve`): many people playing at once.

Starts the server (``python -m yokai_septet serve --port 0``, or ``--server CMD``), then
CLIENTS threads each create a game against BOTS and play it to its end over one keep-alive
connection: the person's card is the first legal one (``POST /play``), each bot's move is
one ``POST /step``. Every request's wall time is measured at the client, and for a bot's
move also the server's overhead over the bot's own thinking (``last_move.think_ms``).

    python benches/serve_load.py --clients 100 --bots heuristic

Prints the median and p99 of each, how many requests took 100 ms or more, and (on Linux)
the server's CPU time per request, which does not depend on the machine's load. The
figures include the clients' own time (Python threads on the same machine): on a shared
machine, say its load next to them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time


def cpu_seconds(pid: int) -> float | None:
    """The process's user + system CPU time (Linux; None elsewhere)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def client(port: int, k: int, args, out: dict, barrier: threading.Barrier) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(method: str, path: str, body: dict | None = None) -> tuple[dict, float]:
        data = None if body is None else json.dumps(body)
        t = time.perf_counter()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        payload = r.read()
        dt = (time.perf_counter() - t) * 1e3
        if r.status >= 300:
            raise RuntimeError(f"{method} {path}: {r.status} {payload[:200]!r}")
        return json.loads(payload), dt

    req = {"variant": args.variant, "seed": args.seed + k, "bots": [args.bots],
           "max_rounds": args.max_rounds}
    g, _ = call("POST", "/api/games", req)
    barrier.wait()  # every game exists: now they all play at once
    gid = g["id"]
    while not g["over"]:
        if g["your_turn"]:
            card = next(c["card"] for c in g["hand"] if c["legal"])
            g, dt = call("POST", f"/api/games/{gid}/play", {"card": card})
            out["play"].append(dt)
        else:
            g, dt = call("POST", f"/api/games/{gid}/step")
            out["step"].append(dt)
            out["overhead"].append(dt - g["last_move"]["think_ms"])
    conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--variant", default="4p")
    ap.add_argument("--max-rounds", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--server", default=f"{sys.executable} -m yokai_septet serve",
                    help="the command that starts the server (--port 0 is appended)")
    args = ap.parse_args()

    server = subprocess.Popen(args.server.split() + ["--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        m = re.search(r":(\d+)/", server.stdout.readline())
        assert m, "the server printed no URL"
        port = int(m.group(1))
        out: dict[str, list[float]] = {"play": [], "step": [], "overhead": []}
        barrier = threading.Barrier(args.clients)
        threads = [threading.Thread(target=client, args=(port, k, args, out, barrier))
                   for k in range(args.clients)]
        cpu = cpu_seconds(server.pid)
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - t
        if cpu is not None:
            cpu = cpu_seconds(server.pid) - cpu
    finally:
        server.send_signal(2)
        server.wait(timeout=30)
    every = out["play"] + out["step"]
    print(f"{args.clients} concurrent {args.variant} games against {args.bots} "
          f"(max_rounds {args.max_rounds}), {len(every)} requests in {wall:.1f} s")
    if cpu is not None:
        print(f"  the server's CPU time: {cpu:.2f} s, {cpu / len(every) * 1e3:.2f} ms a request")
    for name, xs in [("person's card (play)", out["play"]), ("bot's move (step)", out["step"]),
                     ("every move", every), ("step minus the bot's thinking", out["overhead"])]:
        print(f"  {name:32} median {statistics.median(xs):6.1f} ms   p99 {percentile(xs, 0.99):6.1f} ms"
              f"   max {max(xs):6.1f} ms   >=100 ms: {sum(x >= 100 for x in xs)}")


if __name__ == "__main__":
    main()
