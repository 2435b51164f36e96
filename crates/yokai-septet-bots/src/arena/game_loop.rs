//! The arena's one game loop: game `index` dealt and seated by its [`GameSetup`], its seats'
//! bots asked in turn, with a [`GameObserver`] watching. The arena's counts, the imitation
//! data and the value data are taken from the same loop, so a dataset's games are the
//! arena's games, decision for decision.

use std::time::Instant;

use rayon::prelude::*;

use super::counts::GameResult;
use super::{game_setup, ArenaConfig, ArenaError, GameSetup};
use crate::{Bot, BotError, BotRegistry};
use yokai_septet::Card;
use yokai_septet::Outcome;
use yokai_septet::State;

/// What watches a game of [`play_game`], and may choose a seat's card in place of its bot.
pub(super) trait GameObserver {
    /// Seat `seat` is about to decide in `state`.
    fn before_decision(&mut self, _state: &State, _seat: usize) {}

    /// Seat `seat`'s card in `state`, `bot` being the seat's bot. An observer that asks the
    /// bot itself can read its search and play it (one search serves as both label and
    /// move); asking a bot changes its random stream, so the default asks it once.
    fn decide(&mut self, state: &State, seat: usize, bot: &mut dyn Bot) -> Result<Card, BotError> {
        bot.act(&state.view(seat))
    }

    /// A decision was applied: `state` is the position after it (the next round already
    /// dealt when `outcome` ends one).
    fn after_action(&mut self, _state: &State, _outcome: &Outcome) {}
}

/// The arena's own games watch nothing.
impl GameObserver for () {}

/// Plays game `index`, seated and seeded by `setup`, with `observer` watching.
pub(super) fn play_game(
    config: &ArenaConfig,
    registry: &BotRegistry,
    index: u64,
    setup: &GameSetup,
    observer: &mut dyn GameObserver,
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
        index,
        entry_of_seat: setup.entry_of_seat,
        ..GameResult::default()
    };
    while let Some(p) = state.current_player() {
        observer.before_decision(&state, p);
        let t = Instant::now();
        let card = observer.decide(&state, p, bots[p].as_mut())?;
        let nanos = t.elapsed().as_nanos() as u64;
        res.act_nanos[p] += nanos;
        res.act_max_nanos[p] = res.act_max_nanos[p].max(nanos);
        res.decisions[p] += 1;
        match state.apply(card) {
            Ok(outcome) => observer.after_action(&state, &outcome),
            Err(e) => panic!("seat {p} ({}) played an illegal card: {e}", bots[p].name()),
        }
    }
    res.finish(&state);
    Ok(res)
}

/// The pool that plays an arena's games, of `threads` threads (0: one per core).
pub(super) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, ArenaError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| ArenaError::ThreadPool(e.to_string()))
}

/// Plays every game of `arena` on `arena.threads` threads, each watched by the observer
/// `observer(index, setup)` makes, and returns the observers in game order: what they
/// recorded depends only on the configuration, never on the thread count. `progress` is
/// called once per finished game (from the worker threads).
pub(super) fn observe_games<O: GameObserver + Send>(
    arena: &ArenaConfig,
    registry: &BotRegistry,
    progress: &(dyn Fn() + Sync),
    observer: impl Fn(u64, &GameSetup) -> Result<O, ArenaError> + Sync,
) -> Result<Vec<O>, ArenaError> {
    let pool = thread_pool(arena.threads)?;
    pool.install(|| {
        (0..arena.total_games())
            .into_par_iter()
            .map(|i| {
                let watched = game_setup(arena, i).and_then(|setup| {
                    let mut o = observer(i, &setup)?;
                    play_game(arena, registry, i, &setup, &mut o)?;
                    Ok(o)
                });
                progress();
                watched
            })
            .collect()
    })
}
