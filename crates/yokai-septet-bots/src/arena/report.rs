//! An arena's report: the summary computed from counts alone, and its table.

use std::fmt;

use serde::Serialize;

use super::boards::{equivalent_games, margin_scale, PairedMean, SequentialSummary, SHARE_UNIT};
use super::counts::ArenaCounts;
use super::stats::{elo_of_ratio, wilson95};
use super::{base_seats, ArenaConfig, ArenaError};

/// One line-up entry's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntrySummary {
    /// The bot's name, as in the line-up.
    pub bot: String,
    /// Seats it occupies in each game.
    pub seats: u32,
    /// Games some seat of it won.
    pub wins: u64,
    /// Games that ended without a winner (round cap).
    pub draws: u64,
    /// (wins + draws/2) / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub ci95: [f64; 2],
    /// Mean final score of its seats (points; seal variants: suits sealed).
    pub points_per_game: f64,
    /// Elo difference to the rest of the line-up, from per-seat win rates.
    pub elo: f64,
    /// Its win share per board (the games of one deal; a win shared by several winning
    /// seats is split between them), with the paired interval from the spread of the
    /// boards. With teams its mean is `win_rate`.
    pub board_win_rate: PairedMean,
    /// Its points margin per game over the rest of the table (its seats' mean points
    /// minus the others'), averaged per board, with the paired interval.
    pub board_margin: PairedMean,
    /// How many unpaired games a Wilson interval would need to be as narrow as the
    /// paired one (`None` before two boards).
    pub unpaired_games_for_same_width: Option<f64>,
}

/// Results that depend only on the configuration (identical at any thread count).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaSummary {
    /// The variant's name.
    pub variant: String,
    /// Games played.
    pub games: u64,
    /// One summary per line-up entry.
    pub entries: Vec<EntrySummary>,
    /// Mean rounds per game.
    pub rounds_per_game: f64,
    /// Games stopped by the round cap (R10).
    pub truncated: u64,
    /// Decisions made by all bots.
    pub decisions: u64,
    /// Boards counted (deals played in every seating; single games without duplicate
    /// deals).
    pub boards: u64,
    /// Games per board.
    pub board_size: u64,
    /// Whether each game was a single round ([`ArenaConfig::rounds`]).
    pub rounds: bool,
    /// The sequential stop's verdict, where the arena had one.
    pub sequential: Option<SequentialSummary>,
}

/// Wall-clock figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// Decisions per wall-clock second, all threads together.
    pub decisions_per_second: f64,
    /// Mean time per decision of each entry's bots, in milliseconds (one core each).
    pub ms_per_decision: Vec<f64>,
    /// The slowest single decision of each entry's bots, in milliseconds.
    pub max_ms_per_decision: Vec<f64>,
}

/// An arena's result: its configuration, the summary and the timing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaReport {
    /// What was played.
    pub config: ArenaConfig,
    /// The results (the same at any thread count).
    pub summary: ArenaSummary,
    /// How long it took.
    pub timing: Timing,
}

/// The report of an arena from the counts of all its games (merged from slices or not):
/// win rates, Wilson intervals, Elo and points per game are computed from the counts alone.
/// `seconds` and `threads` only feed [`Timing`]. An error if the counts do not cover
/// exactly the games `0..config.total_games()` of this line-up.
pub fn summarize(
    config: &ArenaConfig,
    counts: &ArenaCounts,
    seconds: f64,
    threads: usize,
) -> Result<ArenaReport, ArenaError> {
    if !counts.is_complete(config) {
        return Err(ArenaError::Range(format!(
            "counts cover games {:?} ({} games) of {} entries, not 0..{} of {}",
            counts.ranges,
            counts.games,
            counts.wins.len(),
            config.total_games(),
            config.bots.len()
        )));
    }
    let n = config.variant.num_players();
    let l = config.bots.len();
    let games = counts.games;
    let base = base_seats(config)?;
    let seats: Vec<u32> = (0..l)
        .map(|e| base[..n].iter().filter(|&&x| x == e).count() as u32)
        .collect();
    let wins = &counts.wins;
    let draws = counts.draws;
    let g = games.max(1) as f64;
    let rate: Vec<f64> = (0..l)
        .map(|e| (wins[e] as f64 + 0.5 * draws as f64) / g)
        .collect();
    // Per-seat rates, smoothed so that a clean sweep has a finite Elo.
    let per_seat: Vec<f64> = (0..l)
        .map(|e| (rate[e] * g + 0.5) / (g + 1.0) / seats[e] as f64)
        .collect();
    let size = config.board_size();
    let b = &counts.boards;
    let entries = (0..l)
        .map(|e| {
            let unit = (SHARE_UNIT * size) as f64;
            let mut board_win_rate = PairedMean::from_sums(
                b.boards,
                b.share[e] as f64 / unit,
                b.share_sq[e] as f64 / (unit * unit),
            );
            let unpaired = equivalent_games(board_win_rate.mean, &board_win_rate);
            // A share lies in [0, 1], and so does its mean.
            board_win_rate.ci95 = board_win_rate.ci95.map(|x| x.clamp(0.0, 1.0));
            let scale = (margin_scale(seats[e], n as u32) as u64 * size) as f64;
            let board_margin = if scale == 0.0 {
                PairedMean::from_sums(b.boards, 0.0, 0.0)
            } else {
                PairedMean::from_sums(
                    b.boards,
                    b.margin[e] as f64 / scale,
                    b.margin_sq[e] as f64 / (scale * scale),
                )
            };
            let others: Vec<f64> = (0..l).filter(|&o| o != e).map(|o| per_seat[o]).collect();
            let elo = if others.is_empty() {
                0.0
            } else {
                let mean = others.iter().sum::<f64>() / others.len() as f64;
                elo_of_ratio(per_seat[e], mean)
            };
            EntrySummary {
                bot: config.bots[e].clone(),
                seats: seats[e],
                wins: wins[e],
                draws,
                win_rate: rate[e],
                ci95: wilson95(rate[e], g),
                points_per_game: counts.points[e] as f64 / seats[e] as f64 / g,
                elo,
                unpaired_games_for_same_width: unpaired,
                board_win_rate,
                board_margin,
            }
        })
        .collect();
    let decisions = &counts.decisions;
    let all_decisions: u64 = decisions.iter().sum();
    Ok(ArenaReport {
        config: config.clone(),
        summary: ArenaSummary {
            variant: config.variant.name().to_string(),
            games,
            entries,
            rounds_per_game: counts.rounds as f64 / g,
            truncated: counts.truncated,
            decisions: all_decisions,
            boards: counts.boards.boards,
            board_size: size,
            rounds: config.rounds,
            sequential: None,
        },
        timing: Timing {
            seconds,
            threads,
            decisions_per_second: all_decisions as f64 / seconds.max(1e-9),
            ms_per_decision: (0..l)
                .map(|e| counts.act_nanos[e] as f64 / 1e6 / decisions[e].max(1) as f64)
                .collect(),
            max_ms_per_decision: counts
                .act_max_nanos
                .iter()
                .map(|&x| x as f64 / 1e6)
                .collect(),
        },
    })
}

impl ArenaSummary {
    /// Whether most games ended without a winner (cut by the round cap): such a table
    /// measures the cap, not the bots, and is not to be ranked.
    pub fn mostly_draws(&self) -> bool {
        let draws = self.entries.first().map_or(0, |e| e.draws);
        2 * draws > self.games
    }

    /// Whether the round cap decides the result: most games are draws, or the games it
    /// cut could, played out, reorder the line-up by wins (each such game would have gone
    /// to some entry, so an entry's wins could grow by up to the draws).
    pub fn truncation_decides(&self) -> bool {
        if self.truncated == 0 {
            return false;
        }
        let draws = self.entries.first().map_or(0, |e| e.draws);
        let mut wins: Vec<u64> = self.entries.iter().map(|e| e.wins).collect();
        wins.sort_unstable_by(|a, b| b.cmp(a));
        self.mostly_draws() || (wins.len() >= 2 && wins[0] <= wins[1] + draws)
    }

    /// What to tell people when the round cap (`max_rounds`) decides the result
    /// ([`ArenaSummary::truncation_decides`]); `None` when it does not.
    pub fn truncation_warning(&self, max_rounds: Option<u32>) -> Option<String> {
        if !self.truncation_decides() {
            return None;
        }
        let cap = max_rounds.map_or("the round cap".to_string(), |k| {
            format!("the round cap ({k} round{})", if k == 1 { "" } else { "s" })
        });
        let verdict = if self.mostly_draws() {
            "most games are draws, so these rates measure the cap, not the bots: not ranked"
        } else {
            "played out, they could change who comes first"
        };
        Some(format!(
            "{} of {} games were cut by {cap} and count as draws; {verdict}. Raise the \
             round cap to measure the bots.",
            self.truncated, self.games
        ))
    }
}

impl fmt::Display for ArenaReport {
    /// A summary table for people (the timing line only where the run was timed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        if s.rounds {
            writeln!(
                f,
                "{} single rounds of {} ({} duplicate), from fresh deals",
                s.games,
                s.variant,
                if self.config.duplicate { "with" } else { "no" },
            )?;
        } else {
            writeln!(
                f,
                "{} games of {} ({} duplicate), {:.2} rounds/game, {} truncated",
                s.games,
                s.variant,
                if self.config.duplicate { "with" } else { "no" },
                s.rounds_per_game,
                s.truncated
            )?;
        }
        if let Some(w) = s.truncation_warning(self.config.max_rounds) {
            writeln!(f, "WARNING: {w}")?;
        }
        writeln!(
            f,
            "{:<16} {:>5} {:>8} {:>8} {:>17} {:>8} {:>8} {:>9} {:>9}",
            "bot", "seats", "wins", "win%", "95% CI", "pts/game", "Elo", "time/dec", "max"
        )?;
        for (e, en) in s.entries.iter().enumerate() {
            writeln!(
                f,
                "{:<16} {:>5} {:>8} {:>7.2}% {:>7.2}%..{:>6.2}% {:>8.2} {:>+8.0} {:>9} {:>9}",
                en.bot,
                en.seats,
                en.wins,
                100.0 * en.win_rate,
                100.0 * en.ci95[0],
                100.0 * en.ci95[1],
                en.points_per_game,
                en.elo,
                short_duration(self.timing.ms_per_decision[e] / 1e3),
                short_duration(self.timing.max_ms_per_decision[e] / 1e3)
            )?;
        }
        self.fmt_boards(f)?;
        let t = &self.timing;
        if t.seconds <= 0.0 {
            // Merged counts (a distributed arena) carry no wall-clock time.
            return write!(f, "{} games, {} decisions", s.games, s.decisions);
        }
        write!(
            f,
            "{} games, {} decisions in {:.2} s on {} thread{}: {}, {}",
            s.games,
            s.decisions,
            t.seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" },
            rate_text(s.games as f64, t.seconds, "game"),
            rate_text(s.decisions as f64, t.seconds, "decision")
        )
    }
}

impl ArenaReport {
    /// The board table: each entry's board win share and margin with their paired
    /// intervals, and the sequential stop's verdict.
    fn fmt_boards(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let game = if s.rounds { "round" } else { "game" };
        writeln!(
            f,
            "{} board{} of {} {game}{} (paired 95% intervals over boards):",
            s.boards,
            if s.boards == 1 { "" } else { "s" },
            s.board_size,
            if s.board_size == 1 { "" } else { "s" },
        )?;
        writeln!(
            f,
            "{:<16} {:>8} {:>17} {:>11} {:>17} {:>14}",
            "bot",
            "win%",
            "paired 95% CI",
            format!("margin/{game}"),
            "paired 95% CI",
            "worth unpaired"
        )?;
        for en in &s.entries {
            let w = &en.board_win_rate;
            let m = &en.board_margin;
            let worth = match en.unpaired_games_for_same_width {
                Some(x) if x.is_finite() => format!("{:.0} {game}s", x),
                Some(_) => "∞".to_string(),
                None => "–".to_string(),
            };
            writeln!(
                f,
                "{:<16} {:>7.2}% {:>17} {:>+11.2} {:>17} {:>14}",
                en.bot,
                100.0 * w.mean,
                interval_text(w.ci95, 100.0, "%"),
                m.mean,
                interval_text(m.ci95, 1.0, ""),
                worth
            )?;
        }
        if let Some(q) = &s.sequential {
            let first = &s.entries[0].bot;
            let range = format!(
                "{:.1}%..{:.1}%",
                100.0 * q.interval[0],
                100.0 * q.interval[1]
            );
            let budget = q.budget;
            if q.decided {
                writeln!(
                    f,
                    "sequential stop ({:.0}% error rate): stopped after {} of {budget} boards, \
                     {first}'s board win share {range} excludes its fair share {:.1}%",
                    100.0 * q.error_rate,
                    q.boards,
                    100.0 * q.fair_share
                )?;
            } else {
                writeln!(
                    f,
                    "sequential stop ({:.0}% error rate): budget of {budget} boards spent, \
                     {first}'s board win share {range} still holds its fair share {:.1}%",
                    100.0 * q.error_rate,
                    100.0 * q.fair_share
                )?;
            }
        }
        Ok(())
    }
}

/// An interval for people, `lo..hi` scaled by `factor`, or `–` where there is none yet.
fn interval_text(ci: [f64; 2], factor: f64, unit: &str) -> String {
    if ci[0].is_finite() && ci[1].is_finite() {
        if unit.is_empty() {
            format!("{:+.2}..{:+.2}", ci[0] * factor, ci[1] * factor)
        } else {
            format!("{:.2}{unit}..{:.2}{unit}", ci[0] * factor, ci[1] * factor)
        }
    } else {
        "–".to_string()
    }
}

/// `count` things (`unit`, singular) done in `seconds`, as a rate for people:
/// `1234 games/s`, `2.5 games/s`, or below one per second `4.2 s/game`, so that a slow
/// bot's arena never reads `0 games/s`.
pub fn rate_text(count: f64, seconds: f64, unit: &str) -> String {
    let per_second = count / seconds.max(1e-9);
    if per_second >= 10.0 {
        format!("{per_second:.0} {unit}s/s")
    } else if per_second >= 1.0 {
        format!("{per_second:.1} {unit}s/s")
    } else if count > 0.0 {
        format!("{:.1} s/{unit}", seconds / count)
    } else {
        format!("0 {unit}s")
    }
}

/// A short duration for people, with two significant digits in the unit that fits
/// (`48 ns`, `3.1 µs`, `12 ms`, `1.5 s`): the fast bots' decisions take well under a
/// millisecond, and a fixed `ms` with two decimals showed them as `0.00 ms`.
pub fn short_duration(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else if seconds >= 1e-6 {
        (seconds * 1e6, "µs")
    } else {
        (seconds * 1e9, "ns")
    };
    if value >= 10.0 {
        format!("{value:.0} {unit}")
    } else {
        format!("{value:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::{rate_text, short_duration};

    #[test]
    fn rates_below_one_per_second_read_as_seconds_per_thing() {
        assert_eq!(rate_text(5000.0, 2.0, "game"), "2500 games/s");
        assert_eq!(rate_text(5.0, 2.0, "game"), "2.5 games/s");
        assert_eq!(rate_text(3.0, 12.6, "game"), "4.2 s/game");
        assert_eq!(rate_text(0.0, 1.0, "game"), "0 games");
    }

    #[test]
    fn decision_times_keep_their_digits() {
        assert_eq!(short_duration(4.8e-8), "48 ns");
        assert_eq!(short_duration(3.14e-6), "3.1 µs");
        assert_eq!(short_duration(2.5e-5), "25 µs");
        assert_eq!(short_duration(0.0123), "12 ms");
        assert_eq!(short_duration(1.5), "1.5 s");
        assert_eq!(short_duration(0.0), "0.0 ns");
    }

    #[test]
    fn the_table_warns_when_the_round_cap_decides_the_result() {
        use crate::arena::{run_arena, ArenaConfig};
        use crate::BotRegistry;
        use yokai_septet::Variant;
        let mut c = ArenaConfig::new(Variant::FourPlayer, &["heuristic", "random"], 6, 2);
        c.max_rounds = Some(1);
        c.threads = 1;
        let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
        assert_eq!(r.summary.truncated, 6);
        assert!(r.summary.mostly_draws() && r.summary.truncation_decides());
        let w = r.summary.truncation_warning(c.max_rounds).unwrap();
        assert!(
            w.starts_with("6 of 6 games were cut by the round cap (1 round)"),
            "{w}"
        );
        assert!(w.contains("not ranked"), "{w}");
        let table = r.to_string();
        assert!(table.contains(&format!("WARNING: {w}")), "{table}");
        // Played out, nothing is cut and nothing is said.
        c.max_rounds = None;
        let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
        assert_eq!(r.summary.truncation_warning(None), None);
        assert!(!r.to_string().contains("WARNING"));
    }

    #[test]
    fn an_arena_of_no_games_is_refused() {
        use crate::arena::{check, ArenaConfig, ArenaError};
        use crate::BotRegistry;
        use yokai_septet::Variant;
        let c = ArenaConfig::new(Variant::FourPlayer, &["heuristic", "random"], 0, 2);
        let e = check(&c, &BotRegistry::new()).unwrap_err();
        assert!(matches!(e, ArenaError::Settings(_)), "{e}");
        assert!(e.to_string().contains("at least 1"), "{e}");
    }
}
