//! The backend trait: the narrow set of debugger operations the core needs.
//!
//! Two implementations exist: `debugger-mcp-dap` (headless, real DAP adapters) and
//! `debugger-mcp-jni` (the IDE's XDebugger behind a JNI callback table). Every agent-facing
//! feature (waiting, value ids, truncation, watches, history, guardrails) is built once in the
//! core on top of this trait; backends stay thin and stateless towards the agent.
//!
//! Every type here is also the JSON wire format of the JNI callback table (see
//! `docs/CALLBACK_TABLE.md`): field names are snake_case, optional fields may be absent.
//! Conventions: lines are 1-based; ids are opaque strings chosen by the backend and kept short.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

/// Version of the operation table. Bumped on any incompatible change of an op or its JSON.
pub const TABLE_VERSION: u32 = 1;

/// What a backend can and cannot do; the core uses it to word errors and pick fallbacks.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BackendInfo {
    /// e.g. "dap" or "intellij".
    pub name: String,
    pub table_version: u32,
    /// True when `confirm` can ask the user (IDE dialog). When false the core uses MCP
    /// elicitation or refuses.
    #[serde(default)]
    pub can_confirm: bool,
    #[serde(default)]
    pub supports_set_value: bool,
    #[serde(default)]
    pub supports_code_fragments: bool,
    #[serde(default)]
    pub supports_exception_breakpoints: bool,
    /// Exception filter names/classes understood by `add_exception_breakpoint`, when finite.
    #[serde(default)]
    pub exception_filters: Vec<ExceptionFilter>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ExceptionFilter {
    pub id: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProjectInfo {
    pub name: String,
    /// Absolute, canonical root directory. Paths outside it are refused by the core.
    pub root: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct RunConfigInfo {
    pub name: String,
    /// Human type, e.g. "Application", "debugpy", "cppdbg".
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(default)]
    pub type_id: String,
    #[serde(default)]
    pub is_temporary: bool,
    #[serde(default = "yes")]
    pub can_run: bool,
    #[serde(default = "yes")]
    pub can_debug: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Where the configuration comes from, e.g. ".vscode/launch.json" or "RunManager".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum LaunchMode {
    #[default]
    Debug,
    Run,
}

/// Start a session either from a named run configuration or from a command ("trap and trigger").
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct LaunchRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<String>,
    /// Command line to run under the debugger (headless: program + args, interpreted by the
    /// backend, e.g. `python3 app.py` for debugpy or a binary path for gdb).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default)]
    pub mode: LaunchMode,
    #[serde(default)]
    pub stop_on_entry: bool,
    #[serde(default)]
    pub stop_on_exception: bool,
    /// Adapter to use for `command` when it cannot be inferred ("debugpy", "gdb", "lldb", "delve").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Attach to what already runs instead of starting it; a run configuration named with it
    /// lends its adapter and path mappings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach: Option<AttachTarget>,
    /// With `attach`: a command run as `sh -c` runs it once the breakpoints are armed, apart
    /// from the debuggee (its own process group, killed when the session ends), to send the
    /// service the request that hits them (`curl -s localhost:8000/x`). Its end is reported
    /// as [`BackendEvent::TriggerEnded`]. Only backends whose [`Backend::trigger_refusal`] is
    /// `None` get one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

/// What an attach connects to.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum AttachTarget {
    /// A local process by id (the debugger ptrace-attaches, or debugpy injects itself).
    Pid(u32),
    /// `host:port` of a debugger already listening (debugpy --listen, dlv --headless,
    /// gdbserver).
    Address(String),
}

/// The inode of the TCP socket listening on `port` on this machine (Linux: /proc/net/tcp{,6});
/// None when nothing listens there or the tables cannot be read. Read, never connected to: a
/// connection that says nothing is enough to make debugpy 1.8's adapter answer no later client.
pub fn listening_inode(port: u16) -> Option<String> {
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .find_map(|table| {
            let text = std::fs::read_to_string(table).ok()?;
            text.lines().skip(1).find_map(|line| {
                let f: Vec<&str> = line.split_whitespace().collect();
                let local_port = f.get(1)?.rsplit_once(':')?.1;
                (u16::from_str_radix(local_port, 16).ok()? == port && *f.get(3)? == "0A")
                    .then(|| f.get(9).map(|i| i.to_string()))
                    .flatten()
            })
        })
}

/// The process holding the TCP socket that listens on `port` (its fd links name the socket's
/// inode); None when nothing listens or it is not ours to see.
pub fn listening_pid(port: u16) -> Option<u32> {
    let socket = format!("socket:[{}]", listening_inode(port)?);
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: u32 = e.file_name().to_str()?.parse().ok()?;
        let fds = std::fs::read_dir(e.path().join("fd")).ok()?;
        fds.flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == socket.as_str()))
            .then_some(pid)
    })
}

/// Whether the listening tables can be read here (`listening_inode`'s None then means nobody
/// listens).
pub fn can_read_listeners() -> bool {
    std::path::Path::new("/proc/net/tcp").exists()
}

/// Is `host` (of an attach's `host:port`; `[::1]` with or without brackets) this machine's
/// loopback?
pub fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Debug one test without a run configuration (op `debug_test`). The IDE resolves `test_id` to
/// the test's PSI element and creates a temporary run configuration through the platform's
/// producers; headless backends do not implement the op (the core launches a command instead).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct TestRequest {
    /// "pytest", "gtest", "go", ... as the agent gave or the core inferred it.
    pub framework: String,
    /// Framework-specific id: pytest node id `tests/test_x.py::test_y`, gtest `Suite.Case`,
    /// JUnit `com.acme.FooTest#bar`, Go `calc/calc_test.go::TestName` (`/case` for a subtest).
    pub test_id: String,
    /// Absolute path of the test's file (or test binary), when the id names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default)]
    pub stop_on_exception: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum SessionState {
    #[default]
    Starting,
    Running,
    Paused,
    Stopped,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct SessionInfo {
    pub id: String,
    pub name: String,
    pub state: SessionState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_configuration: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_id: Option<u32>,
    /// Mode the session was started in.
    #[serde(default)]
    pub mode: LaunchMode,
    /// Attached to a process that ran before it: ending the session detaches.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attached: bool,
    /// What the agent does next that only the backend knows, said once in the start's answer
    /// (a PHP attach: send a request with Xdebug's trigger, then wait_for_pause).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum SuspendPolicy {
    #[default]
    All,
    Thread,
    None,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum BreakpointKind {
    #[default]
    Line,
    Exception,
    /// A watchpoint (DAP data breakpoint): stops when a value is written or read.
    Data,
    /// A function by name, bound by the debugger (op `add_function_breakpoint`).
    Function,
}

/// What access to a watched value stops.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum DataAccess {
    #[default]
    Write,
    Read,
    ReadWrite,
}

/// A watchpoint on what `expression` names in a paused frame (op `add_data_breakpoint`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct DataBreakpointSpec {
    pub session_id: String,
    /// Frame handle from `frames` the expression is resolved in.
    pub frame: String,
    pub expression: String,
    #[serde(default)]
    pub access: DataAccess,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
}

/// A breakpoint on a function by name, bound by the debugger itself (DAP
/// `setFunctionBreakpoints`), so it reaches what a scan of the project's sources cannot: library
/// functions (`strlen`, `json.loads`), C++ overloads and templates.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct FunctionBreakpointSpec {
    /// As the agent gave it: `fact`, `Cart.add_item`, `ns::Class::method`, `pkg.Func`.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub temporary: bool,
}

/// Words of a breakpoint's `message` when the debugger said its condition fails to evaluate
/// (and so the breakpoint never stops): the message outlives the session, as the condition
/// stays wrong until it is changed.
pub const CONDITION_FAILS: &str = "fails to evaluate";

/// Characters of a string `evaluate_expression` shows whole (rows of variables show
/// `max_value_length`). Backends raise their own string limits to at least this much for an
/// evaluation (Xdebug `max_data`, gdb `print elements`, lldb's summary length, delve's
/// clipboard context). Bounded by the result: the value is sent twice (structuredContent and
/// the text block), 32,000 characters, some 8,000 tokens of HTML: enough for a rendered page or
/// a payload, small next to an agent's context; past it the language's own slice reads the
/// next window from where the shown text ended (`render::cut_hint`: `s[16000:32000]` for one
/// value without escapes).
pub const WHOLE_STRING_CHARS: usize = 16_000;

/// A breakpoint as the backend sees it. The core adds owner, source text and observed hits.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BreakpointInfo {
    pub id: String,
    pub kind: BreakpointKind,
    /// Absolute path of the file (line breakpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Line the breakpoint was requested at (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_line: Option<u32>,
    /// Line the debugger actually bound it to (1-based), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// True once the debugger confirmed the breakpoint can be hit.
    pub verified: bool,
    /// Why it is not verified (debugger message), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_message: Option<String>,
    /// Hit-count condition, e.g. "3" (stop on the 3rd hit) as the debugger understands it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    #[serde(default)]
    pub suspend_policy: SuspendPolicy,
    #[serde(default)]
    pub temporary: bool,
    /// Times this breakpoint stopped execution, if the backend counts (the core also counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_count: Option<u64>,
    /// Exception breakpoints: class or filter id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caught: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncaught: Option<bool>,
    /// Data breakpoints: the watched expression and the access that stops.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<DataAccess>,
    /// Function breakpoints: the name; `file`/`line` say where the debugger bound it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// The breakpoint this one waits for (IntelliJ's "Disable until hit the following
    /// breakpoint"), where the backend keeps such dependencies itself (op
    /// `set_master_breakpoint`; the IDE). Headless backends have none: the core does it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub master: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct LineBreakpointSpec {
    /// Absolute path (the core resolves and checks it against the project root).
    pub file: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    #[serde(default)]
    pub suspend_policy: SuspendPolicy,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub temporary: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ExceptionBreakpointSpec {
    /// Exception class (IDE/Java: "java.lang.NullPointerException"; DAP: a filter id such as
    /// "raised"/"uncaught" or an exception name the adapter can match).
    pub exception: String,
    #[serde(default = "yes")]
    pub caught: bool,
    #[serde(default = "yes")]
    pub uncaught: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub suspend_policy: SuspendPolicy,
}

/// Partial update; absent fields keep their value. `Some("")` clears a string field.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BreakpointUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend_policy: Option<SuspendPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temporary: Option<bool>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ControlOp {
    Resume,
    Pause,
    StepOver {
        #[serde(default)]
        ignore_breakpoints: bool,
    },
    StepInto {
        /// Step into library / non-user code too.
        #[serde(default)]
        force: bool,
    },
    StepOut {
        /// The caller reads what the call returned at the stop (the recorder): the IDE turns
        /// on its return-value watcher for this step only (it costs an event per method exit,
        /// so a plain step out goes without; the DAP and DBGp backends show it anyway).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        return_value: bool,
    },
    /// Continue to `file:line` (1-based).
    RunTo {
        file: String,
        line: u32,
        #[serde(default)]
        ignore_breakpoints: bool,
    },
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ThreadInfo {
    pub id: String,
    pub name: String,
    /// "paused", "running", "waiting", ...
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct FrameInfo {
    /// 0 = top of stack.
    pub index: u32,
    /// Opaque backend handle for this frame (DAP frame id, IDE frame key).
    pub handle: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method_name: Option<String>,
    #[serde(default)]
    pub is_library: bool,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct FramePage {
    pub frames: Vec<FrameInfo>,
    /// Total depth when the backend knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    /// Depths the backend left out of `frames` (the IDE folds library frames unless 'Show
    /// Library Frames' is on): frame indexes then have gaps, which this explains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<HiddenFrames>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct HiddenFrames {
    pub ranges: Vec<HiddenRange>,
    #[serde(default)]
    pub reason: String,
}

/// `count` depths from `from_index` on.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct HiddenRange {
    pub from_index: u32,
    pub count: u32,
}

/// Which group a top-level frame value belongs to.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum ValueScope {
    #[default]
    Local,
    Argument,
    This,
    Global,
    /// A synthetic group the debugger adds (debugpy's "special variables", registers, ...).
    Synthetic,
}

/// One value as a debugger presents it. Handles are opaque and valid until the next resume;
/// the core maps them to its own short ids.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ValueNode {
    pub name: String,
    /// Full rendered value as the debugger gives it (the core truncates).
    pub value: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    #[serde(default)]
    pub has_children: bool,
    /// Handle to fetch children (`children`); present when `has_children`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children_handle: Option<String>,
    /// Handle the backend needs to modify this value (`set_value`), if it is modifiable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_handle: Option<String>,
    /// Expression that re-evaluates to this value in its frame, when the debugger knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluate_name: Option<String>,
    /// Number of children when known without fetching them (for a collection: its real
    /// size, not the number of entries the debugger lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_count: Option<u64>,
    /// Set only when `value` is a rendering the debugger already cut (debugpy shortens long
    /// strings): the real length of the value (characters of a string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_length: Option<u64>,
    #[serde(default)]
    pub scope: ValueScope,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ChildPage {
    pub children: Vec<ValueNode>,
    /// Total number of children when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum EvalContext {
    /// An agent's expression; side effects allowed only when the core says so.
    #[default]
    Expression,
    /// Re-evaluation of a watch at a pause: must not have side effects (DAP context "watch").
    Watch,
    /// A multi-statement code fragment (side effects implied).
    CodeFragment,
    /// Console/REPL style evaluation (DAP context "repl"), used for side-effecting expressions.
    Repl,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct EvalRequest {
    pub thread_id: String,
    /// Frame handle from `frames`.
    pub frame: String,
    pub expression: String,
    #[serde(default)]
    pub context: EvalContext,
    #[serde(default)]
    pub allow_side_effects: bool,
    /// A gdb print format the agent put before `expression` (`/x mask`, `p/t flags`,
    /// `x/4xw buf`), taken off it by the core ([`PrintFormat::split`]). Backends that have no
    /// such formats refuse it saying what to write in the program's language instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<PrintFormat>,
}

/// gdb's `print/FMT expr` (`examine` false) or `x/NFU addr` (`examine` true: memory at an
/// address), as agents used to gdb write them in an expression.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PrintFormat {
    /// What follows the `/`: one format letter for print (`x`); count, format and unit
    /// letters for examine (`4xw`).
    pub letters: String,
    #[serde(default)]
    pub examine: bool,
}

/// The letters gdb's `print` takes after `/` (gdb manual, "Output Formats"): hex, decimal,
/// unsigned, octal, binary (`t`), address, char, float, string, zero-padded hex.
const PRINT_LETTERS: &str = "xduotacfsz";
/// `x` also takes `i` (instructions) and the unit letters b, h, w, g.
const EXAMINE_LETTERS: &str = "xduotacfsizbhwg";

impl PrintFormat {
    /// Splits `/x expr`, `p/x expr`, `print/x expr` and `x/4xw addr` into the format and the
    /// expression; None for anything else (`a/b` and `x/2` stay divisions). A prefix that is a
    /// format but a bad one is an error naming what is accepted.
    pub fn split(text: &str) -> Option<Result<(PrintFormat, String), String>> {
        let t = text.trim_start();
        let (examine, rest) = if let Some(r) = t.strip_prefix('/') {
            (false, r)
        } else {
            let (word, r) = t.split_once('/')?;
            match word.trim_end() {
                "p" | "print" | "output" | "call" => (false, r),
                "x" => (true, r),
                _ => return None,
            }
        };
        let letters: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let expr = rest[letters.len()..].trim();
        // `p/x mask`: a letter run then whitespace then an expression; `p/2`, `x/y` and
        // `n/count` (no expression after) are C divisions. A leading `/` is never one.
        if !t.starts_with('/')
            && (expr.is_empty()
                || !rest[letters.len()..].starts_with(char::is_whitespace)
                || !letters.chars().any(|c| c.is_ascii_alphabetic()))
        {
            return None;
        }
        let what = if examine { "x/" } else { "/" };
        if letters.is_empty() {
            return Some(Err(format!(
                "'{what}' needs a format letter after it, e.g. /x mask (hex), /t flags (binary), /d c (decimal)"
            )));
        }
        if expr.is_empty() {
            return Some(Err(format!(
                "'{what}{letters}' needs an expression after it, e.g. {what}{letters} mask"
            )));
        }
        let ok = if examine {
            let digits = letters.trim_start_matches(|c: char| c.is_ascii_digit());
            digits.chars().all(|c| EXAMINE_LETTERS.contains(c)) && digits.len() <= 2
        } else {
            letters.len() == 1 && PRINT_LETTERS.contains(letters.as_str())
        };
        if !ok {
            return Some(Err(if examine {
                format!(
                    "'x/{letters}': a count, then format (x d u o t a c f s i z) and unit (b h w g) letters, e.g. x/4xw buf"
                )
            } else {
                format!(
                    "'/{letters}': one format letter of x (hex), d (decimal), u (unsigned), o (octal), t (binary), a (address), c (char), f (float), s (string), z (zero-padded hex), e.g. /x mask"
                )
            }));
        }
        Some(Ok((PrintFormat { letters, examine }, expr.to_string())))
    }

    /// The gdb command for `expression` with this format: `print/x mask`, `x/4xw buf`.
    pub fn gdb_command(&self, expression: &str) -> String {
        let cmd = if self.examine { "x" } else { "print" };
        format!("{cmd}/{} {expression}", self.letters)
    }
}

/// How long the user gets to answer a confirmation dialog: the core's guard waits this long and
/// the JNI bridge gives op `confirm` this long (not `backend_timeout_ms`, 10 s by default, which
/// would drop an answer given later while the dialog stayed up). The IDE closes its dialog just
/// before (intellij-plugin `Op.CONFIRM`, checked against this value by OpTableTest). It stays
/// under the 55 s every tool call is capped at.
pub const CONFIRM_TIMEOUT_MS: u64 = 50_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ConfirmRequest {
    pub title: String,
    pub message: String,
}

/// The words that open a stop's description when the step that led to it ended in an
/// exception (every backend says it alike; the recorder reads a call's outcome back out of it).
pub const STEP_RAISED: &str = "the step ended in an exception: ";

/// A stop's description when the step ended in `exception`, raised at `place` (said when the
/// stop's own location is not where it was raised).
pub fn step_raised(exception: &str, place: Option<&str>) -> String {
    let here = place.map(|p| format!(" ({p})")).unwrap_or_default();
    format!(
        "{STEP_RAISED}{exception}; raised here{here}. Step again to see whether a handler catches it, a caller gets it or the program ends"
    )
}

/// The description of the stop of the step after [`step_raised`]: where `exception` went.
pub fn exception_went(exception: &str) -> String {
    format!("the exception {exception} went here: a handler, or a caller it passed up to")
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum PauseReason {
    Breakpoint,
    Step,
    Pause,
    Exception,
    Entry,
    Goto,
    /// The debuggee received a signal (gdb: SIGSEGV, SIGABRT, …); the description names it.
    Signal,
    #[default]
    Other,
}

#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum OutputCategory {
    #[default]
    Stdout,
    Stderr,
    Console,
    /// Output of a log-message breakpoint (tracepoint).
    Tracepoint,
}

/// Debugger events pushed into the core. The core derives session state from them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BackendEvent {
    SessionStarted {
        session: SessionInfo,
    },
    Paused {
        session_id: String,
        thread_id: String,
        reason: PauseReason,
        #[serde(default)]
        breakpoint_ids: Vec<String>,
        /// Exception text or debugger description, when any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    Resumed {
        session_id: String,
    },
    Stopped {
        session_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i64>,
    },
    Output {
        session_id: String,
        #[serde(default)]
        category: OutputCategory,
        text: String,
    },
    BreakpointChanged {
        breakpoint: BreakpointInfo,
    },
    BreakpointRemoved {
        id: String,
    },
    /// The trigger of an attach (`LaunchRequest::trigger`) ended: its exit status (a signal as
    /// its negative number) and the start of its output (stdout and stderr as they came, at
    /// most the backend's buffer), with the byte count of all of it. Headless backends only.
    TriggerEnded {
        session_id: String,
        command: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i64>,
        #[serde(default)]
        output: String,
        #[serde(default)]
        output_bytes: u64,
    },
}

/// Errors a backend reports. The core turns them into `isError` tool results.
#[derive(Debug, Clone, thiserror::Error, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", content = "message", rename_all = "snake_case")]
pub enum BackendError {
    /// Unknown session/breakpoint/value/frame/thread id or configuration name.
    #[error("not found: {0}")]
    NotFound(String),
    /// The operation makes no sense in the current state (e.g. step while running).
    #[error("invalid state: {0}")]
    InvalidState(String),
    /// The debugger or IDE cannot do this.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The debugger answered with an error (evaluation error, launch failure, ...).
    #[error("{0}")]
    Failed(String),
    /// No answer in time.
    #[error("timed out: {0}")]
    Timeout(String),
}

pub type BackendResult<T> = Result<T, BackendError>;

/// Where backends push events. Cheap to clone; sending never blocks.
#[derive(Clone, Debug)]
pub struct EventSink(mpsc::UnboundedSender<BackendEvent>);

pub type EventStream = mpsc::UnboundedReceiver<BackendEvent>;

impl EventSink {
    pub fn send(&self, event: BackendEvent) {
        // A closed receiver means the engine shut down; events are then irrelevant.
        let _ = self.0.send(event);
    }
}

/// A connected sink/stream pair: give the sink to the backend and the stream to the engine.
pub fn event_channel() -> (EventSink, EventStream) {
    let (tx, rx) = mpsc::unbounded_channel();
    (EventSink(tx), rx)
}

/// The operation table. Each method maps to one op of the JNI callback table (op name in the
/// comment). Implementations need not add timeouts: the core wraps every call in one.
/// `project` is the project root as returned by `projects`.
#[async_trait]
pub trait Backend: Send + Sync + 'static {
    /// op `handshake`
    async fn handshake(&self) -> BackendResult<BackendInfo>;
    /// op `projects`
    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>>;
    /// op `run_configurations`
    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>>;
    /// op `launch`: returns once the session exists (not necessarily paused). A
    /// `SessionStarted` event is also sent.
    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo>;
    /// Time a launch of `request` may take beyond `launch_timeout_ms` because the backend builds
    /// the program first (headless Go: `go build` before delve starts, bounded by the backend's
    /// own `[go] build_timeout_ms`). The core adds it to the launch's timeout, so a cold build is
    /// not cut short while a hung one still ends. Not an op: backends that do not build keep 0.
    fn launch_build_allowance(
        &self,
        _project: &str,
        _request: &LaunchRequest,
    ) -> std::time::Duration {
        std::time::Duration::ZERO
    }
    /// op `debug_test`: starts a debug session for one test (see [`TestRequest`]). The default
    /// says the backend has no test support, and the core falls back to launching a command.
    async fn debug_test(&self, project: &str, request: TestRequest) -> BackendResult<SessionInfo> {
        let _ = (project, request);
        Err(BackendError::Unsupported("no debug_test op".into()))
    }
    /// op `sessions`: the sessions of the project, including ones the user started.
    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>>;
    /// op `stop`: ends the session as it began: a launched program is killed, an attached one
    /// is detached from (left running, without our breakpoints).
    async fn stop(&self, session_id: &str) -> BackendResult<()>;
    /// op `terminate`: ends the session and kills its program, attached or not. The default,
    /// for backends that cannot kill what they attached to, is `stop`.
    async fn terminate(&self, session_id: &str) -> BackendResult<()> {
        self.stop(session_id).await
    }
    /// op `breakpoints`
    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>>;
    /// op `add_line_breakpoint`
    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo>;
    /// op `add_exception_breakpoint`
    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo>;
    /// op `add_data_breakpoint`: a watchpoint, bound in the paused session it names (data
    /// breakpoints live as long as that session). The default: the backend has none.
    async fn add_data_breakpoint(
        &self,
        project: &str,
        spec: DataBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        let _ = (project, spec);
        Err(BackendError::Unsupported(
            "no data breakpoints (watchpoints)".into(),
        ))
    }
    /// op `force_return`: the call running in `frame` (a frame handle of the paused `thread_id`)
    /// returns `value` to its caller at once, the rest of its body skipped (gdb's `return`, the
    /// JVM's ForceEarlyReturn). The default: the debugger cannot.
    async fn force_return(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
        value: &str,
    ) -> BackendResult<()> {
        let _ = (session_id, thread_id, frame, value);
        Err(BackendError::Unsupported(
            "no force return (making a call return a value)".into(),
        ))
    }
    /// Why the process `request` attaches to cannot be paused from outside (a read of a
    /// running process pauses it once), asked before the attach: `None` when it can. Not an op.
    fn pause_refusal(&self, request: &LaunchRequest) -> Option<String> {
        let _ = request;
        None
    }
    /// Why `request.trigger` cannot be run here, asked before anything is set or started:
    /// `None` when the backend runs triggers (the headless DAP backend). Not an op.
    fn trigger_refusal(&self, request: &LaunchRequest) -> Option<String> {
        let _ = request;
        Some("this debugger backend runs no commands beside an attach".into())
    }
    /// Not an op (it never crosses JNI: the IDE runs no commands beside a session, so the
    /// default's refusal answers there). Runs `command` for the live session `session_id` as an
    /// attach's trigger runs (`LaunchRequest::trigger`: as `sh -c`, beside the debuggee), its end
    /// told as [`BackendEvent::TriggerEnded`] (wait_for_pause {command}). The default: none run.
    async fn run_trigger(&self, session_id: &str, command: &str) -> BackendResult<()> {
        let _ = (session_id, command);
        Err(BackendError::Unsupported(
            "this debugger backend runs no commands for a session".into(),
        ))
    }
    /// Why `force_return` cannot work for code in `file`, asked before any session runs it
    /// (`set_breakpoint {function, force_return}`): `None` when the debugger that would run the
    /// file can. Not an op.
    fn force_return_refusal(&self, file: &str) -> Option<String> {
        let _ = file;
        Some("this debugger backend cannot make a call return a value".into())
    }
    /// op `add_function_breakpoint`: a breakpoint on a function by name that the debugger binds
    /// (see [`FunctionBreakpointSpec`]). Unverified with a message while no session has loaded
    /// it; `NotFound` when every running session's debugger says the name matches nothing. The
    /// default: the backend has none, and the core binds names it finds in the project's
    /// sources as line breakpoints at the first body line (as it does first on every backend).
    async fn add_function_breakpoint(
        &self,
        project: &str,
        spec: FunctionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        let _ = (project, spec);
        Err(BackendError::Unsupported(
            "no function breakpoints by name".into(),
        ))
    }
    /// op `set_master_breakpoint`: breakpoint `id` stops only after `master` was hit in the
    /// session, then as usual (`None` clears it): the IDE's XDependentBreakpointManager. The
    /// default: the backend has none, and the core keeps `id` disabled in the backend until it
    /// sees the master's hit (`engine::dependent`).
    async fn set_master_breakpoint(
        &self,
        project: &str,
        id: &str,
        master: Option<&str>,
    ) -> BackendResult<BreakpointInfo> {
        let _ = (project, id, master);
        Err(BackendError::Unsupported("no dependent breakpoints".into()))
    }
    /// op `update_breakpoint`
    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo>;
    /// op `remove_breakpoint`
    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()>;
    /// op `control`: returns once the command was accepted; the resulting stop arrives as an event.
    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()>;
    /// Why a `pause` this session's debugger accepted has not stopped the program yet, said
    /// when the wait for it runs out: `None` when the debugger has no such delay. Not an op.
    fn pause_pending_note(&self, session_id: &str) -> Option<String> {
        let _ = session_id;
        None
    }
    /// op `threads`
    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>>;
    /// op `frames`
    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage>;
    /// op `select_frame`: makes the IDE show this frame (DAP: no-op).
    async fn select_frame(
        &self,
        session_id: &str,
        thread_id: &str,
        frame: &str,
    ) -> BackendResult<()>;
    /// op `frame_variables`: the frame's top-level values (locals, arguments, this, groups).
    async fn frame_variables(&self, session_id: &str, frame: &str)
    -> BackendResult<Vec<ValueNode>>;
    /// op `children`
    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage>;
    /// op `set_value`: `handle` is the node's `set_handle`; returns the new value.
    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode>;
    /// op `evaluate`
    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode>;
    /// op `read_source`: current text of a file, unsaved editor changes included.
    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String>;
    /// op `confirm`: ask the user; `Unsupported` when the backend has no UI.
    async fn confirm(&self, project: &str, request: ConfirmRequest) -> BackendResult<bool>;
}

impl ControlOp {
    /// A plain step over (breakpoints on the way stop it).
    pub const STEP_OVER: ControlOp = ControlOp::StepOver {
        ignore_breakpoints: false,
    };
    /// A plain step out (no returned value asked for).
    pub const STEP_OUT: ControlOp = ControlOp::StepOut {
        return_value: false,
    };
}

#[cfg(test)]
mod tests {
    use super::{ControlOp, FramePage, HiddenRange};
    use serde_json::json;

    /// The IDE's frames answer (StackOps.frames) keeps its folds of library frames through
    /// the wire; a page from any other backend stays the shape it was.
    #[test]
    fn a_frame_page_keeps_the_ides_hidden_depths() {
        let ide = json!({"frames": [{"index": 0, "handle": "f1", "is_library": false},
                                    {"index": 3, "handle": "f2", "is_library": false}],
                         "total": 4,
                         "hidden": {"ranges": [{"from_index": 1, "count": 2}], "reason": "folded"}});
        let page: FramePage = serde_json::from_value(ide).unwrap();
        let hidden = page.hidden.unwrap();
        assert_eq!(
            hidden.ranges,
            [HiddenRange {
                from_index: 1,
                count: 2
            }]
        );
        assert_eq!(hidden.reason, "folded");
        let plain: FramePage = serde_json::from_value(json!({"frames": []})).unwrap();
        assert_eq!(serde_json::to_value(&plain).unwrap(), json!({"frames": []}));
    }

    /// The IDE reads `return_value` to switch on its return-value watcher for the recorder's
    /// step out only; a plain step out keeps the wire shape it always had.
    #[test]
    fn a_step_out_names_return_value_only_when_wanted() {
        let plain = ControlOp::STEP_OUT;
        let recorder = ControlOp::StepOut { return_value: true };
        assert_eq!(
            serde_json::to_value(&plain).unwrap(),
            json!({"op": "step_out"})
        );
        assert_eq!(
            serde_json::to_value(&recorder).unwrap(),
            json!({"op": "step_out", "return_value": true})
        );
        let read: ControlOp = serde_json::from_value(json!({"op": "step_out"})).unwrap();
        assert_eq!(read, plain);
    }

    #[test]
    fn print_formats_split_off_and_divisions_stay() {
        use super::PrintFormat;
        let ok = |s: &str| PrintFormat::split(s).unwrap().unwrap();
        let f = |l: &str, examine| PrintFormat {
            letters: l.into(),
            examine,
        };
        assert_eq!(ok("/x mask"), (f("x", false), "mask".into()));
        assert_eq!(ok("p/t flags & 3"), (f("t", false), "flags & 3".into()));
        assert_eq!(ok("print /o n"), (f("o", false), "n".into()));
        assert_eq!(ok("x/4xw buf"), (f("4xw", true), "buf".into()));
        assert_eq!(ok("/x mask").0.gdb_command("mask"), "print/x mask");
        assert_eq!(ok("x/s p").0.gdb_command("p"), "x/s p");
        // C divisions, not formats.
        for plain in ["x/2", "p/x", "a/b c", "n/count", "total/x", "x/y+1"] {
            assert!(PrintFormat::split(plain).is_none(), "{plain}");
        }
        let err = |s: &str| PrintFormat::split(s).unwrap().unwrap_err();
        assert!(err("/q n").contains("one format letter of x (hex)"));
        assert!(err("p/xx n").contains("one format letter"));
        assert!(err("x/4qw buf").contains("unit (b h w g)"));
        assert!(err("/x").contains("needs an expression"));
        assert!(err("/ n").contains("needs a format letter"));
    }
}
