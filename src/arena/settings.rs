//! The settings of an arena (Python's `ArenaSpec`, the keywords of `yokai_septet.arena`
//! and its family), declared once: [`super::ArenaConfig::new`] takes its defaults from
//! this table, the binding parses a spec by walking it, and the Python package reads it
//! (`_core._settings_spec()`) for `ArenaSpec`'s defaults and limits.

use crate::rules::config::{Scoring, Variant};
use crate::settings::{find, DefaultValue, Kind, Setting};

/// The most games one arena plays.
pub const MAX_GAMES: u64 = 1 << 48;

/// The most worker threads.
pub const MAX_THREADS: u64 = 1024;

/// Every setting of an arena, in the order of `ArenaSpec`'s fields (the positional ones
/// of the arena functions first).
#[rustfmt::skip]
pub const SETTINGS: [Setting; 10] = [
    Setting::new("variant", Kind::Choice(&Variant::NAMES), false, DefaultValue::Str("4p"), true,
        "str", "the game's variant"),
    Setting::new("games", Kind::Int { lo: 1, hi: MAX_GAMES }, false, DefaultValue::Int(1000), true,
        "int", "how many games (rounded up to whole duplicate groups)"),
    Setting::new("seed", Kind::Int { lo: 0, hi: u64::MAX }, false, DefaultValue::Int(0), true,
        "int", "where every deal and bot seed comes from"),
    Setting::new("scoring", Kind::Choice(&Scoring::NAMES), true, DefaultValue::Str("advanced"), false,
        "Optional[str]", "the scoring (the seal variants ignore it; None only there)"),
    Setting::new("max_rounds", Kind::Int { lo: 1, hi: u32::MAX as u64 }, true, DefaultValue::Int(100), false,
        "Optional[int]", "the round cap of each game (None: none)"),
    Setting::new("duplicate", Kind::Bool, false, DefaultValue::Bool(true), false,
        "bool", "each deal played once per seating of the line-up"),
    Setting::new("rounds", Kind::Bool, false, DefaultValue::Bool(false), false,
        "bool", "single rounds from fresh deals, scored by round points, instead of whole games"),
    Setting::new("sequential", Kind::Bool, false, DefaultValue::Bool(false), false,
        "bool", "stop once the paired board interval excludes the fair share (5% error rate); games is the budget"),
    Setting::new("threads", Kind::Int { lo: 0, hi: MAX_THREADS }, true, DefaultValue::None, false,
        "Optional[int]", "worker threads (None or 0: every core); never changes the result"),
    Setting::new("batch_size", Kind::Int { lo: 1, hi: u64::MAX }, false, DefaultValue::Int(256), false,
        "int", "games evaluate() plays at once for a batched Python policy (not the Rust arena's)"),
];

/// The default scoring.
pub(super) fn default_scoring() -> Scoring {
    match find(&SETTINGS, "scoring").default {
        DefaultValue::Str(s) => Scoring::from_name(s).expect("a scoring's name"),
        _ => unreachable!("the scoring's default is a name"),
    }
}

/// The default round cap.
pub(super) const DEFAULT_MAX_ROUNDS: u32 = find(&SETTINGS, "max_rounds").default.int() as u32;

/// Whether deals are played in every seating by default.
pub(super) const DEFAULT_DUPLICATE: bool = find(&SETTINGS, "duplicate").default.bool();

/// Whether single rounds are played by default.
pub(super) const DEFAULT_ROUNDS: bool = find(&SETTINGS, "rounds").default.bool();

/// Whether arenas stop early by default.
pub(super) const DEFAULT_SEQUENTIAL: bool = find(&SETTINGS, "sequential").default.bool();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed_and_gives_the_configs_defaults() {
        crate::settings::check_table(&SETTINGS);
        let c = super::super::ArenaConfig::new(Variant::FourPlayer, &["random"], 10, 1);
        assert_eq!(c.scoring.name(), "advanced");
        assert_eq!((c.max_rounds, c.duplicate, c.threads), (Some(100), true, 0));
    }
}
