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
//!
//! Ranked by boards ([`RankBy::Boards`]), a pair's Elo difference and interval come from
//! the first bot's board win share and its paired interval instead
//! ([`crate::arena::boards`]): the same mean with teams, a narrower interval where the
//! deals' luck dominates.

use std::fmt::Write as _;

use crate::arena::{
    check, elo_of_ratio, run_arena, short_duration, ArenaConfig, ArenaError, EntrySummary,
};
use crate::BotRegistry;

/// What to play: every pair of `arena.bots` plays an arena with this configuration
/// (`games` games per pair).
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The arenas' configuration; its `bots` are the ladder's entries.
    pub arena: ArenaConfig,
    /// What the ratings are fitted to.
    pub rank_by: RankBy,
}

/// What a ladder's ratings are fitted to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RankBy {
    /// The win rate over games, with its Wilson interval.
    #[default]
    Games,
    /// The board win share, with its paired interval.
    Boards,
}

impl RankBy {
    /// The names `--rank-by` takes.
    pub const NAMES: [&'static str; 2] = ["games", "boards"];

    /// The mode named `name`, if any.
    pub fn from_name(name: &str) -> Option<RankBy> {
        match name {
            "games" => Some(RankBy::Games),
            "boards" => Some(RankBy::Boards),
            _ => None,
        }
    }
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
    /// `a`'s Elo against `b` from its board win share, and its paired interval.
    pub board_elo: [f64; 3],
    /// Mean milliseconds per decision of `a`'s and `b`'s bots.
    pub ms: [f64; 2],
    /// Games cut by the round cap (draws).
    pub truncated: u64,
    /// Why the round cap decides this pairing ([`crate::arena::ArenaSummary::truncation_warning`]).
    pub warning: Option<String>,
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
            let w = &first.board_win_rate;
            let [board_lo, board_hi] =
                elo_interval(w.ci95, s.games, first.seats, s.entries[1].seats);
            let [board, _] =
                elo_interval([w.mean, w.mean], s.games, first.seats, s.entries[1].seats);
            pairings.push(Pairing {
                a,
                b,
                games: s.games,
                first,
                elo95,
                board_elo: [board, board_lo, board_hi],
                ms: [
                    report.timing.ms_per_decision[0],
                    report.timing.ms_per_decision[1],
                ],
                truncated: s.truncated,
                warning: s.truncation_warning(arena.max_rounds),
            });
            progress.pairing_done(pairings.len(), total);
        }
    }
    let mut ratings: Vec<Rating> = (0..m)
        .map(|i| {
            let (mut sum, mut var, mut ms) = (0.0, 0.0, 0.0);
            for p in &pairings {
                let [elo, lo, hi] = match config.rank_by {
                    RankBy::Games => [p.first.elo, p.elo95[0], p.elo95[1]],
                    RankBy::Boards => p.board_elo,
                };
                let (d, lo, hi, t) = if p.a == i {
                    (elo, lo, hi, p.ms[0])
                } else if p.b == i {
                    (-elo, -hi, -lo, p.ms[1])
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
    /// Whether most of the ladder's games were cut by the round cap (draws): its ratings
    /// measure the cap, not the bots, and the table is flagged, not ranked.
    pub fn mostly_draws(&self) -> bool {
        let games: u64 = self.pairings.iter().map(|p| p.games).sum();
        let cut: u64 = self.pairings.iter().map(|p| p.first.draws).sum();
        2 * cut > games
    }

    /// What to tell people about the round cap: one line per pairing it decides, after
    /// one for the whole table where most games are draws. Empty when it decides nothing.
    pub fn warnings(&self) -> Vec<String> {
        let c = &self.config.arena;
        let mut out = Vec::new();
        if self.mostly_draws() {
            let games: u64 = self.pairings.iter().map(|p| p.games).sum();
            let cut: u64 = self.pairings.iter().map(|p| p.truncated).sum();
            out.push(format!(
                "not ranked: {cut} of {games} games were cut by the round cap (--max-rounds \
                 {}) and count as draws, so the ratings measure the cap, not the bots; raise \
                 --max-rounds (0: none)",
                c.max_rounds.unwrap_or(0)
            ));
        }
        for p in &self.pairings {
            if let Some(w) = &p.warning {
                out.push(format!("`{}` vs `{}`: {w}", c.bots[p.a], c.bots[p.b]));
            }
        }
        out
    }

    /// The report as a Markdown section: the Elo table, then every pairing; the round
    /// cap's warnings first where it decides results ([`LadderReport::warnings`]).
    pub fn markdown(&self) -> String {
        let c = &self.config.arena;
        let mut out = String::new();
        // The seal variants have no scoring modes (R3).
        let scoring = if c.variant.is_seal() {
            String::new()
        } else {
            format!(" ({} scoring)", c.scoring.name())
        };
        let unit = if c.rounds { "single rounds" } else { "games" };
        let ranked_by = match self.config.rank_by {
            RankBy::Games => "",
            RankBy::Boards => ", ranked by boards",
        };
        let _ = writeln!(
            out,
            "### {}{scoring}, {} {unit} per pair, seed {}{ranked_by}\n",
            c.variant.name(),
            self.pairings.first().map_or(0, |p| p.games),
            c.seed
        );
        for w in self.warnings() {
            let _ = writeln!(out, "> **Warning**: {w}\n");
        }
        let ranked = !self.mostly_draws();
        let _ = writeln!(out, "| rank | bot | Elo | 95% interval | time/decision |");
        let _ = writeln!(out, "|---:|---|---:|---|---:|");
        for (k, r) in self.ratings.iter().enumerate() {
            let rank = if ranked {
                (k + 1).to_string()
            } else {
                "–".to_string()
            };
            let _ = writeln!(
                out,
                "| {rank} | `{}` | {:+.0} | {:+.0} .. {:+.0} | {} |",
                r.bot,
                r.elo,
                r.elo95[0],
                r.elo95[1],
                short_duration(r.ms_per_decision / 1e3)
            );
        }
        let _ = writeln!(
            out,
            "\n| pairing | {unit} | first's win% | 95% interval | Elo (95%) | board win% | paired 95% | board Elo (95%) |"
        );
        let _ = writeln!(out, "|---|---:|---:|---|---|---:|---|---|");
        for p in &self.pairings {
            let games = if p.truncated > 0 {
                format!("{} ({} cut)", p.games, p.truncated)
            } else {
                p.games.to_string()
            };
            let _ = writeln!(
                out,
                "| `{}` vs `{}` | {games} | {:.1}% | {:.1}% .. {:.1}% | {:+.0} ({:+.0} .. {:+.0}) \
                 | {:.1}% | {:.1}% .. {:.1}% | {:+.0} ({:+.0} .. {:+.0}) |",
                c.bots[p.a],
                c.bots[p.b],
                100.0 * p.first.win_rate,
                100.0 * p.first.ci95[0],
                100.0 * p.first.ci95[1],
                p.first.elo,
                p.elo95[0],
                p.elo95[1],
                100.0 * p.first.board_win_rate.mean,
                100.0 * p.first.board_win_rate.ci95[0],
                100.0 * p.first.board_win_rate.ci95[1],
                p.board_elo[0],
                p.board_elo[1],
                p.board_elo[2]
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
    use yokai_septet::{Scoring, Variant};

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
        let config = LadderConfig {
            arena,
            rank_by: RankBy::Games,
        };
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

    fn ladder_of(arena: ArenaConfig, rank_by: RankBy) -> LadderReport {
        run_ladder(&LadderConfig { arena, rank_by }, &BotRegistry::new(), &()).unwrap()
    }

    #[test]
    fn a_ladder_ranked_by_boards_fits_the_board_win_shares() {
        let mut arena = ArenaConfig::new(Variant::FourPlayer, &["random", "heuristic"], 40, 3);
        arena.rounds = true;
        arena.threads = 1;
        let by_games = ladder_of(arena.clone(), RankBy::Games);
        let by_boards = ladder_of(arena, RankBy::Boards);
        let p = &by_boards.pairings[0];
        // Two bots: each rating is half the pair's difference, here the boards' one.
        let heuristic = &by_boards.ratings[0];
        assert_eq!(heuristic.bot, "heuristic");
        assert!((heuristic.elo - (-p.board_elo[0]) / 2.0).abs() < 1e-9);
        // With teams the board win share's mean is the win rate: the same Elo, and the
        // paired interval is its own.
        assert!((by_games.ratings[0].elo - heuristic.elo).abs() < 1e-9);
        assert_ne!(by_games.ratings[0].elo95, heuristic.elo95);
        let md = by_boards.markdown();
        assert!(
            md.contains("single rounds per pair, seed 3, ranked by boards"),
            "{md}"
        );
        assert!(md.contains("| board win% | paired 95% |"), "{md}");
    }

    /// A round cap that cuts every game: every pairing a draw, every Elo 0. The table
    /// says so and ranks nobody, instead of putting `random` first.
    #[test]
    fn a_ladder_of_cut_games_is_flagged_not_ranked() {
        let mut arena = ArenaConfig::new(Variant::FourPlayer, &["random", "heuristic"], 8, 1);
        arena.max_rounds = Some(1);
        arena.threads = 1;
        let r = ladder_of(arena, RankBy::Games);
        assert_eq!(r.pairings[0].truncated, 8);
        assert!(r.mostly_draws());
        let w = r.warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].starts_with("not ranked: 8 of 8 games were cut"),
            "{w:?}"
        );
        assert!(w[0].contains("--max-rounds 1"), "{w:?}");
        let md = r.markdown();
        assert!(md.contains("> **Warning**: not ranked"), "{md}");
        assert!(md.contains("| – | `"), "{md}");
        assert!(!md.contains("| 1 |"), "{md}");
        assert!(md.contains("| 8 (8 cut) |"), "{md}");
        // Uncut, the same ladder ranks and warns of nothing.
        let mut arena = ArenaConfig::new(Variant::FourPlayer, &["random", "heuristic"], 8, 1);
        arena.threads = 1;
        let r = ladder_of(arena, RankBy::Games);
        assert!(r.warnings().is_empty() && !r.mostly_draws());
        assert!(
            r.markdown().contains("| 1 | `heuristic`"),
            "{}",
            r.markdown()
        );
    }
}
