//! What `POST /api/games` reads ([`NewGame`]) and the table it asks for ([`Seating`]): the
//! game's settings, the person's seat and each bot seat's name, checked, with the defaults
//! of `settings.rs`'s table.

use serde::Deserialize;

use super::bots::Bots;
use super::random::random_seed;
use super::settings::{default_name, default_seat};
use super::ApiError;
use yokai_septet::{Episode, GameConfig, Scoring, Variant};

/// What `POST /api/games` reads. Unknown fields are refused (a misspelt option must not be
/// silently ignored). Its fields are the rows of `settings.rs`'s table.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `4p`, `3p`, `seal`, `seal-short` (default `4p`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `advanced` or `basic` (default `advanced`; the seal variants ignore it).
    #[serde(default)]
    pub scoring: Option<String>,
    /// The deals' and bots' seed, a whole number or its decimal string (JavaScript's
    /// numbers lose the low digits of a large one); absent or null: a random one.
    #[serde(default, deserialize_with = "super::table::seed")]
    pub seed: Option<u64>,
    /// The person's seat; absent: 0; null with `watch`: none (bots only).
    #[serde(default)]
    pub seat: Option<usize>,
    /// Bots only: every seat is a bot, the page watches.
    #[serde(default)]
    pub watch: bool,
    /// One bot name for every bot seat, or one per bot seat in seat order.
    #[serde(default)]
    pub bots: Option<Vec<String>>,
    /// `game` (default) or `round` (one round).
    #[serde(default)]
    pub episode: Option<String>,
    /// A round cap (absent or null: none).
    #[serde(default)]
    pub max_rounds: Option<u32>,
}

/// The table a [`NewGame`] asks for, checked.
pub struct Seating {
    /// The game's settings (its seed drawn when none was given).
    pub config: GameConfig,
    /// One per seat: a bot's name, or `None` for the person.
    pub players: Vec<Option<String>>,
    /// The person's seat; `None` in a game of bots only.
    pub me: Option<usize>,
}

fn bad(message: impl AsRef<str>) -> ApiError {
    ApiError::bad(message)
}

impl NewGame {
    /// The table this body asks for, or a 400 that says which field is wrong (a 422 for
    /// a single bot name the server does not run; a name per seat is checked as its bot
    /// is built).
    pub fn seating(&self, registry: &Bots) -> Result<Seating, ApiError> {
        // Absent settings take the table's defaults (`settings.rs`), read the same way.
        let given = |v: &Option<String>, name: &str| -> String {
            v.clone().unwrap_or_else(|| default_name(name).into())
        };
        let variant: Variant = given(&self.variant, "variant")
            .parse()
            .map_err(|e| bad(format!("variant: {e}")))?;
        let scoring: Scoring = given(&self.scoring, "scoring")
            .parse()
            .map_err(|e| bad(format!("scoring: {e}")))?;
        let episode: Episode = given(&self.episode, "episode")
            .parse()
            .map_err(|e| bad(format!("episode: {e}")))?;
        let seed = match self.seed {
            Some(seed) => seed,
            None => random_seed()?,
        };
        let config = GameConfig::new(variant, seed)
            .with_scoring(scoring)
            .with_episode(episode)
            .with_max_rounds(self.max_rounds);
        config
            .validate()
            .map_err(|e| bad(format!("max_rounds: {e}")))?;
        let n = variant.num_players();
        let me = if self.watch {
            if self.seat.is_some() {
                return Err(bad(
                    "seat: a watched game has no person's seat (leave seat out)",
                ));
            }
            None
        } else {
            let seat = self.seat.unwrap_or_else(default_seat);
            if seat >= n {
                return Err(bad(format!(
                    "seat: {seat} is out of range: {variant} has seats 0 to {}",
                    n - 1
                )));
            }
            Some(seat)
        };
        let default = vec![default_name("bots").to_string()];
        let names = self.bots.as_ref().unwrap_or(&default);
        let bot_seats = n - usize::from(me.is_some());
        let names: Vec<String> = match names.len() {
            1 => {
                // One name for every seat: a refusal of it names no seat.
                registry.resolve(&names[0])?;
                vec![names[0].clone(); bot_seats]
            }
            k if k == bot_seats => names.clone(),
            k => {
                return Err(bad(format!(
                    "bots: give one bot name, or {bot_seats} (one per bot seat); got {k}"
                )))
            }
        };
        let mut others = names.into_iter();
        let players = (0..n)
            .map(|p| if Some(p) == me { None } else { others.next() })
            .collect();
        Ok(Seating {
            config,
            players,
            me,
        })
    }
}
