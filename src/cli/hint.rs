//! `hint` in `play`: what the strongest built-in bot would do, and why.
//!
//! In the play phase it runs `ismcts` at its default budget: of the bots that answer in
//! well under 200 ms, the strongest in the measured duplicate matches (`docs/search.md`,
//! also against `pimc-dd` with its solver hand-over measured by node budget); a fixed
//! seed, so the same position always gets the same hint) and shows its card and the mean playout value of it and of the next
//! best few cards; while passing it shows the heuristic's pick (`ismcts` passes as the
//! heuristic does). About one `ismcts` decision: milliseconds. `hint BOT` asks another
//! bot by name (`hint ismcts-nn`, `hint pimc:500`).

use std::io::Write;

use crate::bots::{Bot, BotRegistry, HeuristicBot};
use crate::infoset::view::SeatView;
use crate::rules::state::Phase;

use super::Failure;

/// The help line of the `hint` command.
pub const HINT_HELP: &str = "`hint`: the strongest bot's choice (ismcts) and its evaluation \
     of your best cards; `hint BOT` asks another bot (`hint ismcts-nn`).";

/// The bot `hint` asks when it is given none.
pub const HINT_BOT: &str = "ismcts";

/// Seed of the hint's search.
const HINT_SEED: u64 = 0x4849_4E54;

/// Writes the hint of the bot called `name` for `view` (its seat to act).
pub fn hint<W: Write + ?Sized>(view: &SeatView, name: &str, out: &mut W) -> Result<(), Failure> {
    let preferred = HeuristicBot::choose(view);
    if view.phase() == Phase::Pass {
        writeln!(out, "Hint: pass {preferred} (the heuristic bot's pick).")?;
        return Ok(());
    }
    let registry = BotRegistry::new();
    let variant = Some(view.variant());
    let Some(searcher) = registry.ismcts(name, HINT_SEED, variant) else {
        // A bot that is not a tree search: its card only.
        let card = registry
            .build(name, HINT_SEED, view.variant())
            .and_then(|mut bot| bot.act(view));
        match card {
            Ok(card) => writeln!(out, "Hint ({name}): play {card}.")?,
            Err(e) => writeln!(out, "No hint: {e}")?,
        }
        return Ok(());
    };
    let mut chooser = match searcher {
        Ok(bot) => bot,
        Err(e) => {
            writeln!(out, "No hint: {e}")?;
            return Ok(());
        }
    };
    // Two bots with one seed search alike: one chooses, the other reports its values.
    let mut bot = registry
        .ismcts(name, HINT_SEED, variant)
        .expect("the same name")
        .map_err(|e| Failure::runtime(e.to_string()))?;
    let choice = chooser
        .act(view)
        .map_err(|e| Failure::runtime(e.to_string()))?;
    let Some(eval) = bot.search_values(view) else {
        writeln!(out, "No hint: it is not your turn to play.")?;
        return Ok(());
    };
    let value_of = |card| {
        eval.values
            .iter()
            .find(|(c, _)| *c == card)
            .map_or(f64::NAN, |v| v.1)
    };
    let mut others: Vec<(crate::cards::Card, f64)> = eval
        .values
        .iter()
        .copied()
        .filter(|(c, v)| *c != choice && !v.is_nan())
        .collect();
    others.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let others: Vec<String> = others
        .iter()
        .take(3)
        .map(|(c, v)| format!("{c} {v:+.2}"))
        .collect();
    writeln!(
        out,
        "Hint ({name}, {} searches): play {choice} ({:+.2}).",
        eval.worlds,
        value_of(choice)
    )?;
    if !others.is_empty() {
        writeln!(out, "  next best: {}", others.join(", "))?;
    }
    writeln!(
        out,
        "  value: (our score - theirs) / target, +0.1 round won, +/-1 game won/lost"
    )?;
    Ok(())
}
