//! Cards, suits and card sets (R1).

mod card;

pub use card::{Card, CardSet, CardSetIter, ParseCardError, Suit};
pub(crate) use card::{NUM_SUITS, SEAL_DECK, STANDARD_DECK};
