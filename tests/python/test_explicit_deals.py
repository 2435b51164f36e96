"""Deals from outside (``Game.from_deal``, ``Game.apply_deal``) and the determinization sampler
(``Game.sample_determinization``): what OpenSpiel's chance nodes and IS-MCTS build on."""

import pickle

import pytest

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]


def deal_of(game):
    """The round in progress as dealt: hands (before passing) and face-up card."""
    r = game.record()["rounds"][-1]
    return r["hands"], r["trump_card"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_from_deal_plays_the_given_deal_and_replays_from_its_record(variant):
    hands, trump = deal_of(ys.Game(variant, seed=11))
    g = ys.Game.from_deal(hands, trump, variant=variant, seed=0)
    assert [g.hand(p) for p in range(g.num_players)] == hands
    assert g.trump_card == trump
    same_seed = ys.Game(variant, seed=11)
    while g.phase != "over" and g.round == 0:
        a = g.legal_actions()[-1]
        g.step(a)
        same_seed.step(a)
    rec = g.record()
    assert rec["rounds"][0] == same_seed.record()["rounds"][0]
    assert ys.Game.from_record(rec).record() == rec
    assert pickle.loads(pickle.dumps(g)) == g


def test_from_deal_rejects_bad_deals_saying_what_is_wrong():
    hands, trump = deal_of(ys.Game("4p", seed=1))
    with pytest.raises(ValueError, match="dealt twice"):
        ys.Game.from_deal([hands[0], hands[0], hands[2], hands[3]], trump)
    with pytest.raises(ValueError, match="expected 4 hands"):
        ys.Game.from_deal(hands[:3], trump)
    with pytest.raises(ValueError, match="trump card is required"):
        ys.Game.from_deal(hands, None)
    with pytest.raises(ValueError, match="out of range"):
        ys.Game.from_deal([hands[0][:-1] + [99]] + hands[1:], trump)
    with pytest.raises(TypeError):
        ys.Game.from_deal([[float(c) for c in h] for h in hands], trump)
    with pytest.raises(ValueError, match="variant"):
        ys.Game.from_deal(hands, trump, variant="5p")


def test_apply_deal_replaces_the_round_in_progress_before_its_first_pick():
    g = ys.Game("4p", seed=2)
    hands, trump = deal_of(ys.Game("4p", seed=9))
    g.apply_deal(hands, trump)
    assert deal_of(g) == (hands, trump)
    g.step(g.legal_actions()[0])
    before = g.record()
    with pytest.raises(ValueError, match="before its first passing pick"):
        g.apply_deal(hands, trump)
    with pytest.raises(ValueError, match="invalid deal"):
        g.apply_deal(hands[:2], trump)
    assert g.record() == before
    # A later round: deal it when it starts.
    while g.round == 0:
        g.step(g.legal_actions()[0])
    if g.phase != "over":
        next_hands, next_trump = deal_of(ys.Game("4p", seed=10))
        g.apply_deal(next_hands, next_trump)
        assert deal_of(g) == (next_hands, next_trump)
        assert ys.Game.from_record(g.record()).record() == g.record()


def test_redeal_is_a_deprecated_alias_of_apply_deal():
    g = ys.Game("4p", seed=2)
    hands, trump = deal_of(ys.Game("4p", seed=9))
    with pytest.warns(DeprecationWarning, match="use Game.apply_deal"):
        g.redeal(hands, trump)
    assert deal_of(g) == (hands, trump)
    g.step(g.legal_actions()[0])
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="before its first"):
        g.redeal(hands, trump)


@pytest.mark.parametrize("variant", VARIANTS)
def test_determinization_keeps_what_the_seat_knows_and_resamples_the_rest(variant):
    g = ys.Game(variant, seed=4)
    for _ in range(30):
        g.step(g.legal_actions()[len(g.legal_actions()) // 2])
    seat = g.current_player
    others = [p for p in range(g.num_players) if p != seat]
    draws = set()
    for s in range(20):
        d = g.sample_determinization(seat, s)
        assert (d.observation(seat) == g.observation(seat)).all()
        assert d.hand(seat) == g.hand(seat)
        assert d.legal_actions() == g.legal_actions()
        assert [len(d.hand(p)) for p in others] == [len(g.hand(p)) for p in others]
        hidden = sorted(c for p in others for c in g.hand(p))
        assert sorted(c for p in others for c in d.hand(p)) == hidden
        draws.add(tuple(tuple(d.hand(p)) for p in others))
        # It plays on like any game.
        while d.phase != "over" and d.round == g.round:
            d.step(d.legal_actions()[0])
    assert len(draws) > 1
    same = g.sample_determinization(seat, 3)
    assert [same.hand(p) for p in others] == [
        g.sample_determinization(seat, 3).hand(p) for p in others
    ]


def test_determinization_has_no_record_and_bad_arguments_are_errors():
    g = ys.Game("4p", seed=4)
    d = g.sample_determinization(0, 1)
    with pytest.raises(ValueError, match="determinization"):
        d.record()
    with pytest.raises(ValueError, match="determinization"):
        pickle.dumps(d)
    with pytest.raises(ValueError, match="seat"):
        g.sample_determinization(4, 1)
    with pytest.raises(ValueError, match="seed"):
        g.sample_determinization(0, -1)
