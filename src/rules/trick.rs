//! Playing a trick and deciding who wins it (R5, R6).

use crate::cards::{Card, CardSet, Suit};
use crate::error::IllegalAction;

/// R5: the leader plays anything; a follower holding the led suit must follow it. The A is
/// a Wind card, so it follows (and must follow, when it is the last Wind card) a Wind lead.
#[inline]
pub fn legal_plays(hand: CardSet, led: Option<Suit>) -> CardSet {
    match led {
        None => hand,
        Some(suit) => {
            let follow = hand.of_suit(suit);
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
    }
}

/// Checks a play of `card` by `seat`, who holds `hand`, to a trick whose led suit is `led`.
pub(super) fn check_play(
    hand: CardSet,
    led: Option<Suit>,
    seat: usize,
    card: Card,
) -> Result<(), IllegalAction> {
    if !hand.contains(card) {
        return Err(IllegalAction::NotInHand { card, seat });
    }
    if let Some(led) = led {
        if card.suit() != led && !hand.of_suit(led).is_empty() {
            return Err(IllegalAction::MustFollowSuit { card, led });
        }
    }
    Ok(())
}

/// R6: index (in play order) of the card that wins `cards`, led by `cards[0]`.
///
/// 1. The A wins. 2. Else the highest trump. 3. Else the highest card of the led suit.
///
/// Each card gets a strength key; a later card wins only with a strictly greater key, so
/// of two equal boss copies (seal variants) the one played first stays ahead.
#[inline]
pub fn winning_index(cards: &[Card], trump: Suit) -> usize {
    let led = cards[0].suit();
    let key = |c: Card| -> u8 {
        if c == Card::ACE {
            32
        } else if c.suit() == trump {
            16 + c.rank()
        } else if c.suit() == led {
            8 + c.rank()
        } else {
            0
        }
    };
    let mut best = 0;
    let mut best_key = key(cards[0]);
    for (i, &c) in cards.iter().enumerate().skip(1) {
        let k = key(c);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}
