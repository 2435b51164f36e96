//! Where the answers that draw are built: a game's state with its SVG (`projection.rs`),
//! a record's download, the replay viewer. They run on tokio's blocking threads, never on
//! the two threads that answer requests (a picture takes milliseconds, a replay viewer
//! more), at most [`RENDER_THREADS`] at once, beside the `--workers` threads of the bots
//! (`bots.rs`): a render never waits for a bot's decision to end.
//!
//! The moves that need no search (the person's card, a taken-back pick, a bot that decides
//! at once) are made here too, under the game's lock with the state they answer, so that
//! the state shown is the one right after the move.

use std::sync::Arc;

use axum::http::StatusCode;
use tokio::sync::Semaphore;

use super::ApiError;

/// The renders running at once, at most (the server's blocking threads are `--workers`
/// plus these).
pub const RENDER_THREADS: usize = 2;

/// The permits of the renders.
pub struct Renderers {
    permits: Arc<Semaphore>,
}

impl Default for Renderers {
    fn default() -> Renderers {
        Renderers {
            permits: Arc::new(Semaphore::new(RENDER_THREADS)),
        }
    }
}

impl Renderers {
    /// Runs `f` on a blocking thread once one of the [`RENDER_THREADS`] is free.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::busy("the server is stopping", 1))?;
        blocking(permit, f).await
    }
}

/// Runs `f` on one of tokio's blocking threads, holding `permits` until it ends; a panic
/// in it is a 500 (the game it held is as it was after its last whole move).
pub async fn blocking<P: Send + 'static, T: Send + 'static>(
    permits: P,
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        let _permits = permits;
        f()
    })
    .await
    .unwrap_or_else(|e| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error (please report it): {e}"),
        ))
    })
}
