//! # yokai-septet-web
//!
//! `yokai-septet serve`: a local web app to play against the bots and study the game (the
//! command-line tool's `serve`, also in the Python wheel).
//!
//! - `api`: the JSON API under `/api/` that the page uses (and scripts may): its routes
//!   and short handlers.
//! - `extract`: the handlers' extractors: the JSON body, a record's text (and their size
//!   caps), the game named in the path.
//! - `answers`: the typed shapes of the API's answers (`#[derive(Serialize)]`), sent as
//!   JSON.
//! - `games`: one game at the table (its match, seats, person and event log, a saved
//!   game's resumption) and the capped table of games by id, with their expiry.
//! - `new_game`: what `POST /api/games` reads, and the table it asks for.
//! - `settings`: the new-game body's settings table (names, defaults, docs).
//! - `seats`: who sits where, each bot alive or parked between its decisions, and a bot's
//!   turn taken out of its game to think and handed back.
//! - `events`: a game's public event log (R10).
//! - `projection`: what a game shows its person (R10), drawn as SVG.
//! - `table`: what the page's table shows beyond the state (the finished trick kept, the
//!   hands left, a passing pick's receivers, a round's deal for its review).
//! - `undo`: taking back a passing pick.
//! - `bots`: which bot names a request may give (the built-in bots, within the server's
//!   budget cap) and the pool of workers every bot decision, hint and review runs on.
//! - `render`: the blocking threads that build the answers that draw.
//! - `random`: game ids and random seeds from the OS's random source.
//! - `guard`: the safety checks in front of every request (`Host`, `Origin`,
//!   `Sec-Fetch-Site`, `Content-Type`, the body's read time, `nosniff`).
//! - `page`: the page itself, plain HTML, CSS and JS compiled into the binary.
//! - `server`: the accept loop (a header read timeout that also ends idle keep-alive
//!   connections, a cap on open connections that closes the one idle longest first).
//!
//! The server is axum on a small tokio runtime. Bots think on at most `--workers` of
//! tokio's blocking threads, never on the threads that answer requests, and never while
//! holding their game's lock; the answers that draw are built on blocking threads of their
//! own (`render`). It writes no file and reads none after its start: a record
//! leaves only as a download the person asks for.

// Every `unsafe` of the crate is `server.rs`'s two libc calls (`mallopt`: the server returns
// large blocks; `getrlimit`: its connection cap fits the process's open-file limit).
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;

use yokai_septet::Card;

mod answers;
mod api;
mod bots;
mod events;
mod extract;
mod games;
mod guard;
mod new_game;
mod page;
mod projection;
mod random;
mod render;
mod seats;
mod server;
mod settings;
mod table;
mod undo;

pub use page::PAGE;

/// The most games one server holds at once (each holds its bots; a search bot's tree is
/// rebuilt per decision, so a game is a few kilobytes plus its record).
pub const MAX_GAMES: usize = 1000;

/// The default `--max-think-ms`: the longest a bot decision, a hint or a review may run.
pub const MAX_THINK_MS: u64 = 2000;

/// The default `--idle-minutes`: a game untouched this long is dropped.
pub const IDLE_MINUTES: u64 = 60;

/// What a refused request gets: a 4xx or 5xx status and a message that says what is wrong.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, in words (markup in it is escaped: [`ApiError::new`]).
    pub message: String,
    /// The card an illegal play named.
    pub card: Option<Card>,
    /// Seconds to wait before asking again (a 503 of a busy server).
    pub retry_after: Option<u32>,
}

/// `message` with the characters that open and close markup (`<`, `>`) and control
/// characters written as `\u{..}`: an error names a bad value without echoing it as
/// markup (the rule texts and serde's messages have neither).
fn unmarked(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        if matches!(c, '<' | '>') || (c.is_control() && c != '\n') {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A value from a request as an error message shows it: at most 60 characters, quoted
/// (the message's markup is escaped as a whole by [`ApiError::new`]).
pub(crate) fn shown(value: &str) -> String {
    let mut cut: String = value.chars().take(60).collect();
    if cut.len() < value.len() {
        cut.push('…');
    }
    format!("{cut:?}")
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl AsRef<str>) -> ApiError {
        ApiError {
            status,
            message: unmarked(message.as_ref()),
            card: None,
            retry_after: None,
        }
    }

    /// A 400: the request is malformed (the message says what and where).
    pub fn bad(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A 409: the request does not fit the game's state (not your turn, the game is over).
    pub fn conflict(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// A 422: a well-formed request the server will not do (a bot it does not run).
    pub fn refused(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// An illegal card (422): the reason is the rule text of [`yokai_septet::IllegalAction`].
    pub fn illegal(message: String, card: Option<Card>) -> ApiError {
        ApiError {
            card,
            ..ApiError::refused(message)
        }
    }

    /// A 503 of a busy server, with `Retry-After`.
    pub fn busy(message: impl AsRef<str>, retry_after: u32) -> ApiError {
        ApiError {
            retry_after: Some(retry_after),
            ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }
}

/// The body of every refusal.
#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    /// Only for an illegal card: every other refusal is `{"error": ...}` alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    card: Option<String>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: &self.message,
            card: self.card.map(|c| c.to_string()),
        };
        let mut resp = answers::json_response(self.status, &body);
        if let Some(s) = self.retry_after {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        resp
    }
}

/// What the server shares between requests.
struct AppState {
    /// The games, by id.
    games: games::Games,
    /// The bots a request may name, and the workers they think on.
    bots: bots::Bots,
    /// The threads that build the answers that draw.
    render: render::Renderers,
}

impl AppState {
    /// The state of a server with `opts`: refused (with why) when a model of `opts.models`
    /// cannot be used (each is read once, here).
    fn new(opts: &ServeOptions) -> Result<Arc<AppState>, String> {
        Ok(Arc::new(AppState {
            games: games::Games::new(opts.max_games, opts.idle),
            bots: bots::Bots::new(opts)?,
            render: render::Renderers::default(),
        }))
    }

    /// The whole app on `state`: the page, the API and the guard in front of them, which
    /// checks that `Host` names `port`.
    fn router(state: Arc<AppState>, port: u16) -> Router {
        api::routes(state)
            .merge(page::routes())
            .layer(axum::middleware::from_fn(guard::read_body_in_time))
            .layer(axum::middleware::from_fn_with_state(port, guard::check))
            .layer(axum::middleware::from_fn(guard::nosniff))
    }
}

/// The server's options (the `serve` subcommand's flags).
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (loopback by default).
    pub host: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// The most games held at once.
    pub max_games: usize,
    /// The longest one bot decision, hint or review may run (the cap of every bot's
    /// budget; a review's node budget is derived from it).
    pub max_think: Duration,
    /// Search bots' decisions, hints, reviews and record replays run at once, at most.
    pub workers: usize,
    /// Requests that wait for a worker, at most; beyond them: 503 with `Retry-After`.
    pub queue: usize,
    /// A game untouched this long is dropped.
    pub idle: Duration,
    /// A folder whose `.safetensors` files become the bots `nn:NAME`.
    pub models: Option<PathBuf>,
    /// Connections open at once, at most (from all addresses together): when all are
    /// open, the one idle longest is closed for a new one.
    pub max_connections: usize,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        let workers = yokai_septet::usable_cores();
        ServeOptions {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8000,
            max_games: MAX_GAMES,
            max_think: Duration::from_millis(MAX_THINK_MS),
            workers,
            queue: 2 * workers,
            idle: Duration::from_secs(60 * IDLE_MINUTES),
            models: None,
            max_connections: server::default_max_connections(),
        }
    }
}

/// The whole app: the page, the API and the guard in front of them; refused (with why)
/// when a model of `opts.models` cannot be used.
pub fn router(opts: &ServeOptions) -> Result<Router, String> {
    Ok(AppState::router(AppState::new(opts)?, opts.port))
}

pub use server::{default_max_connections, serve, ServeError, HEADER_TIMEOUT, MAX_CONNECTIONS};
