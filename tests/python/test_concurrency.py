"""Threads (issue 9, docs/api.md "Threads"): a Game may be moved between threads and shared
under the caller's lock; unsynchronised use never crashes or corrupts anything, it either
works or raises GameInUseError (a RuntimeError); a VectorEnv likewise raises VectorEnvInUseError. Every join has a timeout, so a deadlock fails the
test instead of hanging CI."""

import json
import queue
import random
import threading

import numpy as np
import pytest

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]
JOIN_S = 60


def run_threads(targets):
    """Starts one daemon thread per callable, joins each with a timeout, and returns the
    exceptions they raised (a thread still alive after the timeout fails the test)."""
    errors = []

    def wrap(f):
        def go():
            try:
                f()
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)
        return go

    ts = [threading.Thread(target=wrap(f), daemon=True) for f in targets]
    for t in ts:
        t.start()
    for t in ts:
        t.join(JOIN_S)
        assert not t.is_alive(), "deadlock: a thread did not finish"
    return errors


def is_borrow_error(e):
    """A Game found in use by another thread: its typed error, never pyo3's bare one."""
    return isinstance(e, ys.GameInUseError)


def is_vector_borrow_error(e):
    """A VectorEnv found in use by another thread: its typed error, never pyo3's bare one."""
    return isinstance(e, ys.VectorEnvInUseError)


class ReentrantInt(int):
    """An int whose ``__index__`` (called by the Game while it reads its argument, so
    while the game is borrowed) calls back into the game and keeps what that raised."""

    def __new__(cls, value, callback):
        self = super().__new__(cls, value)
        self.callback = callback
        self.raised = []
        return self

    def __index__(self):
        try:
            self.callback()
        except Exception as e:
            self.raised.append(e)
        return int(self)


def in_lockstep(hold_inside, calls):
    """Two threads, in lockstep: thread A runs ``hold_inside(hold)``, a call on an object
    that calls ``hold`` while it holds the object; ``hold`` waits (the GIL released) until
    thread B has made every call of ``calls``. Returns what B's calls raised."""
    a_inside, b_done = threading.Event(), threading.Event()
    b_errors = []

    def hold():
        a_inside.set()
        assert b_done.wait(JOIN_S)

    def thread_b():
        assert a_inside.wait(JOIN_S)
        for call in calls:
            try:
                call()
            except Exception as e:
                b_errors.append(e)
        b_done.set()

    assert not run_threads([lambda: hold_inside(hold), thread_b])
    return b_errors


def check_in_use(e):
    assert type(e) is ys.GameInUseError
    assert isinstance(e, ys.InUseError) and isinstance(e, RuntimeError)
    msg = str(e)
    assert "in use by another thread or call" in msg
    assert "its own Game" in msg and "clone()" in msg


def test_game_used_inside_its_own_call_raises_game_in_use_error():
    """A call made while the game is borrowed (here from inside step, and from inside a
    reading call) gets GameInUseError saying what to do, and changes nothing; the outer
    call completes normally."""
    assert issubclass(ys.GameInUseError, ys.InUseError)
    assert issubclass(ys.InUseError, RuntimeError)
    g = ys.Game("4p", seed=2)
    ref = ys.Game("4p", seed=2)
    first = g.legal_actions()[0]
    # a read and a write from inside step (the game is mutably borrowed)
    for inner in (g.legal_actions, lambda: g.current_player, lambda: g.step(first)):
        a = ReentrantInt(g.legal_actions()[0], inner)
        before = g.record()
        g.step(a)
        [e] = a.raised
        check_in_use(e)
        ref.step(int(a))
        assert g.record() == ref.record() and g.record() != before
    # a write from inside a reading call (the game is borrowed for reading)
    seat = ReentrantInt(1, lambda: g.step(g.legal_actions()[0]))
    assert g.hand(seat) == ref.hand(1)
    [e] = seat.raised
    check_in_use(e)
    assert g.record() == ref.record()
    # repr never raises, even on a game in use
    reprs = []
    a = ReentrantInt(g.legal_actions()[0], lambda: reprs.append(repr(g)))
    g.step(a)
    assert reprs == ["<Game in use>"] and not a.raised


def test_game_used_by_another_thread_meanwhile_raises_game_in_use_error():
    """Two threads, in lockstep: thread A is inside ``g.step`` (held there by its
    argument's ``__index__``, which waits with the GIL released) while thread B reads and
    steps the same game; B gets GameInUseError each time, and A's step completes."""
    g = ys.Game("3p", seed=4)
    b_errors = in_lockstep(
        lambda hold: g.step(ReentrantInt(g.legal_actions()[0], hold)),
        (g.legal_actions, lambda: g.observation(0), lambda: g.step(0), g.clone))
    ref = ys.Game("3p", seed=4)
    ref.step(ref.legal_actions()[0])
    assert len(b_errors) == 4
    for e in b_errors:
        check_in_use(e)
    assert g.record() == ref.record()


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_handed_between_threads(variant):
    """A game passed from thread to thread through queues plays exactly like one played
    in a single thread."""
    n_workers = 3
    qs = [queue.Queue() for _ in range(n_workers)]
    done = queue.Queue()
    actions = []

    def worker(k):
        def go():
            rng = random.Random(k)
            while True:
                g = qs[k].get(timeout=JOIN_S)
                if g is None:
                    return
                if g.phase == "over" or len(actions) >= 400:
                    done.put(g)
                    for q in qs:
                        q.put(None)
                    return
                a = rng.choice(g.legal_actions())
                actions.append(a)
                g.step(a)
                qs[(k + 1) % n_workers].put(g)
        return go

    g = ys.Game(variant, seed=9, max_rounds=3)
    qs[0].put(g)
    assert not run_threads([worker(k) for k in range(n_workers)])
    out = done.get(timeout=1)
    assert out is g
    ref = ys.Game(variant, seed=9, max_rounds=3)
    for a in actions:
        ref.step(a)
    assert ref.record() == g.record() and ref == g


def test_independent_games_in_parallel_are_deterministic():
    def play(variant, seed):
        g = ys.Game(variant, seed=seed, max_rounds=2)
        b = ys.Bot("heuristic", seed=seed)
        while g.phase != "over":
            g.step(b.act(g))
        return g.record_json()

    jobs = [(v, s) for v in VARIANTS for s in range(3)]
    expected = {j: play(*j) for j in jobs}
    got = {}

    def worker(j):
        return lambda: got.__setitem__(j, play(*j))

    assert not run_threads([worker(j) for j in jobs])
    assert got == expected


@pytest.mark.parametrize("variant", ["4p", "seal"])
def test_unsynchronised_game_use_never_corrupts(variant):
    """Several threads step, read, copy and record one game with no lock: every call
    works or raises a clear error, and the game stays a valid, replayable game."""
    g = ys.Game(variant, seed=3, max_rounds=4)
    buf = np.zeros(g.observation_size, dtype=np.float32)
    bad = []

    def stepper(k):
        def go():
            rng = random.Random(k)
            for _ in range(600):
                try:
                    la = g.legal_actions()
                    if not la:
                        return
                    g.step(rng.choice(la))
                except ys.IllegalActionError:
                    pass  # another thread moved first
                except RuntimeError as e:
                    if not is_borrow_error(e):
                        bad.append(e)
        return go

    def reader():
        for _ in range(600):
            try:
                seat = random.randrange(g.num_players)
                g.observation(seat, out=buf)
                g.legal_mask()
                r = g.record()
                c = g.clone()
                assert c.num_players == g.num_players
                assert r["variant"] == variant
                str(g)
            except RuntimeError as e:
                if not is_borrow_error(e):
                    bad.append(e)

    errors = run_threads([stepper(0), stepper(1), stepper(2), reader])
    assert not errors and not bad
    rec = g.record()
    assert ys.Game.from_record(rec).record() == rec


def test_bots_think_without_the_gil_while_other_threads_work():
    """Bot.act releases the GIL: a slow search bot in one thread does not block another
    thread stepping a game; one Bot shared by threads (and reseeded meanwhile) still
    returns legal actions."""
    shared_bot = ys.Bot("pimc:40", seed=1)
    g = ys.Game("4p", seed=1)
    bad = []
    ticks = []

    def thinker(k):
        def go():
            h = ys.Game("4p", seed=k, max_rounds=1)
            for _ in range(12):
                if h.phase == "over":
                    return
                a = shared_bot.act(h)
                if a not in h.legal_actions():
                    bad.append((k, a))
                h.step(a)
        return go

    def reseeder():
        for s in range(20):
            shared_bot.reseed(s)

    def stepper():
        rng = random.Random(5)
        for _ in range(200):
            if g.phase == "over":
                break
            g.step(rng.choice(g.legal_actions()))
            ticks.append(1)

    assert not run_threads([thinker(1), thinker(2), reseeder, stepper])
    assert not bad and ticks


def test_from_record_text_in_parallel():
    recs = []
    for v in VARIANTS:
        g = ys.Game(v, seed=4, max_rounds=2)
        rng = random.Random(4)
        while g.phase != "over":
            g.step(rng.choice(g.legal_actions()))
        recs.append(g.record_json())
    out = {}

    def worker(k):
        def go():
            for _ in range(20):
                text = recs[k % len(recs)]
                assert ys.Game.from_record(text).record_json() == text
            out[k] = True
        return go

    assert not run_threads([worker(k) for k in range(8)])
    assert len(out) == 8


def reference_run(steps, **kw):
    v = ys.VectorEnv(**kw)
    v.reset()
    for _ in range(steps):
        v.step(v.action_masks().argmax(axis=1))
    return v


def check_vector_in_use(e):
    assert type(e) is ys.VectorEnvInUseError
    assert isinstance(e, ys.InUseError) and isinstance(e, RuntimeError)
    msg = str(e)
    assert "in use by another thread or call" in msg and "its own VectorEnv" in msg


def test_vector_env_used_inside_its_own_call_raises_vector_env_in_use_error():
    """A call made while the env is borrowed (here from inside ``game_seed``, whose
    argument's ``__index__`` calls back) gets VectorEnvInUseError saying what to do, and
    changes nothing; the outer call completes normally, and repr never raises."""
    assert issubclass(ys.VectorEnvInUseError, ys.InUseError)
    kw = dict(num_envs=4, variant="4p", seed=1, num_threads=1)
    v, ref = ys.VectorEnv(**kw), ys.VectorEnv(**kw)
    v.reset()
    ref.reset()
    a = ref.masks.argmax(axis=1)
    for inner in (lambda: v.num_envs, lambda: v.masks, lambda: v.observations,
                  lambda: v.step(a), lambda: v.step_all(a), lambda: v.reset(),
                  lambda: v.bot_actions(), lambda: v.episodes(), lambda: v.spin_us):
        i = ReentrantInt(2, inner)
        assert v.game_seed(i) == ref.game_seed(2)
        [e] = i.raised
        check_vector_in_use(e)
    assert (v.observations == ref.observations).all() and v.episodes() == ref.episodes()
    reprs = []
    i = ReentrantInt(0, lambda: reprs.append(repr(v)))
    v.render_env(i)
    assert reprs == ["<VectorEnv in use>"] and not i.raised
    assert repr(v) == "VectorEnv(num_envs=4)"
    for env in (v, ref):
        env.step(a)
    assert (v.observations == ref.observations).all()


def test_vector_env_used_by_another_thread_meanwhile_raises_vector_env_in_use_error():
    """Two threads, in lockstep: thread A is inside ``v.game_seed`` (held there by its
    argument's ``__index__``, which waits with the GIL released) while thread B steps and
    reads the same env; B gets VectorEnvInUseError each time, and nothing changes."""
    kw = dict(num_envs=4, variant="3p", seed=4, num_threads=1)
    v, ref = ys.VectorEnv(**kw), ys.VectorEnv(**kw)
    v.reset()
    ref.reset()
    a = ref.masks.argmax(axis=1)
    b_errors = in_lockstep(
        lambda hold: v.game_seed(ReentrantInt(0, hold)),
        (lambda: v.step(a), lambda: v.num_envs, lambda: v.observations,
         lambda: v.render_env(0)))
    assert len(b_errors) == 4
    for e in b_errors:
        check_vector_in_use(e)
    assert (v.observations == ref.observations).all() and v.episodes() == ref.episodes()


@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_vector_env_stepped_while_another_thread_reads(obs_dtype):
    """One thread steps; another reads the buffers and calls the other methods meanwhile.
    Reads either work or raise VectorEnvInUseError; the stepping thread's
    trajectory is exactly the single-threaded one."""
    # "raise": the intruder's illegal actions are refused, never played.
    kw = dict(num_envs=256, variant="4p", seed=5, self_play=True, num_threads=2,
              obs_dtype=obs_dtype, illegal_action="raise")
    steps = 150
    v = ys.VectorEnv(**kw)
    v.reset()
    stop = threading.Event()
    first_read = threading.Event()
    bad, borrowed, reads = [], [], []

    def stepper():
        # On a loaded machine the reader may not be scheduled before all the steps are
        # done; start stepping once it has read at least once, so the two overlap.
        first_read.wait(timeout=30)
        try:
            for _ in range(steps):
                v.step(v.action_masks().argmax(axis=1))
        finally:
            stop.set()

    def reader():
        while not stop.is_set():
            for f in (lambda: v.observations.sum(), lambda: v.masks.any(),
                      lambda: v.rewards.copy(), lambda: v.to_play.max(),
                      lambda: v.terminated.sum(), lambda: v.episodes(),
                      lambda: v.game_seed(3), lambda: v.render_env(1),
                      lambda: v.learner_seats(), lambda: v.num_envs,
                      lambda: v.action_masks()):
                try:
                    f()
                    reads.append(1)
                    first_read.set()
                except RuntimeError as e:
                    (borrowed if is_vector_borrow_error(e) else bad).append(e)
                except Exception as e:  # pragma: no cover
                    bad.append(e)

    def intruder():
        # calls that mutate must be refused while a step runs, never interleave
        while not stop.is_set():
            try:
                v.step_all(np.full(256, -1, dtype=np.int64))
            except ys.IllegalActionError:
                pass  # validated before any change
            except RuntimeError as e:
                (borrowed if is_vector_borrow_error(e) else bad).append(e)

    errors = run_threads([stepper, reader, intruder])
    assert not errors and not bad, (errors, bad)
    assert reads
    ref = reference_run(steps, **kw)
    assert (ref.observations == v.observations).all()
    assert (ref.masks == v.masks).all()
    assert ref.episodes() == v.episodes()


def test_two_vector_envs_in_parallel_match_sequential():
    kw = dict(num_envs=128, variant="3p", seed=2, self_play=False, num_threads=2)
    a, b = ys.VectorEnv(**kw), ys.VectorEnv(**kw)

    def drive(v):
        def go():
            v.reset()
            for _ in range(100):
                v.step(v.action_masks().argmax(axis=1))
        return go

    assert not run_threads([drive(a), drive(b)])
    ref = reference_run(100, **kw)
    for v in (a, b):
        assert (v.observations == ref.observations).all()
        assert v.episodes() == ref.episodes()
