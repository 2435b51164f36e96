//! `yokai_septet.Bot`: the built-in Rust bots.

use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::convert::{extract_integer, extract_seed, extract_text, shown, type_name};
use super::errors::{guard, py_err, Class, IntoPyResult};
use super::game::game_state;
use yokai_septet::Card;
use yokai_septet::SeatView;
use yokai_septet_bots::{Bot, BotRegistry, BOT_NAMES};

/// A built-in bot: ``Bot(name, seed=0)``.
///
/// ``name`` is ``"random"``, ``"heuristic"``, ``"pimc"`` (determinized search),
/// ``"pimc-random"``, ``"pimc:N"`` (N playouts per decision), ``"pimc:Nms"`` (a time
/// limit per decision, not reproducible), ``"pimc-dd"`` (determinized search with exact
/// solver leaves), ``"pimc-dd:N"`` (N worlds per decision), ``"pimc-dd:Nms"``,
/// ``"epimc"`` (``pimc-dd`` choosing its next card per information set; ``"epimc:N"``),
/// ``"ismcts"`` (information-set tree search; ``"ismcts:N"``, ``"ismcts:Nms"``), ``"nn"``
/// (the neural-network baseline shipped for the game's variant), ``"nn:PATH"`` (a model
/// saved with ``yokai_septet.models``) or ``"ismcts-nn"`` (``ismcts`` guided by an ``nn``
/// model; ``"ismcts-nn:N"``, ``"ismcts-nn:PATH"``). Every search family's head takes the
/// modifier ``-inf`` (``"pimc-inf"``, ``"pimc-dd-inf:8"``, ``"ismcts-nn-inf"``, each with
/// its family's budgets): its play-phase worlds are drawn from the shipped belief model of
/// the game's variant (``docs/inference.md``).
/// A search bot's budget may end in a pass suffix, before any model path: ``/P`` searches
/// its passing picks, P playouts each (``"pimc:200/1400"``), ``/nn`` takes the shipped
/// ``nn`` model's picks (``"ismcts:5000/nn"``, ``"ismcts-nn:4600/nn:PATH"``).
/// ``bot.act(game)`` returns a legal action for
/// ``game.current_player`` using only what that seat may know. One bot may be reused
/// across games and seats; its random stream is seeded by ``seed``. A bot pickles (and
/// ``copy.deepcopy`` copies it) by its name, seed and the position of its random stream:
/// the copy makes the same decisions as the original from there on.
// Frozen: every method takes the bot shared and its state sits behind a mutex, so a Bot
// used by several threads at once waits its turn and never finds itself "already borrowed".
#[pyclass(module = "yokai_septet._core", name = "Bot", frozen)]
pub struct PyBot {
    name: String,
    inner: Mutex<Seeded>,
}

/// A bot and the seed its stream last started from (pickling rebuilds it from both).
struct Seeded {
    seed: u64,
    bot: Box<dyn Bot>,
}

/// The argument `name` of `Bot(name, seed)`.
fn bot_name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    extract_text(obj, "name")
}

impl PyBot {
    /// The bot `name` (built with the GIL released: `nn:PATH` reads a file).
    fn build(py: Python<'_>, name: &str, seed: u64) -> PyResult<PyBot> {
        let bot = py
            .allow_threads(|| BotRegistry::new().build_any_variant(name, seed))
            .py()?;
        Ok(PyBot {
            name: bot.name(),
            inner: Mutex::new(Seeded { seed, bot }),
        })
    }

    fn lock(&self) -> PyResult<MutexGuard<'_, Seeded>> {
        self.inner
            .lock()
            .map_err(|_| Class::State.err("this bot failed earlier (poisoned)"))
    }

    /// The bot's decision for `view`'s seat (called with the GIL released).
    pub(crate) fn act_on(&self, view: &SeatView) -> PyResult<Card> {
        self.lock()?.bot.act(view).map_err(py_err)
    }
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name, seed = None))]
    fn py_new(
        py: Python<'_>,
        #[pyo3(from_py_with = bot_name)] name: String,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBot> {
        let seed = match seed {
            Some(s) => extract_seed(s)?,
            None => 0,
        };
        PyBot::build(py, &name, seed)
    }

    /// The names accepted by ``Bot`` (``pimc:N`` stands for any number of playouts,
    /// ``pimc-dd:N`` for any number of worlds).
    #[staticmethod]
    fn names() -> Vec<&'static str> {
        BOT_NAMES.to_vec()
    }

    /// The bot's canonical name: the one its Rust bot reports, which builds the same bot
    /// (its family's default budget written out: ``Bot("pimc").name == "pimc:200"``).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Chooses an action for ``game.current_player`` (an ``int``; the game is not
    /// changed). Raises :class:`IllegalActionError` if the game is over, ``ValueError`` if
    /// the bot cannot play the game's variant. The GIL is released while the bot thinks.
    fn act(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<u8> {
        let state = game_state(game)?;
        let Some(seat) = state.current_player() else {
            return Err(Class::IllegalAction.err("the game is over: there is no decision to make"));
        };
        let card = py.allow_threads(|| guard("Bot.act", || self.act_on(&state.view(seat))))?;
        Ok(card.id())
    }

    /// Restarts the bot's random stream from ``seed``.
    /// (Waits, with the GIL released, for an ``act`` running in another thread.)
    fn reseed(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = extract_seed(seed)?;
        py.allow_threads(|| {
            let mut inner = self.lock()?;
            inner.bot.reseed(seed);
            inner.seed = seed;
            Ok(())
        })
    }

    /// Pickles as ``Bot(name, seed)`` and the bot's state (its random stream's position):
    /// the copy decides as the original would have.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let (seed, words) = {
            let inner = me.lock()?;
            (inner.seed, inner.bot.snapshot())
        };
        let Some(words) = words else {
            return Err(Class::InvalidType.err(format!(
                "cannot pickle Bot({:?}): it keeps no state that can be saved; build it \
                 again by name in the other process instead",
                me.name
            )));
        };
        let args = (me.name.clone(), seed);
        (slf.get_type(), args, words).into_pyobject(py)
    }

    /// Restores the state saved by ``__reduce__`` (pickle calls it): a list of integers
    /// in ``0..2**64-1``. Anything else is refused, naming the value, and the bot is
    /// unchanged.
    fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let not_words = || {
            Class::InvalidType.err(format!(
                "Bot.__setstate__ takes the list of integers Bot.__reduce__ gave (the state \
                 of its random stream), not {} ({})",
                type_name(state),
                shown(state)
            ))
        };
        let items: Vec<Bound<'_, PyAny>> = match state.downcast::<pyo3::types::PyList>() {
            Ok(list) => list.iter().collect(),
            Err(_) => return Err(not_words()),
        };
        let words = items
            .iter()
            .map(|w| match extract_integer(w, "a state word") {
                Ok(v) => v.and_then(|v| u64::try_from(v).ok()).ok_or_else(|| {
                    Class::InvalidValue.err(format!(
                        "Bot.__setstate__: state word {} is out of range: each is an integer \
                         in 0..2**64-1",
                        shown(w)
                    ))
                }),
                Err(_) => Err(not_words()),
            })
            .collect::<PyResult<Vec<u64>>>()?;
        self.lock()?.bot.restore(&words).map_err(py_err)
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.name)
    }
}
