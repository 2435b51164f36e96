//! `yokai-septet bench`: random playouts on one thread, decisions per second per variant.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::bots::{bot_rng, uniform_card};
use crate::{GameConfig, State, Variant};

use super::Failure;

/// One variant's measurement.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub variant: Variant,
    pub games: u64,
    pub decisions: u64,
    pub seconds: f64,
}

impl BenchResult {
    pub fn decisions_per_second(&self) -> f64 {
        self.decisions as f64 / self.seconds
    }
}

/// Plays uniformly random whole games of `variant` (round cap 200, as the seal games can
/// run long) for about `seconds`, on this thread.
pub fn measure(variant: Variant, seconds: f64) -> BenchResult {
    let budget = Duration::from_secs_f64(seconds);
    let mut rng = bot_rng(1);
    let (mut games, mut decisions) = (0u64, 0u64);
    let t = Instant::now();
    while games == 0 || t.elapsed() < budget {
        let mut s = State::new(GameConfig::new(variant, games).with_max_rounds(Some(200)));
        while !s.is_over() {
            s.apply(uniform_card(&mut rng, s.legal_actions()))
                .expect("a legal action");
            decisions += 1;
        }
        games += 1;
    }
    BenchResult {
        variant,
        games,
        decisions,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// Measures each variant and prints one line per variant.
pub fn bench(variants: &[Variant], seconds: f64, out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "random playouts, 1 thread, {seconds} s per variant (state: {} bytes)",
        std::mem::size_of::<State>()
    )?;
    for &v in variants {
        let r = measure(v, seconds);
        writeln!(
            out,
            "{:>10}: {:>12.0} decisions/s  ({} games, {:.1} µs/game)",
            v.name(),
            r.decisions_per_second(),
            r.games,
            r.seconds * 1e6 / r.games as f64
        )?;
        out.flush()?;
    }
    Ok(())
}
