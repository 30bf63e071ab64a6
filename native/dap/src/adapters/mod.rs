//! The debuggers that speak DAP, each with its quirks in its own module.
//!
//! The rest of the crate is written against the DAP specification and asks a session's
//! [`Adapter`] wherever adapters differ; it never names one. Every method has the
//! specification's behaviour as its default, so an adapter module states only what differs.
//!
//! Adding a debugger: a module with a unit struct implementing [`Adapter`] (`name`, `aliases`,
//! `command`, `spawn_hint` and whichever quirks apply) and one line in the `register!` table,
//! which declares the module and lists it in [`ADAPTERS`].

use crate::config::{Generic, Redirect, ResolvedLaunch};
use crate::session::Session;
use crate::transport::Wire;
use async_trait::async_trait;
use debugger_mcp_core::backend::{
    BackendError, BackendResult, OutputCategory, PrintFormat, ValueNode,
};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Declares each adapter's module and lists its unit struct in [`ADAPTERS`]: one line per
/// adapter, so registering one cannot be half done.
macro_rules! register {
    ($($module:ident::$adapter:ident),* $(,)?) => {
        $(mod $module;)*
        /// Every adapter, in the order command lines are matched against them.
        pub static ADAPTERS: &[&dyn Adapter] = &[$(&$module::$adapter),*];
    };
}

// The registration table: `module::UnitStruct`, one line per adapter.
register! {
    debugpy::Debugpy,
    gdb::Gdb,
    lldb::Lldb,
    delve::Delve,
}

/// The stop that attaching makes (ptrace stops the process), which is no pause of the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachStop {
    /// No stop is reported (debugpy injects without one; delve resumes silently).
    None,
    /// Reported, and the adapter resumes at configurationDone without a `continued` event.
    ResumedByAdapter,
    /// Reported, and the process is left stopped: the session resumes it.
    Left,
}

/// An adapter as sessions and launches hold it.
pub type AdapterRef = &'static dyn Adapter;

/// What differs between debug adapters. Defaults are what the DAP specification says.
/// What to write in a language without gdb's print formats for `/FMT expression`: `write`
/// maps a format letter to the language's conversion of `expression` (None: none fits).
pub(crate) fn format_refusal(
    debugger: &str,
    f: &PrintFormat,
    expression: &str,
    write: impl Fn(char) -> Option<String>,
    examine_instead: &str,
) -> String {
    if f.examine {
        return format!(
            "'x/{}' examines raw memory, a gdb/lldb command; {debugger} has none: {examine_instead}",
            f.letters
        );
    }
    let letter = f.letters.chars().next().unwrap_or('x');
    match write(letter) {
        Some(w) => format!(
            "'/{}' is a gdb print format; {debugger} evaluates the program's expressions only: write {w}",
            f.letters
        ),
        None => format!(
            "'/{}' is a gdb print format; {debugger} evaluates the program's expressions only: ask for {expression}",
            f.letters
        ),
    }
}

#[async_trait]
pub trait Adapter: Send + Sync + 'static {
    /// Its name in settings, tool arguments and messages (`debugpy`).
    fn name(&self) -> &'static str;
    /// Other names accepted for it: launch.json `type`s (`python`, `cppdbg`), binaries.
    fn aliases(&self) -> &'static [&'static str];

    // ---- starting it ----

    /// The program and arguments that start the adapter; `python` is launch.json's interpreter.
    fn command(&self, python: Option<&str>) -> BackendResult<(String, Vec<String>)>;
    /// How it speaks DAP.
    fn wire(&self) -> Wire {
        Wire::Stdio
    }
    /// Why it could not start, worded with how to fix it.
    fn spawn_hint(&self) -> &'static str;
    /// Work before the adapter starts (delve: building the Go program). Returns a file that
    /// belongs to the session and is removed when it ends.
    async fn prepare(
        &self,
        _launch: &mut ResolvedLaunch,
        _root: &Path,
        _settings: &Settings,
    ) -> BackendResult<Option<PathBuf>> {
        Ok(None)
    }
    /// How much longer than a plain launch `prepare` may take (the core widens its timeout).
    fn prepare_allowance(&self, _launch: &ResolvedLaunch, _settings: &Settings) -> Duration {
        Duration::ZERO
    }

    // ---- attaching to what runs (see `attach`) ----

    /// How strongly it claims a running process by its executable: 0 not, 1 any native
    /// program, 2 its own runtime (a Python interpreter, a Go binary).
    fn claims_process(&self, _exe: &Path) -> u8 {
        0
    }
    /// The `attach` arguments for a process by id or a debugger listening at `host:port`;
    /// `None` when it cannot attach that way.
    fn attach_arguments(
        &self,
        _target: &debugger_mcp_core::backend::AttachTarget,
    ) -> Option<Map<String, Value>> {
        None
    }
    /// Whether attaching stops the process with a stop event of its own, and who resumes it.
    fn attach_stop(&self) -> AttachStop {
        AttachStop::None
    }
    /// The console command that detaches before the disconnect, where the disconnect alone
    /// would not leave the program running.
    fn detach_command(&self) -> Option<&'static str> {
        None
    }
    /// What listens at an address speaks DAP itself (debugpy --listen, dlv --headless): the
    /// session connects to it instead of starting the adapter.
    fn serves_dap_at_address(&self) -> bool {
        false
    }

    // ---- run configurations and command lines (see `config`) ----

    /// A command line this adapter recognises by its words (`python3 -m x`, `go test ./p`).
    fn parse_command(&self, _cwd: &Path, _words: &[String]) -> Option<BackendResult<Generic>> {
        None
    }
    /// A program this adapter runs, by its file name (`.py`), whether or not it exists yet.
    fn claims_file_name(&self, _name: &str) -> bool {
        false
    }
    /// A program file this adapter runs, by its first bytes (an ELF header, a shebang).
    fn claims_file(&self, _head: &[u8]) -> bool {
        false
    }
    /// Runs a configuration that names a `module` rather than a program (Python's `-m`).
    fn runs_modules(&self) -> bool {
        false
    }
    /// An adapter-neutral launch in this adapter's `launch` arguments.
    fn launch_arguments(&self, g: &Generic) -> Map<String, Value> {
        let mut a = g.base_arguments(true);
        if !g.env.is_empty() {
            a.insert("env".into(), Value::Object(g.env.clone()));
        }
        a
    }
    /// A `.vscode/launch.json` entry of `type_name` whose arguments are `args` (the entry minus
    /// VS Code's own keys), made fit to send. Returns the Python interpreter it names, if any.
    fn adapt_launch_json(
        &self,
        _type_name: &str,
        _entry: &Map<String, Value>,
        cwd: &Path,
        args: &mut Map<String, Value>,
    ) -> Option<String> {
        args.entry("cwd")
            .or_insert(json!(cwd.display().to_string()));
        None
    }
    /// Points the program's streams as a command line's redirections say (`< in`, `> out`,
    /// `2>&1`; paths absolute), in launch arguments made from `g`. Err: why this adapter
    /// cannot, for the agent; the default, as DAP's `launch` has no such argument.
    fn redirect(
        &self,
        _redirects: &[Redirect],
        _g: &Generic,
        _args: &mut Map<String, Value>,
    ) -> Result<(), String> {
        Err(format!(
            "the {} adapter's launch cannot point the program's stdin/stdout/stderr at files; \
             pass the input file as an argument, or use another adapter (adapter: gdb for a native program)",
            self.name()
        ))
    }
    /// Last touches to a resolved launch, after the tool's flags are in (delve's mode).
    fn complete(&self, _launch: &mut ResolvedLaunch) {}
    /// Last touches to the arguments of a launch that debugs (not `noDebug`), every other
    /// argument in (debugpy's start-up bootstrap).
    fn debug_launch_arguments(&self, _args: &mut Map<String, Value>) {}
    /// The launch arguments that make it stop at the start of the program, where its own
    /// mechanism is useful (else [`Adapter::entry_function`]).
    fn entry_stop_arguments(&self, _args: &mut Map<String, Value>) {}
    /// Whether launch arguments as the user wrote them ask for a stop on entry.
    fn stops_on_entry(&self, args: &Map<String, Value>) -> bool {
        args.get("stopOnEntry")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    // ---- breakpoints and stops ----

    /// The function a stop on entry is a breakpoint on, for adapters whose own stopOnEntry
    /// stops too early to be useful.
    fn entry_function(&self) -> Option<&'static str> {
        None
    }
    /// A function every launched program runs before any of its own code, where a launch
    /// stops once, silently, to let the debugger do at its first stop what it would otherwise
    /// do at the user's (delve reads the shared libraries' debug information there: a second
    /// or more with libc's installed, which a first `pause` would wait for). Not used when the
    /// launch stops on entry anyway, runs without debugging, or attaches.
    fn warm_up_function(&self) -> Option<&'static str> {
        None
    }
    /// The `name` of `dataBreakpointInfo` (asked in a frame) that watches what `expression`
    /// names. DAP leaves its meaning to the adapter.
    fn data_breakpoint_name(&self, expression: &str) -> String {
        expression.to_string()
    }
    /// The REPL command that pops the selected frame returning `value` (force_return), when
    /// the adapter's debugger has one.
    fn force_return_command(&self, _value: &str) -> Option<String> {
        None
    }
    /// For an adapter without data breakpoints whose repl takes its debugger's commands: the
    /// command that sets a watchpoint (`watch`, `rwatch`, `awatch`).
    fn watch_command(
        &self,
        _expression: &str,
        _access: debugger_mcp_core::backend::DataAccess,
        _condition: Option<&str>,
    ) -> Option<String> {
        None
    }
    /// A command (run through the repl) that stops the program once where a C++ handler takes
    /// an exception (`__cxa_begin_catch`); its answer names the breakpoint's number. The step
    /// after a throw stop runs there (see `after_throw`).
    fn catch_stop_command(&self) -> Option<&'static str> {
        None
    }
    /// The command that deletes breakpoint number `n` (one set by a command).
    fn delete_command(&self, _n: i64) -> Option<String> {
        None
    }
    /// The breakpoint number (= its DAP id) out of what the watch command answered.
    fn watch_number(&self, _said: &str) -> Option<i64> {
        None
    }
    /// Why function breakpoints by name (`setFunctionBreakpoints`) are of no use with this
    /// adapter even though it offers them, if they are not.
    fn function_breakpoints_refused(&self) -> Option<&'static str> {
        None
    }
    /// Whether `setFunctionBreakpoints` answers in the order of the request, as DAP says.
    fn function_answers_in_order(&self) -> bool {
        true
    }
    /// The tool's hit condition ("stop on the Nth hit") in the adapter's terms.
    fn hit_condition(&self, condition: &str) -> String {
        condition.to_string()
    }
    /// Exception filters that make `stop_on_exception` stop on uncaught exceptions.
    fn stop_on_exception_filters(&self) -> &'static [&'static str] {
        &[]
    }
    /// Filters for an "any exception" breakpoint: (caught, uncaught).
    fn catch_all_filters(&self) -> (&'static [&'static str], &'static [&'static str]) {
        (&[], &[])
    }
    /// Filters that make a step stop where an exception is raised, so that a step ending in
    /// an exception says so (type, message, where) instead of landing in a handler or the
    /// caller silently. Set only while a step runs.
    fn step_exception_filters(&self) -> &'static [&'static str] {
        &[]
    }
    /// For an adapter without step exception filters: the function the program calls to raise
    /// (Go's `runtime.gopanic`) and its parameter holding what is raised (`e`). Broken on while
    /// a step runs, so that a step ending in a raise says so (see `step_raises`).
    fn raise_function(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// The function a handler calls to take what was raised (Go's `runtime.gorecover`): the
    /// step after a stop at the raise runs to it and out of it, into the handler.
    fn recover_function(&self) -> Option<&'static str> {
        None
    }
    /// Whether a stop of DAP `reason` with the adapter's `description` is the program's fatal
    /// end (delve's unrecovered panic): a step from there can only end the program.
    fn is_fatal_stop(&self, _reason: &str, _description: Option<&str>) -> bool {
        false
    }
    /// Whether a stop of DAP `reason` whose text is `text` is a signal's (lldb-dap reports
    /// signals as exceptions).
    fn is_signal_stop(&self, reason: &str, _text: Option<&str>) -> bool {
        reason == "signal"
    }
    /// Exception breakpoints by class name (`KeyError`) where the adapter takes them (DAP
    /// `exceptionOptions`): the options for `classes` and for the plain `filters` together,
    /// since an adapter given options may ignore `filters`. None: this adapter takes no names.
    fn exception_class_options(
        &self,
        _filters: &[String],
        _classes: &[ExceptionClass],
    ) -> Option<Vec<crate::protocol::ExceptionOptions>> {
        None
    }
    /// Settings made in the debuggee once the session is configured, while it runs (launched
    /// or attached to, which `repl_setup` before configurationDone cannot reach in every
    /// adapter). Best effort: a program that already ended is left alone.
    async fn after_configured(&self, _s: &Session) {}
    /// The debuggee's loaded source files named one of `names`, and its main script, each
    /// with the SHA-256 of its bytes (hex) as the debuggee reads them, asked while it runs:
    /// how an attach maps a root nothing configured (`attach::infer_mapping`). Empty: this
    /// adapter cannot read the debuggee's files.
    async fn remote_sources(&self, _s: &Session, _names: &[String]) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The signal a `signal` stop without a description was for ("signal SIGSEGV (…)").
    async fn signal_name(&self, _s: &Session) -> Option<String> {
        None
    }

    // ---- process and end ----

    /// The program's end as the `exited` event's `exitCode` says it, in the core's terms: the
    /// status a program chose, or the negative number of the signal that killed it.
    fn exit_code(&self, code: i64) -> i64 {
        code
    }

    /// Sends no `process` event: the debuggee is the adapter's child process.
    fn debuggee_is_child(&self) -> bool {
        false
    }
    /// Reports the exit status only once disconnected after `terminated` (as output, see
    /// [`Adapter::exit_status`]) instead of in an `exited` event.
    fn exit_status_after_disconnect(&self) -> bool {
        false
    }
    /// The debuggee's exit status, when this output says it.
    fn exit_status(&self, _category: OutputCategory, _text: &str) -> Option<i64> {
        None
    }

    // ---- output ----

    /// The condition a console line says failed to evaluate at a conditional breakpoint (an
    /// adapter that then just goes on, so the breakpoint silently never stops).
    fn failed_condition<'a>(&self, _category: OutputCategory, _text: &'a str) -> Option<&'a str> {
        None
    }
    /// Output under the program's category that is the debugger's own message, kept as
    /// "console": Some(how many output chunks after it are the rest of that message).
    fn debugger_says(&self, _category: OutputCategory, _text: &str) -> Option<u32> {
        None
    }
    /// Output that is the adapter's own chatter, not the program's: dropped.
    fn is_chatter(&self, _category: OutputCategory, _text: &str) -> bool {
        false
    }
    /// For `x.size()` that failed with `error`: the container `x`, whose size its pretty
    /// printer tells (gdb cannot call a size() the program never emitted, "may be inlined").
    fn size_receiver<'a>(&self, _expression: &'a str, _error: &str) -> Option<&'a str> {
        None
    }
    /// For `x.size()` that answered: the container `x` when the debugger's count of it may be
    /// wrong and its pretty printer's is the one to trust (gdb's xmethod for std::deque).
    async fn miscounted_size<'a>(
        &self,
        _s: &Session,
        _expression: &'a str,
        _frame_id: i64,
    ) -> Option<&'a str> {
        None
    }
    /// The repl command that evaluates a breakpoint's condition at its stop, for an adapter
    /// that stops when a condition fails to evaluate, as if it held (gdb). None: a failing
    /// condition does not stop (or the adapter says so itself, [`Adapter::failed_condition`]).
    fn condition_check(&self, _condition: &str) -> Option<String> {
        None
    }
    /// Commands for the adapter's repl before the program starts (fixes to the adapter itself).
    fn repl_setup(&self) -> Vec<String> {
        vec![]
    }
    /// The CLI command, sent to the adapter's repl before the program starts, that points the
    /// program's stderr at the named pipe `pipe` (read and reported as stderr), for an adapter
    /// that reports stderr mixed into stdout. None: its output events tell stderr apart.
    fn stderr_redirect(&self, _pipe: &Path) -> Option<String> {
        None
    }
    /// Sends log-point messages as `console` output with no source attached.
    fn log_points_on_console(&self) -> bool {
        false
    }

    // ---- values ----

    /// Its programs' languages (C, C++, Objective-C, Rust) name values the C way: elements
    /// `a[i]`, members `a.m`, a pointee `(*p)`. Lets `set_value` fall back to `setExpression`
    /// with a path rebuilt from the value's lineage (`assign`) when `setVariable` refuses it.
    fn c_expressions(&self) -> bool {
        false
    }
    /// Whether an expression allowed side effects is first evaluated as an expression
    /// ("watch" context), and run in "repl" only when the adapter cannot parse it as one
    /// (gdb's repl takes CLI commands: `set var x = 1` works there, `(long)f(x)` does not).
    fn repl_is_cli(&self) -> bool {
        false
    }
    /// Whether the error an expression got says it is no expression (then it is a command).
    fn is_not_an_expression(&self, _expression: &str, _error: &str) -> bool {
        false
    }

    /// The repl command that evaluates `expression` in a gdb print format (`/x mask` →
    /// `print/x mask`, `x/4xw buf`), or, where the debugger has no such formats, the error
    /// saying what to write in the program's language instead.
    fn format_command(&self, f: &PrintFormat, _expression: &str) -> Result<String, String> {
        Err(format!(
            "'{}' is a gdb print format; this debugger evaluates the program's expressions only: ask for the plain expression",
            if f.examine { "x/" } else { "/" }
        ))
    }

    /// The identifier an evaluation's error says the frame does not know (a C macro's name,
    /// perhaps: `c_macros`), for the adapters of C (`c_expressions`).
    fn unknown_name(&self, _error: &str) -> Option<String> {
        None
    }

    /// A breakpoint condition in `file` as the adapter is sent it: in C, object-like macros the
    /// file defines written out (`c_macros::condition`), as the debugger knows none of them;
    /// then as an expression is written (`Adapter::expression`).
    fn condition(&self, file: &str, condition: String) -> String {
        let c = if self.c_expressions() && !file.is_empty() {
            crate::c_macros::condition(Path::new(file), &condition)
        } else {
            condition
        };
        self.expression(&c).unwrap_or(c)
    }

    /// `expression` as the debugger is sent it, when it must be written otherwise to mean
    /// what the agent wrote (gdb: `name == "eve"` compares text, `c_strings`).
    fn expression(&self, _expression: &str) -> Option<String> {
        None
    }

    /// A CLI command (`repl_is_cli`) as the debugger is sent it, when it must be written
    /// otherwise (gdb: the expression of `print`/`p`/`output`/`call`, as `expression` writes it).
    fn cli_command(&self, _command: &str) -> Option<String> {
        None
    }

    /// The error an expression got, worded for the agent (what a call's failure means).
    fn evaluate_error(&self, _expression: &str, error: String) -> String {
        error
    }

    /// Its `stackTrace` unwinds from the top for every frame not listed before in the stop, and
    /// answers nothing else meanwhile: deep pages are reached in steps of this many frames,
    /// within a time budget per call (`values::walk_down`). None: pages cost alike at any depth.
    fn stack_walk_step(&self) -> Option<u32> {
        None
    }
    /// What to do instead when a stack is too deep to list to the frame asked for.
    fn stack_walk_hint(&self) -> &'static str {
        ""
    }
    /// Why a pause the adapter accepted may not stop the program for a long time, and what to
    /// do (said when the wait for it runs out); `None` where a pause interrupts the program.
    fn pause_pending_note(&self) -> Option<&'static str> {
        None
    }

    /// A node the adapter adds among a value's members that is no program value.
    fn is_synthetic_group(&self, _name: &str) -> bool {
        false
    }
    /// How the debugger's own string limit is raised to the core's whole-string bound for one
    /// `evaluate`, and set back to the user's value after.
    fn whole_strings(&self) -> Option<StringLimit> {
        None
    }
    /// The evaluate context in which the adapter shows a value whole (delve: `clipboard`);
    /// None: `watch`.
    fn whole_value_context(&self) -> Option<&'static str> {
        None
    }
    /// Reads more of a string an agent's evaluation of `expression` left cut (delve, in
    /// windows); `node.value_length` says how long it is.
    async fn rest_of_string(&self, _s: &Session, _node: &mut ValueNode, _expr: &str, _frame: i64) {}
    /// Sets the real size of values the adapter shows cut (`child_count`, `value_length`).
    async fn real_sizes(&self, _s: &Session, _nodes: &mut [ValueNode], _frame_id: Option<i64>) {}
    /// Marks which of a frame's `Locals` are its arguments, when the adapter lists them together.
    async fn mark_arguments(&self, _s: &Session, _nodes: &mut [ValueNode], _frame_id: i64) {}
    /// After a step out, the value the call returned when the adapter shows it only on request
    /// (not as a variable): a node for frame `frame_id`'s values.
    async fn returned_value(&self, _s: &Session, _frame_id: i64) -> Option<ValueNode> {
        None
    }
    /// Before a step out of the top frame of `thread`: notes what [`Adapter::returned_value`]
    /// needs to read the value afterwards (delve: the function's result types).
    async fn before_step_out(&self, _s: &Session, _thread: i64) {}
    /// Items `[offset, offset + limit)` of a container whose listing (unpaged) is `all`, and
    /// the container's real size.
    async fn page(
        &self,
        _s: &Session,
        all: Vec<crate::protocol::Variable>,
        offset: u32,
        limit: u32,
    ) -> BackendResult<(Vec<crate::protocol::Variable>, u64)> {
        let total = all.len() as u64;
        Ok((
            all.into_iter()
                .skip(offset as usize)
                .take(limit as usize)
                .collect(),
            total,
        ))
    }
}

impl std::fmt::Debug for dyn Adapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn Adapter {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

/// A debugger's own string limit (gdb's `print elements`) as repl commands: raised for one
/// evaluation, then set back to what the user had (read once per session, and again after
/// a repl command of theirs, which may have set it).
#[derive(Clone)]
pub struct StringLimit {
    /// Sets the limit to the core's whole-string bound.
    pub raise: String,
    /// Shows the limit as it is now.
    pub show: &'static str,
    /// The command that sets the limit back to what `show` answered; None when not understood.
    pub restore: fn(&str) -> Option<String>,
}

/// The adapter called `name` (or one of its aliases), case-insensitively.
/// An exception breakpoint by class name, as the adapter is asked for it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExceptionClass {
    pub name: String,
    /// Stop where it is raised, even when something catches it.
    pub caught: bool,
    /// Stop when nothing catches it.
    pub uncaught: bool,
}

pub fn find(name: &str) -> BackendResult<AdapterRef> {
    let lower = name.to_ascii_lowercase();
    ADAPTERS
        .iter()
        .copied()
        .find(|a| a.name() == lower || a.aliases().contains(&lower.as_str()))
        .ok_or_else(|| {
            BackendError::Unsupported(format!(
                "unknown adapter '{name}'; use one of {}",
                names(", ")
            ))
        })
}

/// The adapter that uses exception filter `id` itself (for stops on exceptions, steps or a
/// catch-all), if any: a filter an adapter not yet started this run is known to offer.
pub fn offering_filter(id: &str) -> Option<AdapterRef> {
    ADAPTERS.iter().copied().find(|a| {
        let (caught, uncaught) = a.catch_all_filters();
        [
            a.stop_on_exception_filters(),
            a.step_exception_filters(),
            caught,
            uncaught,
        ]
        .iter()
        .any(|fs| fs.contains(&id))
    })
}

/// The adapters' names, joined by `sep`.
pub fn names(sep: &str) -> String {
    ADAPTERS
        .iter()
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Settings of the backend that adapters read.
pub struct Settings {
    go_build_timeout_ms: AtomicU64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            go_build_timeout_ms: AtomicU64::new(delve::DEFAULT_BUILD_TIMEOUT.as_millis() as u64),
        }
    }
}

impl Settings {
    /// `[go] build_timeout_ms`: the Go build before delve starts.
    pub fn set_go_build_timeout(&self, timeout: Duration) {
        self.go_build_timeout_ms
            .store(timeout.as_millis().max(1) as u64, Ordering::Relaxed);
    }
    pub fn go_build_timeout(&self) -> Duration {
        Duration::from_millis(self.go_build_timeout_ms.load(Ordering::Relaxed))
    }
}

/// Files named one of `names` in the directories of $PATH, in $PATH's order.
/// The command word an expression starts with (`x` of `x/4x buf`, `frame` of `frame 2`): what a
/// C debugger's parser names when a command was given as an expression.
fn command_word(expression: &str) -> &str {
    expression
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or("")
}

fn on_path(names: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            for n in names {
                let p = dir.join(n);
                if p.is_file() && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adapters_are_found_by_name_and_alias() {
        assert_eq!(find("Python").unwrap().name(), "debugpy");
        assert_eq!(find("cppdbg").unwrap().name(), "gdb");
        assert_eq!(find("lldb-dap").unwrap().name(), "lldb");
        assert_eq!(find("go").unwrap().name(), "delve");
        let e = find("jdb").unwrap_err().to_string();
        assert!(
            e.contains("'jdb'") && e.contains("debugpy, gdb, lldb, delve"),
            "{e}"
        );
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = ADAPTERS
            .iter()
            .flat_map(|a| std::iter::once(a.name()).chain(a.aliases().iter().copied()))
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "an alias names two adapters");
    }
}
