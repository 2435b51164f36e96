//! Game configuration and sizes (R3, R10): the "Game" of OpenSpiel's split,
//! separate from the position ([`crate::State`]).

use std::str::FromStr;

use crate::cards::{side_of, CardSet, Seating, SEAL_DECK, STANDARD_DECK};
use crate::error::ConfigError;
use crate::names;

/// The four printed variants (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Four players in two teams, 49 cards, 12 each, face-up trump card.
    FourPlayer,
    /// Three players, everyone for themselves, 49 cards, 16 each.
    ThreePlayer,
    /// Four players, 56 cards, trump from the first lead, won by sealing all 7 suits.
    Seal,
    /// As `Seal`, but each suit can be sealed once per game; first to 4 seals wins.
    SealShort,
}

names!(Variant {
    FourPlayer => "4p",
    ThreePlayer => "3p",
    Seal => "seal",
    SealShort => "seal-short",
});

impl Variant {
    /// Players at the table: 3 in `3p`, else 4.
    #[inline]
    pub const fn num_players(self) -> usize {
        match self {
            Variant::ThreePlayer => 3,
            _ => 4,
        }
    }

    /// Whether this is a seal variant (`seal`, `seal-short`: R9).
    #[inline]
    pub const fn is_seal(self) -> bool {
        matches!(self, Variant::Seal | Variant::SealShort)
    }

    /// Whether seats play in two teams ({0,2} and {1,3}).
    #[inline]
    pub const fn has_teams(self) -> bool {
        self.num_players() == 4
    }

    /// The side (team, or the player itself in `3p`) of `seat`.
    #[inline]
    pub const fn side_of(self, seat: usize) -> usize {
        side_of(seat, self.has_teams())
    }

    /// Cards in the deck: 49, or 56 with the Seal second boss copies.
    #[inline]
    pub const fn deck_size(self) -> usize {
        if self.is_seal() {
            SEAL_DECK
        } else {
            STANDARD_DECK
        }
    }

    /// Every card of the variant's deck.
    #[inline]
    pub const fn deck(self) -> CardSet {
        if self.is_seal() {
            CardSet::SEAL_DECK
        } else {
            CardSet::STANDARD_DECK
        }
    }

    /// Size of the action space (every action is a card id).
    #[inline]
    pub const fn num_actions(self) -> usize {
        self.deck_size()
    }

    /// Cards dealt to each player (R3).
    #[inline]
    pub const fn hand_size(self) -> usize {
        match self {
            Variant::FourPlayer => 12,
            Variant::ThreePlayer => 16,
            Variant::Seal | Variant::SealShort => 14,
        }
    }

    /// Cards each player passes (R4.2): always 3.
    #[inline]
    pub const fn pass_count(self) -> usize {
        3
    }

    /// Whether one card is left over and turned face up as the trump card.
    #[inline]
    pub const fn has_trump_card(self) -> bool {
        !self.is_seal()
    }

    /// Tricks in a full round.
    #[inline]
    pub const fn tricks_per_round(self) -> usize {
        self.hand_size()
    }

    /// Number of scoring sides: teams in 4-player variants, players in `3p`.
    #[inline]
    pub const fn num_sides(self) -> usize {
        if self.has_teams() {
            2
        } else {
            3
        }
    }
}

impl Seating for Variant {
    #[inline]
    fn has_teams(self) -> bool {
        Variant::has_teams(self)
    }
}

impl FromStr for Variant {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Variant, ConfigError> {
        Variant::from_name(s).ok_or_else(|| ConfigError::UnknownVariant(s.to_string()))
    }
}

/// Scoring mode for `4p` and `3p` (R3, R8). The Seal variants ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scoring {
    /// Boss points, game to 7.
    #[default]
    Advanced,
    /// One point per round won, game to 2.
    Basic,
}

names!(Scoring {
    Advanced => "advanced",
    Basic => "basic",
});

impl Scoring {
    /// Points that end the game.
    pub const fn target(self) -> u16 {
        match self {
            Scoring::Advanced => 7,
            Scoring::Basic => 2,
        }
    }
}

impl FromStr for Scoring {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Scoring, ConfigError> {
        Scoring::from_name(s).ok_or_else(|| ConfigError::UnknownScoring(s.to_string()))
    }
}

/// What one episode is (R10): one round, or the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Episode {
    /// The whole game, until a side wins it (the default).
    #[default]
    Game,
    /// One round: the episode ends with the first round's end.
    Round,
}

names!(Episode {
    Game => "game",
    Round => "round",
});

impl FromStr for Episode {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Episode, ConfigError> {
        Episode::from_name(s).ok_or_else(|| ConfigError::UnknownEpisode(s.to_string()))
    }
}

/// A game configuration: everything fixed before the first card is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    /// Which game (R3).
    pub variant: Variant,
    /// The scoring mode (R8; the seal variants ignore it).
    pub scoring: Scoring,
    /// What one episode is (R10).
    pub episode: Episode,
    /// Stop the game as truncated after this many rounds (R10); `None` = no cap.
    pub max_rounds: Option<u32>,
    /// Every random choice of the deal comes from this seed (R10).
    pub seed: u64,
}

impl GameConfig {
    /// A whole game of `variant` with advanced scoring and no round cap.
    pub const fn new(variant: Variant, seed: u64) -> GameConfig {
        GameConfig {
            variant,
            scoring: Scoring::Advanced,
            episode: Episode::Game,
            max_rounds: None,
            seed,
        }
    }

    /// The same configuration with `scoring`.
    pub const fn with_scoring(mut self, scoring: Scoring) -> GameConfig {
        self.scoring = scoring;
        self
    }

    /// The same configuration with `episode`.
    pub const fn with_episode(mut self, episode: Episode) -> GameConfig {
        self.episode = episode;
        self
    }

    /// The same configuration with the round cap `max_rounds`.
    pub const fn with_max_rounds(mut self, max_rounds: Option<u32>) -> GameConfig {
        self.max_rounds = max_rounds;
        self
    }

    /// Checks what the types cannot: a round cap of zero is meaningless.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.max_rounds == Some(0) {
            return Err(ConfigError::ZeroRoundCap);
        }
        Ok(())
    }

    /// Players at the table ([`Variant::num_players`]).
    #[inline]
    pub const fn num_players(&self) -> usize {
        self.variant.num_players()
    }

    /// Actions, one per card id ([`Variant::num_actions`]).
    #[inline]
    pub const fn num_actions(&self) -> usize {
        self.variant.num_actions()
    }
}
