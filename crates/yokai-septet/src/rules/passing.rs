//! Passing and the first leader (R4.2, R4.3).
//!
//! Passing is a sequence of single-card picks, seat 0 first, then seat 1, and so on. Picked
//! cards stay in the picker's hand (hidden from everyone else) until every seat has picked;
//! then all passed cards move at once.

use crate::cards::{left_of, partner_of, Card, CardSet};
use crate::error::IllegalAction;
use crate::rules::config::Variant;

/// The seat that receives pick number `k` (0-based) of `seat` (R4.2). `seat` must be a
/// seat of `variant`.
#[inline]
pub fn pass_target(variant: Variant, seat: usize, k: usize) -> usize {
    match variant {
        // Across the table.
        Variant::FourPlayer => partner_of(seat),
        // To the left.
        Variant::ThreePlayer => left_of(seat, 1, 3),
        // One card to each other player: left, partner, right, in that order.
        Variant::Seal | Variant::SealShort => left_of(seat, 1 + k, 4),
    }
}

/// The inverse of [`pass_target`]: the seat whose pick number `k` goes to `receiver`.
#[inline]
pub(crate) fn pass_source(variant: Variant, receiver: usize, k: usize) -> usize {
    match variant {
        Variant::FourPlayer => partner_of(receiver),
        Variant::ThreePlayer => left_of(receiver, 2, 3),
        Variant::Seal | Variant::SealShort => left_of(receiver, 3 - k, 4),
    }
}

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

#[cfg(test)]
mod pass_tests {
    use super::*;

    #[test]
    fn r4_pass_source_inverts_pass_target() {
        for v in Variant::ALL {
            let n = v.num_players();
            for seat in 0..n {
                for k in 0..v.pass_count() {
                    let to = pass_target(v, seat, k);
                    assert_ne!(to, seat, "{v}: nobody passes to themselves");
                    assert_eq!(pass_source(v, to, k), seat, "{v}: seat {seat}, pick {k}");
                }
            }
        }
    }
}
