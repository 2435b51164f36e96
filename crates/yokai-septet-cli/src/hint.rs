//! `hint` in `play`: what the strongest built-in bot would do, and why.
//!
//! In the play phase it runs `ismcts` at its default budget: of the bots that answer in
//! well under 200 ms, the strongest in the measured duplicate matches (`docs/search.md`,
//! also against `pimc-dd` with its solver hand-over measured by node budget); a fixed
//! seed, so the same position always gets the same hint) and shows its card and the mean playout value of it and of the next
//! best few cards; while passing it shows the heuristic's pick (`ismcts` passes as the
//! heuristic does). About one `ismcts` decision: milliseconds. `hint BOT` asks another
//! bot by name (`hint ismcts-nn`, `hint pimc:500`). The search itself is
//! [`yokai_septet_bots::hint`], which the web page asks too. Near a round's end it also shows
//! every card's double-dummy value to the round's end, where the solver can give it.

use std::io::Write;

use yokai_septet::SeatView;
use yokai_septet_bots::hint::hint as ask;
use yokai_septet_bots::{bot_spec, decision_threads, BotRegistry};

use super::Failure;

pub use yokai_septet_bots::hint::HINT_BOT;

/// The help line of the `hint` command.
pub const HINT_HELP: &str = "`hint`: in play, the strongest bot's choice (ismcts) and its \
     evaluation of your best cards; while passing, the heuristic bot's pick (ismcts passes as \
     it does); `hint BOT` asks another bot (`hint ismcts-nn`).";

/// Writes the hint of the bot called `name` for `view` (its seat to act).
pub fn hint<W: Write + ?Sized>(view: &SeatView, name: &str, out: &mut W) -> Result<(), Failure> {
    // The hint's search may use the cores (`ismcts` → `ismcts:5000:tT`).
    let h = match bot_spec(name).and_then(|spec| {
        ask(
            view,
            &spec.with_threads(decision_threads()),
            &BotRegistry::new(),
        )
    }) {
        Ok(h) => h,
        Err(e) => {
            writeln!(out, "No hint: {e}")?;
            return Ok(());
        }
    };
    if h.worlds == 0 && h.values.is_empty() {
        if h.bot == "heuristic" && view.phase() == yokai_septet::Phase::Pass {
            writeln!(out, "Hint: pass {} (the heuristic bot's pick).", h.card)?;
        } else {
            writeln!(out, "Hint ({name}): play {}.", h.card)?;
        }
        return double_dummy(view, &h.double_dummy, out);
    }
    // The page's scale: round points, the search's value times the target (the seal
    // variants have none: their values stay the search's).
    let config = view.config();
    let target = (!view.variant().is_seal()).then(|| f64::from(config.scoring.target()));
    let points = |v: f64| target.map_or(v, |t| v * t);
    let value_of = |card| {
        h.values
            .iter()
            .find(|(c, _)| *c == card)
            .map_or(f64::NAN, |v| points(v.1))
    };
    let mut others: Vec<(yokai_septet::Card, f64)> = h
        .values
        .iter()
        .map(|&(c, v)| (c, points(v)))
        .filter(|(c, v)| *c != h.card && !v.is_nan())
        .collect();
    others.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let others: Vec<String> = others
        .iter()
        .take(3)
        .map(|(c, v)| format!("{c} {v:+.2}"))
        .collect();
    writeln!(
        out,
        "Hint ({name}, {} searches): play {} ({:+.2}).",
        h.worlds,
        h.card,
        value_of(h.card)
    )?;
    if !others.is_empty() {
        writeln!(out, "  next best: {}", others.join(", "))?;
    }
    match target {
        Some(t) => writeln!(
            out,
            "  value in round points: our score - theirs, {:+.1} round won, +/-{t:.0} game \
             won/lost",
            0.1 * t
        )?,
        None => writeln!(
            out,
            "  value: (our score - theirs) / target, +0.1 round won, +/-1 game won/lost"
        )?,
    }
    double_dummy(view, &h.double_dummy, out)
}

/// The hint's double-dummy values (none where a whole-round solve does not fit), best
/// first.
fn double_dummy<W: Write + ?Sized>(
    view: &SeatView,
    values: &[(yokai_septet::Card, f64)],
    out: &mut W,
) -> Result<(), Failure> {
    if values.is_empty() {
        return Ok(());
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let cards: Vec<String> = sorted.iter().map(|(c, v)| format!("{c} {v:+.2}")).collect();
    writeln!(
        out,
        "  double-dummy to the round's end ({} worlds, every hand seen): {}",
        yokai_septet_bots::hint::HINT_DD_WORLDS,
        cards.join(", ")
    )?;
    writeln!(
        out,
        "  units: {}",
        yokai_septet_bots::analysis::units(view.variant())
    )?;
    Ok(())
}
