//! Op-name dispatch over any `Backend`: parses an op's JSON arguments into the trait method's
//! typed parameters, calls it, and serialises the typed result. It backs
//! `NativeBridge.backendCall`, the diagnostic entry that lets Java tests (and the benchmark)
//! drive the full typed path Rust → JSON → JVM → JSON → Rust without the engine's tools.

use debugger_mcp_core::backend::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn arg<T: DeserializeOwned>(args: &Value, name: &str) -> BackendResult<T> {
    let v = args.get(name).cloned().unwrap_or(Value::Null);
    serde_json::from_value(v).map_err(|e| BackendError::Failed(format!("argument `{name}`: {e}")))
}

fn out<T: Serialize>(r: BackendResult<T>) -> BackendResult<Value> {
    r.map(|v| serde_json::to_value(v).unwrap_or(Value::Null))
}

pub async fn dispatch(backend: &dyn Backend, op: &str, args: &Value) -> BackendResult<Value> {
    let s = |n: &str| arg::<String>(args, n);
    let u = |n: &str| arg::<u32>(args, n);
    match op {
        "handshake" => out(backend.handshake().await),
        "projects" => out(backend.projects().await),
        "run_configurations" => out(backend.run_configurations(&s("project")?).await),
        "launch" => out(backend.launch(&s("project")?, arg(args, "request")?).await),
        "sessions" => out(backend.sessions(&s("project")?).await),
        "stop" => out(backend.stop(&s("session_id")?).await),
        "breakpoints" => out(backend.breakpoints(&s("project")?).await),
        "add_line_breakpoint" => out(backend.add_line_breakpoint(&s("project")?, arg(args, "spec")?).await),
        "add_exception_breakpoint" => out(backend.add_exception_breakpoint(&s("project")?, arg(args, "spec")?).await),
        "update_breakpoint" => {
            out(backend.update_breakpoint(&s("project")?, &s("id")?, arg(args, "update")?).await)
        }
        "remove_breakpoint" => out(backend.remove_breakpoint(&s("project")?, &s("id")?).await),
        "control" => {
            let thread: Option<String> = arg(args, "thread_id")?;
            out(backend.control(&s("session_id")?, thread.as_deref(), arg(args, "op")?).await)
        }
        "threads" => out(backend.threads(&s("session_id")?).await),
        "frames" => out(backend.frames(&s("session_id")?, &s("thread_id")?, u("offset")?, u("limit")?).await),
        "select_frame" => out(backend.select_frame(&s("session_id")?, &s("thread_id")?, &s("frame")?).await),
        "frame_variables" => out(backend.frame_variables(&s("session_id")?, &s("frame")?).await),
        "children" => out(backend.children(&s("session_id")?, &s("handle")?, u("offset")?, u("limit")?).await),
        "set_value" => out(backend.set_value(&s("session_id")?, &s("handle")?, &s("new_value")?).await),
        "evaluate" => out(backend.evaluate(&s("session_id")?, arg(args, "request")?).await),
        "read_source" => out(backend.read_source(&s("project")?, &s("path")?).await),
        "confirm" => out(backend.confirm(&s("project")?, arg(args, "request")?).await),
        other => Err(BackendError::NotFound(format!("no op `{other}` in table version {TABLE_VERSION}"))),
    }
}

/// Every op name of the table (docs and tests check they are all documented and dispatched).
pub const OPS: &[&str] = &[
    "handshake",
    "projects",
    "run_configurations",
    "launch",
    "sessions",
    "stop",
    "breakpoints",
    "add_line_breakpoint",
    "add_exception_breakpoint",
    "update_breakpoint",
    "remove_breakpoint",
    "control",
    "threads",
    "frames",
    "select_frame",
    "frame_variables",
    "children",
    "set_value",
    "evaluate",
    "read_source",
    "confirm",
];
