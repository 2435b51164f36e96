//! The checks in front of every request, so that only the person's own pages can use the
//! server:
//!
//! - **`Host`** must be `localhost` or an IP address, with the server's own port (or none
//!   where the server listens on port 80). A DNS-rebinding attack reaches a loopback
//!   server through a domain name of its own, which its requests carry in `Host`: they are
//!   refused, and so is a request with no `Host` or with two.
//! - **`Origin`**, on every request that can change something (anything but `GET` and
//!   `HEAD`), must be this server's own (`http://` and the `Host`). A request without one
//!   is accepted only from a non-browser client (a script, `curl`): a browser says where a
//!   request comes from in `Sec-Fetch-Site` (refused as `cross-site`) and sends `Origin`
//!   with every `POST` and `DELETE` of a page.
//! - **`Content-Type: application/json`** on every request that can change something: a
//!   page of another site can send a form or a `text/plain` body without asking first,
//!   never JSON.
//! - **The body** must arrive within [`BODY_TIMEOUT`] (a slow client is cut: 408).
//! - **`X-Content-Type-Options: nosniff`** on every answer.

use std::future::poll_fn;
use std::net::IpAddr;
use std::pin::Pin;
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::api::body_cap;
use super::{shown, ApiError};

/// How long a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The host name of `host` (a `Host` header's value) and its port, when it names this
/// machine by address or `localhost`: `[::1]:8000` → `::1`, 8000.
fn host_parts(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = match host.strip_prefix('[') {
        Some(rest) => {
            let (name, after) = rest.split_once(']')?;
            match after {
                "" => (name, None),
                p => (name, Some(p.strip_prefix(':')?)),
            }
        }
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
    };
    let local = name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok();
    local.then_some((name, port))
}

/// Whether `host` (a `Host` header's value) names this machine by address or `localhost`,
/// at `port`, the port the request came in on (`None`: not known, any port).
pub fn host_allowed(host: &str, port: Option<u16>) -> bool {
    match (host_parts(host), port) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some((_, given)), Some(port)) => given.unwrap_or(80) == port,
    }
}

fn refuse(message: String) -> Response {
    ApiError::new(StatusCode::FORBIDDEN, message).into_response()
}

/// The one value of `name` in `headers`: `Err` when it is given twice.
fn single<'a>(
    headers: &'a HeaderMap,
    name: &header::HeaderName,
) -> Result<Option<&'a HeaderValue>, ()> {
    let mut all = headers.get_all(name).iter();
    let first = all.next();
    match all.next() {
        Some(_) => Err(()),
        None => Ok(first),
    }
}

/// Refuses a request whose `Host`, `Origin`, `Sec-Fetch-Site` or `Content-Type` is not
/// what the person's own page sends (403, 400 or 415), else passes it on.
/// `port` is the server's own (0: not known yet, any port).
pub async fn check(State(port): State<u16>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let Ok(host) = single(headers, &header::HOST) else {
        return ApiError::bad("two Host headers: a request names one host").into_response();
    };
    let host = host.and_then(|h| h.to_str().ok()).unwrap_or("");
    if !host_allowed(host, (port != 0).then_some(port)) {
        return refuse(format!(
            "Host {} refused: this server answers to localhost or an IP address, at its own \
             port, only (a page reaching it through another name is refused)",
            shown(host)
        ));
    }
    if req.method() == Method::GET || req.method() == Method::HEAD {
        return next.run(req).await;
    }
    let own = format!("http://{host}");
    match single(headers, &header::ORIGIN) {
        Err(()) => return refuse("two Origin headers refused".into()),
        Ok(Some(origin)) if origin.to_str().ok() != Some(own.as_str()) => {
            let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
            return refuse(format!(
                "Origin {} refused: only this server's own page ({own}) may change its games",
                shown(&origin)
            ));
        }
        _ => {}
    }
    let site = headers
        .get("sec-fetch-site")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).to_ascii_lowercase());
    if let Some(site) = site.filter(|s| s != "same-origin" && s != "none") {
        return refuse(format!(
            "Sec-Fetch-Site {} refused: only this server's own page may change its games",
            shown(&site)
        ));
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request that changes something must say Content-Type: application/json \
             (even with no body): another site's page cannot send that without asking first",
        )
        .into_response();
    }
    next.run(req).await
}

/// Reads the body within [`BODY_TIMEOUT`] (408 for a client that sends it too slowly),
/// and at most one byte past the route's cap (the route refuses it by size: 413).
pub async fn read_body_in_time(req: Request, next: Next) -> Response {
    let (parts, mut body) = req.into_parts();
    let cap = body_cap(parts.uri.path());
    let read = async {
        let mut bytes = Vec::new();
        while bytes.len() <= cap {
            match poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
                None => break,
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        bytes.extend_from_slice(&data);
                    }
                }
                Some(Err(e)) => return Err(e),
            }
        }
        Ok(bytes)
    };
    match tokio::time::timeout(BODY_TIMEOUT, read).await {
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )
        .into_response(),
        Ok(Err(e)) => {
            ApiError::bad(format!("the request's body could not be read: {e}")).into_response()
        }
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}

/// `X-Content-Type-Options: nosniff` on every answer: a browser takes each as the type
/// it says it is.
pub async fn nosniff(req: Request, next: Next) -> Response {
    let mut resp = next.run(req).await;
    resp.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    resp
}
