//! The round change: a finished round's last position ([`Phase::RoundOver`]) and the one
//! dealing entry point ([`State::apply_deal`] / [`Match::apply_deal`]).

use common::*;
use yokai_septet_testkit as common;

use yokai_septet::{
    Card, CardSet, Deal, DealError, GameConfig, IllegalAction, Match, Phase, State, Variant,
};

/// Plays random moves with `apply_in_round` until a round ends without ending the game;
/// returns the position before the last move, the last move's outcome, and the state.
fn to_first_round_over(v: Variant, seed: u64) -> Option<(State, yokai_septet::Outcome, State)> {
    let mut s = State::new(GameConfig::new(v, seed));
    let mut r = rng(seed);
    while !s.is_over() {
        let before = s;
        let out = s.apply_in_round(random_action(&s, &mut r)).unwrap();
        if s.phase() == Phase::RoundOver {
            return Some((before, out, s));
        }
    }
    None
}

#[test]
fn the_finished_rounds_last_position_is_visible_with_its_captures_and_last_trick() {
    let mut seen = 0;
    for v in Variant::ALL {
        for seed in 0..8 {
            let Some((before, out, s)) = to_first_round_over(v, seed) else {
                continue;
            };
            seen += 1;
            let result = out.round.expect("the move ended the round");
            assert!(!out.game_over);
            assert_eq!(s.round(), before.round(), "still the finished round");
            assert_eq!(s.current_player(), None);
            assert!(s.legal_actions().is_empty());
            assert!(!s.is_over());
            assert_eq!(s.last_round_result(), Some(result));
            // The last trick is among the winner's captures, and every capture is still
            // there: the bosses each seat took are readable.
            let trick = out.trick.expect("a round ends with a trick");
            let taken: CardSet = trick.cards().iter().copied().collect();
            assert_eq!(s.won_cards(trick.winner as usize).intersect(taken), taken);
            assert_eq!(s.tricks_played(), before.tricks_played() + 1);
            let n = s.num_players();
            let captured = (0..n).fold(CardSet::EMPTY, |a, p| a.union(s.won_cards(p)));
            assert_eq!(
                captured,
                s.played(),
                "every card played this round was captured"
            );
            assert!(
                !captured.bosses().is_empty() || result.reason != yokai_septet::RoundEnd::Bosses
            );
            // No move is taken until the next deal, and a refused move changes nothing.
            let mut t = s;
            let any = Card::new(0).unwrap();
            assert_eq!(t.apply(any), Err(IllegalAction::AwaitingDeal));
            assert_eq!(t.apply_action(0), Err(IllegalAction::AwaitingDeal));
            assert_eq!(t, s);
        }
    }
    assert!(
        seen > 10,
        "only {seen} rounds ended without ending the game"
    );
}

#[test]
fn apply_deal_given_the_seeded_deal_equals_the_seeded_apply() {
    for v in Variant::ALL {
        for seed in 0..6 {
            let mut auto = State::new(GameConfig::new(v, seed));
            let mut dealt = auto;
            let mut r = rng(100 + seed);
            while !auto.is_over() {
                let card = random_action(&auto, &mut r);
                let a = auto.apply(card).unwrap();
                let b = dealt.apply_in_round(card).unwrap();
                assert_eq!(a, b);
                if dealt.phase() == Phase::RoundOver {
                    let deal = dealt.seeded_deal();
                    dealt.apply_deal(deal).unwrap();
                }
                assert_eq!(auto, dealt);
            }
        }
    }
}

#[test]
fn an_explicit_next_deal_is_dealt_and_recorded() {
    let v = Variant::FourPlayer;
    let (_, _, s) = to_first_round_over(v, 3).expect("a round ends");
    let mut m = Match::determinization(s);
    let other = Deal::from_seed(v, 777, 5);
    m.apply_deal(other).unwrap();
    assert_eq!(m.state().round(), s.round() + 1);
    assert_eq!(m.state().deal(), &other);
    assert_eq!(m.state().phase(), Phase::Pass);
    assert_eq!(m.state().current_player(), Some(0));
}

#[test]
fn bad_deals_are_refused_with_a_typed_error_and_change_nothing() {
    let v = Variant::FourPlayer;
    let (_, _, s) = to_first_round_over(v, 1).expect("a round ends");
    let good = Deal::from_seed(v, 9, 9);
    let mut twice = good;
    twice.hands[1] = twice.hands[0];
    let mut short = good;
    short.hands[0] = CardSet::EMPTY;
    let seal = Deal::from_seed(Variant::Seal, 9, 9);
    let mut no_trump = good;
    no_trump.trump_card = None;
    for (deal, why) in [
        (twice, "duplicate"),
        (short, "short hand"),
        (seal, "another variant's deal"),
        (no_trump, "no face-up card"),
    ] {
        let mut t = s;
        let err = t.apply_deal(deal).expect_err(why);
        assert!(
            matches!(
                err,
                DealError::Duplicate { .. }
                    | DealError::WrongHandSize { .. }
                    | DealError::TrumpCardExpected
                    | DealError::CardOutOfRange { .. }
            ),
            "{why}: {err:?}"
        );
        assert_eq!(t, s, "{why}: the state changed");
    }
    // Mid-round and after the game: the deal is refused whatever it is.
    let mut mid = State::new(GameConfig::new(v, 4));
    mid.apply(mid.legal_actions().first().unwrap()).unwrap();
    let copy = mid;
    assert_eq!(mid.apply_deal(good), Err(DealError::RoundInProgress));
    assert_eq!(mid, copy);
    let mut m = Match::new(GameConfig::new(v, 4));
    play_out(&mut m, &mut rng(4));
    let over = *m.state();
    assert_eq!(m.apply_deal(good), Err(DealError::GameOver));
    assert_eq!(*m.state(), over);
    // Before the round's first pick, a valid deal replaces the round's deal.
    let mut fresh = State::new(GameConfig::new(v, 4));
    fresh.apply_deal(good).unwrap();
    assert_eq!(fresh.deal(), &good);
    assert_eq!(fresh.round(), 0);
}

#[test]
fn a_match_logs_one_record_round_per_deal() {
    // Dealing each round by hand through `apply_in_round` / `apply_deal` writes the same
    // record as `apply`, which deals from the seed.
    for v in Variant::ALL {
        let config = GameConfig::new(v, 11);
        let mut auto = Match::new(config);
        let mut manual = Match::new(config);
        let mut r = rng(11);
        while !auto.state().is_over() {
            let card = random_action(auto.state(), &mut r);
            auto.apply(card).unwrap();
            manual.apply_in_round(card).unwrap();
            if manual.state().phase() == Phase::RoundOver {
                let d = manual.state().seeded_deal();
                manual.apply_deal(d).unwrap();
            }
        }
        assert_eq!(auto.record(), manual.record());
    }
}
