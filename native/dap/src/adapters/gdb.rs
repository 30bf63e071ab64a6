//! gdb (≥ 14, `gdb -i dap`). Its quirks: finding a gdb new enough, cpptools' launch.json
//! dialect, hit conditions as ignore counts, entry as `stopAtBeginningOfMainSubprogram`,
//! signal stops without a name, CLI chatter on the program's stdout, stops at conditions it
//! cannot evaluate, and libstdc++'s miscounted deque size().

use super::{Adapter, on_path};
use crate::config::{Generic, Redirect, shell_quote};
use crate::protocol::{self, VariablesArguments};
use crate::session::Session;
use async_trait::async_trait;
use debugger_mcp_core::backend::{
    AttachTarget, BackendError, BackendResult, OutputCategory, PrintFormat, ValueNode,
    WHOLE_STRING_CHARS,
};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub struct Gdb;

/// C strings per answer whose length is asked of gdb (`$_strlen`), one request each.
const STRLEN_LOOKUPS: usize = 20;

/// The command that sets `print elements` back to what `show print elements` answered
/// ("Limit on string chars or array elements to print is 200." / "... is unlimited."; gdb's
/// `show_print_elements`, gdb/valprint.c); None for an answer not understood.
fn print_elements_restore(shown: &str) -> Option<String> {
    let value = shown.trim().trim_end_matches('.').rsplit(' ').next()?;
    (value == "unlimited" || value.parse::<u32>().is_ok())
        .then(|| format!("set print elements {value}"))
}

/// A name, member or index path (`page`, `req.body`, `rows[2].name`, `p->s`): reading it
/// runs nothing in the program.
fn is_c_path(e: &str) -> bool {
    !e.is_empty() && e.chars().all(|c| c.is_alphanumeric() || "_.[]->".contains(c))
}

#[async_trait]
impl Adapter for Gdb {
    fn name(&self) -> &'static str {
        "gdb"
    }

    fn c_expressions(&self) -> bool {
        true
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["cppdbg"]
    }

    fn command(&self, _python: Option<&str>) -> BackendResult<(String, Vec<String>)> {
        Ok((
            gdb()?.display().to_string(),
            [
                "--quiet",
                "-i",
                "dap",
                // Terminal colour codes would reach the agent inside error messages
                // ("'\x1b[33;49;…mstrlen\x1b[m' has unknown return type").
                "-iex",
                "set style enabled off",
                // A function called by an expression that faults (a stack already exhausted,
                // a bad pointer) is unwound, with an error, instead of leaving the program
                // stopped inside the call where only a new session helps. Accepted by every
                // gdb with DAP (15 renamed it unwind-on-signal and kept this name).
                "-iex",
                "set unwindonsignal on",
            ]
            .map(String::from)
            .into_iter()
            .chain(system_printers())
            .collect(),
        ))
    }
    fn spawn_hint(&self) -> &'static str {
        "gdb >= 14 with DAP is needed (pip install gdb-for-pwndbg, or set DEBUGGER_MCP_GDB)"
    }

    fn claims_file(&self, head: &[u8]) -> bool {
        head.starts_with(b"\x7fELF")
    }
    fn claims_process(&self, exe: &Path) -> u8 {
        let mut head = [0u8; 4];
        let read =
            std::fs::File::open(exe).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head));
        u8::from(read.is_ok() && self.claims_file(&head))
    }
    /// gdb's DAP disconnect quits gdb, which kills a program gdbserver started (only one gdb
    /// attached to itself is detached from): `detach` first leaves it running in every case.
    fn detach_command(&self) -> Option<&'static str> {
        Some("detach")
    }
    /// gdb's DAP attaches after configurationDone and leaves the process stopped there.
    fn attach_stop(&self) -> super::AttachStop {
        super::AttachStop::Left
    }
    /// gdb's DAP attaches by `pid`, or to a gdbserver by `target` (`target remote host:port`).
    fn attach_arguments(&self, target: &AttachTarget) -> Option<Map<String, Value>> {
        Some(
            match target {
                AttachTarget::Pid(pid) => json!({ "pid": pid }),
                AttachTarget::Address(addr) => json!({ "target": addr }),
            }
            .as_object()
            .cloned()
            .unwrap_or_default(),
        )
    }
    /// gdb's DAP launch clears the program's environment before setting `env`
    /// (`inf.clear_env()`), where every other adapter adds to it: the rest of ours goes too.
    fn launch_arguments(&self, g: &Generic) -> Map<String, Value> {
        let mut a = g.base_arguments(true);
        if !g.env.is_empty() {
            let mut env: Map<String, Value> = std::env::vars()
                .map(|(k, v)| (k, Value::String(v)))
                .collect();
            env.extend(g.env.clone());
            a.insert("env".into(), Value::Object(env));
        }
        a
    }
    /// gdb starts the program through the shell (`startup-with-shell`), and its DAP hands
    /// `args` to `Inferior.arguments`, which takes a string as it is written (a list has each
    /// word quoted): the words quoted, then the redirections, and the shell applies them.
    fn redirect(
        &self,
        redirects: &[Redirect],
        g: &Generic,
        args: &mut Map<String, Value>,
    ) -> Result<(), String> {
        let line: Vec<String> = g
            .args
            .iter()
            .map(|w| shell_quote(w))
            .chain(redirects.iter().map(Redirect::shell))
            .collect();
        args.insert("args".into(), json!(line.join(" ")));
        Ok(())
    }
    fn adapt_launch_json(
        &self,
        type_name: &str,
        entry: &Map<String, Value>,
        cwd: &Path,
        args: &mut Map<String, Value>,
    ) -> Option<String> {
        if type_name != "cppdbg" {
            args.entry("cwd")
                .or_insert(json!(cwd.display().to_string()));
            return None;
        }
        // Microsoft's cpptools dialect → gdb's own DAP dialect.
        let mut g = Generic {
            program: entry
                .get("program")
                .and_then(Value::as_str)
                .map(str::to_string),
            args: crate::config::str_list(entry.get("args")),
            cwd: Some(cwd.display().to_string()),
            ..Default::default()
        };
        for e in entry
            .get("environment")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let (Some(n), Some(v)) = (e.get("name").and_then(Value::as_str), e.get("value")) {
                g.env.insert(n.into(), v.clone());
            }
        }
        *args = self.launch_arguments(&g);
        if entry.get("stopAtEntry").and_then(Value::as_bool) == Some(true) {
            self.entry_stop_arguments(args);
        }
        None
    }
    /// gdb's stopOnEntry stops at the first instruction (in the dynamic loader); what a user
    /// means is the start of main.
    fn entry_stop_arguments(&self, args: &mut Map<String, Value>) {
        args.insert("stopAtBeginningOfMainSubprogram".into(), json!(true));
    }
    fn stops_on_entry(&self, args: &Map<String, Value>) -> bool {
        ["stopOnEntry", "stopAtBeginningOfMainSubprogram"]
            .iter()
            .any(|k| args.get(*k).and_then(Value::as_bool) == Some(true))
    }

    /// gdb takes hitCondition as an ignore count ("2" stops on the 3rd hit); the tool's
    /// meaning is "stop on the Nth hit", as debugpy has it.
    fn hit_condition(&self, condition: &str) -> String {
        match condition.trim().parse::<u64>() {
            Ok(n) => n.saturating_sub(1).to_string(),
            Err(_) => condition.to_string(),
        }
    }
    fn stop_on_exception_filters(&self) -> &'static [&'static str] {
        &["throw", "exception"]
    }
    fn catch_all_filters(&self) -> (&'static [&'static str], &'static [&'static str]) {
        (&["throw"], &["throw"])
    }
    /// A C++ `throw` (gdb's `catch throw`) stops the step where it throws.
    fn step_exception_filters(&self) -> &'static [&'static str] {
        &["throw"]
    }
    /// A temporary `catch catch`: "Temporary catchpoint 3 (catch)".
    fn catch_stop_command(&self) -> Option<&'static str> {
        Some("tcatch catch")
    }
    fn delete_command(&self, n: i64) -> Option<String> {
        Some(format!("delete {n}"))
    }
    /// gdb's DAP stop event (events.py: "signal-received" becomes reason "signal") carries no
    /// text, but its CLI says it: "It stopped with signal SIGSEGV, Segmentation fault."
    async fn signal_name(&self, s: &Session) -> Option<String> {
        let said = s.repl("info program", None).await.ok()?;
        parse_signal(&said)
    }

    fn repl_is_cli(&self) -> bool {
        true
    }
    /// gdb's `return` pops the frame with the value; in DAP mode its confirmation is answered yes.
    fn force_return_command(&self, value: &str) -> Option<String> {
        Some(format!("return {value}"))
    }
    /// gdb 18's DAP has no `dataBreakpointInfo`, but its repl runs CLI commands: `watch`
    /// sets a hardware watchpoint whose number is its DAP id, and its stop comes as reason
    /// "data breakpoint" naming that id.
    fn watch_command(
        &self,
        expression: &str,
        access: debugger_mcp_core::backend::DataAccess,
        condition: Option<&str>,
    ) -> Option<String> {
        use debugger_mcp_core::backend::DataAccess;
        let cmd = match access {
            DataAccess::Write => "watch",
            DataAccess::Read => "rwatch",
            DataAccess::ReadWrite => "awatch",
        };
        Some(match condition {
            Some(c) => format!("{cmd} {expression} if {c}"),
            None => format!("{cmd} {expression}"),
        })
    }
    /// "Hardware watchpoint 2: acct.limit" / "Hardware read watchpoint 3: x" / "Watchpoint 4: x".
    fn watch_number(&self, said: &str) -> Option<i64> {
        let at = said.find("atchpoint ")?;
        let rest = &said[at + "atchpoint ".len()..];
        rest.split(':').next()?.trim().parse().ok()
    }
    /// gdb's parser on a CLI command: "A syntax error in expression, near `counter = 9'.",
    /// "No symbol \"call\" in current context.", "Invalid number \"4x\"." (`x/4x buf`).
    fn is_not_an_expression(&self, expression: &str, error: &str) -> bool {
        let first = super::command_word(expression);
        error.contains("syntax error")
            || error.starts_with("Invalid number")
            || (!first.is_empty()
                && error.contains(&format!("No symbol \"{first}\" in current context")))
    }

    /// gdb's DAP lists frames at a cost that grows with their depth (gdb 18 on this machine's
    /// -O0 overflow: frames 2,000-4,000 in 0.5 s, 20,000-22,000 in 4.4 s): a page at frame
    /// 40,000 took 10 s or timed out, and gdb answered nothing until its walk ended. Steps of
    /// 500 frames keep each request short (about 1 s at depth 40,000).
    fn stack_walk_step(&self) -> Option<u32> {
        Some(500)
    }
    fn stack_walk_hint(&self) -> &'static str {
        ": the bottom of a stack this deep is out of gdb's reach in reasonable time (lldb-dap lists any depth at once: adapter \"lldb\")"
    }
    /// gdb's own `print/FMT` and `x/NFU` through its repl. Its DAP `evaluate` takes a
    /// ValueFormat, but only `hex` (gdb/dap/varref.py `apply_format`: output-radix 16 while the
    /// value prints, so -1 reads -0x1 where print/x says 0xffffffff), no binary, octal, char or
    /// memory examine, and it ignores the format in the repl context (evaluate.py
    /// `eval_request`). The CLI command is the one formatting every letter as agents expect;
    /// the core's expression guard checked the expression before, as for the watch context.
    fn format_command(&self, f: &PrintFormat, expression: &str) -> Result<String, String> {
        Ok(f.gdb_command(expression))
    }
    /// `No symbol "state" in current context.`
    fn unknown_name(&self, error: &str) -> Option<String> {
        let rest = error.split("No symbol \"").nth(1)?;
        let (name, after) = rest.split_once('"')?;
        after.starts_with(" in current context").then(|| name.to_string())
    }
    /// A call gdb cannot even start says only "Cannot access memory at address 0x7fff…" (the
    /// dummy frame it pushes for the call does not fit on an exhausted stack).
    fn evaluate_error(&self, expression: &str, error: String) -> String {
        if expression.contains('(') && error.starts_with("Cannot access memory at address") {
            format!(
                "{error}: the expression's function call could not start (no room on the program's stack, as after a stack overflow); the program is still paused where it was"
            )
        } else {
            error
        }
    }
    /// `waiting.size()` on a `std::queue` whose size() the program never calls: not in the
    /// binary, and libstdc++'s xmethods cover the containers, not the adaptors.
    fn size_receiver<'a>(&self, expression: &'a str, error: &str) -> Option<&'a str> {
        if !error.contains("may be inlined") {
            return None;
        }
        size_call(expression).map(|(receiver, _)| receiver)
    }
    /// libstdc++'s deque xmethod (GCC 12 here) counts from the first slot of the start's
    /// block: a deque filled at its front says 12 where it holds 1 Job; its printer counts
    /// right. `whatis` (no printer, no call) tells a deque.
    async fn miscounted_size<'a>(
        &self,
        s: &Session,
        expression: &'a str,
        frame_id: i64,
    ) -> Option<&'a str> {
        let Some((receiver, "size")) = size_call(expression) else {
            return None;
        };
        let said = s.repl(&format!("whatis {receiver}"), Some(frame_id)).await.ok()?;
        said.contains("deque<").then_some(receiver)
    }
    /// gdb says a condition failed on its CLI ("Error in testing condition for breakpoint 2:",
    /// then the error as the next output), which its DAP sends as "stdout".
    fn debugger_says(&self, category: OutputCategory, text: &str) -> Option<u32> {
        if category != OutputCategory::Stdout {
            return None;
        }
        let rest = text
            .strip_prefix("Error in testing condition for breakpoint ")
            .or_else(|| text.strip_prefix("Error in testing breakpoint condition"))?;
        // The error on a line of its own that has not come yet.
        Some(u32::from(!rest.trim_end().contains('\n') && rest.trim_end().ends_with(':')))
    }
    /// Breakpoints set before the program is loaded are reported as CLI chatter on "stdout";
    /// the binding itself arrives as a `breakpoint` event.
    fn is_chatter(&self, category: OutputCategory, text: &str) -> bool {
        category == OutputCategory::Stdout
            && (text.contains("No source file named ")
                || (text.starts_with("Breakpoint ") && text.trim_end().ends_with("pending."))
                || is_breakpoint_set_line(text))
    }
    /// gdb prints `print elements` (200 unless the user set it) characters of a string, then
    /// `...`; for one evaluation the limit is the core's whole-string bound (the core's rows
    /// cut shorter), then the user's own again.
    fn whole_strings(&self) -> Option<super::StringLimit> {
        Some(super::StringLimit {
            raise: format!("set print elements {WHOLE_STRING_CHARS}"),
            show: "show print elements",
            restore: print_elements_restore,
        })
    }
    /// gdb's DAP shows a C++ reference as its address (`@0x7ffe…`) with one child, the
    /// referent: the node becomes the referent (`n = {name = "alpha", v = 1}` for a
    /// `const Node &`), its name, type and handle to set kept. One request per reference.
    /// A C string gdb cut (`"<html>…"...`) gets its length from gdb's `$_strlen`, which reads
    /// the program's memory without running it (gdb/python/lib/gdb/function/strfns.py).
    async fn real_sizes(&self, s: &Session, nodes: &mut [ValueNode], frame_id: Option<i64>) {
        let mut asked = 0;
        for n in nodes.iter_mut() {
            if n.value.ends_with("\"...") && n.value_length.is_none() && asked < STRLEN_LOOKUPS {
                // gdb names no evaluateName: the path is rebuilt from the value's lineage
                // (`req.body`), never its bare name, which may be another variable's (a local
                // `body` beside the member).
                let Some(expr) = s.value_expression(n).filter(|e| is_c_path(e)) else {
                    continue;
                };
                asked += 1;
                let args = protocol::EvaluateArguments {
                    expression: format!("$_strlen({expr})"),
                    frame_id,
                    context: "watch",
                };
                if let Ok(body) = s.req::<protocol::Evaluate>(&args).await
                    && let Ok(len) = body.result.trim().parse::<u64>()
                {
                    n.value_length = Some(len);
                }
                continue;
            }
            let reference = n
                .type_name
                .as_deref()
                .is_some_and(|t| t.trim_end().ends_with('&'));
            if !reference || !n.value.starts_with("@0x") {
                continue;
            }
            let Some(r) = n
                .children_handle
                .as_deref()
                .and_then(|h| h.parse::<i64>().ok())
            else {
                continue;
            };
            let Ok(vars) = s
                .req::<protocol::Variables>(&VariablesArguments::all(r))
                .await
            else {
                continue;
            };
            let [v] = vars.variables.as_slice() else {
                continue;
            };
            let referent = s.node(v.clone(), Some(r), frame_id, n.scope);
            n.value = referent.value;
            n.has_children = referent.has_children;
            n.children_handle = referent.children_handle;
            n.child_count = referent.child_count;
            n.value_length = referent.value_length;
        }
    }
    /// gdb stops at a breakpoint whose condition it cannot evaluate ("Error in testing
    /// condition for breakpoint 2: No symbol \"operator==\" in current context"), saying so
    /// only on its console; at such a stop the condition is evaluated again to tell, and the
    /// stop is passed (`events::pass_failed_conditions`).
    fn condition_check(&self, condition: &str) -> Option<String> {
        Some(format!("output {condition}"))
    }
    /// `set print null-stop on`: a `char id[32]` printed by the CLI (`print`, a value gdb has
    /// read already) reads `"CR-1716"`, not `"CR-1716", '\000' <repeats 24 times>`. DAP values
    /// print a lazy string, which ignores it: `values::without_nul_padding` cleans those.
    fn repl_setup(&self) -> Vec<String> {
        vec![
            "set print null-stop on".into(),
            python_command(SETTLE_AFTER_CALLS),
            python_command(crate::c_strings::EQ_FUNCTION),
        ]
    }
    fn expression(&self, expression: &str) -> Option<String> {
        crate::c_strings::rewrite(expression)
    }
    fn cli_command(&self, command: &str) -> Option<String> {
        let c = command.trim_start();
        let (verb, rest) = c.split_once(char::is_whitespace)?;
        let verb = verb.split('/').next()?;
        if !["print", "p", "output", "call"].contains(&verb) {
            return None;
        }
        // `print/x expr`: the format stays with the verb.
        let head = &c[..c.len() - rest.len()];
        crate::c_strings::rewrite(rest).map(|r| format!("{head}{r}"))
    }
    /// gdb's DAP sends the program's stdout and stderr (and its own CLI chatter) down one pipe,
    /// all as "stdout": an abort's `*** stack smashing detected ***` would read as program
    /// output. gdb starts the program through the shell (`startup-with-shell`, on by default),
    /// then its exec wrapper, which here points stderr at our pipe and execs the program
    /// (one exec, as gdb expects of a wrapper). Should the pipe be gone, the program still runs
    /// (`command` keeps a failed redirection from ending the shell).
    fn stderr_redirect(&self, pipe: &Path) -> Option<String> {
        let p = pipe.to_str().filter(|p| !p.contains('\''))?;
        Some(format!(
            "set exec-wrapper /bin/sh -c '[ -p \"$0\" ] && command exec 2>\"$0\"; exec \"$@\"' '{p}'"
        ))
    }
    /// Log-point text comes as "console" (gdb's own chatter comes as "stdout").
    fn log_points_on_console(&self) -> bool {
        true
    }
}

/// Two fixes to gdb's DAP (gdb/python/lib/gdb/dap) around functions that expressions call:
/// - It forgets every frame and variable reference when the program continues, and a call
///   continues it: ids read before an evaluation would name other values (a struct's id then
///   lists the registers). A call runs and returns to the same stop, so they are kept
///   (cleared still if the call stops somewhere, at a breakpoint inside it).
/// - It marks the program running when a call starts and stopped when it returns; a call that
///   fails before it starts (no room left on an exhausted stack) never returns, and gdb then
///   refuses every request with "notStopped" for the rest of the session. After each
///   `evaluate` and `setExpression`, a program whose threads are all stopped is stopped.
const SETTLE_AFTER_CALLS: &str = r#"import sys, gdb
def _patch():
    m = sys.modules
    ev, srv = m["gdb.dap.events"], m["gdb.dap.server"]
    clears = [m["gdb.dap.varref"].clear_vars, m["gdb.dap.scopes"].clear_scopes,
              m["gdb.dap.frames"]._clear_frame_ids, m["gdb.dap.globalvars"].clear]
    in_call = [False]
    def on_call(e):
        in_call[0] = isinstance(e, gdb.InferiorCallPreEvent)
    def on_cont(e):
        if not in_call[0]:
            for f in clears: f(e)
    def on_stop(e):
        if in_call[0]:
            for f in clears: f(e)
    for f in clears:
        gdb.events.cont.disconnect(f)
    gdb.events.cont.connect(on_cont)
    gdb.events.stop.connect(on_stop)
    gdb.events.inferior_call.connect(on_call)
    def settle():
        in_call[0] = False
        if ev.inferior_running and all(t.is_stopped() for t in gdb.selected_inferior().threads()):
            ev.inferior_running = False
    def settling(orig):
        def request(**args):
            try:
                return orig(**args)
            finally:
                srv.send_gdb_with_response(settle)
        return request
    for name in ("evaluate", "setExpression"):
        srv._commands[name] = settling(srv._commands[name])
_patch()
"#;

/// A CLI line running the Python `source` (the CLI takes one line per command).
fn python_command(source: &str) -> String {
    let escaped: String = source
        .chars()
        .flat_map(|c| match c {
            '\\' => vec!['\\', '\\'],
            '\'' => vec!['\\', '\''],
            '\n' => vec!['\\', 'n'],
            c => vec![c],
        })
        .collect();
    format!("python exec('{escaped}')")
}

/// The distribution's auto-load directory, where libstdc++'s pretty printers are: a gdb built
/// elsewhere (gdb-for-pwndbg) looks only in its own data directory, and would show
/// `std::string` as its fields instead of its text.
fn system_printers() -> Vec<String> {
    const DIR: &str = "/usr/share/gdb/auto-load";
    if !Path::new(DIR).is_dir() {
        return vec![];
    }
    [
        "-iex",
        &format!("add-auto-load-safe-path {DIR}"),
        "-iex",
        &format!("add-auto-load-scripts-directory {DIR}"),
    ]
    .map(String::from)
    .to_vec()
}

/// The CLI echo of a breakpoint set in a live session ("Breakpoint 3 at 0x5555…: file prog.c,
/// line 36.").
fn is_breakpoint_set_line(text: &str) -> bool {
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

/// Parses "GNU gdb (GDB) 18.1" / "GNU gdb (Debian 13.1-3) 13.1" into the major version.
fn gdb_major(version_line: &str) -> Option<u32> {
    let last = version_line.split_whitespace().last()?;
    last.split('.').next()?.parse().ok()
}

fn gdb_version(p: &Path) -> Option<(u32, String)> {
    let out = std::process::Command::new(p)
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next()?.to_string();
    Some((gdb_major(&line)?, line))
}

/// gdb ≥ 14 (the first with `-i dap`): $DEBUGGER_MCP_GDB, else the first such `gdb` on PATH.
fn gdb() -> Result<PathBuf, BackendError> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    if let Ok(p) = std::env::var("DEBUGGER_MCP_GDB") {
        let p = PathBuf::from(p);
        return match gdb_version(&p) {
            Some((v, _)) if v >= 14 => Ok(p),
            Some((_, line)) => Err(BackendError::Unsupported(format!(
                "DEBUGGER_MCP_GDB={} is '{line}'; DAP needs gdb >= 14 (pip install gdb-for-pwndbg)",
                p.display()
            ))),
            None => Err(BackendError::Unsupported(format!(
                "DEBUGGER_MCP_GDB={} does not run",
                p.display()
            ))),
        };
    }
    FOUND
        .get_or_init(|| {
            let mut seen = Vec::new();
            for p in on_path(&["gdb", "gdb-multiarch"]) {
                match gdb_version(&p) {
                    Some((v, _)) if v >= 14 => return Ok(p),
                    Some((_, line)) => seen.push(format!("{} is '{line}'", p.display())),
                    None => {}
                }
            }
            Err(format!(
                "no gdb >= 14 (needed for its DAP interpreter) found{}; install one with `pip install gdb-for-pwndbg` \
                 or point DEBUGGER_MCP_GDB at it",
                if seen.is_empty() { String::new() } else { format!(" ({})", seen.join("; ")) }
            ))
        })
        .clone()
        .map_err(BackendError::Unsupported)
}

/// `x.size()` or `x.length()` (blanks around it aside): the receiver `x` and the method's name.
fn size_call(expression: &str) -> Option<(&str, &'static str)> {
    let e = expression.trim();
    let (receiver, method) = match e.strip_suffix(".size()") {
        Some(r) => (r, "size"),
        None => (e.strip_suffix(".length()")?, "length"),
    };
    (!receiver.is_empty()).then_some((receiver, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_elements_is_set_back_to_what_gdb_showed() {
        let back = |shown: &str| print_elements_restore(shown);
        assert_eq!(
            back("Limit on string chars or array elements to print is 100.\n").as_deref(),
            Some("set print elements 100")
        );
        assert_eq!(
            back("Limit on string chars or array elements to print is unlimited.").as_deref(),
            Some("set print elements unlimited")
        );
        assert_eq!(back("Undefined show print command"), None);
    }

    #[test]
    fn python_runs_as_one_cli_line() {
        assert_eq!(
            python_command("a = 'x\\\\y'\nprint(a)\n"),
            r"python exec('a = \'x\\\\y\'\nprint(a)\n')"
        );
        assert!(!python_command(SETTLE_AFTER_CALLS).contains('\n'));
    }

    #[test]
    fn parses_gdb_versions() {
        assert_eq!(gdb_major("GNU gdb (GDB) 18.1"), Some(18));
        assert_eq!(gdb_major("GNU gdb (Debian 13.1-3) 13.1"), Some(13));
    }

    #[test]
    fn info_program_names_the_signal() {
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

    #[test]
    fn hit_conditions_become_ignore_counts_and_chatter_is_dropped() {
        assert_eq!(
            (Gdb.hit_condition("3"), Gdb.hit_condition("x > 2")),
            ("2".into(), "x > 2".into())
        );
        assert!(Gdb.is_chatter(
            OutputCategory::Stdout,
            "Breakpoint 3 at 0x5555: file prog.c, line 36.\n"
        ));
        assert!(!Gdb.is_chatter(
            OutputCategory::Stdout,
            "Breakpoint 3 reached by the program\n"
        ));
        assert!(!Gdb.is_chatter(OutputCategory::Console, "No source file named x.c.\n"));
        assert_eq!(
            Gdb.debugger_says(
                OutputCategory::Stdout,
                "Error in testing condition for breakpoint 1:\n"
            ),
            Some(1)
        );
        assert_eq!(
            Gdb.debugger_says(OutputCategory::Stdout, "Error in testing condition (x)\n"),
            None
        );
    }

    #[test]
    fn size_calls_name_their_receiver() {
        assert_eq!(size_call(" waiting.size() "), Some(("waiting", "size")));
        assert_eq!(size_call("s.length()"), Some(("s", "length")));
        assert_eq!(size_call(".size()"), None);
        assert_eq!(size_call("waiting.size() + 1"), None);
        let inlined = "Cannot evaluate function -- may be inlined";
        assert_eq!(Gdb.size_receiver("q.length()", inlined), Some("q"));
        assert_eq!(Gdb.size_receiver("q.size()", "No symbol \"q\""), None);
        assert_eq!(
            Gdb.unknown_name("No symbol \"state\" in current context.").as_deref(),
            Some("state")
        );
        assert_eq!(Gdb.unknown_name("No symbol \"q\""), None);
    }
}
