//! Every Python exception the extension raises for a Rust error, decided here and only
//! here: the exception classes of the package (one enum, [`Class`]: each class raises
//! its errors with [`Class::err`]), the one mapping from each public Rust error type to
//! its class (`From<…> for PyErr`, an exhaustive match per type, so a new variant must
//! be given its class), the typed "in use" errors of borrowed objects, and [`guard`],
//! which turns a Rust panic into a `RuntimeError` (a bug, outside the family:
//! `yokai_septet.Error` is what the package raises on purpose).

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{
    PyException, PyModuleNotFoundError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};
use pyo3::PyTypeInfo;

use yokai_septet::{ConfigError, DealError, IllegalAction, ParseCardError, RecordError};
use yokai_septet_bots::arena::ArenaError;
use yokai_septet_bots::{BotError, WeightsError};
use yokai_septet_picture::RasterError;
use yokai_septet_vector::{PipelineError, StepError, VecCoreError};

/// The builtin exception a class of the family also derives from.
type Builtin = for<'py> fn(Python<'py>) -> Bound<'py, PyType>;

/// The builtin exception `T` (a [`Builtin`]).
fn builtin<T: PyTypeInfo>(py: Python<'_>) -> Bound<'_, PyType> {
    py.get_type::<T>()
}

/// A class of the family, its name, its base in the family, its builtin base, its doc.
type Member = (
    Class,
    &'static str,
    Option<Class>,
    Option<Builtin>,
    &'static str,
);

/// The exception classes of the package, in creation order (each base before its
/// subclasses): `yokai_septet.Error` and its subclasses, each also a subclass of the
/// builtin exception the package raised before the family existed, so that `except
/// ValueError` still catches an illegal action.
const FAMILY: [Member; 9] = [
    (
        Class::Error,
        "Error",
        None,
        Some(builtin::<PyException>),
        "The base of every exception yokai_septet raises on purpose: ``except \
         yokai_septet.Error`` catches them all (a bug, an internal ``RuntimeError`` saying \
         so, is not one of them).",
    ),
    (
        Class::InvalidValue,
        "InvalidValueError",
        Some(Class::Error),
        Some(builtin::<PyValueError>),
        "An argument or input with a wrong value (out of range, an unknown name, a \
         malformed record or weights file), named in the message.\n\n\
         A subclass of yokai_septet.Error and of ValueError.",
    ),
    (
        Class::InvalidType,
        "InvalidTypeError",
        Some(Class::Error),
        Some(builtin::<PyTypeError>),
        "An argument of the wrong type, named in the message.\n\n\
         A subclass of yokai_septet.Error and of TypeError.",
    ),
    (
        Class::State,
        "StateError",
        Some(Class::Error),
        Some(builtin::<PyRuntimeError>),
        "A call the object's present state refuses (an ended episode not reset, batches \
         in flight, a bot that failed before), or that the machine could not serve (no \
         thread pool).\n\n\
         A subclass of yokai_septet.Error and of RuntimeError.",
    ),
    (
        Class::IllegalAction,
        "IllegalActionError",
        Some(Class::InvalidValue),
        None,
        "An action that is not legal now (not in hand, wrong suit, out of range, game \
         over).\n\n\
         A subclass of InvalidValueError (so of yokai_septet.Error and of ValueError). The \
         game is left exactly as it was.",
    ),
    (
        Class::InUse,
        "InUseError",
        Some(Class::State),
        None,
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
        None,
        "A Game used by two threads (or by a call made from inside another call on it) at \
         once.\n\n\
         A subclass of InUseError (and so of RuntimeError); the game is unchanged. Give \
         each thread its own Game (``game.clone()``), or guard a shared one with a lock.",
    ),
    (
        Class::VectorEnvInUse,
        "VectorEnvInUseError",
        Some(Class::InUse),
        None,
        "A VectorEnv used by two threads (or by a call made from inside another call on it) \
         at once.\n\n\
         A subclass of InUseError (and so of RuntimeError); the env is unchanged. Give \
         each thread its own VectorEnv, or guard a shared one with a lock.",
    ),
    (
        Class::MissingExtra,
        "MissingExtraError",
        Some(Class::Error),
        Some(builtin::<PyModuleNotFoundError>),
        "A feature whose optional dependency is not installed; the message names the extra \
         of yokai-septet that installs it.\n\n\
         A subclass of yokai_septet.Error and of ModuleNotFoundError.",
    ),
];

/// A class of the family ([`FAMILY`]): what a Rust error becomes in Python.
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
            bases.extend(builtin.map(|b| b(py)));
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

/// A Rust error's Python class (and message: its `Display`, unless [`Classify::message`]
/// says more).
pub(crate) trait Classify: std::fmt::Display {
    /// The class.
    fn class(&self) -> Class;
    /// The message.
    fn message(&self) -> String {
        self.to_string()
    }
}

/// `e` as a Python exception whose message starts with `context` (what was being done).
pub(crate) fn in_context(context: &str, e: impl Classify) -> PyErr {
    e.class().err(format!("{context}: {}", e.message()))
}

/// A Rust result as a Python one. `?` cannot turn another crate's error into pyo3's `PyErr`
/// (neither type is this crate's, so no `From` between them may be written here): every
/// fallible engine call ends in `.py()?`, which raises the class [`Classify`] decides.
pub(crate) trait IntoPyResult<T> {
    /// The error as its Python exception.
    fn py(self) -> PyResult<T>;
}

impl<T, E: Classify> IntoPyResult<T> for Result<T, E> {
    fn py(self) -> PyResult<T> {
        self.map_err(py_err)
    }
}

/// `e` as its Python exception.
pub(crate) fn py_err(e: impl Classify) -> PyErr {
    e.class().err(e.message())
}

impl Classify for IllegalAction {
    fn class(&self) -> Class {
        Class::IllegalAction
    }
    fn message(&self) -> String {
        format!("illegal action: {self}")
    }
}

impl Classify for ConfigError {
    fn class(&self) -> Class {
        match self {
            ConfigError::UnknownVariant(_)
            | ConfigError::UnknownScoring(_)
            | ConfigError::UnknownEpisode(_)
            | ConfigError::ZeroRoundCap => Class::InvalidValue,
        }
    }
}

impl Classify for DealError {
    fn class(&self) -> Class {
        match self {
            DealError::WrongHandCount { .. }
            | DealError::WrongHandSize { .. }
            | DealError::CardOutOfRange { .. }
            | DealError::Duplicate { .. }
            | DealError::TrumpCardExpected
            | DealError::TrumpCardUnexpected
            | DealError::NotAscending { .. }
            | DealError::MissingCards { .. } => Class::InvalidValue,
            // The game's phase refuses a deal it could take later (or never): the deal
            // itself may be fine, so still the argument's error, as `apply_deal` documents.
            DealError::GameOver | DealError::RoundInProgress => Class::InvalidValue,
        }
    }
}

impl Classify for ParseCardError {
    fn class(&self) -> Class {
        Class::InvalidValue
    }
}

impl Classify for RasterError {
    fn class(&self) -> Class {
        Class::InvalidValue
    }
}

impl Classify for RecordError {
    fn class(&self) -> Class {
        Class::InvalidValue
    }
}

impl Classify for WeightsError {
    fn class(&self) -> Class {
        match self {
            WeightsError::Io { .. }
            | WeightsError::NotAFile { .. }
            | WeightsError::TooLarge { .. }
            | WeightsError::NotSafetensors(_)
            | WeightsError::Metadata { .. }
            | WeightsError::Tensor { .. } => Class::InvalidValue,
        }
    }
}

impl Classify for BotError {
    fn class(&self) -> Class {
        match self {
            BotError::Unknown(_)
            | BotError::Spec { .. }
            | BotError::Weights { .. }
            | BotError::NoShippedModels { .. }
            | BotError::Unsupported { .. }
            | BotError::External { .. }
            | BotError::Snapshot { .. }
            | BotError::TooManyThreads { .. } => Class::InvalidValue,
            // A bot asked to move where its seat has no decision.
            BotError::NoDecision { .. } => Class::IllegalAction,
            // The machine could not serve the decision: the bot itself is fine.
            BotError::NoThread { .. } => Class::State,
        }
    }
}

impl Classify for ArenaError {
    fn class(&self) -> Class {
        match self {
            ArenaError::Bot(e) => e.class(),
            ArenaError::Lineup(_)
            | ArenaError::Range(_)
            | ArenaError::Merge(_)
            | ArenaError::Settings(_) => Class::InvalidValue,
            ArenaError::ThreadPool(_) => Class::State,
        }
    }
}

impl Classify for VecCoreError {
    fn class(&self) -> Class {
        match self {
            VecCoreError::Bot(e) => e.class(),
            VecCoreError::Opponents { .. }
            | VecCoreError::LearnerSeat { .. }
            | VecCoreError::LearnerTeam { .. } => Class::InvalidValue,
            VecCoreError::ThreadPool(_) => Class::State,
        }
    }
}

impl Classify for StepError {
    fn class(&self) -> Class {
        match self {
            StepError::Length { .. } => Class::InvalidValue,
            StepError::Illegal { .. } => Class::IllegalAction,
            // An env whose episode ended waits for a reset (autoreset disabled).
            StepError::Over { .. } => Class::State,
        }
    }
}

impl Classify for PipelineError {
    fn class(&self) -> Class {
        match self {
            PipelineError::Step(e) => e.class(),
            PipelineError::EnvIds(_) | PipelineError::BatchSize { .. } => Class::InvalidValue,
            PipelineError::InFlight { .. }
            | PipelineError::NothingSent
            | PipelineError::NotHeld { .. }
            | PipelineError::Failed(_) => Class::State,
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
