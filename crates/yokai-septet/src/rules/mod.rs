//! The position and its rules, in one module tree: the configuration (R3, R10), the
//! seeded deal (R4.1), the [`State`] that sequences a game, and one child
//! module per phase: passing (R4.2–R4.3), tricks (R5–R6), scoring and sealing (R7–R9).
//!
//! Public here: the pure rule functions, and the rule kernels of R6–R9 ([`trick`],
//! [`scoring`]) that the solver's position calls as `State` does, so that a rule changes in
//! one place. The types (`State`, `GameConfig`, `Deal`, `Outcome`, …) are public at the
//! crate root, their one path.

pub(crate) mod config;
pub(crate) mod deal;
pub(crate) mod outcome;
pub(crate) mod passing;
pub(crate) mod play_log;
// Made-up positions: the rules' own tests, and the solver's with the feature
// `test-positions` (its dev-dependency).
#[cfg(any(test, feature = "test-positions"))]
pub mod position;
pub mod scoring;
pub(crate) mod state;
pub mod trick;

pub(crate) use outcome::{Outcome, RoundEnd, RoundResult};
pub use passing::{legal_picks, pass_target};
pub use scoring::game_target;
pub(crate) use state::{Phase, State};
pub use trick::{legal_plays, winning_index};
