//! Random games with the mover's observation encoded before every decision (what an RL
//! rollout does), for profiling the encoder next to the engine:
//!
//! `cargo run --release -p yokai-septet --example obs_rollouts -- [games] [variant] [f32|u8|none] [check]`
//! (`check` also prints a hash of every observation, to compare two builds.)
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use yokai_septet::observation::{encode, observation_size, ObsValue};
use yokai_septet::{GameConfig, State, Variant};

/// Plays `games` games; with `check`, also returns a hash of every observation written.
fn run<T: ObsValue + Into<f64>>(
    v: Variant,
    games: u64,
    mut out: Option<Vec<T>>,
    check: bool,
) -> (u64, f64, u64) {
    let mut hash = 0u64;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let t = Instant::now();
    let mut decisions = 0u64;
    for seed in 0..games {
        let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(200)));
        while let Some(p) = s.current_player() {
            if let Some(out) = out.as_mut() {
                encode(&s.view(p), out);
                std::hint::black_box(&out);
                if check {
                    for &x in out.iter() {
                        let x: f64 = x.into();
                        hash = hash.wrapping_mul(0x100_0000_01b3).wrapping_add(x as u64);
                    }
                }
            }
            let legal = s.legal_actions();
            s.apply(legal.pick(rng.next_u32()).unwrap()).unwrap();
            decisions += 1;
        }
    }
    (decisions, t.elapsed().as_secs_f64(), hash)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let v: Variant = args
        .next()
        .map_or(Variant::FourPlayer, |a| a.parse().expect("a variant"));
    let dtype = args.next().unwrap_or_else(|| "u8".into());
    let d = observation_size(v);
    let check = args.next().is_some_and(|a| a == "check");
    let (decisions, secs, hash) = match dtype.as_str() {
        "f32" => run::<f32>(v, games, Some(vec![0.0; d]), check),
        "u8" => run::<u8>(v, games, Some(vec![0; d]), check),
        _ => run::<u8>(v, games, None, check),
    };
    println!(
        "{v} {dtype}: {decisions} decisions, {:.1} ns per decision{}",
        secs * 1e9 / decisions as f64,
        if check {
            format!(", observation hash {hash:016x}")
        } else {
            String::new()
        }
    );
}
