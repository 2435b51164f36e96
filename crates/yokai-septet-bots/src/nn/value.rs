//! The value model: what the rest of the round is worth to each seat, read from a whole
//! (determinized) deal. `ismcts` evaluates its leaves with it ([`crate::Techniques`]'s
//! `value_weight`; `docs/search.md`).
//!
//! An [`Mlp`] whose first layer reads [`Inputs::ObservationAndHands`] (the observation of
//! the seat to play, then the other seats' hands, the next clockwise first) and whose last
//! layer gives one value per seat, `out[k]` for the seat `k` places to the left of the seat
//! to play: its expected round value ([`crate::round_value`]). It is trained
//! on the positions of self-play games of the search bots, each labelled with the round's
//! result (`training/train_value.py`, data from [`crate::arena::value_data`]). A search asks it
//! about a world it drew, so it may read every hand: it is never a bot's input (a bot
//! plays from its [`yokai_septet::SeatView`]). Weights files are the `nn` models' with the
//! `format` [`VALUE_FORMAT`](super::VALUE_FORMAT).

use super::mlp::{Inputs, Scratch};
use super::net::{Net, ValueHead};
use yokai_septet::observation::{encode, observation_size, ObsValue};
use yokai_septet::State;

/// A value model (see the module docs): [`Net::INPUTS`] is the observation and the other
/// seats' hands, the last layer one value per seat; files of the `format`
/// [`VALUE_FORMAT`](super::VALUE_FORMAT).
pub type ValueNet = Net<ValueHead>;

/// Reusable buffers for [`ValueNet::values`].
#[derive(Clone, Debug, Default)]
pub struct ValueScratch {
    input: Vec<f32>,
    out: Vec<f32>,
    hidden: Scratch,
}

/// Writes the value model's input for `state` (play phase, a seat to play) into `out`
/// (length `Inputs::ObservationAndHands.size(variant)`): the observation of the seat to
/// play, then each other seat's hand as a card-id block, the next clockwise first.
///
/// # Panics
/// Where no seat is to play, or `out` has another length.
pub fn encode_value_input<T: ObsValue>(state: &State, out: &mut [T]) {
    let variant = state.variant();
    assert_eq!(out.len(), Inputs::ObservationAndHands.size(variant));
    let p = state.current_player().expect("a seat to play");
    let view = state.view(p);
    let obs = observation_size(variant);
    encode(&view, &mut out[..obs]);
    let hands = &mut out[obs..];
    hands.fill(T::ZERO);
    let a = variant.num_actions();
    for (k, block) in hands.chunks_exact_mut(a).enumerate() {
        for c in state.hand(view.relative(k + 1)) {
            block[c.id() as usize] = T::ONE;
        }
    }
}

impl ValueNet {
    /// Each seat's value of `state` (absolute seats; 0 past the game's seats): the
    /// model's estimate of its round value.
    ///
    /// # Panics
    /// Where no seat is to play, or `state` is of another variant than the model's.
    pub fn values(&self, state: &State, scratch: &mut ValueScratch) -> [f32; 4] {
        let variant = state.variant();
        assert_eq!(
            variant,
            self.variant(),
            "a value model reads its own variant"
        );
        let n = variant.num_players();
        let ValueScratch { input, out, hidden } = scratch;
        input.resize(ValueNet::INPUTS.size(variant), 0.0);
        out.resize(n, 0.0);
        encode_value_input(state, input);
        self.mlp().logits(input, hidden, out);
        let p = state.current_player().expect("a seat to play");
        let mut values = [0f32; 4];
        for (k, &v) in out.iter().enumerate() {
            values[(p + k) % n] = v;
        }
        values
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::mlp::{Head, Mlp};
    use yokai_septet::{GameConfig, Variant};

    fn state(variant: Variant) -> State {
        let mut s = State::new(GameConfig::new(variant, 3));
        while s.phase() != yokai_septet::Phase::Play {
            let c = s.legal_actions().first().unwrap();
            s.apply(c).unwrap();
        }
        s
    }

    /// The input holds the seat to play's observation, then exactly the other seats'
    /// hands, the next clockwise first.
    #[test]
    fn the_input_is_the_observation_then_the_other_hands_in_seat_order() {
        for v in Variant::ALL {
            let s = state(v);
            let p = s.current_player().unwrap();
            let mut input = vec![0u8; ValueNet::INPUTS.size(v)];
            encode_value_input(&s, &mut input);
            let obs = observation_size(v);
            let mut own = vec![0u8; obs];
            encode(&s.view(p), &mut own);
            assert_eq!(input[..obs], own[..], "{v}");
            let a = v.num_actions();
            let n = v.num_players();
            for k in 1..n {
                let block = &input[obs + (k - 1) * a..obs + k * a];
                for c in v.deck() {
                    let held = s.hand((p + k) % n).contains(c);
                    assert_eq!(block[c.id() as usize] == 1, held, "{v} seat +{k} {c}");
                }
            }
        }
    }

    /// A model whose last layer is only a bias gives that bias to the seats counted from
    /// the seat to play, in absolute seats.
    #[test]
    fn values_are_given_in_absolute_seats() {
        for v in Variant::ALL {
            let n = v.num_players();
            let width = ValueNet::INPUTS.size(v);
            let bias: Vec<f32> = (0..n).map(|k| k as f32).collect();
            let net = ValueNet::new(v, vec![(vec![0.0; n * width], bias)]).unwrap();
            let s = state(v);
            let p = s.current_player().unwrap();
            let values = net.values(&s, &mut ValueScratch::default());
            for k in 0..n {
                assert_eq!(values[(p + k) % n], k as f32, "{v}");
            }
        }
    }

    /// A value model reads the hidden hands and nothing else does: other inputs for a
    /// value model, or these inputs for a policy or a belief model, are refused.
    #[test]
    fn only_a_value_model_reads_the_hidden_hands() {
        let v = Variant::FourPlayer;
        let n = v.num_players();
        let width = Inputs::Observation.size(v);
        let e = Mlp::with_head(
            v,
            Inputs::Observation,
            Head::Value,
            vec![(vec![0.0; n * width], vec![0.0; n])],
        )
        .unwrap_err();
        assert!(e.to_string().contains("observation+hands"), "{e}");
        let width = ValueNet::INPUTS.size(v);
        let a = v.num_actions();
        let e = Mlp::with_inputs(
            v,
            ValueNet::INPUTS,
            vec![(vec![0.0; a * width], vec![0.0; a])],
        )
        .unwrap_err();
        assert!(e.to_string().contains("hidden hands"), "{e}");
    }

    /// A model written and read back is the same model; a policy file is not a value model.
    #[test]
    fn a_value_model_round_trips_and_a_policy_file_is_refused() {
        let v = Variant::ThreePlayer;
        let n = v.num_players();
        let width = ValueNet::INPUTS.size(v);
        let layers = vec![
            (
                (0..8 * width).map(|i| (i % 7) as f32 * 0.01).collect(),
                vec![0.1; 8],
            ),
            (vec![0.5; n * 8], vec![0.0; n]),
        ];
        let net = ValueNet::new(v, layers.clone()).unwrap();
        let back = ValueNet::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back.mlp().layers(), layers);
        let s = state(v);
        let mut scratch = ValueScratch::default();
        assert_eq!(net.values(&s, &mut scratch), back.values(&s, &mut scratch));
        let a = v.num_actions();
        let policy = Mlp::new(
            v,
            vec![(vec![0.0; a * Inputs::Observation.size(v)], vec![0.0; a])],
        )
        .unwrap();
        let e = ValueNet::from_bytes(&policy.to_bytes()).unwrap_err();
        assert!(e.to_string().contains("yokai-septet-value/1"), "{e}");
    }
}
