//! The settings of `ismcts`: its budget, its techniques ([`Techniques`]) and its threads,
//! and how a name writes them (`ismcts:5000:t4`).

use std::time::Duration;

use super::super::{budget_text, parse_budget};

/// Iterations of `ismcts` at its default budget: the one place to change it.
pub const DEFAULT_ITERATIONS: u32 = 5000;

/// The iterations of `ismcts-nn` at its default budget: about the time per decision of
/// `ismcts` at its default (the network's forward passes cost some iterations).
pub const GUIDED_ITERATIONS: u32 = 4600;

/// The most threads `play` and `hint` give one decision
/// ([`crate::bots::decision_threads`]): root-parallel trees split the budget, so past a
/// few threads each tree is too shallow to gain.
pub const MAX_DECISION_THREADS: u32 = 4;

/// Nodes a tree kept for reuse may hold ([`Techniques::reuse`]): 2^20 nodes of 28 bytes,
/// 28 MiB per tree. A subtree above it is dropped and the decision starts afresh.
pub const REUSE_NODE_CAP: usize = 1 << 20;

/// The search's switchable techniques (issue 58), as the solver's
/// [`crate::solver::Techniques`]: each is measured against the search without it.
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
    /// bot with it cannot be saved ([`crate::bots::Bot::snapshot`]: the tree is not in it).
    pub reuse: bool,
    /// The weight, in percent, of the value model ([`crate::bots::ValueNet`]) in a
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

    /// Parses the argument of an `ismcts-nn:ARG` name: `BUDGET`, `PATH` or `BUDGET:PATH`
    /// (the path is the rest, colons and all). A first part that looks like a budget
    /// (digits, perhaps then `ms`) must be one: `None` for `0`, `0ms` or an empty `ARG`.
    pub fn parse_guided(arg: &str) -> Option<(IsmctsConfig, Option<&str>)> {
        let (head, rest) = match arg.split_once(':') {
            Some((head, rest)) => (head, Some(rest)),
            None => (arg, None),
        };
        let digits = head.strip_suffix("ms").unwrap_or(head);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return (!arg.is_empty()).then_some((IsmctsConfig::guided(), Some(arg)));
        }
        let config = IsmctsConfig::parse_budget(head)?;
        match rest {
            Some("") => None,
            path => Some((config, path)),
        }
    }

    /// Parses the argument of an `ismcts:ARG` name: a budget (`N` iterations, or `Nms`),
    /// then any of the options `:classic` ([`Techniques::CLASSIC`]), `:reuse` (tree reuse
    /// on), `:vW` (value leaves of weight `W`, 0..=100 percent:
    /// [`Techniques::value_weight`]), `:fade` (that weight fading over the round:
    /// [`Techniques::value_fade`]) and `:tT` (`T` threads, `T` ≥ 1), each at most once.
    /// A value model file is not part of it: the registry splits it off first (`@PATH`).
    pub fn parse_budget(arg: &str) -> Option<IsmctsConfig> {
        let mut parts = arg.split(':');
        let (iterations, time_limit) = parse_budget(parts.next()?)?;
        let mut config = IsmctsConfig {
            iterations,
            time_limit,
            ..IsmctsConfig::default()
        };
        let (mut classic, mut reuse, mut fade) = (false, false, false);
        let (mut threads, mut value) = (None, None);
        for option in parts {
            match option {
                "classic" if !classic => classic = true,
                "reuse" if !reuse => reuse = true,
                "fade" if !fade => fade = true,
                v if v.starts_with('v') => {
                    let w: u8 = v[1..].parse().ok().filter(|&w| w <= 100)?;
                    if value.replace(w).is_some() || v != format!("v{w}") {
                        return None;
                    }
                }
                t => {
                    let n: u32 = t.strip_prefix('t')?.parse().ok().filter(|&n| n >= 1)?;
                    if threads.replace(n).is_some() || t != format!("t{n}") {
                        return None;
                    }
                }
            }
        }
        if classic {
            config.techniques = Techniques::CLASSIC;
        }
        config.techniques.reuse |= reuse;
        if let Some(w) = value {
            config.techniques.value_weight = w;
        }
        config.techniques.value_fade |= fade;
        config.threads = threads.unwrap_or(1);
        Some(config)
    }

    /// The argument [`IsmctsConfig::parse_budget`] reads back: the budget, then the
    /// options that differ from the default. Techniques that no option writes (one exact
    /// technique off and the other on) are the Rust API's only, and are not in the name.
    pub fn budget_and_options(&self) -> String {
        let mut out = budget_text(self.iterations, self.time_limit);
        let t = self.techniques;
        let exact = |t: Techniques| (t.early_stop, t.forced);
        let classic =
            exact(t) == exact(Techniques::CLASSIC) && exact(t) != exact(Techniques::DEFAULT);
        if classic {
            out.push_str(":classic");
        }
        if t.reuse && !Techniques::DEFAULT.reuse {
            out.push_str(":reuse");
        }
        // `:classic` sets the weight too, so a name says it where it differs from its base.
        let base = if classic {
            Techniques::CLASSIC
        } else {
            Techniques::DEFAULT
        };
        if t.value_weight != base.value_weight {
            out.push_str(&format!(":v{}", t.value_weight));
        }
        if t.value_fade && !base.value_fade {
            out.push_str(":fade");
        }
        if self.threads > 1 {
            out.push_str(&format!(":t{}", self.threads));
        }
        out
    }
}

/// Splits an `ismcts:ARG` argument at its value model file: `BUDGET[:OPTIONS]@PATH` gives
/// the options' part and `Some(PATH)` (the rest of the name, colons and all), where the
/// options have a `:vW` for the model to be used; without an `@`, the argument and `None`.
pub fn split_value_path(arg: &str) -> Option<(&str, Option<&str>)> {
    match arg.split_once('@') {
        None => Some((arg, None)),
        Some((options, path)) => {
            let valued = options.split(':').skip(1).any(|o| o.starts_with('v'));
            (valued && !path.is_empty()).then_some((options, Some(path)))
        }
    }
}
