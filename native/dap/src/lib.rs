//! The DAP backend: a typed DAP client and the [`Backend`] implementation over real adapters
//! (debugpy, gdb, lldb-dap), plus run configurations from `.vscode/launch.json` and
//! `debugger-mcp.toml`.
//!
//! The backend stays thin: it translates ops to DAP requests and DAP events to
//! [`BackendEvent`]s. Breakpoints are project-level (like an IDE's): stored here, sent to every
//! live session, and re-sent at each session's configuration phase.

pub mod adapter;
mod assign;
pub mod config;
pub mod gobuild;
pub mod transport;

use async_trait::async_trait;
use config::{AdapterKind, ResolvedLaunch};
use debugger_mcp_core::backend::*;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, mpsc};
use transport::{Client, DapError, DapEvent};

/// Ordinary requests (stack, variables, evaluate, breakpoints…); below the core's own 10 s
/// budget per backend call so the error names the DAP request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(8);
/// Each phase of a launch (initialized, configurationDone, the launch response): adapters start
/// the debuggee there (debugpy spawns a launcher, gdb loads symbols).
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(25);
/// A polite disconnect before the adapter process is killed.
const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long an adapter may still deliver output after `terminated` before it is disconnected.
const TERMINATED_GRACE: Duration = Duration::from_millis(1500);
/// How long a delve session's end waits for the exit status, once disconnected.
const DELVE_EXIT_STATUS_WAIT: Duration = Duration::from_secs(1);
const PENDING_MESSAGE: &str = "pending: binds when a session starts";
/// debugpy groups some members under synthetic nodes; they are not program values.
const SYNTHETIC_GROUPS: &[&str] = &[
    "special variables",
    "function variables",
    "class variables",
    "protected variables",
];
/// Builtin Python containers whose `len()` is their size and has no side effects.
const COLLECTION_TYPES: &[&str] = &[
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "deque",
    "defaultdict",
    "OrderedDict",
    "Counter",
];
/// Size look-ups (`len(...)` evaluations) per backend call at most, and the time each may take.
const SIZE_LOOKUPS: usize = 20;
const SIZE_TIMEOUT: Duration = Duration::from_secs(2);
/// Ended sessions kept for status and clear errors.
const KEEP_ENDED: usize = 16;

pub struct DapBackend {
    inner: Arc<Inner>,
}

struct Inner {
    root: PathBuf,
    events: EventSink,
    sessions: Mutex<Vec<Arc<Session>>>,
    next_session: AtomicU32,
    bps: Mutex<BpStore>,
    /// Exception filters adapters offered so far (for `handshake` and validation).
    known_filters: Mutex<Vec<ExceptionFilter>>,
    /// `[go] build_timeout_ms`: the Go build before delve starts (see [`gobuild`]).
    go_build_timeout_ms: AtomicU64,
}

#[derive(Default)]
struct BpStore {
    next: u64,
    list: Vec<BreakpointInfo>,
}

/// Temporary changes to what is sent for the stretch until the next stop (run-to-line,
/// step over ignoring breakpoints).
#[derive(Default, Clone)]
struct Override {
    temp: Option<(String, u32)>,
    suppress: bool,
}

/// What `set_value` needs for a node (DAP identifies values by container + name).
#[derive(Clone)]
struct SetTarget {
    parent_ref: Option<i64>,
    name: String,
    /// What `setExpression` sets when `setVariable` refuses: the adapter's evaluateName, else
    /// the expression [`assign`] rebuilt.
    evaluate_name: Option<String>,
    frame_id: Option<i64>,
}

/// Per-pause value bookkeeping, cleared on every resume (handles are valid until then).
#[derive(Default)]
struct ValueTable {
    set_targets: Vec<SetTarget>,
    /// variablesReference → frame it belongs to (for setExpression on children).
    ref_frame: HashMap<i64, i64>,
    /// variablesReference → number of children, when the adapter said (for paged totals).
    ref_count: HashMap<i64, u64>,
    /// variablesReference → the expression of what it expands, for adapters that send no
    /// evaluateName (see [`assign`]).
    ref_lineage: HashMap<i64, assign::Lineage>,
}

struct Session {
    id: String,
    name: String,
    run_configuration: Option<String>,
    mode: LaunchMode,
    adapter: AdapterKind,
    request: String,
    client: Arc<Client>,
    caps: Mutex<Value>,
    state: Mutex<SessionState>,
    process_id: Mutex<Option<u32>>,
    process_seen: Notify,
    exit_code: Mutex<Option<i64>>,
    /// Notified when delve reports the exit status (as console output).
    exit_seen: Notify,
    /// The binary built for this session before delve started (modes debug/test, see
    /// [`gobuild`]): removed when the session ends.
    built_binary: Option<PathBuf>,
    /// Why the session ended, once it did.
    ended: Mutex<Option<String>>,
    stopped_sent: AtomicBool,
    /// The adapter reported the debuggee's end (as opposed to dying itself).
    terminated: AtomicBool,
    initialized: AtomicBool,
    initialized_notify: Notify,
    stop_on_entry: bool,
    stop_on_exception: bool,
    first_stop_seen: AtomicBool,
    /// DAP breakpoint id → our breakpoint id.
    bp_ids: Mutex<HashMap<i64, String>>,
    /// DAP ids of run-to temporary breakpoints.
    temp_ids: Mutex<BTreeSet<i64>>,
    override_: Mutex<Option<Override>>,
    last_thread: Mutex<Option<i64>>,
    values: Mutex<ValueTable>,
}

/// gdb's CLI echo of a breakpoint set in a live session ("Breakpoint 3 at 0x5555…: file
/// prog.c, line 36."); the binding itself arrives as a `breakpoint` event.
fn is_gdb_breakpoint_set_line(text: &str) -> bool {
    let rest = text
        .strip_prefix("Temporary breakpoint ")
        .or_else(|| text.strip_prefix("Breakpoint "));
    rest.and_then(|r| r.split_once(' '))
        .is_some_and(|(n, tail)| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
                && tail.starts_with("at 0x")
                && !tail.trim_end().contains('\n')
        })
}

/// The function a stop on entry is a breakpoint on, for adapters whose own stopOnEntry stops
/// too early to be useful (lldb-dap: in the dynamic loader; delve: before the Go runtime runs).
fn entry_function(adapter: AdapterKind) -> Option<&'static str> {
    match adapter {
        AdapterKind::Lldb => Some("main"),
        AdapterKind::Delve => Some("main.main"),
        AdapterKind::Debugpy | AdapterKind::Gdb => None,
    }
}

/// Children of a process (Linux: /proc/PID/task/*/children; elsewhere none).
fn child_pids(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        let text = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    out
}

/// The exit status in delve's "Process 4242 has exited with status 1" console line.
fn delve_exit_status(text: &str) -> Option<i64> {
    let rest = text.trim().strip_prefix("Process ")?;
    let (pid, rest) = rest.split_once(' ')?;
    pid.parse::<u32>().ok()?;
    rest.strip_prefix("has exited with status ")?
        .trim()
        .parse()
        .ok()
}

fn err_from(session: &Session, e: DapError) -> BackendError {
    match e {
        DapError::Failed(m) => BackendError::Failed(m),
        DapError::Timeout(..) => BackendError::Timeout(e.to_string()),
        DapError::Closed(m) => {
            let why = session.ended.lock().unwrap().clone().unwrap_or(m);
            BackendError::InvalidState(format!("session {} has ended ({why})", session.id))
        }
    }
}

impl Session {
    fn info(&self) -> SessionInfo {
        SessionInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            state: *self.state.lock().unwrap(),
            run_configuration: self.run_configuration.clone(),
            process_id: *self.process_id.lock().unwrap(),
            mode: self.mode,
        }
    }

    fn cap(&self, name: &str) -> bool {
        self.caps
            .lock()
            .unwrap()
            .get(name)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    fn filters(&self) -> Vec<ExceptionFilter> {
        self.caps
            .lock()
            .unwrap()
            .get("exceptionBreakpointFilters")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|f| {
                        Some(ExceptionFilter {
                            id: f.get("filter")?.as_str()?.to_string(),
                            label: f
                                .get("label")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn is_ended(&self) -> bool {
        self.ended.lock().unwrap().is_some()
    }

    async fn req(&self, command: &str, args: Value) -> BackendResult<Value> {
        self.req_t(command, args, REQUEST_TIMEOUT).await
    }

    async fn req_t(&self, command: &str, args: Value, t: Duration) -> BackendResult<Value> {
        if let Some(why) = self.ended.lock().unwrap().clone() {
            return Err(BackendError::InvalidState(format!(
                "session {} has ended ({why})",
                self.id
            )));
        }
        self.client
            .request(command, args, t)
            .await
            .map_err(|e| err_from(self, e))
    }

    fn require_paused(&self) -> BackendResult<()> {
        match *self.state.lock().unwrap() {
            SessionState::Paused => Ok(()),
            s => Err(BackendError::InvalidState(format!(
                "session {} is {}; this needs it paused",
                self.id,
                match s {
                    SessionState::Starting => "starting",
                    SessionState::Running => "running",
                    SessionState::Stopped => "stopped",
                    SessionState::Paused => "paused",
                }
            ))),
        }
    }

    fn clear_values(&self) {
        *self.values.lock().unwrap() = ValueTable::default();
    }

    fn add_set_target(&self, t: SetTarget) -> String {
        let mut v = self.values.lock().unwrap();
        v.set_targets.push(t);
        (v.set_targets.len() - 1).to_string()
    }

    /// Turns a DAP variable (or evaluate result) into a ValueNode.
    fn node(
        &self,
        v: &Value,
        parent_ref: Option<i64>,
        frame_id: Option<i64>,
        scope: ValueScope,
    ) -> ValueNode {
        let name = v
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let value = v
            .get("value")
            .or(v.get("result"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let type_name = v
            .get("type")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        let r = v
            .get("variablesReference")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let evaluate_name = v
            .get("evaluateName")
            .and_then(Value::as_str)
            .map(str::to_string);
        let named = v.get("namedVariables").and_then(Value::as_u64);
        let indexed = v.get("indexedVariables").and_then(Value::as_u64);
        let child_count = match (named, indexed) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        let synthetic = SYNTHETIC_GROUPS.contains(&name.as_str());
        // What setExpression can set when setVariable refuses (gdb: array elements).
        let expression = assign::expression(
            &mut self.values.lock().unwrap().ref_lineage,
            self.adapter,
            (parent_ref, r),
            &name,
            evaluate_name.as_deref(),
            type_name.as_deref(),
        );
        if r > 0
            && let Some(c) = child_count
        {
            self.values.lock().unwrap().ref_count.insert(r, c);
        }
        if r > 0
            && let Some(f) = frame_id
        {
            self.values.lock().unwrap().ref_frame.insert(r, f);
        }
        let settable = !synthetic
            && ((parent_ref.is_some() && self.cap("supportsSetVariable"))
                || (expression.is_some() && self.cap("supportsSetExpression")));
        let set_handle = settable.then(|| {
            self.add_set_target(SetTarget {
                parent_ref,
                name: name.clone(),
                evaluate_name: expression,
                frame_id,
            })
        });
        // gdb renders aggregates (structs, arrays) with an empty value; a placeholder tells the
        // reader there is something to expand.
        let value = if value.is_empty() && r > 0 && !synthetic {
            match indexed {
                Some(n) => format!("[{n} items]"),
                None => "{…}".to_string(),
            }
        } else {
            value
        };
        let scope = if synthetic {
            ValueScope::Synthetic
        } else if matches!(scope, ValueScope::Local | ValueScope::Argument)
            && (name == "self" || name == "this")
        {
            ValueScope::This
        } else {
            scope
        };
        ValueNode {
            name,
            value,
            type_name,
            has_children: r > 0,
            children_handle: (r > 0).then(|| r.to_string()),
            set_handle,
            evaluate_name,
            child_count,
            value_length: None,
            scope,
        }
    }

    /// debugpy renders values cut: a long string keeps its first and last 32 K characters, a
    /// big collection its first items then "...". For such values (at most
    /// SIZE_LOOKUPS per call) the real size is asked with a bounded `len(...)` of the value's
    /// evaluateName: `child_count` for collections, `value_length` for strings. Builtin types
    /// only, whose `len` has no side effects.
    async fn real_sizes(&self, nodes: &mut [ValueNode], frame_id: Option<i64>) {
        if self.adapter != AdapterKind::Debugpy {
            return;
        }
        let mut asked = 0;
        for n in nodes.iter_mut() {
            if asked >= SIZE_LOOKUPS {
                break;
            }
            let Some(expr) = n.evaluate_name.clone().filter(|e| is_plain_path(e)) else {
                continue;
            };
            let ty = n.type_name.as_deref().unwrap_or("");
            let v = n.value.trim_end();
            let is_text = matches!(ty, "str" | "bytes" | "bytearray") && v.contains("...");
            let is_cut_collection = COLLECTION_TYPES.contains(&ty)
                && (v.ends_with("...]") || v.ends_with("...}") || v.ends_with("...)"));
            if !is_text && !is_cut_collection {
                continue;
            }
            asked += 1;
            let mut args = json!({"expression": format!("len({expr})"), "context": "watch"});
            if let Some(f) = frame_id {
                args["frameId"] = json!(f);
            }
            let Ok(body) = self.req_t("evaluate", args, SIZE_TIMEOUT).await else {
                continue;
            };
            let Some(len) = body
                .get("result")
                .and_then(Value::as_str)
                .and_then(|r| r.trim().parse::<u64>().ok())
            else {
                continue;
            };
            if is_text {
                // The repr has quotes (and a b prefix): shown content is shorter than that.
                if len > v.chars().count().saturating_sub(2) as u64 {
                    n.value_length = Some(len);
                }
            } else {
                n.child_count = Some(len);
            }
        }
    }

    /// Items `[from, end)` of a debugpy collection beyond its first `first` items, from the
    /// buckets under its "more" node (named "[100:1100]", "[1100:2100]", …).
    async fn more_items(
        &self,
        more: i64,
        first: u64,
        from: u64,
        end: u64,
    ) -> BackendResult<Vec<Value>> {
        let body = self
            .req("variables", json!({"variablesReference": more}))
            .await?;
        let mut out = Vec::new();
        let mut next = first;
        for b in body
            .get("variables")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = b.get("name").and_then(Value::as_str).unwrap_or("");
            let range = name
                .strip_prefix('[')
                .and_then(|n| n.strip_suffix(']'))
                .and_then(|n| n.split_once(':'))
                .and_then(|(a, z)| {
                    Some((a.trim().parse::<u64>().ok()?, z.trim().parse::<u64>().ok()?))
                });
            let r = b
                .get("variablesReference")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            let (a, z) = match range {
                Some(az) if r > 0 => az,
                // Not a bucket (only one bucket's worth left: debugpy lists the items inline).
                _ => {
                    if (from..end).contains(&next) {
                        out.push(b.clone());
                    }
                    next += 1;
                    continue;
                }
            };
            next = z;
            if z <= from || a >= end {
                continue;
            }
            let items = self
                .req("variables", json!({"variablesReference": r}))
                .await?;
            let items: Vec<&Value> = items
                .get("variables")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|v| {
                    !matches!(
                        v.get("name").and_then(Value::as_str),
                        Some("special variables" | "function variables" | "len()")
                    )
                })
                .collect();
            for (i, v) in items.into_iter().enumerate() {
                if (from..end).contains(&(a + i as u64)) {
                    out.push(v.clone());
                }
            }
        }
        Ok(out)
    }

    /// Sends `disconnect` (terminating a launched debuggee), then kills the adapter. Makes sure
    /// the debuggee is gone: gdb leaves a ptrace'd inferior running when gdb itself is killed.
    async fn shutdown(&self) {
        // A launched debuggee ends with the session; an attached one is left running.
        let terminate = self.request == "launch";
        let _ = self
            .client
            .request(
                "disconnect",
                json!({"terminateDebuggee": terminate, "restart": false}),
                DISCONNECT_TIMEOUT,
            )
            .await;
        self.client.kill().await;
        if self.request == "launch"
            && let Some(pid) = *self.process_id.lock().unwrap()
            && Path::new(&format!("/proc/{pid}")).exists()
        {
            let _ = std::process::Command::new("kill")
                .arg("-9")
                .arg(pid.to_string())
                .status();
        }
        if let Some(bin) = &self.built_binary {
            let _ = std::fs::remove_file(bin);
        }
    }
}

impl DapBackend {
    /// A backend for one project directory; events go to `events`.
    pub fn new(project_root: impl Into<PathBuf>, events: EventSink) -> std::io::Result<Self> {
        let root = std::fs::canonicalize(project_root.into())?;
        Ok(Self {
            inner: Arc::new(Inner {
                root,
                events,
                sessions: Mutex::new(Vec::new()),
                next_session: AtomicU32::new(1),
                bps: Mutex::new(BpStore {
                    next: 1,
                    list: Vec::new(),
                }),
                known_filters: Mutex::new(Vec::new()),
                go_build_timeout_ms: AtomicU64::new(
                    gobuild::DEFAULT_BUILD_TIMEOUT.as_millis() as u64
                ),
            }),
        })
    }

    /// `[go] build_timeout_ms` of the settings: how long the Go build before a delve session
    /// may take.
    pub fn set_go_build_timeout(&self, timeout: Duration) {
        self.inner
            .go_build_timeout_ms
            .store(timeout.as_millis().max(1) as u64, Ordering::Relaxed);
    }
}

impl Inner {
    /// The stored breakpoint `id` as it is now (after syncs updated its binding).
    fn breakpoint(&self, id: &str) -> BackendResult<BreakpointInfo> {
        let store = self.bps.lock().unwrap();
        store
            .list
            .iter()
            .find(|b| b.id == id)
            .cloned()
            .ok_or_else(|| BackendError::NotFound(format!("breakpoint '{id}'")))
    }

    fn check_project(&self, project: &str) -> BackendResult<()> {
        // The root as `projects` returns it; the project's name is accepted too (one project
        // per backend, so it is unambiguous).
        let p = std::fs::canonicalize(project).unwrap_or_else(|_| PathBuf::from(project));
        let name = self
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if p == self.root || project.is_empty() || project == name {
            Ok(())
        } else {
            Err(BackendError::NotFound(format!(
                "project '{project}' (open: {})",
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

    fn live(&self, id: &str) -> BackendResult<Arc<Session>> {
        let s = self.session(id)?;
        if let Some(why) = s.ended.lock().unwrap().clone() {
            return Err(BackendError::InvalidState(format!(
                "session {id} has ended ({why})"
            )));
        }
        Ok(s)
    }

    fn live_sessions(&self) -> Vec<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap()
            .iter()
            .filter(|s| !s.is_ended())
            .cloned()
            .collect()
    }

    fn absolute(&self, file: &str) -> PathBuf {
        let p = Path::new(file);
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        };
        std::fs::canonicalize(&p).unwrap_or(p)
    }

    fn is_library(&self, file: Option<&str>) -> bool {
        match file {
            None => true,
            Some(f) => !Path::new(f).starts_with(&self.root),
        }
    }

    fn emit(&self, e: BackendEvent) {
        self.events.send(e);
    }

    fn update_bp(&self, id: &str, f: impl FnOnce(&mut BreakpointInfo)) {
        let changed = {
            let mut store = self.bps.lock().unwrap();
            let Some(bp) = store.list.iter_mut().find(|b| b.id == id) else {
                return;
            };
            let before = bp.clone();
            f(bp);
            (*bp != before).then(|| bp.clone())
        };
        if let Some(bp) = changed {
            self.emit(BackendEvent::BreakpointChanged { breakpoint: bp });
        }
    }

    /// Sends the full breakpoint list of one file to one session (DAP replaces per file).
    async fn sync_file(&self, s: &Session, file: &str) -> BackendResult<()> {
        if s.mode == LaunchMode::Run {
            return Ok(());
        }
        let ov = s.override_.lock().unwrap().clone().unwrap_or_default();
        let bps: Vec<BreakpointInfo> = if ov.suppress {
            vec![]
        } else {
            self.bps
                .lock()
                .unwrap()
                .list
                .iter()
                .filter(|b| {
                    b.kind == BreakpointKind::Line && b.enabled && b.file.as_deref() == Some(file)
                })
                .cloned()
                .collect()
        };
        let mut dap: Vec<Value> = bps
            .iter()
            .map(|b| {
                let mut o = json!({"line": b.requested_line.unwrap_or(1)});
                if let Some(c) = b.condition.as_ref().filter(|c| !c.is_empty()) {
                    o["condition"] = json!(c);
                }
                if let Some(c) = b.hit_condition.as_ref().filter(|c| !c.is_empty()) {
                    o["hitCondition"] = match (s.adapter, c.trim().parse::<u64>()) {
                        // gdb takes hitCondition as an ignore count ("2" stops on the 3rd hit);
                        // the tool's meaning is "stop on the Nth hit", as debugpy has it.
                        (AdapterKind::Gdb, Ok(n)) => json!(n.saturating_sub(1).to_string()),
                        _ => json!(c),
                    };
                }
                if let Some(c) = b.log_message.as_ref().filter(|c| !c.is_empty()) {
                    o["logMessage"] = json!(c);
                }
                o
            })
            .collect();
        let temp_index = match &ov.temp {
            Some((f, line))
                if f == file && !bps.iter().any(|b| b.requested_line == Some(*line)) =>
            {
                dap.push(json!({"line": line}));
                Some(dap.len() - 1)
            }
            _ => None,
        };
        let body = s
            .req(
                "setBreakpoints",
                json!({"source": {"path": file}, "breakpoints": dap, "sourceModified": false}),
            )
            .await?;
        let results = body
            .get("breakpoints")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, r) in results.iter().enumerate() {
            let dap_id = r.get("id").and_then(Value::as_i64);
            if Some(i) == temp_index {
                if let Some(d) = dap_id {
                    s.temp_ids.lock().unwrap().insert(d);
                }
                continue;
            }
            let Some(bp) = bps.get(i) else { continue };
            if let Some(d) = dap_id {
                s.bp_ids.lock().unwrap().insert(d, bp.id.clone());
            }
            self.apply_dap_bp(&bp.id, r);
        }
        Ok(())
    }

    /// Applies a DAP Breakpoint (response or event) to our breakpoint.
    fn apply_dap_bp(&self, id: &str, r: &Value) {
        let verified = r.get("verified").and_then(Value::as_bool).unwrap_or(false);
        let line = r.get("line").and_then(Value::as_u64).map(|l| l as u32);
        let message = r
            .get("message")
            .and_then(Value::as_str)
            .or_else(|| r.get("reason").and_then(Value::as_str))
            .map(str::to_string);
        self.update_bp(id, |bp| {
            bp.verified = verified;
            if line.is_some() {
                bp.line = line;
            }
            bp.message = if verified {
                None
            } else {
                message.or(Some("not bound yet".into()))
            };
        });
    }

    fn bp_files(&self) -> Vec<String> {
        let set: BTreeSet<String> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| b.kind == BreakpointKind::Line)
            .filter_map(|b| b.file.clone())
            .collect();
        set.into_iter().collect()
    }

    /// Sends one breakpoint's file list (or the exception filters) to every live session.
    /// Every session is tried; a session that ended meanwhile is no error.
    async fn sync_everywhere(&self, kind: BreakpointKind, file: Option<&str>) -> BackendResult<()> {
        let mut first_err = None;
        for s in self.live_sessions() {
            let r = match (kind, file) {
                (BreakpointKind::Line, Some(f)) => self.sync_file(&s, f).await,
                _ => self.sync_exceptions(&s).await,
            };
            if let Err(e) = r
                && !s.is_ended()
                && first_err.is_none()
            {
                first_err = Some(e);
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    async fn sync_all_lines(&self, s: &Session) -> BackendResult<()> {
        let mut files = self.bp_files();
        if let Some((f, _)) = s
            .override_
            .lock()
            .unwrap()
            .as_ref()
            .and_then(|o| o.temp.clone())
            && !files.contains(&f)
        {
            files.push(f);
        }
        for f in files {
            self.sync_file(s, &f).await?;
        }
        Ok(())
    }

    /// Filters for `stop_on_exception`, per adapter, among those it offers.
    fn session_exception_filters(s: &Session) -> Vec<String> {
        if !s.stop_on_exception {
            return vec![];
        }
        let offered: Vec<String> = s.filters().into_iter().map(|f| f.id).collect();
        let wanted: &[&str] = match s.adapter {
            AdapterKind::Debugpy => &["uncaught", "userUnhandled"],
            AdapterKind::Gdb => &["throw", "exception"],
            AdapterKind::Lldb => &["cpp_throw", "objc_throw", "swift_throw"],
            AdapterKind::Delve => &[],
        };
        wanted
            .iter()
            .filter(|w| offered.iter().any(|o| o == *w))
            .map(|w| w.to_string())
            .collect()
    }

    /// Maps one exception breakpoint to the filter ids of this session's adapter.
    fn filter_ids_for(s: &Session, bp: &BreakpointInfo) -> Vec<String> {
        let offered: Vec<String> = s.filters().into_iter().map(|f| f.id).collect();
        let ex = bp.exception.clone().unwrap_or_default();
        if offered.contains(&ex) {
            return vec![ex];
        }
        // "Any exception" (IDE style: a base class or "*") → the adapter's catch-all filters.
        if matches!(
            ex.as_str(),
            "*" | "any" | "Exception" | "BaseException" | ""
        ) {
            let (caught, uncaught): (&[&str], &[&str]) = match s.adapter {
                AdapterKind::Debugpy => (&["raised"], &["uncaught"]),
                AdapterKind::Gdb => (&["throw"], &["throw"]),
                AdapterKind::Lldb => (&["cpp_throw"], &["cpp_throw"]),
                AdapterKind::Delve => (&[], &[]),
            };
            let mut out = BTreeSet::new();
            if bp.caught != Some(false) {
                out.extend(caught.iter().map(|x| x.to_string()));
            }
            if bp.uncaught != Some(false) {
                out.extend(uncaught.iter().map(|x| x.to_string()));
            }
            return out.into_iter().filter(|f| offered.contains(f)).collect();
        }
        vec![]
    }

    async fn sync_exceptions(&self, s: &Session) -> BackendResult<()> {
        if s.mode == LaunchMode::Run {
            return Ok(());
        }
        let bps: Vec<BreakpointInfo> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| b.kind == BreakpointKind::Exception && b.enabled)
            .cloned()
            .collect();
        let mut filters: Vec<String> = Self::session_exception_filters(s);
        let mut options: Vec<Value> = Vec::new();
        let with_options = s.cap("supportsExceptionFilterOptions");
        for bp in &bps {
            let ids = Self::filter_ids_for(s, bp);
            if ids.is_empty() {
                let offered: Vec<String> = s.filters().into_iter().map(|f| f.id).collect();
                self.update_bp(&bp.id, |b| {
                    b.verified = false;
                    b.message = Some(format!(
                        "the {} adapter offers no exception filter '{}' (offered: {})",
                        s.adapter.name(),
                        b.exception.clone().unwrap_or_default(),
                        offered.join(", ")
                    ));
                });
                continue;
            }
            for id in ids {
                match bp.condition.as_ref().filter(|c| !c.is_empty()) {
                    Some(c) if with_options => {
                        options.push(json!({"filterId": id, "condition": c}))
                    }
                    _ => {
                        if !filters.contains(&id) {
                            filters.push(id)
                        }
                    }
                }
            }
            self.update_bp(&bp.id, |b| {
                b.verified = true;
                b.message = None;
            });
        }
        let mut args = json!({"filters": filters});
        if with_options && !options.is_empty() {
            args["filterOptions"] = json!(options);
        }
        s.req("setExceptionBreakpoints", args).await?;
        Ok(())
    }

    /// After a session ended: breakpoints go back to pending when no session is left.
    fn after_session_end(&self) {
        if !self.live_sessions().is_empty() {
            return;
        }
        let ids: Vec<String> = self
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .filter(|b| b.kind == BreakpointKind::Line)
            .map(|b| b.id.clone())
            .collect();
        for id in ids {
            self.update_bp(&id, |b| {
                b.verified = false;
                b.message = Some(PENDING_MESSAGE.into());
            });
        }
    }

    fn mark_ended(&self, s: &Session, why: String) {
        {
            let mut e = s.ended.lock().unwrap();
            if e.is_none() {
                *e = Some(why);
            }
        }
        *s.state.lock().unwrap() = SessionState::Stopped;
        s.clear_values();
        if !s.stopped_sent.swap(true, Ordering::SeqCst) {
            // Breakpoints first: whoever reacts to Stopped sees them pending already.
            self.after_session_end();
            let exit_code = *s.exit_code.lock().unwrap();
            self.emit(BackendEvent::Stopped {
                session_id: s.id.clone(),
                exit_code,
            });
        }
        // Wake anyone waiting for the configuration phase or the process event.
        s.initialized_notify.notify_waiters();
        s.process_seen.notify_waiters();
    }

    fn map_reason(reason: &str) -> PauseReason {
        match reason {
            "breakpoint" | "function breakpoint" | "data breakpoint" | "instruction breakpoint" => {
                PauseReason::Breakpoint
            }
            "step" => PauseReason::Step,
            "pause" => PauseReason::Pause,
            "exception" => PauseReason::Exception,
            "entry" => PauseReason::Entry,
            "goto" => PauseReason::Goto,
            // gdb (events.py): "signal-received" becomes DAP reason "signal", with no text.
            "signal" => PauseReason::Signal,
            _ => PauseReason::Other,
        }
    }

    /// Names the signal of a `signal` stop. gdb's DAP stop event carries none, but its CLI
    /// says it: "It stopped with signal SIGSEGV, Segmentation fault."
    /// When the signal arrived in library code (abort() inside libc), the description also
    /// names the first frame in the project, where the program went wrong.
    async fn signal_description(&self, s: &Session, thread: Option<i64>) -> String {
        let said = s
            .req(
                "evaluate",
                json!({"expression": "info program", "context": "repl"}),
            )
            .await
            .ok()
            .and_then(|b| b.get("result").and_then(Value::as_str).map(str::to_string));
        let mut text = said
            .as_deref()
            .and_then(parse_signal)
            .unwrap_or_else(|| "signal (the debugger did not say which)".into());
        let Some(t) = thread else { return text };
        let Ok(body) = s
            .req(
                "stackTrace",
                json!({"threadId": t, "startFrame": 0, "levels": 30}),
            )
            .await
        else {
            return text;
        };
        let frames = body
            .get("stackFrames")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let in_project = |f: &Value| {
            f.pointer("/source/path")
                .and_then(Value::as_str)
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p)))
                .filter(|p| p.starts_with(&self.root))
        };
        if frames.first().is_some_and(|f| in_project(f).is_none())
            && let Some((f, path)) = frames.iter().find_map(|f| in_project(f).map(|p| (f, p)))
        {
            let rel = path
                .strip_prefix(&self.root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let line = f.get("line").and_then(Value::as_u64).unwrap_or(0);
            let name = f.get("name").and_then(Value::as_str).unwrap_or("?");
            text.push_str(&format!(", raised from {rel}:{line} in {name}"));
        }
        text
    }

    /// Translates one DAP event of session `s` into backend events.
    async fn on_event(self: &Arc<Self>, s: &Arc<Session>, ev: DapEvent) {
        tracing::trace!(session = %s.id, event = %ev.event, body = %ev.body, "dap event");
        let b = &ev.body;
        match ev.event.as_str() {
            "initialized" => {
                s.initialized.store(true, Ordering::SeqCst);
                s.initialized_notify.notify_waiters();
            }
            "process" => {
                if let Some(pid) = b.get("systemProcessId").and_then(Value::as_u64) {
                    *s.process_id.lock().unwrap() = Some(pid as u32);
                }
                s.process_seen.notify_waiters();
            }
            "stopped" => {
                let thread = b.get("threadId").and_then(Value::as_i64);
                if let Some(t) = thread {
                    *s.last_thread.lock().unwrap() = Some(t);
                }
                let dap_reason = b.get("reason").and_then(Value::as_str).unwrap_or("");
                let mut reason = Self::map_reason(dap_reason);
                let hit: Vec<i64> = b
                    .get("hitBreakpointIds")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default();
                let ids: Vec<String> = {
                    let map = s.bp_ids.lock().unwrap();
                    hit.iter().filter_map(|h| map.get(h).cloned()).collect()
                };
                let hit_temp = hit.iter().any(|h| s.temp_ids.lock().unwrap().contains(h));
                let first = !s.first_stop_seen.swap(true, Ordering::SeqCst);
                // gdb reports its stop at main (stopAtBeginningOfMainSubprogram) as a breakpoint.
                let entry =
                    first && s.stop_on_entry && ids.is_empty() && reason == PauseReason::Breakpoint;
                if entry {
                    reason = PauseReason::Entry;
                    if entry_function(s.adapter).is_some() {
                        // The entry breakpoint on main has served.
                        s.temp_ids.lock().unwrap().clear();
                        let _ = s
                            .req("setFunctionBreakpoints", json!({"breakpoints": []}))
                            .await;
                    }
                }
                let mut description = b
                    .get("text")
                    .or(b.get("description"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                if hit_temp && ids.is_empty() && !entry {
                    description = Some("reached the run-to location".into());
                }
                if reason == PauseReason::Exception
                    && s.cap("supportsExceptionInfoRequest")
                    && let Some(t) = thread
                    && let Ok(info) = s.req("exceptionInfo", json!({"threadId": t})).await
                {
                    let id = info
                        .get("exceptionId")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    let d = info
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    description = Some(if d.is_empty() {
                        id.to_string()
                    } else {
                        format!("{id}: {d}")
                    });
                }
                if reason == PauseReason::Signal && description.is_none() {
                    description = Some(self.signal_description(s, thread).await);
                }
                // Restore what run-to / ignore-breakpoints changed before anyone can resume.
                let ov = s.override_.lock().unwrap().take();
                if let Some(ov) = ov {
                    s.temp_ids.lock().unwrap().clear();
                    let mut files = if ov.suppress { self.bp_files() } else { vec![] };
                    if let Some((f, _)) = ov.temp
                        && !files.contains(&f)
                    {
                        files.push(f);
                    }
                    for f in files {
                        let _ = self.sync_file(s, &f).await;
                    }
                }
                // Temporary breakpoints go away once hit.
                let temporary: Vec<(String, Option<String>)> = {
                    let store = self.bps.lock().unwrap();
                    store
                        .list
                        .iter()
                        .filter(|b| b.temporary && ids.contains(&b.id))
                        .map(|b| (b.id.clone(), b.file.clone()))
                        .collect()
                };
                for (id, file) in temporary {
                    self.bps.lock().unwrap().list.retain(|b| b.id != id);
                    self.emit(BackendEvent::BreakpointRemoved { id });
                    if let Some(f) = file {
                        let _ = self.sync_file(s, &f).await;
                    }
                }
                for id in &ids {
                    self.update_bp(id, |b| b.hit_count = Some(b.hit_count.unwrap_or(0) + 1));
                }
                s.clear_values();
                *s.state.lock().unwrap() = SessionState::Paused;
                self.emit(BackendEvent::Paused {
                    session_id: s.id.clone(),
                    thread_id: thread.map(|t| t.to_string()).unwrap_or_default(),
                    reason,
                    breakpoint_ids: ids,
                    description,
                });
            }
            "continued" | transport::SYNTHETIC_RESUMED => {
                let mut st = s.state.lock().unwrap();
                if *st != SessionState::Running && *st != SessionState::Stopped {
                    *st = SessionState::Running;
                    drop(st);
                    s.clear_values();
                    self.emit(BackendEvent::Resumed {
                        session_id: s.id.clone(),
                    });
                }
            }
            "exited" => {
                *s.exit_code.lock().unwrap() = b.get("exitCode").and_then(Value::as_i64);
            }
            "terminated" if s.adapter == AdapterKind::Delve => {
                // delve sends no `exited` event: it says the exit status as console text when
                // it is disconnected after the program ended (see delve_exit_status). The end
                // is reported once that is known (bounded), so Stopped carries the exit code.
                // The program is gone and its output already in dlv's stdout pipe, which is
                // read to its end before the connection counts as closed: no grace needed.
                s.terminated.store(true, Ordering::SeqCst);
                let (inner, s) = (self.clone(), s.clone());
                tokio::spawn(async move {
                    let seen = s.exit_seen.notified();
                    tokio::pin!(seen);
                    seen.as_mut().enable();
                    let _ = s
                        .client
                        .request(
                            "disconnect",
                            json!({"terminateDebuggee": true}),
                            DISCONNECT_TIMEOUT,
                        )
                        .await;
                    if s.exit_code.lock().unwrap().is_none() {
                        let _ = tokio::time::timeout(DELVE_EXIT_STATUS_WAIT, seen).await;
                    }
                    inner.mark_ended(&s, "the debuggee terminated".into());
                    s.shutdown().await
                });
            }
            "terminated" => {
                s.terminated.store(true, Ordering::SeqCst);
                self.mark_ended(s, "the debuggee terminated".into());
                let s = s.clone();
                tokio::spawn(async move {
                    // gdb forwards the inferior's output from a thread of its own, which can
                    // lag behind `terminated`; disconnecting at once would lose the program's
                    // last lines. The debuggee is gone already, so a grace period costs nothing.
                    tokio::time::sleep(TERMINATED_GRACE).await;
                    s.shutdown().await
                });
            }
            transport::SYNTHETIC_CLOSED => {
                // An adapter that exits after the debuggee did (delve, once disconnected) ended
                // because the program did.
                let why = if s.terminated.load(Ordering::SeqCst) {
                    "the debuggee terminated".into()
                } else {
                    s.client
                        .exit_info()
                        .map(|e| e.describe())
                        .unwrap_or_else(|| "adapter exited".into())
                };
                self.mark_ended(s, why);
            }
            "output" => {
                let text = b
                    .get("output")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let category = match b
                    .get("category")
                    .and_then(Value::as_str)
                    .unwrap_or("console")
                {
                    "stdout" => OutputCategory::Stdout,
                    "stderr" => OutputCategory::Stderr,
                    "telemetry" => return,
                    _ => OutputCategory::Console,
                };
                if s.adapter == AdapterKind::Delve && category == OutputCategory::Console {
                    if let Some(code) = delve_exit_status(&text) {
                        *s.exit_code.lock().unwrap() = Some(code);
                        s.exit_seen.notify_waiters();
                    }
                    // dlv's terminal-client banner, meaningless over DAP.
                    if text.starts_with("Type 'dlv help'") {
                        return;
                    }
                }
                // Log-point output carries the breakpoint's source location (debugpy does).
                let at = b
                    .pointer("/source/path")
                    .and_then(Value::as_str)
                    .zip(b.get("line").and_then(Value::as_u64));
                let is_log = at.is_some_and(|(f, l)| {
                    let f = std::fs::canonicalize(f)
                        .map(|p| p.display().to_string())
                        .unwrap_or(f.to_string());
                    self.bps.lock().unwrap().list.iter().any(|bp| {
                        bp.log_message.is_some()
                            && bp.file.as_deref() == Some(f.as_str())
                            && (bp.line == Some(l as u32) || bp.requested_line == Some(l as u32))
                    })
                });
                let any_log = || {
                    self.bps
                        .lock()
                        .unwrap()
                        .list
                        .iter()
                        .any(|bp| bp.log_message.is_some())
                };
                // debugpy marks it only with an empty `source` object (program output has none);
                // gdb sends log-point text as "console" (its own chatter comes as "stdout").
                let is_log = is_log
                    || (b
                        .get("source")
                        .is_some_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
                        && any_log())
                    || (matches!(s.adapter, AdapterKind::Gdb | AdapterKind::Lldb)
                        && category == OutputCategory::Console
                        && any_log());
                // gdb reports breakpoints set before the program is loaded as CLI chatter on
                // "stdout"; the binding itself arrives as a `breakpoint` event.
                if s.adapter == AdapterKind::Gdb
                    && category == OutputCategory::Stdout
                    && (text.contains("No source file named ")
                        || (text.starts_with("Breakpoint ")
                            && text.trim_end().ends_with("pending."))
                        || is_gdb_breakpoint_set_line(&text))
                {
                    return;
                }
                let category = if is_log {
                    OutputCategory::Tracepoint
                } else {
                    category
                };
                self.emit(BackendEvent::Output {
                    session_id: s.id.clone(),
                    category,
                    text,
                });
            }
            "breakpoint" => {
                let Some(bp) = b.get("breakpoint") else {
                    return;
                };
                let Some(dap_id) = bp.get("id").and_then(Value::as_i64) else {
                    return;
                };
                if b.get("reason").and_then(Value::as_str) == Some("removed") {
                    return;
                }
                let ours = s.bp_ids.lock().unwrap().get(&dap_id).cloned();
                if let Some(id) = ours {
                    self.apply_dap_bp(&id, bp);
                }
            }
            "capabilities" => {
                if let Some(c) = b.get("capabilities").and_then(Value::as_object) {
                    let mut caps = s.caps.lock().unwrap();
                    for (k, v) in c {
                        caps[k] = v.clone();
                    }
                }
            }
            _ => {}
        }
    }

    fn spawn_pump(self: &Arc<Self>, s: Arc<Session>, mut rx: mpsc::UnboundedReceiver<DapEvent>) {
        let inner = self.clone();
        tokio::spawn(async move {
            while let Some(ev) = rx.recv().await {
                let closed = ev.event == transport::SYNTHETIC_CLOSED;
                inner.on_event(&s, ev).await;
                if closed {
                    break;
                }
            }
        });
    }

    async fn launch(self: &Arc<Self>, req: LaunchRequest) -> BackendResult<SessionInfo> {
        let mut resolved: ResolvedLaunch = config::resolve(&self.root, &req)?;
        let (program, args) = adapter::command(resolved.adapter, resolved.python.as_deref())?;
        // The binary built for this session, removed when it ends.
        let built_binary = (resolved.adapter == AdapterKind::Delve
            && resolved.request == "launch"
            && gobuild::builds(&resolved.arguments))
        .then(|| {
            resolved
                .arguments
                .get("output")
                .and_then(Value::as_str)
                .map(PathBuf::from)
        })
        .flatten();
        if built_binary.is_some() {
            let timeout = Duration::from_millis(self.go_build_timeout_ms.load(Ordering::Relaxed));
            gobuild::build(&mut resolved.arguments, &resolved.cwd, &self.root, timeout)
                .await
                .map_err(|e| match e {
                    BackendError::Failed(m) => {
                        BackendError::Failed(format!("launching '{}' failed: {m}", resolved.name))
                    }
                    other => other,
                })?;
        }
        let wire = adapter::wire(resolved.adapter);
        let (client, rx) = match Client::spawn(
            resolved.adapter.name(),
            &program,
            &args,
            &resolved.cwd,
            wire,
        )
        .await
        {
            Ok(c) => c,
            Err(e) => {
                if let Some(bin) = &built_binary {
                    let _ = std::fs::remove_file(bin);
                }
                return Err(BackendError::Failed(format!(
                    "cannot start the {} adapter ({program}): {e}; {}",
                    resolved.adapter.name(),
                    adapter::spawn_hint(resolved.adapter)
                )));
            }
        };
        let id = format!("s{}", self.next_session.fetch_add(1, Ordering::SeqCst));
        let session = Arc::new(Session {
            id: id.clone(),
            name: resolved.name.clone(),
            run_configuration: resolved.run_configuration.clone(),
            mode: req.mode,
            adapter: resolved.adapter,
            request: resolved.request.clone(),
            client: client.clone(),
            caps: Mutex::new(Value::Null),
            state: Mutex::new(SessionState::Starting),
            process_id: Mutex::new(None),
            process_seen: Notify::new(),
            exit_code: Mutex::new(None),
            exit_seen: Notify::new(),
            built_binary,
            ended: Mutex::new(None),
            stopped_sent: AtomicBool::new(false),
            terminated: AtomicBool::new(false),
            initialized: AtomicBool::new(false),
            initialized_notify: Notify::new(),
            stop_on_entry: resolved.stop_on_entry
                || resolved
                    .arguments
                    .get("stopOnEntry")
                    .and_then(Value::as_bool)
                    .unwrap_or(false)
                || resolved
                    .arguments
                    .get("stopAtBeginningOfMainSubprogram")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            stop_on_exception: resolved.stop_on_exception,
            first_stop_seen: AtomicBool::new(false),
            bp_ids: Mutex::new(HashMap::new()),
            temp_ids: Mutex::new(BTreeSet::new()),
            override_: Mutex::new(None),
            last_thread: Mutex::new(None),
            values: Mutex::new(ValueTable::default()),
        });
        {
            let mut list = self.sessions.lock().unwrap();
            list.push(session.clone());
            // Bound the ended sessions kept around for status.
            let ended: Vec<String> = list
                .iter()
                .filter(|s| s.is_ended())
                .map(|s| s.id.clone())
                .collect();
            if ended.len() > KEEP_ENDED {
                let drop_ids: BTreeSet<&String> =
                    ended[..ended.len() - KEEP_ENDED].iter().collect();
                list.retain(|s| !drop_ids.contains(&s.id));
            }
        }
        self.spawn_pump(session.clone(), rx);
        // SessionStarted goes out before anything the adapter can report (a stop on entry).
        self.emit(BackendEvent::SessionStarted {
            session: session.info(),
        });
        match self.configure(&session, &resolved).await {
            Ok(()) => {}
            // A program that ran to its end during the start sequence (quick scripts, run
            // mode) was launched fine; the Stopped event already tells that it ended.
            Err(_) if session.terminated.load(Ordering::SeqCst) => {}
            Err(e) => {
                let tail = client.stderr_tail();
                self.mark_ended(&session, format!("launch failed: {e}"));
                session.shutdown().await;
                let hint = if tail.trim().is_empty() {
                    String::new()
                } else {
                    format!(" (adapter stderr: {})", tail.trim())
                };
                return Err(match e {
                    BackendError::Failed(m) => BackendError::Failed(format!(
                        "launching '{}' failed: {m}{hint}",
                        resolved.name
                    )),
                    BackendError::InvalidState(m) => BackendError::Failed(format!(
                        "launching '{}' failed: {m}{hint}",
                        resolved.name
                    )),
                    other => other,
                });
            }
        }
        Ok(session.info())
    }

    /// initialize → launch/attach (answered late) → initialized → breakpoints →
    /// configurationDone → launch response → process event.
    async fn configure(
        self: &Arc<Self>,
        s: &Arc<Session>,
        r: &ResolvedLaunch,
    ) -> BackendResult<()> {
        let caps = s
            .req(
                "initialize",
                json!({
                    "clientID": "debugger-mcp",
                    "clientName": "Debugger MCP",
                    "adapterID": r.adapter.name(),
                    "locale": "en",
                    "linesStartAt1": true,
                    "columnsStartAt1": true,
                    "pathFormat": "path",
                    "supportsVariableType": true,
                    "supportsVariablePaging": true,
                    "supportsRunInTerminalRequest": false,
                    "supportsProgressReporting": false,
                    "supportsInvalidatedEvent": false,
                    "supportsStartDebuggingRequest": false,
                }),
            )
            .await?;
        *s.caps.lock().unwrap() = if caps.is_object() { caps } else { json!({}) };
        {
            let mut known = self.known_filters.lock().unwrap();
            for f in s.filters() {
                if !known.iter().any(|k| k.id == f.id) {
                    known.push(f);
                }
            }
        }
        // Register for `initialized` before sending launch so the notification is not missed.
        let init = s.initialized_notify.notified();
        tokio::pin!(init);
        init.as_mut().enable();
        let mut launch_rx = s
            .client
            .send(&r.request, Value::Object(r.arguments.clone()))
            .await
            .map_err(|e| err_from(s, e))?;
        let mut launch_result: Option<Result<Value, DapError>> = None;
        if !s.initialized.load(Ordering::SeqCst) {
            tokio::select! {
                _ = &mut init => {}
                r = &mut launch_rx => {
                    // Some adapters answer launch before `initialized`; a failure ends it here.
                    let r = r.unwrap_or_else(|_| Err(DapError::Closed("adapter connection dropped".into())));
                    if let Err(e) = r { return Err(err_from(s, e)); }
                    launch_result = Some(Ok(Value::Null));
                    if !s.initialized.load(Ordering::SeqCst) {
                        tokio::time::timeout(LAUNCH_TIMEOUT, &mut init).await.map_err(|_| BackendError::Timeout(
                            "the adapter sent no 'initialized' event".into()))?;
                    }
                }
                _ = tokio::time::sleep(LAUNCH_TIMEOUT) => {
                    return Err(BackendError::Timeout("the adapter sent no 'initialized' event".into()));
                }
            }
        }
        if s.is_ended() {
            return Err(BackendError::Failed(
                s.ended.lock().unwrap().clone().unwrap_or_default(),
            ));
        }
        self.sync_all_lines(s).await?;
        self.sync_exceptions(s).await?;
        if s.stop_on_entry
            && r.request == "launch"
            && let Some(main) = entry_function(s.adapter)
        {
            // "Entry" means the start of main, as gdb's stopAtBeginningOfMainSubprogram does.
            let body = s
                .req(
                    "setFunctionBreakpoints",
                    json!({"breakpoints": [{"name": main}]}),
                )
                .await?;
            for b in body
                .get("breakpoints")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(id) = b.get("id").and_then(Value::as_i64) {
                    s.temp_ids.lock().unwrap().insert(id);
                }
            }
        }
        if s.cap("supportsConfigurationDoneRequest") {
            s.req_t("configurationDone", Value::Null, LAUNCH_TIMEOUT)
                .await?;
        }
        if launch_result.is_none() {
            Client::wait(&r.request, launch_rx, LAUNCH_TIMEOUT)
                .await
                .map_err(|e| err_from(s, e))?;
        }
        {
            let mut st = s.state.lock().unwrap();
            if *st == SessionState::Starting {
                *st = SessionState::Running;
            }
        }
        // delve sends no `process` event; the program it launched (stopped until
        // configurationDone) is its only child by now. Known, it is killed with the session.
        if r.request == "launch" && s.adapter == AdapterKind::Delve {
            let child = s
                .client
                .pid()
                .and_then(|p| child_pids(p).into_iter().next());
            *s.process_id.lock().unwrap() = child;
        }
        // The process id comes in an event right after the launch; wait briefly for it so the
        // returned SessionInfo carries it (event-driven, bounded).
        if r.request == "launch"
            && s.adapter != AdapterKind::Delve
            && s.process_id.lock().unwrap().is_none()
        {
            let seen = s.process_seen.notified();
            tokio::pin!(seen);
            seen.as_mut().enable();
            if s.process_id.lock().unwrap().is_none() && !s.is_ended() {
                let _ = tokio::time::timeout(Duration::from_secs(3), seen).await;
            }
        }
        Ok(())
    }

    async fn resolve_thread(&self, s: &Session, thread: Option<&str>) -> BackendResult<i64> {
        if let Some(t) = thread {
            return t
                .parse()
                .map_err(|_| BackendError::NotFound(format!("thread '{t}'")));
        }
        if let Some(t) = *s.last_thread.lock().unwrap() {
            return Ok(t);
        }
        let body = s.req("threads", Value::Null).await?;
        body.pointer("/threads/0/id")
            .and_then(Value::as_i64)
            .ok_or_else(|| BackendError::InvalidState(format!("session {} has no threads", s.id)))
    }
}

/// "…It stopped with signal SIGSEGV, Segmentation fault." → "signal SIGSEGV (Segmentation fault)".
fn parse_signal(info_program: &str) -> Option<String> {
    let at = info_program.find("signal ")?;
    let rest = info_program[at + "signal ".len()..]
        .lines()
        .next()?
        .trim_end_matches('.');
    let (name, meaning) = match rest.split_once(", ") {
        Some((n, m)) => (n.trim(), Some(m.trim())),
        None => (rest.trim(), None),
    };
    if !name.starts_with("SIG") {
        return None;
    }
    Some(match meaning {
        Some(m) if !m.is_empty() => format!("signal {name} ({m})"),
        _ => format!("signal {name}"),
    })
}

/// An expression that only names a value (`records`, `tree['child']`, `self.items[3]`): safe
/// to evaluate again, unlike one with a call.
fn is_plain_path(e: &str) -> bool {
    !e.is_empty()
        && !e.contains('(')
        && e.chars()
            .all(|c| c.is_alphanumeric() || "_.[]'\"-".contains(c))
}

fn parse_handle(h: &str, what: &str) -> BackendResult<i64> {
    h.parse()
        .map_err(|_| BackendError::NotFound(format!("{what} '{h}'")))
}

fn scope_kind(scope: &Value) -> Option<ValueScope> {
    let hint = scope
        .get("presentationHint")
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = scope
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    if hint == "locals" || name == "locals" || name == "local" {
        Some(ValueScope::Local)
    } else if hint == "arguments" || name == "arguments" {
        Some(ValueScope::Argument)
    } else {
        None
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
        tokio::spawn(async move { inner.launch(request).await })
            .await
            .unwrap_or_else(|e| Err(BackendError::Failed(format!("launch task failed: {e}"))))
    }

    fn launch_build_allowance(&self, project: &str, request: &LaunchRequest) -> Duration {
        let builds = self.inner.check_project(project).is_ok()
            && config::resolve(&self.inner.root, request).is_ok_and(|r| {
                r.adapter == AdapterKind::Delve
                    && r.request == "launch"
                    && gobuild::builds(&r.arguments)
            });
        if builds {
            Duration::from_millis(self.inner.go_build_timeout_ms.load(Ordering::Relaxed))
        } else {
            Duration::ZERO
        }
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
        if s.is_ended() {
            // Make sure nothing is left running, then report success: the goal is reached.
            s.shutdown().await;
            return Ok(());
        }
        s.shutdown().await;
        self.inner.mark_ended(&s, "stopped on request".into());
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
        let file = self.inner.absolute(&spec.file);
        if !file.is_file() {
            return Err(BackendError::NotFound(format!("file '{}'", file.display())));
        }
        let file = file.display().to_string();
        // Re-setting a line updates the breakpoint there.
        let existing = self
            .inner
            .bps
            .lock()
            .unwrap()
            .list
            .iter()
            .find(|b| {
                b.kind == BreakpointKind::Line
                    && b.file.as_deref() == Some(&file)
                    && b.requested_line == Some(spec.line)
            })
            .map(|b| b.id.clone());
        let id = {
            let mut store = self.inner.bps.lock().unwrap();
            let id = existing.clone().unwrap_or_else(|| {
                let id = store.next.to_string();
                store.next += 1;
                id
            });
            let bp = BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Line,
                file: Some(file.clone()),
                requested_line: Some(spec.line),
                line: Some(spec.line),
                verified: false,
                message: Some(PENDING_MESSAGE.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                log_message: spec.log_message.filter(|c| !c.is_empty()),
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
        if let Err(e) = self
            .inner
            .sync_everywhere(BreakpointKind::Line, Some(&file))
            .await
        {
            // The breakpoint is stored either way (a later session may bind it); say why the
            // running one did not take it.
            self.inner.update_bp(&id, |b| {
                b.verified = false;
                b.message = Some(format!("the debugger refused it: {e}"));
            });
        }
        self.inner.breakpoint(&id)
    }

    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        // Validate against what the adapters offer, once known.
        let known: Vec<ExceptionFilter> = {
            let live = self.inner.live_sessions();
            if let Some(s) = live.first() {
                s.filters()
            } else {
                self.inner.known_filters.lock().unwrap().clone()
            }
        };
        let any = matches!(
            spec.exception.as_str(),
            "*" | "any" | "Exception" | "BaseException" | ""
        );
        if !known.is_empty() && !any && !known.iter().any(|f| f.id == spec.exception) {
            return Err(BackendError::Unsupported(format!(
                "exception breakpoint '{}' is not offered by the debug adapter; available filters: {}",
                spec.exception,
                known
                    .iter()
                    .map(|f| format!("{} ({})", f.id, f.label))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let id = {
            let mut store = self.inner.bps.lock().unwrap();
            let id = store.next.to_string();
            store.next += 1;
            store.list.push(BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Exception,
                verified: false,
                message: Some(PENDING_MESSAGE.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                suspend_policy: spec.suspend_policy,
                exception: Some(spec.exception.clone()),
                caught: Some(spec.caught),
                uncaught: Some(spec.uncaught),
                ..Default::default()
            });
            id
        };
        self.inner
            .sync_everywhere(BreakpointKind::Exception, None)
            .await?;
        self.inner.breakpoint(&id)
    }

    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.inner.check_project(project)?;
        let (kind, file) = {
            let mut store = self.inner.bps.lock().unwrap();
            let bp = store
                .list
                .iter_mut()
                .find(|b| b.id == id)
                .ok_or_else(|| BackendError::NotFound(format!("breakpoint '{id}'")))?;
            let set = |field: &mut Option<String>, v: Option<String>| {
                if let Some(v) = v {
                    *field = if v.is_empty() { None } else { Some(v) };
                }
            };
            if let Some(e) = update.enabled {
                bp.enabled = e;
            }
            set(&mut bp.condition, update.condition);
            set(&mut bp.log_message, update.log_message);
            set(&mut bp.hit_condition, update.hit_condition);
            if let Some(p) = update.suspend_policy {
                bp.suspend_policy = p;
            }
            if let Some(t) = update.temporary {
                bp.temporary = t;
            }
            if !bp.enabled {
                bp.verified = false;
                bp.message = Some("disabled".into());
            } else if bp.message.as_deref() == Some("disabled") {
                bp.message = Some(PENDING_MESSAGE.into());
            }
            (bp.kind, bp.file.clone())
        };
        self.inner.sync_everywhere(kind, file.as_deref()).await?;
        self.inner.breakpoint(&id)
    }

    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        self.inner.check_project(project)?;
        let removed = {
            let mut store = self.inner.bps.lock().unwrap();
            let pos = store
                .list
                .iter()
                .position(|b| b.id == id)
                .ok_or_else(|| BackendError::NotFound(format!("breakpoint '{id}'")))?;
            store.list.remove(pos)
        };
        for s in self.inner.live_sessions() {
            s.bp_ids.lock().unwrap().retain(|_, v| v != id);
        }
        self.inner
            .emit(BackendEvent::BreakpointRemoved { id: id.to_string() });
        self.inner
            .sync_everywhere(removed.kind, removed.file.as_deref())
            .await
    }

    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        let s = self.inner.live(session_id)?;
        if op == ControlOp::Pause {
            if *s.state.lock().unwrap() == SessionState::Paused {
                return Err(BackendError::InvalidState(format!(
                    "session {session_id} is already paused"
                )));
            }
            let t = self.inner.resolve_thread(&s, thread_id).await?;
            s.req("pause", json!({"threadId": t})).await?;
            return Ok(());
        }
        s.require_paused()?;
        let t = self.inner.resolve_thread(&s, thread_id).await?;
        let (command, ov) = match &op {
            ControlOp::Resume => ("continue", None),
            ControlOp::StepOver { ignore_breakpoints } => (
                "next",
                ignore_breakpoints.then(|| Override {
                    temp: None,
                    suppress: true,
                }),
            ),
            // `force` (step into library code) cannot be changed per step in DAP; debugpy's
            // justMyCode is fixed at launch.
            ControlOp::StepInto { .. } => ("stepIn", None),
            ControlOp::StepOut => ("stepOut", None),
            ControlOp::RunTo {
                file,
                line,
                ignore_breakpoints,
            } => {
                let f = self.inner.absolute(file).display().to_string();
                (
                    "continue",
                    Some(Override {
                        temp: Some((f, *line)),
                        suppress: *ignore_breakpoints,
                    }),
                )
            }
            ControlOp::Pause => unreachable!(),
        };
        if let Some(ov) = ov {
            *s.override_.lock().unwrap() = Some(ov.clone());
            let res = if ov.suppress {
                self.inner.sync_all_lines(&s).await
            } else {
                let f = ov.temp.clone().unwrap().0;
                self.inner.sync_file(&s, &f).await
            };
            if let Err(e) = res {
                s.override_.lock().unwrap().take();
                let _ = self.inner.sync_all_lines(&s).await;
                return Err(e);
            }
        }
        let mut args = json!({"threadId": t});
        if command != "continue" {
            args["granularity"] = json!("line");
        }
        // The resulting "resumed" is emitted from the event stream, in order with the stop
        // that follows (see transport::SYNTHETIC_RESUMED).
        if let Err(e) = s.req(command, args).await {
            if s.override_.lock().unwrap().take().is_some() {
                let _ = self.inner.sync_all_lines(&s).await;
            }
            // The adapter refused to run: the program is still where it was. Undo the
            // "resumed" already reported, unless a stop came in the meantime.
            let repause = {
                let mut st = s.state.lock().unwrap();
                let r = *st == SessionState::Running && !s.is_ended();
                if r {
                    *st = SessionState::Paused;
                }
                r
            };
            if repause {
                self.inner.emit(BackendEvent::Paused {
                    session_id: s.id.clone(),
                    thread_id: t.to_string(),
                    reason: PauseReason::Other,
                    breakpoint_ids: vec![],
                    description: Some(format!(
                        "still paused: the debugger refused '{command}': {e}"
                    )),
                });
            }
            return Err(e);
        }
        Ok(())
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        let s = self.inner.live(session_id)?;
        let body = s.req("threads", Value::Null).await?;
        let state = match *s.state.lock().unwrap() {
            SessionState::Paused => "paused",
            _ => "running",
        };
        Ok(body
            .get("threads")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|t| ThreadInfo {
                        id: t.get("id").and_then(Value::as_i64).unwrap_or(0).to_string(),
                        name: t
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        state: state.into(),
                        group: None,
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        let s = self.inner.live(session_id)?;
        s.require_paused()?;
        let t = parse_handle(thread_id, "thread")?;
        // limit 0 means "all" (as DAP's levels 0 does).
        let body = s
            .req(
                "stackTrace",
                json!({"threadId": t, "startFrame": offset, "levels": limit}),
            )
            .await?;
        let frames = body
            .get("stackFrames")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let take = if limit == 0 {
            usize::MAX
        } else {
            limit as usize
        };
        let frames: Vec<FrameInfo> = frames
            .iter()
            .take(take)
            .enumerate()
            .map(|(i, f)| {
                let file = f.pointer("/source/path").and_then(Value::as_str).map(|p| {
                    std::fs::canonicalize(p)
                        .map(|c| c.display().to_string())
                        .unwrap_or_else(|_| p.to_string())
                });
                let name = f
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                // "Class.method" (Python/Java style) or "ns::Class::method" (C++).
                let (class_name, method_name) = match name
                    .rsplit_once("::")
                    .or_else(|| name.rsplit_once('.'))
                {
                    Some((c, m)) if !c.is_empty() && !m.is_empty() && !name.starts_with('<') => {
                        (Some(c.to_string()), m.to_string())
                    }
                    _ => (None, name.clone()),
                };
                let hint = f.get("presentationHint").and_then(Value::as_str);
                let src_hint = f
                    .pointer("/source/presentationHint")
                    .and_then(Value::as_str);
                let is_library = self.inner.is_library(file.as_deref())
                    || matches!(hint, Some("subtle") | Some("deemphasize"))
                    || src_hint == Some("deemphasize");
                FrameInfo {
                    index: offset + i as u32,
                    handle: f.get("id").and_then(Value::as_i64).unwrap_or(0).to_string(),
                    file,
                    line: f
                        .get("line")
                        .and_then(Value::as_u64)
                        .filter(|l| *l > 0)
                        .map(|l| l as u32),
                    class_name,
                    method_name: Some(method_name),
                    is_library,
                }
            })
            .collect();
        let total = body
            .get("totalFrames")
            .and_then(Value::as_u64)
            .map(|t| t as u32);
        Ok(FramePage { frames, total })
    }

    async fn select_frame(
        &self,
        session_id: &str,
        _thread_id: &str,
        _frame: &str,
    ) -> BackendResult<()> {
        self.inner.live(session_id)?;
        Ok(())
    }

    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        let s = self.inner.live(session_id)?;
        s.require_paused()?;
        let frame_id = parse_handle(frame, "frame")?;
        let body = s.req("scopes", json!({"frameId": frame_id})).await?;
        let scopes = body
            .get("scopes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut out = Vec::new();
        for scope in &scopes {
            let r = scope
                .get("variablesReference")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if r == 0 {
                continue;
            }
            {
                let mut values = s.values.lock().unwrap();
                values.ref_frame.insert(r, frame_id);
                if let Some(l) = assign::Lineage::scope(s.adapter, scope) {
                    values.ref_lineage.insert(r, l);
                }
            }
            match scope_kind(scope) {
                Some(kind) => {
                    let start = out.len();
                    let vars = s.req("variables", json!({"variablesReference": r})).await?;
                    for v in vars
                        .get("variables")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        out.push(s.node(v, Some(r), Some(frame_id), kind));
                    }
                    s.real_sizes(&mut out[start..], Some(frame_id)).await;
                }
                None => {
                    // Globals, registers and the like: one expandable group node.
                    let name = scope
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("scope")
                        .to_string();
                    let count = scope
                        .get("namedVariables")
                        .and_then(Value::as_u64)
                        .map(|n| {
                            n + scope
                                .get("indexedVariables")
                                .and_then(Value::as_u64)
                                .unwrap_or(0)
                        });
                    let global = name.to_ascii_lowercase().contains("global");
                    out.push(ValueNode {
                        name: name.clone(),
                        value: String::new(),
                        type_name: None,
                        has_children: true,
                        children_handle: Some(r.to_string()),
                        set_handle: None,
                        evaluate_name: None,
                        child_count: count,
                        value_length: None,
                        scope: if global {
                            ValueScope::Global
                        } else {
                            ValueScope::Synthetic
                        },
                    });
                }
            }
        }
        Ok(out)
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        let s = self.inner.live(session_id)?;
        s.require_paused()?;
        let r = parse_handle(handle, "value handle")?;
        let frame_id = s.values.lock().unwrap().ref_frame.get(&r).copied();
        let paging = s.cap("supportsVariablePaging") && limit > 0;
        let limit = if limit == 0 { u32::MAX } else { limit };
        let args = if paging {
            json!({"variablesReference": r, "start": offset, "count": limit})
        } else {
            json!({"variablesReference": r})
        };
        let body = s.req("variables", args).await.map_err(|e| match e {
            BackendError::Failed(m) => BackendError::Failed(format!(
                "{m} (value handle {handle}; handles are valid until the next resume)"
            )),
            e => e,
        })?;
        let mut all = body
            .get("variables")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let (page, total): (Vec<Value>, Option<u64>) = if paging {
            let known = s.values.lock().unwrap().ref_count.get(&r).copied();
            (all.into_iter().take(limit as usize).collect(), known)
        } else {
            // debugpy lists its "special variables"/"function variables" groups first; they are
            // not program values and would shift offsets (offset 25 of a list must be item 25).
            all.retain(|v| {
                !matches!(
                    v.get("name").and_then(Value::as_str),
                    Some("special variables" | "function variables")
                )
            });
            // debugpy shows a collection's first 100 items, then "more" (buckets of the rest) and
            // "len()" (its real size): a 5,000-item list must read as 5,000, and its item 4,000
            // must be reachable by offset.
            let take_named = |all: &mut Vec<Value>, name: &str| {
                let i = all
                    .iter()
                    .position(|v| v.get("name").and_then(Value::as_str) == Some(name))?;
                Some(all.remove(i))
            };
            let real_len = take_named(&mut all, "len()").and_then(|v| {
                v.get("value")
                    .and_then(Value::as_str)
                    .and_then(|x| x.trim().parse::<u64>().ok())
            });
            let more = if real_len.is_some() {
                take_named(&mut all, "more")
                    .and_then(|v| v.get("variablesReference").and_then(Value::as_i64))
                    .filter(|r| *r > 0)
            } else {
                None
            };
            let end = offset as u64 + limit as u64;
            let mut page: Vec<Value> = all
                .iter()
                .skip(offset as usize)
                .take(limit as usize)
                .cloned()
                .collect();
            if let Some(more) = more
                && end > all.len() as u64
            {
                page.extend(
                    s.more_items(more, all.len() as u64, offset as u64, end)
                        .await?,
                );
            }
            (page, Some(real_len.unwrap_or(all.len() as u64)))
        };
        let mut children: Vec<ValueNode> = page
            .iter()
            .map(|v| s.node(v, Some(r), frame_id, ValueScope::Local))
            .collect();
        s.real_sizes(&mut children, frame_id).await;
        Ok(ChildPage { children, total })
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        let s = self.inner.live(session_id)?;
        s.require_paused()?;
        let idx: usize = handle
            .parse()
            .map_err(|_| BackendError::NotFound(format!("set handle '{handle}'")))?;
        let target = s
            .values
            .lock()
            .unwrap()
            .set_targets
            .get(idx)
            .cloned()
            .ok_or_else(|| {
                BackendError::NotFound(format!(
                    "set handle '{handle}' (handles are valid until the next resume)"
                ))
            })?;
        let result = if let (Some(parent), true) = (target.parent_ref, s.cap("supportsSetVariable"))
        {
            s.req(
                "setVariable",
                json!({"variablesReference": parent, "name": target.name, "value": new_value}),
            )
            .await
        } else {
            Err(BackendError::Unsupported("setVariable".into()))
        };
        let body = match result {
            Ok(b) => b,
            Err(e) => match (&target.evaluate_name, s.cap("supportsSetExpression")) {
                (Some(expr), true) => {
                    let mut args = json!({"expression": expr, "value": new_value});
                    if let Some(f) = target.frame_id {
                        args["frameId"] = json!(f);
                    }
                    s.req("setExpression", args).await?
                }
                _ => return Err(e),
            },
        };
        let mut v = body.clone();
        v["name"] = json!(target.name);
        if let Some(e) = &target.evaluate_name {
            v["evaluateName"] = json!(e);
        }
        Ok(s.node(&v, target.parent_ref, target.frame_id, ValueScope::Local))
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        let s = self.inner.live(session_id)?;
        s.require_paused()?;
        let frame_id = parse_handle(&request.frame, "frame")?;
        // gdb: "repl" runs CLI commands, other contexts evaluate expressions; debugpy: "repl"
        // also accepts statements, "watch" only expressions. Side-effect freedom is not
        // something either adapter can enforce for expressions (a function call still runs).
        let context = match request.context {
            EvalContext::Expression | EvalContext::Watch => "watch",
            EvalContext::Repl | EvalContext::CodeFragment => {
                if !request.allow_side_effects {
                    return Err(BackendError::InvalidState(
                        "code fragments and REPL evaluation can change the program; they need allow_side_effects".into(),
                    ));
                }
                "repl"
            }
        };
        let body = s
            .req(
                "evaluate",
                json!({"expression": request.expression, "frameId": frame_id, "context": context}),
            )
            .await?;
        let mut v = body.clone();
        v["name"] = json!(request.expression);
        v["evaluateName"] = json!(request.expression);
        let mut node = [s.node(&v, None, Some(frame_id), ValueScope::Local)];
        s.real_sizes(&mut node, Some(frame_id)).await;
        let [node] = node;
        Ok(node)
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
        // Adapter processes are killed when their clients drop (kill_on_drop + Client::drop);
        // gdb's inferiors are killed explicitly since a killed gdb leaves them running.
        for s in self.inner.sessions.lock().unwrap().iter() {
            s.client.kill_now();
            if !s.is_ended()
                && s.request == "launch"
                && let Some(pid) = *s.process_id.lock().unwrap()
            {
                let _ = std::process::Command::new("kill")
                    .arg("-9")
                    .arg(pid.to_string())
                    .status();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{delve_exit_status, parse_signal};

    #[test]
    fn delve_console_gives_the_exit_status() {
        assert_eq!(
            delve_exit_status("Process 12227 has exited with status 0\n"),
            Some(0)
        );
        assert_eq!(
            delve_exit_status("Process 9 has exited with status 1"),
            Some(1)
        );
        assert_eq!(
            delve_exit_status("Detaching and terminating target process\n"),
            None
        );
        assert_eq!(
            delve_exit_status("Process x has exited with status 2"),
            None
        );
    }

    #[test]
    fn gdb_info_program_names_the_signal() {
        let text = "\tUsing the running image of child process 25508.\nProgram stopped at 0x55555555515c.\nIt stopped with signal SIGSEGV, Segmentation fault.\n";
        assert_eq!(
            parse_signal(text).as_deref(),
            Some("signal SIGSEGV (Segmentation fault)")
        );
        assert_eq!(
            parse_signal("It stopped at a breakpoint that has since been deleted."),
            None
        );
    }
}
