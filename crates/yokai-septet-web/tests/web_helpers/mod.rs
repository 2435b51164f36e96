//! The helpers of the web app's tests (`tests/web.rs`, `tests/web_limits.rs`): requests
//! through the router (tower's `oneshot`, no socket), and whole games.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{HeaderMap, Request};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use yokai_septet_web::{router, ServeOptions};

pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

/// A router with the default options (port 8000, as the requests' `Host` says).
pub fn app() -> Router {
    app_with(ServeOptions::default())
}

/// A router with these options.
pub fn app_with(opts: ServeOptions) -> Router {
    router(&opts).unwrap()
}

/// One request through the router: (status, headers, body as JSON, or as a string when
/// not JSON). `Host` is `127.0.0.1:8000` and, on a request that changes something,
/// `Content-Type` is `application/json`, unless `headers` give them.
pub fn call_full(
    app: &Router,
    method: &str,
    path: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (u16, HeaderMap, Value) {
    let mut req = Request::builder().method(method).uri(path);
    let given = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !given("host") {
        req = req.header("host", "127.0.0.1:8000");
    }
    if method != "GET" && !given("content-type") {
        req = req.header("content-type", "application/json");
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(Body::from(body)).unwrap();
    let app = app.clone();
    let fut = async move {
        let resp = app.oneshot(req).await.unwrap();
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
            .await
            .unwrap();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, headers, v)
    };
    // On the shared runtime, whether or not the caller is one of its threads' tasks.
    runtime().block_on(runtime().spawn(fut)).unwrap()
}

/// [`call_full`] without the headers.
pub fn call_with(
    app: &Router,
    method: &str,
    path: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let (status, _, v) = call_full(app, method, path, body, headers);
    (status, v)
}

pub fn call(app: &Router, method: &str, path: &str, body: Value) -> (u16, Value) {
    let bytes = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    call_with(app, method, path, bytes, &[])
}

pub fn ok(app: &Router, method: &str, path: &str, body: Value) -> Value {
    let (status, v) = call(app, method, path, body);
    assert!(
        status == 200 || status == 201,
        "{method} {path}: {status} {v}"
    );
    v
}

pub fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {v}"))
}

/// One decision of the game `g` (its id `id`): the person's first legal card (the last
/// one with `last`), or the bot's whose turn it is; returns the new state, without
/// `last_move`.
pub fn advance(app: &Router, id: &str, g: &Value, last: bool) -> Value {
    let mut s = if g["your_turn"] == true {
        let mut legal = g["hand"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["legal"] == true);
        let card = if last {
            legal.next_back()
        } else {
            legal.next()
        };
        let card = card.unwrap()["card"].clone();
        ok(
            app,
            "POST",
            &format!("/api/games/{id}/play"),
            json!({ "card": card }),
        )
    } else {
        let start = std::time::Instant::now();
        let s = ok(app, "POST", &format!("/api/games/{id}/step"), Value::Null);
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        // The move is the bot's whose turn it was, and its thinking time is part of the
        // request's own (milliseconds, not seconds or microseconds).
        let m = &s["last_move"];
        assert_eq!(m["seat"], g["to_act"], "{m}");
        assert_eq!(
            m["bot"],
            g["players"][g["to_act"].as_u64().unwrap() as usize],
            "{m}"
        );
        let think = m["think_ms"].as_f64().unwrap();
        assert!(
            (0.0..=wall_ms).contains(&think),
            "think_ms {think}, request {wall_ms} ms"
        );
        s
    };
    s.as_object_mut().unwrap().remove("last_move");
    s
}

/// Plays the game `g` to its end from the person's seat (first legal card) and the bots'
/// (`step`), checking every state on the way with `check`; returns the last state.
pub fn play_out(app: &Router, mut g: Value, check: &mut dyn FnMut(&Value)) -> Value {
    let id = g["id"].as_str().unwrap().to_string();
    while !g["over"].as_bool().unwrap() {
        check(&g);
        g = advance(app, &id, &g, false);
    }
    g
}

/// Writes what it is given to a channel (the server's printed URL).
struct Lines(std::sync::mpsc::Sender<Vec<u8>>);

impl std::io::Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts `yokai_septet_web::serve` (its own accept loop and runtime) on a free port of
/// 127.0.0.1, on a thread that lives as long as the test; returns its address.
pub fn start_server(opts: ServeOptions) -> std::net::SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let opts = ServeOptions { port: 0, ..opts };
        let (mut out, mut err) = (Lines(tx.clone()), Lines(tx));
        yokai_septet_web::serve(&opts, &mut out, &mut err).unwrap();
    });
    let mut line = String::new();
    while !line.contains('\n') {
        line.push_str(&String::from_utf8(rx.recv().unwrap()).unwrap());
    }
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    format!("127.0.0.1:{port}").parse().unwrap()
}

/// A raw HTTP/1.1 request on a real socket: (status, body).
pub fn http(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1.to_string();
    (status, body)
}
