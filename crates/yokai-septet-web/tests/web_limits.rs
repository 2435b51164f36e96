//! What a request may make the web app (`yokai-septet serve`) run, and for how long
//! (issue 57): built-in bot names only (no file read, nothing imported), budgets under
//! the server's cap, a bounded pool of workers (503 beyond its queue), games that answer
//! while their bot thinks, games that expire, the seed hidden until the game is over
//! (R10), typed answers with `nosniff`, and errors that echo no markup.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use axum::Router;
use serde_json::{json, Value};

use yokai_septet_web::ServeOptions;

#[path = "web_helpers/mod.rs"]
mod helpers;
use helpers::*;

/// A game of `a` where the person (seat 0) is to play a card, not to pass.
fn my_play_turn(a: &Router, seed: u64) -> (String, Value) {
    let mut g = ok(a, "POST", "/api/games", json!({"seed": seed, "seat": 0}));
    let id = g["id"].as_str().unwrap().to_string();
    while !(g["your_turn"] == true && g["phase"] == "play") {
        g = advance(a, &id, &g, false);
    }
    (id, g)
}

/// A named pipe: opening it to read blocks until someone writes, so a server that tried
/// to read it would never answer.
fn fifo() -> (tempdir::Dir, String) {
    let dir = tempdir::Dir::new();
    let path = dir.0.join("model.safetensors");
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = path.to_str().unwrap().to_string();
    (dir, p)
}

mod tempdir {
    /// A fresh folder, removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new() -> Dir {
            let n = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let p = std::env::temp_dir().join(format!("ys-web-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Runs `f` on a thread and fails if it does not end within `limit` (a server that
/// blocks on a file would hang the test otherwise).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(limit)
        .expect("the server did not answer: it tried to read the file")
}

#[test]
fn bot_names_that_import_code_or_read_files_are_refused_in_a_players_words() {
    let (_dir, pipe) = fifo();
    let a = app();
    let names = [
        "os:getpid".to_string(),
        "os:abort".into(),
        "builtins:exec".into(),
        "nn:/dev/zero".into(),
        "nn:/dev/stdin".into(),
        "nn:/etc/passwd".into(),
        "nn:/nonexistent".into(),
        format!("nn:{pipe}"),
        format!("ismcts-nn:{pipe}"),
        format!("ismcts-nn:100:{pipe}"),
        format!("ismcts-nn:100/nn:{pipe}"),
        "ismcts-nn:/etc/passwd".into(),
        "nn:../../etc/passwd".into(),
        "heuristic:/etc/passwd".into(),
        "pimc:10:/etc/passwd".into(),
        format!("ismcts:100:v50@{pipe}"),
        "ismcts:100:v50@/dev/zero".into(),
    ];
    let mut messages = Vec::new();
    for name in names {
        let a2 = a.clone();
        let n2 = name.clone();
        let (s, e) = within(Duration::from_secs(20), move || {
            call(&a2, "POST", "/api/games", json!({"bots": [n2]}))
        });
        assert_eq!(s, 422, "{name}: {e}");
        let text = error_of(&e).to_string();
        // A short answer in a player's words: no list of every bot, no talk of requests.
        assert!(text.len() < name.len() + 200, "{name}: {text}");
        assert!(!text.contains("random, heuristic"), "{name}: {text}");
        assert!(!text.contains("request"), "{name}: {text}");
        if name.starts_with("nn:") {
            assert!(
                text.contains("does not load bots from files"),
                "{name}: {text}"
            );
        }
        messages.push(text.replace(&name, "NAME"));
        // A hint is refused alike.
        let (id, _) = my_play_turn(&a, 1);
        let a2 = a.clone();
        let n2 = name.clone();
        let (s, e) = within(Duration::from_secs(20), move || {
            call(
                &a2,
                "POST",
                &format!("/api/games/{id}/hint"),
                json!({ "bot": n2 }),
            )
        });
        assert_eq!(s, 422, "hint {name}: {e}");
    }
    // No file-existence oracle: a file that exists and one that does not read alike.
    assert_eq!(messages[5], messages[6]);
    // A record naming such a bot in `players` is refused before anything is read.
    let mut g = ok(&a, "POST", "/api/games", json!({"seed": 2, "seat": 0}));
    let id = g["id"].as_str().unwrap().to_string();
    for _ in 0..6 {
        g = advance(&a, &id, &g, false);
    }
    let mut record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    record["players"][1] = json!(format!("nn:{pipe}"));
    let a2 = a.clone();
    let (s, e) = within(Duration::from_secs(20), move || {
        call(&a2, "POST", "/api/games/load", record)
    });
    assert_eq!(s, 422, "{e}");
    assert!(error_of(&e).contains("seat 1"), "{e}");
}

/// A typo'd bot name is answered with the name it was a typo of; a name far from every
/// bot gets a short answer (the page lists the bots on request, from `/api/options`).
#[test]
fn a_typo_in_a_bot_name_gets_did_you_mean() {
    let a = app();
    for (name, want) in [
        ("heurstic", "did you mean heuristic?"),
        ("ismtcs:500", "did you mean ismcts?"),
        ("pimc-dd-ifn", "did you mean pimc-dd-inf?"),
    ] {
        let (s, e) = call(&a, "POST", "/api/games", json!({ "bots": [name] }));
        assert_eq!(s, 422, "{e}");
        let text = error_of(&e);
        assert!(text.ends_with(want), "{name}: {text}");
    }
    let (s, e) = call(&a, "POST", "/api/games", json!({ "bots": ["stockfish"] }));
    assert_eq!(s, 422, "{e}");
    assert_eq!(error_of(&e), "bot \"stockfish\": there is no such bot");
}

#[test]
fn the_models_of_the_models_folder_are_the_only_files_a_name_reaches() {
    let dir = tempdir::Dir::new();
    // A model the crate ships, as a file of the folder.
    let shipped =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../yokai-septet-models/models");
    let model = std::fs::read_dir(&shipped)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.to_string_lossy().contains("4p") && p.extension().is_some_and(|e| e == "safetensors")
        })
        .expect("a shipped 4p model");
    std::fs::copy(&model, dir.0.join("mine.safetensors")).unwrap();
    std::fs::write(dir.0.join("notes.txt"), "not a model").unwrap();
    let a = app_with(ServeOptions {
        models: Some(dir.0.clone()),
        ..ServeOptions::default()
    });
    let options = ok(&a, "GET", "/api/options", Value::Null);
    assert!(
        options["bots"]
            .as_array()
            .unwrap()
            .contains(&json!("nn:mine")),
        "{options}"
    );
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"bots": ["nn:mine"], "seed": 1}),
    );
    assert_eq!(g["players"][1], "nn:mine");
    for name in ["nn:notes", "nn:mine.safetensors", "nn:3p"] {
        let (s, e) = call(&a, "POST", "/api/games", json!({ "bots": [name] }));
        assert_eq!(s, 422, "{name}: {e}");
    }
    // A folder with a file that is not a model is refused at start, saying which.
    std::fs::write(dir.0.join("broken.safetensors"), "not a model").unwrap();
    let e = yokai_septet_web::router(&ServeOptions {
        models: Some(dir.0.clone()),
        ..ServeOptions::default()
    })
    .err()
    .unwrap();
    assert!(e.contains("broken.safetensors"), "{e}");
    // `serve` refuses it the same way before it listens: it prints no URL.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let opts = ServeOptions {
        models: Some(dir.0.clone()),
        port: 0,
        ..ServeOptions::default()
    };
    match yokai_septet_web::serve(&opts, &mut out, &mut err) {
        Err(yokai_septet_web::ServeError::Models(why)) => assert_eq!(why, e),
        other => panic!("{other:?}"),
    }
    assert!(out.is_empty() && err.is_empty());
}

#[test]
fn a_budget_over_the_servers_cap_is_refused_with_the_cap() {
    let a = app();
    for (name, cap) in [
        ("pimc:600000ms", "2000 ms"),
        ("ismcts:2001ms", "2000 ms"),
        ("pimc:10000000", "30000"),
        ("ismcts-inf:99999999", "30000"),
        ("pimc-dd:5000", "80"),
        ("pimc:100/100000", "7500"),
    ] {
        let (s, e) = call(&a, "POST", "/api/games", json!({ "bots": [name] }));
        assert_eq!(s, 422, "{name}: {e}");
        assert!(error_of(&e).contains(cap), "{name}: {e}");
    }
    let (id, _) = my_play_turn(&a, 5);
    let (s, e) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/hint"),
        json!({"bot": "pimc:3000ms"}),
    );
    assert_eq!(s, 422, "{e}");
    assert!(error_of(&e).contains("2000 ms"), "{e}");
    // At the cap, and under it, the names play.
    for name in ["pimc:2000ms", "ismcts:30000", "pimc:200/nn", "ismcts-inf"] {
        let (s, e) = call(&a, "POST", "/api/games", json!({ "bots": [name] }));
        assert_eq!(s, 201, "{name}: {e}");
    }
    // The cap follows --max-think-ms: at 100 ms, ismcts's default 5000 iterations is over
    // it, and the options say so.
    let small = app_with(ServeOptions {
        max_think: Duration::from_millis(100),
        ..ServeOptions::default()
    });
    let (s, e) = call(&small, "POST", "/api/games", json!({"bots": ["ismcts"]}));
    assert_eq!(s, 422, "{e}");
    assert!(error_of(&e).contains("cap of 1500 "), "{e}");
    let options = ok(&small, "GET", "/api/options", Value::Null);
    assert_eq!(options["max_think_ms"], 100);
    assert!(options["budget_caps"]
        .as_array()
        .unwrap()
        .contains(&json!({"bot": "ismcts", "max": 1500, "unit": "iterations"})));
}

#[test]
fn n_plus_one_concurrent_hints_get_one_503_and_the_server_still_answers() {
    // One worker and one place in the queue: two hints are taken, a third is not.
    let a = app_with(ServeOptions {
        workers: 1,
        queue: 1,
        ..ServeOptions::default()
    });
    let (id, _) = my_play_turn(&a, 7);
    let start = Instant::now();
    let hints: Vec<_> = (0..3)
        .map(|_| {
            let a = a.clone();
            let path = format!("/api/games/{id}/hint");
            std::thread::spawn(move || {
                call_full(&a, "POST", &path, br#"{"bot": "pimc:700ms"}"#.to_vec(), &[])
            })
        })
        .collect();
    // While they think, the game and the server answer at once.
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    let g = ok(&a, "GET", &format!("/api/games/{id}"), Value::Null);
    assert_eq!(g["your_turn"], true);
    ok(&a, "GET", "/api/options", Value::Null);
    assert!(
        asked.elapsed() < Duration::from_millis(300),
        "{:?}",
        asked.elapsed()
    );
    let mut statuses: Vec<u16> = Vec::new();
    for h in hints {
        let (s, headers, e) = h.join().unwrap();
        if s == 503 {
            assert_eq!(headers["retry-after"], "2", "{e}");
            assert!(error_of(&e).contains("busy"), "{e}");
        }
        statuses.push(s);
    }
    statuses.sort();
    assert_eq!(statuses, [200, 200, 503]);
    // One at a time: the two hints took about twice one.
    assert!(
        start.elapsed() >= Duration::from_millis(1300),
        "{:?}",
        start.elapsed()
    );
    let h = ok(&a, "POST", &format!("/api/games/{id}/hint"), Value::Null);
    assert!(h["card"].is_string(), "{h}");
}

#[test]
fn a_game_whose_bot_is_thinking_answers_get_at_once() {
    let a = app();
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"seed": 3, "watch": true, "bots": ["pimc:1000ms"]}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    // Past the passing (the heuristic's picks, at once) to a searched decision.
    let mut g = g;
    while g["phase"] == "pass" {
        g = ok(&a, "POST", &format!("/api/games/{id}/step"), Value::Null);
    }
    let a2 = a.clone();
    let path = format!("/api/games/{id}/step");
    let step = std::thread::spawn(move || call(&a2, "POST", &path, Value::Null));
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    let during = ok(&a, "GET", &format!("/api/games/{id}"), Value::Null);
    assert!(
        asked.elapsed() < Duration::from_millis(300),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(during["thinking"], g["to_act"], "{during}");
    assert_eq!(during["tricks_played"], g["tricks_played"]);
    // A second step while the first thinks is refused, not queued.
    let (s, e) = call(&a, "POST", &format!("/api/games/{id}/step"), Value::Null);
    assert_eq!(s, 409, "{e}");
    assert!(error_of(&e).contains("thinking"), "{e}");
    let (s, after) = step.join().unwrap();
    assert_eq!(s, 200, "{after}");
    assert_eq!(after["thinking"], Value::Null);
    assert!(
        after["last_move"]["think_ms"].as_f64().unwrap() >= 900.0,
        "{after}"
    );
}

#[test]
fn an_idle_game_expires_and_frees_its_place() {
    let a = app_with(ServeOptions {
        max_games: 2,
        idle: Duration::from_millis(400),
        ..ServeOptions::default()
    });
    let old = ok(&a, "POST", "/api/games", Value::Null);
    let kept = ok(&a, "POST", "/api/games", Value::Null);
    let (s, _) = call(&a, "POST", "/api/games", Value::Null);
    assert_eq!(s, 503);
    // `kept` is touched, `old` is not.
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(200));
        ok(
            &a,
            "GET",
            &format!("/api/games/{}", kept["id"].as_str().unwrap()),
            Value::Null,
        );
    }
    let (s, e) = call(
        &a,
        "GET",
        &format!("/api/games/{}", old["id"].as_str().unwrap()),
        Value::Null,
    );
    assert_eq!(s, 404, "{e}");
    assert!(error_of(&e).contains("idle"), "{e}");
    ok(&a, "POST", "/api/games", Value::Null);
}

#[test]
fn the_seed_is_shown_once_the_game_is_over_as_a_decimal_string() {
    let a = app();
    let big = "18446744073709551557";
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"seed": big, "seat": 0, "episode": "round"}),
    );
    // The seed deals every hand (R10): not in the state of a game in progress.
    assert_eq!(g["seed"], Value::Null, "{g}");
    let end = play_out(&a, g, &mut |s| assert_eq!(s["seed"], Value::Null));
    assert_eq!(end["seed"], big);
    // A number is read too; a game of bots only shows its whole table, seed and all.
    let w = ok(&a, "POST", "/api/games", json!({"seed": 42, "watch": true}));
    assert_eq!(w["seed"], "42");
    for bad in [
        json!("-1"),
        json!("1e3"),
        json!("18446744073709551616"),
        json!(1.5),
        json!(-1),
    ] {
        let (s, e) = call(&a, "POST", "/api/games", json!({ "seed": bad }));
        assert_eq!(s, 400, "{bad}: {e}");
        assert!(error_of(&e).contains("seed"), "{bad}: {e}");
    }
}

#[test]
fn every_answer_says_nosniff_and_the_replay_viewer_has_a_csp() {
    let a = app();
    let g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"watch": true, "episode": "round", "bots": ["random"]}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    for (method, path) in [
        ("GET", "/".to_string()),
        ("GET", "/api/options".into()),
        ("GET", format!("/api/games/{id}")),
        ("GET", "/api/games/nosuch".into()),
        ("GET", format!("/api/games/{id}/replay")),
        ("POST", "/api/games".into()),
    ] {
        let (_, headers, _) = call_full(&a, method, &path, vec![], &[]);
        assert_eq!(
            headers["x-content-type-options"], "nosniff",
            "{method} {path}"
        );
    }
    let (s, headers, _) = call_full(&a, "GET", &format!("/api/games/{id}/replay"), vec![], &[]);
    assert_eq!(s, 200);
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.starts_with("default-src 'none'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
}

#[test]
fn errors_name_a_bad_value_without_echoing_markup() {
    let a = app();
    let markup = "<img src=x onerror=alert(1)>";
    for (body, headers) in [
        (json!({}), vec![("origin", markup)]),
        (json!({}), vec![("host", markup)]),
        (json!({ "bots": [markup] }), vec![]),
        (json!({ "variant": markup }), vec![]),
        (json!({ markup: 1 }), vec![]),
    ] {
        let (s, e) = call_with(
            &a,
            "POST",
            "/api/games",
            body.to_string().into_bytes(),
            &headers,
        );
        assert!(s >= 400, "{e}");
        let text = error_of(&e);
        assert!(!text.contains('<') && !text.contains('>'), "{text}");
        assert!(
            text.contains("img src=x"),
            "the value is still named: {text}"
        );
    }
}

/// Another local program holding idle and slow connections (every local process is the
/// same address, 127.0.0.1) does not lock the person out (issue 64): with more of them than
/// the server's cap, each new connection closes the one idle longest, so every request of
/// the person's is answered.
#[test]
fn connections_held_by_another_program_do_not_lock_the_person_out() {
    let addr = start_server(ServeOptions {
        max_connections: 64,
        ..ServeOptions::default()
    });
    // 300 idle connections, and 100 that sent half a request's headers.
    let mut held: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(addr).unwrap())
        .collect();
    for _ in 0..100 {
        let mut slow = TcpStream::connect(addr).unwrap();
        write!(slow, "POST /api/games HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
        held.push(slow);
    }
    for _ in 0..10 {
        let (s, body) = http(addr, "GET", "/api/options", "");
        assert_eq!(s, 200, "{body}");
        held.push(TcpStream::connect(addr).unwrap());
    }
    // The oldest were closed for them (the server's cap is 64).
    let mut first = held.swap_remove(0);
    first
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut got = Vec::new();
    assert_eq!(first.read_to_end(&mut got).map_err(|e| e.kind()), Ok(0));
}

/// Another local program's connections whose request's headers are whole and whose body
/// trickles in (`Content-Length: 5000`, a byte every 0.2 s; each opened again as soon as
/// the server closes it), more of them than the server's cap: a request whose body has
/// not all arrived is not being answered, so the cap closes such a connection (the one
/// waiting longest) for each newcomer, and every request of the person's is answered
/// (issue 72: they counted as answered, and the person's connections were refused).
#[test]
fn slow_bodies_held_by_another_program_do_not_lock_the_person_out() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let addr = start_server(ServeOptions {
        max_connections: 16,
        ..ServeOptions::default()
    });
    let open = move || {
        let mut c = TcpStream::connect(addr).ok()?;
        write!(
            c,
            "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: 5000\r\n\r\n{{"
        )
        .ok()?;
        c.set_nonblocking(true).ok()?;
        Some(c)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    // Bounded: 24 connections, at most a minute.
    let holder = std::thread::spawn(move || {
        let mut held: Vec<Option<TcpStream>> = (0..24).map(|_| open()).collect();
        let mut reopened = 0;
        let start = Instant::now();
        while !stopped.load(Ordering::Acquire) && start.elapsed() < Duration::from_secs(60) {
            for c in &mut held {
                let mut byte = [0u8; 1];
                let alive = c.as_mut().is_some_and(|s| {
                    // Closed (a read of 0), answered (408) or failing: opened again.
                    let waiting = matches!(s.read(&mut byte),
                        Err(ref e) if e.kind() == std::io::ErrorKind::WouldBlock);
                    waiting && s.write_all(b" ").is_ok()
                });
                if !alive {
                    *c = open();
                    reopened += 1;
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        reopened
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut answered = 0;
    for k in 0..50 {
        let path = if k % 2 == 0 { "/api/options" } else { "/" };
        let got = TcpStream::connect(addr).and_then(|mut s| {
            s.set_read_timeout(Some(Duration::from_secs(5)))?;
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
            )?;
            let mut text = String::new();
            s.read_to_string(&mut text)?;
            Ok(text)
        });
        answered += usize::from(got.is_ok_and(|t| t.starts_with("HTTP/1.1 200")));
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Release);
    let reopened = holder.join().unwrap();
    assert_eq!(
        answered, 50,
        "the other program opened {reopened} connections again"
    );
}

/// A search bot is parked between its decisions (its snapshot kept, its tables dropped)
/// and built again for the next: it plays exactly as a bot kept alive would, the bot of
/// `yokai-septet play` (seat `p`'s seed: the game's plus `p + 1` golden-ratio steps).
#[test]
fn a_parked_search_bot_decides_as_one_kept_alive() {
    use yokai_septet::{Episode, GameConfig, Match, Variant};
    use yokai_septet_bots::BotRegistry;
    let names = ["pimc-dd:3", "ismcts:60/40", "pimc:30"];
    let a = app();
    let mut g = ok(
        &a,
        "POST",
        "/api/games",
        json!({"variant": "3p", "seed": 12, "watch": true, "bots": names, "episode": "round"}),
    );
    let id = g["id"].as_str().unwrap().to_string();
    while g["over"] == false {
        g = ok(&a, "POST", &format!("/api/games/{id}/step"), Value::Null);
    }
    let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    let served = Match::from_json(&record.to_string())
        .unwrap()
        .record()
        .actions();
    let config = GameConfig::new(Variant::ThreePlayer, 12).with_episode(Episode::Round);
    let registry = BotRegistry::new();
    let mut bots: Vec<_> = (0..3u64)
        .map(|p| {
            let seed = 12u64.wrapping_add((p + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            registry
                .build(names[p as usize], seed, Variant::ThreePlayer)
                .unwrap()
        })
        .collect();
    let mut m = Match::new(config);
    let mut alive = Vec::new();
    while let Some(p) = m.state().current_player() {
        let card = bots[p].act(&m.state().view(p)).unwrap();
        m.apply(card).unwrap();
        alive.push(card);
    }
    assert_eq!(served, alive);
}

/// A record over the 16 KiB of a body that is not a record reaches `POST /api/replay`
/// whole when it arrives in pieces over a socket (as a large file from the page does):
/// the body's read in front of the routes stops at the record routes' own cap.
#[test]
fn a_record_over_16_kib_sent_in_pieces_opens_in_the_replay_viewer() {
    let a = app();
    let watched = json!({"seed": 3, "watch": true, "bots": ["random"], "episode": "round"});
    let g = play_out(&a, ok(&a, "POST", "/api/games", watched), &mut |_| {});
    let id = g["id"].as_str().unwrap();
    let record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    // Leading blanks: still the same JSON, now over 40 KB, the record itself at its end.
    let body = format!("{}{record}", " ".repeat(40_000));
    let addr = start_server(ServeOptions::default());
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/replay HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    for piece in body.as_bytes().chunks(4096) {
        // A server that answers before the whole body is read closes the connection.
        if s.write_all(piece).and_then(|()| s.flush()).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    assert!(
        text.starts_with("HTTP/1.1 200"),
        "{}",
        &text[..text.len().min(400)]
    );
    assert!(text.contains(r#"id="slider""#));
}

/// The page writes HTML only from constants and the server's SVG (issue 72): no
/// `document.write`, no other HTML sink, and the replay viewer of a loaded record opens in
/// a sandboxed frame of a `blob:` URL (an opaque origin: nothing in a record can act as
/// the page), which the page's policy lets it frame.
#[test]
fn the_page_writes_html_only_from_constants_and_the_servers_svg() {
    let page = yokai_septet_web::PAGE;
    for sink in [
        "document.write",
        "writeln(",
        "outerHTML",
        "insertAdjacentHTML",
        "srcdoc",
        "DOMParser",
        "createContextualFragment",
        "eval(",
        "new Function",
        "javascript:",
    ] {
        assert!(!page.contains(sink), "the page uses {sink}");
    }
    let assigned: Vec<&str> = page
        .split(".innerHTML = ")
        .skip(1)
        .map(|rest| rest.split(';').next().unwrap_or_default().trim())
        .collect();
    assert!(!assigned.is_empty());
    for value in assigned {
        let constant = value.starts_with('"') && value.ends_with('"') && !value.contains('+');
        assert!(constant || value == "g.svg", "innerHTML = {value}");
    }
    assert!(page.contains(r#"setAttribute("sandbox", "allow-scripts")"#));
    assert!(!page.contains("allow-same-origin"));
    assert!(page.contains("URL.createObjectURL(new Blob([html], { type: \"text/html\" }))"));
    let a = app();
    let (_, headers, _) = call_full(&a, "GET", "/", vec![], &[]);
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("frame-src 'self' blob:"), "{csp}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    // And a record's one free text, its players' names, reaches no markup of the viewer.
    let watched = json!({"seed": 3, "watch": true, "bots": ["random"], "episode": "round"});
    let g = play_out(&a, ok(&a, "POST", "/api/games", watched), &mut |_| {});
    let id = g["id"].as_str().unwrap();
    let mut record = ok(&a, "GET", &format!("/api/games/{id}/record"), Value::Null);
    let markup = "<img src=x onerror=alert(1)>";
    record["players"] = json!([markup, markup, markup, markup]);
    let m = yokai_septet::Match::from_json(&record.to_string()).unwrap();
    let html = yokai_septet_picture::replay_html(&m);
    assert!(
        !html.contains("<img") && !html.contains("onerror="),
        "{html}"
    );
}
