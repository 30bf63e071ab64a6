//! The headless backend: DAP adapters and Xdebug behind one [`Backend`], so one `serve`
//! debugs a project's Python, C, Go and PHP alike. Each launch, session, breakpoint and
//! value goes to the backend that owns it: PHP configurations and trigger commands (`php …`,
//! `curl …`, adapter `php`) to DBGp, PHP files' breakpoints to DBGp, everything else to DAP.
//! Sessions and breakpoints are told apart by their ids (DBGp: `x1`, `p1`).

use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use debugger_mcp_dap::DapBackend;
use debugger_mcp_dbgp::DbgpBackend;
use std::path::Path;
use std::sync::Arc;

pub struct Headless {
    pub dap: Arc<DapBackend>,
    pub php: Arc<DbgpBackend>,
}

const PHP_EXTENSIONS: &[&str] = &["php", "phtml", "inc", "module", "phpt"];

fn is_php_file(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| PHP_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// DAP's exception filter ids; any other name on a PHP project is a PHP class.
const DAP_FILTERS: &[&str] = &[
    "raised",
    "uncaught",
    "userUnhandled",
    "cpp_throw",
    "cpp_catch",
    "signal",
];

impl Headless {
    fn php_session(&self, id: &str) -> bool {
        self.php.owns_session(id)
    }
    fn php_breakpoint(id: &str) -> bool {
        id.starts_with('p')
    }
    async fn php_project(&self, project: &str) -> bool {
        let root = Path::new(project);
        root.join("composer.json").is_file()
            || self
                .php
                .run_configurations(project)
                .await
                .is_ok_and(|c| !c.is_empty())
            || std::fs::read_dir(root).is_ok_and(|d| {
                d.flatten()
                    .any(|e| is_php_file(&e.path().display().to_string()))
            })
    }
}

#[async_trait]
impl Backend for Headless {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        let mut info = self.dap.handshake().await?;
        let php = self.php.handshake().await?;
        info.exception_filters.extend(php.exception_filters);
        Ok(info)
    }
    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        self.dap.projects().await
    }
    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        let mut all: Vec<RunConfigInfo> = self
            .dap
            .run_configurations(project)
            .await?
            .into_iter()
            .filter(|c| c.type_name != "php")
            .collect();
        all.extend(self.php.run_configurations(project).await?);
        Ok(all)
    }
    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        if self.php.handles(&request) {
            self.php.launch(project, request).await
        } else if request.attach.is_some() {
            // The DAP backend names the adapters that can attach; PHP's backend can too.
            self.dap
                .launch(project, request)
                .await
                .map_err(with_php_attach)
        } else {
            self.dap.launch(project, request).await
        }
    }
    fn launch_build_allowance(
        &self,
        project: &str,
        request: &LaunchRequest,
    ) -> std::time::Duration {
        if self.php.handles(request) {
            std::time::Duration::ZERO
        } else {
            self.dap.launch_build_allowance(project, request)
        }
    }
    async fn debug_test(&self, project: &str, request: TestRequest) -> BackendResult<SessionInfo> {
        self.dap.debug_test(project, request).await
    }
    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        let mut all = self.dap.sessions(project).await?;
        all.extend(self.php.sessions(project).await?);
        Ok(all)
    }
    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php.stop(session_id).await
        } else {
            self.dap.stop(session_id).await
        }
    }
    async fn terminate(&self, session_id: &str) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php.terminate(session_id).await
        } else {
            self.dap.terminate(session_id).await
        }
    }
    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>> {
        let mut all = self.dap.breakpoints(project).await?;
        all.extend(self.php.breakpoints(project).await?);
        Ok(all)
    }
    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        if is_php_file(&spec.file) {
            self.php.add_line_breakpoint(project, spec).await
        } else {
            self.dap.add_line_breakpoint(project, spec).await
        }
    }
    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        if !DAP_FILTERS.contains(&spec.exception.as_str()) && self.php_project(project).await {
            self.php.add_exception_breakpoint(project, spec).await
        } else {
            self.dap.add_exception_breakpoint(project, spec).await
        }
    }
    async fn add_data_breakpoint(
        &self,
        project: &str,
        spec: DataBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        // Watchpoints are DAP's (Xdebug has none): PHP sessions get the trait's refusal.
        if self.php_session(&spec.session_id) {
            self.php.add_data_breakpoint(project, spec).await
        } else {
            self.dap.add_data_breakpoint(project, spec).await
        }
    }
    async fn force_return(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
        value: &str,
    ) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php
                .force_return(session_id, thread_id, frame, value)
                .await
        } else {
            self.dap
                .force_return(session_id, thread_id, frame, value)
                .await
        }
    }
    fn pause_refusal(&self, request: &LaunchRequest) -> Option<String> {
        if self.php.handles(request) {
            self.php.pause_refusal(request)
        } else {
            self.dap.pause_refusal(request)
        }
    }
    fn trigger_refusal(&self, request: &LaunchRequest) -> Option<String> {
        if self.php.handles(request) {
            self.php.trigger_refusal(request)
        } else {
            self.dap.trigger_refusal(request)
        }
    }
    async fn run_trigger(&self, session_id: &str, command: &str) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php.run_trigger(session_id, command).await
        } else {
            self.dap.run_trigger(session_id, command).await
        }
    }
    fn force_return_refusal(&self, file: &str) -> Option<String> {
        if is_php_file(file) {
            Some("Xdebug cannot make a call return a value (gdb can, for C/C++)".into())
        } else {
            self.dap.force_return_refusal(file)
        }
    }
    async fn add_function_breakpoint(
        &self,
        project: &str,
        spec: FunctionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        // Xdebug has none: PHP functions bind through the core's project scan. A namespaced
        // name (`Ns\Class::method`) is PHP's: no DAP adapter would bind it, so it is refused
        // now rather than left pending, never to hit.
        if spec.name.contains('\\') {
            return Err(BackendError::NotFound(
                "a PHP name binds only where the project's sources define it (vendor/ is not searched): set a line breakpoint in its file instead".into(),
            ));
        }
        self.dap.add_function_breakpoint(project, spec).await
    }
    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        if Self::php_breakpoint(id) {
            self.php.update_breakpoint(project, id, update).await
        } else {
            self.dap.update_breakpoint(project, id, update).await
        }
    }
    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        if Self::php_breakpoint(id) {
            self.php.remove_breakpoint(project, id).await
        } else {
            self.dap.remove_breakpoint(project, id).await
        }
    }
    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php.control(session_id, thread_id, op).await
        } else {
            self.dap.control(session_id, thread_id, op).await
        }
    }
    fn pause_pending_note(&self, session_id: &str) -> Option<String> {
        // Xdebug refuses a pause outright (it cannot interrupt a script).
        if self.php_session(session_id) {
            None
        } else {
            self.dap.pause_pending_note(session_id)
        }
    }
    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        if self.php_session(session_id) {
            self.php.threads(session_id).await
        } else {
            self.dap.threads(session_id).await
        }
    }
    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        if self.php_session(session_id) {
            self.php.frames(session_id, thread_id, offset, limit).await
        } else {
            self.dap.frames(session_id, thread_id, offset, limit).await
        }
    }
    async fn select_frame(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
    ) -> BackendResult<()> {
        if self.php_session(session_id) {
            self.php.select_frame(session_id, thread_id, frame).await
        } else {
            self.dap.select_frame(session_id, thread_id, frame).await
        }
    }
    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        if self.php_session(session_id) {
            self.php.frame_variables(session_id, frame).await
        } else {
            self.dap.frame_variables(session_id, frame).await
        }
    }
    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        if self.php_session(session_id) {
            self.php.children(session_id, handle, offset, limit).await
        } else {
            self.dap.children(session_id, handle, offset, limit).await
        }
    }
    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        if self.php_session(session_id) {
            self.php.set_value(session_id, handle, new_value).await
        } else {
            self.dap.set_value(session_id, handle, new_value).await
        }
    }
    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        if self.php_session(session_id) {
            self.php.evaluate(session_id, request).await
        } else {
            self.dap.evaluate(session_id, request).await
        }
    }
    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.dap.read_source(project, path).await
    }
    async fn confirm(&self, project: &str, request: ConfirmRequest) -> BackendResult<bool> {
        self.dap.confirm(project, request).await
    }
}

/// A DAP refusal of an attach that lists the adapters able to: PHP's is one of them.
fn with_php_attach(e: BackendError) -> BackendError {
    let add = |m: String| {
        if m.contains("these can: ") {
            format!("{m}, php (a PHP process's pid, or the host:port its Xdebug connects to)")
        } else if m.contains(" or 'gdb' (gdbserver)") {
            m.replace(
                " or 'gdb' (gdbserver)",
                ", 'gdb' (gdbserver) or 'php' (listen there for a PHP process's Xdebug)",
            )
        } else {
            m.replace(
                "(debugpy, gdb, lldb or delve)",
                "(debugpy, gdb, lldb or delve; php for a PHP process with Xdebug)",
            )
        }
    };
    match e {
        BackendError::Unsupported(m) => BackendError::Unsupported(add(m)),
        BackendError::Failed(m) => BackendError::Failed(add(m)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn php_files_by_extension() {
        assert!(is_php_file("/p/src/Order.php") && is_php_file("/p/views/a.PHTML"));
        assert!(!is_php_file("/p/app.py") && !is_php_file("/p/php"));
    }
}
