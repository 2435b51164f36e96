//! Cards, suits and card sets (R1), and the seats that hold them: rotation, sides and
//! passing targets.

mod card;
mod seat;

pub use card::{Card, CardSet, CardSetIter, ParseCardError, Suit};
pub(crate) use card::{NUM_SUITS, SEAL_DECK, STANDARD_DECK};
pub use seat::pass_target;
pub(crate) use seat::{
    left_of, pass_source, relative_to, seats_of_sides, side_mask, side_of, team_of, team_seats,
};
// Outside `cards/`, only the command-line tool and the web app need the partner.
#[cfg(feature = "web")]
pub(crate) use seat::partner_of;
