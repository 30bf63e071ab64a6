//! The tool registry: names, titles, LLM-oriented descriptions, input/output JSON Schemas
//! (2020-12) and annotations. Built once per process; the validators are compiled once too, so
//! `tools/list` and input validation cost no schema work per call.

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// How a tool changes the world, for the MCP annotations.
#[derive(Clone, Copy)]
enum Kind {
    /// Reads only.
    Read,
    /// Changes debugger state (breakpoints, stepping); `idempotent` when repeating is harmless.
    Write { idempotent: bool },
    /// Can change the program or its data (start processes, set values, run code).
    Destructive { idempotent: bool },
}

pub struct ToolSpec {
    pub tool: Tool,
    pub validator: jsonschema::Validator,
    /// Property names the input accepts, for "unknown parameter" messages.
    pub properties: Vec<String>,
}

pub struct Registry {
    pub specs: HashMap<&'static str, ToolSpec>,
    /// In registration order, ready for `tools/list`.
    pub tools: Arc<Vec<Tool>>,
}

/// The single registry of this process.
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(build);
    &REGISTRY
}

fn obj(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("schemas are objects"),
    }
}

// ---- shared input properties -------------------------------------------------------------

fn project_path() -> Value {
    json!({"type": "string", "description": "Project root (absolute) or a path inside it. Only needed when several projects are open; the error then lists them."})
}
fn session_id() -> Value {
    json!({"type": "string", "description": "Debug session id (from list_debug_sessions). Default: the current session, else the only live one."})
}
fn thread_id() -> Value {
    json!({"type": "string", "description": "Thread id (from list_threads). Default: the thread that stopped."})
}
fn wait() -> Value {
    json!({"type": "boolean", "default": true, "description": "Wait until the program stops again and return where (default true). With false, return at once."})
}
fn timeout_ms() -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": 55000, "default": 30000, "description": "Longest wait in milliseconds (max 55000). On timeout the result says the program is still running."})
}
fn frame_index() -> Value {
    json!({"type": "integer", "minimum": 0, "description": "Stack frame, 0 = top. Default: the frame chosen with select_stack_frame (else 0)."})
}
fn file_path(what: &str) -> Value {
    json!({"type": "string", "minLength": 1, "description": format!("{what} Absolute or relative to the project root; must be inside the project.")})
}
fn line(what: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "description": format!("{what} 1-based.")})
}

fn input(props: Value, required: &[&str]) -> Value {
    let mut props = obj(props);
    props.insert("project_path".into(), project_path());
    let mut schema = json!({"type": "object", "properties": props, "additionalProperties": false});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

fn input_session(props: Value, required: &[&str]) -> Value {
    let mut props = obj(props);
    props.insert("session_id".into(), session_id());
    input(Value::Object(props), required)
}

// ---- shared output pieces ----------------------------------------------------------------

fn location() -> Value {
    json!({"type": ["object", "null"], "properties": {
        "file": {"type": ["string", "null"]}, "line": {"type": ["integer", "null"]},
        "method": {"type": ["string", "null"]}, "class": {"type": ["string", "null"]}}})
}
fn value_node() -> Value {
    json!({"type": "object", "required": ["name", "value"], "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "value": {"type": "string"},
        "type": {"type": ["string", "null"]}, "has_children": {"type": "boolean"},
        "child_count": {"type": "integer"}, "truncated": {"type": "boolean"},
        "value_length": {"type": "integer"}, "redacted": {"type": "boolean"},
        "children": {"type": "array"}}})
}
fn breakpoint() -> Value {
    json!({"type": "object", "required": ["id", "type", "enabled", "verified", "owner"], "properties": {
        "id": {"type": "string"}, "type": {"enum": ["line", "exception"]},
        "file": {"type": "string"}, "line": {"type": "integer"}, "requested_line": {"type": "integer"},
        "source_line": {"type": "string"}, "verified": {"type": "boolean"}, "enabled": {"type": "boolean"},
        "owner": {"enum": ["agent", "user"]}, "hit_count": {"type": "integer"}, "temporary": {"type": "boolean"},
        "suspend_policy": {"enum": ["all", "thread", "none"]}, "message": {"type": "string"}}})
}
fn watch() -> Value {
    json!({"type": "object", "required": ["id", "expression"], "properties": {
        "id": {"type": "string"}, "expression": {"type": "string"}, "value": {"type": ["string", "null"]},
        "type": {"type": ["string", "null"]}, "error": {"type": ["string", "null"]}}})
}
/// What stepping, resuming and waiting return.
fn stop_result() -> Value {
    json!({"type": "object", "required": ["session_id", "state"], "properties": {
        "session_id": {"type": "string"},
        "state": {"enum": ["starting", "running", "paused", "stopped"]},
        "reason": {"type": "string"}, "location": location(), "thread_id": {"type": "string"},
        "breakpoint_ids": {"type": "array", "items": {"type": "string"}},
        "frame": {"type": "object"}, "watches": {"type": "array", "items": watch()},
        "timed_out": {"type": "boolean"}, "message": {"type": "string"}}})
}
fn out(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

struct Def {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    kind: Kind,
    input: Value,
    output: Value,
}

fn defs() -> Vec<Def> {
    let control = |extra: Value| {
        let mut p = obj(json!({"wait": wait(), "timeout_ms": timeout_ms(), "thread_id": thread_id()}));
        p.extend(obj(extra));
        input_session(Value::Object(p), &[])
    };
    vec![
        // ---- run configurations
        Def {
            name: "list_run_configurations",
            title: "List run configurations",
            description: "List the project's run/debug configurations (IDE run configurations, or launch.json / debugger-mcp.toml entries headless). Use a name with start_debug_session or run_configuration.",
            kind: Kind::Read,
            input: input(json!({}), &[]),
            output: out(json!({"configurations": {"type": "array", "items": {"type": "object", "required": ["name", "type"]}}}), &["configurations"]),
        },
        Def {
            name: "run_configuration",
            title: "Run a configuration",
            description: "Start a run configuration by name, in mode 'run' (no debugger) or 'debug' (a debug session; prefer start_debug_session for its stop options). Starts a process, so it needs the user's confirmation unless brave mode is on.",
            kind: Kind::Destructive { idempotent: false },
            input: input(json!({
                "name": {"type": "string", "minLength": 1, "description": "Run configuration name (see list_run_configurations)."},
                "mode": {"enum": ["run", "debug"], "default": "run", "description": "run or debug (default run)."}}), &["name"]),
            output: out(json!({"session_id": {"type": "string"}, "name": {"type": "string"}, "mode": {"enum": ["run", "debug"]}, "state": {"type": "string"}, "message": {"type": "string"}}), &["session_id", "state"]),
        },
        // ---- sessions
        Def {
            name: "list_debug_sessions",
            title: "List debug sessions",
            description: "List debug sessions of the project with id, name, state (running/paused/stopped) and which one is current (the default target of other tools).",
            kind: Kind::Read,
            input: input(json!({}), &[]),
            output: out(json!({"sessions": {"type": "array", "items": {"type": "object", "required": ["id", "name", "state", "is_current"]}}}), &["sessions"]),
        },
        Def {
            name: "start_debug_session",
            title: "Start a debug session",
            description: "Start debugging, either a run configuration by name (`run_configuration`) or a command line (`command`, e.g. 'python3 app.py'). Set breakpoints first. `stop_on_entry` pauses at the first line; `wait_for_pause` blocks until the first stop and returns where. Needs the user's confirmation unless brave mode is on.",
            kind: Kind::Destructive { idempotent: false },
            input: input(json!({
                "run_configuration": {"type": "string", "minLength": 1, "description": "Run configuration name (see list_run_configurations). Give this or `command`."},
                "command": {"type": "string", "minLength": 1, "description": "Command line to debug (headless), e.g. 'python3 app.py'. Give this or `run_configuration`."},
                "adapter": {"type": "string", "description": "Debug adapter for `command` when it cannot be inferred: debugpy, gdb, lldb, delve."},
                "cwd": {"type": "string", "description": "Working directory for `command` (default: project root)."},
                "stop_on_entry": {"type": "boolean", "default": false, "description": "Pause at the program's first line."},
                "stop_on_exception": {"type": "boolean", "default": false, "description": "Pause when an exception is raised."},
                "wait_for_pause": {"type": "boolean", "default": false, "description": "Block until the first pause (breakpoint, entry, exception) or the timeout."},
                "timeout_ms": timeout_ms()}), &[]),
            output: out(json!({"session_id": {"type": "string"}, "name": {"type": "string"}, "state": {"type": "string"}, "message": {"type": "string"}, "pause": stop_result()}), &["session_id", "state", "message"]),
        },
        Def {
            name: "stop_debug_session",
            title: "Stop a debug session",
            description: "Terminate a debug session (default: the current one) and its process.",
            kind: Kind::Destructive { idempotent: true },
            input: input_session(json!({}), &[]),
            output: out(json!({"session_id": {"type": "string"}, "state": {"type": "string"}, "message": {"type": "string"}}), &["session_id", "state"]),
        },
        Def {
            name: "get_debug_session_status",
            title: "Debug session status",
            description: "One call to understand where a session is: state, pause reason, location, breakpoint hit, stack summary, variables of the current frame, watches, source around the line, current thread and thread count. Start here after any stop.",
            kind: Kind::Read,
            input: input_session(json!({
                "include_variables": {"type": "boolean", "default": true, "description": "Include the current frame's variables (default true)."},
                "include_source_context": {"type": "boolean", "default": true, "description": "Include source lines around the current line (default true)."},
                "source_context_lines": {"type": "integer", "minimum": 0, "maximum": 50, "default": 5, "description": "Lines above and below the current line (default 5)."},
                "max_stack_frames": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5, "description": "Frames in the stack summary (default 5)."}}), &[]),
            output: out(json!({"session_id": {"type": ["string", "null"]}, "state": {"type": "string"}, "message": {"type": "string"}}), &["state"]),
        },
        // ---- breakpoints
        Def {
            name: "list_breakpoints",
            title: "List breakpoints",
            description: "List breakpoints with id, file, line (actual and requested), whether the debugger verified (bound) it, condition, log message, hit count, temporary, and owner (agent = set through these tools, user = set in the IDE).",
            kind: Kind::Read,
            input: input(json!({
                "file_path": file_path("Only breakpoints in this file."),
                "enabled_only": {"type": "boolean", "default": false, "description": "Only enabled breakpoints."},
                "owner": {"enum": ["agent", "user"], "description": "Only breakpoints of this owner."}}), &[]),
            output: out(json!({"breakpoints": {"type": "array", "items": breakpoint()}, "total": {"type": "integer"}}), &["breakpoints", "total"]),
        },
        Def {
            name: "set_breakpoint",
            title: "Set a line breakpoint",
            description: "Set (or update, if the line already has one) a line breakpoint. Returns its id, whether the debugger verified it, the actual line and its source text, and notes when the debugger moved it or could not bind it. `log_message` makes a tracepoint that logs instead of stopping ({expr} placeholders are evaluated). `temporary` removes it after the first hit.",
            kind: Kind::Write { idempotent: true },
            input: input(json!({
                "file_path": file_path("Source file."),
                "line": line("Line number,"),
                "condition": {"type": "string", "description": "Stop only when this expression is true."},
                "log_message": {"type": "string", "description": "Log this message instead of (or, with suspend_policy, as well as) stopping; {expr} placeholders are evaluated."},
                "hit_condition": {"type": "string", "description": "Hit count condition as the debugger understands it, e.g. '3' = stop on the 3rd hit."},
                "suspend_policy": {"enum": ["all", "thread", "none"], "default": "all", "description": "Threads to suspend on hit: all, thread, none."},
                "enabled": {"type": "boolean", "default": true},
                "temporary": {"type": "boolean", "default": false, "description": "Remove after the first hit."}}), &["file_path", "line"]),
            output: breakpoint(),
        },
        Def {
            name: "remove_breakpoint",
            title: "Remove breakpoints",
            description: "Remove breakpoints: one by `breakpoint_id`; by `file_path` + `line`; all in `file_path`; or `all_agent_breakpoints: true` for every breakpoint set through these tools. Succeeds (with a note) when nothing matched.",
            kind: Kind::Destructive { idempotent: true },
            input: input(json!({
                "breakpoint_id": {"type": "string", "minLength": 1},
                "file_path": file_path("File whose breakpoints to remove."),
                "line": line("With file_path: only the breakpoint on this line,"),
                "all_agent_breakpoints": {"type": "boolean", "description": "Remove every breakpoint owned by the agent."}}), &[]),
            output: out(json!({"removed": {"type": "array", "items": {"type": "string"}}, "message": {"type": "string"}}), &["removed", "message"]),
        },
        Def {
            name: "toggle_breakpoint",
            title: "Enable or disable a breakpoint",
            description: "Enable or disable a breakpoint without removing it. Without `enabled`, flips the current state.",
            kind: Kind::Write { idempotent: false },
            input: input(json!({
                "breakpoint_id": {"type": "string", "minLength": 1},
                "enabled": {"type": "boolean", "description": "New state; omit to flip."}}), &["breakpoint_id"]),
            output: breakpoint(),
        },
        Def {
            name: "set_exception_breakpoint",
            title: "Break on exceptions",
            description: "Stop when an exception is thrown. `exception_class` is a class name (Java: java.lang.NullPointerException) or, headless, a filter id of the debug adapter (debugpy: raised, uncaught).",
            kind: Kind::Write { idempotent: false },
            input: input(json!({
                "exception_class": {"type": "string", "minLength": 1},
                "caught": {"type": "boolean", "default": true, "description": "Stop on caught exceptions."},
                "uncaught": {"type": "boolean", "default": true, "description": "Stop on uncaught exceptions."},
                "condition": {"type": "string"},
                "enabled": {"type": "boolean", "default": true},
                "suspend_policy": {"enum": ["all", "thread", "none"], "default": "all"}}), &["exception_class"]),
            output: breakpoint(),
        },
        // ---- execution
        Def {
            name: "resume",
            title: "Resume",
            description: "Continue a paused program. By default waits for the next stop (breakpoint, exception, end) and returns the new location, reason and top-frame variables; value ids from before become stale.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({})),
            output: stop_result(),
        },
        Def {
            name: "pause",
            title: "Pause",
            description: "Pause a running program and (by default) return where it stopped.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({})),
            output: stop_result(),
        },
        Def {
            name: "step_over",
            title: "Step over",
            description: "Execute the current line without entering calls, then return the new location and top-frame variables.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({"ignore_breakpoints": {"type": "boolean", "default": false, "description": "Do not stop at breakpoints inside the stepped calls."}})),
            output: stop_result(),
        },
        Def {
            name: "step_into",
            title: "Step into",
            description: "Step into the call on the current line, then return the new location and top-frame variables.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({"force": {"type": "boolean", "default": false, "description": "Also step into library code."}})),
            output: stop_result(),
        },
        Def {
            name: "step_out",
            title: "Step out",
            description: "Run until the current function returns, then return the caller's location and variables.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({})),
            output: stop_result(),
        },
        Def {
            name: "run_to_line",
            title: "Run to line",
            description: "Continue until a given line is reached (or a breakpoint, unless ignored), then return the location and variables.",
            kind: Kind::Write { idempotent: false },
            input: control(json!({
                "file_path": file_path("Target file."),
                "line": line("Target line,"),
                "ignore_breakpoints": {"type": "boolean", "default": false}})),
            output: stop_result(),
        },
        Def {
            name: "wait_for_pause",
            title: "Wait for a pause",
            description: "Block until the session pauses or stops, or the timeout (max 55 s). Returns at once if it is already paused. With `breakpoint_ids`, reports whether the pause was at one of them.",
            kind: Kind::Read,
            input: input_session(json!({
                "timeout_ms": timeout_ms(),
                "breakpoint_ids": {"type": "array", "items": {"type": "string"}, "description": "Only these breakpoints count as the awaited pause."}}), &[]),
            output: stop_result(),
        },
        // ---- stack
        Def {
            name: "get_stack_trace",
            title: "Stack trace",
            description: "The call stack of a thread (default: the stopped thread): index, file, line, method, whether it is library code, and which frame is selected.",
            kind: Kind::Read,
            input: input_session(json!({
                "thread_id": thread_id(),
                "thread_name": {"type": "string", "description": "Thread by name instead of id."},
                "max_frames": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20},
                "offset": {"type": "integer", "minimum": 0, "default": 0}}), &[]),
            output: out(json!({"thread_id": {"type": "string"}, "frames": {"type": "array"}, "total": {"type": ["integer", "null"]}}), &["thread_id", "frames"]),
        },
        Def {
            name: "select_stack_frame",
            title: "Select a stack frame",
            description: "Make a frame the default for get_variables and evaluate_expression (0 = top).",
            kind: Kind::Write { idempotent: true },
            input: input_session(json!({"frame_index": {"type": "integer", "minimum": 0}, "thread_id": thread_id()}), &["frame_index"]),
            output: out(json!({"frame_index": {"type": "integer"}, "location": location()}), &["frame_index"]),
        },
        Def {
            name: "list_threads",
            title: "List threads",
            description: "Threads of the debugged process with id, name, state, group, and which is current.",
            kind: Kind::Read,
            input: input_session(json!({}), &[]),
            output: out(json!({"threads": {"type": "array"}, "current_thread": {"type": ["string", "null"]}}), &["threads"]),
        },
        // ---- variables
        Def {
            name: "get_variables",
            title: "Get variables",
            description: "Variables of a frame (default: the selected frame). Each has a short id for expand_variable/set_variable (valid until the program resumes); long values are truncated with a marker and their full length; at most `max_children` children per node.",
            kind: Kind::Read,
            input: input_session(json!({
                "frame_index": frame_index(),
                "thread_id": thread_id(),
                "scope": {"enum": ["local", "arguments", "this", "all"], "default": "all", "description": "Which variables: local, arguments, this, or all."},
                "depth": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1, "description": "Levels of children to include (1 = top-level only)."},
                "max_children": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20, "description": "Children per node at most."}}), &[]),
            output: out(json!({"frame_index": {"type": "integer"}, "variables": {"type": "array", "items": value_node()}, "total": {"type": "integer"}, "truncated": {"type": "boolean"}}), &["variables"]),
        },
        Def {
            name: "expand_variable",
            title: "Expand a variable",
            description: "Children of a value, by `variable_id` (from get_variables/evaluate_expression) or by `path` from a top-level variable (e.g. 'user.address.city', 'items[2]'). Pages with offset/limit.",
            kind: Kind::Read,
            input: input_session(json!({
                "variable_id": {"type": "string", "minLength": 1},
                "path": {"type": "string", "minLength": 1, "description": "Dotted/indexed path from a variable of the selected frame."},
                "frame_index": frame_index(),
                "offset": {"type": "integer", "minimum": 0, "default": 0},
                "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20}}), &[]),
            output: out(json!({"variable": {"type": "object", "required": ["id", "path"]}, "children": {"type": "array", "items": value_node()}, "offset": {"type": "integer"}, "total": {"type": ["integer", "null"]}, "truncated": {"type": "boolean"}}), &["children"]),
        },
        Def {
            name: "set_variable",
            title: "Set a variable",
            description: "Change a variable's value in the paused program, by `variable_id` or `path`. `new_value` is an expression in the program's language. Needs the user's confirmation unless brave mode is on.",
            kind: Kind::Destructive { idempotent: true },
            input: input_session(json!({
                "variable_id": {"type": "string", "minLength": 1},
                "path": {"type": "string", "minLength": 1},
                "frame_index": frame_index(),
                "new_value": {"type": "string", "description": "New value, e.g. '42' or \"'text'\"."}}), &["new_value"]),
            output: out(json!({"variable": value_node(), "message": {"type": "string"}}), &["variable"]),
        },
        // ---- evaluation
        Def {
            name: "evaluate_expression",
            title: "Evaluate an expression",
            description: "Evaluate an expression in a frame (default: selected frame). Side-effect free by default; `allow_side_effects: true` permits calls/assignments and needs the user's confirmation unless brave mode is on. The result has an id to expand.",
            kind: Kind::Write { idempotent: false },
            input: input_session(json!({
                "expression": {"type": "string", "minLength": 1},
                "frame_index": frame_index(),
                "thread_id": thread_id(),
                "allow_side_effects": {"type": "boolean", "default": false}}), &["expression"]),
            output: out(json!({"expression": {"type": "string"}, "result": value_node()}), &["expression", "result"]),
        },
        Def {
            name: "evaluate_code_fragment",
            title: "Run a code fragment",
            description: "Execute several statements in a frame and return the last value. Requires `allow_side_effects: true` and the user's confirmation unless brave mode is on.",
            kind: Kind::Destructive { idempotent: false },
            input: input_session(json!({
                "code": {"type": "string", "minLength": 1},
                "frame_index": frame_index(),
                "thread_id": thread_id(),
                "allow_side_effects": {"type": "boolean", "description": "Must be true: code fragments can change the program."}}), &["code"]),
            output: out(json!({"result": value_node()}), &["result"]),
        },
        // ---- watches
        Def {
            name: "list_watches",
            title: "List watches",
            description: "Watch expressions of the project with their last values and the step/location where they were evaluated (watches are re-evaluated at every pause).",
            kind: Kind::Read,
            input: input(json!({}), &[]),
            output: out(json!({"watches": {"type": "array", "items": watch()}}), &["watches"]),
        },
        Def {
            name: "add_watch",
            title: "Add a watch",
            description: "Add a watch expression, evaluated (side-effect free) at every pause; evaluated at once when a session is paused.",
            kind: Kind::Write { idempotent: false },
            input: input_session(json!({"expression": {"type": "string", "minLength": 1}}), &["expression"]),
            output: watch(),
        },
        Def {
            name: "remove_watch",
            title: "Remove a watch",
            description: "Remove a watch expression by id.",
            kind: Kind::Write { idempotent: true },
            input: input(json!({"watch_id": {"type": "string", "minLength": 1}}), &["watch_id"]),
            output: out(json!({"removed": {"type": "boolean"}, "message": {"type": "string"}}), &["removed"]),
        },
        // ---- source
        Def {
            name: "get_source_context",
            title: "Source around a line",
            description: "Source lines around a line (default: the current stop location) with line numbers, the current line marked, and breakpoint lines in view. Files must be inside the project.",
            kind: Kind::Read,
            input: input_session(json!({
                "file_path": file_path("Source file (default: current location)."),
                "line": line("Center line (default: current line),"),
                "context_lines": {"type": "integer", "minimum": 0, "maximum": 50, "default": 5}}), &[]),
            output: out(json!({"file": {"type": "string"}, "start_line": {"type": "integer"}, "end_line": {"type": "integer"}, "lines": {"type": "array"}, "breakpoints": {"type": "array"}}), &["file", "start_line", "end_line", "lines"]),
        },
        // ---- memory
        Def {
            name: "get_debug_history",
            title: "Value history",
            description: "Values seen earlier in a session (survives resumes and the session's end); step = pause number. With `name`: `steps_ago` N, `changes` (each change with step and location) or `line`. Without: the names seen.",
            kind: Kind::Read,
            input: input_session(json!({
                "name": {"type": "string", "minLength": 1, "description": "Path or expression as read, e.g. 'order.status'."},
                "steps_ago": {"type": "integer", "minimum": 0},
                "changes": {"type": "boolean", "default": false},
                "line": line("Only readings at this line,"),
                "file_path": file_path("With line: the file."),
                "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20}}), &[]),
            output: out(json!({"session_id": {"type": "string"}, "current_step": {"type": "integer"}}), &["session_id", "current_step"]),
        },
        Def {
            name: "get_session_summary",
            title: "Session summary",
            description: "Markdown hand-off of a session: path taken, pauses, exceptions, values seen and set, breakpoints, output tail. Also written to .debugger-mcp/sessions/<id>.md at its end.",
            kind: Kind::Read,
            input: input_session(json!({}), &[]),
            output: out(json!({"session_id": {"type": "string"}, "markdown": {"type": "string"}}), &["session_id", "markdown"]),
        },
        Def {
            name: "get_console_output",
            title: "Console output",
            description: "The program's stdout/stderr/tracepoint output since `cursor` (a previous next_cursor; omit for the start), bounded.",
            kind: Kind::Read,
            input: input_session(json!({
                "cursor": {"type": "string", "minLength": 1},
                "max_lines": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
                "category": {"enum": ["stdout", "stderr", "console", "tracepoint"], "description": "Only this stream."}}), &[]),
            output: out(json!({"output": {"type": "array"}, "next_cursor": {"type": "string"}}), &["output", "next_cursor"]),
        },
    ]
}

fn build() -> Registry {
    let mut specs = HashMap::new();
    let mut tools = Vec::new();
    for d in defs() {
        let (read_only, destructive, idempotent) = match d.kind {
            Kind::Read => (true, false, true),
            Kind::Write { idempotent } => (false, false, idempotent),
            Kind::Destructive { idempotent } => (false, true, idempotent),
        };
        let properties = d.input["properties"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&d.input)
            .unwrap_or_else(|e| panic!("input schema of {} does not compile: {e}", d.name));
        let mut tool = Tool::new(d.name, d.description, obj(d.input));
        tool.title = Some(d.title.into());
        tool.output_schema = Some(Arc::new(obj(d.output)));
        tool.annotations = Some(
            ToolAnnotations::with_title(d.title)
                .read_only(read_only)
                .destructive(destructive)
                .idempotent(idempotent)
                .open_world(false),
        );
        tools.push(tool.clone());
        specs.insert(d.name, ToolSpec { tool, validator, properties });
    }
    Registry { specs, tools: Arc::new(tools) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_three_tools_with_strict_schemas_and_annotations() {
        let r = registry();
        assert_eq!(r.tools.len(), 33);
        for t in r.tools.iter() {
            assert_eq!(t.input_schema["additionalProperties"], json!(false), "{}", t.name);
            assert!(t.input_schema["properties"].get("project_path").is_some(), "{}", t.name);
            assert!(t.title.is_some() && t.description.as_ref().is_some_and(|d| d.len() > 30), "{}", t.name);
            let a = t.annotations.as_ref().unwrap();
            assert!(a.read_only_hint.is_some() && a.destructive_hint.is_some() && a.idempotent_hint.is_some());
            jsonschema::draft202012::meta::validate(&Value::Object((*t.input_schema).clone())).unwrap();
            jsonschema::draft202012::meta::validate(&Value::Object((**t.output_schema.as_ref().unwrap()).clone())).unwrap();
        }
    }
}
