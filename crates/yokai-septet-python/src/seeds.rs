//! `_core._episode_seeds`: the seeds of one episode of the Python Gymnasium and
//! PettingZoo envs, from `rng.rs`'s vector-env derivation (so a single env seeded `s`
//! plays the games of env 0 of `VectorEnv(..., seed=s)`, and none comes from numpy); and
//! `_core._fresh_seed`, the one source of the seed an env given none draws.

use pyo3::prelude::*;

use super::convert::extract_seed;
use super::errors::Class;
use yokai_septet::rng::vector_seed;

/// The master seed of an env created (or reset) with ``seed=None``: fresh entropy from
/// the operating system, as Gymnasium does, drawn once; the env keeps it readable
/// (``env.seed``) so that the run can be played again from it.
pub(crate) fn fresh_seed() -> PyResult<u64> {
    yokai_septet::rng::os_seed().map_err(|e| {
        Class::State.err(format!(
            "no seed was given and the system's random source cannot be read ({e}): pass \
             seed= explicitly"
        ))
    })
}

/// :func:`fresh_seed`, for the Python envs.
#[pyfunction]
pub(crate) fn _fresh_seed() -> PyResult<u64> {
    fresh_seed()
}

/// ``(game_seed, bot_seeds, draw)`` of episode ``episode`` (0: the first since the seed
/// was set) under the master seed ``seed``: the seed its game is dealt from, each seat's
/// bot seed (``num_players`` of them), and the number a drawn learner seat is taken from
/// (``draw % num_players``), exactly as ``VectorEnv`` derives env 0's.
#[pyfunction]
pub(crate) fn _episode_seeds(
    seed: &Bound<'_, PyAny>,
    episode: u64,
    num_players: u64,
) -> PyResult<(u64, Vec<u64>, u64)> {
    let seed = extract_seed(seed)?;
    let bots = (0..num_players.min(4))
        .map(|p| vector_seed(seed, 0, episode, 1 + p))
        .collect();
    Ok((
        vector_seed(seed, 0, episode, 0),
        bots,
        vector_seed(seed, 0, episode, 99),
    ))
}
