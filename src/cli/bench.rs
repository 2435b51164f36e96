//! `yokai-septet bench`: random playouts on one thread, decisions per second per variant.

use std::io::Write;

use crate::arena::random_playouts;
use crate::{State, Variant};

use super::Failure;

/// Measures each variant for `seconds` and prints one line per variant.
pub fn bench(variants: &[Variant], seconds: f64, out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "random playouts, 1 thread, {seconds} s per variant (state: {} bytes)",
        std::mem::size_of::<State>()
    )?;
    for &v in variants {
        let r = random_playouts(v, seconds, 1);
        writeln!(
            out,
            "{:>10}: {:>12.0} decisions/s  ({} games, {:.1} µs/game)",
            v.name(),
            r.decisions as f64 / r.seconds,
            r.games,
            r.seconds * 1e6 / r.games as f64
        )?;
        out.flush()?;
    }
    Ok(())
}
