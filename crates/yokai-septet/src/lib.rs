//! # yokai-septet
//!
//! A fast, exact engine for the trick-taking card game *Yokai Septet*, built for
//! reinforcement learning. Rules are numbered R1..R10 as in `docs/rules.md`.
//!
//! This crate is the engine alone; the layers above it are crates of their own (the
//! workspace's `docs/architecture.md` lists them and what each may use): the exact solver
//! (`yokai-septet-solver`), the bots, the analysis and the arenas (`yokai-septet-bots`), the
//! vector env (`yokai-septet-vector`), pictures (`yokai-septet-picture`), the web table
//! (`yokai-septet-web`), the command-line tool (`yokai-septet-cli`) and the Python module.
//! The public API is what this file re-exports:
//!
//! - cards: [`Card`], [`Suit`], [`CardSet`] (R1), and [`seat`]: the seat arithmetic
//!   (rotation, teams and sides).
//! - the rules: the configuration ([`GameConfig`], [`Variant`], [`Scoring`], [`Episode`];
//!   R3, R10), the documented seeded shuffle and validated explicit deals ([`Deal`]; R4.1),
//!   and the position [`State`], a small `Copy` value whose fields only the rules change
//!   (passing, tricks, scoring and sealing: R4–R9); [`rules`]: the pure rule functions
//!   (legal plays and picks, the trick's winner, who passes to whom) and the rule kernels
//!   ([`rules::trick`], [`rules::scoring`]) that the solver's position shares.
//! - [`Match`] and [`Record`] (with [`RoundRecord`], [`TrickRecord`], [`ResultRecord`]):
//!   JSON game records and validated replays.
//! - information sets: [`SeatView`], one seat's information set — all that bots and
//!   observations may read (R10); [`sampler`]: exactly uniform determinizations;
//!   [`belief`]: determinizations weighted by a belief.
//! - the encodings: [`observation`] (the canonical encoder and its generated layout),
//!   [`state_tensor`] (the privileged full-information tensor), [`play_log`] (how each
//!   card of the round was played, and its encoding).
//! - [`settings`]: the settings tables' mechanism and the game's own rows; [`rng`]: all
//!   seeding (the domain-tagged streams and the seed derivations); [`names`](mod@names): the named
//!   enums' pattern; [`simd`]: the CPU level the vector kernels run at;
//!   [`usable_cores`]: the cores the process may use (its affinity and CPU quota).
//!
//! ```
//! use yokai_septet::{GameConfig, State, Variant};
//! let mut s = State::new(GameConfig::new(Variant::FourPlayer, 42));
//! while !s.is_over() {
//!     let card = s.legal_actions().first().unwrap();
//!     s.apply(card).unwrap();
//! }
//! assert!(s.winners().count() > 0);
//! ```

// Every `unsafe` of the engine lives in `simd` (CPU-specific instructions behind a
// detection token).
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

// The source is grouped by concern (docs/architecture.md has the map). Groups whose
// paths users write (`rules::`, `settings::`, `simd::`, …) are public with curated contents
// and private children; the others are private, and the root re-exports what they offer.
// A type has one public path: `State` and the other rule types are at the root only.
mod cards;
mod cores;
mod encoding;
mod error;
pub mod files;
mod infoset;
pub mod names;
mod record;
pub mod rng;
pub mod rules;
pub mod settings;
#[allow(unsafe_code)]
pub mod simd;

pub use cards::{seat, Card, CardSet, CardSetIter, ParseCardError, Suit};
pub use cores::usable_cores;
pub use encoding::{observation, play_log, state_tensor};
pub use error::{ConfigError, DealError, IllegalAction, RecordError};
pub use infoset::{belief, sampler, SeatView};
pub use record::{Match, Record, ResultRecord, RoundRecord, TrickRecord, RECORD_VERSION};
pub use rules::config::{Episode, GameConfig, Scoring, Variant};
pub use rules::deal::Deal;
pub use rules::outcome::{Outcome, RoundEnd, RoundResult, TrickResult};
pub use rules::play_log::{PlayKind, PlayLog};
pub use rules::state::{Phase, State};
