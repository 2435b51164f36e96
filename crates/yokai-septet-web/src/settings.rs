//! The new-game body's settings (`POST /api/games`) as a settings table
//! ([`yokai_septet::settings`]), the same kind of rows as the Gymnasium, PettingZoo, `VectorEnv`
//! and arena tables: each name, what it takes, its default and its doc, declared once.
//! The new-game body (`new_game.rs`) takes an absent setting's default from it, and a test
//! checks the body's fields against its rows.

use yokai_septet::settings::{find, game, splice, DefaultValue, Part, Setting};

/// The settings of a new game (every one optional in the body).
pub const NEW_GAME: &[Setting] = &splice::<8>(&[
    Part::Game(
        game::SECTION
            .seed_none(
                "the deals' and bots' seed, a number or its decimal string (None: a random one)",
            )
            .seed_py("int | str"),
    ),
    Part::Rows(&[
        Setting::seat("seat", &[])
            .or_none()
            .default_int(0)
            .doc("the person's seat (None, with watch: none)"),
        Setting::flag("watch", false).doc("bots only: every seat is a bot, the page watches"),
        Setting::bot_names("bots")
            .default_str("heuristic")
            .py("str | list[str]")
            .doc("one bot name for every bot seat, or one per bot seat in seat order"),
    ]),
]);

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
    use crate::games::Game;
    use crate::new_game::NewGame;
    use crate::projection::project;
    use crate::{bots::Bots, ServeOptions};
    use yokai_septet::settings::check_table;

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
        let s = serde_json::to_value(project(&g, "x")).unwrap();
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
