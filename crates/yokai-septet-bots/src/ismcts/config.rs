//! The settings of `ismcts`: its budget, its techniques ([`Techniques`]) and its threads,
//! and how a name writes them (`ismcts:5000:t4`).

use std::time::Duration;

use super::super::spec::{Budget, IsmctsOptions};

pub use super::super::families::{DEFAULT_ITERATIONS, GUIDED_ITERATIONS};

/// The most threads `play` and `hint` give one decision
/// ([`crate::decision_threads`]): root-parallel trees split the budget, so past a
/// few threads each tree is too shallow to gain.
pub const MAX_DECISION_THREADS: u32 = 4;

/// The most threads a name may ask one decision for (`:tT`): the cores this process may
/// use (its affinity and CPU quota), or [`MAX_DECISION_THREADS`] where that is more, so
/// that every name `play` and `hint` write builds on any machine. Beyond it a thread
/// gains nothing, and a count in the thousands exhausts the system's threads: the
/// registry refuses the name ([`crate::BotError::TooManyThreads`]).
pub fn max_search_threads() -> u32 {
    usable_cores().max(MAX_DECISION_THREADS)
}

/// The engine's [`yokai_septet::usable_cores`] as a thread count of a bot's name.
pub(crate) fn usable_cores() -> u32 {
    u32::try_from(yokai_septet::usable_cores()).unwrap_or(u32::MAX)
}

/// Nodes a tree kept for reuse may hold ([`Techniques::reuse`]): 2^20 nodes of 28 bytes,
/// 28 MiB per tree. A subtree above it is dropped and the decision starts afresh.
pub const REUSE_NODE_CAP: usize = 1 << 20;

/// The search's switchable techniques (issue 58), as the solver's
/// [`yokai_septet_solver::Techniques`]: each is measured against the search without it.
/// [`Techniques::CLASSIC`] is the search as it was before them (`ismcts:N:classic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Techniques {
    /// Stops a playout where nothing left in the round can change its value
    /// (`sure.rs`): exact, so the search plays the same cards as without it, sooner.
    pub early_stop: bool,
    /// Plays a playout's forced cards (one legal card) without asking the heuristic:
    /// exact too (the heuristic plays a legal card).
    pub forced: bool,
    /// Starts each decision from the subtree of the cards played since the seat's last
    /// decision in the same round, with its statistics (at most [`REUSE_NODE_CAP`]
    /// nodes); off, every decision starts from a fresh tree. It changes the games, and a
    /// bot with it cannot be saved ([`crate::Bot::snapshot`]: the tree is not in it).
    pub reuse: bool,
    /// The weight, in percent, of the value model ([`crate::ValueNet`]) in a
    /// leaf's value: 0 plays every leaf out with the heuristic (as before), 100 takes the
    /// model's value alone (no playout), between mixes them as AlphaGo's λ does. An exact
    /// early stop's value is taken as it is. It changes the games.
    pub value_weight: u8,
    /// Whether the value model's weight fades over the round: `value_weight` times the
    /// share of its hand the seat to play at the leaf still holds, so that the model
    /// judges the round's start (where a playout is a poor guess) and the playout its end
    /// (where it is nearly exact).
    pub value_fade: bool,
}

impl Techniques {
    /// The search as it was before issue 58.
    pub const CLASSIC: Techniques = Techniques {
        early_stop: false,
        forced: false,
        reuse: false,
        value_weight: 0,
        value_fade: false,
    };
    /// Every technique (value leaves at an even mix: they need a value model).
    pub const ALL: Techniques = Techniques {
        early_stop: true,
        forced: true,
        reuse: true,
        value_weight: 50,
        value_fade: false,
    };
    /// The techniques of `ismcts` by default.
    pub const DEFAULT: Techniques = Techniques {
        early_stop: true,
        forced: true,
        reuse: false,
        value_weight: 0,
        value_fade: false,
    };
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques::DEFAULT
    }
}

/// Iterations per decision, an optional time limit, the techniques and the threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (determinization + descent + playout) per decision, over all threads.
    pub iterations: u32,
    /// Optional wall-clock limit per decision, checked every 16 iterations. It makes play
    /// depend on machine speed: not reproducible.
    pub time_limit: Option<Duration>,
    /// UCB1 exploration constant (values are about ±1).
    pub exploration: f32,
    /// The switchable techniques.
    pub techniques: Techniques,
    /// Threads per decision (at least 1): root-parallel trees, each with its share of the
    /// iterations and a stream of its own drawn from the bot's, merged at the root. A
    /// count budget plays the same cards for the same seed and thread count; one thread
    /// is the search without threads.
    pub threads: u32,
}

impl Default for IsmctsConfig {
    fn default() -> IsmctsConfig {
        IsmctsConfig {
            iterations: DEFAULT_ITERATIONS,
            time_limit: None,
            exploration: 1.0,
            techniques: Techniques::DEFAULT,
            threads: 1,
        }
    }
}

impl IsmctsConfig {
    /// The default budget of `ismcts-nn`.
    pub fn guided() -> IsmctsConfig {
        IsmctsConfig {
            iterations: GUIDED_ITERATIONS,
            ..IsmctsConfig::default()
        }
    }

    /// This configuration with a name's budget (`None`: its own) and `ismcts` options
    /// ([`BotSpec::budget`](crate::BotSpec::budget),
    /// [`BotSpec::options`](crate::BotSpec::options)): `:classic` ([`Techniques::CLASSIC`]),
    /// `:reuse` (tree reuse on), `:vW` (value leaves of weight `W`:
    /// [`Techniques::value_weight`]), `:fade` ([`Techniques::value_fade`]) and `:tT` (`T`
    /// threads; one without it).
    pub fn with_name(mut self, budget: Option<Budget>, options: &IsmctsOptions) -> IsmctsConfig {
        if let Some(budget) = budget {
            (self.iterations, self.time_limit) = budget.count_and_limit();
        }
        if options.classic {
            self.techniques = Techniques::CLASSIC;
        }
        self.techniques.reuse |= options.reuse;
        if let Some(w) = options.value_weight {
            self.techniques.value_weight = w;
        }
        self.techniques.value_fade |= options.fade;
        self.threads = options.threads.unwrap_or(1);
        self
    }

    /// The budget and options that name this configuration ([`BotSpec`](crate::BotSpec)'s
    /// fields, the inverse of [`IsmctsConfig::with_name`]): the options that differ from
    /// the default.
    /// Techniques that no option writes (one exact technique off and the other on) are the
    /// Rust API's only, and are not in the name.
    pub fn budget_and_options(&self) -> (Budget, IsmctsOptions) {
        let t = self.techniques;
        let exact = |t: Techniques| (t.early_stop, t.forced);
        let classic =
            exact(t) == exact(Techniques::CLASSIC) && exact(t) != exact(Techniques::DEFAULT);
        // `:classic` sets the weight too, so a name says it where it differs from its base.
        let base = if classic {
            Techniques::CLASSIC
        } else {
            Techniques::DEFAULT
        };
        let options = IsmctsOptions {
            classic,
            reuse: t.reuse && !Techniques::DEFAULT.reuse,
            value_weight: (t.value_weight != base.value_weight).then_some(t.value_weight),
            fade: t.value_fade && !base.value_fade,
            threads: (self.threads > 1).then_some(self.threads),
        };
        (Budget::of(self.iterations, self.time_limit), options)
    }
}
