//! The page: one file of plain HTML, CSS and JS (`page.html`), compiled into the binary
//! with `include_str!`: no build step, no CDN, no request to any other server (its Content
//! Security Policy forbids them).

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The page's source.
pub const PAGE: &str = include_str!("page.html");

/// What the page may load: itself and this server's API, nothing from anywhere else (a
/// frame: the server's, or the replay viewer of a loaded record, a sandboxed `blob:`).
const CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                   img-src data:; connect-src 'self'; frame-src 'self' blob:; \
                   form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// What the replay viewer may load: its own inline script and style, nothing else (it
/// asks the server for nothing).
pub const REPLAY_CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; \
                              style-src 'unsafe-inline'; img-src data:; form-action 'none'; \
                              base-uri 'none'; frame-ancestors 'none'";

/// `GET /`: the page.
pub fn routes() -> Router {
    Router::new().route(
        "/",
        get(|| async {
            (
                [
                    (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                    (header::CONTENT_SECURITY_POLICY, CSP),
                ],
                PAGE,
            )
                .into_response()
        }),
    )
}
