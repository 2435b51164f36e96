//! Records (the schema in docs/records.md) round-trip exactly, and tampered records are rejected with the
//! path of what is wrong.

use common::*;
use yokai_septet_testkit as common;

use serde_json::{json, Value};
use yokai_septet::{Card, Deal, Episode, GameConfig, Match, Scoring, Variant};

fn finished(v: Variant, seed: u64) -> Match {
    let mut m = Match::new(GameConfig::new(v, seed).with_max_rounds(Some(30)));
    play_out(&mut m, &mut rng(seed));
    m
}

fn reject(rec: &Value) -> String {
    let e = Match::from_record(rec).expect_err("tampered record must be rejected");
    e.to_string()
}

#[test]
fn records_round_trip_exactly() {
    for v in Variant::ALL {
        for seed in 0..15 {
            let m = finished(v, seed);
            let rec = m.record();
            let json = rec.to_json();
            let back = Match::from_json(&json).unwrap_or_else(|e| panic!("{v} {seed}: {e}"));
            assert_eq!(back.record(), rec);
            assert_eq!(back.state(), m.state());
        }
    }
}

#[test]
fn partial_records_round_trip_and_play_on_identically() {
    for v in Variant::ALL {
        let mut m = Match::new(GameConfig::new(v, 77));
        let mut r = rng(3);
        for _ in 0..40 {
            let a = random_action(m.state(), &mut r);
            m.apply(a).unwrap();
        }
        let mut back = Match::from_record(&m.record().to_value()).unwrap();
        assert_eq!(back.record(), m.record());
        let mut r2 = r.clone();
        play_out(&mut m, &mut r);
        play_out(&mut back, &mut r2);
        assert_eq!(
            back.record(),
            m.record(),
            "later rounds are dealt from the seed"
        );
    }
}

#[test]
fn record_shape_matches_the_contract() {
    let mut m = Match::new(GameConfig::new(Variant::FourPlayer, 1));
    play_out(&mut m, &mut rng(1));
    let v = m.record().to_value();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        ["over", "rounds", "scores", "scoring", "seed", "variant", "version", "winners"]
    );
    let r0 = v["rounds"][0].as_object().unwrap();
    let keys: Vec<&str> = r0.keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "hands",
            "leader",
            "passes",
            "result",
            "seals",
            "tricks",
            "trump_card",
            "trump_suit"
        ]
    );
    let t0: Vec<&str> = v["rounds"][0]["tricks"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(t0, ["cards", "leader", "winner"]);
    let res: Vec<&str> = v["rounds"][0]["result"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(res, ["points", "reason", "winners"]);
    assert_eq!(v["version"], 1);
    assert_eq!(v["over"], true);
    let seal = finished(Variant::Seal, 1).record().to_value();
    assert_eq!(seal["scoring"], Value::Null);
    assert_eq!(seal["rounds"][0]["trump_card"], Value::Null);
}

#[test]
fn explicit_deals_are_used_and_recorded() {
    let d = Deal::from_seed(Variant::ThreePlayer, 999, 0);
    let mut m = Match::with_deals(GameConfig::new(Variant::ThreePlayer, 1), vec![d]).unwrap();
    assert_eq!(m.state().deal(), &d);
    play_out(&mut m, &mut rng(0));
    let rec = m.record();
    assert_eq!(rec.rounds[0].hands[0], d.hands[0].to_ids());
    if rec.rounds.len() > 1 {
        let d1 = Deal::from_seed(Variant::ThreePlayer, 1, 1);
        assert_eq!(
            rec.rounds[1].hands[2],
            d1.hands[2].to_ids(),
            "round 1 comes from the seed"
        );
    }
    assert_eq!(Match::from_record(&rec.to_value()).unwrap().record(), rec);
}

#[test]
fn non_default_config_is_recorded() {
    let cfg = GameConfig::new(Variant::FourPlayer, 3)
        .with_scoring(Scoring::Basic)
        .with_episode(Episode::Round)
        .with_max_rounds(Some(4));
    let mut m = Match::new(cfg);
    play_out(&mut m, &mut rng(3));
    let v = m.record().to_value();
    assert_eq!(v["episode"], "round");
    assert_eq!(v["max_rounds"], 4);
    assert_eq!(v["scoring"], "basic");
    assert_eq!(Match::from_record(&v).unwrap().state().config(), &cfg);
}

#[test]
fn tampered_records_name_the_field() {
    let good = finished(Variant::FourPlayer, 2).record().to_value();

    let mut r = good.clone();
    let w = r["rounds"][0]["tricks"][3]["winner"].as_u64().unwrap();
    r["rounds"][0]["tricks"][3]["winner"] = json!((w + 1) % 4);
    let e = reject(&r);
    assert!(e.contains("rounds[0].tricks[3].winner"), "{e}");

    let mut r = good.clone();
    r["rounds"][0]["leader"] = json!((r["rounds"][0]["leader"].as_u64().unwrap() + 1) % 4);
    assert!(reject(&r).contains("rounds[0].leader"));

    let mut r = good.clone();
    r["scores"][0] = json!(99);
    assert!(reject(&r).contains("scores[0]"));

    let mut r = good.clone();
    r["over"] = json!(false);
    assert!(reject(&r).contains("over"));

    let mut r = good.clone();
    r["rounds"][0]["result"]["reason"] = json!("tricks_x");
    assert!(reject(&r).contains("rounds[0].result.reason"));

    let mut r = good.clone();
    r["extra"] = json!(1);
    let e = reject(&r);
    assert!(e.contains("extra") && e.contains("unknown key"), "{e}");

    let mut r = good.clone();
    r["rounds"][0].as_object_mut().unwrap().remove("seals");
    let e = reject(&r);
    assert!(
        e.contains("rounds[0].seals") && e.contains("missing"),
        "{e}"
    );

    let mut r = good.clone();
    r["version"] = json!(2);
    assert!(reject(&r).contains("version"));

    let mut r = good.clone();
    r["variant"] = json!("5p");
    let e = reject(&r);
    assert!(e.contains("variant") && e.contains("seal-short"), "{e}");

    // A card played after its round ended is named by code and id, like any other card.
    let mut r = good.clone();
    let tricks = r["rounds"][0]["tricks"].as_array_mut().unwrap();
    let t = tricks.len();
    tricks.push(json!({"cards": [5], "winner": 0}));
    let e = reject(&r);
    assert!(
        e.contains(&format!("rounds[0].tricks[{t}].cards[0]"))
            && e.contains("card W6 (id 5)")
            && e.contains("after its round"),
        "{e}"
    );
}

#[test]
fn wrong_json_types_are_rejected() {
    let good = finished(Variant::ThreePlayer, 4).record().to_value();
    for bad in [json!(true), json!(1.0), json!("3"), Value::Null] {
        let mut r = good.clone();
        r["rounds"][0]["tricks"][0]["cards"][1] = bad.clone();
        let e = reject(&r);
        assert!(e.contains("rounds[0].tricks[0].cards[1]"), "{bad}: {e}");
        let mut r = good.clone();
        r["seed"] = bad.clone();
        assert!(reject(&r).contains("seed"), "{bad}");
    }
    let mut r = good.clone();
    r["rounds"][0]["trump_card"] = json!(12.0);
    assert!(reject(&r).contains("rounds[0].trump_card"));
}

#[test]
fn illegal_and_malformed_deals_and_actions_are_rejected() {
    let good = finished(Variant::FourPlayer, 6).record().to_value();

    // Hands not ascending.
    let mut r = good.clone();
    let h = r["rounds"][0]["hands"][1].as_array_mut().unwrap();
    h.swap(0, 1);
    let e = reject(&r);
    assert!(
        e.contains("rounds[0].hands") && e.contains("ascending"),
        "{e}"
    );

    // A card dealt twice.
    let mut r = good.clone();
    let dup = r["rounds"][0]["hands"][0][0].clone();
    r["rounds"][0]["trump_card"] = dup;
    assert!(reject(&r).contains("twice"));

    // A played card that does not follow suit, or is not in hand.
    let mut r = good.clone();
    let t0 = r["rounds"][0]["tricks"][0]["cards"]
        .as_array()
        .unwrap()
        .clone();
    let second: u8 = t0[1].as_u64().unwrap() as u8;
    let leader_card = Card::new(t0[0].as_u64().unwrap() as u8).unwrap();
    let off: Option<u8> = (0..49u8).find(|&id| {
        let c = Card::new(id).unwrap();
        c.suit() != leader_card.suit() && id != second
    });
    r["rounds"][0]["tricks"][0]["cards"][1] = json!(off.unwrap());
    let e = reject(&r);
    assert!(e.contains("rounds[0].tricks[0].cards[1]"), "{e}");

    // A pick out of turn: seat 1 picks while seat 0 has picked only two.
    let mut r = good.clone();
    let moved = r["rounds"][0]["passes"][0]
        .as_array_mut()
        .unwrap()
        .pop()
        .unwrap();
    r["rounds"][0]["passes"][1]
        .as_array_mut()
        .unwrap()
        .push(moved);
    let e = reject(&r);
    assert!(e.contains("rounds[0].passes[1]"), "{e}");

    // An extra trick after the round ended.
    let mut r = good.clone();
    let extra = r["rounds"][0]["tricks"][0].clone();
    r["rounds"][0]["tricks"].as_array_mut().unwrap().push(extra);
    let e = reject(&r);
    assert!(e.contains("rounds[0].tricks["), "{e}");

    // Not JSON at all.
    assert!(Match::from_json("{")
        .unwrap_err()
        .to_string()
        .contains("JSON"));
    assert!(Match::from_json("[]")
        .unwrap_err()
        .to_string()
        .contains("object"));
}

/// The optional `players` (who sits where, from `play --save`): written when set, read
/// back, absent in records that never had it, and a malformed entry is refused by name.
#[test]
fn players_are_optional_round_trip_and_malformed_ones_are_refused() {
    let config = GameConfig::new(Variant::FourPlayer, 5);
    let mut m = Match::new(config);
    play_out(&mut m, &mut rng(5));
    let plain = m.record().to_json();
    assert!(!plain.contains("players"), "no players unless set: {plain}");
    assert_eq!(Match::from_json(&plain).unwrap().players(), None);
    let players = vec![
        None,
        Some("heuristic".into()),
        Some("pimc:6".into()),
        Some("random".into()),
    ];
    m.set_players(Some(players.clone()));
    let json = m.record().to_json();
    let back = Match::from_json(&json).unwrap();
    assert_eq!(back.players(), Some(&players[..]));
    assert_eq!(back.record().to_json(), json);
    let mut v: Value = serde_json::from_str(&json).unwrap();
    for (bad, path) in [
        (serde_json::json!(3), "players"),
        (serde_json::json!([null, "heuristic"]), "players"),
        (
            serde_json::json!([null, "heuristic", 5, "random"]),
            "players[2]",
        ),
        (
            serde_json::json!([null, "", "random", "random"]),
            "players[1]",
        ),
    ] {
        v["players"] = bad;
        let err = Match::from_record(&v).unwrap_err();
        assert_eq!(err.path, path, "{err}");
    }
}
