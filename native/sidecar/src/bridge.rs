//! `debugger-mcp stdio` as a bridge: relays MCP between a stdio-only client and the running
//! server(s) — the IDE plugin or `debugger-mcp serve` — found through their discovery records
//! (falling back to probing the IDE's built-in server ports 63342–63361).
//!
//! - Routing: the server whose project roots contain the working directory (or `--project`) is
//!   the primary one; with a single server running, that one. A `tools/call` carrying
//!   `project_path` goes to the server whose roots contain that path; each further server gets
//!   the client's own `initialize` replayed first. With several servers and no way to choose,
//!   the call fails with the list of servers and their projects.
//! - Relay: each client message is POSTed (Streamable HTTP, with the server's bearer token and
//!   session id); JSON and SSE answers are written back line by line as they arrive, so
//!   progress and elicitation requests reach the client mid-call; the client's answers to
//!   server requests go back to the server that asked. Once a server's session is initialized
//!   the bridge also opens that session's standalone GET stream and relays what arrives on it
//!   outside any call (`notifications/resources/updated` after `resources/subscribe`).
//! - 2026-07-28 (stateless) clients: a request carrying its protocol version in `_meta` (and
//!   `server/discover`) is POSTed on its own, without a session, with the `Mcp-Method`/`Mcp-Name`
//!   headers that transport requires. A `subscriptions/listen` answer is a stream relayed until
//!   the client cancels that request (`notifications/cancelled`: the bridge drops the stream, the
//!   2026-07-28 HTTP spelling of a cancel) or closes stdin.
//! - The server going away: the call fails with a tool error that says so; the next call looks
//!   for servers again (discovery), re-initializes (new session) and goes on.
//! - No server at all: the caller serves headless over DAP instead (see `main.rs`).

use anyhow::{Context, Result, anyhow};
use bytes::Bytes;
use debugger_mcp_core::discovery::{self, Record};
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::{Mutex, mpsc};

/// The IDE's built-in web server port range.
const PROBE_PORTS: std::ops::RangeInclusive<u16> = 63342..=63361;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Tool calls cap their waits at 55 s server-side; this leaves room for the answer.
const CALL_TIMEOUT: Duration = Duration::from_secs(75);

/// Live servers: discovery records, else whatever answers on the IDE port range.
pub async fn find_servers() -> Vec<Record> {
    let mut records = Vec::new();
    for r in discovery::list() {
        // A record whose process id was reused by another program looks alive: only servers
        // that accept a connection count.
        let addr = format!("127.0.0.1:{}", r.port);
        match tokio::time::timeout(
            Duration::from_millis(500),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            Ok(Ok(_)) => records.push(r),
            _ => {
                tracing::debug!(url = %r.url, "discovery record of a server that does not accept connections; skipped")
            }
        }
    }
    if !records.is_empty() {
        return records;
    }
    let probes = PROBE_PORTS.map(|port| async move {
        let url = format!("http://127.0.0.1:{port}/debugger-mcp");
        let body = br#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#.to_vec();
        match tokio::time::timeout(
            Duration::from_millis(500),
            post(&url, None, None, None, body),
        )
        .await
        {
            // Any answer but 404 comes from a Debugger MCP handler (the IDE's server 404s
            // unknown paths).
            Ok(Ok(resp)) if resp.status() != http::StatusCode::NOT_FOUND => Some(Record {
                pid: 0,
                url,
                port,
                token: std::env::var("DEBUGGER_MCP_TOKEN").ok(),
                product: format!("IDE on port {port}"),
                roots: Vec::new(),
            }),
            _ => None,
        }
    });
    futures_join(probes).await.into_iter().flatten().collect()
}

async fn futures_join<F: std::future::Future>(futs: impl Iterator<Item = F>) -> Vec<F::Output> {
    let handles: Vec<_> = futs.collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await);
    }
    out
}

fn describe(servers: &[Record]) -> String {
    servers
        .iter()
        .map(|r| {
            let roots: Vec<String> = r.roots.iter().map(|p| p.display().to_string()).collect();
            format!(
                "{} at {} (projects: {})",
                r.product,
                r.url,
                if roots.is_empty() {
                    "unknown".into()
                } else {
                    roots.join(", ")
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The server for `path`: the one with the longest root containing it; else the only one.
pub fn choose<'a>(servers: &'a [Record], path: &Path) -> Option<&'a Record> {
    servers
        .iter()
        .filter_map(|r| {
            r.best_root_for(path)
                .map(|root| (root.as_os_str().len(), r))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, r)| r)
        .or(if servers.len() == 1 {
            servers.first()
        } else {
            None
        })
}

async fn post(
    url: &str,
    token: Option<&str>,
    session: Option<&str>,
    protocol: Option<&str>,
    body: Vec<u8>,
) -> Result<http::Response<hyper::body::Incoming>> {
    send(http::Method::POST, url, token, session, protocol, &[], body).await
}

async fn send(
    method: http::Method,
    url: &str,
    token: Option<&str>,
    session: Option<&str>,
    protocol: Option<&str>,
    extra: &[(&str, String)],
    body: Vec<u8>,
) -> Result<http::Response<hyper::body::Incoming>> {
    let uri: http::Uri = url
        .parse()
        .with_context(|| format!("bad server URL {url}"))?;
    let authority = uri
        .authority()
        .ok_or_else(|| anyhow!("server URL {url} has no host"))?
        .clone();
    let tcp = tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect(authority.as_str()),
    )
    .await
    .map_err(|_| anyhow!("connecting to {url} timed out"))??;
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut req = http::Request::builder()
        .method(method.clone())
        .uri(uri.path())
        .header(http::header::HOST, authority.as_str());
    req = if method == http::Method::GET {
        req.header(http::header::ACCEPT, "text/event-stream")
    } else {
        req.header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
    };
    if let Some(t) = token {
        req = req.header(http::header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    if let Some(p) = protocol {
        req = req.header("mcp-protocol-version", p);
    }
    for (name, value) in extra {
        req = req.header(*name, value.as_str());
    }
    Ok(sender
        .send_request(req.body(Full::new(Bytes::from(body)))?)
        .await?)
}

/// The 2026-07-28 revision names its protocol version in each request's `_meta` instead of an
/// initialize handshake; such requests (and `server/discover`) are relayed statelessly.
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The protocol version a stateless (2026-07-28) request carries, if it is one.
fn stateless_version(message: &Value) -> Option<String> {
    message.get("id")?;
    message["params"]["_meta"][PROTOCOL_VERSION_META]
        .as_str()
        .map(str::to_owned)
}

/// The headers the 2026-07-28 Streamable HTTP transport requires beside the body (SEP-2243):
/// `Mcp-Method`, and `Mcp-Name` for methods naming a tool, prompt or resource. Our tools
/// annotate no argument with `x-mcp-header`, so no `Mcp-Param-*` header is needed.
fn stateless_headers(message: &Value) -> Vec<(&'static str, String)> {
    let method = message["method"].as_str().unwrap_or_default();
    let mut headers = vec![("mcp-method", method.to_owned())];
    let key = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(name) = key.and_then(|k| message["params"][k].as_str()) {
        headers.push(("mcp-name", header_value(name)));
    }
    headers
}

/// A header value as the transport spells it: as is when it can travel bare, else Base64
/// between `=?base64?` and `?=` (non-ASCII, control characters, edge whitespace).
fn header_value(value: &str) -> String {
    use base64::Engine;
    let wrap = value.starts_with([' ', '\t'])
        || value.ends_with([' ', '\t'])
        || !value.chars().all(|c| (' '..='~').contains(&c))
        || (value.starts_with("=?base64?") && value.ends_with("?="));
    if wrap {
        format!(
            "=?base64?{}?=",
            base64::prelude::BASE64_STANDARD.encode(value)
        )
    } else {
        value.to_owned()
    }
}

/// Splits an SSE byte stream into the `data` of its events. Works on bytes until a line is
/// complete: a chunk may end inside a UTF-8 character.
#[derive(Default)]
struct SseDecoder {
    buf: Vec<u8>,
    data: String,
}

impl SseDecoder {
    fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        self.buf.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = self.buf.drain(..=nl).collect();
            let line = String::from_utf8_lossy(&raw[..nl]);
            let line = line.trim_end_matches('\r');
            if let Some(d) = line.strip_prefix("data:") {
                if !self.data.is_empty() {
                    self.data.push('\n');
                }
                self.data.push_str(d.strip_prefix(' ').unwrap_or(d));
            } else if line.is_empty() && !self.data.is_empty() {
                events.push(std::mem::take(&mut self.data));
            }
        }
        events
    }
}

#[derive(Default)]
struct Upstream {
    session: Option<String>,
    protocol: Option<String>,
    initialized: bool,
    /// The relay of this session's standalone GET stream; ends with the upstream.
    stream: Option<StreamRelay>,
}

/// Aborts the GET-stream relay task when its upstream is forgotten or the bridge ends.
struct StreamRelay(tokio::task::AbortHandle);

impl Drop for StreamRelay {
    fn drop(&mut self) {
        self.0.abort();
    }
}

struct State {
    project: PathBuf,
    servers: Vec<Record>,
    upstreams: HashMap<String, Upstream>,
    /// The client's own initialize params, replayed to every further server.
    init_params: Option<Value>,
    /// Server-to-client request ids → the server that asked.
    pending_server_requests: HashMap<String, String>,
    /// Debug session ids → the server that started them: a call naming a session goes there
    /// even without project_path.
    session_servers: HashMap<String, String>,
    /// The client speaks 2026-07-28 (stateless) and has sent no initialize.
    stateless_client: bool,
}

pub struct Bridge {
    state: Mutex<State>,
    out: mpsc::UnboundedSender<String>,
    next_id: std::sync::atomic::AtomicU64,
}

enum Failure {
    /// Server unreachable or gone: look again and retry once.
    Gone(String),
    /// The answer's stream broke off after the request was delivered: the server is gone, but
    /// the request may have run (or, for a listen, its updates were being relayed), so it is
    /// not sent again; the client decides (the SDK re-listens after a lost subscription).
    Cut(String),
    /// The server answered with an error status.
    Status(String),
}

impl Bridge {
    fn send(&self, v: &Value) {
        let _ = self.out.send(v.to_string());
    }

    /// Picks the server for a message: `project_path` of a tool call, else the project. Tool
    /// calls must land on the right project (`strict`); anything else (initialize, tools/list,
    /// ping: the same on every server) may go to any server.
    async fn route(
        &self,
        project_path: Option<&str>,
        session_id: Option<&str>,
        strict: bool,
    ) -> Result<Record, String> {
        let mut st = self.state.lock().await;
        if st.servers.is_empty() {
            st.servers = find_servers().await;
        }
        if project_path.is_none()
            && let Some(url) = session_id.and_then(|sid| st.session_servers.get(sid))
            && let Some(r) = st.servers.iter().find(|r| &r.url == url)
        {
            return Ok(r.clone());
        }
        let path = project_path
            .map(PathBuf::from)
            .unwrap_or_else(|| st.project.clone());
        if let Some(r) =
            choose(&st.servers, &path).or(if strict { None } else { st.servers.first() })
        {
            return Ok(r.clone());
        }
        // Nothing found, or nothing matching: look again (an IDE may have opened since).
        st.servers = find_servers().await;
        match choose(&st.servers, &path).or(if strict { None } else { st.servers.first() }) {
            Some(r) => Ok(r.clone()),
            None if st.servers.is_empty() => Err(
                "no Debugger MCP server is running any more (the IDE or `debugger-mcp serve` was closed). Start it again and retry the call".into(),
            ),
            None => Err(format!(
                "several Debugger MCP servers are running and none has {} among its projects; pass project_path (a path inside one of the projects). Servers: {}",
                path.display(),
                describe(&st.servers)
            )),
        }
    }

    /// POSTs one message and relays every message of the answer to the client. Returns the
    /// messages that answered `id` (the caller may need them: initialize).
    async fn exchange(&self, server: &Record, message: &Value) -> Result<Option<Value>, Failure> {
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
    async fn ensure_initialized(self: &Arc<Self>, server: &Record) -> Result<(), Failure> {
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
    async fn open_stream(self: &Arc<Self>, server: &Record) {
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

    async fn forget(&self, server: &Record) {
        let mut st = self.state.lock().await;
        st.upstreams.remove(&server.url);
        st.servers.clear();
    }

    /// One client message, start to end.
    async fn handle(self: Arc<Self>, msg: Value) {
        let method = msg.get("method").and_then(Value::as_str).map(str::to_owned);
        let id = msg.get("id").cloned();
        // The client answering a server's request: back to that server.
        if method.is_none() {
            let key = id.as_ref().map(Value::to_string).unwrap_or_default();
            let target = self.state.lock().await.pending_server_requests.remove(&key);
            let servers = self.state.lock().await.servers.clone();
            if let Some(server) = target.and_then(|url| servers.into_iter().find(|s| s.url == url))
            {
                let _ = self.exchange(&server, &msg).await;
            }
            return;
        }
        let method = method.unwrap_or_default();
        if method == "notifications/initialized" {
            return; // sent per server by ensure_initialized
        }
        let stateless = stateless_version(&msg).is_some() || method == "server/discover";
        {
            let mut st = self.state.lock().await;
            if stateless && st.init_params.is_none() {
                st.stateless_client = true;
            }
            // The 2026-07-28 HTTP wire has no client-to-server notifications (a cancellation
            // is the request's stream closing: see `run`); forwarding one would open a session.
            if id.is_none() && st.stateless_client && st.init_params.is_none() {
                return;
            }
        }
        let session_id = (method == "tools/call")
            .then(|| {
                msg["params"]["arguments"]["session_id"]
                    .as_str()
                    .map(str::to_owned)
            })
            .flatten();
        let project_path = (method == "tools/call")
            .then(|| {
                msg["params"]["arguments"]["project_path"]
                    .as_str()
                    .map(str::to_owned)
            })
            .flatten();
        if method == "initialize" {
            self.state.lock().await.init_params = msg.get("params").cloned();
        }
        let mut last_error = String::new();
        for attempt in 0..2 {
            let server = match self
                .route(
                    project_path.as_deref(),
                    session_id.as_deref(),
                    method == "tools/call",
                )
                .await
            {
                Ok(s) => s,
                Err(e) => {
                    last_error = e;
                    break;
                }
            };
            let result = async {
                if method == "initialize" {
                    // The client's own initialize goes through as is; its answer is relayed.
                    let answer = self.exchange(&server, &msg).await?;
                    let mut st = self.state.lock().await;
                    let up = st.upstreams.entry(server.url.clone()).or_default();
                    up.initialized = true;
                    up.protocol = answer
                        .as_ref()
                        .and_then(|a| a["result"]["protocolVersion"].as_str())
                        .map(str::to_owned);
                    drop(st);
                    if let Some(mut a) = answer {
                        connected_through(&mut a, &server);
                        self.send(&a);
                    }
                    // The client's notifications/initialized follows; send ours now.
                    self.exchange(
                        &server,
                        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                    )
                    .await?;
                    self.open_stream(&server).await;
                    return Ok(());
                }
                if !stateless {
                    self.ensure_initialized(&server).await?;
                }
                if let Some(mut answer) = self.exchange(&server, &msg).await? {
                    if method == "server/discover" {
                        connected_through(&mut answer, &server);
                    }
                    if let Some(sid) = answer["result"]["structuredContent"]["session_id"].as_str()
                    {
                        self.state
                            .lock()
                            .await
                            .session_servers
                            .insert(sid.to_owned(), server.url.clone());
                    }
                    self.send(&answer);
                }
                Ok(())
            }
            .await;
            match result {
                Ok(()) => return,
                Err(Failure::Gone(e)) => {
                    tracing::info!("{e}; looking for servers again");
                    self.forget(&server).await;
                    last_error = format!(
                        "{e}. The IDE or server was probably closed; start it again and retry"
                    );
                    if attempt == 0 {
                        continue;
                    }
                }
                Err(Failure::Cut(e)) => {
                    tracing::info!("{e}; the next message looks for servers again");
                    self.forget(&server).await;
                    last_error = format!(
                        "{e}. The IDE or server was probably closed; start it again and retry"
                    );
                    break;
                }
                Err(Failure::Status(e)) => {
                    last_error = e;
                    break;
                }
            }
        }
        let Some(id) = id else {
            tracing::warn!("dropping {method}: {last_error}");
            return;
        };
        if method == "tools/call" {
            // A tool error the agent can read and act on, rather than a protocol failure.
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": {
                "content": [{"type": "text", "text": last_error}], "isError": true}}));
        } else {
            self.send(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": last_error}}));
        }
    }
}

/// Tells the agent, in the instructions of an initialize or `server/discover` answer, where
/// the bridge is connected.
fn connected_through(answer: &mut Value, server: &Record) {
    if let Some(instr) = answer["result"]["instructions"].as_str() {
        answer["result"]["instructions"] = Value::String(format!(
            "{instr}\n\nConnected through `debugger-mcp stdio` to {} ({}); with several servers running, pass project_path to choose.",
            server.product, server.url
        ));
    }
}

/// Relays stdin ⇄ the servers until stdin closes.
pub async fn run(project: PathBuf, servers: Vec<Record>) -> Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let bridge = Arc::new(Bridge {
        state: Mutex::new(State {
            project,
            servers,
            upstreams: HashMap::new(),
            init_params: None,
            pending_server_requests: HashMap::new(),
            session_servers: HashMap::new(),
            stateless_client: false,
        }),
        out: tx,
        next_id: std::sync::atomic::AtomicU64::new(1),
    });
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = rx.recv().await {
            if stdout.write_all(line.as_bytes()).await.is_err()
                || stdout.write_all(b"\n").await.is_err()
            {
                break;
            }
            let _ = stdout.flush().await;
        }
    });
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut tasks = tokio::task::JoinSet::new();
    // Stateless requests under way, by id: at 2026-07-28 the client cancels one (ends a
    // `subscriptions/listen`) with notifications/cancelled, which over HTTP means closing that
    // request's stream, so the relay of it is aborted (dropping its connection).
    let mut in_flight: HashMap<String, (tokio::task::AbortHandle, bool)> = HashMap::new();
    while let Some(line) = lines.next_line().await? {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&line) {
            Ok(msg) => {
                let method = msg.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
                if method == "notifications/cancelled"
                    && let Some((relay, _)) = in_flight.remove(&msg["params"]["requestId"].to_string())
                {
                    relay.abort();
                    continue;
                }
                let b = bridge.clone();
                if method == "initialize" {
                    // Everything else waits for the session initialize creates.
                    b.handle(msg).await;
                } else if stateless_version(&msg).is_some() {
                    in_flight.retain(|_, (relay, _)| !relay.is_finished());
                    let key = msg["id"].to_string();
                    let relay = tasks.spawn(b.handle(msg));
                    in_flight.insert(key, (relay, method == "subscriptions/listen"));
                } else {
                    tasks.spawn(b.handle(msg));
                }
            }
            Err(e) => bridge.send(&json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("not JSON: {e}")}})),
        }
    }
    // The client is gone: its subscriptions end with it (calls under way still finish).
    for (relay, listen) in in_flight.values() {
        if *listen {
            relay.abort();
        }
    }
    while tasks.join_next().await.is_some() {}
    drop(bridge);
    let _ = writer.await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(pid: u32, roots: &[&str]) -> Record {
        Record {
            pid,
            url: format!("http://127.0.0.1:{pid}/debugger-mcp"),
            port: 1,
            token: None,
            product: "p".into(),
            roots: roots.iter().map(PathBuf::from).collect(),
        }
    }

    #[test]
    fn sse_events_survive_chunks_split_anywhere() {
        let stream = "id: 1\r\ndata: {\"text\":\"Grüße – 完了\"}\r\n\r\n: keep-alive\n\ndata: {\"a\":\ndata: 1}\n\n".as_bytes();
        for split in 1..stream.len() {
            let mut d = SseDecoder::default();
            let mut events = d.push(&stream[..split]);
            events.extend(d.push(&stream[split..]));
            assert_eq!(
                events,
                vec![
                    "{\"text\":\"Grüße – 完了\"}".to_string(),
                    "{\"a\":\n1}".to_string()
                ],
                "split at {split}"
            );
        }
    }

    #[test]
    fn stateless_requests_carry_the_headers_their_body_implies() {
        let meta = json!({PROTOCOL_VERSION_META: "2026-07-28"});
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "step_over", "_meta": meta}});
        assert_eq!(stateless_version(&call).as_deref(), Some("2026-07-28"));
        assert_eq!(
            stateless_headers(&call),
            vec![
                ("mcp-method", "tools/call".to_string()),
                ("mcp-name", "step_over".to_string())
            ]
        );
        let read = json!({"id": 2, "method": "resources/read", "params": {"uri": "file:///tmp/Grüße.py", "_meta": meta}});
        // Non-ASCII cannot travel as a header value: Base64 between the transport's markers.
        assert_eq!(
            stateless_headers(&read)[1],
            (
                "mcp-name",
                "=?base64?ZmlsZTovLy90bXAvR3LDvMOfZS5weQ==?=".to_string()
            )
        );
        assert_eq!(
            header_value(" x"),
            "=?base64?IHg=?=",
            "edge whitespace would be trimmed"
        );
        assert_eq!(
            stateless_headers(&json!({"id": 3, "method": "tools/list", "params": {"_meta": meta}}))
                .len(),
            1
        );
        // Initialize-era requests (no per-request version) and notifications stay on the session.
        assert_eq!(
            stateless_version(&json!({"id": 4, "method": "tools/list"})),
            None
        );
        assert_eq!(
            stateless_version(
                &json!({"method": "notifications/cancelled", "params": {"_meta": meta}})
            ),
            None
        );
    }

    #[test]
    fn routing_prefers_the_most_specific_project() {
        let servers = [rec(1, &["/work"]), rec(2, &["/work/app", "/other"])];
        assert_eq!(choose(&servers, Path::new("/work/app/src")).unwrap().pid, 2);
        assert_eq!(choose(&servers, Path::new("/work/lib")).unwrap().pid, 1);
        assert_eq!(choose(&servers, Path::new("/other/x")).unwrap().pid, 2);
        assert!(
            choose(&servers, Path::new("/elsewhere")).is_none(),
            "two servers, no match: no guess"
        );
        assert_eq!(
            choose(&servers[..1], Path::new("/elsewhere")).unwrap().pid,
            1,
            "a single server is used anyway"
        );
        // A root that is a string prefix but not a parent does not match.
        assert_eq!(
            choose(
                &[rec(3, &["/work/app"]), rec(4, &["/"])],
                Path::new("/work/application")
            )
            .unwrap()
            .pid,
            4
        );
    }
}
