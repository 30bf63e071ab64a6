//! The cap on initialize-era MCP sessions (`http.max_sessions`). Each session costs ~57 KB
//! (rmcp's worker, channels, our handler clone), and any local client can open thousands; rmcp
//! only ends a session after 5 minutes without requests.
//!
//! At the cap, a new `initialize` evicts the session idle longest (no request in flight, no open
//! stream), and only when every session is busy is it refused, with a JSON-RPC error saying so
//! and naming the setting. Activity is what this router sees: every request carrying an
//! `Mcp-Session-Id` counts from its start until its response body ends (so an open GET stream
//! keeps its session busy).

use super::jsonrpc_error_response;
use axum::body::Body;
use axum::response::Response;
use bytes::Bytes;
use http::{HeaderMap, StatusCode};
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

pub const SESSION_HEADER: &str = "mcp-session-id";

#[derive(Clone, Copy)]
struct Activity {
    last: Instant,
    busy: usize,
}

pub struct SessionCap {
    manager: Arc<LocalSessionManager>,
    max: usize,
    activity: Mutex<HashMap<String, Activity>>,
    /// Ids evicted for the cap, newest last (bounded): a client that comes back with one is
    /// told why its session is gone.
    evicted: Mutex<std::collections::VecDeque<String>>,
}

/// Evicted ids remembered (~40 bytes each).
const EVICTED_KEPT: usize = 1024;

impl SessionCap {
    pub fn new(manager: Arc<LocalSessionManager>, max: usize) -> Arc<Self> {
        Arc::new(Self {
            manager,
            max: max.max(1),
            activity: Mutex::default(),
            evicted: Mutex::default(),
        })
    }

    /// Whether `id` names a session that is open now.
    pub async fn is_open(&self, id: &str) -> bool {
        self.manager
            .sessions
            .read()
            .await
            .keys()
            .any(|k| **k == *id)
    }

    /// The answer to a request naming a session that is not open: 404 (MCP transport,
    /// "Session Management": after the server ends a session it MUST answer requests with its
    /// id with 404 Not Found), saying whether the cap evicted it and what to do.
    pub fn unknown(&self, id: &str) -> Response {
        let evicted = self
            .evicted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|e| e == id);
        let shown: String = id.chars().take(64).collect();
        jsonrpc_error_response(
            StatusCode::NOT_FOUND,
            -32001,
            if evicted {
                format!(
                    "MCP session '{shown}' was evicted: the server holds at most http.max_sessions = {} sessions and closed this one, idle longest, to admit a new client. Send initialize again (without Mcp-Session-Id) to start a new session",
                    self.max
                )
            } else {
                format!(
                    "MCP session '{shown}' is not open (never opened, closed with DELETE, or expired). Send initialize again (without Mcp-Session-Id) to start a new session"
                )
            },
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Activity>> {
        self.activity.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Before an `initialize` creates a session: makes room, or answers the refusal.
    pub async fn admit(&self) -> Result<(), Response> {
        let ids: Vec<String> = self
            .manager
            .sessions
            .read()
            .await
            .keys()
            .map(|k| k.to_string())
            .collect();
        if ids.len() < self.max {
            return Ok(());
        }
        let victims: Vec<String> = {
            let mut activity = self.lock();
            activity.retain(|id, _| ids.contains(id));
            let mut idle: Vec<(Instant, &String)> = ids
                .iter()
                .filter_map(|id| match activity.get(id) {
                    Some(a) if a.busy > 0 => None,
                    Some(a) => Some((a.last, id)),
                    // Created before we saw it answer (or never initialised): idle since forever.
                    None => Some((
                        Instant::now() - std::time::Duration::from_secs(3600 * 24),
                        id,
                    )),
                })
                .collect();
            idle.sort();
            idle.into_iter()
                .take(ids.len() + 1 - self.max)
                .map(|(_, id)| id.clone())
                .collect()
        };
        if ids.len() + 1 - victims.len() > self.max {
            return Err(refusal(ids.len(), self.max));
        }
        for id in victims {
            tracing::info!(session = %id, max = self.max, "evicting the MCP session idle longest to admit a new one (http.max_sessions)");
            self.lock().remove(&id);
            {
                let mut evicted = self.evicted.lock().unwrap_or_else(|e| e.into_inner());
                if evicted.len() >= EVICTED_KEPT {
                    evicted.pop_front();
                }
                evicted.push_back(id.clone());
            }
            let _ = self.manager.close_session(&id.clone().into()).await;
        }
        Ok(())
    }

    /// A response that created a session (its `Mcp-Session-Id` header) starts its activity.
    pub fn created(&self, headers: &HeaderMap) {
        if let Some(id) = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()) {
            self.lock().insert(
                id.to_string(),
                Activity {
                    last: Instant::now(),
                    busy: 0,
                },
            );
        }
    }

    pub fn closed(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Marks the session busy until the returned response's body ends.
    pub fn track(self: &Arc<Self>, id: &str, response: Response) -> Response {
        {
            let mut activity = self.lock();
            // Unknown ids (rmcp answers 404) are not recorded.
            let Some(a) = activity.get_mut(id) else {
                return response;
            };
            a.busy += 1;
            a.last = Instant::now();
        }
        let guard = Busy {
            cap: self.clone(),
            id: id.to_string(),
        };
        response.map(|body| {
            Body::new(Tracked {
                body,
                _guard: guard,
            })
        })
    }

    /// Sessions this cap knows about (tests).
    pub fn tracked(&self) -> usize {
        self.lock().len()
    }
}

fn refusal(open: usize, max: usize) -> Response {
    let mut r = jsonrpc_error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        -32000,
        format!(
            "too many MCP sessions: {open} are open (limit http.max_sessions = {max}) and none is idle (each has a request or stream open), so none was evicted for this one. Close unused clients (DELETE with their Mcp-Session-Id), retry later, or raise http.max_sessions in the settings"
        ),
    );
    r.headers_mut().insert(
        http::header::RETRY_AFTER,
        http::HeaderValue::from_static("5"),
    );
    r
}

struct Busy {
    cap: Arc<SessionCap>,
    id: String,
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(a) = self.cap.lock().get_mut(&self.id) {
            a.busy = a.busy.saturating_sub(1);
            a.last = Instant::now();
        }
    }
}

struct Tracked {
    body: Body,
    _guard: Busy,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}
