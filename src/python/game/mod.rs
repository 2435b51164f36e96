//! `yokai_septet.Game`: one game, a thin wrapper over [`State`] plus its action history.

use crate::python::errors::{InvalidTypeError, InvalidValueError};
use numpy::{PyArray1, PyArray3};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};

use super::convert::{extract_integer, extract_seat, parse_config, type_name, Arg};
use super::errors::{
    borrow, borrow_mut, guard, in_context, GameInUseError, IllegalActionError, InUse,
};
use super::json::{json_to_py, py_to_json};
use crate::cards::{Card, CardSet};
use crate::record::Match;
use crate::rl::layout::Field;
use crate::rl::observation::observation_size;
use crate::rl::state_tensor::state_size;
use crate::rules::config::GameConfig;
use crate::rules::state::{Phase, State};
use crate::solver::Solver;

mod deals;
mod pictures;
mod play;
mod tensors;

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

/// The game a Python record (a ``dict`` or its JSON text) describes, validated; a bad
/// record is a ``ValueError`` naming the field. `what` names the caller in a panic's
/// message.
pub(crate) fn match_from_record(
    py: Python<'_>,
    rec: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Match> {
    if let Ok(text) = rec.downcast::<PyString>() {
        let text = text.to_cow()?.into_owned();
        py.allow_threads(|| guard(what, || Ok(Match::from_json(&text)?)))
    } else {
        let value = py_to_json(rec, &mut String::new())?;
        guard(what, || Ok(Match::from_record(&value)?))
    }
}

impl PyGame {
    /// `ValueError` unless a card is to be played now (the solver's positions).
    fn check_play(&self, what: &str) -> PyResult<()> {
        match self.state().phase() {
            Phase::Play => Ok(()),
            Phase::Pass => Err(InvalidValueError::new_err(format!(
                "{what}: the round is in its passing phase; the solver scores card plays"
            ))),
            Phase::RoundOver => Err(InvalidValueError::new_err(format!(
                "{what}: the round is over and the next one is not dealt yet"
            ))),
            Phase::Over => Err(InvalidValueError::new_err(format!(
                "{what}: the game is over"
            ))),
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
            Err(e) => Err(e.into()),
        }
    }

    /// The action number `a` names (`TypeError` unless an integer; an integer too big for
    /// any card is an `IllegalActionError`).
    fn action_of(&self, a: &Bound<'_, PyAny>) -> PyResult<i128> {
        match extract_integer(a, "action")? {
            Some(v) => Ok(v),
            None => Err(IllegalActionError::new_err(format!(
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
        let p = extract_seat(seat, this.state().num_players())?;
        Self::ids(slf.py(), cards(this.state(), p))
    }

    /// A `ValueError` for a determinization, which has no history to record.
    fn check_has_record(&self) -> PyResult<()> {
        if self.m.has_record() {
            Ok(())
        } else {
            Err(InvalidValueError::new_err(
                "this game is a determinization (Game.sample_determinization): its hidden \
                 cards were sampled, not dealt and played, so it has no record",
            ))
        }
    }
}

/// The state of a `Game` argument (a `TypeError` for anything else).
pub(crate) fn game_state(obj: &Bound<'_, PyAny>) -> PyResult<crate::rules::state::State> {
    let game = obj.downcast::<PyGame>().map_err(|_| {
        InvalidTypeError::new_err(format!(
            "expected a yokai_septet.Game, not {}",
            type_name(obj)
        ))
    })?;
    let state = *borrow(game)?.state();
    Ok(state)
}

impl InUse for PyGame {
    fn in_use_error() -> PyErr {
        GameInUseError::new_err(
            "this Game is in use by another thread or call (a Game is not shared: a thread \
             may use it only while no other thread or call does): give each thread its own \
             Game, for example game.clone(), or guard it with a lock",
        )
    }
}

/// The configuration of `Game(...)`'s arguments, with its defaults.
pub(super) fn game_config(
    py: Python<'_>,
    variant: Arg<'_>,
    scoring: Arg<'_>,
    seed: Arg<'_>,
    episode: Arg<'_>,
    max_rounds: Arg<'_>,
) -> PyResult<GameConfig> {
    parse_config(
        &variant.or(intern!(py, "4p")),
        &scoring.or(intern!(py, "advanced")),
        &seed.or(&0i64.into_bound_py_any(py)?),
        &episode.or(intern!(py, "game")),
        max_rounds.0.as_ref(),
    )
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(
        signature = (variant = Arg(None), scoring = Arg(None), seed = Arg(None), *, episode = Arg(None), max_rounds = Arg(None)),
        text_signature = "(variant='4p', scoring='advanced', seed=0, *, episode='game', max_rounds=None)"
    )]
    fn py_new(
        py: Python<'_>,
        variant: Arg<'_>,
        scoring: Arg<'_>,
        seed: Arg<'_>,
        episode: Arg<'_>,
        max_rounds: Arg<'_>,
    ) -> PyResult<PyGame> {
        let config = game_config(py, variant, scoring, seed, episode, max_rounds)?;
        Ok(PyGame::from_config(config))
    }

    /// Number of players: 4, or 3 in ``"3p"``.
    #[getter]
    fn num_players(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let this = borrow(slf)?;
        Ok(this.state().num_players())
    }

    /// Size of the action space: 49, or 56 for the seal variants.
    #[getter]
    fn num_actions(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let this = borrow(slf)?;
        Ok(this.state().config().num_actions())
    }

    /// The variant name: ``"4p"``, ``"3p"``, ``"seal"`` or ``"seal-short"``.
    #[getter]
    fn variant(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        let this = borrow(slf)?;
        Ok(this.state().variant().name())
    }

    /// The scoring mode (``None`` for the seal variants).
    #[getter]
    fn scoring(slf: &Bound<'_, Self>) -> PyResult<Option<&'static str>> {
        let this = borrow(slf)?;
        Ok((!this.state().variant().is_seal()).then(|| this.state().config().scoring.name()))
    }

    /// The seed every deal comes from.
    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        let this = borrow(slf)?;
        Ok(this.state().config().seed)
    }

    /// ``"game"`` or ``"round"``.
    #[getter]
    fn episode(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        let this = borrow(slf)?;
        Ok(this.state().config().episode.name())
    }

    /// The round cap, or ``None``.
    #[getter]
    fn max_rounds(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        let this = borrow(slf)?;
        Ok(this.state().config().max_rounds)
    }

    /// ``"pass"``, ``"play"`` or ``"over"``; ``"round_over"`` only after
    /// :meth:`step_in_round` ended a round, until :meth:`apply_deal`.
    #[getter]
    fn phase<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<&'py Bound<'py, PyString>> {
        let this = borrow(slf)?;
        Ok(match this.state().phase() {
            Phase::Pass => intern!(py, "pass"),
            Phase::Play => intern!(py, "play"),
            Phase::RoundOver => intern!(py, "round_over"),
            Phase::Over => intern!(py, "over"),
        })
    }

    /// The seat whose decision it is; ``-1`` when the game is over.
    #[getter]
    fn current_player(slf: &Bound<'_, Self>) -> PyResult<i64> {
        let this = borrow(slf)?;
        Ok(this.state().current_player().map_or(-1, |p| p as i64))
    }

    /// Round index (0-based) of the round in progress (or the last one, when over).
    #[getter]
    fn round(slf: &Bound<'_, Self>) -> PyResult<u32> {
        let this = borrow(slf)?;
        Ok(this.state().round())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let this = borrow(slf)?;
        Ok(this.state().is_over())
    }

    /// Whether the game stopped at the round cap rather than by the rules.
    #[getter]
    fn truncated(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let this = borrow(slf)?;
        Ok(this.state().is_truncated())
    }

    /// The legal actions now: ascending card ids (``[]`` when the game is over).
    fn legal_actions<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let this = borrow(slf)?;
        Self::ids(py, this.state().legal_actions())
    }

    /// The legal actions as a numpy ``bool`` array of shape ``(num_actions,)``.
    ///
    /// With ``out=`` (a writable, contiguous ``bool`` array of that shape) the mask is written
    /// there and ``out`` is returned, with no allocation.
    #[pyo3(signature = (out = None))]
    fn legal_mask<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray1<bool>>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        tensors::legal_mask(slf, py, out)
    }

    /// Length of the observation vector (``observation()``'s shape is ``(observation_size,)``).
    #[getter]
    fn observation_size(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let this = borrow(slf)?;
        Ok(observation_size(this.state().variant()))
    }

    /// ``seat``'s information-state vector (numpy ``float32``; default seat: the current
    /// player). Everything public is in every seat's vector, plus what that seat saw
    /// privately; never another seat's hidden cards. Fields: :meth:`layout`.
    ///
    /// With ``out=`` (a writable, contiguous ``float32`` or ``uint8`` array of shape
    /// ``(observation_size,)``) the vector is written there and ``out`` is returned.
    /// After the end, pass ``seat`` explicitly (there is no current player).
    #[pyo3(signature = (seat = None, out = None))]
    fn observation<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        tensors::observation(slf, py, seat, out)
    }

    /// The observation's fields, in vector order: a list of dicts with ``name``,
    /// ``offset``, ``len`` and ``meaning``.
    fn layout<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        tensors::layout(slf, py)
    }

    /// Length of the privileged state tensor (``state_tensor()``'s shape is ``(state_size,)``).
    #[getter]
    fn state_size(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let this = borrow(slf)?;
        Ok(state_size(this.state().variant()))
    }

    /// The privileged, full-information state (docs/state_tensor.md) as a flat ``float32``
    /// (or, with ``dtype="uint8"``, ``uint8``) array: every seat's hand and passing picks,
    /// then seat 0's observation (everything public). For centralized critics; it shows
    /// hidden cards, so never give it to a policy that plays. Fields: :meth:`state_layout`.
    #[pyo3(signature = (dtype = "float32"))]
    fn state_tensor<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        dtype: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        tensors::state_tensor(slf, py, dtype)
    }

    /// The state tensor's fields, in vector order (dicts like :meth:`layout`'s).
    fn state_layout<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        tensors::state_layout(slf, py)
    }

    /// Like :meth:`step`, and returns every seat's reward for this step (``list[float]``)
    /// under ``reward_mode``: ``"win"`` (+1 winners, -1 others when the game ends) or
    /// ``"points"`` (at each round's end: points gained minus the opponents' average).
    #[pyo3(signature = (a, reward_mode = "win"))]
    fn step_rewards(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        reward_mode: &str,
    ) -> PyResult<Vec<f32>> {
        play::step_rewards(slf, a, reward_mode)
    }

    /// Lets ``bots`` (a list of :class:`Bot`, one per seat; the learner's is not used)
    /// play until it is ``learner_seat``'s turn or the game is over, and returns the
    /// learner's reward summed over their moves under ``reward_mode`` (the single-agent
    /// env's loop, run in Rust with the GIL released).
    #[pyo3(signature = (bots, learner_seat, reward_mode = "win"))]
    fn play_bots(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        bots: &Bound<'_, PyAny>,
        learner_seat: &Bound<'_, PyAny>,
        reward_mode: &str,
    ) -> PyResult<f64> {
        play::play_bots(slf, py, bots, learner_seat, reward_mode)
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
        let p = extract_seat(seat, this.state().num_players())?;
        PyList::new(py, this.state().picks(p).iter().map(|c| c.id()))
    }

    /// The cards of the trick in progress, in play order from its leader.
    #[getter]
    fn trick<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let this = borrow(slf)?;
        PyList::new(py, this.state().trick_cards().iter().map(|c| c.id()))
    }

    /// The trump suit (0..6), or ``None`` in a seal round before its first lead.
    #[getter]
    fn trump_suit(slf: &Bound<'_, Self>) -> PyResult<Option<usize>> {
        let this = borrow(slf)?;
        Ok(this.state().trump_suit().map(|s| s.index()))
    }

    /// The face-up trump card id, or ``None`` (always ``None`` in the seal variants).
    #[getter]
    fn trump_card(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        let this = borrow(slf)?;
        Ok(this.state().trump_card().map(Card::id))
    }

    /// Scores per seat; teammates show their team's total. Seal variants: the number of
    /// suits the seat's team has sealed.
    #[getter]
    fn scores(slf: &Bound<'_, Self>) -> PyResult<Vec<u16>> {
        let this = borrow(slf)?;
        Ok(this.state().scores()[..this.state().num_players()].to_vec())
    }

    /// Seats that won the game, ascending; ``[]`` until it is over.
    #[getter]
    fn winners(slf: &Bound<'_, Self>) -> PyResult<Vec<usize>> {
        let this = borrow(slf)?;
        Ok(this.state().winners().collect())
    }

    /// An independent copy of this game.
    fn clone(slf: &Bound<'_, Self>) -> PyResult<PyGame> {
        let this = borrow(slf)?;
        Ok(Clone::clone(&*this))
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<PyGame> {
        let this = borrow(slf)?;
        Ok(Clone::clone(&*this))
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let this = borrow(slf)?;
        Ok(Clone::clone(&*this))
    }

    /// The game record: a JSON-serialisable ``dict`` (schema in docs/records.md).
    fn record<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        json_to_py(py, &this.m.record().to_value())
    }

    /// The game record as a JSON string.
    fn record_json(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        Ok(this.m.record().to_json())
    }

    /// A new game whose first round is dealt ``hands`` (one list of card ids per seat)
    /// with the face-up card ``trump_card`` (``None`` in the seal variants); later rounds
    /// come from the seed, or from :meth:`redeal`. Other arguments as for ``Game``. A deal
    /// that is not exactly the variant's deck in hands of the right sizes is a
    /// ``ValueError`` saying what is wrong.
    #[staticmethod]
    #[pyo3(
        signature = (hands, trump_card = None, variant = Arg(None), scoring = Arg(None), seed = Arg(None), *, episode = Arg(None), max_rounds = Arg(None)),
        text_signature = "(hands, trump_card=None, variant='4p', scoring='advanced', seed=0, *, episode='game', max_rounds=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn from_deal(
        py: Python<'_>,
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
        variant: Arg<'_>,
        scoring: Arg<'_>,
        seed: Arg<'_>,
        episode: Arg<'_>,
        max_rounds: Arg<'_>,
    ) -> PyResult<PyGame> {
        let config = game_config(py, variant, scoring, seed, episode, max_rounds)?;
        let deal = deals::parse_deal(config.variant, hands, trump_card)?;
        let mut m = Match::new(config);
        m.apply_deal(deal)
            .map_err(|e| in_context("cannot deal", e))?;
        Ok(PyGame { m })
    }

    /// Deals ``hands`` and ``trump_card`` (as for :meth:`from_deal`): the next round when
    /// a round is over (``phase == "round_over"``, after :meth:`step_in_round`), or a new
    /// deal for the round in progress before its first passing pick, e.g. when the deal
    /// of each round comes from outside. At any other time, or for an invalid deal, a
    /// ``ValueError``, and the game is unchanged.
    #[pyo3(signature = (hands, trump_card = None))]
    fn apply_deal(
        slf: &Bound<'_, Self>,
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        deals::apply_deal(slf, hands, trump_card)
    }

    /// The former name of :meth:`apply_deal` (before a round's first passing pick, or
    /// when a round is over).
    #[pyo3(signature = (hands, trump_card = None))]
    fn redeal(
        slf: &Bound<'_, Self>,
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        deals::redeal(slf, hands, trump_card)
    }

    /// As :meth:`step`, but an action that ends a round (and not the game) stops at the
    /// finished round's last position: ``phase`` is ``"round_over"`` (captures, scores and
    /// the last trick still visible) until :meth:`apply_deal` deals the next round.
    fn step_in_round(slf: &Bound<'_, Self>, a: &Bound<'_, PyAny>) -> PyResult<()> {
        deals::step_in_round(slf, a)
    }

    /// A copy of this game in which every card ``seat`` cannot see is re-dealt at random,
    /// consistently with all that ``seat`` knows (hand sizes, shown voids, cards it passed),
    /// each consistent deal equally likely; ``seed`` fixes the draw. During passing the
    /// other seats' hidden picks are drawn too. Later rounds are dealt from a seed drawn
    /// from ``seed`` (the true one would reveal them). For search bots (IS-MCTS,
    /// determinized playouts). The copy plays on like any game but has no
    /// :meth:`record`. With ``belief=True`` the deals of the play phase are drawn in
    /// proportion to the shipped belief model's probabilities (:meth:`belief`; the `-inf`
    /// bots' worlds, ``docs/inference.md``), under the same constraints; ``ValueError``
    /// for a variant with no belief model.
    #[pyo3(signature = (seat, seed = None, belief = false))]
    fn sample_determinization(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        belief: bool,
    ) -> PyResult<PyGame> {
        deals::sample_determinization(slf, py, seat, seed, belief)
    }

    /// What ``seat`` believes about the cards it cannot see, by the shipped belief model of
    /// the variant (``docs/inference.md``): a ``float32`` array ``[num_actions,
    /// num_players]``, the exact probability that each seat holds each card in the deals
    /// that ``sample_determinization(seat, belief=True)`` draws. For every card ``seat``
    /// cannot see the row sums to 1 over the seats that may hold it (hand sizes, voids,
    /// cards passed); a card whose holder is known has 1 there; other rows (its own cards,
    /// cards played) are 0. ``ValueError`` for a variant with no belief model.
    fn belief<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        deals::belief(slf, py, seat)
    }

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

    /// Rebuilds a game by replaying ``rec`` (a record ``dict``, or its JSON text),
    /// validating every action and every derived field; a ``ValueError`` names the first
    /// field (round, trick) that disagrees. ``Game.from_record(r).record() == r``.
    #[staticmethod]
    fn from_record(py: Python<'_>, rec: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        Ok(PyGame {
            m: match_from_record(py, rec, "Game.from_record")?,
        })
    }

    /// Pickling goes through the record (``Game.from_record(self.record())``).
    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let this = borrow(slf)?;
        this.check_has_record()?;
        let ctor = py.get_type::<PyGame>().getattr("from_record")?;
        let args = (this.m.record().to_json(),).into_bound_py_any(py)?;
        PyTuple::new(py, [ctor.into_any(), args])
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
        let this = borrow(slf)?;
        Ok(this.state().to_string())
    }

    /// The table as text: ``seat=None`` gives every hand (``str(game)``); a seat gives
    /// that seat's view, the other hands only counted.
    #[pyo3(signature = (seat = None))]
    fn to_text(slf: &Bound<'_, Self>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        pictures::to_text(slf, seat)
    }

    /// The table as an SVG document (``str``, 960×640): card faces in the suit colours,
    /// hands, the trick, captured bosses, trick counts, trump, scores and seals.
    /// ``seat=None`` shows every hand; a seat shows that seat's view, built from what it
    /// may know only (the other hands face down).
    #[pyo3(signature = (seat = None))]
    fn to_svg(slf: &Bound<'_, Self>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        pictures::to_svg(slf, seat)
    }

    /// :meth:`to_svg` rasterised: a numpy ``uint8`` array of shape ``(H, W, 3)``
    /// (``(640, 960, 3)`` at ``scale=1.0``), the same pixels on every machine (the font
    /// is bundled).
    #[pyo3(signature = (seat = None, scale = 1.0))]
    fn to_rgb_array<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        scale: f64,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        pictures::to_rgb_array(slf, py, seat, scale)
    }

    /// :meth:`to_svg` rasterised as PNG file bytes.
    #[pyo3(signature = (seat = None, scale = 1.0))]
    fn to_png<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        scale: f64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        pictures::to_png(slf, py, seat, scale)
    }

    /// The HTML replay viewer of the game so far (``str``): one self-contained page
    /// that steps through every round and trick (as ``yokai-septet replay --html``).
    fn replay_html(slf: &Bound<'_, Self>) -> PyResult<String> {
        pictures::replay_html(slf)
    }

    /// Notebooks show the whole table as SVG.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        pictures::_repr_svg_(slf)
    }

    /// Notebooks show the whole table as SVG (inline in HTML).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        pictures::_repr_html_(slf)
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
            _ => Err(InvalidValueError::new_err(format!(
                "card {} is out of range: card ids are 0..55",
                card.repr()?
            ))),
        }
    }

    /// The card id of a text code (case-insensitive): ``"WA"`` → 0, ``"S13"`` → 48.
    #[staticmethod]
    fn card_id(code: &str) -> PyResult<u8> {
        Ok(code.parse::<Card>()?.id())
    }
}

/// Layout fields as Python dicts with ``name``, ``offset``, ``len`` and ``meaning``.
pub(super) fn field_dicts<'py>(
    py: Python<'py>,
    fields: &[Field],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    fields
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("name", f.name)?;
            d.set_item("offset", f.offset)?;
            d.set_item("len", f.len)?;
            d.set_item("meaning", f.meaning)?;
            Ok(d)
        })
        .collect()
}
