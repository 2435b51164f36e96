//! Bots: players that choose a card from what one seat may know.
//!
//! A [`Bot`] receives a [`SeatView`], never the `State`: the view keeps the state private,
//! so a bot cannot read another player's hand even by accident — fairness is a property of
//! the types, not of each bot's discipline. Bots are `Send` so arenas can run them on a
//! thread pool, and every random choice comes from a ChaCha8 stream seeded by the caller,
//! so a game between bots is reproducible on every machine and `rand` version.
//!
//! - `random`: uniform over the legal actions (the baseline every other bot must beat).
//! - `heuristic`: a rule-based player for every variant ([`HeuristicBot`]).
//! - `pimc`: Perfect-Information Monte Carlo search over determinizations, with the
//!   heuristic as playout policy ([`PimcBot`]).
//! - `pimc-dd`: the same search with exact leaves: each determinization is solved by the
//!   double-dummy [`crate::solver::Solver`] ([`PimcDdBot`]).
//! - `ismcts`: information-set Monte Carlo tree search with heuristic playouts
//!   ([`IsmctsBot`]).
//! - `nn`: the baseline neural-network policy shipped for each variant, or `nn:PATH` a
//!   model of your own ([`NnBot`], [`Mlp`]).

use std::fmt;
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::cards::{Card, CardSet};
use crate::infoset::view::SeatView;
use crate::rng::uniform_below;
use crate::rules::config::Variant;

mod eval;
mod heuristic;
mod ismcts;
mod nn;
mod pimc;
mod pimc_dd;

pub use heuristic::HeuristicBot;
pub use ismcts::{IsmctsBot, IsmctsConfig};
pub use nn::{Inputs, Mlp, NnBot, Scratch, WeightsError, MODEL_FORMAT};
pub use pimc::{PimcBot, PimcConfig, Playout};
pub use pimc_dd::{PimcDdBot, PimcDdConfig, DEFAULT_WORLD_NODES};

/// A player. `act` is only called when it is the view's seat's turn.
pub trait Bot: Send {
    /// The bot's name, as accepted by [`bot_by_name`].
    fn name(&self) -> String;
    /// Chooses one of `view.legal_actions()` (a passing pick or a card to play).
    fn act(&mut self, view: &SeatView) -> Card;
    /// Restarts the bot's random stream from `seed`.
    fn reseed(&mut self, seed: u64);
    /// [`Bot::act`] for bots that can fail (a Python policy seated by the console script
    /// may raise or answer an illegal card): the error says why.
    fn try_act(&mut self, view: &SeatView) -> Result<Card, String> {
        Ok(self.act(view))
    }
    /// The bot's value of each legal card at this decision, where it searches (`None`
    /// elsewhere: passing, a forced card, a bot that does not search). In place of
    /// [`Bot::act`]: it consumes the random stream as `act` would, and `act` would have
    /// played the first card of highest value.
    fn evaluate(&mut self, _view: &SeatView) -> Option<Evaluation> {
        None
    }
    /// Whether the bot can play `variant` (a trained model plays only the variant it was
    /// trained for); the error says why not. Checked before a game starts.
    fn supports(&self, _variant: Variant) -> Result<(), String> {
        Ok(())
    }
}

/// The bot names [`bot_by_name`] accepts (`pimc:N` sets N playouts per decision,
/// `pimc:Nms` a time limit of N milliseconds per decision, `pimc:N/P` also searches the
/// passing picks with P playouts each; `pimc-dd:N` N solved worlds,
/// `pimc-dd:Nms` a time limit; `ismcts:N` N iterations, `ismcts:Nms` a time limit;
/// `nn:PATH` the neural-network model in the safetensors file `PATH`).
pub const BOT_NAMES: [&str; 11] = [
    "random",
    "heuristic",
    "pimc",
    "pimc-random",
    "pimc:N",
    "pimc-dd",
    "pimc-dd:N",
    "ismcts",
    "ismcts:N",
    "nn",
    "nn:PATH",
];

/// The built-in bots at their default budgets, weakest first (the ladder's entrants).
pub const BUILT_IN_BOTS: [&str; 7] = [
    "random",
    "heuristic",
    "nn",
    "pimc-random",
    "pimc",
    "ismcts",
    "pimc-dd",
];

/// Parses a search budget: `N` (a positive count: reproducible) or `Nms` (a positive
/// number of milliseconds per decision: depends on machine speed).
pub(crate) fn parse_budget(arg: &str) -> Option<(u32, Option<Duration>)> {
    if let Some(ms) = arg.strip_suffix("ms") {
        let ms: u64 = ms.parse().ok().filter(|&m| m > 0)?;
        return Some((u32::MAX, Some(Duration::from_millis(ms))));
    }
    let n: u32 = arg.parse().ok().filter(|&n| n > 0)?;
    Some((n, None))
}

/// The budget as [`parse_budget`] reads it: `Nms` with a time limit, else the count `N`.
pub(crate) fn budget_text(count: u32, time_limit: Option<Duration>) -> String {
    match time_limit {
        Some(t) => format!("{}ms", t.as_millis()),
        None => count.to_string(),
    }
}

/// A search bot's evaluation of the legal cards of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// `(card, mean value)` for every legal card, in card order.
    pub values: Vec<(Card, f64)>,
    /// Worlds (determinizations) searched.
    pub worlds: u32,
    /// Whether the values are exact solver values (else heuristic playout values).
    pub exact: bool,
}

impl Evaluation {
    /// The first card of highest value: the card the bot plays.
    pub fn best_card(&self) -> Option<Card> {
        first_best(self.values.iter().copied())
    }
}

/// Why [`bot_by_name`] could not build a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// A name that is not in the registry.
    Unknown(String),
    /// `nn:PATH` whose weights file cannot be used.
    Weights {
        /// The bot's name as given.
        name: String,
        /// What is wrong with the file.
        error: WeightsError,
    },
    /// A bot that cannot play the game's variant (a model trained for another).
    Unsupported {
        /// The bot's name as given.
        name: String,
        /// The game's variant.
        variant: Variant,
        /// Why it cannot play it.
        why: String,
    },
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Unknown(name) => write!(
                f,
                "unknown bot '{name}': valid names are {} (N a number of playouts or worlds, \
                 or a time limit such as pimc:20ms; pimc:N/P also searches passes with P)",
                BOT_NAMES.join(", ")
            ),
            BotError::Weights { name, error } => write!(f, "bot '{name}': {error}"),
            BotError::Unsupported { name, variant, why } => {
                write!(f, "bot '{name}' cannot play {variant}: {why}")
            }
        }
    }
}

impl std::error::Error for BotError {}

/// Builds the bot called `name` with its random stream seeded by `seed`.
pub fn bot_by_name(name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    let unknown = || BotError::Unknown(name.to_string());
    Ok(match name {
        "random" => Box::new(RandomBot::new(seed)),
        "heuristic" => Box::new(HeuristicBot::new(seed)),
        "pimc" => Box::new(PimcBot::new(PimcConfig::default(), seed)),
        "pimc-random" => Box::new(PimcBot::new(
            PimcConfig {
                playout: Playout::Random,
                ..PimcConfig::default()
            },
            seed,
        )),
        "pimc-dd" => Box::new(PimcDdBot::new(PimcDdConfig::default(), seed)),
        "ismcts" => Box::new(IsmctsBot::new(IsmctsConfig::default(), seed)),
        "nn" => Box::new(NnBot::shipped()),
        _ => {
            if let Some(path) = name.strip_prefix("nn:") {
                let bot = NnBot::from_file(path).map_err(|error| BotError::Weights {
                    name: name.to_string(),
                    error,
                })?;
                return Ok(Box::new(bot));
            }
            if let Some(arg) = name.strip_prefix("ismcts:") {
                let config = IsmctsConfig::parse_budget(arg).ok_or_else(unknown)?;
                return Ok(Box::new(IsmctsBot::new(config, seed)));
            }
            if let Some(arg) = name.strip_prefix("pimc-dd:") {
                let config = PimcDdConfig::parse_budget(arg).ok_or_else(unknown)?;
                return Ok(Box::new(PimcDdBot::new(config, seed)));
            }
            let arg = name.strip_prefix("pimc:").ok_or_else(unknown)?;
            let config = PimcConfig::parse_budget(arg).ok_or_else(unknown)?;
            Box::new(PimcBot::new(config, seed))
        }
    })
}

/// [`bot_by_name`] for a game of `variant`: also refuses a bot that cannot play it.
pub fn bot_for_variant(name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, BotError> {
    let bot = bot_by_name(name, seed)?;
    check_variant(bot.as_ref(), name, variant)?;
    Ok(bot)
}

/// [`Bot::supports`] as a [`BotError::Unsupported`] naming the bot `name`.
pub(crate) fn check_variant(bot: &dyn Bot, name: &str, variant: Variant) -> Result<(), BotError> {
    bot.supports(variant).map_err(|why| BotError::Unsupported {
        name: name.to_string(),
        variant,
        why,
    })
}

/// The card of the highest score, the first one on ties (in card order: the lowest id),
/// as every bot that ranks cards chooses.
pub(crate) fn first_best<S: PartialOrd>(
    scored: impl IntoIterator<Item = (Card, S)>,
) -> Option<Card> {
    let mut best: Option<(Card, S)> = None;
    for (card, score) in scored {
        if best.as_ref().is_none_or(|(_, b)| score > *b) {
            best = Some((card, score));
        }
    }
    best.map(|(card, _)| card)
}

/// The bot-randomness stream for `seed` (a domain tag keeps it apart from deal streams).
pub(crate) fn bot_rng(seed: u64) -> ChaCha8Rng {
    crate::rng::chacha(crate::rng::Stream::Bots, seed, 0)
}

/// A uniformly random card of `set` (non-empty).
#[inline]
pub(crate) fn uniform_card<R: RngCore>(rng: &mut R, set: CardSet) -> Card {
    let k = uniform_below(rng, set.len());
    set.nth(k).expect("uniform_card needs a non-empty set")
}

/// Plays uniformly at random among the legal actions.
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot, its stream from `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: bot_rng(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn act(&mut self, view: &SeatView) -> Card {
        uniform_card(&mut self.rng, view.legal_actions())
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search bot's name is the spec it was made from: `parse_budget` and `budget_text`
    /// are inverses.
    #[test]
    fn search_bot_names_round_trip_their_budget() {
        for spec in [
            "pimc:12",
            "pimc:20ms",
            "pimc:12/300",
            "pimc:20ms/300",
            "pimc-dd:3",
            "pimc-dd:5ms",
            "ismcts:30",
            "ismcts:9ms",
        ] {
            let bot = bot_by_name(spec, 0).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(bot.name(), spec);
        }
    }

    #[test]
    fn factory_knows_every_listed_name_and_lists_them_on_error() {
        for name in [
            "random",
            "heuristic",
            "pimc",
            "pimc-random",
            "pimc:8",
            "pimc:5ms",
            "pimc:8/40",
            "pimc-dd",
            "pimc-dd:3",
            "pimc-dd:5ms",
            "ismcts",
            "ismcts:50",
            "ismcts:5ms",
        ] {
            let b = bot_by_name(name, 1).unwrap();
            assert!(!b.name().is_empty());
        }
        for bad in [
            "",
            "Random",
            "pimc:",
            "pimc:x",
            "pimc:0",
            "pimc:8/",
            "pimc:8/0",
            "pimc:8/x",
            "pimc:8/5ms",
            "pimc:/40",
            "pimc:8/40/40",
            "alpha",
            "pimc-dd:",
            "pimc-dd:0",
            "pimc-dd:-3",
            "pimc-dd:0ms",
            "ismcts:",
            "ismcts:0",
        ] {
            let e = bot_by_name(bad, 0).err().unwrap();
            let msg = e.to_string();
            assert!(msg.contains(&format!("'{bad}'")), "{msg}");
            for n in BOT_NAMES {
                assert!(msg.contains(n), "{msg}");
            }
        }
    }
}
