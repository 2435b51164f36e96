//! `yokai_septet.analyze`: the double-dummy analysis of a record ([`yokai_septet_bots::analysis`]),
//! as `yokai-septet analyze --json` prints it.

use pyo3::prelude::*;

use super::convert::{extract_integer, shown};
use super::errors::{guard, Class};
use super::game::match_from_record;
use super::json::json_to_py;
use yokai_septet_bots::analysis::{analyze as analyze_match, DEFAULT_BUDGET};

/// The argument `budget`: solver nodes per position, an integer in `1..2**64-1`.
fn budget_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    extract_integer(obj, "budget")?
        .and_then(|v| u64::try_from(v).ok())
        .filter(|&v| v >= 1)
        .ok_or_else(|| {
            Class::InvalidValue.err(format!(
                "budget {} is out of range: it is solver nodes per position, an integer in \
                 1..2**64-1",
                shown(obj)
            ))
        })
}

/// The double-dummy analysis of the game record ``rec`` (a ``dict`` or its JSON text):
/// the same data as ``yokai-septet analyze --json`` (schema in docs/search.md), with at
/// most ``budget`` solver nodes per position; the plays over the budget are
/// ``estimated`` (every legal card's value sampled over worlds drawn from what the mover
/// knew, marked so, with the exact solve's ``forecast``); its ``shares`` are the fractions
/// of the card plays that were ``solved``, ``forced`` (one legal card) and ``estimated``,
/// which sum to 1. A bad record is a ``ValueError`` naming the field. The GIL is
/// released while it works.
#[pyfunction]
#[pyo3(signature = (rec, budget = DEFAULT_BUDGET))]
pub fn analyze<'py>(
    py: Python<'py>,
    rec: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = budget_arg)] budget: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let m = match_from_record(py, rec, "analyze")?;
    let value = py.allow_threads(|| {
        guard("analyze", || {
            Ok(analyze_match(&m, budget, &mut |_, _| {}).to_value())
        })
    })?;
    json_to_py(py, &value)
}
