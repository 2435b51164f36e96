//! Determinizations for the search bot: complete deals consistent with one seat's view.
//!
//! A stop-gap until `crate::sampler` (an exactly uniform sampler) lands: every caller goes
//! through [`determinize`], so swapping the implementation is a one-line change.
//!
//! Cards the seat knows the location of (what it passed) stay where they are; the rest of
//! the unseen cards are dealt to the other hands, respecting hand sizes and public voids.
//! Cards are placed most-constrained first, each into a random hand that may hold it
//! (weighted by free room), retrying a few times when that paints itself into a corner and
//! finally ignoring voids, which only a contradictory view could need.

use rand_core::RngCore;

use crate::card::{Card, CardSet};
use crate::deal::{shuffle, uniform_below};
use crate::state::State;
use crate::view::SeatView;

/// A random complete state agreeing with everything `view`'s seat knows.
pub(crate) fn determinize<R: RngCore>(view: &SeatView, rng: &mut R) -> State {
    let hands = sample_hands(view, rng);
    view.determinized(hands)
        .expect("sampled hands agree with the view's hand sizes and unseen cards")
}

fn sample_hands<R: RngCore>(view: &SeatView, rng: &mut R) -> [CardSet; 4] {
    let n = view.num_players();
    let me = view.seat();
    let mut base = [CardSet::EMPTY; 4];
    let mut room = [0u32; 4];
    let mut placed = CardSet::EMPTY;
    for p in (0..n).filter(|&p| p != me) {
        base[p] = view.known_in_hand(p);
        placed = placed.union(base[p]);
        room[p] = view.hand_len(p) as u32 - base[p].len();
    }
    let pool = view.unknown_cards().minus(placed);
    // Seats that may hold each card, by its suit.
    let allowed = |c: Card| -> u8 {
        let mut m = 0u8;
        for p in (0..n).filter(|&p| p != me) {
            if view.voids(p) >> c.suit() as u8 & 1 == 0 {
                m |= 1 << p;
            }
        }
        m
    };
    let mut cards = [Card::ACE; 56];
    let mut len = 0;
    for c in pool {
        cards[len] = c;
        len += 1;
    }
    let cards = &mut cards[..len];
    for attempt in 0..8 {
        shuffle(rng, cards);
        // Most constrained first: stable sort keeps the shuffled order among equals.
        let ignore_voids = attempt == 7;
        let mask = |c: Card| if ignore_voids { 0xF } else { allowed(c) };
        cards.sort_by_key(|&c| mask(c).count_ones());
        let mut hands = base;
        let mut free = room;
        let mut ok = true;
        for &c in cards.iter() {
            let m = mask(c);
            let total: u32 = (0..n).filter(|&p| m >> p & 1 == 1).map(|p| free[p]).sum();
            if total == 0 {
                ok = false;
                break;
            }
            let mut k = uniform_below(rng, total);
            for p in (0..n).filter(|&p| m >> p & 1 == 1) {
                if k < free[p] {
                    hands[p].insert(c);
                    free[p] -= 1;
                    break;
                }
                k -= free[p];
            }
        }
        if ok {
            return hands;
        }
    }
    unreachable!("ignoring voids, the free room equals the pool size")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{bot_rng, uniform_card};
    use crate::{GameConfig, Variant};

    #[test]
    fn determinizations_agree_with_the_view() {
        let mut rng = bot_rng(3);
        for v in Variant::ALL {
            for seed in 0..30 {
                let mut s = State::new(GameConfig::new(v, seed));
                let mut steps = 0;
                while !s.is_over() && steps < 120 {
                    let p = s.current_player().unwrap();
                    let view = s.view(p);
                    let d = determinize(&view, &mut rng);
                    assert_eq!(d.hand(p), s.hand(p));
                    for q in 0..s.num_players() {
                        assert_eq!(d.hand(q).len(), s.hand(q).len());
                        assert!(view.known_in_hand(q).minus(d.hand(q)).is_empty());
                        for suit in crate::Suit::ALL {
                            if view.voids(q) >> suit as u8 & 1 == 1 {
                                assert!(d.hand(q).of_suit(suit).is_empty());
                            }
                        }
                    }
                    assert_eq!(d.legal_actions(), s.legal_actions());
                    let c = uniform_card(&mut rng, s.legal_actions());
                    s.apply(c).unwrap();
                    steps += 1;
                }
            }
        }
    }
}
