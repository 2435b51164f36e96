//! Boards: the games of one duplicate deal, scored together (as duplicate bridge scores a
//! board), and the statistics that pair them.
//!
//! A deal's games (2 with teams, 3 in `3p`) seat every entry in every rotation, so the
//! card luck of the deal falls on both sides alike and cancels in the board's score. A
//! board's score for an entry is its win share over the board's games and its mean points
//! margin; the boards are independent, so their mean has a Student-t interval whose width
//! reflects the luck left after pairing, not the luck of single games.
//!
//! A game's win share splits the win among its winning seats (a `3p` round can have two
//! winners, R7.2) and gives a game without winners to the seats evenly, so the entries'
//! shares add up to 1 and an entry of equally strong bots holding `k` of the `n` seats has
//! an expected share of exactly `k/n` (its *fair share*). With teams this is the win rate
//! (a win 1, a draw ½).
//!
//! Everything kept per board is an integer sum, so that boards counted on any thread,
//! process or machine merge exactly (as [`super::ArenaCounts::merge`] does); a board whose games were
//! counted in different slices stays open until its last game arrives.
//!
//! The sequential stop ([`SequentialTest`]) watches the first entry's board win shares in
//! board order with an anytime-valid confidence sequence, so that the run may stop at any
//! board without raising the error rate above the stated one.

use serde::{Deserialize, Serialize};

/// The stated error rate of the sequential stop: two bots of equal strength make it stop
/// (declaring one stronger) in at most this share of runs, however long they run.
pub const SEQUENTIAL_ERROR_RATE: f64 = 0.05;

/// A game's win share is counted in twelfths ([`BoardCounts::share`]): 12 is divisible by
/// every number of winners (1 to 3) and of seats (3 or 4), so shares stay integers.
pub const SHARE_UNIT: u64 = 12;

/// One game's contribution to its board, for each line-up entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct GameScore {
    /// Win share in [`SHARE_UNIT`]s: its winning seats over all winning seats, or its
    /// seats over all seats where the game had no winner.
    pub(super) share: [u64; 4],
    /// The entry's points margin over the rest of the table, scaled to an integer
    /// ([`margin_scale`] per point).
    pub(super) margin: [i64; 4],
}

/// The factor [`BoardCounts::margin`] carries: an entry holding `k` of the `n` seats has
/// margin `(n − k)·Σ its seats' points − k·Σ the others'`, which is `k·(n − k)` times the
/// difference of the per-seat means (0 where it holds every seat).
pub fn margin_scale(seats: u32, players: u32) -> u32 {
    seats * (players - seats)
}

/// A board some of whose games are still to be counted (in another slice).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenBoard {
    /// The board's index (its deal's index in the arena).
    pub board: u64,
    /// Games of it counted so far.
    pub games: u64,
    /// Games it holds in all.
    pub size: u64,
    /// Each entry's win share so far, in [`SHARE_UNIT`]s.
    pub share: Vec<u64>,
    /// Each entry's scaled margin so far.
    pub margin: Vec<i64>,
}

/// The board statistics of some of an arena's games: integer sums that merge exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardCounts {
    /// Complete boards counted.
    pub boards: u64,
    /// Σ over complete boards of each entry's win share (in [`SHARE_UNIT`]s).
    pub share: Vec<u64>,
    /// Σ over complete boards of each entry's win share, squared.
    pub share_sq: Vec<u64>,
    /// Σ over complete boards of each entry's scaled margin.
    pub margin: Vec<i64>,
    /// Σ over complete boards of each entry's scaled margin, squared.
    pub margin_sq: Vec<u64>,
    /// Boards not complete yet, by index.
    pub open: Vec<OpenBoard>,
}

impl BoardCounts {
    /// No boards yet, for `entries` line-up entries.
    pub fn empty(entries: usize) -> BoardCounts {
        BoardCounts {
            boards: 0,
            share: vec![0; entries],
            share_sq: vec![0; entries],
            margin: vec![0; entries],
            margin_sq: vec![0; entries],
            open: Vec::new(),
        }
    }

    /// Counts one game of board `board` (of `size` games).
    pub(super) fn add_game(&mut self, board: u64, size: u64, score: &GameScore) {
        let l = self.margin.len();
        let one = OpenBoard {
            board,
            games: 1,
            size,
            share: score.share[..l].to_vec(),
            margin: score.margin[..l].to_vec(),
        };
        self.absorb(one);
    }

    /// Adds an open board's games to the board of the same index, closing it when it
    /// holds all its games.
    fn absorb(&mut self, part: OpenBoard) {
        let at = self.open.binary_search_by_key(&part.board, |b| b.board);
        let merged = match at {
            Ok(i) => {
                let b = &mut self.open[i];
                b.games += part.games;
                for e in 0..b.margin.len() {
                    b.share[e] += part.share[e];
                    b.margin[e] += part.margin[e];
                }
                i
            }
            Err(i) => {
                self.open.insert(i, part);
                i
            }
        };
        if self.open[merged].games >= self.open[merged].size {
            let b = self.open.remove(merged);
            self.close(&b);
        }
    }

    fn close(&mut self, b: &OpenBoard) {
        self.boards += 1;
        for e in 0..self.margin.len() {
            self.share[e] += b.share[e];
            self.share_sq[e] += b.share[e] * b.share[e];
            self.margin[e] += b.margin[e];
            self.margin_sq[e] += b.margin[e].unsigned_abs() * b.margin[e].unsigned_abs();
        }
    }

    /// Adds the boards of `other` (counted over games disjoint from these), joining the
    /// open boards that the two complete. Exact and commutative.
    pub(super) fn merge(&mut self, other: &BoardCounts) {
        self.boards += other.boards;
        for e in 0..self.margin.len() {
            self.share[e] += other.share[e];
            self.share_sq[e] += other.share_sq[e];
            self.margin[e] += other.margin[e];
            self.margin_sq[e] += other.margin_sq[e];
        }
        for b in &other.open {
            self.absorb(b.clone());
        }
    }

    /// Whether the sums are sized for `entries` entries.
    pub(super) fn fits(&self, entries: usize) -> bool {
        self.share.len() == entries
            && self.share_sq.len() == entries
            && self.margin.len() == entries
            && self.margin_sq.len() == entries
            && self
                .open
                .iter()
                .all(|b| b.share.len() == entries && b.margin.len() == entries)
    }
}

/// A mean over boards with its paired 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedMean {
    /// The mean over boards.
    pub mean: f64,
    /// Student-t 95% interval of the mean, from the spread of the boards' scores.
    pub ci95: [f64; 2],
    /// Standard deviation of one board's score.
    pub sd: f64,
}

impl PairedMean {
    /// The mean and interval of `boards` values whose sum is `sum` and sum of squares
    /// `sum_sq` (both already in the unit to report).
    pub fn from_sums(boards: u64, sum: f64, sum_sq: f64) -> PairedMean {
        if boards == 0 {
            return PairedMean {
                mean: 0.0,
                ci95: [f64::NEG_INFINITY, f64::INFINITY],
                sd: 0.0,
            };
        }
        let b = boards as f64;
        let mean = sum / b;
        if boards == 1 {
            return PairedMean {
                mean,
                ci95: [f64::NEG_INFINITY, f64::INFINITY],
                sd: 0.0,
            };
        }
        let var = ((sum_sq - sum * sum / b) / (b - 1.0)).max(0.0);
        let sd = var.sqrt();
        let half = t975(boards - 1) * sd / b.sqrt();
        PairedMean {
            mean,
            ci95: [mean - half, mean + half],
            sd,
        }
    }
}

/// The 97.5% quantile of Student's t distribution with `df` degrees of freedom (the
/// two-sided 95% factor): the printed table up to 30, then the Cornish–Fisher expansion
/// around the normal quantile (within 2e-4 of the table there, as tested).
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z: f64 = 1.959_963_984_540_054;
            let n = df as f64;
            let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
            z + (z3 + z) / (4.0 * n)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * n.powi(3))
                + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z)
                    / (92160.0 * n.powi(4))
        }
    }
}

/// How many unpaired games would give a Wilson-style interval as narrow as `paired`, for a
/// win rate `p`: `p(1 − p)·(1.96 / half-width)²` (∞ where the paired interval has no
/// width, `None` where there is no interval yet).
pub fn equivalent_games(p: f64, paired: &PairedMean) -> Option<f64> {
    let half = (paired.ci95[1] - paired.ci95[0]) / 2.0;
    if !half.is_finite() {
        return None;
    }
    let z = 1.959_963_984_540_054;
    Some(if half > 0.0 {
        p * (1.0 - p) * (z / half).powi(2)
    } else {
        f64::INFINITY
    })
}

/// The sequential stop: an anytime-valid confidence sequence for the mean of values in
/// `[0, 1]` seen one at a time (the first entry's board win shares, in board order), the
/// *predictable plug-in empirical-Bernstein* sequence of Waudby-Smith and Ramdas
/// ("Estimating means of bounded random variables by betting", 2023, Theorem 2). With
/// probability at least `1 − error_rate` the true mean lies in every interval of the
/// sequence at once, so stopping at the first board where the interval excludes the fair
/// share is wrong (for equal bots) in at most `error_rate` of runs, however many boards
/// are looked at. Its intervals are wider than the fixed-size Student-t interval of the
/// same boards: that is the price of looking after every board.
#[derive(Clone, Debug, PartialEq)]
pub struct SequentialTest {
    error_rate: f64,
    n: u64,
    sum: f64,
    mean_prev: f64,
    var_sum: f64,
    lambda_sum: f64,
    weighted_sum: f64,
    penalty: f64,
    interval: [f64; 2],
}

/// What [`SequentialTest`] concluded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SequentialSummary {
    /// The stated error rate.
    pub error_rate: f64,
    /// The value tested against (the first entry's fair share of wins).
    pub fair_share: f64,
    /// Boards played when it stopped.
    pub boards: u64,
    /// The budget: boards it could have played.
    pub budget: u64,
    /// Whether the interval excluded the fair share (else the budget was spent).
    pub decided: bool,
    /// The anytime-valid interval of the first entry's board win share when it stopped.
    pub interval: [f64; 2],
}

impl SequentialTest {
    /// A sequence at `error_rate` (between 0 and 1), before any board.
    pub fn new(error_rate: f64) -> SequentialTest {
        SequentialTest {
            error_rate,
            n: 0,
            sum: 0.0,
            mean_prev: 0.5,
            var_sum: 0.25,
            lambda_sum: 0.0,
            weighted_sum: 0.0,
            penalty: 0.0,
            interval: [0.0, 1.0],
        }
    }

    /// Adds the next board's value `x` (in `[0, 1]`) and returns the interval after it
    /// (the running intersection of the sequence's intervals, itself anytime-valid).
    pub fn push(&mut self, x: f64) -> [f64; 2] {
        let x = x.clamp(0.0, 1.0);
        let t = (self.n + 1) as f64;
        let log_term = (2.0 / self.error_rate).ln();
        // σ̂² of the boards before this one (a prior of ¼ as one pseudo-board).
        let var_prev = self.var_sum / t;
        let lambda = (2.0 * log_term / (var_prev * t * (1.0 + t).ln()))
            .sqrt()
            .min(0.5);
        let v = 4.0 * (x - self.mean_prev).powi(2);
        let psi = (-(1.0 - lambda).ln() - lambda) / 4.0;
        self.lambda_sum += lambda;
        self.weighted_sum += lambda * x;
        self.penalty += v * psi;
        self.n += 1;
        self.sum += x;
        let mean = (0.5 + self.sum) / (t + 1.0);
        self.var_sum += (x - mean).powi(2);
        self.mean_prev = mean;
        let center = self.weighted_sum / self.lambda_sum;
        let half = (log_term + self.penalty) / self.lambda_sum;
        self.interval = [
            self.interval[0].max(center - half),
            self.interval[1].min(center + half),
        ];
        self.interval
    }

    /// Whether the interval now excludes `fair`.
    pub fn excludes(&self, fair: f64) -> bool {
        self.interval[0] > fair || self.interval[1] < fair
    }

    /// Boards seen.
    pub fn boards(&self) -> u64 {
        self.n
    }

    /// The conclusion so far, tested against `fair`, of a run of at most `budget` boards.
    pub fn summary(&self, fair: f64, budget: u64) -> SequentialSummary {
        SequentialSummary {
            error_rate: self.error_rate,
            fair_share: fair,
            boards: self.n,
            budget,
            decided: self.excludes(fair),
            interval: self.interval,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::RngCore;

    /// A uniform draw in `[0, 1)`.
    fn unit(rng: &mut ChaCha8Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn the_paired_interval_is_the_student_t_interval_of_the_boards() {
        // Brute force on small fixed data: mean, sample variance and the t quantile of
        // 4 degrees of freedom (2.7764 in the tables).
        let boards = [0.5, 1.0, 0.5, 0.0, 0.75];
        let n = boards.len() as f64;
        let mean = boards.iter().sum::<f64>() / n;
        let var = boards.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = 2.7764 * (var / n).sqrt();
        let p = PairedMean::from_sums(5, boards.iter().sum(), boards.iter().map(|x| x * x).sum());
        assert!((p.mean - 0.55).abs() < 1e-12);
        assert!((p.sd - var.sqrt()).abs() < 1e-12);
        assert!((p.ci95[0] - (mean - half)).abs() < 1e-4, "{p:?}");
        assert!((p.ci95[1] - (mean + half)).abs() < 1e-4, "{p:?}");
        // One board has no interval.
        assert!(PairedMean::from_sums(1, 0.5, 0.25).ci95[0].is_infinite());
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        for (df, t) in [
            (1, 12.7062),
            (2, 4.3027),
            (3, 3.1824),
            (4, 2.7764),
            (5, 2.5706),
            (10, 2.2281),
            (30, 2.0423),
            (31, 2.0395),
            (40, 2.0211),
            (60, 2.0003),
            (100, 1.9840),
            (1000, 1.9623),
        ] {
            assert!((t975(df) - t).abs() < 2e-4, "df {df}: {} vs {t}", t975(df));
        }
    }

    #[test]
    fn boards_merge_exactly_whatever_slices_hold_their_games() {
        // Six boards of two games; counted in one pass, or split at every game with the
        // halves merged in either order, the counts are the same.
        let score = |g: u64| GameScore {
            share: [6 * (g % 3), 12 - 6 * (g % 3), 0, 0],
            margin: [g as i64 - 5, 5 - g as i64, 0, 0],
        };
        let mut whole = BoardCounts::empty(2);
        for g in 0..12 {
            whole.add_game(g / 2, 2, &score(g));
        }
        assert_eq!((whole.boards, whole.open.len()), (6, 0));
        for cut in 1..12 {
            let (mut a, mut b) = (BoardCounts::empty(2), BoardCounts::empty(2));
            for g in 0..cut {
                a.add_game(g / 2, 2, &score(g));
            }
            for g in cut..12 {
                b.add_game(g / 2, 2, &score(g));
            }
            let mut ab = a.clone();
            ab.merge(&b);
            let mut ba = b.clone();
            ba.merge(&a);
            assert_eq!(ab, whole, "cut at {cut}");
            assert_eq!(ba, whole, "cut at {cut}");
        }
        // By hand: board k holds games 2k and 2k+1.
        let sq: u64 = (0..6)
            .map(|k| {
                let h = score(2 * k).share[0] + score(2 * k + 1).share[0];
                h * h
            })
            .sum();
        assert_eq!(whole.share_sq[0], sq);
        assert_eq!(whole.share[0] + whole.share[1], 12 * 12);
        assert_eq!(whole.margin[0], (0..12).map(|g| g as i64 - 5).sum::<i64>());
    }

    /// Runs the sequential test on `boards` values drawn by `draw` and says whether it
    /// stopped (its interval excluded `fair`) before the budget.
    fn stops(
        rng: &mut ChaCha8Rng,
        boards: u64,
        fair: f64,
        draw: impl Fn(&mut ChaCha8Rng) -> f64,
    ) -> bool {
        let mut t = SequentialTest::new(SEQUENTIAL_ERROR_RATE);
        for _ in 0..boards {
            t.push(draw(rng));
            if t.excludes(fair) {
                return true;
            }
        }
        false
    }

    /// Board shares of two equal bots in a team variant: each game a win, a loss or (rarely)
    /// a draw for either side, the deal's luck shared by both games of the board.
    fn equal_board(rng: &mut ChaCha8Rng) -> f64 {
        let luck = 0.9 * unit(rng) - 0.45;
        let game = |rng: &mut ChaCha8Rng, p: f64| -> f64 {
            let u = unit(rng);
            if u < 0.02 {
                0.5
            } else if u < 0.02 + 0.98 * p {
                1.0
            } else {
                0.0
            }
        };
        // The deal favours one seating; the board seats each entry in both.
        (game(rng, 0.5 + luck) + game(rng, 0.5 - luck)) / 2.0
    }

    #[test]
    fn the_sequential_stop_keeps_its_stated_error_rate_for_equal_bots() {
        // 2,000 runs of up to 2,000 boards each, looked at after every board: equal bots
        // may stop wrongly in at most 5% of runs (with room for the simulation's own
        // noise: 3 standard errors of a 5% rate over 2,000 runs is 1.5 points).
        let mut rng = yokai_septet::rng::test_rng(65);
        let runs = 2000;
        let wrong = (0..runs)
            .filter(|_| stops(&mut rng, 2000, 0.5, equal_board))
            .count();
        let rate = wrong as f64 / runs as f64;
        assert!(rate <= SEQUENTIAL_ERROR_RATE + 0.015, "wrong stops {rate}");
        // In 3p the first entry's fair share is a third.
        let third = |rng: &mut ChaCha8Rng| -> f64 {
            (0..3).filter(|_| unit(rng) < 1.0 / 3.0).count() as f64 / 3.0
        };
        let wrong = (0..500)
            .filter(|_| stops(&mut rng, 1000, 1.0 / 3.0, third))
            .count();
        assert!(
            wrong as f64 / 500.0 <= SEQUENTIAL_ERROR_RATE + 0.03,
            "3p: {wrong}"
        );
    }

    #[test]
    fn the_sequential_stop_stops_for_a_clearly_stronger_bot() {
        let mut rng = yokai_septet::rng::test_rng(66);
        let strong = |rng: &mut ChaCha8Rng| -> f64 {
            (0..2).filter(|_| unit(rng) < 0.7).count() as f64 / 2.0
        };
        let mut t = SequentialTest::new(SEQUENTIAL_ERROR_RATE);
        let mut stopped_at = None;
        for b in 1..=2000 {
            t.push(strong(&mut rng));
            if t.excludes(0.5) {
                stopped_at = Some(b);
                break;
            }
        }
        let b = stopped_at.expect("a 70% bot is found out within 2,000 boards");
        assert!(b < 300, "{b} boards");
        let s = t.summary(0.5, 2000);
        assert!(s.decided && s.interval[0] > 0.5, "{s:?}");
    }

    #[test]
    fn unpaired_games_worth_the_same_width() {
        // A paired interval half as wide as n games' Wilson interval is worth 4n games.
        let n = 400.0;
        let p: f64 = 0.5;
        let wilson_half = 1.959_963_984_540_054 * (p * (1.0 - p) / n).sqrt();
        let paired = PairedMean {
            mean: p,
            ci95: [p - wilson_half / 2.0, p + wilson_half / 2.0],
            sd: 0.0,
        };
        let g = equivalent_games(p, &paired).unwrap();
        assert!((g - 4.0 * n).abs() < 1e-6, "{g}");
    }
}
