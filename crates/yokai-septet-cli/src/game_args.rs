//! The game's flags every command that deals games takes (`arena`, `ladder`, `play`): one
//! flattened set, their defaults read off the game section of the settings tables
//! ([`yokai_septet::settings::game`]), as the Python front ends read theirs.

use clap::Args;

use super::Failure;
use yokai_septet::settings::game;
use yokai_septet::{Scoring, Variant};

/// `--variant`, `--scoring` and `--seed`. (The round cap is each command's own: its
/// default differs, see [`round_cap`].)
#[derive(Args)]
pub(super) struct GameArgs {
    /// Variant: 4p, 3p, seal, seal-short.
    #[arg(long, default_value = game::VARIANT.default.str())]
    pub variant: String,
    /// Scoring for 4p/3p: advanced (game to 7) or basic (game to 2).
    #[arg(long, default_value = game::SCORING.default.str())]
    pub scoring: String,
    /// Master seed of the deals and the bots: every deal's and bot's seed derives from it.
    #[arg(long, default_value_t = game::SEED.default.int())]
    pub seed: u64,
}

impl GameArgs {
    /// The variant named, or a usage error that lists the variants.
    pub fn variant(&self) -> Result<Variant, Failure> {
        self.variant
            .parse()
            .map_err(|e| Failure::usage(format!("{e}")))
    }

    /// The scoring named, or a usage error that lists the scorings.
    pub fn scoring(&self) -> Result<Scoring, Failure> {
        self.scoring
            .parse()
            .map_err(|e| Failure::usage(format!("{e}")))
    }
}

/// A `--max-rounds` value as a round cap: 0 is none.
pub(super) fn round_cap(max_rounds: u32) -> Option<u32> {
    (max_rounds > 0).then_some(max_rounds)
}
