//! Every Python exception the extension raises for a Rust error, decided here and only
//! here: the exception classes of the package, the one mapping from each public Rust
//! error type to its class (`From<…> for PyErr`, an exhaustive match per type, so a new
//! variant must be given its class), the typed "in use" errors of borrowed objects, and
//! [`guard`], which turns a Rust panic into a `RuntimeError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::arena::ArenaError;
use crate::bots::{BotError, WeightsError};
use crate::picture::RasterError;
use crate::vector::{PipelineError, StepError, VecCoreError};
use crate::{ConfigError, DealError, IllegalAction, ParseCardError, RecordError};

pyo3::create_exception!(
    yokai_septet,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now (not in hand, wrong suit, out of range, game over).\n\n\
     A subclass of ValueError. The game is left exactly as it was."
);

pyo3::create_exception!(
    yokai_septet,
    InUseError,
    PyRuntimeError,
    "An object used by two threads (or by a call made from inside another call on it) at \
     once.\n\n\
     A subclass of RuntimeError; the object is unchanged. Give each thread its own object, or \
     guard a shared one with a lock."
);

pyo3::create_exception!(
    yokai_septet,
    GameInUseError,
    InUseError,
    "A Game used by two threads (or by a call made from inside another call on it) at once.\n\n\
     A subclass of InUseError (and so of RuntimeError); the game is unchanged. Give each \
     thread its own Game (``game.clone()``), or guard a shared one with a lock."
);

pyo3::create_exception!(
    yokai_septet,
    VectorEnvInUseError,
    InUseError,
    "A VectorEnv used by two threads (or by a call made from inside another call on it) at \
     once.\n\n\
     A subclass of InUseError (and so of RuntimeError); the env is unchanged. Give each \
     thread its own VectorEnv, or guard a shared one with a lock."
);

/// A Python class whose methods borrow the object through [`borrow`] / [`borrow_mut`]:
/// a call that finds it borrowed by another thread (which released the GIL meanwhile) or
/// by an outer call on the same thread gets the class's typed error, not pyo3's bare
/// "Already borrowed" `RuntimeError`.
pub(crate) trait InUse: pyo3::PyClass {
    /// The error for a call that finds the object in use.
    fn in_use_error() -> PyErr;
}

/// Borrows `slf` for a reading method ([`InUse`]).
#[inline]
pub(crate) fn borrow<'py, T: InUse>(slf: &Bound<'py, T>) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow().map_err(|_| T::in_use_error())
}

/// Borrows `slf` for a changing method ([`InUse`]).
#[inline]
pub(crate) fn borrow_mut<'py, T: InUse<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'py, T>,
) -> PyResult<PyRefMut<'py, T>> {
    slf.try_borrow_mut().map_err(|_| T::in_use_error())
}

/// Runs `f`, turning a Rust panic into a Python `RuntimeError` (no panic may reach Python).
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let msg = e
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in {what}: {msg} (please report this bug)"
            )))
        }
    }
}

/// The Python class a Rust error becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exception {
    /// `ValueError`: a bad argument or input, named in the message.
    Value,
    /// `RuntimeError`: the object's state refuses the call (or the machine failed).
    Runtime,
    /// `IllegalActionError` (a `ValueError`): an action that is not legal now.
    IllegalAction,
}

impl Exception {
    /// The exception, with `message`.
    pub(crate) fn err(self, message: String) -> PyErr {
        match self {
            Exception::Value => PyValueError::new_err(message),
            Exception::Runtime => PyRuntimeError::new_err(message),
            Exception::IllegalAction => IllegalActionError::new_err(message),
        }
    }
}

/// A Rust error's Python class (and message: its `Display`, unless [`Classify::message`]
/// says more).
pub(crate) trait Classify: std::fmt::Display {
    /// The class.
    fn exception(&self) -> Exception;
    /// The message.
    fn message(&self) -> String {
        self.to_string()
    }
}

/// `e` as a Python exception whose message starts with `context` (what was being done).
pub(crate) fn in_context(context: &str, e: impl Classify) -> PyErr {
    e.exception().err(format!("{context}: {}", e.message()))
}

macro_rules! into_py_err {
    ($($ty:ty),+) => {$(
        impl From<$ty> for PyErr {
            fn from(e: $ty) -> PyErr {
                e.exception().err(e.message())
            }
        }
    )+};
}

into_py_err!(
    IllegalAction,
    ConfigError,
    DealError,
    RecordError,
    WeightsError,
    BotError,
    ArenaError,
    VecCoreError,
    StepError,
    PipelineError,
    ParseCardError,
    RasterError
);

impl Classify for IllegalAction {
    fn exception(&self) -> Exception {
        Exception::IllegalAction
    }
    fn message(&self) -> String {
        format!("illegal action: {self}")
    }
}

impl Classify for ConfigError {
    fn exception(&self) -> Exception {
        match self {
            ConfigError::UnknownVariant(_)
            | ConfigError::UnknownScoring(_)
            | ConfigError::UnknownEpisode(_)
            | ConfigError::ZeroRoundCap => Exception::Value,
        }
    }
}

impl Classify for DealError {
    fn exception(&self) -> Exception {
        match self {
            DealError::WrongHandCount { .. }
            | DealError::WrongHandSize { .. }
            | DealError::CardOutOfRange { .. }
            | DealError::Duplicate { .. }
            | DealError::TrumpCardExpected
            | DealError::TrumpCardUnexpected
            | DealError::NotAscending { .. }
            | DealError::MissingCards { .. } => Exception::Value,
            // The game's phase refuses a deal it could take later (or never): the deal
            // itself may be fine, so still the argument's error, as `apply_deal` documents.
            DealError::GameOver | DealError::RoundInProgress => Exception::Value,
        }
    }
}

impl Classify for ParseCardError {
    fn exception(&self) -> Exception {
        Exception::Value
    }
}

impl Classify for RasterError {
    fn exception(&self) -> Exception {
        Exception::Value
    }
}

impl Classify for RecordError {
    fn exception(&self) -> Exception {
        Exception::Value
    }
}

impl Classify for WeightsError {
    fn exception(&self) -> Exception {
        match self {
            WeightsError::Io { .. }
            | WeightsError::NotSafetensors(_)
            | WeightsError::Metadata { .. }
            | WeightsError::Tensor { .. } => Exception::Value,
        }
    }
}

impl Classify for BotError {
    fn exception(&self) -> Exception {
        match self {
            BotError::Unknown(_)
            | BotError::Weights { .. }
            | BotError::NoShippedModels { .. }
            | BotError::Unsupported { .. }
            | BotError::External { .. }
            | BotError::Snapshot { .. } => Exception::Value,
            // A bot asked to move where its seat has no decision.
            BotError::NoDecision { .. } => Exception::IllegalAction,
        }
    }
}

impl Classify for ArenaError {
    fn exception(&self) -> Exception {
        match self {
            ArenaError::Bot(e) => e.exception(),
            ArenaError::Lineup(_)
            | ArenaError::Range(_)
            | ArenaError::Merge(_)
            | ArenaError::Settings(_) => Exception::Value,
            ArenaError::ThreadPool(_) => Exception::Runtime,
        }
    }
}

impl Classify for VecCoreError {
    fn exception(&self) -> Exception {
        match self {
            VecCoreError::Bot(e) => e.exception(),
            VecCoreError::Opponents { .. }
            | VecCoreError::LearnerSeat { .. }
            | VecCoreError::LearnerTeam { .. } => Exception::Value,
            VecCoreError::ThreadPool(_) => Exception::Runtime,
        }
    }
}

impl Classify for StepError {
    fn exception(&self) -> Exception {
        match self {
            StepError::Length { .. } => Exception::Value,
            StepError::Illegal { .. } => Exception::IllegalAction,
            // An env whose episode ended waits for a reset (autoreset disabled).
            StepError::Over { .. } => Exception::Runtime,
        }
    }
}

impl Classify for PipelineError {
    fn exception(&self) -> Exception {
        match self {
            PipelineError::Step(e) => e.exception(),
            PipelineError::EnvIds(_) | PipelineError::BatchSize { .. } => Exception::Value,
            PipelineError::InFlight { .. }
            | PipelineError::NothingSent
            | PipelineError::NotHeld { .. }
            | PipelineError::Failed(_) => Exception::Runtime,
        }
    }
    fn message(&self) -> String {
        match self {
            PipelineError::Failed(_) => format!(
                "{self} (please report this bug); this VectorEnv is unusable: create a new one"
            ),
            _ => self.to_string(),
        }
    }
}

/// One example of every variant of every public error type the extension maps, as
/// `(type, variant, exception)`: the tests check each one's class and message.
#[pyfunction]
pub(crate) fn _error_examples(py: Python<'_>) -> Vec<(&'static str, &'static str, PyObject)> {
    use crate::{Card, Suit, Variant};
    let card = Card::new(0).expect("card 0");
    let bot = || BotError::Unknown("no-such-bot".into());
    let step = || StepError::Illegal {
        env: 3,
        action: IllegalAction::OutOfRange {
            action: 99,
            num_actions: 56,
        },
    };
    let weights = || WeightsError::NotSafetensors("header too short".into());
    let examples: Vec<(&str, &str, PyErr)> = vec![
        ("IllegalAction", "GameOver", IllegalAction::GameOver.into()),
        (
            "IllegalAction",
            "AwaitingDeal",
            IllegalAction::AwaitingDeal.into(),
        ),
        (
            "IllegalAction",
            "OutOfRange",
            IllegalAction::OutOfRange {
                action: 99,
                num_actions: 56,
            }
            .into(),
        ),
        (
            "IllegalAction",
            "NotInHand",
            IllegalAction::NotInHand { card, seat: 2 }.into(),
        ),
        (
            "IllegalAction",
            "AlreadyPicked",
            IllegalAction::AlreadyPicked { card, seat: 2 }.into(),
        ),
        (
            "IllegalAction",
            "MustFollowSuit",
            IllegalAction::MustFollowSuit {
                card,
                led: Suit::ALL[1],
            }
            .into(),
        ),
        (
            "ConfigError",
            "UnknownVariant",
            ConfigError::UnknownVariant("5p".into()).into(),
        ),
        (
            "ConfigError",
            "UnknownScoring",
            ConfigError::UnknownScoring("fancy".into()).into(),
        ),
        (
            "ConfigError",
            "UnknownEpisode",
            ConfigError::UnknownEpisode("games".into()).into(),
        ),
        (
            "ConfigError",
            "ZeroRoundCap",
            ConfigError::ZeroRoundCap.into(),
        ),
        (
            "DealError",
            "WrongHandCount",
            DealError::WrongHandCount {
                expected: 4,
                got: 3,
            }
            .into(),
        ),
        (
            "DealError",
            "WrongHandSize",
            DealError::WrongHandSize {
                seat: 1,
                expected: 13,
                got: 12,
            }
            .into(),
        ),
        (
            "DealError",
            "CardOutOfRange",
            DealError::CardOutOfRange {
                id: 99,
                deck_size: 56,
            }
            .into(),
        ),
        (
            "DealError",
            "Duplicate",
            DealError::Duplicate { card }.into(),
        ),
        (
            "DealError",
            "TrumpCardExpected",
            DealError::TrumpCardExpected.into(),
        ),
        (
            "DealError",
            "TrumpCardUnexpected",
            DealError::TrumpCardUnexpected.into(),
        ),
        (
            "DealError",
            "NotAscending",
            DealError::NotAscending { seat: 2 }.into(),
        ),
        (
            "DealError",
            "MissingCards",
            DealError::MissingCards {
                missing: "1 card".into(),
            }
            .into(),
        ),
        ("DealError", "GameOver", DealError::GameOver.into()),
        (
            "DealError",
            "RoundInProgress",
            DealError::RoundInProgress.into(),
        ),
        (
            "RecordError",
            "RecordError",
            RecordError {
                path: "moves[3]".into(),
                message: "not a card".into(),
            }
            .into(),
        ),
        (
            "WeightsError",
            "Io",
            WeightsError::Io {
                path: "m.safetensors".into(),
                message: "not found".into(),
            }
            .into(),
        ),
        ("WeightsError", "NotSafetensors", weights().into()),
        (
            "WeightsError",
            "Metadata",
            WeightsError::Metadata {
                key: "variant",
                problem: "missing".into(),
            }
            .into(),
        ),
        (
            "WeightsError",
            "Tensor",
            WeightsError::Tensor {
                name: "w0".into(),
                problem: "wrong shape".into(),
            }
            .into(),
        ),
        ("BotError", "Unknown", bot().into()),
        (
            "BotError",
            "Weights",
            BotError::Weights {
                name: "nn:m".into(),
                error: weights(),
            }
            .into(),
        ),
        (
            "BotError",
            "NoShippedModels",
            BotError::NoShippedModels { name: "nn".into() }.into(),
        ),
        (
            "BotError",
            "Unsupported",
            BotError::Unsupported {
                name: "nn:m".into(),
                variant: Variant::ThreePlayer,
                why: "a 4p model".into(),
            }
            .into(),
        ),
        (
            "BotError",
            "NoDecision",
            BotError::NoDecision {
                name: "random".into(),
            }
            .into(),
        ),
        (
            "BotError",
            "External",
            BotError::External {
                name: "mod:policy".into(),
                message: "the policy mod:policy raised KeyError".into(),
            }
            .into(),
        ),
        (
            "BotError",
            "Snapshot",
            BotError::Snapshot {
                name: "random".into(),
                why: "it cannot be restored (given 3 words)".into(),
            }
            .into(),
        ),
        (
            "ParseCardError",
            "ParseCardError",
            ParseCardError {
                token: "ZZ".into(),
                reason: "no suit Z",
            }
            .into(),
        ),
        (
            "RasterError",
            "RasterError",
            RasterError("scale must be in (0, 8], got 9".into()).into(),
        ),
        ("ArenaError", "Bot", ArenaError::Bot(bot()).into()),
        (
            "ArenaError",
            "Lineup",
            ArenaError::Lineup("3 bots for 4 seats".into()).into(),
        ),
        (
            "ArenaError",
            "Range",
            ArenaError::Range("games 10..5 are not within 0..8".into()).into(),
        ),
        (
            "ArenaError",
            "Merge",
            ArenaError::Merge("slices overlap at game 4".into()).into(),
        ),
        (
            "ArenaError",
            "ThreadPool",
            ArenaError::ThreadPool("out of threads".into()).into(),
        ),
        (
            "ArenaError",
            "Settings",
            ArenaError::Settings("games 0 is out of range".into()).into(),
        ),
        ("VecCoreError", "Bot", VecCoreError::Bot(bot()).into()),
        (
            "VecCoreError",
            "Opponents",
            VecCoreError::Opponents { given: 3, seats: 4 }.into(),
        ),
        (
            "VecCoreError",
            "LearnerSeat",
            VecCoreError::LearnerSeat { seat: 3, seats: 3 }.into(),
        ),
        (
            "VecCoreError",
            "LearnerTeam",
            VecCoreError::LearnerTeam {
                side: Some(1),
                teams: false,
            }
            .into(),
        ),
        (
            "VecCoreError",
            "ThreadPool",
            VecCoreError::ThreadPool("out of threads".into()).into(),
        ),
        (
            "StepError",
            "Length",
            StepError::Length {
                expected: 8,
                got: 7,
            }
            .into(),
        ),
        ("StepError", "Illegal", step().into()),
        ("StepError", "Over", StepError::Over { env: 5 }.into()),
        (
            "PipelineError",
            "BatchSize",
            PipelineError::BatchSize {
                batch_size: 3,
                num_envs: 8,
            }
            .into(),
        ),
        (
            "PipelineError",
            "InFlight",
            PipelineError::InFlight { groups: 2 }.into(),
        ),
        (
            "PipelineError",
            "NothingSent",
            PipelineError::NothingSent.into(),
        ),
        (
            "PipelineError",
            "NotHeld",
            PipelineError::NotHeld { group: 1 }.into(),
        ),
        (
            "PipelineError",
            "EnvIds",
            PipelineError::EnvIds("env 9 is not in batch 0".into()).into(),
        ),
        ("PipelineError", "Step", PipelineError::Step(step()).into()),
        (
            "PipelineError",
            "Failed",
            PipelineError::Failed("a worker panicked".into()).into(),
        ),
    ];
    examples
        .into_iter()
        .map(|(t, v, e)| (t, v, e.into_value(py).into_any()))
        .collect()
}
