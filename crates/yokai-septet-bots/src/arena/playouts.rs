//! The engine's raw speed: plain random playouts on one thread (`yokai-septet bench`).

use std::time::Instant;

use serde::Serialize;

use yokai_septet::State;
use yokai_septet::{GameConfig, Variant};

/// Throughput of plain random playouts (see [`random_playouts`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Decisions made.
    pub decisions: u64,
    /// Wall-clock seconds taken (one thread).
    pub seconds: f64,
}

/// Plays random games of `variant` (uniform legal moves, a 200-round cap, dealing
/// included) on this thread until `min_seconds` have passed: the engine's raw speed, as
/// `examples/random_rollouts.rs` measures it. The deals are the seeded ChaCha8 ones; the
/// moves come from PCG (`Pcg64Mcg`, seeded with `seed`), as the policy's randomness is
/// not part of the reproducible deal and ChaCha8 would cost a tenth of each step.
pub fn random_playouts(variant: Variant, min_seconds: f64, seed: u64) -> PlayoutStats {
    // Compiled per CPU level, so that picking a random legal card (`popcnt`, `pdep`)
    // inlines into the loop.
    yokai_septet::simd::dispatch(
        yokai_septet::simd::Cpu::detect(),
        Playouts {
            variant,
            min_seconds,
            seed,
        },
    )
}

struct Playouts {
    variant: Variant,
    min_seconds: f64,
    seed: u64,
}

impl yokai_septet::simd::Kernel for Playouts {
    type Output = PlayoutStats;

    #[inline(always)]
    fn run(self, _: yokai_septet::simd::Cpu) -> PlayoutStats {
        random_playouts_any(self.variant, self.min_seconds, self.seed)
    }
}

#[inline(always)]
fn random_playouts_any(variant: Variant, min_seconds: f64, seed: u64) -> PlayoutStats {
    use rand_core::RngCore;
    let mut rng = yokai_septet::rng::playout_rng(seed);
    let start = Instant::now();
    let mut stats = PlayoutStats {
        games: 0,
        decisions: 0,
        seconds: 0.0,
    };
    while stats.games == 0 || start.elapsed().as_secs_f64() < min_seconds {
        let cfg =
            GameConfig::new(variant, seed.wrapping_add(stats.games)).with_max_rounds(Some(200));
        let mut s = State::new(cfg);
        while !s.is_over() {
            let legal = s.legal_actions();
            s.apply(legal.pick(rng.next_u32()).expect("a legal action"))
                .expect("legal");
            stats.decisions += 1;
        }
        stats.games += 1;
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats
}
