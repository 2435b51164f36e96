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

pub mod boards;
mod counts;
pub mod estimate;
mod game_loop;
pub mod imitation;
pub mod ladder;
mod playouts;
mod report;
mod run;
pub mod settings;
mod stats;
pub mod value_data;

pub use counts::{played_game_counts, ArenaCounts, PlayedGame};
pub use playouts::{random_playouts, PlayoutStats};
pub use report::{
    rate_text, short_duration, summarize, ArenaReport, ArenaSummary, EntrySummary, Timing,
};
pub use run::{run_arena, run_arena_range, Sequential};
pub use stats::{elo_of_ratio, wilson95};

use std::fmt;

use serde::Serialize;

use crate::{BotError, BotRegistry};
use yokai_septet::rng::arena_seed;
use yokai_septet::seat::left_of;
use yokai_septet::{Episode, GameConfig, Scoring, Variant};

/// What to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArenaConfig {
    /// The game.
    #[serde(serialize_with = "as_text")]
    pub variant: Variant,
    /// The scoring mode (R8).
    #[serde(serialize_with = "as_text")]
    pub scoring: Scoring,
    /// The line-up: one bot name per side (team in 4-player variants), or one per seat.
    /// In `3p` two names mean the first plays against two copies of the second.
    pub bots: Vec<String>,
    /// Games to play; with duplicate deals, rounded up to whole deal groups.
    pub games: u64,
    /// The seed every deal and bot seed derives from (R10).
    pub seed: u64,
    /// Round cap per game (R10), so that seal games between weak bots terminate.
    pub max_rounds: Option<u32>,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Replay each deal in every seat rotation.
    pub duplicate: bool,
    /// Play single rounds from fresh deals instead of whole games: each "game" is one
    /// round, won by the round's winners and scored by its round points.
    pub rounds: bool,
    /// Stop early, after the first board at which the first entry's anytime-valid board
    /// interval excludes its fair share ([`boards::SequentialTest`], error rate
    /// [`boards::SEQUENTIAL_ERROR_RATE`]); `games` is then the budget.
    pub sequential: bool,
}

impl ArenaConfig {
    /// `games` games of `variant` between `bots`, the other settings at their defaults
    /// ([`settings::SETTINGS`]: advanced scoring, duplicate deals, a 100-round cap).
    pub fn new(variant: Variant, bots: &[&str], games: u64, seed: u64) -> ArenaConfig {
        ArenaConfig {
            variant,
            scoring: settings::default_scoring(),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games,
            seed,
            max_rounds: Some(settings::DEFAULT_MAX_ROUNDS),
            // The table's `None`: every core.
            threads: 0,
            duplicate: settings::DEFAULT_DUPLICATE,
            rounds: settings::DEFAULT_ROUNDS,
            sequential: settings::DEFAULT_SEQUENTIAL,
        }
    }

    /// Games per board: the games of one deal (a duplicate group), or 1 without
    /// duplicate deals.
    pub fn board_size(&self) -> u64 {
        if self.duplicate {
            self.group_size()
        } else {
            1
        }
    }

    /// The board of game `index`.
    pub fn board_of(&self, index: u64) -> u64 {
        index / self.board_size()
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

    /// The rules of a game dealt from `seed`: an episode of one round where
    /// [`Self::rounds`] (the round cap then has nothing to cut).
    pub(crate) fn game_config(&self, seed: u64) -> GameConfig {
        let config = GameConfig::new(self.variant, seed).with_scoring(self.scoring);
        if self.rounds {
            config.with_episode(Episode::Round)
        } else {
            config.with_max_rounds(self.max_rounds)
        }
    }
}

/// Serializes a config enum by its name (`4p`, `advanced`).
fn as_text<T: fmt::Display, S: serde::Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Why an arena cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// A bot name that cannot be built or cannot play the variant.
    Bot(BotError),
    /// The line-up does not fit the variant.
    Lineup(String),
    /// A game range outside the arena, or counts that do not cover it.
    Range(String),
    /// Counts that cannot be merged (overlapping games, different line-ups).
    Merge(String),
    /// The rayon pool could not start (the operating system's reason).
    ThreadPool(String),
    /// A setting out of range (no games to play).
    Settings(String),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Bot(e) => e.fmt(f),
            ArenaError::Lineup(s)
            | ArenaError::Range(s)
            | ArenaError::Merge(s)
            | ArenaError::Settings(s) => f.write_str(s),
            ArenaError::ThreadPool(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl From<BotError> for ArenaError {
    fn from(e: BotError) -> ArenaError {
        ArenaError::Bot(e)
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

/// Checks a configuration (line-up shape, and that `registry` builds every bot for the
/// variant) without playing anything, before starting any thread.
pub fn check(config: &ArenaConfig, registry: &BotRegistry) -> Result<(), ArenaError> {
    // An arena of no games would print a table of nothing (a 0–79% "interval") as if it
    // had measured something.
    if config.games == 0 {
        return Err(ArenaError::Settings(
            "games must be at least 1: an arena of no games measures nothing".into(),
        ));
    }
    base_seats(config)?;
    if config.sequential && config.bots.len() != 2 {
        return Err(ArenaError::Settings(format!(
            "a sequential stop compares two bots: the line-up has {} entries",
            config.bots.len()
        )));
    }
    for b in &config.bots {
        registry.check(b, config.variant)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::game_loop::{play_game, GameObserver};
    use super::*;
    use yokai_septet::State;

    fn quiet() -> impl Fn() + Sync {
        || {}
    }

    /// Calls its function with the state before every decision.
    struct BeforeDecision<F>(F);

    impl<F: FnMut(&State)> GameObserver for BeforeDecision<F> {
        fn before_decision(&mut self, state: &State, _seat: usize) {
            (self.0)(state)
        }
    }

    #[test]
    fn summaries_do_not_depend_on_the_thread_count() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 12, 9);
            c.max_rounds = Some(3);
            c.threads = 1;
            let one = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            c.threads = 2;
            let two = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            assert_eq!(one.summary, two.summary, "{v}");
            assert_eq!(one.summary.games, c.total_games());
            c.seed = 10;
            let other = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
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
                play_game(
                    &c,
                    &BotRegistry::new(),
                    i,
                    &setup,
                    &mut BeforeDecision(|s: &State| {
                        if deals.last().map(|&(r, _)| r) != Some(s.round()) {
                            deals.push((s.round(), *s.deal()));
                        }
                    }),
                )
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
            run_arena(&c, &BotRegistry::new(), &quiet()),
            Err(ArenaError::Lineup(_))
        ));
        let c = ArenaConfig::new(Variant::FourPlayer, &["heuristic", "nope"], 2, 0);
        let e = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap_err();
        assert!(e.to_string().contains("'nope'"), "{e}");
    }

    #[test]
    fn slices_merge_exactly_into_the_whole_arena() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 13, 5);
            c.max_rounds = Some(3);
            c.threads = 2;
            let whole = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            let total = c.total_games();
            for cuts in [vec![], vec![1], vec![5, 6], vec![3, 7, 11]] {
                let mut bounds = vec![0];
                bounds.extend(cuts.iter().copied().filter(|&x| x < total));
                bounds.push(total);
                let mut parts: Vec<ArenaCounts> = bounds
                    .windows(2)
                    .map(|w| {
                        run_arena_range(&c, &BotRegistry::new(), w[0], w[1], &quiet()).unwrap()
                    })
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
        let a = run_arena_range(&c, &BotRegistry::new(), 0, 4, &quiet()).unwrap();
        let b = run_arena_range(&c, &BotRegistry::new(), 3, 6, &quiet()).unwrap();
        let mut m = a.clone();
        assert!(matches!(m.merge(&b), Err(ArenaError::Merge(_))));
        assert!(matches!(
            summarize(&c, &a, 1.0, 1),
            Err(ArenaError::Range(_))
        ));
        assert!(matches!(
            run_arena_range(&c, &BotRegistry::new(), 4, 7, &quiet()),
            Err(ArenaError::Range(_))
        ));
        let mut three = ArenaCounts::empty(3);
        assert!(matches!(three.merge(&a), Err(ArenaError::Merge(_))));
    }

    #[test]
    fn boards_pair_each_deals_games_and_match_a_brute_force_count() {
        // Every game played by hand, its win share and margin worked out from its result,
        // then grouped into boards: the summary's board statistics are these.
        for v in Variant::ALL {
            for rounds in [false, true] {
                let mut c = ArenaConfig::new(v, &["heuristic", "random"], 12, 21);
                c.max_rounds = Some(3);
                c.rounds = rounds;
                c.threads = 2;
                let r = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
                let n = v.num_players();
                let g = c.board_size();
                let mut boards: Vec<[f64; 2]> = Vec::new();
                let mut margins: Vec<[f64; 2]> = Vec::new();
                for i in 0..c.total_games() {
                    let setup = game_setup(&c, i).unwrap();
                    let res = play_game(&c, &BotRegistry::new(), i, &setup, &mut ()).unwrap();
                    let winners = res.winners.count_ones() as f64;
                    let mut share = [0.0; 2];
                    let mut mean_points = [0.0; 2];
                    let mut seats = [0.0; 2];
                    for s in 0..n {
                        let e = setup.entry_of_seat[s];
                        seats[e] += 1.0;
                        mean_points[e] += res.scores[s] as f64;
                        if res.winners >> s & 1 == 1 {
                            share[e] += 1.0 / winners;
                        }
                    }
                    for e in 0..2 {
                        if winners == 0.0 {
                            share[e] = seats[e] / n as f64;
                        }
                        mean_points[e] /= seats[e];
                    }
                    let margin = [
                        mean_points[0] - mean_points[1],
                        mean_points[1] - mean_points[0],
                    ];
                    if i % g == 0 {
                        boards.push([0.0; 2]);
                        margins.push([0.0; 2]);
                    }
                    for e in 0..2 {
                        boards.last_mut().unwrap()[e] += share[e] / g as f64;
                        margins.last_mut().unwrap()[e] += margin[e] / g as f64;
                    }
                }
                let s = &r.summary;
                assert_eq!(s.boards, boards.len() as u64, "{v}");
                for e in 0..2 {
                    let want = boards::PairedMean::from_sums(
                        boards.len() as u64,
                        boards.iter().map(|b| b[e]).sum(),
                        boards.iter().map(|b| b[e] * b[e]).sum(),
                    );
                    let got = &s.entries[e].board_win_rate;
                    assert!((got.mean - want.mean).abs() < 1e-9, "{v} {rounds}");
                    assert!((got.sd - want.sd).abs() < 1e-9, "{v} {rounds}");
                    let m = &s.entries[e].board_margin;
                    let want_m: f64 =
                        margins.iter().map(|b| b[e]).sum::<f64>() / boards.len() as f64;
                    assert!(
                        (m.mean - want_m).abs() < 1e-9,
                        "{v} {rounds}: {} {want_m}",
                        m.mean
                    );
                }
                if v.has_teams() {
                    // With teams the mean board share is the win rate.
                    let w = s.entries[0].win_rate;
                    assert!((s.entries[0].board_win_rate.mean - w).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn single_rounds_are_one_round_from_the_boards_deal_at_any_thread_count() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["heuristic", "random"], 18, 4);
            c.rounds = true;
            c.threads = 1;
            let one = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            c.threads = 2;
            let two = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            assert_eq!(one.summary, two.summary, "{v}");
            assert!(one.summary.rounds && one.summary.rounds_per_game == 1.0);
            assert_eq!(
                one.summary.truncated, 0,
                "a single round is not a truncated game"
            );
            assert!(one.to_string().contains("single rounds"), "{}", one);
            // Each game is the first round of its board's deal.
            let setup = game_setup(&c, 0).unwrap();
            let mut rounds = Vec::new();
            play_game(
                &c,
                &BotRegistry::new(),
                0,
                &setup,
                &mut BeforeDecision(|s: &State| rounds.push(s.round())),
            )
            .unwrap();
            assert!(rounds.iter().all(|&r| r == 0));
            assert_eq!(
                setup.deal_seed,
                game_setup(&c, c.board_size() - 1).unwrap().deal_seed
            );
        }
    }

    #[test]
    fn a_sequential_arena_stops_for_a_clear_difference_at_any_thread_count() {
        let mut c = ArenaConfig::new(Variant::FourPlayer, &["heuristic", "random"], 4000, 8);
        c.sequential = true;
        c.rounds = true;
        c.threads = 1;
        let one = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
        c.threads = 2;
        let two = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
        assert_eq!(one.summary, two.summary);
        let q = one.summary.sequential.clone().unwrap();
        assert!(q.decided && q.interval[0] > 0.5, "{q:?}");
        assert_eq!(q.budget, 2000);
        assert!(q.boards < 200, "{q:?}");
        assert_eq!(one.summary.games, 2 * q.boards);
        assert_eq!(one.summary.boards, q.boards);
        assert!(one
            .to_string()
            .contains("sequential stop (5% error rate): stopped after"));
        // The same boards played without the stop give the same counts.
        let mut fixed = c.clone();
        fixed.sequential = false;
        fixed.games = one.summary.games;
        let f = run_arena(&fixed, &BotRegistry::new(), &quiet()).unwrap();
        assert_eq!(f.summary.entries, one.summary.entries);
        // A sequential arena compares two entries.
        c.bots = vec!["random".into(); 4];
        let e = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap_err();
        assert!(e.to_string().contains("two bots"), "{e}");
    }

    #[test]
    fn equal_bots_rarely_stop_a_sequential_arena() {
        // Random against random is a fair match: over 200 arenas of up to 60 boards
        // (single rounds), the stop may declare a winner in at most 5% of them (plus
        // room for the simulation's noise, 3 standard errors).
        let mut wrong = 0;
        for seed in 0..200 {
            let mut c = ArenaConfig::new(Variant::FourPlayer, &["random", "random"], 120, seed);
            c.sequential = true;
            c.rounds = true;
            c.threads = 1;
            let r = run_arena(&c, &BotRegistry::new(), &quiet()).unwrap();
            let q = r.summary.sequential.unwrap();
            wrong += q.decided as u32;
            if !q.decided {
                assert_eq!(q.boards, 60);
            }
        }
        assert!(wrong <= 10 + 5, "{wrong} of 200 wrong stops");
    }

    #[test]
    fn wilson_interval() {
        let [lo, hi] = wilson95(0.5, 100.0);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        let [lo, hi] = wilson95(1.0, 10.0);
        assert!(lo > 0.69 && hi == 1.0);
    }
}
