//! The play log: how each card of the round was played ([`PlayLog`], [`PlayKind`], which
//! the rules keep in every [`State`](crate::State) and a seat reads through
//! [`SeatView::play_log`]), and its encoding as numbers ([`encode_play_log`]), the belief
//! model's input after the observation (`docs/inference.md`). This module is the concept's
//! one public home (the two types are also at the crate's root). The observation says
//! which cards each seat played; this says how: led, went over the trick's best, stayed
//! under it, ruffed, discarded.
//! Leads, ducks and discards are what a hand shows of itself.
//!
//! Layout: for each [`PlayKind`] (in [`PlayKind::ALL`] order), for each relative seat (as
//! the observation: 0 the observer, 1 its left, ...), a card-id block with 1 where that
//! seat played that card that way this round (the trick in progress included). Every
//! played card has exactly one 1; the rest is 0. Not part of the observation given to RL
//! agents ([`crate::observation`] is unchanged).

use crate::encoding::observation::ObsValue;
use crate::infoset::view::SeatView;
use crate::rules::config::Variant;
pub use crate::rules::play_log::{PlayKind, PlayLog};

/// Values in the play log encoding of `variant`.
pub fn play_log_size(variant: Variant) -> usize {
    PlayKind::ALL.len() * variant.num_players() * variant.num_actions()
}

/// Writes `view`'s play log into `out` (length [`play_log_size`]).
pub fn encode_play_log<T: ObsValue>(view: &SeatView, out: &mut [T]) {
    let variant = view.variant();
    let (n, cards) = (variant.num_players(), variant.num_actions());
    assert_eq!(out.len(), play_log_size(variant), "play log buffer size");
    out.fill(T::ZERO);
    let log = view.play_log();
    for k in 0..n {
        for card in view.played_by(view.relative(k)) {
            let kind = log.kind(card) as usize;
            out[(kind * n + k) * cards + card.id() as usize] = T::ONE;
        }
    }
}
