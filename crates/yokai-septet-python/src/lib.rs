//! The Python extension module `yokai_septet._core` (built by maturin from the repository's
//! `pyproject.toml`; the only crate of the workspace that links PyO3): this file only
//! declares the binding's modules and registers what Python sees.
//!
//! The stable Python contract is `docs/api.md`; the pure-Python package
//! `python/yokai_septet/` re-exports these classes and adds the PettingZoo and Gymnasium
//! wrappers. Every entry point validates its arguments before touching the engine
//! (`convert.rs`, and `settings.rs` for the settings tables), so no Rust panic reaches
//! Python; every Rust error becomes the Python exception `errors.rs` decides, and the
//! entry points that run larger pieces of engine code run under `errors::guard`.

// Safe code only.
#![deny(unsafe_code)]

use pyo3::prelude::*;

use yokai_septet::{Episode, Scoring, Variant};

mod analysis;
mod arena;
// The benchmark functions (`_core.bench_*`) are a few hundred bytes of code: they ship in
// every build, so that `benches/compare_peers.py --here` runs after a plain `pip install .`.
mod bench;
mod bot;
mod cli;
mod convert;
mod env_settings;
#[cfg(feature = "test-helpers")]
mod error_examples;
mod errors;
mod game;
mod json;
mod models;
mod policy_bot;
mod seeds;
mod settings;
mod vector;

/// The compiled core of `yokai_septet`: `Game`, `Bot`, `VectorEnv`, the arena and
/// benchmark functions, and the exception family (`Error` and its subclasses).
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<bot::PyBot>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(analysis::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_counts, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_summary, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_sequential, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_total_games, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_setup, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_game_counts, m)?)?;
    m.add_function(wrap_pyfunction!(arena::imitation_data, m)?)?;
    m.add_function(wrap_pyfunction!(arena::value_data_fn, m)?)?;
    m.add_function(wrap_pyfunction!(models::model_read, m)?)?;
    m.add_function(wrap_pyfunction!(models::model_write, m)?)?;
    m.add_function(wrap_pyfunction!(cli::run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(settings::_settings_spec, m)?)?;
    m.add_function(wrap_pyfunction!(settings::_check_settings, m)?)?;
    m.add_function(wrap_pyfunction!(arena::_check_arena_spec, m)?)?;
    m.add_function(wrap_pyfunction!(seeds::_episode_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(seeds::_fresh_seed, m)?)?;
    // Not in `__all__` (as `add_function` would put it): the stub declares it, and stubtest
    // checks it in the builds that have it and passes over it in those that do not.
    #[cfg(feature = "test-helpers")]
    m.setattr(
        "_error_examples",
        wrap_pyfunction!(error_examples::_error_examples, m)?,
    )?;
    bench::register(m)?;
    m.add("VARIANTS", Variant::ALL.map(Variant::name).to_vec())?;
    m.add("SCORINGS", Scoring::ALL.map(Scoring::name).to_vec())?;
    m.add("EPISODES", Episode::ALL.map(Episode::name).to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
