//! One server's MCP session as the bridge holds it: a client message relayed (JSON or SSE
//! answers written back as they arrive), the client's `initialize` replayed to a further
//! server, and the session's standalone GET stream relayed outside any call.

use super::wire::{SseDecoder, send, stateless_headers, stateless_version};
use super::{Bridge, Failure, StreamRelay};
use debugger_mcp_core::discovery::Record;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// Tool calls cap their waits at 55 s server-side; this leaves room for the answer.
const CALL_TIMEOUT: Duration = Duration::from_secs(75);

impl Bridge {
    /// POSTs one message and relays every message of the answer to the client. Returns the
    /// messages that answered `id` (the caller may need them: initialize).
    pub(super) async fn exchange(
        &self,
        server: &Record,
        message: &Value,
    ) -> Result<Option<Value>, Failure> {
        let (session, protocol, extra) = if let Some(version) = stateless_version(message) {
            // No session: each 2026-07-28 request stands alone, its headers mirroring its body.
            (None, Some(version), stateless_headers(message))
        } else {
            let st = self.state.lock().await;
            let up = st.upstreams.get(&server.url);
            (
                up.and_then(|u| u.session.clone()),
                up.and_then(|u| u.protocol.clone()),
                Vec::new(),
            )
        };
        let body = message.to_string().into_bytes();
        let request = send(
            http::Method::POST,
            &server.url,
            server.token.as_deref(),
            session.as_deref(),
            protocol.as_deref(),
            &extra,
            body,
        );
        let resp = tokio::time::timeout(CALL_TIMEOUT, request)
            .await
            .map_err(|_| {
                Failure::Gone(format!(
                    "{} did not answer within {} s",
                    server.url,
                    CALL_TIMEOUT.as_secs()
                ))
            })?
            .map_err(|e| {
                Failure::Gone(format!(
                    "cannot reach {} ({}): {e:#}",
                    server.product, server.url
                ))
            })?;
        let status = resp.status();
        if let Some(sid) = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            let mut st = self.state.lock().await;
            st.upstreams.entry(server.url.clone()).or_default().session = Some(sid.to_owned());
        }
        if status == http::StatusCode::NOT_FOUND && session.is_some() {
            // The server restarted: our session is unknown there.
            return Err(Failure::Gone(format!(
                "{} no longer knows this session (restarted)",
                server.url
            )));
        }
        if status == http::StatusCode::UNAUTHORIZED {
            return Err(Failure::Status(format!(
                "{} refused the bearer token; run `debugger-mcp install` again so the agent and the server share the same token",
                server.url
            )));
        }
        if status == http::StatusCode::ACCEPTED {
            return Ok(None);
        }
        let is_sse = resp
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        let want_id = message.get("id").cloned();
        let mut answer = None;
        // Relays one message of the answer; keeps the one answering our request for the caller.
        let relay = |msg: Value,
                     pending: &mut Vec<(String, String)>,
                     answer: &mut Option<Value>| {
            if msg.get("method").is_some() && msg.get("id").is_some() {
                pending.push((msg["id"].to_string(), server.url.clone()));
            }
            if want_id.is_some() && msg.get("id") == want_id.as_ref() && msg.get("method").is_none()
            {
                *answer = Some(msg);
            } else {
                self.send(&msg);
            }
        };
        let mut body = resp.into_body();
        if !status.is_success() {
            let bytes = body
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(v) = serde_json::from_str::<Value>(&text)
                && v.get("jsonrpc").is_some()
            {
                return Ok(Some(v));
            }
            return Err(Failure::Status(format!(
                "{} answered HTTP {status}: {}",
                server.url,
                text.chars().take(300).collect::<String>()
            )));
        }
        let mut pending = Vec::new();
        if is_sse {
            let mut decoder = SseDecoder::default();
            loop {
                let frame = match tokio::time::timeout(CALL_TIMEOUT, body.frame()).await {
                    Err(_) => {
                        return Err(Failure::Cut(format!(
                            "{} stopped answering mid-call",
                            server.url
                        )));
                    }
                    Ok(None) => break,
                    Ok(Some(Err(e))) => {
                        return Err(Failure::Cut(format!(
                            "{} closed the stream mid-call: {e}",
                            server.url
                        )));
                    }
                    Ok(Some(Ok(f))) => f,
                };
                let Ok(chunk) = frame.into_data() else {
                    continue;
                };
                for data in decoder.push(&chunk) {
                    if let Ok(msg) = serde_json::from_str::<Value>(&data) {
                        relay(msg, &mut pending, &mut answer);
                    }
                }
                if answer.is_some() {
                    break;
                }
            }
            // A stream that ends before answering (the server died mid-call or mid-listen)
            // must not leave the client waiting for an answer that will never come.
            if want_id.is_some() && answer.is_none() {
                return Err(Failure::Cut(format!(
                    "{} closed the stream without answering",
                    server.url
                )));
            }
        } else {
            let bytes = body
                .collect()
                .await
                .map_err(|e| Failure::Gone(format!("{}: {e}", server.url)))?
                .to_bytes();
            if !bytes.is_empty() {
                let v: Value = serde_json::from_slice(&bytes).map_err(|e| {
                    Failure::Status(format!(
                        "{} answered something that is not JSON: {e}",
                        server.url
                    ))
                })?;
                for msg in if let Value::Array(a) = v { a } else { vec![v] } {
                    relay(msg, &mut pending, &mut answer);
                }
            }
        }
        if !pending.is_empty() {
            self.state
                .lock()
                .await
                .pending_server_requests
                .extend(pending);
        }
        Ok(answer)
    }

    /// Makes sure `server` has a session: replays the client's initialize (once).
    pub(super) async fn ensure_initialized(
        self: &Arc<Self>,
        server: &Record,
    ) -> Result<(), Failure> {
        let params = {
            let st = self.state.lock().await;
            if st.upstreams.get(&server.url).is_some_and(|u| u.initialized) {
                return Ok(());
            }
            st.init_params.clone().unwrap_or_else(|| {
                json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "debugger-mcp-stdio", "version": env!("CARGO_PKG_VERSION")}})
            })
        };
        let id = format!(
            "bridge-init-{}",
            self.next_id
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        );
        let answer = self
            .exchange(
                server,
                &json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": params}),
            )
            .await?;
        let protocol = answer
            .as_ref()
            .and_then(|a| a["result"]["protocolVersion"].as_str())
            .map(str::to_owned);
        if answer.as_ref().is_some_and(|a| a.get("error").is_some()) {
            return Err(Failure::Status(format!(
                "{} refused initialize: {}",
                server.url,
                answer.unwrap()["error"]
            )));
        }
        {
            let mut st = self.state.lock().await;
            let up = st.upstreams.entry(server.url.clone()).or_default();
            up.protocol = protocol;
            up.initialized = true;
        }
        self.exchange(
            server,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await?;
        self.open_stream(server).await;
        Ok(())
    }

    /// Opens `server`'s standalone GET stream for our session and relays every message on it
    /// to the client: notifications outside a call (resource updates after `resources/subscribe`)
    /// reach a stdio client only this way. Once per session; a server without the stream (405,
    /// or a 2026-07-28 answer) is simply not relayed from.
    pub(super) async fn open_stream(self: &Arc<Self>, server: &Record) {
        let (session, protocol) = {
            let st = self.state.lock().await;
            let Some(up) = st.upstreams.get(&server.url) else {
                return;
            };
            if up.stream.is_some() {
                return;
            }
            let Some(session) = up.session.clone() else {
                return;
            };
            (session, up.protocol.clone())
        };
        let bridge = Arc::downgrade(self);
        let url = server.url.clone();
        let server = server.clone();
        let task_session = session.clone();
        let task = tokio::spawn(async move {
            let session = task_session;
            let resp = match send(
                http::Method::GET,
                &server.url,
                server.token.as_deref(),
                Some(&session),
                protocol.as_deref(),
                &[],
                Vec::new(),
            )
            .await
            {
                Ok(r) if r.status().is_success() => r,
                Ok(r) => {
                    tracing::debug!(url = %server.url, status = %r.status(), "server has no standalone stream for this session");
                    return;
                }
                Err(e) => {
                    tracing::debug!(url = %server.url, "cannot open the standalone stream: {e:#}");
                    return;
                }
            };
            let mut body = resp.into_body();
            let mut decoder = SseDecoder::default();
            // No timeout: the stream is quiet until something changes (keep-alive comments
            // arrive meanwhile); it ends when the server or the session does.
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(chunk) = frame.into_data() else {
                    continue;
                };
                for data in decoder.push(&chunk) {
                    let Ok(msg) = serde_json::from_str::<Value>(&data) else {
                        continue;
                    };
                    // The bridge itself may be gone (stdin closed); then nobody listens.
                    let Some(bridge) = bridge.upgrade() else {
                        return;
                    };
                    if msg.get("method").is_some() && msg.get("id").is_some() {
                        bridge
                            .state
                            .lock()
                            .await
                            .pending_server_requests
                            .insert(msg["id"].to_string(), server.url.clone());
                    }
                    bridge.send(&msg);
                }
            }
            tracing::debug!(url = %server.url, "standalone stream ended");
        });
        let mut st = self.state.lock().await;
        match st.upstreams.get_mut(&url) {
            // Still the same session: keep the relay (dropping it aborts the task).
            Some(up) if up.session.as_deref() == Some(session.as_str()) => {
                up.stream = Some(StreamRelay(task.abort_handle()))
            }
            _ => task.abort(),
        }
    }
}
