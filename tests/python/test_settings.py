"""The settings tables (crates/yokai-septet-vector/src/vector/settings.rs,
crates/yokai-septet-bots/src/arena/settings.rs): each setting is
declared once, and everything else is read from the table or checked against it here:
``VectorEnv``'s signature, the stub's defaults, docs/api.md's constructor table,
``ArenaSpec``'s fields; every range and name is enforced with an error naming the setting.
Also: the one mapping of Rust errors to Python exceptions, and the single envs' seeds."""

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import _core

ROOT = Path(__file__).resolve().parents[2]
VECTOR = _core._settings_spec()["vector"]
ARENA = _core._settings_spec()["arena"]
EMPTY = inspect.Parameter.empty


def stub_function(name: str, cls: str = "") -> ast.FunctionDef:
    tree = ast.parse((ROOT / "python" / "yokai_septet" / "_core.pyi").read_text())
    scope = tree.body
    if cls:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)


def stub_parameters(fn: ast.FunctionDef) -> list[tuple[str, bool, object]]:
    """``(name, positional, default)`` of a stub's parameters (``cls``/``self`` left out)."""
    a = fn.args
    pos = a.posonlyargs + a.args
    pos_defaults = [EMPTY] * (len(pos) - len(a.defaults)) + [ast.literal_eval(d) for d in a.defaults]
    out = [(p.arg, True, d) for p, d in zip(pos, pos_defaults) if p.arg not in ("cls", "self")]
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((p.arg, False, EMPTY if d is None else ast.literal_eval(d)))
    return out


def table_parameters(table) -> list[tuple[str, bool, object]]:
    return [(r["name"], r["positional"], r.get("default", EMPTY)) for r in table]


def test_the_vector_signature_is_the_table():
    params = inspect.signature(ys.VectorEnv).parameters
    shown = [
        (n, p.kind is p.POSITIONAL_OR_KEYWORD, p.default) for n, p in params.items()
    ]
    assert shown == table_parameters(VECTOR)
    assert [p.annotation for p in params.values()] == [r["type"] for r in VECTOR]


GYM = _core._settings_spec()["gym"]
AEC = _core._settings_spec()["aec"]


def test_the_single_envs_signatures_are_their_tables():
    """``gymnasium.make("YokaiSeptet-v0")``'s env, ``ys.env`` and ``ys.raw_env`` take the
    rows of their tables, in order, with the tables' defaults and annotations (``raw_env``
    all but the two settings of illegal actions, which ``env`` gives PettingZoo's
    ``TerminateIllegalWrapper``)."""
    from yokai_septet._gym import YokaiSeptetEnv

    def shown(obj):
        return [
            (n, p.default, p.annotation) for n, p in inspect.signature(obj).parameters.items()
        ]

    rows = lambda table: [(r["name"], r["default"], r["type"]) for r in table]  # noqa: E731
    assert shown(YokaiSeptetEnv) == rows(GYM)
    assert shown(ys.env) == rows(AEC)
    wrapper = {"illegal_action", "illegal_reward"}
    assert shown(ys.raw_env) == [r for r in rows(AEC) if r[0] not in wrapper]
    kinds = {p.kind for p in inspect.signature(ys.env).parameters.values()}
    assert kinds == {inspect.Parameter.KEYWORD_ONLY}


def test_every_env_agrees_on_every_default_of_the_tables():
    """One default per setting: the Gymnasium env, the PettingZoo env, ``make_vec`` and
    ``VectorEnv`` share each setting they have in common, ``illegal_action`` included
    (``"lose"``: Gymnasium's contract and PettingZoo's convention)."""
    from yokai_septet._vector import make_vec

    tables = {"gym": GYM, "aec": AEC, "vector": VECTOR}
    defaults = {}
    for kind, table in tables.items():
        for r in table:
            if "default" in r:
                defaults.setdefault(r["name"], {})[kind] = r["default"]
    # `seed` too: None draws one from the OS in every env (docs/api.md, "Seeds").
    assert defaults["seed"] == {"aec": None, "vector": None}
    for name, by in defaults.items():
        assert len(set(map(repr, by.values()))) == 1, (name, by)
    assert defaults["illegal_action"] == {"gym": "lose", "aec": "lose", "vector": "lose"}
    assert defaults["illegal_reward"] == {"gym": -1.0, "aec": -1.0, "vector": -1.0}
    vec = inspect.signature(make_vec).parameters
    for name, p in vec.items():
        if name in defaults and p.default is not EMPTY:
            assert repr(p.default) == repr(next(iter(defaults[name].values()))), name
    assert vec["illegal_action"].default == "lose"
    assert gymnasium.make("YokaiSeptet-v0").unwrapped.illegal_action == "lose"
    assert gymnasium.make_vec("YokaiSeptet-v0").illegal_action == "lose"
    assert ys.VectorEnv(1).illegal_action == "lose"
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    assert isinstance(ys.env().env, TerminateIllegalWrapper)  # PettingZoo's, by default


@pytest.mark.parametrize("kind", ["gym", "aec"])
def test_the_single_envs_enforce_their_tables_naming_the_setting(kind):
    from yokai_septet._gym import YokaiSeptetEnv

    make = YokaiSeptetEnv if kind == "gym" else ys.env
    table = GYM if kind == "gym" else AEC
    for row in table:
        for value, exc in bad_values(row):
            with pytest.raises(exc, match=row["name"]):
                make(**{row["name"]: value})
    with pytest.raises(ys.InvalidValueError, match="illegal_reward"):
        make(illegal_reward=float("nan"))
    with pytest.raises(ys.InvalidTypeError, match="illegal_reward"):
        make(illegal_reward="high")
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such'"):
        make(no_such=1)


@pytest.mark.parametrize("make, kwargs, meant", [
    (lambda **kw: ys.VectorEnv(8, "4p", **kw), {"opponent": "heuristic"}, "opponents"),
    (lambda **kw: gymnasium.make("YokaiSeptet-v0", **kw), {"opponent": "heuristic"},
     "opponents"),
    (lambda **kw: gymnasium.make_vec("YokaiSeptet-v0", num_envs=2, **kw),
     {"opponent": "heuristic"}, "opponents"),
    (lambda **kw: gymnasium.make_vec("YokaiSeptet-v0", num_envs=2,
                                     vectorization_mode="sync", **kw),
     {"learnr_seat": 1}, "learner_seat"),
    (lambda **kw: ys.env(**kw), {"reward_mod": "points"}, "reward_mode"),
    (lambda **kw: ys.raw_env(**kw), {"varient": "3p"}, "variant"),
    (lambda **kw: ys.VectorEnv(2, **kw), {"illegal_actions": "raise"}, "illegal_action"),
])
def test_a_misspelt_keyword_names_the_setting_meant(make, kwargs, meant):
    """Every env constructor, as users call it: a TypeError that says "did you mean ...?"
    (and nothing is built)."""
    with pytest.raises(TypeError, match=f"unexpected keyword argument '{next(iter(kwargs))}'; "
                                        f"did you mean '{meant}'\\?"):
        make(**kwargs)


def test_a_keyword_like_no_setting_gets_no_suggestion():
    with pytest.raises(TypeError) as e:
        ys.VectorEnv(2, zzzz=1)
    assert "did you mean" not in str(e.value)
    with pytest.raises(TypeError) as e:
        ys.env(zzzz=1)
    assert str(e.value) == "env() got an unexpected keyword argument 'zzzz'"


def test_the_stub_has_the_tables_parameters_and_defaults():
    """stubtest checks that the compiled ``__new__(*args, **kwargs)`` takes the stub's
    parameters; this checks their order, kinds and defaults against the table."""
    assert stub_parameters(stub_function("__new__", "VectorEnv")) == table_parameters(VECTOR)


GAME = _core._settings_spec()["game"]


def typed_dict_fields(module: str, name: str) -> list[tuple[str, str]]:
    """``(name, annotation)`` of the ``TypedDict`` ``name`` in the package's ``module``, as
    written (its bases' first), read from the source as the stub's are."""
    tree = ast.parse((ROOT / "python" / "yokai_septet" / f"{module}.py").read_text())
    found = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    if name not in found:
        # a base imported from another module of the package
        return typed_dict_fields("_env_common", name)
    cls = found[name]
    out = []
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id != "TypedDict":
            out += typed_dict_fields(module, base.id)
    return out + [
        (n.target.id, ast.unparse(n.annotation))
        for n in cls.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]


def table_fields(table, leave_out=()) -> list[tuple[str, str]]:
    return [(r["name"], r["type"]) for r in table if r["name"] not in leave_out]


@pytest.mark.parametrize("module, name, table, leave_out", [
    # the game section as the single envs take it (their seed is reset()'s)
    ("_env_common", "GameSettings", GYM[:4], ()),
    ("_pettingzoo", "EnvSettings", AEC, ()),
    # the arena's keyword-only settings but batch_size (evaluate()'s alone)
    ("_arena_spec", "ArenaKeywords", [r for r in ARENA if not r["positional"]], ("batch_size",)),
])
def test_the_typed_dicts_are_their_tables(module, name, table, leave_out):
    """The ``TypedDict``s that type the settings' ``**kwargs`` for type checkers have the
    tables' rows, in order, with the tables' annotations: a row added, renamed, retyped or
    moved in Rust fails here until the Python type follows."""
    assert typed_dict_fields(module, name) == table_fields(table, leave_out)
    assert [r["name"] for r in GYM[:4]] == [r["name"] for r in GAME if r["name"] != "seed"]


def stub_annotations(fn: ast.FunctionDef) -> list[tuple[str, str]]:
    a = fn.args
    return [
        (p.arg, ast.unparse(p.annotation).replace("_Int", "int"))
        for p in a.posonlyargs + a.args + a.kwonlyargs
        if p.arg not in ("cls", "self")
    ]


def test_the_stubs_settings_annotations_are_the_tables():
    assert stub_annotations(stub_function("__new__", "VectorEnv")) == table_fields(VECTOR)
    assert stub_annotations(stub_function("__new__", "Game")) == table_fields(GAME)
    assert stub_annotations(stub_function("from_deal", "Game"))[2:] == table_fields(GAME)


def test_openspiel_default_params_are_the_arena_tables():
    """The OpenSpiel adapter's parameters are the game settings as an arena takes them
    (a round cap, so that every game ends); read from the table when it is imported."""
    pytest.importorskip("pyspiel")
    from yokai_septet import openspiel

    assert openspiel.DEFAULT_PARAMS == {
        r["name"]: r["default"] for r in ARENA if r["name"] in ("variant", "scoring", "max_rounds")
    }


def test_game_and_from_deal_bind_the_game_table():
    """``Game(...)`` and ``Game.from_deal(hands, trump_card, ...)`` bind their game
    settings by the game table, as ``VectorEnv(...)`` binds its own: the compiled
    signatures and the stub show its rows, in order, with its defaults."""
    shown = [(n, p.kind is p.POSITIONAL_OR_KEYWORD, p.default)
             for n, p in inspect.signature(ys.Game).parameters.items()]
    assert shown == table_parameters(GAME)
    deal = [(n, p.kind is p.POSITIONAL_OR_KEYWORD, p.default)
            for n, p in inspect.signature(ys.Game.from_deal).parameters.items()]
    assert [n for n, _, _ in deal[:2]] == ["hands", "trump_card"]
    assert deal[2:] == table_parameters(GAME)
    assert stub_parameters(stub_function("__new__", "Game")) == table_parameters(GAME)
    assert stub_parameters(stub_function("from_deal", "Game"))[2:] == table_parameters(GAME)
    assert [r["name"] for r in GAME] == ["variant", "scoring", "seed", "episode", "max_rounds"]


@pytest.mark.parametrize("call, error, message", [
    (lambda: ys.Game("5p"), ValueError, "unknown variant '5p'"),
    (lambda: ys.Game(seed=-1), ValueError, "seed -1 is out of range"),
    (lambda: ys.Game("4p", "advanced", 0, "round"), TypeError, "at most 3 positional"),
    (lambda: ys.Game(sede=1), TypeError, "did you mean 'seed'?"),
    (lambda: ys.Game(max_rounds=0), ValueError, "max_rounds 0 is out of range"),
    (lambda: ys.Game("4p", None), ValueError, "scoring None is only for the seal variants"),
    (lambda: ys.Game.from_deal([[0]], None, "4p", sede=1), TypeError, "from_deal() got an"),
])
def test_game_settings_are_checked_by_the_table_naming_the_setting(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_game_settings_given_by_position_or_keyword_make_the_same_game():
    a = ys.Game("3p", "basic", 7, episode="round", max_rounds=3)
    b = ys.Game(variant="3p", scoring="basic", seed=7, episode="round", max_rounds=3)
    assert a.record() == b.record() and a.variant == "3p"
    assert ys.Game("seal", None).variant == "seal"


def generated(page: str, marker: str) -> list[list[str]]:
    """The cells of the generated table between ``marker``'s comments in ``page``."""
    text = (ROOT / "docs" / page).read_text()
    start = text.index(f"<!-- {marker}: generated")
    block = text[start:text.index(f"<!-- {marker}: end -->")]
    rows = [line for line in block.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in rows]


def test_the_docs_tables_show_the_tables_settings_and_defaults():
    want = {
        r["name"]: ("required" if "default" not in r else f"`{r['default']!r}`") for r in VECTOR
    }
    # docs/api.md: every constructor's arguments, the VectorEnv column
    header, _, *rows = generated("api.md", "env-arguments")
    column = header.index("`ys.VectorEnv(...)`")
    shown = {r[0].strip("`"): r[column] for r in rows if r[column] != "—"}
    assert shown == want
    # docs/vector.md and docs/api.md: each table's settings, in order, with their docs
    for page, kind, table in [("vector.md", "vector", VECTOR), ("api.md", "arena", ARENA)]:
        _, _, *rows = generated(page, f"{kind}-settings")
        assert [(r[0].strip("`"), r[1], r[3]) for r in rows] == [
            (r["name"], f"`{r['default']!r}`" if "default" in r else "required", r["doc"])
            for r in table
        ], page


def test_arena_spec_is_the_arena_table():
    fields = dataclasses.fields(ys.ArenaSpec)
    assert [(f.name, f.default) for f in fields] == [(r["name"], r["default"]) for r in ARENA]
    spec = ys.ArenaSpec()
    assert spec.kwargs() == {r["name"]: r["default"] for r in ARENA if r["name"] != "batch_size"}
    # the compiled arena functions take only a spec
    for name in ("arena", "_arena_counts", "_arena_total_games", "_arena_setup",
                 "_arena_summary", "_arena_game_counts", "_imitation_data"):
        kwonly = [p.arg for p in stub_function(name).args.kwonlyargs]
        assert "spec" in kwonly and not {r["name"] for r in ARENA} & set(kwonly), name
        with pytest.raises(TypeError):
            getattr(_core, name)(*([0] * 7)[: _positional(name)], games=10, spec=spec)


def _positional(name: str) -> int:
    fn = stub_function(name)
    return len([a for a in fn.args.args if a.arg != "bots"])


def bad_values(row):
    """Values outside the row's type or range: (value, exception)."""
    out = []
    if "range" in row:
        lo, hi = row["range"]
        out += [(lo - 1, ValueError), (hi + 1, ValueError), (1.5, TypeError), (True, TypeError)]
    if "choices" in row:
        out += [("no-such-" + row["name"], ValueError)]
    if row["type"] == "bool":
        out += [(1, TypeError), ("yes", TypeError)]
    if not row["nullable"]:
        out += [(None, (TypeError, ValueError))]
    return out


@pytest.mark.parametrize("row", VECTOR, ids=[r["name"] for r in VECTOR])
def test_every_vector_setting_is_checked_naming_it(row):
    for value, exc in bad_values(row):
        kw = {"num_envs": 2, row["name"]: value}
        with pytest.raises(exc) as e:
            ys.VectorEnv(**kw)
        assert row["name"] in str(e.value), (value, str(e.value))
        assert not isinstance(e.value, OverflowError)


@pytest.mark.parametrize("row", ARENA, ids=[r["name"] for r in ARENA])
def test_every_arena_setting_is_checked_naming_it(row):
    for value, exc in bad_values(row):
        with pytest.raises(exc) as e:
            ys.ArenaSpec(**{row["name"]: value})
        assert row["name"] in str(e.value), (value, str(e.value))


def test_arguments_are_bound_as_python_binds_them():
    with pytest.raises(TypeError, match="unexpected keyword argument 'num_env'"):
        ys.VectorEnv(num_env=2)
    with pytest.raises(TypeError, match="missing required argument 'num_envs'"):
        ys.VectorEnv()
    with pytest.raises(TypeError, match="at most 4 positional arguments"):
        ys.VectorEnv(2, "4p", "advanced", 0, "game")
    with pytest.raises(TypeError, match="multiple values for argument 'variant'"):
        ys.VectorEnv(2, "4p", variant="3p")
    v = ys.VectorEnv(2, "3p", "basic", 7, episode="round")
    assert v.single_action_space.n == ys.Game("3p").num_actions


# ------------------------------------------------------------------------- errors

# What every variant of every public Rust error type becomes in Python: the contract.
CLASSES = {
    "IllegalAction": ys.IllegalActionError,
    "StepError.Illegal": ys.IllegalActionError,
    "PipelineError.Step": ys.IllegalActionError,
    "BotError.NoDecision": ys.IllegalActionError,
    "BotError.NoThread": ys.StateError,
    "StepError.Over": ys.StateError,
    "PipelineError.InFlight": ys.StateError,
    "PipelineError.NothingSent": ys.StateError,
    "PipelineError.NotHeld": ys.StateError,
    "PipelineError.Failed": ys.StateError,
    "ArenaError.ThreadPool": ys.StateError,
    "VecCoreError.ThreadPool": ys.StateError,
}

# The exception family: each class, its family parent and the builtin it keeps.
FAMILY = [
    (ys.InvalidValueError, ys.Error, ValueError),
    (ys.InvalidTypeError, ys.Error, TypeError),
    (ys.StateError, ys.Error, RuntimeError),
    (ys.IllegalActionError, ys.InvalidValueError, ValueError),
    (ys.InUseError, ys.StateError, RuntimeError),
    (ys.GameInUseError, ys.InUseError, RuntimeError),
    (ys.VectorEnvInUseError, ys.InUseError, RuntimeError),
    (ys.MissingExtraError, ys.Error, ModuleNotFoundError),
]


def test_every_exception_of_the_package_is_a_yokai_septet_error_and_keeps_its_builtin_base():
    assert ys.Error.__bases__ == (Exception,)
    for cls, parent, builtin in FAMILY:
        assert issubclass(cls, ys.Error) and issubclass(cls, builtin), cls
        assert cls.__bases__[0] is parent, cls
        assert cls.__module__ == "yokai_septet" and getattr(ys, cls.__name__) is cls
        assert cls.__doc__ and cls.__name__ in ys.__all__
    # caught as the family and as the builtin, at a real call
    for catch in (ys.Error, ys.InvalidValueError, ValueError):
        with pytest.raises(catch):
            ys.Game(variant="5p")
    with pytest.raises(ys.IllegalActionError) as e:
        ys.Game().step(999)
    assert isinstance(e.value, ys.Error) and isinstance(e.value, ValueError)
    with pytest.raises(ys.InvalidTypeError):
        ys.Game(seed="x")
    # the single envs' own checks are in the family too
    with pytest.raises(ys.InvalidValueError, match="reward_mode"):
        ys.raw_env(reward_mode="none")


def test_the_package_raises_no_bare_builtin_exception():
    """What the package raises on purpose is in the family: no ``raise ValueError(`` (or
    ``TypeError``, ``RuntimeError``) in its Python modules, no ``PyValueError::new_err``
    (or the others) in the binding outside ``errors.rs`` (and the benchmark functions,
    which the wheel lacks)."""
    import re

    found = []
    for path in sorted((ROOT / "python" / "yokai_septet").glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"raise (ValueError|TypeError|RuntimeError|ImportError)\(", line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    for path in sorted((ROOT / "crates" / "yokai-septet-python" / "src").rglob("*.rs")):
        if path.name in ("errors.rs", "bench.rs"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"Py(Value|Type|Runtime)Error::new_err", line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_error_examples_are_a_test_helper_the_wheel_lacks():
    """``_core._error_examples`` comes with the cargo feature ``test-helpers`` only: the
    wheel's build (pyproject's maturin features) does not turn it on, the suite's does."""
    text = (ROOT / "pyproject.toml").read_text()
    maturin = text[text.index("[tool.maturin]"):].split("\n[", 1)[0]
    assert "crates/yokai-septet-python/Cargo.toml" in maturin and "test-helpers" not in maturin
    assert "--features test-helpers" in (ROOT / "scripts" / "test.sh").read_text()
    rust = (ROOT / "crates" / "yokai-septet-python" / "src" / "lib.rs").read_text()
    # registered behind the feature, and outside `__all__` (test_typing.py says why)
    assert re.search(r'#\[cfg\(feature = "test-helpers"\)\]\s*m\.setattr\(\s*"_error_examples"', rust)


def test_every_rust_error_becomes_its_python_exception_naming_what_was_wrong():
    if not hasattr(_core, "_error_examples"):
        pytest.fail(
            "this build has no test helpers: build the package as scripts/test.sh does, "
            "MATURIN_PEP517_ARGS='--features test-helpers' pip install '.[test]'"
        )
    examples = _core._error_examples()
    seen = {(t, v) for t, v, _ in examples}
    assert len(seen) == len(examples) >= 50
    types = {t for t, _ in seen}
    assert types == {
        "IllegalAction", "ConfigError", "DealError", "RecordError", "WeightsError",
        "BotError", "ArenaError", "VecCoreError", "StepError", "PipelineError",
        "ParseCardError", "RasterError",
    }
    for t, v, e in examples:
        want = CLASSES.get(f"{t}.{v}", CLASSES.get(t, ys.InvalidValueError))
        assert type(e) is want, (t, v, type(e))
        message = str(e)
        assert len(message) > 15, (t, v, message)
    by = {(t, v): str(e) for t, v, e in examples}
    # the message names what was wrong (the examples' values appear in it)
    assert "99" in by["IllegalAction", "OutOfRange"] and "illegal action" in by["IllegalAction", "OutOfRange"]
    assert "env 3" in by["StepError", "Illegal"] and "env 5" in by["StepError", "Over"]
    assert "5p" in by["ConfigError", "UnknownVariant"]
    assert "moves[3]" in by["RecordError", "RecordError"]
    assert "ZZ" in by["ParseCardError", "ParseCardError"]
    assert "no-such-bot" in by["ArenaError", "Bot"] == by["BotError", "Unknown"]
    assert "create a new one" in by["PipelineError", "Failed"]
    assert "at most 4" in by["BotError", "TooManyThreads"] and "t100000" in by["BotError", "TooManyThreads"]
    assert "/dev/zero" in by["WeightsError", "NotAFile"] and "regular file" in by["WeightsError", "NotAFile"]


# -------------------------------------------------------------------------- seeds


def test_the_gym_env_seeds_from_the_crates_domains():
    """``reset(seed=s)`` deals env 0's first game of ``VectorEnv(1, seed=s)``, the next
    ``reset()`` its next one: the vector env's derivation (rng.rs), not numpy's."""
    env = gymnasium.make("YokaiSeptet-v0", learner_seat=None).unwrapped
    vec = ys.VectorEnv(1, seed=11, learner_seat=None)
    obs, _ = env.reset(seed=11)
    vec.reset(seed=11)
    assert env.game.seed == vec.game_seed(0)
    assert env.learner_seat == vec.learner_seats()[0]
    np.testing.assert_array_equal(obs, vec.observations[0])
    env.reset()
    vec.reset()
    assert env.game.seed == vec.game_seed(0)
    # the same seed, the same game; another seed, another
    first = env.reset(seed=11)[0]
    np.testing.assert_array_equal(first, obs)
    assert env.reset(seed=12)[0].tobytes() != obs.tobytes()
    # numpy's global or gymnasium's generator play no part
    np.random.seed(0)
    env.np_random = np.random.default_rng(99)
    np.testing.assert_array_equal(env.reset(seed=11)[0], obs)


def test_the_pettingzoo_env_seeds_from_the_crates_domains():
    e = ys.env()
    vec = ys.VectorEnv(1, seed=5, self_play=True)
    e.reset(seed=5)
    vec.reset(seed=5)
    assert e.unwrapped.game.seed == vec.game_seed(0)
    e.reset()
    vec.reset()
    assert e.unwrapped.game.seed == vec.game_seed(0)
    # a constructor seed is the master seed of the first reset without one
    f = ys.env(seed=5)
    f.reset()
    assert f.unwrapped.game.seed == _core._episode_seeds(5, 0, 4)[0]
    # a bad seed is refused and changes nothing: the next game is still the stream's next
    with pytest.raises(ValueError, match="seed -1"):
        f.reset(seed=-1)
    f.reset()
    assert f.unwrapped.game.seed == _core._episode_seeds(5, 1, 4)[0]
