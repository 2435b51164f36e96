//! End of a round and scoring (RULES.md R7, R8) and sealing (R9).

use crate::card::{CardSet, Suit};
use crate::config::{Scoring, Variant};
use crate::state::{RoundEnd, RoundResult, State};

/// Seats of `side` as a bit mask (a team in 4-player variants, one seat in `3p`).
#[inline]
pub fn side_mask(variant: Variant, side: usize) -> u8 {
    if variant.has_teams() {
        (1 << side) | (1 << (side + 2))
    } else {
        1 << side
    }
}

/// Bosses needed to win a round (R7.1): 4 for a team, 3 for a `3p` player.
#[inline]
pub const fn boss_threshold(variant: Variant) -> u32 {
    if variant.has_teams() {
        4
    } else {
        3
    }
}

/// Tricks that lose a round without enough bosses (R7.2).
pub const LOSING_TRICKS: usize = 7;

/// Cards captured this round by `side`.
#[inline]
pub(crate) fn side_won(s: &State, side: usize) -> CardSet {
    if s.config.variant.has_teams() {
        s.won[side].union(s.won[side + 2])
    } else {
        s.won[side]
    }
}

/// Advanced-scoring value of `bosses`, the trump suit's boss excluded (R8).
pub fn boss_points(variant: Variant, bosses: CardSet, trump: Option<Suit>) -> u16 {
    bosses
        .bosses()
        .iter()
        .filter(|c| Some(c.suit()) != trump)
        .map(|c| {
            let s = c.suit();
            (if variant.has_teams() {
                s.boss_points_4p()
            } else {
                s.boss_points_3p()
            }) as u16
        })
        .sum()
}

/// R7 for `4p`/`3p`, checked after the trick won by `winner`; on a round end also scores
/// it (R8) and, when a side reaches the target, sets the game's winners.
pub(crate) fn round_end(s: &mut State, winner: usize) -> Option<RoundResult> {
    let v = s.config.variant;
    let n = v.num_players();
    // Only the trick winner's side changed, so only it can meet R7.1 or R7.2 now.
    let side = v.side_of(winner);
    let won = side_won(s, side);
    let side_tricks: usize = (0..n)
        .filter(|&p| v.side_of(p) == side)
        .map(|p| s.tricks_won[p] as usize)
        .sum();
    let all_seats = (1u8 << n) - 1;
    let (winners, reason) = if won.bosses().len() >= boss_threshold(v) {
        (side_mask(v, side), RoundEnd::Bosses)
    } else if side_tricks >= LOSING_TRICKS {
        (all_seats & !side_mask(v, side), RoundEnd::Tricks)
    } else if s.tricks_played as usize == v.tricks_per_round() {
        (side_mask(v, side), RoundEnd::LastTrick)
    } else {
        return None;
    };

    let mut side_points = [0u16; 3];
    for (w, pts) in side_points.iter_mut().enumerate().take(v.num_sides()) {
        if winners & side_mask(v, w) == 0 {
            continue;
        }
        *pts = match s.config.scoring {
            Scoring::Basic => 1,
            Scoring::Advanced if !v.has_teams() && reason == RoundEnd::Tricks => 3,
            Scoring::Advanced => {
                let mut bosses = side_won(s, w).bosses();
                if reason == RoundEnd::Tricks {
                    // R8 greed case: the winners also score every boss still in a hand.
                    for h in &s.hands[..n] {
                        bosses = bosses.union(h.bosses());
                    }
                }
                boss_points(v, bosses, s.trump_suit())
            }
        };
    }
    let mut points = [0u16; 4];
    for (p, pt) in points.iter_mut().enumerate().take(n) {
        *pt = side_points[v.side_of(p)];
    }
    for (sc, pt) in s.side_scores.iter_mut().zip(side_points) {
        *sc += pt;
    }

    let target = s.config.scoring.target();
    if s.side_scores[..v.num_sides()]
        .iter()
        .any(|&sc| sc >= target)
    {
        s.winners = game_winners(s, winner);
    }
    Some(RoundResult {
        winners,
        reason,
        points,
    })
}

/// The game's winners once a side has reached the target (R8). In `3p` a tie for the most
/// points goes to the tied player first in clockwise order from the left of `last_winner`
/// (the tie can only follow R7.2, where `last_winner` took the seventh trick).
fn game_winners(s: &State, last_winner: usize) -> u8 {
    let v = s.config.variant;
    if v.has_teams() {
        let best = if s.side_scores[0] >= s.side_scores[1] {
            0
        } else {
            1
        };
        return side_mask(v, best);
    }
    let top = *s.side_scores[..3].iter().max().unwrap_or(&0);
    let seat = (1..=3)
        .map(|k| (last_winner + k) % 3)
        .find(|&p| s.side_scores[p] == top)
        .unwrap_or(last_winner);
    1 << seat
}

/// R9 sealing after a trick won by `winner` that captured `cards`. Returns the suits newly
/// sealed (bit mask), in which ascending order is the order they are made.
pub(crate) fn make_seals(s: &mut State, winner: usize, cards: CardSet) -> u8 {
    if cards.bosses().is_empty() {
        return 0;
    }
    let team = winner & 1;
    let won = side_won(s, team);
    let mut both = 0u8;
    for suit in Suit::ALL {
        if won.contains(suit.boss()) && won.contains(suit.second_boss()) {
            both |= 1 << suit as u8;
        }
    }
    let blocked = match s.config.variant {
        Variant::SealShort => s.seals[0] | s.seals[1],
        _ => s.seals[team],
    };
    let new = both & !blocked;
    if new != 0 {
        let k = new.count_ones() as u8;
        s.seals[team] |= new;
        s.round_seals[team] += k;
        s.side_scores[team] += k as u16;
    }
    new
}

/// Seals needed to win: all 7 in `seal`, 4 in `seal-short`.
#[inline]
pub const fn seals_to_win(variant: Variant) -> u32 {
    match variant {
        Variant::SealShort => 4,
        _ => 7,
    }
}

/// R9 round and game end, checked after every trick of a seal round.
pub(crate) fn seal_round_end(s: &mut State) -> Option<RoundResult> {
    let v = s.config.variant;
    let mut points = [0u16; 4];
    for (p, pt) in points.iter_mut().enumerate() {
        *pt = s.round_seals[p & 1] as u16;
    }
    let team = (s.last_trick_winner & 1) as usize;
    if s.seals[team].count_ones() >= seals_to_win(v) {
        s.winners = side_mask(v, team);
        return Some(RoundResult {
            winners: s.winners,
            reason: RoundEnd::Sealed,
            points,
        });
    }
    if s.tricks_played as usize == v.tricks_per_round() {
        return Some(RoundResult {
            winners: 0,
            reason: RoundEnd::Complete,
            points,
        });
    }
    None
}
