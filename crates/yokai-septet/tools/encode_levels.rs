//! Times the observation encoder with each instruction-set level's kernels on the same
//! positions, next to one engine step (legal actions, a random pick, `apply`) from each
//! of those positions, and prints the ratio: the issue's yardstick is "encoding costs
//! less than 3 engine steps". Minimum over interleaved repeats, as shared machines are
//! noisy.
//!
//! `cargo run --release -p yokai-septet --example encode_levels -- [variant]` (`ALIGN=16` places the
//! output buffers 16 bytes past a 64-byte boundary)
use std::time::Instant;
use yokai_septet::observation::{encode_at, observation_size, ObsValue};
use yokai_septet::simd::{cpu_level, CpuLevel};
use yokai_septet::{GameConfig, State, Variant};

/// Nanoseconds per encode over `states` (each the mover's view), best of a few passes.
fn time<T: ObsValue>(level: CpuLevel, states: &[State], out: &mut [T]) -> f64 {
    let t = Instant::now();
    for _ in 0..50 {
        for s in states {
            encode_at(level, &s.view(s.current_player().unwrap()), out);
            std::hint::black_box(&out);
        }
    }
    t.elapsed().as_secs_f64() * 1e9 / (50 * states.len()) as f64
}

/// Nanoseconds per engine step: legal actions, a random pick and `apply`, from a copy
/// of each position.
fn time_step(states: &[State]) -> f64 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let t = Instant::now();
    for _ in 0..50 {
        for s in states {
            let mut s = *s;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.apply(s.legal_actions().pick(x as u32).unwrap()).unwrap();
            std::hint::black_box(&s);
        }
    }
    t.elapsed().as_secs_f64() * 1e9 / (50 * states.len()) as f64
}

fn main() {
    let v: Variant = std::env::args()
        .nth(1)
        .map_or(Variant::FourPlayer, |a| a.parse().expect("a variant"));
    // Positions of random games.
    let mut states = Vec::new();
    let mut x = 1u64;
    for seed in 0.. {
        // About 1,000 positions (225 KB of states): small enough to stay in L2.
        if states.len() >= 1000 {
            break;
        }
        let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(200)));
        while s.current_player().is_some() && states.len() < 1000 {
            states.push(s);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.apply(s.legal_actions().pick(x as u32).unwrap()).unwrap();
        }
    }
    let d = observation_size(v);
    // Buffers `ALIGN` bytes past a 64-byte boundary (default 0; stores that split cache
    // lines cost more, so try 16 too).
    let shift: usize = std::env::var("ALIGN").map_or(0, |a| a.parse().expect("ALIGN=bytes"));
    let mut raw8 = vec![0u8; d + 128 + 4096];
    let a8 = raw8.as_ptr().align_offset(64) + shift;
    let o8 = &mut raw8[a8..a8 + d];
    let mut rawf = vec![0f32; d + 32 + 1024];
    let af = rawf.as_ptr().align_offset(64) + shift / 4;
    let of = &mut rawf[af..af + d];
    let levels = [
        CpuLevel::Base,
        CpuLevel::Bmi2,
        CpuLevel::Avx2,
        CpuLevel::Avx512,
    ];
    let mut best = [[f64::MAX; 2]; 4];
    let mut step = f64::MAX;
    for _ in 0..15 {
        step = step.min(time_step(&states));
        for (i, &l) in levels.iter().enumerate() {
            best[i][0] = best[i][0].min(time(l, &states, o8));
            best[i][1] = best[i][1].min(time(l, &states, of));
        }
    }
    println!(
        "{v}, {} positions, this CPU: {:?}; one engine step: {step:.1} ns",
        states.len(),
        cpu_level()
    );
    for (i, l) in levels.iter().enumerate().filter(|(_, &l)| l <= cpu_level()) {
        let [u, f] = best[i];
        println!(
            "  {l:?}: u8 {u:.1} ns = {:.2} steps, f32 {f:.1} ns = {:.2} steps",
            u / step,
            f / step
        );
    }
}
