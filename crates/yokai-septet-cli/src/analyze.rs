//! `yokai-septet analyze FILE`: the double-dummy analysis of a game record
//! ([`yokai_septet_bots::analysis`]): every card play with the best cards and the cost of the choice,
//! per-seat totals; `--json` for machines, `--html OUT` for the replay viewer with the
//! costly plays marked.

use std::io::Write;
use std::path::Path;

use yokai_septet::Match;
use yokai_septet_bots::analysis::{analyze, units, Analysis, PlayAnalysis, Verdict};

use super::{progress, Failure, Style};

/// What `analyze` was asked for (options already checked).
pub struct AnalyzeOptions<'a> {
    /// Node budget per position.
    pub budget: u64,
    pub json: bool,
    pub html: Option<&'a Path>,
    pub style: Style,
}

/// Validates `json` (a record), analyses it and writes the report.
pub fn run(json: &str, o: &AnalyzeOptions, out: &mut dyn Write) -> Result<(), Failure> {
    let m = Match::from_json(json).map_err(|e| Failure::usage(e.to_string()))?;
    let bar = progress::bar("analyze", 0, "plays", !o.json);
    let a = analyze(&m, o.budget, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    if let Some(path) = o.html {
        let page = yokai_septet_picture::replay_html_analysed(&m, &a);
        std::fs::write(path, page)
            .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    if o.json {
        let text = serde_json::to_string_pretty(&a.to_value())
            .map_err(|e| Failure::runtime(e.to_string()))?;
        writeln!(out, "{text}")?;
    } else {
        report(&m, &a, o.style, out)?;
        if let Some(path) = o.html {
            writeln!(out, "wrote {}", path.display())?;
        }
    }
    Ok(())
}

/// Millions or thousands of nodes, for the eye.
fn nodes_text(n: u64) -> String {
    match n {
        n if n >= 10_000_000_000 => format!("{:.0}G", n as f64 / 1e9),
        n if n >= 1_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.0}k", n as f64 / 1e3),
        n => n.to_string(),
    }
}

fn play_line(p: &PlayAnalysis, style: Style) -> String {
    let head = format!(
        "  trick {:>2}.{} seat {} {}",
        p.trick + 1,
        p.index + 1,
        p.seat,
        style.card_w(p.card, 3)
    );
    match &p.verdict {
        Verdict::Forced => format!("{head}  forced"),
        // `~`: a sampled estimate, not the solver's exact value.
        Verdict::Estimated { best, chosen, .. } => scored_line(
            &head,
            p,
            style,
            [format!("~{chosen:+.1}"), format!("~{best:+.1}")],
            (best > chosen).then(|| format!("estimated cost {:.1}", best - chosen)),
        ),
        Verdict::Solved { best, chosen, .. } => scored_line(
            &head,
            p,
            style,
            [format!("{chosen:+}"), format!("{best:+}")],
            (best > chosen).then(|| format!("cost {}", best - chosen)),
        ),
    }
}

/// A scored play's line: the chosen card's value, then the best cards and the cost when
/// it gave value away.
fn scored_line(
    head: &str,
    p: &PlayAnalysis,
    style: Style,
    [chosen, best]: [String; 2],
    cost: Option<String>,
) -> String {
    match cost {
        None => format!("{head}  {chosen}  best"),
        Some(cost) => format!(
            "{head}  {chosen}  best {} {best}  {}",
            style.cards(p.best_cards()),
            style.bold(&cost)
        ),
    }
}

/// The shares of the card plays by status, as the JSON's `shares` gives them (people quote
/// an analysis by them): `Card plays: 48 · solved 41.7% · estimated 45.8% · forced 12.5%`.
fn shares_line(a: &Analysis) -> String {
    let s = a.shares();
    let mut line = format!("Card plays: {}", a.plays.len());
    for (k, x) in [
        ("solved", s.solved),
        ("estimated", s.estimated),
        ("forced", s.forced),
    ] {
        line.push_str(&format!(" · {k} {:.1}%", 100.0 * x));
    }
    line
}

fn report(m: &Match, a: &Analysis, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
    let rec = m.record();
    write!(out, "Yokai Septet {}", a.variant)?;
    if let Some(s) = a.scoring {
        write!(out, " ({s} scoring)")?;
    }
    writeln!(
        out,
        " · seed {} · double-dummy analysis, budget {} nodes per position",
        rec.seed,
        nodes_text(a.budget)
    )?;
    writeln!(
        out,
        "Values: the round's objective for the side to move, under best play with every \
         hand visible ({}). Cost: best value minus the chosen card's.",
        units(a.variant)
    )?;
    for r in 0..rec.rounds.len() {
        let plays: Vec<&PlayAnalysis> = a.plays.iter().filter(|p| p.round == r).collect();
        writeln!(out, "\n{}", style.bold(&format!("Round {r}")))?;
        let estimated: Vec<&&PlayAnalysis> = plays
            .iter()
            .filter(|p| matches!(p.verdict, Verdict::Estimated { .. }))
            .collect();
        if let (Some(first), Some(last)) = (estimated.first(), estimated.last()) {
            // The latest estimated play is the smallest: its forecast says how far off the
            // budget the round's start is.
            let (least, worlds) = match last.verdict {
                Verdict::Estimated {
                    forecast, worlds, ..
                } => (forecast, worlds),
                _ => (0, 0),
            };
            writeln!(
                out,
                "  {} estimated (tricks {} to {}, marked ~): exact solve forecast {} nodes \
                 or more, over the budget (raise it with --budget); sampled over {worlds} \
                 worlds drawn from what the mover knew, the heuristic finishing the round",
                yokai_septet::names::count(estimated.len(), "play"),
                first.trick + 1,
                last.trick + 1,
                nodes_text(least)
            )?;
        }
        for p in &plays {
            writeln!(out, "{}", play_line(p, style))?;
        }
    }
    writeln!(out, "\n{}", shares_line(a))?;
    writeln!(out, "\nPer seat: value given away in the solved decisions")?;
    for (seat, t) in a.seats.iter().enumerate() {
        writeln!(
            out,
            "  seat {seat}: cost {} in {} of {} solved ({} forced, {} estimated)",
            t.cost,
            yokai_septet::names::count(t.costly as usize, "costly play"),
            t.solved,
            t.forced,
            t.estimated
        )?;
    }
    Ok(())
}
