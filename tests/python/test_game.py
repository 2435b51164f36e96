"""The stable API (docs/api.md), line by line, for ys.Game (core API, errors, records, pickling, threads)."""

import copy
import json
import pickle
import random
import threading

import numpy as np
import pytest

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]
NP_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def play_random(g, rng, max_steps=None):
    steps = 0
    while g.phase != "over" and (max_steps is None or steps < max_steps):
        g.step(rng.choice(g.legal_actions()))
        steps += 1
    return g


def finished(variant, seed=0):
    return play_random(ys.Game(variant, seed=seed, max_rounds=None if variant != "seal" else 40),
                       random.Random(seed))


# ---------------------------------------------------------------- construction


def test_defaults():
    g = ys.Game()
    assert g.variant == "4p" and g.scoring == "advanced" and g.seed == 0
    assert g.episode == "game" and g.max_rounds is None
    assert ys.Game(variant="4p", scoring="advanced", seed=0).record() == g.record()


@pytest.mark.parametrize("variant,players,actions", [
    ("4p", 4, 49), ("3p", 3, 49), ("seal", 4, 56), ("seal-short", 4, 56)])
def test_sizes(variant, players, actions):
    g = ys.Game(variant)
    assert g.num_players == players
    assert g.num_actions == actions
    assert g.phase == "pass"
    assert g.current_player == 0


@pytest.mark.parametrize("kw,needle", [
    (dict(variant="5p"), "'5p'"),
    (dict(variant=None), "None"),
    (dict(variant=4), "4"),
    (dict(variant="4P"), "'4P'"),
    (dict(scoring="pro"), "'pro'"),
    (dict(scoring=None), "None"),
    (dict(variant="3p", scoring=None), "None"),
    (dict(episode="match"), "'match'"),
])
def test_config_errors_name_value_and_list_valid(kw, needle):
    with pytest.raises(ValueError) as e:
        ys.Game(**kw)
    msg = str(e.value)
    assert needle in msg
    if "scoring" not in kw and "variant" in kw:
        assert all(v in msg for v in VARIANTS)
    elif "scoring" in kw:
        assert "advanced" in msg and "basic" in msg


@pytest.mark.parametrize("variant", ["seal", "seal-short"])
@pytest.mark.parametrize("scoring", [None, "advanced", "basic"])
def test_seal_ignores_scoring(variant, scoring):
    g = ys.Game(variant, scoring=scoring)
    assert g.scoring is None
    assert g.record() == ys.Game(variant).record()


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1, np.uint64(2**64 - 1), np.int8(5)])
def test_seed_range_ok(seed):
    assert ys.Game(seed=seed).seed == int(seed)


@pytest.mark.parametrize("seed", [-1, 2**64, 2**100, -(2**100), np.int64(-1)])
def test_seed_out_of_range_is_value_error(seed):
    with pytest.raises(ValueError) as e:
        ys.Game(seed=seed)
    assert not isinstance(e.value, OverflowError)
    assert "seed" in str(e.value)


@pytest.mark.parametrize("seed", [1.0, "0", None, [0], True, np.float64(1)])
def test_seed_non_integer_is_type_error(seed):
    with pytest.raises(TypeError):
        ys.Game(seed=seed)


@pytest.mark.parametrize("m", [0, -1, 2**40, 1.5, "3"])
def test_max_rounds_errors(m):
    with pytest.raises((ValueError, TypeError)):
        ys.Game(max_rounds=m)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_actions_and_mask_agree(variant):
    g = ys.Game(variant, seed=3)
    rng = random.Random(3)
    buf = np.zeros(g.num_actions, dtype=bool)
    for _ in range(60):
        if g.phase == "over":
            break
        la = g.legal_actions()
        assert la == sorted(la) and len(set(la)) == len(la)
        m = g.legal_mask()
        assert m.dtype == np.bool_ and m.shape == (g.num_actions,)
        assert list(np.flatnonzero(m)) == la
        assert g.legal_mask(out=buf) is buf and (buf == m).all()
        g.step(rng.choice(la))


def test_passing_picks_are_card_ids_and_hand_keeps_picks():
    g = ys.Game(seed=5)
    hand = g.hand(0)
    assert g.legal_actions() == hand
    g.step(hand[4])
    assert g.hand(0) == hand  # picked cards stay in hand during passing
    assert hand[4] not in g.legal_actions()


@pytest.mark.parametrize("t", NP_INTS)
def test_numpy_integer_actions(t):
    g = ys.Game(seed=1)
    a = g.legal_actions()[0]
    g.step(t(a))
    assert a not in g.legal_actions()


@pytest.mark.parametrize("bad", [True, False, 1.0, 0.0, "1", None, [1], (1,), np.float32(1),
                                 np.float64(0), np.bool_(True), np.array([1]), 1j, object()])
def test_non_integer_actions_are_type_errors(bad):
    g = ys.Game(seed=1)
    before = g.record()
    with pytest.raises(TypeError):
        g.step(bad)
    assert g.record() == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_integers_raise_and_leave_game(variant):
    g = ys.Game(variant, seed=2)
    rng = random.Random(2)
    play_random(g, rng, max_steps=20)  # mid-play
    legal = set(g.legal_actions())
    hand = set(g.hand(g.current_player))
    before = g.record()
    bads = [-1, -(2**70), g.num_actions, 56, 64, 255, 256, 2**63, 2**64, 2**200,
            np.int64(-5), np.uint64(2**64 - 1)]
    bads += [c for c in range(g.num_actions) if c not in legal]
    for a in bads:
        with pytest.raises(ys.IllegalActionError) as e:
            g.step(a)
        assert isinstance(e.value, ValueError)
        assert g.record() == before
    # the message names the card and the reason
    not_in_hand = next(c for c in range(g.num_actions) if c not in hand)
    with pytest.raises(ys.IllegalActionError, match="not in seat"):
        g.step(not_in_hand)
    off_suit = [c for c in hand if c not in legal]
    if off_suit:
        with pytest.raises(ys.IllegalActionError, match="led suit"):
            g.step(off_suit[0])
    with pytest.raises(ys.IllegalActionError, match="out of range"):
        g.step(-1)


def test_already_picked_message():
    g = ys.Game(seed=1)
    c = g.legal_actions()[0]
    g.step(c)
    with pytest.raises(ys.IllegalActionError, match="already picked"):
        g.step(c)


# ---------------------------------------------------------------- queries


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_and_seat_errors(variant):
    g = ys.Game(variant)
    n = g.num_players
    cards = sorted(c for p in range(n) for c in g.hand(p))
    extra = [] if g.trump_card is None else [g.trump_card]
    assert sorted(cards + extra) == list(range(g.num_actions))
    for p in range(n):
        assert g.hand(p) == sorted(g.hand(p))
        assert g.hand(np.int32(p)) == g.hand(p)
    for bad in [-1, n, 99, 2**70]:
        with pytest.raises(ValueError):
            g.hand(bad)
    for bad in [1.0, "0", None, True]:
        with pytest.raises(TypeError):
            g.hand(bad)


def test_trump():
    g = ys.Game("4p", seed=0)
    assert g.trump_card is not None and g.trump_suit == g.trump_card // 7
    s = ys.Game("seal", seed=0)
    assert s.trump_card is None and s.trump_suit is None
    play_random(s, random.Random(0), max_steps=3 * 4 + 1)  # passing + the first lead
    assert s.phase == "play" and s.trump_suit is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_after_the_end(variant):
    g = finished(variant)
    assert g.phase == "over"
    assert g.current_player == -1
    assert g.legal_actions() == []
    m = g.legal_mask()
    assert m.shape == (g.num_actions,) and not m.any()
    if not g.truncated:
        assert g.winners
    assert len(g.scores) == g.num_players
    before = g.record()
    for a in [0, 1, 48]:
        with pytest.raises(ys.IllegalActionError, match="over"):
            g.step(a)
    assert g.record() == before


@pytest.mark.parametrize("variant", ["4p", "3p"])
def test_scores_teammates_share(variant):
    g = finished(variant, seed=4)
    s = g.scores
    if variant == "4p":
        assert s[0] == s[2] and s[1] == s[3]
    target = 7
    assert max(s) >= target
    assert g.winners


def test_winners_empty_until_over():
    g = ys.Game(seed=9)
    play_random(g, random.Random(9), max_steps=50)
    assert g.winners == []


def test_episode_round():
    g = play_random(ys.Game("4p", seed=1, episode="round"), random.Random(1))
    assert g.phase == "over" and g.round == 0 and g.winners


def test_max_rounds_truncates():
    g = play_random(ys.Game("seal", seed=1, max_rounds=1), random.Random(1))
    assert g.phase == "over" and g.round == 0
    assert g.truncated or g.winners


def test_deals_depend_on_seed_and_round_only():
    a = play_random(ys.Game("4p", seed=11, max_rounds=3), random.Random(1)).record()
    b = play_random(ys.Game("4p", seed=11, max_rounds=3), random.Random(2)).record()
    for ra, rb in zip(a["rounds"], b["rounds"]):
        assert ra["hands"] == rb["hands"] and ra["trump_card"] == rb["trump_card"]


# ---------------------------------------------------------------- records, copies


@pytest.mark.parametrize("variant", VARIANTS)
def test_record_round_trip(variant):
    g = finished(variant, seed=7)
    rec = g.record()
    assert json.loads(json.dumps(rec)) == rec
    assert rec["version"] == 1 and rec["variant"] == variant
    assert (rec["scoring"] is None) == variant.startswith("seal")
    assert ys.Game.from_record(rec).record() == rec
    assert ys.Game.from_record(json.dumps(rec)).record() == rec
    # mid-game records too
    h = play_random(ys.Game(variant, seed=8), random.Random(8), max_steps=37)
    r = h.record()
    h2 = ys.Game.from_record(r)
    assert h2.record() == r and h2.legal_actions() == h.legal_actions()


@pytest.mark.parametrize("mutate,field", [
    (lambda r: r.pop("scores"), "scores"),
    (lambda r: r.__setitem__("version", 2), "version"),
    (lambda r: r.__setitem__("variant", "5p"), "variant"),
    (lambda r: r.__setitem__("extra", 1), "extra"),
    (lambda r: r["rounds"][0]["passes"][0].__setitem__(0, True), "rounds[0].passes[0][0]"),
    (lambda r: r["rounds"][0]["passes"][0].__setitem__(0, 1.0), "rounds[0].passes[0][0]"),
    (lambda r: r["rounds"][0]["tricks"][0].__setitem__("winner", 5), "rounds[0].tricks[0]"),
    (lambda r: r.__setitem__("seed", 2**70), "seed"),
    (lambda r: r.__setitem__("seed", object()), "seed"),
])
def test_from_record_rejects(mutate, field):
    rec = play_random(ys.Game(seed=3), random.Random(3), max_steps=30).record()
    mutate(rec)
    with pytest.raises(ValueError) as e:
        ys.Game.from_record(rec)
    assert field in str(e.value)


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_copy_pickle(variant):
    g = play_random(ys.Game(variant, seed=5), random.Random(5), max_steps=33)
    for c in [g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))]:
        assert c is not g and c == g and c.record() == g.record()
        c.step(c.legal_actions()[0])
        assert c != g  # independent


def test_repr_str():
    g = ys.Game("3p", seed=2)
    assert repr(g).startswith("Game(variant=\"3p\"")
    s = str(g)
    assert "3p" in s and "seat 2" in s


def test_card_names():
    assert ys.Game.card_name(0) == "WA" and ys.Game.card_name(48) == "S13"
    assert ys.Game.card_id("f7b") == 54
    with pytest.raises(ValueError):
        ys.Game.card_id("Z9")


# ---------------------------------------------------------------- threads


def test_games_move_between_threads_and_share_under_lock():
    g = ys.Game(seed=1)
    lock = threading.Lock()
    errors = []

    def worker(k):
        rng = random.Random(k)
        for _ in range(200):
            with lock:
                if g.phase == "over":
                    return
                try:
                    g.step(rng.choice(g.legal_actions()))
                except Exception as e:  # pragma: no cover
                    errors.append(e)

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors
    assert ys.Game.from_record(g.record()).record() == g.record()


# Unsynchronised use from several threads: tests/python/test_concurrency.py.


# ---------------------------------------------------------------- observations


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_shape_dtype_layout(variant):
    g = ys.Game(variant, seed=1)
    o = g.observation()
    assert o.dtype == np.float32 and o.shape == (g.observation_size,)
    lay = g.layout()
    assert lay[0]["offset"] == 0
    assert sum(f["len"] for f in lay) == g.observation_size
    for a, b in zip(lay, lay[1:]):
        assert b["offset"] == a["offset"] + a["len"]
    assert all(f["meaning"] for f in lay)
    buf = np.zeros(g.observation_size, np.float32)
    assert g.observation(0, out=buf) is buf and (buf == o).all()
    u8 = np.zeros(g.observation_size, np.uint8)
    g.observation(0, out=u8)
    assert (u8 == o).all()
    with pytest.raises(ValueError):
        g.observation(0, out=np.zeros(3, np.float32))
    with pytest.raises(TypeError):
        g.observation(0, out=np.zeros(g.observation_size, np.float64))
    for bad in [-1, g.num_players, 2**80]:
        with pytest.raises(ValueError):
            g.observation(bad)
    with pytest.raises(TypeError):
        g.observation("0")


@pytest.mark.parametrize("variant", VARIANTS)
def test_public_events_change_every_seat_observation(variant):
    g = ys.Game(variant, seed=2)
    rng = random.Random(2)
    while g.phase == "pass":
        g.step(rng.choice(g.legal_actions()))
    for _ in range(2 * g.num_players):
        before = [g.observation(p) for p in range(g.num_players)]
        g.step(rng.choice(g.legal_actions()))
        for p in range(g.num_players):
            assert (g.observation(p) != before[p]).any()


def test_observation_after_end_needs_seat():
    g = finished("4p")
    for p in range(4):
        assert g.observation(p).shape == (g.observation_size,)
    with pytest.raises(ValueError):
        g.observation()


def test_step_rewards():
    g = ys.Game("4p", seed=3)
    rng = random.Random(3)
    total = np.zeros(4)
    while g.phase != "over":
        total += g.step_rewards(rng.choice(g.legal_actions()), "win")
    assert sorted(total) == [-1, -1, 1, 1]
    with pytest.raises(ValueError, match="points"):
        ys.Game().step_rewards(0, "money")


def test_seal_games_ignore_scoring_and_equal_their_replay():
    g = ys.Game(variant="seal", scoring="basic", seed=5)
    for _ in range(20):
        g.step(g.legal_actions()[0])
    assert ys.Game.from_record(g.record()) == g
    assert pickle.loads(pickle.dumps(g)) == g
    assert g.record()["scoring"] is None
