//! One debug session = one Xdebug connection (one PHP request or CLI run), and the trigger
//! that may have caused it; the state the whole backend shares ([`Inner`]: project root,
//! session table, breakpoint store, traps, listeners, event sink), and how a session ends.

use crate::breakpoints::Applied;
use crate::launch::PhpLaunch;
use crate::protocol::{Response, uri_to_path};
use crate::transport::{Connection, RequestError};
use crate::values::PropRef;
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::{Located, PathMap};
use debugger_mcp_core::project::{self, BreakpointStore, SessionTable};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, oneshot};

/// Ordinary requests (stack, properties, eval, breakpoints).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(8);
/// How long a session whose process is the trigger waits for the trigger's exit (and last
/// output) after the connection closed.
const EXIT_GRACE: Duration = Duration::from_millis(1500);

/// What the whole backend shares: one project, its sessions, breakpoints, traps and listeners.
pub struct Inner {
    pub root: PathBuf,
    events: EventSink,
    pub sessions: SessionTable<Session>,
    pub bps: Mutex<BreakpointStore>,
    pub traps: Mutex<Vec<Arc<Trap>>>,
    /// Bound ports; `default_port` is the one triggers get unless a configuration names one.
    pub listeners: Mutex<HashMap<u16, tokio::task::JoinHandle<()>>>,
    pub default_port: tokio::sync::Mutex<Option<u16>>,
    pub port: AtomicU32,
    pub connect_timeout_ms: AtomicU64,
    /// `[php] listen_host`: loopback unless the user widened it for a container.
    pub listen_host: Mutex<std::net::IpAddr>,
    /// Mappings inferred from earlier connections' scripts (`listen::inferred_mapping`), kept
    /// for the later requests of the same server.
    pub inferred: Mutex<PathMap>,
    /// Scripts no project file matched (`listen::inferred_mapping`): not read and sought again
    /// at every request of a server.
    pub unmatched: Mutex<std::collections::HashSet<String>>,
}

/// A launch waiting for its Xdebug connection ("trap"), and its trigger process.
pub struct Trap {
    pub session_id: String,
    pub launch: PhpLaunch,
    pub port: u16,
    pub pid: Option<u32>,
    pub claimed: AtomicBool,
    pub claim_tx: Mutex<Option<oneshot::Sender<SessionInfo>>>,
    /// Trigger output not yet delivered to a session (kept for error messages too).
    pub pending_output: Mutex<Vec<(OutputCategory, String)>>,
    /// The session the trigger's output goes to, once a connection claimed the trap.
    pub output_to: Mutex<Option<String>>,
    /// Whether that session's PHP process is the trigger (a CLI run): then the trigger's stdout
    /// is the script's. Otherwise (curl) it repeats what Xdebug's stdout copy already gave.
    pub output_owned: AtomicBool,
    pub exit_code: Mutex<Option<Option<i64>>>,
    pub exited: Notify,
}

impl Trap {
    /// A trap that waits for a connection with nothing running to cause it (an attach).
    pub fn listening(session_id: String, launch: PhpLaunch, port: u16) -> Self {
        Self::new(session_id, launch, port, None, None)
    }

    pub fn new(
        session_id: String,
        launch: PhpLaunch,
        port: u16,
        pid: Option<u32>,
        claim_tx: Option<oneshot::Sender<SessionInfo>>,
    ) -> Self {
        Trap {
            session_id,
            launch,
            port,
            pid,
            claimed: AtomicBool::new(false),
            claim_tx: Mutex::new(claim_tx),
            pending_output: Mutex::default(),
            output_to: Mutex::default(),
            output_owned: AtomicBool::new(false),
            exit_code: Mutex::new(None),
            exited: Notify::new(),
        }
    }

    /// Keeps a line of the trigger's output (the last 200: for error messages and late delivery).
    pub fn keep(&self, category: OutputCategory, text: String) {
        let mut p = self.pending_output.lock().unwrap();
        if p.len() >= 200 {
            p.remove(0);
        }
        p.push((category, text));
    }
    pub fn running(&self) -> bool {
        self.pid.is_some() && self.exit_code.lock().unwrap().is_none()
    }
    /// The trigger's output kept so far, as one text.
    pub fn kept_output(&self) -> String {
        self.pending_output
            .lock()
            .unwrap()
            .iter()
            .map(|(_, t)| t.as_str())
            .collect()
    }
    /// Last lines of the trigger's output, for error messages.
    pub fn output_tail(&self) -> String {
        let all = self.kept_output();
        let lines: Vec<&str> = all.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    }
    /// Ends the trigger's process group (the group is its own: created with process_group(0)).
    pub fn kill(&self) {
        if let Some(pid) = self.pid.filter(|_| self.running()) {
            // SAFETY: kill(2) on our own child's process group; no memory is touched.
            unsafe {
                libc::kill(-(pid as i32), libc::SIGTERM);
            }
        }
    }
}

/// A pending step out to a return: `breakpoint_set` arguments, stack depth, Xdebug id.
pub type StepOut = (Vec<(char, String)>, usize, String);

pub struct Session {
    pub id: String,
    pub name: Mutex<String>,
    pub conn: Arc<Connection>,
    pub state: Mutex<SessionState>,
    pub appid: Option<u32>,
    pub pathmap: PathMap,
    pub root: std::path::PathBuf,
    /// The launch this connection belongs to; `owns_process` when the PHP process is the
    /// trigger itself or its child (a CLI run), not a web server's worker.
    pub trap: Option<Arc<Trap>>,
    pub owns_process: bool,
    pub stop_on_entry: bool,
    pub applied: tokio::sync::Mutex<Applied>,
    /// Value handles of the current pause.
    pub values: Mutex<Vec<PropRef>>,
    pub ended: AtomicBool,
    pub ended_notify: Notify,
    pub exit_code: Mutex<Option<i64>>,
    /// Stop location of the current pause (local path when mapped, line).
    pub location: Mutex<Option<(String, u32)>>,
    /// The current pause is a function's return (a return breakpoint): the returning frame is
    /// still frame 0 and `$__RETURN_VALUE` holds its result.
    pub at_return: AtomicBool,
    /// A step out running as "run to the function's return" (see `control`): the return
    /// breakpoint's arguments, the stack depth its stop must have (deeper is a recursive call
    /// of the same function returning, so it is armed again) and its Xdebug id.
    pub step_out: Mutex<Option<StepOut>>,
    /// Started with `stop_on_exception`: an exception thrown in library code runs on (see
    /// `events::past_library_exceptions`).
    pub user_exceptions_only: AtomicBool,
    /// The step running now watches for exceptions (`control::catch_in_step`): Some(the Xdebug
    /// ids of the exception breakpoints it set, removed at the stop that ends it; none when the
    /// user's own cover every throw).
    pub step_catch: Mutex<Option<Vec<String>>>,
    /// The exception the last step stopped at ("E: msg at lib.php:4"): the next step runs without
    /// catching (it is the exception's own way out) and its stop says where it went.
    pub step_exception: Mutex<Option<String>>,
    /// The agent (or the watchdog) ends this session: an attach stops listening with it.
    pub detaching: AtomicBool,
}

impl Session {
    pub fn info(&self) -> SessionInfo {
        SessionInfo {
            id: self.id.clone(),
            name: self.name.lock().unwrap().clone(),
            state: *self.state.lock().unwrap(),
            run_configuration: self
                .trap
                .as_ref()
                .and_then(|t| t.launch.run_configuration.clone()),
            process_id: self.appid,
            mode: LaunchMode::Debug,
            attached: self.trap.as_ref().is_some_and(|t| t.launch.attached),
            note: None,
        }
    }
    pub fn is_ended(&self) -> bool {
        self.ended.load(Ordering::SeqCst)
    }
    pub fn state(&self) -> SessionState {
        *self.state.lock().unwrap()
    }
    /// Moves the session to `s` unless it has ended: the end is final, and a continuation's
    /// answer read after it (another client stopped the script) must not bring it back.
    /// Returns whether it moved.
    pub fn set_state(&self, s: SessionState) -> bool {
        let mut st = self.state.lock().unwrap();
        if s != SessionState::Stopped && (self.is_ended() || *st == SessionState::Stopped) {
            return false;
        }
        *st = s;
        true
    }

    pub fn err(&self, e: RequestError) -> BackendError {
        match e {
            RequestError::Engine { code, message } => {
                BackendError::Failed(format!("Xdebug error {code}: {message}"))
            }
            RequestError::Closed(r) => {
                BackendError::InvalidState(format!("session {} has ended ({r})", self.id))
            }
            RequestError::Invalid(m) => BackendError::Failed(m),
        }
    }

    /// A request bounded by [`REQUEST_TIMEOUT`], only while paused (Xdebug reads nothing while
    /// the script runs).
    pub async fn req(
        &self,
        name: &str,
        args: &[(char, String)],
        data: Option<&str>,
    ) -> BackendResult<Response> {
        self.require_paused()?;
        match tokio::time::timeout(REQUEST_TIMEOUT, self.conn.request(name, args, data)).await {
            Ok(r) => r.map_err(|e| self.err(e)),
            Err(_) => Err(BackendError::Timeout(format!(
                "Xdebug did not answer `{name}` within {} s",
                REQUEST_TIMEOUT.as_secs()
            ))),
        }
    }

    /// An expression the agent evaluates, its floats written exactly
    /// ([`Connection::eval_exact`]); bounded and only while paused, as [`Session::req`].
    pub async fn eval_exact(&self, expr: &str) -> BackendResult<Response> {
        self.bounded_eval(self.conn.eval_exact(expr)).await
    }

    /// [`Session::eval_exact`] with Xdebug's `max_data` raised to `bytes` for this eval only
    /// ([`Connection::eval_whole`]).
    pub async fn eval_whole(&self, expr: &str, bytes: u64) -> BackendResult<Response> {
        self.bounded_eval(self.conn.eval_whole(expr, bytes)).await
    }

    /// An eval answered three levels deep ([`Connection::eval_deep`]).
    pub async fn eval_deep(&self, expr: &str) -> BackendResult<Response> {
        self.bounded_eval(self.conn.eval_deep(expr)).await
    }

    /// One of the connection's evals, only while paused and within [`REQUEST_TIMEOUT`].
    async fn bounded_eval(
        &self,
        eval: impl std::future::Future<Output = Result<Response, crate::transport::RequestError>>,
    ) -> BackendResult<Response> {
        self.require_paused()?;
        match tokio::time::timeout(REQUEST_TIMEOUT, eval).await {
            Ok(r) => r.map_err(|e| self.err(e)),
            Err(_) => Err(BackendError::Timeout(format!(
                "Xdebug did not answer `eval` within {} s",
                REQUEST_TIMEOUT.as_secs()
            ))),
        }
    }

    pub fn require_paused(&self) -> BackendResult<()> {
        match self.state() {
            SessionState::Paused => Ok(()),
            SessionState::Stopped => Err(BackendError::InvalidState(format!(
                "session {} has ended",
                self.id
            ))),
            _ => Err(BackendError::InvalidState(format!(
                "session {} is running; Xdebug answers only while the script is paused (wait for a pause)",
                self.id
            ))),
        }
    }

    /// A DBGp file URI as agents should see it: a local path, or the remote path marked as
    /// unmapped.
    pub fn local_file(&self, uri: &str) -> Option<String> {
        let remote = uri_to_path(uri)?;
        match self.pathmap.to_local(&remote) {
            Located::Local(p) => Some(p.display().to_string()),
            Located::Unmapped(r) => Some(format!(
                "{r} (remote path, no mapping covers it: add pathMappings to .vscode/launch.json or a volume to docker-compose.yml)"
            )),
        }
    }

    /// `src/lib.php:4`: a place in a note, relative to the project (the remote path when no
    /// mapping covers it).
    pub fn place(&self, uri: &str, line: Option<u32>) -> Option<String> {
        let remote = uri_to_path(uri)?;
        let path = match self.pathmap.to_local(&remote) {
            Located::Local(p) => p
                .strip_prefix(&self.root)
                .map(Path::to_path_buf)
                .unwrap_or(p)
                .display()
                .to_string(),
            Located::Unmapped(r) => r,
        };
        Some(match line {
            Some(l) => format!("{path}:{l}"),
            None => path,
        })
    }

    pub fn handle(&self, r: PropRef) -> String {
        let mut v = self.values.lock().unwrap();
        if let Some(i) = v.iter().position(|x| *x == r) {
            return i.to_string();
        }
        v.push(r);
        (v.len() - 1).to_string()
    }

    pub fn prop_ref(&self, handle: &str) -> BackendResult<PropRef> {
        let i: usize = handle
            .parse()
            .map_err(|_| BackendError::NotFound(format!("value handle '{handle}'")))?;
        self.values.lock().unwrap().get(i).cloned().ok_or_else(|| {
            BackendError::NotFound(format!(
                "value handle '{handle}' (values are valid until the script resumes)"
            ))
        })
    }

    /// "GET /api/checkout" for a web request, else the script (project-relative when it can).
    pub fn what_ran(
        root: &Path,
        script: Option<&str>,
        request: Option<(String, String)>,
    ) -> String {
        if let Some((method, uri)) = request {
            return format!("{method} {uri}");
        }
        match script {
            Some(s) => Path::new(s)
                .strip_prefix(root)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| s.to_string()),
            None => "php".into(),
        }
    }
}

debugger_mcp_core::table_entry!(Session);

impl Inner {
    pub fn new(root: PathBuf, events: EventSink) -> Self {
        Inner {
            root,
            events,
            sessions: SessionTable::new('x'),
            bps: Mutex::new(BreakpointStore::new("p")),
            traps: Mutex::default(),
            listeners: Mutex::default(),
            default_port: tokio::sync::Mutex::new(None),
            port: AtomicU32::new(crate::DEFAULT_PORT as u32),
            connect_timeout_ms: AtomicU64::new(20_000),
            listen_host: Mutex::new(std::net::Ipv4Addr::LOCALHOST.into()),
            inferred: Mutex::default(),
            unmatched: Mutex::default(),
        }
    }

    pub fn check_project(&self, project: &str) -> BackendResult<()> {
        project::check_project(&self.root, project)
    }

    pub fn session(&self, id: &str) -> BackendResult<Arc<Session>> {
        self.sessions.get(id)
    }

    /// An attach still waiting for its first request: its session id is known, its session not.
    pub fn pending_attach(&self, id: &str) -> Option<Arc<Trap>> {
        self.traps
            .lock()
            .unwrap()
            .iter()
            .find(|t| t.session_id == id && t.launch.attached && !t.claimed.load(Ordering::SeqCst))
            .cloned()
    }

    /// Ends an attach that no request reached: nothing to detach from, it stops listening for it.
    pub fn drop_pending(&self, t: &Arc<Trap>) {
        t.kill();
        self.traps.lock().unwrap().retain(|x| !Arc::ptr_eq(x, t));
        self.emit(BackendEvent::Stopped {
            session_id: t.session_id.clone(),
            exit_code: None,
        });
    }

    pub fn new_session_id(&self) -> String {
        self.sessions.next_id()
    }

    pub fn emit(&self, e: BackendEvent) {
        self.events.send(e);
    }

    /// The session ended (connection closed): once, after the trigger's last output.
    pub async fn end(&self, s: &Arc<Session>, reason: &str) {
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
        if !s.detaching.load(Ordering::SeqCst) && self.rearm(s) {
            let _ = s.set_state(SessionState::Stopped);
            tracing::debug!(session = %s.id, reason, "request ended; the attach listens on");
            s.ended_notify.notify_waiters();
            return;
        }
        let _ = s.set_state(SessionState::Stopped);
        tracing::debug!(session = %s.id, reason, "session ended");
        let exit_code = *s.exit_code.lock().unwrap();
        self.emit(BackendEvent::Stopped {
            session_id: s.id.clone(),
            exit_code,
        });
        s.ended_notify.notify_waiters();
    }

    /// An attach whose requests a command sends (start_debug_session {attach, command},
    /// wait_for_pause {command}) outlives each request, as an attach to any other running
    /// program does: when such a request of attached session `s` ends on its own (it was
    /// running, not stopped by the agent, and the process is still there), the session listens
    /// again under its id for the next one (a fresh trap, claimed as the first was), so
    /// `wait_for_pause {command}` can send it; the core keeps the session running and the
    /// command's end tells the request's. A request the agent sent itself has no such end to
    /// tell: its session ends with it, as before. Returns whether it listens again.
    fn rearm(&self, s: &Arc<Session>) -> bool {
        let Some(t) = &s.trap else { return false };
        if !t.launch.attached
            || t.launch.command.is_none()
            || t.session_id != s.id
            || s.state() != SessionState::Running
        {
            return false;
        }
        if t.launch
            .attach_pid
            .is_some_and(|p| !Path::new(&format!("/proc/{p}")).exists())
        {
            return false;
        }
        let mut launch = t.launch.clone();
        launch.command = None;
        let fresh = Arc::new(Trap::listening(s.id.clone(), launch, t.port));
        self.sessions.remove(&s.id);
        let mut traps = self.traps.lock().unwrap();
        // The old trap stays while its trigger runs (its end is still to be told).
        traps.retain(|x| !Arc::ptr_eq(x, t) || x.running());
        traps.push(fresh);
        true
    }

    pub async fn stop(&self, s: &Arc<Session>) {
        s.detaching.store(true, Ordering::SeqCst);
        if s.state() == SessionState::Paused {
            // Attached: the request runs on to its end (`detach`); else the script ends.
            let how = if s.info().attached { "detach" } else { "stop" };
            let _ =
                tokio::time::timeout(Duration::from_secs(3), s.conn.request(how, &[], None)).await;
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
