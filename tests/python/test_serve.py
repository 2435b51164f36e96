"""``python -m yokai_septet serve`` from the installed package: it prints its URL, answers
the API on loopback, refuses another site's request, stops on Ctrl-C (SIGINT) with exit
code 0, and ``benches/serve_load.py`` runs against it (a tiny run; the figures are in
docs/play.md). The page itself is driven in a browser by test_serve_browser.py."""

from __future__ import annotations

import json
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
    r = urllib.request.Request(url, data=data, method=method, headers=headers or {})
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
