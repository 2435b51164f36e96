//! # yokai-septet
//!
//! A fast, exact engine for the trick-taking card game *Yokai Septet*, built for
//! reinforcement learning. Rules are numbered R1..R10 as in `docs/rules.md`.
//!
//! - [`card`]: cards, suits and `u64` card sets (R1).
//! - [`config`]: variants, scoring, episodes — the game's configuration (R3, R10).
//! - [`deal`]: the documented seeded shuffle and validated explicit deals (R4.1, R10).
//! - [`state`]: the position, a small `Copy` value; [`passing`], [`trick`] and
//!   [`scoring`] hold the rules of each phase (R4–R9).
//! - [`record`]: JSON game records and validated replays ([`Match`] = state + history).
//! - [`view`]: [`SeatView`], one seat's information set — all that bots and observations
//!   may read (R10).
//! - [`observation`]: the canonical observation encoder and its generated layout;
//!   [`reward`]: reward modes; [`sampler`]: exactly uniform determinizations.
//! - [`picture`]: the table as text, SVG ([`picture::table_svg`], [`picture::seat_svg`])
//!   and pixels (feature `raster`), and the HTML replay viewer ([`picture::replay_html`]).
//! - [`bots`]: `random`, `heuristic`, `pimc`, `pimc-dd`; [`arena`]: duplicate-deal arenas on
//!   rayon; [`ladder`]: round-robin arenas summarised as an Elo table.
//! - [`solver`]: the exact perfect-information solver for the rest of a round.
//! - [`vector`]: many games stepped together on rayon, writing observations, masks,
//!   rewards and flags into caller-provided buffers (the core of Python's `VectorEnv`).
//! - `cli` (feature `cli`): the `yokai-septet` command-line tool (`arena`, `play`,
//!   `replay`, `bench`), shared by the binary and the Python console script.
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

pub mod arena;
pub mod bits;
pub mod bots;
pub mod card;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod deal;
mod display;
pub mod error;
mod expand;
pub mod imitation;
pub mod ladder;
pub mod layout;
pub mod observation;
pub mod passing;
pub mod picture;
pub mod record;
pub mod reward;
pub mod sampler;
pub mod scoring;
pub mod solver;
pub mod state;
pub mod state_tensor;
pub mod trick;
pub mod vector;
pub mod view;

pub use arena::{
    run_arena, run_arena_range, summarize, ArenaConfig, ArenaCounts, ArenaError, ArenaReport,
    ArenaSummary,
};
pub use bots::{bot_by_name, Bot, BotError};
pub use card::{Card, CardSet, Suit};
pub use config::{Episode, GameConfig, Scoring, Variant};
pub use deal::Deal;
pub use error::{ConfigError, DealError, IllegalAction, RecordError};
pub use record::{Match, Record};
pub use state::{Outcome, Phase, RoundEnd, RoundResult, State, TrickResult};
pub use view::SeatView;

#[cfg(feature = "python")]
pub mod python;
