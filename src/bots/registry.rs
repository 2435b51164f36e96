//! Bot names and the registry that builds bots from them.

use std::fmt;
use std::sync::Arc;

use super::nn::ModelCache;
use super::{
    BeliefSource, Bot, BotError, GuideConfig, HeuristicBot, IsmctsBot, IsmctsConfig, NnBot,
    PimcBot, PimcConfig, PimcDdBot, PimcDdConfig, Playout, RandomBot,
};
use crate::rules::config::Variant;

/// The bot names [`BotRegistry::build`] accepts (`pimc:N` sets N playouts per decision,
/// `pimc:Nms` a time limit of N milliseconds per decision, `pimc:N/P` also searches the
/// passing picks with P playouts each; `pimc-dd:N` N solved worlds,
/// `pimc-dd:Nms` a time limit, `epimc` and `epimc:N`/`epimc:Nms` the same with EPIMC's
/// postponed evaluation; `ismcts:N` N iterations, `ismcts:Nms` a time limit;
/// `nn:PATH` the neural-network model in the safetensors file `PATH`; `ismcts-nn` the
/// search guided by the variant's shipped model, `ismcts-nn:BUDGET`, `ismcts-nn:PATH` or
/// `ismcts-nn:BUDGET:PATH` with a budget as `ismcts`'s and a model file). A search bot's
/// name with `-inf` after it (`pimc-inf`, `pimc-dd-inf:8`, `epimc-inf`, `ismcts-inf:9ms`)
/// is the same bot drawing its worlds from the variant's shipped belief model
/// ([`super::BeliefSource`]).
pub const BOT_NAMES: [&str; 20] = [
    "random",
    "heuristic",
    "pimc",
    "pimc-random",
    "pimc:N",
    "pimc-dd",
    "pimc-dd:N",
    "epimc",
    "epimc:N",
    "ismcts",
    "ismcts:N",
    "nn",
    "nn:PATH",
    "ismcts-nn",
    "ismcts-nn:N",
    "ismcts-nn:PATH",
    "pimc-inf",
    "pimc-dd-inf",
    "epimc-inf",
    "ismcts-inf",
];

/// The built-in bots at their default budgets, weakest first (the ladder's entrants).
pub const BUILT_IN_BOTS: [&str; 8] = [
    "random",
    "heuristic",
    "nn",
    "pimc-random",
    "pimc",
    "ismcts",
    "pimc-dd",
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
        match self.built_in(name, seed, variant) {
            Err(BotError::Unknown(_)) => {
                for maker in &self.makers {
                    if let Some(made) = maker(name, seed) {
                        return made;
                    }
                }
                Err(BotError::Unknown(name.to_string()))
            }
            made => made,
        }
    }

    fn built_in(
        &self,
        name: &str,
        seed: u64,
        variant: Option<Variant>,
    ) -> Result<Box<dyn Bot>, BotError> {
        let unknown = || BotError::Unknown(name.to_string());
        if let Some(uniform) = uniform_name(name) {
            return self.inferring(name, &uniform, seed, variant);
        }
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
            "epimc" => Box::new(PimcDdBot::new(PimcDdConfig::default().delayed(), seed)),
            "nn" => Box::new(shipped_nn(name)?),
            _ => {
                if let Some(bot) = self.ismcts(name, seed, variant) {
                    return Ok(Box::new(bot?));
                }
                if let Some(path) = name.strip_prefix("nn:") {
                    return Ok(Box::new(self.file_model(name, path, variant)?));
                }
                if let Some(arg) = name.strip_prefix("pimc-dd:") {
                    let config = PimcDdConfig::parse_budget(arg).ok_or_else(unknown)?;
                    return Ok(Box::new(PimcDdBot::new(config, seed)));
                }
                if let Some(arg) = name.strip_prefix("epimc:") {
                    let config = PimcDdConfig::parse_budget(arg).ok_or_else(unknown)?;
                    return Ok(Box::new(PimcDdBot::new(config.delayed(), seed)));
                }
                let arg = name.strip_prefix("pimc:").ok_or_else(unknown)?;
                let config = PimcConfig::parse_budget(arg).ok_or_else(unknown)?;
                Box::new(PimcBot::new(config, seed))
            }
        })
    }
}

/// The name of the bot that an `-inf` name draws its worlds differently from
/// (`pimc-dd-inf:8` -> `pimc-dd:8`); `None` for other names.
fn uniform_name(name: &str) -> Option<String> {
    let (base, budget) = match name.split_once(':') {
        Some((base, budget)) => (base, Some(budget)),
        None => (name, None),
    };
    let base = base.strip_suffix("-inf")?;
    Some(match budget {
        Some(budget) => format!("{base}:{budget}"),
        None => base.to_string(),
    })
}

impl BotRegistry {
    /// The bot called `name`, an `-inf` name: the bot called `uniform` drawing its worlds
    /// from the shipped belief model of the game's variant.
    fn inferring(
        &self,
        name: &str,
        uniform: &str,
        seed: u64,
        variant: Option<Variant>,
    ) -> Result<Box<dyn Bot>, BotError> {
        let unknown = || BotError::Unknown(name.to_string());
        if uniform_name(uniform).is_some() {
            return Err(unknown());
        }
        let mut bot = self.built_in(uniform, seed, variant).map_err(|e| match e {
            BotError::Unknown(_) => unknown(),
            e => e,
        })?;
        if !bot.infer(BeliefSource::Shipped) {
            return Err(unknown());
        }
        if cfg!(not(feature = "models")) {
            return Err(BotError::NoShippedModels {
                name: name.to_string(),
            });
        }
        if let Some(variant) = variant {
            BeliefSource::Shipped
                .model(variant)
                .map_err(|why| BotError::Unsupported {
                    name: name.to_string(),
                    variant,
                    why,
                })?;
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
    /// The `ismcts` or `ismcts-nn` bot called `name` (`None` for other names), as
    /// [`BotRegistry::build`] makes it (`variant` `None`: for any variant), as itself:
    /// `hint` reads its values, which the [`Bot`] trait does not give (it plays the most
    /// visited card, not the one of best mean value).
    pub(crate) fn ismcts(
        &self,
        name: &str,
        seed: u64,
        variant: Option<Variant>,
    ) -> Option<Result<IsmctsBot, BotError>> {
        let unknown = || BotError::Unknown(name.to_string());
        let guided = |config, net, path: Option<&str>| {
            let path = path.map(str::to_string);
            IsmctsBot::guided(config, GuideConfig::default(), net, path, seed)
        };
        Some(match name {
            "ismcts" => Ok(IsmctsBot::new(IsmctsConfig::default(), seed)),
            "ismcts-nn" => shipped_nn(name).map(|net| guided(IsmctsConfig::guided(), net, None)),
            _ => {
                if let Some(arg) = name.strip_prefix("ismcts-nn:") {
                    IsmctsConfig::parse_guided(arg)
                        .ok_or_else(unknown)
                        .and_then(|(config, path)| {
                            let net = match path {
                                Some(path) => self.file_model(name, path, variant)?,
                                None => shipped_nn(name)?,
                            };
                            Ok(guided(config, net, path))
                        })
                } else {
                    let arg = name.strip_prefix("ismcts:")?;
                    IsmctsConfig::parse_budget(arg)
                        .map(|config| IsmctsBot::new(config, seed))
                        .ok_or_else(unknown)
                }
            }
        })
    }

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
