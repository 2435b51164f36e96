"""Hostile inputs (issue 9): every wrong type and range of action, configuration, seat,
buffer and record. Each gives TypeError / ValueError (IllegalActionError for illegal
integers) with a message naming the problem, nothing crashes, and the game is unchanged.
"""

import copy
import enum
import json
import random
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yokai_septet as ys

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
