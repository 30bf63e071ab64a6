//! Run configurations headless: `.vscode/launch.json` entries, `[[launch]]` tables of
//! `debugger-mcp.toml`, and command lines ("trap and trigger"). Each resolves to the adapter to
//! start and the DAP `launch`/`attach` arguments to send.

use debugger_mcp_core::backend::{BackendError, LaunchRequest, RunConfigInfo};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdapterKind {
    Debugpy,
    Gdb,
    Lldb,
    Delve,
}

impl AdapterKind {
    pub fn parse(s: &str) -> Result<Self, BackendError> {
        match s.to_ascii_lowercase().as_str() {
            "debugpy" | "python" | "py" => Ok(Self::Debugpy),
            "gdb" | "cppdbg" => Ok(Self::Gdb),
            "lldb" | "lldb-dap" | "lldb-vscode" | "codelldb" => Ok(Self::Lldb),
            "delve" | "dlv" | "go" => Ok(Self::Delve),
            other => Err(BackendError::Unsupported(format!(
                "unknown adapter '{other}'; use one of debugpy, gdb, lldb, delve"
            ))),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Self::Debugpy => "debugpy",
            Self::Gdb => "gdb",
            Self::Lldb => "lldb",
            Self::Delve => "delve",
        }
    }
}

/// Everything needed to start one session.
#[derive(Debug, Clone)]
pub struct ResolvedLaunch {
    pub name: String,
    pub adapter: AdapterKind,
    /// "launch" or "attach".
    pub request: String,
    /// DAP arguments of the launch/attach request, already in the adapter's dialect.
    pub arguments: Map<String, Value>,
    /// Working directory of the adapter process.
    pub cwd: PathBuf,
    pub run_configuration: Option<String>,
    /// Python interpreter to run debugpy's adapter with (launch.json `python`).
    pub python: Option<String>,
    pub stop_on_entry: bool,
    pub stop_on_exception: bool,
}

/// Adapter-neutral launch description, turned into each adapter's dialect by `to_arguments`.
#[derive(Debug, Clone, Default)]
struct Generic {
    program: Option<String>,
    module: Option<String>,
    args: Vec<String>,
    cwd: Option<String>,
    env: Map<String, Value>,
    python: Option<String>,
    /// delve's launch mode when the command said it (`go test` → "test", `go run` → "debug").
    go_mode: Option<&'static str>,
    /// `go build` flags of a `go run`/`go test` command (delve's `buildFlags`).
    build_flags: Vec<String>,
}

const UNRESOLVABLE: &[&str] = &[
    "file",
    "fileBasename",
    "fileBasenameNoExtension",
    "fileDirname",
    "fileExtname",
    "relativeFile",
    "relativeFileDirname",
    "fileWorkspaceFolder",
    "lineNumber",
    "selectedText",
    "execPath",
    "defaultBuildTask",
    "cwd",
];

/// Substitutes VS Code variables that make sense headless; anything that needs an editor (the
/// current file, a selection, an input prompt, a command) is a clear error.
pub fn substitute(s: &str, root: &Path, config: &str) -> Result<String, BackendError> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        let var = &after[..end];
        let value = match var {
            "workspaceFolder" | "workspaceRoot" => root.display().to_string(),
            "workspaceFolderBasename" => root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            "userHome" => std::env::var("HOME").unwrap_or_default(),
            "pathSeparator" | "/" => std::path::MAIN_SEPARATOR.to_string(),
            v if v.starts_with("env:") => std::env::var(&v[4..]).unwrap_or_default(),
            v if UNRESOLVABLE.contains(&v)
                || v.starts_with("input:")
                || v.starts_with("command:")
                || v.starts_with("config:") =>
            {
                return Err(BackendError::Failed(format!(
                    "run configuration '{config}' uses ${{{v}}}, which needs an editor and cannot be resolved headless; \
                     use a debugger-mcp.toml [[launch]] entry or start the session from a command instead"
                )));
            }
            v => {
                return Err(BackendError::Failed(format!(
                    "run configuration '{config}' uses the unknown variable ${{{v}}}"
                )));
            }
        };
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn substitute_value(v: &mut Value, root: &Path, config: &str) -> Result<(), BackendError> {
    match v {
        Value::String(s) => *s = substitute(s, root, config)?,
        Value::Array(a) => {
            for x in a {
                substitute_value(x, root, config)?;
            }
        }
        Value::Object(o) => {
            for (_, x) in o.iter_mut() {
                substitute_value(x, root, config)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// One configuration as found in a file.
#[derive(Debug, Clone)]
enum Entry {
    LaunchJson(Map<String, Value>),
    Toml(Map<String, Value>),
}

fn read_launch_json(root: &Path) -> Result<Vec<Map<String, Value>>, BackendError> {
    let path = root.join(".vscode").join("launch.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(vec![]);
    };
    // VS Code writes JSON with comments and trailing commas; JSON5 reads both.
    let doc: Value = json5::from_str(&text).map_err(|e| {
        BackendError::Failed(format!(
            "{} is not valid JSON (with comments): {e}",
            path.display()
        ))
    })?;
    Ok(doc
        .get("configurations")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|c| c.as_object().cloned()).collect())
        .unwrap_or_default())
}

fn read_toml(root: &Path) -> Result<Vec<Map<String, Value>>, BackendError> {
    let path = root.join("debugger-mcp.toml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(vec![]);
    };
    let doc: toml::Table = toml::from_str(&text)
        .map_err(|e| BackendError::Failed(format!("{} is not valid TOML: {e}", path.display())))?;
    let Some(launch) = doc.get("launch") else {
        return Ok(vec![]);
    };
    let launch = serde_json::to_value(launch).map_err(|e| BackendError::Failed(e.to_string()))?;
    let arr = launch.as_array().ok_or_else(|| {
        BackendError::Failed(format!(
            "{}: 'launch' must be an array of tables ([[launch]])",
            path.display()
        ))
    })?;
    Ok(arr.iter().filter_map(|c| c.as_object().cloned()).collect())
}

fn entries(root: &Path) -> Result<Vec<(String, Entry)>, BackendError> {
    let mut out = Vec::new();
    for c in read_launch_json(root)? {
        if let Some(name) = c.get("name").and_then(Value::as_str) {
            out.push((name.to_string(), Entry::LaunchJson(c)));
        }
    }
    for c in read_toml(root)? {
        if let Some(name) = c.get("name").and_then(Value::as_str) {
            out.push((name.to_string(), Entry::Toml(c)));
        }
    }
    Ok(out)
}

pub fn list(root: &Path) -> Result<Vec<RunConfigInfo>, BackendError> {
    Ok(entries(root)?
        .into_iter()
        .map(|(name, e)| match e {
            Entry::LaunchJson(c) => RunConfigInfo {
                name,
                type_name: c
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                type_id: c
                    .get("request")
                    .and_then(Value::as_str)
                    .unwrap_or("launch")
                    .to_string(),
                can_run: true,
                can_debug: true,
                source: Some(".vscode/launch.json".into()),
                description: c
                    .get("program")
                    .or(c.get("module"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                ..Default::default()
            },
            Entry::Toml(c) => RunConfigInfo {
                name,
                type_name: c
                    .get("adapter")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                type_id: "launch".into(),
                can_run: true,
                can_debug: true,
                source: Some("debugger-mcp.toml".into()),
                description: c
                    .get("command")
                    .or(c.get("program"))
                    .or(c.get("module"))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                ..Default::default()
            },
        })
        .collect())
}

/// Resolves a named configuration or a command line into what to start.
pub fn resolve(root: &Path, req: &LaunchRequest) -> Result<ResolvedLaunch, BackendError> {
    let mut resolved = if let Some(name) = &req.configuration {
        let all = entries(root)?;
        let Some((_, entry)) = all.iter().find(|(n, _)| n == name) else {
            let names: Vec<_> = all.iter().map(|(n, _)| format!("'{n}'")).collect();
            return Err(BackendError::NotFound(format!(
                "run configuration '{name}' (known: {})",
                if names.is_empty() {
                    "none; add .vscode/launch.json or debugger-mcp.toml [[launch]] entries".into()
                } else {
                    names.join(", ")
                }
            )));
        };
        match entry {
            Entry::LaunchJson(c) => from_launch_json(root, name, c, req)?,
            Entry::Toml(c) => from_toml(root, name, c, req)?,
        }
    } else if let Some(cmd) = &req.command {
        let cwd = req
            .cwd
            .as_deref()
            .map(|c| absolutize(root, c))
            .unwrap_or_else(|| root.to_path_buf());
        let words = split_command(cmd)?;
        let adapter = req.adapter.as_deref().map(AdapterKind::parse).transpose()?;
        let (adapter, g) = from_words(&cwd, words, adapter)?;
        // `go test` runs in the package's directory, as the go tool does.
        let g = Generic {
            cwd: g.cwd.clone().or_else(|| Some(cwd.display().to_string())),
            ..g
        };
        ResolvedLaunch {
            name: cmd.clone(),
            adapter,
            request: "launch".into(),
            arguments: to_arguments(adapter, &g),
            cwd,
            run_configuration: None,
            python: g.python.clone(),
            stop_on_entry: false,
            stop_on_exception: false,
        }
    } else {
        return Err(BackendError::Failed(
            "give either a run configuration name or a command to start".into(),
        ));
    };
    if resolved.adapter == AdapterKind::Delve && resolved.request == "launch" {
        delve_defaults(&mut resolved.arguments);
    }
    apply_flags(&mut resolved, req);
    Ok(resolved)
}

/// delve's launch arguments where the configuration left them open: the mode from the program
/// (VS Code Go's "auto": a `_test.go` file → test, a package directory or .go file → debug,
/// anything else → exec), and the binary it builds in a temporary directory rather than as
/// `__debug_bin` in the user's project (delve removes it when the session ends).
fn delve_defaults(a: &mut Map<String, Value>) {
    let program = a
        .get("program")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if matches!(a.get("mode").and_then(Value::as_str), None | Some("auto")) {
        let mode = if program.ends_with("_test.go") {
            "test"
        } else if program.ends_with(".go") || Path::new(&program).is_dir() {
            "debug"
        } else {
            "exec"
        };
        a.insert("mode".into(), json!(mode));
    }
    let builds = matches!(
        a.get("mode").and_then(Value::as_str),
        Some("debug" | "test")
    );
    if builds && !a.contains_key("output") {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = std::env::temp_dir().join(format!("debugger-mcp-dlv-{}-{n}", std::process::id()));
        a.insert("output".into(), json!(out.display().to_string()));
    }
}

/// Applies stop_on_entry, stop_on_exception and run mode in each adapter's dialect.
fn apply_flags(r: &mut ResolvedLaunch, req: &LaunchRequest) {
    r.stop_on_entry |= req.stop_on_entry;
    r.stop_on_exception |= req.stop_on_exception;
    // delve's own stopOnEntry stops before the Go runtime has a goroutine, where no stack trace
    // can be had; the backend stops at main.main instead (see `configure`).
    if r.adapter == AdapterKind::Delve
        && r.arguments.remove("stopOnEntry").and_then(|v| v.as_bool()) == Some(true)
    {
        r.stop_on_entry = true;
    }
    let a = &mut r.arguments;
    if r.stop_on_entry {
        match r.adapter {
            // gdb's stopOnEntry stops at the first instruction (in the dynamic loader); what a
            // user means is the start of main.
            AdapterKind::Gdb => {
                a.insert("stopAtBeginningOfMainSubprogram".into(), json!(true));
            }
            // lldb-dap's stopOnEntry stops in the dynamic loader too; the backend sets a
            // function breakpoint on `main` instead (see `configure`).
            AdapterKind::Lldb | AdapterKind::Delve => {}
            AdapterKind::Debugpy => {
                a.insert("stopOnEntry".into(), json!(true));
            }
        }
    }
    if req.mode == debugger_mcp_core::backend::LaunchMode::Run {
        a.insert("noDebug".into(), json!(true));
    }
}

fn absolutize(root: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        root.join(p)
    }
}

const VSCODE_ONLY: &[&str] = &[
    "name",
    "type",
    "request",
    "preLaunchTask",
    "postDebugTask",
    "presentation",
    "internalConsoleOptions",
    "debugServer",
    "windows",
    "osx",
    "linux",
    "serverReadyAction",
    "purpose",
];

fn from_launch_json(
    root: &Path,
    name: &str,
    c: &Map<String, Value>,
    req: &LaunchRequest,
) -> Result<ResolvedLaunch, BackendError> {
    let mut c = Value::Object(c.clone());
    substitute_value(&mut c, root, name)?;
    let c = c.as_object().unwrap().clone();
    let type_name = c.get("type").and_then(Value::as_str).unwrap_or("");
    let adapter = match req.adapter.as_deref() {
        Some(a) => AdapterKind::parse(a)?,
        None => AdapterKind::parse(type_name).map_err(|_| {
            BackendError::Unsupported(format!(
                "run configuration '{name}' has type '{type_name}', which the headless DAP backend cannot start \
                 (supported: debugpy/python, cppdbg/gdb, lldb/lldb-dap, go/delve)"
            ))
        })?,
    };
    let request = c
        .get("request")
        .and_then(Value::as_str)
        .unwrap_or("launch")
        .to_string();
    let cwd = c
        .get("cwd")
        .and_then(Value::as_str)
        .map(|p| absolutize(root, p))
        .unwrap_or_else(|| root.to_path_buf());
    let mut args: Map<String, Value> = c
        .iter()
        .filter(|(k, _)| !VSCODE_ONLY.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut python = None;
    match (adapter, type_name) {
        (AdapterKind::Gdb, "cppdbg") => {
            // Microsoft's cpptools dialect → gdb's own DAP dialect.
            let mut g = Generic {
                program: c.get("program").and_then(Value::as_str).map(str::to_string),
                args: str_list(c.get("args")),
                cwd: Some(cwd.display().to_string()),
                ..Default::default()
            };
            if let Some(env) = c.get("environment").and_then(Value::as_array) {
                for e in env {
                    if let (Some(n), Some(v)) =
                        (e.get("name").and_then(Value::as_str), e.get("value"))
                    {
                        g.env.insert(n.into(), v.clone());
                    }
                }
            }
            args = to_arguments(adapter, &g);
            if c.get("stopAtEntry").and_then(Value::as_bool) == Some(true) {
                args.insert("stopAtBeginningOfMainSubprogram".into(), json!(true));
            }
        }
        (AdapterKind::Debugpy, _) => {
            // No terminal headless: the debuggee's output must come back as output events.
            args.insert("console".into(), json!("internalConsole"));
            args.entry("cwd")
                .or_insert(json!(cwd.display().to_string()));
            python = match c.get("python") {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Array(a)) => a.first().and_then(Value::as_str).map(str::to_string),
                _ => None,
            };
        }
        _ => {
            args.entry("cwd")
                .or_insert(json!(cwd.display().to_string()));
        }
    }
    Ok(ResolvedLaunch {
        name: name.to_string(),
        adapter,
        request,
        arguments: args,
        cwd,
        run_configuration: Some(name.to_string()),
        python,
        stop_on_entry: false,
        stop_on_exception: false,
    })
}

fn str_list(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .collect(),
        Some(Value::String(s)) => split_command(s).unwrap_or_default(),
        _ => vec![],
    }
}

const TOML_KEYS: &[&str] = &[
    "name",
    "adapter",
    "command",
    "program",
    "module",
    "args",
    "cwd",
    "env",
    "python",
    "request",
    "stop_on_entry",
    "stop_on_exception",
    "adapter_args",
];

fn from_toml(
    root: &Path,
    name: &str,
    c: &Map<String, Value>,
    req: &LaunchRequest,
) -> Result<ResolvedLaunch, BackendError> {
    let mut cv = Value::Object(c.clone());
    substitute_value(&mut cv, root, name)?;
    let c = cv.as_object().unwrap();
    if let Some(bad) = c.keys().find(|k| !TOML_KEYS.contains(&k.as_str())) {
        return Err(BackendError::Failed(format!(
            "debugger-mcp.toml [[launch]] '{name}': unknown key '{bad}' (known: {})",
            TOML_KEYS.join(", ")
        )));
    }
    let cwd = c
        .get("cwd")
        .and_then(Value::as_str)
        .map(|p| absolutize(root, p))
        .unwrap_or_else(|| root.to_path_buf());
    let adapter = req
        .adapter
        .as_deref()
        .or(c.get("adapter").and_then(Value::as_str))
        .map(AdapterKind::parse)
        .transpose()?;
    let (adapter, mut g) = if let Some(cmd) = c.get("command").and_then(Value::as_str) {
        from_words(&cwd, split_command(cmd)?, adapter)?
    } else if let Some(module) = c.get("module").and_then(Value::as_str) {
        (
            adapter.unwrap_or(AdapterKind::Debugpy),
            Generic {
                module: Some(module.into()),
                ..Default::default()
            },
        )
    } else if let Some(program) = c.get("program").and_then(Value::as_str) {
        let (a, mut g) = from_words(&cwd, vec![program.to_string()], adapter)?;
        g.args.clear();
        (a, g)
    } else {
        return Err(BackendError::Failed(format!(
            "debugger-mcp.toml [[launch]] '{name}' needs one of 'command', 'program' or 'module'"
        )));
    };
    g.args.extend(str_list(c.get("args")));
    // A `go test` command runs in its package's directory unless the entry says otherwise.
    if g.cwd.is_none() || c.contains_key("cwd") {
        g.cwd = Some(cwd.display().to_string());
    }
    if let Some(env) = c.get("env").and_then(Value::as_object) {
        for (k, v) in env {
            g.env.insert(
                k.clone(),
                Value::String(
                    v.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string()),
                ),
            );
        }
    }
    if let Some(p) = c.get("python").and_then(Value::as_str) {
        g.python = Some(p.to_string());
    }
    let mut arguments = to_arguments(adapter, &g);
    if let Some(extra) = c.get("adapter_args").and_then(Value::as_object) {
        for (k, v) in extra {
            arguments.insert(k.clone(), v.clone());
        }
    }
    let flag = |k: &str| c.get(k).and_then(Value::as_bool) == Some(true);
    Ok(ResolvedLaunch {
        name: name.to_string(),
        adapter,
        request: c
            .get("request")
            .and_then(Value::as_str)
            .unwrap_or("launch")
            .to_string(),
        arguments,
        cwd,
        run_configuration: Some(name.to_string()),
        python: g.python,
        stop_on_entry: flag("stop_on_entry"),
        stop_on_exception: flag("stop_on_exception"),
    })
}

fn to_arguments(adapter: AdapterKind, g: &Generic) -> Map<String, Value> {
    let mut a = Map::new();
    if let Some(p) = &g.program {
        a.insert("program".into(), json!(p));
    }
    if !g.args.is_empty() || adapter != AdapterKind::Debugpy {
        a.insert("args".into(), json!(g.args));
    }
    if let Some(c) = &g.cwd {
        a.insert("cwd".into(), json!(c));
    }
    match adapter {
        AdapterKind::Debugpy => {
            if let Some(m) = &g.module {
                a.insert("module".into(), json!(m));
            }
            a.insert("console".into(), json!("internalConsole"));
            a.insert("justMyCode".into(), json!(true));
            if !g.env.is_empty() {
                a.insert("env".into(), Value::Object(g.env.clone()));
            }
            if let Some(p) = &g.python {
                a.insert("python".into(), json!([p]));
            }
        }
        AdapterKind::Gdb | AdapterKind::Delve => {
            if !g.env.is_empty() {
                a.insert("env".into(), Value::Object(g.env.clone()));
            }
            // Otherwise delve_defaults infers it from the program.
            if let Some(m) = g.go_mode {
                a.insert("mode".into(), json!(m));
            }
            if !g.build_flags.is_empty() {
                let quoted: Vec<String> = g
                    .build_flags
                    .iter()
                    .map(|f| {
                        if f.contains(' ') {
                            format!("'{f}'")
                        } else {
                            f.clone()
                        }
                    })
                    .collect();
                a.insert("buildFlags".into(), json!(quoted.join(" ")));
            }
        }
        AdapterKind::Lldb => {
            if !g.env.is_empty() {
                let list: Vec<String> = g
                    .env
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                    .collect();
                a.insert("env".into(), json!(list));
            }
        }
    }
    a
}

/// Splits a command line like a POSIX shell would for words and quotes (no expansion).
pub fn split_command(s: &str) -> Result<Vec<String>, BackendError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated ' quote in command: {s}"
                            )));
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x)
                            }
                            None => {
                                return Err(BackendError::Failed(format!(
                                    "unterminated \" quote in command: {s}"
                                )));
                            }
                        },
                        Some(x) => cur.push(x),
                        None => {
                            return Err(BackendError::Failed(format!(
                                "unterminated \" quote in command: {s}"
                            )));
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    if out.is_empty() {
        return Err(BackendError::Failed("the command is empty".into()));
    }
    Ok(out)
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

fn which(word: &str, cwd: &Path) -> Option<PathBuf> {
    if word.contains('/') {
        let p = absolutize(cwd, word);
        return p.exists().then_some(p);
    }
    let local = cwd.join(word);
    if local.is_file() {
        return Some(local);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(word))
            .find(|p| p.is_file())
    })
}

/// `go build` flags that take a value (the rest are booleans).
const GO_BUILD_VALUE_FLAGS: &[&str] = &[
    "tags",
    "ldflags",
    "gcflags",
    "asmflags",
    "mod",
    "modfile",
    "p",
    "overlay",
    "pgo",
    "covermode",
    "coverpkg",
];
const GO_BUILD_BOOL_FLAGS: &[&str] = &[
    "race", "msan", "asan", "trimpath", "cover", "a", "n", "x", "work", "buildvcs",
];
/// `go test` flags the test binary takes as `-test.<name>`, and whether they take a value.
const GO_TEST_FLAGS: &[(&str, bool)] = &[
    ("run", true),
    ("skip", true),
    ("v", false),
    ("count", true),
    ("timeout", true),
    ("short", false),
    ("failfast", false),
    ("bench", true),
    ("benchtime", true),
    ("benchmem", false),
    ("cpu", true),
    ("parallel", true),
    ("list", true),
    ("shuffle", true),
];

/// `go run PKG|FILE.go [args…]` and `go test [PKG] [flags]` as delve launches: the package
/// (a directory or .go file, relative to `cwd`) is what `dlv debug`/`dlv test` would build;
/// `go test`'s flags become the test binary's (`-run X` → `-test.run X`) and build flags
/// delve's `buildFlags`. One package at a time: delve debugs one process.
fn from_go_command(cwd: &Path, words: &[String]) -> Result<Generic, BackendError> {
    let test = words[1] == "test";
    let verb = if test { "go test" } else { "go run" };
    let mut g = Generic {
        go_mode: Some(if test { "test" } else { "debug" }),
        ..Default::default()
    };
    let mut package: Option<String> = None;
    let mut rest = words[2..].iter();
    while let Some(w) = rest.next() {
        let is_flag = w.starts_with('-') && w.len() > 1;
        if !is_flag {
            if package.is_none() {
                package = Some(w.clone());
                continue;
            }
            if test {
                return Err(BackendError::Failed(format!(
                    "'{verb}' with more than one package ('{}', '{w}'): the debugger runs one package's tests at a time",
                    package.unwrap_or_default()
                )));
            }
            // go run: everything after the package is the program's.
            g.args.push(w.clone());
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        if !test && package.is_some() {
            g.args.push(w.clone());
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        if test && (w == "-args" || w == "--args") {
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        let body = w.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let mut value = |takes: bool| -> Result<Option<String>, BackendError> {
            if !takes || inline.is_some() {
                return Ok(inline.clone());
            }
            rest.next()
                .cloned()
                .map(Some)
                .ok_or_else(|| BackendError::Failed(format!("'{verb}': flag {w} needs a value")))
        };
        let test_flag = GO_TEST_FLAGS
            .iter()
            .find(|(n, _)| *n == name || name.strip_prefix("test.") == Some(*n));
        if test && let Some((n, takes)) = test_flag {
            match value(*takes)? {
                Some(v) if *takes => g.args.extend([format!("-test.{n}"), v]),
                Some(v) => g.args.push(format!("-test.{n}={v}")),
                None => g.args.push(format!("-test.{n}")),
            }
        } else if GO_BUILD_VALUE_FLAGS.contains(&name) {
            let v = value(true)?.unwrap_or_default();
            g.build_flags.push(format!("-{name}={v}"));
        } else if GO_BUILD_BOOL_FLAGS.contains(&name) {
            g.build_flags.push(w.clone());
        } else {
            return Err(BackendError::Failed(format!(
                "'{verb}': unsupported flag {w} (known: build flags {}; {})",
                GO_BUILD_VALUE_FLAGS
                    .iter()
                    .chain(GO_BUILD_BOOL_FLAGS)
                    .map(|f| format!("-{f}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                if test {
                    format!(
                        "test flags {}",
                        GO_TEST_FLAGS
                            .iter()
                            .map(|(f, _)| format!("-{f}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                } else {
                    "program arguments go after the package".into()
                }
            )));
        }
    }
    let package = package.unwrap_or_else(|| ".".into());
    if package.contains("...") {
        return Err(BackendError::Failed(format!(
            "'{verb} {package}': the debugger runs one package at a time; name its directory (e.g. ./calc)"
        )));
    }
    // Without the "./" of "./calc" (components() drops inner "." parts).
    let path: PathBuf = absolutize(cwd, &package).components().collect();
    if !path.exists() {
        return Err(BackendError::NotFound(format!(
            "Go package '{package}' (no such directory or file under {}; give its path, e.g. ./calc)",
            cwd.display()
        )));
    }
    if test {
        // Tests run in their package's directory (testdata/ is found relative to it).
        let dir = if path.is_dir() {
            path.clone()
        } else {
            path.parent().unwrap_or(cwd).to_path_buf()
        };
        g.cwd = Some(dir.display().to_string());
    }
    g.program = Some(path.display().to_string());
    Ok(g)
}

/// Infers the adapter from a command's words: python/.py → debugpy, an ELF binary → gdb
/// (a Mach-O one → lldb), a .go file → delve; `adapter` overrides.
fn from_words(
    cwd: &Path,
    words: Vec<String>,
    adapter: Option<AdapterKind>,
) -> Result<(AdapterKind, Generic), BackendError> {
    let first = words[0].clone();
    if is_python_exe(&first) && adapter.is_none_or(|a| a == AdapterKind::Debugpy) {
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
        if g.program.is_none() && g.module.is_none() {
            return Err(BackendError::Failed(format!(
                "'{first}' needs a script or -m module to debug"
            )));
        }
        // Caught here, the mistake gets a clear error instead of a session that ends at once.
        if let Some(p) = &g.program
            && !Path::new(p).is_file()
        {
            return Err(BackendError::NotFound(format!("script '{p}'")));
        }
        g.args = rest.collect();
        return Ok((AdapterKind::Debugpy, g));
    }
    if Path::new(&first).file_name().is_some_and(|n| n == "go")
        && matches!(words.get(1).map(String::as_str), Some("run" | "test"))
        && adapter.is_none_or(|a| a == AdapterKind::Delve)
    {
        return Ok((AdapterKind::Delve, from_go_command(cwd, &words)?));
    }
    let path = which(&first, cwd);
    let program = path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| absolutize(cwd, &first).display().to_string());
    let g = Generic {
        program: Some(program.clone()),
        args: words[1..].to_vec(),
        ..Default::default()
    };
    if let Some(a) = adapter {
        return Ok((a, g));
    }
    if first.ends_with(".py") {
        return Ok((AdapterKind::Debugpy, g));
    }
    if first.ends_with(".go") {
        return Ok((AdapterKind::Delve, g));
    }
    let Some(path) = path else {
        return Err(BackendError::NotFound(format!(
            "program '{first}' (not a file relative to {} nor on PATH)",
            cwd.display()
        )));
    };
    let mut head = [0u8; 128];
    let n = std::fs::File::open(&path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"\x7fELF") {
        return Ok((AdapterKind::Gdb, g));
    }
    if head.starts_with(&[0xcf, 0xfa, 0xed, 0xfe]) || head.starts_with(&[0xca, 0xfe, 0xba, 0xbe]) {
        return Ok((AdapterKind::Lldb, g));
    }
    if head.starts_with(b"#!")
        && String::from_utf8_lossy(head)
            .lines()
            .next()
            .is_some_and(|l| l.contains("python"))
    {
        return Ok((AdapterKind::Debugpy, g));
    }
    Err(BackendError::Failed(format!(
        "cannot tell which debugger runs '{first}' (not python, a .py script or an ELF binary); pass adapter: debugpy, gdb, lldb or delve"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_quotes() {
        assert_eq!(
            split_command(r#"python3 "a b.py" 'x y' z\ w"#).unwrap(),
            vec!["python3", "a b.py", "x y", "z w"]
        );
    }

    #[test]
    fn substitutes_and_refuses_editor_variables() {
        let root = Path::new("/p/proj");
        assert_eq!(
            substitute("${workspaceFolder}/a.py", root, "c").unwrap(),
            "/p/proj/a.py"
        );
        let e = substitute("${file}", root, "cfg").unwrap_err().to_string();
        assert!(e.contains("${file}") && e.contains("cfg"), "{e}");
    }

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dap-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn cppdbg_entries_become_gdb_launches() {
        let root = scratch("cppdbg");
        write(
            &root,
            ".vscode/launch.json",
            r#"{ "configurations": [ /* cpptools */ {
                "name": "native", "type": "cppdbg", "request": "launch",
                "program": "${workspaceFolder}/build/app", "args": ["-v"], "stopAtEntry": true,
                "environment": [{"name": "MODE", "value": "test"}], "MIMode": "gdb",
            }, ] }"#,
        );
        let r = resolve(
            &root,
            &LaunchRequest {
                configuration: Some("native".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.adapter, AdapterKind::Gdb);
        assert_eq!(
            r.arguments["program"],
            json!(format!("{}/build/app", root.display()))
        );
        assert_eq!(r.arguments["args"], json!(["-v"]));
        assert_eq!(r.arguments["env"], json!({"MODE": "test"}));
        assert_eq!(r.arguments["stopAtBeginningOfMainSubprogram"], json!(true));
        assert!(
            r.arguments.get("MIMode").is_none(),
            "cpptools-only keys are not sent to gdb"
        );
        let listed = list(&root).unwrap();
        assert_eq!(
            (listed[0].name.as_str(), listed[0].type_name.as_str()),
            ("native", "cppdbg")
        );
    }

    #[test]
    fn toml_entries_with_commands_and_extra_args() {
        let root = scratch("toml");
        write(&root, "tool.py", "print(1)\n");
        write(
            &root,
            "debugger-mcp.toml",
            "brave_mode = true\n[[launch]]\nname = \"cli\"\ncommand = \"python3 tool.py --fast\"\nargs = [\"x\"]\n\
             env = { LEVEL = 2 }\nstop_on_exception = true\n[launch.adapter_args]\njustMyCode = false\n",
        );
        let r = resolve(
            &root,
            &LaunchRequest {
                configuration: Some("cli".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.adapter, AdapterKind::Debugpy);
        assert_eq!(
            r.arguments["program"],
            json!(format!("{}/tool.py", root.display()))
        );
        assert_eq!(r.arguments["args"], json!(["--fast", "x"]));
        assert_eq!(r.arguments["env"], json!({"LEVEL": "2"}));
        assert_eq!(r.arguments["justMyCode"], json!(false));
        assert_eq!(r.arguments["console"], json!("internalConsole"));
        assert!(r.stop_on_exception && !r.stop_on_entry);
        // Settings beside the launch entries do not disturb them; unknown configurations list the known.
        let e = resolve(
            &root,
            &LaunchRequest {
                configuration: Some("other".into()),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("'cli'"), "{e}");
    }

    #[test]
    fn python_command_infers_debugpy() {
        let root = scratch("pycmd");
        write(&root, "app.py", "print(1)\n");
        let (a, g) = from_words(
            &root,
            split_command("python3 -u app.py --n 3").unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(a, AdapterKind::Debugpy);
        assert_eq!(g.program, Some(root.join("app.py").display().to_string()));
        let missing =
            from_words(&root, split_command("python3 nope.py").unwrap(), None).unwrap_err();
        assert!(
            matches!(&missing, BackendError::NotFound(m) if m.contains("nope.py")),
            "{missing:?}"
        );
        assert_eq!(g.args, vec!["--n", "3"]);
        let (_, g) = from_words(
            Path::new("/tmp"),
            split_command("python3 -m pkg.mod x").unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(g.module.as_deref(), Some("pkg.mod"));
    }

    fn go_launch(root: &Path, command: &str) -> Result<ResolvedLaunch, BackendError> {
        resolve(
            root,
            &LaunchRequest {
                command: Some(command.into()),
                ..Default::default()
            },
        )
    }

    #[test]
    fn go_test_and_go_run_commands_become_delve_launches() {
        let root = scratch("gocmd");
        write(&root, "go.mod", "module x\n");
        write(&root, "main.go", "package main\nfunc main() {}\n");
        write(&root, "calc/calc_test.go", "package calc\n");
        let r = go_launch(
            &root,
            "go test ./calc -run '^TestAdd$' -v -race -tags 'a b' -args extra",
        )
        .unwrap();
        assert_eq!(r.adapter, AdapterKind::Delve);
        let calc = root.join("calc").display().to_string();
        assert_eq!(r.arguments["mode"], json!("test"));
        assert_eq!(r.arguments["program"], json!(calc));
        // The test binary's own spelling of go test's flags; tests run in their package.
        assert_eq!(
            r.arguments["args"],
            json!(["-test.run", "^TestAdd$", "-test.v", "extra"])
        );
        assert_eq!(r.arguments["buildFlags"], json!("-race '-tags=a b'"));
        assert_eq!(r.arguments["cwd"], json!(calc));
        // The binary delve builds goes to a temporary directory, not into the project.
        let out = r.arguments["output"].as_str().unwrap();
        assert!(
            out.starts_with(&std::env::temp_dir().display().to_string()),
            "{out}"
        );

        let r = go_launch(&root, "go run . --port 8").unwrap();
        assert_eq!(
            (r.arguments["mode"].clone(), r.arguments["program"].clone()),
            (json!("debug"), json!(root.display().to_string()))
        );
        assert_eq!(r.arguments["args"], json!(["--port", "8"]));

        for (bad, says) in [
            ("go test ./...", "one package at a time"),
            ("go test ./nope", "Go package './nope'"),
            ("go test ./calc -json", "unsupported flag -json"),
            ("go test ./calc -run", "-run needs a value"),
        ] {
            let e = go_launch(&root, bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn go_launch_json_modes_are_inferred_like_vscode_go() {
        let root = scratch("golaunch");
        write(&root, "main.go", "package main\n");
        write(
            &root,
            ".vscode/launch.json",
            r#"{"configurations": [
                {"name": "pkg", "type": "go", "request": "launch", "mode": "auto", "program": "${workspaceFolder}"},
                {"name": "bin", "type": "go", "request": "launch", "program": "${workspaceFolder}/app"},
                {"name": "mine", "type": "go", "request": "launch", "mode": "test", "program": "${workspaceFolder}", "output": "/tmp/x"},
                {"name": "entry", "type": "go", "request": "launch", "program": "${workspaceFolder}", "stopOnEntry": true}
            ]}"#,
        );
        let get = |n: &str| {
            resolve(
                &root,
                &LaunchRequest {
                    configuration: Some(n.into()),
                    ..Default::default()
                },
            )
            .unwrap()
            .arguments
        };
        assert_eq!(get("pkg")["mode"], json!("debug"));
        assert!(get("pkg")["output"].is_string());
        assert_eq!(get("bin")["mode"], json!("exec"));
        assert!(
            get("bin").get("output").is_none(),
            "exec mode builds nothing"
        );
        assert_eq!(
            (get("mine")["mode"].clone(), get("mine")["output"].clone()),
            (json!("test"), json!("/tmp/x"))
        );
        // delve's stopOnEntry (before the runtime has a goroutine) becomes a stop at main.main.
        let entry = resolve(
            &root,
            &LaunchRequest {
                configuration: Some("entry".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            entry.stop_on_entry && !entry.arguments.contains_key("stopOnEntry"),
            "{entry:?}"
        );
    }
}
