//! Legacy HTTP+SSE transport (MCP 2024-11-05), which rmcp 3.9 does not serve. Some clients
//! (Cline's default, older SDKs) still use it.
//!
//! - `GET /debugger-mcp/sse` opens a stream. Its first event is `endpoint`, whose data is the
//!   URL to POST messages to: `/debugger-mcp/message?sessionId=<id>` (relative, so it works
//!   behind the IDE's built-in server as well as on the sidecar's port).
//! - `POST /debugger-mcp/message?sessionId=<id>` takes one JSON-RPC message and answers
//!   `202 Accepted`; the reply travels as a `message` event on the stream. An unknown or ended
//!   session id gets 404 with a JSON body saying so; a missing one gets 400.
//! - Closing the stream (client disconnect) or server shutdown ends the MCP session.
//!
//! The MCP session itself is rmcp's ordinary server loop over a transport built from two
//! channels (a `Sink`/`Stream` pair, rmcp's `SinkStreamTransport`): POSTs feed the stream, the
//! sink feeds the SSE response.

use super::{MESSAGE_PATH, diagnose_body, error_response};
use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use http::StatusCode;
use rmcp::ServiceExt;
use rmcp::model::{ClientJsonRpcMessage, GetExtensions, ServerJsonRpcMessage};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;

/// Messages a client may queue on one session before its POSTs wait.
const INBOUND_CAPACITY: usize = 64;
/// Messages the server may queue before the SSE writer catches up.
const OUTBOUND_CAPACITY: usize = 64;

type Sessions = Arc<Mutex<HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>>>;

/// Router state of the legacy transport.
pub struct LegacySse<S> {
    handler: S,
    sessions: Sessions,
    cancel: CancellationToken,
    keep_alive: Duration,
    max_body_bytes: usize,
    max_sessions: usize,
    body_timeout: Duration,
}

impl<S: Clone> Clone for LegacySse<S> {
    fn clone(&self) -> Self {
        Self {
            handler: self.handler.clone(),
            sessions: self.sessions.clone(),
            cancel: self.cancel.clone(),
            keep_alive: self.keep_alive,
            max_body_bytes: self.max_body_bytes,
            max_sessions: self.max_sessions,
            body_timeout: self.body_timeout,
        }
    }
}

impl<S> LegacySse<S> {
    pub fn new(
        handler: S,
        cancel: CancellationToken,
        keep_alive: Duration,
        max_body_bytes: usize,
    ) -> Self {
        Self {
            handler,
            sessions: Arc::default(),
            cancel,
            keep_alive,
            max_body_bytes,
            max_sessions: usize::MAX,
            body_timeout: Duration::from_secs(10),
        }
    }

    /// Open streams at most (each is a session; refused beyond, they cannot be evicted: an
    /// open stream is a client listening), and the time a POST body may take.
    pub fn with_limits(mut self, max_sessions: usize, body_timeout: Duration) -> Self {
        self.max_sessions = max_sessions;
        self.body_timeout = body_timeout;
        self
    }

    /// Number of open legacy sessions (tests, diagnostics).
    pub fn session_count(&self) -> usize {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }
}

/// Removes the session from the table when dropped and cancels its MCP loop. Held by the SSE
/// body, so a client disconnect (body dropped) ends the session.
struct SessionGuard {
    id: String,
    sessions: Sessions,
    cancel: CancellationToken,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.cancel.cancel();
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

pub async fn sse_get<S>(State(state): State<LegacySse<S>>) -> Response
where
    S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    let open = state.session_count();
    if open >= state.max_sessions {
        let mut r = error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_sessions",
            format!(
                "too many legacy SSE sessions: {open} streams are open (limit http.max_sessions = {}); close unused clients or raise http.max_sessions",
                state.max_sessions
            ),
        );
        r.headers_mut().insert(
            http::header::RETRY_AFTER,
            http::HeaderValue::from_static("5"),
        );
        return r;
    }
    let id = uuid::Uuid::new_v4().simple().to_string();
    let (in_tx, in_rx) = mpsc::channel::<ClientJsonRpcMessage>(INBOUND_CAPACITY);
    let (out_tx, out_rx) =
        futures::channel::mpsc::channel::<ServerJsonRpcMessage>(OUTBOUND_CAPACITY);
    state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.clone(), in_tx);

    let session_ct = state.cancel.child_token();
    let guard = SessionGuard {
        id: id.clone(),
        sessions: state.sessions.clone(),
        cancel: session_ct.clone(),
    };

    // The MCP session: rmcp's server loop over (Sink = outbound channel, Stream = POSTed messages).
    let handler = state.handler.clone();
    let sessions = state.sessions.clone();
    let loop_id = id.clone();
    let loop_ct = session_ct.clone();
    tokio::spawn(async move {
        match handler
            .serve_with_ct((out_tx, ReceiverStream::new(in_rx)), loop_ct)
            .await
        {
            Ok(running) => {
                let _ = running.waiting().await;
            }
            Err(e) => {
                tracing::debug!(session = %loop_id, "legacy SSE session ended before initialize: {e}")
            }
        }
        sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&loop_id);
    });

    let endpoint = Event::default()
        .event("endpoint")
        .data(format!("{MESSAGE_PATH}?sessionId={id}"));
    let messages = out_rx.map(move |message| {
        let _keep = &guard; // lives as long as the response body
        let json = serde_json::to_string(&message).unwrap_or_else(|e| {
            format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32603,"message":"cannot serialize response: {e}"}}}}"#)
        });
        Ok::<_, Infallible>(Event::default().event("message").data(json))
    });
    let stream = futures::stream::once(async move { Ok::<_, Infallible>(endpoint) })
        .chain(messages)
        // Server shutdown ends the stream even while the client keeps it open.
        .take_until(session_ct.cancelled_owned());
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(state.keep_alive))
        .into_response();
    // Proxies (and the IDE relay) must not buffer the stream.
    response
        .headers_mut()
        .insert("x-accel-buffering", http::HeaderValue::from_static("no"));
    response
}

pub async fn message_post<S>(
    State(state): State<LegacySse<S>>,
    Query(query): Query<HashMap<String, String>>,
    req: Request,
) -> Response
where
    S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    let Some(id) = query.get("sessionId").filter(|s| !s.is_empty()) else {
        return error_response(
            StatusCode::BAD_REQUEST,
            "missing_session_id",
            "the sessionId query parameter is required: POST to the URL of the 'endpoint' event of GET /debugger-mcp/sse",
        );
    };
    // The body limit applies before anything else looks at the request.
    let (parts, body) = req.into_parts();
    let bytes =
        match super::read_body(Body::new(body), state.max_body_bytes, state.body_timeout).await {
            Ok(b) => b,
            Err(response) => return response,
        };
    let sender = state
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(id)
        .cloned();
    let Some(sender) = sender else {
        return unknown_session(id);
    };
    let mut message: ClientJsonRpcMessage = match serde_json::from_slice(&bytes) {
        Ok(m) => m,
        Err(_) => return diagnose_body(&bytes),
    };
    // Same as rmcp's Streamable HTTP service: handlers can read the HTTP parts.
    match &mut message {
        ClientJsonRpcMessage::Request(r) => {
            r.request.extensions_mut().insert(parts);
        }
        ClientJsonRpcMessage::Notification(n) => {
            n.notification.extensions_mut().insert(parts);
        }
        _ => {}
    }
    if sender.send(message).await.is_err() {
        return unknown_session(id);
    }
    (StatusCode::ACCEPTED, "Accepted").into_response()
}

fn unknown_session(id: &str) -> Response {
    error_response(
        StatusCode::NOT_FOUND,
        "unknown_session",
        format!(
            "no open legacy SSE session '{id}' (it was closed or never existed); open GET /debugger-mcp/sse for a new one"
        ),
    )
}
