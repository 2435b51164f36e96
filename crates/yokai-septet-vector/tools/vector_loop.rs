//! The VectorEnv's stepping core in a training-shaped loop, without Python: between two
//! steps the calling thread busy-works for `--pause-us` microseconds (a stand-in for a
//! policy's forward pass, which keeps that core busy as Python does), then steps every env
//! with random legal actions. Prints, per thread count, the median over timing windows of
//! the step-only rate (time inside `VecCore::step`) and of the whole loop's.
//!
//! `cargo run --release -p yokai-septet-vector --example vector_loop -- [--envs 1024] [--threads 1,2]
//! [--pause-us 0,2000] [--seconds 2] [--windows 10] [--rounds 2] [--spin-us 5000]
//! [--pick mask|state]`
//!
//! Thread counts are interleaved round by round, so slow minutes on a shared machine
//! touch every column alike. `--pick mask` (the default) draws each env's action from its
//! mask row, as a Python policy reads the returned arrays; `--pick state` from the game
//! itself (which pulls every env's game into the calling thread's cache).
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use yokai_septet::{GameConfig, Variant};
use yokai_septet_vector::{Extras, Outputs, Shared, Spin, VecCore};

struct Args {
    envs: Vec<usize>,
    threads: Vec<usize>,
    pauses: Vec<u64>,
    seconds: f64,
    windows: usize,
    rounds: usize,
    spin_us: Option<u64>,
    pick_state: bool,
}

fn list<T: std::str::FromStr>(s: &str) -> Vec<T> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .ok()
                .expect("a comma-separated list of numbers")
        })
        .collect()
}

fn args() -> Args {
    let mut a = Args {
        envs: vec![1024],
        threads: vec![1, 2],
        pauses: vec![0, 2000],
        seconds: 2.0,
        windows: 10,
        rounds: 2,
        spin_us: None,
        pick_state: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let v = it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--envs" => a.envs = list(&v),
            "--threads" => a.threads = list(&v),
            "--pause-us" => a.pauses = list(&v),
            "--seconds" => a.seconds = v.parse().expect("seconds"),
            "--windows" => a.windows = v.parse().expect("windows"),
            "--rounds" => a.rounds = v.parse().expect("rounds"),
            "--spin-us" => a.spin_us = Some(v.parse().expect("spin-us")),
            "--pick" => a.pick_state = v == "state",
            _ => panic!("unknown option {k}"),
        }
    }
    a
}

/// Busy-works on this thread for `d` (as a policy's forward pass keeps its core busy).
fn busy(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// (step-only, whole-loop) env-steps per second: medians over the windows.
fn measure(n: usize, threads: usize, pause: Duration, a: &Args) -> (f64, f64) {
    let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
    let mut core = VecCore::new(shared, n, &["random"; 4], threads).unwrap();
    if let Some(us) = a.spin_us {
        core.set_spin(Spin::Fixed(Duration::from_micros(us)));
    }
    let mut bufs = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
    core.reset(None, bufs.as_slices());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut actions = vec![0i64; n];
    let from_mask = !a.pick_state;
    let width = bufs.mask.len() / n;
    let mut pick = |core: &VecCore, mask: &[bool], actions: &mut [i64]| {
        if from_mask {
            for (a, m) in actions.iter_mut().zip(mask.chunks_exact(width)) {
                let k = m.iter().filter(|&&b| b).count() as u64;
                let mut j = (rng.next_u32() as u64 * k) >> 32;
                for (i, &b) in m.iter().enumerate() {
                    if b {
                        if j == 0 {
                            *a = i as i64;
                            break;
                        }
                        j -= 1;
                    }
                }
            }
            return;
        }
        for (a, slot) in actions.iter_mut().zip(core.slots()) {
            let legal = slot.state().legal_actions();
            *a = legal.pick(rng.next_u32()).unwrap().id() as i64;
        }
    };
    for _ in 0..5 {
        pick(&core, &bufs.mask, &mut actions);
        core.step(&actions, bufs.as_slices()).unwrap();
    }

    let window = Duration::from_secs_f64(a.seconds / a.windows as f64);
    let (mut step_rates, mut loop_rates) = (Vec::new(), Vec::new());
    for _ in 0..a.windows {
        let (mut calls, mut in_step) = (0u64, Duration::ZERO);
        let t0 = Instant::now();
        loop {
            busy(pause);
            pick(&core, &bufs.mask, &mut actions);
            let s = Instant::now();
            core.step(&actions, bufs.as_slices()).unwrap();
            in_step += s.elapsed();
            calls += 1;
            if t0.elapsed() >= window {
                break;
            }
        }
        let steps = (calls * n as u64) as f64;
        TOTAL.fetch_add(calls * n as u64, std::sync::atomic::Ordering::Relaxed);
        step_rates.push(steps / in_step.as_secs_f64());
        loop_rates.push(steps / t0.elapsed().as_secs_f64());
    }
    (median(step_rates), median(loop_rates))
}

static TOTAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn main() {
    let a = args();
    println!(
        "4p self-play, uint8, random legal actions; median of {} windows of {:.2} s",
        a.windows,
        a.seconds / a.windows as f64
    );
    println!("| N | pause (µs) | threads | round | step-only M/s | whole loop M/s |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for &n in &a.envs {
        for &p in &a.pauses {
            for round in 0..a.rounds {
                for &t in &a.threads {
                    let (s, l) = measure(n, t, Duration::from_micros(p), &a);
                    println!(
                        "| {n} | {p} | {t} | {round} | {:.2} | {:.2} |",
                        s / 1e6,
                        l / 1e6
                    );
                }
            }
        }
    }
    eprintln!("STEPS {}", TOTAL.load(std::sync::atomic::Ordering::Relaxed));
}
