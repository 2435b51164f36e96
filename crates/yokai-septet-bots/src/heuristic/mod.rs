//! A rule-based player for every variant.
//!
//! It is deliberately cheap (no search, no allocation) because it is also the playout
//! policy of the search bot, where it runs hundreds of thousands of times per second.
//! Every play decision prices each legal card with [`Ctx`]'s one-trick model:
//! - following: win tricks that carry bosses with the cheapest card that holds, dump
//!   bosses onto tricks the partner is winning, never feed bosses to the other side, and
//!   steer clear of a seventh trick while short of bosses (R7.2) — or push the other side
//!   into it;
//! - leading: cards likely to hold when that helps, low cards otherwise, emptying short
//!   suits so that later bosses can be dumped or tricks ruffed; the first lead of a seal
//!   round picks the trump suit (R9) from the longest, strongest suit;
//! - seal variants: a boss whose other copy the own team already captured this round is
//!   worth much more (it completes a seal), one the other team holds a copy of is nearly
//!   worthless, and denying the other team its seals counts as much as making one's own;
//! - passing: keep the A, the trumps and point-worthy bosses, pass low cards from the
//!   shortest suits (voids win tricks later).

use yokai_septet::Phase;
use yokai_septet::SeatView;
use yokai_septet::{Card, CardSet, Suit};

mod pricing;
#[cfg(test)]
mod tests;

use super::{has_decision, snapshot_words, Bot, BotError};
use pricing::{Ctx, Odds};

/// The rule-based player. Deterministic: the seed is accepted for the common interface.
#[derive(Clone, Debug, Default)]
pub struct HeuristicBot;

impl HeuristicBot {
    /// The heuristic bot (deterministic: the seed is not used).
    pub fn new(_seed: u64) -> HeuristicBot {
        HeuristicBot
    }

    /// The heuristic's choice for `view` (its seat must be to act).
    pub fn choose(view: &SeatView) -> Card {
        let legal = view.legal_actions();
        if legal.len() == 1 {
            return legal.first().unwrap();
        }
        if view.phase() == Phase::Pass {
            return pass_pick(view, legal);
        }
        let ctx = Ctx::new(view);
        if ctx.trick_len == 0 {
            if ctx.trump.is_none() {
                return seal_first_lead(&ctx);
            }
            best_by(legal, |c| lead_value(&ctx, c))
        } else {
            best_by(legal, |c| follow_value(&ctx, c))
        }
    }
}

impl HeuristicBot {
    fn own_spec(&self) -> crate::BotSpec {
        crate::BotSpec::bare(crate::Family::Heuristic)
    }
}

impl Bot for HeuristicBot {
    crate::named_by_spec!();

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        has_decision(self, view)?;
        Ok(HeuristicBot::choose(view))
    }

    fn reseed(&mut self, _seed: u64) {}

    /// Deterministic: nothing to carry between decisions.
    fn snapshot(&self) -> Option<Vec<u64>> {
        Some(Vec::new())
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        snapshot_words::<0>(self.name(), words).map(drop)
    }
}

/// The card of `set` with the highest score (the lowest id among equals).
fn best_by(set: CardSet, mut score: impl FnMut(Card) -> f32) -> Card {
    let mut best = set.first().expect("a decision needs a legal card");
    let mut best_score = f32::NEG_INFINITY;
    for c in set {
        let s = score(c);
        if s > best_score {
            best = c;
            best_score = s;
        }
    }
    best
}

/// Expected value for my side of a trick whose cards are `cards`, given that my card is
/// `mine` and the trick's `odds`.
fn trick_value(ctx: &Ctx, cards: CardSet, mine: Card, odds: Odds) -> f32 {
    let p = odds.p_we_win;
    let nb = cards.bosses().len();
    let v = ctx.bosses_value(cards);
    let my_side = ctx.side(ctx.me);
    let opp = if ctx.friend(odds.best_seat) {
        (ctx.me + 1) % ctx.n
    } else {
        odds.best_seat
    };
    let win = v + ctx.trick_delta(my_side, nb);
    let lose = -v - ctx.trick_delta(ctx.side(opp), nb);
    p * win + (1.0 - p) * lose - ctx.keep_value(mine)
}

fn follow_value(ctx: &Ctx, c: Card) -> f32 {
    trick_value(ctx, ctx.trick_set.with(c), c, ctx.follow_odds(c))
}

fn lead_value(ctx: &Ctx, c: Card) -> f32 {
    let mut v = trick_value(ctx, CardSet::EMPTY.with(c), c, ctx.lead_odds(c));
    let suit_len = ctx.hand.of_suit(c.suit()).len();
    if suit_len == 1 && Some(c.suit()) != ctx.trump {
        v += 0.12; // leaves a void: later bosses can be dumped, tricks ruffed
    }
    v
}

/// First lead of a seal round (R9): the led suit becomes trump, so lead the top card of
/// the longest, strongest suit.
fn seal_first_lead(ctx: &Ctx) -> Card {
    let strength = |s: Suit| -> f32 {
        let cards = ctx.hand.of_suit(s);
        let ranks: f32 = cards.iter().map(|c| c.rank() as f32 / 6.0).sum();
        cards.len() as f32 + ranks + if cards.contains(Card::ACE) { 1.5 } else { 0.0 }
    };
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| !ctx.hand.of_suit(s).is_empty())
        .max_by(|&a, &b| strength(a).total_cmp(&strength(b)))
        .expect("a leader holds a card");
    let cards = ctx.hand.of_suit(suit);
    // The A wins the trick whatever is led, so lead the suit's strongest other card.
    let others = cards.minus(CardSet::EMPTY.with(Card::ACE));
    others.highest_in_suit(suit).unwrap_or(Card::ACE)
}

/// One passing pick (R4.2): the card least worth keeping.
fn pass_pick(view: &SeatView, legal: CardSet) -> Card {
    let v = view.variant();
    let trump = view.trump_suit();
    // What stays in hand once the picks made so far are gone.
    let keep = legal;
    let worth = |c: Card| -> f32 {
        if c == Card::ACE {
            return 100.0;
        }
        let s = c.suit();
        let rank = c.rank() as f32;
        let len = keep.of_suit(s).len() as f32;
        if c.is_boss() {
            let pts = if v.is_seal() || Some(s) == trump {
                1
            } else {
                yokai_septet::rules::scoring::boss_value(v, s)
            };
            return 20.0 + 5.0 * pts as f32;
        }
        if Some(s) == trump {
            return 10.0 + rank;
        }
        rank + 2.0 * len
    };
    best_by(legal, |c| -worth(c))
}
