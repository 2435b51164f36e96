"""The web app (``python -m yokai_septet serve``) in a real headless browser (Chromium,
driven by Playwright): whole games played by clicks, an illegal card tried, a hint, a
round's review, a save and a reload, a watched game of bots, and the page's own weight.

Marked ``browser`` (not part of the default run): it needs Chromium and the ``browser``
extra; ``bash scripts/test_extras.sh`` installs both and runs it. ``YS_CHROMIUM`` names
another Chromium binary. With ``YS_WRITE_PICTURES=1`` it also writes the table's
screenshots of ``docs/pictures/serve_*.png``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

# The module's Chromium (a fixture) and the screenshot check of the replay viewer's test.
from test_replay_browser import browser, not_blank  # noqa: F401

pytestmark = pytest.mark.browser

PICTURES = Path(__file__).resolve().parents[2] / "docs" / "pictures"


@pytest.fixture(scope="module")
def server():
    """`python -m yokai_septet serve --port 0`; stopped with Ctrl-C (SIGINT) at the end."""
    p = subprocess.Popen([sys.executable, "-m", "yokai_septet", "serve", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, line + p.stderr.read()
    yield m.group(0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "Server stopped" in out


def open_page(browser, url):
    """The page, with every request and script error recorded."""
    page = browser.new_page(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, response, requests, errors


def state(page) -> dict:
    return page.evaluate("() => game")


def wait_settled(page):
    """Until the person must act or the game is over (the bots move on their own)."""
    page.wait_for_function("() => game && !busy && (game.over || game.your_turn)", timeout=60_000)


def new_game(page, variant, seed, **fields):
    page.select_option("#variant", variant)
    page.select_option("#speed", "0")
    page.fill("#seed", str(seed))
    for k, v in fields.items():
        if k == "episode":
            page.select_option("#episode", v)
        elif k == "watch":
            page.check("#watch")
        else:
            page.fill(f"#{k}", str(v))
    page.click("#start")
    page.wait_for_function("() => game !== null")


def click_card(page, legal=True):
    """Clicks the first card of the hand that may (or may not) be played; returns it."""
    sel = "#hand .card:not(.illegal)" if legal else "#hand .card.illegal"
    card = page.locator(sel).first
    code = card.get_attribute("data-card")
    before = page.evaluate("() => shown")
    card.click()
    if legal:
        page.wait_for_function("(b) => !busy && shown > b", arg=before)
    return code


def play_to_end(page, checks):
    """Plays by clicks until the game is over, running `checks(page, state)` at each turn."""
    while True:
        wait_settled(page)
        s = state(page)
        if s["over"]:
            return s
        checks(page, s)
        if not state(page)["over"] and state(page)["your_turn"]:
            click_card(page)


@pytest.mark.parametrize("variant", ["4p", "seal"])
def test_a_whole_game_by_clicks(browser, server, tmp_path, variant):
    page, response, requests, errors = open_page(browser, server)
    # The page load: one small document and nothing from anywhere else.
    body = response.body()
    assert len(body) < 200_000, len(body)
    assert requests == [server], requests
    assert "default-src 'none'" in response.headers["content-security-policy"]

    new_game(page, variant, 21, episode="round")
    seen = {"illegal": False, "hint": False, "picture": False, "saved": None}

    def checks(page, s):
        # An illegal card is dimmed; tried, it is refused with the rule's reason.
        if not seen["illegal"] and page.locator("#hand .card.illegal").count():
            reason = page.locator("#hand .card.illegal").first.get_attribute("title")
            click_card(page, legal=False)
            page.wait_for_selector("#message.error")
            assert page.inner_text("#message") == reason
            assert re.search(r"\((R4\.2|R5)\)$", reason), reason
            seen["illegal"] = True
        # A hint in the play phase: the bot's card and its values per card.
        if not seen["hint"] and s["phase"] == "play":
            page.click("#hint-btn")
            page.wait_for_function("() => document.getElementById('hint').textContent.startsWith('Hint (')")
            hint = page.inner_text("#hint")
            assert "Values (" in hint, hint
            seen["hint"] = True
        # A card of the hand in the picture plays too.
        if not seen["picture"] and s["phase"] == "play" and s["your_turn"]:
            code = next(c["card"] for c in s["hand"] if c["legal"])
            before = page.evaluate("() => shown")
            page.click(f'#board .hand[data-seat="{s["seat"]}"] use.card[data-card="{code}"]',
                       position={"x": 6, "y": 30})  # the part a fanned card leaves uncovered
            page.wait_for_function("(b) => !busy && shown > b", arg=before)
            assert code not in [c["card"] for c in state(page)["hand"]]
            seen["picture"] = True
            return
        # A save after a few tricks.
        tricks = sum(e["kind"] == "trick" for e in s["events"])
        if seen["saved"] is None and tricks >= 2:
            with page.expect_download() as d:
                page.click("#save")
            path = tmp_path / "saved.json"
            d.value.save_as(path)
            seen["saved"] = (path, s)

    end = play_to_end(page, checks)
    assert seen["illegal"] and seen["hint"] and seen["picture"] and seen["saved"]
    kinds = [e["kind"] for e in end["events"]]
    for k in ["exchange", "trick", "round_end", "game_over"]:
        assert k in kinds, kinds
    log = page.inner_text("#log")
    assert "cards exchanged" in log and "Round 0 over" in log
    not_blank(page.screenshot())

    # The round's double-dummy review, costly plays marked.
    page.click('button.review[data-round="0"]')
    page.wait_for_selector("#review table")
    rows = page.locator("#review table tr").count() - 1
    tricks = kinds.count("trick")
    assert rows == tricks * len(end["players"])
    assert page.locator("#review tr.costly").count() == len(
        page.evaluate("(id) => fetch('/api/games/' + id + '/review', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({round: 0})}).then(r => r.json()).then(r => r.costly)", end["id"]))

    # The replay viewer opens now that the game is over.
    assert page.locator("#replay").is_visible()

    # Reload the saved game: it resumes where it was saved, and plays on to the end.
    path, saved_state = seen["saved"]
    record = json.loads(path.read_text())
    assert record["variant"] == variant and record["over"] is False
    page.set_input_files("#load-file", str(path))
    page.wait_for_function("(id) => game.id !== id", arg=end["id"])
    resumed = state(page)
    assert "Resumed saved.json" in page.inner_text("#message")
    for k in ["round", "hand", "trick", "scores", "events", "tricks_played"]:
        assert resumed[k] == saved_state[k], k
    end2 = play_to_end(page, lambda page, s: None)
    assert end2["over"]
    # A finished game's record is refused for resuming, with the reason.
    with page.expect_download() as d:
        page.click("#save")
    done = tmp_path / "done.json"
    d.value.save_as(done)
    page.set_input_files("#load-file", str(done))
    page.wait_for_selector("#message.error")
    assert "over" in page.inner_text("#message")
    assert errors == []
    page.close()


def test_bots_are_watched_at_a_chosen_speed(browser, server):
    page, _, _, errors = open_page(browser, server)
    page.select_option("#variant", "3p")
    page.select_option("#speed", "150")
    page.fill("#seed", "5")
    page.select_option("#episode", "round")
    page.check("#watch")
    page.click("#start")
    page.wait_for_function("() => game && game.events.length > 0", timeout=60_000)
    page.click("#pause")
    n = len(state(page)["events"])
    page.wait_for_timeout(600)
    assert len(state(page)["events"]) <= n + 1  # at most the move already asked for
    page.click("#pause")
    page.select_option("#speed", "0")
    page.wait_for_function("() => game.over", timeout=120_000)
    assert page.locator("#replay").is_visible()
    assert errors == []
    page.close()


@pytest.mark.parametrize("variant", ["4p", "3p", "seal", "seal-short"])
def test_the_table_of_each_variant(browser, server, variant):
    """The table in the middle of a trick, as a person sees it; the docs' screenshots."""
    page, _, _, errors = open_page(browser, server)
    new_game(page, variant, 3)
    while True:
        wait_settled(page)
        s = state(page)
        if s["phase"] == "play" and s["tricks_played"] >= 2 and s["trick"]:
            break
        click_card(page)
    assert page.locator("#hand .card").count() == len(s["hand"])
    shot = page.screenshot()
    not_blank(shot)
    if os.environ.get("YS_WRITE_PICTURES") == "1":
        (PICTURES / f"serve_{variant}.png").write_bytes(shot)
    assert errors == []
    page.close()
