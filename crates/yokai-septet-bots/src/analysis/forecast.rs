//! What the exact solver would need for a position, forecast from what it just did.
//!
//! [`crate::analysis`] solves a round's positions from the last backwards, each within a
//! node budget (a solve that passes it stops); for the positions it then skips it reports
//! a forecast of their cost from the node counts measured so far: the cost grows about
//! geometrically with the cards left in the hands, at a rate measured from the last two
//! solves at least a trick apart (until then, [`DEFAULT_TRICK_GROWTH`] per trick). Node
//! counts do not depend on the machine, so neither do the forecasts.

use yokai_septet::State;

/// Cards left in the hands of `s`: the measure of a position's size the forecast uses.
pub fn cards_left(s: &State) -> u32 {
    (0..s.num_players()).map(|p| s.hand(p).len()).sum()
}

/// Growth of the solver's cost per trick assumed before any has been measured: at the
/// top of the range measured for the alpha-beta solver (`docs/search.md`).
pub const DEFAULT_TRICK_GROWTH: f64 = 30.0;

/// Forecasts the solver's cost (nodes) of positions with more cards left, from the costs
/// of positions with fewer.
#[derive(Clone, Debug)]
pub struct Forecast {
    players: u32,
    /// `(cards left in the hands, nodes)` of the solves so far, fewest cards first.
    measured: Vec<(u32, u64)>,
}

impl Forecast {
    /// A forecast for a game of `players` players, with nothing measured yet.
    pub fn new(players: usize) -> Forecast {
        Forecast {
            players: players.max(1) as u32,
            measured: Vec::new(),
        }
    }

    /// Records that a position with `cards_left` cards in the hands took `nodes` nodes.
    pub fn measured(&mut self, cards_left: u32, nodes: u64) {
        self.measured.push((cards_left, nodes.max(1)));
    }

    /// Growth of the cost per card, from the last solve and the latest one at least a
    /// trick (`players` cards) smaller.
    fn growth_per_card(&self) -> f64 {
        let default = DEFAULT_TRICK_GROWTH.powf(1.0 / self.players as f64);
        let Some(&(d1, n1)) = self.measured.last() else {
            return default;
        };
        let earlier = self
            .measured
            .iter()
            .rev()
            .find(|&&(d0, _)| d0 + self.players <= d1);
        match earlier {
            Some(&(d0, n0)) => {
                let g = (n1 as f64 / n0 as f64).powf(1.0 / (d1 - d0) as f64);
                // Never below 1 (a larger position is never forecast cheaper), never
                // above the default's square (one lucky small solve must not forbid
                // every larger one).
                g.clamp(1.0, default * default)
            }
            None => default,
        }
    }

    /// Forecast nodes of a position with `cards_left` cards in the hands (0 when nothing
    /// has been measured: the first, smallest position is always tried).
    pub fn nodes(&self, cards_left: u32) -> u64 {
        let Some(&(d1, n1)) = self.measured.last() else {
            return 0;
        };
        let extra = cards_left.saturating_sub(d1) as f64;
        let f = n1 as f64 * self.growth_per_card().powf(extra);
        if f >= u64::MAX as f64 {
            u64::MAX
        } else {
            f as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_measured_means_try() {
        assert_eq!(Forecast::new(4).nodes(48), 0);
    }

    #[test]
    fn growth_is_measured_over_a_trick() {
        let mut f = Forecast::new(4);
        f.measured(4, 100);
        f.measured(8, 1_000);
        // Ten times per trick: one more trick forecasts ten times the last.
        let next = f.nodes(12);
        assert!((9_990..=10_010).contains(&next), "{next}");
    }

    #[test]
    fn default_growth_before_a_trick_is_measured() {
        let mut f = Forecast::new(4);
        f.measured(4, 100);
        let next = f.nodes(8);
        assert!((2_990..=3_010).contains(&next), "{next}");
    }
}
