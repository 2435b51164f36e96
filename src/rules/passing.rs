//! Passing and the first leader (R4.2, R4.3).
//!
//! Passing is a sequence of single-card picks, seat 0 first, then seat 1, and so on. Picked
//! cards stay in the picker's hand (hidden from everyone else) until every seat has picked;
//! then all passed cards move at once.

use crate::cards::{Card, CardSet};
use crate::error::IllegalAction;
use crate::rules::config::Variant;
use crate::rules::state::State;

/// The cards `hand` may still pick: every card not already picked.
#[inline]
pub fn legal_picks(hand: CardSet, picks: &[Card]) -> CardSet {
    picks
        .iter()
        .fold(hand, |h, &c| h.minus(CardSet::EMPTY.with(c)))
}

/// Checks a pick by `seat` without changing anything.
pub(crate) fn check_pick(s: &State, seat: usize, card: Card) -> Result<(), IllegalAction> {
    if !s.hands[seat].contains(card) {
        return Err(IllegalAction::NotInHand { card, seat });
    }
    if s.picks(seat).contains(&card) {
        return Err(IllegalAction::AlreadyPicked { card, seat });
    }
    Ok(())
}

/// The seat that receives pick number `k` (0-based) of `seat` (R4.2). `seat` must be a
/// seat of `variant`. No division: this runs in the observation encoder's hot path.
#[inline]
pub fn pass_target(variant: Variant, seat: usize, k: usize) -> usize {
    match variant {
        Variant::FourPlayer => (seat + 2) & 3,
        Variant::ThreePlayer => {
            if seat == 2 {
                0
            } else {
                seat + 1
            }
        }
        // One card to each other player: left, partner, right, in that order.
        Variant::Seal | Variant::SealShort => (seat + 1 + k) & 3,
    }
}

/// Moves every picked card to its receiver, all at once.
pub(crate) fn exchange(s: &mut State) {
    let v = s.config.variant;
    let mut hands = s.hands;
    for seat in 0..v.num_players() {
        for (k, &c) in s.picks(seat).iter().enumerate() {
            hands[seat].remove(c);
            hands[pass_target(v, seat, k)].insert(c);
        }
    }
    s.hands = hands;
}

/// R4.3, first round: the holder of the A leads; if the A is the face-up card, the holder
/// of the Snow 13.
pub(crate) fn first_round_leader(s: &State) -> usize {
    let key = if s.deal.trump_card == Some(Card::ACE) {
        Card::SNOW_13
    } else {
        Card::ACE
    };
    (0..s.num_players())
        .find(|&p| s.hands[p].contains(key))
        .expect("a complete deal puts the A (or the Snow 13) in some hand")
}
