//! Bounds on the value of a position. The boss bounds ([`Pos::value_bounds`]): what
//! each side could still score if every live boss went its way, at any position. The
//! sure-outcome bounds ([`super::Techniques::sure_bounds`]): at a trick boundary, what
//! the cards that cannot lose a trick make certain or impossible, so that a null-window
//! search whose target is out of reach stops at once (DDS's quick and later tricks, for
//! this game's objectives).
//!
//! # Sure cards
//! A card of a seat is *sure* when every trick it is played to is won by the seat's side,
//! whatever anyone plays: the A (R6.1), and a trump when the A and every live trump of
//! its value or higher (both boss copies in the seal variants) are in the side's hands
//! (R6.2: the trick goes to the A or to its highest trump, both then the side's; a
//! trump wins as a discard too). Cards never change hands during play, so a sure card
//! stays sure until it is played. Which cards are sure is read from the trump suit's
//! top, so a bound rests on the ranks of the trump suit from its lowest sure card up
//! (partition search keys them).
//!
//! **Lemma.** A seat holding `k` sure cards among its `T` cards (`T` tricks left) has
//! played at least `m − (T − k)` of them after `m` more tricks, each in its own trick,
//! so its side wins at least that many of those `m` tricks. So a side wins at least `k`
//! (its seat with the most sure cards) of the tricks left if the round is played to its
//! end, and any other side at most `T − k` of them, at any moment. (Any subset of the
//! sure cards gives a weaker true statement, which is why the bounds hold in every
//! position that agrees on the trump suit's ranks they rest on.)
//!
//! # `4p` and `3p` (R7)
//! Whoever ends the round decides who wins it; each way is possible only if:
//! - R7.1 for side `X`: its captured bosses and the live bosses no other side holds as
//!   sure cards (those go to their holder's side) reach the threshold;
//! - R7.2 for side `Y` (its 7th trick; every other side wins): `Y`'s tricks plus `T`
//!   minus the most sure cards of a seat of another side reach 7 (lemma);
//! - R7.3 (all tricks played, the last trick's winner wins): no side reaches 7 tricks
//!   or the boss threshold by the end, so every side's tricks plus its sure cards stay
//!   at 6 or below and all the bosses still in play (captured or live: every live one
//!   is captured by the end) fit below the threshold of every side (6 in both variants:
//!   R7.3 needs a face-up boss); the last trick's winner `X` takes at least one more
//!   trick and its sure cards' tricks and still ends at 6 or below.
//!
//! The root side can win only by R7.1 of its own, R7.2 of another side, or R7.3 won by
//! itself; it can lose only by R7.1 of another side, R7.2 of its own, or R7.3 won by
//! another side. Where none of its ways to win is possible the value is at most `−1`
//! (a loser scores nothing: `2·(0 − their points) − 1`); where none of its ways to lose
//! is, at least `1` ([`super::win_threshold`]).
//!
//! # Seal variants (R9)
//! A side can seal a suit only if both copies of its boss are in its captures or still
//! live and not sure cards of the other side; a seal is *certain* (if the round is
//! played out, as it is unless someone wins the game) when each copy is in the side's
//! captures or is one of its sure cards. The boss bounds ([`Pos::seal_bounds`]) count
//! both.

use super::position::{fold_second_copies, Ctx, Pos, NO_SUIT};
use super::value::{GAME_WIN, INF};
use yokai_septet::rules::scoring::{
    blocked_seals, boss_points, boss_threshold, sealed_suits, seals_to_win, LOSING_TRICKS,
};
use yokai_septet::Scoring;
use yokai_septet::{Card, CardSet, Suit};

/// The sure cards of a position at a trick boundary (see the module documentation).
pub(super) struct SureCards {
    /// Per side: its sure cards.
    pub by_side: [u64; 3],
    /// Per side: the most sure cards one of its seats holds.
    pub most: [u32; 3],
    /// The sure trumps, folded ([`fold_second_copies`]): the ranks the bounds rest on.
    pub ranks: u64,
}

impl Pos {
    /// The sure cards at a trick boundary.
    pub(super) fn sure_cards(&self, ctx: &Ctx) -> SureCards {
        let n = ctx.n as usize;
        let mut side_hands = [0u64; 3];
        for seat in 0..n {
            side_hands[ctx.side_of(seat as u8) as usize] |= self.hands[seat];
        }
        let live = side_hands[0] | side_hands[1] | side_hands[2];
        let ace = Card::ACE.bit();
        let holder = |cards: u64| (0..3).find(|&x| side_hands[x] & cards != 0);
        // Only the A's side (or, with the A gone, the top trump's) can hold sure trumps:
        // the run of the trump suit's top values all in its hands.
        let mut owner = holder(ace);
        let mut run = 0;
        if self.trump != NO_SUIT {
            let t = self.trump as u32;
            // The A (Wind's lowest card) is not counted as a trump: it is sure on its own.
            let lowest = u32::from(t == 0);
            for r in (lowest..7).rev() {
                let mut cards = 1u64 << (7 * t + r);
                if r == 6 - t {
                    cards |= CardSet::second_bosses_of(1 << t).bits();
                }
                let cards = cards & live;
                if cards == 0 {
                    continue;
                }
                let Some(x) = owner.or_else(|| holder(cards)) else {
                    break;
                };
                owner = Some(x);
                if cards & !side_hands[x] != 0 {
                    break;
                }
                run |= cards;
            }
        }
        let mut by_side = [0u64; 3];
        for (x, sure) in by_side.iter_mut().enumerate() {
            *sure = side_hands[x] & ace | if owner == Some(x) { run } else { 0 };
        }
        let mut most = [0u32; 3];
        for seat in 0..n {
            let x = ctx.side_of(seat as u8) as usize;
            most[x] = most[x].max((self.hands[seat] & by_side[x]).count_ones());
        }
        SureCards {
            by_side,
            most,
            ranks: fold_second_copies(run),
        }
    }

    /// The boss bounds ([`Pos::value_bounds`]), narrowed at a trick boundary by the sure
    /// bounds where `ctx` has them on and they could refute the `window` `(alpha, beta)`
    /// that the boss bounds leave open (`None`: the narrowest bounds); with the folded
    /// cards whose ranks they rest on.
    #[inline]
    pub(super) fn bounds(&self, ctx: &Ctx, window: Option<(i32, i32)>) -> (i32, i32, u64) {
        let (alpha, beta) = window.unwrap_or((-INF, INF));
        let (lo, hi) = self.value_bounds(ctx);
        if !ctx.techniques.sure_bounds || self.trick_len != 0 || hi <= alpha || lo >= beta {
            return (lo, hi, 0);
        }
        if ctx.variant.is_seal() {
            let sure = self.sure_cards(ctx);
            let (lo, hi) = self.seal_bounds(ctx, [sure.by_side[0], sure.by_side[1]]);
            return (lo, hi, sure.ranks);
        }
        // In `4p` and `3p` they say at most "lost" (below 0) or "won" (above it).
        if window.is_some() && alpha < -1 && beta > 1 {
            return (lo, hi, 0);
        }
        let sure = self.sure_cards(ctx);
        let (win, lose) = self.round_outcomes(ctx, &sure);
        let hi = if win { hi } else { hi.min(-1) };
        let lo = if lose { lo } else { lo.max(1) };
        (lo, hi, sure.ranks)
    }

    /// `4p`, `3p` at a trick boundary: whether the root side can still win the round, and
    /// whether it can still lose it (the module documentation proves each condition).
    fn round_outcomes(&self, ctx: &Ctx, sure: &SureCards) -> (bool, bool) {
        let v = ctx.variant;
        let sides = v.num_sides();
        let root = ctx.root_side as usize;
        let left = (v.tricks_per_round() - self.tricks_played as usize) as i32;
        let losing = LOSING_TRICKS as i32;
        let threshold = boss_threshold(v);
        let live_bosses = self.live() & CardSet::BOSSES.bits();
        let tricks = |x: usize| self.side_tricks[x] as i32;
        let most = |x: usize| sure.most[x] as i32;
        let others = |x: usize| (0..sides).filter(move |&y| y != x);
        // R7.1 for `x`: its bosses and the live ones no other side is sure to capture.
        let bosses = |x: usize| {
            let theirs = others(x).fold(0, |m, y| m | sure.by_side[y]);
            let reach = self.side_bosses[x] | live_bosses & !theirs;
            reach.count_ones() >= threshold
        };
        // R7.2 for `y`: its 7th trick, past the other sides' sure cards.
        let sevens = |y: usize| {
            let kept = others(y).map(most).max().unwrap_or(0);
            tricks(y) + left - kept >= losing
        };
        // R7.3, and its last trick won by `x`.
        let in_play =
            (self.side_bosses[..sides].iter().fold(0, |m, &b| m | b) | live_bosses).count_ones();
        let played_out = in_play <= sides as u32 * (threshold - 1)
            && (0..sides).all(|z| tricks(z) + most(z) < losing);
        let last_trick = |x: usize| played_out && tricks(x) + most(x).max(1) < losing;
        let win = bosses(root) || others(root).any(sevens) || last_trick(root);
        let lose = others(root).any(bosses) || sevens(root) || others(root).any(last_trick);
        (win, lose)
    }
}

impl Pos {
    /// Bounds on the value for the root side that hold whatever is played from here:
    /// what each side could still score if every live boss went its way.
    #[inline]
    pub(super) fn value_bounds(&self, ctx: &Ctx) -> (i32, i32) {
        let live = CardSet(self.live()).bosses();
        let root = ctx.root_side as usize;
        let v = ctx.variant;
        if v.is_seal() {
            return self.seal_bounds(ctx, [0, 0]);
        }
        let trump = Suit::from_index(self.trump as usize);
        let most = |side: usize| -> i32 {
            match ctx.scoring {
                Scoring::Basic => 1,
                Scoring::Advanced => {
                    let p = boss_points(v, CardSet(self.side_bosses[side]).union(live), trump);
                    if ctx.n == 3 {
                        (p as i32).max(3)
                    } else {
                        p as i32
                    }
                }
            }
        };
        let hi = 2 * most(root) + 1;
        let theirs = (0..v.num_sides())
            .filter(|&w| w != root)
            .map(most)
            .max()
            .unwrap_or(0);
        (-(2 * theirs + 1), hi)
    }

    /// The seal variants' bounds on the value for the root side: each team's seals still
    /// possible (unblocked suits whose two copies are in its captures or live, and not
    /// `sure` cards of the other team) and certain if the round is played out (each copy
    /// in its captures or one of its own `sure` cards: [`bounds`]); with no sure cards,
    /// what every live boss going either way allows.
    pub(super) fn seal_bounds(&self, ctx: &Ctx, sure: [u64; 2]) -> (i32, i32) {
        let live = CardSet(self.live()).bosses().bits();
        let root = ctx.root_side as usize;
        let v = ctx.variant;
        let to_win = seals_to_win(v);
        let unblocked = |team: usize| !blocked_seals(v, self.seals, team);
        let possible = |team: usize| -> u32 {
            let reach = self.side_bosses[team] | live & !sure[1 - team];
            (sealed_suits(CardSet(reach)) & unblocked(team)).count_ones()
        };
        let certain = |team: usize| -> u32 {
            let held = self.side_bosses[team] | sure[team];
            (sealed_suits(CardSet(held)) & unblocked(team)).count_ones()
        };
        let made = |team: usize| self.round_seals[team] as i32;
        let game = |team: usize, more: u32| self.seals[team].count_ones() + more >= to_win;
        let (mine, theirs) = (root, 1 - root);
        // Without a game win the round is played out: its certain seals are made.
        let hi = if game(mine, possible(mine)) {
            GAME_WIN
        } else if game(theirs, certain(theirs)) {
            -GAME_WIN
        } else {
            made(mine) + possible(mine) as i32 - made(theirs) - certain(theirs) as i32
        };
        let lo = if game(theirs, possible(theirs)) {
            -GAME_WIN
        } else if game(mine, certain(mine)) {
            GAME_WIN
        } else {
            made(mine) + certain(mine) as i32 - made(theirs) - possible(theirs) as i32
        };
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::super::position::fire_trumps_4p;
    use super::super::{Solver, Techniques};
    use super::INF;
    use yokai_septet::CardSet;

    fn cs(s: &str) -> u64 {
        s.parse::<CardSet>().unwrap().bits()
    }

    /// R6: the A, and the trumps from the top down while the A's side holds them all, win
    /// every trick they are played to; a higher trump held by the other side stops the run.
    #[test]
    fn r6_the_a_and_the_top_trumps_of_its_side_are_sure() {
        let hands = [
            cs("WA F12 E2"),
            cs("F10 E3 E4"),
            cs("F11 E5 E6"),
            cs("F9 E8 C3"),
        ];
        let (mut p, mut ctx) = fire_trumps_4p(hands, &[]);
        ctx.techniques = Techniques::ALL;
        let sure = p.sure_cards(&ctx);
        assert_eq!(sure.by_side[0], cs("WA F12 F11"));
        assert_eq!(sure.by_side[1], 0);
        // Seat 0 holds two of them, seat 2 one.
        assert_eq!(sure.most[0], 2);
        // With the A on the other side, no trump is sure: the A beats any of them.
        p.hands[0] = cs("E7 F12 E2");
        p.hands[1] = cs("WA E3 E4");
        let sure = p.sure_cards(&ctx);
        assert_eq!(sure.by_side, [0, cs("WA"), 0]);
    }

    /// R7.2: a side on 6 tricks whose last card is the A takes the last trick, its 7th,
    /// and loses the round unless that makes its 4th boss: the sure bounds say so before
    /// the trick is played, and the search agrees.
    #[test]
    fn r7_2_a_side_sure_to_take_its_seventh_trick_cannot_win() {
        let hands = [cs("WA"), cs("E3"), cs("C8"), cs("L5")];
        let (mut p, mut ctx) = fire_trumps_4p(hands, &[]);
        ctx.techniques = Techniques::ALL;
        p.tricks_played = 11;
        p.side_tricks = [6, 5, 0];
        p.side_bosses = [cs("S7 D7"), cs("F7 W7"), 0];
        let (_, hi, _) = p.bounds(&ctx, None);
        assert_eq!(hi, -1);
        let value = Solver::new().search(&ctx, &p, -INF, INF);
        assert!(value <= hi, "{value}");
        // With a third boss captured and one in the trick, the 7th trick is the 4th boss
        // too (R7.1 comes first): no bound.
        p.side_bosses[0] = cs("S7 D7 L7");
        p.hands[2] = cs("C7");
        let (_, hi, _) = p.bounds(&ctx, None);
        assert!(hi > 0, "{hi}");
    }
}
