//! One example of every variant of every public Rust error type the extension maps
//! (`_core._error_examples()`), for the tests that check each one's Python class and
//! message. A test helper: compiled only with the cargo feature `test-helpers`, which the
//! test suite's build turns on (`scripts/test.sh`), so the released wheel has none.

use pyo3::prelude::*;

use crate::errors::{py_err, Classify};

use yokai_septet::{ConfigError, DealError, IllegalAction, ParseCardError, RecordError};
use yokai_septet_bots::arena::ArenaError;
use yokai_septet_bots::{BotError, BotSpecError, WeightsError};
use yokai_septet_picture::RasterError;
use yokai_septet_vector::{PipelineError, StepError, VecCoreError};

/// One example of every variant of every public error type the extension maps, as
/// `(type, variant, exception)`: the tests check each one's class and message.
#[pyfunction]
pub(crate) fn _error_examples(py: Python<'_>) -> Vec<(&'static str, &'static str, PyObject)> {
    use yokai_septet::{Card, Suit, Variant};
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
    let examples: Vec<(&str, &str, Example)> = vec![
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
        (
            "WeightsError",
            "NotAFile",
            WeightsError::NotAFile {
                path: "/dev/zero".into(),
                kind: "a device",
            }
            .into(),
        ),
        (
            "WeightsError",
            "TooLarge",
            WeightsError::TooLarge {
                path: "big.safetensors".into(),
                bytes: 1 << 40,
                cap: yokai_septet_bots::MAX_WEIGHTS_FILE,
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
            "Spec",
            BotError::Spec {
                name: "pimc:8/x".into(),
                error: BotSpecError::BadPassSuffix { suffix: "x".into() },
            }
            .into(),
        ),
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
            "BotError",
            "TooManyThreads",
            BotError::TooManyThreads {
                name: "ismcts:2000:t100000".into(),
                threads: 100_000,
                limit: 4,
            }
            .into(),
        ),
        (
            "BotError",
            "NoThread",
            BotError::NoThread {
                name: "ismcts:2000:t4".into(),
                message: "Resource temporarily unavailable".into(),
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
        .map(|(t, v, e)| (t, v, e.0.into_value(py).into_any()))
        .collect()
}

/// An error as the exception `.py()?` raises (each example is written `error.into()`).
struct Example(PyErr);

impl<E: Classify> From<E> for Example {
    fn from(e: E) -> Example {
        Example(py_err(e))
    }
}
