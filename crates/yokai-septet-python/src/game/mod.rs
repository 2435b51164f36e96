//! `yokai_septet.Game`: one game, a thin wrapper over [`State`] plus its action history.
//!
//! This file holds the class, its settings and the position read and stepped; each other
//! file adds the `#[pymethods]` of one job (pyo3's `multiple-pymethods`): `tensors.rs`
//! (masks, observations, state tensors), `play.rs` (rewards and built-in bots),
//! `deals.rs` (explicit deals, determinizations, beliefs), `solve.rs` (the exact
//! solver), `records.rs` (records and pickling), `pictures.rs` (text, SVG, pixels).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::convert::{extract_integer, extract_seat, extract_text, shown, type_name};
use super::env_settings::GAME;
use super::errors::{borrow, borrow_mut, py_err, Class, InUse, IntoPyResult};
use super::settings::bind;
use yokai_septet::rules::game_target;
use yokai_septet::GameConfig;
use yokai_septet::Match;
use yokai_septet::{Card, CardSet};
use yokai_septet::{Phase, State};
use yokai_septet_vector::reward::round_margins;

mod deals;
mod pictures;
mod play;
mod records;
mod solve;
mod tensors;

pub(crate) use records::match_from_record;

/// A game of Yokai Septet.
///
/// ``Game(variant="4p", scoring="advanced", seed=0, *, episode="game", max_rounds=None)``
///
/// - ``variant``: ``"4p"``, ``"3p"``, ``"seal"`` or ``"seal-short"``.
/// - ``scoring``: ``"advanced"`` (game to 7) or ``"basic"`` (game to 2); 4p/3p only, the
///   seal variants ignore it (``None`` is accepted there).
/// - ``seed``: an integer in ``0 .. 2**64-1``; round ``k`` is dealt from ``(seed, k)``.
/// - ``episode``: ``"game"`` (play to the end) or ``"round"`` (stop after one round).
/// - ``max_rounds``: ``None`` or a round cap (>= 1) after which the game stops, truncated.
///
/// Every action is a card id (R1), both for passing picks and for plays.
/// Illegal actions raise :class:`IllegalActionError` and leave the game unchanged.
#[pyclass(module = "yokai_septet._core", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    /// The position and its history (the record written as the game goes).
    pub(crate) m: Match,
}

impl PyGame {
    /// What `read` finds in the game's position, borrowed for the call only: the body of
    /// every method that just reads it (a `GameInUseError` while another call changes it).
    fn read<T>(slf: &Bound<'_, Self>, read: impl FnOnce(&State) -> T) -> PyResult<T> {
        Ok(read(borrow(slf)?.state()))
    }

    pub(crate) fn from_config(config: GameConfig) -> PyGame {
        PyGame {
            m: Match::new(config),
        }
    }

    #[inline]
    pub(crate) fn state(&self) -> &State {
        self.m.state()
    }

    /// Applies one action given as a raw number; the state is unchanged on error.
    pub(crate) fn apply_raw(&mut self, action: i128) -> PyResult<()> {
        match self.m.apply_action(action) {
            Ok(_) => Ok(()),
            Err(e) => Err(py_err(e)),
        }
    }

    /// The action number `a` names (`TypeError` unless an integer; an integer too big for
    /// any card is an `IllegalActionError`).
    fn action_of(&self, a: &Bound<'_, PyAny>) -> PyResult<i128> {
        match extract_integer(a, "action")? {
            Some(v) => Ok(v),
            None => Err(Class::IllegalAction.err(format!(
                "illegal action: action {} is out of range: actions are card ids 0..{}",
                a.repr()?,
                self.state().config().num_actions() - 1
            ))),
        }
    }

    fn ids(py: Python<'_>, set: CardSet) -> PyResult<Bound<'_, PyList>> {
        PyList::new(py, set.iter().map(Card::id))
    }

    /// The ascending ids of the cards `cards` gives for `seat` (validated) in this game.
    fn seat_cards<'py>(
        slf: &Bound<'py, Self>,
        seat: &Bound<'py, PyAny>,
        cards: impl FnOnce(&State, usize) -> CardSet,
    ) -> PyResult<Bound<'py, PyList>> {
        let this = borrow(slf)?;
        let p = extract_seat(seat, this.state().num_players(), "seat")?;
        Self::ids(slf.py(), cards(this.state(), p))
    }
}

/// The state of a `Game` argument (a `TypeError` for anything else).
pub(crate) fn game_state(obj: &Bound<'_, PyAny>) -> PyResult<State> {
    let game = obj.downcast::<PyGame>().map_err(|_| {
        Class::InvalidType.err(format!(
            "game must be a yokai_septet.Game, not {} ({})",
            type_name(obj),
            shown(obj)
        ))
    })?;
    PyGame::read(game, |s| *s)
}

/// The argument `code` of `card_id`.
fn card_code(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    extract_text(obj, "code")
}

impl InUse for PyGame {
    fn in_use_error() -> PyErr {
        Class::GameInUse.err(
            "this Game is in use by another thread or call (a Game is not shared: a thread \
             may use it only while no other thread or call does): give each thread its own \
             Game, for example game.clone(), or guard it with a lock",
        )
    }
}

/// The configuration of `Game(...)`'s game settings, bound to their table
/// (`_settings_spec()["game"]`) as `VectorEnv(...)`'s are to theirs.
pub(super) fn game_config(
    what: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<GameConfig> {
    bind(&GAME, what, args, kwargs)?.game_config()
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(variant='4p', scoring='advanced', seed=0, *, episode='game', max_rounds=None)")]
    fn py_new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
        let config = game_config("Game", args, kwargs)?;
        Ok(PyGame::from_config(config))
    }

    /// Number of players: 4, or 3 in ``"3p"``.
    #[getter]
    fn num_players(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Self::read(slf, State::num_players)
    }

    /// Scoring sides: 2 teams (seats 0+2 and 1+3) in the four-player variants, 3 players
    /// in ``"3p"``.
    #[getter]
    fn num_sides(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Self::read(slf, |s| s.variant().num_sides())
    }

    /// The side ``seat`` plays for (its index in :attr:`round_margin`).
    fn side_of(slf: &Bound<'_, Self>, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        let v = Self::read(slf, State::variant)?;
        Ok(v.side_of(extract_seat(seat, v.num_players(), "seat")?))
    }

    /// What wins the game: the points target (7 advanced, 2 basic), or the seals to win in
    /// the seal variants (7, or 4 in ``"seal-short"``). A round's margin over it is on the
    /// game's scale.
    #[getter]
    fn target(slf: &Bound<'_, Self>) -> PyResult<u16> {
        Self::read(slf, |s| game_target(s.config()))
    }

    /// Each side's margin in the last round that ended (``list[float]``, one per side):
    /// the points (seal variants: seals) its side gained minus the other sides' average,
    /// as ``VectorEnv``'s ``infos["round_margin"]``; ``None`` before the first round ends.
    #[getter]
    fn round_margin(slf: &Bound<'_, Self>) -> PyResult<Option<Vec<f32>>> {
        Self::read(slf, |s| {
            let v = s.variant();
            s.last_round_result()
                .map(|r| round_margins(v, &r)[..v.num_sides()].to_vec())
        })
    }

    /// Size of the action space: 49, or 56 for the seal variants.
    #[getter]
    fn num_actions(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Self::read(slf, |s| s.config().num_actions())
    }

    /// The variant name: ``"4p"``, ``"3p"``, ``"seal"`` or ``"seal-short"``.
    #[getter]
    fn variant(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Self::read(slf, |s| s.variant().name())
    }

    /// The scoring mode (``None`` for the seal variants).
    #[getter]
    fn scoring(slf: &Bound<'_, Self>) -> PyResult<Option<&'static str>> {
        Self::read(slf, |s| {
            (!s.variant().is_seal()).then(|| s.config().scoring.name())
        })
    }

    /// The seed every deal comes from.
    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Self::read(slf, |s| s.config().seed)
    }

    /// ``"game"`` or ``"round"``.
    #[getter]
    fn episode(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Self::read(slf, |s| s.config().episode.name())
    }

    /// The round cap, or ``None``.
    #[getter]
    fn max_rounds(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        Self::read(slf, |s| s.config().max_rounds)
    }

    /// ``"pass"``, ``"play"`` or ``"over"``; ``"round_over"`` only after
    /// :meth:`step_in_round` ended a round, until :meth:`apply_deal`.
    #[getter]
    fn phase<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<&'py Bound<'py, PyString>> {
        Self::read(slf, |s| match s.phase() {
            Phase::Pass => intern!(py, "pass"),
            Phase::Play => intern!(py, "play"),
            Phase::RoundOver => intern!(py, "round_over"),
            Phase::Over => intern!(py, "over"),
        })
    }

    /// The seat whose decision it is; ``-1`` when the game is over.
    #[getter]
    fn current_player(slf: &Bound<'_, Self>) -> PyResult<i64> {
        Self::read(slf, |s| s.current_player().map_or(-1, |p| p as i64))
    }

    /// Round index (0-based) of the round in progress (or the last one, when over).
    #[getter]
    fn round(slf: &Bound<'_, Self>) -> PyResult<u32> {
        Self::read(slf, State::round)
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Self::read(slf, State::is_over)
    }

    /// Whether the game stopped at the round cap rather than by the rules.
    #[getter]
    fn truncated(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Self::read(slf, State::is_truncated)
    }

    /// The legal actions now: ascending card ids (``[]`` when the game is over).
    fn legal_actions<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Self::ids(py, Self::read(slf, State::legal_actions)?)
    }

    /// Applies one decision of the current player: a passing pick or a card play.
    ///
    /// ``a`` is a Python ``int`` or a numpy integer scalar; anything else (``bool``,
    /// ``float``, ``str``, ``None``, lists …) raises ``TypeError``. An integer that is not
    /// a legal action now raises :class:`IllegalActionError`. Either way the game is
    /// unchanged.
    fn step(slf: &Bound<'_, Self>, a: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let action = this.action_of(a)?;
        this.apply_raw(action)
    }

    /// ``seat``'s hand now, ascending card ids (during passing: the dealt hand, picked
    /// cards included). Full information: for tools and tests, not for agents.
    fn hand<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        Self::seat_cards(slf, seat, |s, p| s.hand(p))
    }

    /// The cards ``seat`` received in this round's exchange, ascending card ids (empty
    /// before the exchange). Full information, like :meth:`hand`.
    fn received<'py>(
        slf: &Bound<'py, Self>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        Self::seat_cards(slf, seat, |s, p| s.view(p).received_cards())
    }

    /// ``seat``'s passing picks this round, in the order made (full information).
    fn picks<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let this = borrow(slf)?;
        let p = extract_seat(seat, this.state().num_players(), "seat")?;
        PyList::new(py, this.state().picks(p).iter().map(|c| c.id()))
    }

    /// The cards of the trick in progress, in play order from its leader.
    #[getter]
    fn trick<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        Self::read(slf, |s| {
            PyList::new(py, s.trick_cards().iter().map(|c| c.id()))
        })?
    }

    /// The trump suit (0..6), or ``None`` in a seal round before its first lead.
    #[getter]
    fn trump_suit(slf: &Bound<'_, Self>) -> PyResult<Option<usize>> {
        Self::read(slf, |s| s.trump_suit().map(|s| s.index()))
    }

    /// The face-up trump card id, or ``None`` (always ``None`` in the seal variants).
    #[getter]
    fn trump_card(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        Self::read(slf, |s| s.trump_card().map(Card::id))
    }

    /// Scores per seat; teammates show their team's total. Seal variants: the number of
    /// suits the seat's team has sealed.
    #[getter]
    fn scores(slf: &Bound<'_, Self>) -> PyResult<Vec<u16>> {
        Self::read(slf, |s| s.scores()[..s.num_players()].to_vec())
    }

    /// Seats that won the game, ascending; ``[]`` until it is over.
    #[getter]
    fn winners(slf: &Bound<'_, Self>) -> PyResult<Vec<usize>> {
        Self::read(slf, |s| s.winners().collect())
    }

    /// An independent copy of this game.
    fn clone(slf: &Bound<'_, Self>) -> PyResult<PyGame> {
        Ok(Clone::clone(&*borrow(slf)?))
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<PyGame> {
        Ok(Clone::clone(&*borrow(slf)?))
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        Ok(Clone::clone(&*borrow(slf)?))
    }

    /// A repr never fails (debuggers and tracebacks call it): a game that another thread
    /// or call is changing shows as ``<Game in use>``.
    fn __repr__(slf: &Bound<'_, Self>) -> String {
        let Ok(this) = slf.try_borrow() else {
            return "<Game in use>".to_string();
        };
        let c = this.state().config();
        format!(
            "Game(variant={:?}, scoring={}, seed={}, episode={:?}, max_rounds={}, phase={:?}, round={}, current_player={})",
            c.variant.name(),
            if c.variant.is_seal() { "None".to_string() } else { format!("{:?}", c.scoring.name()) },
            c.seed,
            c.episode.name(),
            c.max_rounds.map_or("None".to_string(), |m| m.to_string()),
            this.state().phase().name(),
            this.state().round(),
            this.state().current_player().map_or(-1, |p| p as i64),
        )
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::read(slf, yokai_septet_picture::table_text)
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let this = borrow(slf)?;
        Ok(match other.downcast::<PyGame>() {
            Ok(o) => {
                let o = borrow(o)?;
                o.state() == this.state() && o.m.record() == this.m.record()
            }
            Err(_) => false,
        })
    }

    /// Unhashable (a game is mutable).
    #[classattr]
    const __hash__: Option<PyObject> = None;

    /// The text code of a card id (``"WA"``, ``"S13"``, ``"F7b"`` …).
    #[staticmethod]
    fn card_name(card: &Bound<'_, PyAny>) -> PyResult<String> {
        match extract_integer(card, "card")? {
            Some(v) if (0..56).contains(&v) => {
                Ok(Card::new(v as u8).unwrap_or(Card::ACE).to_string())
            }
            _ => Err(Class::InvalidValue.err(format!(
                "card {} is out of range: card ids are 0..55",
                card.repr()?
            ))),
        }
    }

    /// The card id of a text code (case-insensitive): ``"WA"`` → 0, ``"S13"`` → 48.
    #[staticmethod]
    fn card_id(#[pyo3(from_py_with = card_code)] code: String) -> PyResult<u8> {
        Ok(code.parse::<Card>().py()?.id())
    }
}
