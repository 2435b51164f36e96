"""Every ``yokai-septet`` subcommand as a person runs it: on a real terminal (a
pseudo-terminal, so stdin, stdout and stderr are all ttys) and piped. A hang fails the test
within a bounded time instead of stalling the suite: the child is killed at the deadline.

The piped runs of ``play``/``replay``/``bench`` are in test_cli.py; here every subcommand
also runs piped so that the two ways are compared on the same command line."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

SCRIPT = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable), "yokai-septet")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = re.compile(r"(Pass|Play)> ")


def test_the_console_script_is_installed():
    # Every test below runs it: a missing script must fail loudly, never skip.
    assert os.path.exists(SCRIPT), SCRIPT


def on_terminal(args, answer=None, timeout=60.0, program=None):
    """Runs the console script (or ``program``, a list: ``[sys.executable, "-c", code]``)
    with a pseudo-terminal as stdin, stdout and stderr.

    ``answer(screen_so_far)`` may return bytes to type. Returns (exit code, screen text with
    colours and cursor moves removed, raw bytes). Fails the test if the command does not end
    within ``timeout`` seconds."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    child = subprocess.Popen([*(program or [SCRIPT]), *args], stdin=slave, stdout=slave, stderr=slave,
                             env=env, start_new_session=True, close_fds=True)
    os.close(slave)
    raw = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                tail = ANSI.sub("", raw[-600:].decode("utf-8", "replace"))
                pytest.fail(f"`yokai-septet {' '.join(args)}` hung on a terminal for "
                            f"{timeout:.0f} s; its screen ended with:\n{tail}")
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 1 << 16)
                except OSError:  # EIO: every copy of the terminal's other end is closed
                    chunk = b""
                if not chunk:
                    break
                raw += chunk
                if answer is not None:
                    typed = answer(raw.decode("utf-8", "replace"))
                    if typed:
                        os.write(master, typed)
            elif child.poll() is not None:
                break
        code = child.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(master)
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    text = ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r\n", "\n")
    return code, text, bytes(raw)


def piped(args, input_text="", timeout=60.0):
    try:
        return subprocess.run([SCRIPT, *args], input=input_text, capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        pytest.fail(f"`yokai-septet {' '.join(args)}` hung with piped input and output")


ARENA = ["arena", "--variant", "4p", "--bots", "heuristic,random", "--games", "20000",
         "--threads", "0"]


def test_arena_on_a_terminal_shows_progress_and_finishes():
    # The README's main command. It once hung here: the main thread held the stderr lock
    # while the worker threads drew the progress bar.
    code, text, raw = on_terminal(ARENA, timeout=120)
    assert code == 0, text
    assert re.search(r"arena 4p: 20000 games of heuristic vs random on \d+ threads? "
                     r"\(per decision heuristic [\d.]+ [nµm]?s", text), text
    # One estimate, on the bar, revised there in place; never "0.00 ms".
    assert re.search(r", about [^\]]+ in all\]", text), text
    assert "judging by" not in text and "roughly" not in text and "0.00 ms" not in text
    assert re.search(r"\d+/20000 games", text), "no progress bar was drawn:\n" + text[-800:]
    assert "heuristic" in text and "random" in text
    assert re.search(r"20000 games, \d+ decisions in [\d.]+ s on \d+ threads?: \d+ games/s", text), text


def test_arena_piped_prints_the_same_table_without_a_bar():
    p = piped(ARENA, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "games/s" in p.stdout and "/20000 games" not in p.stdout + p.stderr
    j = piped(["arena", "--games", "200", "--json"])
    assert j.returncode == 0, j.stderr
    assert json.loads(j.stdout)["summary"]["games"] == 200
    assert j.stderr == ""


def test_arena_json_on_a_terminal_keeps_the_json_clean():
    code, text, _ = on_terminal(["arena", "--games", "2000", "--json"], timeout=60)
    assert code == 0, text
    assert "games [" not in text and "judging by" not in text
    assert json.loads(text)["summary"]["games"] == 2000


LADDER = ["ladder", "--variant", "4p", "--bots", "random,heuristic,pimc:4", "--games", "40",
          "--max-rounds", "3"]


def test_ladder_on_a_terminal_says_what_it_plays_and_shows_each_pairing():
    code, text, _ = on_terminal(LADDER, timeout=180)
    assert code == 0, text[-800:]
    assert re.search(r"ladder 4p: 3 pairings × 40 games = 120 games on \d+ threads?", text), text
    assert re.search(r"120 games on \d+ threads? \(per decision random [\d.]+ [nµm]?s, "
                     r"heuristic [\d.]+ [nµm]?s, pimc:4 [\d.]+ [nµm]?s; \d+ decisions a game\)",
                     text), text
    assert re.search(r", about [^\]]+ in all\]", text), text
    assert re.search(r"random vs heuristic .*\d+/40 games", text), text
    assert re.search(r"ladder 4p .*\d+/120 games", text), text
    assert "pairing 3/3 done: heuristic vs pimc:4" in text
    assert "| rank | bot | Elo |" in text


def test_ladder_piped_prints_only_its_table():
    p = piped(LADDER, timeout=180)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("### 4p") and "| rank | bot | Elo |" in p.stdout
    assert p.stderr == ""


def test_python_arena_shows_progress_on_a_terminal_and_never_when_piped():
    code = ("import yokai_septet as ys; "
            "s = ys.arena(['heuristic', 'random'], games=4000, max_rounds=3); "
            "print('games', s['games'])")
    status, text, _ = on_terminal([], timeout=120, program=[sys.executable, "-c", code])
    assert status == 0, text
    assert re.search(r"\d+/4000", text), "no progress on a terminal:\n" + text
    assert "games 4000" in text
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "games 4000\n" and p.stderr == ""


def test_play_load_on_a_terminal_resumes_where_the_game_stopped(tmp_path):
    path = tmp_path / "game.json"
    typed = [0]

    def some_then_quit(screen: str) -> bytes:
        prompts = len(PROMPT.findall(ANSI.sub("", screen)))
        if prompts > typed[0]:
            typed[0] = prompts
            return b"1\n" if prompts <= 5 else b"q\n"
        return b""
    code, text, _ = on_terminal(["play", "--seed", "7", "--save", str(path)],
                                answer=some_then_quit, timeout=60)
    assert code == 0 and "You left the game." in text, text[-600:]
    saved = json.loads(path.read_text())
    picks = sum(len(p) for r in saved["rounds"] for p in r["passes"])
    assert picks >= 5
    typed = [0]
    code, text, _ = on_terminal(["play", "--load", str(path), "--save", str(path)],
                                answer=answer_every_prompt(typed), timeout=90)
    assert code == 0, text[-800:]
    assert f"Resumed {path} at round 0" in text
    assert "seed 7" in text and ("Game over" in text or "round cap" in text)
    final = json.loads(path.read_text())
    assert final["over"] and final["seed"] == 7
    # The decisions made before the break are the game's first ones.
    assert final["rounds"][0]["passes"][0][:3] == saved["rounds"][0]["passes"][0][:3]


def test_play_load_without_bots_resumes_with_the_saved_bots_and_seat(tmp_path):
    path = tmp_path / "game.json"
    args = ["play", "--seed", "5", "--bots", "random,heuristic,random", "--seat", "1"]
    code, text, _ = on_terminal(args + ["--save", str(path)],
                                answer=answer_every_prompt([0], quit_after=3), timeout=60)
    assert code == 0 and "You left the game." in text, text[-600:]
    saved = json.loads(path.read_text())
    assert saved["players"] == ["random", None, "heuristic", "random"]
    typed = [0]
    code, text, _ = on_terminal(["play", "--load", str(path), "--save", str(path)],
                                answer=answer_every_prompt(typed), timeout=90)
    assert code == 0, text[-800:]
    assert f"Resumed {path} at round 0" in text and "with its bots and seat" in text
    final = json.loads(path.read_text())
    assert final["over"] and final["players"] == saved["players"]
    assert final["rounds"][0]["passes"][1][:3] == saved["rounds"][0]["passes"][1][:3]


def test_play_load_without_save_keeps_saving_to_the_loaded_file(tmp_path):
    # Once, a game resumed without --save stopped saving: every move after resuming was
    # lost, and quitting said nothing of it.
    path = tmp_path / "game.json"
    code, text, _ = on_terminal(["play", "--seed", "3", "--save", str(path)],
                                answer=answer_every_prompt([0], quit_after=2), timeout=60)
    assert code == 0 and f"You left the game. It is saved in {path}" in ANSI.sub("", text), \
        text[-600:]
    picks = lambda rec: sum(len(p) for r in rec["rounds"] for p in r["passes"])  # noqa: E731
    before = picks(json.loads(path.read_text()))
    code, text, _ = on_terminal(["play", "--load", str(path)],
                                answer=answer_every_prompt([0], quit_after=3), timeout=60)
    plain = ANSI.sub("", text)
    assert code == 0, plain[-800:]
    assert f"saving to {path} as you play" in plain, plain[-800:]
    assert f"It is saved in {path}; `yokai-septet play --load {path}` goes on" in plain
    assert picks(json.loads(path.read_text())) > before, "the moves after resuming were lost"


def answer_every_prompt(typed: list[int], quit_after: int | None = None):
    """Types ``1`` (the first card it may choose) at every new prompt; ``q`` at the ones
    after the first ``quit_after``."""
    def answer(screen: str) -> bytes:
        prompts = len(PROMPT.findall(ANSI.sub("", screen)))
        if prompts > typed[0]:
            typed[0] = prompts
            return b"q\n" if quit_after is not None and prompts > quit_after else b"1\n"
        return b""
    return answer


@pytest.mark.parametrize("variant,max_rounds", [("4p", "0"), ("3p", "0"), ("seal-short", "1")])
def test_play_on_a_terminal_to_the_end(tmp_path, variant, max_rounds):
    path = tmp_path / "game.json"
    typed = [0]
    code, text, raw = on_terminal(
        ["play", "--variant", variant, "--seed", "5", "--max-rounds", max_rounds,
         "--save", str(path)],
        answer=answer_every_prompt(typed), timeout=90)
    assert code == 0, text[-800:]
    assert "Game over" in text or "round cap" in text, text[-800:]
    assert typed[0] > 10  # it really was played from the terminal, prompt by prompt
    assert b"\x1b[" in raw  # a terminal gets colours
    rec = json.loads(path.read_text())
    assert rec["over"] and rec["variant"] == variant


def test_play_against_the_nn_baseline_on_a_terminal(tmp_path):
    """``--bots nn`` seats the shipped neural-network baseline of the variant."""
    path = tmp_path / "game.json"
    typed = [0]
    code, text, _ = on_terminal(
        ["play", "--variant", "3p", "--bots", "nn", "--seed", "2", "--max-rounds", "0",
         "--save", str(path)],
        answer=answer_every_prompt(typed), timeout=90)
    assert code == 0, text[-800:]
    assert "(nn)" in text and typed[0] > 10
    assert json.loads(path.read_text())["over"]
    wrong = tmp_path / "four.safetensors"
    from yokai_septet import models
    models.load("4p").save(wrong)
    p = piped(["play", "--variant", "3p", "--bots", f"nn:{wrong}"], "")
    assert p.returncode != 0 and "cannot play 3p: its weights are for 4p" in p.stderr


def test_play_piped_plays_the_same_game():
    p = piped(["play", "--variant", "3p", "--seed", "5"], "1\n" * 3000)
    assert p.returncode == 0, p.stderr
    assert "Game over" in p.stdout and "\x1b[" not in p.stdout


def test_play_help_on_a_terminal_spells_out_the_suits():
    sent = []

    def answer(screen: str) -> bytes:
        if PROMPT.search(ANSI.sub("", screen)) and not sent:
            sent.append(1)
            return b"?\nq\n"
        return b""
    code, text, _ = on_terminal(["play", "--seed", "1"], answer=answer, timeout=30)
    assert code == 0, text
    assert "numbered cards are the ones you may choose" in text
    for word in ("Wind", "Earth", "Charm", "Lightning", "Darkness", "Fire", "Snow", "docs/rules.md"):
        assert word in text, word


@pytest.fixture(scope="module")
def record_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "game.json"
    p = piped(["play", "--variant", "4p", "--seed", "2", "--save", str(path)], "1\n" * 3000)
    assert p.returncode == 0, p.stderr
    return path


@pytest.mark.parametrize("extra", [[], ["--round", "0"]])
def test_replay_on_a_terminal_and_piped(record_path, extra):
    code, text, _ = on_terminal(["replay", str(record_path), *extra], timeout=30)
    assert code == 0, text
    p = piped(["replay", str(record_path), *extra])
    assert p.returncode == 0, p.stderr
    assert "Round 0" in text and "Round 0" in p.stdout
    # The same words either way; only the colours differ.
    assert text.split() == p.stdout.split()
    if extra:
        assert "Round 1" not in text


def test_analyze_on_a_terminal_and_piped(record_path):
    args = ["analyze", str(record_path), "--budget", "100000"]
    code, text, _ = on_terminal(args, timeout=120)
    assert code == 0, text
    p = piped(args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", "no progress bar into a pipe"
    for needle in ("double-dummy analysis", "Round 0", "Per seat"):
        assert needle in text and needle in p.stdout
    # The bar is drawn on the terminal only, and --json is the report alone.
    assert " plays [" not in p.stdout
    j = piped([*args, "--json"])
    assert j.returncode == 0 and j.stderr == ""
    assert json.loads(j.stdout)["budget"] == 100000


def test_bench_on_a_terminal_and_piped():
    args = ["bench", "--seconds", "0.05", "--variant", "3p"]
    code, text, _ = on_terminal(args, timeout=30)
    assert code == 0, text
    p = piped(args)
    assert p.returncode == 0, p.stderr
    assert "decisions/s" in text and "decisions/s" in p.stdout


def test_rules_and_help_point_inside_the_package():
    code, text, _ = on_terminal(["rules"], timeout=30)
    assert code == 0
    assert "R1. Cards" in text and "R7. The end of a round" in text
    p = piped(["--help"])
    assert p.returncode == 0
    assert "yokai-septet rules" in p.stdout and "docs/rules.md" in p.stdout and "docs/api.md" in p.stdout


def test_errors_on_a_terminal_are_reported_and_do_not_hang(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, text, _ = on_terminal(["replay", str(bad)], timeout=30)
    assert code == 2 and "not valid JSON" in text
    code, text, _ = on_terminal(["arena", "--bots", "nobody,random", "--games", "10"], timeout=30)
    assert code == 2 and "nobody" in text


def play_typing(lines_at_prompts, args=("play", "--seed", "1"), timeout=60):
    """Plays on a terminal, typing ``lines_at_prompts(prompt_text)`` at each new prompt
    (``Pass> `` or ``Play> ``); returns (exit code, screen)."""
    seen = [0]

    def answer(screen: str) -> bytes:
        prompts = PROMPT.findall(ANSI.sub("", screen))
        if len(prompts) > seen[0]:
            seen[0] = len(prompts)
            return lines_at_prompts(prompts[-1], len(prompts))
        return b""
    return on_terminal(list(args), answer=answer, timeout=timeout)[:2]


def test_a_function_key_at_the_prompt_is_named_not_shown_as_an_empty_code():
    # F5 types ESC [ 1 5 ~: echoed back raw, the terminal would swallow it ("''").
    code, text = play_typing(lambda _p, n: b"\x1b[15~\n" if n == 1 else b"q\n")
    assert code == 0, text[-800:]
    assert "'^[[15~' is a key, not a card code: type a card code such as E7" in text, text[-800:]
    assert "'' is not a card code" not in text and "'\x1b[15~'" not in text


def test_the_help_says_what_the_hint_asks_while_passing_and_in_play():
    code, text = play_typing(lambda _p, n: b"?\n" if n == 1 else b"q\n")
    assert code == 0, text[-800:]
    assert "in play, the strongest bot's choice (ismcts)" in text, text[-800:]
    assert "while passing, the heuristic bot's pick" in text, text[-800:]


def test_a_hint_in_play_is_in_round_points_as_on_the_page():
    """The page's hint (test_serve_browser.py) says its values in round points: the
    terminal's says the same scale in the same words."""
    hinted = []

    def typed(prompt, _n):
        if prompt == "Pass":
            return b"1\n"
        if not hinted:
            hinted.append(1)
            return b"hint\n"
        return b"q\n"
    code, text = play_typing(typed, args=("play", "--seed", "3"), timeout=90)
    assert code == 0, text[-800:]
    m = re.search(r"Hint \(ismcts, \d+ searches\): play \w+ \(([+-]\d+\.\d\d)\)", text)
    assert m, text[-1500:]
    assert "value in round points: our score - theirs, +0.7 round won, +/-7 game won/lost" in text, \
        text[-1500:]
    assert "(our score - theirs) / target" not in text


def test_a_typo_in_bots_on_a_terminal_gets_did_you_mean():
    code, text, _ = on_terminal(["play", "--bots", "heurstic"], timeout=30)
    assert code == 2, text
    assert "unknown bot 'heurstic': did you mean heuristic?" in text, text
    assert "valid names are" not in text  # the one name meant, not the forty
    code, text, _ = on_terminal(["arena", "--bots", "random,ismtcs:50", "--games", "2"], timeout=30)
    assert code == 2 and "did you mean ismcts?" in text, text
    # Far from every name: the list of them.
    code, text, _ = on_terminal(["play", "--bots", "stockfish"], timeout=30)
    assert code == 2 and "unknown bot 'stockfish': valid names are" in text, text


def test_the_arena_on_a_terminal_says_it_rounds_up_to_whole_boards():
    code, text, _ = on_terminal(["arena", "--variant", "3p", "--games", "10", "--max-rounds", "1",
                                 "--threads", "1"], timeout=60)
    assert code == 0, text[-800:]
    assert ("note: --games 10 rounded up to 12: duplicate deals play each deal once per seat "
            "rotation, so whole sets of 3 games") in text, text[-800:]
    p = piped(["arena", "--variant", "3p", "--games", "10", "--max-rounds", "1", "--threads", "1", "--json"])
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["summary"]["games"] == 12
    assert p.stderr.count("rounded up to 12") == 1
