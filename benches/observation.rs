//! Observation, legal-mask and determinization costs, next to a plain random playout's
//! per-step cost (the yardstick: encoding should cost less than 3 engine steps). This
//! playout is one round from a fixed start with the state hot in L1, the engine's fastest
//! case; `examples/encode_levels.rs` compares each SIMD kernel with a step from the same
//! scattered positions, and `compare_peers.py` gives the per-decision cost of whole games.
//! The output buffers here are plain `Vec`s (16-byte aligned): a float32 encode into a
//! 32-byte aligned buffer is faster.
//!
//! `cargo bench --bench observation -- --warm-up-time 1 --measurement-time 3`
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

/// One round from the start, random moves; `obs` encodes the mover's view at every step.
fn playout<T: ObsValue>(start: &State, seed: u64, obs: Option<&mut [T]>) -> u32 {
    let mut s = *start;
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
        let start = State::new(GameConfig::new(v, 1).with_episode(Episode::Round));
        let seed = 0x2545_F491_4F6C_DD1D;
        let steps = playout::<f32>(&start, seed, None) as u64;
        let mut out = vec![0f32; observation_size(v)];
        let mut g = c.benchmark_group(format!("{v}"));
        g.throughput(Throughput::Elements(steps));
        g.bench_function("playout_per_step", |b| {
            b.iter(|| playout::<f32>(black_box(&start), seed, None))
        });
        g.bench_function("playout_with_obs_f32_per_step", |b| {
            b.iter(|| playout(black_box(&start), seed, Some(&mut out)))
        });
        let mut out8 = vec![0u8; observation_size(v)];
        g.bench_function("playout_with_obs_u8_per_step", |b| {
            b.iter(|| playout(black_box(&start), seed, Some(&mut out8)))
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
