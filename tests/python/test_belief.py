"""The belief model from Python (``docs/inference.md``): ``Game.belief``, determinizations
drawn from it (``sample_determinization(..., belief=True)``), the `-inf` bots, and its
labels in ``models.imitation_data``."""

import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import models


def play_game(seed, plays=30):
    """A 4p game some way into its first round's play phase."""
    g = ys.Game("4p", seed=seed)
    bot = ys.Bot("heuristic")
    while g.phase == "pass" or plays > 0:
        if g.phase == "play":
            plays -= 1
        g.step(bot.act(g))
    return g


def test_belief_rows_sum_to_one_over_the_cards_a_seat_cannot_see():
    g = play_game(1)
    seat = g.current_player
    b = g.belief(seat)
    assert b.shape == (g.num_actions, g.num_players) and b.dtype == np.float32
    hidden = {c for p in range(g.num_players) if p != seat for c in g.hand(p)}
    for c in range(g.num_actions):
        if c in hidden:
            assert abs(b[c].sum() - 1.0) < 1e-4, c
            assert b[c, seat] == 0.0
            holder = next(p for p in range(g.num_players) if c in g.hand(p))
            assert b[c, holder] > 0.0, c
        else:
            assert (b[c] == 0).all(), c


def test_belief_worlds_keep_what_the_seat_knows_and_are_reproducible():
    g = play_game(2)
    seat = g.current_player
    others = [p for p in range(g.num_players) if p != seat]
    hidden = sorted(c for p in others for c in g.hand(p))
    for s in range(10):
        d = g.sample_determinization(seat, s, belief=True)
        assert (d.observation(seat) == g.observation(seat)).all()
        assert d.hand(seat) == g.hand(seat)
        assert [len(d.hand(p)) for p in others] == [len(g.hand(p)) for p in others]
        assert sorted(c for p in others for c in d.hand(p)) == hidden
        again = g.sample_determinization(seat, s, belief=True)
        assert [d.hand(p) for p in others] == [again.hand(p) for p in others]
    # Without the keyword, the uniform sampler, as before.
    assert [g.sample_determinization(seat, 5).hand(p) for p in others] == [
        g.sample_determinization(seat, 5, belief=False).hand(p) for p in others
    ]


@pytest.mark.parametrize("variant", ["3p", "seal", "seal-short"])
def test_every_variant_has_a_belief_model_and_its_bots_play(variant):
    g = ys.Game(variant, seed=3)
    bot = ys.Bot("heuristic")
    while g.phase == "pass" or len(g.hand(g.current_player)) > 6:
        g.step(bot.act(g))
    seat = g.current_player
    b = g.belief(seat)
    hidden = {c for p in range(g.num_players) if p != seat for c in g.hand(p)}
    assert b.shape == (g.num_actions, g.num_players)
    assert np.allclose(b[sorted(hidden)].sum(1), 1.0, atol=1e-4)
    d = g.sample_determinization(seat, 7, belief=True)
    assert (d.observation(seat) == g.observation(seat)).all()
    for name in ["pimc-inf:8", "ismcts-inf:30"]:
        card = ys.Bot(name, seed=4).act(g)
        assert card in g.legal_actions()
        assert ys.Bot(name, seed=4).act(g) == card


def test_inference_bots_play_and_keep_their_names():
    g = play_game(3)
    for name in ["pimc-inf:8", "pimc-dd-inf:2", "epimc-inf:2", "ismcts-inf:30"]:
        bot = ys.Bot(name, seed=4)
        assert bot.name == name
        card = bot.act(g)
        assert card in g.legal_actions()
        assert ys.Bot(name, seed=4).act(g) == card


def test_imitation_data_carries_the_belief_labels():
    d = models.imitation_data(["heuristic", "heuristic"], "heuristic", labelled=[0, 1], games=2,
                              max_rounds=1)
    n, a = len(d["labels"]), 49
    assert d["holders"].shape == (n, a) and d["possible"].shape == (n, a)
    assert d["uniform"].shape == (n, a, 4)
    rows = d["possible"] > 0
    assert rows.any()
    holder = d["holders"][rows].astype(np.int64)
    assert ((d["possible"][rows] >> holder) & 1 == 1).all()
    assert np.allclose(d["uniform"][rows].sum(-1), 1.0, atol=1e-4)
    # The play log: five blocks (led, over, under, ruff, discard) of 4 seats x 49 card
    # ids; every card played so far this round is in exactly one of them.
    log = d["play_log"]
    assert log.shape == (n, 5 * 4 * a) and log.dtype == np.uint8
    f = next(f for f in ys.Game("4p").layout() if f["name"] == "played")
    played = d["observations"][:, f["offset"]:f["offset"] + f["len"]].reshape(n, 4, a)
    assert (log.reshape(n, 5, 4, a).sum(1) == played).all()
    assert log.reshape(n, 5, 4, a)[:, 0].sum() > 0 and log.reshape(n, 5, 4, a)[:, 4].sum() > 0


def test_model_files_store_float16_and_belief_models_must_read_the_play_log(tmp_path):
    from yokai_septet import _core

    rng = np.random.default_rng(0)
    obs = ys.Game("4p").observation(0).shape[0]
    w = rng.normal(size=(49, obs)).astype(np.float32)
    b = rng.normal(size=49).astype(np.float32)
    full, half = tmp_path / "full.safetensors", tmp_path / "half.safetensors"
    _core._model_write(str(full), "4p", "observation", [(w, b)], [])
    _core._model_write(str(half), "4p", "observation", [(w, b)], [], half=True)
    assert half.stat().st_size < 0.6 * full.stat().st_size
    _, _, layers, _ = _core._model_read(path=str(half))
    assert np.array_equal(layers[0][0], w.astype(np.float16).astype(np.float32))
    assert not np.array_equal(layers[0][0], w)
    with pytest.raises(ValueError, match="inputs must be 'observation\\+play_log'"):
        _core._model_write(str(full), "4p", "observation", [(w, b)], [], belief=True)
