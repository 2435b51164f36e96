//! Python values read as the contract reads them: integers (an `int` or a numpy integer,
//! never a `bool`; out of range is a `ValueError`, never an `OverflowError`), seeds,
//! seats, names among a list, a `Game`'s configuration, and the `Arg` wrapper that tells
//! an explicit `None` from an argument not given.

use crate::errors::Class;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyInt, PyType};

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

/// The name of `obj`'s type, for error messages (empty if it has none).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A reward mode by name (`"win"` or `"points"`); `ValueError` listing them otherwise.
pub(crate) fn parse_reward_mode(s: &str) -> PyResult<yokai_septet_vector::reward::RewardMode> {
    use yokai_septet_vector::reward::RewardMode;
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
