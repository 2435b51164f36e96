//! The value: the solver's objective on a finished round ([`utility`], per variant), the
//! smallest value of a won round ([`win_threshold`]), the game win's value and the open
//! window's ends. The bounds on the value of a position are `bounds.rs`'s.

use yokai_septet::rules::scoring::round_lead;
use yokai_septet::RoundResult;
use yokai_septet::Variant;

/// Value of winning the game by sealing (seal variants), larger than any seal difference.
pub const GAME_WIN: i32 = 100;

/// Beyond any value: the open window's ends.
pub(super) const INF: i32 = i32::MAX / 2;

/// The objective of [`Solver`](super::Solver) for `seat`'s side on a round that ended
/// with `result` (`game_winners`: the game's winners as a seat mask afterwards, 0 if the
/// game goes on). See the solver's module documentation; `bots/playout.rs` converts it
/// into the search bots' round value.
pub fn utility(variant: Variant, result: &RoundResult, game_winners: u8, seat: usize) -> i32 {
    let lead = round_lead(variant, result, seat);
    if variant.is_seal() {
        if game_winners != 0 {
            return if game_winners >> seat & 1 == 1 {
                GAME_WIN
            } else {
                -GAME_WIN
            };
        }
        return lead;
    }
    let won = if result.winners >> seat & 1 == 1 {
        1
    } else {
        -1
    };
    2 * lead + won
}

/// The smallest value ([`utility`]) of a round that the side it is measured for wins: in
/// `4p` and `3p` a won round is worth `+1` over its points lead, which is never negative
/// for a winner (only winners score, and in `3p` two winners score the same), and a lost
/// one at most `−1`; in the seal variants a round is won only by winning the game (R9).
pub fn win_threshold(variant: Variant) -> i32 {
    if variant.is_seal() {
        GAME_WIN
    } else {
        1
    }
}
