//! Seat arithmetic in one place: rotation, sides, and who passes to whom.
//!
//! Seats are numbered clockwise `0..n`; "left" is the next seat clockwise. In the
//! 4-player variants seats `{0, 2}` and `{1, 3}` are teams (side = seat & 1); in `3p`
//! every seat is its own side. No function here divides: they run in the engine's and the
//! observation encoder's hot paths.
//!
//! The module knows seats as numbers, and of a variant only whether it plays in teams
//! ([`Seating`]); who passes to whom is a rule of the variant, in `rules/passing.rs`.

/// What the seat arithmetic needs to know of a game's variant: whether its seats play in
/// two teams. `Variant` (in `rules/`) implements it, so that `cards/` imports nothing from
/// the layers above it.
pub trait Seating: Copy {
    /// Whether seats `{0, 2}` and `{1, 3}` are teams.
    fn has_teams(self) -> bool;
}

/// The seat `k` places to the left of `seat` among `n` seats (`seat < n`, `k <= n`).
#[inline(always)]
pub const fn left_of(seat: usize, k: usize, n: usize) -> usize {
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
pub const fn relative_to(seat: usize, me: usize, n: usize) -> usize {
    left_of(seat, n - me, n)
}

/// The team of `seat` in the 4-player variants: seats `{0, 2}` are team 0, `{1, 3}` team 1.
#[inline(always)]
pub const fn team_of(seat: usize) -> usize {
    seat & 1
}

/// The two seats of `team` (4-player variants), ascending.
#[inline(always)]
pub const fn team_seats(team: usize) -> [usize; 2] {
    [team, team + 2]
}

/// The partner of `seat` (4-player variants): the seat across the table.
#[inline(always)]
pub const fn partner_of(seat: usize) -> usize {
    left_of(seat, 2, 4)
}

/// The side of `seat`: its team when the game has teams, else the seat itself (`3p`).
#[inline(always)]
pub const fn side_of(seat: usize, teams: bool) -> usize {
    if teams {
        team_of(seat)
    } else {
        seat
    }
}

/// The seats of the sides in `sides` (bit `w` = side `w`) as a seat mask (bit `p` = seat
/// `p`): with teams, side `w`'s seats are `w` and `w + 2`.
#[inline(always)]
pub const fn seats_of_sides(sides: u8, teams: bool) -> u8 {
    if teams {
        sides | sides << 2
    } else {
        sides
    }
}

/// Seats of `side` as a bit mask (a team in 4-player variants, one seat in `3p`).
#[inline]
pub fn side_mask(seating: impl Seating, side: usize) -> u8 {
    seats_of_sides(1 << side, seating.has_teams())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seating for the tests: `cards/` does not see `Variant`.
    #[derive(Clone, Copy)]
    struct Teams(bool);
    impl Seating for Teams {
        fn has_teams(self) -> bool {
            self.0
        }
    }

    #[test]
    fn sides_agree_with_the_team_layout() {
        for seat in 0..4 {
            assert_eq!(team_of(seat), seat % 2);
            assert_eq!(partner_of(seat), (seat + 2) % 4);
            assert_eq!(team_seats(team_of(seat))[seat / 2], seat);
            assert_eq!(side_of(seat, false), seat);
            assert_eq!(side_mask(Teams(true), team_of(seat)) >> seat & 1, 1);
            assert_eq!(seats_of_sides(1 << seat, false), 1 << seat);
        }
        assert_eq!(seats_of_sides(0b11, true), 0b1111);
        assert_eq!(side_mask(Teams(true), 1), 0b1010);
        assert_eq!(side_mask(Teams(false), 2), 0b100);
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
