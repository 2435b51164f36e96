//! Resuming a saved game with its bots: one copy for the terminal's `play --load` and the
//! web page's load.
//!
//! A record keeps the decisions, not the bots' random streams. So the game is played
//! again from its seed, and each seat's bot is asked for its own recorded decisions as it
//! was then: its stream ends where it was at the break, and the game goes on exactly as
//! it would have without one (`tests/cli.rs` checks it against the uninterrupted game).

use yokai_septet::Card;
use yokai_septet::IllegalAction;
use yokai_septet::{Match, Record};

use super::{Bot, BotError};

/// A game at a table as a resume drives it: its match, the bots in some seats, and how
/// it applies a decision (the page also logs what the person may know of it).
pub trait Seated {
    /// The match so far.
    fn game(&self) -> &Match;
    /// The bot in `seat` (`None` for a person's seat).
    fn bot(&mut self, seat: usize) -> Option<&mut (dyn Bot + 'static)>;
    /// Applies the decision `card` of the player to move, dealing the next round after a
    /// round's end.
    fn apply(&mut self, card: Card) -> Result<(), IllegalAction>;
    /// Whether to go on replaying (the page's load stops when its client leaves or its
    /// time is up); asked before each decision.
    fn go_on(&self) -> bool {
        true
    }
}

/// Why a saved game could not be resumed.
#[derive(Debug)]
pub enum ResumeError {
    /// A seat's bot failed on one of its own recorded decisions.
    Bot {
        /// The bot's seat.
        seat: usize,
        /// What it answered.
        error: BotError,
    },
    /// A recorded decision is illegal where the replay reaches it.
    Illegal(IllegalAction),
    /// The replay is not the saved game: it was not dealt from its seed (R10).
    NotFromSeed,
    /// [`Seated::go_on`] said to stop.
    Stopped,
}

/// Plays `saved`'s decisions again on `table` (a fresh game of the record's configuration
/// and seats), each bot asked for its own decisions first (see the module docs), then
/// checks that the replay is the saved game (who sat where aside: an older record has no
/// `players`).
pub fn resume(table: &mut impl Seated, saved: &Record) -> Result<(), ResumeError> {
    for card in saved.actions() {
        if !table.go_on() {
            return Err(ResumeError::Stopped);
        }
        let s = *table.game().state();
        let seat = s
            .current_player()
            .expect("a recorded decision has a player");
        if let Some(bot) = table.bot(seat) {
            bot.act(&s.view(seat))
                .map_err(|error| ResumeError::Bot { seat, error })?;
        }
        table.apply(card).map_err(ResumeError::Illegal)?;
    }
    let mut replayed = table.game().record();
    replayed.players = saved.players.clone();
    if replayed != *saved {
        return Err(ResumeError::NotFromSeed);
    }
    Ok(())
}
