//! The ladder: round-robin duplicate arenas between bots, summarised as one Elo table.
//!
//! Every pair of bots plays one duplicate arena ([`run_arena`]: both seat rotations of
//! every deal; in `3p`, the first bot against two copies of the second, every rotation).
//! Each arena gives the pair's Elo difference ([`EntrySummary::elo`]) and a Wilson 95%
//! interval on the first bot's win rate ([`crate::arena::wilson95`]), turned into an Elo interval with
//! the same formula ([`elo_of_ratio`]). A round robin's ratings are the least-squares fit
//! of `r_i − r_j = d_ij` over all pairs, which for a complete round robin is simply
//! `r_i = mean_j d_ij` (the mean rating is 0); its interval combines the pairs' standard
//! errors (`half-width / 1.96`) the same way: `1.96·√(Σ_j se_ij²) / m`.

use std::fmt::Write as _;

use crate::arena::{check, elo_of_ratio, run_arena, ArenaConfig, ArenaError, EntrySummary};
use crate::bots::BotRegistry;

/// What to play: every pair of `arena.bots` plays an arena with this configuration
/// (`games` games per pair).
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The arenas' configuration; its `bots` are the ladder's entries.
    pub arena: ArenaConfig,
}

/// One pairing's result.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The first entry (index into the ladder's bots).
    pub a: usize,
    /// The second entry.
    pub b: usize,
    /// Games played.
    pub games: u64,
    /// `a`'s summary (win rate, interval, Elo against `b`).
    pub first: EntrySummary,
    /// Elo interval of `a` against `b`.
    pub elo95: [f64; 2],
    /// Mean milliseconds per decision of `a`'s and `b`'s bots.
    pub ms: [f64; 2],
}

/// One bot's line of the table.
#[derive(Clone, Debug)]
pub struct Rating {
    /// The bot's name.
    pub bot: String,
    /// Its Elo rating, fitted over all pairings.
    pub elo: f64,
    /// The Elo's 95% interval.
    pub elo95: [f64; 2],
    /// Mean over its pairings of its mean milliseconds per decision.
    pub ms_per_decision: f64,
}

/// A ladder's result: every pairing, then the ratings.
#[derive(Clone, Debug)]
pub struct LadderReport {
    /// What was played.
    pub config: LadderConfig,
    /// Each pair's result, in the order played.
    pub pairings: Vec<Pairing>,
    /// Best first.
    pub ratings: Vec<Rating>,
    /// Wall-clock seconds of the whole ladder.
    pub seconds: f64,
}

/// The Elo interval of a bot whose win rate over `games` had the Wilson interval `ci`,
/// with `seats` seats against the other entry's `other_seats` (the arena's smoothing,
/// so that a clean sweep stays finite).
fn elo_interval(ci: [f64; 2], games: u64, seats: u32, other_seats: u32) -> [f64; 2] {
    let g = games.max(1) as f64;
    let elo = |p: f64| {
        let mine = (p * g + 0.5) / (g + 1.0) / seats as f64;
        let theirs = ((1.0 - p) * g + 0.5) / (g + 1.0) / other_seats as f64;
        elo_of_ratio(mine, theirs)
    };
    [elo(ci[0]), elo(ci[1])]
}

/// What a ladder reports while it plays (every method does nothing by default; `()` is the
/// silent observer).
pub trait LadderProgress: Sync {
    /// Pairing `a` vs `b` starts: `games` games.
    fn pairing_started(&self, _a: &str, _b: &str, _games: u64) {}
    /// A game finished (called from the worker threads).
    fn game_done(&self) {}
    /// `done` of `total` pairings have been played.
    fn pairing_done(&self, _done: usize, _total: usize) {}
}

impl LadderProgress for () {}

impl LadderConfig {
    /// The number of pairings (every pair of bots once).
    pub fn pairings(&self) -> usize {
        let m = self.arena.bots.len();
        m * m.saturating_sub(1) / 2
    }

    /// Checks the line-up (at least two bots, every name known for the variant) without
    /// playing anything, so that a typo in the last name costs no games.
    pub fn check(&self, registry: &BotRegistry) -> Result<(), ArenaError> {
        if self.arena.bots.len() < 2 {
            return Err(ArenaError::Lineup(
                "a ladder needs at least two bots".into(),
            ));
        }
        for b in &self.arena.bots {
            check(
                &ArenaConfig {
                    bots: vec![b.clone()],
                    ..self.arena.clone()
                },
                registry,
            )?;
        }
        Ok(())
    }
}

/// Plays every pair once, its bots built by `registry`, telling `progress` about every
/// game and pairing.
pub fn run_ladder(
    config: &LadderConfig,
    registry: &BotRegistry,
    progress: &dyn LadderProgress,
) -> Result<LadderReport, ArenaError> {
    config.check(registry)?;
    let m = config.arena.bots.len();
    let start = std::time::Instant::now();
    let total = config.pairings();
    let mut pairings = Vec::new();
    for a in 0..m {
        for b in a + 1..m {
            let arena = ArenaConfig {
                bots: vec![config.arena.bots[a].clone(), config.arena.bots[b].clone()],
                ..config.arena.clone()
            };
            progress.pairing_started(&arena.bots[0], &arena.bots[1], arena.total_games());
            let report = run_arena(&arena, registry, &|| progress.game_done())?;
            let s = &report.summary;
            let first = s.entries[0].clone();
            let elo95 = elo_interval(first.ci95, s.games, first.seats, s.entries[1].seats);
            pairings.push(Pairing {
                a,
                b,
                games: s.games,
                first,
                elo95,
                ms: [
                    report.timing.ms_per_decision[0],
                    report.timing.ms_per_decision[1],
                ],
            });
            progress.pairing_done(pairings.len(), total);
        }
    }
    let mut ratings: Vec<Rating> = (0..m)
        .map(|i| {
            let (mut sum, mut var, mut ms) = (0.0, 0.0, 0.0);
            for p in &pairings {
                let (d, lo, hi, t) = if p.a == i {
                    (p.first.elo, p.elo95[0], p.elo95[1], p.ms[0])
                } else if p.b == i {
                    (-p.first.elo, -p.elo95[1], -p.elo95[0], p.ms[1])
                } else {
                    continue;
                };
                sum += d;
                let se = (hi - lo) / (2.0 * 1.96);
                var += se * se;
                ms += t;
            }
            let elo = sum / m as f64;
            let half = 1.96 * var.sqrt() / m as f64;
            Rating {
                bot: config.arena.bots[i].clone(),
                elo,
                elo95: [elo - half, elo + half],
                ms_per_decision: ms / (m - 1) as f64,
            }
        })
        .collect();
    ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    Ok(LadderReport {
        config: config.clone(),
        pairings,
        ratings,
        seconds: start.elapsed().as_secs_f64(),
    })
}

impl LadderReport {
    /// The report as a Markdown section: the Elo table, then every pairing.
    pub fn markdown(&self) -> String {
        let c = &self.config.arena;
        let mut out = String::new();
        // The seal variants have no scoring modes (R3).
        let scoring = if c.variant.is_seal() {
            String::new()
        } else {
            format!(" ({} scoring)", c.scoring.name())
        };
        let _ = writeln!(
            out,
            "### {}{scoring}, {} games per pair, seed {}\n",
            c.variant.name(),
            self.pairings.first().map_or(0, |p| p.games),
            c.seed
        );
        let _ = writeln!(out, "| rank | bot | Elo | 95% interval | ms/decision |");
        let _ = writeln!(out, "|---:|---|---:|---|---:|");
        for (k, r) in self.ratings.iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | `{}` | {:+.0} | {:+.0} .. {:+.0} | {:.3} |",
                k + 1,
                r.bot,
                r.elo,
                r.elo95[0],
                r.elo95[1],
                r.ms_per_decision
            );
        }
        let _ = writeln!(
            out,
            "\n| pairing | games | first's win% | 95% interval | Elo (95%) |"
        );
        let _ = writeln!(out, "|---|---:|---:|---|---|");
        for p in &self.pairings {
            let _ = writeln!(
                out,
                "| `{}` vs `{}` | {} | {:.1}% | {:.1}% .. {:.1}% | {:+.0} ({:+.0} .. {:+.0}) |",
                c.bots[p.a],
                c.bots[p.b],
                p.games,
                100.0 * p.first.win_rate,
                100.0 * p.first.ci95[0],
                100.0 * p.first.ci95[1],
                p.first.elo,
                p.elo95[0],
                p.elo95[1]
            );
        }
        let threads = match c.threads {
            0 => "every core".to_string(),
            1 => "1 thread".to_string(),
            k => format!("{k} threads"),
        };
        let _ = writeln!(out, "\n{:.0} s on {threads}.", self.seconds);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::config::{Scoring, Variant};

    #[test]
    fn ladder_ranks_heuristic_above_random_with_consistent_ratings() {
        let mut arena = ArenaConfig::new(
            Variant::FourPlayer,
            &["random", "heuristic", "pimc:4"],
            8,
            3,
        );
        arena.scoring = Scoring::Basic;
        arena.max_rounds = Some(4);
        arena.threads = 1;
        let config = LadderConfig { arena };
        let r = run_ladder(&config, &BotRegistry::new(), &()).unwrap();
        assert_eq!(r.pairings.len(), 3);
        let sum: f64 = r.ratings.iter().map(|x| x.elo).sum();
        assert!(sum.abs() < 1e-9, "ratings are centred: {sum}");
        for x in &r.ratings {
            assert!(x.elo95[0] <= x.elo && x.elo <= x.elo95[1]);
        }
        assert_eq!(r.ratings.last().unwrap().bot, "random");
        let md = r.markdown();
        assert!(
            md.contains("| 1 |") && md.contains("`random` vs `heuristic`"),
            "{md}"
        );
        let mut one = config.clone();
        one.arena.bots.truncate(1);
        assert!(run_ladder(&one, &BotRegistry::new(), &()).is_err());
        // A bad name anywhere is refused before any game.
        struct Count(std::sync::atomic::AtomicU64);
        impl LadderProgress for Count {
            fn game_done(&self) {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        let mut typo = config.clone();
        typo.arena.bots.push("heuristik".into());
        let games = Count(Default::default());
        let e = run_ladder(&typo, &BotRegistry::new(), &games).unwrap_err();
        assert!(e.to_string().contains("heuristik"), "{e}");
        assert_eq!(games.0.into_inner(), 0);
    }
}
