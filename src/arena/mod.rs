//! Arenas: many games between bot line-ups, in parallel, with duplicate deals.
//!
//! Card luck dominates single games, so comparing bots needs many games and a design that
//! cancels the luck: every deal is played once per seat rotation (*duplicate*, as in
//! bridge). In the 4-player variants a deal's pair of games swaps the teams' seats; in
//! `3p` it is played three times, every entry in every seat. A game's deals depend only on
//! its game seed (R10: round `k` is dealt from `(seed, k)`), so both games of a pair see
//! the same cards in every round they both reach.
//!
//! Every seed (deals and each bot's stream) is derived from the master seed and the game's
//! index, never from the thread that plays it, and results are folded in index order: a
//! summary is identical at any thread count. Wall-clock figures live apart, in [`Timing`].

pub mod ladder;

use std::fmt;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bots::{bot_by_name, UnknownBot};
use crate::cards::left_of;
use crate::rng::arena_seed;
use crate::rules::config::{GameConfig, Scoring, Variant};
use crate::rules::state::State;

/// What to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArenaConfig {
    #[serde(serialize_with = "as_text")]
    pub variant: Variant,
    #[serde(serialize_with = "as_text")]
    pub scoring: Scoring,
    /// The line-up: one bot name per side (team in 4-player variants), or one per seat.
    /// In `3p` two names mean the first plays against two copies of the second.
    pub bots: Vec<String>,
    /// Games to play; with duplicate deals, rounded up to whole deal groups.
    pub games: u64,
    pub seed: u64,
    /// Round cap per game (R10), so that seal games between weak bots terminate.
    pub max_rounds: Option<u32>,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Replay each deal in every seat rotation.
    pub duplicate: bool,
}

impl ArenaConfig {
    /// `games` games of `variant` between `bots`, duplicate deals, a 100-round cap.
    pub fn new(variant: Variant, bots: &[&str], games: u64, seed: u64) -> ArenaConfig {
        ArenaConfig {
            variant,
            scoring: Scoring::Advanced,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games,
            seed,
            max_rounds: Some(100),
            threads: 0,
            duplicate: true,
        }
    }

    /// Games per deal group: one per seat rotation (2 with teams, 3 in `3p`).
    pub fn group_size(&self) -> u64 {
        if self.variant.has_teams() {
            2
        } else {
            3
        }
    }

    /// The number of games actually played.
    pub fn total_games(&self) -> u64 {
        if self.duplicate {
            self.games.div_ceil(self.group_size()) * self.group_size()
        } else {
            self.games
        }
    }

    fn game_config(&self, seed: u64) -> GameConfig {
        GameConfig::new(self.variant, seed)
            .with_scoring(self.scoring)
            .with_max_rounds(self.max_rounds)
    }
}

/// Serializes a config enum by its name (`4p`, `advanced`).
fn as_text<T: fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Why an arena cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    UnknownBot(UnknownBot),
    /// The line-up does not fit the variant.
    Lineup(String),
    /// A game range outside the arena, or counts that do not cover it.
    Range(String),
    /// Counts that cannot be merged (overlapping games, different line-ups).
    Merge(String),
    /// The rayon pool could not start (the operating system's reason).
    ThreadPool(String),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::UnknownBot(e) => e.fmt(f),
            ArenaError::Lineup(s) | ArenaError::Range(s) | ArenaError::Merge(s) => f.write_str(s),
            ArenaError::ThreadPool(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<UnknownBot> for ArenaError {
    fn from(e: UnknownBot) -> ArenaError {
        ArenaError::UnknownBot(e)
    }
}

/// The seats and seeds of one game of an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// Seed of the game's deals (shared by the games of one duplicate group).
    pub deal_seed: u64,
    /// Line-up entry sitting in each seat.
    pub entry_of_seat: [usize; 4],
    /// Seed of each seat's bot.
    pub bot_seeds: [u64; 4],
}

/// Line-up entry of each seat before rotation.
fn base_seats(config: &ArenaConfig) -> Result<[usize; 4], ArenaError> {
    let n = config.variant.num_players();
    let l = config.bots.len();
    let mut seats = [0; 4];
    for (s, e) in seats.iter_mut().enumerate().take(n) {
        *e = match l {
            1 => 0,
            _ if l == n => s,
            2 if n == 4 => s % 2,
            2 => usize::from(s > 0),
            _ => {
                return Err(ArenaError::Lineup(format!(
                    "{} bots for {}: give 1, 2 or {n} names (one per side or one per seat)",
                    l, config.variant
                )))
            }
        };
    }
    Ok(seats)
}

/// The seats and seeds of game `index` of the arena.
pub fn game_setup(config: &ArenaConfig, index: u64) -> Result<GameSetup, ArenaError> {
    let base = base_seats(config)?;
    let n = config.variant.num_players();
    let g = config.group_size();
    let (deal_index, rotation) = if config.duplicate {
        (index / g, (index % g) as usize)
    } else {
        (index, (index % g) as usize)
    };
    let mut entry_of_seat = [0; 4];
    let mut bot_seeds = [0; 4];
    for s in 0..n {
        entry_of_seat[s] = base[left_of(s, rotation, n)];
        bot_seeds[s] = arena_seed(config.seed, index, 1 + s as u64);
    }
    Ok(GameSetup {
        deal_seed: arena_seed(config.seed, deal_index, 0),
        entry_of_seat,
        bot_seeds,
    })
}

/// What one game produced.
#[derive(Clone, Copy, Debug, Default)]
struct GameResult {
    winners: u8,
    entry_of_seat: [usize; 4],
    scores: [u16; 4],
    rounds: u32,
    truncated: bool,
    decisions: [u64; 4],
    act_nanos: [u64; 4],
    act_max_nanos: [u64; 4],
}

/// Plays one game; `on_state` sees the state before every decision.
fn play_game(
    config: &ArenaConfig,
    setup: &GameSetup,
    on_state: &mut dyn FnMut(&State),
) -> Result<GameResult, ArenaError> {
    let n = config.variant.num_players();
    let mut bots = Vec::with_capacity(n);
    for s in 0..n {
        bots.push(bot_by_name(
            &config.bots[setup.entry_of_seat[s]],
            setup.bot_seeds[s],
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
        let card = bots[p].act(&state.view(p));
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

impl GameResult {
    /// Records how the finished game `state` ended.
    fn finish(&mut self, state: &State) {
        self.winners = state.winners_mask();
        self.scores = state.scores();
        self.rounds = state.round() + 1;
        self.truncated = state.is_truncated();
    }
}

/// A game of an arena played outside it (by Python policies, say) up to its end.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a> {
    /// The game's index in the arena (its seats and deals come from [`game_setup`]).
    pub index: u64,
    /// The finished game.
    pub state: &'a State,
    /// Decisions made by each seat, and the time each seat's policy took over them.
    pub decisions: [u64; 4],
    pub act_nanos: [u64; 4],
    pub act_max_nanos: [u64; 4],
}

/// The counts of one game of the arena played elsewhere, to merge with others (and with
/// counts from [`run_arena_range`]) into a summary. An error if the index is outside the
/// arena, or the game is not over or was not set up as [`game_setup`] says (deal seed and
/// rules), so that such counts compare with the Rust arena's exactly.
pub fn played_game_counts(
    config: &ArenaConfig,
    game: &PlayedGame,
) -> Result<ArenaCounts, ArenaError> {
    let total = config.total_games();
    if game.index >= total {
        return Err(ArenaError::Range(format!(
            "game {} is not within 0..{total}",
            game.index
        )));
    }
    let setup = game_setup(config, game.index)?;
    let mut expected = config.game_config(setup.deal_seed);
    let got = *game.state.config();
    if expected.variant.is_seal() {
        // The engine keeps one scoring value for the seal variants, which ignore it.
        expected.scoring = got.scoring;
    }
    let round = game.state.round();
    let seeded =
        crate::rules::deal::Deal::from_seed(expected.variant, setup.deal_seed, round as u64);
    if got != expected || *game.state.deal() != seeded {
        return Err(ArenaError::Range(format!(
            "game {} was not set up as the arena deals it (config {expected:?}, rounds dealt \
             from its seed), got {got:?}",
            game.index
        )));
    }
    if !game.state.is_over() {
        return Err(ArenaError::Range(format!(
            "game {} is not over",
            game.index
        )));
    }
    let mut res = GameResult {
        entry_of_seat: setup.entry_of_seat,
        decisions: game.decisions,
        act_nanos: game.act_nanos,
        act_max_nanos: game.act_max_nanos,
        ..GameResult::default()
    };
    res.finish(game.state);
    let mut counts = ArenaCounts::empty(config.bots.len());
    counts.add_game(config, &res);
    counts.ranges.push([game.index, game.index + 1]);
    Ok(counts)
}

/// One line-up entry's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntrySummary {
    pub bot: String,
    /// Seats it occupies in each game.
    pub seats: u32,
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
}

/// Results that depend only on the configuration (identical at any thread count).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaSummary {
    pub variant: String,
    pub games: u64,
    pub entries: Vec<EntrySummary>,
    pub rounds_per_game: f64,
    pub truncated: u64,
    pub decisions: u64,
}

/// Wall-clock figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
    pub decisions_per_second: f64,
    /// Mean time per decision of each entry's bots, in milliseconds (one core each).
    pub ms_per_decision: Vec<f64>,
    /// The slowest single decision of each entry's bots, in milliseconds.
    pub max_ms_per_decision: Vec<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaReport {
    pub config: ArenaConfig,
    pub summary: ArenaSummary,
    pub timing: Timing,
}

/// The Elo difference that makes one player's per-seat win rate `ratio` times another's
/// (with two entries and one seat each, the logistic Elo of a win rate `p`:
/// `400·log10(p / (1 − p))`).
pub fn elo_of_ratio(per_seat: f64, others_per_seat: f64) -> f64 {
    400.0 * (per_seat / others_per_seat).log10()
}

/// Wilson score interval at 95% for `p` observed over `n` trials.
pub fn wilson95(p: f64, n: f64) -> [f64; 2] {
    if n == 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.96f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    [(center - half).max(0.0), (center + half).min(1.0)]
}

/// Raw counts of some of an arena's games: everything a summary is computed from, as
/// integers, so that counts of disjoint slices merge exactly (in any order) into the
/// counts of the whole arena. Entries are indexed like `ArenaConfig::bots`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaCounts {
    /// The game indices counted: sorted, disjoint, non-adjacent half-open ranges.
    pub ranges: Vec<[u64; 2]>,
    pub games: u64,
    /// Games each entry won (some seat of it among the winners).
    pub wins: Vec<u64>,
    /// Games that ended without a winner (round cap).
    pub draws: u64,
    /// Sum of the final scores of each entry's seats.
    pub points: Vec<u64>,
    pub rounds: u64,
    pub truncated: u64,
    /// Decisions made by each entry's bots.
    pub decisions: Vec<u64>,
    /// Wall-clock only (not part of a summary): time spent in each entry's bots.
    pub act_nanos: Vec<u64>,
    /// Wall-clock only: each entry's slowest single decision.
    pub act_max_nanos: Vec<u64>,
}

impl ArenaCounts {
    /// No games yet, for a line-up of `entries` entries.
    pub fn empty(entries: usize) -> ArenaCounts {
        ArenaCounts {
            wins: vec![0; entries],
            points: vec![0; entries],
            decisions: vec![0; entries],
            act_nanos: vec![0; entries],
            act_max_nanos: vec![0; entries],
            ..ArenaCounts::default()
        }
    }

    fn add_game(&mut self, config: &ArenaConfig, r: &GameResult) {
        let n = config.variant.num_players();
        let l = self.wins.len();
        self.games += 1;
        self.rounds += r.rounds as u64;
        self.draws += (r.winners == 0) as u64;
        self.truncated += r.truncated as u64;
        let mut won = [false; 4];
        for s in 0..n {
            let e = r.entry_of_seat[s];
            won[e] |= r.winners >> s & 1 == 1;
            self.points[e] += r.scores[s] as u64;
            self.decisions[e] += r.decisions[s];
            self.act_nanos[e] += r.act_nanos[s];
            self.act_max_nanos[e] = self.act_max_nanos[e].max(r.act_max_nanos[s]);
        }
        for (e, &w) in won.iter().enumerate().take(l) {
            self.wins[e] += w as u64;
        }
    }

    /// Adds the counts of `other`, which must cover games disjoint from these (an error
    /// otherwise, or if the line-ups differ in size). Merging is exact and commutative.
    pub fn merge(&mut self, other: &ArenaCounts) -> Result<(), ArenaError> {
        let l = self.wins.len();
        let lens = [
            other.wins.len(),
            other.points.len(),
            other.decisions.len(),
            other.act_nanos.len(),
            other.act_max_nanos.len(),
        ];
        if lens.iter().any(|&x| x != l) {
            return Err(ArenaError::Merge(format!(
                "counts for {l} entries cannot absorb counts for {lens:?} entries"
            )));
        }
        let mut ranges: Vec<[u64; 2]> = self
            .ranges
            .iter()
            .chain(&other.ranges)
            .copied()
            .filter(|r| r[0] < r[1])
            .collect();
        ranges.sort_unstable();
        let mut joined: Vec<[u64; 2]> = Vec::with_capacity(ranges.len());
        for r in ranges {
            match joined.last_mut() {
                Some(last) if r[0] < last[1] => {
                    return Err(ArenaError::Merge(format!(
                        "game ranges {}..{} and {}..{} overlap",
                        last[0], last[1], r[0], r[1]
                    )))
                }
                Some(last) if r[0] == last[1] => last[1] = r[1],
                _ => joined.push(r),
            }
        }
        self.ranges = joined;
        self.games += other.games;
        self.draws += other.draws;
        self.rounds += other.rounds;
        self.truncated += other.truncated;
        for e in 0..l {
            self.wins[e] += other.wins[e];
            self.points[e] += other.points[e];
            self.decisions[e] += other.decisions[e];
            self.act_nanos[e] += other.act_nanos[e];
            self.act_max_nanos[e] = self.act_max_nanos[e].max(other.act_max_nanos[e]);
        }
        Ok(())
    }

    /// Whether these counts cover exactly the games `0..config.total_games()`.
    pub fn is_complete(&self, config: &ArenaConfig) -> bool {
        let total = config.total_games();
        self.games == total
            && self.wins.len() == config.bots.len()
            && match self.ranges.as_slice() {
                [] => total == 0,
                [r] => *r == [0, total],
                _ => false,
            }
    }
}

/// Checks the line-up and the bot names (before starting any thread).
/// Checks a configuration (line-up shape and bot names) without playing anything.
pub fn check(config: &ArenaConfig) -> Result<(), ArenaError> {
    base_seats(config)?;
    for b in &config.bots {
        bot_by_name(b, 0)?;
    }
    Ok(())
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, ArenaError> {
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
    start: u64,
    end: u64,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaCounts, ArenaError> {
    check(config)?;
    let total = config.total_games();
    if start > end || end > total {
        return Err(ArenaError::Range(format!(
            "game range {start}..{end} is not within 0..{total}"
        )));
    }
    let pool = thread_pool(config.threads)?;
    play_range(config, start, end, &pool, progress)
}

fn play_range(
    config: &ArenaConfig,
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
                let r = play_game(config, &setup, &mut |_| {});
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

/// Throughput of plain random playouts (see [`random_playouts`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlayoutStats {
    pub games: u64,
    pub decisions: u64,
    pub seconds: f64,
}

/// Plays random games of `variant` (uniform legal moves, a 200-round cap, dealing
/// included) on this thread until `min_seconds` have passed: the engine's raw speed, as
/// `examples/random_rollouts.rs` measures it. The deals are the seeded ChaCha8 ones; the
/// moves come from PCG (`Pcg64Mcg`, seeded with `seed`), as the policy's randomness is
/// not part of the reproducible deal and ChaCha8 would cost a tenth of each step.
pub fn random_playouts(variant: Variant, min_seconds: f64, seed: u64) -> PlayoutStats {
    // Compiled per CPU level, so that picking a random legal card (`popcnt`, `pdep`)
    // inlines into the loop.
    crate::simd::dispatch(
        crate::simd::Cpu::detect(),
        Playouts {
            variant,
            min_seconds,
            seed,
        },
    )
}

struct Playouts {
    variant: Variant,
    min_seconds: f64,
    seed: u64,
}

impl crate::simd::Kernel for Playouts {
    type Output = PlayoutStats;

    #[inline(always)]
    fn run(self, _: crate::simd::Cpu) -> PlayoutStats {
        random_playouts_any(self.variant, self.min_seconds, self.seed)
    }
}

#[inline(always)]
fn random_playouts_any(variant: Variant, min_seconds: f64, seed: u64) -> PlayoutStats {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let start = Instant::now();
    let mut stats = PlayoutStats {
        games: 0,
        decisions: 0,
        seconds: 0.0,
    };
    while stats.games == 0 || start.elapsed().as_secs_f64() < min_seconds {
        let cfg =
            GameConfig::new(variant, seed.wrapping_add(stats.games)).with_max_rounds(Some(200));
        let mut s = State::new(cfg);
        while !s.is_over() {
            let legal = s.legal_actions();
            s.apply(legal.pick(rng.next_u32()).expect("a legal action"))
                .expect("legal");
            stats.decisions += 1;
        }
        stats.games += 1;
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats
}

/// Plays the arena; `progress` is called once per finished game (from worker threads).
/// The composition of [`run_arena_range`] over all games and [`summarize`].
pub fn run_arena(
    config: &ArenaConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaReport, ArenaError> {
    check(config)?;
    let pool = thread_pool(config.threads)?;
    let start = Instant::now();
    let counts = play_range(config, 0, config.total_games(), &pool, progress)?;
    let seconds = start.elapsed().as_secs_f64();
    summarize(config, &counts, seconds, pool.current_num_threads())
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
    let entries = (0..l)
        .map(|e| {
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

impl fmt::Display for ArenaReport {
    /// A summary table for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        writeln!(
            f,
            "{} games of {} ({} duplicate), {:.2} rounds/game, {} truncated",
            s.games,
            s.variant,
            if self.config.duplicate { "with" } else { "no" },
            s.rounds_per_game,
            s.truncated
        )?;
        writeln!(
            f,
            "{:<16} {:>5} {:>8} {:>8} {:>17} {:>8} {:>8} {:>9} {:>9}",
            "bot", "seats", "wins", "win%", "95% CI", "pts/game", "Elo", "ms/dec", "max ms"
        )?;
        for (e, en) in s.entries.iter().enumerate() {
            writeln!(
                f,
                "{:<16} {:>5} {:>8} {:>7.2}% {:>7.2}%..{:>6.2}% {:>8.2} {:>+8.0} {:>9.4} {:>9.3}",
                en.bot,
                en.seats,
                en.wins,
                100.0 * en.win_rate,
                100.0 * en.ci95[0],
                100.0 * en.ci95[1],
                en.points_per_game,
                en.elo,
                self.timing.ms_per_decision[e],
                self.timing.max_ms_per_decision[e]
            )?;
        }
        let t = &self.timing;
        write!(
            f,
            "{} games, {} decisions in {:.2} s on {} thread{}: {:.0} games/s, {:.0} decisions/s",
            s.games,
            s.decisions,
            t.seconds,
            t.threads,
            if t.threads == 1 { "" } else { "s" },
            s.games as f64 / t.seconds.max(1e-9),
            t.decisions_per_second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> impl Fn() + Sync {
        || {}
    }

    #[test]
    fn summaries_do_not_depend_on_the_thread_count() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 12, 9);
            c.max_rounds = Some(3);
            c.threads = 1;
            let one = run_arena(&c, &quiet()).unwrap();
            c.threads = 2;
            let two = run_arena(&c, &quiet()).unwrap();
            assert_eq!(one.summary, two.summary, "{v}");
            assert_eq!(one.summary.games, c.total_games());
            c.seed = 10;
            let other = run_arena(&c, &quiet()).unwrap();
            assert_ne!(one.summary, other.summary, "{v}");
        }
    }

    #[test]
    fn duplicate_pairs_replay_identical_deals_with_seats_rotated() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 6, 4);
            c.max_rounds = Some(4);
            let g = c.group_size();
            let deals_of = |i: u64| {
                let setup = game_setup(&c, i).unwrap();
                let mut deals = Vec::new();
                play_game(&c, &setup, &mut |s: &State| {
                    if deals.last().map(|&(r, _)| r) != Some(s.round()) {
                        deals.push((s.round(), *s.deal()));
                    }
                })
                .unwrap();
                (setup, deals)
            };
            let (first, deals0) = deals_of(0);
            for i in 1..g {
                let (setup, deals) = deals_of(i);
                assert_eq!(setup.deal_seed, first.deal_seed);
                assert_ne!(setup.entry_of_seat, first.entry_of_seat);
                let common = deals.len().min(deals0.len());
                assert!(common >= 1);
                assert_eq!(deals[..common], deals0[..common], "{v} game {i}");
            }
            let (next, _) = deals_of(g);
            assert_ne!(next.deal_seed, first.deal_seed);
            // Every entry sits in every seat across a group.
            let n = v.num_players();
            for s in 0..n {
                let mut seen: Vec<usize> = (0..g)
                    .map(|i| game_setup(&c, i).unwrap().entry_of_seat[s])
                    .collect();
                seen.sort();
                seen.dedup();
                assert_eq!(seen, vec![0, 1], "{v} seat {s}");
            }
        }
    }

    #[test]
    fn team_swap_puts_each_entry_on_each_team() {
        let c = ArenaConfig::new(Variant::FourPlayer, &["a", "b"], 2, 0);
        assert_eq!(game_setup(&c, 0).unwrap().entry_of_seat, [0, 1, 0, 1]);
        assert_eq!(game_setup(&c, 1).unwrap().entry_of_seat, [1, 0, 1, 0]);
        let c3 = ArenaConfig::new(Variant::ThreePlayer, &["a", "b", "c"], 3, 0);
        let rot: Vec<[usize; 4]> = (0..3)
            .map(|i| game_setup(&c3, i).unwrap().entry_of_seat)
            .collect();
        assert_eq!(rot, vec![[0, 1, 2, 0], [1, 2, 0, 0], [2, 0, 1, 0]]);
    }

    #[test]
    fn bad_lineups_and_names_are_reported() {
        let c = ArenaConfig::new(Variant::FourPlayer, &["a", "b", "c"], 2, 0);
        assert!(matches!(
            run_arena(&c, &quiet()),
            Err(ArenaError::Lineup(_))
        ));
        let c = ArenaConfig::new(Variant::FourPlayer, &["heuristic", "nope"], 2, 0);
        let e = run_arena(&c, &quiet()).unwrap_err();
        assert!(e.to_string().contains("'nope'"), "{e}");
    }

    #[test]
    fn slices_merge_exactly_into_the_whole_arena() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 13, 5);
            c.max_rounds = Some(3);
            c.threads = 2;
            let whole = run_arena(&c, &quiet()).unwrap();
            let total = c.total_games();
            for cuts in [vec![], vec![1], vec![5, 6], vec![3, 7, 11]] {
                let mut bounds = vec![0];
                bounds.extend(cuts.iter().copied().filter(|&x| x < total));
                bounds.push(total);
                let mut parts: Vec<ArenaCounts> = bounds
                    .windows(2)
                    .map(|w| run_arena_range(&c, w[0], w[1], &quiet()).unwrap())
                    .collect();
                // Merge order does not matter.
                parts.reverse();
                let mut merged = ArenaCounts::empty(2);
                for p in &parts {
                    merged.merge(p).unwrap();
                }
                assert_eq!(merged.ranges, vec![[0, total]]);
                let r = summarize(&c, &merged, 1.0, 1).unwrap();
                assert_eq!(r.summary, whole.summary, "{v} {cuts:?}");
            }
        }
    }

    #[test]
    fn overlapping_or_incomplete_counts_are_refused() {
        let mut c = ArenaConfig::new(Variant::FourPlayer, &["random", "random"], 6, 1);
        c.max_rounds = Some(2);
        let a = run_arena_range(&c, 0, 4, &quiet()).unwrap();
        let b = run_arena_range(&c, 3, 6, &quiet()).unwrap();
        let mut m = a.clone();
        assert!(matches!(m.merge(&b), Err(ArenaError::Merge(_))));
        assert!(matches!(
            summarize(&c, &a, 1.0, 1),
            Err(ArenaError::Range(_))
        ));
        assert!(matches!(
            run_arena_range(&c, 4, 7, &quiet()),
            Err(ArenaError::Range(_))
        ));
        let mut three = ArenaCounts::empty(3);
        assert!(matches!(three.merge(&a), Err(ArenaError::Merge(_))));
    }

    #[test]
    fn wilson_interval() {
        let [lo, hi] = wilson95(0.5, 100.0);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        let [lo, hi] = wilson95(1.0, 10.0);
        assert!(lo > 0.69 && hi == 1.0);
    }
}
