//! Python values read as the contract reads them: integers (an `int` or a numpy integer,
//! never a `bool`; out of range is a `ValueError`, never an `OverflowError`), text (a
//! `str` that encodes: a lone surrogate is a `ValueError`, never a `UnicodeEncodeError`),
//! flags, numbers, seeds, seats and names among a list. Every error is the family's and
//! names the argument and the value as passed (pyo3's own words name its Rust types).

use crate::errors::Class;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyType};

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

/// A seat index in `0 .. n-1` (`ValueError` outside, `TypeError` for non-integers), the
/// argument `what` (`seat`, `learner_seat`).
pub(crate) fn extract_seat(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<usize> {
    match extract_integer(obj, what)? {
        Some(v) if (0..n as i128).contains(&v) => Ok(v as usize),
        _ => Err(Class::InvalidValue.err(format!(
            "{what} {} is out of range: seats are 0..{}",
            obj.repr()?,
            n - 1
        ))),
    }
}

/// `obj`'s `repr`, for an error message (never failing: a message is on its way).
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| format!("<{}>", type_name(obj)))
}

/// A text argument `what`: a `str` (its subclasses too) whose every character encodes
/// as UTF-8; a lone surrogate (`"\udc80"`) is a `ValueError`, any other type a
/// `TypeError`.
pub(crate) fn extract_text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let Ok(text) = obj.downcast::<PyString>() else {
        return Err(Class::InvalidType.err(format!(
            "{what} must be a str, not {} ({})",
            type_name(obj),
            shown(obj)
        )));
    };
    text.to_cow().map(|t| t.into_owned()).map_err(|_| {
        Class::InvalidValue.err(format!(
            "{what} {} is not text that can be read: it holds a lone surrogate",
            shown(obj)
        ))
    })
}

/// A flag argument `what`: a `bool` or a numpy bool (never an int: `1` is not `True`
/// here); anything else a `TypeError`.
pub(crate) fn extract_flag(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    let numpy_bool = || {
        let t = obj.get_type();
        t.module()
            .is_ok_and(|m| m.to_cow().is_ok_and(|m| m == "numpy"))
            && type_name(obj).starts_with("bool")
    };
    if obj.is_instance_of::<PyBool>() || numpy_bool() {
        if let Ok(b) = obj.extract::<bool>() {
            return Ok(b);
        }
    }
    Err(Class::InvalidType.err(format!(
        "{what} must be a bool, not {} ({})",
        type_name(obj),
        shown(obj)
    )))
}

/// A number argument `what`: a finite `float` or an integer (not a `bool`); `nan` and
/// the infinities are a `ValueError`, any other type a `TypeError`.
pub(crate) fn extract_number(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    let number = !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyFloat>() || extract_integer(obj, what).is_ok());
    match obj.extract::<f64>() {
        Ok(v) if number && v.is_finite() => Ok(v),
        Ok(_) if number => Err(Class::InvalidValue.err(format!(
            "{what} must be a finite number, not {}",
            shown(obj)
        ))),
        _ => Err(Class::InvalidType.err(format!(
            "{what} must be a number, not {} ({})",
            type_name(obj),
            shown(obj)
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

/// The argument `reward_mode`, a reward mode by name (`"win"` or `"points"`);
/// `ValueError` listing them otherwise (`TypeError` for anything but a `str`).
pub(crate) fn parse_reward_mode(
    obj: &Bound<'_, PyAny>,
) -> PyResult<yokai_septet_vector::reward::RewardMode> {
    use yokai_septet_vector::reward::RewardMode;
    let name = extract_text(obj, "reward_mode")?;
    RewardMode::ALL
        .into_iter()
        .find(|m| m.name() == name)
        .ok_or_else(|| {
            Class::InvalidValue.err(format!(
                "unknown reward_mode {}: valid reward modes are {}",
                shown(obj),
                quoted_list(RewardMode::ALL.map(RewardMode::name))
            ))
        })
}
