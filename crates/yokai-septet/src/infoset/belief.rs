//! Beliefs about who holds each unseen card, and deals drawn from them.
//!
//! The uniform [`Sampler`](super::sampler::Sampler) treats every consistent deal alike. A
//! [`Belief`] says more: a weight for each (card, seat), typically a model's estimate that
//! the seat holds the card, learnt from what the players did. [`BeliefSampler`] draws
//! deals with probability proportional to the product of their cards' weights,
//!
//! ```text
//! P(deal) = Π_c w[c][holder(c)] / Z,
//! ```
//!
//! over exactly the deals the uniform sampler may draw (the same constraints: hand sizes,
//! voids, cards the observer passed and knows to be in a hand, cards seen), so a uniform
//! belief draws exactly uniformly, and a belief that puts weight on an impossible holder
//! changes nothing: the constraints always win.
//!
//! # How
//! The unseen cards are taken one by one; `Z[i][r]` is the total weight of the ways to
//! give cards `i..` to the other seats so that seat `k` gets exactly `r_k` more. It is one
//! pass over the cards, three terms a state, at most 56 × 17 × 17 states
//! ([`BeliefSampler::prepare`], once per view and belief). A sample then walks the cards,
//! giving card `i` to seat `k` with probability `w[i][k] · Z[i+1][r − e_k] / Z[i][r]`:
//! exact, no rejection, a few hundred operations. The weights are floored (relative to the
//! card's largest) so that every consistent deal keeps a positive probability: a model is
//! never allowed to rule out what the rules allow.

use rand_core::RngCore;

use super::sampler::{Problem, W};
use crate::cards::{Card, CardSet};
use crate::infoset::view::SeatView;
use crate::rules::state::State;

/// Largest deck (card ids `0..56`).
const CARDS: usize = 56;

/// The smallest weight relative to the card's largest: the rules, not the model, decide
/// what is impossible.
const WEIGHT_FLOOR: f64 = 1e-6;

/// A weight for each (card, seat): how much the observer believes the seat holds the card.
/// Only the ratios between the seats of one card matter; weights on seats that cannot
/// hold the card (the observer, a void, a card known elsewhere) are ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct Belief {
    /// `weights[card id][seat]`.
    weights: [[f32; 4]; CARDS],
}

impl Default for Belief {
    fn default() -> Belief {
        Belief::uniform()
    }
}

impl Belief {
    /// Every seat equally likely for every card: [`BeliefSampler`] then draws exactly as
    /// the uniform sampler.
    pub fn uniform() -> Belief {
        Belief {
            weights: [[1.0; 4]; CARDS],
        }
    }

    /// The weight of `seat` holding `card`.
    pub fn weight(&self, card: Card, seat: usize) -> f32 {
        self.weights[card.id() as usize][seat]
    }

    /// Sets the weight of `seat` holding `card`: finite and not negative (anything else
    /// counts as 0).
    pub fn set_weight(&mut self, card: Card, seat: usize, weight: f32) {
        self.weights[card.id() as usize][seat] = if weight.is_finite() && weight > 0.0 {
            weight
        } else {
            0.0
        };
    }
}

/// The cards each seat may hold as `view`'s seat sees it: its own hand for itself; for
/// another seat, the cards known to be in its hand and the unseen cards of the suits it
/// has not shown void in (an unseen card known to be in one hand is in no other).
pub fn possible_holders(view: &SeatView) -> [CardSet; 4] {
    let p = Problem::new(view);
    let mut out = [CardSet::EMPTY; 4];
    out[view.seat()] = view.hand();
    for i in 0..view.num_players() - 1 {
        out[p.seats[i]] = p.hands[i];
    }
    for &(cards, allowed) in &p.groups[..p.num_groups] {
        for i in 0..view.num_players() - 1 {
            if allowed >> i & 1 != 0 {
                out[p.seats[i]] = out[p.seats[i]].union(cards);
            }
        }
    }
    out
}

/// Draws deals weighted by a [`Belief`] (see the module docs). [`BeliefSampler::prepare`]
/// it for a view and a belief, then sample as often as needed: the preparation is the
/// costly part. About 130 KiB: keep one and reuse it.
#[derive(Clone)]
pub struct BeliefSampler {
    problem: Option<Problem>,
    /// The unseen cards whose holder is not known, in the order the table takes them.
    cards: [Card; CARDS],
    /// Their weights for the other seats (`Problem::seats` order), floored and scaled.
    weights: [[f64; 3]; CARDS],
    len: usize,
    /// The number of other seats (2 or 3).
    others: usize,
    /// `table[i][r0][r1]`: the total weight of dealing cards `i..` so that the other seats
    /// get `r0`, `r1` and the rest.
    table: Box<[[[f64; W]; W]; CARDS + 1]>,
}

impl Default for BeliefSampler {
    fn default() -> BeliefSampler {
        BeliefSampler::new()
    }
}

impl std::fmt::Debug for BeliefSampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BeliefSampler")
            .field("cards", &self.len)
            .finish_non_exhaustive()
    }
}

impl BeliefSampler {
    /// A sampler to [`prepare`](BeliefSampler::prepare).
    pub fn new() -> BeliefSampler {
        BeliefSampler {
            problem: None,
            cards: [Card::ACE; CARDS],
            weights: [[0.0; 3]; CARDS],
            len: 0,
            others: 0,
            table: Box::new([[[0.0; W]; W]; CARDS + 1]),
        }
    }

    /// Prepares to draw deals for `view` weighted by `belief`.
    ///
    /// # Panics
    /// If no deal fits `view` (a view of a real game always has one).
    pub fn prepare(&mut self, view: &SeatView, belief: &Belief) {
        let p = Problem::new(view);
        let others = view.num_players() - 1;
        self.others = others;
        self.len = 0;
        for &(cards, allowed) in &p.groups[..p.num_groups] {
            for c in cards {
                let mut w = [0f64; 3];
                for (i, w) in w.iter_mut().enumerate().take(others) {
                    if allowed >> i & 1 != 0 {
                        *w = f64::from(belief.weight(c, p.seats[i]));
                    }
                }
                let top = w.iter().copied().fold(0.0, f64::max);
                for (i, w) in w.iter_mut().enumerate().take(others) {
                    if allowed >> i & 1 != 0 {
                        *w = if top > 0.0 {
                            (*w / top).max(WEIGHT_FLOOR)
                        } else {
                            1.0
                        };
                    }
                }
                self.cards[self.len] = c;
                self.weights[self.len] = w;
                self.len += 1;
            }
        }
        let m = self.len;
        let need = p.need;
        let t = &mut self.table;
        for row in t[m].iter_mut() {
            row.fill(0.0);
        }
        t[m][0][0] = 1.0;
        for i in (0..m).rev() {
            let left = m - i;
            let w = self.weights[i];
            for r0 in 0..=need[0] {
                for r1 in 0..=need[1] {
                    let r2 = left as isize - r0 as isize - r1 as isize;
                    let mut total = 0.0;
                    if (0..=need[2] as isize).contains(&r2) {
                        let next = &t[i + 1];
                        if r0 > 0 {
                            total += w[0] * next[r0 - 1][r1];
                        }
                        if r1 > 0 {
                            total += w[1] * next[r0][r1 - 1];
                        }
                        if r2 > 0 {
                            total += w[2] * next[r0][r1];
                        }
                    }
                    t[i][r0][r1] = total;
                }
            }
        }
        assert!(
            t[0][need[0]][need[1]] > 0.0,
            "inconsistent view: no deal fits it"
        );
        self.problem = Some(p);
    }

    fn problem(&self) -> &Problem {
        self.problem
            .as_ref()
            .expect("BeliefSampler::prepare comes first")
    }

    /// The other seats' hands (`[seat]`, the observer's slot empty) and, during passing,
    /// their hidden picks so far (uniform within each hand), drawn for the view and belief
    /// of the last [`prepare`](BeliefSampler::prepare); `view` must be that view.
    pub fn sample_hands<R: RngCore>(
        &self,
        view: &SeatView,
        rng: &mut R,
    ) -> ([CardSet; 4], [[Card; 3]; 4]) {
        let p = self.problem();
        let mut hands = p.hands;
        let mut r = p.need;
        for i in 0..self.len {
            let next = &self.table[i + 1];
            let w = self.weights[i];
            let parts = [
                if r[0] > 0 {
                    w[0] * next[r[0] - 1][r[1]]
                } else {
                    0.0
                },
                if r[1] > 0 {
                    w[1] * next[r[0]][r[1] - 1]
                } else {
                    0.0
                },
                if r[2] > 0 {
                    w[2] * next[r[0]][r[1]]
                } else {
                    0.0
                },
            ];
            let total: f64 = parts.iter().sum();
            // A uniform double in [0, 1) from 53 random bits.
            let mut x = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
            let mut k = 3;
            for (j, &part) in parts.iter().enumerate() {
                if part > 0.0 {
                    k = j;
                    if x < part {
                        break;
                    }
                    x -= part;
                }
            }
            debug_assert!(k < 3, "a card with no seat left");
            hands[k].insert(self.cards[i]);
            r[k] -= 1;
        }
        debug_assert_eq!(r, [0; 3]);
        p.by_seat(view, hands, rng)
    }

    /// A complete state drawn for the view and belief of the last
    /// [`prepare`](BeliefSampler::prepare) (`view` must be that view).
    pub fn sample<R: RngCore>(&self, view: &SeatView, rng: &mut R) -> State {
        let (hands, picks) = self.sample_hands(view, rng);
        view.determinized_with_picks(hands, Some(&picks))
            .expect("sampled hands are consistent with the view")
    }

    /// The exact probability, under the prepared distribution, that each seat holds each
    /// card (1 for the cards whose holder is known; 0 for impossible holders and the
    /// observer). With a uniform belief these are the uniform sampler's marginals.
    pub fn marginals(&self) -> Belief {
        let p = self.problem();
        let mut out = Belief {
            weights: [[0.0; 4]; CARDS],
        };
        for (i, &hand) in p.hands.iter().enumerate() {
            for c in hand {
                out.weights[c.id() as usize][p.seats[i]] = 1.0;
            }
        }
        let need = p.need;
        let z = self.table[0][need[0]][need[1]];
        // forward[r0][r1]: the weight of the ways to deal cards ..i leaving r0, r1 (and the
        // rest) to fill.
        let mut forward = vec![[0f64; W]; W];
        forward[need[0]][need[1]] = 1.0;
        for i in 0..self.len {
            let left = self.len - i;
            let next = &self.table[i + 1];
            let w = self.weights[i];
            let mut step = vec![[0f64; W]; W];
            let mut shares = [0f64; 3];
            for r0 in 0..=need[0] {
                for r1 in 0..=need[1] {
                    let f = forward[r0][r1];
                    let r2 = left as isize - r0 as isize - r1 as isize;
                    if f == 0.0 || !(0..=need[2] as isize).contains(&r2) {
                        continue;
                    }
                    if r0 > 0 {
                        shares[0] += f * w[0] * next[r0 - 1][r1];
                        step[r0 - 1][r1] += f * w[0];
                    }
                    if r1 > 0 {
                        shares[1] += f * w[1] * next[r0][r1 - 1];
                        step[r0][r1 - 1] += f * w[1];
                    }
                    if r2 > 0 {
                        shares[2] += f * w[2] * next[r0][r1];
                        step[r0][r1] += f * w[2];
                    }
                }
            }
            for (k, share) in shares.iter().enumerate() {
                if *share > 0.0 {
                    out.weights[self.cards[i].id() as usize][p.seats[k]] = (share / z) as f32;
                }
            }
            forward = step;
        }
        out
    }

    /// The natural log of the prepared distribution's probability of the other seats'
    /// hands `hands` (`[seat]`; the observer's slot ignored): `-∞` for hands that do not
    /// fit the view.
    pub fn log_probability(&self, hands: &[CardSet; 4]) -> f64 {
        let p = self.problem();
        let others = self.others;
        let mut got = [0usize; 3];
        let mut log = 0.0;
        for i in 0..others {
            if !p.hands[i].minus(hands[p.seats[i]]).is_empty() {
                return f64::NEG_INFINITY;
            }
        }
        for i in 0..self.len {
            let c = self.cards[i];
            let Some(k) = (0..others).find(|&k| hands[p.seats[k]].contains(c)) else {
                return f64::NEG_INFINITY;
            };
            if self.weights[i][k] == 0.0 {
                return f64::NEG_INFINITY;
            }
            got[k] += 1;
            log += self.weights[i][k].ln();
        }
        let fits = (0..others).all(|k| {
            got[k] == p.need[k]
                && hands[p.seats[k]].len() as usize == p.hands[k].len() as usize + p.need[k]
        });
        if !fits {
            return f64::NEG_INFINITY;
        }
        log - self.table[0][p.need[0]][p.need[1]].ln()
    }
}

/// Self-normalised importance weights of worlds drawn uniformly, from the log of each
/// world's probability under a belief ([`BeliefSampler::log_probability`]): every
/// consistent deal has the same uniform probability, so a world's weight is its belief
/// probability over the sum of the drawn worlds' (`exp(l - max)` first, so that no weight
/// underflows when all are small). Empty for no worlds.
pub fn normalized_weights(log_weights: &[f64]) -> Vec<f64> {
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let raw: Vec<f64> = log_weights.iter().map(|&l| (l - top).exp()).collect();
    let total: f64 = raw.iter().sum();
    raw.into_iter().map(|w| w / total).collect()
}

/// Kish's effective sample size of normalised weights over their number, `1 / (N Σ w²)`:
/// 1 when the weights are equal, `1/N` when one world has them all. Why weighting uniform
/// draws can lose to drawing from the belief: `N` weighted worlds count as `N · ESS/N`.
pub fn effective_sample_fraction(weights: &[f64]) -> f64 {
    let squares: f64 = weights.iter().map(|w| w * w).sum();
    1.0 / (weights.len() as f64 * squares)
}
