//! `yokai-septet bench`: random playouts on one thread, decisions per second per variant.
//!
//! Each rate is given twice: per second of wall-clock time, and per second of the thread's
//! CPU time. On a busy machine the thread waits for a core and the first falls; the second
//! is the engine's own speed.

use std::io::Write;

use yokai_septet::{State, Variant};
use yokai_septet_bots::arena::random_playouts;

use super::Failure;

/// Measures each variant for `seconds` and prints one line per variant.
pub fn bench(variants: &[Variant], seconds: f64, out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "random playouts, 1 thread, {seconds} s per variant (state: {} bytes); \
         rates per second of wall-clock time and of CPU time",
        std::mem::size_of::<State>()
    )?;
    for &v in variants {
        // The playouts run on this thread.
        let cpu_before = cpu_time::ThreadTime::try_now().ok();
        let r = random_playouts(v, seconds, 1);
        let cpu = cpu_before
            .and_then(|t| t.try_elapsed().ok())
            .map(|d| d.as_secs_f64())
            .filter(|&c| c > 0.0);
        let cpu_rate = match cpu {
            Some(c) => format!("{:>12.0} decisions/s CPU", r.decisions as f64 / c),
            None => "CPU time unknown here".to_string(),
        };
        writeln!(
            out,
            "{:>10}: {:>12.0} decisions/s wall  {cpu_rate}  ({} games, {:.1} µs/game wall)",
            v.name(),
            r.decisions as f64 / r.seconds,
            r.games,
            r.seconds * 1e6 / r.games as f64
        )?;
        out.flush()?;
    }
    Ok(())
}
