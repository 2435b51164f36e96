//! The game's own settings, one row each, that every front end's table includes: the
//! `VectorEnv`'s, the arena's, the single envs', `Game(...)`'s and the server's new-game
//! body. A table takes a row as it is, or with what its front end means differently (the
//! arena caps games at 100 rounds by default; an arena's seed cannot be `None`), so the
//! kind of values, their names and the doc are written here once.

use super::{DefaultValue, Setting};
use crate::rules::config::{Episode, Scoring, Variant};

/// The most rounds a game may be capped at.
pub const MAX_ROUNDS_CAP: u64 = u32::MAX as u64;

/// `variant`: which game (R3), `"4p"` by default.
pub const VARIANT: Setting = Setting::choice("variant", &Variant::NAMES)
    .default_str(Variant::FourPlayer.name())
    .doc("the game's variant");

/// `scoring`: the scoring mode (R8), `"advanced"` by default; `None` only where the
/// variant has none (the seal variants).
pub const SCORING: Setting = Setting::choice("scoring", &Scoring::NAMES)
    .default(DefaultValue::Str(Scoring::Advanced.name()))
    .or_none()
    .doc("the scoring (the seal variants ignore it; None only there)");

/// `seed`: where the deals (and the bots' seeds) come from. Each table says what `None`
/// means there, or that it has no `None`.
pub const SEED: Setting = Setting::int("seed", 0, u64::MAX)
    .default_int(0)
    .doc("where the deals come from");

/// `episode`: a whole game or one round (R10), `"game"` by default.
pub const EPISODE: Setting = Setting::choice("episode", &Episode::NAMES)
    .default_str(Episode::Game.name())
    .doc("what one episode is: a whole game or one round");

/// `max_rounds`: the round cap (R10), none by default.
pub const MAX_ROUNDS: Setting = Setting::int("max_rounds", 1, MAX_ROUNDS_CAP)
    .default_none()
    .doc("the round cap of a game (None: none)");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::config::GameConfig;

    #[test]
    fn the_game_rows_default_to_a_plain_game_config() {
        let c = GameConfig::new(Variant::FourPlayer, 0);
        super::super::check_table(&[VARIANT, SCORING, SEED, EPISODE, MAX_ROUNDS]);
        assert_eq!(VARIANT.default, DefaultValue::Str(c.variant.name()));
        assert_eq!(SCORING.default, DefaultValue::Str(c.scoring.name()));
        assert_eq!(EPISODE.default, DefaultValue::Str(c.episode.name()));
        assert_eq!(MAX_ROUNDS.default, DefaultValue::None);
        assert_eq!(c.max_rounds, None);
    }
}
