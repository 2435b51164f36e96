//! Exact early stop of a playout ([`super::Techniques::early_stop`]): once nothing left in
//! the round can change its value, the playout ends and the value is read off.
//!
//! In the seal variants (R9) a round's value (the search bots' round value) is the seals
//! each team made this round, plus the game's result if a seal wins it. A team can still seal a
//! suit only if the suit is not blocked for it (sealed before, or in `seal-short` by
//! anyone) and both copies of its boss are in its captures or still in play (in a hand or
//! in the trick on the table). Where no team can seal any suit any more, no seal and so no
//! game win can happen before the round's last trick: every seat's value is fixed, and
//! the playout's remaining tricks (up to 13 of 14: the seal rounds are always played out)
//! are skipped. In `4p` and `3p` the round ends as soon as R7 decides it, so there is
//! little left to skip and no early stop is made.

use yokai_septet::rules::scoring::{blocked_seals, sealed_suits, seals_to_win};
use yokai_septet::CardSet;
use yokai_septet::{Phase, State};

/// Every seat's round value ([`crate::round_value`] of the round
/// played to its end) when nothing left in the round can change it; `None` otherwise.
pub(super) fn sure_values(s: &State) -> Option<[f32; 4]> {
    let v = s.variant();
    if !v.is_seal() || s.phase() != Phase::Play {
        return None;
    }
    let n = s.num_players();
    let mut live = s.trick_set();
    let mut won = [CardSet::EMPTY; 2];
    for p in 0..n {
        live = live.union(s.hand(p));
        won[v.side_of(p)] = won[v.side_of(p)].union(s.won_cards(p));
    }
    let seals = [s.seals(0), s.seals(1)];
    for (team, captured) in won.iter().enumerate() {
        let blocked = blocked_seals(v, seals, team);
        if sealed_suits(captured.union(live)) & !blocked != 0 {
            return None;
        }
    }
    let made = [s.round_seals(0) as f32, s.round_seals(1) as f32];
    let scale = seals_to_win(v) as f32;
    let mut values = [0f32; 4];
    for (p, value) in values.iter_mut().enumerate().take(n) {
        let team = v.side_of(p);
        *value = (made[team] - made[1 - team]) / scale;
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicBot;
    use crate::playout;
    use yokai_septet::rng::uniform_below;
    use yokai_septet::{GameConfig, Variant};

    /// Every seat's value of the round played out from `s` by the heuristic.
    fn played_out(s: State) -> [f32; 4] {
        playout::play_out(s, playout::heuristic_card)
            .expect("a round in play ends")
            .values()
    }

    /// R9: wherever the early stop says a seal round's value is sure, the heuristic's
    /// playout to the round's end gives exactly that value to every seat; and it says so
    /// often enough to be tested (3 to 6% of the trick boundaries of these games, more
    /// late in a round, where the playouts are) (random games of both seal variants, several rounds in, so
    /// earlier seals block some suits).
    #[test]
    fn r9_a_sure_value_is_the_full_playouts_value() {
        let mut rng = yokai_septet::rng::chacha(yokai_septet::rng::Stream::Bots, 58, 0);
        for variant in [Variant::Seal, Variant::SealShort] {
            let (mut checked, mut sure) = (0, 0);
            for game in 0..60 {
                let cfg = GameConfig::new(variant, game).with_max_rounds(Some(4));
                let mut s = State::new(cfg);
                while let Some(p) = s.current_player() {
                    if s.phase() == Phase::Play && s.trick_cards().is_empty() {
                        checked += 1;
                        if let Some(values) = sure_values(&s) {
                            sure += 1;
                            assert_eq!(values, played_out(s), "{variant} game {game}");
                        }
                    }
                    // Random and heuristic cards alike, so that both kinds of play lead
                    // to the positions checked.
                    let legal = s.legal_actions();
                    let card = if game % 2 == 0 {
                        legal
                            .nth(uniform_below(&mut rng, legal.len()))
                            .expect("legal")
                    } else {
                        HeuristicBot::choose(&s.view(p))
                    };
                    s.apply(card).expect("a legal card");
                }
            }
            assert!(
                sure * 50 > checked,
                "{variant}: sure at {sure} of {checked}"
            );
        }
    }

    /// No early stop in `4p` and `3p` (their rounds end as soon as R7 decides them).
    #[test]
    fn r7_rounds_are_never_stopped_early() {
        for variant in [Variant::FourPlayer, Variant::ThreePlayer] {
            let mut s = State::new(GameConfig::new(variant, 1).with_max_rounds(Some(2)));
            while let Some(p) = s.current_player() {
                assert_eq!(sure_values(&s), None);
                s.apply(HeuristicBot::choose(&s.view(p))).expect("legal");
            }
        }
    }
}
