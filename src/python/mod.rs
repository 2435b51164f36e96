//! The Python extension module `yokai_septet._core` (compiled only with `--features python`).
//!
//! The stable Python contract is `docs/api.md`; the pure-Python package
//! `python/yokai_septet/` re-exports these classes and adds the PettingZoo and Gymnasium
//! wrappers. Every entry point validates its arguments before touching the engine, so no
//! Rust panic reaches Python; the few entry points that run larger pieces of engine code
//! (replays, batched stepping) additionally run under [`guard`], which turns an unexpected
//! panic into a `RuntimeError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyInt, PyString, PyType};

use crate::rules::config::{Episode, GameConfig, Scoring, Variant};

mod analysis;
mod arena;
#[cfg(feature = "bench")]
mod bench;
mod bot;
mod game;
mod json;
mod models;
mod policy_bot;
mod vector;

pyo3::create_exception!(
    yokai_septet,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now (not in hand, wrong suit, out of range, game over).\n\n\
     A subclass of ValueError. The game is left exactly as it was."
);

pyo3::create_exception!(
    yokai_septet,
    InUseError,
    PyRuntimeError,
    "An object used by two threads (or by a call made from inside another call on it) at \
     once.\n\n\
     A subclass of RuntimeError; the object is unchanged. Give each thread its own object, or \
     guard a shared one with a lock."
);

pyo3::create_exception!(
    yokai_septet,
    GameInUseError,
    InUseError,
    "A Game used by two threads (or by a call made from inside another call on it) at once.\n\n\
     A subclass of InUseError (and so of RuntimeError); the game is unchanged. Give each \
     thread its own Game (``game.clone()``), or guard a shared one with a lock."
);

pyo3::create_exception!(
    yokai_septet,
    VectorEnvInUseError,
    InUseError,
    "A VectorEnv used by two threads (or by a call made from inside another call on it) at \
     once.\n\n\
     A subclass of InUseError (and so of RuntimeError); the env is unchanged. Give each \
     thread its own VectorEnv, or guard a shared one with a lock."
);

/// A Python class whose methods borrow the object through [`borrow`] / [`borrow_mut`]:
/// a call that finds it borrowed by another thread (which released the GIL meanwhile) or
/// by an outer call on the same thread gets the class's typed error, not pyo3's bare
/// "Already borrowed" `RuntimeError`.
pub(crate) trait InUse: pyo3::PyClass {
    /// The error for a call that finds the object in use.
    fn in_use_error() -> PyErr;
}

/// Borrows `slf` for a reading method ([`InUse`]).
#[inline]
pub(crate) fn borrow<'py, T: InUse>(slf: &Bound<'py, T>) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow().map_err(|_| T::in_use_error())
}

/// Borrows `slf` for a changing method ([`InUse`]).
#[inline]
pub(crate) fn borrow_mut<'py, T: InUse<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'py, T>,
) -> PyResult<PyRefMut<'py, T>> {
    slf.try_borrow_mut().map_err(|_| T::in_use_error())
}

/// Runs `f`, turning a Rust panic into a Python `RuntimeError` (no panic may reach Python).
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let msg = e
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in {what}: {msg} (please report this bug)"
            )))
        }
    }
}

static NP_INTEGER: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// `numpy.integer`, imported once.
fn np_integer(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    NP_INTEGER.import(py, "numpy", "integer")
}

/// An integer argument as the contract reads it: a Python `int` (not `bool`) or a numpy
/// integer scalar. `Ok(None)` means "an integer, but too large for `i128`".
/// Anything else is a `TypeError` naming `what`.
pub(crate) fn extract_integer(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<i128>> {
    if let Ok(i) = obj.downcast_exact::<PyInt>() {
        // Fast path: a plain Python int.
        return Ok(i
            .extract::<i64>()
            .map(i128::from)
            .ok()
            .or_else(|| i.extract::<i128>().ok()));
    }
    let py = obj.py();
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int or a numpy integer, not bool ({})",
            obj.repr()?
        )));
    }
    if obj.is_instance_of::<PyInt>() || obj.is_instance(np_integer(py)?)? {
        // `numpy.timedelta64` is an `np.integer` without `__index__`: not an integer here.
        if let Some(i) = index(obj) {
            return Ok(i.extract::<i128>().ok());
        }
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be an int or a numpy integer, not {} ({})",
        obj.get_type().name()?,
        obj.repr()?
    )))
}

/// `operator.index(obj)` as a Python `int`, or `None` when it fails.
pub(crate) fn index<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyInt>> {
    let i = obj.call_method0("__index__").ok()?;
    i.downcast_into::<PyInt>().ok()
}

/// A seed: an integer in `0 .. 2**64-1`; other integers are a `ValueError`, other types a
/// `TypeError` (never an `OverflowError`).
pub(crate) fn extract_seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    match extract_integer(obj, "seed")? {
        Some(v) if (0..=u64::MAX as i128).contains(&v) => Ok(v as u64),
        _ => Err(PyValueError::new_err(format!(
            "seed {} is out of range: a seed is an integer in 0..2**64-1",
            obj.repr()?
        ))),
    }
}

/// A seat index in `0 .. n-1` (`ValueError` outside, `TypeError` for non-integers).
pub(crate) fn extract_seat(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<usize> {
    match extract_integer(obj, "seat")? {
        Some(v) if (0..n as i128).contains(&v) => Ok(v as usize),
        _ => Err(PyValueError::new_err(format!(
            "seat {} is out of range: seats are 0..{}",
            obj.repr()?,
            n - 1
        ))),
    }
}

fn quoted_list(names: impl IntoIterator<Item = &'static str>) -> String {
    names
        .into_iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A string option among `valid`; anything else is a `ValueError` naming it and the valid
/// values.
fn extract_choice<T: Copy>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    valid: &[T],
    name: fn(T) -> &'static str,
) -> PyResult<T> {
    if let Ok(s) = obj.downcast::<PyString>() {
        let s = s.to_cow()?;
        if let Some(v) = valid.iter().find(|v| name(**v) == s) {
            return Ok(*v);
        }
    }
    Err(PyValueError::new_err(format!(
        "unknown {what} {}: valid {what}s are {}",
        obj.repr()?,
        quoted_list(valid.iter().map(|v| name(*v)))
    )))
}

/// Builds and validates a [`GameConfig`] from the Python keyword arguments of `Game` (and of
/// the environments): variant, scoring (ignored by the seal variants, where `None` is also
/// accepted), seed, episode, max_rounds.
pub(crate) fn parse_config(
    variant: &Bound<'_, PyAny>,
    scoring: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    episode: &Bound<'_, PyAny>,
    max_rounds: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameConfig> {
    let variant = extract_choice(variant, "variant", &Variant::ALL, Variant::name)?;
    let scoring = if variant.is_seal() && scoring.is_none() {
        Scoring::Advanced
    } else {
        extract_choice(scoring, "scoring", &Scoring::ALL, Scoring::name)?
    };
    let episode = extract_choice(episode, "episode", &Episode::ALL, Episode::name)?;
    let seed = extract_seed(seed)?;
    let max_rounds = match max_rounds {
        None => None,
        Some(m) if m.is_none() => None,
        Some(m) => match extract_integer(m, "max_rounds")? {
            Some(v) if (1..=u32::MAX as i128).contains(&v) => Some(v as u32),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "max_rounds {} is out of range: a round cap is an integer >= 1, or None",
                    m.repr()?
                )))
            }
        },
    };
    Ok(GameConfig::new(variant, seed)
        .with_scoring(scoring)
        .with_episode(episode)
        .with_max_rounds(max_rounds))
}

/// The compiled core of `yokai_septet`: `Game`, `Bot`, `VectorEnv`, the arena and
/// benchmark functions, and the `IllegalActionError` exception.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("InUseError", py.get_type::<InUseError>())?;
    m.add("GameInUseError", py.get_type::<GameInUseError>())?;
    m.add("VectorEnvInUseError", py.get_type::<VectorEnvInUseError>())?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(analysis::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_counts, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_summary, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_total_games, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_setup, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_game_counts, m)?)?;
    m.add_function(wrap_pyfunction!(arena::imitation_data, m)?)?;
    m.add_function(wrap_pyfunction!(models::model_read, m)?)?;
    m.add_function(wrap_pyfunction!(models::model_write, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    #[cfg(feature = "bench")]
    bench::register(m)?;
    m.add("VARIANTS", Variant::ALL.map(Variant::name).to_vec())?;
    m.add("SCORINGS", Scoring::ALL.map(Scoring::name).to_vec())?;
    m.add("EPISODES", Episode::ALL.map(Episode::name).to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// Runs the `yokai-septet` command-line tool (the same code as the Rust binary) on
/// `argv` (program name first) with the process's real stdin and stdout, and returns its
/// exit code. The GIL is released while it runs, so it never blocks other Python threads.
/// With `load_policy` (the console script passes `yokai_septet._evaluate.load_policy`),
/// `play --bots module:attribute` seats the Python policy `load_policy(name)` returns as
/// `(policy, batched)`; the bots of one call are built by a registry of its own.
#[pyfunction]
#[pyo3(signature = (argv, load_policy = None))]
fn run_cli(py: Python<'_>, argv: Vec<String>, load_policy: Option<Py<PyAny>>) -> PyResult<i32> {
    let mut registry = crate::bots::BotRegistry::new();
    if let Some(load) = load_policy {
        registry.register(policy_bot::policy_maker(load));
    }
    py.allow_threads(|| guard("run_cli", || Ok(crate::cli::run(argv, &registry))))
}

/// The name of `obj`'s type, for error messages (empty if it has none).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// The state of a `Game` argument (a `TypeError` for anything else).
pub(crate) fn game_state(obj: &Bound<'_, PyAny>) -> PyResult<crate::rules::state::State> {
    let game = obj.downcast::<game::PyGame>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a yokai_septet.Game, not {}",
            type_name(obj)
        ))
    })?;
    let state = *borrow(game)?.state();
    Ok(state)
}

/// An optional argument that keeps an explicit `None` (pyo3 maps `None` to `Option::None`
/// for `Option<T>` parameters, which would make `scoring=None` look like "not given").
pub(crate) struct Arg<'py>(pub(crate) Option<Bound<'py, PyAny>>);

impl<'py> FromPyObject<'py> for Arg<'py> {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(Arg(Some(ob.clone())))
    }
}

impl<'py> Arg<'py> {
    /// The given value, or `default` when the argument was not passed.
    pub(crate) fn or<T>(self, default: &Bound<'py, T>) -> Bound<'py, PyAny> {
        self.0.unwrap_or_else(|| default.clone().into_any())
    }
}

/// A reward mode by name (`"win"` or `"points"`); `ValueError` listing them otherwise.
pub(crate) fn parse_reward_mode(s: &str) -> PyResult<crate::rl::reward::RewardMode> {
    use crate::rl::reward::RewardMode;
    RewardMode::ALL
        .into_iter()
        .find(|m| m.name() == s)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown reward_mode {s:?}: valid reward modes are {}",
                quoted_list(RewardMode::ALL.map(RewardMode::name))
            ))
        })
}
