//! `_core.run_cli`: the command-line tool, run from Python's console script.

use pyo3::prelude::*;

use super::errors::guard;
use super::policy_bot;

/// Runs the `yokai-septet` command-line tool (the same code as the Rust binary) on
/// `argv` (program name first) with the process's real stdin and stdout, and returns its
/// exit code. The GIL is released while it runs, so it never blocks other Python threads.
/// With `load_policy` (the console script passes `yokai_septet._evaluate.load_policy`),
/// `play --bots module:attribute` seats the Python policy `load_policy(name)` returns as
/// `(policy, batched)`; the bots of one call are built by a registry of its own.
#[pyfunction]
#[pyo3(signature = (argv, load_policy = None))]
pub(crate) fn run_cli(
    py: Python<'_>,
    argv: Vec<String>,
    load_policy: Option<Py<PyAny>>,
) -> PyResult<i32> {
    let mut registry = yokai_septet_bots::BotRegistry::new();
    if let Some(load) = load_policy {
        registry.register(policy_bot::policy_maker(load));
    }
    py.allow_threads(|| guard("run_cli", || Ok(yokai_septet_cli::run(argv, &registry))))
}
