//! `JniBackend`: the core's `Backend` trait implemented by calling the JVM's callback table
//! (`DebuggerCallbacks`, docs/CALLBACK_TABLE.md).
//!
//! One request = `callbacks.call(requestId, op, argsJson)`, which returns at once; the JVM answers
//! later, from any thread, with `NativeBridge.complete(requestId, ok, json)`. Rust waits on a
//! oneshot with a timeout, so a callback that never answers costs one map entry until then and a
//! late answer is dropped. A Java exception thrown by `call` itself becomes a `Failed` error.

use crate::jvm;
use async_trait::async_trait;
use debugger_mcp_core::backend::*;
use jni::objects::JString;
use jni::signature::{Primitive, ReturnType};
use jni::sys::jvalue;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;

/// The answer delivered by `NativeBridge.complete`.
pub(crate) struct Answer {
    pub ok: bool,
    pub json: String,
}

pub struct JniBackend {
    callbacks: jvm::JavaRef,
    next_id: AtomicU64,
    pending: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    timeout_ms: AtomicU64,
    launch_timeout_ms: AtomicU64,
    /// `[ide] build_timeout_ms`: the run configuration's before-run build.
    build_timeout_ms: AtomicU64,
    /// The handshake's `supports_force_return` (true when the plugin's Java part is loaded).
    force_return: AtomicBool,
}

impl JniBackend {
    pub(crate) fn new(callbacks: jvm::JavaRef, limits: Limits) -> Self {
        Self {
            callbacks,
            next_id: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            timeout_ms: AtomicU64::new(limits.timeout_ms.max(1)),
            launch_timeout_ms: AtomicU64::new(limits.launch_timeout_ms.max(1)),
            build_timeout_ms: AtomicU64::new(limits.build_timeout_ms),
            force_return: AtomicBool::new(false),
        }
    }

    pub(crate) fn set_timeouts(&self, limits: Limits) {
        self.timeout_ms
            .store(limits.timeout_ms.max(1), Ordering::Relaxed);
        self.launch_timeout_ms
            .store(limits.launch_timeout_ms.max(1), Ordering::Relaxed);
        self.build_timeout_ms
            .store(limits.build_timeout_ms, Ordering::Relaxed);
    }

    /// Delivers an answer; returns false when nobody waits any more (timed out or unknown id).
    pub(crate) fn complete(&self, request_id: u64, answer: Answer) -> bool {
        let sender = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&request_id);
        match sender {
            Some(tx) => tx.send(answer).is_ok(),
            None => false,
        }
    }

    /// Number of requests waiting for an answer (exposed in `status()`; tests assert it drains).
    pub(crate) fn pending_count(&self) -> usize {
        self.pending.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Fails every waiting request (shutdown).
    pub(crate) fn fail_all(&self) {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// How long op `op` may take: starting a test builds it first in the IDE, like a launch; a
    /// confirmation waits for the user as long as the dialog stays up ([CONFIRM_TIMEOUT_MS]).
    fn limit_ms(&self, op: &str) -> u64 {
        limit_for(self.limits(), op)
    }

    fn limits(&self) -> Limits {
        Limits {
            timeout_ms: self.timeout_ms.load(Ordering::Relaxed),
            launch_timeout_ms: self.launch_timeout_ms.load(Ordering::Relaxed),
            build_timeout_ms: self.build_timeout_ms.load(Ordering::Relaxed),
        }
    }

    /// Calls op `op` with JSON `args` and parses the answer as `R`.
    pub async fn call<R: DeserializeOwned>(
        &self,
        op: &'static str,
        args: Value,
    ) -> BackendResult<R> {
        let args = serde_json::to_string(&args).unwrap_or_else(|_| "{}".into());
        let value = self.call_raw(op, &args).await?;
        serde_json::from_str(&value).map_err(|e| {
            BackendError::Failed(format!(
                "callback `{op}` answered malformed JSON ({e}): {}",
                clip(&value)
            ))
        })
    }

    /// Calls op `op` with an already serialised argument object; returns the raw result JSON.
    pub async fn call_raw(&self, op: &str, args_json: &str) -> BackendResult<String> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, tx);
        // Removes the entry however this future ends (error, timeout, or the caller dropping it).
        let _cleanup = Pending { backend: self, id };

        if let Err(e) = self.invoke(id, op, args_json) {
            return Err(BackendError::Failed(format!("callback `{op}` threw {e}")));
        }
        // Fast path: a callback that answered inside `call` needs no timer.
        let mut rx = rx;
        if let Ok(answer) = rx.try_recv() {
            return if answer.ok {
                Ok(answer.json)
            } else {
                Err(parse_error(op, &answer.json))
            };
        }
        let limit = self.limit_ms(op);
        let answer = match tokio::time::timeout(Duration::from_millis(limit), rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => {
                return Err(BackendError::Failed(format!(
                    "callback `{op}` was abandoned (bridge shut down)"
                )));
            }
            Err(_) => {
                return Err(BackendError::Timeout(format!(
                    "callback `{op}` gave no answer within {limit} ms"
                )));
            }
        };
        if answer.ok {
            Ok(answer.json)
        } else {
            Err(parse_error(op, &answer.json))
        }
    }

    /// The JNI call itself: `callbacks.call(id, op, args)` on the current thread. Hot path: no
    /// local frame is pushed, the two local strings are deleted explicitly (Rust runtime threads
    /// never return to Java, so a leaked local would live as long as the thread).
    fn invoke(&self, id: u64, op: &str, args_json: &str) -> Result<(), String> {
        let ids = jvm::ids().ok_or("bridge classes not resolved")?;
        jvm::with_env_no_frame(|env| {
            let op = JString::from_str(env, op)?;
            let args = match JString::from_str(env, args_json) {
                Ok(a) => a,
                Err(e) => {
                    env.delete_local_ref(op);
                    return Err(e);
                }
            };
            let jargs = [
                jvalue { j: id as i64 },
                jvalue { l: op.as_raw() },
                jvalue { l: args.as_raw() },
            ];
            // SAFETY: method id of DebuggerCallbacks.call(JLjava/lang/String;Ljava/lang/String;)V,
            // called on an object implementing that interface (checked at init).
            let result = unsafe {
                env.call_method_unchecked(
                    self.callbacks.obj(),
                    ids.callbacks_call,
                    ReturnType::Primitive(Primitive::Void),
                    &jargs,
                )
            };
            // A pending exception does not forbid DeleteLocalRef (JNI spec: allowed with one pending).
            env.delete_local_ref(op);
            env.delete_local_ref(args);
            result?;
            Ok(())
        })
        .map_err(|e| jvm::describe(&e))
    }
}

struct Pending<'a> {
    backend: &'a JniBackend,
    id: u64,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.backend
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

fn clip(s: &str) -> &str {
    match s.char_indices().nth(300) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Error JSON from the JVM: `{"kind":"not_found","message":"..."}`. Anything else is still an
/// error, reported as `Failed` with the text the JVM sent.
fn parse_error(op: &str, json: &str) -> BackendError {
    if let Ok(err) = serde_json::from_str::<BackendError>(json) {
        return err;
    }
    let message = serde_json::from_str::<Value>(json)
        .ok()
        .and_then(|v| {
            v.get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| clip(json).to_string());
    BackendError::Failed(format!("callback `{op}` failed: {message}"))
}

fn unit(v: Value) -> BackendResult<()> {
    let _ = v;
    Ok(())
}

// Args objects: keys are exactly the trait method's parameter names (docs/CALLBACK_TABLE.md).
#[async_trait]
impl Backend for JniBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        let raw: Value = self.call("handshake", json!({})).await?;
        // Additive key of this table (not a BackendInfo field): whether op `force_return` works.
        let force = raw.get("supports_force_return").and_then(Value::as_bool);
        self.force_return
            .store(force.unwrap_or(false), Ordering::Relaxed);
        serde_json::from_value(raw)
            .map_err(|e| BackendError::Failed(format!("callback `handshake`: bad result: {e}")))
    }
    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        self.call("projects", json!({})).await
    }
    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        self.call("run_configurations", json!({ "project": project }))
            .await
    }
    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        // The plugin attaches to a local pid through the IDE's Attach to Process providers
        // (AttachOps.kt). A debugger listening on host:port is a run configuration there
        // (Remote JVM Debug, Python Debug Server), which the agent can start by name.
        if let Some(AttachTarget::Address(addr)) = &request.attach {
            return Err(BackendError::Unsupported(format!(
                "the IDE attaches by pid only, not to {addr}: start the project's Remote JVM Debug \
                 (or Python Debug Server) run configuration for that address with \
                 run_configuration, or run `debugger-mcp serve` headless, which attaches to a \
                 host:port"
            )));
        }
        // `budget_ms`: how long this bridge waits for the answer; the JVM's start ends with it
        // (a start nobody waits for any more is stopped there, not left building for 30 min).
        let budget = self.limit_ms("launch");
        self.call(
            "launch",
            json!({ "project": project, "request": request, "budget_ms": budget }),
        )
        .await
    }
    /// The IDE runs a configuration's before-run tasks (a Gradle-delegated build) before the
    /// runner, and the debug session exists only afterwards (ExecutionManagerImpl.executeConfiguration,
    /// then XDebuggerManagerImpl.startSession publishes processStarted), so every launch may
    /// build first, as a headless Go launch does.
    fn launch_build_allowance(&self, _project: &str, request: &LaunchRequest) -> Duration {
        // An attach builds nothing.
        if request.attach.is_some() {
            return Duration::ZERO;
        }
        Duration::from_millis(self.build_timeout_ms.load(Ordering::Relaxed))
    }
    async fn debug_test(&self, project: &str, request: TestRequest) -> BackendResult<SessionInfo> {
        let budget = self.limit_ms("debug_test");
        self.call(
            "debug_test",
            json!({ "project": project, "request": request, "budget_ms": budget }),
        )
        .await
    }
    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.call("sessions", json!({ "project": project })).await
    }
    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        unit(
            self.call("stop", json!({ "session_id": session_id }))
                .await?,
        )
    }
    async fn terminate(&self, session_id: &str) -> BackendResult<()> {
        unit(
            self.call("terminate", json!({ "session_id": session_id }))
                .await?,
        )
    }
    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>> {
        self.call("breakpoints", json!({ "project": project }))
            .await
    }
    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.call(
            "add_line_breakpoint",
            json!({ "project": project, "spec": spec }),
        )
        .await
    }
    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.call(
            "add_exception_breakpoint",
            json!({ "project": project, "spec": spec }),
        )
        .await
    }
    async fn add_data_breakpoint(
        &self,
        project: &str,
        spec: DataBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.call(
            "add_data_breakpoint",
            json!({ "project": project, "spec": spec }),
        )
        .await
    }
    async fn force_return(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
        value: &str,
    ) -> BackendResult<()> {
        unit(
            self.call(
                "force_return",
                json!({ "session_id": session_id, "thread_id": thread_id, "frame": frame, "value": value }),
            )
            .await?,
        )
    }
    fn trigger_refusal(&self, _request: &LaunchRequest) -> Option<String> {
        // The IDE's attach is the platform's (Attach to Process); the plugin runs no commands
        // of the agent's beside it, and a process started from inside the IDE's JVM would
        // outlive nothing the IDE shows.
        Some("the IDE attaches but runs no trigger command beside it".into())
    }
    fn force_return_refusal(&self, file: &str) -> Option<String> {
        // The JVM side forces returns (ThreadReference.forceEarlyReturn) when its handshake says
        // so; other languages an IDE debugs have no such op in the table.
        let jvm = [".java", ".kt", ".kts", ".groovy", ".scala"];
        if !jvm.iter().any(|e| file.ends_with(e)) {
            return Some(
                "the IDE makes a call return a value on the JVM only (Java, Kotlin)".into(),
            );
        }
        (!self.force_return.load(Ordering::Relaxed)).then(|| {
            // The plugin's Java part forces returns; its handshake says false without it.
            "this IDE forces returns through its Java plugin, which is not installed (gdb can, for C/C++)".to_string()
        })
    }
    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.call(
            "update_breakpoint",
            json!({ "project": project, "id": id, "update": update }),
        )
        .await
    }
    /// The IDE keeps dependent breakpoints itself (XDependentBreakpointManager, `Breakpoints.kt`).
    async fn set_master_breakpoint(
        &self,
        project: &str,
        id: &str,
        master: Option<&str>,
    ) -> BackendResult<BreakpointInfo> {
        self.call(
            "set_master_breakpoint",
            json!({ "project": project, "id": id, "master": master }),
        )
        .await
    }
    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        unit(
            self.call("remove_breakpoint", json!({ "project": project, "id": id }))
                .await?,
        )
    }
    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        unit(
            self.call(
                "control",
                json!({ "session_id": session_id, "thread_id": thread_id, "op": op }),
            )
            .await?,
        )
    }
    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        self.call("threads", json!({ "session_id": session_id }))
            .await
    }
    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        self.call(
            "frames",
            json!({ "session_id": session_id, "thread_id": thread_id, "offset": offset, "limit": limit }),
        )
        .await
    }
    async fn select_frame(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
    ) -> BackendResult<()> {
        unit(
            self.call(
                "select_frame",
                json!({ "session_id": session_id, "thread_id": thread_id, "frame": frame }),
            )
            .await?,
        )
    }
    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        self.call(
            "frame_variables",
            json!({ "session_id": session_id, "frame": frame }),
        )
        .await
    }
    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        self.call(
            "children",
            json!({ "session_id": session_id, "handle": handle, "offset": offset, "limit": limit }),
        )
        .await
    }
    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        self.call(
            "set_value",
            json!({ "session_id": session_id, "handle": handle, "new_value": new_value }),
        )
        .await
    }
    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        // The IDE's evaluators take the language's expressions, with no gdb print formats.
        if let Some(f) = &request.format {
            return Err(BackendError::Unsupported(format!(
                "'{}' (a gdb print format) in the IDE: ask for the plain expression, converted in the program's language (e.g. Integer.toHexString(x), hex(x))",
                if f.examine { "x/" } else { "/" }
            )));
        }
        self.call(
            "evaluate",
            json!({ "session_id": session_id, "request": request }),
        )
        .await
    }
    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.call("read_source", json!({ "project": project, "path": path }))
            .await
    }
    async fn confirm(&self, project: &str, request: ConfirmRequest) -> BackendResult<bool> {
        self.call("confirm", json!({ "project": project, "request": request }))
            .await
    }
}

/// The bridge's timeouts, from the settings (`backend_timeout_ms`, `launch_timeout_ms`,
/// `[ide] build_timeout_ms`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub timeout_ms: u64,
    pub launch_timeout_ms: u64,
    pub build_timeout_ms: u64,
}

impl Limits {
    pub(crate) fn of(config: &debugger_mcp_core::config::Config) -> Self {
        Self {
            timeout_ms: config.backend_timeout_ms,
            launch_timeout_ms: config.launch_timeout_ms,
            build_timeout_ms: config.ide.build_timeout_ms,
        }
    }
}

/// A launch (and a test, which the IDE builds first too) waits for the before-run build on
/// top of the launch timeout: the core gives it the same allowance
/// ([`JniBackend::launch_build_allowance`]), so the bridge never gives up first.
fn limit_for(limits: Limits, op: &str) -> u64 {
    match op {
        "launch" | "debug_test" => limits.launch_timeout_ms + limits.build_timeout_ms,
        "confirm" => CONFIRM_TIMEOUT_MS,
        _ => limits.timeout_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_json_maps_to_backend_errors() {
        assert_eq!(
            parse_error(
                "threads",
                r#"{"kind":"not_found","message":"no session s9"}"#
            ),
            BackendError::NotFound("no session s9".into())
        );
        assert_eq!(
            parse_error("threads", r#"{"kind":"weird","message":"boom"}"#),
            BackendError::Failed("callback `threads` failed: boom".into())
        );
        assert_eq!(
            parse_error("x", "not json"),
            BackendError::Failed("callback `x` failed: not json".into())
        );
    }

    #[test]
    fn confirm_waits_as_long_as_the_dialog_not_backend_timeout_ms() {
        // Issue 17 defect 4: with backend_timeout_ms (10 s) the user's answer to a dialog that
        // stays up for 49 s was dropped and the agent's retry opened a second prompt.
        let limits = |op| {
            limit_for(
                Limits {
                    timeout_ms: 10_000,
                    launch_timeout_ms: 30_000,
                    build_timeout_ms: 0,
                },
                op,
            )
        };
        assert_eq!(limits("confirm"), CONFIRM_TIMEOUT_MS);
        const { assert!(CONFIRM_TIMEOUT_MS > 10_000) };
        assert_eq!(limits("threads"), 10_000);
        assert_eq!(limits("launch"), 30_000);
        assert_eq!(limits("debug_test"), 30_000);
    }

    #[test]
    fn an_ide_launch_waits_for_the_before_run_build_on_top_of_the_launch_timeout() {
        // Issue 27 item 1: a cold Gradle build runs before the runner, so a launch limited to
        // launch_timeout_ms timed out while the session still started (and a retry could raise
        // the IDE's "Stop and rerun?" dialog).
        let limits = Limits::of(&debugger_mcp_core::config::Config::default());
        assert_eq!(limit_for(limits, "launch"), 30_000 + 300_000);
        assert_eq!(limit_for(limits, "debug_test"), 30_000 + 300_000);
        assert_eq!(limit_for(limits, "threads"), 10_000);
        let custom =
            debugger_mcp_core::config::Config::from_toml("[ide]\nbuild_timeout_ms = 900000\n")
                .unwrap();
        assert_eq!(limit_for(Limits::of(&custom), "launch"), 30_000 + 900_000);
        assert!(
            debugger_mcp_core::config::Config::from_toml("[ide]\nbuild_timeout_ms = 0\n")
                .unwrap_err()
                .contains("ide.build_timeout_ms")
        );
    }
}
