//! Where a search bot's worlds come from: the uniform sampler, or, for the `-inf` bots,
//! a belief model of who holds which card ([`BeliefNet`], `docs/inference.md`).
//!
//! Inference applies to the play phase, where the model was trained and where what the
//! players did says something: during passing nothing has been played and the worlds
//! stay uniform. The belief is computed once per decision, not once per world: a search
//! asks for thousands of worlds at the same decision, and encoding the model's inputs
//! (about 1,700 numbers in 4p) for each would cost more than the draw. The bots call
//! [`Worlds::check_view`] as each decision starts, which prepares the belief; the draws
//! of that decision reuse it ([`Worlds::sample`] re-prepares only for a view it was not
//! prepared for).
//!
//! Two schemes use the belief: the `-inf` bots draw their worlds from it
//! ([`BeliefSampler`], exact); [`Worlds::weigh`] instead keeps the uniform draws and gives
//! each world its belief probability as a weight ([`Worlds::sample_weighted`]), the
//! alternative `docs/inference.md` measures against it (`PimcBot::weigh_uniform_worlds`).

use std::sync::Arc;

use rand_core::RngCore;

use super::nn::{BeliefNet, BeliefScratch};
use super::BotError;
use yokai_septet::belief::{Belief, BeliefSampler};
use yokai_septet::sampler::Sampler;
use yokai_septet::CardSet;
use yokai_septet::Phase;
use yokai_septet::SeatView;
use yokai_septet::State;
use yokai_septet::Variant;

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
pub struct Worlds {
    uniform: Box<Sampler>,
    inference: Option<Box<Inference>>,
}

/// Why no world can be drawn: no belief model for the game's variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoBelief {
    /// The game's variant.
    pub variant: Variant,
    /// Why there is no model for it.
    pub why: String,
}

impl NoBelief {
    /// The error of the bot called `name`.
    pub(crate) fn for_bot(self, name: String) -> BotError {
        BotError::Unsupported {
            name,
            variant: self.variant,
            why: self.why,
        }
    }
}

/// The belief model, its buffers, and the sampler prepared for the last belief.
struct Inference {
    source: BeliefSource,
    scratch: BeliefScratch,
    sampler: BeliefSampler,
    /// The variant of the last belief (a model's scratch is per variant).
    variant: Option<Variant>,
    /// The decision the sampler is prepared for.
    prepared: Option<Decision>,
    /// Uniform worlds weighted by the belief, instead of worlds drawn from it.
    weighs: bool,
}

/// What tells one play-phase decision of a seat from another: the bots prepare the belief
/// as each decision starts ([`Worlds::check_view`]), so within one decision this only has
/// to tell a later view from the prepared one (a card played, a round dealt), which every
/// field here does cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decision {
    variant: Variant,
    seat: usize,
    round: u32,
    played: CardSet,
    trick: usize,
    hand: CardSet,
    dealt: CardSet,
    scores: [u16; 4],
}

impl Decision {
    fn of(view: &SeatView) -> Decision {
        Decision {
            variant: view.variant(),
            seat: view.seat(),
            round: view.round(),
            played: view.played(),
            trick: view.trick_cards().len(),
            hand: view.hand(),
            dealt: view.dealt_hand(),
            scores: std::array::from_fn(|p| {
                if p < view.num_players() {
                    view.score(p)
                } else {
                    0
                }
            }),
        }
    }
}

impl Worlds {
    /// Worlds drawn uniformly, or with `belief` from its belief model (the `-inf` bots).
    pub(crate) fn new(belief: Option<BeliefSource>) -> Worlds {
        let mut worlds = Worlds::default();
        if let Some(source) = belief {
            worlds.infer(source);
        }
        worlds
    }

    /// Worlds drawn from `source`'s belief model from now on.
    pub fn infer(&mut self, source: BeliefSource) {
        self.inference = Some(Box::new(Inference {
            source,
            scratch: BeliefScratch::default(),
            sampler: BeliefSampler::new(),
            variant: None,
            prepared: None,
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

    /// Whether the worlds come from a belief model (the bot's spec then `infers`).
    pub(crate) fn infers(&self) -> bool {
        self.inference.is_some()
    }

    /// Why the worlds of a game of `variant` cannot be drawn (no belief model for it).
    pub fn check(&self, variant: Variant) -> Result<(), String> {
        match &self.inference {
            Some(inference) => inference.source.model(variant).map(drop),
            None => Ok(()),
        }
    }

    /// As a decision at `view` starts: why its worlds cannot be drawn ([`Worlds::check`];
    /// [`NoBelief::for_bot`] names the bot), else the decision's belief prepared, once (in
    /// the play phase, when it infers).
    pub(crate) fn check_view(&mut self, view: &SeatView) -> Result<(), NoBelief> {
        match self.inference.as_deref_mut() {
            Some(inference) if view.phase() == Phase::Play => inference.prepare(view),
            _ => self.check(view.variant()).map_err(|why| NoBelief {
                variant: view.variant(),
                why,
            }),
        }
    }

    /// A complete state consistent with all `view`'s seat knows; [`NoBelief`] where it
    /// infers and [`Worlds::check`] refuses the view's variant.
    pub fn sample<R: RngCore>(&mut self, view: &SeatView, rng: &mut R) -> Result<State, NoBelief> {
        Ok(self.sample_weighted(view, rng)?.0)
    }

    /// [`Worlds::sample`] and the world's weight, as a log: when it weighs (in the play
    /// phase), a uniform draw and the log of its probability under the belief
    /// ([`BeliefSampler::log_probability`]; the weights of one decision's worlds are
    /// compared through [`normalized_weights`](yokai_septet::belief::normalized_weights)); else 0.
    /// The uniform draws use the random stream as the uniform sampler does: the same seed
    /// gives the worlds of the uniform bot, only weighted. Errors as [`Worlds::sample`].
    pub(crate) fn sample_weighted<R: RngCore>(
        &mut self,
        view: &SeatView,
        rng: &mut R,
    ) -> Result<(State, f64), NoBelief> {
        Ok(match self.inference.as_deref_mut() {
            Some(inference) if view.phase() == Phase::Play => {
                if inference.prepared != Some(Decision::of(view)) {
                    inference.prepare(view)?;
                }
                if !inference.weighs {
                    return Ok((inference.sampler.sample(view, rng), 0.0));
                }
                let world = self.uniform.sample(view, rng);
                let hands = std::array::from_fn(|p| world.hand(p));
                (world, inference.sampler.log_probability(&hands))
            }
            _ => (self.uniform.sample(view, rng), 0.0),
        })
    }

    /// The exact probability that each seat holds each card in the worlds
    /// [`Worlds::sample`] draws at `view` (`Game.belief`). Errors as [`Worlds::sample`].
    // Only the Python binding asks for the marginals.
    pub fn marginals(&mut self, view: &SeatView) -> Result<Belief, NoBelief> {
        Ok(match self.inference.as_deref_mut() {
            Some(inference) if view.phase() == Phase::Play => {
                inference.prepare(view)?;
                inference.sampler.marginals()
            }
            _ => {
                let mut uniform = BeliefSampler::new();
                uniform.prepare(view, &Belief::uniform());
                uniform.marginals()
            }
        })
    }
}

impl Inference {
    /// Prepares the sampler for `view`'s belief: the model's inputs encoded once, and the
    /// sampler's table built where the belief changed.
    fn prepare(&mut self, view: &SeatView) -> Result<(), NoBelief> {
        let variant = view.variant();
        let net = self
            .source
            .model(variant)
            .map_err(|why| NoBelief { variant, why })?;
        if self.variant != Some(variant) {
            self.scratch = BeliefScratch::default();
            self.variant = Some(variant);
        }
        if let Some(belief) = net.belief_if_new(view, &mut self.scratch) {
            self.sampler.prepare(view, &belief);
        }
        self.prepared = Some(Decision::of(view));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::GameConfig;

    /// A play-phase state of `variant` (its passes made by the heuristic).
    fn play_phase(variant: Variant) -> State {
        let mut s = State::new(GameConfig::new(variant, 5));
        while s.phase() != Phase::Play {
            let p = s.current_player().expect("a seat to move");
            s.apply(crate::HeuristicBot::choose(&s.view(p)))
                .expect("a legal pass");
        }
        s
    }

    /// Where a variant has no belief model, drawing a world is an error saying so, never a
    /// panic; `check_view` gives the same error before any draw. (A build without the
    /// shipped models has none for any variant.)
    #[test]
    fn a_world_without_a_belief_model_is_an_error_not_a_panic() {
        let mut refused = 0;
        for variant in Variant::ALL {
            let s = play_phase(variant);
            let view = s.view(s.current_player().unwrap());
            let mut worlds = Worlds::new(Some(BeliefSource::Shipped));
            let mut rng = yokai_septet::rng::determinization_rng(1);
            match BeliefSource::Shipped.model(variant) {
                Ok(_) => {
                    assert!(worlds.check_view(&view).is_ok());
                    assert!(worlds.sample(&view, &mut rng).is_ok());
                }
                Err(why) => {
                    let e = worlds.check_view(&view).unwrap_err();
                    assert_eq!((e.variant, &e.why), (variant, &why));
                    assert_eq!(worlds.sample(&view, &mut rng).unwrap_err().why, why);
                    assert!(worlds.marginals(&view).is_err());
                    let bot = e.for_bot("pimc-inf".into());
                    assert!(bot.to_string().contains("pimc-inf"), "{bot}");
                    refused += 1;
                }
            }
        }
        if cfg!(not(feature = "models")) {
            assert_eq!(refused, Variant::ALL.len());
        }
    }
}
