//! The new-game body's settings (`POST /api/games`) as a settings table
//! ([`crate::settings`]), the same kind of rows as the Gymnasium, PettingZoo, `VectorEnv`
//! and arena tables: each name, what it takes, its default and its doc, declared once.
//! `Game::new` reads its defaults from it, and a test checks the body's fields against it.

use crate::rules::config::{Episode, Scoring, Variant};
use crate::settings::{find, DefaultValue, Kind, Setting};

/// The settings of a new game (every one optional in the body).
#[rustfmt::skip]
pub const NEW_GAME: &[Setting] = &[
    Setting::new("variant", Kind::Choice(&Variant::NAMES), false, DefaultValue::Str("4p"), false, "str",
        "The variant."),
    Setting::new("scoring", Kind::Choice(&Scoring::NAMES), false, DefaultValue::Str("advanced"), false, "str",
        "The scoring (the seal variants ignore it)."),
    Setting::new("episode", Kind::Choice(&Episode::NAMES), false, DefaultValue::Str("game"), false, "str",
        "A whole game, or one round."),
    Setting::new("seed", Kind::Int { lo: 0, hi: u64::MAX }, true, DefaultValue::None, false, "int | str",
        "The deals' and bots' seed, a number or its decimal string; null: a random one."),
    Setting::new("seat", Kind::Seat(&[]), true, DefaultValue::Int(0), false, "int",
        "The person's seat; null (with watch): none."),
    Setting::new("watch", Kind::Bool, false, DefaultValue::Bool(false), false, "bool",
        "Bots only: every seat is a bot, the page watches."),
    Setting::new("bots", Kind::Names, false, DefaultValue::Str("heuristic"), false, "str | list[str]",
        "One bot name for every bot seat, or one per bot seat in seat order."),
    Setting::new("max_rounds", Kind::Int { lo: 1, hi: u32::MAX as u64 }, true, DefaultValue::None, false, "int",
        "A round cap; null: none."),
];

/// The default of the named setting, a name (`variant`, `scoring`, `episode`, `bots`).
pub fn default_name(name: &str) -> &'static str {
    match find(NEW_GAME, name).default {
        DefaultValue::Str(s) => s,
        // The rows above are fixed; `the_new_game_body_is_its_settings_table` reads each.
        _ => "",
    }
}

/// The person's seat when the body gives none.
pub fn default_seat() -> usize {
    find(NEW_GAME, "seat").default.int() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::check_table;
    use crate::web::games::{Game, NewGame};
    use crate::web::{bots::Bots, ServeOptions};

    #[test]
    fn the_new_game_body_is_its_settings_table() {
        check_table(NEW_GAME);
        // The body's fields are the table's rows: serde lists them for an unknown one.
        let e = serde_json::from_str::<NewGame>(r#"{"colour": 1}"#)
            .unwrap_err()
            .to_string();
        let listed = e
            .split("expected one of ")
            .nth(1)
            .unwrap_or_default()
            .split(" at line")
            .next()
            .unwrap_or_default();
        let mut fields: Vec<&str> = listed.split(", ").map(|f| f.trim_matches('`')).collect();
        let mut rows: Vec<&str> = NEW_GAME.iter().map(|s| s.name).collect();
        fields.sort_unstable();
        rows.sort_unstable();
        assert_eq!(fields, rows, "{e}");
    }

    #[test]
    fn an_empty_body_deals_the_tables_defaults() {
        let bots = Bots::new(&ServeOptions::default()).unwrap();
        let body: NewGame = serde_json::from_str("{}").unwrap();
        let g = Game::new(&body, &bots).unwrap();
        let s = serde_json::to_value(g.state("x")).unwrap();
        assert_eq!(s["variant"], default_name("variant"));
        assert_eq!(s["scoring"], default_name("scoring"));
        assert_eq!(s["episode"], default_name("episode"));
        assert_eq!(s["seat"], default_seat());
        assert_eq!(s["max_rounds"], serde_json::Value::Null);
        let players = s["players"].as_array().unwrap();
        let bot_seats: Vec<_> = players.iter().filter(|p| !p.is_null()).collect();
        assert_eq!(bot_seats.len(), 3);
        assert!(
            bot_seats.iter().all(|p| *p == default_name("bots")),
            "{players:?}"
        );
    }
}
