//! Benchmark functions for `benches/*.py` (`_core.bench_*`): in every build of the Python
//! module, so that the README's performance command runs after a plain `pip install .`.

use pyo3::prelude::*;

use super::errors::{guard, Class, IntoPyResult};
use yokai_septet::observation::{observation_size, ObsValue};
use yokai_septet::State;
use yokai_septet::{GameConfig, Variant};

use yokai_septet_vector::yardstick::yardstick_pass;

/// A variant name for the benchmark functions (an `InvalidValueError` listing the valid
/// names).
fn bench_variant(name: &str) -> PyResult<Variant> {
    Ok(name.parse::<Variant>().py()?)
}

/// ``bench_random_playouts(variant, seconds, seed=0)``: plays uniformly random games of
/// ``variant`` in Rust on one thread (GIL released) for at least ``seconds``; returns
/// ``(games, decisions, elapsed_seconds)``. For benchmarks (``benches/compare_peers.py``).
#[pyfunction]
#[pyo3(signature = (variant, seconds, seed = 0))]
fn bench_random_playouts(
    py: Python<'_>,
    variant: &str,
    seconds: f64,
    seed: u64,
) -> PyResult<(u64, u64, f64)> {
    let v = bench_variant(variant)?;
    let s = py.allow_threads(|| {
        guard("bench_random_playouts", || {
            Ok(yokai_septet_bots::arena::random_playouts(v, seconds, seed))
        })
    })?;
    Ok((s.games, s.decisions, s.seconds))
}

/// ``bench_step_parts(variant, seconds, dtype="uint8", num_games=1024)``: the work of one
/// VectorEnv step per env done by hand on one thread (GIL released) for at least
/// ``seconds``: random legal action, ``apply``, a new game when one ends, the mover's
/// observation and mask written to its row. Returns ``(decisions, elapsed_seconds)``: the
/// yardstick of the VectorEnv's own cost (``benches/python_speed.py``).
#[pyfunction]
#[pyo3(signature = (variant, seconds, dtype = "uint8", num_games = 1024))]
fn bench_step_parts(
    py: Python<'_>,
    variant: &str,
    seconds: f64,
    dtype: &str,
    num_games: usize,
) -> PyResult<(u64, f64)> {
    use rand_core::RngCore;
    fn run<T: ObsValue>(v: Variant, seconds: f64, n: usize) -> (u64, f64) {
        let mut games: Vec<State> = (0..n as u64)
            .map(|s| State::new(GameConfig::new(v, s)))
            .collect();
        let mut obs = vec![T::ZERO; n * observation_size(v)];
        let mut mask = vec![false; n * GameConfig::new(v, 0).num_actions()];
        let mut rng = yokai_septet::rng::playout_rng(1);
        let (mut next_seed, mut decisions) = (n as u64, 0);
        let start = std::time::Instant::now();
        while decisions == 0 || start.elapsed().as_secs_f64() < seconds {
            decisions += yardstick_pass(
                &mut games,
                &mut obs,
                &mut mask,
                || rng.next_u32(),
                &mut next_seed,
            );
        }
        (decisions, start.elapsed().as_secs_f64())
    }
    let v = bench_variant(variant)?;
    let n = num_games.max(1);
    let run = match dtype {
        "uint8" => run::<u8>,
        "float32" => run::<f32>,
        other => {
            return Err(Class::InvalidValue.err(format!(
                "unknown dtype {other:?}: valid dtypes are \"float32\", \"uint8\""
            )))
        }
    };
    py.allow_threads(|| guard("bench_step_parts", || Ok(run(v, seconds, n))))
}

/// ``bench_arena(variant, bots, games, threads)``: runs a duplicate arena in Rust (GIL
/// released) with ``bots`` (a list of bot names, one per side) on ``threads`` threads (0 =
/// one per core); returns ``(games, decisions, elapsed_seconds)``. For benchmarks.
#[pyfunction]
fn bench_arena(
    py: Python<'_>,
    variant: &str,
    bots: Vec<String>,
    games: u64,
    threads: usize,
) -> PyResult<(u64, u64, f64)> {
    let v = bench_variant(variant)?;
    let names: Vec<&str> = bots.iter().map(String::as_str).collect();
    let mut config = yokai_septet_bots::arena::ArenaConfig::new(v, &names, games, 1);
    config.threads = threads;
    let report = py.allow_threads(|| {
        guard("bench_arena", || {
            let registry = yokai_septet_bots::BotRegistry::new();
            Ok(yokai_septet_bots::arena::run_arena(&config, &registry, &|| {}).py()?)
        })
    })?;
    Ok((
        report.summary.games,
        report.summary.decisions,
        report.timing.seconds,
    ))
}

/// Adds the benchmark functions to `_core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bench_random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(bench_arena, m)?)?;
    m.add_function(wrap_pyfunction!(bench_step_parts, m)?)?;
    Ok(())
}
