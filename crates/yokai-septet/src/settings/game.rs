//! The game's own settings, one row each, as one [`Section`] that every front end's table
//! splices in: the `VectorEnv`'s, the arena's, the single envs', `Game(...)`'s and the
//! server's new-game body. A table takes the section as it is, or with what its front end
//! means differently (the arena caps games at 100 rounds by default; a `VectorEnv`'s seed
//! may be `None`), so the kind of values, their names and the doc are written here once.

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

/// The game's rows, in the order every table shows them.
const ROWS: [Setting; 5] = [VARIANT, SCORING, SEED, EPISODE, MAX_ROUNDS];

/// The game section as one table takes it: the rows above, each as it is or with what its
/// front end means differently, and which of them the table shows at this place. A table
/// splices it in whole ([`super::splice`]); where a signature puts a front end's own
/// setting between two game settings (the arena's `games`, the PettingZoo env's late
/// `seed`), the table splices the section's pieces ([`Section::only`],
/// [`Section::without`]) around it, so that each row is still this module's.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    rows: [Setting; 5],
    shown: [bool; 5],
}

/// Every game row, as written above, none by position.
pub const SECTION: Section = Section {
    rows: ROWS,
    shown: [true; 5],
};

impl Section {
    const fn index(name: &str) -> usize {
        let mut i = 0;
        while i < ROWS.len() {
            if super::eq(ROWS[i].name, name) {
                return i;
            }
            i += 1;
        }
        panic!("not a game setting")
    }

    /// The same section with the row `name` replaced (by a change of its own row).
    const fn set(mut self, name: &str, row: Setting) -> Section {
        self.rows[Section::index(name)] = row;
        self
    }

    const fn row(&self, name: &str) -> Setting {
        self.rows[Section::index(name)]
    }

    /// The section without the row `name` here.
    pub const fn without(mut self, name: &str) -> Section {
        self.shown[Section::index(name)] = false;
        self
    }

    /// The section's row `name` alone (the rest shown elsewhere in the table).
    pub const fn only(mut self, name: &str) -> Section {
        self.shown = [false; 5];
        self.shown[Section::index(name)] = true;
        self
    }

    /// Every row shown also given by position (the piece comes first, or after
    /// positional rows only).
    pub const fn positional(mut self) -> Section {
        let mut i = 0;
        while i < ROWS.len() {
            if self.shown[i] {
                self.rows[i] = self.rows[i].positional();
            }
            i += 1;
        }
        self
    }

    /// The rows up to `name` (included) also given by position.
    pub const fn positional_through(mut self, name: &str) -> Section {
        let mut i = 0;
        while i <= Section::index(name) {
            self.rows[i] = self.rows[i].positional();
            i += 1;
        }
        self
    }

    /// The seed with `None` among its values, its default, meaning `doc`.
    pub const fn seed_none(self, doc: &'static str) -> Section {
        self.set("seed", self.row("seed").default_none().doc(doc))
    }

    /// The seed's doc: what it seeds in this front end.
    pub const fn seed_doc(self, doc: &'static str) -> Section {
        self.set("seed", self.row("seed").doc(doc))
    }

    /// The seed's Python annotation (a body that takes its decimal string too).
    pub const fn seed_py(self, py: &'static str) -> Section {
        self.set("seed", self.row("seed").py(py))
    }

    /// A round cap of `cap` by default, `doc` saying what `None` means then.
    pub const fn max_rounds_default(self, cap: u64, doc: &'static str) -> Section {
        self.set(
            "max_rounds",
            self.row("max_rounds").default_int(cap).doc(doc),
        )
    }

    /// How many rows the section shows.
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < ROWS.len() {
            n += self.shown[i] as usize;
            i += 1;
        }
        n
    }

    /// Whether it shows none.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k`th row shown.
    pub const fn shown(&self, k: usize) -> Setting {
        let mut seen = 0;
        let mut i = 0;
        while i < ROWS.len() {
            if self.shown[i] {
                if seen == k {
                    return self.rows[i];
                }
                seen += 1;
            }
            i += 1;
        }
        panic!("past the section's rows")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::config::GameConfig;

    #[test]
    fn the_game_rows_default_to_a_plain_game_config() {
        let c = GameConfig::new(Variant::FourPlayer, 0);
        super::super::check_table(&ROWS);
        assert_eq!(VARIANT.default, DefaultValue::Str(c.variant.name()));
        assert_eq!(SCORING.default, DefaultValue::Str(c.scoring.name()));
        assert_eq!(EPISODE.default, DefaultValue::Str(c.episode.name()));
        assert_eq!(MAX_ROUNDS.default, DefaultValue::None);
        assert_eq!(c.max_rounds, None);
    }

    #[test]
    fn a_section_shows_its_pieces_in_the_rows_order() {
        let names = |s: Section| (0..s.len()).map(|k| s.shown(k).name).collect::<Vec<_>>();
        assert_eq!(
            names(SECTION),
            ["variant", "scoring", "seed", "episode", "max_rounds"]
        );
        assert_eq!(
            names(SECTION.without("seed")),
            ["variant", "scoring", "episode", "max_rounds"]
        );
        assert_eq!(names(SECTION.only("seed")), ["seed"]);
        let s = SECTION.positional_through("scoring").seed_none("x");
        assert!(s.shown(0).positional && s.shown(1).positional && !s.shown(2).positional);
        assert_eq!(
            (s.shown(2).default, s.shown(2).doc),
            (DefaultValue::None, "x")
        );
        assert_eq!(
            SECTION.max_rounds_default(7, "y").shown(4).default,
            DefaultValue::Int(7)
        );
    }
}
