//! What a leaf of the tree is worth to every seat: the search's counterpart of OpenSpiel's
//! MCTS `Evaluator` (`open_spiel/algorithms/mcts.h`). One [`Evaluator`] is built from the
//! bot's [`Techniques`] and its value model ([`LeafModel`]), and values each new leaf's
//! position:
//!
//! - by the heuristic's playout to the round's end (`bots/playout.rs`; no random draw,
//!   where OpenSpiel's `RandomRolloutEvaluator` plays at random), with the exact
//!   techniques on: stopped where its value is sure ([`Techniques::early_stop`],
//!   `sure.rs`), a forced card played without asking the heuristic
//!   ([`Techniques::forced`]);
//! - mixed with the value model's values at the leaf ([`Techniques::value_weight`], its
//!   weight faded over the round by [`Techniques::value_fade`]): AlphaGo's mix of a value
//!   network and a rollout, the model alone at 100%. An exact early stop's value is taken
//!   as it is.
//!
//! There is one way to value a leaf, so it is a type, not a trait: the search calls it
//! once per iteration, without dynamic dispatch.

use std::ops::ControlFlow;
use std::sync::Arc;

use yokai_septet::{State, Variant};

use super::sure;
use super::Techniques;
use crate::nn::{ValueNet, ValueScratch};
use crate::playout::{self, Ending};

/// The value model of the leaves ([`Techniques::value_weight`]).
#[derive(Clone)]
pub(super) enum LeafModel {
    /// The model shipped for the game's variant.
    Shipped,
    /// A model file (its path, for the bot's name).
    File(String, Arc<ValueNet>),
}

impl LeafModel {
    /// The model for a game of `variant`, if there is one.
    pub(super) fn net(&self, variant: Variant) -> Option<&ValueNet> {
        match self {
            #[cfg(feature = "models")]
            LeafModel::Shipped => ValueNet::shipped(variant),
            #[cfg(not(feature = "models"))]
            LeafModel::Shipped => {
                let _ = variant;
                None
            }
            LeafModel::File(_, net) => Some(net),
        }
    }
}

/// Values a leaf for every seat (see the module's text).
#[derive(Clone)]
pub(super) struct Evaluator {
    early_stop: bool,
    forced: bool,
    /// The value model's share of a leaf's value, 0 to 1 ([`Techniques::value_weight`]
    /// is in percent).
    model_weight: f32,
    fade: bool,
    model: LeafModel,
    scratch: ValueScratch,
}

impl Evaluator {
    /// The evaluator of a search with `techniques`, its value model `model` (read only
    /// where [`Techniques::value_weight`] is above 0).
    pub(super) fn new(techniques: &Techniques, model: LeafModel) -> Evaluator {
        Evaluator {
            early_stop: techniques.early_stop,
            forced: techniques.forced,
            model_weight: f32::from(techniques.value_weight) / 100.0,
            fade: techniques.value_fade,
            model,
            scratch: ValueScratch::default(),
        }
    }

    /// Its value model.
    pub(super) fn model(&self) -> &LeafModel {
        &self.model
    }

    /// Every seat's value of the leaf position `s` (absolute seats, 0 past the game's
    /// seats); `None` where there is none (no seat to play).
    ///
    /// # Panics
    /// Where the value model weighs and there is none for `s`'s variant (the decision
    /// checks it first).
    pub(super) fn evaluate(&mut self, s: State) -> Option<[f32; 4]> {
        let Evaluator {
            early_stop,
            forced,
            model_weight,
            fade,
            model,
            scratch,
        } = self;
        let mut weight = *model_weight;
        // The value model's values at the leaf, once the playout starts.
        let mut leaf: Option<[f32; 4]> = None;
        // The heuristic's cards, no random draw (so stopping early where the value is
        // certain changes nothing else).
        let ending = playout::play_out_until(s, |s, p| {
            if *early_stop && s.trick_cards().is_empty() {
                if let Some(sure) = sure::sure_values(s) {
                    return ControlFlow::Break(sure);
                }
            }
            if weight > 0.0 && leaf.is_none() {
                let net = model.net(s.variant()).expect("checked by the decision");
                let values = net.values(s, scratch);
                leaf = Some(values);
                if *fade {
                    let held = s.hand(p).len() as f32 / s.variant().hand_size() as f32;
                    weight *= held;
                }
                if weight >= 1.0 {
                    return ControlFlow::Break(values);
                }
            }
            let legal = s.legal_actions();
            ControlFlow::Continue(match legal.len() {
                1 if *forced => legal.nth(0).expect("one legal card"),
                _ => playout::heuristic_card(s, p),
            })
        });
        match ending {
            Some(Ending::Stopped(values)) => Some(values),
            Some(Ending::Finished(finished)) => {
                let mut values = finished.values();
                // A leaf valued by the model, then played out: AlphaGo's mix.
                if let Some(leaf) = leaf {
                    for (v, l) in values.iter_mut().zip(leaf) {
                        *v = weight * l + (1.0 - weight) * *v;
                    }
                }
                Some(values)
            }
            None => leaf,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicBot;
    use yokai_septet::{GameConfig, Phase};

    /// Leaf positions: every play-phase position of the first round of a few heuristic
    /// games of `variant`.
    fn leaves(variant: Variant) -> Vec<State> {
        let mut out = Vec::new();
        for game in 0..4 {
            let mut s = State::new(GameConfig::new(variant, game).with_max_rounds(Some(1)));
            while let Some(p) = s.current_player() {
                if s.phase() == Phase::Play {
                    out.push(s);
                }
                s.apply(HeuristicBot::choose(&s.view(p)))
                    .expect("a legal card");
            }
        }
        out
    }

    /// A value model that gives the seat `k` places to the left of the seat to play
    /// `0.1 + 0.2 k`, whatever the position.
    fn constant_model(variant: Variant) -> LeafModel {
        let n = variant.num_players();
        let width = ValueNet::INPUTS.size(variant);
        let bias = (0..n).map(|k| 0.1 + 0.2 * k as f32).collect();
        let net = ValueNet::new(variant, vec![(vec![0.0; n * width], bias)]).expect("a net");
        LeafModel::File("constant".into(), Arc::new(net))
    }

    /// Without value leaves a leaf is worth the heuristic's playout from it, exactly:
    /// with no technique on, and with the exact ones (the early stop, forced cards).
    #[test]
    fn without_value_leaves_a_leaf_is_worth_its_heuristic_playout() {
        for techniques in [Techniques::CLASSIC, Techniques::DEFAULT] {
            let mut evaluator = Evaluator::new(&techniques, LeafModel::Shipped);
            for variant in Variant::ALL {
                for s in leaves(variant) {
                    let played = playout::heuristic_round_values(s);
                    assert_eq!(evaluator.evaluate(s), Some(played), "{variant}");
                }
            }
        }
    }

    /// At weight 100 a leaf is worth the model's values, with no playout; at 50 the even
    /// mix of the model's and the playout's; with the fade, the model's share is its
    /// weight times the share of its hand the seat to play holds.
    #[test]
    fn value_leaves_mix_the_models_values_with_the_playouts_by_their_weight() {
        let mut scratch = ValueScratch::default();
        for variant in Variant::ALL {
            let model = constant_model(variant);
            let with = |value_weight, value_fade| {
                let techniques = Techniques {
                    value_weight,
                    value_fade,
                    ..Techniques::CLASSIC
                };
                Evaluator::new(&techniques, model.clone())
            };
            let (mut alone, mut even, mut faded) =
                (with(100, false), with(50, false), with(100, true));
            for s in leaves(variant) {
                let net = model.net(variant).expect("a model");
                let values = net.values(&s, &mut scratch);
                let played = playout::heuristic_round_values(s);
                let mix = |w: f32| -> [f32; 4] {
                    std::array::from_fn(|k| w * values[k] + (1.0 - w) * played[k])
                };
                assert_eq!(alone.evaluate(s), Some(values), "{variant}");
                assert_eq!(even.evaluate(s), Some(mix(0.5)), "{variant}");
                let p = s.current_player().expect("a seat to play");
                let held = s.hand(p).len() as f32 / variant.hand_size() as f32;
                let faded_values = if held >= 1.0 { values } else { mix(held) };
                assert_eq!(faded.evaluate(s), Some(faded_values), "{variant}");
            }
        }
    }
}
