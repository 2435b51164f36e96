//! Seat arithmetic in one place: rotation, sides, and who passes to whom.
//!
//! Seats are numbered clockwise `0..n`; "left" is the next seat clockwise. In the
//! 4-player variants seats `{0, 2}` and `{1, 3}` are teams (side = seat & 1); in `3p`
//! every seat is its own side. No function here divides: they run in the engine's and the
//! observation encoder's hot paths.

use crate::rules::config::Variant;

/// The seat `k` places to the left of `seat` among `n` seats (`seat < n`, `k <= n`).
#[inline(always)]
pub(crate) const fn left_of(seat: usize, k: usize, n: usize) -> usize {
    let x = seat + k;
    if n == 4 {
        x & 3
    } else if x >= n {
        x - n
    } else {
        x
    }
}

/// `seat` as seen from `me`: 0 is `me`, 1 the seat to its left, and so on.
#[inline(always)]
pub(crate) const fn relative_to(seat: usize, me: usize, n: usize) -> usize {
    left_of(seat, n - me, n)
}

/// Seats of `side` as a bit mask (a team in 4-player variants, one seat in `3p`).
#[inline]
pub(crate) fn side_mask(variant: Variant, side: usize) -> u8 {
    if variant.has_teams() {
        (1 << side) | (1 << (side + 2))
    } else {
        1 << side
    }
}

/// The seat that receives pick number `k` (0-based) of `seat` (R4.2). `seat` must be a
/// seat of `variant`.
#[inline]
pub fn pass_target(variant: Variant, seat: usize, k: usize) -> usize {
    match variant {
        // Across the table.
        Variant::FourPlayer => left_of(seat, 2, 4),
        // To the left.
        Variant::ThreePlayer => left_of(seat, 1, 3),
        // One card to each other player: left, partner, right, in that order.
        Variant::Seal | Variant::SealShort => left_of(seat, 1 + k, 4),
    }
}

/// The inverse of [`pass_target`]: the seat whose pick number `k` goes to `receiver`.
#[inline]
pub(crate) fn pass_source(variant: Variant, receiver: usize, k: usize) -> usize {
    match variant {
        Variant::FourPlayer => left_of(receiver, 2, 4),
        Variant::ThreePlayer => left_of(receiver, 2, 3),
        Variant::Seal | Variant::SealShort => left_of(receiver, 3 - k, 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r4_pass_source_inverts_pass_target() {
        for v in Variant::ALL {
            let n = v.num_players();
            for seat in 0..n {
                for k in 0..v.pass_count() {
                    let to = pass_target(v, seat, k);
                    assert_ne!(to, seat, "{v}: nobody passes to themselves");
                    assert_eq!(pass_source(v, to, k), seat, "{v}: seat {seat}, pick {k}");
                }
            }
        }
    }

    #[test]
    fn rotation_agrees_with_the_remainder() {
        for n in [3, 4] {
            for seat in 0..n {
                for k in 0..=n {
                    assert_eq!(left_of(seat, k, n), (seat + k) % n);
                    assert_eq!(relative_to(left_of(seat, k, n), seat, n), k % n);
                }
            }
        }
    }
}
