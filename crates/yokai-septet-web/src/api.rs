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
//! | `POST /api/games/ID/undo` | | takes back the person's last passing pick: the new state |
//! | `GET /api/games/ID/record` | | the record (JSON) as a download |
//! | `GET /api/games/ID/replay` | | the replay viewer (when no hand is hidden any more) |
//! | `DELETE /api/games/ID` | | ends the game |
//! | `POST /api/replay` | a finished game's record | its replay viewer (the page's load) |
//!
//! Every refusal is a JSON object `{"error": "..."}` with a 4xx status (`card` too for an
//! illegal card, 422, whose `error` is the rule text of [`yokai_septet::IllegalAction`]).
//!
//! A handler takes what it needs through the extractors of `extract.rs` (the body, the
//! game named in the path); what draws runs off the threads that answer requests
//! (`render.rs`), and what searches on a worker (`bots.rs`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::IgnoredAny;
use serde::Deserialize;

use super::answers::{json_response, ok};
use super::answers::{Ended, HintAnswer, Options, Review, Stepped};
use super::bots::decides_at_once;
use super::extract::{JsonBody, NamedGame, RecordText, RECORD_BODY, SMALL_BODY};
use super::games::{lock, Game};
use super::new_game::NewGame;
use super::projection::project;
use super::table::round_deal;
use super::undo::undo_pick;
use super::{ApiError, AppState};
use yokai_septet::{Episode, Scoring, Variant};
use yokai_septet_bots::analysis::analyze_rounds;
use yokai_septet_bots::bare_bot_names;
use yokai_septet_bots::hint::HINT_BOT;

/// The route that resumes a saved game from its record.
const LOAD_ROUTE: &str = "/api/games/load";
/// The route that opens a finished game's record in the replay viewer.
const REPLAY_ROUTE: &str = "/api/replay";
/// The routes whose body is a record (capped at [`RECORD_BODY`] in [`routes`]).
const RECORD_ROUTES: [&str; 2] = [LOAD_ROUTE, REPLAY_ROUTE];

/// The largest body the route at `path` reads: what the guard reads in front of it
/// (`guard::read_body_in_time`), one byte past which the route refuses it (413).
pub fn body_cap(path: &str) -> usize {
    if RECORD_ROUTES.contains(&path) {
        RECORD_BODY
    } else {
        SMALL_BODY
    }
}

/// The most rounds of a record `POST /api/replay` draws (its viewer draws every trick:
/// about 200 KB a round, measured on a `4p` game of bots; 13 MB at the cap).
pub const REPLAY_ROUNDS: usize = 64;

/// The longest a record's replay may take (its bots' decisions are played again).
const LOAD_TIME: Duration = Duration::from_secs(30);

type Shared = Arc<AppState>;

/// The API's routes, each body capped.
pub fn routes(state: Shared) -> Router {
    Router::new()
        .route("/api/options", get(options))
        .route("/api/games", post(create))
        .route(
            LOAD_ROUTE,
            post(load).layer(DefaultBodyLimit::max(RECORD_BODY)),
        )
        .route("/api/games/{id}", get(state_of).delete(remove))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/step", post(step))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/review", post(review))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route(
            REPLAY_ROUTE,
            post(replay_record).layer(DefaultBodyLimit::max(RECORD_BODY)),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page or API route (the API is documented in docs/play.md)",
    )
}

/// Sets a flag when dropped before [`Departure::done`]: the request's client has gone
/// (hyper drops the request's future), so a job that checks the flag stops.
struct Departure(Arc<AtomicBool>, bool);

impl Departure {
    fn new() -> Departure {
        Departure(Arc::new(AtomicBool::new(false)), false)
    }

    fn done(mut self) {
        self.1 = true;
    }
}

impl Drop for Departure {
    fn drop(&mut self) {
        if !self.1 {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

async fn options(State(state): State<Shared>) -> Response {
    // The names a new game's `bots` accepts, so that the page's list of them cannot
    // drift from the check.
    let mut bots = bare_bot_names();
    bots.extend(state.bots.model_names());
    ok(&Options {
        variants: Variant::ALL.map(Variant::name).to_vec(),
        scorings: Scoring::ALL.map(Scoring::name).to_vec(),
        episodes: Episode::ALL.map(Episode::name).to_vec(),
        bots,
        hint_bot: HINT_BOT,
        players: Variant::ALL.map(Variant::num_players).to_vec(),
        max_think_ms: state.bots.max_think_ms(),
        budget_caps: state.bots.budget_caps(),
    })
}

/// A new game's answer: 201 and its state (it draws: on a blocking thread).
fn created(state: &Shared, game: Game) -> Result<Response, ApiError> {
    let (id, game) = state.games.insert(game)?;
    let g = lock(&game);
    Ok(json_response(StatusCode::CREATED, &project(&g, &id)))
}

async fn create(
    State(state): State<Shared>,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    // Building the bots that search nothing takes microseconds: beside the renders. A
    // search bot's build allocates its tables (a solver's are megabytes): on a worker.
    let at_once = req
        .bots
        .as_deref()
        .unwrap_or_default()
        .iter()
        .all(|n| decides_at_once(n));
    let st = state.clone();
    let build = move || created(&st, Game::new(&req, &st.bots)?);
    if at_once {
        state.render.run(build).await
    } else {
        state.bots.run(build).await
    }
}

async fn load(
    State(state): State<Shared>,
    RecordText(text): RecordText,
) -> Result<Response, ApiError> {
    let st = state.clone();
    let left = Departure::new();
    let flag = left.0.clone();
    let answer = state
        .bots
        .run(move || {
            let game = Game::load(&text, &st.bots, flag, Instant::now() + LOAD_TIME)?;
            created(&st, game)
        })
        .await;
    left.done();
    answer
}

async fn state_of(State(state): State<Shared>, game: NamedGame) -> Result<Response, ApiError> {
    state.render.run(move || game.answer(|_| Ok(()))).await
}

async fn remove(State(state): State<Shared>, game: NamedGame) -> Result<Response, ApiError> {
    state.games.remove(&game.id)?;
    Ok(ok(&Ended { ended: &game.id }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    card: serde_json::Value,
}

async fn play(
    State(state): State<Shared>,
    game: NamedGame,
    JsonBody(req): JsonBody<PlayBody>,
) -> Result<Response, ApiError> {
    state
        .render
        .run(move || game.answer(|g| g.play(&req.card)))
        .await
}

/// Takes back the person's last passing pick while more are to come: the new state, or
/// 409 when there is nothing to take back. Replaying a game's decisions without a bot is
/// quick: no worker is taken.
async fn undo(
    State(state): State<Shared>,
    game: NamedGame,
    _: JsonBody<IgnoredAny>,
) -> Result<Response, ApiError> {
    state.render.run(move || game.answer(undo_pick)).await
}

async fn step(
    State(state): State<Shared>,
    game: NamedGame,
    _: JsonBody<IgnoredAny>,
) -> Result<Response, ApiError> {
    // Refused at once when there is nothing to think about (no worker is taken).
    let at_once = game.lock().bot_to_move()?;
    let st = state.clone();
    let decide = move || {
        let turn = game.lock().take_turn()?;
        // The bot thinks without the game's lock: GET answers meanwhile.
        let decided = turn.decide(&st.bots);
        let mut g = game.lock();
        let last_move = g.finish_turn(decided)?;
        Ok(ok(&Stepped {
            state: project(&g, &game.id),
            last_move,
        }))
    };
    // A bot that does not search decides in microseconds: beside the renders.
    if at_once {
        state.render.run(decide).await
    } else {
        state.bots.run(decide).await
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintBody {
    #[serde(default)]
    bot: Option<String>,
}

async fn hint(
    State(state): State<Shared>,
    game: NamedGame,
    JsonBody(req): JsonBody<HintBody>,
) -> Result<Response, ApiError> {
    let name = req.bot.unwrap_or_else(|| HINT_BOT.to_string());
    let spec = state.bots.resolve(&name).map_err(|e| ApiError {
        message: format!("bot: {}", e.message),
        ..e
    })?;
    // The position is copied out under the lock; the search runs without it.
    let (s, me) = game.lock().hint_position()?;
    let st = state.clone();
    state
        .bots
        .run(move || {
            let h = yokai_septet_bots::hint::hint(&s.view(me), &spec, st.bots.registry())
                .map_err(|e| ApiError::refused(format!("bot: {e}")))?;
            Ok(ok(&HintAnswer::new(h, name, &spec, s.variant())))
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
    game: NamedGame,
    JsonBody(req): JsonBody<ReviewBody>,
) -> Result<Response, ApiError> {
    // The match is copied out under the lock; the solver runs without holding the game.
    let m = {
        let g = game.lock();
        if req.round >= g.finished_rounds() {
            return Err(ApiError::conflict(format!(
                "round {} is not over: a round is reviewed once it is over (its hands are \
                 hidden until then)",
                req.round
            )));
        }
        g.as_match().clone()
    };
    let round = req.round;
    let budget = state.bots.review_nodes();
    state
        .bots
        .run(move || {
            let a = analyze_rounds(&m, round..round + 1, budget, &mut |_, _| {});
            // The round is over: its deal is shown, so that a "best" card can be followed.
            let deal = round_deal(&m, round);
            Ok(ok(&Review::new(&a, round, deal)))
        })
        .await
}

/// The record as a download (serialised beside the renders).
async fn record(State(state): State<Shared>, game: NamedGame) -> Result<Response, ApiError> {
    // The id is the server's own (hex digits): it was found in the table.
    let disposition = format!(
        "attachment; filename=\"yokai-septet-{}.json\"",
        &game.id[..8.min(game.id.len())]
    );
    let text = state
        .render
        .run(move || {
            let record = game.lock().record();
            serde_json::to_string_pretty(&record).map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("internal error (please report it): {e}"),
                )
            })
        })
        .await?
        + "\n";
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// The replay viewer of a game whose every hand may be shown (drawn beside the renders).
async fn replay(State(state): State<Shared>, game: NamedGame) -> Result<Response, ApiError> {
    let page = state
        .render
        .run(move || {
            let m = {
                let g = game.lock();
                if !g.may_show_all() {
                    return Err(ApiError::conflict(
                        "the replay viewer shows every hand: it opens when the game is over \
                         (or for a game of bots only)",
                    ));
                }
                g.as_match().clone()
            };
            Ok(yokai_septet_picture::replay_html(&m))
        })
        .await?;
    Ok(viewer(page))
}

/// The replay viewer's page, with its Content Security Policy.
fn viewer(page: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, super::page::REPLAY_CSP),
        ],
        page,
    )
        .into_response()
}

/// The replay viewer of a finished game's record (the page's load of one): the record is
/// checked as a load's is (every card replayed by the rules), on a worker.
async fn replay_record(
    State(state): State<Shared>,
    RecordText(text): RecordText,
) -> Result<Response, ApiError> {
    let page = state
        .bots
        .run(move || {
            let m = yokai_septet::Match::from_json(&text)
                .map_err(|e| ApiError::bad(format!("record: {e}")))?;
            if !m.state().is_over() {
                return Err(ApiError::conflict(
                    "record: this game is not over; load it at the table to play it on (the \
                     replay viewer shows every hand)",
                ));
            }
            let rounds = m.record().rounds.len();
            if rounds > REPLAY_ROUNDS {
                return Err(ApiError::refused(format!(
                    "record: {rounds} rounds; the replay viewer here draws at most \
                     {REPLAY_ROUNDS} (`yokai-septet replay --html` draws any)"
                )));
            }
            Ok(yokai_septet_picture::replay_html(&m))
        })
        .await?;
    Ok(viewer(page))
}
