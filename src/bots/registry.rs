//! Bot names and the registry that builds bots from them.

use std::fmt;
use std::sync::Arc;

use super::ismcts::split_value_path;
use super::nn::ModelCache;
use super::passing::{split_pass, PassPicks, PassingBot};
use super::{
    BeliefSource, Bot, BotError, GuideConfig, HeuristicBot, IsmctsBot, IsmctsConfig, NnBot,
    PimcBot, PimcConfig, PimcDdBot, PimcDdConfig, Playout, RandomBot, ValueNet,
};
use crate::rules::config::Variant;

/// One family of bot names: the name before any `:` (its head), the forms it is written
/// in, what it is, and how it is built. [`BOT_FAMILIES`] is the one table of bot names:
/// [`BOT_NAMES`], the registry's dispatch, the command-line help ([`bot_names_help`]),
/// the Python `Bot` docstring and the lists in the docs all come from it or are checked
/// against it.
pub struct BotFamily {
    /// The name before any `:` (`pimc`): a name is in this family when its text up to its
    /// first `:` (all of it, without one) is the head.
    pub head: &'static str,
    /// The forms it is written in, as [`BOT_NAMES`] lists them (`pimc`, `pimc:N`).
    pub forms: &'static [&'static str],
    /// What it is, one line (the help and the docstring).
    pub doc: &'static str,
    /// Whether its budget takes a pass suffix (`/P`, `/nn`: `passing.rs`).
    passes: bool,
    /// Whether its head takes the `-inf` modifier (a search: its worlds may be drawn from
    /// the shipped belief model).
    infers: bool,
    build: Build,
}

/// Builds the bot of one family from a [`Wanted`] name (the argument after the head's `:`
/// parsed here; one it cannot read is [`BotError::Unknown`]).
type Build = fn(&BotRegistry, &Wanted<'_>) -> Result<Box<dyn Bot>, BotError>;

/// A name asked of the registry, split at its first `:`.
struct Wanted<'a> {
    name: &'a str,
    /// The text after the first `:` (`None` without one).
    arg: Option<&'a str>,
    /// Its passing picks (the suffix is already cut from `arg`).
    pass: PassPicks,
    /// Where its play-phase worlds come from: the `-inf` modifier's belief model, or
    /// uniform (`None`).
    belief: Option<BeliefSource>,
    seed: u64,
    variant: Option<Variant>,
}

impl<'a> Wanted<'a> {
    fn unknown(&self) -> BotError {
        BotError::Unknown(self.name.to_string())
    }

    /// The family's `default` configuration for a bare head, else its argument as `parse`
    /// reads it (one it cannot read: [`BotError::Unknown`]).
    fn config<C>(&self, default: C, parse: impl Fn(&'a str) -> Option<C>) -> Result<C, BotError> {
        match self.arg {
            None => Ok(default),
            Some(arg) => parse(arg).ok_or_else(|| self.unknown()),
        }
    }

    /// `bot` with the name's passing picks (itself for the heuristic's).
    fn passing(&self, bot: impl Bot + 'static) -> Result<Box<dyn Bot>, BotError> {
        PassingBot::wrap(Box::new(bot), self.pass, self.seed, || {
            shipped_nn(self.name)
        })
    }

    /// A bot whose family takes no argument: refused if one is given.
    fn bare(&self, bot: impl Bot + 'static) -> Result<Box<dyn Bot>, BotError> {
        match self.arg {
            None => Ok(Box::new(bot)),
            Some(_) => Err(self.unknown()),
        }
    }
}

/// Every family of built-in bot names, in the order [`BOT_NAMES`] lists their forms.
pub const BOT_FAMILIES: [BotFamily; 9] = [
    BotFamily {
        head: "random",
        forms: &["random"],
        doc: "uniform over the legal actions",
        passes: false,
        infers: false,
        build: |_, w| w.bare(RandomBot::new(w.seed)),
    },
    BotFamily {
        head: "heuristic",
        forms: &["heuristic"],
        doc: "a rule-based player",
        passes: false,
        infers: false,
        build: |_, w| w.bare(HeuristicBot::new(w.seed)),
    },
    BotFamily {
        head: "pimc",
        forms: &["pimc", "pimc:N"],
        doc: "determinized heuristic playouts; pimc:N N playouts per decision, pimc:Nms N \
              milliseconds per decision",
        passes: true,
        infers: true,
        build: |_, w| {
            let mut config = w.config(PimcConfig::default(), PimcConfig::parse_budget)?;
            // `pimc:N/P` searches its own passes (the same search, on its own stream:
            // its games predate `passing.rs`).
            let belief = w.belief.clone();
            if let PassPicks::Searched(p) = w.pass {
                config.pass_playouts = Some(p);
                return Ok(Box::new(PimcBot::new(config, w.seed).inferring(belief)));
            }
            w.passing(PimcBot::new(config, w.seed).inferring(belief))
        },
    },
    BotFamily {
        head: "pimc-random",
        forms: &["pimc-random", "pimc-random:N"],
        doc: "pimc with random playouts; pimc's budgets",
        passes: false,
        infers: true,
        build: |_, w| {
            let random = |config| PimcConfig {
                playout: Playout::Random,
                ..config
            };
            let config = w.config(random(PimcConfig::default()), |arg| {
                PimcConfig::parse_budget(arg).map(random)
            })?;
            let bot = PimcBot::new(config, w.seed).inferring(w.belief.clone());
            Ok(Box::new(bot))
        },
    },
    BotFamily {
        head: "pimc-dd",
        forms: &["pimc-dd", "pimc-dd:N"],
        doc: "determinized worlds solved exactly; pimc-dd:N N worlds, pimc-dd:Nms",
        passes: true,
        infers: true,
        build: |_, w| pimc_dd(w, false),
    },
    BotFamily {
        head: "epimc",
        forms: &["epimc", "epimc:N"],
        doc: "pimc-dd choosing its next card per information set; epimc:N, epimc:Nms",
        passes: true,
        infers: true,
        build: |_, w| pimc_dd(w, true),
    },
    BotFamily {
        head: "ismcts",
        forms: &["ismcts", "ismcts:N"],
        doc: "information-set tree search; ismcts:N N iterations, ismcts:Nms; options \
              :classic, :reuse, :vW (value leaves, W%; :vW@PATH a value model file), :tT",
        passes: true,
        infers: true,
        build: |_, w| {
            let parse = |arg| {
                let (options, path) = split_value_path(arg)?;
                Some((IsmctsConfig::parse_budget(options)?, path))
            };
            let (config, path) = w.config((IsmctsConfig::default(), None), parse)?;
            let mut bot = IsmctsBot::new(config, w.seed);
            if path.is_none() && config.techniques.value_weight > 0 && !cfg!(feature = "models") {
                return Err(BotError::NoShippedModels {
                    name: w.name.to_string(),
                });
            }
            if let Some(path) = path {
                let net = ValueNet::load(std::path::Path::new(path)).map_err(|error| {
                    BotError::Weights {
                        name: w.name.to_string(),
                        error,
                    }
                })?;
                if let Some(variant) = w.variant.filter(|v| *v != net.variant()) {
                    return Err(BotError::Unsupported {
                        name: w.name.to_string(),
                        variant,
                        why: format!("its value model is for {}", net.variant()),
                    });
                }
                bot = bot.with_value_model(path, Arc::new(net));
            }
            w.passing(bot.inferring(w.belief.clone()))
        },
    },
    BotFamily {
        head: "nn",
        forms: &["nn", "nn:PATH"],
        doc: "the neural-network model shipped for the variant; nn:PATH a model saved as \
              .safetensors",
        passes: false,
        infers: false,
        build: |registry, w| match w.arg {
            None => Ok(Box::new(shipped_nn(w.name)?)),
            Some(path) => Ok(Box::new(registry.file_model(w.name, path, w.variant)?)),
        },
    },
    BotFamily {
        head: "ismcts-nn",
        forms: &["ismcts-nn", "ismcts-nn:N", "ismcts-nn:PATH"],
        doc: "ismcts guided by the nn model; ismcts-nn:N, ismcts-nn:Nms, ismcts-nn:PATH (a \
              model file), ismcts-nn:N:PATH",
        passes: true,
        infers: true,
        build: |registry, w| {
            let guided = (IsmctsConfig::guided(), None);
            let (config, path) = w.config(guided, IsmctsConfig::parse_guided)?;
            let net = match path {
                Some(path) => registry.file_model(w.name, path, w.variant)?,
                None => shipped_nn(w.name)?,
            };
            let path = path.map(str::to_string);
            let guide = GuideConfig::default();
            let bot = IsmctsBot::guided(config, guide, net, path, w.seed);
            w.passing(bot.inferring(w.belief.clone()))
        },
    },
];

/// Refuses an `-inf` name (the bot called `name`) that cannot draw its worlds from
/// `source`: the shipped models in a build without them, or a `variant` with no model
/// (`None`: any variant, refused when the bot acts).
fn check_inference(
    name: &str,
    source: &BeliefSource,
    variant: Option<Variant>,
) -> Result<(), BotError> {
    if cfg!(not(feature = "models")) && matches!(source, BeliefSource::Shipped) {
        return Err(BotError::NoShippedModels {
            name: name.to_string(),
        });
    }
    if let Some(variant) = variant {
        source.model(variant).map_err(|why| BotError::Unsupported {
            name: name.to_string(),
            variant,
            why,
        })?;
    }
    Ok(())
}

/// The family of the head `head`, and whether its `-inf` modifier is given (`pimc-inf`:
/// `pimc`, inferring; a family that does not infer takes no modifier).
pub(crate) fn family_of(head: &str) -> Option<(&'static BotFamily, bool)> {
    if let Some(family) = BOT_FAMILIES.iter().find(|f| f.head == head) {
        return Some((family, false));
    }
    let uniform = head.strip_suffix(INFER_MODIFIER)?;
    let family = BOT_FAMILIES.iter().find(|f| f.head == uniform)?;
    family.infers.then_some((family, true))
}

/// Whether the built-in name `name` ends its budget in a pass suffix (`/P`, `/nn`): its
/// passing picks are not the heuristic's.
pub(crate) fn has_pass_suffix(name: &str) -> bool {
    let Some((head, arg)) = name.split_once(':') else {
        return false;
    };
    family_of(head).is_some_and(|(family, _)| family.passes)
        && split_pass(arg).is_some_and(|(_, picks)| picks != PassPicks::Heuristic)
}

/// The modifier of a search family's head: worlds drawn from the shipped belief model.
pub(crate) const INFER_MODIFIER: &str = "-inf";

/// The `pimc-dd` bot of `w`, with EPIMC's postponed evaluation if `delayed` (`epimc`).
fn pimc_dd(w: &Wanted<'_>, delayed: bool) -> Result<Box<dyn Bot>, BotError> {
    let config = w.config(PimcDdConfig::default(), PimcDdConfig::parse_budget)?;
    let config = if delayed { config.delayed() } else { config };
    w.passing(PimcDdBot::new(config, w.seed).inferring(w.belief.clone()))
}

/// How many forms the families of `table` list.
const fn count_forms(table: &[BotFamily]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < table.len() {
        n += table[i].forms.len();
        i += 1;
    }
    n
}

/// The forms of `table`'s families, in order.
const fn all_forms<const N: usize>(table: &[BotFamily]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut n, mut i) = (0, 0);
    while i < table.len() {
        let mut j = 0;
        while j < table[i].forms.len() {
            out[n] = table[i].forms[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The bot names [`BotRegistry::build`] accepts: every form of [`BOT_FAMILIES`] (`N` a
/// count or `Nms` a time limit, `PATH` a model file; each family's doc line gives the
/// rest).
pub const BOT_NAMES: [&str; count_forms(&BOT_FAMILIES)] = all_forms(&BOT_FAMILIES);

/// The modifiers of the search bots' names (`-inf`, and the pass suffix of their budgets,
/// `passing.rs`), for the help texts.
pub(crate) const PASS_SUFFIX_HELP: &str =
    "A search bot's head (pimc, pimc-random, pimc-dd, epimc, ismcts, ismcts-nn) may end in \
     -inf (its play-phase worlds drawn from the shipped belief model): pimc-inf, \
     ismcts-inf:5000. A search bot's budget may end in /P (passing picks searched, P \
     playouts each) or /nn (the shipped nn model's picks); any model path comes after: \
     pimc:200/1400, ismcts:5000/nn, ismcts-nn:4600/nn:PATH.";

/// The bot names and what each family is, for a help text: `Bot names: random (uniform
/// over the legal actions); …`, one entry per family of [`BOT_FAMILIES`]. The
/// command-line tool's `--bots` help, and the text the Python `Bot` docstring is checked
/// against.
pub fn bot_names_help() -> String {
    let families: Vec<String> = BOT_FAMILIES
        .iter()
        .map(|f| format!("{} ({})", f.forms.join(", "), f.doc))
        .collect();
    format!("Bot names: {}. {PASS_SUFFIX_HELP}", families.join("; "))
}

/// The built-in bots at their default budgets, weakest first (the ladder's entrants); each
/// search with a belief model (`-inf`) follows its uniform self.
pub const BUILT_IN_BOTS: [&str; 11] = [
    "random",
    "heuristic",
    "nn",
    "pimc-random",
    "pimc",
    "pimc-inf",
    "ismcts",
    "ismcts-inf",
    "pimc-dd",
    "pimc-dd-inf",
    "ismcts-nn",
];

/// Makes the bot for a name the built-in bots do not know: `None` when it does not know
/// the name either. Its bots play every variant (or refuse in [`Bot::act`]).
pub type BotMaker = Arc<dyn Fn(&str, u64) -> Option<Result<Box<dyn Bot>, BotError>> + Send + Sync>;

/// Builds bots by name: the built-in bots of [`BOT_NAMES`], then the names its registered
/// [`BotMaker`]s know. It owns the cache of `nn:PATH` models (an arena builds a bot per
/// game; a model is read once per registry while its file is unchanged). A value, never
/// a global: the arena, the vector env and the command-line tool take one, so two
/// registries with different makers live side by side in one process.
#[derive(Clone, Default)]
pub struct BotRegistry {
    makers: Vec<BotMaker>,
    models: Arc<ModelCache>,
    /// The belief model of the `-inf` names (`None`: the shipped ones).
    belief: Option<BeliefSource>,
}

impl fmt::Debug for BotRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotRegistry")
            .field("makers", &self.makers.len())
            .finish_non_exhaustive()
    }
}

impl BotRegistry {
    /// The built-in bots only.
    pub fn new() -> BotRegistry {
        BotRegistry::default()
    }

    /// The registry whose `-inf` names draw their worlds from `source` instead of the
    /// shipped belief models (a model of your own; `docs/inference.md`).
    pub fn with_belief(mut self, source: BeliefSource) -> BotRegistry {
        self.belief = Some(source);
        self
    }

    /// The belief model of the `-inf` names.
    fn belief(&self) -> BeliefSource {
        self.belief.clone().unwrap_or(BeliefSource::Shipped)
    }

    /// Adds a maker of bots the built-in ones do not name (asked in the order added).
    pub fn register(&mut self, maker: BotMaker) {
        self.makers.push(maker);
    }

    /// Builds the bot called `name` for games of `variant`, its random stream seeded by
    /// `seed`. A bot that cannot play `variant` (an `nn:PATH` model trained for another)
    /// is refused here, once, naming the bot and the variant.
    pub fn build(&self, name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, BotError> {
        self.make(name, seed, Some(variant))
    }

    /// [`BotRegistry::build`] for games of any variant (`yokai_septet.Bot`): a bot that
    /// cannot play a game's variant answers [`BotError::Unsupported`] from [`Bot::act`].
    pub fn build_any_variant(&self, name: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
        self.make(name, seed, None)
    }

    /// Whether `name` builds a bot for `variant` (the error says why not).
    pub fn check(&self, name: &str, variant: Variant) -> Result<(), BotError> {
        self.build(name, 0, variant).map(drop)
    }

    fn make(
        &self,
        name: &str,
        seed: u64,
        variant: Option<Variant>,
    ) -> Result<Box<dyn Bot>, BotError> {
        let (head, arg) = match name.split_once(':') {
            Some((head, arg)) => (head, Some(arg)),
            None => (name, None),
        };
        // A built-in family's head is its own (with or without `-inf`): a form it cannot
        // read is an unknown name, never a maker's (`pimc:x` is not a Python module `pimc`).
        if let Some((family, infers)) = family_of(head) {
            let split = match arg {
                Some(arg) if family.passes => {
                    let (rest, pass) =
                        split_pass(arg).ok_or_else(|| BotError::Unknown(name.to_string()))?;
                    (Some(rest), pass)
                }
                _ => (arg.map(str::to_string), PassPicks::Heuristic),
            };
            let wanted = Wanted {
                name,
                arg: split.0.as_deref(),
                pass: split.1,
                belief: infers.then(|| self.belief()),
                seed,
                variant,
            };
            let bot = (family.build)(self, &wanted)?;
            if infers {
                check_inference(name, &self.belief(), variant)?;
            }
            return Ok(bot);
        }
        for maker in &self.makers {
            if let Some(made) = maker(name, seed) {
                return made;
            }
        }
        Err(BotError::Unknown(name.to_string()))
    }
}

/// The `nn` bot of the shipped models, for the bot called `name`.
#[cfg(feature = "models")]
fn shipped_nn(_name: &str) -> Result<NnBot, BotError> {
    Ok(NnBot::shipped())
}

/// Without the feature `models` the build has no shipped model to play: the names that ask
/// for one are refused when the bot is built, saying so (a model file still plays).
#[cfg(not(feature = "models"))]
fn shipped_nn(name: &str) -> Result<NnBot, BotError> {
    Err(BotError::NoShippedModels {
        name: name.to_string(),
    })
}

impl BotRegistry {
    /// The `nn` bot of the model file at `path` (through the cache), for the bot called
    /// `name`; refused if the model is for another variant than `variant`.
    fn file_model(
        &self,
        name: &str,
        path: &str,
        variant: Option<Variant>,
    ) -> Result<NnBot, BotError> {
        let mlp = self.models.load(path).map_err(|error| BotError::Weights {
            name: name.to_string(),
            error,
        })?;
        if let Some(variant) = variant.filter(|v| *v != mlp.variant()) {
            return Err(BotError::Unsupported {
                name: name.to_string(),
                variant,
                why: format!("its weights are for {}", mlp.variant()),
            });
        }
        Ok(NnBot::with_file_model(path, mlp))
    }
}

/// The families whose decisions may run on several threads (`ismcts`'s `:tT` option).
const THREADED_FAMILIES: [&str; 2] = ["ismcts", "ismcts-inf"];

/// `name` with `threads` threads per decision where its family searches on threads
/// (`ismcts`, `ismcts-inf`) and the name sets none (`ismcts` → `ismcts:5000:t4`); any
/// other name as it is. What `play` and `hint` build their bots from: one decision at a
/// time, so each may use the cores. A count budget still plays the same cards for the same
/// seed and thread count, but the thread count is the machine's.
pub fn with_threads(name: &str, threads: u32) -> String {
    let (head, arg) = match name.split_once(':') {
        Some((head, arg)) => (head, Some(arg)),
        None => (name, None),
    };
    if threads <= 1 || !THREADED_FAMILIES.contains(&head) {
        return name.to_string();
    }
    let set = |option: &str| {
        option.len() > 1
            && option.starts_with('t')
            && option[1..].bytes().all(|b| b.is_ascii_digit())
    };
    // A value model file (`@PATH`) ends the name: the options come before it.
    let (options, path) = match arg.and_then(|a| a.split_once('@')) {
        Some((options, path)) => (Some(options), format!("@{path}")),
        None => (arg, String::new()),
    };
    match options {
        None => format!("{head}:{}:t{threads}", super::ismcts::DEFAULT_ITERATIONS),
        Some(options) if options.split(':').skip(1).any(set) => name.to_string(),
        Some(options) => format!("{head}:{options}:t{threads}{path}"),
    }
}

/// The threads `play` and `hint` give a search's decision: the cores this process may
/// use, at most [`crate::bots::MAX_DECISION_THREADS`].
pub fn decision_threads() -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    cores.min(super::MAX_DECISION_THREADS)
}

/// The built-in bot called `name` for games of `variant` (a fresh [`BotRegistry`] of the
/// built-in bots builds it: hold a registry instead to share its `nn:PATH` model cache).
pub fn bot_by_name(name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, BotError> {
    BotRegistry::new().build(name, seed, variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `name` asks for a shipped model in a build without them (feature `models`
    /// off), checking that it is refused as such; the caller then skips it.
    fn refused_for_lack_of_models(name: &str) -> bool {
        let shipped = name == "nn" || name.starts_with("ismcts-nn");
        if cfg!(feature = "models") || !shipped {
            return false;
        }
        let e = bot_by_name(name, 0, Variant::FourPlayer).err();
        assert_eq!(e, Some(BotError::NoShippedModels { name: name.into() }));
        true
    }

    /// A search bot's name is the spec it was made from: `parse_budget` and `budget_text`
    /// are inverses.
    #[test]
    fn search_bot_names_round_trip_their_budget() {
        for spec in [
            "pimc:12",
            "pimc:20ms",
            "pimc:12/300",
            "pimc:20ms/300",
            "pimc-random:12",
            "pimc-dd:3",
            "pimc-dd:5ms",
            "epimc:3",
            "epimc:5ms",
            "ismcts:30",
            "ismcts:9ms",
            "ismcts-nn:30",
            "ismcts-nn:9ms",
        ] {
            if refused_for_lack_of_models(spec) {
                continue;
            }
            let bot =
                bot_by_name(spec, 0, Variant::FourPlayer).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert_eq!(bot.name(), spec);
        }
    }

    /// The table is consistent: heads are unique, every form is its family's head or
    /// `head:…`, and every form builds (or is a placeholder: `N`, `PATH`).
    #[test]
    fn the_name_table_lists_each_family_once_under_its_head() {
        let heads: std::collections::BTreeSet<&str> = BOT_FAMILIES.iter().map(|f| f.head).collect();
        assert_eq!(heads.len(), BOT_FAMILIES.len());
        for f in &BOT_FAMILIES {
            assert_eq!(f.forms[0], f.head, "a family's bare head comes first");
            for form in f.forms {
                let head = form.split_once(':').map_or(*form, |(h, _)| h);
                assert_eq!(head, f.head, "{form}");
            }
            assert!(!f.doc.is_empty() && bot_names_help().contains(f.doc));
        }
        let forms: Vec<&str> = BOT_FAMILIES
            .iter()
            .flat_map(|f| f.forms.iter().copied())
            .collect();
        assert_eq!(BOT_NAMES.to_vec(), forms);
    }

    /// Every list of the bots a reader meets names every family: the crate docs, the
    /// module docs, the architecture page and the Python `Bot` docstring.
    #[test]
    fn every_bot_family_is_in_every_list_of_bots() {
        let lists = [
            ("src/lib.rs", include_str!("../lib.rs"), "`"),
            ("src/bots/mod.rs", include_str!("mod.rs"), "`"),
            (
                "docs/architecture.md",
                include_str!("../../docs/architecture.md"),
                "`",
            ),
            (
                "the Python Bot docstring",
                include_str!("../python/bot.rs"),
                "\"",
            ),
        ];
        for f in &BOT_FAMILIES {
            for (file, text, quote) in lists {
                let named = format!("{quote}{}{quote}", f.head);
                assert!(text.contains(&named), "{file} does not list {named}");
            }
        }
    }

    /// `-inf` is a modifier of every search family, and only of those: a search's name
    /// with it builds (today's `pimc-inf`, `ismcts-inf:5000/1400` included) and the bot's
    /// name is the name it was built from; a family that draws no worlds refuses it.
    #[test]
    fn the_inf_modifier_applies_to_every_search_family_and_names_round_trip() {
        let searches: Vec<&str> = BOT_FAMILIES
            .iter()
            .filter(|f| f.infers)
            .map(|f| f.head)
            .collect();
        assert_eq!(
            searches,
            [
                "pimc",
                "pimc-random",
                "pimc-dd",
                "epimc",
                "ismcts",
                "ismcts-nn"
            ]
        );
        let names = [
            "pimc-inf:12",
            "pimc-inf:12/300",
            "pimc-inf:20ms",
            "pimc-random-inf:12",
            "pimc-dd-inf:3",
            "pimc-dd-inf:3/nn",
            "epimc-inf:3",
            "ismcts-inf:30",
            "ismcts-inf:30/140",
            "ismcts-nn-inf:30",
        ];
        for name in names {
            let built = bot_by_name(name, 0, Variant::FourPlayer);
            if !cfg!(feature = "models") {
                assert_eq!(
                    built.err(),
                    Some(BotError::NoShippedModels { name: name.into() })
                );
                continue;
            }
            let bot = built.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(bot.name(), name);
            let again = bot_by_name(&bot.name(), 0, Variant::FourPlayer).unwrap();
            assert_eq!(again.name(), name);
        }
        // the bare heads keep their default budgets, as the uniform bots do
        for head in searches {
            let name = format!("{head}-inf");
            let built = bot_by_name(&name, 0, Variant::FourPlayer);
            if cfg!(feature = "models") {
                let bot = built.unwrap_or_else(|e| panic!("{name}: {e}"));
                let uniform = bot_by_name(head, 0, Variant::FourPlayer).unwrap().name();
                assert_eq!(bot.name(), uniform.replacen(head, &name, 1));
            }
        }
        for bad in [
            "random-inf",
            "heuristic-inf",
            "nn-inf",
            "pimc-inf-inf",
            "pimc-infw:3",
        ] {
            let e = bot_by_name(bad, 0, Variant::FourPlayer).err();
            assert_eq!(e, Some(BotError::Unknown(bad.into())), "{bad}");
        }
    }

    /// A built-in family's head is its own: a form it cannot read is an unknown bot, and
    /// the registered makers are not asked (`pimc:x` is no Python module `pimc`).
    #[test]
    fn a_bad_form_of_a_built_in_name_is_unknown_and_no_maker_is_asked() {
        let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut registry = BotRegistry::new();
        let count = Arc::clone(&asked);
        registry.register(Arc::new(move |name: &str, seed| {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            (name == "mine:policy").then(|| bot_by_name("random", seed, Variant::FourPlayer))
        }));
        for bad in ["pimc:x", "ismcts:", "random:1", "heuristic:2", "epimc:0"] {
            let e = registry.build(bad, 0, Variant::FourPlayer).err();
            assert_eq!(e, Some(BotError::Unknown(bad.into())));
        }
        assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 0);
        assert!(registry
            .build("mine:policy", 0, Variant::FourPlayer)
            .is_ok());
        assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 1);
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
            "epimc",
            "epimc:3",
            "epimc:5ms",
            "ismcts",
            "ismcts:50",
            "ismcts:5ms",
            "ismcts-nn",
            "ismcts-nn:50",
            "ismcts-nn:5ms",
        ] {
            if refused_for_lack_of_models(name) {
                continue;
            }
            let b = bot_by_name(name, 1, Variant::FourPlayer).unwrap();
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
            "epimc:",
            "epimc:0",
            "epimc:x",
            "ismcts:",
            "ismcts:0",
            "ismcts-nn:",
            "ismcts-nn:0",
            "ismcts-nn:7:",
            "ismcts-nn-x",
        ] {
            let e = bot_by_name(bad, 0, Variant::FourPlayer).err().unwrap();
            let msg = e.to_string();
            assert!(msg.contains(&format!("'{bad}'")), "{msg}");
            for n in BOT_NAMES {
                assert!(msg.contains(n), "{msg}");
            }
        }
    }
}
