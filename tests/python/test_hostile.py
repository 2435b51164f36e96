"""Hostile inputs (issue 9): every wrong type and range of action, configuration, seat,
buffer and record. Each gives TypeError / ValueError (IllegalActionError for illegal
integers) with a message naming the problem, nothing crashes, and the game is unchanged.
"""

import copy
import enum
import json
import random
import re
import reprlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yokai_septet as ys
from yokai_septet._gym import YokaiSeptetEnv

VARIANTS = ["4p", "3p", "seal", "seal-short"]
NP_INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                np.uint64, np.intc, np.uintc, np.longlong, np.ulonglong, np.intp, np.uintp]
NP_NON_INT = [np.float16(1), np.float32(1), np.float64(0), np.longdouble(2), np.bool_(True),
              np.bool_(False), np.complex64(1), np.str_("1"), np.bytes_(b"1"),
              np.datetime64(1, "D"), np.timedelta64(1, "D")]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def play(g, rng, steps):
    for _ in range(steps):
        if g.phase == "over":
            break
        g.step(rng.choice(g.legal_actions()))
    return g


def snapshot(g):
    """Everything observable about a game (to check it is unchanged)."""
    return (g.record(), [g.observation(p).tobytes() for p in range(g.num_players)],
            g.legal_actions(), g.phase, g.current_player, g.scores)


class Idx:
    """Has __index__ but is not an int: still not an action."""

    def __index__(self):
        return 3


class Color(enum.IntEnum):
    RED = 1


def positions():
    """(variant, label, game) at passing, mid-trick, at a round boundary and over."""
    out = []
    for v in VARIANTS:
        out.append((v, "pass", ys.Game(v, seed=1)))
        out.append((v, "mid", play(ys.Game(v, seed=2), random.Random(2), 40)))
        g = ys.Game(v, seed=3, max_rounds=2)
        play(g, random.Random(3), 10**6)
        out.append((v, "over", g))
    return out


POSITIONS = positions()
IDS = [f"{v}-{k}" for v, k, _ in POSITIONS]

# ------------------------------------------------------------------------------- actions

TYPE_ERRORS = [True, False, 1.0, -0.0, float("nan"), float("inf"), 2.0**70, "1", "", b"1",
               None, [1], [], (1,), {1}, {1: 1}, 1j, object(), Idx(), np.array(1),
               np.array(1.0), np.array([1]), np.array(True), slice(1), range(1), ...,
               *NP_NON_INT]
HUGE = [-1, -2, -(2**63), -(2**64), -(2**70), 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70,
        2**200, -(2**200), 56, 57, 255, 256, 1 << 31, np.int64(-1), np.int8(-128),
        np.uint64(2**64 - 1), np.int64(2**63 - 1), np.uint8(255), np.int16(-32768)]


@pytest.mark.parametrize("variant,label,g", POSITIONS, ids=IDS)
def test_non_integer_actions_are_type_errors_and_change_nothing(variant, label, g):
    before = snapshot(g)
    for bad in TYPE_ERRORS:
        for call in (g.step, g.step_rewards):
            with pytest.raises(TypeError) as e:
                call(bad)
            assert not isinstance(e.value, ValueError)
            msg = str(e.value)
            assert "action" in msg and "int" in msg, msg
            assert snapshot(g) == before


@pytest.mark.parametrize("variant,label,g", POSITIONS, ids=IDS)
def test_out_of_range_and_illegal_integers_change_nothing(variant, label, g):
    before = snapshot(g)
    legal = set(g.legal_actions())
    bads = HUGE + [t(c) for t in NP_INT_TYPES for c in range(g.num_actions) if c not in legal]
    bads += [c for c in range(-3, 70) if c not in legal]
    for bad in bads:
        for call in (g.step, g.step_rewards):
            with pytest.raises(ys.IllegalActionError) as e:
                call(bad)
            msg = str(e.value)
            assert msg.startswith("illegal action"), msg
            if label == "over":
                assert "over" in msg or "out of range" in msg, msg
            elif not 0 <= int(bad) < g.num_actions:
                assert "out of range" in msg and str(int(bad)) in msg, msg
            else:
                assert f"(id {int(bad)})" in msg, msg
            assert snapshot(g) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_numpy_integer_width_is_an_action(variant):
    rng = random.Random(4)
    ref = ys.Game(variant, seed=4)
    games = [ys.Game(variant, seed=4) for _ in NP_INT_TYPES + [Color]]
    for _ in range(30):
        a = rng.choice(ref.legal_actions())
        ref.step(a)
        for t, g in zip(NP_INT_TYPES + [lambda x: x], games):
            g.step(t(a))
    for g in games:
        assert g.record() == ref.record()
    # IntEnum is an int subclass: accepted as an int
    g, ref = ys.Game(variant, seed=4), ys.Game(variant, seed=4)
    if int(Color.RED) in ref.legal_actions():
        g.step(Color.RED)
        ref.step(int(Color.RED))
        assert g.record() == ref.record()
    else:
        with pytest.raises(ys.IllegalActionError):
            g.step(Color.RED)
        assert g.record() == ref.record()


@SETTINGS
@given(a=st.integers(), k=st.integers(0, len(POSITIONS) - 1))
def test_any_integer_steps_or_raises_illegal(a, k):
    g = POSITIONS[k][2].clone()
    before = snapshot(g)
    if a in before[2]:
        g.step(a)
        assert g.record() != before[0]
    else:
        with pytest.raises(ys.IllegalActionError):
            g.step(a)
        assert snapshot(g) == before


@SETTINGS
@given(bad=st.one_of(st.floats(), st.text(max_size=3), st.none(), st.booleans(),
                     st.lists(st.integers(0, 55), max_size=2), st.binary(max_size=2),
                     st.tuples(st.integers()), st.complex_numbers()),
       k=st.integers(0, len(POSITIONS) - 1))
def test_any_non_integer_is_a_type_error(bad, k):
    g = POSITIONS[k][2]
    before = snapshot(g)
    with pytest.raises(TypeError):
        g.step(bad)
    assert snapshot(g) == before


# ------------------------------------------------------------------------------- config


@pytest.mark.parametrize("kw,exc,needle", [
    (dict(variant=None), ValueError, "variant None"),
    (dict(variant=4), ValueError, "variant 4"),
    (dict(variant=b"4p"), ValueError, "variant b'4p'"),
    (dict(variant=["4p"]), ValueError, "variant ['4p']"),
    (dict(variant=" 4p"), ValueError, "variant ' 4p'"),
    (dict(variant="4p\x00"), ValueError, "variant '4p\\x00'"),
    (dict(variant="4p", scoring=None), ValueError, "scoring None"),
    (dict(variant="3p", scoring=1), ValueError, "scoring 1"),
    (dict(variant="3p", scoring="Advanced"), ValueError, "scoring 'Advanced'"),
    (dict(seed=2**64), ValueError, "seed"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(seed=-(2**70)), ValueError, "seed"),
    (dict(seed=np.int8(-1)), ValueError, "seed"),
    (dict(seed=1.0), TypeError, "seed"),
    (dict(seed=float("nan")), TypeError, "seed"),
    (dict(seed="1"), TypeError, "seed"),
    (dict(seed=True), TypeError, "seed"),
    (dict(seed=np.float64(3)), TypeError, "seed"),
    (dict(seed=np.array(3)), TypeError, "seed"),
    (dict(seed=None), TypeError, "seed"),
    (dict(episode=None), ValueError, "episode None"),
    (dict(episode="games"), ValueError, "episode 'games'"),
    (dict(max_rounds=0), ValueError, "max_rounds 0"),
    (dict(max_rounds=-5), ValueError, "max_rounds -5"),
    (dict(max_rounds=2**32), ValueError, "max_rounds"),
    (dict(max_rounds=2**70), ValueError, "max_rounds"),
    (dict(max_rounds=1.0), TypeError, "max_rounds"),
    (dict(max_rounds=True), TypeError, "max_rounds"),
    (dict(max_rounds="2"), TypeError, "max_rounds"),
])
def test_game_config_errors(kw, exc, needle):
    with pytest.raises(exc) as e:
        ys.Game(**kw)
    assert not isinstance(e.value, OverflowError)
    if exc is TypeError:
        assert not isinstance(e.value, ValueError)
    assert needle in str(e.value), str(e.value)


def test_game_unknown_keyword_is_type_error():
    with pytest.raises(TypeError):
        ys.Game(variants="4p")
    with pytest.raises(TypeError):
        ys.Game("4p", "advanced", 0, "game")  # episode is keyword-only


@pytest.mark.parametrize("kw,exc,needle", [
    (dict(num_envs=0), ValueError, "num_envs 0"),
    (dict(num_envs=-1), ValueError, "num_envs -1"),
    (dict(num_envs=-(2**70)), ValueError, "num_envs"),
    (dict(num_envs=2**70), ValueError, "num_envs"),
    (dict(num_envs=1.0), TypeError, "num_envs"),
    (dict(num_envs=None), TypeError, "num_envs"),
    (dict(num_envs=True), TypeError, "num_envs"),
    (dict(num_envs="2"), TypeError, "num_envs"),
    (dict(num_threads=0), ValueError, "num_threads 0"),
    (dict(num_threads=-1), ValueError, "num_threads -1"),
    (dict(num_threads=2**70), ValueError, "num_threads"),
    (dict(num_threads=1.5), TypeError, "num_threads"),
    (dict(num_threads=False), TypeError, "num_threads"),
    (dict(seed=2**64), ValueError, "seed"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(seed=0.5), TypeError, "seed"),
    (dict(variant="5p"), ValueError, "variant '5p'"),
    (dict(variant=None), ValueError, "variant None"),
    (dict(scoring=None), ValueError, "scoring None"),
    (dict(scoring="pro"), ValueError, "scoring 'pro'"),
    (dict(max_rounds=0), ValueError, "max_rounds"),
    (dict(learner_seat=-1), ValueError, "learner_seat -1"),
    (dict(learner_seat=2**70), ValueError, "learner_seat"),
    (dict(learner_seat=1.0), TypeError, "learner_seat"),
    (dict(reward_mode=None), ValueError, "reward_mode"),
    (dict(reward_mode=3), ValueError, "reward_mode"),
    (dict(opponents=3), ValueError, "opponents"),
    (dict(opponents=["random", None, "random", "random"]), ValueError, "opponents"),
    (dict(opponents="pimc:-1"), ValueError, "pimc"),
    (dict(obs_dtype="float64"), ValueError, "obs_dtype"),
    # a name setting refuses anything but its names alike (the settings table's rule)
    (dict(obs_dtype=None), ValueError, "obs_dtype None"),
])
def test_vector_env_config_errors(kw, exc, needle):
    kw = dict(kw)
    n = kw.pop("num_envs", 2)
    with pytest.raises(exc) as e:
        ys.VectorEnv(n, **kw)
    assert not isinstance(e.value, OverflowError)
    assert needle in str(e.value), str(e.value)


def test_vector_env_reset_and_queries_hostile():
    v = ys.VectorEnv(3, seed=1, self_play=True, num_threads=1)
    obs, _ = v.reset()
    before = obs.copy()
    for bad, exc in [(2**64, ValueError), (-1, ValueError), (1.5, TypeError), ("1", TypeError),
                     (True, TypeError)]:
        with pytest.raises(exc):
            v.reset(seed=bad)
        assert (v.observations == before).all()
    for bad, exc in [(-1, ValueError), (3, ValueError), (2**70, ValueError),
                     (-(2**70), ValueError), (1.0, TypeError), (None, TypeError)]:
        for f in (v.game_seed, v.render_env):
            with pytest.raises(exc) as e:
                f(bad)
            assert not isinstance(e.value, OverflowError)
            assert "env" in str(e.value)
    assert v.game_seed(np.int64(2)) == v.game_seed(2)


@pytest.mark.parametrize("actions,exc", [
    ([0.0, 1.0, 2.0], TypeError),
    ([True, False, True], TypeError),
    (["1", "2", "3"], TypeError),
    ([None, 1, 2], TypeError),
    ([1, 2], ValueError),
    ([[1, 2, 3]], ValueError),
    (np.zeros((3, 1), dtype=np.int64), ValueError),
    ([-1, -1, -1], ys.IllegalActionError),
    ([2**63 - 1] * 3, ys.IllegalActionError),
    (np.full(3, 2**64 - 1, dtype=np.uint64), ys.IllegalActionError),
    ([2**70, 0, 0], ys.IllegalActionError),
    ([-(2**70), 0, 0], ys.IllegalActionError),
    (np.array([56, 56, 56], dtype=np.int8), ys.IllegalActionError),
])
def test_vector_env_hostile_actions_change_nothing(actions, exc):
    v = ys.VectorEnv(3, seed=1, self_play=True, num_threads=1, illegal_action="raise")
    v.reset()
    snap = [np.array(x, copy=True) for x in (v.observations, v.masks, v.to_play, v.rewards)]
    episodes = v.episodes()
    with pytest.raises(exc):
        v.step(actions)
    for a, b in zip(snap, (v.observations, v.masks, v.to_play, v.rewards)):
        assert (a == b).all()
    assert v.episodes() == episodes
    v.step(v.action_masks().argmax(axis=1))  # still usable


# ------------------------------------------------------------------------------- seats, buffers


@pytest.mark.parametrize("variant", VARIANTS)
def test_hostile_seats(variant):
    g = ys.Game(variant, seed=1)
    n = g.num_players
    before = snapshot(g)
    for bad in [-1, n, 2**64, 2**70, -(2**70), np.int64(-1), np.uint64(2**64 - 1)]:
        for f in (g.hand, g.picks, g.observation):
            with pytest.raises(ValueError) as e:
                f(bad)
            assert not isinstance(e.value, OverflowError)
            assert "seat" in str(e.value)
    for bad in [1.0, "0", True, [0], np.float32(0), np.array(0)]:
        for f in (g.hand, g.picks, g.observation):
            with pytest.raises(TypeError) as e:
                f(bad)
            assert "seat" in str(e.value)
    for f in (g.hand, g.picks):
        with pytest.raises(TypeError):
            f(None)
    assert snapshot(g) == before


@pytest.mark.parametrize("out", [
    np.zeros(10, dtype=np.float32), np.zeros((2, 1000), dtype=np.float32),
    np.zeros(5000, dtype=np.float64), np.zeros(5000, dtype=np.int32), [0.0] * 10, "x",
    np.zeros(5000, dtype=np.bool_)])
def test_hostile_observation_out(out):
    g = ys.Game(seed=1)
    d = g.observation_size
    if isinstance(out, np.ndarray) and out.ndim == 1 and out.dtype != np.bool_:
        out = np.zeros(d, dtype=out.dtype) if out.dtype != np.float32 else out
    before = snapshot(g)
    with pytest.raises((TypeError, ValueError)) as e:
        g.observation(0, out=out)
    assert "out" in str(e.value)
    assert snapshot(g) == before


def test_observation_out_readonly_and_strided():
    g = ys.Game(seed=1)
    d = g.observation_size
    ro = np.zeros(d, dtype=np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        g.observation(0, out=ro)
    assert not ro.any()
    strided = np.zeros(2 * d, dtype=np.float32)[::2]
    with pytest.raises(ValueError, match="contiguous"):
        g.observation(0, out=strided)
    m = np.zeros(g.num_actions + 1, dtype=bool)
    with pytest.raises(ValueError, match="shape"):
        g.legal_mask(out=m)
    with pytest.raises(TypeError):
        g.legal_mask(out=np.zeros(g.num_actions, dtype=np.uint8))


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (56, ValueError), (2**70, ValueError),
                                     (1.0, TypeError), (None, TypeError), (True, TypeError)])
def test_card_name_hostile(bad, exc):
    with pytest.raises(exc):
        ys.Game.card_name(bad)


@pytest.mark.parametrize("code", ["", "W", "WA7", "Z1", "S14", "W7c", "\x00", "é", "W" * 10**5])
def test_card_id_hostile(code):
    with pytest.raises(ValueError):
        ys.Game.card_id(code)


@pytest.mark.parametrize("name,seed,exc", [
    ("nope", 0, ValueError), ("", 0, ValueError), ("pimc:", 0, ValueError),
    ("pimc:x", 0, ValueError), ("pimc:-3", 0, ValueError), ("pimc:99999999999999999999999", 0,
                                                             ValueError),
    ("pimc:ms", 0, ValueError), ("random", -1, ValueError), ("random", 2**64, ValueError),
    ("random", 1.5, TypeError), ("random", "1", TypeError), (None, 0, TypeError),
    (5, 0, TypeError),
])
def test_bot_hostile(name, seed, exc):
    with pytest.raises(exc):
        ys.Bot(name, seed=seed)


def test_bot_act_hostile():
    b = ys.Bot("random")
    for bad in [None, 1, "game", ys.VectorEnv(1, num_threads=1)]:
        with pytest.raises(TypeError):
            b.act(bad)
    g = ys.Game(seed=1, max_rounds=1)
    play(g, random.Random(1), 10**6)
    with pytest.raises(ys.IllegalActionError):
        b.act(g)
    for bad, exc in [(-1, ValueError), (1.0, TypeError)]:
        with pytest.raises(exc):
            b.reseed(bad)


# ------------------------------------------------------------------------------- records


def base_records():
    out = []
    for v in VARIANTS:
        for steps in (0, 3, 25, 10**6):
            g = ys.Game(v, seed=11 + steps % 7, max_rounds=2)
            play(g, random.Random(steps), steps)
            out.append(g.record())
    return out


BASE = base_records()

WEIRD = [True, False, None, 1.0, 0.5, "3", "", -1, 0, 1, 55, 56, 2**64, 2**70, -(2**70),
         [], {}, [0], {"x": 1}, float("nan"), float("inf"), np.int64(3), np.uint8(1),
         np.float32(1), np.bool_(True), (1, 2), object()]
EXTRA_KEYS = ["extra", "Version", "", "rounds ", "hands", "leader", "episode", "max_rounds"]


def slots(x, out=None):
    """Every (container, key) in a JSON-ish tree (the root excluded)."""
    out = [] if out is None else out
    if isinstance(x, dict):
        for k in list(x):
            out.append((x, k))
            slots(x[k], out)
    elif isinstance(x, list):
        for i in range(len(x)):
            out.append((x, i))
            slots(x[i], out)
    return out


def containers(x, out=None):
    out = [] if out is None else out
    if isinstance(x, (dict, list)):
        out.append(x)
        for v in (x.values() if isinstance(x, dict) else x):
            containers(v, out)
    return out


@st.composite
def mutated_records(draw):
    rec = copy.deepcopy(draw(st.sampled_from(BASE)))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["int", "type", "remove", "add", "shuffle", "truncate",
                                   "dup", "swap"]))
        if op == "add":
            c = draw(st.sampled_from(containers(rec)))
            # A copy: inserting WEIRD's own lists and dicts would let later mutations
            # change WEIRD itself, and Hypothesis's replays with it (FlakyStrategyDefinition).
            val = copy.deepcopy(draw(st.sampled_from(WEIRD)))
            if isinstance(c, dict):
                c[draw(st.sampled_from(EXTRA_KEYS))] = val
            else:
                c.insert(draw(st.integers(0, len(c))), val)
            continue
        if op in ("shuffle", "truncate", "dup", "swap"):
            lists = [c for c in containers(rec) if isinstance(c, list) and c]
            if not lists:
                continue
            c = draw(st.sampled_from(lists))
            if op == "shuffle":
                perm = draw(st.permutations(range(len(c))))
                c[:] = [c[i] for i in perm]
            elif op == "truncate":
                del c[draw(st.integers(0, len(c) - 1)):]
            elif op == "dup":
                c.append(copy.deepcopy(c[draw(st.integers(0, len(c) - 1))]))
            else:
                i, j = draw(st.integers(0, len(c) - 1)), draw(st.integers(0, len(c) - 1))
                c[i], c[j] = c[j], c[i]
            continue
        s = slots(rec)
        if not s:
            continue
        c, k = s[draw(st.integers(0, len(s) - 1))]
        if op == "remove":
            del c[k]
        elif op == "int" and isinstance(c[k], int) and not isinstance(c[k], bool):
            c[k] = draw(st.sampled_from([c[k] + 1, c[k] - 1, c[k] + 7, -c[k] - 1,
                                         draw(st.integers(-2, 60))]))
        else:
            old = c[k]
            c[k] = copy.deepcopy(draw(st.sampled_from(WEIRD + [str(old), [old], {"v": old}])))
    return rec


def dumps(x):
    return json.dumps(normalise(x), default=lambda o: type(o).__name__)


def normalise(x):
    """A record as JSON would give it back (tuples become lists, numpy ints ints)."""
    if isinstance(x, dict):
        return {k: normalise(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [normalise(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    return x


NAMES_A_FIELD = re.compile(r"invalid record( at [^:]+)?: \S")


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rec=mutated_records())
def test_mutated_records_are_rejected_by_name_or_round_trip(rec):
    keep = copy.deepcopy(rec)
    try:
        g = ys.Game.from_record(rec)
    except ValueError as e:
        msg = str(e)
        assert NAMES_A_FIELD.match(msg), msg
        accepted = False
    else:
        accepted = True
        assert g.record() == normalise(rec)
        assert ys.Game.from_record(g.record()).record() == g.record()
    # the caller's record is never touched
    assert dumps(keep) == dumps(rec)
    # the JSON-text path agrees with the dict path
    try:
        text = json.dumps(normalise(rec))
    except (TypeError, ValueError):
        return
    if "NaN" in text or "Infinity" in text:
        return
    try:
        g2 = ys.Game.from_record(text)
    except ValueError as e:
        assert not accepted, f"dict accepted, text rejected: {e}"
    else:
        assert accepted, "text accepted, dict rejected"
        assert g2.record() == g.record()


@pytest.mark.parametrize("rec", BASE[:4] + BASE[-4:])
def test_base_records_round_trip(rec):
    assert ys.Game.from_record(rec).record() == rec


@pytest.mark.parametrize("bad", [None, 1, "", "{", "[]", "null", b"{}", [], (), {},
                                 {1: 2}, {"version": 1}, "{\"version\": 1e400}",
                                 "\"" + "x" * 1000 + "\"", "[" * 100000])
def test_not_a_record(bad):
    with pytest.raises(ValueError) as e:
        ys.Game.from_record(bad)
    assert "record" in str(e.value)


def nested(depth):
    x = []
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("depth", [200, 10**5, 10**6])
def test_deeply_nested_record_is_a_value_error_not_a_crash(depth):
    rec = copy.deepcopy(BASE[0])
    rec["rounds"][0]["passes"][0] = nested(depth)
    with pytest.raises(ValueError, match="nested"):
        ys.Game.from_record(rec)
    rec = {"version": 1, "extra": {"a": nested(depth)}}
    with pytest.raises(ValueError, match="nested"):
        ys.Game.from_record(rec)


def test_self_referential_record_is_a_value_error():
    rec = copy.deepcopy(BASE[0])
    loop = []
    loop.append(loop)
    rec["scores"] = loop
    with pytest.raises(ValueError, match="nested"):
        ys.Game.from_record(rec)
    d = {}
    d["x"] = d
    with pytest.raises(ValueError, match="nested"):
        ys.Game.from_record(d)


# ------------------------------------------------------------------- issue 72: callers

# What a hostile caller passes for any argument: wrong types, out-of-range and huge
# values, text that does not encode, containers.
ANY_WRONG = [None, 3, -1, 2**64, 2**200, 1.5, float("nan"), float("inf"), "x", "\udc80",
             b"x", [], [0.5], {}, object(), True, np.float64(1), np.uint64(2**64 - 1),
             np.array([1, 2]), np.zeros(56, np.int8)]


def _some_game():
    g = ys.Game(seed=5)
    play(g, random.Random(5), 20)
    return g


def _finished_record():
    g = ys.Game(seed=3, max_rounds=1)
    play(g, random.Random(3), 10**6)
    return g.record()


def _deal():
    g = ys.Game(seed=1)
    return [g.hand(p) for p in range(g.num_players)], g.trump_card


# Every public call with its arguments' valid values: (label, call, names, valid).
CALLS = [
    ("Game", lambda g, v, s, sd: ys.Game(v, s, sd), ["variant", "scoring", "seed"],
     ["4p", "advanced", 1]),
    ("Game.step", lambda g, a: g.step(a), ["action"], [None]),
    ("Game.step_rewards", lambda g, m: g.step_rewards(g.legal_actions()[0], m),
     ["reward_mode"], ["win"]),
    ("Game.hand", lambda g, s: g.hand(s), ["seat"], [0]),
    ("Game.picks", lambda g, s: g.picks(s), ["seat"], [0]),
    ("Game.received", lambda g, s: g.received(s), ["seat"], [0]),
    ("Game.belief", lambda g, s: g.belief(s), ["seat"], [0]),
    ("Game.observation", lambda g, s, o: g.observation(s, o), ["seat", "out"], [0, None]),
    ("Game.legal_mask", lambda g, o: g.legal_mask(o), ["out"], [None]),
    ("Game.state_tensor", lambda g, d: g.state_tensor(d), ["dtype"], ["float32"]),
    ("Game.sample_determinization", lambda g, s, sd, b: g.sample_determinization(s, sd, b),
     ["seat", "seed", "belief"], [0, 1, False]),
    ("Game.to_text", lambda g, s: g.to_text(s), ["seat"], [None]),
    ("Game.to_png", lambda g, s, sc: g.to_png(s, sc), ["seat", "scale"], [None, 0.25]),
    ("Game.play_bots", lambda g, b, s, m: g.play_bots(b, s, m),
     ["bots", "learner_seat", "reward_mode"], [[ys.Bot("random")] * 4, 0, "win"]),
    ("Game.from_deal", lambda g, h, t: ys.Game.from_deal(h, t), ["hands", "trump_card"],
     list(_deal())),
    ("Game.from_record", lambda g, r: ys.Game.from_record(r), ["rec"], [None]),
    ("Game.card_id", lambda g, c: ys.Game.card_id(c), ["code"], ["W1"]),
    ("Game.card_name", lambda g, c: ys.Game.card_name(c), ["card"], [3]),
    ("Bot", lambda g, n, s: ys.Bot(n, s), ["name", "seed"], ["random", 1]),
    ("Bot.act", lambda g, x: ys.Bot("random").act(x), ["game"], [None]),
    ("Bot.reseed", lambda g, x: ys.Bot("random").reseed(x), ["seed"], [1]),
    ("analyze", lambda g, r, b: ys.analyze(r, b), ["rec", "budget"],
     [_finished_record(), 1000]),
    ("VectorEnv.game_seed", lambda g, i: ys.VectorEnv(2, seed=1).game_seed(i), ["env"], [0]),
    ("VectorEnv.bot_actions", lambda g, i: ys.VectorEnv(2, seed=1).bot_actions(i),
     ["env_ids"], [None]),
    ("VectorEnv.reset", lambda g, s: ys.VectorEnv(2, seed=1).reset(seed=s), ["seed"], [1]),
    ("VectorEnv.step", lambda g, a: ys.VectorEnv(2, seed=1).step(a), ["actions"], [None]),
    ("env.reset", lambda g, s: ys.env().reset(seed=s), ["seed"], [1]),
    ("YokaiSeptet-v0.reset", lambda g, s: YokaiSeptetEnv().reset(seed=s), ["seed"], [1]),
    ("SeatReward", lambda g, s: ys.SeatReward(ys.VectorEnv(2, seed=1, self_play=True), s),
     ["seat"], [0]),
]
CALLS = [(label, f, names, valid, i) for label, f, names, valid in CALLS
         for i in range(len(names))]
# Arguments whose errors describe what inside them is wrong (a deal's hand, a record's
# field, a bot of a list) rather than echo them whole.
STRUCTURED = {"hands", "rec", "bots"}


@pytest.mark.parametrize("label,call,names,valid,i", CALLS,
                         ids=[f"{c[0]}-{c[2][c[4]]}" for c in CALLS])
def test_any_wrong_argument_is_a_ys_error_naming_the_argument_and_the_value(
        label, call, names, valid, i):
    """Every public call, each argument in turn given every kind of wrong value: the call
    succeeds (a value with a documented meaning) or raises a ``ys.Error`` whose message
    names the argument and the value as passed; never pyo3's or numpy's own words, an
    OverflowError or a UnicodeEncodeError (issue 72)."""
    g = _some_game()
    for bad in ANY_WRONG:
        if label == "analyze" and names[i] == "budget" and bad is ANY_WRONG[-3]:
            continue  # 2**64-1 nodes a position: valid, and an exact solve of every one
        args = list(valid)
        args[i] = bad
        before = snapshot(g)
        try:
            call(g, *args)
        except ys.Error as e:
            msg = str(e)
            assert names[i] in msg or names[i].replace("_", " ") in msg, (label, bad, msg)
            shown = [repr(bad), reprlib.repr(bad), str(bad), type(bad).__name__]
            assert names[i] in STRUCTURED or any(s in msg for s in shown), (label, bad, msg)
            assert "PyString" not in msg and "PyArray" not in msg, msg
            if label != "Game.step":
                assert snapshot(g) == before, (label, bad)
        except Exception as e:  # noqa: BLE001 - the point: nothing else gets through
            pytest.fail(f"{label}({names[i]}={bad!r}) raised {type(e).__name__}: {e}")


def test_the_issues_messages_name_the_argument_and_the_value_as_passed():
    rec = _finished_record()
    for budget, cls in [(-1, ys.InvalidValueError), (2**64, ys.InvalidValueError),
                        (0, ys.InvalidValueError), (1.5, ys.InvalidTypeError)]:
        with pytest.raises(cls, match=re.escape(f"budget {budget!r}") + "|budget must") as e:
            ys.analyze(rec, budget=budget)
        assert repr(budget) in str(e.value)
    g = ys.Game(seed=1)
    with pytest.raises(ys.InvalidTypeError, match="out must be .* dtype bool, not a 1-dimensional ndarray of dtype int8"):
        g.legal_mask(out=np.zeros(g.num_actions, np.int8))
    for name in [3, None]:
        with pytest.raises(ys.InvalidTypeError, match=f"name must be a str, not .*{name!r}"):
            ys.Bot(name)
    with pytest.raises(ys.InvalidValueError, match="lone surrogate"):
        ys.Bot("random\udc80")
    for make in (lambda: ys.Game("4p\udc80"), lambda: ys.VectorEnv(2, variant="4p\udc80"),
                 lambda: ys.Game("4p", scoring="basic\udc80")):
        with pytest.raises(ys.InvalidValueError, match=r"\\udc80"):
            make()
    bot = ys.Bot("ismcts:10", seed=4)
    words = bot.__reduce__()[2]
    for forged, cls in [("x", ys.InvalidTypeError), (["a"], ys.InvalidTypeError),
                        ([-1, 0], ys.InvalidValueError), ([2**70, 0], ys.InvalidValueError),
                        ([1, 2, 3], ys.InvalidValueError), (None, ys.InvalidTypeError)]:
        with pytest.raises(cls) as e:
            bot.__setstate__(forged)
        assert "argument" not in str(e.value) and "Can't extract" not in str(e.value)
    assert bot.__reduce__()[2] == words  # unchanged
    v = ys.VectorEnv(3, seed=1, self_play=True, num_threads=1, illegal_action="raise")
    v.reset()
    with pytest.raises(ys.IllegalActionError, match=str(2**64 - 1)):
        v.step(np.full(3, 2**64 - 1, np.uint64))
    lose = ys.VectorEnv(3, seed=1, self_play=True, num_threads=1)
    lose.reset()
    _, r, term, _, infos = lose.step(np.full(3, 2**64 - 1, np.uint64))
    assert term.all() and infos["illegal_action"].all()
    hands, trump = _deal()
    hands[0][0] = 2**64
    with pytest.raises(ys.InvalidValueError, match=f"hands: card id {2**64} is out of range"):
        ys.Game.from_deal(hands, trump)
    hands, _ = _deal()
    with pytest.raises(ys.InvalidValueError, match=f"trump_card: card id {-(2**70)}"):
        ys.Game.from_deal(hands, -(2**70))


@pytest.mark.parametrize("ids,cls", [
    ([0.9, 1.7], ys.InvalidTypeError), (["0", "1"], ys.InvalidTypeError),
    ([float("nan"), 1], ys.InvalidTypeError), ([True, False], ys.InvalidTypeError),
    (np.array([0.0, 1.0]), ys.InvalidTypeError), (np.array([True, False]), ys.InvalidTypeError),
    ("01", ys.InvalidTypeError), (1, ys.InvalidTypeError), ([2**64, 0], ys.InvalidValueError),
    (np.array([2**64 - 1, 0], np.uint64), ys.InvalidValueError), ([0, 5], ys.InvalidValueError),
])
def test_env_ids_are_integers_as_actions_are(ids, cls):
    """``send(actions, env_id=...)`` and ``bot_actions(env_ids=...)`` take integers only:
    floats are not truncated to envs, strings are not parsed (issue 72), and nothing is
    sent; the batch can be sent afterwards."""
    v = ys.VectorEnv(4, seed=1, self_play=True, num_threads=1, batch_size=2)
    v.async_reset()
    _, _, _, _, infos = v.recv()
    acts = v.bot_actions(infos["env_id"])
    for call, what in [(lambda: v.send(acts, env_id=ids), "env_id"),
                       (lambda: v.bot_actions(ids), "env_ids")]:
        with pytest.raises(cls) as e:
            call()
        assert what in str(e.value), str(e.value)
    assert v.bot_actions(np.array([1, 0])).shape == (2,)
    v.send(acts, env_id=[0, 1])  # nothing was sent before: a list of ints is fine
    v.recv()


def _usable_cores():
    try:
        import os
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return 1


def test_a_thread_count_beyond_the_machines_is_refused_at_build_naming_the_limit():
    limit = max(_usable_cores(), 4)
    for name in ["ismcts:2000:t100000", f"ismcts:200:t{limit + 1}", "ismcts-inf:100:t4294967295"]:
        with pytest.raises(ys.InvalidValueError, match=f"at most {limit}") as e:
            ys.Bot(name)
        assert name in str(e.value)
    g = ys.Game(seed=2)
    play(g, random.Random(2), 8)
    assert ys.Bot(f"ismcts:40:t{limit}").act(g) in g.legal_actions()
    with pytest.raises(ys.InvalidValueError):
        ys.VectorEnv(2, opponents="ismcts:100:t100000")


def test_a_search_thread_the_system_refuses_is_a_state_error_and_the_bot_is_unchanged(tmp_path):
    """With every thread's stack set at a size the system cannot map (``RUST_MIN_STACK``),
    a threaded decision is an ordinary ``ys.StateError`` (not a panic that poisons the
    bot), and the bot is left as it was: its state is the one it had before, so it
    decides as a bot never refused would."""
    import os
    import pickle
    import subprocess
    import sys
    script = tmp_path / "spawn.py"
    script.write_text("""
import pickle, random, sys
import yokai_septet as ys
g = ys.Game(seed=2)
r = random.Random(2)
while g.phase != "play" or len(g.legal_actions()) < 2:
    g.step(r.choice(g.legal_actions()))
bot = ys.Bot("ismcts:60:t4", seed=9)
before = pickle.dumps(bot)
for _ in range(2):
    try:
        bot.act(g)
        print("no refusal")
    except ys.StateError as e:
        print("refused:", e)
print("unchanged", pickle.dumps(bot) == before)
""")
    env = dict(os.environ, RUST_MIN_STACK=str(1 << 44))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "please report" not in out.stdout + out.stderr and "panicked" not in out.stderr
    refused = "refused: bot 'ismcts:60:t4': the system would not start a search thread"
    assert out.stdout.count(refused) == 2, out.stdout
    assert "unchanged True" in out.stdout, out.stdout
    g = ys.Game(seed=2)
    r = random.Random(2)
    while g.phase != "play" or len(g.legal_actions()) < 2:
        g.step(r.choice(g.legal_actions()))
    kept = pickle.loads(pickle.dumps(ys.Bot("ismcts:60:t4", seed=9)))
    assert kept.act(g) == ys.Bot("ismcts:60:t4", seed=9).act(g)


def _model_paths(tmp_path):
    import os
    fifo = tmp_path / "model.safetensors"
    os.mkfifo(fifo)
    big = tmp_path / "big.safetensors"
    with open(big, "wb") as f:
        f.truncate((256 << 20) + 1)  # sparse: nothing written
    return [(str(fifo), "named pipe"), ("/dev/zero", "a device"), (str(tmp_path), "a folder"),
            (str(big), "over the 256 MiB")]


@pytest.mark.parametrize("make", ["Bot", "VectorEnv", "models.load", "arena"])
def test_model_files_are_read_only_when_regular_and_under_the_cap(tmp_path, make):
    """``nn:PATH`` on a named pipe, a device, a folder or a file over the cap is refused
    at once, saying which rule refused it, by every reader of model files (issue 72: a
    pipe blocked forever holding the GIL, ``/dev/zero`` read until memory ran out)."""
    import subprocess
    import sys
    from yokai_septet import models  # noqa: F401
    calls = {
        "Bot": "ys.Bot('nn:' + path)",
        "VectorEnv": "ys.VectorEnv(2, opponents='nn:' + path)",
        "models.load": "models.load(path)",
        "arena": "ys.arena(['nn:' + path, 'random'], games=2)",
    }
    for path, rule in _model_paths(tmp_path):
        # In a child with a deadline: a reader that blocked on the pipe would hang.
        code = (f"import yokai_septet as ys\nfrom yokai_septet import models\npath = {path!r}\n"
                f"try:\n    {calls[make]}\nexcept ys.InvalidValueError as e:\n    print(e)\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0, out.stderr
        assert rule in out.stdout and path in out.stdout, (path, out.stdout)


# --------------------------------------------------------------- issue 72: unseeded runs


def test_envs_built_without_a_seed_draw_one_and_say_it():
    a, b = ys.VectorEnv(4, num_threads=1), ys.VectorEnv(4, num_threads=1)
    assert a.seed != b.seed
    assert [a.game_seed(i) for i in range(4)] != [b.game_seed(i) for i in range(4)]
    again = ys.VectorEnv(4, num_threads=1, seed=a.seed)
    assert [again.game_seed(i) for i in range(4)] == [a.game_seed(i) for i in range(4)]
    assert (again.observations == a.observations).all()
    a.reset(seed=11)
    assert a.seed == 11
    import gymnasium
    m1, m2 = (gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, num_threads=1) for _ in "ab")
    assert m1.seed != m2.seed and m1.game_seed(0) != m2.game_seed(0)
    e1, e2 = gymnasium.make("YokaiSeptet-v0"), gymnasium.make("YokaiSeptet-v0")
    o1, _ = e1.reset()
    o2, _ = e2.reset()
    s1 = e1.unwrapped.seed
    assert s1 != e2.unwrapped.seed
    first = e1.unwrapped.game.record()
    e1.reset()
    replay = gymnasium.make("YokaiSeptet-v0")
    replay.reset(seed=s1)
    assert replay.unwrapped.game.record() == first
    p1, p2 = ys.env(), ys.env()
    p1.reset()
    p2.reset()
    assert p1.unwrapped.seed != p2.unwrapped.seed
    assert p1.unwrapped.game.record() != p2.unwrapped.game.record()
    p3 = ys.env(seed=p1.unwrapped.seed)
    p3.reset()
    assert p3.unwrapped.game.record() == p1.unwrapped.game.record()


def test_a_vector_env_too_large_for_memory_is_refused_naming_num_envs():
    """Under a 4 GiB address-space cap numpy cannot allocate the arrays of 2**20 envs: an
    ``InvalidValueError`` naming ``num_envs`` and numpy's reason (it was a panic reaching
    Python as ``PanicException``)."""
    import subprocess
    import sys
    code = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))
import yokai_septet as ys
try:
    ys.VectorEnv(2**20, seed=1, num_threads=1)
    print("built")
except ys.InvalidValueError as e:
    print("refused:", e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "panicked" not in out.stderr, out.stderr[-2000:]
    assert f"refused: num_envs {2**20}: the arrays of that many envs do not fit" in out.stdout, out.stdout
