"""``python -m yokai_septet serve`` from the installed package: it prints its URL, answers
the API on loopback, refuses another site's request, stops on Ctrl-C (SIGINT) with exit
code 0, runs only the built-in bots (a request's ``module:function`` is never imported,
its ``nn:PATH`` never read: issue 57), and ``benches/serve_load.py`` and
``scripts/serve_hostile.py --quick`` run against it (the figures are in docs/play.md).
The page itself is driven in a browser by test_serve_browser.py."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def request(url, method="GET", body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    h = {} if method == "GET" else {"Content-Type": "application/json"}
    h.update(headers or {})
    r = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(r, timeout=60) as f:
            return f.status, json.loads(f.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_serve_from_the_package_answers_and_stops_on_ctrl_c():
    p = subprocess.Popen([sys.executable, "-m", "yokai_septet", "serve", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        url = m.group(0)
        status, options = request(url + "api/options")
        assert status == 200 and "heuristic" in options["bots"]
        status, g = request(url + "api/games", "POST", {"variant": "3p", "seed": 1, "seat": 2})
        assert status == 201 and g["seat"] == 2 and len(g["hand"]) > 0
        status, e = request(url + "api/games", "POST", {}, {"Origin": "http://evil.example"})
        assert status == 403 and "Origin" in e["error"]
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "Server stopped" in out
    assert err == ""


def test_serve_warns_when_it_listens_beyond_loopback():
    p = subprocess.run([sys.executable, "-m", "yokai_septet", "serve", "--host", "not-an-ip"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not-an-ip" in p.stderr
    p = subprocess.Popen([sys.executable, "-m", "yokai_septet", "serve", "--host", "0.0.0.0",
                          "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "http://" in p.stdout.readline()
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert "warning: listening on 0.0.0.0, not loopback only" in err


def test_the_load_script_runs():
    p = subprocess.run([sys.executable, str(ROOT / "benches" / "serve_load.py"), "--clients", "3",
                        "--variant", "3p"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "3 concurrent 3p games against heuristic" in p.stdout
    for row in ["person's card (play)", "bot's move (step)", "every move", "step minus the bot's thinking"]:
        assert re.search(re.escape(row) + r" +median +[\d.]+ ms +p99 +[\d.]+ ms", p.stdout), p.stdout


def serve(*args, env=None):
    """A server on a free port: (process, its URL)."""
    p = subprocess.Popen([sys.executable, "-m", "yokai_septet", "serve", "--port", "0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, line + p.stderr.read()
    return p, m.group(0)


def rss(pid):
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_a_requests_bot_maker_is_never_imported_nor_its_path_read(tmp_path):
    marker = tmp_path / "imported"
    (tmp_path / "ys_serve_probe.py").write_text(
        f"open({str(marker)!r}, 'w').write('imported')\n"
        "def make(seed):\n    raise SystemExit('called')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p, url = serve(env=env)
    try:
        before = rss(p.pid)
        errors = {}
        for name in ["ys_serve_probe:make", "os:getpid", "os:abort", "nn:/dev/zero",
                     "nn:/dev/stdin", "nn:/etc/passwd", "nn:/nonexistent",
                     "ismcts-nn:/dev/zero", "ismcts-nn:100:/etc/passwd"]:
            status, e = request(url + "api/games", "POST", {"bots": [name]})
            assert status == 422, (name, e)
            # A short answer in a player's words (the list of bots is on request).
            assert "random, heuristic" not in e["error"] and "request" not in e["error"], e
            if name.startswith("nn:"):
                assert "does not load bots from files" in e["error"], e
            errors[name] = e["error"].replace(name, "NAME")
        # Nothing was imported, nothing called, nothing read: the server is alive, its pid
        # was not answered, and its memory did not grow by reading /dev/zero.
        assert not marker.exists()
        assert p.poll() is None
        assert not any(str(p.pid) in e for e in errors.values())
        assert rss(p.pid) - before < 16 << 20
        # A file that exists and one that does not are refused alike: no oracle.
        assert errors["nn:/etc/passwd"] == errors["nn:/nonexistent"]
        status, options = request(url + "api/options")
        assert status == 200 and "heuristic" in options["bots"]
        # The same name in a record's players is refused too.
        status, g = request(url + "api/games", "POST", {"seed": 3, "seat": 0})
        status, rec = request(url + f"api/games/{g['id']}/record")
        rec["players"][1] = "ys_serve_probe:make"
        status, e = request(url + "api/games/load", "POST", rec)
        assert status == 422, e
        assert not marker.exists()
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)


def test_budgets_over_the_cap_are_refused_and_the_flags_are_checked():
    p, url = serve("--max-think-ms", "500", "--workers", "1", "--idle-minutes", "5")
    try:
        status, e = request(url + "api/games", "POST", {"bots": ["pimc:600000ms"]})
        assert status == 422 and "500 ms" in e["error"], e
        status, e = request(url + "api/games", "POST", {"bots": ["pimc:1000000"]})
        assert status == 422 and "7500" in e["error"], e
        status, options = request(url + "api/options")
        assert options["max_think_ms"] == 500
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
    for bad in [["--max-think-ms", "0"], ["--workers", "0"], ["--models", "/nonexistent-dir"],
                ["--max-connections", "15"], ["--max-connections", "4097"]]:
        r = subprocess.run([sys.executable, "-m", "yokai_septet", "serve", "--port", "0", *bad],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (bad, r.stderr)


def test_the_hostile_battery_runs_clean():
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "serve_hostile.py"), "--quick"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "the battery is clean" in p.stdout
