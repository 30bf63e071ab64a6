//! The DAP backend: the [`Backend`] implementation over real debug adapters (debugpy, gdb,
//! lldb-dap, delve), with run configurations from `.vscode/launch.json` and
//! `debugger-mcp.toml`.
//!
//! The backend stays thin: it translates ops to DAP requests and DAP events to
//! [`BackendEvent`]s; waiting, ids, truncation and confirmations are the core's. The crate
//! follows the backend shape of docs/ARCHITECTURE.md, a module per responsibility:
//!
//! - [`protocol`]: typed DAP messages; [`transport`]: one connection per adapter process.
//! - `session`: sessions and the state the backend shares; `launch`: starting one;
//!   `control`: running and stepping; `breakpoints`, `function_bps`; `values`; `events`: DAP events →
//!   backend events; `config`: run configurations and command lines.
//! - `adapters`: what differs between debuggers, one module each behind the `Adapter`
//!   trait. Nothing outside it names an adapter.
//!
//! This file only routes each [`Backend`] op to its module.

mod adapters;
mod after_throw;
mod assign;
mod attach;
mod breakpoints;
mod c_macros;
mod c_strings;
mod config;
mod control;
mod events;
mod function_bps;
mod launch;
#[cfg(unix)]
mod program_stderr;
pub mod protocol;
mod session;
mod step_raises;
mod string_limit;
pub mod transport;
mod trigger;
mod values;

use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use session::Inner;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub struct DapBackend {
    inner: Arc<Inner>,
}

impl DapBackend {
    /// A backend for one project directory; events go to `events`.
    pub fn new(project_root: impl Into<PathBuf>, events: EventSink) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(project_root.into())?;
        Ok(Self {
            inner: Arc::new(Inner::new(root, events)),
        })
    }

    /// Ends a session: an attached process is detached from (breakpoints out, running) unless
    /// `kill`; a launched one is always killed.
    async fn end(&self, session_id: &str, kill: bool) -> BackendResult<()> {
        let s = self.inner.session(session_id)?;
        // Ended already: make sure nothing is left running, then report success (the goal is
        // reached).
        let was_ended = s.is_ended();
        let detach = s.request == "attach" && !kill;
        if detach && !was_ended {
            self.inner.clear_for_detach(&s).await;
        }
        s.shutdown_with(!detach).await;
        if !was_ended {
            let why = if detach {
                "detached on request"
            } else {
                "stopped on request"
            };
            self.inner.mark_ended(&s, why.into());
        }
        Ok(())
    }

    /// `[go] build_timeout_ms` of the settings: how long the Go build before a delve session
    /// may take.
    pub fn set_go_build_timeout(&self, timeout: Duration) {
        self.inner.settings.set_go_build_timeout(timeout);
    }
}

#[async_trait]
impl Backend for DapBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        Ok(BackendInfo {
            name: "dap".into(),
            table_version: TABLE_VERSION,
            can_confirm: false,
            supports_set_value: true,
            supports_code_fragments: true,
            supports_exception_breakpoints: true,
            exception_filters: self.inner.known_filters.lock().unwrap().clone(),
        })
    }

    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        let root = &self.inner.root;
        Ok(vec![ProjectInfo {
            name: root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| root.display().to_string()),
            root: root.display().to_string(),
        }])
    }

    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        self.inner.check_project(project)?;
        config::list(&self.inner.root)
    }

    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        self.inner.check_project(project)?;
        // A task of its own: if the caller gives up (the core's timeout drops this future), the
        // launch still either completes or cleans up after itself instead of leaving a
        // half-configured adapter behind.
        let inner = self.inner.clone();
        tokio::spawn(async move { launch::launch(&inner, request).await })
            .await
            .unwrap_or_else(|e| Err(BackendError::Failed(format!("launch task failed: {e}"))))
    }

    fn launch_build_allowance(&self, project: &str, request: &LaunchRequest) -> Duration {
        if self.inner.check_project(project).is_err() {
            return Duration::ZERO;
        }
        launch::allowance(&self.inner, request)
    }

    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.inner.check_project(project)?;
        Ok(self.inner.sessions.infos())
    }

    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        self.end(session_id, false).await
    }

    async fn terminate(&self, session_id: &str) -> BackendResult<()> {
        self.end(session_id, true).await
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

    async fn add_data_breakpoint(
        &self,
        project: &str,
        spec: DataBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        self.inner.add_data_breakpoint(spec).await
    }

    async fn force_return(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
        value: &str,
    ) -> BackendResult<()> {
        let s = self.inner.live(session_id)?;
        let Some(command) = s.adapter.force_return_command(value) else {
            return Err(BackendError::Unsupported(format!(
                "the {} adapter cannot make a call return a value; gdb can (its `return`)",
                s.adapter.name()
            )));
        };
        let request = EvalRequest {
            thread_id: thread_id.to_string(),
            frame: frame.to_string(),
            expression: command,
            context: EvalContext::Repl,
            allow_side_effects: true,
            format: None,
        };
        self.inner.evaluate(&s, request).await.map(|_| ())
    }

    /// The adapter that runs a source file is the one claiming its name (debugpy `.py`, delve
    /// `.go`); native sources (C, C++) are claimed by none: their binary runs under gdb or lldb,
    /// and gdb can.
    /// Every adapter's attach takes a trigger: it runs beside the debuggee (`trigger.rs`).
    fn trigger_refusal(&self, request: &LaunchRequest) -> Option<String> {
        request
            .attach
            .is_none()
            .then(|| "a trigger goes with attach; a launch runs its command itself".into())
    }

    /// A trigger for a live session (wait_for_pause {command}): run as the attach's is, from
    /// the project root; one at a time per session (the session holds the running one).
    async fn run_trigger(&self, session_id: &str, command: &str) -> BackendResult<()> {
        let s = self.inner.live(session_id)?;
        if s.trigger.lock().unwrap().is_some() {
            return Err(BackendError::InvalidState(
                "the session's previous command still runs; wait for its end (wait_for_pause) before sending another".into(),
            ));
        }
        crate::trigger::start(&self.inner, &s, command, &self.inner.root)
    }

    fn force_return_refusal(&self, file: &str) -> Option<String> {
        let name = std::path::Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        adapters::ADAPTERS
            .iter()
            .find(|a| a.claims_file_name(&name))
            .filter(|a| a.force_return_command("0").is_none())
            .map(|a| format!("the {} adapter, which debugs {name}, cannot make a call return a value (gdb can, for C/C++)", a.name()))
    }
    async fn add_function_breakpoint(
        &self,
        project: &str,
        spec: FunctionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        self.inner.add_function_breakpoint(spec).await
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
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        let s = self.inner.live(session_id)?;
        self.inner.control(&s, thread_id, op).await
    }

    fn pause_pending_note(&self, session_id: &str) -> Option<String> {
        let s = self.inner.session(session_id).ok()?;
        s.adapter.pause_pending_note().map(str::to_string)
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        let s = self.inner.live(session_id)?;
        self.inner.threads(&s).await
    }

    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        let s = self.inner.live(session_id)?;
        self.inner.frames(&s, thread_id, offset, limit).await
    }

    async fn select_frame(
        &self,
        session_id: &str,
        _thread_id: &str,
        _frame: &str,
    ) -> BackendResult<()> {
        // DAP requests name their frame; nothing to select.
        self.inner.live(session_id)?;
        Ok(())
    }

    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        let s = self.inner.live(session_id)?;
        self.inner.frame_variables(&s, frame).await
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        let s = self.inner.live(session_id)?;
        let asked = handle
            .parse::<i64>()
            .is_ok_and(|r| s.values.lock().unwrap().asked_refs.contains(&r));
        let Some(strings) = s.adapter.whole_strings().filter(|_| asked) else {
            return self.inner.children(&s, handle, offset, limit).await;
        };
        // Inside an agent's expression: its strings whole, as the expression's own value.
        let raised = string_limit::Raised::raise(s.clone(), strings).await;
        let page = self.inner.children(&s, handle, offset, limit).await;
        raised.set_back().await;
        if let Ok(p) = &page {
            let mut v = s.values.lock().unwrap();
            v.asked_refs.extend(
                p.children
                    .iter()
                    .filter_map(|c| c.children_handle.as_deref()?.parse::<i64>().ok()),
            );
        }
        page
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        let s = self.inner.live(session_id)?;
        self.inner.set_value(&s, handle, new_value).await
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        let s = self.inner.live(session_id)?;
        // An agent's expression reads a string whole (up to the core's bound): the debugger's
        // own limit is raised for it, then set back to the user's, also when this call is
        // given up on (watches and captures keep row length; a repl command raises it only
        // around its try as an expression, see `values`).
        match (request.context, s.adapter.whole_strings()) {
            (EvalContext::Expression, Some(limit)) => {
                let raised = string_limit::Raised::raise(s.clone(), limit).await;
                let r = self.inner.evaluate(&s, request).await;
                raised.set_back().await;
                if let Some(h) = r.as_ref().ok().and_then(|n| n.children_handle.as_deref())
                    && let Ok(h) = h.parse::<i64>()
                {
                    s.values.lock().unwrap().asked_refs.insert(h);
                }
                r
            }
            (EvalContext::Repl | EvalContext::CodeFragment, Some(_)) => {
                let r = self.inner.evaluate(&s, request).await;
                // The command may have set the limit: the user's, read again.
                string_limit::forget(&s).await;
                r
            }
            _ => self.inner.evaluate(&s, request).await,
        }
    }

    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.inner.check_project(project)?;
        let p = self.inner.absolute(path);
        tokio::fs::read_to_string(&p)
            .await
            .map_err(|e| BackendError::NotFound(format!("file '{}': {e}", p.display())))
    }

    async fn confirm(&self, _project: &str, _request: ConfirmRequest) -> BackendResult<bool> {
        Err(BackendError::Unsupported(
            "the headless DAP backend has no UI to ask the user".into(),
        ))
    }
}

impl Drop for DapBackend {
    fn drop(&mut self) {
        self.inner.kill_all_now();
    }
}
