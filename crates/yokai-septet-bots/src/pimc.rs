//! Perfect-Information Monte Carlo search.
//!
//! For each decision the bot samples complete deals consistent with its own view
//! ("determinizations"), and in each one plays every legal card followed by a playout of
//! the rest of the round (the heuristic, or uniformly random cards, for every seat). The
//! card with the best average outcome for the acting side is played. All legal cards are
//! scored on the same worlds (common random numbers), which makes their comparison far
//! less noisy than independent samples would. PIMC cannot reason about what others know
//! (strategy fusion), but in trick-taking games it is a strong, well-understood baseline.
//!
//! Passing picks are left to the heuristic unless the name gives them a budget of their
//! own (`pimc:200/1400`, read by the registry: `passing.rs`): a pick's effect shows only
//! over the whole round, so each pick needs full-round playouts and more worlds than a
//! card does late in the round. This is the pass search of every search bot.

use std::time::{Duration, Instant};

use yokai_septet::belief::normalized_weights;
use yokai_septet::Card;
use yokai_septet::SeatView;
use yokai_septet::{Phase, State};

use super::families::DEFAULT_PLAYOUTS;
use super::heuristic::HeuristicBot;
use super::playout;
#[cfg(doc)]
use super::playout::round_value;
use super::spec::Budget;
use super::worlds::{BeliefSource, Worlds};
use super::{
    first_best, has_decision, Bot, BotError, BotSpec, BotStream, Family, PassPicks, SearchValues,
};

/// The policy that finishes a round inside a determinization.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// The heuristic bot plays on.
    Heuristic,
    /// Uniformly random legal cards.
    Random,
}

/// Search budget and playout policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PimcConfig {
    /// Playouts per decision, spread evenly over the legal cards (at least one world).
    pub playouts: u32,
    /// Optional wall-clock limit per decision (checked between worlds; makes games
    /// depend on machine speed, so arenas that must be reproducible leave it unset).
    pub time_limit: Option<Duration>,
    /// The policy that finishes each playout.
    pub playout: Playout,
    /// Playouts per passing pick, spread over the hand like `playouts`; `None` passes as
    /// the heuristic does.
    pub pass_playouts: Option<u32>,
}

impl Default for PimcConfig {
    fn default() -> PimcConfig {
        PimcConfig {
            playouts: DEFAULT_PLAYOUTS,
            time_limit: None,
            playout: Playout::Heuristic,
            pass_playouts: None,
        }
    }
}

impl PimcConfig {
    /// This configuration with a name's budget: `N` playouts, or `Nms` milliseconds.
    pub fn with_budget(self, budget: Budget) -> PimcConfig {
        let (playouts, time_limit) = budget.count_and_limit();
        PimcConfig {
            playouts,
            time_limit,
            ..self
        }
    }

    /// Whether a decision in `phase` is searched (else the heuristic picks).
    fn searches(&self, phase: Phase) -> bool {
        match phase {
            Phase::Play => true,
            Phase::Pass => self.pass_playouts.is_some(),
            Phase::RoundOver | Phase::Over => false,
        }
    }
}

/// The PIMC search bot.
pub struct PimcBot {
    config: PimcConfig,
    pub(super) rng: BotStream,
    /// Draws the determinizations: uniformly, or from a belief model (`-inf`).
    worlds: Worlds,
}

impl PimcBot {
    /// A PIMC bot with `config`, its random stream from `seed`.
    pub fn new(config: PimcConfig, seed: u64) -> PimcBot {
        PimcBot {
            config,
            rng: BotStream::new(seed),
            worlds: Worlds::default(),
        }
    }

    /// The bot drawing its play-phase worlds from `belief`'s model (`-inf`), or uniformly
    /// (`None`); the registry's builders give it.
    pub(crate) fn inferring(mut self, belief: Option<BeliefSource>) -> PimcBot {
        self.worlds = Worlds::new(belief);
        self
    }

    /// Plays `card` in `world`, then the round out with the playout policy; the round's
    /// value for `me` ([`round_value`]; 0 where no seat is to play).
    fn play_out(&mut self, world: State, card: Card, me: usize) -> f32 {
        let (policy, rng) = (self.config.playout, &mut self.rng);
        playout::play_card_out(world, card, |s, p| match policy {
            Playout::Heuristic => playout::heuristic_card(s, p),
            Playout::Random => s.legal_actions().uniform(rng).expect("a legal card"),
        })
        .map_or(0.0, |finished| finished.value(me))
    }
}

impl PimcBot {
    /// The legal cards (in card order), their summed playout values, how many there are,
    /// and the number of worlds played; the error where its worlds cannot be drawn.
    #[allow(clippy::type_complexity)]
    fn scores(&mut self, view: &SeatView) -> Result<([Card; 56], [f32; 56], usize, u32), BotError> {
        let legal = view.legal_actions();
        let start = Instant::now();
        let me = view.seat();
        let mut cards = [Card::ACE; 56];
        let k = legal.len() as usize;
        for (slot, c) in cards.iter_mut().zip(legal) {
            *slot = c;
        }
        let mut sums = [0f32; 56];
        let budget = match view.phase() {
            Phase::Pass => self.config.pass_playouts.unwrap_or(self.config.playouts),
            _ => self.config.playouts,
        };
        let worlds = (budget / k as u32).max(1);
        let weighs = self.worlds.weighs();
        // Weighted worlds: each world's values and log-weight, combined once all are drawn
        // (the weights are normalised over the decision's worlds).
        let (mut log_weights, mut values) = (Vec::new(), Vec::new());
        let mut done = 0;
        for _ in 0..worlds {
            let (world, log_weight) = self
                .worlds
                .sample_weighted(view, &mut self.rng)
                .map_err(|e| e.for_bot(self.name()))?;
            for i in 0..k {
                let value = self.play_out(world, cards[i], me);
                if weighs {
                    values.push(value);
                } else {
                    sums[i] += value;
                }
            }
            if weighs {
                log_weights.push(log_weight);
            }
            done += 1;
            if self.config.time_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        if weighs {
            // The weighted mean times the number of worlds: callers divide by `done`.
            let weights = normalized_weights(&log_weights);
            for (i, sum) in sums[..k].iter_mut().enumerate() {
                let mean: f64 = (0..weights.len())
                    .map(|j| weights[j] * f64::from(values[j * k + i]))
                    .sum();
                *sum = (mean * f64::from(done)) as f32;
            }
        }
        Ok((cards, sums, k, done))
    }

    /// The mean playout value of each legal card for `view`'s seat (its turn, in the play
    /// phase, or passing when passes have a budget; `None` otherwise): the score
    /// difference over the game's target, +0.1 for a round won, ±1 for a game won or lost.
    pub fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if !self.config.searches(view.phase()) || !view.is_my_turn() {
            return None;
        }
        // A variant without a belief model has no values (`act` says why).
        let (cards, sums, k, worlds) = self.scores(view).ok()?;
        Some(SearchValues {
            values: (0..k)
                .map(|i| (cards[i], sums[i] as f64 / worlds as f64))
                .collect(),
            worlds,
            exact: false,
            visits: None,
        })
    }
}

impl PimcBot {
    /// From now on scores each card over uniform worlds weighted by `source`'s belief (the
    /// self-normalised product of their cards' weights), where the `-inf` bots draw their
    /// worlds from the belief: the second sampling scheme of `docs/inference.md`, measured
    /// against the first (`examples/belief_schemes.rs`). No registry name says weighing (a
    /// measured alternative, not a bot to play): its name and spec stay the uniform bot's
    /// (`pimc:N`), and the example's maker calls it `pimc-infw:N`.
    pub fn weigh_uniform_worlds(&mut self, source: BeliefSource) {
        self.worlds.weigh(source);
    }
}

impl PimcBot {
    /// What it plays, as a name's fields. A bot that weighs uniform worlds draws them as
    /// the uniform bot does, and is named as that one (its maker names the measurement).
    fn own_spec(&self) -> BotSpec {
        let family = match self.config.playout {
            Playout::Heuristic => Family::Pimc,
            Playout::Random => Family::PimcRandom,
        };
        BotSpec {
            infers: self.worlds.infers() && !self.worlds.weighs(),
            budget: Some(Budget::of(self.config.playouts, self.config.time_limit)),
            pass: self
                .config
                .pass_playouts
                .map_or(PassPicks::Heuristic, PassPicks::Searched),
            ..BotSpec::bare(family)
        }
    }
}

impl Bot for PimcBot {
    super::named_by_spec!();

    fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        // `act` plays a forced card without searching.
        if view.legal_actions().len() == 1 {
            return None;
        }
        PimcBot::search_values(self, view)
    }

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        self.worlds
            .check_view(view)
            .map_err(|e| e.for_bot(self.name()))?;
        let legal = has_decision(self, view)?;
        if legal.len() == 1 || !self.config.searches(view.phase()) {
            return Ok(HeuristicBot::choose(view));
        }
        let (cards, sums, k, _) = self.scores(view)?;
        Ok(first_best(cards[..k].iter().copied().zip(sums)).expect("at least two legal cards"))
    }

    super::stream::stream_only_state!(rng);
}
