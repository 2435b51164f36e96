//! A `Game` stepped for a learner: its action with the rewards, and built-in bots
//! playing the other seats.
//!
//! Each `pub(super) fn` is the body of the `Game` method of the same name (its doc is
//! there, on the method in `mod.rs`).

use crate::python::errors::{InvalidTypeError, InvalidValueError};
use pyo3::prelude::*;

use super::PyGame;
use crate::python::bot::PyBot;
use crate::python::convert::{extract_seat, parse_reward_mode};
use crate::python::errors::{borrow_mut, guard};
use crate::rl::learner::bots_until_turn;
use crate::rl::reward::rewards;

pub(super) fn step_rewards(
    slf: &Bound<'_, PyGame>,
    a: &Bound<'_, PyAny>,
    reward_mode: &str,
) -> PyResult<Vec<f32>> {
    let mut this = borrow_mut(slf)?;
    let mode = parse_reward_mode(reward_mode)?;
    let action = this.action_of(a)?;
    match this.m.apply_action(action) {
        Ok(out) => {
            let n = this.state().num_players();
            Ok(rewards(mode, &out, this.state())[..n].to_vec())
        }
        Err(e) => Err(e.into()),
    }
}

pub(super) fn play_bots(
    slf: &Bound<'_, PyGame>,
    py: Python<'_>,
    bots: &Bound<'_, PyAny>,
    learner_seat: &Bound<'_, PyAny>,
    reward_mode: &str,
) -> PyResult<f64> {
    // Read here, not by the signature: the Bot class is this file's import, so that
    // `game` and `bot` do not import each other (Bot.act reads a Game).
    let bots: Vec<PyRef<'_, PyBot>> = bots.extract().map_err(|e| {
        InvalidTypeError::new_err(format!(
            "bots must be a list of yokai_septet.Bot, one per seat: {e}"
        ))
    })?;
    let mut this = borrow_mut(slf)?;
    let mode = parse_reward_mode(reward_mode)?;
    let n = this.state().num_players();
    let learner = extract_seat(learner_seat, n)?;
    if bots.len() != n {
        return Err(InvalidValueError::new_err(format!(
            "bots lists {} bots, expected one per seat ({n})",
            bots.len()
        )));
    }
    let bots: Vec<&PyBot> = bots.iter().map(|b| &**b).collect();
    let m = &mut this.m;
    py.allow_threads(|| {
        guard("Game.play_bots", || {
            let mut total = 0f64;
            bots_until_turn(
                m,
                learner,
                mode,
                |p, view| bots[p].act_on(view),
                |r| total += r[learner] as f64,
            )?;
            Ok(total)
        })
    })
}
