//! Playing a trick and deciding who wins it (R5, R6).

use crate::cards::{left_of, Card, CardSet, Suit, NUM_SUITS, SEAL_DECK};
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

/// R6: the strength of `card` in a trick led in suit `led` with trump suit `trump` (suit
/// indices; any value above 6 stands for none). The A wins any trick, then trumps by
/// rank, then the led suit by rank; a card of another suit cannot win. A later card beats
/// the best so far only with a strictly greater strength, so of two equal boss copies
/// (seal variants) the one played first stays ahead.
#[inline(always)]
pub const fn strength(card: Card, led: u8, trump: u8) -> u8 {
    let suit = card.suit() as u8;
    if card.id() == Card::ACE.id() {
        32
    } else if suit == trump {
        16 + card.rank()
    } else if suit == led {
        8 + card.rank()
    } else {
        0
    }
}

/// R6 for a card played onto `best`: the cards `c` that win the trick `[best, c]` under
/// `trump` (`winning_index(&[best, c], trump) == 1`). The table makes "how many of these
/// cards beat the best so far" one intersection and a popcount instead of a loop. It also
/// answers for a best card that is not the lead: the best of a trick is the A, a trump or
/// of the led suit, and in each case the cards beating it are the same whichever suit
/// was led.
#[inline]
pub fn beaters(best: Card, trump: Suit) -> CardSet {
    BEATERS[trump as usize][(best.id() & 63) as usize]
}

/// [`beaters`] for every trump suit and card (indexed by `id & 63`, like `Card`'s tables).
static BEATERS: [[CardSet; 64]; NUM_SUITS] = beaters_table();

const fn beaters_table() -> [[CardSet; 64]; NUM_SUITS] {
    let mut table = [[CardSet::EMPTY; 64]; NUM_SUITS];
    let mut trump = 0;
    while trump < NUM_SUITS {
        let mut best = 0;
        while best < SEAL_DECK {
            let b = Card::from_id_unchecked(best as u8);
            let led = b.suit() as u8;
            let ahead = strength(b, led, trump as u8);
            let mut bits = 0u64;
            let mut c = 0;
            while c < SEAL_DECK {
                let card = Card::from_id_unchecked(c as u8);
                if strength(card, led, trump as u8) > ahead {
                    bits |= card.bit();
                }
                c += 1;
            }
            table[trump][best] = CardSet(bits);
            best += 1;
        }
        trump += 1;
    }
    table
}

/// R6: index (in play order) of the card that wins `cards`, led by `cards[0]`.
///
/// 1. The A wins. 2. Else the highest trump. 3. Else the highest card of the led suit.
///
/// Of equal cards (two copies of a seal boss) the first played wins: a later card must
/// have a strictly greater strength.
#[inline]
pub fn winning_index(cards: &[Card], trump: Suit) -> usize {
    // Inlined, the unused set of `play_out` is dropped: one copy of R6, no cost.
    play_out(cards, trump).0
}

/// R6 card by card: the index of the card that wins `cards` (as [`winning_index`]), and
/// the cards that were ahead (the best of the trick so far) when they were played, the
/// lead included. What a follower did (took the lead, ducked under it) is public and
/// says something about its hand (`rules::play_log`).
#[inline(always)]
pub fn play_out(cards: &[Card], trump: Suit) -> (usize, CardSet) {
    let led = cards[0].suit() as u8;
    let trump = trump as u8;
    let mut best = 0;
    let mut best_key = strength(cards[0], led, trump);
    let mut ahead = 1u64 << cards[0].id();
    for (i, &c) in cards.iter().enumerate().skip(1) {
        let k = strength(c, led, trump);
        if k > best_key {
            best = i;
            best_key = k;
            ahead |= 1u64 << c.id();
        }
    }
    (best, CardSet(ahead))
}

/// R6: the seat that takes the complete trick `cards`, played in turn from `leader` (one
/// card per seat: `cards.len()` is the number of players).
#[inline]
pub fn trick_winner(leader: usize, cards: &[Card], trump: Suit) -> usize {
    left_of(leader, winning_index(cards, trump), cards.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The beaters table is R6 as `winning_index` plays it, for every trump suit and
    /// every pair of cards of the Seal deck (second boss copies included).
    #[test]
    fn beaters_are_the_cards_winning_a_two_card_trick() {
        for trump in Suit::ALL {
            for best in (0..SEAL_DECK as u8).map(Card::from_id_unchecked) {
                for c in (0..SEAL_DECK as u8).map(Card::from_id_unchecked) {
                    let wins = winning_index(&[best, c], trump) == 1;
                    assert_eq!(
                        beaters(best, trump).contains(c),
                        wins,
                        "{c} on {best}, {trump}"
                    );
                }
            }
        }
    }
}
