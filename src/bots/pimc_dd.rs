//! PIMC with exact leaves: Perfect-Information Monte Carlo over exactly uniform
//! determinizations, each solved by the double-dummy [`Solver`].
//!
//! Once at most `exact_tricks` tricks of the round remain, for each decision the bot
//! draws `worlds` complete deals consistent with its [`SeatView`] (uniformly over all of
//! them, [`Sampler`]), asks the solver for the exact value of every legal card in each
//! world (the rest of the round under best play by everyone who sees every hand; see
//! [`crate::solver`] for the objective per variant), and plays the card with the best
//! total. Every card is scored on the same worlds. Ties (frequent: the values are small
//! integers) go to the heuristic's choice, then to the lowest card id. Like any PIMC it
//! assumes the others see through the deal (strategy fusion).
//!
//! Earlier in the round, a whole-round solve costs far more than a decision may (see
//! `docs/search.md`), so the bot plays as `pimc` does there (heuristic playouts to
//! the round's end, 30 per world of the budget: 600 by default). Passing picks are the heuristic's.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use crate::cards::{Card, CardSet};
use crate::infoset::sampler::Sampler;
use crate::infoset::view::SeatView;
use crate::rules::config::Variant;
use crate::rules::state::Phase;
use crate::solver::Solver;

use super::heuristic::HeuristicBot;
use super::pimc::{PimcBot, PimcConfig};
use super::{bot_rng, budget_text, parse_budget, Bot, Evaluation};

/// Worlds per decision, an optional time limit, and where the solver takes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PimcDdConfig {
    /// Determinizations solved per decision (at least one).
    pub worlds: u32,
    /// Optional wall-clock limit per decision, checked between worlds (at least one world
    /// is always searched); it also limits the `pimc` phase. It makes play depend on
    /// machine speed: not reproducible.
    pub time_limit: Option<Duration>,
    /// The solver decides once at most this many tricks of the round remain (`None`:
    /// [`default_exact_tricks`] of the variant).
    pub exact_tricks: Option<u32>,
}

impl Default for PimcDdConfig {
    fn default() -> PimcDdConfig {
        PimcDdConfig {
            worlds: 20,
            time_limit: None,
            exact_tricks: None,
        }
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

/// Tricks left from which solving a world costs about a millisecond or less
/// (`docs/search.md`).
pub fn default_exact_tricks(variant: Variant) -> u32 {
    match variant {
        Variant::FourPlayer => 5,
        Variant::ThreePlayer => 5,
        Variant::Seal | Variant::SealShort => 5,
    }
}

/// Heuristic playouts per decision before the solver takes over, per world of the budget.
const PLAYOUTS_PER_WORLD: u32 = 30;

/// The PIMC bot with solver leaves (`pimc-dd`).
pub struct PimcDdBot {
    config: PimcDdConfig,
    rng: ChaCha8Rng,
    sampler: Box<Sampler>,
    solver: Solver,
    /// Plays the decisions before the solver takes over.
    early: PimcBot,
}

impl PimcDdBot {
    /// A PIMC bot with exact double-dummy leaves and `config`, its random stream from `seed`.
    pub fn new(config: PimcDdConfig, seed: u64) -> PimcDdBot {
        let early = PimcConfig {
            playouts: config.worlds.saturating_mul(PLAYOUTS_PER_WORLD),
            time_limit: config.time_limit,
            ..PimcConfig::default()
        };
        PimcDdBot {
            config,
            rng: bot_rng(seed),
            sampler: Box::default(),
            solver: Solver::new(),
            early: PimcBot::new(early, seed),
        }
    }

    /// Whether the solver decides at `view`.
    fn exact(&self, view: &SeatView) -> bool {
        let v = view.variant();
        let exact = self
            .config
            .exact_tricks
            .unwrap_or_else(|| default_exact_tricks(v)) as usize;
        v.tricks_per_round() - view.tricks_played() <= exact
    }

    /// Sums each card's exact value over the worlds (indexed by card id); returns the
    /// number of worlds solved.
    fn totals(&mut self, view: &SeatView, sums: &mut [i64; 56]) -> u32 {
        let start = Instant::now();
        let mut done = 0;
        while done < self.config.worlds.max(1) {
            let world = self.sampler.sample(view, &mut self.rng);
            let values = self.solver.solve_moves(&world).expect("a play-phase world");
            for (c, v) in values.iter() {
                sums[c.id() as usize] += v as i64;
            }
            done += 1;
            if self.config.time_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        done
    }

    /// The bot's evaluation of each legal card for `view`'s seat (its turn, play phase;
    /// `None` otherwise): mean exact values once the solver decides, else `pimc`'s mean
    /// playout values.
    pub fn evaluate(&mut self, view: &SeatView) -> Option<Evaluation> {
        if view.phase() != Phase::Play || !view.is_my_turn() {
            return None;
        }
        if !self.exact(view) {
            return self.early.evaluate(view);
        }
        let mut sums = [0i64; 56];
        let worlds = self.totals(view, &mut sums);
        let values = view
            .legal_actions()
            .iter()
            .map(|c| (c, sums[c.id() as usize] as f64 / worlds as f64))
            .collect();
        Some(Evaluation {
            values,
            worlds,
            exact: true,
        })
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
        format!(
            "pimc-dd:{}",
            budget_text(self.config.worlds, self.config.time_limit)
        )
    }

    fn act(&mut self, view: &SeatView) -> Card {
        let legal = view.legal_actions();
        if legal.len() == 1 || view.phase() == Phase::Pass {
            return HeuristicBot::choose(view);
        }
        if !self.exact(view) {
            return self.early.act(view);
        }
        let mut sums = [0i64; 56];
        self.totals(view, &mut sums);
        best_card(legal, &sums, HeuristicBot::choose(view))
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
        self.early.reseed(seed);
    }
}
