//! Error types. Every error says precisely what is wrong; none leaves a state changed.

use std::fmt;

use crate::cards::{Card, CardSet, Suit};

/// Why an action cannot be applied now. The state is unchanged whenever this is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalAction {
    /// The game is over; no decision is pending.
    GameOver,
    /// A round has ended and the next one is not dealt yet ([`crate::Phase::RoundOver`]):
    /// the next step is [`crate::State::apply_deal`].
    AwaitingDeal,
    /// The action is not a card id of this variant (0..num_actions-1).
    OutOfRange {
        /// The action as given.
        action: i128,
        /// The variant's number of actions (its card ids).
        num_actions: usize,
    },
    /// The card is not in the current player's hand.
    NotInHand {
        /// The card played or picked.
        card: Card,
        /// The player who tried.
        seat: usize,
    },
    /// During passing: this card is already picked to be passed.
    AlreadyPicked {
        /// The card picked again.
        card: Card,
        /// The player who tried.
        seat: usize,
    },
    /// The player holds a card of the led suit and must play one (R5).
    MustFollowSuit {
        /// The card played.
        card: Card,
        /// The suit led in the trick.
        led: Suit,
    },
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalAction::GameOver => write!(f, "the game is over: no action can be taken"),
            IllegalAction::AwaitingDeal => write!(
                f,
                "the round is over: the next round must be dealt before any action"
            ),
            IllegalAction::OutOfRange {
                action,
                num_actions,
            } => write!(
                f,
                "action {action} is out of range: actions are card ids 0..{}",
                num_actions - 1
            ),
            IllegalAction::NotInHand { card, seat } => write!(
                f,
                "card {card} (id {}) is not in seat {seat}'s hand",
                card.id()
            ),
            IllegalAction::AlreadyPicked { card, seat } => write!(
                f,
                "card {card} (id {}) is already picked by seat {seat} for passing (R4.2)",
                card.id()
            ),
            IllegalAction::MustFollowSuit { card, led } => write!(
                f,
                "card {card} (id {}) does not follow the led suit {led}, and the player holds {led} cards (R5)",
                card.id()
            ),
        }
    }
}

impl IllegalAction {
    /// The refusal as a person at the table reads it (`play`'s prompt and the web page),
    /// given the cards that may be played now: `You cannot play L4: you must follow Wind.
    /// Playable: WA.` The [`Display`](fmt::Display) text is the rule's, for code and logs.
    pub fn in_words(&self, legal: CardSet) -> String {
        match *self {
            IllegalAction::MustFollowSuit { card, led } => format!(
                "You cannot play {card}: you must follow {}. Playable: {legal}.",
                led.name()
            ),
            IllegalAction::AlreadyPicked { card, .. } => {
                format!("You already chose {card} to pass.")
            }
            IllegalAction::NotInHand { card, .. } => format!("{card} is not in your hand."),
            _ => {
                // The rule text, as a sentence.
                let text = self.to_string();
                let mut chars = text.chars();
                match chars.next() {
                    Some(first) => first.to_uppercase().chain(chars).collect::<String>() + ".",
                    None => text,
                }
            }
        }
    }
}

impl std::error::Error for IllegalAction {}

/// An invalid game configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A variant name that is not one of `4p`, `3p`, `seal`, `seal-short`.
    UnknownVariant(String),
    /// A scoring name that is not `advanced` or `basic`.
    UnknownScoring(String),
    /// An episode name that is not `game` or `round`.
    UnknownEpisode(String),
    /// A round cap of 0 (`None` means no cap).
    ZeroRoundCap,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownVariant(v) => write!(
                f,
                "unknown variant {v:?}: valid variants are \"4p\", \"3p\", \"seal\", \"seal-short\""
            ),
            ConfigError::UnknownScoring(v) => write!(
                f,
                "unknown scoring {v:?}: valid scorings are \"advanced\", \"basic\""
            ),
            ConfigError::UnknownEpisode(v) => write!(
                f,
                "unknown episode {v:?}: valid episodes are \"game\", \"round\""
            ),
            ConfigError::ZeroRoundCap => {
                write!(f, "max_rounds must be at least 1 (or None for no cap)")
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// An explicit deal that is not a valid deal for the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// Not one hand per player.
    WrongHandCount {
        /// The variant's number of players.
        expected: usize,
        /// The number of hands given.
        got: usize,
    },
    /// A hand of the wrong size.
    WrongHandSize {
        /// Whose hand.
        seat: usize,
        /// The variant's hand size.
        expected: usize,
        /// The cards given.
        got: usize,
    },
    /// A card id outside the variant's deck.
    CardOutOfRange {
        /// The id given.
        id: i128,
        /// The variant's deck size (ids are `0..deck_size`).
        deck_size: usize,
    },
    /// A card dealt twice.
    Duplicate {
        /// The card.
        card: Card,
    },
    /// A variant that turns a card face up (`4p`, `3p`) was given none.
    TrumpCardExpected,
    /// A seal variant (no face-up card) was given one.
    TrumpCardUnexpected,
    /// A hand whose ids are not in ascending order (where the format asks for it).
    NotAscending {
        /// Whose hand.
        seat: usize,
    },
    /// The hands and the face-up card are not the whole deck.
    MissingCards {
        /// The missing cards, as R1 codes.
        missing: String,
    },
    /// A deal given when the game is over: there is no round to deal.
    GameOver,
    /// A deal given in the middle of a round (after its first passing pick): a deal is
    /// taken only when a round is over, or before a round's first pick.
    RoundInProgress,
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::WrongHandCount { expected, got } => {
                write!(f, "expected {expected} hands, got {got}")
            }
            DealError::WrongHandSize {
                seat,
                expected,
                got,
            } => write!(
                f,
                "hand of seat {seat} has {got} cards, expected {expected}"
            ),
            DealError::CardOutOfRange { id, deck_size } => write!(
                f,
                "card id {id} is out of range: this variant's cards are 0..{}",
                deck_size - 1
            ),
            DealError::Duplicate { card } => {
                write!(f, "card {card} (id {}) is dealt twice", card.id())
            }
            DealError::TrumpCardExpected => write!(
                f,
                "this variant turns one card face up: a trump card is required"
            ),
            DealError::TrumpCardUnexpected => write!(
                f,
                "the seal variants have no face-up trump card: trump card must be None"
            ),
            DealError::NotAscending { seat } => {
                write!(f, "hand of seat {seat} is not in ascending id order")
            }
            DealError::GameOver => write!(f, "the game is over: there is no round to deal"),
            DealError::RoundInProgress => write!(
                f,
                "a round is in progress: a deal is taken only at a round's end or before its first passing pick"
            ),
            DealError::MissingCards { missing } => {
                write!(f, "the deal is not a complete deck: missing {missing}")
            }
        }
    }
}

impl std::error::Error for DealError {}

/// A record that cannot be replayed, or that disagrees with its replay.
/// `path` names the field, e.g. `rounds[2].tricks[5].winner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The field at fault, e.g. `rounds[2].tricks[5].winner`.
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl RecordError {
    /// The error `message` about the field at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> RecordError {
        RecordError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "invalid record: {}", self.message)
        } else {
            write!(f, "invalid record at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for RecordError {}
