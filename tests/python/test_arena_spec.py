"""``ys.ArenaSpec``: one typed value for the arena's settings, accepted as ``spec=`` by every
arena function, which give the same result as with the same keywords."""

import dataclasses
import inspect

import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import _core, models

LINEUP = ["heuristic", "random"]
KW = dict(variant="3p", games=9, seed=7, max_rounds=3, scoring="basic", duplicate=True)
SPEC = ys.ArenaSpec(**KW)
FIELDS = [f.name for f in dataclasses.fields(ys.ArenaSpec)]


def lowest_legal(obs, masks):
    return masks.argmax(axis=1)


def test_defaults_are_the_signatures_defaults():
    """The spec's defaults are what every function shows (imitation_data: 100 games)."""
    default = ys.ArenaSpec()
    for fn in (ys.arena, ys.evaluate, models.imitation_data):
        params = inspect.signature(fn).parameters
        for name in FIELDS:
            if name in params:
                want = 100 if (fn is models.imitation_data and name == "games") else getattr(default, name)
                assert params[name].default == want, (fn.__name__, name)
        assert params["spec"].default is None
    assert default.kwargs() == {k: getattr(default, k) for k in FIELDS if k != "batch_size"}


def test_keywords_and_spec_give_the_same_summary():
    by_keywords = ys.arena(LINEUP, progress=False, **KW)
    assert ys.arena(LINEUP, spec=SPEC, progress=False) == by_keywords
    assert _core.arena(LINEUP, spec=SPEC) == by_keywords
    # at another thread count too
    assert ys.arena(LINEUP, spec=SPEC.replace(threads=1), progress=False) == by_keywords
    assert ys.arena(LINEUP, spec=SPEC.replace(seed=8), progress=False) != by_keywords
    # the pieces distributed arenas are made of
    total = _core._arena_total_games(LINEUP, spec=SPEC)
    assert total == 9
    parts = [_core._arena_counts(a, b, LINEUP, spec=SPEC) for a, b in [(0, 4), (4, total)]]
    assert _core._arena_summary(parts, LINEUP, spec=SPEC) == by_keywords
    # the compiled functions take the settings only as a spec
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        _core._arena_setup(3, LINEUP, **KW)


def test_evaluate_takes_a_spec():
    lineup = [lowest_legal, "random"]
    by_keywords = ys.evaluate(lineup, batch_size=4, progress=False, **KW)
    assert ys.evaluate(lineup, spec=SPEC.replace(batch_size=4), progress=False) == by_keywords
    # through ys.arena, which hands a line-up with a policy to evaluate
    assert ys.arena(lineup, spec=SPEC, progress=False) == by_keywords
    # names alone: the Rust arena's summary
    assert ys.evaluate(LINEUP, spec=SPEC, progress=False) == ys.arena(LINEUP, spec=SPEC, progress=False)


def test_imitation_data_takes_a_spec():
    kw = dict(KW, games=3)
    a = models.imitation_data(LINEUP, "heuristic", [0], progress=False, **kw)
    b = models.imitation_data(LINEUP, "heuristic", [0], progress=False, spec=ys.ArenaSpec(**kw))
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


@pytest.mark.parametrize(
    ("field", "value", "error", "match"),
    [
        ("variant", "5p", ValueError, "unknown variant '5p'"),
        ("variant", None, ValueError, "unknown variant None"),
        ("games", 0, ValueError, "games 0 is out of range"),
        ("games", 1 << 49, ValueError, "games .* is out of range"),
        ("games", "many", TypeError, "games must be an int"),
        ("games", True, TypeError, "games must be an int"),
        ("games", 2.0, TypeError, "games must be an int"),
        ("seed", -1, ValueError, "seed -1 is out of range"),
        ("seed", 2**64, ValueError, "seed .* is out of range"),
        ("scoring", "fancy", ValueError, "unknown scoring 'fancy'"),
        ("scoring", None, ValueError, "scoring None is only for the seal variants"),
        ("max_rounds", 0, ValueError, "max_rounds 0 is out of range"),
        ("max_rounds", "3", TypeError, "max_rounds must be an int"),
        ("duplicate", 1, TypeError, "duplicate must be a bool"),
        ("threads", -1, ValueError, "threads -1 is out of range"),
        ("threads", 5000, ValueError, "threads 5000 is out of range"),
        ("batch_size", 0, ValueError, "batch_size 0 is out of range"),
        ("batch_size", None, TypeError, "batch_size must be an int"),
    ],
)
def test_bad_fields_are_rejected_naming_the_field(field, value, error, match):
    with pytest.raises(error, match=match):
        ys.ArenaSpec(**{field: value})
    with pytest.raises(error, match=match):
        SPEC.replace(**{field: value})
    # the keyword form is checked the same way, before any game
    if field != "variant" or value is not None:
        with pytest.raises(error, match=match):
            ys.arena(LINEUP, progress=False, **{field: value})


def test_valid_specs():
    s = ys.ArenaSpec("seal", games=np.int64(5), seed=np.uint64(2**64 - 1), scoring=None,
                     max_rounds=None, duplicate=np.bool_(False), threads=0, batch_size=1)
    assert (type(s.games), type(s.seed), type(s.duplicate)) == (int, int, bool)
    assert (s.games, s.seed, s.duplicate) == (5, 2**64 - 1, False)
    assert ys.arena(LINEUP, spec=s, progress=False)["games"] == 5  # not duplicated: exactly 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.games = 3  # type: ignore[misc]
    assert ys.ArenaSpec(games=5) == ys.ArenaSpec(games=5) and hash(ys.ArenaSpec()) == hash(ys.ArenaSpec())


def test_a_spec_and_keywords_at_once_are_refused():
    for call in (
        lambda: ys.arena(LINEUP, games=5, spec=SPEC),
        lambda: ys.arena(LINEUP, "4p", 5, spec=SPEC),
        lambda: ys.evaluate(LINEUP, threads=2, spec=SPEC),
        lambda: models.imitation_data(LINEUP, "heuristic", games=5, spec=SPEC),
    ):
        with pytest.raises(TypeError, match="either as spec= or as keywords, not both"):
            call()
    # a keyword left at its default is no conflict
    assert ys.arena(LINEUP, games=1000, spec=SPEC, progress=False) == ys.arena(
        LINEUP, spec=SPEC, progress=False)
    with pytest.raises(TypeError, match="spec must be a yokai_septet.ArenaSpec"):
        ys.arena(LINEUP, spec=KW)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="spec must be a yokai_septet.ArenaSpec"):
        _core.arena(LINEUP, spec=object())  # type: ignore[arg-type]
