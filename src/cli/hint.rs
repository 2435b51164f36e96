//! `hint` in `play`: what the strongest built-in bot would do, and why.
//!
//! In the play phase it runs `pimc-dd` at its default budget (a fixed seed, so the same
//! position always gets the same hint) and shows its card and its mean value of the best
//! few cards (exact solver values near the end of the round, playout values before); while passing it shows the heuristic's pick (`pimc-dd` passes as
//! the heuristic does). Typically a few tens of milliseconds.

use std::io::Write;

use crate::bots::{HeuristicBot, PimcDdBot, PimcDdConfig};
use crate::config::Variant;
use crate::state::Phase;
use crate::view::SeatView;

use super::Failure;

/// The help line of the `hint` command.
pub const HINT_HELP: &str =
    "`hint`: the strongest bot's choice (pimc-dd) and its evaluation of your best cards.";

/// Seed of the hint's world sampling.
const HINT_SEED: u64 = 0x4849_4E54;

/// What the values mean, per variant (the solver's objective).
fn value_meaning(v: Variant) -> &'static str {
    match v {
        Variant::FourPlayer => "value: 2 x (our round points - theirs), +1 round won, -1 lost",
        Variant::ThreePlayer => {
            "value: 2 x (your points - best other's), +1 won, -1 lost (both others vs you)"
        }
        Variant::Seal | Variant::SealShort => {
            "value: our seals this round - theirs; +100 game won, -100 game lost"
        }
    }
}

/// Writes the hint for `view` (its seat to act).
pub fn hint<W: Write + ?Sized>(view: &SeatView, out: &mut W) -> Result<(), Failure> {
    let preferred = HeuristicBot::choose(view);
    if view.phase() == Phase::Pass {
        writeln!(out, "Hint: pass {preferred} (the heuristic bot's pick).")?;
        return Ok(());
    }
    let mut bot = PimcDdBot::new(PimcDdConfig::default(), HINT_SEED);
    let Some(eval) = bot.evaluate(view) else {
        writeln!(out, "No hint: it is not your turn to play.")?;
        return Ok(());
    };
    let mut ranked = eval.values.clone();
    // Best first; among equal values the heuristic's card first (as pimc-dd breaks ties).
    ranked.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| (b.0 == preferred).cmp(&(a.0 == preferred)))
            .then_with(|| a.0.cmp(&b.0))
    });
    let (best, value) = ranked[0];
    let others: Vec<String> = ranked[1..]
        .iter()
        .take(3)
        .map(|(c, v)| format!("{c} {v:+.2}"))
        .collect();
    let how = if eval.exact {
        "solved deals"
    } else {
        "deals, playouts"
    };
    writeln!(
        out,
        "Hint (pimc-dd, {} {how}): play {best} ({value:+.2}).",
        eval.worlds
    )?;
    if !others.is_empty() {
        writeln!(out, "  next best: {}", others.join(", "))?;
    }
    let meaning = if eval.exact {
        value_meaning(view.variant())
    } else {
        "value: (our score - theirs) / target, +0.1 round won, +/-1 game won/lost"
    };
    writeln!(out, "  {meaning}")?;
    Ok(())
}
