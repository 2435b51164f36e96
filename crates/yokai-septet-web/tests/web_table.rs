//! The table's server side for the page (issue 60): seeds as decimal strings, the trick
//! just finished kept in the picture, refusals in a person's words and as `{"error"}`
//! alone, a passing pick taken back, the hands left at the end, and the review's deal and
//! estimates. The page itself is tested in Chromium (`tests/python/test_serve_browser.py`).

use axum::Router;
use serde_json::{json, Value};

mod web_helpers;

/// One JSON request through the router (no socket): its status and its JSON answer.
fn send(app: &Router, method: &str, path: &str, body: Value) -> (u16, Value) {
    let body = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let (status, _, v) = web_helpers::call_full(app, method, path, body, &[]);
    (status, v)
}

fn good(app: &Router, method: &str, path: &str, body: Value) -> Value {
    let (status, v) = send(app, method, path, body);
    assert!(status < 300, "{method} {path}: {status} {v}");
    v
}

fn app() -> Router {
    web_helpers::app()
}

/// A new game as `body` asks; its state.
fn start(app: &Router, body: Value) -> Value {
    good(app, "POST", "/api/games", body)
}

/// One move: the person's first legal card, else a bot's.
fn advance(app: &Router, s: &Value) -> Value {
    let id = s["id"].as_str().unwrap();
    if s["your_turn"] == true {
        let card = s["hand"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["legal"] == true)
            .unwrap()["card"]
            .clone();
        good(
            app,
            "POST",
            &format!("/api/games/{id}/play"),
            json!({ "card": card }),
        )
    } else {
        good(app, "POST", &format!("/api/games/{id}/step"), Value::Null)
    }
}

/// An object's keys, sorted.
fn keys(v: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    keys
}

fn hand(s: &Value) -> Vec<String> {
    s["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_seed_travels_as_a_decimal_string_and_deals_the_same_game_again() {
    let app = app();
    let seed = "16545473962774781750";
    let a = start(&app, json!({ "seed": seed, "episode": "round" }));
    // The seed deals every hand: hidden while the game is on (R10).
    assert_eq!(a["seed"], Value::Null);
    let b = start(
        &app,
        json!({ "seed": 16545473962774781750u64, "episode": "round" }),
    );
    assert_eq!(hand(&a), hand(&b));
    let mut s = a.clone();
    while s["over"] != true {
        s = advance(&app, &s);
    }
    assert_eq!(
        s["seed"], seed,
        "shown to its last digit once the game is over"
    );
    let id = a["id"].as_str().unwrap();
    let rec = good(&app, "GET", &format!("/api/games/{id}/record"), Value::Null);
    assert_eq!(rec["seed"], 16545473962774781750u64);
    // The seed as shown deals it again; one past the largest is refused, saying why.
    let c = start(&app, json!({ "seed": s["seed"], "episode": "round" }));
    assert_eq!(hand(&c), hand(&a));
    let (status, e) = send(
        &app,
        "POST",
        "/api/games",
        json!({"seed": "18446744073709551616"}),
    );
    assert_eq!(status, 400);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("seed: give a whole number"),
        "{e}"
    );
}

#[test]
fn every_refusal_is_an_error_alone_and_an_illegal_card_also_names_its_card() {
    let app = app();
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    for (method, path, body) in [
        ("GET", "/api/games/nope".to_string(), Value::Null),
        ("POST", "/api/games".to_string(), json!({"seat": 9})),
        ("POST", "/api/games".to_string(), json!({"colour": "red"})),
        ("POST", "/api/nowhere".to_string(), Value::Null),
    ] {
        let (status, e) = send(&app, method, &path, body);
        assert!(status >= 400, "{path}");
        assert_eq!(keys(&e), ["error"], "{path}: {e}");
    }
    // Play until a card of the hand is refused: 422 with the card.
    let mut s = start(&app, json!({"seed": 4, "seat": 0}));
    for _ in 0..400 {
        if s["your_turn"] == true && s["phase"] == "play" {
            if let Some(bad) = s["hand"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["legal"] == false)
            {
                // The terminal's words for it, beside the rule's text.
                let words = bad["words"].as_str().unwrap();
                let code = bad["card"].as_str().unwrap();
                assert!(
                    words.starts_with(&format!("You cannot play {code}: you must follow ")),
                    "{words}"
                );
                assert!(bad["reason"].as_str().unwrap().ends_with("(R5)"));
                let id = s["id"].as_str().unwrap();
                let (status, e) = send(
                    &app,
                    "POST",
                    &format!("/api/games/{id}/play"),
                    json!({"card": code}),
                );
                assert_eq!(status, 422);
                assert_eq!(keys(&e), ["card", "error"], "{e}");
                assert_eq!(e["card"], code);
                return;
            }
            assert!(s["hand"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["words"].is_null()));
        }
        s = advance(&app, &s);
    }
    panic!("no card was ever refused");
}

#[test]
fn a_passing_pick_is_taken_back_until_the_last() {
    let app = app();
    let s = start(&app, json!({"seed": 6, "seat": 0}));
    let id = s["id"].as_str().unwrap().to_string();
    let undo = format!("/api/games/{id}/undo");
    assert_eq!(s["phase"], "pass");
    assert_eq!(s["passing"]["to"], json!([2, 2, 2]));
    let (status, e) = send(&app, "POST", &undo, Value::Null);
    assert_eq!(status, 409, "{e}");
    let one = advance(&app, &s);
    assert_eq!(one["passing"]["picked"].as_array().unwrap().len(), 1);
    let back = good(&app, "POST", &undo, Value::Null);
    assert_eq!(back["hand"], s["hand"]);
    assert_eq!(back["passing"], s["passing"]);
    // Three picks: the last cannot be taken back (the next seat picks).
    let mut t = back;
    for _ in 0..3 {
        t = advance(&app, &t);
    }
    assert_eq!(t["your_turn"], false);
    let (status, _) = send(&app, "POST", &undo, Value::Null);
    assert_eq!(status, 409);
    // The game goes on to the exchange, the record the same as without the take-back.
    while t["phase"] == "pass" {
        t = advance(&app, &t);
    }
    let plain = start(&app, json!({"seed": 6, "seat": 0}));
    let mut u = plain;
    while u["phase"] == "pass" {
        u = advance(&app, &u);
    }
    assert_eq!(t["hand"], u["hand"]);
}

#[test]
fn the_finished_trick_stays_in_the_picture_until_the_next_card() {
    let app = app();
    let mut s = start(&app, json!({"seed": 2, "seat": 1, "episode": "round"}));
    let mut kept = 0;
    while s["over"] == false {
        let next = advance(&app, &s);
        let done =
            next["tricks_played"].as_u64() > s["tricks_played"].as_u64() && next["phase"] == "play";
        let svg = next["svg"].as_str().unwrap();
        if done {
            let last = next["events"].as_array().unwrap().last().unwrap().clone();
            assert_eq!(last["kind"], "trick");
            assert!(
                svg.contains(&format!("seat {} takes the trick", last["winner"])),
                "trick {}",
                last["trick"]
            );
            for c in last["cards"].as_array().unwrap() {
                assert!(svg.contains(&format!("data-card=\"{}\"", c["card"].as_str().unwrap())));
            }
            kept += 1;
        } else if !next["trick"].as_array().unwrap().is_empty() {
            assert!(!svg.contains("takes the trick"));
        }
        s = next;
    }
    // Every trick but the round's last (the round's end is shown instead).
    let tricks = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "trick")
        .count();
    assert!(kept >= 5 && kept == tricks - 1, "{kept} of {tricks}");
    assert!(s["hands_left"].is_array());
}

#[test]
fn the_hands_left_are_shown_once_the_game_is_over() {
    let app = app();
    let mut s = start(
        &app,
        json!({"seed": 21, "variant": "seal", "episode": "round"}),
    );
    while s["over"] == false {
        assert!(s["hands_left"].is_null());
        s = advance(&app, &s);
    }
    let left = s["hands_left"].as_array().unwrap();
    assert_eq!(left.len(), 4);
    let sizes: Vec<u64> = left
        .iter()
        .map(|h| h.as_array().unwrap().len() as u64)
        .collect();
    let counted: Vec<u64> = s["hand_len"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert_eq!(sizes, counted);
    assert_eq!(left[0], json!(hand(&s)));
    // The picture draws them face up, every seat's, with the deciding trick on the table.
    let svg = s["svg"].as_str().unwrap();
    assert!(!svg.contains("card-back"), "a hand is drawn face down");
    for (p, h) in left.iter().enumerate() {
        let start = svg
            .find(&format!(r#"<g class="hand" data-seat="{p}">"#))
            .unwrap_or_else(|| panic!("no hand of seat {p}"));
        let drawn = &svg[start..start + svg[start..].find("</g>").unwrap()];
        for c in h.as_array().unwrap() {
            let c = c.as_str().unwrap();
            assert!(
                drawn.contains(&format!(r#"data-card="{c}""#)),
                "seat {p}: {c}"
            );
        }
    }
    let deciding = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["kind"] == "trick")
        .unwrap();
    for c in deciding["cards"].as_array().unwrap() {
        let code = c["card"].as_str().unwrap();
        let seat = &c["seat"];
        assert!(
            svg.contains(&format!(r#"data-card="{code}" data-seat="{seat}""#)),
            "the deciding trick's {code}"
        );
    }
}

#[test]
fn a_rounds_review_shows_its_deal_and_scores_every_play() {
    let app = app();
    let mut s = start(&app, json!({"seed": 3, "episode": "round"}));
    while s["over"] == false {
        s = advance(&app, &s);
    }
    let id = s["id"].as_str().unwrap();
    let r = good(
        &app,
        "POST",
        &format!("/api/games/{id}/review"),
        json!({"round": 0}),
    );
    let deal = &r["deal"]["hands"];
    assert_eq!(deal.as_array().unwrap().len(), 4);
    assert!(deal
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h.as_array().unwrap().len() >= 12));
    assert_eq!(r["deal"]["passes"].as_array().unwrap().len(), 4);
    let statuses: Vec<&str> = r["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap())
        .collect();
    assert!(
        statuses.contains(&"estimated") && statuses.contains(&"solved"),
        "{statuses:?}"
    );
    assert!(!statuses.contains(&"skipped"));
    assert!(r["point_of_view"]
        .as_str()
        .unwrap()
        .contains("the player who moved"));
    assert_eq!(
        keys(&r),
        [
            "budget",
            "costly",
            "deal",
            "plays",
            "point_of_view",
            "round",
            "scoring",
            "seats",
            "shares",
            "units",
            "variant",
            "version"
        ]
    );
    assert_eq!(r["round"], 0);
    assert_eq!(keys(&r["deal"]), ["hands", "passes", "trump_card"]);
    assert!(r["deal"]["trump_card"].is_string());
    let costly = r["costly"].as_array().unwrap();
    assert!(!costly.is_empty());
    for c in costly {
        assert_eq!(keys(c), ["best", "card", "cost", "seat", "trick"]);
    }
    for p in r["plays"].as_array().unwrap() {
        // `analyze --json`'s keys, and the best cards' codes beside their ids.
        assert_eq!(
            keys(p),
            [
                "best",
                "best_cards",
                "best_codes",
                "card",
                "chosen",
                "code",
                "cost",
                "forecast",
                "index",
                "nodes",
                "round",
                "seat",
                "status",
                "trick",
                "values",
                "worlds"
            ]
        );
        let codes: Vec<String> = p["best_cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| yokai_septet::Card::new(id.as_u64().unwrap() as u8).unwrap())
            .map(|c| c.to_string())
            .collect();
        assert_eq!(p["best_codes"], json!(codes));
        if p["status"] == "estimated" {
            assert!(p["forecast"].as_u64().unwrap() > r["budget"].as_u64().unwrap());
            assert!(!p["best_codes"].as_array().unwrap().is_empty());
        }
    }
}

/// A finished game's record is drawn in the replay viewer (the page's load hands it over,
/// issue 64); a game in progress, or what is not a record, is refused with why.
#[test]
fn a_finished_record_opens_in_the_replay_viewer() {
    let app = app();
    let mut s = start(&app, json!({"seed": 8, "episode": "round"}));
    let id = s["id"].as_str().unwrap().to_string();
    let record = good(&app, "GET", &format!("/api/games/{id}/record"), Value::Null);
    let (status, v) = send(&app, "POST", "/api/replay", record);
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not over"), "{v}");
    while s["over"] == false {
        s = advance(&app, &s);
    }
    let record = good(&app, "GET", &format!("/api/games/{id}/record"), Value::Null);
    let (status, headers, page) = web_helpers::call_full(
        &app,
        "POST",
        "/api/replay",
        record.to_string().into_bytes(),
        &[],
    );
    assert_eq!(status, 200);
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("default-src 'none'"));
    let page = page.as_str().unwrap();
    assert!(page.starts_with("<!DOCTYPE html") || page.starts_with("<!doctype html"));
    assert!(page.contains(r#"id="slider""#));
    // The same viewer as the finished game's own.
    let (_, _, own) = web_helpers::call_full(
        &app,
        "GET",
        &format!("/api/games/{id}/replay"),
        Vec::new(),
        &[],
    );
    assert_eq!(own.as_str().unwrap(), page);
    let (status, v) = send(&app, "POST", "/api/replay", json!({"variant": "4p"}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("record: "), "{v}");
}
