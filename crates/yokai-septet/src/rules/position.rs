//! Made-up positions for tests only (`#[cfg(test)]`, and the feature `test-positions` that
//! the solver's tests turn on): a dealt game moved to its play phase, with hands, captured
//! cards, scores and seals set directly. Such a position need not be reachable by play,
//! which is why nothing but tests can build one: the rules' own tests use it to reach R7–R9
//! corner cases, the solver's exactness test to make endgames.

use crate::cards::{Card, CardSet, Suit};
use crate::rules::config::{GameConfig, Scoring, Variant};
use crate::rules::deal::Deal;
use crate::rules::state::{Phase, State};

/// A position under construction.
pub struct Position(State);

impl Position {
    /// A game of `variant` dealt from seed 0, in its first round's play phase with `trump`,
    /// every hand empty and nothing captured.
    pub fn play(variant: Variant, scoring: Scoring, trump: Suit) -> Position {
        let cfg = GameConfig::new(variant, 0).with_scoring(scoring);
        let mut s = State::with_deal(cfg, Deal::from_seed(variant, 0, 0));
        s.phase = Phase::Play;
        s.trump = trump as u8;
        s.hands = [CardSet::EMPTY; 4];
        Position(s)
    }

    /// Goes on from `state`.
    pub fn from(state: State) -> Position {
        Position(state)
    }

    /// `seat` holds `cards`.
    pub fn hand(mut self, seat: usize, cards: CardSet) -> Position {
        self.0.hands[seat] = cards;
        self
    }

    /// `seat` has also captured `cards` in `tricks` more tricks this round.
    pub fn captured(mut self, seat: usize, cards: CardSet, tricks: u8) -> Position {
        let s = &mut self.0;
        s.won[seat] = s.won[seat].union(cards);
        s.tricks_won[seat] += tricks;
        s.tricks_played += tricks;
        self
    }

    /// No seat has captured any card this round (trick counts unchanged).
    pub fn nothing_captured(mut self) -> Position {
        self.0.won = [CardSet::EMPTY; 4];
        self
    }

    /// The game's scores per side.
    pub fn side_scores(mut self, scores: [u16; 3]) -> Position {
        self.0.side_scores = scores;
        self
    }

    /// The suits each team has sealed (bit masks).
    pub fn seals(mut self, seals: [u8; 2]) -> Position {
        self.0.seals = seals;
        self
    }

    /// The winner of the last completed trick.
    pub fn last_trick_winner(mut self, seat: usize) -> Position {
        self.0.last_trick_winner = seat as u8;
        self
    }

    /// A trick as if played: seat `p` played `cards[p]` (from its hand), `winner` took
    /// them and leads next, and in the seal variants the trick's seals are made. `trump`
    /// becomes the trump suit if the round has none yet.
    pub fn trick_taken(mut self, cards: &[Card], winner: usize, trump: Suit) -> Position {
        let s = &mut self.0;
        let mut taken = CardSet::EMPTY;
        for (p, &c) in cards.iter().enumerate() {
            s.hands[p].remove(c);
            s.played_by[p].insert(c);
            taken.insert(c);
        }
        if s.trump_suit().is_none() {
            s.trump = trump as u8;
        }
        s.won[winner] = s.won[winner].union(taken);
        s.tricks_won[winner] += 1;
        s.tricks_played += 1;
        s.trick_leader = winner as u8;
        s.current = winner as u8;
        s.last_trick_winner = winner as u8;
        if s.variant().is_seal() {
            s.seal(winner, taken);
        }
        self
    }

    /// No trump suit yet (a seal round before its first lead).
    pub fn no_trump(mut self) -> Position {
        self.0.trump = u8::MAX;
        self
    }

    /// The position made.
    pub fn build(self) -> State {
        self.0
    }
}
