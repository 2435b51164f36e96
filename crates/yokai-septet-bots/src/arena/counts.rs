//! Raw counts of an arena's games: integers that merge exactly, in any order, whether the
//! games were played by [`run_arena_range`](super::run_arena_range) on any number of
//! threads and machines, or elsewhere ([`played_game_counts`]).

use serde::{Deserialize, Serialize};

use super::boards::{BoardCounts, GameScore, SHARE_UNIT};
use super::{game_setup, ArenaConfig, ArenaError};
use yokai_septet::State;

/// What one game produced.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GameResult {
    /// The game's index in the arena.
    pub(super) index: u64,
    pub(super) winners: u8,
    pub(super) entry_of_seat: [usize; 4],
    pub(super) scores: [u16; 4],
    pub(super) rounds: u32,
    pub(super) truncated: bool,
    pub(super) decisions: [u64; 4],
    pub(super) act_nanos: [u64; 4],
    pub(super) act_max_nanos: [u64; 4],
}

impl GameResult {
    /// Records how the finished game `state` ended (in an arena of single rounds,
    /// [`ArenaConfig::rounds`], the game is its one round: [`yokai_septet::Episode::Round`]).
    pub(super) fn finish(&mut self, state: &State) {
        self.winners = state.winners_mask();
        self.scores = state.scores();
        self.rounds = state.round() + 1;
        self.truncated = state.is_truncated();
    }

    /// The game's share of its board: each entry's win share and scaled margin.
    fn board_score(&self, n: usize, entries: usize) -> GameScore {
        let mut seats = [0u64; 4];
        let mut winning = [0u64; 4];
        let mut points = [0i64; 4];
        for s in 0..n {
            let e = self.entry_of_seat[s];
            seats[e] += 1;
            winning[e] += u64::from(self.winners >> s & 1);
            points[e] += self.scores[s] as i64;
        }
        let winners = u64::from(self.winners.count_ones());
        let total: i64 = points.iter().sum();
        let mut score = GameScore::default();
        for e in 0..entries {
            score.share[e] = if winners == 0 {
                SHARE_UNIT * seats[e] / n as u64
            } else {
                SHARE_UNIT * winning[e] / winners
            };
            let k = seats[e] as i64;
            score.margin[e] = (n as i64 - k) * points[e] - k * (total - points[e]);
        }
        score
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
    /// Nanoseconds each seat's policy took over its decisions.
    pub act_nanos: [u64; 4],
    /// The slowest single decision of each seat, in nanoseconds.
    pub act_max_nanos: [u64; 4],
}

/// The counts of one game of the arena played elsewhere, to merge with others (and with
/// counts from [`run_arena_range`](super::run_arena_range)) into a summary. An error if the index is outside the
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
    let seeded = yokai_septet::Deal::from_seed(expected.variant, setup.deal_seed, round as u64);
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
        index: game.index,
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

/// Raw counts of some of an arena's games: everything a summary is computed from, as
/// integers, so that counts of disjoint slices merge exactly (in any order) into the
/// counts of the whole arena. Entries are indexed like `ArenaConfig::bots`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaCounts {
    /// The game indices counted: sorted, disjoint, non-adjacent half-open ranges.
    pub ranges: Vec<[u64; 2]>,
    /// Games counted.
    pub games: u64,
    /// Games each entry won (some seat of it among the winners).
    pub wins: Vec<u64>,
    /// Games that ended without a winner (round cap).
    pub draws: u64,
    /// Sum of the final scores of each entry's seats.
    pub points: Vec<u64>,
    /// Rounds played, over all the games counted.
    pub rounds: u64,
    /// Games stopped by the round cap (R10).
    pub truncated: u64,
    /// Decisions made by each entry's bots.
    pub decisions: Vec<u64>,
    /// Wall-clock only (not part of a summary): time spent in each entry's bots.
    pub act_nanos: Vec<u64>,
    /// Wall-clock only: each entry's slowest single decision.
    pub act_max_nanos: Vec<u64>,
    /// The boards (each deal's games scored together), for the paired statistics.
    #[serde(default)]
    pub boards: BoardCounts,
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
            boards: BoardCounts::empty(entries),
            ..ArenaCounts::default()
        }
    }

    pub(super) fn add_game(&mut self, config: &ArenaConfig, r: &GameResult) {
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
        self.boards.add_game(
            config.board_of(r.index),
            config.board_size(),
            &r.board_score(n, l),
        );
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
        if lens.iter().any(|&x| x != l) || !self.boards.fits(l) || !other.boards.fits(l) {
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
        self.boards.merge(&other.boards);
        Ok(())
    }

    /// Whether these counts cover exactly the games `0..config.total_games()`.
    pub fn is_complete(&self, config: &ArenaConfig) -> bool {
        let total = config.total_games();
        self.games == total
            && self.wins.len() == config.bots.len()
            && self.boards.open.is_empty()
            && self.boards.boards * config.board_size() == total
            && match self.ranges.as_slice() {
                [] => total == 0,
                [r] => *r == [0, total],
                _ => false,
            }
    }
}
