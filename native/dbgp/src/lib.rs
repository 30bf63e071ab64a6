//! The DBGp backend: PHP through Xdebug 3, headless. Xdebug connects to us (loopback, port
//! 9003 or the next free of 9004-9010); each connection is one PHP request or CLI run and
//! becomes one debug session, named by what ran (`app.php`, `GET /api/checkout`).
//!
//! Modules: `protocol` (framing, typed packets, command encoding), `transport` (one reader
//! task per connection, requests as futures, streams/notifications on a channel), `launch`
//! (configurations, triggers, the Xdebug check), `session`, `breakpoints`, `values`, `events`.
//! This file is the thin [`Backend`] implementation and the listener.
//!
//! Architecture invariant: everything agent-facing (waits, ids, truncation, history, JSONPath)
//! stays in the core; this crate only speaks DBGp and maps paths through the core's `pathmap`.

pub mod breakpoints;
pub mod events;
pub mod launch;
pub mod protocol;
pub mod session;
pub mod transport;
pub mod values;

use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::PathMap;
use protocol::uri_to_path;
use session::{REQUEST_TIMEOUT, Session, Trap};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use tokio::sync::{Notify, oneshot};
use transport::{ConnEvent, Connection};
use values::{parse_prop, to_node};

/// Children per `property_get` page (Xdebug's `max_children`).
pub const PAGE: u32 = 100;
/// Bytes of a string Xdebug sends by default (`max_data`); longer ones report their real size
/// and `evaluate` fetches them whole with `property_value`.
const MAX_DATA: u64 = 1024;
/// `evaluate` of a long string fetches at most this much.
const LONG_STRING: u64 = 1 << 20;
/// How long a session whose process is the trigger waits for the trigger's exit (and last
/// output) after the connection closed.
const EXIT_GRACE: Duration = Duration::from_millis(1500);
const KEEP_ENDED: usize = 16;
pub const DEFAULT_PORT: u16 = 9003;

pub struct DbgpBackend {
    inner: Arc<Inner>,
}

struct Inner {
    root: PathBuf,
    events: EventSink,
    sessions: Mutex<Vec<Arc<Session>>>,
    next_session: AtomicU32,
    bps: Mutex<breakpoints::Store>,
    traps: Mutex<Vec<Arc<Trap>>>,
    /// Bound ports; `default_port` is the one triggers get unless a configuration names one.
    listeners: Mutex<HashMap<u16, tokio::task::JoinHandle<()>>>,
    default_port: tokio::sync::Mutex<Option<u16>>,
    port: AtomicU32,
    connect_timeout_ms: AtomicU64,
}

impl DbgpBackend {
    pub fn new(project_root: impl Into<PathBuf>, events: EventSink) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(project_root.into())?;
        Ok(Self {
            inner: Arc::new(Inner {
                root,
                events,
                sessions: Mutex::default(),
                next_session: AtomicU32::new(1),
                bps: Mutex::default(),
                traps: Mutex::default(),
                listeners: Mutex::default(),
                default_port: tokio::sync::Mutex::new(None),
                port: AtomicU32::new(DEFAULT_PORT as u32),
                connect_timeout_ms: AtomicU64::new(20_000),
            }),
        })
    }

    /// `[php] port`: the first port tried (then the next seven).
    pub fn set_port(&self, port: u16) {
        self.inner.port.store(port as u32, Ordering::Relaxed);
    }

    /// `[php] connect_timeout_ms`: how long a launch waits for Xdebug to connect.
    pub fn set_connect_timeout(&self, t: Duration) {
        self.inner
            .connect_timeout_ms
            .store(t.as_millis() as u64, Ordering::Relaxed);
    }

    /// The port triggers are pointed at, once a launch bound it.
    pub async fn port(&self) -> Option<u16> {
        *self.inner.default_port.lock().await
    }

    /// Does this backend start `request`: a PHP configuration, a PHP/HTTP trigger command, or
    /// adapter `php`?
    pub fn handles(&self, request: &LaunchRequest) -> bool {
        if let Some(a) = &request.adapter {
            return matches!(a.to_ascii_lowercase().as_str(), "php" | "xdebug" | "dbgp");
        }
        if let Some(c) = &request.configuration {
            return launch::has_configuration(&self.inner.root, c);
        }
        request
            .command
            .as_deref()
            .is_some_and(launch::is_php_command)
    }

    pub fn owns_session(&self, id: &str) -> bool {
        id.starts_with('x') && self.inner.session(id).is_ok()
    }
}

impl Inner {
    fn emit(&self, e: BackendEvent) {
        self.events.send(e);
    }

    fn check_project(&self, project: &str) -> BackendResult<()> {
        let p = Path::new(project);
        if p == self.root || std::fs::canonicalize(p).is_ok_and(|c| c == self.root) {
            Ok(())
        } else {
            Err(BackendError::NotFound(format!(
                "project '{project}' (this server has {})",
                self.root.display()
            )))
        }
    }

    fn session(&self, id: &str) -> BackendResult<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap()
            .iter()
            .find(|s| s.id == id)
            .cloned()
            .ok_or_else(|| BackendError::NotFound(format!("session '{id}'")))
    }

    fn new_session_id(&self) -> String {
        format!("x{}", self.next_session.fetch_add(1, Ordering::SeqCst))
    }

    /// Binds `wanted` exactly, or (None) the default port: the configured one, else the next
    /// free of the seven after it (9004-9010 for 9003).
    async fn ensure_listener(self: &Arc<Self>, wanted: Option<u16>) -> BackendResult<u16> {
        if let Some(p) = wanted {
            if self.listeners.lock().unwrap().contains_key(&p) {
                return Ok(p);
            }
            return self.bind(p).await.map_err(|e| {
                BackendError::Failed(format!(
                    "cannot listen for Xdebug on 127.0.0.1:{p} (the configuration's 'port'): {e}; free the port or change 'port'"
                ))
            });
        }
        let mut default = self.default_port.lock().await;
        if let Some(p) = *default {
            return Ok(p);
        }
        let first = self.port.load(Ordering::Relaxed) as u16;
        let mut errors = Vec::new();
        for p in first..=first.saturating_add(7) {
            match self.bind(p).await {
                Ok(p) => {
                    if p != first {
                        tracing::info!(
                            port = p,
                            "port {first} is busy; listening for Xdebug on {p}"
                        );
                    }
                    *default = Some(p);
                    return Ok(p);
                }
                Err(e) => errors.push(format!("{p}: {e}")),
            }
        }
        Err(BackendError::Failed(format!(
            "cannot listen for Xdebug: ports {first}-{} are all in use ({}); stop what holds them or set [php] port in debugger-mcp.toml",
            first.saturating_add(7),
            errors.join(", ")
        )))
    }

    async fn bind(self: &Arc<Self>, port: u16) -> std::io::Result<u16> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        let inner = Arc::downgrade(self);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let Some(inner) = inner.upgrade() else { return };
                tokio::spawn(async move { inner.on_connection(stream, port).await });
            }
        });
        self.listeners.lock().unwrap().insert(port, task);
        Ok(port)
    }

    /// Which launch a connection belongs to: a waiting trap whose trigger is the PHP process
    /// (or its parent); else a waiting trap that triggers indirectly (curl, listen-only); else
    /// a running trigger that already has a session (concurrent requests of one command).
    fn pick_trap(&self, appid: Option<u32>, port: u16) -> (Option<Arc<Trap>>, bool) {
        let traps = self.traps.lock().unwrap();
        let mut on_port = traps.iter().filter(|t| t.port == port);
        let descends = |t: &Trap| {
            appid
                .zip(t.pid)
                .is_some_and(|(a, p)| launch::descends_from(a, p))
        };
        let unclaimed: Vec<&Arc<Trap>> = on_port
            .clone()
            .filter(|t| !t.claimed.load(Ordering::SeqCst))
            .collect();
        let pick = unclaimed
            .iter()
            .find(|t| descends(t))
            .or_else(|| {
                unclaimed.iter().find(|t| {
                    t.launch
                        .command
                        .as_deref()
                        .is_none_or(|c| !c.trim_start().starts_with("php"))
                })
            })
            .copied();
        if let Some(t) = pick {
            let first = !t.claimed.swap(true, Ordering::SeqCst);
            return (Some(t.clone()), first);
        }
        let sibling = on_port.rfind(|t| t.running() || descends(t)).cloned();
        (sibling, false)
    }

    async fn on_connection(self: Arc<Self>, stream: tokio::net::TcpStream, port: u16) {
        let (init, conn, mut rx) = match Connection::accept(stream).await {
            Ok(x) => x,
            Err(e) => {
                tracing::warn!("an Xdebug connection failed before its init packet: {e}");
                return;
            }
        };
        let (trap, claims) = self.pick_trap(init.appid, port);
        let owns_process = trap.as_ref().is_some_and(|t| {
            init.appid
                .zip(t.pid)
                .is_some_and(|(a, p)| launch::descends_from(a, p))
        });
        let id = match (&trap, claims) {
            (Some(t), true) => t.session_id.clone(),
            _ => self.new_session_id(),
        };
        let mut pathmap = trap
            .as_ref()
            .map(|t| t.launch.pathmap.clone())
            .unwrap_or_default();
        if pathmap.is_empty() {
            pathmap = PathMap::from_compose(&self.root).unwrap_or_default();
        }
        let stop_on_entry = trap.as_ref().is_some_and(|t| t.launch.stop_on_entry);
        let stop_on_exception = trap.as_ref().is_some_and(|t| t.launch.stop_on_exception);
        let s = Arc::new(Session {
            id: id.clone(),
            name: Mutex::new(String::new()),
            conn: conn.clone(),
            state: Mutex::new(SessionState::Paused),
            appid: init.appid,
            pathmap,
            root: self.root.clone(),
            trap: trap.clone(),
            owns_process,
            stop_on_entry,
            applied: tokio::sync::Mutex::default(),
            values: Mutex::default(),
            ended: AtomicBool::new(false),
            ended_notify: Notify::new(),
            exit_code: Mutex::new(None),
            location: Mutex::new(None),
        });
        // Negotiation happens at the init pause, before anything runs.
        let mut features: Vec<(String, String)> = vec![
            ("max_children".into(), PAGE.to_string()),
            ("max_data".into(), MAX_DATA.to_string()),
            ("max_depth".into(), "1".into()),
            ("resolved_breakpoints".into(), "1".into()),
            ("notify_ok".into(), "1".into()),
            ("extended_properties".into(), "1".into()),
        ];
        if let Some(t) = &trap {
            for (k, v) in &t.launch.features {
                features.retain(|(n, _)| n != k);
                features.push((k.clone(), v.clone()));
            }
        }
        for (name, value) in &features {
            if let Err(e) = s
                .req(
                    "feature_set",
                    &[('n', name.clone()), ('v', value.clone())],
                    None,
                )
                .await
            {
                tracing::debug!(feature = %name, "feature_set refused: {e}");
            }
        }
        // A CLI run's output reaches us through the trigger's pipes; a web request's only
        // through DBGp's copy of stdout.
        if !owns_process {
            let _ = s.req("stdout", &[('c', "1".into())], None).await;
        }
        let script = uri_to_path(&init.fileuri).map(|p| match s.pathmap.to_local(&p) {
            debugger_mcp_core::pathmap::Located::Local(l) => l.display().to_string(),
            debugger_mcp_core::pathmap::Located::Unmapped(r) => r,
        });
        let request = self.web_request(&s).await;
        *s.name.lock().unwrap() = Session::what_ran(&self.root, script.as_deref(), request);
        {
            let mut list = self.sessions.lock().unwrap();
            list.push(s.clone());
            let ended: Vec<String> = list
                .iter()
                .filter(|x| x.is_ended())
                .map(|x| x.id.clone())
                .collect();
            if ended.len() > KEEP_ENDED {
                let drop: Vec<&String> = ended[..ended.len() - KEEP_ENDED].iter().collect();
                list.retain(|x| !drop.contains(&&x.id));
            }
        }
        let mut info = s.info();
        info.state = SessionState::Running;
        self.emit(BackendEvent::SessionStarted {
            session: info.clone(),
        });
        if let Some(t) = &trap {
            if claims || t.output_to.lock().unwrap().is_none() {
                *t.output_to.lock().unwrap() = Some(id.clone());
                t.output_owned.store(owns_process, Ordering::SeqCst);
                let pending: Vec<(OutputCategory, String)> =
                    t.pending_output.lock().unwrap().clone();
                for (category, text) in pending {
                    if category == OutputCategory::Stdout && !owns_process {
                        continue;
                    }
                    self.emit(BackendEvent::Output {
                        session_id: id.clone(),
                        category,
                        text,
                    });
                }
            }
            if claims && let Some(tx) = t.claim_tx.lock().unwrap().take() {
                let _ = tx.send(info);
            }
        }
        // Events of this connection.
        {
            let inner = self.clone();
            let s = s.clone();
            tokio::spawn(async move {
                while let Some(ev) = rx.recv().await {
                    match ev {
                        ConnEvent::Stream { kind, text } => inner.emit(BackendEvent::Output {
                            session_id: s.id.clone(),
                            category: match kind {
                                protocol::StreamKind::Stdout => OutputCategory::Stdout,
                                protocol::StreamKind::Stderr => OutputCategory::Stderr,
                            },
                            text,
                        }),
                        ConnEvent::Notify { name, root } => inner.on_notify(&s, &name, &root),
                        ConnEvent::Closed { reason } => {
                            inner.end(&s, &reason).await;
                            break;
                        }
                    }
                }
            });
        }
        self.sync_breakpoints(&s).await;
        if stop_on_exception {
            // Every exception and PHP's fatal errors: what `panic` promises.
            for name in ["*", "Fatal error"] {
                let _ = s
                    .req(
                        "breakpoint_set",
                        &[('t', "exception".into()), ('x', name.into())],
                        None,
                    )
                    .await;
            }
        }
        let first = if stop_on_entry { "step_into" } else { "run" };
        self.cont(&s, first, stop_on_entry, false);
    }

    /// Method and URI of a web request (None for CLI runs).
    async fn web_request(&self, s: &Session) -> Option<(String, String)> {
        let get = |n: &'static str| async move {
            let r = s
                .req("property_get", &[('c', "1".into()), ('n', n.into())], None)
                .await
                .ok()?;
            let p = parse_prop(r.root.child("property")?);
            (p.type_name == "string").then_some(p.value)
        };
        let method = get("$_SERVER['REQUEST_METHOD']").await?;
        let uri = get("$_SERVER['REQUEST_URI']")
            .await
            .unwrap_or_else(|| "/".into());
        Some((method, uri))
    }

    fn on_notify(&self, s: &Session, name: &str, root: &protocol::Element) {
        match name {
            "breakpoint_resolved" => {
                let Some(b) = root.child("breakpoint") else {
                    return;
                };
                let xid = b.attr("id").unwrap_or("");
                let line = b.attr("lineno").and_then(|l| l.parse().ok());
                let resolved = b.attr("resolved") == Some("resolved");
                let ours = s.applied.try_lock().ok().and_then(|a| {
                    a.iter()
                        .find(|(_, (x, _))| x == xid)
                        .map(|(id, _)| id.clone())
                });
                if let Some(id) = ours {
                    self.update_bp(&id, |bp| {
                        if resolved {
                            bp.verified = true;
                            bp.message = None;
                            if line.is_some() {
                                bp.line = line;
                            }
                        }
                    });
                }
            }
            // Notices and warnings the script raised (notify_ok): console output.
            // A CLI run prints them on its own stderr already.
            "error" if !s.owns_process => {
                let text = root
                    .child("message")
                    .map(|m| m.text.trim().to_string())
                    .unwrap_or_default();
                let kind = root
                    .child("message")
                    .and_then(|m| m.attr("type"))
                    .unwrap_or("PHP error")
                    .to_string();
                if !text.is_empty() {
                    self.emit(BackendEvent::Output {
                        session_id: s.id.clone(),
                        category: OutputCategory::Stderr,
                        text: format!("{kind}: {text}\n"),
                    });
                }
            }
            // xdebug_notify() in the script.
            "user" => {
                let text = root
                    .children
                    .iter()
                    .map(protocol::decoded_text)
                    .collect::<Vec<_>>()
                    .join(" ");
                self.emit(BackendEvent::Output {
                    session_id: s.id.clone(),
                    category: OutputCategory::Console,
                    text: format!("{text}\n"),
                });
            }
            _ => tracing::debug!(name, "DBGp notification"),
        }
    }

    fn update_bp(&self, id: &str, f: impl FnOnce(&mut BreakpointInfo)) {
        let changed = {
            let mut store = self.bps.lock().unwrap();
            store.list.iter_mut().find(|b| b.id == id).map(|b| {
                f(b);
                b.clone()
            })
        };
        if let Some(b) = changed {
            self.emit(BackendEvent::BreakpointChanged { breakpoint: b });
        }
    }

    fn breakpoint(&self, id: &str) -> BackendResult<BreakpointInfo> {
        self.bps
            .lock()
            .unwrap()
            .list
            .iter()
            .find(|b| b.id == id)
            .cloned()
            .ok_or_else(|| BackendError::NotFound(format!("breakpoint '{id}'")))
    }

    /// Applies the store to a paused session and records how Xdebug took each breakpoint.
    async fn sync_breakpoints(&self, s: &Session) {
        if s.state() != SessionState::Paused {
            return;
        }
        let wanted = self.bps.lock().unwrap().list.clone();
        let results = {
            let mut applied = s.applied.lock().await;
            tokio::time::timeout(
                REQUEST_TIMEOUT,
                breakpoints::sync(&s.conn, &wanted, &mut applied, &s.pathmap),
            )
            .await
            .unwrap_or_default()
        };
        for (id, r) in results {
            self.update_bp(&id, |b| match r {
                Ok(Some(true)) | Ok(None) => {
                    b.verified = true;
                    b.message = None;
                }
                Ok(Some(false)) => {
                    if !b.verified {
                        b.message = Some(breakpoints::UNRESOLVED.into());
                    }
                }
                Err(e) => {
                    b.verified = false;
                    b.message = Some(format!("Xdebug refused it: {e}"));
                }
            });
        }
    }

    /// Runs a continuation command; its answer (the next stop or the end) arrives later.
    fn cont(
        self: &Arc<Self>,
        s: &Arc<Session>,
        command: &'static str,
        entry: bool,
        announce: bool,
    ) {
        s.set_state(SessionState::Running);
        s.values.lock().unwrap().clear();
        *s.location.lock().unwrap() = None;
        if announce {
            self.emit(BackendEvent::Resumed {
                session_id: s.id.clone(),
            });
        }
        let inner = self.clone();
        let s = s.clone();
        tokio::spawn(async move {
            let r = s.conn.request(command, &[], None).await;
            match r {
                Ok(r) if r.status() == Some("break") => {
                    s.set_state(SessionState::Paused);
                    let m = r.break_message();
                    let file = m.as_ref().and_then(|m| s.local_file(&m.fileuri));
                    let line = m.as_ref().and_then(|m| m.line);
                    if let (Some(f), Some(l)) = (&file, line) {
                        *s.location.lock().unwrap() = Some((f.clone(), l));
                    }
                    let hit: Vec<String> = {
                        let list = inner.bps.lock().unwrap();
                        list.list
                            .iter()
                            .filter(|b| {
                                b.kind == BreakpointKind::Line
                                    && b.enabled
                                    && b.file == file
                                    && (b.line == line || b.requested_line == line)
                            })
                            .map(|b| b.id.clone())
                            .collect()
                    };
                    let at_bp = !hit.is_empty() && command == "run";
                    let (reason, description) = events::pause_reason(command, &r, at_bp, entry);
                    inner.sync_breakpoints(&s).await;
                    inner.emit(BackendEvent::Paused {
                        session_id: s.id.clone(),
                        thread_id: "1".into(),
                        reason,
                        breakpoint_ids: if reason == PauseReason::Breakpoint {
                            hit
                        } else {
                            vec![]
                        },
                        description,
                    });
                }
                Ok(r) => {
                    // `stopping`: the script ended; let Xdebug finish and close.
                    tracing::debug!(status = ?r.status(), "script ended");
                    let _ = tokio::time::timeout(
                        Duration::from_secs(2),
                        s.conn.request("stop", &[], None),
                    )
                    .await;
                    s.conn.close().await;
                }
                Err(e) => tracing::debug!(session = %s.id, "continuation ended: {e}"),
            }
        });
    }

    /// The session ended (connection closed): once, after the trigger's last output.
    async fn end(&self, s: &Arc<Session>, reason: &str) {
        if s.ended.swap(true, Ordering::SeqCst) {
            return;
        }
        if s.owns_process
            && let Some(t) = &s.trap
        {
            let exited = t.exited.notified();
            if t.running() {
                let _ = tokio::time::timeout(EXIT_GRACE, exited).await;
            }
            *s.exit_code.lock().unwrap() = t.exit_code.lock().unwrap().flatten();
        }
        s.set_state(SessionState::Stopped);
        tracing::debug!(session = %s.id, reason, "session ended");
        let exit_code = *s.exit_code.lock().unwrap();
        self.emit(BackendEvent::Stopped {
            session_id: s.id.clone(),
            exit_code,
        });
        s.ended_notify.notify_waiters();
    }

    async fn launch(self: &Arc<Self>, req: LaunchRequest) -> BackendResult<SessionInfo> {
        let l = launch::resolve(&self.root, &req)?;
        if let Some(cmd) = &l.command {
            launch::check_xdebug(cmd, &l.cwd).await?;
        }
        let port = self.ensure_listener(l.port).await?;
        let id = self.new_session_id();
        let (claim_tx, claim_rx) = oneshot::channel();
        let mut child = None;
        if let Some(cmd) = &l.command {
            let mut c = tokio::process::Command::new("sh");
            c.arg("-c")
                .arg(launch::trigger_command(cmd))
                .current_dir(&l.cwd)
                .envs(launch::xdebug_env(port))
                .envs(l.env.iter().cloned())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                // Its own process group, so stopping the session ends the whole trigger.
                .process_group(0);
            child = Some(c.spawn().map_err(|e| {
                BackendError::Failed(format!("cannot run `{cmd}` in {}: {e}", l.cwd.display()))
            })?);
        }
        let trap = Arc::new(Trap {
            session_id: id.clone(),
            launch: l.clone(),
            port,
            pid: child.as_ref().and_then(|c| c.id()),
            claimed: AtomicBool::new(false),
            claim_tx: Mutex::new(Some(claim_tx)),
            pending_output: Mutex::default(),
            output_to: Mutex::default(),
            output_owned: AtomicBool::new(false),
            exit_code: Mutex::new(None),
            exited: Notify::new(),
        });
        self.traps.lock().unwrap().push(trap.clone());
        if let Some(mut child) = child {
            let pipes = [
                child.stdout.take().map(|p| {
                    (
                        OutputCategory::Stdout,
                        Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>,
                    )
                }),
                child.stderr.take().map(|p| {
                    (
                        OutputCategory::Stderr,
                        Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>,
                    )
                }),
            ];
            let mut readers = Vec::new();
            for (category, pipe) in pipes.into_iter().flatten() {
                let inner = self.clone();
                let trap = trap.clone();
                readers.push(tokio::spawn(async move {
                    let mut lines = tokio::io::BufReader::new(pipe).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        let text = format!("{line}\n");
                        let to = trap.output_to.lock().unwrap().clone();
                        match to {
                            Some(_)
                                if category == OutputCategory::Stdout
                                    && !trap.output_owned.load(Ordering::SeqCst) =>
                            {
                                trap.keep(category, text);
                            }
                            Some(sid) => inner.emit(BackendEvent::Output {
                                session_id: sid,
                                category,
                                text,
                            }),
                            None => trap.keep(category, text),
                        }
                    }
                }));
            }
            let inner = self.clone();
            let trap2 = trap.clone();
            tokio::spawn(async move {
                let status = child.wait().await;
                for r in readers {
                    let _ = r.await;
                }
                let code = status.ok().and_then(|s| s.code()).map(i64::from);
                *trap2.exit_code.lock().unwrap() = Some(code);
                trap2.exited.notify_waiters();
                // Forget the trap once nothing can claim it any more.
                inner.traps.lock().unwrap().retain(|t| {
                    !Arc::ptr_eq(t, &trap2)
                        || !t.claimed.load(Ordering::SeqCst) && t.claim_tx.lock().unwrap().is_some()
                });
            });
        }
        let timeout = Duration::from_millis(self.connect_timeout_ms.load(Ordering::Relaxed));
        let settings = format!(
            "check that the PHP process loads Xdebug 3 with xdebug.mode=debug, xdebug.client_host=127.0.0.1, xdebug.client_port={port} and xdebug.start_with_request=yes (or =trigger with an XDEBUG_TRIGGER/XDEBUG_SESSION cookie or variable); CLI triggers get XDEBUG_MODE, XDEBUG_CONFIG and XDEBUG_TRIGGER from debugger-mcp, curl triggers the XDEBUG_SESSION cookie"
        );
        let what = l
            .command
            .as_deref()
            .map(|c| format!("`{c}`"))
            .unwrap_or_else(|| "nothing (listening only)".into());
        let exited = async {
            if l.command.is_none() {
                std::future::pending::<()>().await;
            }
            loop {
                let n = trap.exited.notified();
                if trap.exit_code.lock().unwrap().is_some() {
                    return;
                }
                n.await;
            }
        };
        let result = tokio::select! {
            r = claim_rx => r.map_err(|_| BackendError::Failed("the launch was abandoned".into())),
            _ = exited => {
                // A connection may be on its way as the trigger ends: give it a moment.
                let n = trap.claim_tx.lock().unwrap().is_some();
                if n {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
                match self.session(&id) {
                    Ok(s) => Ok(s.info()),
                    Err(_) => {
                        let code = trap.exit_code.lock().unwrap().flatten();
                        let tail = trap.output_tail();
                        Err(BackendError::Failed(format!(
                            "{what} exited{} before Xdebug connected to 127.0.0.1:{port}{}; {settings}",
                            code.map(|c| format!(" with code {c}")).unwrap_or_default(),
                            if tail.is_empty() { String::new() } else { format!(" (its output: {tail})") }
                        )))
                    }
                }
            }
            _ = tokio::time::sleep(timeout) => {
                trap.kill();
                let tail = trap.output_tail();
                Err(BackendError::Timeout(format!(
                    "no Xdebug connection on 127.0.0.1:{port} within {} ms after starting {what}{}; {settings} (wait longer with [php] connect_timeout_ms)",
                    timeout.as_millis(),
                    if tail.is_empty() { String::new() } else { format!(" (its output so far: {tail})") }
                )))
            }
        };
        if result.is_err() {
            trap.claim_tx.lock().unwrap().take();
            self.traps
                .lock()
                .unwrap()
                .retain(|t| !Arc::ptr_eq(t, &trap));
        }
        result
    }

    async fn stop(&self, s: &Arc<Session>) {
        if s.state() == SessionState::Paused {
            let _ = tokio::time::timeout(Duration::from_secs(3), s.conn.request("stop", &[], None))
                .await;
        } else if s.owns_process
            && let Some(t) = &s.trap
        {
            // Xdebug cannot be interrupted while the script runs; end the CLI process.
            t.kill();
        }
        s.conn.close().await;
        let ended = s.ended_notify.notified();
        if !s.is_ended() {
            let _ = tokio::time::timeout(Duration::from_secs(3), ended).await;
        }
    }
}

fn frame_depth(frame: &str) -> BackendResult<u32> {
    frame
        .parse()
        .map_err(|_| BackendError::NotFound(format!("frame '{frame}'")))
}

/// A variable path Xdebug can read directly in any frame (`$a`, `$a['k']->b[0]`), as opposed to
/// an expression it must evaluate.
fn is_property_path(e: &str) -> bool {
    let e = e.trim();
    e.starts_with('$')
        && e.len() > 1
        && e.chars()
            .all(|c| c.is_alphanumeric() || "$_[]'\"->:".contains(c))
        && !e.contains("()")
}

#[async_trait]
impl Backend for DbgpBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        Ok(BackendInfo {
            name: "dbgp".into(),
            table_version: TABLE_VERSION,
            can_confirm: false,
            supports_set_value: true,
            supports_code_fragments: false,
            supports_exception_breakpoints: true,
            exception_filters: vec![
                ExceptionFilter {
                    id: "*".into(),
                    label: "every exception (Throwable)".into(),
                },
                ExceptionFilter {
                    id: "Fatal error".into(),
                    label: "PHP fatal errors".into(),
                },
                ExceptionFilter {
                    id: "Warning".into(),
                    label: "PHP warnings".into(),
                },
                ExceptionFilter {
                    id: "Notice".into(),
                    label: "PHP notices".into(),
                },
            ],
        })
    }

    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        let root = &self.inner.root;
        Ok(vec![ProjectInfo {
            name: root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            root: root.display().to_string(),
        }])
    }

    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        self.inner.check_project(project)?;
        launch::list(&self.inner.root)
    }

    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        self.inner.check_project(project)?;
        if request.mode == LaunchMode::Run {
            return Err(BackendError::Unsupported("PHP sessions run under Xdebug; run mode has nothing to attach to (run the command yourself)".into()));
        }
        // Its own task: a caller giving up does not leave a half-registered trap behind.
        let inner = self.inner.clone();
        tokio::spawn(async move { inner.launch(request).await })
            .await
            .unwrap_or_else(|e| Err(BackendError::Failed(format!("launch task failed: {e}"))))
    }

    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.inner.check_project(project)?;
        Ok(self
            .inner
            .sessions
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.info())
            .collect())
    }

    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        let s = self.inner.session(session_id)?;
        if !s.is_ended() {
            self.inner.stop(&s).await;
        }
        Ok(())
    }

    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>> {
        self.inner.check_project(project)?;
        Ok(self.inner.bps.lock().unwrap().list.clone())
    }

    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        if spec.line == 0 {
            return Err(BackendError::Failed("line numbers are 1-based".into()));
        }
        if spec.log_message.as_deref().is_some_and(|m| !m.is_empty()) {
            return Err(BackendError::Unsupported(
                "Xdebug has no log points; use a conditional breakpoint, or error_log() in the code".into(),
            ));
        }
        if let Some(h) = spec.hit_condition.as_deref().filter(|h| !h.is_empty()) {
            breakpoints::hit_condition(h).map_err(BackendError::Failed)?;
        }
        let file = Path::new(&spec.file);
        if !file.is_file() {
            return Err(BackendError::NotFound(format!("file '{}'", file.display())));
        }
        let file = file.display().to_string();
        let id = {
            let mut store = self.inner.bps.lock().unwrap();
            let existing = store
                .list
                .iter()
                .find(|b| {
                    b.kind == BreakpointKind::Line
                        && b.file.as_deref() == Some(&file)
                        && b.requested_line == Some(spec.line)
                })
                .map(|b| b.id.clone());
            let id = existing.unwrap_or_else(|| store.new_id());
            let bp = BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Line,
                file: Some(file.clone()),
                requested_line: Some(spec.line),
                line: Some(spec.line),
                verified: false,
                message: Some(breakpoints::PENDING.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                hit_condition: spec.hit_condition.filter(|c| !c.is_empty()),
                suspend_policy: spec.suspend_policy,
                temporary: spec.temporary,
                ..Default::default()
            };
            match store.list.iter_mut().find(|b| b.id == id) {
                Some(b) => *b = bp,
                None => store.list.push(bp),
            }
            id
        };
        self.sync_all().await;
        self.inner.breakpoint(&id)
    }

    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        let name = match spec.exception.as_str() {
            "" | "all" | "raised" | "uncaught" | "Throwable" | "\\Throwable" => "*".to_string(),
            other => other.trim_start_matches('\\').to_string(),
        };
        let id = {
            let mut store = self.inner.bps.lock().unwrap();
            let existing = store
                .list
                .iter()
                .find(|b| {
                    b.kind == BreakpointKind::Exception && b.exception.as_deref() == Some(&name)
                })
                .map(|b| b.id.clone());
            let id = existing.unwrap_or_else(|| store.new_id());
            let bp = BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Exception,
                verified: false,
                message: Some(breakpoints::PENDING.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                exception: Some(name),
                // Xdebug stops where an exception is thrown, caught or not.
                caught: Some(true),
                uncaught: Some(true),
                suspend_policy: spec.suspend_policy,
                ..Default::default()
            };
            match store.list.iter_mut().find(|b| b.id == id) {
                Some(b) => *b = bp,
                None => store.list.push(bp),
            }
            id
        };
        self.sync_all().await;
        self.inner.breakpoint(&id)
    }

    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        if update.log_message.as_deref().is_some_and(|m| !m.is_empty()) {
            return Err(BackendError::Unsupported("Xdebug has no log points".into()));
        }
        if let Some(h) = update.hit_condition.as_deref().filter(|h| !h.is_empty()) {
            breakpoints::hit_condition(h).map_err(BackendError::Failed)?;
        }
        {
            let mut store = self.inner.bps.lock().unwrap();
            let b = store
                .list
                .iter_mut()
                .find(|b| b.id == id)
                .ok_or_else(|| BackendError::NotFound(format!("breakpoint '{id}'")))?;
            if let Some(e) = update.enabled {
                b.enabled = e;
            }
            if let Some(c) = update.condition {
                b.condition = Some(c).filter(|c| !c.is_empty());
            }
            if let Some(h) = update.hit_condition {
                b.hit_condition = Some(h).filter(|h| !h.is_empty());
            }
            if let Some(p) = update.suspend_policy {
                b.suspend_policy = p;
            }
            if let Some(t) = update.temporary {
                b.temporary = t;
            }
        }
        self.sync_all().await;
        self.inner.breakpoint(id)
    }

    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        self.inner.check_project(project)?;
        let removed = {
            let mut store = self.inner.bps.lock().unwrap();
            let before = store.list.len();
            store.list.retain(|b| b.id != id);
            before != store.list.len()
        };
        if !removed {
            return Err(BackendError::NotFound(format!("breakpoint '{id}'")));
        }
        self.sync_all().await;
        Ok(())
    }

    async fn control(
        &self,
        session_id: &str,
        _thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        let s = self.inner.session(session_id)?;
        if op == ControlOp::Pause {
            if s.state() == SessionState::Paused {
                return Ok(());
            }
            return Err(BackendError::Unsupported(
                "Xdebug cannot interrupt a running script; set a breakpoint (or call xdebug_break() in the code) and wait for it".into(),
            ));
        }
        s.require_paused()?;
        let command = match op {
            ControlOp::Resume => "run",
            ControlOp::StepOver { .. } => "step_over",
            ControlOp::StepInto { .. } => "step_into",
            ControlOp::StepOut => "step_out",
            ControlOp::RunTo { file, line, .. } => {
                let remote = s.pathmap.to_remote(Path::new(&file));
                s.req(
                    "breakpoint_set",
                    &[
                        ('t', "line".into()),
                        ('f', protocol::path_to_uri(&remote)),
                        ('n', line.to_string()),
                        ('r', "1".into()),
                    ],
                    None,
                )
                .await?;
                "run"
            }
            ControlOp::Pause => unreachable!(),
        };
        self.inner.cont(&s, command, false, true);
        Ok(())
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        let s = self.inner.session(session_id)?;
        let state = match s.state() {
            SessionState::Paused => "paused",
            SessionState::Stopped => "ended",
            _ => "running",
        };
        Ok(vec![ThreadInfo {
            id: "1".into(),
            name: s.name.lock().unwrap().clone(),
            state: state.into(),
            group: None,
        }])
    }

    async fn frames(
        &self,
        session_id: &str,
        _thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        let s = self.inner.session(session_id)?;
        let r = s.req("stack_get", &[], None).await?;
        let all: Vec<FrameInfo> = r
            .root
            .all("stack")
            .map(|f| {
                let level: u32 = f.attr("level").and_then(|l| l.parse().ok()).unwrap_or(0);
                let where_ = f.attr("where").unwrap_or("").to_string();
                let (class_name, method_name) =
                    match where_.split_once("->").or_else(|| where_.split_once("::")) {
                        Some((c, m)) => (Some(c.to_string()), Some(m.to_string())),
                        None => (None, Some(where_.clone())),
                    };
                let file = f.attr("filename").and_then(|u| s.local_file(u));
                let is_library = file.as_deref().is_some_and(|p| {
                    p.contains("/vendor/") || !p.starts_with(&*s.root.to_string_lossy())
                });
                FrameInfo {
                    index: level,
                    handle: level.to_string(),
                    file,
                    line: f.attr("lineno").and_then(|l| l.parse().ok()),
                    class_name,
                    method_name,
                    is_library,
                }
            })
            .collect();
        let total = all.len() as u32;
        Ok(FramePage {
            frames: all
                .into_iter()
                .skip(offset as usize)
                .take(limit as usize)
                .collect(),
            total: Some(total),
        })
    }

    async fn select_frame(
        &self,
        _session_id: &str,
        _thread_id: &str,
        _frame: &str,
    ) -> BackendResult<()> {
        Ok(())
    }

    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        let s = self.inner.session(session_id)?;
        let depth = frame_depth(frame)?;
        let r = s
            .req(
                "context_get",
                &[('d', depth.to_string()), ('c', "0".into())],
                None,
            )
            .await?;
        Ok(r.root
            .all("property")
            .map(parse_prop)
            .map(|p| to_node(&p, depth, 0, ValueScope::Local, &mut |r| s.handle(r)))
            .collect())
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        let s = self.inner.session(session_id)?;
        let r = s.prop_ref(handle)?;
        let mut out = Vec::new();
        let mut total = None;
        let end = offset.saturating_add(limit.max(1));
        let mut page = offset / PAGE;
        while page * PAGE < end {
            let resp = s
                .req(
                    "property_get",
                    &[
                        ('d', r.depth.to_string()),
                        ('c', r.context.to_string()),
                        ('p', page.to_string()),
                        ('n', r.fullname.clone()),
                    ],
                    None,
                )
                .await?;
            let Some(el) = resp.root.child("property") else {
                break;
            };
            let p = parse_prop(el);
            total = p.numchildren;
            let first = page * PAGE;
            let n = p.children.len() as u32;
            for (i, c) in p.children.iter().enumerate() {
                let idx = first + i as u32;
                if idx >= offset && idx < end {
                    out.push(to_node(
                        c,
                        r.depth,
                        r.context,
                        ValueScope::Local,
                        &mut |x| s.handle(x),
                    ));
                }
            }
            if n < PAGE {
                break;
            }
            page += 1;
        }
        Ok(ChildPage {
            children: out,
            total,
        })
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        let s = self.inner.session(session_id)?;
        let r = s.prop_ref(handle)?;
        let ctx = [
            ('d', r.depth.to_string()),
            ('c', r.context.to_string()),
            ('n', r.fullname.clone()),
        ];
        let set = s.req("property_set", &ctx, Some(new_value)).await?;
        if set.attr("success") != Some("1") {
            return Err(BackendError::Failed(format!(
                "Xdebug did not set {} to `{new_value}` (is it a valid PHP expression?)",
                r.fullname
            )));
        }
        let got = s.req("property_get", &ctx, None).await?;
        let el = got.root.child("property").ok_or_else(|| {
            BackendError::Failed("Xdebug returned no property after setting it".into())
        })?;
        Ok(to_node(
            &parse_prop(el),
            r.depth,
            r.context,
            ValueScope::Local,
            &mut |x| s.handle(x),
        ))
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        let s = self.inner.session(session_id)?;
        let depth = frame_depth(&request.frame)?;
        let expr = request.expression.trim();
        let (el, fullname) = if is_property_path(expr) {
            // Reads a variable in any frame, with a handle for its children.
            let r = s
                .req(
                    "property_get",
                    &[
                        ('d', depth.to_string()),
                        ('c', "0".into()),
                        ('n', expr.to_string()),
                    ],
                    None,
                )
                .await;
            match r {
                Ok(r) => (r.root.child("property").cloned(), Some(expr.to_string())),
                Err(BackendError::Failed(m)) if m.contains("error 300") => {
                    return Err(BackendError::Failed(format!(
                        "{expr} is not defined in frame {depth}"
                    )));
                }
                Err(e) => return Err(e),
            }
        } else {
            if depth != 0 {
                return Err(BackendError::Unsupported(format!(
                    "Xdebug evaluates expressions in the top frame only; in frame {depth} read variables by name (e.g. $order['total'])"
                )));
            }
            let r = s.req("eval", &[], Some(expr)).await.map_err(|e| match e {
                BackendError::Failed(m) if m.contains("error 206") => BackendError::Failed(
                    format!("PHP could not evaluate `{expr}` (error in the expression)"),
                ),
                other => other,
            })?;
            (r.root.child("property").cloned(), None)
        };
        let el = el.ok_or_else(|| {
            BackendError::Failed(format!("Xdebug returned no value for `{expr}`"))
        })?;
        let mut p = parse_prop(&el);
        if p.name.is_empty() {
            p.name = expr.to_string();
        }
        if let Some(f) = fullname.clone() {
            p.fullname = Some(f);
        }
        // A long string the agent asked for by name: fetch it whole (bounded).
        if p.type_name == "string"
            && let (Some(size), Some(f)) = (p.size, &fullname)
            && size > p.value.len() as u64
        {
            let m = size.min(LONG_STRING);
            if let Ok(v) = s
                .req(
                    "property_value",
                    &[
                        ('d', depth.to_string()),
                        ('c', "0".into()),
                        ('m', m.to_string()),
                        ('n', f.clone()),
                    ],
                    None,
                )
                .await
            {
                p.value = protocol::decoded_text(&v.root);
            }
        }
        let mut node = to_node(&p, depth, 0, ValueScope::Local, &mut |x| s.handle(x));
        if fullname.is_none() {
            // Eval results have no name Xdebug can find again; their children cannot be paged.
            node.set_handle = None;
            if node.has_children && p.children.is_empty() {
                node.children_handle = None;
            }
        }
        Ok(node)
    }

    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.inner.check_project(project)?;
        std::fs::read_to_string(path).map_err(|e| BackendError::NotFound(format!("{path}: {e}")))
    }

    async fn confirm(&self, _project: &str, _request: ConfirmRequest) -> BackendResult<bool> {
        Err(BackendError::Unsupported("no UI to confirm with".into()))
    }
}

impl DbgpBackend {
    /// Applies breakpoint changes to every paused session now; running ones get them at their
    /// next pause.
    async fn sync_all(&self) {
        let live: Vec<Arc<Session>> = self
            .inner
            .sessions
            .lock()
            .unwrap()
            .iter()
            .filter(|s| !s.is_ended())
            .cloned()
            .collect();
        for s in live {
            self.inner.sync_breakpoints(&s).await;
        }
    }
}

impl Drop for DbgpBackend {
    fn drop(&mut self) {
        for (_, t) in self.inner.listeners.lock().unwrap().drain() {
            t.abort();
        }
        for t in self.inner.traps.lock().unwrap().iter() {
            t.kill();
        }
    }
}
