//! The JSON API under `/api/` (the page's, and any script's):
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/options` | | the variants, scorings, episodes and built-in bots |
//! | `POST /api/games` | [`NewGame`] | a new game's state |
//! | `POST /api/games/load` | a record | the resumed game's state (`play --load`'s rules) |
//! | `GET /api/games/ID` | | the state as the person's seat sees it |
//! | `POST /api/games/ID/play` | `{"card": "S13"}` (or a card id) | the new state |
//! | `POST /api/games/ID/step` | | one bot decision: the new state and `last_move` |
//! | `POST /api/games/ID/hint` | `{"bot": "ismcts"}` (optional) | the bot's card and values |
//! | `POST /api/games/ID/review` | `{"round": 0}` | the double-dummy review of a finished round |
//! | `GET /api/games/ID/record` | | the record (JSON) as a download |
//! | `GET /api/games/ID/replay` | | the replay viewer (when no hand is hidden any more) |
//! | `DELETE /api/games/ID` | | ends the game |
//!
//! Every refusal is a JSON object `{"error": "..."}` with a 4xx status (`card` too for an
//! illegal card, 422, whose `error` is the rule text of [`crate::IllegalAction`]).

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use super::games::{Game, NewGame};
use super::{ApiError, AppState};
use crate::analysis::{analyze_rounds, DEFAULT_BUDGET};
use crate::bots::hint::HINT_BOT;
use crate::bots::BUILT_IN_BOTS;
use crate::rules::config::{Episode, Scoring, Variant};

/// The largest body of a request that is not a record.
pub const SMALL_BODY: usize = 16 * 1024;
/// The largest record `POST /api/games/load` reads (a long game's record is tens of KB).
pub const RECORD_BODY: usize = 1024 * 1024;

type Shared = Arc<AppState>;

/// The API's routes, each body capped.
pub fn routes(state: Shared) -> Router {
    Router::new()
        .route("/api/options", get(options))
        .route("/api/games", post(create))
        .route(
            "/api/games/load",
            post(load).layer(DefaultBodyLimit::max(RECORD_BODY)),
        )
        .route("/api/games/{id}", get(state_of).delete(remove))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/step", post(step))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/review", post(review))
        .route("/api/games/{id}/undo", post(super::undo::undo))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .with_state(state)
}

/// A JSON answer.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn ok(body: Value) -> Response {
    json_response(StatusCode::OK, &body)
}

async fn not_found() -> ApiError {
    ApiError::new(
        404,
        "no such page or API route (the API is documented in docs/play.md)",
    )
}

/// The body's bytes, or why there are none (`what`: what the body is, for the message).
fn bytes(body: Result<Bytes, BytesRejection>, what: &str, limit: usize) -> Result<Bytes, ApiError> {
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(413, format!("{what} too large: at most {limit} bytes"))
        } else {
            ApiError::new(r.status().as_u16(), format!("{what}: {}", r.body_text()))
        }
    })
}

/// Reads a JSON body (empty: `{}`), refusing what is too large or malformed with a message
/// that says what and where.
fn read<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<T, ApiError> {
    let body = bytes(body, "request body", limit)?;
    let text = if body.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        &body[..]
    };
    serde_json::from_slice(text).map_err(|e| ApiError::new(400, format!("request body: {e}")))
}

/// Runs `f` on tokio's blocking threads (a bot's thinking, a solver's review), so that the
/// threads answering requests never wait for it.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(ApiError::new(
            500,
            format!("internal error (please report it): {e}"),
        ))
    })
}

/// Runs `f` on the game `id`, off the request threads.
async fn with_game<T: Send + 'static>(
    state: &Shared,
    id: &str,
    f: impl FnOnce(&mut Game, &str) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let game: Arc<Mutex<Game>> = state.games.get(id)?;
    let id = id.to_string();
    blocking(move || {
        // A panic while a game was held leaves it as it was after its last whole move.
        let mut g = game.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut g, &id)
    })
    .await
}

async fn options() -> Response {
    ok(json!({
        "variants": Variant::ALL.map(Variant::name),
        "scorings": Scoring::ALL.map(Scoring::name),
        "episodes": Episode::ALL.map(Episode::name),
        "bots": BUILT_IN_BOTS,
        "hint_bot": HINT_BOT,
        "players": Variant::ALL.map(Variant::num_players),
    }))
}

async fn create(
    State(state): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: NewGame = read(body, SMALL_BODY)?;
    let st = state.clone();
    let game = blocking(move || Game::new(&req, &st.registry)).await?;
    let (id, game) = state.games.insert(game)?;
    let g = game.lock().unwrap_or_else(|e| e.into_inner());
    Ok(json_response(StatusCode::CREATED, &g.state_json(&id)))
}

async fn load(
    State(state): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = bytes(body, "record", RECORD_BODY)?;
    let text = String::from_utf8(body.to_vec())
        .map_err(|e| ApiError::new(400, format!("record: not UTF-8 text: {e}")))?;
    let st = state.clone();
    let game = blocking(move || Game::load(&text, &st.registry)).await?;
    let (id, game) = state.games.insert(game)?;
    let g = game.lock().unwrap_or_else(|e| e.into_inner());
    Ok(json_response(StatusCode::CREATED, &g.state_json(&id)))
}

async fn state_of(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    with_game(&state, &id, |g, id| Ok(ok(g.state_json(id)))).await
}

async fn remove(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    state.games.remove(&id)?;
    Ok(ok(json!({"ended": id})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    card: Value,
}

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: PlayBody = read(body, SMALL_BODY)?;
    with_game(&state, &id, move |g, id| {
        g.play(&req.card)?;
        Ok(ok(g.state_json(id)))
    })
    .await
}

async fn step(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let _: serde::de::IgnoredAny = read(body, SMALL_BODY)?;
    with_game(&state, &id, |g, id| {
        let seat = g.as_match().state().current_player();
        let (bot, think_ms) = g.step()?;
        let mut s = g.state_json(id);
        s["last_move"] = json!({"seat": seat, "bot": bot, "think_ms": think_ms});
        Ok(ok(s))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintBody {
    #[serde(default)]
    bot: Option<String>,
}

async fn hint(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: HintBody = read(body, SMALL_BODY)?;
    let st = state.clone();
    with_game(&state, &id, move |g, _| {
        let name = req.bot.as_deref().unwrap_or(HINT_BOT);
        Ok(ok(g.hint(name, &st.registry)?))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    round: usize,
}

async fn review(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: ReviewBody = read(body, SMALL_BODY)?;
    // The round is copied out under the lock; the solver runs without holding the game.
    let m = with_game(&state, &id, move |g, _| {
        if req.round >= g.finished_rounds() {
            return Err(ApiError::new(
                409,
                format!(
                    "round {} is not over: a round is reviewed once it is over (its hands \
                     are hidden until then)",
                    req.round
                ),
            ));
        }
        Ok(g.as_match().clone())
    })
    .await?;
    let round = req.round;
    blocking(move || {
        let a = analyze_rounds(&m, round..round + 1, DEFAULT_BUDGET, &mut |_, _| {});
        let mut v = a.to_value();
        v["round"] = json!(round);
        // The round is over: its deal is shown, so that a "best" card can be followed.
        v["deal"] = super::table::round_deal(&m, round);
        // `analyze --json`'s schema names cards by id; the page shows codes.
        for (p, out) in a.plays.iter().zip(v["plays"].as_array_mut().expect("plays")) {
            out["best_codes"] = json!(p.best_cards().iter().map(|c| c.to_string()).collect::<Vec<_>>());
        }
        v["costly"] = json!(a
            .costly()
            .map(|p| json!({"trick": p.trick, "seat": p.seat, "card": p.card.to_string(),
                            "cost": p.cost(), "best": p.best_cards().iter().map(|c| c.to_string()).collect::<Vec<_>>()}))
            .collect::<Vec<_>>());
        Ok(ok(v))
    })
    .await
}

async fn record(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_game(&state, &id, |g, id| {
        let text = serde_json::to_string_pretty(&g.record()).expect("a record serialises") + "\n";
        let disposition = format!(
            "attachment; filename=\"yokai-septet-{}.json\"",
            &id[..8.min(id.len())]
        );
        Ok((
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            text,
        )
            .into_response())
    })
    .await
}

async fn replay(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_game(&state, &id, |g, _| {
        if !g.may_show_all() {
            return Err(ApiError::new(
                409,
                "the replay viewer shows every hand: it opens when the game is over (or for \
                 a game of bots only)",
            ));
        }
        let page = crate::picture::replay_html(g.as_match());
        Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response())
    })
    .await
}
