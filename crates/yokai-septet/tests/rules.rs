//! One test or more per rule of docs/rules.md, on explicit deals and positions.
//! (R7–R9 scoring positions are unit tests in `src/rules/scoring.rs`.)

use common::*;
use yokai_septet_testkit as common;

use yokai_septet::rules::{legal_plays, winning_index};
use yokai_septet::{
    Card, CardSet, Episode, GameConfig, IllegalAction, Match, Phase, RoundEnd, Scoring, State,
    Suit, Variant,
};

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn trick(s: &str) -> Vec<Card> {
    s.split_whitespace().map(c).collect()
}

#[test]
fn r2_partners_sit_opposite_and_3p_is_everyone_for_themselves() {
    let v = Variant::FourPlayer;
    assert_eq!(v.side_of(0), v.side_of(2));
    assert_eq!(v.side_of(1), v.side_of(3));
    assert_ne!(v.side_of(0), v.side_of(1));
    let v = Variant::ThreePlayer;
    assert_eq!((v.side_of(0), v.side_of(1), v.side_of(2)), (0, 1, 2));
}

#[test]
fn r3_variant_table() {
    let rows: Vec<_> = Variant::ALL
        .iter()
        .map(|v| {
            (
                v.name(),
                v.num_players(),
                v.deck_size(),
                v.hand_size(),
                v.has_trump_card(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("4p", 4, 49, 12, true),
            ("3p", 3, 49, 16, true),
            ("seal", 4, 56, 14, false),
            ("seal-short", 4, 56, 14, false)
        ]
    );
    assert_eq!(Scoring::Advanced.target(), 7);
    assert_eq!(Scoring::Basic.target(), 2);
}

#[test]
fn r4_picks_are_made_seat_by_seat() {
    for v in Variant::ALL {
        let mut s = State::new(GameConfig::new(v, 3));
        let mut order = Vec::new();
        while s.phase() == Phase::Pass {
            order.push(s.current_player().unwrap());
            let card = s.legal_actions().first().unwrap();
            s.apply(card).unwrap();
        }
        let expected: Vec<usize> = (0..v.num_players()).flat_map(|p| [p; 3]).collect();
        assert_eq!(order, expected, "{v}");
    }
}

#[test]
fn r4_4p_passes_three_cards_to_partner() {
    let d = deal(
        Variant::FourPlayer,
        &["WA W2 W3", "E2 E3 E4", "C3 C4 C5", "L4 L5 L6"],
        None,
    );
    let mut s = State::with_deal(GameConfig::new(Variant::FourPlayer, 0), d);
    pass(&mut s, &["W2 W3 WA", "E2 E3 E4", "C3 C4 C5", "L4 L5 L6"]);
    assert!(s.hand(2).contains(c("WA")) && s.hand(2).contains(c("W3")));
    assert!(!s.hand(0).contains(c("WA")));
    assert!(
        s.hand(0).contains(c("C3")) && s.hand(1).contains(c("L4")) && s.hand(3).contains(c("E2"))
    );
    assert!((0..4).all(|p| s.hand(p).len() == 12));
}

#[test]
fn r4_3p_passes_three_cards_to_the_left() {
    let d = deal(
        Variant::ThreePlayer,
        &["WA W2 W3", "E2 E3 E4", "C3 C4 C5"],
        None,
    );
    let mut s = State::with_deal(GameConfig::new(Variant::ThreePlayer, 0), d);
    pass(&mut s, &["WA W2 W3", "E2 E3 E4", "C3 C4 C5"]);
    assert!(s.hand(1).contains(c("WA")));
    assert!(s.hand(2).contains(c("E2")));
    assert!(s.hand(0).contains(c("C3")));
    assert_eq!(s.round_leader(), Some(1), "the A moved to seat 1");
}

#[test]
fn r4_seal_passes_one_card_to_each_other_player_in_order() {
    let d = deal(
        Variant::Seal,
        &["W2 W3 W4", "E2 E3 E4", "C3 C4 C5", "L4 L5 L6"],
        None,
    );
    let mut s = State::with_deal(GameConfig::new(Variant::Seal, 0), d);
    // Seat 0 picks W2 (for seat 1), W3 (for partner seat 2), W4 (for seat 3).
    for code in ["W2", "W3", "W4"] {
        s.apply(c(code)).unwrap();
    }
    pass(&mut s, &["E2 E3 E4", "C3 C4 C5", "L4 L5 L6"]);
    assert!(
        s.hand(1).contains(c("W2")) && s.hand(2).contains(c("W3")) && s.hand(3).contains(c("W4"))
    );
    assert!(
        s.hand(2).contains(c("E2")) && s.hand(3).contains(c("E3")) && s.hand(0).contains(c("E4"))
    );
    assert!((0..4).all(|p| s.hand(p).len() == 14));
}

#[test]
fn r4_picked_cards_stay_in_hand_and_cannot_be_picked_twice() {
    let mut s = State::new(GameConfig::new(Variant::FourPlayer, 9));
    let first = s.legal_actions().first().unwrap();
    s.apply(first).unwrap();
    assert!(
        s.hand(0).contains(first),
        "a pick stays in hand until the exchange"
    );
    assert!(!s.legal_actions().contains(first));
    let before = s;
    assert_eq!(
        s.apply(first),
        Err(IllegalAction::AlreadyPicked {
            card: first,
            seat: 0
        })
    );
    assert_eq!(s, before, "an illegal action changes nothing");
    let foreign = s.hand(1).first().unwrap();
    assert_eq!(
        s.apply(foreign),
        Err(IllegalAction::NotInHand {
            card: foreign,
            seat: 0
        })
    );
    assert_eq!(s, before);
}

#[test]
fn r4_first_round_leader_holds_the_a_after_passing() {
    let d = deal(Variant::FourPlayer, &["WA", "", "", ""], None);
    let mut s = State::with_deal(GameConfig::new(Variant::FourPlayer, 0), d);
    assert_eq!(s.round_leader(), None, "unknown until passing ends");
    // Seat 0 passes the A to its partner, seat 2.
    let h0 = s.hand(0).minus(cards("WA"));
    let mut p0 = vec![c("WA")];
    p0.extend(h0.iter().take(2));
    for card in p0 {
        s.apply(card).unwrap();
    }
    while s.phase() == Phase::Pass {
        let card = s.legal_actions().first().unwrap();
        s.apply(card).unwrap();
    }
    assert!(s.hand(2).contains(Card::ACE));
    assert_eq!(s.round_leader(), Some(2));
    assert_eq!(s.current_player(), Some(2));
}

#[test]
fn r4_snow_13_leads_when_the_a_is_face_up() {
    for v in [Variant::FourPlayer, Variant::ThreePlayer] {
        let d = deal(v, &["", "S13"], Some("WA"));
        let mut s = State::with_deal(GameConfig::new(v, 0), d);
        assert_eq!(s.trump_suit(), Some(Suit::Wind));
        while s.phase() == Phase::Pass {
            // Everyone passes its lowest cards, so the S13 stays with seat 1.
            let card = s.legal_actions().first().unwrap();
            s.apply(card).unwrap();
        }
        assert_eq!(s.round_leader(), Some(1), "{v}");
        assert!(
            s.hand(1).contains(Card::SNOW_13),
            "revealing does not play it"
        );
    }
}

#[test]
fn r4_later_rounds_are_led_by_the_last_tricks_winner() {
    for v in Variant::ALL {
        let mut later_rounds = 0;
        for seed in 0..10 {
            let mut m = Match::new(GameConfig::new(v, seed));
            play_out(&mut m, &mut rng(seed));
            let rec = m.record();
            for w in rec.rounds.windows(2) {
                let last = w[0].tricks.last().unwrap().winner.unwrap();
                assert_eq!(w[1].leader, Some(last), "{v}");
                assert_eq!(w[1].tricks[0].leader, last, "{v}");
                later_rounds += 1;
            }
        }
        assert!(
            later_rounds > 0,
            "{v}: ten games should reach a second round"
        );
    }
}

#[test]
fn r5_followers_must_follow_the_led_suit() {
    let hand = cards("W3 W5 E4 S13");
    assert_eq!(legal_plays(hand, Some(Suit::Wind)), cards("W3 W5"));
    assert_eq!(legal_plays(hand, Some(Suit::Fire)), hand, "void: anything");
    assert_eq!(legal_plays(hand, None), hand, "the leader plays anything");
}

#[test]
fn r5_the_a_is_a_wind_card() {
    assert_eq!(
        legal_plays(cards("WA E4 S13"), Some(Suit::Wind)),
        cards("WA"),
        "only Wind card: must play it"
    );
    assert_eq!(
        legal_plays(cards("WA W4 S13"), Some(Suit::Wind)),
        cards("WA W4"),
        "may play it or another"
    );
    assert!(
        legal_plays(cards("WA E4"), Some(Suit::Snow)).contains(Card::ACE),
        "void: may play it"
    );
    assert!(
        !legal_plays(cards("WA S8"), Some(Suit::Snow)).contains(Card::ACE),
        "must follow Snow"
    );
}

#[test]
fn r5_not_following_is_rejected_and_changes_nothing() {
    let mut found = 0;
    for seed in 0..200 {
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, seed));
        let mut r = rng(seed);
        while !s.is_over() && found < 50 {
            if let Some(led) = s.led_suit() {
                let p = s.current_player().unwrap();
                let hand = s.hand(p);
                if let Some(off) = hand.minus(hand.of_suit(led)).first() {
                    if !hand.of_suit(led).is_empty() {
                        let before = s;
                        assert_eq!(
                            s.apply(off),
                            Err(IllegalAction::MustFollowSuit { card: off, led })
                        );
                        assert_eq!(s, before);
                        found += 1;
                    }
                }
            }
            let a = random_action(&s, &mut r);
            s.apply(a).unwrap();
        }
    }
    assert_eq!(found, 50);
}

#[test]
fn r6_the_a_wins_any_trick() {
    assert_eq!(winning_index(&trick("S13 WA S12 S11"), Suit::Snow), 1);
    assert_eq!(winning_index(&trick("WA W7 W6"), Suit::Fire), 0);
}

#[test]
fn r6_highest_trump_beats_the_led_suit() {
    assert_eq!(winning_index(&trick("S13 E2 S12 E8"), Suit::Earth), 3);
    assert_eq!(winning_index(&trick("S13 E2 S12 F6"), Suit::Earth), 1);
}

#[test]
fn r6_highest_of_the_led_suit_wins_without_trump() {
    assert_eq!(
        winning_index(&trick("C5 C9 S13 C3"), Suit::Earth),
        1,
        "S13 is off-suit"
    );
    assert_eq!(
        winning_index(&trick("C5 S13 F12 D11"), Suit::Earth),
        0,
        "nobody followed"
    );
}

#[test]
fn r6_seal_first_played_boss_copy_is_higher() {
    assert_eq!(winning_index(&trick("F6 F7b F7 F6"), Suit::Wind), 1);
    assert_eq!(winning_index(&trick("F7 F7b"), Suit::Wind), 0);
    assert_eq!(winning_index(&trick("S8 S7b S7 S9"), Suit::Snow), 3);
}

#[test]
fn r6_trick_winner_captures_cards_and_leads_next() {
    let mut s = State::new(GameConfig::new(Variant::FourPlayer, 2));
    let mut r = rng(2);
    while s.phase() == Phase::Pass {
        let a = random_action(&s, &mut r);
        s.apply(a).unwrap();
    }
    let mut last = None;
    for _ in 0..4 {
        let a = random_action(&s, &mut r);
        last = Some(s.apply(a).unwrap());
    }
    let t = last.unwrap().trick.expect("four cards complete a trick");
    let w = t.winner as usize;
    assert_eq!(
        s.won_cards(w),
        t.cards().iter().copied().collect::<CardSet>()
    );
    assert_eq!(s.tricks_won(w), 1);
    assert_eq!(s.current_player(), Some(w));
}

#[test]
fn r9_seal_trump_is_the_first_led_suit_and_the_a_holder_leads() {
    for v in [Variant::Seal, Variant::SealShort] {
        let d = deal(v, &["", "", "WA"], None);
        let mut s = State::with_deal(GameConfig::new(v, 0), d);
        assert_eq!(s.trump_card(), None);
        while s.phase() == Phase::Pass {
            let card = s.legal_actions().last().unwrap(); // keep the A where it is
            s.apply(card).unwrap();
        }
        assert_eq!(s.round_leader(), Some(2));
        assert_eq!(s.trump_suit(), None, "no trump before the first lead");
        let lead = s.hand(2).last().unwrap();
        s.apply(lead).unwrap();
        assert_eq!(s.trump_suit(), Some(lead.suit()));
    }
}

#[test]
fn r9_seal_rounds_play_all_fourteen_tricks() {
    for seed in 0..20 {
        let mut m = Match::new(GameConfig::new(Variant::Seal, seed).with_max_rounds(Some(50)));
        play_out(&mut m, &mut rng(seed));
        let rec = m.record();
        for (i, round) in rec.rounds.iter().enumerate() {
            let res = round.result.as_ref().unwrap();
            if res.reason == "complete" || i + 1 < rec.rounds.len() {
                assert_eq!(round.tricks.len(), 14);
            }
        }
    }
}

#[test]
fn r10_episode_round_ends_after_one_round() {
    for v in Variant::ALL {
        let cfg = GameConfig::new(v, 4).with_episode(Episode::Round);
        let mut m = Match::new(cfg);
        play_out(&mut m, &mut rng(1));
        assert_eq!(m.state().round(), 0);
        let rec = m.record();
        assert_eq!(rec.rounds.len(), 1);
        assert_eq!(
            rec.winners,
            rec.rounds[0].result.as_ref().unwrap().winners,
            "{v}"
        );
        assert!(!m.state().is_truncated());
    }
}

#[test]
fn r10_round_cap_truncates_the_game() {
    let cfg = GameConfig::new(Variant::Seal, 11).with_max_rounds(Some(2));
    let mut m = Match::new(cfg);
    play_out(&mut m, &mut rng(11));
    let s = m.state();
    assert!(s.is_over());
    if s.round() == 1 && s.winners_mask() == 0 {
        assert!(s.is_truncated());
    }
    let rounds: Vec<_> = (0..40u64)
        .map(|seed| {
            let mut m = Match::new(GameConfig::new(Variant::Seal, seed).with_max_rounds(Some(1)));
            play_out(&mut m, &mut rng(seed));
            (m.state().is_truncated(), m.state().winners_mask())
        })
        .collect();
    assert!(
        rounds.iter().any(|&(t, _)| t),
        "one round rarely seals 7 suits"
    );
    assert!(
        rounds.iter().all(|&(t, w)| t == (w == 0)),
        "truncated games have no winners"
    );
}

/// The rules decide a game where a side reaches the target (R8) or a team seals (R9); the
/// round cap and an episode of one round end it without that, and say so alike.
#[test]
fn r10_only_the_rules_decide_a_game_not_its_episode_or_its_cap() {
    for v in Variant::ALL {
        let mut seen = [0; 2];
        for seed in 0..60u64 {
            let one = GameConfig::new(v, seed);
            let [round, capped, game] = [
                one.with_episode(Episode::Round),
                one.with_max_rounds(Some(1)),
                one,
            ]
            .map(|c| {
                let mut m = Match::new(c);
                play_out(&mut m, &mut rng(seed));
                *m.state()
            });
            let target = one.scoring.target();
            let reached = (0..v.num_players()).any(|p| round.score(p) >= target);
            let by_rules = if v.is_seal() {
                round.last_round_result().unwrap().reason == RoundEnd::Sealed
            } else {
                reached
            };
            assert_eq!(round.is_decided(), by_rules, "{v} {seed}");
            assert_eq!(capped.is_decided(), by_rules, "{v} {seed}");
            assert_eq!(capped.is_truncated(), !by_rules, "{v} {seed}");
            assert!(game.is_decided() && game.winners_mask() != 0, "{v} {seed}");
            seen[usize::from(by_rules)] += 1;
        }
        assert!(seen[0] > 0, "{v}: {seen:?}");
    }
}

#[test]
fn actions_out_of_range_and_after_the_end_are_rejected() {
    let mut s = State::new(GameConfig::new(Variant::FourPlayer, 0));
    let before = s;
    for a in [-1i128, 49, 55, 56, 1 << 70] {
        assert!(
            matches!(s.apply_action(a), Err(IllegalAction::OutOfRange { .. })),
            "{a}"
        );
    }
    assert_eq!(s, before);
    let e = s.apply_action(49).unwrap_err().to_string();
    assert!(e.contains("49") && e.contains("0..48"), "{e}");
    let mut m = Match::new(GameConfig::new(Variant::ThreePlayer, 0));
    play_out(&mut m, &mut rng(0));
    assert_eq!(m.apply_action(0), Err(IllegalAction::GameOver));
}

#[test]
fn illegal_action_messages_name_the_card_and_the_reason() {
    let e = IllegalAction::MustFollowSuit {
        card: c("S13"),
        led: Suit::Wind,
    }
    .to_string();
    assert!(
        e.contains("S13") && e.contains("Wind") && e.contains("follow"),
        "{e}"
    );
    let e = IllegalAction::NotInHand {
        card: c("WA"),
        seat: 2,
    }
    .to_string();
    assert!(e.contains("WA") && e.contains("seat 2"), "{e}");
}
