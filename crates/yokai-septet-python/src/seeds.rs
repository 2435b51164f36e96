//! `_core._episode_seeds`: the seeds of one episode of the Python Gymnasium and
//! PettingZoo envs, from `rng.rs`'s vector-env derivation (so a single env seeded `s`
//! plays the games of env 0 of `VectorEnv(..., seed=s)`, and none comes from numpy).

use pyo3::prelude::*;

use super::convert::extract_seed;
use yokai_septet::rng::vector_seed;

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
