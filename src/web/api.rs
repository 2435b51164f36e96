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
//! | `POST /api/replay` | a finished game's record | its replay viewer (the page's load) |
//!
//! Every refusal is a JSON object `{"error": "..."}` with a 4xx status (`card` too for an
//! illegal card, 422, whose `error` is the rule text of [`crate::IllegalAction`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::answers::{BudgetCap, CardValue, Costly, Ended, HintAnswer, Options, Stepped};
use super::bots::{decides_at_once, CAPS};
use super::games::{lock, Game, NewGame, Seat};
use super::undo::undo_pick;
use super::{ApiError, AppState};
use crate::analysis::analyze_rounds;
use crate::bots::hint::{HINT_BOT, HINT_DD_WORLDS};
use crate::bots::BUILT_IN_BOTS;
use crate::rules::config::{Episode, Scoring, Variant};

/// The largest body of a request that is not a record.
pub const SMALL_BODY: usize = 16 * 1024;
/// The largest record `POST /api/games/load` reads (a long game's record is tens of KB).
pub const RECORD_BODY: usize = 1024 * 1024;

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
            "/api/games/load",
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
            "/api/replay",
            post(replay_record).layer(DefaultBodyLimit::max(RECORD_BODY)),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .with_state(state)
}

/// A JSON answer.
pub fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    match serde_json::to_string(body) {
        Ok(text) => (status, [(header::CONTENT_TYPE, "application/json")], text).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            format!(
                "{{\"error\": \"internal error (please report it): {}\"}}",
                e.to_string().replace('"', "'")
            ),
        )
            .into_response(),
    }
}

fn ok(body: &impl Serialize) -> Response {
    json_response(StatusCode::OK, body)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page or API route (the API is documented in docs/play.md)",
    )
}

/// The body's bytes, or why there are none (`what`: what the body is, for the message).
fn bytes(body: Result<Bytes, BytesRejection>, what: &str, limit: usize) -> Result<Bytes, ApiError> {
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("{what} too large: at most {limit} bytes"),
            )
        } else {
            ApiError::new(r.status(), format!("{what}: {}", r.body_text()))
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
    // A JSON object: serde would also read a struct from an array of its fields in order.
    if text.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad(
            "request body: a JSON object ({...}) or nothing",
        ));
    }
    serde_json::from_slice(text).map_err(|e| ApiError::bad(format!("request body: {e}")))
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
    let mut bots: Vec<String> = BUILT_IN_BOTS.iter().map(|b| b.to_string()).collect();
    bots.extend(state.bots.model_names());
    ok(&Options {
        variants: Variant::ALL.map(Variant::name).to_vec(),
        scorings: Scoring::ALL.map(Scoring::name).to_vec(),
        episodes: Episode::ALL.map(Episode::name).to_vec(),
        bots,
        hint_bot: HINT_BOT,
        players: Variant::ALL.map(Variant::num_players).to_vec(),
        max_think_ms: state.bots.max_think_ms(),
        budget_caps: CAPS
            .iter()
            .flat_map(|c| {
                let max = state.bots.cap_of(c);
                c.heads.iter().map(move |&bot| BudgetCap {
                    bot,
                    max,
                    unit: c.unit,
                })
            })
            .collect(),
    })
}

/// A new game's answer: 201 and its state.
fn created(state: &Shared, game: Game) -> Result<Response, ApiError> {
    let (id, game) = state.games.insert(game)?;
    let g = lock(&game);
    Ok(json_response(StatusCode::CREATED, &g.state(&id)))
}

async fn create(
    State(state): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: NewGame = read(body, SMALL_BODY)?;
    // Building the bots that search nothing takes microseconds: on the request's own
    // thread. A search bot's build allocates its tables (a solver's are megabytes): on a
    // worker.
    let names = req.bots.as_deref().unwrap_or_default();
    let game = if names.iter().all(|n| decides_at_once(n)) {
        Game::new(&req, &state.bots)?
    } else {
        let st = state.clone();
        state.bots.run(move || Game::new(&req, &st.bots)).await?
    };
    created(&state, game)
}

/// A record's body as text (at most [`RECORD_BODY`] bytes, UTF-8).
fn record_text(body: Result<Bytes, BytesRejection>) -> Result<String, ApiError> {
    let body = bytes(body, "record", RECORD_BODY)?;
    String::from_utf8(body.to_vec())
        .map_err(|e| ApiError::bad(format!("record: not UTF-8 text: {e}")))
}

async fn load(
    State(state): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let text = record_text(body)?;
    let st = state.clone();
    let left = Departure::new();
    let flag = left.0.clone();
    let game = state
        .bots
        .run(move || Game::load(&text, &st.bots, flag, Instant::now() + LOAD_TIME))
        .await;
    left.done();
    created(&state, game?)
}

async fn state_of(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = state.games.get(&id)?;
    let g = lock(&game);
    Ok(ok(&g.state(&id)))
}

async fn remove(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    state.games.remove(&id)?;
    Ok(ok(&Ended { ended: &id }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    card: serde_json::Value,
}

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: PlayBody = read(body, SMALL_BODY)?;
    let game = state.games.get(&id)?;
    let mut g = lock(&game);
    g.play(&req.card)?;
    Ok(ok(&g.state(&id)))
}

/// Takes back the person's last passing pick while more are to come: the new state, or
/// 409 when there is nothing to take back. Replaying a game's decisions without a bot is
/// quick: no worker is taken.
async fn undo(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let _: serde::de::IgnoredAny = read(body, SMALL_BODY)?;
    let game = state.games.get(&id)?;
    let mut g = lock(&game);
    undo_pick(&mut g)?;
    Ok(ok(&g.state(&id)))
}

async fn step(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let _: serde::de::IgnoredAny = read(body, SMALL_BODY)?;
    let game = state.games.get(&id)?;
    // Refused at once when there is nothing to think about (no worker is taken).
    let p = lock(&game).bot_to_move()?;
    let st = state.clone();
    let decide = move || {
        let (p, seat, s, name, seed) = lock(&game).take_turn()?;
        // The bot thinks without the game's lock: GET answers meanwhile.
        let mut bot = match seat {
            Seat::Live(bot) => bot,
            Seat::Parked(words) => match st.bots.revive(&name, seed, s.variant(), words.as_deref())
            {
                Ok(bot) => bot,
                Err(e) => {
                    // The seat as it was; the game goes on once the error is fixed.
                    let message = e.message.clone();
                    let err = Err(crate::bots::BotError::External { name, message });
                    let _ = lock(&game).finish_turn(p, Seat::Parked(words), err, 0.0);
                    return Err(e);
                }
            },
        };
        let start = Instant::now();
        let card = bot.act(&s.view(p));
        let think_ms = start.elapsed().as_secs_f64() * 1e3;
        // Parked (its tables dropped) before the lock is taken again.
        let seat = Seat::park(bot, &name);
        let mut g = lock(&game);
        let last_move = g.finish_turn(p, seat, card, think_ms)?;
        Ok(ok(&Stepped {
            state: g.state(&id),
            last_move,
        }))
    };
    // A bot that does not search decides in microseconds: on the request's own thread.
    if p.1 {
        decide()
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
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: HintBody = read(body, SMALL_BODY)?;
    let name = req.bot.unwrap_or_else(|| HINT_BOT.to_string());
    let resolved = state.bots.resolve(&name).map_err(|e| ApiError {
        message: format!("bot: {}", e.message),
        ..e
    })?;
    let game = state.games.get(&id)?;
    // The position is copied out under the lock; the search runs without it.
    let (s, me) = lock(&game).hint_position()?;
    let st = state.clone();
    state
        .bots
        .run(move || {
            let h = crate::bots::hint::hint(&s.view(me), &resolved, st.bots.registry())
                .map_err(|e| ApiError::refused(format!("bot: {e}")))?;
            let value = |&(c, v): &(crate::Card, f64)| CardValue {
                card: c.to_string(),
                value: (!v.is_nan()).then_some(v),
            };
            Ok(ok(&HintAnswer {
                // The name asked (a model's, not its file's), or the heuristic's.
                bot: if h.bot == resolved { name } else { h.bot },
                card: h.card.to_string(),
                values: h.values.iter().map(value).collect(),
                worlds: h.worlds,
                units: "(our score - theirs) / target, +0.1 round won, +/-1 game won/lost",
                double_dummy_worlds: if h.double_dummy.is_empty() {
                    0
                } else {
                    HINT_DD_WORLDS
                },
                double_dummy: h.double_dummy.iter().map(value).collect(),
                double_dummy_units: crate::analysis::units(s.variant()),
            }))
        })
        .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    round: usize,
}

/// A review: `analyze --json`'s analysis of one round (solved within the server's node
/// budget per position; the plays past it are estimated, as `analyze` marks them), with
/// each play's best cards as codes, the round's deal, and the costly plays.
#[derive(Serialize)]
struct Review {
    #[serde(flatten)]
    analysis: serde_json::Value,
    /// The round's hands as dealt, the passes and the trump card (the round is over).
    deal: serde_json::Value,
    round: usize,
    costly: Vec<Costly>,
}

async fn review(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: ReviewBody = read(body, SMALL_BODY)?;
    let game = state.games.get(&id)?;
    // The match is copied out under the lock; the solver runs without holding the game.
    let m = {
        let g = lock(&game);
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
            let mut analysis = a.to_value();
            let codes = |cards: Vec<crate::Card>| -> Vec<String> {
                cards.iter().map(|c| c.to_string()).collect()
            };
            // `analyze --json`'s schema names cards by id; the page shows codes.
            if let Some(plays) = analysis["plays"].as_array_mut() {
                for (p, out) in a.plays.iter().zip(plays) {
                    out["best_codes"] = codes(p.best_cards()).into();
                }
            }
            let costly = a
                .costly()
                .map(|p| Costly {
                    trick: p.trick,
                    seat: p.seat,
                    card: p.card.to_string(),
                    cost: p.cost(),
                    best: codes(p.best_cards()),
                })
                .collect();
            // The round is over: its deal is shown, so that a "best" card can be followed.
            let deal = super::table::round_deal(&m, round);
            Ok(ok(&Review {
                analysis,
                deal,
                round,
                costly,
            }))
        })
        .await
}

async fn record(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = state.games.get(&id)?;
    let record = lock(&game).record();
    let text = serde_json::to_string_pretty(&record).expect("a record serialises") + "\n";
    // The id is the server's own (hex digits): it was found in the table.
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
}

async fn replay(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let game = state.games.get(&id)?;
    let m = {
        let g = lock(&game);
        if !g.may_show_all() {
            return Err(ApiError::conflict(
                "the replay viewer shows every hand: it opens when the game is over (or for \
                 a game of bots only)",
            ));
        }
        g.as_match().clone()
    };
    Ok(viewer(crate::picture::replay_html(&m)))
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
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let text = record_text(body)?;
    let page = state
        .bots
        .run(move || {
            let m = crate::record::Match::from_json(&text)
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
            Ok(crate::picture::replay_html(&m))
        })
        .await?;
    Ok(viewer(page))
}
