//! What a move did: the results [`State::apply`](crate::State::apply) reports (a trick
//! taken, a round ended and why). A leaf: the rules' modules all use these types, and they
//! use none of the rules.

use crate::cards::Card;
use crate::names;

/// Why a round ended (the record's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundEnd {
    /// R7.1: a side captured enough bosses.
    Bosses,
    /// R7.2: a side took 7 tricks without enough bosses.
    Tricks,
    /// R7.3: all hands are empty; the last trick's winner's side wins.
    LastTrick,
    /// Seal variants: 14 tricks played, no game win.
    Complete,
    /// Seal variants: a team won the game by sealing.
    Sealed,
}

names!(RoundEnd {
    Bosses => "bosses",
    Tricks => "tricks",
    LastTrick => "last_trick",
    Complete => "complete",
    Sealed => "sealed",
});

/// The result of one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundResult {
    /// Seats that won the round, as a bit mask (bit `p` = seat `p`).
    pub winners: u8,
    /// Why the round ended.
    pub reason: RoundEnd,
    /// What each seat gained this round (seal variants: seals its team made).
    pub points: [u16; 4],
}

impl RoundResult {
    /// Winning seats, ascending.
    pub fn winner_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(move |p| self.winners >> p & 1 == 1)
    }
}

/// A completed trick, as reported by [`State::apply`](crate::State::apply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrickResult {
    /// The seat that led the trick.
    pub leader: u8,
    /// Cards in play order starting with the leader's; `len` of them are valid.
    pub cards: [Card; 4],
    /// The number of cards (one per player).
    pub len: u8,
    /// The seat that took the trick (R6).
    pub winner: u8,
}

impl TrickResult {
    /// The cards in play order, from the leader's.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// What one [`State::apply`](crate::State::apply) did beyond moving a card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Set when this action completed a trick.
    pub trick: Option<TrickResult>,
    /// Seals made by that trick, as a bit mask over suits (for the trick winner's team).
    pub new_seals: u8,
    /// Set when this action ended a round.
    pub round: Option<RoundResult>,
    /// Whether the game (episode) is now over.
    pub game_over: bool,
}
