"""The web app (``python -m yokai_septet serve``) in a real headless browser (Chromium,
driven by Playwright): whole games played by clicks, an illegal card tried, a hint, a
round's review, a save and a reload, a watched game of bots, and the page's own weight;
the table's manners (issue 60): the seed kept to its last digit, the finished trick kept
on the table, the game in the address, the review explained, refusals in words, the
game's end, passing picks taken back, the hinted and forced cards, the form's checks.

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


# The console errors of each page (a refused request logs one in the browser).
CONSOLE: dict = {}


def open_page(browser, url):
    """The page, with every request, script error and console error recorded."""
    page = browser.new_page(viewport={"width": 1500, "height": 900}, accept_downloads=True)
    requests, errors = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    console = CONSOLE[page] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    response = page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, response, requests, errors


def state(page) -> dict:
    return page.evaluate("() => game")


def wait_settled(page):
    """Until the person must act or the game is over (the bots move on their own); a
    finished round's result, held until the person moves on, is moved on from."""
    page.wait_for_function("() => game && !busy && (game.over || game.your_turn || held !== null)",
                           timeout=60_000)
    if page.evaluate("() => held") is not None:
        page.click("#next-deal")
        wait_settled(page)


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
        # An illegal card is dimmed; tried, it is refused in the terminal's words, the
        # rule's text a click away, with no request (no 422 in the console).
        if not seen["illegal"] and s["phase"] == "play" and page.locator("#hand .card.illegal").count():
            words = page.locator("#hand .card.illegal").first.get_attribute("title")
            code = click_card(page, legal=False)
            page.wait_for_selector("#message.error")
            assert page.inner_text("#message").startswith(words), page.inner_text("#message")
            assert re.fullmatch(rf"You cannot play {code}: you must follow \w+\. Playable: [\w ]+\.", words), words
            page.click("#message summary")
            reason = next(c["reason"] for c in s["hand"] if c["card"] == code)
            assert reason in page.inner_text("#message") and reason.endswith("(R5)"), reason
            assert state(page)["hand"] == s["hand"]
            assert CONSOLE[page] == [], "nothing was refused by the server"
            seen["illegal"] = True
        # A forced play is said; no other is.
        legal = [c["card"] for c in s["hand"] if c["legal"]]
        forced = page.inner_text("#forced")
        if s["phase"] == "play" and len(legal) == 1:
            assert forced.startswith(f"Forced: {legal[0]} is your only playable card"), forced
        else:
            assert forced == "", forced
        # A hint in the play phase: the bot's card and its values per card.
        if not seen["hint"] and s["phase"] == "play":
            page.click("#hint-btn")
            page.wait_for_function("() => document.getElementById('hint').textContent.startsWith('Hint (')")
            hint = page.inner_text("#hint")
            # The card and how sure the search is first; its values behind "details".
            assert re.search(r"\. (Ahead of \w+ by about [\d.]+( round points)?|Too close to call: \w+ "
                             r"is within [\d.]+( round points)?|Forced: your only playable card)\.", hint), hint
            assert "Values (" not in hint
            page.click("#hint summary")
            assert "Values (" in page.inner_text("#hint"), page.inner_text("#hint")
            # One scale with the terminal's hint (test_cli_terminal.py): round points.
            if variant == "4p":
                assert ("Value in round points: our score - theirs, +0.7 round won, +/-7 game "
                        "won/lost.") in page.inner_text("#hint"), page.inner_text("#hint")
            # The hinted card is marked in the hand, and only it.
            card = re.match(r"Hint \([^)]*\): play (\w+)", hint).group(1)
            assert page.locator("#hand .card.hinted").count() == 1
            assert page.locator("#hand .card.hinted").get_attribute("data-card") == card
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

    # The game's end: who won, the rounds' history, the hands left; no stale message.
    check_the_end(page, end)

    # The round's review: every play scored (exact, estimated or forced), costly exact
    # plays marked, the deal shown, and whose values they are said.
    review = check_the_review(page, end, 0)
    assert page.locator("#review table.plays tr.solved.costly").count() == len(review["costly"])
    estimated_costly = [p for p in review["plays"] if p["status"] == "estimated" and p["cost"] >= 1]
    assert page.locator("#review table.plays tr.estimated.costly").count() == len(estimated_costly)

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
    # A finished game's record is not resumed: the load hands it to the replay viewer,
    # which opens in a new tab at a click (issue 64).
    with page.expect_download() as d:
        page.click("#save")
    done = tmp_path / "done.json"
    d.value.save_as(done)
    page.set_input_files("#load-file", str(done))
    page.wait_for_selector("#notice.info #open-replay")
    assert page.inner_text("#notice").startswith("done.json is a finished game: it opens in the replay viewer")
    # A blocked pop-up: the words ask for another click, and the button is there for it.
    page.evaluate("() => { window.realOpen = window.open; window.open = () => null; }")
    page.click("#open-replay")
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('blocked')")
    assert "allow pop-ups for this page and click the button again" in page.inner_text("#notice")
    assert page.locator("#notice #open-replay").is_visible()
    page.evaluate("() => { window.open = window.realOpen; }")
    with page.context.expect_page() as opened:
        page.click("#open-replay")
    tab = opened.value
    # The viewer runs in a sandboxed frame of a blob: document: an opaque origin, so
    # nothing in a record can reach the page, its games or the server as the page (issue 72).
    tab.wait_for_selector("iframe#viewer")
    viewer = tab.frame_locator("iframe#viewer")
    viewer.locator("#slider").wait_for()
    last = viewer.locator("#slider").evaluate("(s) => s.max")
    assert int(last) > 10
    assert viewer.locator("svg").count() > 0
    frame = tab.frames[1]
    assert frame.url.startswith("blob:")
    assert frame.evaluate("() => window.origin") == "null"
    assert frame.evaluate("() => { try { return parent.document.title; } catch (e) { return e.name; } }") == "SecurityError"
    assert tab.evaluate("() => document.documentElement.outerHTML").count("<script") == 0
    tab.close()
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


def check_the_end(page, end, picture=None):
    """The end of a game as the page shows it (issue 60, item 6)."""
    banner = page.inner_text("#result")
    assert page.locator("#result").is_visible()
    rounds = [e for e in end["events"] if e["kind"] == "round_end"]
    winners = end["winners"] or rounds[-1]["winners"]
    if end["truncated"]:
        assert banner.startswith("Game stopped by the round cap"), banner
    elif not winners:
        assert banner.startswith("Nobody won"), banner
    elif end["seat"] is not None:
        assert banner.startswith("You won" if end["seat"] in winners else "You lost"), banner
    assert f"after {len(rounds)} round" in banner, banner
    assert page.locator("#results table tr").count() == len(rounds) + 1
    for e in rounds:
        assert e["reason"] in page.inner_text("#results")
    # The cards nobody played, every seat's.
    assert end["hands_left"] is not None and len(end["hands_left"]) == len(end["players"])
    assert page.locator("#hands-left .chip").count() == sum(len(h) for h in end["hands_left"])
    assert page.inner_text("#message") == ""
    if picture:
        shot = page.screenshot()
        not_blank(shot)
        if os.environ.get("YS_WRITE_PICTURES") == "1":
            (PICTURES / picture).write_bytes(shot)


def check_the_review(page, end, rnd, picture=None):
    """Round `rnd`'s review as the page shows it (issue 60, item 4); returns the API's."""
    page.click(f'button.review[data-round="{rnd}"]')
    page.wait_for_selector("#review table.plays")
    review = page.evaluate("(a) => fetch('/api/games/' + a[0] + '/review', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({round: a[1]})}).then(r => r.json())", [end["id"], rnd])
    plays = review["plays"]
    rows = page.locator("#review table.plays tr")
    assert rows.count() - 1 == len(plays)
    tricks = sum(e["kind"] == "trick" and e["round"] == rnd for e in end["events"])
    assert len(plays) == tricks * len(end["players"])
    # Every play scored: no skip left; each estimate says why it is not exact.
    statuses = {p["status"] for p in plays}
    assert statuses <= {"solved", "estimated", "forced"}, statuses
    # Values in round points (2 units a point; seals as they are), exact ones bare,
    # estimates marked with a legend (issue 64).
    per_point = 1 if end["variant"].startswith("seal") else 2
    for k, p in enumerate(plays):
        value = rows.nth(k + 1).locator("td").nth(3).inner_text()
        if p["status"] == "estimated":
            assert value.startswith("≈") and p["values"] and p["forecast"] > review["budget"], (value, p)
            title = rows.nth(k + 1).locator("td").nth(3).get_attribute("title")
            assert "over the budget" in title and f"{p['worlds']} worlds" in title, title
        elif p["status"] == "solved":
            pts = p["chosen"] / per_point
            assert value == ("+" if pts >= 0 else "") + (f"{pts:.0f}" if pts == int(pts) else f"{pts:.1f}"), (value, p)
        else:
            assert value == "forced"
    legend = page.inner_text("#review .legend")
    assert "for the side of the player who moved" in legend and "No mark: exact · ≈ estimated" in legend, legend
    # The first line: the person's costliest play of the round, in points.
    summary = page.inner_text("#review .summary")
    mine = [p for p in plays if p["seat"] == end["seat"] and (
        p["status"] == "solved" and p["cost"] > 0 or p["status"] == "estimated" and p["cost"] >= 1)]
    if mine:
        worst = max(mine, key=lambda p: p["cost"])
        assert summary.startswith(f"Your biggest mistake this round: trick {worst['trick'] + 1}, "
                                  f"{worst['code']}; {' or '.join(worst['best_codes'])} would have turned the round's margin by "), summary
        # A swing of the margin, said as one: not points the side would have scored.
        unit = "seals" if end["variant"].startswith("seal") else "points"
        assert summary.endswith(f" (your side's {unit} minus the other side's)."), summary
    else:
        assert summary == "You made no costly play this round.", summary
    # The technical notes behind "details".
    assert "double dummy" not in page.inner_text("#review")
    page.click("#review details summary")
    note = page.inner_text("#review details .note")
    assert "double dummy" in note, note
    if "estimated" in statuses:
        assert "forecast at" in note and "over the budget" in note, note
    # The deal: every seat's hand as dealt, each card once.
    deal = page.locator("#review table.deal tr")
    assert deal.count() == len(end["players"]) + 1
    assert len(review["deal"]["hands"]) == len(end["players"])
    dealt = sum(len(h) for h in review["deal"]["hands"])
    assert page.locator("#review table.deal td:nth-child(2) .chip").count() == dealt
    if picture:
        shot = page.locator("#review-panel").screenshot()
        not_blank(shot)
        if os.environ.get("YS_WRITE_PICTURES") == "1":
            (PICTURES / picture).write_bytes(shot)
    return review


def test_a_finished_trick_stays_on_the_table_with_its_winner(browser, server):
    """The fourth card and the winner are drawn on the table until the next trick starts
    (at least a moment when a bot leads it), and the last trick can be looked at again."""
    page, _, _, errors = open_page(browser, server)
    new_game(page, "4p", 8)
    kept = None
    for _ in range(200):
        wait_settled(page)
        s = state(page)
        if s["phase"] == "play" and s["tricks_played"] >= 1:
            # The last card of a trick played by a bot: caught while the table holds it.
            before = page.evaluate("() => shown")
            click_card(page)
            # Caught, the bots are held (the next move is not asked for) for the picture.
            found = page.wait_for_function(
                "(b) => (shown > b && trickKept(game)) ? (clearTimeout(timer), game)"
                " : (shown > b && (game.your_turn || game.over) && !busy ? 'no' : null)",
                arg=before, timeout=60_000).json_value()
            if found != "no":
                kept = found
                break
        else:
            click_card(page)
    assert kept is not None
    trick = [e for e in kept["events"] if e["kind"] == "trick"][-1]
    assert len(trick["cards"]) == 4
    board = page.inner_html("#board")
    assert page.locator("#board .trick-winner").count() == 1
    # Named as in the log (issue 64): "you", "partner 2", "seat 1".
    names = {0: "you", 1: "seat 1", 2: "partner 2", 3: "seat 3"}
    w = trick["winner"]
    assert page.text_content("#board .trick-winner") == f"{names[w]} take{'' if w == 0 else 's'} the trick"
    labels = page.eval_on_selector_all("#board text.trick-seat", "els => els.map(e => e.textContent)")
    assert sorted(labels) == sorted(names[c["seat"]] + (" led" if k == 0 else "")
                                    for k, c in enumerate(trick["cards"])), labels
    on_table = page.eval_on_selector_all("#board .trick use.card", "els => els.map(e => e.dataset.card)")
    assert sorted(on_table) == sorted(c["card"] for c in trick["cards"]), (on_table, board[:200])
    shot = page.screenshot()
    not_blank(shot)
    if os.environ.get("YS_WRITE_PICTURES") == "1":
        (PICTURES / "serve_trick.png").write_bytes(shot)
    # The "last trick" view: its cards, the winner's marked.
    page.click("#last-trick-btn")
    view = page.inner_text("#last-trick")
    assert view.startswith(f"Trick {trick['trick'] + 1} of round {trick['round']}"), view
    assert page.locator("#last-trick .chip").count() == 4
    winner_card = next(c["card"] for c in trick["cards"] if c["seat"] == trick["winner"])
    assert page.inner_text("#last-trick .chip.won") == winner_card
    # Let go, the bots play on: the next trick's first card replaces the finished one.
    page.evaluate("() => schedule()")
    page.wait_for_function("() => game.trick.length > 0 || game.your_turn")
    if state(page)["trick"]:
        assert page.locator("#board .trick-winner").count() == 0
    assert errors == [] and CONSOLE[page] == []
    page.close()


def test_the_seed_shown_deals_the_same_game_again(browser, server, tmp_path):
    """Seeds travel as strings: every digit of a u64 survives, in the status line, the
    state and the record, and the seed shown deals the same game again. At a seat, the
    seed is hidden while the game is on (it deals every hand, R10); a game of bots only
    shows it."""
    page, _, requests, errors = open_page(browser, server)
    seed = "16545473962774781750"
    new_game(page, "4p", seed)
    s = state(page)
    assert s["seed"] is None
    assert "seed" not in page.inner_text("#status")
    with page.expect_download() as d:
        page.click("#save")
    path = tmp_path / "seeded.json"
    d.value.save_as(path)
    assert json.loads(path.read_text())["seed"] == int(seed)
    # The seed typed again deals the same hands again.
    new_game(page, "4p", seed)
    page.wait_for_function("(id) => game.id !== id", arg=s["id"])
    assert [c["card"] for c in state(page)["hand"]] == [c["card"] for c in s["hand"]]
    # A game of bots only shows its seed to the last digit, and the seed shown deals the
    # same game (the same record's deal) again.
    new_game(page, "4p", seed, watch=True)
    page.wait_for_function("(s) => game.seed === s", arg=seed)
    assert f"seed {seed} " in page.inner_text("#status")
    shown_seed = re.search(r"seed (\d+)", page.inner_text("#status")).group(1)
    assert shown_seed == seed
    # The largest seed is a seed; one more is refused by the page itself, nothing sent.
    new_game(page, "4p", "18446744073709551615", watch=True)
    page.wait_for_function("() => game.seed === '18446744073709551615'")
    n = len(requests)
    page.fill("#seed", "18446744073709551616")
    page.click("#start")
    page.wait_for_selector("#notice:not(.hidden)")
    assert "The seed must be a whole number from 0 to 18446744073709551615" in page.inner_text("#notice")
    # The watched game's bots go on stepping; no new game was asked for.
    assert [r for r in requests[n:] if r.endswith("/api/games")] == []
    assert errors == [] and CONSOLE[page] == []
    page.close()


def test_the_forms_checks_are_said_in_the_page(browser, server):
    """A seat out of range, a bad seed or round cap: a message in the page, the field
    marked, no request and no browser bubble (the form is not validated by the browser)."""
    page, _, requests, errors = open_page(browser, server)
    n = len(requests)
    for field, value, words in [
        ("seat", "7", "Your seat must be a whole number from 0 to 2 in 3p"),
        ("seed", "-3", "The seed must be a whole number"),
        ("seed", "1e5", "The seed must be a whole number"),
        ("max-rounds", "0", "Max rounds must be a whole number of at least 1"),
    ]:
        page.select_option("#variant", "3p")
        page.fill("#seat", "0")
        page.fill("#seed", "")
        page.fill("#max-rounds", "")
        page.fill(f"#{field}", value)
        page.click("#start")
        page.wait_for_selector("#notice:not(.hidden)")
        assert page.inner_text("#notice").startswith(words), page.inner_text("#notice")
        assert page.get_attribute(f"#{field}", "aria-invalid") == "true"
        assert page.evaluate("() => game") is None
    assert len(requests) == n
    assert page.evaluate("() => document.getElementById('new-form').noValidate")
    assert errors == [] and CONSOLE[page] == []
    page.close()


def refusal_where_the_eye_is(page, control):
    """The refusal's banner: shown whole inside the window, just under the form whose
    `control` it outlines; its text."""
    page.wait_for_selector("#notice:not(.hidden)")
    box = page.locator("#notice").bounding_box()
    form = page.locator("header").bounding_box()
    view = page.viewport_size
    assert 0 <= box["y"] and box["y"] + box["height"] <= view["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    assert abs(box["y"] - (form["y"] + form["height"])) < 2, (box, form)
    whole = page.evaluate("() => { const n = document.getElementById('notice');"
                          " return n.scrollHeight <= n.clientHeight && n.scrollWidth <= n.clientWidth; }")
    assert whole
    assert page.get_attribute(f"#{control}", "aria-invalid") == "true"
    return page.inner_text("#notice")


def test_refusals_are_shown_next_to_the_form_whole(browser, server, tmp_path):
    """Issue 64: a refused New game or load is said in a banner under the form, whole, in
    a 1400x900 window, until the next action; a typo'd bot name gets its correction, a
    file name a player's answer, the list of bots only when asked for."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    assert "PATH" not in page.get_attribute("#bots", "title")
    page.select_option("#variant", "4p")
    page.fill("#bots", "heurstic")
    page.click("#start")
    text = refusal_where_the_eye_is(page, "bots")
    assert text.startswith('New game refused: bot "heurstic"') and "did you mean heuristic?" in text, text
    assert "random, heuristic" not in text
    # The list, on request.
    page.click("#notice summary")
    page.wait_for_function("() => document.querySelector('#notice details span').textContent !== ''")
    listed = page.inner_text("#notice details span").split(". A budget")[0].split(", ")
    assert {"pimc-dd", "epimc", "ismcts-nn-inf"} <= set(listed), listed
    # Every name listed is one the server takes for a new game.
    for name in listed:
        status = page.evaluate("(n) => fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
                               "body: JSON.stringify({variant: '4p', bots: [n]})}).then(r => r.status)", name)
        assert status == 201, (name, status)
    refusal_where_the_eye_is(page, "bots")
    page.fill("#bots", "nn:/etc/passwd")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('passwd')")
    text = refusal_where_the_eye_is(page, "bots")
    assert "does not load bots from files" in text and "request" not in text, text
    # A record that is not one: the load control.
    bad = tmp_path / "notes.json"
    bad.write_text('{"variant": "4p"}')
    page.set_input_files("#load-file", str(bad))
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('notes.json')")
    text = refusal_where_the_eye_is(page, "load-file")
    assert text.startswith("Could not load notes.json: "), text
    assert page.get_attribute("#bots", "aria-invalid") is None
    # The next action clears it.
    page.fill("#bots", "heuristic")
    page.click("#start")
    page.wait_for_function("() => game !== null")
    assert page.locator("#notice").is_hidden()
    assert errors == []
    page.close()


def test_the_deciding_trick_is_shown_until_the_person_moves_on(browser, server):
    """Issue 64: when a card ends a round, its trick (labelled as in the log, the winner
    marked) and the round's result (winners, points per team, bosses) stay on the table
    until the person moves on; at the game's end every hand left is drawn face up."""
    page, _, _, errors = open_page(browser, server)
    new_game(page, "4p", 5, **{"max-rounds": 2})
    rounds_held = 0
    while True:
        page.wait_for_function("() => game && !busy && (game.over || game.your_turn || held !== null)",
                               timeout=60_000)
        s = state(page)
        if s["over"]:
            break
        if page.evaluate("() => held") is None:
            click_card(page)
            continue
        box = page.locator("#round-over")
        assert box.is_visible() and page.locator("#board").is_hidden()
        text = box.inner_text()
        trick = [e for e in s["events"] if e["kind"] == "trick"][-1]
        names = {0: "you", 1: "seat 1", 2: "partner 2", 3: "seat 3"}
        line = page.inner_text("#round-over .trick-line")
        assert line.startswith(f"The deciding trick (trick {trick['trick'] + 1}): "), line
        for x in trick["cards"]:
            assert f"{names[x['seat']]} {x['card']}" in line, (x, line)
        assert line.endswith(f"→ {names[trick['winner']]} take" + ("" if trick["winner"] == 0 else "s")
                             + " it" + (", taking " + " ".join(trick["bosses"]) if trick["bosses"] else "") + "."), line
        assert ", with " not in line  # the bosses are captured, not played with
        # The round's review, opened while the box is read, leaves the box on the table.
        page.click(f'button.review[data-round="{trick["round"]}"]')
        page.wait_for_selector("#review table.plays")
        assert box.is_visible() and page.evaluate("() => held") is not None
        page.click("#review-panel h2")
        assert box.is_visible()
        assert "Points this round: team 0 (you and partner 2) " in text, text
        assert "Bosses taken: team 0 (you and partner 2) " in text, text
        # The bots wait: nothing moves until the person does.
        n = page.evaluate("() => shown")
        page.wait_for_timeout(1200)
        assert page.evaluate("() => shown") == n and page.evaluate("() => held") is not None
        page.click("#next-deal")
        assert box.is_hidden() and page.locator("#board").is_visible()
        rounds_held += 1
    assert rounds_held == 1
    # The game's end: its deciding trick and result stay, every hand drawn face up.
    page.wait_for_selector("#round-over .trick-line")
    assert page.locator("#next-deal").count() == 0
    assert page.locator("#board .card-back").count() == 0
    left = state(page)["hands_left"]
    assert sum(map(len, left)) > 0
    for p, h in enumerate(left):
        drawn = page.eval_on_selector_all(f'#board .hand[data-seat="{p}"] use.card',
                                          "us => us.map((u) => u.dataset.card)")
        assert sorted(drawn) == sorted(h), (p, drawn, h)
    assert errors == []
    page.close()


def test_a_one_round_episode_plays_to_no_target_and_a_long_seed_shows_whole(browser, server):
    page, _, _, errors = open_page(browser, server)
    new_game(page, "3p", 4, episode="round")
    status = page.inner_text("#status")
    assert "scores 0 – 0 – 0" in status and "game to" not in status, status
    first = state(page)["id"]
    new_game(page, "3p", 4, episode="game")
    page.wait_for_function("(id) => game.id !== id", arg=first)
    assert "scores 0 – 0 – 0 (game to 7)" in page.inner_text("#status")
    # The largest seed, 20 digits, fits its box.
    page.fill("#seed", "18446744073709551615")
    assert page.eval_on_selector("#seed", "(e) => e.scrollWidth <= e.clientWidth"), \
        page.eval_on_selector("#seed", "(e) => [e.scrollWidth, e.clientWidth]")
    assert errors == []
    page.close()


def test_a_reload_and_a_second_tab_come_back_to_the_game(browser, server):
    page, _, _, errors = open_page(browser, server)
    new_game(page, "4p", 12)
    for _ in range(5):
        wait_settled(page)
        click_card(page)
    wait_settled(page)
    s = state(page)
    assert page.url.endswith("?game=" + s["id"]), page.url
    page.reload()
    page.wait_for_function("() => game !== null")
    again = state(page)
    for k in ["id", "round", "hand", "trick", "events", "tricks_played", "seed"]:
        assert again[k] == s[k], k
    assert "Back at game" in page.inner_text("#message")
    # The address in another tab: the same game, which plays on from either.
    other, _, _, other_errors = open_page(browser, page.url)
    other.wait_for_function("() => game !== null")
    assert state(other)["id"] == s["id"] and state(other)["hand"] == s["hand"]
    wait_settled(other)
    click_card(other)
    other.close()
    # A game the server does not hold: said so, and the address cleared.
    gone, _, _, _ = open_page(browser, server + "?game=0000")
    gone.wait_for_selector("#message.error")
    assert "no longer on this server" in gone.inner_text("#message")
    assert "?game" not in gone.url
    gone.close()
    assert errors == [] and other_errors == []
    page.close()


def test_passing_says_to_whom_and_a_pick_is_taken_back_until_the_last(browser, server):
    page, _, _, errors = open_page(browser, server)
    new_game(page, "4p", 5)
    wait_settled(page)
    s = state(page)
    assert s["phase"] == "pass" and s["your_turn"]
    to = s["passing"]["to"]
    assert f"choose card 1 of 3 to pass (it goes to {'partner' if to[0] == s['partner'] else 'seat'} {to[0]})" in page.inner_text("#status")
    assert not page.locator("#undo").is_visible()
    first = click_card(page)
    msg = page.inner_text("#message")
    assert msg.startswith(f"You passed {first} to "), msg
    assert "2 more to choose" in msg, msg
    assert page.locator(f'#hand .card.picked[data-card="{first}"]').count() == 1
    # Taken back: the card is free again, and another can be picked.
    page.click("#undo")
    page.wait_for_function("() => game.passing.picked.length === 0")
    assert "Taken back: " + first in page.inner_text("#message")
    assert page.locator("#hand .card.picked").count() == 0
    assert not page.locator("#undo").is_visible()
    picks = [click_card(page) for _ in range(2)]
    assert "1 more to choose" in page.inner_text("#message")
    assert page.locator("#undo").is_visible()
    last = click_card(page)
    assert "the cards are passed once every seat has chosen" in page.inner_text("#message")
    wait_settled(page)
    # The last pick cannot be taken back: the exchange is made.
    exchange = next(e for e in state(page)["events"] if e["kind"] == "exchange")
    assert [x["card"] for x in exchange["passed"]] == picks + [last]
    assert not page.locator("#undo").is_visible()
    assert errors == []
    page.close()


def test_the_end_of_a_game_and_its_review(browser, server):
    """A one-round 4p game by clicks, won by the person's team before the last trick: the
    result banner, the score history and the hands left; the review of its round (the
    docs' pictures of the end and of the review)."""
    page, _, _, errors = open_page(browser, server)
    new_game(page, "4p", 12, episode="round")
    end = play_to_end(page, lambda page, s: None)
    assert end["winners"] == [0, 2] and sum(len(h) for h in end["hands_left"]) > 0
    check_the_end(page, end, picture="serve_end.png")
    assert page.inner_text("#result").startswith("You won: you and partner 2 won the round")
    check_the_review(page, end, 0, picture="serve_review.png")
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
