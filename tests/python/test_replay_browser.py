"""The HTML replay viewer in a real headless browser (Chromium, driven by Playwright).

Marked ``browser`` (not part of the default run, which deselects it): it needs Chromium
and the ``browser`` extra. Run it with ``bash scripts/test_extras.sh``, which installs
both (Chromium from the Debian package ``chromium``) and runs
``pytest -m "browser or video or plots"``. Set ``YS_CHROMIUM`` to use another Chromium binary.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

import pytest

import yokai_septet as ys

# A whole game between heuristic bots: the kind docs/pictures' replay viewer shows.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
from doc_pictures import bot_game  # noqa: E402

pytestmark = pytest.mark.browser

SCRIPT = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable), "yokai-septet")


def chromium() -> str:
    path = os.environ.get("YS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "Chromium not found: install the Debian package 'chromium' (scripts/test_extras.sh)"
    return path


def not_blank(png: bytes) -> None:
    """A screenshot with a real picture in it: many colours, none covering nearly all."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 100, "too few colours"
    top = max(n for n, _ in colours)
    assert top < 0.8 * img.width * img.height, "one colour covers the screenshot"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield b
        b.close()


def open_replay(browser, tmp_path, g: ys.Game):
    record = tmp_path / "game.json"
    record.write_text(g.record_json())
    html = tmp_path / "game.html"
    p = subprocess.run([SCRIPT, "replay", str(record), "--html", str(html)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    page = browser.new_page(viewport={"width": 1400, "height": 820})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # Self-contained: any request other than the file itself is a failure.
    page.on("request", lambda r: r.url.startswith("file://") or errors.append(r.url))
    page.goto(html.as_uri())
    return page, errors


def trick_codes(trick) -> str:
    return " ".join(ys.Game.card_name(c) for c in trick["cards"])


@pytest.mark.parametrize("variant", ["4p", "3p", "seal"])
def test_replay_steps_with_keys_and_buttons_and_matches_the_record(browser, tmp_path, variant):
    g = bot_game(variant, 11)
    rec = g.record()
    page, errors = open_replay(browser, tmp_path, g)
    round0 = rec["rounds"][0]
    # Step 0 is the deal, step 1 the exchange (when there was passing), then the tricks.
    first_trick = 1 + any(round0["passes"])
    assert page.inner_text("#label").startswith("Round 0 · dealt")
    not_blank(page.screenshot())

    # → steps; the trick shown is the record's trick, cards and winner.
    for _ in range(first_trick - 1):
        page.keyboard.press("ArrowRight")
    for k in range(3):
        page.keyboard.press("ArrowRight")
        trick = round0["tricks"][k]
        p = page.locator("#info .ys-trick")
        assert p.get_attribute("data-cards") == trick_codes(trick)
        assert p.get_attribute("data-winner") == str(trick["winner"])
        assert f"seat {trick['winner']} takes the trick" in page.inner_text("#info")
        shown = page.eval_on_selector_all(
            "#board .trick use", "els => els.map(e => e.getAttribute('data-card'))"
        )
        assert " ".join(shown) == trick_codes(trick)
    not_blank(page.screenshot())
    page.keyboard.press("ArrowLeft")
    assert page.locator("#info .ys-trick").get_attribute("data-trick") == "1"

    # ↓ jumps to the next round; its last trick says why the round ended.
    if len(rec["rounds"]) > 1:
        page.keyboard.press("ArrowDown")
        assert page.inner_text("#label").startswith("Round 1 · dealt")
        page.keyboard.press("ArrowLeft")
        result = page.locator("#info .ys-result")
        assert result.get_attribute("data-reason") == round0["result"]["reason"]
        assert "Round 0 over" in result.inner_text()

    # Buttons: last step shows the game's end; first goes back.
    page.click("#last")
    info = page.inner_text("#info")
    last_trick = rec["rounds"][-1]["tricks"][-1]
    assert page.locator("#info .ys-trick").get_attribute("data-cards") == trick_codes(last_trick)
    assert ("Game over" in info) or ("round cap" in info)
    page.click("#first")
    assert page.inner_text("#label").startswith("Round 0 · dealt")
    page.click("#next")
    page.click("#prev")
    assert page.inner_text("#label").startswith("Round 0 · dealt")
    assert errors == []
    page.close()


def visible_hand(page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f'#board .hand[data-seat="{seat}"] use',
        "els => els.filter(e => e.getBoundingClientRect().width > 0)"
        ".map(e => e.getAttribute('data-card'))",
    )


def test_seat_selector_hides_the_other_hands(browser, tmp_path):
    g = bot_game("4p", 5)
    rec = g.record()
    page, errors = open_replay(browser, tmp_path, g)
    dealt = [[ys.Game.card_name(c) for c in h] for h in rec["rounds"][0]["hands"]]
    for p in range(4):
        assert visible_hand(page, p) == dealt[p]
    page.select_option("#seat", "2")
    for p in range(4):
        assert visible_hand(page, p) == (dealt[p] if p == 2 else [])
    backs = page.eval_on_selector_all(
        "#board .card-back", "els => els.filter(e => e.getBoundingClientRect().width > 0).length"
    )
    assert backs == 3 * len(dealt[0])
    info = page.inner_text("#info")
    assert " ".join(dealt[2]) in info and " ".join(dealt[0]) not in info
    not_blank(page.screenshot())
    # The exchange: seat 2 sees what it passed and what its partner passed to it (R4.2),
    # not what seats 1 and 3 passed to each other.
    page.keyboard.press("ArrowRight")
    assert visible_hand(page, 0) == [] and visible_hand(page, 2) != []
    lines = page.inner_text("#info").splitlines()
    passes = rec["rounds"][0]["passes"]
    for p in range(4):
        line = next(x for x in lines if x.startswith(f"Seat {p} passes"))
        codes = [ys.Game.card_name(c) for c in passes[p]]
        if p in (0, 2):
            assert all(f"{c} to seat {(p + 2) % 4}" in line for c in codes), line
        else:
            assert not any(c in line.split() for c in codes), line
            assert "(3 cards in all)" in line
    # The choice holds while stepping.
    page.keyboard.press("ArrowRight")
    page.select_option("#seat", "all")
    assert visible_hand(page, 0) != []
    assert errors == []
    page.close()


def pass_lines(page) -> dict:
    """The visible text of each seat's pass line in the info panel, by seat."""
    lines = page.inner_text("#info").splitlines()
    return {int(x.split()[1]): x.strip() for x in lines if x.startswith("Seat ") and " passes" in x}


def test_seal_pass_texts_name_each_card_with_its_receiver_in_every_view(browser, tmp_path):
    g = bot_game("seal", 6)
    passes = g.record()["rounds"][0]["passes"]
    page, errors = open_replay(browser, tmp_path, g)
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#label").startswith("Round 0 · passing")
    # Seal passing: one card to each other seat, left, partner, right (R4.2).
    to = {p: [(ys.Game.card_name(c), (p + 1 + k) % 4) for k, c in enumerate(passes[p])]
          for p in range(4)}
    whole = {p: f"Seat {p} passes " + ", ".join(f"{c} to seat {r}" for c, r in to[p])
             for p in range(4)}
    assert pass_lines(page) == whole
    for v in range(4):
        page.select_option("#seat", str(v))
        shown = pass_lines(page)
        for p in range(4):
            if p == v:
                assert shown[p] == whole[p]
            else:
                mine = [c for c, r in to[p] if r == v]
                assert shown[p] == f"Seat {p} passes {mine[0]} to seat {v} (3 cards in all)", shown
    assert errors == []
    page.close()


def test_analyze_html_marks_every_costly_play(browser, tmp_path):
    """``analyze --html``: stepping through the viewer shows one mark per costly play of
    the analysis, on its trick, naming the card and its cost."""
    import json

    for seed in range(20):
        g = bot_game("4p", seed)
        analysis = ys.analyze(g.record(), budget=200_000)
        costly = [p for p in analysis["plays"] if p["status"] == "solved" and p["cost"] > 0]
        if costly:
            break
    assert costly, "heuristic bots give value away somewhere late in a round"
    record = tmp_path / "game.json"
    record.write_text(g.record_json())
    html = tmp_path / "game.html"
    p = subprocess.run([SCRIPT, "analyze", str(record), "--budget", "200000", "--html", str(html),
                        "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == analysis
    page = browser.new_page(viewport={"width": 1400, "height": 820})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(html.as_uri())
    assert "costly play" in page.locator("header p").inner_text()
    seen = []
    steps = int(page.locator("#slider").get_attribute("max")) + 1
    for _ in range(steps):
        trick = page.locator("#info .ys-trick")
        marks = page.locator("#info .ys-costly")
        for k in range(marks.count()):
            m = marks.nth(k)
            assert m.is_visible()
            seen.append((int(trick.get_attribute("data-round")), int(trick.get_attribute("data-trick")),
                         int(m.get_attribute("data-card")), int(m.get_attribute("data-cost"))))
            assert ys.Game.card_name(int(m.get_attribute("data-card"))) in m.inner_text()
        page.keyboard.press("ArrowRight")
    assert seen == [(p["round"], p["trick"], p["card"], p["cost"]) for p in costly]
    assert not errors, errors
