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

/// Serialises straight to text (no intermediate `Value` tree: this sits on the benchmarked path).
fn out<T: Serialize>(r: BackendResult<T>) -> BackendResult<String> {
    r.map(|v| serde_json::to_string(&v).unwrap_or_else(|_| "null".into()))
}

/// Runs op `op`; the result is the JSON text of the typed answer.
pub async fn dispatch(backend: &dyn Backend, op: &str, args: &Value) -> BackendResult<String> {
    let s = |n: &str| arg::<String>(args, n);
    let u = |n: &str| arg::<u32>(args, n);
    match op {
        "handshake" => out(backend.handshake().await),
        "projects" => out(backend.projects().await),
        "run_configurations" => out(backend.run_configurations(&s("project")?).await),
        "launch" => out(backend.launch(&s("project")?, arg(args, "request")?).await),
        "debug_test" => out(backend
            .debug_test(&s("project")?, arg(args, "request")?)
            .await),
        "sessions" => out(backend.sessions(&s("project")?).await),
        "stop" => out(backend.stop(&s("session_id")?).await),
        "breakpoints" => out(backend.breakpoints(&s("project")?).await),
        "add_line_breakpoint" => out(backend
            .add_line_breakpoint(&s("project")?, arg(args, "spec")?)
            .await),
        "add_exception_breakpoint" => out(backend
            .add_exception_breakpoint(&s("project")?, arg(args, "spec")?)
            .await),
        "update_breakpoint" => out(backend
            .update_breakpoint(&s("project")?, &s("id")?, arg(args, "update")?)
            .await),
        "remove_breakpoint" => out(backend.remove_breakpoint(&s("project")?, &s("id")?).await),
        "set_master_breakpoint" => {
            let master: Option<String> = arg(args, "master")?;
            out(backend
                .set_master_breakpoint(&s("project")?, &s("id")?, master.as_deref())
                .await)
        }
        "control" => {
            let thread: Option<String> = arg(args, "thread_id")?;
            out(backend
                .control(&s("session_id")?, thread.as_deref(), arg(args, "op")?)
                .await)
        }
        "threads" => out(backend.threads(&s("session_id")?).await),
        "frames" => out(backend
            .frames(
                &s("session_id")?,
                &s("thread_id")?,
                u("offset")?,
                u("limit")?,
            )
            .await),
        "select_frame" => out(backend
            .select_frame(&s("session_id")?, &s("thread_id")?, &s("frame")?)
            .await),
        "frame_variables" => out(backend
            .frame_variables(&s("session_id")?, &s("frame")?)
            .await),
        "children" => out(backend
            .children(&s("session_id")?, &s("handle")?, u("offset")?, u("limit")?)
            .await),
        "set_value" => out(backend
            .set_value(&s("session_id")?, &s("handle")?, &s("new_value")?)
            .await),
        "evaluate" => out(backend
            .evaluate(&s("session_id")?, arg(args, "request")?)
            .await),
        "read_source" => out(backend.read_source(&s("project")?, &s("path")?).await),
        "confirm" => out(backend.confirm(&s("project")?, arg(args, "request")?).await),
        other => Err(BackendError::NotFound(format!(
            "no op `{other}` in table version {TABLE_VERSION}"
        ))),
    }
}

/// Every op name of the table (docs and tests check they are all documented and dispatched).
pub const OPS: &[&str] = &[
    "handshake",
    "projects",
    "run_configurations",
    "launch",
    "debug_test",
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

#[cfg(test)]
mod tests {
    use super::*;
    use debugger_mcp_testkit::FakeBackend;
    use serde_json::json;

    /// Args for every op, keyed by the trait's parameter names (as docs/CALLBACK_TABLE.md says).
    fn args(op: &str, root: &str) -> Value {
        let file = format!("{root}/main.py");
        match op {
            "handshake" | "projects" => json!({}),
            "run_configurations" | "sessions" | "breakpoints" => json!({"project": root}),
            "launch" => json!({"project": root, "request": {"configuration": "main"}}),
            "debug_test" => {
                json!({"project": root, "request": {"framework": "pytest", "test_id": "test_x.py::test_y"}})
            }
            "stop" | "threads" => json!({"session_id": "s1"}),
            "add_line_breakpoint" => json!({"project": root, "spec": {"file": file, "line": 4}}),
            "add_exception_breakpoint" => {
                json!({"project": root, "spec": {"exception": "ValueError"}})
            }
            "update_breakpoint" => {
                json!({"project": root, "id": "1", "update": {"enabled": false}})
            }
            "remove_breakpoint" => json!({"project": root, "id": "1"}),
            "set_master_breakpoint" => json!({"project": root, "id": "2", "master": "1"}),
            "control" => json!({"session_id": "s1", "thread_id": null, "op": {"op": "resume"}}),
            "frames" => json!({"session_id": "s1", "thread_id": "1", "offset": 0, "limit": 5}),
            "select_frame" => json!({"session_id": "s1", "thread_id": "1", "frame": "0"}),
            "frame_variables" => json!({"session_id": "s1", "frame": "0"}),
            "children" => json!({"session_id": "s1", "handle": "x", "offset": 0, "limit": 5}),
            "set_value" => json!({"session_id": "s1", "handle": "x", "new_value": "1"}),
            "evaluate" => {
                json!({"session_id": "s1", "request": {"thread_id": "1", "frame": "0", "expression": "1"}})
            }
            "read_source" => json!({"project": root, "path": file}),
            "confirm" => json!({"project": root, "request": {"title": "t", "message": "m"}}),
            other => panic!("no args for {other}"),
        }
    }

    #[tokio::test]
    async fn every_op_reaches_its_trait_method_and_is_documented() {
        let dir = std::env::temp_dir().join(format!("jni-ops-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = dir.display().to_string();
        let (fake, _events) = FakeBackend::new(&dir);
        let doc = include_str!("../../../docs/CALLBACK_TABLE.md");
        for op in OPS {
            let before = fake.calls().len();
            // Errors are fine (a fake session may not exist): the op must reach the backend.
            let _ = dispatch(&*fake, op, &args(op, &root)).await;
            let calls = fake.calls();
            assert!(
                calls[before..]
                    .iter()
                    .any(|c| c == op || c.starts_with(&format!("{op} "))),
                "op {op} did not reach the backend: {:?}",
                &calls[before..]
            );
            assert!(
                doc.contains(&format!("| `{op}` |")),
                "op {op} missing from docs/CALLBACK_TABLE.md"
            );
        }
        let unknown = dispatch(&*fake, "nope", &json!({})).await.unwrap_err();
        assert!(matches!(unknown, BackendError::NotFound(_)));
        let missing = dispatch(&*fake, "frames", &json!({"session_id": "s1"}))
            .await
            .unwrap_err();
        assert!(matches!(missing, BackendError::Failed(m) if m.contains("thread_id")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
