//! The checks in front of every request, so that only the person's own pages can use the
//! server:
//!
//! - **`Host`** must be `localhost` or an IP address (with any port). A DNS-rebinding
//!   attack reaches a loopback server through a domain name of its own, which its requests
//!   carry in `Host`: they are refused, and so is a request with no `Host`.
//! - **`Origin`**, on every request that can change something (anything but `GET` and
//!   `HEAD`), must be this server's own (`http://` and the `Host`), or absent (a script,
//!   `curl`): a page of another site cannot play, create or end games here. Browsers send
//!   `Origin` with every cross-site `POST` and `DELETE`.

use std::net::IpAddr;

use axum::extract::Request;
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// Whether `host` (a `Host` header's value) names this machine by address or `localhost`.
pub fn host_allowed(host: &str) -> bool {
    // The name without the port: `[::1]:8000` → `::1`, `127.0.0.1:8000` → `127.0.0.1`.
    let name = match host.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((name, port)) if port.is_empty() || port.starts_with(':') => name,
            _ => return false,
        },
        None => host.split(':').next().unwrap_or(""),
    };
    if host.matches(':').count() > 1 && !host.starts_with('[') {
        return false;
    }
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// Refuses a request whose `Host` or `Origin` is not this server's (403), else passes it on.
pub async fn check(req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_allowed(host) {
        return ApiError::new(
            403,
            format!(
                "Host {host:?} refused: this server answers to localhost or an IP address only \
                 (a page reaching it through another name is refused)"
            ),
        )
        .into_response();
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let own = format!("http://{host}");
            if origin.to_str().ok() != Some(own.as_str()) {
                let shown = String::from_utf8_lossy(origin.as_bytes()).into_owned();
                return ApiError::new(
                    403,
                    format!(
                        "Origin {shown:?} refused: only this server's own page ({own}) may \
                         change its games"
                    ),
                )
                .into_response();
            }
        }
    }
    next.run(req).await
}
