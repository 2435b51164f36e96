//! The solver's position: what decides the rest of the round and nothing else, as a
//! small `Copy` value, and how playing a card moves it on (R6's trick, then R7/R9's end
//! of the round, by the rules' own kernels).

use super::techniques::Techniques;
use super::value::GAME_WIN;
use yokai_septet::rules::scoring::{
    blocked_seals, new_seals, round_end, round_points, seal_round_end,
};
use yokai_septet::rules::trick::{legal_plays, trick_winner};
use yokai_septet::{seat::left_of, seat::side_of, Card, CardSet, Suit};
use yokai_septet::{RoundEnd, State};
use yokai_septet::{Scoring, Variant};

/// Largest number of legal cards (a `3p` hand).
pub(super) const MAX_MOVES: usize = 16;
/// `Pos::trump` before a seal round's first lead fixes it.
pub(super) const NO_SUIT: u8 = 7;

/// The solver's position: what decides the rest of the round, and nothing else.
#[derive(Clone, Copy)]
pub(super) struct Pos {
    pub(super) hands: [u64; 4],
    pub(super) trick: [Card; 4],
    pub(super) trick_len: u8,
    pub(super) leader: u8,
    pub(super) current: u8,
    pub(super) trump: u8,
    pub(super) tricks_played: u8,
    pub(super) side_tricks: [u8; 3],
    pub(super) side_bosses: [u64; 3],
    pub(super) seals: [u8; 2],
    pub(super) round_seals: [u8; 2],
}

/// What does not change during one search.
#[derive(Clone, Copy)]
pub(super) struct Ctx {
    pub(super) variant: Variant,
    pub(super) scoring: Scoring,
    pub(super) n: u8,
    pub(super) root_side: u8,
    /// Mixed into every table key: the objective (variant, scoring, root side).
    pub(super) salt: u64,
    pub(super) techniques: Techniques,
}

impl Ctx {
    #[inline]
    pub(super) fn side_of(&self, seat: u8) -> u8 {
        side_of(seat as usize, self.n == 4) as u8
    }
}

/// Each seal second copy moved onto its first copy's place ([`CardSet::fold_second_copies`]).
#[inline]
pub(super) fn fold_second_copies(set: u64) -> u64 {
    CardSet(set).fold_second_copies().bits()
}

/// The cards of `c`'s suit (a mask over ids).
#[inline]
pub(super) fn suit_of(c: u32) -> u64 {
    Card::from_id_unchecked(c as u8).suit().cards().bits()
}

/// The result of playing one card: the round's end (its value), or the next position.
pub(super) enum Step {
    End(i32),
    Next(Pos),
}

impl Pos {
    pub(super) fn from_state(s: &State) -> Pos {
        let v = s.variant();
        let n = v.num_players();
        let mut side_tricks = [0u8; 3];
        let mut side_bosses = [0u64; 3];
        for p in 0..n {
            let side = v.side_of(p);
            side_tricks[side] += s.tricks_won(p) as u8;
            side_bosses[side] |= s.won_cards(p).bosses().bits();
        }
        let mut hands = [0u64; 4];
        for (p, h) in hands.iter_mut().enumerate().take(n) {
            *h = s.hand(p).bits();
        }
        let mut trick = [Card::ACE; 4];
        for (t, &c) in trick.iter_mut().zip(s.trick_cards()) {
            *t = c;
        }
        Pos {
            hands,
            trick,
            trick_len: s.trick_cards().len() as u8,
            leader: s.trick_leader().map_or(u8::MAX, |l| l as u8),
            current: s.current_player().map_or(u8::MAX, |p| p as u8),
            trump: s.trump_suit().map_or(NO_SUIT, |t| t as u8),
            tricks_played: s.tricks_played() as u8,
            side_tricks,
            side_bosses,
            seals: [s.seals(0), s.seals(1)],
            round_seals: [s.round_seals(0), s.round_seals(1)],
        }
    }

    #[inline]
    pub(super) fn live(&self) -> u64 {
        let mut live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        for &c in &self.trick[..self.trick_len as usize] {
            live |= c.bit();
        }
        live
    }

    #[inline]
    pub(super) fn legal(&self) -> u64 {
        let led = (self.trick_len > 0).then(|| self.trick[0].suit());
        legal_plays(CardSet(self.hands[self.current as usize]), led).bits()
    }

    /// Plays `c` (legal) for the player to move.
    #[inline]
    pub(super) fn play(&self, ctx: &Ctx, c: u8) -> Step {
        let mut q = *self;
        let p = q.current;
        let card = Card::from_id_unchecked(c);
        q.hands[p as usize] &= !card.bit();
        if q.trick_len == 0 && q.trump == NO_SUIT {
            // R9: a seal round's first lead fixes the trump suit.
            q.trump = card.suit() as u8;
        }
        q.trick[q.trick_len as usize & 3] = card;
        q.trick_len += 1;
        if q.trick_len < ctx.n {
            q.current = left_of(p as usize, 1, ctx.n as usize) as u8;
            return Step::Next(q);
        }
        q.finish_trick(ctx)
    }

    /// R6 and the trick's tallies, then the round's end (the rules' kernels decide).
    fn finish_trick(mut self, ctx: &Ctx) -> Step {
        let cards = &self.trick[..ctx.n as usize];
        let trump = Suit::from_index(self.trump as usize).unwrap_or(Suit::Wind);
        let winner = trick_winner(self.leader as usize, cards, trump);
        let set = cards.iter().fold(CardSet::EMPTY, |m, &c| m.with(c));
        let side = ctx.side_of(winner as u8) as usize;
        self.side_tricks[side] += 1;
        self.side_bosses[side] |= set.bosses().bits();
        self.tricks_played += 1;
        self.trick_len = 0;
        self.leader = winner as u8;
        self.current = winner as u8;
        if ctx.variant.is_seal() {
            self.seal_end(ctx, side, set)
        } else {
            self.round_end(ctx, side)
        }
    }

    /// R9 after a trick won by `team` that captured `set`.
    fn seal_end(mut self, ctx: &Ctx, team: usize, set: CardSet) -> Step {
        let v = ctx.variant;
        let blocked = blocked_seals(v, self.seals, team);
        let new = new_seals(set, CardSet(self.side_bosses[team]), blocked);
        self.seals[team] |= new;
        self.round_seals[team] += new.count_ones() as u8;
        let root = ctx.root_side as usize;
        match seal_round_end(v, self.seals[team], self.tricks_played as usize) {
            None => Step::Next(self),
            Some(RoundEnd::Sealed) => Step::End(if team == root { GAME_WIN } else { -GAME_WIN }),
            Some(_) => Step::End(self.round_seals[root] as i32 - self.round_seals[1 - root] as i32),
        }
    }

    /// R7 and R8 after a trick won by `side`.
    fn round_end(self, ctx: &Ctx, side: usize) -> Step {
        let v = ctx.variant;
        let Some((winners, reason)) = round_end(
            v,
            side,
            CardSet(self.side_bosses[side]),
            self.side_tricks[side] as usize,
            self.tricks_played as usize,
        ) else {
            return Step::Next(self);
        };
        let captured = self.side_bosses.map(CardSet);
        let in_hands = CardSet(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]);
        let trump = Suit::from_index(self.trump as usize);
        let points = round_points(v, ctx.scoring, winners, reason, &captured, in_hands, trump);
        let root = ctx.root_side as usize;
        let theirs = (0..v.num_sides())
            .filter(|&w| w != root)
            .map(|w| points[w] as i32)
            .max()
            .unwrap_or(0);
        let won = if winners >> root & 1 == 1 { 1 } else { -1 };
        Step::End(2 * (points[root] as i32 - theirs) + won)
    }
}

/// A `4p` position, Fire trumps, seat 0 leading the trick with `trick` on the table.
#[cfg(test)]
pub(super) fn fire_trumps_4p(hands: [u64; 4], trick: &[&str]) -> (Pos, Ctx) {
    let mut cards = [Card::ACE; 4];
    for (t, c) in cards.iter_mut().zip(trick) {
        *t = c.parse().unwrap();
    }
    let pos = Pos {
        hands,
        trick: cards,
        trick_len: trick.len() as u8,
        leader: 0,
        current: trick.len() as u8,
        trump: Suit::Fire as u8,
        tricks_played: 0,
        side_tricks: [0; 3],
        side_bosses: [0; 3],
        seals: [0; 2],
        round_seals: [0; 2],
    };
    let ctx = Ctx {
        variant: Variant::FourPlayer,
        scoring: Scoring::Advanced,
        n: 4,
        root_side: 0,
        salt: 0,
        techniques: Techniques::ALL,
    };
    (pos, ctx)
}
