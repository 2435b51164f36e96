//! Playing an arena's games on a rayon pool, folded into counts as they finish.

use std::time::Instant;

use rayon::prelude::*;

use super::counts::{ArenaCounts, GameResult};
use super::{check, game_setup, summarize, ArenaConfig, ArenaError, ArenaReport, GameSetup};
use crate::bots::BotRegistry;
use crate::rules::state::State;

/// Plays one game; `on_state` sees the state before every decision.
pub(super) fn play_game(
    config: &ArenaConfig,
    registry: &BotRegistry,
    setup: &GameSetup,
    on_state: &mut dyn FnMut(&State),
) -> Result<GameResult, ArenaError> {
    let n = config.variant.num_players();
    let mut bots = Vec::with_capacity(n);
    for s in 0..n {
        bots.push(registry.build(
            &config.bots[setup.entry_of_seat[s]],
            setup.bot_seeds[s],
            config.variant,
        )?);
    }
    let mut state = State::new(config.game_config(setup.deal_seed));
    let mut res = GameResult {
        entry_of_seat: setup.entry_of_seat,
        ..GameResult::default()
    };
    while let Some(p) = state.current_player() {
        on_state(&state);
        let t = Instant::now();
        let card = bots[p].act(&state.view(p))?;
        let nanos = t.elapsed().as_nanos() as u64;
        res.act_nanos[p] += nanos;
        res.act_max_nanos[p] = res.act_max_nanos[p].max(nanos);
        res.decisions[p] += 1;
        if let Err(e) = state.apply(card) {
            panic!("bot {} played an illegal card: {e}", bots[p].name());
        }
    }
    res.finish(&state);
    Ok(res)
}

pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, ArenaError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ArenaError::ThreadPool(e.to_string()))
}

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
                let r = play_game(config, registry, &setup, &mut |_| {});
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
/// [`summarize`].
pub fn run_arena(
    config: &ArenaConfig,
    registry: &BotRegistry,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaReport, ArenaError> {
    check(config, registry)?;
    let pool = thread_pool(config.threads)?;
    let start = Instant::now();
    let counts = play_range(config, registry, 0, config.total_games(), &pool, progress)?;
    let seconds = start.elapsed().as_secs_f64();
    summarize(config, &counts, seconds, pool.current_num_threads())
}
