//! The privileged state tensor: its documented layout, its contents, and the complement
//! of the observation's no-leak test (R10): re-dealing the cards a seat cannot see leaves
//! that seat's observation alone but changes the state tensor.

use yokai_septet_testkit as common;

use common::{positions, rng};
use yokai_septet::observation::{encode, observation_size};
use yokai_septet::sampler::Sampler;
use yokai_septet::state_tensor::{encode_state, state_layout, state_layout_docs, state_size};
use yokai_septet::{CardSet, State, Variant};

fn tensor(s: &State) -> Vec<f32> {
    let mut out = vec![0f32; state_size(s.variant())];
    encode_state(s, &mut out);
    out
}

fn obs(s: &State, seat: usize) -> Vec<f32> {
    let mut out = vec![0f32; observation_size(s.variant())];
    encode(&s.view(seat), &mut out);
    out
}

/// The card set in block `k` (of the deck's width) of the field named `name`.
fn block(v: Variant, t: &[f32], name: &str, k: usize) -> CardSet {
    let f = state_layout(v).iter().find(|f| f.name == name).unwrap();
    let d = v.deck_size();
    let b = &t[f.offset + k * d..f.offset + (k + 1) * d];
    (0..d)
        .filter(|&i| b[i] == 1.0)
        .map(|i| yokai_septet::Card::new(i as u8).unwrap())
        .collect()
}

#[test]
fn r10_state_tensor_changes_when_hidden_cards_move_and_observations_do_not() {
    let mut sampler = Sampler::new();
    let mut r = rng(11);
    for v in Variant::ALL {
        let mut moved = 0;
        for s in positions(v, 120, 3) {
            for seat in 0..v.num_players() {
                let other = sampler.sample(&s.view(seat), &mut r);
                assert_eq!(
                    obs(&other, seat),
                    obs(&s, seat),
                    "{v}: the observation leaked"
                );
                let hidden_moved = (0..v.num_players())
                    .any(|p| other.hand(p) != s.hand(p) || other.picks(p) != s.picks(p));
                assert_eq!(
                    tensor(&other) != tensor(&s),
                    hidden_moved,
                    "{v}: the state tensor must change exactly when hidden cards move"
                );
                moved += hidden_moved as usize;
            }
        }
        assert!(
            moved > 100,
            "{v}: resampling moved hidden cards only {moved} times"
        );
    }
}

#[test]
fn state_tensor_holds_every_hand_every_pick_and_seat_0s_observation() {
    for v in Variant::ALL {
        for s in positions(v, 60, 4) {
            let t = tensor(&s);
            for p in 0..v.num_players() {
                assert_eq!(block(v, &t, "hands", p), s.hand(p));
                assert_eq!(
                    block(v, &t, "picks", p),
                    s.picks(p).iter().copied().collect::<CardSet>()
                );
            }
            let n = observation_size(v);
            assert_eq!(&t[t.len() - n..], &obs(&s, 0)[..]);
            let mut t8 = vec![0u8; state_size(v)];
            encode_state(&s, &mut t8);
            assert!(t8.iter().zip(&t).all(|(&a, &b)| a as f32 == b));
        }
    }
}

#[test]
fn state_tensor_docs_are_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/state_tensor.md");
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        state_layout_docs(),
        "run `cargo run -p yokai-septet --example print_layout -- state > docs/state_tensor.md`"
    );
}
