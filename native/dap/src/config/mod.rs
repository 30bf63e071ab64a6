//! Run configurations headless: `.vscode/launch.json` entries, `[[launch]]` tables of
//! `debugger-mcp.toml`, and command lines ("trap and trigger"). Each resolves to the adapter to
//! start and the DAP `launch`/`attach` arguments to send, in that adapter's dialect (which the
//! adapter module supplies).

mod command;
#[cfg(test)]
mod tests;
mod vars;

pub use command::{Redirect, RedirectTo, ShellCommand, parse_command, shell_quote, split_command};

use crate::adapters::{self, ADAPTERS, AdapterRef};
use command::from_words;
use debugger_mcp_core::backend::{AttachTarget, BackendError, LaunchRequest, RunConfigInfo};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use vars::substitute_value;

/// Everything needed to start one session.
#[derive(Debug, Clone)]
pub struct ResolvedLaunch {
    pub name: String,
    pub adapter: AdapterRef,
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
    /// The launch entry's path mappings, whatever its dialect; the session applies them.
    pub pathmap: debugger_mcp_core::pathmap::PathMap,
    /// Attaching to a debugger that listens here and speaks DAP itself: connect to it
    /// rather than start the adapter.
    pub connect: Option<String>,
    /// The local process attached to by id.
    pub attach_pid: Option<u32>,
    /// The program's streams as the command line pointed them (`< in`, `2>&1`; paths
    /// absolute), already in `arguments` in the adapter's way.
    pub redirects: Vec<Redirect>,
    /// A pipeline into the program (`gen | ./prog`): the shell command run first, and the
    /// file its output goes to, which the program reads as stdin.
    pub feed: Option<Feed>,
}

/// A pipeline's input (`gen` of `gen | ./prog`) and the file its output goes to.
pub type Feed = (String, PathBuf);

/// Adapter-neutral launch description, turned into each adapter's dialect by
/// `Adapter::launch_arguments`.
#[derive(Debug, Clone, Default)]
pub struct Generic {
    pub program: Option<String>,
    pub module: Option<String>,
    pub args: Vec<String>,
    pub cwd: Option<String>,
    pub env: Map<String, Value>,
    pub python: Option<String>,
    /// Launch arguments in the adapter's own terms that its command line implied (delve's
    /// `mode` and `buildFlags` for `go test -race`): sent as they are.
    pub extra: Map<String, Value>,
}

impl Generic {
    /// `program`, `args` (when there are any, or `always_args`), `cwd` and the `extra`
    /// arguments: what every adapter spells alike.
    pub fn base_arguments(&self, always_args: bool) -> Map<String, Value> {
        let mut a = Map::new();
        if let Some(p) = &self.program {
            a.insert("program".into(), json!(p));
        }
        if !self.args.is_empty() || always_args {
            a.insert("args".into(), json!(self.args));
        }
        if let Some(c) = &self.cwd {
            a.insert("cwd".into(), json!(c));
        }
        a.extend(self.extra.clone());
        a
    }
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
    if let Some(target) = &req.attach {
        return resolve_attach(root, req, target);
    }
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
        let parsed = parse_command(cmd)?;
        let adapter = req.adapter.as_deref().map(adapters::find).transpose()?;
        // A script or input named relative to the wrong directory: say where it is.
        let located = |e: BackendError| match e {
            BackendError::NotFound(m) => {
                let inputs = parsed.redirects.iter().filter_map(|r| match &r.to {
                    command::RedirectTo::Read(p) => p.to_str(),
                    _ => None,
                });
                let words = parsed.words.iter().map(String::as_str).chain(inputs);
                BackendError::NotFound(
                    match debugger_mcp_core::project::missing_path_hint(root, &cwd, words) {
                        Some(hint) => format!("{m}. {hint}"),
                        None => m,
                    },
                )
            }
            e => e,
        };
        let (adapter, mut g) = from_words(&cwd, parsed.words.clone(), adapter).map_err(located)?;
        // `go test` runs in the package's directory, as the go tool does.
        g.cwd = g.cwd.clone().or_else(|| Some(cwd.display().to_string()));
        let mut arguments = adapter.launch_arguments(&g);
        let (redirects, feed) =
            with_streams(&cwd, &parsed, adapter, &mut g, &mut arguments).map_err(located)?;
        ResolvedLaunch {
            name: cmd.clone(),
            adapter,
            request: "launch".into(),
            arguments,
            cwd,
            run_configuration: None,
            python: g.python.clone(),
            stop_on_entry: false,
            stop_on_exception: false,
            pathmap: Default::default(),
            connect: None,
            attach_pid: None,
            redirects,
            feed,
        }
    } else {
        return Err(BackendError::Failed(
            "give either a run configuration name or a command to start".into(),
        ));
    };
    resolved.stop_on_entry |= req.stop_on_entry;
    resolved.stop_on_exception |= req.stop_on_exception;
    resolved.adapter.complete(&mut resolved);
    if resolved.stop_on_entry {
        resolved
            .adapter
            .entry_stop_arguments(&mut resolved.arguments);
    }
    if req.mode == debugger_mcp_core::backend::LaunchMode::Run {
        resolved.arguments.insert("noDebug".into(), json!(true));
    } else if resolved.request == "launch"
        && resolved.arguments.get("noDebug").and_then(Value::as_bool) != Some(true)
    {
        resolved
            .adapter
            .debug_launch_arguments(&mut resolved.arguments);
    }
    Ok(resolved)
}

/// An attach to a process by id or to a debugger at an address. A run configuration named
/// with it lends its adapter, interpreter and path mappings (a container's paths), its
/// program and arguments do not apply; without one, the project's compose bind mounts map.
fn resolve_attach(
    root: &Path,
    req: &LaunchRequest,
    target: &AttachTarget,
) -> Result<ResolvedLaunch, BackendError> {
    // Existence and permission come first: a wrong pid is the likeliest mistake.
    if let AttachTarget::Pid(pid) = target {
        crate::attach::check_pid(*pid)?;
    }
    let base = match &req.configuration {
        Some(_) => Some(resolve(
            root,
            &LaunchRequest {
                attach: None,
                mode: debugger_mcp_core::backend::LaunchMode::Debug,
                ..req.clone()
            },
        )?),
        None => None,
    };
    let named = req.adapter.as_deref().map(adapters::find).transpose()?;
    let adapter = match (named, &base, target) {
        (Some(a), _, _) => a,
        (None, Some(b), _) => b.adapter,
        (None, None, AttachTarget::Pid(pid)) => crate::attach::adapter_for(*pid)?,
        // `launch` names the adapter that answered at the address (`attach::adapter_at`).
        (None, None, AttachTarget::Address(addr)) => {
            return Err(BackendError::Failed(format!(
                "no debugger answered at {addr} as debugpy, dlv or gdbserver do; check the address, or name the adapter: 'debugpy' (debugpy --listen), 'delve' (dlv --headless) or 'gdb' (gdbserver)"
            )));
        }
    };
    let what = match target {
        AttachTarget::Pid(pid) => format!("pid {pid}"),
        AttachTarget::Address(a) => a.clone(),
    };
    let Some(arguments) = adapter.attach_arguments(target) else {
        let able: Vec<&str> = ADAPTERS
            .iter()
            .filter(|a| a.attach_arguments(target).is_some())
            .map(|a| a.name())
            .collect();
        return Err(BackendError::Unsupported(format!(
            "the {} adapter cannot attach to {what}; these can: {}",
            adapter.name(),
            able.join(", ")
        )));
    };
    let (connect, attach_pid) = match target {
        AttachTarget::Pid(pid) => (None, Some(*pid)),
        AttachTarget::Address(addr) => {
            if addr
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u16>().ok())
                .is_none()
            {
                return Err(BackendError::Failed(format!(
                    "'{addr}' is not host:port (e.g. 127.0.0.1:5678)"
                )));
            }
            (adapter.serves_dap_at_address().then(|| addr.clone()), None)
        }
    };
    let (cwd, python, pathmap, run_configuration) = match base {
        Some(b) => (b.cwd, b.python, b.pathmap, b.run_configuration),
        None => (
            root.to_path_buf(),
            None,
            debugger_mcp_core::pathmap::PathMap::from_compose(root).unwrap_or_default(),
            None,
        ),
    };
    Ok(ResolvedLaunch {
        name: format!("{} attached to {what}", adapter.name()),
        adapter,
        request: "attach".into(),
        arguments,
        cwd,
        run_configuration,
        python,
        stop_on_entry: false,
        stop_on_exception: req.stop_on_exception,
        pathmap,
        connect,
        attach_pid,
        redirects: vec![],
        feed: None,
    })
}

/// What a command line asks of the program's environment and streams beyond its words:
/// `VAR=value` prefixes join `env` (then the arguments are rebuilt), redirections go into the
/// launch arguments in the adapter's way, and a pipeline's input gets the file it will be
/// written to. Refused, saying why, where the adapter cannot.
fn with_streams(
    cwd: &Path,
    parsed: &ShellCommand,
    adapter: AdapterRef,
    g: &mut Generic,
    arguments: &mut Map<String, Value>,
) -> Result<(Vec<Redirect>, Option<Feed>), BackendError> {
    if !parsed.env.is_empty() {
        for (k, v) in &parsed.env {
            g.env.insert(k.clone(), Value::String(v.clone()));
        }
        let kept = std::mem::take(arguments);
        *arguments = adapter.launch_arguments(g);
        // What the adapter's command parsing implied beyond `Generic` stays.
        for (k, v) in kept {
            arguments.entry(k).or_insert(v);
        }
    }
    let mut redirects: Vec<Redirect> = parsed
        .redirects
        .iter()
        .map(|r| Redirect {
            fd: r.fd,
            to: match &r.to {
                RedirectTo::Read(p) => RedirectTo::Read(absolutize(cwd, &p.to_string_lossy())),
                RedirectTo::Write(p) => RedirectTo::Write(absolutize(cwd, &p.to_string_lossy())),
                RedirectTo::Append(p) => RedirectTo::Append(absolutize(cwd, &p.to_string_lossy())),
                RedirectTo::Dup(n) => RedirectTo::Dup(*n),
            },
        })
        .collect();
    let feed = parsed.input.as_ref().map(|input| {
        // Unique in the machine: several backends (tests) in one process.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let file =
            std::env::temp_dir().join(format!("debugger-mcp-{}-{n}-stdin", std::process::id()));
        (input.clone(), file)
    });
    if let Some((_, file)) = &feed {
        redirects.insert(
            0,
            Redirect {
                fd: 0,
                to: RedirectTo::Read(file.clone()),
            },
        );
    }
    if let Some(r) = redirects.iter().find_map(|r| match &r.to {
        RedirectTo::Read(p) if !p.exists() && feed.as_ref().is_none_or(|f| &f.1 != p) => Some(p),
        _ => None,
    }) {
        return Err(BackendError::NotFound(format!(
            "input file '{}' of the command's '<' (relative to {})",
            r.display(),
            cwd.display()
        )));
    }
    if !redirects.is_empty() {
        adapter.redirect(&redirects, g, arguments).map_err(|why| {
            BackendError::Unsupported(format!(
                "'{}' in the command: {why}",
                redirects
                    .iter()
                    .map(Redirect::shell)
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
        })?;
    }
    Ok((redirects, feed))
}

pub(crate) fn absolutize(root: &Path, p: &str) -> PathBuf {
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
        Some(a) => adapters::find(a)?,
        None => adapters::find(type_name).map_err(|_| {
            BackendError::Unsupported(format!(
                "run configuration '{name}' has type '{type_name}', which the headless DAP backend cannot start \
                 (supported: {})",
                ADAPTERS.iter().map(|a| format!("{} ({})", a.name(), a.aliases().join(", "))).collect::<Vec<_>>().join("; ")
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
    let python = adapter.adapt_launch_json(type_name, &c, &cwd, &mut args);
    // Read from the entry as written (an adapter's dialect translation may drop the keys).
    let pathmap = debugger_mcp_core::pathmap::PathMap::from_launch_entry(root, &c);
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
        pathmap,
        connect: None,
        attach_pid: None,
        redirects: vec![],
        feed: None,
    })
}

pub(crate) fn str_list(v: Option<&Value>) -> Vec<String> {
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
        .map(adapters::find)
        .transpose()?;
    let parsed = match c.get("command").and_then(Value::as_str) {
        Some(cmd) => Some(parse_command(cmd)?),
        None => None,
    };
    let (adapter, mut g) = if let Some(parsed) = &parsed {
        from_words(&cwd, parsed.words.clone(), adapter)?
    } else if let Some(module) = c.get("module").and_then(Value::as_str) {
        (
            adapter
                .or_else(|| ADAPTERS.iter().copied().find(|a| a.runs_modules()))
                .expect("an adapter runs modules"),
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
    let mut arguments = adapter.launch_arguments(&g);
    let (redirects, feed) = match &parsed {
        Some(p) => with_streams(&cwd, p, adapter, &mut g, &mut arguments)?,
        None => Default::default(),
    };
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
        pathmap: Default::default(),
        connect: None,
        attach_pid: None,
        redirects,
        feed,
    })
}
