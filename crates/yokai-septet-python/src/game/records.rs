//! A `Game`'s record (docs/records.md): written as a `dict` or JSON, read back by
//! replaying it, and pickling through it.

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use super::PyGame;
use crate::convert::extract_text;
use crate::errors::{borrow, guard, Class, IntoPyResult};
use crate::json::{json_to_py, py_to_json};
use yokai_septet::Match;

/// The game a Python record (a ``dict`` or its JSON text) describes, validated; a bad
/// record is a ``ValueError`` naming the field. `what` names the caller in a panic's
/// message.
pub(crate) fn match_from_record(
    py: Python<'_>,
    rec: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Match> {
    if rec.is_instance_of::<PyString>() {
        let text = extract_text(rec, "rec")?;
        py.allow_threads(|| guard(what, || Ok(Match::from_json(&text).py()?)))
    } else {
        let value = py_to_json(rec, &mut String::new())?;
        guard(what, || Ok(Match::from_record(&value).py()?))
    }
}

impl PyGame {
    /// A `ValueError` for a determinization, which has no history to record.
    fn check_has_record(&self) -> PyResult<()> {
        if self.m.has_record() {
            Ok(())
        } else {
            Err(Class::InvalidValue.err(
                "this game is a determinization (Game.sample_determinization): its hidden \
                 cards were sampled, not dealt and played, so it has no record",
            ))
        }
    }
}

#[pymethods]
impl PyGame {
    /// The game record: a JSON-serialisable ``dict`` (schema in docs/records.md).
    fn record<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        json_to_py(py, &this.m.record().to_value())
    }

    /// The game record as a JSON string.
    fn record_json(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        Ok(this.m.record().to_json())
    }

    /// Rebuilds a game by replaying ``rec`` (a record ``dict``, or its JSON text),
    /// validating every action and every derived field; a ``ValueError`` names the first
    /// field (round, trick) that disagrees. ``Game.from_record(r).record() == r``.
    #[staticmethod]
    fn from_record(py: Python<'_>, rec: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        Ok(PyGame {
            m: match_from_record(py, rec, "Game.from_record")?,
        })
    }

    /// Pickling goes through the record (``Game.from_record(self.record())``).
    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        let ctor = py.get_type::<PyGame>().getattr("from_record")?;
        let args = (this.m.record().to_json(),).into_bound_py_any(py)?;
        PyTuple::new(py, [ctor.into_any(), args])
    }
}
