//! # yokai-septet-bots
//!
//! Bots: players that choose a card from what one seat may know; the double-dummy
//! [`analysis`] of a game record; and duplicate-deal [`arena`]s and ladders between bots.
//! The engine (`yokai-septet`) gives them the game, the exact solver
//! (`yokai-septet-solver`) the exact leaves and values.
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
//!   heuristic as playout policy ([`PimcBot`]); `pimc-random` with random playouts.
//! - `pimc-dd`: the same search with exact leaves: each determinization is solved by the
//!   double-dummy [`yokai_septet_solver::Solver`] ([`PimcDdBot`]).
//! - `epimc`: `pimc-dd` with EPIMC's postponed evaluation: the bot's next play is chosen
//!   per information set, not per world ([`PimcDdConfig::delayed`]).
//! - `ismcts`: information-set Monte Carlo tree search with heuristic playouts
//!   ([`IsmctsBot`]).
//! - `nn`: the baseline neural-network policy shipped for each variant (feature `models`),
//!   or `nn:PATH` a model of your own ([`NnBot`], [`Mlp`]).
//! - `ismcts-nn`: `ismcts` guided by an `nn` model: the network's policy is the prior of
//!   PUCT at the searching seat's nodes ([`IsmctsBot`], [`GuideConfig`]).
//!
//! Two modifiers apply to every search family (`pimc`, `pimc-random`, `pimc-dd`, `epimc`,
//! `ismcts`, `ismcts-nn`):
//!
//! - `-inf` after the head (`pimc-inf`, `pimc-dd-inf:8`, `ismcts-nn-inf:4600`): the bot
//!   draws its play-phase worlds from the shipped belief model ([`BeliefSource`],
//!   `worlds.rs`), as the registry's builders set it up;
//! - a pass suffix after the budget: every search bot passes as the heuristic does unless
//!   its budget ends in `/P` (searched picks) or `/nn` (the shipped model's)
//!   ([`PassPicks`], `passing.rs`).
//!
//! A bot's name is the name it was built from, modifiers included, so names round-trip.
//!
//! A name is parsed once, in `spec.rs`, into a [`BotSpec`] (family, `-inf`, budget, pass
//! suffix, options, model file; a malformed name is a [`BotSpecError`] naming the part that
//! is wrong), after one table of names (`families.rs`, [`BOT_FAMILIES`]: each family's
//! head, forms, doc line, and what its names take). Bots are built from a spec through a
//! [`BotRegistry`]: it checks once that the bot can play the game's variant, owns the cache
//! of `nn:PATH` models, and holds the makers of bots defined elsewhere (the console
//! script's Python policies). There is no process-global registry: the arena, the vector env and
//! the command-line tool each take one. Outside this crate's bot modules (the arenas and the
//! analysis, and every crate above) no bot is built by its type
//! (`crates/yokai-septet-testkit/tests/imports.rs` checks it).

// Safe code only.
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

use std::fmt;

use yokai_septet::SeatView;
use yokai_septet::Variant;
use yokai_septet::{Card, CardSet};

pub mod analysis;
pub mod arena;
mod epimc;
mod families;
mod heuristic;
pub mod hint;
mod ismcts;
mod nn;
mod passing;
mod pimc;
mod pimc_dd;
pub(crate) mod playout;
pub(crate) mod registry;
// Used by the front ends that resume saved games (`play --load`, the page's load).
pub mod resume;
pub(crate) mod spec;
mod stream;
mod suggest;
pub(crate) mod worlds;

pub use families::{
    bot_names_help, BotFamily, Counts, Family, Takes, BOT_FAMILIES, BOT_NAMES, BUILT_IN_BOTS,
    DEFAULT_PLAYOUTS, DEFAULT_WORLDS, PASS_SEARCH,
};
pub use heuristic::HeuristicBot;
pub use ismcts::{
    max_search_threads, GuideConfig, IsmctsBot, IsmctsConfig, Techniques, DEFAULT_ITERATIONS,
    MAX_DECISION_THREADS, REUSE_NODE_CAP,
};
pub use nn::{
    encode_value_input, BeliefHead, BeliefNet, BeliefScratch, Inputs, Mlp, Net, NetKind, NnBot,
    Scratch, ValueHead, ValueNet, ValueScratch, WeightsError, BELIEF_FORMAT, MAX_WEIGHTS_FILE,
    MODEL_FORMAT, VALUE_FORMAT,
};
pub use pimc::{PimcBot, PimcConfig, Playout};
pub use pimc_dd::{PimcDdBot, PimcDdConfig, DEFAULT_WORLD_NODES};
pub use playout::{
    heuristic_round_values, play_card_out, round_value, round_value_of_utility, Finished,
};
pub use registry::{bot_by_name, bot_spec, decision_threads, with_threads, BotMaker, BotRegistry};
pub use spec::{policy_module, BotSpec, BotSpecError, Budget, IsmctsOptions, PassPicks};
pub(crate) use stream::BotStream;
pub use suggest::{bare_bot_names, closest_name, near_bot_name};
pub use worlds::{BeliefSource, NoBelief, Worlds};

/// A player. `act` is only called when it is the view's seat's turn.
pub trait Bot: Send {
    /// The bot's name, as accepted by [`BotRegistry::build`]: a built-in bot's is its
    /// [`Bot::spec`] written out, so that the registry builds the same bot from it.
    fn name(&self) -> String;
    /// What a built-in bot plays, as a name's fields ([`BotSpec`], its budget always
    /// written: `pimc:200`, not `pimc`); `None` for a bot defined elsewhere.
    fn spec(&self) -> Option<BotSpec> {
        None
    }
    /// Chooses one of `view.legal_actions()` (a passing pick or a card to play). The
    /// built-in bots fail only when asked with no decision to make, or (a bot built for
    /// any variant, like `yokai_septet.Bot`) in a variant they cannot play; a bot defined
    /// elsewhere (a Python policy) also fails when it raises or answers an illegal card.
    fn act(&mut self, view: &SeatView) -> Result<Card, BotError>;
    /// Restarts the bot's random stream from `seed` (the vector env reseeds its bots at
    /// every deal).
    fn reseed(&mut self, seed: u64);
    /// The search bot's mean value of each legal card at this decision (`None`
    /// elsewhere: passing, a forced card, a bot that does not search). In place of
    /// [`Bot::act`]: it consumes the random stream as `act` would, and `act` would have
    /// played the first card of highest value. The imitation data's teacher values and the
    /// command-line hint read it.
    fn search_values(&mut self, _view: &SeatView) -> Option<SearchValues> {
        None
    }
    /// What the bot carries from one decision to the next besides its name and seed (the
    /// positions of its random streams, a search's cached probe), as words that
    /// [`Bot::restore`] reads back into a bot built with the same name and seed; `None`
    /// when the bot cannot be saved (a Python policy). `yokai_septet.Bot` pickles by it.
    fn snapshot(&self) -> Option<Vec<u64>> {
        None
    }
    /// Continues from a [`Bot::snapshot`] of a bot of the same name and seed: from then on
    /// it decides exactly as that bot would have.
    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        Err(BotError::Snapshot {
            name: self.name(),
            why: format!("it cannot be restored (given {} words)", words.len()),
        })
    }
}

/// A search bot's values of the legal cards of one decision ([`Bot::search_values`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchValues {
    /// `(card, mean value)` for every legal card, in card order.
    pub values: Vec<(Card, f64)>,
    /// Worlds (determinizations) searched.
    pub worlds: u32,
    /// Whether the values are exact solver values (else heuristic playout values).
    pub exact: bool,
    /// A tree search's visits of each card of `values`, in the same order (its own policy:
    /// it plays the most visited card, not the best valued); `None` for a search that
    /// plays the card of highest value.
    pub visits: Option<Vec<u32>>,
}

impl SearchValues {
    /// The card the bot plays: the first most visited card of a tree search, else the
    /// first card of highest value.
    pub fn best_card(&self) -> Option<Card> {
        match &self.visits {
            Some(visits) => first_best(
                self.values
                    .iter()
                    .zip(visits)
                    .map(|(&(c, _), &n)| (c, f64::from(n))),
            ),
            None => first_best(self.values.iter().copied()),
        }
    }

    /// Each card's share of the root visits (`None` without visits, or none made).
    pub fn visit_shares(&self) -> Option<Vec<(Card, f64)>> {
        let visits = self.visits.as_ref()?;
        let total: u64 = visits.iter().map(|&n| u64::from(n)).sum();
        (total > 0).then(|| {
            self.values
                .iter()
                .zip(visits)
                .map(|(&(c, _), &n)| (c, f64::from(n) / total as f64))
                .collect()
        })
    }
}

/// Why a bot could not be built, or could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// A name that is not in the registry: no built-in family's head, and no maker knows
    /// it.
    Unknown(String),
    /// A name with a built-in family's head that is not one of its names: the spec error
    /// says which part is wrong and why.
    Spec {
        /// The bot's name as given.
        name: String,
        /// What is wrong with it.
        error: BotSpecError,
    },
    /// `nn:PATH` whose weights file cannot be used.
    Weights {
        /// The bot's name as given.
        name: String,
        /// What is wrong with the file.
        error: WeightsError,
    },
    /// A name that plays a shipped model (`nn`, `ismcts-nn` with no model file, `ismcts`
    /// with value leaves and no model file) in a build without them (the cargo feature
    /// `models` is off).
    NoShippedModels {
        /// The bot's name as given.
        name: String,
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
    /// Asked to act where its seat has no decision to make (no legal action).
    NoDecision {
        /// The bot's name.
        name: String,
    },
    /// A bot defined outside the crate (a Python policy) failed to decide or to be built:
    /// it raised, or answered an illegal card.
    External {
        /// The bot's name as given.
        name: String,
        /// What went wrong, in the words of whoever defined the bot.
        message: String,
    },
    /// A [`Bot::snapshot`] that cannot be restored into this bot.
    Snapshot {
        /// The bot's name.
        name: String,
        /// Why not.
        why: String,
    },
    /// A name asking for more threads a decision (`:tT`) than [`max_search_threads`]
    /// allows here: refused when the bot is built.
    TooManyThreads {
        /// The bot's name as given.
        name: String,
        /// The threads it asks for.
        threads: u32,
        /// The most this machine allows.
        limit: u32,
    },
    /// The system would not start one of a decision's search threads (its limit on
    /// threads is reached): the decision is not made, and the bot is as it was before it.
    NoThread {
        /// The bot's name.
        name: String,
        /// The system's reason.
        message: String,
    },
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Unknown(name) => match suggest::near_bot_name(name) {
                // A typo: the name it was a typo of says more than every name.
                Some(near) => write!(f, "unknown bot '{name}': did you mean {near}?"),
                None => write!(
                    f,
                    "unknown bot '{name}': valid names are {} (N a number of playouts or \
                     worlds, or a time limit such as pimc:20ms). {}",
                    BOT_NAMES.join(", "),
                    families::modifiers_help()
                ),
            },
            BotError::Spec { name, error } => write!(
                f,
                "bad bot name '{name}': {error}. Valid names are {} (N a number of playouts \
                 or worlds, or a time limit such as pimc:20ms). {}",
                BOT_NAMES.join(", "),
                families::modifiers_help()
            ),
            BotError::Weights { name, error } => write!(f, "bot '{name}': {error}"),
            BotError::NoShippedModels { name } => write!(
                f,
                "bot '{name}': this build of yokai-septet has no shipped models (the cargo \
                 feature `models` is off); build with it, or name a model file (nn:PATH, \
                 ismcts-nn:PATH, ismcts:N:vW@PATH), or play ismcts without value leaves \
                 (ismcts:N:v0)"
            ),
            BotError::Unsupported { name, variant, why } => {
                write!(f, "bot '{name}' cannot play {variant}: {why}")
            }
            BotError::NoDecision { name } => {
                write!(f, "bot '{name}': no legal action to choose from")
            }
            BotError::External { message, .. } => f.write_str(message),
            BotError::Snapshot { name, why } => write!(f, "bot '{name}': {why}"),
            BotError::TooManyThreads {
                name,
                threads,
                limit,
            } => write!(
                f,
                "bot '{name}': :t{threads} asks for {threads} threads a decision, more than \
                 this machine runs: at most {limit} (the cores this process may use, or \
                 {MAX_DECISION_THREADS} where that is more)"
            ),
            BotError::NoThread { name, message } => write!(
                f,
                "bot '{name}': the system would not start a search thread ({message}); the \
                 bot is unchanged: try again, or with fewer threads (:tT)"
            ),
        }
    }
}

impl std::error::Error for BotError {}

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

/// `words` as exactly `N` words, else a [`BotError::Snapshot`] for the bot `name`.
pub(crate) fn snapshot_words<const N: usize>(
    name: String,
    words: &[u64],
) -> Result<[u64; N], BotError> {
    words.try_into().map_err(|_| BotError::Snapshot {
        name,
        why: format!("its snapshot has {N} words, given {}", words.len()),
    })
}

/// The [`Bot`] methods `name` and `spec` of a built-in bot, written inside its `impl Bot`:
/// its spec is its inherent `own_spec(&self) -> BotSpec`, and its name that spec's
/// `Display`, the one writer of names.
macro_rules! named_by_spec {
    () => {
        fn name(&self) -> String {
            self.own_spec().to_string()
        }

        fn spec(&self) -> Option<$crate::BotSpec> {
            Some(self.own_spec())
        }
    };
}
pub(crate) use named_by_spec;

/// The legal actions of `view`, or [`BotError::NoDecision`] where there are none.
pub(crate) fn has_decision(bot: &dyn Bot, view: &SeatView) -> Result<CardSet, BotError> {
    let legal = view.legal_actions();
    if legal.is_empty() {
        return Err(BotError::NoDecision { name: bot.name() });
    }
    Ok(legal)
}

/// Plays uniformly at random among the legal actions.
pub struct RandomBot {
    rng: BotStream,
}

impl RandomBot {
    /// A random bot, its stream from `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: BotStream::new(seed),
        }
    }
}

impl RandomBot {
    fn own_spec(&self) -> BotSpec {
        BotSpec::bare(Family::Random)
    }
}

impl Bot for RandomBot {
    named_by_spec!();

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        let legal = has_decision(self, view)?;
        Ok(legal
            .uniform(&mut self.rng)
            .expect("has_decision: a legal card"))
    }

    stream::stream_only_state!(rng);
}
