//! Where a search bot's worlds come from: the uniform sampler, or, for the `-inf` bots,
//! a belief model of who holds which card ([`BeliefNet`], `docs/inference.md`).
//!
//! Inference applies to the play phase, where the model was trained and where what the
//! players did says something: during passing nothing has been played and the worlds
//! stay uniform. The belief is computed once per information set, not once per world: a
//! search asks for thousands of worlds at the same decision.
//!
//! Two schemes use the belief: the `-inf` bots draw their worlds from it
//! ([`BeliefSampler`], exact); [`Worlds::weigh`] instead keeps the uniform draws and gives
//! each world its belief probability as a weight ([`Worlds::sample_weighted`]), the
//! alternative `docs/inference.md` measures against it (`PimcBot::weigh_uniform_worlds`).

use std::sync::Arc;

use rand_core::RngCore;

use super::nn::{BeliefNet, BeliefScratch};
use super::BotError;
use crate::infoset::belief::{Belief, BeliefSampler};
use crate::infoset::sampler::Sampler;
use crate::infoset::view::SeatView;
use crate::rules::config::Variant;
use crate::rules::state::State;
use crate::rules::Phase;

/// The belief model an `-inf` bot samples its worlds from.
#[derive(Clone, Debug)]
pub enum BeliefSource {
    /// The model shipped for each game's variant (`BeliefNet::shipped`, feature
    /// `models`): a variant without one cannot be played.
    Shipped,
    /// This model, for its own variant only.
    Model(Arc<BeliefNet>),
}

impl BeliefSource {
    /// The model for games of `variant`, or why there is none.
    pub fn model(&self, variant: Variant) -> Result<&BeliefNet, String> {
        match self {
            #[cfg(feature = "models")]
            BeliefSource::Shipped => BeliefNet::shipped(variant)
                .ok_or_else(|| format!("no belief model is shipped for {variant} yet")),
            #[cfg(not(feature = "models"))]
            BeliefSource::Shipped => Err(format!(
                "this build has no shipped models (the cargo feature `models` is off), so \
                 no belief model for {variant}"
            )),
            BeliefSource::Model(net) if net.variant() == variant => Ok(net),
            BeliefSource::Model(net) => Err(format!(
                "its belief model is for {}, not {variant}",
                net.variant()
            )),
        }
    }
}

/// A search bot's sampler of worlds (see the module docs).
#[derive(Default)]
pub(crate) struct Worlds {
    uniform: Box<Sampler>,
    inference: Option<Box<Inference>>,
}

/// The belief model, its buffers, and the sampler prepared for the last belief.
struct Inference {
    source: BeliefSource,
    scratch: BeliefScratch,
    sampler: BeliefSampler,
    /// The variant of the last belief (a model's scratch is per variant).
    variant: Option<Variant>,
    /// Uniform worlds weighted by the belief, instead of worlds drawn from it.
    weighs: bool,
}

impl Worlds {
    /// Worlds drawn from `source`'s belief model from now on.
    pub(crate) fn infer(&mut self, source: BeliefSource) {
        self.inference = Some(Box::new(Inference {
            source,
            scratch: BeliefScratch::default(),
            sampler: BeliefSampler::new(),
            variant: None,
            weighs: false,
        }));
    }

    /// Worlds drawn uniformly and weighted by `source`'s belief from now on (in the play
    /// phase): [`Worlds::sample_weighted`] gives each world's weight.
    pub(crate) fn weigh(&mut self, source: BeliefSource) {
        self.infer(source);
        if let Some(inference) = self.inference.as_deref_mut() {
            inference.weighs = true;
        }
    }

    /// Whether the worlds are uniform draws weighted by a belief ([`Worlds::weigh`]).
    pub(crate) fn weighs(&self) -> bool {
        self.inference.as_ref().is_some_and(|i| i.weighs)
    }

    /// Whether the worlds come from a belief model (the bot's name then says `-inf`).
    pub(crate) fn infers(&self) -> bool {
        self.inference.is_some()
    }

    /// Why the worlds of a game of `variant` cannot be drawn (no belief model for it).
    pub(crate) fn check(&self, variant: Variant) -> Result<(), String> {
        match &self.inference {
            Some(inference) => inference.source.model(variant).map(drop),
            None => Ok(()),
        }
    }

    /// [`Worlds::check`] for a bot called `name` about to act at `view`.
    pub(crate) fn check_view(
        &self,
        view: &SeatView,
        name: impl FnOnce() -> String,
    ) -> Result<(), BotError> {
        let variant = view.variant();
        self.check(variant).map_err(|why| BotError::Unsupported {
            name: name(),
            variant,
            why,
        })
    }

    /// The suffix of the bot's name: `-inf` when it infers, `-infw` when it weighs (a
    /// name of the measurements only: the registry does not build it).
    pub(crate) fn suffix(&self) -> &'static str {
        if self.weighs() {
            "-infw"
        } else if self.infers() {
            "-inf"
        } else {
            ""
        }
    }

    /// A complete state consistent with all `view`'s seat knows.
    ///
    /// # Panics
    /// If it infers and [`Worlds::check`] refuses the view's variant.
    pub(crate) fn sample<R: RngCore>(&mut self, view: &SeatView, rng: &mut R) -> State {
        self.sample_weighted(view, rng).0
    }

    /// [`Worlds::sample`] and the world's weight, as a log: when it weighs (in the play
    /// phase), a uniform draw and the log of its probability under the belief
    /// ([`BeliefSampler::log_probability`]; the weights of one decision's worlds are
    /// compared through [`normalized_weights`](crate::belief::normalized_weights)); else 0.
    /// The uniform draws use the random stream as the uniform sampler does: the same seed
    /// gives the worlds of the uniform bot, only weighted.
    ///
    /// # Panics
    /// As [`Worlds::sample`].
    pub(crate) fn sample_weighted<R: RngCore>(
        &mut self,
        view: &SeatView,
        rng: &mut R,
    ) -> (State, f64) {
        match self.inference.as_deref_mut() {
            Some(inference) if view.phase() == Phase::Play => {
                inference.prepare(view);
                if !inference.weighs {
                    return (inference.sampler.sample(view, rng), 0.0);
                }
                let world = self.uniform.sample(view, rng);
                let hands = std::array::from_fn(|p| world.hand(p));
                (world, inference.sampler.log_probability(&hands))
            }
            _ => (self.uniform.sample(view, rng), 0.0),
        }
    }

    /// The exact probability that each seat holds each card in the worlds
    /// [`Worlds::sample`] draws at `view` (`Game.belief`).
    ///
    /// # Panics
    /// As [`Worlds::sample`].
    // Only the Python binding asks for the marginals (a build without it has no caller).
    #[cfg_attr(not(feature = "python"), allow(dead_code))]
    pub(crate) fn marginals(&mut self, view: &SeatView) -> Belief {
        match self.inference.as_deref_mut() {
            Some(inference) if view.phase() == Phase::Play => {
                inference.prepare(view);
                inference.sampler.marginals()
            }
            _ => {
                let mut uniform = BeliefSampler::new();
                uniform.prepare(view, &Belief::uniform());
                uniform.marginals()
            }
        }
    }
}

impl Inference {
    /// Prepares the sampler for `view`'s belief (once per information set).
    fn prepare(&mut self, view: &SeatView) {
        let variant = view.variant();
        let net = self
            .source
            .model(variant)
            .unwrap_or_else(|why| panic!("checked before playing: {why}"));
        if self.variant != Some(variant) {
            self.scratch = BeliefScratch::default();
            self.variant = Some(variant);
        }
        if let Some(belief) = net.belief_if_new(view, &mut self.scratch) {
            self.sampler.prepare(view, &belief);
        }
    }
}
