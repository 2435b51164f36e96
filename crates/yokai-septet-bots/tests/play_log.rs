//! The play log's encoding (`yokai_septet::play_log`) over whole rounds played by the
//! heuristic: a test of the engine's encoder that needs a bot to play (the bots are above
//! the engine, so it lives here).

use yokai_septet::play_log::{encode_play_log, play_log_size};
use yokai_septet::rules::winning_index;
use yokai_septet::{Card, GameConfig, Phase, PlayKind, State, Variant};
use yokai_septet_bots::HeuristicBot;

/// Replays whole rounds and checks the log against the tricks as they were played:
/// every played card is in one block, the lead's in `Led`, and a follower's block
/// says whether it followed suit and whether it beat the best card before it.
#[test]
fn every_played_card_is_logged_as_it_was_played() {
    for v in Variant::ALL {
        let (n, cards) = (v.num_players(), v.num_actions());
        let mut s = State::new(GameConfig::new(v, 5).with_max_rounds(Some(2)));
        let mut expected: Vec<(usize, Card, PlayKind)> = Vec::new();
        let mut checked = 0;
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            if s.phase() == Phase::Play {
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
            if s.phase() == Phase::Play {
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
