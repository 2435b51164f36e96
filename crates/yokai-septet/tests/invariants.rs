//! Randomized invariants over thousands of random games per variant (proptest picks the
//! seeds; the policy is uniform random play).

use common::*;
use yokai_septet_testkit as common;

use proptest::prelude::*;
use yokai_septet::{CardSet, GameConfig, Match, Phase, Scoring, State, Variant};

/// Every card is in exactly one place: a hand, the trick in progress or the captured
/// cards, or the face-up card.
fn check_cards_conserved(s: &State) {
    let v = s.variant();
    let n = v.num_players();
    let mut seen = CardSet::EMPTY;
    let mut count = 0;
    let mut places: Vec<CardSet> = (0..n)
        .map(|p| s.hand(p))
        .chain((0..n).map(|p| s.won_cards(p)))
        .collect();
    places.push(s.trick_cards().iter().copied().collect());
    if let Some(t) = s.trump_card() {
        places.push(CardSet::EMPTY.with(t));
    }
    for set in places {
        assert!(seen.intersect(set).is_empty(), "a card is in two places");
        seen = seen.union(set);
        count += set.len();
    }
    assert_eq!(count as usize, v.deck_size());
    let deck = v.deck();
    assert_eq!(seen, deck);
}

fn check_counts(s: &State) {
    let n = s.num_players();
    let tricks: usize = (0..n).map(|p| s.tricks_won(p)).sum();
    assert_eq!(tricks, s.tricks_played());
    let captured: u32 = (0..n).map(|p| s.won_cards(p).len()).sum();
    assert_eq!(captured as usize, tricks * n, "each trick captures n cards");
    let played: u32 = (0..n).map(|p| s.played_by(p).len()).sum();
    assert_eq!(played as usize, tricks * n + s.trick_cards().len());
    if s.phase() == Phase::Play {
        let sizes: Vec<u32> = (0..n).map(|p| s.hand(p).len()).collect();
        let leader = s.trick_leader().unwrap();
        for k in 0..n {
            let p = (leader + k) % n;
            let expected = s.variant().hand_size()
                - s.tricks_played()
                - usize::from(k < s.trick_cards().len());
            assert_eq!(sizes[p] as usize, expected);
        }
    }
}

fn play_checked(v: Variant, scoring: Scoring, seed: u64) {
    let mut m = Match::new(
        GameConfig::new(v, seed)
            .with_scoring(scoring)
            .with_max_rounds(Some(60)),
    );
    let mut r = rng(seed ^ 0xABCD);
    let mut last_scores = m.state().scores();
    let mut round_start_scores = last_scores;
    let mut steps = 0;
    while !m.state().is_over() {
        let a = random_action(m.state(), &mut r);
        let out = m.apply(a).unwrap();
        let s = m.state();
        steps += 1;
        assert!(steps < 100_000, "game does not end");
        if !s.is_over() || out.trick.is_none() {
            check_cards_conserved(s);
            check_counts(s);
        }
        let scores = s.scores();
        assert!(
            scores.iter().zip(last_scores).all(|(a, b)| *a >= b),
            "scores only grow"
        );
        if let Some(res) = out.round {
            let gained: Vec<u16> = scores
                .iter()
                .zip(round_start_scores)
                .map(|(a, b)| a - b)
                .collect();
            assert_eq!(
                &gained[..],
                &res.points[..],
                "a round's points are what the scores gained"
            );
            round_start_scores = scores;
            if !v.is_seal() {
                assert!(res.winners != 0, "every 4p/3p round has a winner");
                for p in 0..s.num_players() {
                    assert!(
                        res.points[p] == 0 || res.winners >> p & 1 == 1,
                        "only winners score"
                    );
                }
            }
        } else if out.new_seals != 0 {
            let gained: u16 = scores.iter().zip(last_scores).map(|(a, b)| a - b).sum();
            assert_eq!(
                gained as u32,
                2 * out.new_seals.count_ones(),
                "a seal scores for both partners"
            );
        } else {
            assert_eq!(
                scores, last_scores,
                "scores change only at a round end or a seal"
            );
        }
        last_scores = scores;
    }
    let s = m.state();
    assert!(s.is_truncated() || s.winners().count() > 0);
    if !s.is_truncated() && !v.is_seal() {
        let target = scoring.target();
        assert!(s
            .winners()
            .all(|p| s.score(p) >= target || v == Variant::ThreePlayer));
        assert!(s.scores().iter().any(|&sc| sc >= target));
    }
    let rec = m.record();
    assert_eq!(Match::from_record(&rec.to_value()).unwrap().record(), rec);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn invariants_4p(seed in any::<u64>(), basic in any::<bool>()) {
        play_checked(Variant::FourPlayer, if basic { Scoring::Basic } else { Scoring::Advanced }, seed);
    }

    #[test]
    fn invariants_3p(seed in any::<u64>(), basic in any::<bool>()) {
        play_checked(Variant::ThreePlayer, if basic { Scoring::Basic } else { Scoring::Advanced }, seed);
    }

    #[test]
    fn invariants_seal(seed in any::<u64>()) {
        play_checked(Variant::Seal, Scoring::Advanced, seed);
    }

    #[test]
    fn invariants_seal_short(seed in any::<u64>()) {
        play_checked(Variant::SealShort, Scoring::Advanced, seed);
    }

    #[test]
    fn determinism_same_seed_same_actions_same_record(seed in any::<u64>(), v in 0usize..4) {
        let v = Variant::ALL[v];
        let mut a = Match::new(GameConfig::new(v, seed).with_max_rounds(Some(20)));
        let mut b = Match::new(GameConfig::new(v, seed).with_max_rounds(Some(20)));
        play_out(&mut a, &mut rng(seed));
        play_out(&mut b, &mut rng(seed));
        prop_assert_eq!(a.record(), b.record());
    }
}

#[test]
fn thousands_of_games_per_variant_end_with_consistent_state() {
    // Cheaper end-state checks over many more games than the proptest cases above.
    for v in Variant::ALL {
        for seed in 0..2_000u64 {
            let mut s = State::new(GameConfig::new(v, seed).with_max_rounds(Some(100)));
            let mut r = rng(seed);
            while !s.is_over() {
                let a = random_action(&s, &mut r);
                s.apply(a).unwrap();
            }
            assert!(s.is_truncated() || s.winners().count() > 0, "{v} {seed}");
            check_cards_conserved(&s);
        }
    }
}
