//! Dealing (R4.1, R10): seeded deals and validated explicit deals.
//!
//! # The shuffle, precisely
//! Round `k` of a game with seed `s` is dealt from `(s, k)` alone:
//! 1. A ChaCha8 stream cipher (`rand_chacha::ChaCha8Rng`) is keyed with the 32 bytes
//!    `s as u64 little-endian ‖ k as u64 little-endian ‖ b"yokaiseptet/deal"` (16 bytes).
//!    ChaCha8's output for a key is fixed by the algorithm, not by the `rand` version.
//! 2. The deck `[0, 1, …, deck_size-1]` is shuffled by Fisher–Yates: for `i` from
//!    `deck_size-1` down to 1, swap `deck[i]` with `deck[j]`, `j` uniform in `0..=i`.
//!    `j` is drawn from 32-bit outputs (`next_u32`) by Lemire's multiply-shift method with
//!    rejection, so it is exactly uniform.
//! 3. Seat `p` receives `deck[p·h .. (p+1)·h]` (`h` = hand size); in `4p`/`3p` the last
//!    card, `deck[n·h]`, is the face-up trump card.
//!
//! Golden deals in `tests/golden.rs` pin this procedure.

use rand_chacha::{ChaCha8Core, ChaCha8Rng};
use rand_core::block::BlockRngCore;
use rand_core::{RngCore, SeedableRng};

use crate::cards::{Card, CardSet};
use crate::error::DealError;
use crate::rng::{self, uniform_below, Stream};
use crate::rules::config::Variant;

/// One round's deal: every hand as dealt (before passing) and the face-up card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// Hands by seat; unused seats (in `3p`) are empty.
    pub hands: [CardSet; 4],
    /// The face-up trump card (`4p`/`3p`); `None` in the seal variants.
    pub trump_card: Option<Card>,
}

/// The ChaCha8 generator for round `round` of a game seeded with `seed`.
pub fn deal_rng(seed: u64, round: u64) -> ChaCha8Rng {
    rng::chacha(Stream::Deal, seed, round)
}

/// Fisher–Yates shuffle of `items` driven by [`uniform_below`].
pub fn shuffle<T, R: RngCore>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// `N` hands of `H` cards from the top of `deck`; returns them and the next position.
#[inline(always)]
fn cut_hands<const N: usize, const H: usize>(deck: &[u8; 64]) -> ([CardSet; 4], usize) {
    let mut hands = [CardSet::EMPTY; 4];
    for (p, hand) in hands.iter_mut().enumerate().take(N) {
        let mut bits = 0u64;
        for &c in &deck[p * H..(p + 1) * H] {
            bits |= 1u64 << (c & 63);
        }
        *hand = CardSet(bits);
    }
    (hands, N * H)
}

/// The deck in id order (64 entries, so that masked indices need no bounds check).
const IDS: [u8; 64] = {
    let mut d = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        d[i] = i as u8;
        i += 1;
    }
    d
};

impl Deal {
    /// The deal of round `round` in a game of `variant` seeded with `seed`.
    ///
    /// This is exactly the documented procedure (module docs; `tests/golden.rs` pins it):
    /// `shuffle` with `deal_rng`, then cut the deck. The fast path reads the stream's
    /// first 64-word ChaCha8 block directly: as long as no draw falls where Lemire's
    /// method might reject (probability about `n / 2³²` per draw), each draw takes exactly
    /// the next word, which is what the step-by-step procedure does too. Otherwise it
    /// runs that procedure itself.
    pub fn from_seed(variant: Variant, seed: u64, round: u64) -> Deal {
        let n = variant.deck_size();
        let mut core = ChaCha8Core::from_seed(rng::chacha_key(Stream::Deal, seed, round));
        let mut block = <ChaCha8Core as BlockRngCore>::Results::default();
        core.generate(&mut block);
        let words: &[u32] = block.as_ref();
        let mut deck = IDS;
        // n - 1 <= 55 draws, one word each: all in the first block.
        for (w, i) in (1..n).rev().enumerate() {
            let bound = i as u32 + 1;
            let m = words[w & 63] as u64 * bound as u64;
            if (m as u32) < bound {
                return Deal::from_seed_stepwise(variant, seed, round);
            }
            deck.swap(i & 63, (m >> 32) as usize & 63);
        }
        Deal::cut(variant, &deck)
    }

    /// [`from_seed`](Self::from_seed) step by step, as documented.
    #[cold]
    fn from_seed_stepwise(variant: Variant, seed: u64, round: u64) -> Deal {
        let mut deck = IDS;
        shuffle(&mut deal_rng(seed, round), &mut deck[..variant.deck_size()]);
        Deal::cut(variant, &deck)
    }

    /// Cuts a shuffled deck: seat `p` gets `deck[p·h .. (p+1)·h]`, then the face-up card.
    #[inline(always)]
    fn cut(variant: Variant, deck: &[u8; 64]) -> Deal {
        // Constant sizes per variant, so that the loops unroll.
        let (hands, at) = match variant {
            Variant::FourPlayer => cut_hands::<4, 12>(deck),
            Variant::ThreePlayer => cut_hands::<3, 16>(deck),
            Variant::Seal | Variant::SealShort => cut_hands::<4, 14>(deck),
        };
        let trump_card = variant
            .has_trump_card()
            .then(|| Card::from_id_unchecked(deck[at & 63]));
        Deal { hands, trump_card }
    }

    /// Checks that this deal is one of `variant`'s: one hand of the right size per seat
    /// (unused seats empty), no card twice, the face-up card where the variant turns one,
    /// and exactly the variant's deck. Card sets only, no allocation on success.
    pub fn check(&self, variant: Variant) -> Result<(), DealError> {
        let n = variant.num_players();
        let deck = variant.deck();
        let mut seen = CardSet::EMPTY;
        for (seat, hand) in self.hands.iter().enumerate() {
            let expected = if seat < n { variant.hand_size() } else { 0 };
            if hand.len() as usize != expected {
                return Err(DealError::WrongHandSize {
                    seat,
                    expected,
                    got: hand.len() as usize,
                });
            }
            if let Some(c) = hand.minus(deck).first() {
                return Err(DealError::CardOutOfRange {
                    id: c.id() as i128,
                    deck_size: variant.deck_size(),
                });
            }
            if let Some(card) = hand.intersect(seen).first() {
                return Err(DealError::Duplicate { card });
            }
            seen = seen.union(*hand);
        }
        match (variant.has_trump_card(), self.trump_card) {
            (true, None) => return Err(DealError::TrumpCardExpected),
            (false, Some(_)) => return Err(DealError::TrumpCardUnexpected),
            (true, Some(card)) => {
                if !deck.contains(card) {
                    return Err(DealError::CardOutOfRange {
                        id: card.id() as i128,
                        deck_size: variant.deck_size(),
                    });
                }
                if seen.contains(card) {
                    return Err(DealError::Duplicate { card });
                }
                seen.insert(card);
            }
            (false, None) => {}
        }
        let missing = deck.minus(seen);
        if !missing.is_empty() {
            return Err(DealError::MissingCards {
                missing: missing.to_string(),
            });
        }
        Ok(())
    }

    /// A validated explicit deal: `hands[p]` are card ids, one list per seat.
    /// Checks hand count and sizes, id range, duplicates, the face-up card's presence,
    /// and that hands plus face-up card are exactly the variant's deck.
    pub fn from_ids(
        variant: Variant,
        hands: &[Vec<i64>],
        trump_card: Option<i64>,
    ) -> Result<Deal, DealError> {
        Deal::from_ids_impl(variant, hands, trump_card, false)
    }

    /// As [`Deal::from_ids`], and each hand must also be in ascending order (records).
    pub fn from_sorted_ids(
        variant: Variant,
        hands: &[Vec<i64>],
        trump_card: Option<i64>,
    ) -> Result<Deal, DealError> {
        Deal::from_ids_impl(variant, hands, trump_card, true)
    }

    fn from_ids_impl(
        variant: Variant,
        hands: &[Vec<i64>],
        trump_card: Option<i64>,
        require_sorted: bool,
    ) -> Result<Deal, DealError> {
        let n = variant.num_players();
        if hands.len() != n {
            return Err(DealError::WrongHandCount {
                expected: n,
                got: hands.len(),
            });
        }
        let deck_size = variant.deck_size();
        let mut seen = CardSet::EMPTY;
        let mut take = |id: i64| -> Result<Card, DealError> {
            if id < 0 || id >= deck_size as i64 {
                return Err(DealError::CardOutOfRange {
                    id: id as i128,
                    deck_size,
                });
            }
            let c = Card::from_id_unchecked(id as u8);
            if seen.contains(c) {
                return Err(DealError::Duplicate { card: c });
            }
            seen.insert(c);
            Ok(c)
        };
        let mut out = [CardSet::EMPTY; 4];
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != variant.hand_size() {
                return Err(DealError::WrongHandSize {
                    seat,
                    expected: variant.hand_size(),
                    got: hand.len() as usize,
                });
            }
            if require_sorted && hand.windows(2).any(|w| w[0] >= w[1]) {
                return Err(DealError::NotAscending { seat });
            }
            for &id in hand {
                out[seat].insert(take(id)?);
            }
        }
        let trump = match (variant.has_trump_card(), trump_card) {
            (true, None) => return Err(DealError::TrumpCardExpected),
            (false, Some(_)) => return Err(DealError::TrumpCardUnexpected),
            (true, Some(id)) => Some(take(id)?),
            (false, None) => None,
        };
        let full = variant.deck();
        let missing = full.minus(seen);
        if !missing.is_empty() {
            return Err(DealError::MissingCards {
                missing: missing.to_string(),
            });
        }
        Ok(Deal {
            hands: out,
            trump_card: trump,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The documented procedure, step by step: shuffle with `deal_rng`, then cut.
    fn reference_deal(variant: Variant, seed: u64, round: u64) -> Deal {
        let n = variant.deck_size();
        let mut deck: Vec<u8> = (0..n as u8).collect();
        shuffle(&mut deal_rng(seed, round), &mut deck);
        let h = variant.hand_size();
        let mut hands = [CardSet::EMPTY; 4];
        for (p, hand) in hands.iter_mut().enumerate().take(variant.num_players()) {
            *hand = deck[p * h..(p + 1) * h]
                .iter()
                .map(|&id| Card::from_id_unchecked(id))
                .collect();
        }
        let trump_card = variant
            .has_trump_card()
            .then(|| Card::from_id_unchecked(deck[variant.num_players() * h]));
        Deal { hands, trump_card }
    }

    #[test]
    fn r4_fused_deal_equals_shuffle_then_cut() {
        for v in Variant::ALL {
            for seed in 0..2000 {
                let round = seed % 5;
                assert_eq!(
                    Deal::from_seed(v, seed, round),
                    reference_deal(v, seed, round)
                );
            }
        }
    }

    #[test]
    fn stepwise_deal_equals_shuffle_then_cut() {
        for v in Variant::ALL {
            for seed in 0..200 {
                assert_eq!(
                    Deal::from_seed_stepwise(v, seed, 1),
                    reference_deal(v, seed, 1)
                );
            }
        }
    }

    #[test]
    fn r4_deal_is_a_complete_deck() {
        for v in Variant::ALL {
            for seed in 0..50 {
                let d = Deal::from_seed(v, seed, 3);
                let mut all = CardSet::EMPTY;
                let mut total = 0;
                for p in 0..v.num_players() {
                    assert_eq!(d.hands[p].len() as usize, v.hand_size());
                    total += d.hands[p].len();
                    all = all.union(d.hands[p]);
                }
                if let Some(t) = d.trump_card {
                    all.insert(t);
                    total += 1;
                }
                assert_eq!(total as usize, v.deck_size());
                assert_eq!(all.len() as usize, v.deck_size());
                assert_eq!(d.trump_card.is_some(), v.has_trump_card());
            }
        }
    }

    #[test]
    fn r10_deal_depends_only_on_seed_and_round() {
        let a = Deal::from_seed(Variant::FourPlayer, 7, 2);
        let b = Deal::from_seed(Variant::FourPlayer, 7, 2);
        let c = Deal::from_seed(Variant::FourPlayer, 7, 3);
        let d = Deal::from_seed(Variant::FourPlayer, 8, 2);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }

    #[test]
    fn uniform_below_is_uniform() {
        let mut rng = deal_rng(1, 1);
        let mut counts = HashMap::new();
        for _ in 0..70_000 {
            *counts.entry(uniform_below(&mut rng, 7)).or_insert(0) += 1;
        }
        // chi-square with 6 degrees of freedom; 22.46 is the 0.001 critical value.
        let chi2: f64 = (0..7)
            .map(|k| {
                let o = counts[&k] as f64;
                (o - 10_000.0).powi(2) / 10_000.0
            })
            .sum();
        assert!(chi2 < 22.46, "chi2 = {chi2}");
    }

    #[test]
    fn explicit_deal_errors_say_what_is_wrong() {
        let v = Variant::FourPlayer;
        let good = Deal::from_seed(v, 1, 0);
        let mut hands: Vec<Vec<i64>> = (0..4)
            .map(|p| good.hands[p].iter().map(|c| c.id() as i64).collect())
            .collect();
        let trump = good.trump_card.map(|c| c.id() as i64);
        assert_eq!(Deal::from_ids(v, &hands, trump).unwrap(), good);
        assert!(matches!(
            Deal::from_ids(v, &hands[..3], trump),
            Err(DealError::WrongHandCount { .. })
        ));
        assert_eq!(
            Deal::from_ids(v, &hands, None),
            Err(DealError::TrumpCardExpected)
        );
        let mut dup = hands.clone();
        dup[1][0] = dup[0][0];
        assert!(matches!(
            Deal::from_ids(v, &dup, trump),
            Err(DealError::Duplicate { .. })
        ));
        hands[2][3] = 49;
        let e = Deal::from_ids(v, &hands, trump).unwrap_err();
        assert!(e.to_string().contains("49"), "{e}");
        hands[2].pop();
        assert!(matches!(
            Deal::from_ids(v, &hands, trump),
            Err(DealError::WrongHandSize { seat: 2, .. })
        ));
        let seal = Deal::from_seed(Variant::Seal, 0, 0);
        let sh: Vec<Vec<i64>> = (0..4)
            .map(|p| seal.hands[p].iter().map(|c| c.id() as i64).collect())
            .collect();
        assert_eq!(
            Deal::from_ids(Variant::Seal, &sh, Some(3)),
            Err(DealError::TrumpCardUnexpected)
        );
        assert!(Deal::from_sorted_ids(Variant::Seal, &sh, None).is_ok());
        let mut unsorted = sh.clone();
        unsorted[0].swap(0, 1);
        assert_eq!(
            Deal::from_sorted_ids(Variant::Seal, &unsorted, None),
            Err(DealError::NotAscending { seat: 0 })
        );
    }
}
