//! A game's seats: who sits at each (a bot's name, or the person), each bot alive or parked
//! between its decisions, and the one bot thinking now.
//!
//! **Parking.** A search bot keeps tables while it decides (a solver's are megabytes). So
//! that a waiting game holds none, a search bot is parked after each decision as its
//! snapshot ([`Bot::snapshot`]; as built from its seed before its first), and built again
//! for its next decision, on a worker, from its seed and that snapshot: it goes on exactly
//! as it would have. A bot that searches nothing (`random`, `heuristic`, `nn`) is kept.
//!
//! **A turn.** The bot to move is taken out of its seat with the position it decides from
//! ([`Seats::take_turn`]), thinks without its game's lock ([`Turn::decide`]), and its seat
//! is handed back with the decision, or as it was when it could not be revived
//! ([`Seats::hand_back`]): the game goes on once the cause is fixed.

use std::time::Instant;

use axum::http::StatusCode;

use super::bots::{decides_at_once, Bots};
use super::{shown, ApiError};
use yokai_septet::rng::play_bot_seed;
use yokai_septet::Card;
use yokai_septet::State;
use yokai_septet::{GameConfig, Variant};
use yokai_septet_bots::Bot;

/// A bot seat's bot: alive, or parked between its decisions (see the module docs).
pub enum Seat {
    /// A bot that searches nothing (`random`, `heuristic`, `nn`), kept.
    Live(Box<dyn Bot>),
    /// A search bot between decisions: its snapshot (`None`: as built from its seed).
    Parked(Option<Vec<u64>>),
}

impl Seat {
    /// `bot` (called `name`) as its seat keeps it until its next decision.
    pub fn park(bot: Box<dyn Bot>, name: &str) -> Seat {
        if decides_at_once(name) {
            return Seat::Live(bot);
        }
        match bot.snapshot() {
            Some(words) => Seat::Parked(Some(words)),
            None => Seat::Live(bot),
        }
    }
}

/// The bot called `name` with `seed`, continued from `words` (its snapshot; `None`: as
/// built): a parked search bot, for its next decision.
fn revive(
    bots: &Bots,
    name: &str,
    seed: u64,
    variant: Variant,
    words: Option<&[u64]>,
) -> Result<Box<dyn Bot>, ApiError> {
    let mut bot = bots.build(name, seed, variant)?;
    if let Some(words) = words {
        bot.restore(words).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("bot {}: {e}", shown(name)),
            )
        })?;
    }
    Ok(bot)
}

/// The seats of one game.
pub struct Seats {
    /// One per seat: its bot, `None` for the person's seat and for the seat whose bot is
    /// thinking (taken out meanwhile).
    bots: Vec<Option<Seat>>,
    /// One per seat: a bot's name, or `None` for the person (the record's `players`).
    players: Vec<Option<String>>,
    /// The seat whose bot is thinking.
    thinking: Option<usize>,
}

/// The refusal of a bot's move on the person's turn.
fn your_turn() -> ApiError {
    ApiError::conflict("it is your turn: play a card")
}

/// A bot's turn, taken out of its game ([`Seats::take_turn`]) to think without the lock.
pub struct Turn {
    /// The seat to move.
    pub seat: usize,
    /// Its bot as its seat kept it.
    kept: Seat,
    /// The position it decides from.
    position: State,
    /// Its name.
    name: String,
}

/// A turn thought over ([`Turn::decide`]): the seat to hand back and the card chosen, or
/// why there is none.
pub struct Decided {
    /// The seat that moved.
    pub seat: usize,
    /// Its bot as its seat keeps it now: parked after its decision, or as it was when it
    /// could not be revived.
    kept: Seat,
    /// The card, or why there is none (a bot that failed, or could not be revived).
    card: Result<Card, ApiError>,
    /// How long it thought, in milliseconds.
    pub think_ms: f64,
}

impl Seats {
    /// The seats of a new game of `config` with these players: each bot built now (its name
    /// checked: the refusal names its seat), a search bot then parked as built.
    pub fn build(
        players: Vec<Option<String>>,
        config: &GameConfig,
        registry: &Bots,
    ) -> Result<Seats, ApiError> {
        let mut bots = Vec::with_capacity(players.len());
        for (p, player) in players.iter().enumerate() {
            bots.push(match player {
                Some(name) => {
                    let bot = registry
                        .build(name, play_bot_seed(config.seed, p), config.variant)
                        .map_err(|e| ApiError {
                            message: format!("bots: seat {p}: {}", e.message),
                            ..e
                        })?;
                    // Built from its seed again when it decides.
                    Some(match Seat::park(bot, name) {
                        Seat::Parked(_) => Seat::Parked(None),
                        live => live,
                    })
                }
                None => None,
            });
        }
        Ok(Seats {
            bots,
            players,
            thinking: None,
        })
    }

    /// One per seat: a bot's name, or `None` for the person.
    pub fn players(&self) -> &[Option<String>] {
        &self.players
    }

    /// The seat whose bot is thinking now.
    pub fn thinking(&self) -> Option<usize> {
        self.thinking
    }

    /// Whether the bot at `p` (to move) may move now, and whether it decides at once (it
    /// does not search); or why not.
    pub fn may_move(&self, p: usize) -> Result<bool, ApiError> {
        if self.thinking.is_some() {
            return Err(ApiError::conflict(format!(
                "seat {p}'s bot is thinking already: its move comes with the step in progress"
            )));
        }
        if self.bots[p].is_none() {
            return Err(your_turn());
        }
        Ok(decides_at_once(self.players[p].as_deref().unwrap_or("")))
    }

    /// Takes the bot at `p` (to move) out of its seat, with the position `s` it decides
    /// from, or refuses as [`Seats::may_move`] does.
    pub fn take_turn(&mut self, p: usize, s: State) -> Result<Turn, ApiError> {
        self.may_move(p)?;
        let kept = self.bots[p].take().ok_or_else(your_turn)?;
        self.thinking = Some(p);
        Ok(Turn {
            seat: p,
            kept,
            position: s,
            name: self.players[p].clone().unwrap_or_default(),
        })
    }

    /// Puts a decided turn's bot back in its seat (nobody is thinking any more): the card
    /// it chose, or why there is none.
    pub fn hand_back(&mut self, d: Decided) -> Result<Card, ApiError> {
        self.bots[d.seat] = Some(d.kept);
        self.thinking = None;
        d.card
    }

    /// The bot at `p`, alive (every one is during a record's replay:
    /// [`Seats::revive_all`]).
    pub fn live(&mut self, p: usize) -> Option<&mut (dyn Bot + 'static)> {
        match &mut self.bots[p] {
            Some(Seat::Live(bot)) => Some(bot.as_mut()),
            _ => None,
        }
    }

    /// Builds every parked bot of a game not yet played (`config`'s), for a replay that
    /// asks each bot for its decisions.
    pub fn revive_all(&mut self, registry: &Bots, config: &GameConfig) -> Result<(), ApiError> {
        for p in 0..self.bots.len() {
            if let Some(Seat::Parked(_)) = self.bots[p] {
                let name = self.players[p].clone().unwrap_or_default();
                let bot = registry.build(&name, play_bot_seed(config.seed, p), config.variant)?;
                self.bots[p] = Some(Seat::Live(bot));
            }
        }
        Ok(())
    }

    /// Parks every search bot again after a replay.
    pub fn park_all(&mut self) {
        for p in 0..self.bots.len() {
            if let Some(Seat::Live(bot)) = self.bots[p].take() {
                let name = self.players[p].clone().unwrap_or_default();
                self.bots[p] = Some(Seat::park(bot, &name));
            }
        }
    }
}

impl Turn {
    /// The bot's decision, made without the game's lock: a parked bot is revived first
    /// (from its seed and snapshot), and parked again after (its tables dropped before
    /// the lock is taken again). A bot that cannot be revived keeps its seat as it was.
    pub fn decide(self, bots: &Bots) -> Decided {
        let Turn {
            seat,
            kept,
            position,
            name,
        } = self;
        let seed = play_bot_seed(position.config().seed, seat);
        let mut bot = match kept {
            Seat::Live(bot) => bot,
            Seat::Parked(words) => {
                match revive(bots, &name, seed, position.variant(), words.as_deref()) {
                    Ok(bot) => bot,
                    Err(e) => {
                        return Decided {
                            seat,
                            kept: Seat::Parked(words),
                            card: Err(e),
                            think_ms: 0.0,
                        }
                    }
                }
            }
        };
        let start = Instant::now();
        let card = bot.act(&position.view(seat)).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("seat {seat}'s bot: {e}"),
            )
        });
        let think_ms = start.elapsed().as_secs_f64() * 1e3;
        Decided {
            seat,
            kept: Seat::park(bot, &name),
            card,
            think_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Seat, Seats};
    use crate::{bots::Bots, ServeOptions};
    use yokai_septet::State;
    use yokai_septet::{GameConfig, Variant};

    #[test]
    fn a_bot_that_cannot_be_revived_gets_its_seat_back_as_it_was() {
        let bots = Bots::new(&ServeOptions::default()).unwrap();
        let config = GameConfig::new(Variant::FourPlayer, 7);
        let players = vec![None, Some("pimc:10".to_string()), None, None];
        let mut seats = Seats::build(players, &config, &bots).unwrap();
        let s = State::new(config);
        let mut turn = seats.take_turn(1, s).unwrap();
        assert_eq!(seats.thinking(), Some(1));
        // A snapshot that is not the bot's: its revival fails.
        turn.kept = Seat::Parked(Some(vec![1]));
        let decided = turn.decide(&bots);
        let e = seats.hand_back(decided).unwrap_err();
        assert_eq!(e.status, 500, "{}", e.message);
        assert_eq!(seats.thinking(), None);
        assert!(matches!(seats.bots[1], Some(Seat::Parked(Some(ref w))) if w == &[1]));
        // The seat may move again (and fail again the same way until the cause is fixed).
        assert_eq!(seats.may_move(1).ok(), Some(false));
    }
}
