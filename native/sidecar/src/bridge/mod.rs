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
//!
//! Modules: `servers` (finding servers and choosing one for a path), `wire` (HTTP requests,
//! the stateless headers, SSE decoding), `upstream` (one server's session: a message relayed,
//! the client's initialize replayed, the standalone GET stream). This file holds the bridge's
//! state, the routing of each client message and the stdin/stdout loop.

mod servers;
mod upstream;
mod wire;

pub use servers::find_servers;

use anyhow::Result;
use debugger_mcp_core::discovery::Record;
use serde_json::{Value, json};
use servers::{choose, describe};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::{Mutex, mpsc};
use wire::stateless_version;

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

impl Bridge {
    /// The client is gone: each server's MCP session is ended (DELETE), so what the agent made
    /// there (breakpoints, debug sessions) goes now rather than when the session expires.
    async fn end_sessions(&self) {
        let ended: Vec<(Record, String, Option<String>)> = {
            let st = self.state.lock().await;
            st.upstreams
                .iter()
                .filter_map(|(url, up)| {
                    let server = st.servers.iter().find(|s| &s.url == url)?;
                    Some((server.clone(), up.session.clone()?, up.protocol.clone()))
                })
                .collect()
        };
        for (server, session, protocol) in ended {
            let delete = wire::send(
                http::Method::DELETE,
                &server.url,
                server.token.as_deref(),
                Some(&session),
                protocol.as_deref(),
                &[],
                Vec::new(),
            );
            // A server that does not answer soon will expire the session on its own.
            let _ = tokio::time::timeout(std::time::Duration::from_secs(5), delete).await;
        }
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
    bridge.end_sessions().await;
    drop(bridge);
    let _ = writer.await;
    Ok(())
}
