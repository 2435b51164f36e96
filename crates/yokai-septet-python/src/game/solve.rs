//! A `Game`'s position solved exactly, every hand visible ("double-dummy"): its value,
//! whether the side to move wins, and every legal card's value.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::PyGame;
use crate::errors::{borrow, guard, Class};
use yokai_septet::{Phase, State};
use yokai_septet_solver::Solver;

impl PyGame {
    /// `ValueError` unless a card is to be played now (the solver's positions).
    fn check_play(&self, what: &str) -> PyResult<()> {
        match self.state().phase() {
            Phase::Play => Ok(()),
            Phase::Pass => Err(Class::InvalidValue.err(format!(
                "{what}: the round is in its passing phase; the solver scores card plays"
            ))),
            Phase::RoundOver => Err(Class::InvalidValue.err(format!(
                "{what}: the round is over and the next one is not dealt yet"
            ))),
            Phase::Over => Err(Class::InvalidValue.err(format!("{what}: the game is over"))),
        }
    }

    /// Runs `solve` on a copy of the play-phase position with the GIL released, so other
    /// threads may use the game meanwhile; `what` names the method in its errors.
    fn solved<T: Send>(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        what: &str,
        solve: impl FnOnce(&State) -> T + Send,
    ) -> PyResult<T> {
        let this = borrow(slf)?;
        this.check_play(what)?;
        let state = *this.state();
        drop(this);
        py.allow_threads(|| guard(what, || Ok(solve(&state))))
    }
}

#[pymethods]
impl PyGame {
    /// The value of the current position (play phase) for the side of the player to move,
    /// under best play by every seat with every hand visible ("double-dummy"): an ``int``
    /// in the round's objective (units in docs/search.md, "Analysis"). Exact, so a
    /// position early in a round may take minutes; the GIL is released meanwhile.
    /// ``ValueError`` outside the play phase.
    fn solve(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<i32> {
        Self::solved(slf, py, "Game.solve", |s| {
            Solver::new().solve(s).expect("a play-phase position")
        })
    }

    /// Whether the side of the player to move wins the round under best play with every
    /// hand visible, as for :meth:`solve` (in ``3p`` the player to move against both
    /// others; in the seal variants: wins the game by sealing in this round). One
    /// null-window search: cheaper than :meth:`solve`. ``ValueError`` outside the play
    /// phase.
    fn solve_win(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<bool> {
        Self::solved(slf, py, "Game.solve_win", |s| {
            Solver::new().solve_win(s).expect("a play-phase position")
        })
    }

    /// The exact value of every legal card of the player to move, as for :meth:`solve`:
    /// a ``dict`` card id -> value (the best card's value is :meth:`solve`'s).
    /// ``ValueError`` outside the play phase.
    fn solve_moves<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let values = Self::solved(slf, py, "Game.solve_moves", |s| {
            let mv = Solver::new().solve_moves(s).expect("a play-phase position");
            mv.iter().map(|(c, v)| (c.id(), v)).collect::<Vec<_>>()
        })?;
        let d = PyDict::new(py);
        for (c, v) in values {
            d.set_item(c, v)?;
        }
        Ok(d)
    }
}
