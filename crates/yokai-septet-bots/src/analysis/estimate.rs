//! A sampled estimate of every legal card's value where the exact solver does not reach
//! within its budget (a round's early plays): `pimc-dd` before its solver takes over.
//!
//! Worlds are drawn uniformly from what the player to move knew at that play (its hand,
//! the cards it passed and received, every card played; [`Sampler`]): the full deal of
//! the finished round says what that was, and the other hands are hidden from the player,
//! so a world is any deal consistent with it. In each world every legal card is played and
//! the round is finished by the heuristic for every seat, the play-out of `pimc` and
//! `pimc-dd`'s early phase (`bots/playout.rs`); the card's value is the mean over the
//! worlds of the solver's objective for the mover's side ([`utility`], not the search
//! bots' round value: `bots/playout.rs` converts one into the other), so that an estimate
//! reads in the same units as an exact value ([`super::units`]). Every card is scored on the same worlds, drawn from a stream
//! keyed by the game's seed and the play's index: an analysis is the same everywhere.

use crate::playout;
use yokai_septet::rng::{chacha, Stream};
use yokai_septet::sampler::Sampler;
use yokai_septet::Card;
use yokai_septet::State;
#[cfg(doc)]
use yokai_septet_solver::utility;

/// Worlds behind each estimate.
pub const ESTIMATE_WORLDS: u32 = 32;

/// The bots' stream index of the estimates (apart from every bot's own, 0, and its pass
/// search's, 1): the play's index is added to it.
const ESTIMATE_STREAM: u64 = 1 << 32;

/// Every legal card's estimated value at one play.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Every legal card's mean value (card id order), for the mover's side.
    pub values: Vec<(Card, f64)>,
    /// The worlds drawn.
    pub worlds: u32,
}

/// The estimate at `state` (a play position), from the stream of the game seeded with
/// `seed` and play number `index`; `sampler` is reused between calls (its table is large).
pub fn estimate(state: &State, seed: u64, index: u64, sampler: &mut Sampler) -> Estimate {
    let me = state
        .current_player()
        .expect("an estimate is of a play position");
    let view = state.view(me);
    let legal: Vec<Card> = state.legal_actions().iter().collect();
    let mut sums = vec![0i64; legal.len()];
    let mut rng = chacha(Stream::Bots, seed, ESTIMATE_STREAM.wrapping_add(index));
    for _ in 0..ESTIMATE_WORLDS {
        let world = sampler.sample(&view, &mut rng);
        for (sum, &card) in sums.iter_mut().zip(&legal) {
            *sum += i64::from(finish(world, card, me));
        }
    }
    let values = legal
        .iter()
        .zip(&sums)
        .map(|(&c, &s)| (c, s as f64 / f64::from(ESTIMATE_WORLDS)))
        .collect();
    Estimate {
        values,
        worlds: ESTIMATE_WORLDS,
    }
}

/// Plays `card` in `world`, then the heuristic for every seat to the round's end; the
/// round's value for `me`'s side ([`utility`]; 0 where no seat is to play).
fn finish(world: State, card: Card, me: usize) -> i32 {
    playout::play_card_out(world, card, playout::heuristic_card)
        .map_or(0, |finished| finished.utility(me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HeuristicBot;
    use yokai_septet::Phase;
    use yokai_septet::{GameConfig, Variant};

    /// The first play position with a choice of a heuristic game.
    fn a_choice(variant: Variant, seed: u64) -> State {
        let mut s = State::new(GameConfig::new(variant, seed));
        loop {
            let p = s.current_player().unwrap();
            if s.phase() == Phase::Play && s.legal_actions().len() > 1 {
                return s;
            }
            s.apply(HeuristicBot::choose(&s.view(p))).unwrap();
        }
    }

    #[test]
    fn every_legal_card_is_estimated_the_same_way_every_time() {
        for v in Variant::ALL {
            let s = a_choice(v, 4);
            let mut sampler = Sampler::new();
            let a = estimate(&s, 4, 0, &mut sampler);
            let legal: Vec<Card> = s.legal_actions().iter().collect();
            assert_eq!(a.values.iter().map(|x| x.0).collect::<Vec<_>>(), legal);
            assert_eq!(a.worlds, ESTIMATE_WORLDS);
            assert_eq!(a, estimate(&s, 4, 0, &mut Sampler::new()), "{v}");
            // Another play index draws other worlds.
            let b = estimate(&s, 4, 1, &mut sampler);
            assert_ne!(a.values, b.values, "{v}");
        }
    }

    /// A round's last card: every other card is known, so the one world is the deal
    /// itself and the estimate is the exact value.
    #[test]
    fn with_nothing_hidden_the_estimate_is_the_exact_value() {
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, 9));
        while s.phase() != Phase::Play || super::super::forecast::cards_left(&s) > 1 {
            let p = s.current_player().unwrap();
            s.apply(HeuristicBot::choose(&s.view(p))).unwrap();
        }
        let e = estimate(&s, 9, 0, &mut Sampler::new());
        let exact = yokai_septet_solver::Solver::new().solve_moves(&s).unwrap();
        for (card, value) in &e.values {
            let want = exact.iter().find(|x| x.0 == *card).unwrap().1;
            assert_eq!(*value, f64::from(want), "{card}");
        }
    }
}
