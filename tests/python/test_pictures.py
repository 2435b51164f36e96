"""Pictures from Python: ``Game.to_svg`` (parsed as XML), the seat view's secrecy (R10),
notebook display through IPython's own formatter, ``to_text``, ``to_rgb_array``, and the
``"rgb_array"``/``"ansi"`` render modes of the Gymnasium and PettingZoo environments,
checked with the frameworks' own wrappers and checkers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import gymnasium
import numpy as np
import pytest

import yokai_septet as ys

SVG = "{http://www.w3.org/2000/svg}"


def played(variant: str, seed: int, steps: int) -> ys.Game:
    g = ys.Game(variant, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.phase == "over":
            break
        g.step(int(rng.choice(g.legal_actions())))
    return g


def cards_in(root: ET.Element, cls: str, seat: int | None = None) -> list[str]:
    """R1 codes of the cards placed under the groups of class ``cls`` (and ``seat``)."""
    out = []
    for group in root.iter(SVG + "g"):
        if group.get("class") != cls:
            continue
        if seat is not None and group.get("data-seat") != str(seat):
            continue
        out += [u.get("data-card") for u in group.iter(SVG + "use")]
    return out


def play_episode(env: gymnasium.Env, seed: int) -> None:
    """Plays one episode of a single-agent env with its first legal action each turn."""
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, term, trunc, info = env.step(action)
        done = term or trunc


@pytest.mark.parametrize("variant", ys.VARIANTS)
def test_to_svg_is_xml_showing_every_hand_the_trick_and_the_trump(variant):
    for steps in (0, 13, 40, 90):
        g = played(variant, 4, steps)
        root = ET.fromstring(g.to_svg())
        assert root.tag == SVG + "svg"
        assert (root.get("width"), root.get("height")) == ("960", "640")
        for p in range(g.num_players):
            assert cards_in(root, "hand", p) == [ys.Game.card_name(c) for c in g.hand(p)]
        assert cards_in(root, "trick") == [ys.Game.card_name(c) for c in g.trick]
        text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
        assert f"round {g.round}" in text
        if g.trump_card is not None:
            assert ys.Game.card_name(g.trump_card) in [
                u.get("data-card") for u in root.iter(SVG + "use")
            ]


@pytest.mark.parametrize("variant", ys.VARIANTS)
def test_seat_svg_and_text_hide_the_other_hands_r10(variant):
    g = played(variant, 8, 30)
    for me in range(g.num_players):
        root = ET.fromstring(g.to_svg(seat=me))
        assert cards_in(root, "hand", me) == [ys.Game.card_name(c) for c in g.hand(me)]
        shown = {u.get("data-card") for u in root.iter(SVG + "use") if u.get("data-card")}
        for p in range(g.num_players):
            if p != me:
                assert cards_in(root, "hand", p) == []
                assert not shown & {ys.Game.card_name(c) for c in g.hand(p)}
        text = g.to_text(seat=me)
        assert f"seat {me}'s view" in text
        for p in range(g.num_players):
            if p != me:
                assert f"seat {p}: ({len(g.hand(p))} cards, hidden)" in text
    assert g.to_text() == str(g)


def test_picture_arguments_are_checked_and_change_nothing():
    g = played("4p", 1, 20)
    before = g.record()
    for bad in (4, -1):
        with pytest.raises(ValueError, match="seat"):
            g.to_svg(seat=bad)
        with pytest.raises(ValueError, match="seat"):
            g.to_rgb_array(seat=bad)
    with pytest.raises(TypeError):
        g.to_svg(seat="0")
    with pytest.raises(ValueError, match="scale"):
        g.to_rgb_array(scale=0)
    assert g.record() == before


def test_notebooks_display_the_table_through_ipython():
    from IPython.core.formatters import DisplayFormatter

    g = played("seal", 2, 25)
    data, _ = DisplayFormatter().format(g)
    ET.fromstring(data["image/svg+xml"])
    assert data["image/svg+xml"] == g.to_svg()
    assert g.to_svg() in data["text/html"]


def test_to_rgb_array_is_a_deterministic_non_blank_image():
    g = played("4p", 3, 17)
    a = g.to_rgb_array()
    assert a.shape == (640, 960, 3) and a.dtype == np.uint8
    assert np.array_equal(a, g.to_rgb_array())
    assert len(np.unique(a.reshape(-1, 3), axis=0)) > 50
    seat_view = g.to_rgb_array(seat=1)
    assert seat_view.shape == a.shape and not np.array_equal(seat_view, a)
    assert g.to_rgb_array(scale=0.5).shape == (320, 480, 3)
    png = g.to_png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_gymnasium_rgb_array_frames_through_render_collection():
    env = gymnasium.make("YokaiSeptet-v0", render_mode="rgb_array", max_rounds=1)
    env = gymnasium.wrappers.RenderCollection(env)
    play_episode(env, seed=5)
    frames = env.render()
    assert len(frames) >= 10
    for f in frames:
        assert f.shape == (640, 960, 3) and f.dtype == np.uint8
    assert not np.array_equal(frames[0], frames[-1])


def test_gymnasium_env_checker_passes_with_rendering():
    from gymnasium.utils.env_checker import check_env

    for mode in ("rgb_array", "ansi"):
        # check_env steps unmasked random actions
        env = gymnasium.make("YokaiSeptet-v0", render_mode=mode, illegal_action="lose")
        check_env(env.unwrapped)


def test_gymnasium_render_seat_learner_hides_the_other_hands():
    env = gymnasium.make(
        "YokaiSeptet-v0", render_mode="ansi", render_seat="learner", learner_seat=None
    )
    env.reset(seed=3)
    seat = env.unwrapped.learner_seat
    text = env.render()
    assert f"seat {seat}'s view" in text and "hidden" in text
    with pytest.raises(ValueError, match="render_seat"):
        gymnasium.make("YokaiSeptet-v0", render_seat=4)
    with pytest.raises(ValueError, match="render_mode"):
        gymnasium.make("YokaiSeptet-v0", render_mode="video")


def test_pettingzoo_render_test_covers_every_render_mode(capsys):
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: ys.env(render_mode=render_mode, max_rounds=1))
    e = ys.env(render_mode="rgb_array", render_seat=2)
    e.reset(seed=1)
    frame = e.render()
    assert frame.shape == (640, 960, 3)
    assert np.array_equal(frame, e.unwrapped.game.to_rgb_array(seat=2))
    e = ys.env(render_mode="ansi", render_seat=0)
    e.reset(seed=1)
    assert "seat 0's view" in e.render()
    with pytest.raises(ValueError, match="render_seat"):
        ys.env(render_seat=7)


def test_replay_html_of_a_game_holds_every_trick():
    g = played("3p", 6, 60)
    html = g.replay_html()
    assert html.startswith("<!DOCTYPE html>")
    rec = g.record()
    for r, rnd in enumerate(rec["rounds"]):
        for k, trick in enumerate(rnd["tricks"]):
            codes = " ".join(ys.Game.card_name(c) for c in trick["cards"])
            assert f'data-round=\\"{r}\\" data-trick=\\"{k}\\" data-cards=\\"{codes}\\"' in html


@pytest.mark.video
def test_gymnasium_record_video_writes_an_mp4(tmp_path):
    env = gymnasium.make("YokaiSeptet-v0", render_mode="rgb_array", max_rounds=1)
    folder = tmp_path / "videos"
    env = gymnasium.wrappers.RecordVideo(env, str(folder), episode_trigger=lambda e: True)
    play_episode(env, seed=2)
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 10_000


def run_replay_html(tmp_path, use_pty: bool) -> tuple[int, str]:
    """``yokai-septet replay game.json --html out.html``, piped or on a pseudo-terminal."""
    import os
    import shutil
    import subprocess
    import sys

    script = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable),
                                                          "yokai-septet")
    g = played("4p", 12, 120)
    record = tmp_path / "game.json"
    record.write_text(g.record_json())
    out = tmp_path / ("pty.html" if use_pty else "piped.html")
    args = [script, "replay", str(record), "--html", str(out)]
    if use_pty:
        import pty

        leader, follower = pty.openpty()
        p = subprocess.run(args, stdin=follower, stdout=follower, stderr=follower, timeout=120)
        os.close(follower)
        text = os.read(leader, 4096).decode()
        os.close(leader)
        code = p.returncode
    else:
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        code, text = p.returncode, p.stdout + p.stderr
    assert out.read_text() == g.replay_html()
    return code, text


@pytest.mark.parametrize("use_pty", [False, True], ids=["piped", "pty"])
def test_cli_replay_html_writes_the_viewer(tmp_path, use_pty):
    code, text = run_replay_html(tmp_path, use_pty)
    assert code == 0, text
    assert "wrote" in text and ".html" in text
