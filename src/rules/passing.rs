//! Passing and the first leader (R4.2, R4.3).
//!
//! Passing is a sequence of single-card picks, seat 0 first, then seat 1, and so on. Picked
//! cards stay in the picker's hand (hidden from everyone else) until every seat has picked;
//! then all passed cards move at once.

use crate::cards::{pass_target, Card, CardSet};
use crate::error::IllegalAction;
use crate::rules::config::Variant;

/// The cards `hand` may still pick: every card not already picked.
#[inline]
pub fn legal_picks(hand: CardSet, picks: &[Card]) -> CardSet {
    picks
        .iter()
        .fold(hand, |h, &c| h.minus(CardSet::EMPTY.with(c)))
}

/// Checks a pick of `card` by `seat`, who holds `hand` and has made `picks`.
pub(super) fn check_pick(
    hand: CardSet,
    picks: &[Card],
    seat: usize,
    card: Card,
) -> Result<(), IllegalAction> {
    if !hand.contains(card) {
        return Err(IllegalAction::NotInHand { card, seat });
    }
    if picks.contains(&card) {
        return Err(IllegalAction::AlreadyPicked { card, seat });
    }
    Ok(())
}

/// The hands after every seat's `picks` (`pass_count` each) move to their receivers, all
/// at once.
pub(super) fn exchange(
    variant: Variant,
    hands: [CardSet; 4],
    picks: &[[Card; 3]; 4],
) -> [CardSet; 4] {
    let mut out = hands;
    for (seat, picks) in picks.iter().enumerate().take(variant.num_players()) {
        for (k, &c) in picks[..variant.pass_count()].iter().enumerate() {
            out[seat].remove(c);
            out[pass_target(variant, seat, k)].insert(c);
        }
    }
    out
}

/// R4.3, first round: the holder of the A leads; if the A is the face-up card, the holder
/// of the Snow 13.
pub(super) fn first_round_leader(hands: &[CardSet], trump_card: Option<Card>) -> usize {
    let key = if trump_card == Some(Card::ACE) {
        Card::SNOW_13
    } else {
        Card::ACE
    };
    hands
        .iter()
        .position(|h| h.contains(key))
        .expect("a complete deal puts the A (or the Snow 13) in some hand")
}
