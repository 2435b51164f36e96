//! The public record of how each card of the round was played: whether it led its trick,
//! whether it went ahead (became the trick's best so far) and whether it was off the led
//! suit. Every player sees it; a belief model reads leads, ducks and discards from it
//! (public, with its encoding, as `crate::play_log`; `docs/inference.md`).
//!
//! Three card sets (24 bytes), not the sequence of plays: [`State`](super::State) stays a
//! small `Copy` value, and the engine pays a few bit operations per trick, in the loop
//! that already decides the trick's winner ([`super::trick::play_out`]). The order of the
//! tricks is not kept; what each card said about its player's hand is.

use crate::cards::{Card, CardSet};

/// How a card was played (see [`PlayLog`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayKind {
    /// It led its trick.
    Led,
    /// It followed the led suit and went ahead of the trick's best so far.
    Over,
    /// It followed the led suit and stayed behind (a duck, or no higher card).
    Under,
    /// Off the led suit and ahead: a trump (or the A) that took the lead.
    Ruff,
    /// Off the led suit and behind: a discard (or a trump too low).
    Discard,
}

impl PlayKind {
    /// Every kind, in the order of the belief encoder's blocks.
    pub const ALL: [PlayKind; 5] = [
        PlayKind::Led,
        PlayKind::Over,
        PlayKind::Under,
        PlayKind::Ruff,
        PlayKind::Discard,
    ];
}

/// The cards of the round's tricks by how they were played (public).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayLog {
    led: CardSet,
    ahead: CardSet,
    off_suit: CardSet,
}

impl PlayLog {
    /// Nothing played.
    pub const EMPTY: PlayLog = PlayLog {
        led: CardSet::EMPTY,
        ahead: CardSet::EMPTY,
        off_suit: CardSet::EMPTY,
    };

    /// Adds a trick, complete or in progress: its `lead`, the cards `played` to it, and
    /// those that went ahead when played ([`super::trick::play_out`]). The caller passes
    /// the set it already has, so that completing a trick builds it once.
    #[inline]
    pub(crate) fn record(&mut self, lead: Card, played: CardSet, ahead: CardSet) {
        self.led.insert(lead);
        self.ahead = self.ahead.union(ahead);
        self.off_suit = self
            .off_suit
            .union(played.minus(played.of_suit(lead.suit())));
    }

    /// The cards that led a trick.
    #[inline]
    pub fn led(&self) -> CardSet {
        self.led
    }

    /// The cards that were the best of their trick when played (the leads included).
    #[inline]
    pub fn ahead(&self) -> CardSet {
        self.ahead
    }

    /// The cards played off the led suit (their player was void in it).
    #[inline]
    pub fn off_suit(&self) -> CardSet {
        self.off_suit
    }

    /// How `card` was played, if it was played this round: a card the log does not name
    /// ([`PlayLog::led`], [`PlayLog::ahead`], [`PlayLog::off_suit`]) followed suit and
    /// stayed behind.
    pub fn kind(&self, card: Card) -> PlayKind {
        let (ahead, off) = (self.ahead.contains(card), self.off_suit.contains(card));
        match (self.led.contains(card), ahead, off) {
            (true, ..) => PlayKind::Led,
            (false, true, false) => PlayKind::Over,
            (false, false, false) => PlayKind::Under,
            (false, true, true) => PlayKind::Ruff,
            (false, false, true) => PlayKind::Discard,
        }
    }
}
