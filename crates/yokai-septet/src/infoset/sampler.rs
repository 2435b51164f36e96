//! Determinization: sampling the other players' hands consistently with what one seat
//! knows, exactly uniformly over all consistent deals.
//!
//! # What "consistent" means
//! Given a [`SeatView`], a deal of the unseen cards ([`SeatView::unknown_cards`]) to the
//! other seats is consistent when every seat gets its public hand size, no seat gets a
//! card of a suit it has shown void in (a void is permanent within a round: hands only
//! shrink), and every card the observer knows is in a hand stays there
//! ([`SeatView::known_in_hand`]: cards it passed that were not played yet, and in the
//! first round the A / Snow 13 that made the round's leader). Nothing else about the
//! hidden hands follows from the rules: following suit, leading and passing reveal
//! nothing more. During passing, which cards another seat has already picked is hidden;
//! the sampler draws them uniformly from its sampled hand (the observer knows nothing of
//! the picker's policy).
//!
//! # Why it is exactly uniform
//! Cards whose suits are forbidden to the same set of seats are interchangeable, so the
//! unseen cards fall into at most 8 *groups* by "which seats may hold them". A deal is a
//! choice, per group, of how many of its cards each seat gets (`k`), then which ones.
//! A small dynamic programme over the groups counts the completions from every
//! "cards still needed per seat" state exactly (`u64`: the largest count, a seal deal of
//! 42 unseen cards, is about 2.1·10¹⁸ < 2⁶⁴); sampling then walks the groups, drawing each
//! group's split with probability proportional to `multinomial × completions`, and the
//! cards within a group uniformly. Every consistent deal therefore has the same
//! probability, 1 / [`Sampler::count`] (`tests/observation.rs` checks this against
//! brute-force enumeration with a chi-square test). No rejection, so the time is bounded.
//!
//! # Cost
//! No heap allocation. The DP table lives in [`Sampler`] (about 20 KiB): keep one per
//! thread and reuse it. Early in a round, without voids, there is one group and the DP is
//! trivial; with voids it is a few thousand multiply-adds at most.

use rand_core::RngCore;

use crate::cards::{Card, CardSet, Suit};
use crate::infoset::view::SeatView;
use crate::rng::uniform_below;
use crate::rules::state::State;

/// Largest number of cards one other seat can be missing (a `3p` hand).
pub(super) const MAX_NEED: usize = 16;
pub(super) const W: usize = MAX_NEED + 1;
/// At most 8 groups (subsets of 3 seats), plus the final layer.
const LAYERS: usize = 9;

/// Binomial coefficients `C(n, k)` for `n, k ≤ 56`.
static BINOM: [[u64; 57]; 57] = binomials();

const fn binomials() -> [[u64; 57]; 57] {
    let mut c = [[0u64; 57]; 57];
    let mut n = 0;
    while n < 57 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// A uniform integer in `0..n` (`n ≥ 1`), Lemire's method on 64 bits with rejection.
#[inline]
fn uniform_u64<R: RngCore>(rng: &mut R, n: u64) -> u64 {
    debug_assert!(n > 0);
    if n <= u32::MAX as u64 {
        return uniform_below(rng, n as u32) as u64;
    }
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = rng.next_u64() as u128 * n as u128;
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// `k` cards drawn uniformly without replacement from `pool` (removed from it).
#[inline]
fn draw<R: RngCore>(rng: &mut R, pool: &mut CardSet, k: usize) -> CardSet {
    let mut out = CardSet::EMPTY;
    for _ in 0..k {
        let i = uniform_below(rng, pool.len());
        let c = pool.nth(i).expect("index below the pool's size");
        pool.remove(c);
        out.insert(c);
    }
    out
}

/// The sampling problem for one view: who needs how many cards, from which groups.
#[derive(Clone, Copy, Debug)]
pub(super) struct Problem {
    /// The other seats, in clockwise order from the observer; `others` of them valid.
    pub(super) seats: [usize; 3],
    /// Cards each other seat still needs beyond the ones known to be in its hand.
    pub(super) need: [usize; 3],
    /// Hands so far: the cards known to be there.
    pub(super) hands: [CardSet; 3],
    /// Groups of interchangeable cards and which of the 3 seats may hold them (bit i).
    pub(super) groups: [(CardSet, u8); 8],
    pub(super) num_groups: usize,
}

impl Problem {
    pub(super) fn new(view: &SeatView) -> Problem {
        let n = view.num_players();
        let mut p = Problem {
            seats: [0; 3],
            need: [0; 3],
            hands: [CardSet::EMPTY; 3],
            groups: [(CardSet::EMPTY, 0); 8],
            num_groups: 0,
        };
        let mut free = view.unknown_cards();
        let known_in_hands = view.known_in_hands();
        for i in 0..n - 1 {
            let seat = view.relative(i + 1);
            let known = known_in_hands[seat];
            p.seats[i] = seat;
            p.hands[i] = known;
            p.need[i] = view.hand_len(seat) - known.len() as usize;
            free = free.minus(known);
        }
        let mut by_mask = [CardSet::EMPTY; 8];
        for suit in Suit::ALL {
            let mut allowed = 0u8;
            for i in 0..n - 1 {
                if view.voids(p.seats[i]) >> suit as u8 & 1 == 0 {
                    allowed |= 1 << i;
                }
            }
            by_mask[allowed as usize] = by_mask[allowed as usize].union(free.of_suit(suit));
        }
        assert!(
            by_mask[0].is_empty(),
            "inconsistent view: unseen cards no other seat may hold"
        );
        for (mask, &cards) in by_mask.iter().enumerate() {
            if !cards.is_empty() {
                p.groups[p.num_groups] = (cards, mask as u8);
                p.num_groups += 1;
            }
        }
        p
    }

    /// The sampled hands of the other seats (`hands[i]` for `seats[i]`) by seat (the
    /// observer's slot empty) and, during passing, their hidden picks so far, drawn
    /// uniformly from those hands (the observer knows nothing of the picker's policy).
    pub(super) fn by_seat<R: RngCore>(
        &self,
        view: &SeatView,
        hands: [CardSet; 3],
        rng: &mut R,
    ) -> ([CardSet; 4], [[Card; 3]; 4]) {
        let mut out = [CardSet::EMPTY; 4];
        let mut picks = [[Card::ACE; 3]; 4];
        for i in 0..view.num_players() - 1 {
            let seat = self.seats[i];
            out[seat] = hands[i];
            if !view.exchange_done() {
                let mut pool = hands[i];
                for slot in picks[seat].iter_mut().take(view.num_picks(seat)) {
                    let c = draw(rng, &mut pool, 1);
                    *slot = c.first().expect("a pick from a non-empty hand");
                }
            }
        }
        (out, picks)
    }

    #[allow(clippy::needless_range_loop)]
    /// Calls `f(k, ways)` for every split `k` of group `g` among the seats that fits in
    /// the remaining needs `r`, with `ways` the multinomial number of card choices.
    #[inline]
    fn splits(&self, g: usize, r: [usize; 3], mut f: impl FnMut([usize; 3], u64) -> bool) {
        let (cards, allowed) = self.groups[g];
        let m = cards.len() as usize;
        let max0 = if allowed & 1 != 0 { m.min(r[0]) } else { 0 };
        for k0 in 0..=max0 {
            let rest = m - k0;
            let max1 = if allowed & 2 != 0 { rest.min(r[1]) } else { 0 };
            for k1 in 0..=max1 {
                let k2 = rest - k1;
                if k2 > r[2] || (k2 > 0 && allowed & 4 == 0) {
                    continue;
                }
                if !f([k0, k1, k2], BINOM[m][k0] * BINOM[rest][k1]) {
                    return;
                }
            }
        }
    }
}

/// A reusable determinization sampler: holds the DP table so that sampling allocates
/// nothing. One per thread; [`Sampler::sample`] for a `State`, [`Sampler::sample_hands`]
/// for the hands alone.
#[derive(Clone)]
pub struct Sampler {
    /// `table[g][r0][r1]`: deals of groups `g..` that give seat i exactly `r_i` cards
    /// (`r2` follows from the number of cards left).
    table: [[[u64; W]; W]; LAYERS],
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler::new()
    }
}

impl Sampler {
    /// A sampler; its counting table is filled again for each view it is given.
    pub fn new() -> Sampler {
        Sampler {
            table: [[[0; W]; W]; LAYERS],
        }
    }

    /// Fills the table for `p`; returns the number of consistent deals.
    fn solve(&mut self, p: &Problem) -> u64 {
        let g_end = p.num_groups;
        for row in self.table[g_end].iter_mut() {
            row.fill(0);
        }
        self.table[g_end][0][0] = 1;
        let mut left = 0usize; // cards in groups g..
        for g in (0..g_end).rev() {
            left += p.groups[g].0.len() as usize;
            for r0 in 0..=p.need[0] {
                for r1 in 0..=p.need[1] {
                    let r2 = left as isize - r0 as isize - r1 as isize;
                    let mut total = 0u64;
                    if (0..=p.need[2] as isize).contains(&r2) {
                        let r = [r0, r1, r2 as usize];
                        let next = &self.table[g + 1];
                        p.splits(g, r, |k, ways| {
                            total += ways * next[r0 - k[0]][r1 - k[1]];
                            true
                        });
                    }
                    self.table[g][r0][r1] = total;
                }
            }
        }
        self.table[0][p.need[0]][p.need[1]]
    }

    /// The number of deals of the unseen cards consistent with `view` (see the module
    /// docs); each is equally likely under [`Sampler::sample_hands`].
    pub fn count(&mut self, view: &SeatView) -> u64 {
        let p = Problem::new(view);
        self.solve(&p)
    }

    #[allow(clippy::needless_range_loop)]
    /// Samples the other seats' current hands (`[seat]`, the observer's own slot empty)
    /// and, during passing, their hidden picks so far (in pick order).
    pub fn sample_hands<R: RngCore>(
        &mut self,
        view: &SeatView,
        rng: &mut R,
    ) -> ([CardSet; 4], [[Card; 3]; 4]) {
        let p = Problem::new(view);
        let total = self.solve(&p);
        assert!(total > 0, "inconsistent view: no deal fits it");
        let mut hands = p.hands;
        let mut r = p.need;
        for g in 0..p.num_groups {
            let next = &self.table[g + 1];
            let mut x = uniform_u64(rng, self.table[g][r[0]][r[1]]);
            let mut chosen = [0usize; 3];
            p.splits(g, r, |k, ways| {
                let w = ways * next[r[0] - k[0]][r[1] - k[1]];
                if x < w {
                    chosen = k;
                    return false;
                }
                x -= w;
                true
            });
            let mut pool = p.groups[g].0;
            for i in 0..3 {
                hands[i] = hands[i].union(draw(rng, &mut pool, chosen[i]));
                r[i] -= chosen[i];
            }
        }
        debug_assert_eq!(r, [0; 3]);
        p.by_seat(view, hands, rng)
    }

    /// A complete state consistent with everything `view`'s seat knows, drawn uniformly
    /// (see the module docs). The observer's own information is unchanged.
    pub fn sample<R: RngCore>(&mut self, view: &SeatView, rng: &mut R) -> State {
        let (hands, picks) = self.sample_hands(view, rng);
        view.determinized_with_picks(hands, Some(&picks))
            .expect("sampled hands are consistent with the view")
    }
}

/// One uniformly drawn determinization with a fresh [`Sampler`] (which costs a 20 KiB
/// table on the stack; reuse a `Sampler` in loops).
pub fn sample<R: RngCore>(view: &SeatView, rng: &mut R) -> State {
    Sampler::new().sample(view, rng)
}

/// As [`sample`], and the rounds after this one are dealt from a seed drawn from `rng`
/// after the hands: a determinization played on past its round needs a seed, and the
/// real one would reveal every deal ([`sample`]'s is 0).
pub fn sample_with_later_rounds<R: RngCore>(view: &SeatView, rng: &mut R) -> State {
    let mut s = sample(view, rng);
    s.replace_seed(rng.next_u64());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_are_right() {
        assert_eq!(BINOM[5][2], 10);
        assert_eq!(BINOM[56][28], 7_648_690_600_760_440);
        assert_eq!(BINOM[42][14] * BINOM[28][14], 2_120_572_665_910_728_000);
    }
}
