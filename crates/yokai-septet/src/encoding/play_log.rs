//! The round's play log as numbers ([`crate::PlayLog`]): the belief model's input after the
//! observation (`docs/inference.md`). The observation says which cards each seat played;
//! this says how: led, went over the trick's best, stayed under it, ruffed, discarded.
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
use crate::PlayKind;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::HeuristicBot;
    use crate::rules::config::GameConfig;
    use crate::rules::state::State;
    use crate::rules::trick::winning_index;

    /// Replays whole rounds and checks the log against the tricks as they were played:
    /// every played card is in one block, the lead's in `Led`, and a follower's block
    /// says whether it followed suit and whether it beat the best card before it.
    #[test]
    fn every_played_card_is_logged_as_it_was_played() {
        for v in Variant::ALL {
            let (n, cards) = (v.num_players(), v.num_actions());
            let mut s = State::new(GameConfig::new(v, 5).with_max_rounds(Some(2)));
            let mut expected: Vec<(usize, crate::Card, PlayKind)> = Vec::new();
            let mut checked = 0;
            while let Some(p) = s.current_player() {
                let view = s.view(p);
                if s.phase() == crate::Phase::Play {
                    let mut out = vec![0u8; play_log_size(v)];
                    encode_play_log(&view, &mut out);
                    assert_eq!(out.iter().map(|&x| x as u32).sum::<u32>(), s.played().len());
                    for &(seat, card, kind) in &expected {
                        let k = (seat + n - p) % n;
                        assert_eq!(out[(kind as usize * n + k) * cards + card.id() as usize], 1);
                        checked += 1;
                    }
                }
                let card = HeuristicBot::choose(&view);
                if s.phase() == crate::Phase::Play {
                    let trick = s.trick_cards();
                    let kind = if trick.is_empty() {
                        PlayKind::Led
                    } else {
                        let mut with = trick.to_vec();
                        with.push(card);
                        let trump = s.trump_suit().unwrap_or(trick[0].suit());
                        // Ahead of every card before it (R6: ties stay with the first).
                        let over = winning_index(&with, trump) == trick.len();
                        match (card.suit() == trick[0].suit(), over) {
                            (true, true) => PlayKind::Over,
                            (true, false) => PlayKind::Under,
                            (false, true) => PlayKind::Ruff,
                            (false, false) => PlayKind::Discard,
                        }
                    };
                    expected.push((p, card, kind));
                }
                let round = s.round();
                s.apply(card).unwrap();
                if s.round() != round {
                    expected.clear();
                }
            }
            assert!(checked > 1000, "{v}: {checked}");
        }
    }
}
