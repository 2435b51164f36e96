//! Observations and bots on arbitrary reachable states of every variant: encoding never
//! panics, every value is a small non-negative integer (f32 and u8 agree, and this CPU's
//! SIMD kernels agree with the portable one), the one-hot
//! fields are one-hot, the mask is exactly the legal actions, and every built-in bot
//! returns a legal action for the seat to move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use yokai_septet::simd::CpuLevel;
use yokai_septet::observation::{encode, encode_at, layout, legal_mask, observation_size};
use yokai_septet::{bot_by_name, GameConfig, State, Variant};

fn field<'a>(v: Variant, obs: &'a [u8], name: &str) -> &'a [u8] {
    let f = layout(v).iter().find(|f| f.name == name).expect("field");
    &obs[f.offset..f.offset + f.len]
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let v = Variant::ALL[(data[0] % 4) as usize];
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let bot_every = data[9] as usize | 1;
    let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(3)));
    let d = observation_size(v);
    let mut f = vec![0f32; d];
    let mut u = vec![0u8; d];
    let mut portable = vec![0f32; d];
    let mut mask = vec![false; v.deck_size()];
    let mut bots = ["random", "heuristic", "pimc:2"].map(|n| bot_by_name(n, seed).unwrap());
    for (step, &b) in data[10..].iter().enumerate() {
        for seat in 0..v.num_players() {
            let view = s.view(seat);
            encode(&view, &mut f);
            encode(&view, &mut u);
            for (x, y) in f.iter().zip(&u) {
                assert_eq!(*x, *y as f32, "f32 and u8 observations differ");
            }
            encode_at(CpuLevel::Base, &view, &mut portable);
            assert_eq!(f, portable, "the SIMD and portable kernels differ");
            let ones = |name| {
                field(v, &u, name)
                    .iter()
                    .map(|&x| x as usize)
                    .sum::<usize>()
            };
            assert_eq!(ones("phase"), 1);
            assert_eq!(ones("trump_suit"), 1);
            assert_eq!(ones("to_act"), usize::from(!s.is_over()));
            assert!(ones("trick_leader") <= 1 && ones("led_suit") <= 1);
            assert_eq!(ones("hand"), s.hand(seat).len() as usize);
            assert_eq!(
                field(v, &u, "hand_sizes")[0] as usize,
                s.hand(seat).len() as usize
            );
            let played = ones("played");
            assert!(played <= v.deck_size() && ones("trick") <= v.num_players());
            legal_mask(&view, &mut mask);
            let legal = view.legal_actions();
            for (id, &m) in mask.iter().enumerate() {
                assert_eq!(m, legal.iter().any(|c| c.id() as usize == id));
            }
        }
        let Some(p) = s.current_player() else { break };
        let legal = s.legal_actions();
        let card = if step % bot_every == 0 {
            let c = bots[b as usize % 3].act(&s.view(p));
            assert!(legal.contains(c), "a bot chose an illegal card");
            c
        } else {
            legal.nth(b as u32 % legal.len()).unwrap()
        };
        s.apply(card).unwrap();
    }
});
