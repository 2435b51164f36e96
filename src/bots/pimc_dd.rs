//! PIMC with exact leaves: Perfect-Information Monte Carlo over exactly uniform
//! determinizations, each solved by the double-dummy [`Solver`].
//!
//! For each decision the bot draws `worlds` complete deals consistent with its
//! [`SeatView`] (uniformly over all of them, [`Sampler`]), asks the solver for the exact
//! value of every legal card in each world (the rest of the round under best play by
//! everyone who sees every hand; see [`crate::solver`] for the objective per variant),
//! and plays the card with the best total. Every card is scored on the same worlds.
//!
//! Solving a whole round from its first lead takes far longer than a decision may (see
//! `docs/performance.md`), so while more than `exact_tricks` tricks of the round remain,
//! a leaf is a heuristic playout of the round until only that many are left, then solved
//! exactly; from there on every leaf is exact.
//! Ties (frequent: the values are small integers) go to the heuristic's choice, then to
//! the lowest card id. Like any PIMC it assumes the others will see through the deal
//! (strategy fusion), but its leaves are exact where `pimc`'s are heuristic playouts.
//!
//! Passing picks are the heuristic's: their effect shows only after the exchange.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use crate::card::{Card, CardSet};
use crate::config::Variant;
use crate::sampler::Sampler;
use crate::solver::{utility, Solver};
use crate::state::{Phase, State};
use crate::view::SeatView;

use super::heuristic::HeuristicBot;
use super::{bot_rng, parse_budget, Bot};

/// Worlds per decision and an optional time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PimcDdConfig {
    /// Determinizations solved per decision (at least one).
    pub worlds: u32,
    /// Optional wall-clock limit per decision, checked between worlds (at least one world
    /// is always solved). It makes play depend on machine speed: not reproducible.
    pub time_limit: Option<Duration>,
    /// Leaves are solved exactly once at most this many tricks of the round remain
    /// (`None`: [`default_exact_tricks`] of the variant).
    pub exact_tricks: Option<u32>,
}

impl Default for PimcDdConfig {
    fn default() -> PimcDdConfig {
        PimcDdConfig {
            worlds: 12,
            time_limit: None,
            exact_tricks: None,
        }
    }
}

/// Tricks left from which a solve costs about a millisecond or less (`docs/performance.md`).
pub fn default_exact_tricks(variant: Variant) -> u32 {
    match variant {
        Variant::FourPlayer => 5,
        Variant::ThreePlayer => 5,
        Variant::Seal | Variant::SealShort => 5,
    }
}

impl PimcDdConfig {
    /// Parses the budget of a `pimc-dd:BUDGET` name: `N` worlds, or `Nms` milliseconds.
    pub fn parse_budget(arg: &str) -> Option<PimcDdConfig> {
        let (worlds, time_limit) = parse_budget(arg)?;
        Some(PimcDdConfig {
            worlds,
            time_limit,
            exact_tricks: None,
        })
    }
}

/// The average exact value of each legal card over the sampled worlds.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// `(card, mean value)` for every legal card, in card order.
    pub values: Vec<(Card, f64)>,
    /// Worlds solved.
    pub worlds: u32,
}

/// The PIMC bot with solver leaves (`pimc-dd`).
pub struct PimcDdBot {
    config: PimcDdConfig,
    rng: ChaCha8Rng,
    sampler: Box<Sampler>,
    solver: Solver,
}

impl PimcDdBot {
    pub fn new(config: PimcDdConfig, seed: u64) -> PimcDdBot {
        PimcDdBot {
            config,
            rng: bot_rng(seed),
            sampler: Box::default(),
            solver: Solver::new(),
        }
    }

    /// Sums each card's exact value over the worlds (indexed by card id); returns the
    /// number of worlds solved.
    fn totals(&mut self, view: &SeatView, sums: &mut [i64; 56]) -> u32 {
        let start = Instant::now();
        let me = view.seat();
        let v = view.variant();
        let exact = self
            .config
            .exact_tricks
            .unwrap_or_else(|| default_exact_tricks(v)) as usize;
        let left = v.tricks_per_round() - view.tricks_played();
        let mut done = 0;
        while done < self.config.worlds.max(1) {
            let world = self.sampler.sample(view, &mut self.rng);
            if left <= exact {
                let values = self.solver.solve_moves(&world).expect("a play-phase world");
                for (c, v) in values.iter() {
                    sums[c.id() as usize] += v as i64;
                }
            } else {
                for c in view.legal_actions() {
                    sums[c.id() as usize] += self.leaf_value(world, c, me, exact) as i64;
                }
            }
            done += 1;
            if self.config.time_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        done
    }

    /// The value for `me` of playing `c` in `world`: heuristic play until `exact` tricks
    /// are left, then the solver.
    fn leaf_value(&mut self, mut s: State, c: Card, me: usize, exact: usize) -> i32 {
        let v = s.variant();
        let mut card = c;
        loop {
            let out = s.apply(card).expect("legal in every determinization");
            if let Some(r) = out.round {
                return utility(v, &r, s.winners_mask(), me);
            }
            if v.tricks_per_round() - s.tricks_played() <= exact {
                return self
                    .solver
                    .solve_for(&s, me)
                    .expect("a play-phase position");
            }
            let p = s.current_player().expect("the round goes on");
            card = HeuristicBot::choose(&s.view(p));
        }
    }

    /// The mean exact value of each legal card for `view`'s seat (its turn, play phase;
    /// `None` otherwise).
    pub fn evaluate(&mut self, view: &SeatView) -> Option<Evaluation> {
        if view.phase() != Phase::Play || !view.is_my_turn() {
            return None;
        }
        let mut sums = [0i64; 56];
        let worlds = self.totals(view, &mut sums);
        let values = view
            .legal_actions()
            .iter()
            .map(|c| (c, sums[c.id() as usize] as f64 / worlds as f64))
            .collect();
        Some(Evaluation { values, worlds })
    }
}

/// The card of `legal` with the highest total; ties to `preferred`, then the lowest id.
fn best_card(legal: CardSet, sums: &[i64; 56], preferred: Card) -> Card {
    let top = legal
        .iter()
        .map(|c| sums[c.id() as usize])
        .max()
        .unwrap_or(0);
    if sums[preferred.id() as usize] == top && legal.contains(preferred) {
        return preferred;
    }
    legal
        .iter()
        .find(|c| sums[c.id() as usize] == top)
        .expect("a non-empty legal set")
}

impl Bot for PimcDdBot {
    fn name(&self) -> String {
        match self.config.time_limit {
            Some(t) => format!("pimc-dd:{}ms", t.as_millis()),
            None => format!("pimc-dd:{}", self.config.worlds),
        }
    }

    fn act(&mut self, view: &SeatView) -> Card {
        let legal = view.legal_actions();
        let heuristic = HeuristicBot::choose(view);
        if legal.len() == 1 || view.phase() == Phase::Pass {
            return heuristic;
        }
        let mut sums = [0i64; 56];
        self.totals(view, &mut sums);
        best_card(legal, &sums, heuristic)
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }
}
