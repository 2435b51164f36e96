//! Observation, legal-mask and determinization costs, each next to its yardsticks from
//! the same run. The target is "encoding costs less than 3 engine steps"; an
//! engine step is measured two ways:
//! - `round_step`: one round from a fixed start, random moves, the state hot in L1 (the
//!   engine's fastest case: about 9 ns);
//! - `game_step`: whole games from fresh seeds, dealing included (what a rollout costs
//!   per decision).
//!
//! The `*_with_obs_*` playouts encode the mover's observation at every decision: their
//! time per step minus the bare playout's is the encoder's cost inside a rollout.
//! `store_floor_*` zeroes a buffer of the observation's size with 64-byte stores, the
//! encoder's own kind: what writing the vector costs before any encoding work (for
//! `f32`, most of the encoder's time). `tools/encode_levels.rs` compares each SIMD kernel on scattered
//! positions. `python3 benches/encode_ratio.py` prints the ratios from the last run.
//!
//! `cargo bench -p yokai-septet --bench observation -- --warm-up-time 1 --measurement-time 3`
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand_core::{impls, RngCore};
use yokai_septet::observation::{encode, legal_mask, observation_size, ObsValue};
use yokai_septet::sampler::Sampler;
use yokai_septet::{Episode, GameConfig, Phase, State, Variant};

/// A tiny xorshift generator, so that random choices cost next to nothing.
struct XorShift(u64);

impl RngCore for XorShift {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        impls::fill_bytes_via_next(self, dst)
    }
}

fn step(s: &mut State, rng: &mut XorShift) {
    let legal = s.legal_actions();
    s.apply(legal.pick(rng.next_u32()).unwrap()).unwrap();
}

/// Random moves until `s` is over; `obs` encodes the mover's view at every step.
/// Returns the number of steps.
fn playout<T: ObsValue>(mut s: State, seed: u64, obs: Option<&mut [T]>) -> u32 {
    let mut rng = XorShift(seed);
    let mut steps = 0;
    match obs {
        None => {
            while !s.is_over() {
                step(&mut s, &mut rng);
                steps += 1;
            }
        }
        Some(out) => {
            while !s.is_over() {
                encode(&s.view(s.current_player().unwrap()), out);
                black_box(&out);
                step(&mut s, &mut rng);
                steps += 1;
            }
        }
    }
    steps
}

/// Whole games of `v` from the seeds `seeds` (dealt inside the timed loop, like a
/// rollout's reset); returns the number of steps.
fn games<T: ObsValue>(v: Variant, seeds: std::ops::Range<u64>, mut obs: Option<&mut [T]>) -> u32 {
    seeds
        .map(|seed| {
            let s = State::new(GameConfig::new(v, seed));
            playout(s, seed | 1, obs.as_deref_mut())
        })
        .sum()
}

/// Zeroes `out` with 64-byte stores where the CPU has AVX-512, as the encoder's kernel
/// does there (elsewhere `write_bytes`). Not `fill`: libc's `memset` was slower here
/// for these sizes (4p float32: 60 ns, against 39–47 ns in later runs).
fn store_zeros<T>(out: &mut [T]) {
    let bytes = std::mem::size_of_val(out);
    assert!(bytes >= 64);
    let p = out.as_mut_ptr() as *mut u8;
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: checked just above; the stores stay inside `out`.
        unsafe { zeros_avx512(p, bytes) };
        return;
    }
    // SAFETY: `bytes` bytes from `p` are `out`'s.
    unsafe { std::ptr::write_bytes(p, 0, bytes) }
}

/// 64-byte stores over `len` bytes at `p`, the last one ending at `len`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn zeros_avx512(p: *mut u8, len: usize) {
    use std::arch::x86_64::*;
    let z = _mm512_setzero_si512();
    let mut at = 0;
    while at + 64 < len {
        _mm512_storeu_si512(p.add(at) as *mut __m512i, z);
        at += 64;
    }
    _mm512_storeu_si512(p.add(len - 64) as *mut __m512i, z);
}

/// A position `plays` cards into the first round's play.
fn position(v: Variant, plays: usize) -> State {
    let mut s = State::new(GameConfig::new(v, 3).with_episode(Episode::Round));
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    while s.phase() == Phase::Pass {
        step(&mut s, &mut rng);
    }
    for _ in 0..plays {
        step(&mut s, &mut rng);
    }
    s
}

fn benches(c: &mut Criterion) {
    for v in Variant::ALL {
        let size = observation_size(v);
        let mut out = vec![0f32; size];
        let mut out8 = vec![0u8; size];
        let mut g = c.benchmark_group(format!("{v}"));

        // One round from a fixed start.
        let start = State::new(GameConfig::new(v, 1).with_episode(Episode::Round));
        let seed = 0x2545_F491_4F6C_DD1D;
        g.throughput(Throughput::Elements(
            playout::<f32>(start, seed, None) as u64
        ));
        g.bench_function("round_step", |b| {
            b.iter(|| playout::<f32>(black_box(start), seed, None))
        });
        g.bench_function("round_step_with_obs_f32", |b| {
            b.iter(|| playout(black_box(start), seed, Some(&mut out)))
        });
        g.bench_function("round_step_with_obs_u8", |b| {
            b.iter(|| playout(black_box(start), seed, Some(&mut out8)))
        });

        // Whole games, dealt in the loop.
        const SEEDS: std::ops::Range<u64> = 0..8;
        g.throughput(Throughput::Elements(games::<f32>(v, SEEDS, None) as u64));
        g.bench_function("game_step", |b| {
            b.iter(|| games::<f32>(v, black_box(SEEDS), None))
        });
        g.bench_function("game_step_with_obs_f32", |b| {
            b.iter(|| games(v, black_box(SEEDS), Some(&mut out)))
        });
        g.bench_function("game_step_with_obs_u8", |b| {
            b.iter(|| games(v, black_box(SEEDS), Some(&mut out8)))
        });

        g.throughput(Throughput::Elements(1));
        let mid = position(v, 2 * v.num_players() + 1);
        let view = mid.view(mid.current_player().unwrap());
        g.bench_function("encode_f32", |b| {
            b.iter(|| encode(black_box(&view), &mut out))
        });
        g.bench_function("encode_u8", |b| {
            b.iter(|| encode(black_box(&view), &mut out8))
        });
        g.bench_function("store_floor_f32", |b| {
            b.iter(|| store_zeros(black_box(&mut out[..])))
        });
        g.bench_function("store_floor_u8", |b| {
            b.iter(|| store_zeros(black_box(&mut out8[..])))
        });
        let mut mask = vec![false; v.num_actions()];
        g.bench_function("legal_mask", |b| {
            b.iter(|| legal_mask(black_box(&view), &mut mask))
        });
        let mut sampler = Box::new(Sampler::new());
        let mut rng = XorShift(7);
        for (name, plays) in [("early", 1), ("mid", 4 * v.num_players() + 2)] {
            let s = position(v, plays);
            let view = s.view((s.current_player().unwrap() + 1) % v.num_players());
            g.bench_function(format!("sample_{name}"), |b| {
                b.iter(|| sampler.sample(black_box(&view), &mut rng))
            });
        }
        g.finish();
    }
}

criterion_group!(obs, benches);
criterion_main!(obs);
