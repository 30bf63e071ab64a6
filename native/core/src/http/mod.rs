//! The one HTTP router of Debugger MCP (SPEC §2), served by the sidecar over a loopback socket
//! and by the IDE plugin over JNI (the Kotlin handler relays raw requests into it with
//! `tower::ServiceExt::oneshot`, so nothing here depends on a socket or a peer address).
//!
//! Paths:
//! - `/debugger-mcp` — Streamable HTTP (POST/GET/DELETE) via rmcp's `StreamableHttpService`,
//!   serving both protocol eras on one endpoint: initialize-era revisions 2024-11-05 …
//!   2025-11-25 get sessions (`Mcp-Session-Id`); requests carrying the 2026-07-28 per-request
//!   `_meta` (and `server/discover`) are served statelessly with the `Mcp-Method`/`Mcp-Name`
//!   header checks rmcp implements. Change notifications: initialize-era sessions get them on the
//!   GET stream after `resources/subscribe`; 2026-07-28 clients on a `subscriptions/listen`
//!   response stream ([`listen`] checks its parameters first).
//! - `GET /debugger-mcp/sse` + `POST /debugger-mcp/message?sessionId=…` — the legacy HTTP+SSE
//!   transport of 2024-11-05 ([`legacy_sse`]); rmcp has no server for it.
//!
//! Every path sits behind [`security`]: loopback `Host`, loopback-or-absent `Origin`, optional
//! bearer token, request body limit. The loopback *bind* is the host's job (the sidecar refuses
//! a non-loopback `--listen`; the IDE's built-in server is loopback already).
//!
//! Usage (sidecar and JNI alike):
//! ```text
//! let app: axum::Router = debugger_mcp_core::http::router(engine.handler(), &config.http);
//! // sidecar: axum::serve(listener, app)
//! // JNI:     app.oneshot(request).await  (tower::ServiceExt)
//! ```
//! Use [`router_with`] to pass a cancellation token that ends every session and stream on
//! shutdown.

pub mod legacy_sse;
pub mod listen;
pub mod security;
pub mod sessions;

use crate::config::HttpConfig;
use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use http::StatusCode;
pub use listen::ListenPolicy;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The MCP endpoint path, shared by the sidecar and the IDE's built-in server.
pub const MCP_PATH: &str = "/debugger-mcp";
/// Legacy HTTP+SSE stream path.
pub const SSE_PATH: &str = "/debugger-mcp/sse";
/// Legacy HTTP+SSE message (POST) path; the `endpoint` event names it with `?sessionId=`.
pub const MESSAGE_PATH: &str = "/debugger-mcp/message";

/// Options of [`router_with`]. Built from the settings file's `[http]` table plus what only the
/// host knows (its shutdown token).
#[derive(Debug, Clone)]
pub struct RouterOptions {
    /// Optional bearer token required on every request (`Authorization: Bearer …`).
    pub token: Option<String>,
    /// Request body limit in bytes (→ 413).
    pub max_body_bytes: usize,
    /// Initialize-era MCP sessions at most (see [`sessions`]).
    pub max_sessions: usize,
    /// Time a client has to send a request body (→ 408 and the connection closed).
    pub body_timeout: Duration,
    /// Cancelled on shutdown: ends every MCP session and SSE stream.
    pub cancel: CancellationToken,
    /// Keep-alive comment interval on SSE streams (both transports).
    pub sse_keep_alive: Duration,
    /// How long an initialize-era MCP session may stay without a request before it expires.
    pub session_idle: Duration,
    /// When set, the token is read from here on every request instead of `token`, so a host
    /// that reloads its settings (the IDE watches its settings file; the installer writes the
    /// token into it) enforces a new token at once.
    pub live_token: Option<LiveToken>,
}

/// A bearer token the host can change while the router runs.
pub type LiveToken = Arc<std::sync::RwLock<Option<String>>>;

impl RouterOptions {
    pub fn from_config(config: &HttpConfig) -> Self {
        Self {
            token: config.token.clone().filter(|t| !t.is_empty()),
            max_body_bytes: config.max_body_bytes,
            max_sessions: config.max_sessions,
            body_timeout: Duration::from_millis(config.read_timeout_ms),
            cancel: CancellationToken::new(),
            sse_keep_alive: Duration::from_secs(15),
            session_idle: Duration::from_millis(config.session_idle_ms),
            live_token: None,
        }
    }
}

/// Builds the router for `handler` with the settings of `config` (no shutdown token; see
/// [`router_with`]).
pub fn router<S>(handler: S, config: &HttpConfig) -> Router
where
    S: rmcp::ServerHandler + ListenPolicy + Clone + Send + Sync + 'static,
{
    router_with(handler, RouterOptions::from_config(config))
}

/// Builds the router for `handler` with explicit options.
pub fn router_with<S>(handler: S, options: RouterOptions) -> Router
where
    S: rmcp::ServerHandler + ListenPolicy + Clone + Send + Sync + 'static,
{
    let streamable_config = StreamableHttpServerConfig::default()
        // Sessions for the initialize era; 2026-07-28 requests are stateless regardless.
        .with_legacy_session_mode(true)
        .with_sse_keep_alive(Some(options.sse_keep_alive))
        .with_cancellation_token(options.cancel.clone())
        .with_max_request_body_bytes(options.max_body_bytes)
        // Our own middleware already enforces these for every path (with clearer bodies);
        // rmcp's checks stay on as a second line of defence with the same policy.
        .with_allowed_hosts(["localhost", "127.0.0.1", "::1"])
        .with_allowed_origins([
            "http://localhost:*",
            "http://127.0.0.1:*",
            "http://[::1]:*",
            "https://localhost:*",
            "https://127.0.0.1:*",
            "https://[::1]:*",
        ]);
    let factory_handler = handler.clone();
    let policy = handler.clone();
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(options.session_idle);
    let manager = Arc::new(manager);
    let cap = sessions::SessionCap::new(manager.clone(), options.max_sessions);
    let streamable = StreamableHttpService::new(
        move || Ok(factory_handler.clone()),
        manager,
        streamable_config,
    );
    let streamable = Arc::new(streamable);

    let legacy = legacy_sse::LegacySse::new(
        handler,
        options.cancel.clone(),
        options.sse_keep_alive,
        options.max_body_bytes,
    )
    .with_limits(options.max_sessions, options.body_timeout);

    let limits = Limits {
        max_body: options.max_body_bytes,
        body_timeout: options.body_timeout,
    };
    Router::new()
        .route(
            MCP_PATH,
            axum::routing::any(move |req: Request| {
                let service = streamable.clone();
                let policy = policy.clone();
                let cap = cap.clone();
                async move { streamable_http(&service, &policy, &cap, req, limits).await }
            }),
        )
        .route(SSE_PATH, axum::routing::get(legacy_sse::sse_get::<S>))
        .route(
            MESSAGE_PATH,
            axum::routing::post(legacy_sse::message_post::<S>),
        )
        .with_state(legacy)
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(
                security::Security::new(options.token, options.max_body_bytes)
                    .with_live_token(options.live_token),
            ),
            security::guard,
        ))
}

#[derive(Clone, Copy)]
struct Limits {
    max_body: usize,
    body_timeout: Duration,
}

/// Reads a request body within the size limit and the time limit; the error is the response
/// (413, or 408 with `Connection: close`: the rest of a slow body must not be read as the next
/// request).
pub(crate) async fn read_body(
    body: Body,
    max: usize,
    timeout: Duration,
) -> Result<Bytes, Response> {
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, max)).await {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(_)) => Err(security::closing(security::too_large(max))),
        Err(_) => Err(security::closing(error_response(
            StatusCode::REQUEST_TIMEOUT,
            "body_timeout",
            format!(
                "the request body did not arrive within {} ms (setting http.read_timeout_ms)",
                timeout.as_millis()
            ),
        ))),
    }
}

/// Short JSON error body: `{"error": code, "message": text}`.
pub(crate) fn error_response(
    status: StatusCode,
    code: &str,
    message: impl Into<String>,
) -> Response {
    let body = serde_json::json!({ "error": code, "message": message.into() });
    (
        status,
        [(http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A JSON-RPC error object with HTTP status (malformed bodies).
pub(crate) fn jsonrpc_error_response(
    status: StatusCode,
    code: i64,
    message: impl Into<String>,
) -> Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message.into() }
    });
    (
        status,
        [(http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn not_found(req: Request) -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        "not_found",
        format!(
            "no route for {} {}; the MCP endpoint is {MCP_PATH} (legacy SSE: GET {SSE_PATH})",
            req.method(),
            req.uri().path()
        ),
    )
}

/// Streamable HTTP: buffers the (size-limited) POST body so that, when rmcp rejects it as
/// undeserializable, we can answer with a precise JSON-RPC error (parse error vs. wrong shape)
/// instead of rmcp's generic 415. The happy path parses once (inside rmcp); the diagnosis runs
/// only on failure.
async fn streamable_http<S>(
    service: &StreamableHttpService<S, LocalSessionManager>,
    policy: &(dyn ListenPolicy + Sync),
    cap: &Arc<sessions::SessionCap>,
    req: Request,
    limits: Limits,
) -> Response
where
    S: rmcp::ServerHandler + Send + 'static,
{
    let session = req
        .headers()
        .get(sessions::SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let is_delete = req.method() == http::Method::DELETE;
    let response =
        streamable_http_inner(service, policy, cap, req, limits, session.as_deref()).await;
    match session {
        Some(id) if is_delete => {
            cap.closed(&id);
            response
        }
        Some(id) => cap.track(&id, response),
        None => response,
    }
}

async fn streamable_http_inner<S>(
    service: &StreamableHttpService<S, LocalSessionManager>,
    policy: &(dyn ListenPolicy + Sync),
    cap: &Arc<sessions::SessionCap>,
    req: Request,
    limits: Limits,
    session: Option<&str>,
) -> Response
where
    S: rmcp::ServerHandler + Send + 'static,
{
    let sessionless = session.is_none();
    if let Some(refused) = listen::stateless_get_or_delete(req.method(), req.headers()) {
        return refused;
    }
    // rmcp acknowledges the DELETE of any id, open or not.
    if req.method() == http::Method::DELETE
        && let Some(id) = session
        && !cap.is_open(id).await
    {
        return cap.unknown(id);
    }
    if req.method() == http::Method::DELETE {
        // rmcp acknowledges a session DELETE with 202; clients (the Python SDK, for one) treat
        // only 200/204 as "terminated" and log a failure otherwise. The session is gone either
        // way, so say so plainly.
        let mut response = service.handle(req).await.into_response();
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        return response;
    }
    if req.method() != http::Method::POST {
        let response = service.handle(req).await.into_response();
        return match session {
            Some(id) if response.status() == StatusCode::NOT_FOUND => cap.unknown(id),
            _ => response,
        };
    }
    // rmcp answers both a wrong Content-Type and an undeserializable body with a bare 415; with
    // a JSON content type only the latter is possible.
    let json_content_type = req
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        })
        .unwrap_or(false);
    let (parts, body) = req.into_parts();
    let bytes = match read_body(body, limits.max_body, limits.body_timeout).await {
        Ok(b) => b,
        Err(response) => return response,
    };
    if listen::may_concern(&bytes)
        && let Some(answer) = listen::check_post(&bytes, &parts.headers, policy)
    {
        return answer;
    }
    // An initialize-era `initialize` creates a session: make room under the cap first.
    let initialize = sessionless && is_initialize(&bytes);
    if initialize && let Err(refused) = cap.admit().await {
        return refused;
    }
    let req = Request::from_parts(parts, Body::from(bytes.clone()));
    let response = service.handle(req).await;
    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE && json_content_type {
        return diagnose_body(&bytes);
    }
    // rmcp's "Not Found: Session not found" says neither why nor what to do.
    if response.status() == StatusCode::NOT_FOUND
        && let Some(id) = session
        && !cap.is_open(id).await
    {
        return cap.unknown(id);
    }
    if initialize {
        cap.created(response.headers());
    }
    response.into_response()
}

/// `{"method": "initialize", ...}` (parsed only for requests without a session).
fn is_initialize(bytes: &Bytes) -> bool {
    #[derive(serde::Deserialize)]
    struct Method<'a> {
        #[serde(borrow)]
        method: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Method>(bytes)
        .ok()
        .and_then(|m| m.method)
        .is_some_and(|m| m == "initialize")
}

/// Explains why a body is not a JSON-RPC message the server accepts.
pub(crate) fn diagnose_body(bytes: &Bytes) -> Response {
    let value: serde_json::Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            let (code, message) = unparsable(bytes, &e, "body is not valid JSON");
            return jsonrpc_error_response(StatusCode::BAD_REQUEST, code, message);
        }
    };
    let problem = invalid_request_problem(&value);
    jsonrpc_error_response(
        StatusCode::BAD_REQUEST,
        -32600,
        format!("Invalid Request: {problem}"),
    )
}

/// The JSON-RPC error for a message serde_json cannot parse (also used by stdio). Valid JSON
/// with a number no 64-bit float holds (`"line": 1e400`) names the field that holds it, as
/// any other bad argument does, rather than a column; anything else is -32700 with `what`.
pub(crate) fn unparsable(bytes: &[u8], e: &serde_json::Error, what: &str) -> (i64, String) {
    if e.to_string().starts_with("number out of range")
        && let Err(found) = serde_path_to_error::deserialize::<_, serde_json::Value>(
            &mut serde_json::Deserializer::from_slice(bytes),
        )
        && found.inner().to_string().starts_with("number out of range")
    {
        use serde_path_to_error::Segment;
        let path = found.path().to_string();
        let field = found
            .path()
            .iter()
            .filter_map(|s| match s {
                Segment::Map { key } => Some(key.as_str()),
                _ => None,
            })
            .next_back()
            .unwrap_or(&path);
        let field: String = field.chars().take(80).collect();
        let code = if path.starts_with("params") {
            -32602
        } else {
            -32600
        };
        return (
            code,
            format!(
                "Invalid {}: field '{field}' ({}): the number is beyond what a 64-bit float holds (±1.8e308); send a number in the field's range",
                if code == -32602 { "params" } else { "Request" },
                path.chars().take(200).collect::<String>()
            ),
        );
    }
    (-32700, format!("Parse error: {what} ({e})"))
}

/// Why a JSON value is not a JSON-RPC message this server accepts (also used by stdio).
pub(crate) fn invalid_request_problem(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Array(_) => {
            "JSON-RPC batches (arrays) are not supported; send one message per request".to_string()
        }
        serde_json::Value::Object(map) => {
            if map.get("jsonrpc").and_then(|v| v.as_str()) != Some("2.0") {
                "\"jsonrpc\" must be \"2.0\"".to_string()
            } else if let Some(method) = map.get("method") {
                match method.as_str() {
                    None => "\"method\" must be a string".to_string(),
                    Some(m) => match map.get("id") {
                        Some(id) if !(id.is_string() || id.is_i64() || id.is_u64()) => {
                            "\"id\" must be a string or an integer".to_string()
                        }
                        _ => format!(
                            "params of \"{m}\" do not match the MCP schema, or the method is not a known MCP method"
                        ),
                    },
                }
            } else if map.contains_key("result") || map.contains_key("error") {
                "response object has a malformed \"id\", \"result\" or \"error\"".to_string()
            } else {
                "object is neither a request, a notification nor a response (no \"method\", \"result\" or \"error\")".to_string()
            }
        }
        other => format!("expected a JSON-RPC object, got {}", json_kind(other)),
    }
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
