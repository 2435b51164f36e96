"""The ``yokai-septet`` console script (``yokai_septet.cli:main`` → ``_core.run_cli``):
the same Rust code as the binary, with real stdin/stdout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import yokai_septet as ys

SCRIPT = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable), "yokai-septet")


def run(args, input_text="", timeout=120):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([SCRIPT, *args], input=input_text, capture_output=True, text=True,
                          timeout=timeout, env=env)


pytestmark = pytest.mark.skipif(not os.path.exists(SCRIPT), reason="console script not installed")


def test_help_lists_the_subcommands():
    p = run(["--help"])
    assert p.returncode == 0, p.stderr
    for cmd in ("play", "replay", "bench", "arena", "serve"):
        assert cmd in p.stdout


def test_scripted_play_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "game.json"
    p = run(["play", "--variant", "3p", "--seed", "4", "--save", str(path)], "1\n" * 3000)
    assert p.returncode == 0, p.stderr
    assert "Game over" in p.stdout
    assert "\x1b[" not in p.stdout  # piped: no colours
    rec = json.loads(path.read_text())
    g = ys.Game.from_record(rec)
    assert g.phase == "over" and g.winners
    r = run(["replay", str(path), "--round", "0"])
    assert r.returncode == 0 and "Round 0" in r.stdout and "Round 1" not in r.stdout
    rec["rounds"][0]["tricks"][0]["winner"] = (rec["rounds"][0]["tricks"][0]["winner"] + 1) % 3
    path.write_text(json.dumps(rec))
    r = run(["replay", str(path)])
    assert r.returncode == 2
    assert "rounds[0].tricks[0].winner" in r.stderr


def test_closed_stdin_and_bad_options():
    p = run(["play"], "1\n")
    assert p.returncode == 0
    assert "Input closed" in p.stdout
    p = run(["play", "--variant", "9p"])
    assert p.returncode == 2 and "error:" in p.stderr


def test_run_cli_in_process_returns_the_exit_code():
    from yokai_septet.cli import main

    assert main(["bench", "--seconds", "0.01", "--variant", "4p"]) == 0
    assert main(["bench", "--seconds", "-1"]) == 2


AGENTS = '''
def lowest(observations, masks):
    """A batched policy: the lowest legal card."""
    assert observations.shape[0] == masks.shape[0] == 1
    return masks.argmax(axis=1)


class Highest:
    """act(game): the highest legal card (the game is a determinization of its view)."""

    def act(self, game):
        game.record  # an attribute lookup is fine; the record itself is refused
        return game.legal_actions()[-1]


highest = Highest()


def make_highest():
    return Highest()


def illegal(observations, masks):
    return [99]


def raises(observations, masks):
    raise RuntimeError("policy is broken")
'''


def bot_moves_follow(record, human, choose):
    """Replays ``record``; every decision of a seat other than ``human`` is ``choose(legal)``."""
    g = ys.Game(record["variant"], record["scoring"], record["seed"])
    checked = 0
    for rnd in record["rounds"]:
        actions = [c for picks in rnd["passes"] for c in picks]
        actions += [c for t in rnd["tricks"] for c in t["cards"]]
        for a in actions:
            if g.current_player != human:
                assert a == choose(g.legal_actions())
                checked += 1
            g.step(a)
    return checked


@pytest.mark.parametrize("spec,choose", [
    ("agents:lowest", min),
    ("agents:highest", max),
    ("agents:make_highest", max),
])
def test_play_seats_a_python_policy(tmp_path, spec, choose):
    (tmp_path / "agents.py").write_text(AGENTS)
    path = tmp_path / "game.json"
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run([SCRIPT, "play", "--bots", spec, "--seat", "1", "--max-rounds", "1",
                        "--save", str(path)], input="1\n" * 500, capture_output=True,
                       text=True, timeout=120, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert spec in p.stdout and "Final scores" in p.stdout
    assert bot_moves_follow(json.loads(path.read_text()), 1, choose) > 20


@pytest.mark.parametrize("spec,message", [
    ("agents:illegal", "not a legal action"),
    ("agents:raises", "policy is broken"),
    ("agents:nope", "has no attribute 'nope'"),
    ("nosuchmodule:x", "No module named 'nosuchmodule'"),
])
def test_play_with_a_failing_python_policy_says_why(tmp_path, spec, message):
    (tmp_path / "agents.py").write_text(AGENTS)
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run([SCRIPT, "play", "--bots", spec, "--seat", "3"], input="1\n" * 50,
                       capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert p.returncode in (1, 2), p.stdout
    assert message in p.stderr and spec in p.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_play_seats_a_python_policy_on_a_terminal(tmp_path):
    """As a person runs it: stdin and stdout on a pseudo-terminal, typing at the prompt."""
    import select
    import time

    (tmp_path / "agents.py").write_text(AGENTS)
    leader, follower = os.openpty()
    env = dict(os.environ, NO_COLOR="1", TERM="xterm")
    proc = subprocess.Popen([SCRIPT, "play", "--bots", "agents:lowest", "--seat", "2"],
                            stdin=follower, stdout=follower, stderr=follower, cwd=tmp_path,
                            env=env)
    os.close(follower)
    seen = b""

    def read_until(text, timeout=60.0):
        nonlocal seen
        end = time.monotonic() + timeout
        while text not in seen and time.monotonic() < end:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(leader, 4096)
                except OSError:
                    break
        return text in seen

    try:
        assert read_until(b"Pass>"), seen.decode(errors="replace")
        assert b"agents:lowest" in seen
        os.write(leader, b"1 2 3\n")
        assert read_until(b"Play>"), seen.decode(errors="replace")
        os.write(leader, b"q\n")
        assert read_until(b"You left the game."), seen.decode(errors="replace")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)


def test_ladder_plot_writes_a_png_of_the_elo_table(tmp_path):
    import struct

    path = tmp_path / "ladder.png"
    p = run(["ladder", "--variant", "4p", "--bots", "random,heuristic", "--games", "8",
             "--max-rounds", "3", "--plot", str(path)])
    assert p.returncode == 0, p.stderr
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1080 and height > 150  # the 720-unit chart at scale 1.5
    assert "| `heuristic` |" in p.stdout  # the table the picture shows
