//! A `Game` stepped for a learner: its action with the rewards, and built-in bots
//! playing the other seats.

use pyo3::prelude::*;

use super::PyGame;
use crate::bot::PyBot;
use crate::convert::{extract_seat, parse_reward_mode};
use crate::errors::{borrow_mut, guard, py_err, Class};
use yokai_septet_vector::learner::bots_until_turn;
use yokai_septet_vector::reward::{rewards, RewardMode};

#[pymethods]
impl PyGame {
    /// Like :meth:`step`, and returns every seat's reward for this step (``list[float]``)
    /// under ``reward_mode``: ``"win"`` (+1 winners, -1 others when the game ends) or
    /// ``"points"`` (at each round's end: points gained minus the opponents' average).
    #[pyo3(
        signature = (a, reward_mode = RewardMode::Win),
        text_signature = "(self, /, a, reward_mode='win')"
    )]
    fn step_rewards(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = parse_reward_mode)] reward_mode: RewardMode,
    ) -> PyResult<Vec<f32>> {
        let mut this = borrow_mut(slf)?;
        let mode = reward_mode;
        let action = this.action_of(a)?;
        match this.m.apply_action(action) {
            Ok(out) => {
                let n = this.state().num_players();
                Ok(rewards(mode, &out, this.state())[..n].to_vec())
            }
            Err(e) => Err(py_err(e)),
        }
    }

    /// Lets ``bots`` (a list of :class:`Bot`, one per seat; the learner's is not used)
    /// play until it is ``learner_seat``'s turn or the game is over, and returns the
    /// learner's reward summed over their moves under ``reward_mode`` (the single-agent
    /// env's loop, run in Rust with the GIL released).
    #[pyo3(
        signature = (bots, learner_seat, reward_mode = RewardMode::Win),
        text_signature = "(self, /, bots, learner_seat, reward_mode='win')"
    )]
    fn play_bots(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        bots: &Bound<'_, PyAny>,
        learner_seat: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = parse_reward_mode)] reward_mode: RewardMode,
    ) -> PyResult<f64> {
        // Read here, not by the signature, so that anything but a list of bots is the
        // family's `InvalidTypeError` saying what is expected.
        let bots: Vec<PyRef<'_, PyBot>> = bots.extract().map_err(|e| {
            Class::InvalidType.err(format!(
                "bots must be a list of yokai_septet.Bot, one per seat: {e}"
            ))
        })?;
        let mut this = borrow_mut(slf)?;
        let mode = reward_mode;
        let n = this.state().num_players();
        let learner = extract_seat(learner_seat, n, "learner_seat")?;
        if bots.len() != n {
            return Err(Class::InvalidValue.err(format!(
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
                    |p, view| bots[p].act_on(view),
                    |out, after| total += rewards(mode, out, after)[learner] as f64,
                )?;
                Ok(total)
            })
        })
    }
}
