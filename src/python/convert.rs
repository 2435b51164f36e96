//! Python values read as the contract reads them: integers (an `int` or a numpy integer,
//! never a `bool`; out of range is a `ValueError`, never an `OverflowError`), seeds,
//! seats, names among a list, a `Game`'s configuration, and the `Arg` wrapper that tells
//! an explicit `None` from an argument not given.

use crate::python::errors::Class;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyInt, PyString, PyType};

use crate::rules::config::{Episode, GameConfig, Scoring, Variant};

static NP_INTEGER: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// `numpy.integer`, imported once.
pub(crate) fn np_integer(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
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
        return Err(Class::InvalidType.err(format!(
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
    Err(Class::InvalidType.err(format!(
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
        _ => Err(Class::InvalidValue.err(format!(
            "seed {} is out of range: a seed is an integer in 0..2**64-1",
            obj.repr()?
        ))),
    }
}

/// A seat index in `0 .. n-1` (`ValueError` outside, `TypeError` for non-integers).
pub(crate) fn extract_seat(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<usize> {
    match extract_integer(obj, "seat")? {
        Some(v) if (0..n as i128).contains(&v) => Ok(v as usize),
        _ => Err(Class::InvalidValue.err(format!(
            "seat {} is out of range: seats are 0..{}",
            obj.repr()?,
            n - 1
        ))),
    }
}

pub(crate) fn quoted_list(names: impl IntoIterator<Item = &'static str>) -> String {
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
    Err(Class::InvalidValue.err(format!(
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
    // `None`: only the seal variants take it (`game_config` says so otherwise).
    let scoring = if scoring.is_none() {
        None
    } else {
        Some(extract_choice(
            scoring,
            "scoring",
            &Scoring::ALL,
            Scoring::name,
        )?)
    };
    let episode = extract_choice(episode, "episode", &Episode::ALL, Episode::name)?;
    let seed = extract_seed(seed)?;
    let max_rounds = match max_rounds {
        None => None,
        Some(m) if m.is_none() => None,
        Some(m) => match extract_integer(m, "max_rounds")? {
            Some(v) if (1..=u32::MAX as i128).contains(&v) => Some(v as u32),
            _ => {
                return Err(Class::InvalidValue.err(format!(
                    "max_rounds {} is out of range: a round cap is an integer >= 1, or None",
                    m.repr()?
                )))
            }
        },
    };
    game_config(
        variant.name(),
        scoring.map(Scoring::name),
        episode.name(),
        max_rounds,
        seed,
    )
}

/// The name of `obj`'s type, for error messages (empty if it has none).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
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
            Class::InvalidValue.err(format!(
                "unknown reward_mode {s:?}: valid reward modes are {}",
                quoted_list(RewardMode::ALL.map(RewardMode::name))
            ))
        })
}

/// A [`GameConfig`] from settings already read by name (see `settings.rs`): `scoring`
/// `None` is accepted only by the seal variants, which ignore the scoring.
pub(crate) fn game_config(
    variant: &str,
    scoring: Option<&str>,
    episode: &str,
    max_rounds: Option<u32>,
    seed: u64,
) -> PyResult<GameConfig> {
    let named = |what: &str, v: &str| {
        Class::InvalidValue.err(format!(
            "unknown {what} {v:?}: not one of the table's names"
        ))
    };
    let variant = Variant::from_name(variant).ok_or_else(|| named("variant", variant))?;
    let scoring = match scoring {
        Some(s) => Scoring::from_name(s).ok_or_else(|| named("scoring", s))?,
        None if variant.is_seal() => Scoring::Advanced,
        None => {
            return Err(Class::InvalidValue.err(format!(
                "scoring None is only for the seal variants: valid scorings for {:?} are {}",
                variant.name(),
                quoted_list(Scoring::NAMES)
            )))
        }
    };
    let episode = Episode::from_name(episode).ok_or_else(|| named("episode", episode))?;
    Ok(GameConfig::new(variant, seed)
        .with_scoring(scoring)
        .with_episode(episode)
        .with_max_rounds(max_rounds))
}
