//! debugpy (Python). Its quirks: the adapter's socket latency (an ACK bootstrap), values shown
//! cut (long strings, big collections: their real size is asked with `len()`), collections
//! listed as 100 items then "more" buckets, synthetic member groups, and Python command lines.

use super::{Adapter, ExceptionClass};
use debugger_mcp_core::backend::OutputCategory;
use crate::config::{Generic, Redirect, absolutize};
use crate::protocol::{
    self, EvaluateArguments, ExceptionOptions, ExceptionPathSegment, Variable, VariablesArguments,
};
use crate::session::Session;
use async_trait::async_trait;
use debugger_mcp_core::backend::{AttachTarget, BackendError, BackendResult, PrintFormat, ValueNode};
use serde_json::{Map, Value, json};
use std::path::Path;
use std::time::Duration;

/// Starts `debugpy.adapter` with its sockets acknowledging at once (TCP_QUICKACK after every
/// read). pydevd, inside the debuggee, writes each message as two `sendall`s (header, then
/// body) on a socket without TCP_NODELAY: Nagle holds the body until the header is
/// acknowledged, and the adapter's kernel delays that ACK by up to 40 ms. Every request that
/// goes through the debuggee (evaluate, stackTrace, most variables) then took ~44 ms; with the
/// adapter acknowledging immediately it takes ~1 ms (docs/DAP_LATENCY.md). Where the option
/// does not exist (not Linux) or debugpy reads differently, this is a plain `-m debugpy.adapter`.
/// `DEBUGGER_MCP_DEBUGPY_QUICKACK=0` turns it off.
/// The script is its own file so the agent-cost benchmark (tests/bench/agent_cost/raw_dap.py)
/// measures the same bootstrap.
const DEBUGPY_QUICKACK: &str = include_str!("debugpy_quickack.py");

/// What the debuggee runs instead of `python <debugpy dir> --connect …` (given as
/// `pythonArgs: [-X, frozen_modules=off, <this file>]`): the same start, minus debugpy's
/// description of the environment, which it computes for its log even when nothing is logged
/// (debugpy 1.8 `common/log.py` `describe_environment`: every installed package's metadata,
/// read twice in the debuggee, the second time after configurationDone under pydevd's tracer:
/// 1.2 s of a breakpoint's first stop at start-up here, BENCHMARKS.md "First stop of a Python
/// program"). `DEBUGGER_MCP_DEBUGPY_BOOTSTRAP=0` turns it off.
const DEBUGPY_BOOTSTRAP: &str = include_str!("debugpy_bootstrap.py");
/// Its file name: pydevd leaves files whose name starts with `<frozen ` out of stacks and never
/// stops in them (pydevd_constants.py `IGNORE_BASENAMES_STARTING_WITH`, read by pydevd.py
/// `_internal_get_file_type`), as it does debugpy's own `__main__.py`. Given as `-c` instead,
/// it would be a `<string>` frame, which pydevd takes for the program's own (`get_file_type`: a
/// top-level `<string>` is a `python -c` program): a stop on entry would land in it.
const BOOTSTRAP_NAME: &str = "<frozen debugger-mcp debugpy bootstrap";

/// The bootstrap's path: written once per server process into the user's own directory
/// (`<tmp>/debugger-mcp-<uid>-debugpy`, mode 0700, one for every server of that user), under a
/// name that holds a hash of its text, so servers of other versions keep their own. None (a
/// launch without it) when the directory is not this user's alone or cannot be written.
fn bootstrap_file() -> Option<&'static str> {
    static PATH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        #[cfg(unix)]
        // SAFETY: geteuid has no preconditions and cannot fail.
        let owner = unsafe { libc::geteuid() };
        #[cfg(not(unix))]
        let owner = 0;
        let dir = std::env::temp_dir().join(format!("debugger-mcp-{owner}-debugpy"));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(_) => return None,
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::symlink_metadata(&dir).ok()?;
            if !m.is_dir() || m.uid() != owner || m.mode() & 0o077 != 0 {
                return None;
            }
        }
        // FNV-1a of the text: the same name for the same bootstrap in every build.
        let hash = DEBUGPY_BOOTSTRAP.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let file = dir.join(format!("{BOOTSTRAP_NAME} {:08x}>.py", hash as u32));
        if std::fs::read_to_string(&file).ok().as_deref() != Some(DEBUGPY_BOOTSTRAP) {
            // Whole or not at all: another server may be starting a program from it.
            let part = dir.join(format!(".bootstrap-{}", std::process::id()));
            std::fs::write(&part, DEBUGPY_BOOTSTRAP).ok()?;
            std::fs::rename(&part, &file).ok()?;
        }
        Some(file.display().to_string())
    })
    .as_deref()
}

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

/// Items of a collection pydevd's repr shows, at the top and at each nested level, the last
/// slot being its `...` (its own: 60 and 20, and a third level elided as `[...]`, which the
/// core then rebuilds item by item).
const COLLECTION_ITEMS: (u32, u32, u32) = (300, 40, 40);

pub struct Debugpy;

#[async_trait]
impl Adapter for Debugpy {
    /// pydevd's `SafeRepr` cuts a string or other value inside a collection at 128 characters,
    /// in its middle with a bare `...` (`['aaaa...aaaZ']`), which no length or cut note
    /// reveals: raised to the core's whole-string bound, the core cutting rows itself and
    /// saying so. Its collection bounds (60 items of a list, 20 of a nested one, then `...`; a
    /// third level `[...]`) are raised too (twelfth set: 62 skipped devices read as 60 and `...` took a second capture):
    /// a list of a few hundred records fits the core's room for a value asked for, which cuts
    /// it and says so; a listing's rows are cut by the core at the value length as before.
    async fn after_configured(&self, s: &Session) {
        let bound = debugger_mcp_core::backend::WHOLE_STRING_CHARS;
        let (items, nested, deeper) = COLLECTION_ITEMS;
        let expression = format!(
            "[setattr(S, n, v) for S in [__import__('_pydevd_bundle.pydevd_safe_repr', fromlist=['SafeRepr']).SafeRepr] \
             for n, v in (('maxstring_inner', {bound}), ('maxother_inner', {bound}), ('maxcollection', ({items}, {nested}, {deeper})))]"
        );
        if let Err(e) = s.repl(&expression, None).await {
            tracing::debug!("raising pydevd's inner repr bounds failed: {e}");
        }
    }
    /// pydevd evaluates without a frame while the program runs (in its own thread): the
    /// modules' files, read and hashed where the program runs.
    async fn remote_sources(&self, s: &Session, names: &[String]) -> Vec<(String, String)> {
        let names = serde_json::to_string(names).unwrap_or_else(|_| "[]".into());
        let expression = format!(
            "(lambda os, h, names: '|'.join(p + ' ' + h.sha256(open(p, 'rb').read()).hexdigest() \
             for p in sorted({{os.path.abspath(getattr(m, '__file__', None) or '') for m in list(__import__('sys').modules.values()) \
             if os.path.basename(getattr(m, '__file__', None) or '') in names or getattr(m, '__name__', '') == '__main__'}}) \
             if os.path.isfile(p)))(__import__('os'), __import__('hashlib'), set({names}))"
        );
        let Ok(result) = s.repl(&expression, None).await else {
            return Vec::new();
        };
        result
            .trim_matches(['\'', '"'])
            .split('|')
            .filter_map(|row| {
                let (path, digest) = row.rsplit_once(' ')?;
                Some((path.to_string(), digest.to_string()))
            })
            .collect()
    }
    /// Python has its own conversions for what gdb's formats show.
    fn format_command(&self, f: &PrintFormat, e: &str) -> Result<String, String> {
        let write = |letter: char| match letter {
            'x' | 'z' | 'a' => Some(format!("hex({e})")),
            't' => Some(format!("bin({e})")),
            'o' => Some(format!("oct({e})")),
            'c' => Some(format!("chr({e})")),
            'd' | 'u' => Some(format!("int({e})")),
            'f' => Some(format!("float({e})")),
            's' => Some(format!("repr({e})")),
            _ => None,
        };
        Err(super::format_refusal(
            "Python (debugpy)",
            f,
            e,
            write,
            &format!("evaluate the bytes, e.g. bytes({e}[:16]).hex()"),
        ))
    }
    fn name(&self) -> &'static str {
        "debugpy"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["python", "py"]
    }

    fn command(&self, python: Option<&str>) -> BackendResult<(String, Vec<String>)> {
        // The adapter runs under the same interpreter as the debuggee by default; debugpy
        // must be importable there.
        let py = python
            .map(str::to_string)
            .or_else(|| std::env::var("DEBUGGER_MCP_PYTHON").ok())
            .unwrap_or_else(|| "python3".into());
        if std::env::var("DEBUGGER_MCP_DEBUGPY_QUICKACK").is_ok_and(|v| v == "0") {
            return Ok((py, vec!["-m".into(), "debugpy.adapter".into()]));
        }
        Ok((py, vec!["-c".into(), DEBUGPY_QUICKACK.into()]))
    }
    fn spawn_hint(&self) -> &'static str {
        "is debugpy installed for this Python? (pip install debugpy)"
    }
    /// pydevd suspends a thread from its trace function, so only at the next Python line it
    /// runs: a thread waiting in a call (accept, a sleep, a lock, C code) stops when that call
    /// returns, and a program whose every thread waits does not stop at all until one wakes
    /// (debugpy issue #1376). Servers that poll (socketserver's 0.5 s, an asyncio loop) stop
    /// within their poll interval.
    fn pause_pending_note(&self) -> Option<&'static str> {
        Some("debugpy stops a thread only when it runs Python code, and every thread is waiting in a call (accept, sleep, a lock, C code). Send the program work (a request) or set a breakpoint where it will run, then wait_for_pause")
    }

    fn parse_command(&self, cwd: &Path, words: &[String]) -> Option<BackendResult<Generic>> {
        is_python_exe(&words[0]).then(|| python_command(cwd, words))
    }
    fn claims_file_name(&self, name: &str) -> bool {
        name.ends_with(".py")
    }
    fn claims_file(&self, head: &[u8]) -> bool {
        head.starts_with(b"#!")
            && String::from_utf8_lossy(head)
                .lines()
                .next()
                .is_some_and(|l| l.contains("python"))
    }
    fn runs_modules(&self) -> bool {
        true
    }
    fn claims_process(&self, exe: &Path) -> u8 {
        let name = exe.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        if name.starts_with("python") { 2 } else { 0 }
    }
    /// By pid the adapter injects debugpy into the interpreter (`debugpy --pid`, through
    /// gdb); at an address, `debugpy --listen` is itself an adapter we connect to.
    fn attach_arguments(&self, target: &AttachTarget) -> Option<Map<String, Value>> {
        let mut a = Map::new();
        if let AttachTarget::Pid(pid) = target {
            a.insert("processId".into(), json!(pid));
        }
        a.insert("justMyCode".into(), json!(true));
        a.insert("showReturnValue".into(), json!(true));
        Some(a)
    }
    fn serves_dap_at_address(&self) -> bool {
        true
    }
    fn launch_arguments(&self, g: &Generic) -> Map<String, Value> {
        let mut a = g.base_arguments(false);
        if let Some(m) = &g.module {
            a.insert("module".into(), json!(m));
        }
        a.insert("console".into(), json!("internalConsole"));
        a.insert("justMyCode".into(), json!(true));
        // `(return) f` among the caller's locals after a step out: recorded calls read results there.
        a.insert("showReturnValue".into(), json!(true));
        if !g.env.is_empty() {
            a.insert("env".into(), Value::Object(g.env.clone()));
        }
        if let Some(p) = &g.python {
            a.insert("python".into(), json!([p]));
        }
        a
    }
    /// The bootstrap ([`DEBUGPY_BOOTSTRAP`]) goes after the user's own interpreter options,
    /// unless those already run something (`-c`, `-m`).
    fn debug_launch_arguments(&self, args: &mut Map<String, Value>) {
        if std::env::var("DEBUGGER_MCP_DEBUGPY_BOOTSTRAP").is_ok_and(|v| v == "0") {
            return;
        }
        let mut python_args: Vec<Value> = match args.get("pythonArgs") {
            None => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(_) => return,
        };
        if python_args
            .iter()
            .any(|a| matches!(a.as_str(), Some("-c" | "-m") | None))
        {
            return;
        }
        let Some(file) = bootstrap_file() else {
            return;
        };
        python_args.extend(["-X", "frozen_modules=off", file].map(|s| json!(s)));
        args.insert("pythonArgs".into(), Value::Array(python_args));
    }
    fn adapt_launch_json(
        &self,
        _type_name: &str,
        entry: &Map<String, Value>,
        cwd: &Path,
        args: &mut Map<String, Value>,
    ) -> Option<String> {
        // No terminal headless: the debuggee's output must come back as output events.
        args.insert("console".into(), json!("internalConsole"));
        args.entry("cwd")
            .or_insert(json!(cwd.display().to_string()));
        match entry.get("python") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(a)) => a.first().and_then(Value::as_str).map(str::to_string),
            _ => None,
        }
    }
    /// debugpy's launcher sends a killed program's negative return code as its low byte
    /// (SIGKILL: -9 → 247). 225 to 254 are read as signals 31 to 2; 255 stays a status:
    /// `sys.exit(-1)` is far more common than a SIGHUP.
    fn exit_code(&self, code: i64) -> i64 {
        match code {
            225..=254 => code - 256,
            c => c,
        }
    }
    fn entry_stop_arguments(&self, args: &mut Map<String, Value>) {
        args.insert("stopOnEntry".into(), json!(true));
    }
    /// debugpy's launcher runs `python` (a list) before its own arguments: a shell that points
    /// the streams and execs the interpreter, so the debuggee is still Python itself. Its
    /// launcher runs under `debugLauncherPython`, else `python[0]`: the interpreter.
    fn redirect(
        &self,
        redirects: &[Redirect],
        g: &Generic,
        args: &mut Map<String, Value>,
    ) -> Result<(), String> {
        if !cfg!(unix) {
            return Err("redirections need a POSIX shell, which this system lacks".into());
        }
        let python = g
            .python
            .clone()
            .or_else(|| std::env::var("DEBUGGER_MCP_PYTHON").ok())
            .unwrap_or_else(|| "python3".into());
        let streams: Vec<String> = redirects.iter().map(Redirect::shell).collect();
        let script = format!("exec \"$0\" \"$@\" {}", streams.join(" "));
        args.insert("python".into(), json!(["/bin/sh", "-c", script, python]));
        args.insert("debugLauncherPython".into(), json!(python));
        Ok(())
    }

    /// debugpy 1.8 answers every function breakpoint "verified" (a name that exists nowhere
    /// too), then compares it with the bare name of each call (`add_item`, never
    /// `Cart.add_item` or `json.loads`), and under justMyCode in the project's code only.
    fn function_breakpoints_refused(&self) -> Option<&'static str> {
        Some("debugpy matches function breakpoints only against bare names of calls in the project's own code, and accepts any name")
    }
    fn stop_on_exception_filters(&self) -> &'static [&'static str] {
        &["uncaught", "userUnhandled"]
    }
    /// "raised" stops at the raise in the project's code (justMyCode leaves libraries out).
    fn step_exception_filters(&self) -> &'static [&'static str] {
        &["raised"]
    }
    fn catch_all_filters(&self) -> (&'static [&'static str], &'static [&'static str]) {
        (&["raised"], &["uncaught"])
    }
    fn exception_class_options(
        &self,
        filters: &[String],
        classes: &[ExceptionClass],
    ) -> Option<Vec<ExceptionOptions>> {
        Some(class_options(filters, classes))
    }

    /// pydevd evaluates a failing condition as false and says so on the console only
    /// ("pydevd: Error while evaluating expression in conditional breakpoint: x +* 2").
    fn failed_condition<'a>(&self, category: OutputCategory, text: &'a str) -> Option<&'a str> {
        let rest = text
            .trim_start()
            .strip_prefix("pydevd: Error while evaluating expression in conditional breakpoint:")?;
        (category == OutputCategory::Console).then(|| rest.lines().next().unwrap_or("").trim())
    }
    fn is_synthetic_group(&self, name: &str) -> bool {
        SYNTHETIC_GROUPS.contains(&name)
    }

    /// debugpy renders values cut: a long string keeps its first and last 32 K characters, a
    /// big collection its first items then "...". For such values (at most SIZE_LOOKUPS per
    /// call) the real size is asked with a bounded `len(...)` of the value's evaluateName:
    /// `child_count` for collections, `value_length` for strings. Builtin types only, whose
    /// `len` has no side effects.
    async fn real_sizes(&self, s: &Session, nodes: &mut [ValueNode], frame_id: Option<i64>) {
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
            let args = EvaluateArguments {
                expression: format!("len({expr})"),
                frame_id,
                context: "watch",
            };
            let Ok(body) = s.req_t::<protocol::Evaluate>(&args, SIZE_TIMEOUT).await else {
                continue;
            };
            let Ok(len) = body.result.trim().parse::<u64>() else {
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

    async fn page(
        &self,
        s: &Session,
        mut all: Vec<Variable>,
        offset: u32,
        limit: u32,
    ) -> BackendResult<(Vec<Variable>, u64)> {
        // The "special variables"/"function variables" groups come first; they are not
        // program values and would shift offsets (offset 25 of a list must be item 25).
        all.retain(|v| !matches!(v.name.as_str(), "special variables" | "function variables"));
        // A collection shows its first 100 items, then "more" (buckets of the rest) and
        // "len()" (its real size): a 5,000-item list must read as 5,000, and its item 4,000
        // must be reachable by offset.
        let take_named = |all: &mut Vec<Variable>, name: &str| {
            let i = all.iter().position(|v| v.name == name)?;
            Some(all.remove(i))
        };
        let real_len =
            take_named(&mut all, "len()").and_then(|v| v.value.trim().parse::<u64>().ok());
        let more = if real_len.is_some() {
            take_named(&mut all, "more")
                .map(|v| v.variables_reference)
                .filter(|r| *r > 0)
        } else {
            None
        };
        let end = offset as u64 + limit as u64;
        let mut page: Vec<Variable> = all
            .iter()
            .skip(offset as usize)
            .take(limit as usize)
            .cloned()
            .collect();
        if let Some(more) = more
            && end > all.len() as u64
        {
            page.extend(more_items(s, more, all.len() as u64, offset as u64, end).await?);
        }
        Ok((page, real_len.unwrap_or(all.len() as u64)))
    }
}

/// Items `[from, end)` of a collection beyond its first `first` items, from the buckets under
/// its "more" node (named "[100:1100]", "[1100:2100]", …).
async fn more_items(
    s: &Session,
    more: i64,
    first: u64,
    from: u64,
    end: u64,
) -> BackendResult<Vec<Variable>> {
    let body = s
        .req::<protocol::Variables>(&VariablesArguments::all(more))
        .await?;
    let mut out = Vec::new();
    let mut next = first;
    for b in body.variables {
        let range = b
            .name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .and_then(|n| n.split_once(':'))
            .and_then(|(a, z)| {
                Some((a.trim().parse::<u64>().ok()?, z.trim().parse::<u64>().ok()?))
            });
        let r = b.variables_reference;
        let (a, z) = match range {
            Some(az) if r > 0 => az,
            // Not a bucket (only one bucket's worth left: the items are listed inline).
            _ => {
                if (from..end).contains(&next) {
                    out.push(b);
                }
                next += 1;
                continue;
            }
        };
        next = z;
        if z <= from || a >= end {
            continue;
        }
        let items = s
            .req::<protocol::Variables>(&VariablesArguments::all(r))
            .await?;
        let items = items.variables.into_iter().filter(|v| {
            !matches!(
                v.name.as_str(),
                "special variables" | "function variables" | "len()"
            )
        });
        for (i, v) in items.enumerate() {
            if (from..end).contains(&(a + i as u64)) {
                out.push(v);
            }
        }
    }
    Ok(out)
}

/// An expression that only names a value (`records`, `tree['child']`, `self.items[3]`): safe
/// to evaluate again, unlike one with a call.
fn is_plain_path(e: &str) -> bool {
    !e.is_empty()
        && !e.contains('(')
        && e.chars()
            .all(|c| c.is_alphanumeric() || "_.[]'\"-".contains(c))
}

/// pydevd reads `exceptionOptions` as `[["Python Exceptions"], [class names]]` with a break
/// mode, and once options are given it ignores `filters` (pydevd_process_net_command_json.py,
/// `on_setexceptionbreakpoints_request`): the filters go in as options on every exception.
/// It keeps one entry per class name, the last one sent, so each class gets one mode: `always`
/// (where raised, caught or not) when caught ones are wanted, else `unhandled`; the filters,
/// all on BaseException, become the widest one of them.
fn class_options(filters: &[String], classes: &[ExceptionClass]) -> Vec<ExceptionOptions> {
    let option = |names: Vec<String>, mode: &str| {
        let mut path = vec![ExceptionPathSegment {
            names: vec!["Python Exceptions".into()],
        }];
        if !names.is_empty() {
            path.push(ExceptionPathSegment { names });
        }
        ExceptionOptions {
            path,
            break_mode: mode.into(),
        }
    };
    let mut out = Vec::new();
    // BaseException: what the filters mean; first, so a class named below overrides it.
    let widest = [
        ("raised", "always"),
        ("uncaught", "unhandled"),
        ("userUnhandled", "userUnhandled"),
    ]
    .into_iter()
    .find(|(f, _)| filters.iter().any(|x| x == f));
    if let Some((_, mode)) = widest {
        out.push(option(vec![], mode));
    }
    for c in classes {
        let mode = if c.caught {
            "always"
        } else if c.uncaught {
            "unhandled"
        } else {
            continue;
        };
        out.push(option(vec![c.name.clone()], mode));
    }
    out
}

fn is_python_exe(word: &str) -> bool {
    let base = Path::new(word)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    base == "python"
        || base.starts_with("python3")
        || base.starts_with("python2")
        || base == "pypy3"
}

/// `python3 [options] script.py args…` or `python3 -m module args…`.
fn python_command(cwd: &Path, words: &[String]) -> BackendResult<Generic> {
    let first = &words[0];
    let mut g = Generic {
        python: Some(first.clone()),
        ..Default::default()
    };
    let mut rest = words[1..].iter().cloned().peekable();
    // Skip interpreter options that come before the script (e.g. -u, -X dev).
    while let Some(w) = rest.peek().cloned() {
        if w == "-m" {
            rest.next();
            g.module = rest.next();
            break;
        } else if w == "-c" {
            // `python -c "import m; m.f(1)"`: debugpy's `code` launch, not a script path.
            rest.next();
            if let Some(code) = rest.next() {
                g.extra.insert("code".into(), json!(code));
            }
            break;
        } else if w.starts_with('-') {
            rest.next();
            if matches!(w.as_str(), "-X" | "-W") {
                rest.next();
            }
        } else {
            g.program = rest
                .next()
                .map(|p| absolutize(cwd, &p).display().to_string());
            break;
        }
    }
    if g.program.is_none() && g.module.is_none() && !g.extra.contains_key("code") {
        return Err(BackendError::Failed(format!(
            "'{first}' needs a script, -m module or -c code to debug"
        )));
    }
    // Caught here, the mistake gets a clear error instead of a session that ends at once.
    if let Some(p) = &g.program
        && !Path::new(p).is_file()
    {
        return Err(BackendError::NotFound(format!("script '{p}'")));
    }
    g.args = rest.collect();
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::super::ExceptionClass;

    #[test]
    fn exception_classes_become_pydevd_options_with_the_filters_beside_them() {
        let classes = [
            ExceptionClass {
                name: "KeyError".into(),
                caught: true,
                uncaught: true,
            },
            ExceptionClass {
                name: "ValueError".into(),
                caught: false,
                uncaught: true,
            },
        ];
        let o = super::class_options(&["uncaught".into(), "userUnhandled".into()], &classes);
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(
            v,
            serde_json::json!([
                {"path": [{"names": ["Python Exceptions"]}], "breakMode": "unhandled"},
                {"path": [{"names": ["Python Exceptions"]}, {"names": ["KeyError"]}], "breakMode": "always"},
                {"path": [{"names": ["Python Exceptions"]}, {"names": ["ValueError"]}], "breakMode": "unhandled"},
            ])
        );
    }

    use super::is_plain_path;

    #[test]
    fn only_plain_paths_are_evaluated_again() {
        assert!(is_plain_path("self.items[3]") && is_plain_path("tree['child']"));
        assert!(!is_plain_path("pop()") && !is_plain_path("a + b") && !is_plain_path(""));
    }
}
