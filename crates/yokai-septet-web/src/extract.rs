//! The API's extractors, so that a handler states what it takes and nothing else:
//!
//! - [`JsonBody`]: a JSON object body (empty: `{}`), at most [`SMALL_BODY`] bytes, refused
//!   with a message that says what and where (400, or 413 when too large).
//! - [`RecordText`]: a record's body as UTF-8 text, at most [`RECORD_BODY`] bytes.
//! - [`NamedGame`]: the game named in the path `/api/games/{id}`, looked up (404 when the
//!   server holds none of that name; the lookup counts as touching it).
//!
//! `Content-Type: application/json` and the body's read time are checked before any of
//! them, in front of every route (`guard.rs`).

use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::answers::ok;
use super::games::{lock, Game};
use super::projection::project;
use super::{ApiError, AppState};

/// The largest body of a request that is not a record.
pub const SMALL_BODY: usize = 16 * 1024;
/// The largest record `POST /api/games/load` and `POST /api/replay` read (a long game's
/// record is tens of KB).
pub const RECORD_BODY: usize = 1024 * 1024;

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

/// A request's JSON object body, read as a `T` (an empty body reads as `{}`).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = bytes(
            Bytes::from_request(req, state).await,
            "request body",
            SMALL_BODY,
        )?;
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
        serde_json::from_slice(text)
            .map(JsonBody)
            .map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
}

/// A record's body as text (its JSON is read by [`yokai_septet::Match::from_json`], which
/// says where it is wrong).
pub struct RecordText(pub String);

impl<S: Send + Sync> FromRequest<S> for RecordText {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = bytes(Bytes::from_request(req, state).await, "record", RECORD_BODY)?;
        String::from_utf8(body.to_vec())
            .map(RecordText)
            .map_err(|e| ApiError::bad(format!("record: not UTF-8 text: {e}")))
    }
}

/// The game named in the request's path, and its id.
pub struct NamedGame {
    /// The id, as the path gives it (it was found in the table).
    pub id: String,
    game: Arc<Mutex<Game>>,
}

impl FromRequestParts<Arc<AppState>> for NamedGame {
    /// A 404 `{"error": ...}` for a game the server does not hold; axum's own answer to a
    /// path that is not UTF-8.
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Self, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let game = state.games.get(&id).map_err(IntoResponse::into_response)?;
        Ok(NamedGame { id, game })
    }
}

impl NamedGame {
    /// The game, locked.
    pub fn lock(&self) -> MutexGuard<'_, Game> {
        lock(&self.game)
    }

    /// Changes the game with `change` and answers its new state, under one hold of its
    /// lock (so the state is the one `change` left). It draws: run it off the threads that
    /// answer requests (`render.rs`).
    pub fn answer(
        &self,
        change: impl FnOnce(&mut Game) -> Result<(), ApiError>,
    ) -> Result<Response, ApiError> {
        let mut g = self.lock();
        change(&mut g)?;
        Ok(ok(&project(&g, &self.id)))
    }
}
