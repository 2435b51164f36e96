//! `yokai_septet.analyze`: the double-dummy analysis of a record ([`crate::analysis`]),
//! as `yokai-septet analyze --json` prints it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::game::match_from_record;
use super::guard;
use super::json::json_to_py;
use crate::analysis::{analyze as analyze_match, DEFAULT_BUDGET};

/// The double-dummy analysis of the game record ``rec`` (a ``dict`` or its JSON text):
/// the same data as ``yokai-septet analyze --json`` (schema in docs/search.md), with at
/// most ``budget`` solver nodes per position, plus ``shares``: the fractions of the card
/// plays that were ``solved``, ``forced`` (one legal card) and ``skipped`` (over the
/// budget), which sum to 1. A bad record is a ``ValueError`` naming the field. The GIL is
/// released while it works.
#[pyfunction]
#[pyo3(signature = (rec, budget = DEFAULT_BUDGET))]
pub fn analyze<'py>(
    py: Python<'py>,
    rec: &Bound<'py, PyAny>,
    budget: u64,
) -> PyResult<Bound<'py, PyAny>> {
    if budget == 0 {
        return Err(PyValueError::new_err("budget must be at least 1 node"));
    }
    let m = match_from_record(py, rec, "analyze")?;
    let mut value = py.allow_threads(|| {
        guard("analyze", || {
            Ok(analyze_match(&m, budget, &mut |_, _| {}).to_value())
        })
    })?;
    let shares = shares(&value);
    value["shares"] = shares;
    json_to_py(py, &value)
}

/// The share of the analysed plays of each status (`solved`, `forced`, `skipped`), read
/// from the analysis's own `plays`, so that the shares and the plays cannot disagree.
fn shares(analysis: &serde_json::Value) -> serde_json::Value {
    let plays = analysis["plays"].as_array().map_or(&[][..], Vec::as_slice);
    let total = plays.len().max(1) as f64;
    let share =
        |status: &str| plays.iter().filter(|p| p["status"] == status).count() as f64 / total;
    serde_json::json!({
        "solved": share("solved"),
        "forced": share("forced"),
        "skipped": share("skipped"),
    })
}
