//! The registry that builds bots from their names' specs ([`BotSpec`]).

use std::fmt;
use std::sync::Arc;

use super::families::Family;
use super::nn::ModelCache;
use super::passing::PassingBot;
use super::spec::{BotSpec, BotSpecError, PassPicks};
use super::{
    max_search_threads, BeliefSource, Bot, BotError, GuideConfig, HeuristicBot, IsmctsBot,
    IsmctsConfig, NnBot, PimcBot, PimcConfig, PimcDdBot, PimcDdConfig, Playout, RandomBot,
    ValueNet,
};
use yokai_septet::Variant;

/// A spec asked of the registry, with what its bot is built for.
struct Wanted<'a> {
    /// The name as given (the errors name it).
    name: &'a str,
    spec: &'a BotSpec,
    /// Where its play-phase worlds come from: the `-inf` modifier's belief model, or
    /// uniform (`None`).
    belief: Option<BeliefSource>,
    seed: u64,
    variant: Option<Variant>,
}

impl Wanted<'_> {
    /// `bot` with the name's passing picks (itself for the heuristic's).
    fn passing(&self, bot: impl Bot + 'static) -> Result<Box<dyn Bot>, BotError> {
        PassingBot::wrap(Box::new(bot), self.spec.pass, self.seed, || {
            shipped_nn(self.name)
        })
    }
}

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

/// The `pimc` bot of `w` (`pimc-random` if `random`).
fn pimc(w: &Wanted<'_>, random: bool) -> Result<Box<dyn Bot>, BotError> {
    let mut config = PimcConfig::default();
    if let Some(budget) = w.spec.budget {
        config = config.with_budget(budget);
    }
    if random {
        config.playout = Playout::Random;
        return Ok(Box::new(
            PimcBot::new(config, w.seed).inferring(w.belief.clone()),
        ));
    }
    // `pimc:N/P` searches its own passes (the same search, on its own stream: its games
    // predate `passing.rs`).
    if let PassPicks::Searched(p) = w.spec.pass {
        config.pass_playouts = Some(p);
        return Ok(Box::new(
            PimcBot::new(config, w.seed).inferring(w.belief.clone()),
        ));
    }
    w.passing(PimcBot::new(config, w.seed).inferring(w.belief.clone()))
}

/// The `pimc-dd` bot of `w`, with EPIMC's postponed evaluation if `delayed` (`epimc`).
fn pimc_dd(w: &Wanted<'_>, delayed: bool) -> Result<Box<dyn Bot>, BotError> {
    let mut config = PimcDdConfig::default();
    if let Some(budget) = w.spec.budget {
        config = config.with_budget(budget);
    }
    let config = if delayed { config.delayed() } else { config };
    w.passing(PimcDdBot::new(config, w.seed).inferring(w.belief.clone()))
}

/// Refuses a name of `w` that asks one decision for more threads than this machine runs
/// ([`max_search_threads`]).
fn check_threads(w: &Wanted<'_>) -> Result<(), BotError> {
    let limit = max_search_threads();
    match w.spec.options.threads {
        Some(threads) if threads > limit => Err(BotError::TooManyThreads {
            name: w.name.to_string(),
            threads,
            limit,
        }),
        _ => Ok(()),
    }
}

/// The `ismcts` bot of `w`, with its value model file if it names one.
fn ismcts(w: &Wanted<'_>) -> Result<Box<dyn Bot>, BotError> {
    check_threads(w)?;
    let config = IsmctsConfig::default().with_name(w.spec.budget, &w.spec.options);
    let mut bot = IsmctsBot::new(config, w.seed);
    let path = w.spec.model.as_deref();
    if path.is_none() && config.techniques.value_weight > 0 && !cfg!(feature = "models") {
        return Err(BotError::NoShippedModels {
            name: w.name.to_string(),
        });
    }
    if let Some(path) = path {
        let net =
            ValueNet::load(std::path::Path::new(path)).map_err(|error| BotError::Weights {
                name: w.name.to_string(),
                error,
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
}

/// The `ismcts-nn` bot of `w`, guided by its model file or the shipped model.
fn ismcts_nn(registry: &BotRegistry, w: &Wanted<'_>) -> Result<Box<dyn Bot>, BotError> {
    check_threads(w)?;
    let config = IsmctsConfig::guided().with_name(w.spec.budget, &w.spec.options);
    let path = w.spec.model.as_deref();
    let net = match path {
        Some(path) => registry.file_model(w.name, path, w.variant)?,
        None => shipped_nn(w.name)?,
    };
    let guide = GuideConfig::default();
    let bot = IsmctsBot::guided(config, guide, net, path.map(str::to_string), w.seed);
    w.passing(bot.inferring(w.belief.clone()))
}

/// Makes the bot for a name the built-in bots do not know: `None` when it does not know
/// the name either. Its bots play every variant (or refuse in [`Bot::act`]).
pub type BotMaker = Arc<dyn Fn(&str, u64) -> Option<Result<Box<dyn Bot>, BotError>> + Send + Sync>;

/// Builds bots by name: the built-in bots of [`BOT_NAMES`](super::BOT_NAMES), then the
/// names its registered [`BotMaker`]s know. It owns the cache of `nn:PATH` models (an arena builds a bot per
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

    /// The bot of `spec` for games of `variant`, its random stream seeded by `seed`:
    /// [`BotRegistry::build`] for a name already parsed (its errors name the bot by the
    /// spec's name).
    pub fn build_spec(
        &self,
        spec: &BotSpec,
        seed: u64,
        variant: Variant,
    ) -> Result<Box<dyn Bot>, BotError> {
        self.make_spec(&spec.to_string(), spec, seed, Some(variant))
    }

    /// Parses `name` once: a built-in family's head is its own (with or without `-inf`),
    /// so a form it cannot read is a [`BotError::Spec`] saying which part is wrong, never
    /// a maker's (`pimc:x` is not a Python module `pimc`); any other name is the makers'.
    fn make(
        &self,
        name: &str,
        seed: u64,
        variant: Option<Variant>,
    ) -> Result<Box<dyn Bot>, BotError> {
        match name.parse::<BotSpec>() {
            Ok(spec) => self.make_spec(name, &spec, seed, variant),
            Err(BotSpecError::UnknownFamily { .. }) => {
                for maker in &self.makers {
                    if let Some(made) = maker(name, seed) {
                        return made;
                    }
                }
                Err(BotError::Unknown(name.to_string()))
            }
            Err(error) => Err(refused(name, error)),
        }
    }

    /// The bot of `spec`, called `name` in its errors.
    fn make_spec(
        &self,
        name: &str,
        spec: &BotSpec,
        seed: u64,
        variant: Option<Variant>,
    ) -> Result<Box<dyn Bot>, BotError> {
        let w = Wanted {
            name,
            spec,
            belief: spec.infers.then(|| self.belief()),
            seed,
            variant,
        };
        let bot: Box<dyn Bot> = match spec.family {
            Family::Random => Box::new(RandomBot::new(seed)),
            Family::Heuristic => Box::new(HeuristicBot::new(seed)),
            Family::Pimc => pimc(&w, false)?,
            Family::PimcRandom => pimc(&w, true)?,
            Family::PimcDd => pimc_dd(&w, false)?,
            Family::Epimc => pimc_dd(&w, true)?,
            Family::Ismcts => ismcts(&w)?,
            Family::Nn => match &spec.model {
                None => Box::new(shipped_nn(name)?),
                Some(path) => Box::new(self.file_model(name, path, variant)?),
            },
            Family::IsmctsNn => ismcts_nn(self, &w)?,
        };
        if spec.infers {
            check_inference(name, &self.belief(), variant)?;
        }
        Ok(bot)
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

/// `name` with `threads` threads per decision where its family searches on threads
/// (`ismcts`, `ismcts-inf`) and the name sets none (`ismcts` → `ismcts:5000:t4`); any
/// other name as it is ([`BotSpec::with_threads`], written back).
pub fn with_threads(name: &str, threads: u32) -> String {
    let Ok(spec) = name.parse::<BotSpec>() else {
        return name.to_string();
    };
    let threaded = spec.clone().with_threads(threads);
    if threaded == spec {
        return name.to_string();
    }
    threaded.to_string()
}

/// The threads `play` and `hint` give a search's decision: the cores this process may
/// use, at most [`crate::MAX_DECISION_THREADS`].
pub fn decision_threads() -> u32 {
    super::ismcts::usable_cores().min(super::MAX_DECISION_THREADS)
}

/// Why `name` is no built-in bot's name, as the registry says it.
fn refused(name: &str, error: BotSpecError) -> BotError {
    match error {
        BotSpecError::UnknownFamily { .. } => BotError::Unknown(name.to_string()),
        error => BotError::Spec {
            name: name.to_string(),
            error,
        },
    }
}

/// The spec of the built-in bot called `name`, for the callers that build from a spec
/// ([`BotRegistry::build_spec`], [`crate::hint::hint`]); refused with the error
/// [`BotRegistry::build`] gives a name that is not a built-in bot's and no maker knows.
pub fn bot_spec(name: &str) -> Result<BotSpec, BotError> {
    name.parse().map_err(|error| refused(name, error))
}

/// The built-in bot called `name` for games of `variant` (a fresh [`BotRegistry`] of the
/// built-in bots builds it: hold a registry instead to share its `nn:PATH` model cache).
pub fn bot_by_name(name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, BotError> {
    BotRegistry::new().build(name, seed, variant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BOT_NAMES;

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

    /// A search bot's name is the spec it was made from: [`Budget::of`] and
    /// [`Budget::count_and_limit`] are inverses.
    ///
    /// [`Budget::of`]: crate::Budget::of
    /// [`Budget::count_and_limit`]: crate::Budget::count_and_limit
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

    /// `-inf` is a modifier of every search family, and only of those: a search's name
    /// with it builds (today's `pimc-inf`, `ismcts-inf:5000/1400` included) and the bot's
    /// name is the name it was built from; a family that draws no worlds refuses it.
    #[test]
    fn the_inf_modifier_applies_to_every_search_family_and_names_round_trip() {
        let searches: Vec<&str> = crate::BOT_FAMILIES
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
        for (bad, head) in [
            ("random-inf", "random"),
            ("heuristic-inf", "heuristic"),
            ("nn-inf", "nn"),
        ] {
            let e = bot_by_name(bad, 0, Variant::FourPlayer).err();
            let error = BotSpecError::NoInference { head };
            let name = bad.into();
            assert_eq!(e, Some(BotError::Spec { name, error }), "{bad}");
        }
        for bad in ["pimc-inf-inf", "pimc-infw:3"] {
            let e = bot_by_name(bad, 0, Variant::FourPlayer).err();
            assert_eq!(e, Some(BotError::Unknown(bad.into())), "{bad}");
        }
    }

    /// A built-in family's head is its own: a form it cannot read is a bad name saying
    /// which part is wrong, and the registered makers are not asked (`pimc:x` is no Python
    /// module `pimc`).
    #[test]
    fn a_bad_form_of_a_built_in_name_is_a_spec_error_and_no_maker_is_asked() {
        let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut registry = BotRegistry::new();
        let count = Arc::clone(&asked);
        registry.register(Arc::new(move |name: &str, seed| {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            (name == "mine:policy").then(|| bot_by_name("random", seed, Variant::FourPlayer))
        }));
        for (bad, error) in [
            ("pimc:x", BotSpecError::BadBudget { budget: "x".into() }),
            ("ismcts:", BotSpecError::MissingBudget),
            (
                "random:1",
                BotSpecError::TakesNoArgument {
                    head: "random",
                    arg: "1".into(),
                },
            ),
            ("epimc:0", BotSpecError::ZeroBudget { budget: "0".into() }),
        ] {
            let e = registry.build(bad, 0, Variant::FourPlayer).err();
            let name = bad.into();
            assert_eq!(e, Some(BotError::Spec { name, error }), "{bad}");
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
        ] {
            let e = bot_by_name(bad, 0, Variant::FourPlayer).err().unwrap();
            let msg = e.to_string();
            assert!(msg.contains(&format!("'{bad}'")), "{msg}");
            for n in BOT_NAMES {
                assert!(msg.contains(n), "{msg}");
            }
        }
        // A typo of a name gets that name, not every name.
        for (typo, meant) in [("ismcts-nn-x", "ismcts-nn"), ("Random", "random")] {
            let e = bot_by_name(typo, 0, Variant::FourPlayer).err().unwrap();
            assert_eq!(
                e.to_string(),
                format!("unknown bot '{typo}': did you mean {meant}?")
            );
        }
    }
}
