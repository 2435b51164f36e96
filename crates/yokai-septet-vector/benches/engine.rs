//! Engine throughput: `legal_actions`, `apply`, and whole random-policy games per variant
//! (single thread, RNG included); arena throughput, and the VectorEnv stepping core next to
//! its yardstick (engine step + encode + mask by hand) on each thread count. Decisions
//! per second = elements/s in criterion's output.
//!
//! `cargo bench -p yokai-septet-vector --bench engine` (`YS_BENCH_THREADS=1,2,4,8,16` for more thread counts;
//! `cargo bench -p yokai-septet-vector --bench engine -- vector_env` for the VectorEnv groups alone)

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use yokai_septet::observation::{observation_size, ObsValue};
use yokai_septet::{GameConfig, State, Variant};
use yokai_septet_bots::arena::{run_arena, ArenaConfig};
use yokai_septet_bots::BotRegistry;
use yokai_septet_vector::{Elem, Extras, Outputs, Shared, VecCore};

/// A random legal action: multiply-shift index (bias < n/2^32, irrelevant for a policy).
#[inline]
fn random_action(s: &State, rng: &mut ChaCha8Rng) -> yokai_septet::Card {
    let legal = s.legal_actions();
    legal.pick(rng.next_u32()).unwrap()
}

/// Plays `games` random games; returns the number of decisions.
fn playouts(v: Variant, games: u64, rng: &mut ChaCha8Rng, seed0: u64) -> u64 {
    let mut decisions = 0;
    for seed in seed0..seed0 + games {
        let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(200)));
        while !s.is_over() {
            let a = random_action(&s, rng);
            s.apply(a).unwrap();
            decisions += 1;
        }
    }
    decisions
}

fn random_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_game");
    for v in Variant::ALL {
        // Measure the mean decisions per game once, so throughput is in decisions.
        let per_game = playouts(v, 2_000, &mut ChaCha8Rng::seed_from_u64(9), 1_000_000) / 2_000;
        g.throughput(Throughput::Elements(per_game));
        g.bench_function(BenchmarkId::from_parameter(v.name()), |b| {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(playouts(v, 1, &mut rng, seed))
            })
        });
    }
    g.finish();
}

/// Positions sampled from random 4p games, for the per-call benchmarks.
fn positions() -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    for seed in 0..200 {
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, seed));
        while !s.is_over() {
            out.push(s);
            let a = random_action(&s, &mut rng);
            s.apply(a).unwrap();
        }
    }
    out
}

fn per_call(c: &mut Criterion) {
    let pos = positions();
    let mut g = c.benchmark_group("4p_per_call");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("legal_actions", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for s in &pos {
                acc ^= black_box(s).legal_actions().bits();
            }
            acc
        })
    });
    let actions: Vec<_> = pos
        .iter()
        .map(|s| s.legal_actions().first().unwrap())
        .collect();
    g.bench_function("apply", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for (s, &a) in pos.iter().zip(&actions) {
                let mut s = *s;
                acc = acc.wrapping_add(s.apply(black_box(a)).is_ok() as u32);
            }
            acc
        })
    });
    g.finish();
}

/// Arena throughput (random bots, duplicate deals) on 1 and 2 threads.
fn arena(c: &mut Criterion) {
    let mut g = c.benchmark_group("arena_4p_random");
    g.sample_size(10);
    for threads in [1, 2] {
        let mut cfg = ArenaConfig::new(Variant::FourPlayer, &["random", "random"], 2_000, 1);
        cfg.threads = threads;
        let decisions = run_arena(&cfg, &BotRegistry::new(), &|| {})
            .unwrap()
            .summary
            .decisions;
        g.throughput(Throughput::Elements(decisions));
        g.bench_function(BenchmarkId::new("threads", threads), |b| {
            b.iter(|| {
                black_box(
                    run_arena(&cfg, &BotRegistry::new(), &|| {})
                        .unwrap()
                        .summary
                        .decisions,
                )
            })
        });
    }
    g.finish();
}

// The yardstick of the VectorEnv's own cost, shared with `_core.bench_step_parts`.
use yokai_septet_vector::yardstick::yardstick_pass;

/// Thread counts to measure: `YS_BENCH_THREADS` (comma-separated, e.g. `1,2,4,8,16` on a
/// 16-core machine), default `1,2`.
fn bench_threads() -> Vec<usize> {
    std::env::var("YS_BENCH_THREADS")
        .unwrap_or_else(|_| "1,2".into())
        .split(',')
        .map(|t| {
            t.trim()
                .parse()
                .expect("YS_BENCH_THREADS: comma-separated thread counts")
        })
        .collect()
}

/// The VectorEnv stepping core (self-play, random legal actions picked in Rust, checked in
/// parallel, auto-reset) for N envs on each thread count of [`bench_threads`], both
/// observation dtypes; and, in the same group, its yardstick `parts`: the same work done
/// by hand on one thread for 1024 games (random legal action, `apply`, a new game when one
/// ends, encode the mover's observation, write its mask). Elements = decisions, so the
/// ratio of the two per-element times is the VectorEnv's own cost per env-step.
fn vector_env(c: &mut Criterion) {
    fn bench<T: ObsValue + Elem>(c: &mut Criterion, dtype: &str) {
        let mut g = c.benchmark_group(format!("vector_env_4p_{dtype}"));
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [1024, 16384] {
            for &threads in &bench_threads() {
                let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
                let mut core = VecCore::new(shared, n, &["random"; 4], threads).unwrap();
                let mut bufs = Outputs::<_, T>::owned(&core.layout(Extras::default()));
                core.reset(None, bufs.as_slices());
                let mut actions = vec![0i64; n];
                g.throughput(Throughput::Elements(n as u64));
                g.bench_function(BenchmarkId::new(format!("n{n}_threads"), threads), |b| {
                    b.iter(|| {
                        for (a, slot) in actions.iter_mut().zip(core.slots()) {
                            *a = random_action(slot.state(), &mut rng).id() as i64;
                        }
                        core.step(&actions, bufs.as_slices()).unwrap();
                    })
                });
            }
        }
        let n = 1024;
        let v = Variant::FourPlayer;
        let mut games: Vec<State> = (0..n as u64)
            .map(|s| State::new(GameConfig::new(v, s)))
            .collect();
        let mut obs = vec![T::ZERO; n * observation_size(v)];
        let mut mask = vec![false; n * GameConfig::new(v, 0).num_actions()];
        let mut next_seed = n as u64;
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("parts_n1024", 1), |b| {
            b.iter(|| {
                yardstick_pass(
                    &mut games,
                    &mut obs,
                    &mut mask,
                    || rng.next_u32(),
                    &mut next_seed,
                )
            })
        });
        g.finish();
    }
    bench::<u8>(c, "u8");
    bench::<f32>(c, "f32");
}

criterion_group!(benches, random_games, per_call, arena, vector_env);
criterion_main!(benches);
