//! PIMC with exact leaves: Perfect-Information Monte Carlo over exactly uniform
//! determinizations, each solved by the double-dummy [`Solver`].
//!
//! Once the solver can finish a world within the per-world node budget, for each decision the bot
//! draws `worlds` complete deals consistent with its [`SeatView`] (uniformly over all of
//! them, [`Sampler`]), asks the solver for the exact value of every legal card in each
//! world (the rest of the round under best play by everyone who sees every hand; see
//! [`yokai_septet_solver`] for the objective per variant), and plays the card with the best
//! total. Every card is scored on the same worlds. Ties (frequent: the values are small
//! integers) go to the heuristic's choice, then to the lowest card id. Like any PIMC it
//! assumes the others see through the deal (strategy fusion).
//!
//! Whether it can is measured, not assumed: at the first decision of each trick until it
//! can, the bot samples two worlds, plays each out to the round's end with the
//! heuristic, and solves that playout's positions from the last backwards, each to the
//! round's end within [`PimcDdConfig::world_nodes`] (a solve that passes it stops
//! there); if every one finishes, both worlds' positions now included, every world is
//! solved from here to the round's end (from then on in the round, without asking
//! again). So the solver takes over as soon as the budget allows a whole-round solve
//! from the position, with no forecast, and the hand-over moves towards the round's
//! first lead as the solver gets faster. Worlds of one information set differ a lot in
//! cost, so a decision's solves also stop at 4 × worlds × the per-world budget of nodes
//! (within a world too), on the worlds solved so far. Node counts do not depend on the machine: with a count
//! budget the bot is reproducible.
//!
//! Before that, the bot plays as `pimc` does (heuristic playouts to the round's end, 30
//! per world of the budget: 600 by default). Passing picks are the heuristic's.
//!
//! With [`PimcDdConfig::delayed`] (the `epimc` bots) the solved decisions postpone the
//! perfect-information evaluation past the bot's next play, EPIMC style
//! ([`super::epimc`]): on the same worlds, a card's score is its total when the bot's
//! next card is chosen per information set rather than per world.

use std::time::{Duration, Instant};

use yokai_septet::Phase;
use yokai_septet::SeatView;
use yokai_septet::State;
use yokai_septet::{Card, CardSet};
use yokai_septet_solver::{MoveValues, Solver};

use super::epimc::delayed_total;
use super::families::DEFAULT_WORLDS;
use super::heuristic::HeuristicBot;
use super::pimc::{PimcBot, PimcConfig};
use super::playout;
use super::spec::Budget;
use super::worlds::{BeliefSource, Worlds};
use super::{
    has_decision, snapshot_words, Bot, BotError, BotSpec, BotStream, Family, SearchValues,
};

/// Worlds per decision, an optional time limit, and when the solver takes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PimcDdConfig {
    /// Determinizations solved per decision (at least one).
    pub worlds: u32,
    /// Optional wall-clock limit per decision, checked between worlds (at least one world
    /// is always searched); it also limits the `pimc` phase. It makes play depend on
    /// machine speed: not reproducible.
    pub time_limit: Option<Duration>,
    /// A fixed hand-over: the solver decides once at most this many tricks of the round
    /// remain. `None` (the default): once sampled worlds are solved to the round's end
    /// within [`PimcDdConfig::world_nodes`].
    pub exact_tricks: Option<u32>,
    /// Solver nodes one world may take for the solver to decide (default
    /// [`DEFAULT_WORLD_NODES`]).
    pub world_nodes: u64,
    /// EPIMC (the `epimc` bots): once the solver decides, score each card with the bot's
    /// next play chosen per information set, not per world. Off
    /// (plain PIMC) by default.
    pub delayed: bool,
}

/// Default node budget per world: a few milliseconds of the solver, so that the default
/// 20 worlds stay within about a decision's time.
pub const DEFAULT_WORLD_NODES: u64 = 40_000;

impl Default for PimcDdConfig {
    fn default() -> PimcDdConfig {
        PimcDdConfig {
            worlds: DEFAULT_WORLDS,
            time_limit: None,
            exact_tricks: None,
            world_nodes: DEFAULT_WORLD_NODES,
            delayed: false,
        }
    }
}

impl PimcDdConfig {
    /// This configuration with a name's budget: `N` worlds, or `Nms` milliseconds.
    pub fn with_budget(self, budget: Budget) -> PimcDdConfig {
        let (worlds, time_limit) = budget.count_and_limit();
        PimcDdConfig {
            worlds,
            time_limit,
            ..self
        }
    }

    /// The same budget with EPIMC's postponed evaluation ([`PimcDdConfig::delayed`]).
    pub fn delayed(self) -> PimcDdConfig {
        PimcDdConfig {
            delayed: true,
            ..self
        }
    }
}

/// Worlds a probe solves: all must fit the budget (worlds differ a lot in cost).
const PROBE_WORLDS: u32 = 2;

/// A decision's solves stop after this many times its expected nodes (worlds × per-world
/// budget), on the worlds solved so far.
const NODE_CAP_FACTOR: u64 = 4;

/// Heuristic playouts per decision before the solver takes over, per world of the budget.
const PLAYOUTS_PER_WORLD: u32 = 30;

/// The PIMC bot with solver leaves (`pimc-dd`).
pub struct PimcDdBot {
    config: PimcDdConfig,
    rng: BotStream,
    /// Draws the determinizations: uniformly, or from a belief model (`-inf`).
    worlds: Worlds,
    solver: Solver,
    /// Solves the probe's positions: cleared before each probe, so that its node counts
    /// (and the hand-over) depend on the probed world only, not on earlier games.
    probe_solver: Solver,
    /// The last probe: the round, this seat's dealt hand, the cards played and the
    /// tricks played when it was made (a later position of the same round has a
    /// superset of those cards), and its answer.
    probe: Option<(u32, CardSet, CardSet, usize, bool)>,
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
            rng: BotStream::new(seed),
            worlds: Worlds::default(),
            solver: Solver::new(),
            probe_solver: Solver::with_table_bits(16),
            probe: None,
            early: PimcBot::new(early, seed),
        }
    }

    /// The bot drawing its play-phase worlds from `belief`'s model (`-inf`), or uniformly
    /// (`None`), its early decisions' `pimc` too; the registry's builders give it.
    pub(crate) fn inferring(mut self, belief: Option<BeliefSource>) -> PimcDdBot {
        self.worlds = Worlds::new(belief.clone());
        self.early = self.early.inferring(belief);
        self
    }

    /// Whether the solver decides at `view`.
    fn exact(&mut self, view: &SeatView) -> bool {
        if let Some(tricks) = self.config.exact_tricks {
            let v = view.variant();
            return v.tricks_per_round() - view.tricks_played() <= tricks as usize;
        }
        let (round, dealt, played) = (view.round(), view.dealt_hand(), view.played());
        let tricks = view.tricks_played();
        if let Some((r, d, p, t, exact)) = self.probe {
            let same_round = r == round && d == dealt && p.0 & played.0 == p.0;
            // Exact once, exact for the rest of the round (its positions only shrink);
            // not exact: asked again at the next trick.
            if same_round && (exact || t == tricks) {
                return exact;
            }
        }
        let exact = self.probe(view);
        self.probe = Some((round, dealt, played, tricks, exact));
        exact
    }

    /// Whether a world sampled for `view` is solved within the node budget, measured on
    /// the positions of its heuristic playout from the last backwards.
    fn probe(&mut self, view: &SeatView) -> bool {
        (0..PROBE_WORLDS).all(|_| self.probe_world(view))
    }

    /// One world of [`PimcDdBot::probe`].
    fn probe_world(&mut self, view: &SeatView) -> bool {
        // The decision checked the worlds first (`act`, `search_values`): no error here.
        let Ok(world) = self.worlds.sample(view, &mut self.rng) else {
            return false;
        };
        // Every position of the playout before its last card.
        let mut line = Vec::new();
        playout::play_out(world, |s, p| {
            line.push(*s);
            playout::heuristic_card(s, p)
        });
        self.probe_solver.clear();
        // Solved from the last position back (each warms the table for the next, as the
        // decisions' solver is warm), each to the round's end within the per-world budget:
        // the first that passes it answers the probe.
        for pos in line.iter().rev() {
            if pos.legal_actions().len() < 2 {
                continue;
            }
            let budget = self.config.world_nodes;
            if self.probe_solver.solve_moves_within(pos, budget).is_none() {
                return false;
            }
        }
        true
    }

    /// Sums each card's exact value over the worlds (indexed by card id); returns the
    /// worlds solved, with their cards' values (none: the first world alone passed the
    /// decision's node cap, and the caller plays as `pimc`).
    fn totals(&mut self, view: &SeatView, sums: &mut [i64; 56]) -> Vec<(State, MoveValues)> {
        let start = Instant::now();
        let first = self.solver.nodes();
        // Worlds of one information set differ a lot in cost (a heavy tail): past this many
        // nodes the decision stops at the worlds solved so far, within a world too (a
        // count, so reproducible).
        let cap = NODE_CAP_FACTOR
            .saturating_mul(self.config.worlds.max(1) as u64)
            .saturating_mul(self.config.world_nodes);
        let mut worlds = Vec::with_capacity(self.config.worlds.max(1) as usize);
        while worlds.len() < self.config.worlds.max(1) as usize {
            let Ok(world) = self.worlds.sample(view, &mut self.rng) else {
                break;
            };
            let left = cap.saturating_sub(self.solver.nodes() - first);
            let Some(values) = self.solver.solve_moves_within(&world, left) else {
                break;
            };
            for (c, v) in values.iter() {
                sums[c.id() as usize] += v as i64;
            }
            worlds.push((world, values));
            if self.config.time_limit.is_some_and(|t| start.elapsed() >= t)
                || self.solver.nodes() - first >= cap
            {
                break;
            }
        }
        worlds
    }

    /// Replaces the PIMC totals in `sums` by EPIMC totals on the same `worlds`
    /// ([`super::epimc`]), for the cards of `legal` in order of their PIMC totals while
    /// one could still reach the best EPIMC total so far (a card's EPIMC total never
    /// exceeds its PIMC total) and the time limit allows; `all`: for every card. Cards
    /// left out get `i64::MIN`.
    fn delayed_totals(
        &mut self,
        legal: CardSet,
        worlds: &[(State, MoveValues)],
        sums: &mut [i64; 56],
        all: bool,
    ) {
        let start = Instant::now();
        let mut order: Vec<Card> = legal.iter().collect();
        order.sort_by_key(|c| std::cmp::Reverse(sums[c.id() as usize]));
        let mut best = i64::MIN;
        for (i, c) in order.iter().enumerate() {
            let bound = sums[c.id() as usize];
            sums[c.id() as usize] = i64::MIN;
            // The first card is always scored; a time limit stops at the cards scored.
            let late =
                !all && i > 0 && self.config.time_limit.is_some_and(|t| start.elapsed() >= t);
            if (bound < best && !all) || late {
                continue;
            }
            let total = delayed_total(&mut self.solver, worlds, *c);
            sums[c.id() as usize] = total;
            best = best.max(total);
        }
    }

    /// The bot's evaluation of each legal card for `view`'s seat (its turn, play phase;
    /// `None` otherwise): mean exact values once the solver decides, else `pimc`'s mean
    /// playout values.
    pub fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if view.phase() != Phase::Play || !view.is_my_turn() {
            return None;
        }
        // A variant without a belief model has no values (`act` says why).
        self.worlds.check_view(view).ok()?;
        if !self.exact(view) {
            return self.early.search_values(view);
        }
        let mut sums = [0i64; 56];
        let solved = self.totals(view, &mut sums);
        if solved.is_empty() {
            return self.early.search_values(view);
        }
        if self.config.delayed {
            self.delayed_totals(view.legal_actions(), &solved, &mut sums, true);
        }
        let worlds = solved.len() as u32;
        let values = view
            .legal_actions()
            .iter()
            .map(|c| (c, sums[c.id() as usize] as f64 / worlds as f64))
            .collect();
        Some(SearchValues {
            values,
            worlds,
            exact: true,
            visits: None,
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

impl PimcDdBot {
    /// What it plays, as a name's fields.
    fn own_spec(&self) -> BotSpec {
        let family = if self.config.delayed {
            Family::Epimc
        } else {
            Family::PimcDd
        };
        BotSpec {
            infers: self.worlds.infers(),
            budget: Some(Budget::of(self.config.worlds, self.config.time_limit)),
            ..BotSpec::bare(family)
        }
    }
}

impl Bot for PimcDdBot {
    super::named_by_spec!();

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        self.worlds
            .check_view(view)
            .map_err(|e| e.for_bot(self.name()))?;
        let legal = has_decision(self, view)?;
        if legal.len() == 1 || view.phase() == Phase::Pass {
            return Ok(HeuristicBot::choose(view));
        }
        if !self.exact(view) {
            return self.early.act(view);
        }
        let mut sums = [0i64; 56];
        let solved = self.totals(view, &mut sums);
        if solved.is_empty() {
            return self.early.act(view);
        }
        if self.config.delayed {
            self.delayed_totals(legal, &solved, &mut sums, false);
        }
        Ok(best_card(legal, &sums, HeuristicBot::choose(view)))
    }

    fn reseed(&mut self, seed: u64) {
        self.rng.reseed(seed);
        self.probe = None;
        self.early.reseed(seed);
    }

    /// Both streams' positions and the last probe (it decides whether the solver plays
    /// the next decision, without drawing again). The solvers' tables never change a
    /// value, only how many nodes a solve takes, so they are left out: a restored bot
    /// decides alike except where a decision reaches its node cap.
    fn snapshot(&self) -> Option<Vec<u64>> {
        let [a, b] = self.rng.words();
        let [c, d] = self.early.rng.words();
        let probe = match self.probe {
            None => [0; 5],
            Some((round, dealt, played, tricks, exact)) => [
                1,
                round as u64 | (exact as u64) << 32,
                dealt.0,
                played.0,
                tricks as u64,
            ],
        };
        Some([[a, b, c, d].as_slice(), &probe].concat())
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        let w: [u64; 9] = snapshot_words(self.name(), words)?;
        self.rng.set_words([w[0], w[1]]);
        self.early.rng.set_words([w[2], w[3]]);
        self.probe = (w[4] == 1).then(|| {
            let round = w[5] as u32;
            let exact = w[5] >> 32 == 1;
            (round, CardSet(w[6]), CardSet(w[7]), w[8] as usize, exact)
        });
        Ok(())
    }
}
