//! The belief model: who holds each card a seat cannot see, read from what the players
//! did (the `-inf` search bots sample their worlds from it; `docs/inference.md`).
//!
//! An [`Mlp`] over the seat's canonical observation whose last layer gives one logit per
//! card id and other seat, `out[card * (n - 1) + k - 1]` for the seat `k` places to the
//! observer's left (the observation's relative seats). A card's weight for seat `k` is
//! `exp(logit)`, normalised over the seats that may hold it ([`possible_holders`]: voids,
//! cards passed; 1 on the holder of a card whose holder is known). Deals are then drawn in
//! proportion to the product of their cards' weights under every constraint
//! ([`yokai_septet::belief::BeliefSampler`]), hand sizes included: the weights are the
//! factors of that distribution, and its marginals are the probabilities that each seat
//! holds each card. The network is trained that way (`training/train_belief.py`): its
//! logit is added to the log of the uniform sampler's probability, so it learns only what
//! the constraints do not say. The true hands of self-play games are the free labels.
//! Weights files are the `nn` models' with the `format`
//! [`BELIEF_FORMAT`](super::BELIEF_FORMAT).

use super::mlp::{Head, Scratch};
use super::net::{BeliefHead, Net};
use yokai_septet::belief::{possible_holders, Belief};
use yokai_septet::SeatView;

/// A belief model (see the module docs): [`Net::INPUTS`] is the observation and the play
/// log, the last layer `num_actions × (num_players − 1)` wide; files of the `format`
/// [`BELIEF_FORMAT`](super::BELIEF_FORMAT).
pub type BeliefNet = Net<BeliefHead>;

/// Reusable buffers for [`BeliefNet::belief`].
#[derive(Clone, Debug, Default)]
pub struct BeliefScratch {
    input: Vec<f32>,
    /// The input of the last belief computed through this scratch (a search asks at the
    /// same information set thousands of times: the observation is the whole of what the
    /// model reads, so an equal one gives the same belief).
    previous: Vec<f32>,
    logits: Vec<f32>,
    hidden: Scratch,
}

impl BeliefNet {
    /// The weight of each seat holding each card, as `view`'s seat believes (see the
    /// module docs): for every card it cannot see, the model's weights over the seats that
    /// may hold it (summing to 1); 1 on the holder of a card whose holder is known; 0
    /// elsewhere (the observer's own cards included: the belief is about the others'
    /// hands).
    ///
    /// # Panics
    /// If `view` is of another variant than the model's.
    pub fn belief(&self, view: &SeatView, scratch: &mut BeliefScratch) -> Belief {
        scratch.previous.clear();
        self.belief_if_new(view, scratch)
            .expect("no previous input to repeat")
    }

    /// [`BeliefNet::belief`], or `None` when `view`'s observation is the one of the last
    /// belief computed through `scratch` (the same belief again).
    pub(crate) fn belief_if_new(
        &self,
        view: &SeatView,
        scratch: &mut BeliefScratch,
    ) -> Option<Belief> {
        let variant = view.variant();
        assert_eq!(
            variant,
            self.variant(),
            "a belief model reads its own variant"
        );
        let n = variant.num_players();
        let BeliefScratch {
            input,
            previous,
            logits,
            hidden,
        } = scratch;
        input.resize(self.mlp().inputs().size(variant), 0.0);
        self.mlp().inputs().encode(view, input);
        if input == previous {
            return None;
        }
        previous.clone_from(input);
        logits.resize(Head::Belief.outputs(variant), 0.0);
        self.mlp().logits(input, hidden, logits);
        let possible = possible_holders(view);
        let mut belief = Belief::uniform();
        for card in variant.deck() {
            let row = &logits[card.id() as usize * (n - 1)..][..n - 1];
            let may = |k: usize| possible[view.relative(k)].contains(card);
            let top = (1..n)
                .filter(|&k| may(k))
                .map(|k| row[k - 1])
                .fold(f32::NEG_INFINITY, f32::max);
            let mut p = [0f32; 4];
            for k in (1..n).filter(|&k| may(k)) {
                p[k] = (row[k - 1] - top).exp();
            }
            let sum: f32 = p.iter().sum();
            for seat in n..4 {
                belief.set_weight(card, seat, 0.0);
            }
            for (k, &pk) in p.iter().enumerate().take(n) {
                let w = if sum > 0.0 { pk / sum } else { 0.0 };
                belief.set_weight(card, view.relative(k), w);
            }
        }
        Some(belief)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::mlp::{Inputs, Mlp};
    use crate::HeuristicBot;
    use yokai_septet::observation::observation_size;
    use yokai_septet::rng::test_rng;
    use yokai_septet::rng::uniform_below;
    use yokai_septet::State;
    use yokai_septet::{GameConfig, Variant};

    /// `bytes` with the first `from` in the file's header replaced by `to` (of its length).
    fn replace_in_header(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
        assert_eq!(from.len(), to.len());
        let at = bytes
            .windows(from.len())
            .position(|w| w == from.as_bytes())
            .expect("in the header");
        let mut out = bytes.to_vec();
        out[at..at + to.len()].copy_from_slice(to.as_bytes());
        out
    }

    /// A belief model of `variant` with random weights (one hidden layer).
    fn random_net(variant: Variant, seed: u64) -> BeliefNet {
        let mut rng = test_rng(seed);
        let mut values = |k: usize| -> Vec<f32> {
            (0..k)
                .map(|_| uniform_below(&mut rng, 2001) as f32 / 1000.0 - 1.0)
                .collect()
        };
        let (i, h, o) = (
            BeliefNet::INPUTS.size(variant),
            16,
            Head::Belief.outputs(variant),
        );
        BeliefNet::new(
            variant,
            vec![(values(h * i), values(h)), (values(o * h), values(o))],
        )
        .unwrap()
    }

    /// For every card a seat cannot see, the belief sums to 1 over the seats that may
    /// hold it and is 0 on the others; a card whose holder is known has 1 there.
    #[test]
    fn belief_rows_sum_to_one_over_the_possible_holders() {
        for v in Variant::ALL {
            let net = random_net(v, 3);
            let mut scratch = BeliefScratch::default();
            let mut s = State::new(GameConfig::new(v, 11).with_max_rounds(Some(1)));
            let mut checked = 0;
            while let Some(p) = s.current_player() {
                let view = s.view(p);
                let belief = net.belief(&view, &mut scratch);
                let possible = possible_holders(&view);
                for c in view.unknown_cards() {
                    let sum: f32 = (0..4).map(|q| belief.weight(c, q)).sum();
                    assert!((sum - 1.0).abs() < 1e-5, "{v} {c}: {sum}");
                    for q in 0..4 {
                        if q >= v.num_players() || !possible[q].contains(c) {
                            assert_eq!(belief.weight(c, q), 0.0, "{v} {c} {q}");
                        }
                    }
                    let holders: Vec<usize> = (0..v.num_players())
                        .filter(|&q| possible[q].contains(c))
                        .collect();
                    if holders.len() == 1 {
                        assert_eq!(belief.weight(c, holders[0]), 1.0);
                    }
                    checked += 1;
                }
                let card = HeuristicBot::choose(&view);
                s.apply(card).unwrap();
            }
            assert!(checked > 500, "{v}: {checked}");
        }
    }

    /// A belief model's file reads back as the same model, in `F32` or `F16`; a policy
    /// file is not a belief model, nor the other way round; a file of the first layout
    /// (`yokai-septet-belief/1`, the observation alone), a first layer that does not read
    /// the play log and a last layer of the wrong width are refused saying what is expected.
    #[test]
    fn belief_files_round_trip_and_other_models_are_refused() {
        let mut net = random_net(Variant::FourPlayer, 5);
        let bytes = net.to_bytes();
        let back = BeliefNet::from_bytes(&bytes).unwrap();
        assert_eq!(back.mlp().layers(), net.mlp().layers());
        assert_eq!(back.to_bytes(), bytes);
        net.set_half(true);
        let half = net.to_bytes();
        assert!(
            half.len() < bytes.len() * 6 / 10,
            "{} {}",
            half.len(),
            bytes.len()
        );
        let back = BeliefNet::from_bytes(&half).unwrap();
        assert!(back.mlp().is_half());
        assert_eq!(back.mlp().layers(), net.mlp().layers());
        assert_eq!(back.to_bytes(), half);
        let e = Mlp::from_bytes(&bytes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "metadata 'format': 'yokai-septet-belief/2', expected 'yokai-septet-mlp/1'"
        );
        let i = observation_size(Variant::FourPlayer);
        let o = 49 * 3;
        let old = Mlp::with_head(
            Variant::FourPlayer,
            Inputs::Observation,
            Head::Belief,
            vec![(vec![0.0; i * o], vec![0.0; o])],
        )
        .unwrap();
        let e = BeliefNet::from_bytes(&old.to_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "metadata 'inputs': 'observation', expected 'observation+play_log' (a belief \
             model reads the play log)"
        );
        let v1 = replace_in_header(&old.to_bytes(), "belief/2", "belief/1");
        let e = BeliefNet::from_bytes(&v1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "metadata 'format': 'yokai-septet-belief/1', expected 'yokai-septet-belief/2' \
             (version 1 read the observation alone; version 2 also reads the play log: \
             retrain it with training/train_belief.py)"
        );
        let policy = Mlp::new(
            Variant::FourPlayer,
            vec![(vec![0.0; i * 49], vec![0.0; 49])],
        )
        .unwrap()
        .to_bytes();
        let e = BeliefNet::from_bytes(&policy).unwrap_err();
        assert!(
            e.to_string().contains("expected 'yokai-septet-belief/2'"),
            "{e}"
        );
        let w = BeliefNet::INPUTS.size(Variant::FourPlayer);
        let e = BeliefNet::new(
            Variant::FourPlayer,
            vec![(vec![0.0; w * 49], vec![0.0; 49])],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "tensor 'layers.0.weight': 49 outputs, expected one per card id and other seat \
             of 4p (49 x 3)"
        );
    }

    /// A model of one variant does not read another's views: its file says its variant,
    /// and a file whose variant's sizes do not fit its tensors is refused.
    #[test]
    fn a_belief_file_of_another_variant_is_refused() {
        let net = random_net(Variant::ThreePlayer, 7);
        let as_4p = replace_in_header(&net.to_bytes(), "\"variant\":\"3p\"", "\"variant\":\"4p\"");
        let e = BeliefNet::from_bytes(&as_4p).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("tensor 'layers.0.weight': shape [16, "),
            "{e}"
        );
    }
}
