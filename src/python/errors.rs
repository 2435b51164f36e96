//! Every Python exception the extension raises for a Rust error, decided here and only
//! here: the exception classes of the package, the one mapping from each public Rust
//! error type to its class (`From<…> for PyErr`, an exhaustive match per type, so a new
//! variant must be given its class), the typed "in use" errors of borrowed objects, and
//! [`guard`], which turns a Rust panic into a `RuntimeError` (a bug, outside the
//! family: `yokai_septet.Error` is what the package raises on purpose).

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::arena::ArenaError;
use crate::bots::{BotError, WeightsError};
use crate::picture::RasterError;
use crate::vector::{PipelineError, StepError, VecCoreError};
use crate::{ConfigError, DealError, IllegalAction, ParseCardError, RecordError};

/// The exception classes of the package, in creation order (each base before its
/// subclasses): `yokai_septet.Error` and its subclasses, each also a subclass of the
/// builtin exception the package raised before the family existed, so that `except
/// ValueError` still catches an illegal action.
const FAMILY: [(Class, &str, Option<Class>, Builtin, &str); 9] = [
    (
        Class::Error,
        "Error",
        None,
        Builtin::Exception,
        "The base of every exception yokai_septet raises on purpose: ``except \
         yokai_septet.Error`` catches them all (a bug, an internal ``RuntimeError`` saying \
         so, is not one of them).",
    ),
    (
        Class::InvalidValue,
        "InvalidValueError",
        Some(Class::Error),
        Builtin::Value,
        "An argument or input with a wrong value (out of range, an unknown name, a \
         malformed record or weights file), named in the message.\n\n\
         A subclass of yokai_septet.Error and of ValueError.",
    ),
    (
        Class::InvalidType,
        "InvalidTypeError",
        Some(Class::Error),
        Builtin::Type,
        "An argument of the wrong type, named in the message.\n\n\
         A subclass of yokai_septet.Error and of TypeError.",
    ),
    (
        Class::State,
        "StateError",
        Some(Class::Error),
        Builtin::Runtime,
        "A call the object's present state refuses (an ended episode not reset, batches \
         in flight, a bot that failed before), or that the machine could not serve (no \
         thread pool).\n\n\
         A subclass of yokai_septet.Error and of RuntimeError.",
    ),
    (
        Class::IllegalAction,
        "IllegalActionError",
        Some(Class::InvalidValue),
        Builtin::None,
        "An action that is not legal now (not in hand, wrong suit, out of range, game \
         over).\n\n\
         A subclass of InvalidValueError (so of yokai_septet.Error and of ValueError). The \
         game is left exactly as it was.",
    ),
    (
        Class::InUse,
        "InUseError",
        Some(Class::State),
        Builtin::None,
        "An object used by two threads (or by a call made from inside another call on it) \
         at once.\n\n\
         A subclass of StateError (so of yokai_septet.Error and of RuntimeError); the \
         object is unchanged. Give each thread its own object, or guard a shared one with \
         a lock.",
    ),
    (
        Class::GameInUse,
        "GameInUseError",
        Some(Class::InUse),
        Builtin::None,
        "A Game used by two threads (or by a call made from inside another call on it) at \
         once.\n\n\
         A subclass of InUseError (and so of RuntimeError); the game is unchanged. Give \
         each thread its own Game (``game.clone()``), or guard a shared one with a lock.",
    ),
    (
        Class::VectorEnvInUse,
        "VectorEnvInUseError",
        Some(Class::InUse),
        Builtin::None,
        "A VectorEnv used by two threads (or by a call made from inside another call on it) \
         at once.\n\n\
         A subclass of InUseError (and so of RuntimeError); the env is unchanged. Give \
         each thread its own VectorEnv, or guard a shared one with a lock.",
    ),
    (
        Class::MissingExtra,
        "MissingExtraError",
        Some(Class::Error),
        Builtin::ModuleNotFound,
        "A feature whose optional dependency is not installed; the message names the extra \
         of yokai-septet that installs it.\n\n\
         A subclass of yokai_septet.Error and of ModuleNotFoundError.",
    ),
];

/// A class of the family ([`FAMILY`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Error,
    InvalidValue,
    InvalidType,
    State,
    IllegalAction,
    InUse,
    GameInUse,
    VectorEnvInUse,
    MissingExtra,
}

/// The builtin exception a class of the family also derives from.
#[derive(Clone, Copy)]
enum Builtin {
    None,
    Exception,
    Value,
    Type,
    Runtime,
    ModuleNotFound,
}

impl Builtin {
    fn get(self, py: Python<'_>) -> Option<Bound<'_, PyType>> {
        use pyo3::exceptions::{PyException, PyModuleNotFoundError, PyTypeError};
        Some(match self {
            Builtin::None => return None,
            Builtin::Exception => py.get_type::<PyException>(),
            Builtin::Value => py.get_type::<PyValueError>(),
            Builtin::Type => py.get_type::<PyTypeError>(),
            Builtin::Runtime => py.get_type::<PyRuntimeError>(),
            Builtin::ModuleNotFound => py.get_type::<PyModuleNotFoundError>(),
        })
    }
}

/// The family's classes, created once (in [`FAMILY`]'s order) with their two bases each.
static CLASSES: GILOnceCell<Vec<Py<PyType>>> = GILOnceCell::new();

fn classes(py: Python<'_>) -> PyResult<&Vec<Py<PyType>>> {
    CLASSES.get_or_try_init(py, || {
        let mut made: Vec<Py<PyType>> = Vec::with_capacity(FAMILY.len());
        for (class, name, parent, builtin, doc) in FAMILY {
            debug_assert_eq!(class as usize, made.len());
            let mut bases: Vec<Bound<'_, PyType>> = Vec::new();
            if let Some(parent) = parent {
                bases.push(made[parent as usize].bind(py).clone());
            }
            bases.extend(builtin.get(py));
            let dict = PyDict::new(py);
            dict.set_item("__doc__", doc)?;
            dict.set_item("__module__", "yokai_septet")?;
            let ty = py
                .get_type::<PyType>()
                .call1((name, PyTuple::new(py, bases)?, dict))?
                .downcast_into::<PyType>()?;
            made.push(ty.unbind());
        }
        Ok(made)
    })
}

impl Class {
    /// The Python class.
    pub(crate) fn get(self, py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
        Ok(classes(py)?[self as usize].bind(py).clone())
    }

    /// An exception of this class with `message`.
    pub(crate) fn err(self, message: impl Into<String>) -> PyErr {
        let message = message.into();
        Python::with_gil(|py| match self.get(py) {
            Ok(ty) => PyErr::from_type(ty, message),
            Err(e) => e,
        })
    }
}

/// Adds every class of the family to the module `m`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for (class, name, ..) in FAMILY {
        m.add(name, class.get(m.py())?)?;
    }
    Ok(())
}

macro_rules! family_constructors {
    ($($ty:ident => $class:ident),+ $(,)?) => {$(
        #[doc = concat!("`yokai_septet.", stringify!($ty), "`, built as pyo3's exceptions are.")]
        pub(crate) struct $ty;
        impl $ty {
            pub(crate) fn new_err(message: impl Into<String>) -> PyErr {
                Class::$class.err(message)
            }
        }
    )+};
}

family_constructors!(
    InvalidValueError => InvalidValue,
    InvalidTypeError => InvalidType,
    StateError => State,
    IllegalActionError => IllegalAction,
    GameInUseError => GameInUse,
    VectorEnvInUseError => VectorEnvInUse,
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
    /// `InvalidValueError` (a `ValueError`): a bad argument or input, named in the message.
    Value,
    /// `StateError` (a `RuntimeError`): the object's state refuses the call (or the
    /// machine failed).
    Runtime,
    /// `IllegalActionError` (an `InvalidValueError`): an action that is not legal now.
    IllegalAction,
}

impl Exception {
    /// The exception, with `message`.
    pub(crate) fn err(self, message: String) -> PyErr {
        match self {
            Exception::Value => Class::InvalidValue.err(message),
            Exception::Runtime => Class::State.err(message),
            Exception::IllegalAction => Class::IllegalAction.err(message),
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
            | BotError::Spec { .. }
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
