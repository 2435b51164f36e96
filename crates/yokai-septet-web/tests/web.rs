//! The web app's HTTP API (`yokai-septet serve`): whole games through the
//! router (tower's `oneshot`, no socket), what a seat may see (R10), and the hostile
//! battery: bad JSON, wrong types, huge bodies, wrong `Origin` and `Host`, unknown games,
//! the cap on games, concurrent clients on a real socket, and the server answering after
//! all of it.

use std::io::Write;
use std::net::TcpStream;

use serde_json::{json, Value};

use yokai_septet::{Match, Variant};
use yokai_septet_web::PAGE;

#[path = "web_helpers/mod.rs"]
mod helpers;
use helpers::*;

#[test]
fn the_page_is_small_and_self_contained() {
    let a = app();
    let (status, page) = call(&a, "GET", "/", Value::Null);
    assert_eq!(status, 200);
    let page = page.as_str().unwrap();
    assert_eq!(page, PAGE);
    assert!(page.len() < 200_000, "{} bytes", page.len());
    // No request to anywhere else: every URL the page names is the SVG namespace.
    for scheme in ["http://", "https://", "//cdn", "<link"] {
        for (i, _) in page.match_indices(scheme) {
            assert!(
                page[i..].starts_with("http://www.w3.org/2000/svg"),
                "{}",
                &page[i..i + 60]
            );
        }
    }
    let (status, options) = call(&a, "GET", "/api/options", Value::Null);
    assert_eq!(status, 200);
    assert_eq!(
        options["variants"],
        json!(["4p", "3p", "seal", "seal-short"])
    );
}

#[test]
fn a_whole_game_of_each_variant_from_a_seat() {
    for variant in ["4p", "3p", "seal", "seal-short"] {
        let a = app();
        let g = ok(
            &a,
            "POST",
            "/api/games",
            json!({"variant": variant, "seed": 5, "seat": 1, "max_rounds": 2}),
        );
        assert_eq!(g["seat"], 1);
        assert_eq!(g["players"][1], Value::Null);
        let mut kinds = std::collections::BTreeSet::new();
        let end = play_out(&a, g, &mut |s| {
            for e in s["events"].as_array().unwrap() {
                kinds.insert(e["kind"].as_str().unwrap().to_string());
            }
        });
        for e in end["events"].as_array().unwrap() {
            kinds.insert(e["kind"].as_str().unwrap().to_string());
        }
        for k in ["exchange", "trick", "round_end", "game_over"] {
            assert!(kinds.contains(k), "{variant}: no {k} event in {kinds:?}");
        }
        let exchange = end["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kind"] == "exchange")
            .unwrap();
        let passes = Variant::ALL
            .iter()
            .find(|v| v.to_string() == variant)
            .unwrap()
            .pass_count();
        assert_eq!(
            exchange["passed"].as_array().unwrap().len(),
            passes,
            "{variant}"
        );
        assert_eq!(
            exchange["received"].as_array().unwrap().len(),
            passes,
            "{variant}"
        );
        // The game is over: its record and its replay viewer may be had now.
        let id = end["id"].as_str().unwrap();
        let (status, page) = call(&a, "GET", &format!("/api/games/{id}/replay"), Value::Null);
        assert_eq!(status, 200);
        assert!(
            page.as_str().unwrap().starts_with("<!DOCTYPE html>")
                || page.as_str().unwrap().starts_with("<!doctype html>")
        );
        let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
        let m = Match::from_json(&record.to_string()).unwrap();
        assert!(m.state().is_over());
    }
}

#[test]
fn a_seat_sees_its_own_hand_and_public_events_only() {
    let a = app();
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"variant": "4p", "seed": 11, "episode": "round"}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let mut checked = 0;
    play_out(&a, g, &mut |s| {
        // The position itself, from the record (which holds every hand).
        let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
        let m = Match::from_json(&record.to_string()).unwrap();
        let view = m.state().view(0);
        let hand: Vec<String> = view.hand().iter().map(|c| c.to_string()).collect();
        let shown: Vec<String> = s["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["card"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(shown, hand);
        // The cards of the other hands that seat 0 cannot know: none is named anywhere
        // (the picture aside, whose own tests check that it draws them face down).
        let known: Vec<_> = view
            .my_passes()
            .map(|(c, _)| c)
            .chain(view.trump_card())
            .collect();
        let mut text = s.clone();
        text.as_object_mut().unwrap().remove("svg");
        let text = text.to_string();
        for p in 1..4 {
            for c in m.state().hand(p).iter().filter(|c| !known.contains(c)) {
                assert!(
                    !text.contains(&format!("\"{c}\"")),
                    "seat 0 is shown {c} of seat {p}: {text}"
                );
            }
        }
        checked += 1;
    });
    assert!(checked > 12, "{checked}");
}

#[test]
fn an_illegal_card_is_refused_with_the_rule_and_changes_nothing() {
    let a = app();
    let g = ok(&a, "POST", "/api/games", json!({"seed": 1, "seat": 0}));
    let id = g["id"].as_str().unwrap().to_string();
    // Pass, then let the bots move until seat 0 must follow a suit it can follow.
    let mut g = g;
    loop {
        if g["your_turn"] == true && g["phase"] == "play" {
            if let Some(bad) = g["hand"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["legal"] == false)
            {
                let reason = bad["reason"].as_str().unwrap().to_string();
                assert!(
                    reason.contains("does not follow the led suit") && reason.ends_with("(R5)"),
                    "{reason}"
                );
                let (status, e) = call(
                    &a,
                    "POST",
                    &format!("/api/games/{id}/play"),
                    json!({"card": bad["card"]}),
                );
                assert_eq!(status, 422);
                assert_eq!(error_of(&e), reason);
                assert_eq!(e["card"], bad["card"]);
                let after = ok(&a, "GET", &format!("/api/games/{id}"), Value::Null);
                for (k, v) in g
                    .as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, _)| *k != "last_move")
                {
                    assert_eq!(&after[k], v, "a refused card changed {k}");
                }
                return;
            }
        }
        g = advance(&a, &id, &g, false);
        assert_eq!(g["over"], false, "no forced follow in a whole game");
    }
}

#[test]
fn wrong_moves_are_refused_with_a_reason() {
    let a = app();
    let g = ok(&a, "POST", "/api/games", json!({"seed": 2, "seat": 1}));
    let id = g["id"].as_str().unwrap().to_string();
    // Seat 0 (a bot) passes first: playing now is out of turn.
    let (status, e) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/play"),
        json!({"card": "WA"}),
    );
    assert_eq!(status, 409, "{e}");
    assert!(error_of(&e).contains("turn"), "{e}");
    let mut g = g;
    while g["your_turn"] == false {
        g = ok(&a, "POST", &format!("/api/games/{id}/step"), Value::Null);
    }
    let (status, e) = call(&a, "POST", &format!("/api/games/{id}/step"), Value::Null);
    assert_eq!(status, 409, "{e}");
    let mine: Vec<&str> = g["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap())
        .collect();
    let other = ["WA", "W2", "W3", "W4", "W5"]
        .into_iter()
        .find(|c| !mine.contains(c))
        .unwrap();
    for (card, status, text) in [
        (json!(other), 422, "is not in seat 1's hand"),
        (json!("F7b"), 422, "out of range"),
        (json!(999), 422, "out of range"),
        (json!("Z9"), 400, "suit letter"),
        (json!(true), 400, "card code"),
    ] {
        let (s, e) = call(
            &a,
            "POST",
            &format!("/api/games/{id}/play"),
            json!({ "card": card }),
        );
        assert_eq!(s, status, "{card}: {e}");
        assert!(error_of(&e).contains(text), "{card}: {e}");
    }
    // A review of the round in progress would tell its hands.
    let (s, e) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/review"),
        json!({"round": 0}),
    );
    assert_eq!(s, 409, "{e}");
    // So would the replay viewer and the record of a game in progress... the record is the
    // person's own save (it must hold the deal to resume); the viewer waits for the end.
    let (s, _) = call(&a, "GET", &format!("/api/games/{id}/replay"), Value::Null);
    assert_eq!(s, 409);
    // The hint answers for the person's turn, with a value per legal card.
    let h = ok(&a, "POST", &format!("/api/games/{id}/hint"), Value::Null);
    assert!(mine.contains(&h["card"].as_str().unwrap()), "{h}");
    // Its shape (docs/play.md): these fields and no other.
    let mut keys: Vec<&str> = h.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "bot",
            "card",
            "double_dummy",
            "double_dummy_units",
            "double_dummy_worlds",
            "units",
            "values",
            "worlds"
        ],
        "{h}"
    );
    assert!(
        h["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|v| v["card"].is_string()),
        "{h}"
    );
    let (s, e) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/hint"),
        json!({"bot": "nosuchbot"}),
    );
    assert_eq!(s, 422);
    assert!(error_of(&e).contains("nosuchbot"), "{e}");
}

#[test]
fn bad_requests_are_refused_and_the_server_keeps_serving() {
    let a = app();
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "POST",
            "/api/games",
            b"{\"variant\": ".to_vec(),
            400,
            "line 1 column",
        ),
        (
            "POST",
            "/api/games",
            b"[1, 2]".to_vec(),
            400,
            "request body",
        ),
        ("POST", "/api/games", b"[]".to_vec(), 400, "a JSON object"),
        (
            "POST",
            "/api/games",
            br#"{"seed": "x"}"#.to_vec(),
            400,
            "seed: give a whole number",
        ),
        (
            "POST",
            "/api/games",
            br#"{"seat": -1}"#.to_vec(),
            400,
            "request body",
        ),
        (
            "POST",
            "/api/games",
            br#"{"variant": "5p"}"#.to_vec(),
            400,
            "unknown variant",
        ),
        (
            "POST",
            "/api/games",
            br#"{"scoring": "x"}"#.to_vec(),
            400,
            "unknown scoring",
        ),
        (
            "POST",
            "/api/games",
            br#"{"seat": 3, "variant": "3p"}"#.to_vec(),
            400,
            "out of range",
        ),
        (
            "POST",
            "/api/games",
            br#"{"bots": ["heuristic", "random"]}"#.to_vec(),
            400,
            "one per bot seat",
        ),
        (
            "POST",
            "/api/games",
            br#"{"bots": ["nosuchbot"]}"#.to_vec(),
            422,
            "nosuchbot",
        ),
        (
            "POST",
            "/api/games",
            br#"{"bots": ["nn:/no/such/model.safetensors"]}"#.to_vec(),
            422,
            "does not load bots from files",
        ),
        (
            "POST",
            "/api/games",
            br#"{"max_rounds": 0}"#.to_vec(),
            400,
            "max_rounds",
        ),
        (
            "POST",
            "/api/games",
            br#"{"colour": "red"}"#.to_vec(),
            400,
            "unknown field",
        ),
        ("POST", "/api/games", vec![b' '; 20_000], 413, "too large"),
        ("POST", "/api/games", vec![0xff, 0xfe], 400, "request body"),
        ("POST", "/api/games/load", b"{}".to_vec(), 400, "record"),
        (
            "POST",
            "/api/games/load",
            b"not json".to_vec(),
            400,
            "not valid JSON",
        ),
        (
            "POST",
            "/api/games/load",
            vec![b' '; 2 << 20],
            413,
            "too large",
        ),
        ("GET", "/api/games/nosuchgame", vec![], 404, "no game"),
        (
            "POST",
            "/api/games/nosuchgame/play",
            br#"{"card": "WA"}"#.to_vec(),
            404,
            "no game",
        ),
        ("DELETE", "/api/games/nosuchgame", vec![], 404, "no game"),
        ("GET", "/api/nosuchroute", vec![], 404, "no such"),
    ];
    for (method, path, body, status, text) in cases {
        let (s, e) = call_with(&a, method, path, body, &[]);
        assert_eq!(s, status, "{method} {path}: {e}");
        assert!(error_of(&e).contains(text), "{method} {path}: {e}");
    }
    let g = ok(&a, "POST", "/api/games", Value::Null);
    let id = g["id"].as_str().unwrap().to_string();
    for (body, text) in [
        ("{}", "missing field `card`"),
        (r#"{"card": "WA", "x": 1}"#, "unknown field"),
    ] {
        let (s, e) = call_with(
            &a,
            "POST",
            &format!("/api/games/{id}/play"),
            body.into(),
            &[],
        );
        assert_eq!(s, 400, "{e}");
        assert!(error_of(&e).contains(text), "{e}");
    }
    // A record tampered with is refused, saying where.
    let mut record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    record["seed"] = json!(record["seed"].as_u64().unwrap() ^ 1);
    let (s, e) = call(&a, "POST", "/api/games/load", record);
    assert_eq!(s, 400, "{e}");
    assert!(error_of(&e).contains("record"), "{e}");
    assert_eq!(ok(&a, "GET", &format!("/api/games/{id}"), Value::Null), g);
}

#[test]
fn other_sites_and_other_host_names_are_refused() {
    let a = app();
    let body = || b"{}".to_vec();
    for (host, origin) in [
        ("evil.example:8000", None), // DNS rebinding
        ("localhost.evil.example", None),
        ("127.0.0.1.evil.example:8000", None),
        ("", None),                                        // no Host at all
        ("127.0.0.1:8000", Some("http://evil.example")),   // a cross-site form or fetch
        ("127.0.0.1:8000", Some("null")),                  // a sandboxed page or file
        ("127.0.0.1:8000", Some("http://127.0.0.1:9999")), // another local server's page
        ("127.0.0.1:8000", Some("https://127.0.0.1:8000")),
    ] {
        let mut headers = vec![("host", host)];
        if let Some(o) = origin {
            headers.push(("origin", o));
        }
        let (s, e) = call_with(&a, "POST", "/api/games", body(), &headers);
        assert_eq!(s, 403, "{host} {origin:?}: {e}");
        let what = if origin.is_some() { "Origin" } else { "Host" };
        assert!(error_of(&e).contains(what), "{e}");
    }
    // A rebinding page cannot even read the page or a game.
    let (s, _) = call_with(&a, "GET", "/", vec![], &[("host", "evil.example:8000")]);
    assert_eq!(s, 403);
    // The port is the server's own too, and one Host is named.
    for host in [
        "127.0.0.1:9999",
        "localhost",
        "127.0.0.1:8000x",
        "127.0.0.1:",
    ] {
        let (s, e) = call_with(&a, "POST", "/api/games", body(), &[("host", host)]);
        assert_eq!(s, 403, "{host}: {e}");
        assert!(error_of(&e).contains("Host"), "{e}");
    }
    let two = [("host", "127.0.0.1:8000"), ("host", "evil.example:8000")];
    let (s, e) = call_with(&a, "GET", "/api/options", vec![], &two);
    assert_eq!(s, 400, "{e}");
    assert!(error_of(&e).contains("two Host headers"), "{e}");
    // A browser's cross-site request says so even without Origin.
    let cross = [("sec-fetch-site", "cross-site")];
    let (s, e) = call_with(&a, "POST", "/api/games", body(), &cross);
    assert_eq!(s, 403, "{e}");
    assert!(error_of(&e).contains("Sec-Fetch-Site"), "{e}");
    // A request that changes something says it sends JSON: a form or text/plain body (what
    // another site may send without asking first) is refused, with a body or without.
    for (path, ct) in [
        ("/api/games", "text/plain"),
        ("/api/games", "application/x-www-form-urlencoded"),
        ("/api/games", "multipart/form-data; boundary=x"),
        ("/api/games/nosuchgame/step", ""),
    ] {
        let (s, e) = call_with(&a, "POST", path, body(), &[("content-type", ct)]);
        assert_eq!(s, 415, "{ct}: {e}");
        assert!(
            error_of(&e).contains("Content-Type: application/json"),
            "{e}"
        );
    }
    // The server's own page, and scripts (no Origin), may.
    for headers in [
        vec![
            ("host", "127.0.0.1:8000"),
            ("origin", "http://127.0.0.1:8000"),
        ],
        vec![
            ("host", "localhost:8000"),
            ("origin", "http://localhost:8000"),
        ],
        vec![("host", "[::1]:8000"), ("origin", "http://[::1]:8000")],
        vec![("host", "localhost:8000")],
    ] {
        let (s, e) = call_with(&a, "POST", "/api/games", body(), &headers);
        assert_eq!(s, 201, "{headers:?}: {e}");
    }
}

#[test]
fn the_cap_on_games_holds_and_ended_games_make_room() {
    let a = app();
    let mut ids = Vec::new();
    for k in 0..1000 {
        let (s, g) = call(
            &a,
            "POST",
            "/api/games",
            json!({"seed": k, "bots": ["random"]}),
        );
        assert_eq!(s, 201, "game {k}: {g}");
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let distinct: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(distinct.len(), 1000, "game ids repeat");
    let (s, e) = call(&a, "POST", "/api/games", Value::Null);
    assert_eq!(s, 503, "{e}");
    assert!(error_of(&e).contains("at most 1000"), "{e}");
    let (_, headers, _) = call_full(&a, "POST", "/api/games", vec![], &[]);
    assert!(headers.contains_key("retry-after"), "{headers:?}");
    ok(&a, "DELETE", &format!("/api/games/{}", ids[0]), Value::Null);
    let (s, _) = call(&a, "GET", &format!("/api/games/{}", ids[0]), Value::Null);
    assert_eq!(s, 404);
    ok(&a, "POST", "/api/games", Value::Null);
    ok(&a, "GET", &format!("/api/games/{}", ids[999]), Value::Null);
}

#[test]
fn a_saved_game_resumes_where_it_stopped() {
    let a = app();
    let mut g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"variant": "seal-short", "seed": 9, "bots": ["heuristic", "random", "heuristic"]}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    for _ in 0..30 {
        g = advance(&a, &id, &g, true);
    }

    let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    let resumed = ok(&a, "POST", "/api/games/load", record.clone());
    let rid = resumed["id"].as_str().unwrap().to_string();
    assert_ne!(rid, id);
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("id");
        v
    };
    assert_eq!(strip(resumed.clone()), strip(g.clone()));
    // And both go on alike: the bots' random streams were replayed too.
    let (mut x, mut y) = (g, resumed);
    for _ in 0..40 {
        if x["over"] == true {
            break;
        }
        x = advance(&a, &id, &x, false);
        y = advance(&a, &rid, &y, false);
        assert_eq!(strip(x.clone()), strip(y.clone()));
    }
    // A finished game is not resumed: it is replayed.
    let done = play_out(&a, x, &mut |_| {});
    let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    assert_eq!(done["over"], true);
    let (s, e) = call(&a, "POST", "/api/games/load", record);
    assert_eq!(s, 400);
    assert!(error_of(&e).contains("over"), "{e}");
}

/// R10: a person's record with their seat turned into a bot would resume as a game of
/// bots only, every hand shown: refused, as is any record of bots only in progress.
#[test]
fn a_record_whose_persons_seat_is_turned_into_a_bot_is_refused() {
    let a = app();
    let mut g = ok(&a, "POST", "/api/games", json!({"seed": 3, "seat": 2}));
    let id = g["id"].as_str().unwrap().to_string();
    for _ in 0..12 {
        g = advance(&a, &id, &g, false);
    }
    let mut record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    assert_eq!(record["players"][2], Value::Null);
    ok(&a, "POST", "/api/games/load", record.clone());
    record["players"][2] = json!("heuristic");
    let (s, e) = call(&a, "POST", "/api/games/load", record);
    assert_eq!(s, 400, "{e}");
    assert!(error_of(&e).contains("exactly one person's seat"), "{e}");
}

#[test]
fn a_finished_round_is_reviewed_double_dummy() {
    let a = app();
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"variant": "4p", "seed": 4, "episode": "round"}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    let end = play_out(&a, g, &mut |_| {});
    assert_eq!(end["reviewable"], json!([0]));
    let r = ok(
        &a,
        "POST",
        &format!("/api/games/{id}/review"),
        json!({"round": 0}),
    );
    let plays = r["plays"].as_array().unwrap();
    let tricks = end["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "trick")
        .count();
    assert_eq!(plays.len(), tricks * 4);
    assert!(plays.iter().all(|p| p["round"] == 0));
    assert!(plays.iter().any(|p| p["status"] == "solved"), "{r}");
    for c in r["costly"].as_array().unwrap() {
        assert!(c["cost"].as_i64().unwrap() > 0, "{c}");
    }
    let (s, _) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/review"),
        json!({"round": 1}),
    );
    assert_eq!(s, 409);
}

#[test]
fn bots_play_each_other_to_the_end_when_watched() {
    let a = app();
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"variant": "3p", "watch": true, "bots": ["heuristic", "random", "pimc:20"], "max_rounds": 2}),
    );
    assert_eq!(g["seat"], Value::Null);
    let id = g["id"].as_str().unwrap().to_string();
    let (s, _) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/play"),
        json!({"card": "WA"}),
    );
    assert_eq!(s, 409);
    let (s, _) = call(&a, "POST", "/api/games", json!({"watch": true, "seat": 0}));
    assert_eq!(s, 400);
    let end = play_out(&a, g, &mut |s| assert_eq!(s["your_turn"], false));
    assert_eq!(end["over"], true);
    let (s, _) = call(&a, "GET", &format!("/api/games/{id}/replay"), Value::Null);
    assert_eq!(s, 200);
}

#[test]
fn concurrent_clients_on_a_real_socket() {
    let addr = start_server(yokai_septet_web::ServeOptions::default());
    let clients: Vec<_> = (0..8)
        .map(|k| {
            std::thread::spawn(move || {
                let (s, body) = http(
                    addr,
                    "POST",
                    "/api/games",
                    &format!(r#"{{"seed": {k}, "watch": true, "episode": "round"}}"#),
                );
                assert_eq!(s, 201, "{body}");
                let g: Value = serde_json::from_str(&body).unwrap();
                let id = g["id"].as_str().unwrap().to_string();
                let mut over = false;
                let mut moves = 0;
                while !over {
                    let (s, body) = http(addr, "POST", &format!("/api/games/{id}/step"), "");
                    assert_eq!(s, 200, "{body}");
                    over = serde_json::from_str::<Value>(&body).unwrap()["over"] == true;
                    moves += 1;
                }
                // Hostile traffic between the moves of the others.
                let (s, _) = http(addr, "POST", "/api/games", "{{{{");
                assert_eq!(s, 400);
                moves
            })
        })
        .collect();
    for c in clients {
        assert!(c.join().unwrap() > 12);
    }
    // A client that sends half a request and goes away does not stop the server.
    drop({
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
            .unwrap();
        s
    });
    let (s, body) = http(addr, "GET", "/api/options", "");
    assert_eq!(s, 200, "{body}");
}
