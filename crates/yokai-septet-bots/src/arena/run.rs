//! Playing an arena's games on a rayon pool, folded into counts as they finish.

use std::time::Instant;

use rayon::prelude::*;

use super::boards::{SequentialTest, SEQUENTIAL_ERROR_RATE, SHARE_UNIT};
use super::counts::ArenaCounts;
use super::game_loop::{play_game, thread_pool};
use super::{check, game_setup, summarize, ArenaConfig, ArenaError, ArenaReport};
use crate::BotRegistry;

/// Plays the games `start..end` of the arena (a slice of `0..config.total_games()`) on
/// `config.threads` threads and returns their raw counts. Every game's seeds depend only on
/// the master seed and its index, so merging the counts of slices that partition
/// `0..total_games()` gives exactly the counts of [`run_arena`], however the games were
/// split between threads, processes or machines.
pub fn run_arena_range(
    config: &ArenaConfig,
    registry: &BotRegistry,
    start: u64,
    end: u64,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaCounts, ArenaError> {
    check(config, registry)?;
    let total = config.total_games();
    if start > end || end > total {
        return Err(ArenaError::Range(format!(
            "game range {start}..{end} is not within 0..{total}"
        )));
    }
    let pool = thread_pool(config.threads)?;
    play_range(config, registry, start, end, &pool, progress)
}

fn play_range(
    config: &ArenaConfig,
    registry: &BotRegistry,
    start: u64,
    end: u64,
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaCounts, ArenaError> {
    let entries = config.bots.len();
    // Games are folded into counts as they finish (no per-game results are kept: a
    // million-game arena stays small). Every count is an integer sum or maximum, so the
    // order in which rayon folds and reduces cannot change the result.
    let mut counts = pool.install(|| {
        (start..end)
            .into_par_iter()
            .map(|i| {
                let setup = game_setup(config, i)?;
                let r = play_game(config, registry, i, &setup, &mut ());
                progress();
                r
            })
            .try_fold(
                || ArenaCounts::empty(entries),
                |mut c, r| {
                    c.add_game(config, &r?);
                    Ok::<_, ArenaError>(c)
                },
            )
            .try_reduce(
                || ArenaCounts::empty(entries),
                |mut a, b| {
                    a.merge(&b)?;
                    Ok(a)
                },
            )
    })?;
    if start < end {
        counts.ranges.push([start, end]);
    }
    Ok(counts)
}

/// Plays the arena, its bots built by `registry`; `progress` is called once per finished
/// game (from worker threads). The composition of [`run_arena_range`] over all games and
/// [`summarize`]; with [`ArenaConfig::sequential`], over the boards up to the stop.
pub fn run_arena(
    config: &ArenaConfig,
    registry: &BotRegistry,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaReport, ArenaError> {
    check(config, registry)?;
    let pool = thread_pool(config.threads)?;
    let start = Instant::now();
    if config.sequential {
        return run_sequential(config, registry, &pool, progress, start);
    }
    let counts = play_range(config, registry, 0, config.total_games(), &pool, progress)?;
    let seconds = start.elapsed().as_secs_f64();
    summarize(config, &counts, seconds, pool.current_num_threads())
}

/// The sequential arena: boards are played in batches on the pool, then looked at one by
/// one in board order ([`Sequential`]), so the board it stops at (and so the whole report)
/// depends only on the seeds, never on the thread count or the batch; boards of the last
/// batch past the stop are played but not counted.
fn run_sequential(
    config: &ArenaConfig,
    registry: &BotRegistry,
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn() + Sync),
    start: Instant,
) -> Result<ArenaReport, ArenaError> {
    let mut seq = Sequential::new(config)?;
    let size = config.board_size();
    // Enough boards a batch to keep every thread busy while looking often.
    let batch = (4 * pool.current_num_threads() as u64).max(8);
    let mut next = 0;
    'boards: while next < seq.budget {
        let end = (next + batch).min(seq.budget);
        let boards: Vec<ArenaCounts> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map(|b| play_range(config, registry, b * size, (b + 1) * size, pool, progress))
                .collect::<Result<_, _>>()
        })?;
        for board in &boards {
            if seq.push(board)? {
                break 'boards;
            }
        }
        next = end;
    }
    seq.report(
        config,
        start.elapsed().as_secs_f64(),
        pool.current_num_threads(),
    )
}

/// A sequential arena's boards, fed in board order to the test until it stops
/// ([`ArenaConfig::sequential`]).
pub struct Sequential {
    test: SequentialTest,
    fair: f64,
    size: u64,
    budget: u64,
    counts: ArenaCounts,
    stopped: bool,
}

impl Sequential {
    /// Before the first board of `config`'s arena.
    pub fn new(config: &ArenaConfig) -> Result<Sequential, ArenaError> {
        let size = config.board_size();
        Ok(Sequential {
            test: SequentialTest::new(SEQUENTIAL_ERROR_RATE),
            fair: fair_share(config)?,
            size,
            budget: config.total_games() / size,
            counts: ArenaCounts::empty(config.bots.len()),
            stopped: false,
        })
    }

    /// Counts the next board (the counts of its games alone); whether the test stops
    /// there, or the budget is spent.
    pub fn push(&mut self, board: &ArenaCounts) -> Result<bool, ArenaError> {
        let b = self.test.boards();
        if self.done() || board.ranges != [[b * self.size, (b + 1) * self.size]] {
            return Err(ArenaError::Range(format!(
                "the sequential stop takes board {b} (games {}..{}) next, not games {:?}",
                b * self.size,
                (b + 1) * self.size,
                board.ranges
            )));
        }
        self.counts.merge(board)?;
        self.test
            .push(board.boards.share[0] as f64 / (SHARE_UNIT * self.size) as f64);
        self.stopped = self.test.excludes(self.fair);
        Ok(self.done())
    }

    /// Whether the test stopped or the budget is spent.
    pub fn done(&self) -> bool {
        self.stopped || self.test.boards() >= self.budget
    }

    /// The report of the boards counted (`seconds` and `threads` for its timing), with
    /// the test's verdict.
    pub fn report(
        self,
        config: &ArenaConfig,
        seconds: f64,
        threads: usize,
    ) -> Result<ArenaReport, ArenaError> {
        let played = ArenaConfig {
            games: self.test.boards() * self.size,
            ..config.clone()
        };
        let mut report = summarize(&played, &self.counts, seconds, threads)?;
        report.summary.sequential = Some(self.test.summary(self.fair, self.budget));
        Ok(report)
    }
}

/// The first entry's share of wins when the line-up is equally strong: its seats' share
/// of the table.
pub(super) fn fair_share(config: &ArenaConfig) -> Result<f64, ArenaError> {
    let seats = super::base_seats(config)?;
    let n = config.variant.num_players();
    Ok(seats[..n].iter().filter(|&&e| e == 0).count() as f64 / n as f64)
}
