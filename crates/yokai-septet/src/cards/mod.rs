//! Cards, suits and card sets (R1), and the seats that hold them: rotation and sides.

mod card;
pub mod seat;

pub use card::{Card, CardSet, CardSetIter, ParseCardError, Suit};
pub(crate) use card::{NUM_SUITS, SEAL_DECK, STANDARD_DECK};
pub(crate) use seat::{
    left_of, partner_of, relative_to, seats_of_sides, side_mask, side_of, team_of, team_seats,
    Seating,
};
