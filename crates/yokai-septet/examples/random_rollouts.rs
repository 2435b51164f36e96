//! Plays random games of every variant and prints their outcome and throughput.
//!
//! `cargo run --release -p yokai-septet --example random_rollouts -- [games] [variant]`
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use yokai_septet::{GameConfig, State, Variant};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let only: Option<Variant> = std::env::args()
        .nth(2)
        .map(|v| v.parse().expect("a variant"));
    println!("state size: {} bytes", std::mem::size_of::<State>());
    for v in Variant::ALL
        .into_iter()
        .filter(|v| only.is_none_or(|o| o == *v))
    {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let t = Instant::now();
        let (mut decisions, mut rounds, mut truncated) = (0u64, 0u64, 0u64);
        for seed in 0..games {
            let cfg = GameConfig::new(v, seed).with_max_rounds(Some(200));
            let mut s = State::new(cfg);
            while !s.is_over() {
                let legal = s.legal_actions();
                s.apply(legal.pick(rng.next_u32()).unwrap()).unwrap();
                decisions += 1;
            }
            rounds += s.round() as u64 + 1;
            truncated += s.is_truncated() as u64;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{:>10}: {games} games, {:.2} rounds/game, {truncated} truncated, {:.1} M decisions/s",
            v.name(),
            rounds as f64 / games as f64,
            decisions as f64 / secs / 1e6
        );
    }
}
