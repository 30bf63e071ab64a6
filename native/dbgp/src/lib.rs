//! The DBGp backend: PHP through Xdebug 3, headless. Xdebug connects to us (loopback, port
//! 9003 or the next free of 9004-9010); each connection is one PHP request or CLI run and
//! becomes one debug session, named by what ran (`app.php`, `GET /api/checkout`).
//!
//! The crate has the backend shape of docs/ARCHITECTURE.md, the DAP crate's, a module per
//! responsibility: `protocol` (framing, typed packets, command encoding), `transport` (one
//! reader task per connection, requests as futures, streams/notifications on a channel),
//! `session` (sessions and the state the backend shares), `launch` (configurations, triggers,
//! the Xdebug check, starting one), `listen` (ports, and connections becoming sessions),
//! `control` (running, stepping, stack), `breakpoints`, `values`, `events` (Xdebug's answers
//! and notifications → backend events). Sessions and breakpoints are kept in the core's
//! `project` table and store, as the DAP backend keeps them.
//!
//! This file only routes each [`Backend`] op to its module.
//!
//! Architecture invariant: everything agent-facing (waits, ids, truncation, history, JSONPath)
//! stays in the core; this crate only speaks DBGp and maps paths through the core's `pathmap`.

pub mod attach;
pub mod breakpoints;
mod control;
pub mod events;
pub mod launch;
mod listen;
pub mod protocol;
pub mod session;
pub mod transport;
pub mod values;

use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use session::Inner;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Children per `property_get` page (Xdebug's `max_children`).
pub const PAGE: u32 = 100;
pub const DEFAULT_PORT: u16 = 9003;

pub struct DbgpBackend {
    inner: Arc<Inner>,
}

impl DbgpBackend {
    pub fn new(project_root: impl Into<PathBuf>, events: EventSink) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(project_root.into())?;
        Ok(Self {
            inner: Arc::new(Inner::new(root, events)),
        })
    }

    /// `[php] port`: the first port tried (then the next seven).
    pub fn set_port(&self, port: u16) {
        self.inner.port.store(port as u32, Ordering::Relaxed);
    }

    /// `[php] listen_host`: the address Xdebug connects to (loopback unless widened).
    pub fn set_listen_host(&self, host: std::net::IpAddr) {
        *self.inner.listen_host.lock().unwrap() = host;
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
        match &request.attach {
            Some(AttachTarget::Pid(pid)) => return attach::is_php_pid(*pid),
            Some(AttachTarget::Address(addr)) => return self.xdebug_connects_to(addr),
            None => {}
        }
        if let Some(c) = &request.configuration {
            return launch::has_configuration(&self.inner.root, c);
        }
        request
            .command
            .as_deref()
            .is_some_and(launch::is_php_command)
    }

    /// An address named with no adapter is where a PHP process's Xdebug connects to (ours to
    /// listen at) when we listen there already, or when nothing on this machine listens there
    /// and the project has PHP code: the debuggers that serve at an address (debugpy, dlv,
    /// gdbserver) listen themselves. Elsewhere the DAP backend answers, naming 'php' if nobody.
    fn xdebug_connects_to(&self, addr: &str) -> bool {
        use debugger_mcp_core::backend::{can_read_listeners, is_loopback, listening_inode};
        let Some((host, port)) = addr.rsplit_once(':') else {
            return false;
        };
        let Ok(port) = port.parse::<u16>() else {
            return false;
        };
        if !is_loopback(host) {
            return false;
        }
        if self.inner.listeners.lock().unwrap().contains_key(&port) {
            return true;
        }
        can_read_listeners()
            && listening_inode(port).is_none()
            && debugger_mcp_core::project::has_source(&self.inner.root, "php")
    }

    pub fn owns_session(&self, id: &str) -> bool {
        id.starts_with('x')
            && (self.inner.session(id).is_ok() || self.inner.pending_attach(id).is_some())
    }
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
        // With attach, the command arrives as the trigger: on PHP a command is always one.
        let mut request = request;
        if request.command.is_none() {
            request.command = request.trigger.take();
        }
        // Its own task: a caller giving up does not leave a half-registered trap behind.
        let inner = self.inner.clone();
        tokio::spawn(async move { inner.launch(request).await })
            .await
            .unwrap_or_else(|e| Err(BackendError::Failed(format!("launch task failed: {e}"))))
    }

    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.inner.check_project(project)?;
        let mut all = self.inner.sessions.infos();
        for t in self.inner.traps.lock().unwrap().iter() {
            if t.launch.attached && !t.claimed.load(Ordering::SeqCst) {
                all.push(SessionInfo {
                    id: t.session_id.clone(),
                    name: t.launch.name.clone(),
                    state: SessionState::Running,
                    run_configuration: t.launch.run_configuration.clone(),
                    process_id: t.launch.attach_pid,
                    mode: LaunchMode::Debug,
                    attached: true,
                    note: None,
                });
            }
        }
        Ok(all)
    }

    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        if let Some(t) = self.inner.pending_attach(session_id) {
            self.inner.drop_pending(&t);
            return Ok(());
        }
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
        self.inner.add_line_breakpoint(spec).await
    }

    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        self.inner.add_exception_breakpoint(spec).await
    }

    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        self.inner.update_breakpoint(id, update).await
    }

    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        self.inner.check_project(project)?;
        self.inner.remove_breakpoint(id).await
    }

    async fn control(
        &self,
        session_id: &str,
        _thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        let s = self.inner.session(session_id)?;
        self.inner.control(&s, op).await
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        self.inner.session(session_id)?.threads().await
    }

    async fn frames(
        &self,
        session_id: &str,
        _thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        self.inner.session(session_id)?.frames(offset, limit).await
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
        self.inner.session(session_id)?.frame_variables(frame).await
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        let s = self.inner.session(session_id)?;
        s.children(handle, offset, limit).await
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        let s = self.inner.session(session_id)?;
        s.set_value(handle, new_value).await
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        self.inner.session(session_id)?.evaluate(request).await
    }

    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.inner.check_project(project)?;
        std::fs::read_to_string(path).map_err(|e| BackendError::NotFound(format!("{path}: {e}")))
    }

    /// PHP runs every command as a trigger (Xdebug connects back for what it sends): with
    /// attach it is the same, pointed at the attached process's Xdebug port.
    fn trigger_refusal(&self, _request: &LaunchRequest) -> Option<String> {
        None
    }

    /// Xdebug answers only inside a request it runs (control's Pause refusal says the same).
    fn pause_refusal(&self, _request: &LaunchRequest) -> Option<String> {
        Some("Xdebug cannot interrupt PHP: it is read only inside a request it runs".into())
    }

    /// wait_for_pause {command} on an attached session: the next request, sent as the attach's
    /// trigger was (see `launch::run_trigger`).
    async fn run_trigger(&self, session_id: &str, command: &str) -> BackendResult<()> {
        let inner = self.inner.clone();
        let (id, command) = (session_id.to_string(), command.to_string());
        tokio::spawn(async move { inner.run_trigger(&id, &command).await })
            .await
            .unwrap_or_else(|e| Err(BackendError::Failed(format!("trigger task failed: {e}"))))
    }

    async fn confirm(&self, _project: &str, _request: ConfirmRequest) -> BackendResult<bool> {
        Err(BackendError::Unsupported("no UI to confirm with".into()))
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
