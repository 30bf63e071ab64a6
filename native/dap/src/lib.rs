//! The DAP backend: a typed DAP client and the [`Backend`] implementation over real adapters
//! (debugpy, gdb, lldb-dap, delve), plus run configurations from `.vscode/launch.json` and
//! `debugger-mcp.toml`.

use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use std::path::PathBuf;

pub struct DapBackend {
    #[allow(dead_code)]
    root: PathBuf,
    #[allow(dead_code)]
    events: EventSink,
}

impl DapBackend {
    /// A backend for one project directory; events go to `events`.
    pub fn new(project_root: impl Into<PathBuf>, events: EventSink) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(project_root.into())?;
        Ok(Self { root, events })
    }
}

fn todo<T>() -> BackendResult<T> {
    Err(BackendError::Unsupported("not implemented yet".into()))
}

#[async_trait]
impl Backend for DapBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> { todo() }
    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> { todo() }
    async fn run_configurations(&self, _: &str) -> BackendResult<Vec<RunConfigInfo>> { todo() }
    async fn launch(&self, _: &str, _: LaunchRequest) -> BackendResult<SessionInfo> { todo() }
    async fn sessions(&self, _: &str) -> BackendResult<Vec<SessionInfo>> { todo() }
    async fn stop(&self, _: &str) -> BackendResult<()> { todo() }
    async fn breakpoints(&self, _: &str) -> BackendResult<Vec<BreakpointInfo>> { todo() }
    async fn add_line_breakpoint(&self, _: &str, _: LineBreakpointSpec) -> BackendResult<BreakpointInfo> { todo() }
    async fn add_exception_breakpoint(&self, _: &str, _: ExceptionBreakpointSpec) -> BackendResult<BreakpointInfo> { todo() }
    async fn update_breakpoint(&self, _: &str, _: &str, _: BreakpointUpdate) -> BackendResult<BreakpointInfo> { todo() }
    async fn remove_breakpoint(&self, _: &str, _: &str) -> BackendResult<()> { todo() }
    async fn control(&self, _: &str, _: Option<&str>, _: ControlOp) -> BackendResult<()> { todo() }
    async fn threads(&self, _: &str) -> BackendResult<Vec<ThreadInfo>> { todo() }
    async fn frames(&self, _: &str, _: &str, _: u32, _: u32) -> BackendResult<FramePage> { todo() }
    async fn select_frame(&self, _: &str, _: &str, _: &str) -> BackendResult<()> { todo() }
    async fn frame_variables(&self, _: &str, _: &str) -> BackendResult<Vec<ValueNode>> { todo() }
    async fn children(&self, _: &str, _: &str, _: u32, _: u32) -> BackendResult<ChildPage> { todo() }
    async fn set_value(&self, _: &str, _: &str, _: &str) -> BackendResult<ValueNode> { todo() }
    async fn evaluate(&self, _: &str, _: EvalRequest) -> BackendResult<ValueNode> { todo() }
    async fn read_source(&self, _: &str, _: &str) -> BackendResult<String> { todo() }
    async fn confirm(&self, _: &str, _: ConfirmRequest) -> BackendResult<bool> { todo() }
}
