//! # yokai-septet
//!
//! A fast, exact engine for the trick-taking card game *Yokai Septet*, built for
//! reinforcement learning. Rules are numbered R1..R10 as in `docs/rules.md`.
//!
//! The source is grouped by concern; `docs/architecture.md` maps it. The public API is
//! what this file re-exports:
//!
//! - cards: [`Card`], [`Suit`], [`CardSet`] (R1).
//! - the rules: the configuration ([`GameConfig`], [`Variant`], [`Scoring`], [`Episode`];
//!   R3, R10), the documented seeded shuffle and validated explicit deals ([`Deal`]; R4.1),
//!   and the position [`State`], a small `Copy` value whose fields only the rules change
//!   (passing, tricks, scoring and sealing: R4–R9); [`rules`]: the pure rule functions
//!   (legal plays and picks, the trick's winner, who passes to whom).
//! - [`Match`] and [`Record`]: JSON game records and validated replays.
//! - information sets: [`SeatView`], one seat's information set — all that bots and
//!   observations may read (R10); [`sampler`]: exactly uniform determinizations.
//! - the RL interface: [`observation`] (the canonical encoder and its generated layout),
//!   [`state_tensor`] (the privileged full-information tensor), [`reward`] (reward modes),
//!   [`vector`] (many games stepped together on the crate's own fork-join pool, writing
//!   observations, masks, rewards and flags into caller-provided buffers: the core of
//!   Python's `VectorEnv`).
//! - play: [`bots`] (`random`, `heuristic`, `pimc`, `pimc-random`, `pimc-dd`, `epimc`,
//!   `ismcts`, `ismcts-nn`, `nn`, named in [`bots::BOT_FAMILIES`]; every search takes the
//!   modifier `-inf`, worlds from a belief model: `pimc-inf`, `ismcts-inf`; the shipped
//!   models with the feature `models`), [`arena`] (duplicate-deal arenas on rayon, and the round-robin
//!   ladder), [`solver`] (the exact perfect-information solver for the rest of a round).
//! - [`picture`]: the table as text, SVG ([`picture::table_svg`], [`picture::seat_svg`])
//!   and pixels (feature `raster`), and the HTML replay viewer ([`picture::replay_html`]).
//! - [`simd`]: the CPU level the vector kernels run at.
//! - `cli` (feature `cli`): the `yokai-septet` command-line tool (`arena`, `play`,
//!   `replay`, `analyze`, `bench`, `rules`, `ladder`, `serve`), shared by the binary and the Python console script.
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

// Every `unsafe` lives in `simd` (CPU-specific instructions behind a detection token),
// `pool` (the vector env's fork-join pool: one dereference of a pass's closure, and
// `sched_getcpu`) and `web/server.rs` (`mallopt`: the server returns large blocks;
// `getrlimit`: its connection cap fits the process's open-file limit).
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

// The source is grouped by concern (docs/architecture.md has the map). Groups whose
// paths users write (`rules::`, `arena::`, `simd::`, …) are public with curated contents
// and private children; the others are private, and the root re-exports what they offer.
// A type has one public path: `State` and the other rule types are at the root only.
pub mod analysis;
pub mod arena;
pub mod bots;
mod cards;
// Its items' docs come with the command-line tool's own rework (issue 35's other items).
#[cfg(feature = "cli")]
#[allow(missing_docs)]
pub mod cli;
mod encoding;
mod error;
mod files;
mod infoset;
mod names;
pub mod picture;
#[allow(unsafe_code)]
mod pool;
mod record;
mod rl;
mod rng;
pub mod rules;
pub mod settings;
#[allow(unsafe_code)]
pub mod simd;
pub mod solver;
// The local web app (`yokai-septet serve`).
#[cfg(feature = "web")]
pub mod web;

// The PyO3 bindings (`yokai_septet._core`): Python reaches them, Rust users do not.
#[cfg(feature = "python")]
mod python;

pub use cards::{Card, CardSet, CardSetIter, ParseCardError, Suit};
pub use encoding::{observation, play_log, state_tensor};
pub use error::{ConfigError, DealError, IllegalAction, RecordError};
pub use infoset::{belief, sampler, SeatView};
pub use record::{Match, Record};
pub use rl::{reward, vector};
pub use rules::config::{Episode, GameConfig, Scoring, Variant};
pub use rules::deal::Deal;
pub use rules::outcome::{Outcome, RoundEnd, RoundResult, TrickResult};
pub use rules::play_log::{PlayKind, PlayLog};
pub use rules::state::{Phase, State};
