//! `yokai-septet serve`: a local web app to play against the bots and study the game
//! (feature `web`, on with `cli` and in the Python wheel).
//!
//! - [`games`]: the games a server holds, and what each shows its person (R10).
//! - [`api`]: the JSON API under `/api/` that the page uses (and scripts may).
//! - [`guard`]: the safety checks in front of every request (`Host`, `Origin`).
//! - [`page`]: the page itself, plain HTML, CSS and JS compiled into the binary.
//!
//! The server is axum on a small tokio runtime. Bots think on tokio's blocking threads
//! (`spawn_blocking`), never on the threads that answer requests. It writes no file: a
//! record leaves only as a download the person asks for.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::bots::BotRegistry;
use crate::cards::Card;

pub mod api;
pub mod games;
pub mod guard;
pub mod page;
pub mod table;
pub mod undo;

/// The most games one server holds at once (each holds its bots; a search bot's tree is
/// rebuilt per decision, so a game is a few kilobytes plus its record).
pub const MAX_GAMES: usize = 1000;

/// What a refused request gets: a 4xx or 5xx status and a message that says what is wrong.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// What is wrong, in words.
    pub message: String,
    /// The card an illegal play named.
    pub card: Option<Card>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            card: None,
        }
    }

    /// An illegal card (422): the reason is the rule text of [`crate::IllegalAction`].
    pub fn illegal(message: String, card: Option<Card>) -> ApiError {
        ApiError {
            status: 422,
            message,
            card,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // Every refusal is `{"error": ...}`; an illegal card also names the card.
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(c) = self.card {
            body["card"] = c.to_string().into();
        }
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        api::json_response(status, &body)
    }
}

/// What the server shares between requests.
pub struct AppState {
    /// The games, by id.
    pub games: games::Games,
    /// Builds the bots (any registry name, `nn:PATH` models included).
    pub registry: BotRegistry,
}

/// The server's options.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (loopback by default).
    pub host: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// The most games held at once.
    pub max_games: usize,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8000,
            max_games: MAX_GAMES,
        }
    }
}

/// The whole app: the page, the API and the guard in front of them.
pub fn router(registry: BotRegistry, max_games: usize) -> Router {
    let state = Arc::new(AppState {
        games: games::Games::new(max_games),
        registry,
    });
    api::routes(state)
        .merge(page::routes())
        .layer(axum::middleware::from_fn(guard::check))
}

/// Serves until Ctrl-C: prints the URL on `out` (and a warning on `err` when the address
/// is not loopback).
pub fn serve(
    opts: &ServeOptions,
    registry: BotRegistry,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(opts.host, opts.port)).await?;
        let addr = listener.local_addr()?;
        if !opts.host.is_loopback() {
            writeln!(
                err,
                "warning: listening on {}, not loopback only: anyone who can reach this \
                 address can play and end games on this server (there is no login)",
                opts.host
            )?;
        }
        let shown = if opts.host.is_unspecified() || opts.host.is_loopback() {
            format!("127.0.0.1:{}", addr.port())
        } else {
            addr.to_string()
        };
        writeln!(
            out,
            "Yokai Septet: http://{shown}/  (Ctrl-C stops the server)"
        )?;
        out.flush()?;
        let app = router(registry, opts.max_games);
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })?;
    writeln!(out, "Server stopped.")?;
    Ok(())
}
