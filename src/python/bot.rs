//! `yokai_septet.Bot`: the built-in Rust bots.

use std::sync::Mutex;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::game::PyGame;
use super::{extract_seed, IllegalActionError};
use crate::bots::{bot_by_name, check_variant, Bot, BOT_NAMES};

/// A built-in bot: ``Bot(name, seed=0)``.
///
/// ``name`` is ``"random"``, ``"heuristic"``, ``"pimc"`` (determinized search),
/// ``"pimc-random"``, ``"pimc:N"`` (N playouts per decision), ``"pimc:Nms"`` (a time
/// limit per decision, not reproducible), ``"pimc:N/P"`` (also searches its passing
/// picks, P playouts each), ``"pimc-dd"`` (determinized search with exact
/// solver leaves), ``"pimc-dd:N"`` (N worlds per decision), ``"pimc-dd:Nms"``,
/// ``"ismcts"`` (information-set tree search; ``"ismcts:N"``, ``"ismcts:Nms"``), ``"nn"``
/// (the neural-network baseline shipped for the game's variant) or ``"nn:PATH"`` (a model
/// saved with ``yokai_septet.models``).
/// ``bot.act(game)`` returns a legal action for
/// ``game.current_player`` using only what that seat may know. One bot may be reused
/// across games and seats; its random stream is seeded by ``seed``.
#[pyclass(module = "yokai_septet._core", name = "Bot")]
pub struct PyBot {
    name: String,
    bot: Mutex<Box<dyn Bot>>,
}

pub(crate) fn make_bot(name: &str, seed: u64) -> PyResult<Box<dyn Bot>> {
    bot_by_name(name, seed).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name, seed = None))]
    fn py_new(name: &str, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyBot> {
        let seed = match seed {
            Some(s) => extract_seed(s)?,
            None => 0,
        };
        Ok(PyBot {
            name: name.to_string(),
            bot: Mutex::new(make_bot(name, seed)?),
        })
    }

    /// The names accepted by ``Bot`` (``pimc:N`` stands for any number of playouts,
    /// ``pimc-dd:N`` for any number of worlds).
    #[staticmethod]
    fn names() -> Vec<&'static str> {
        BOT_NAMES.to_vec()
    }

    /// The bot's name as given.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Chooses an action for ``game.current_player`` (an ``int``; the game is not
    /// changed). Raises :class:`IllegalActionError` if the game is over. The GIL is
    /// released while the bot thinks.
    fn act(&self, py: Python<'_>, game: PyRef<'_, PyGame>) -> PyResult<u8> {
        let state = *game.state();
        drop(game);
        let Some(seat) = state.current_player() else {
            return Err(IllegalActionError::new_err(
                "the game is over: there is no decision to make",
            ));
        };
        let card = py.allow_threads(|| {
            super::guard("Bot.act", || {
                let mut bot = self
                    .bot
                    .lock()
                    .map_err(|_| PyRuntimeError::new_err("this bot failed earlier (poisoned)"))?;
                let variant = state.config().variant;
                check_variant(bot.as_ref(), &self.name, variant)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                Ok(bot.act(&state.view(seat)))
            })
        })?;
        Ok(card.id())
    }

    /// Restarts the bot's random stream from ``seed``.
    /// (Waits, with the GIL released, for an ``act`` running in another thread.)
    fn reseed(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = extract_seed(seed)?;
        py.allow_threads(|| {
            let mut bot = self
                .bot
                .lock()
                .map_err(|_| PyRuntimeError::new_err("this bot failed earlier (poisoned)"))?;
            bot.reseed(seed);
            Ok(())
        })
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.name)
    }
}

impl PyBot {
    /// The bot's decision for `view`'s seat (called with the GIL released; a bot that
    /// panicked earlier is poisoned, and this panics in turn, inside `guard`).
    pub(crate) fn act_on(&self, view: &crate::infoset::view::SeatView) -> crate::cards::Card {
        self.bot
            .lock()
            .expect("this bot failed earlier (poisoned)")
            .act(view)
    }
}
