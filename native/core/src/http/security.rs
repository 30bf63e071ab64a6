//! Security middleware in front of every HTTP path (SPEC §2): any local web page must not be
//! able to drive the debugger.
//!
//! Order of checks, each answering a short JSON body naming what was wrong:
//! 0. One `Host` and at most one `Origin` (RFC 9112 §3.2: a duplicate Host is a 400; a second
//!    Origin could otherwise hide behind a loopback first one) → else 400. An absolute-form
//!    target (`POST http://host/debugger-mcp`) names the host that counts (RFC 9112 §3.2.2):
//!    its authority is checked like `Host` and must agree with it.
//! 1. `Host` must be a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port) → else 403.
//!    Defeats DNS rebinding: a rebound attacker domain still sends its own name as Host.
//! 2. A present `Origin` must be loopback (`http(s)://localhost|127.0.0.1|[::1]`, any port) → else
//!    403. Defeats cross-site POSTs from browsers (which always send Origin on them).
//! 3. Bearer token, when configured → 401 with `WWW-Authenticate: Bearer`.
//! 4. Declared `Content-Length` over the limit → 413 (bodies without a length are limited while
//!    being read by the handlers, same 413).
//!
//! Every refusal here is sent before the request body is read, so it carries `Connection: close`:
//! the unread body would otherwise be taken for the next request on a keep-alive connection,
//! and a client that reuses the connection would fail its next request.
//!
//! Nothing here uses the peer address, so the same checks apply over JNI (where the Kotlin
//! handler relays every header line, duplicates included).

use super::error_response;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode, header};
use std::sync::Arc;

pub struct Security {
    token: Option<String>,
    live_token: Option<super::LiveToken>,
    max_body_bytes: usize,
}

impl Security {
    pub fn new(token: Option<String>, max_body_bytes: usize) -> Self {
        Self {
            token,
            live_token: None,
            max_body_bytes,
        }
    }

    /// Reads the token from `live` on every request (see `RouterOptions::live_token`).
    pub fn with_live_token(mut self, live: Option<super::LiveToken>) -> Self {
        self.live_token = live;
        self
    }
}

pub async fn guard(State(sec): State<Arc<Security>>, req: Request, next: Next) -> Response {
    if let Err(response) = check(&sec, req.uri(), req.headers()) {
        return closing(response);
    }
    next.run(req).await
}

/// `response` with `Connection: close` (see module docs).
pub fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, http::HeaderValue::from_static("close"));
    response
}

// The error is the refusal sent as is, once per refused request; boxing it would cost an
// allocation there and save nothing on the accepted path (`Ok(())` is returned by value once).
#[allow(clippy::result_large_err)]
fn check(sec: &Security, uri: &http::Uri, headers: &HeaderMap) -> Result<(), Response> {
    // 0. Duplicates.
    for (name, what) in [(header::HOST, "Host"), (header::ORIGIN, "Origin")] {
        if headers.get_all(&name).iter().count() > 1 {
            return Err(error_response(
                StatusCode::BAD_REQUEST,
                "duplicate_header",
                format!("the request has more than one {what} header; send exactly one"),
            ));
        }
    }
    // An absolute-form target's authority is the host that counts; it must be loopback and
    // agree with Host. (HTTP/2 carries only the URI authority, no Host header.)
    if let (Some(authority), Some(h)) = (uri.authority(), headers.get(header::HOST)) {
        let same = h
            .to_str()
            .is_ok_and(|h| h.eq_ignore_ascii_case(authority.as_str()));
        if !authority_is_loopback(authority.as_str()) || !same {
            return Err(error_response(
                StatusCode::BAD_REQUEST,
                "bad_request_target",
                format!(
                    "the request target names host '{}' but Host is '{}'; send the path only (origin-form, e.g. POST /debugger-mcp)",
                    authority.as_str().chars().take(80).collect::<String>(),
                    h.to_str()
                        .unwrap_or("<non-text>")
                        .chars()
                        .take(80)
                        .collect::<String>()
                ),
            ));
        }
    }
    // 1. Host (HTTP/2 may carry it only as the URI authority).
    let host = match headers.get(header::HOST) {
        Some(v) => v.to_str().map(str::to_owned).map_err(|_| {
            error_response(
                StatusCode::BAD_REQUEST,
                "bad_host",
                "Host header is not valid text",
            )
        })?,
        None => match uri.authority() {
            Some(a) => a.as_str().to_owned(),
            None => {
                return Err(error_response(
                    StatusCode::BAD_REQUEST,
                    "missing_host",
                    "Host header is required (use localhost, 127.0.0.1 or [::1])",
                ));
            }
        },
    };
    if !authority_is_loopback(&host) {
        let host: String = host.chars().take(80).collect();
        return Err(error_response(
            StatusCode::FORBIDDEN,
            "forbidden_host",
            format!(
                "Host '{host}' is not allowed: only localhost, 127.0.0.1 and [::1] are accepted (DNS rebinding protection)"
            ),
        ));
    }
    // 2. Origin, when present.
    if let Some(origin) = headers.get(header::ORIGIN) {
        let text = origin.to_str().unwrap_or("<non-text>");
        if !origin_is_loopback(text) {
            let text: String = text.chars().take(80).collect();
            return Err(error_response(
                StatusCode::FORBIDDEN,
                "forbidden_origin",
                format!(
                    "Origin '{text}' is not allowed: only loopback origins (localhost, 127.0.0.1, [::1]) may call this server"
                ),
            ));
        }
    }
    // 3. Bearer token.
    let live = sec
        .live_token
        .as_ref()
        .map(|l| l.read().unwrap_or_else(|e| e.into_inner()));
    let expected = match &live {
        Some(guard) => guard.as_ref().filter(|t| !t.is_empty()),
        None => sec.token.as_ref(),
    };
    if let Some(expected) = expected {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            });
        let (code, message, challenge) = match presented {
            None => (
                "missing_token",
                "this server requires 'Authorization: Bearer <token>' (the token is in the debugger-mcp settings)",
                "Bearer realm=\"debugger-mcp\"",
            ),
            Some(t) if !constant_time_eq(t.as_bytes(), expected.as_bytes()) => (
                "invalid_token",
                "the bearer token is wrong",
                "Bearer realm=\"debugger-mcp\", error=\"invalid_token\"",
            ),
            Some(_) => ("", "", ""),
        };
        if !code.is_empty() {
            let mut response = error_response(StatusCode::UNAUTHORIZED, code, message);
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                http::HeaderValue::from_static(challenge),
            );
            return Err(response);
        }
    }
    // 4. Declared body size.
    if let Some(len) = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        && len > sec.max_body_bytes as u64
    {
        return Err(too_large(sec.max_body_bytes));
    }
    Ok(())
}

/// 413 with the configured limit.
pub fn too_large(limit: usize) -> Response {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        format!("request body exceeds the limit of {limit} bytes (setting http.max_body_bytes)"),
    )
    .into_response()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    // Length leaks, contents do not; tokens are fixed-length random strings in practice.
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `host[:port]` where host is a loopback name.
pub fn authority_is_loopback(authority: &str) -> bool {
    let Ok(a) = authority.parse::<http::uri::Authority>() else {
        return false;
    };
    if a.as_str().contains('@') {
        return false; // userinfo is not valid in Host
    }
    host_is_loopback(a.host())
}

fn host_is_loopback(host: &str) -> bool {
    let h = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    h == "localhost" || h == "127.0.0.1" || h == "::1"
}

/// `scheme://host[:port]` with http/https and a loopback host. `null` (opaque origins, e.g.
/// sandboxed iframes or file:// pages) is refused.
pub fn origin_is_loopback(origin: &str) -> bool {
    let Ok(uri) = origin.trim().parse::<http::Uri>() else {
        return false;
    };
    let scheme_ok = matches!(uri.scheme_str(), Some("http") | Some("https"));
    let path_ok = uri.path() == "/" || uri.path().is_empty();
    scheme_ok
        && path_ok
        && uri
            .authority()
            .is_some_and(|a| authority_is_loopback(a.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1",
            "127.0.0.1:1",
            "[::1]",
            "[::1]:63342",
            "LOCALHOST:1",
        ] {
            assert!(authority_is_loopback(ok), "{ok}");
        }
        for bad in [
            "evil.com",
            "127.0.0.1.evil.com",
            "localhost.evil.com:80",
            "10.0.0.1",
            "0.0.0.0:80",
            "",
            "user@localhost",
            "127.0.0.2",
        ] {
            assert!(!authority_is_loopback(bad), "{bad}");
        }
    }

    #[test]
    fn loopback_origins() {
        for ok in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:9",
        ] {
            assert!(origin_is_loopback(ok), "{ok}");
        }
        for bad in [
            "null",
            "http://evil.com",
            "http://localhost.evil.com",
            "file://localhost",
            "chrome-extension://abc",
            "http://127.0.0.1.nip.io",
        ] {
            assert!(!origin_is_loopback(bad), "{bad}");
        }
    }
}
