//! The settings of an arena (Python's `ArenaSpec`, the keywords of `yokai_septet.arena`
//! and its family), declared once: [`super::ArenaConfig::new`] takes its defaults from
//! this table, the binding parses a spec by walking it, and the Python package reads it
//! (`_core._settings_spec()`) for `ArenaSpec`'s defaults and limits.

use yokai_septet::settings::{find, game, splice, DefaultValue, Part, Setting};
use yokai_septet::Scoring;

/// The most games one arena plays.
pub const MAX_GAMES: u64 = 1 << 48;

/// The most worker threads.
pub const MAX_THREADS: u64 = 1024;

/// Every setting of an arena, in the order of `ArenaSpec`'s fields (the positional ones
/// of the arena functions first).
pub const SETTINGS: [Setting; 10] = splice(&[
    // The positional settings are `variant, games, seed`: the section around `games`.
    Part::Game(game::SECTION.only("variant").positional()),
    Part::Rows(&[Setting::int("games", 1, MAX_GAMES).default_int(1000).positional()
        .doc("how many games (rounded up to whole duplicate groups)")]),
    Part::Game(game::SECTION.only("seed").positional().seed_doc("where every deal and bot seed comes from")),
    // An arena's episode is its `rounds` flag's (`ArenaConfig::game_config`). A game
    // between two passive bots may never end (R10): an arena caps it.
    Part::Game(
        game::SECTION
            .without("variant")
            .without("seed")
            .without("episode")
            .max_rounds_default(100, "the round cap of each game (None: none)"),
    ),
    Part::Rows(&[
    Setting::flag("duplicate", true).doc("each deal played once per seating of the line-up"),
    Setting::flag("rounds", false)
        .doc("single rounds from fresh deals, scored by round points, instead of whole games"),
    Setting::flag("sequential", false)
        .doc("stop once the paired board interval excludes the fair share (5% error rate); games is the budget"),
    Setting::int("threads", 0, MAX_THREADS).default_none()
        .doc("worker threads (None or 0: every core); never changes the result"),
    Setting::int("batch_size", 1, u64::MAX).default_int(256)
        .doc("games evaluate() plays at once for a batched Python policy (not the Rust arena's)"),
    ]),
]);

/// The default scoring.
pub(super) fn default_scoring() -> Scoring {
    match find(&SETTINGS, "scoring").default {
        DefaultValue::Str(s) => Scoring::from_name(s).expect("a scoring's name"),
        _ => unreachable!("the scoring's default is a name"),
    }
}

/// The default round cap (an arena's, also the `arena` command's).
pub const DEFAULT_MAX_ROUNDS: u32 = find(&SETTINGS, "max_rounds").default.int() as u32;

/// Whether deals are played in every seating by default.
pub(super) const DEFAULT_DUPLICATE: bool = find(&SETTINGS, "duplicate").default.bool();

/// Whether single rounds are played by default.
pub(super) const DEFAULT_ROUNDS: bool = find(&SETTINGS, "rounds").default.bool();

/// Whether arenas stop early by default.
pub(super) const DEFAULT_SEQUENTIAL: bool = find(&SETTINGS, "sequential").default.bool();

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::Variant;

    #[test]
    fn the_table_is_well_formed_and_gives_the_configs_defaults() {
        yokai_septet::settings::check_table(&SETTINGS);
        let c = super::super::ArenaConfig::new(Variant::FourPlayer, &["random"], 10, 1);
        assert_eq!(c.scoring.name(), "advanced");
        assert_eq!((c.max_rounds, c.duplicate, c.threads), (Some(100), true, 0));
    }
}
