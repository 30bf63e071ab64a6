//! What a PHP launch starts: `.vscode/launch.json` entries of `"type": "php"` (the PHP Debug
//! extension's format), `[[launch]]` tables of `debugger-mcp.toml` with `adapter = "php"`, and
//! trigger commands ("trap and trigger": `php artisan test`, `curl http://…`). Xdebug connects
//! to us, so a launch is: listen, run the trigger detached with Xdebug pointed at our port,
//! and take the connection that arrives.

use crate::session::{Inner, Trap};
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::PathMap;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use tokio::sync::oneshot;

/// Programs whose commands are PHP triggers (the sidecar routes them to this backend).
pub fn is_php_command(command: &str) -> bool {
    let words = shell_words(last_stage(command));
    let Some(first) = words.iter().find(|w| !is_env_assignment(w)) else {
        return false;
    };
    let base = Path::new(first)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    base.starts_with("php")
        || matches!(
            base.as_str(),
            "curl" | "wget" | "composer" | "artisan" | "pest" | "phpunit"
        )
        || first.contains("vendor/bin/")
        || first.ends_with(".php")
}

/// The last command of a pipeline (`gen | php x.php`: the one that is debugged; the whole line
/// runs under `sh -c`).
fn last_stage(command: &str) -> &str {
    let mut quote = None;
    let mut start = 0;
    let b = command.as_bytes();
    for (i, c) in command.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '|') if b.get(i + 1) != Some(&b'|') && (i == 0 || b[i - 1] != b'|') => {
                start = i + 1
            }
            _ => {}
        }
    }
    &command[start..]
}

fn is_env_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whitespace split honouring quotes; good enough to find the program of a command line (the
/// command itself runs under `sh -c`).
fn shell_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

/// The seed's strategy presets: `standard` (breakpoints only), `panic` (stop at exceptions and
/// errors), `profile` (stop on entry).
pub fn apply_preset(
    preset: &str,
    stop_on_entry: &mut bool,
    stop_on_exception: &mut bool,
) -> Result<(), BackendError> {
    match preset {
        "standard" => {}
        "panic" => *stop_on_exception = true,
        "profile" => *stop_on_entry = true,
        other => {
            return Err(BackendError::Failed(format!(
                "unknown preset '{other}'; use standard, panic or profile"
            )));
        }
    }
    Ok(())
}

/// One PHP launch, resolved.
#[derive(Debug, Clone, Default)]
pub struct PhpLaunch {
    pub name: String,
    pub run_configuration: Option<String>,
    /// Shell command to trigger the code; None = only listen ("Listen for Xdebug").
    pub command: Option<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    /// Port the configuration asks for (launch.json `port`); None = the backend's default.
    pub port: Option<u16>,
    pub pathmap: PathMap,
    pub stop_on_entry: bool,
    pub stop_on_exception: bool,
    /// launch.json `xdebugSettings` (feature_set names → values).
    pub features: Vec<(String, String)>,
    /// Attached to PHP that already runs (`attach`): ending a session detaches, the request
    /// runs on; `attach_pid` when named by pid (its connections, and its workers', are ours).
    pub attached: bool,
    pub attach_pid: Option<u32>,
}

/// (name, entry, file it came from).
type Entry = (String, Map<String, Value>, &'static str);

fn entries(root: &Path) -> Result<Vec<Entry>, BackendError> {
    let mut out = Vec::new();
    let lj = root.join(".vscode").join("launch.json");
    if let Ok(text) = std::fs::read_to_string(&lj) {
        let doc: Value = json5::from_str(&text).map_err(|e| {
            BackendError::Failed(format!(
                "{} is not valid JSON (with comments): {e}",
                lj.display()
            ))
        })?;
        for c in doc
            .get("configurations")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let (Some(o), Some(name)) = (c.as_object(), c.get("name").and_then(Value::as_str))
                && c.get("type").and_then(Value::as_str) == Some("php")
            {
                out.push((name.to_string(), o.clone(), ".vscode/launch.json"));
            }
        }
    }
    let toml_path = root.join("debugger-mcp.toml");
    if let Ok(text) = std::fs::read_to_string(&toml_path) {
        let doc: toml::Table = toml::from_str(&text).map_err(|e| {
            BackendError::Failed(format!("{} is not valid TOML: {e}", toml_path.display()))
        })?;
        if let Some(toml::Value::Array(a)) = doc.get("launch") {
            for t in a {
                let v = serde_json::to_value(t).unwrap_or(Value::Null);
                if let (Some(o), Some(name)) =
                    (v.as_object(), v.get("name").and_then(Value::as_str))
                    && matches!(
                        v.get("adapter").and_then(Value::as_str),
                        Some("php" | "xdebug" | "dbgp")
                    )
                {
                    out.push((name.to_string(), o.clone(), "debugger-mcp.toml"));
                }
            }
        }
    }
    Ok(out)
}

/// The PHP entries of the project's launch files.
pub fn list(root: &Path) -> Result<Vec<RunConfigInfo>, BackendError> {
    Ok(entries(root)?
        .into_iter()
        .map(|(name, c, source)| RunConfigInfo {
            name,
            type_name: "php".into(),
            type_id: c
                .get("request")
                .and_then(Value::as_str)
                .unwrap_or("launch")
                .to_string(),
            can_run: true,
            can_debug: true,
            source: Some(source.into()),
            description: c
                .get("command")
                .or(c.get("program"))
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| {
                    Some(format!(
                        "listen for Xdebug on port {}",
                        c.get("port").and_then(Value::as_u64).unwrap_or(9003)
                    ))
                }),
            ..Default::default()
        })
        .collect())
}

pub fn has_configuration(root: &Path, name: &str) -> bool {
    entries(root).is_ok_and(|e| e.iter().any(|(n, _, _)| n == name))
}

fn substitute(v: &mut Value, root: &Path) {
    match v {
        Value::String(s) => {
            let r = root.display().to_string();
            *s = s
                .replace("${workspaceFolder}", &r)
                .replace("${workspaceRoot}", &r);
        }
        Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, root)),
        Value::Object(o) => o.iter_mut().for_each(|(_, x)| substitute(x, root)),
        _ => {}
    }
}

fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:,+@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn str_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub fn resolve(root: &Path, req: &LaunchRequest) -> Result<PhpLaunch, BackendError> {
    let compose = PathMap::from_compose(root)
        .map_err(|e| BackendError::Failed(format!("cannot read path mappings: {e}")))?;
    let mut l = PhpLaunch {
        cwd: root.to_path_buf(),
        ..Default::default()
    };
    if let Some(name) = &req.configuration {
        let all = entries(root)?;
        let Some((_, c, _)) = all.into_iter().find(|(n, _, _)| n == name) else {
            return Err(BackendError::NotFound(format!(
                "PHP run configuration '{name}'"
            )));
        };
        let mut v = Value::Object(c);
        substitute(&mut v, root);
        let c = v.as_object().unwrap();
        l.name = name.clone();
        l.run_configuration = Some(name.clone());
        l.pathmap = PathMap::from_launch_entry(root, c);
        l.port = c
            .get("port")
            .and_then(Value::as_u64)
            .map(|p| p as u16)
            .filter(|p| *p != 0);
        l.stop_on_entry = c
            .get("stopOnEntry")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(cwd) = c.get("cwd").and_then(Value::as_str) {
            l.cwd = root.join(cwd);
        }
        if let Some(env) = c.get("env").and_then(Value::as_object) {
            l.env = env
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect();
        }
        if let Some(xs) = c.get("xdebugSettings").and_then(Value::as_object) {
            l.features = xs
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| v.to_string()),
                    )
                })
                .collect();
        }
        if let Some(p) = c.get("preset").and_then(Value::as_str) {
            apply_preset(p, &mut l.stop_on_entry, &mut l.stop_on_exception)?;
        }
        l.command = if let Some(cmd) = c.get("command").and_then(Value::as_str) {
            Some(cmd.to_string())
        } else if let Some(program) = c.get("program").and_then(Value::as_str) {
            let php = c
                .get("runtimeExecutable")
                .and_then(Value::as_str)
                .unwrap_or("php");
            let mut words = vec![quote(php)];
            words.extend(str_list(c.get("runtimeArgs")).iter().map(|w| quote(w)));
            words.push(quote(program));
            words.extend(str_list(c.get("args")).iter().map(|w| quote(w)));
            Some(words.join(" "))
        } else {
            None
        };
    } else if let Some(cmd) = &req.command {
        l.name = cmd.clone();
        l.command = Some(cmd.clone());
        if let Some(cwd) = &req.cwd {
            l.cwd = root.join(cwd);
        }
    } else if req.attach.is_none() {
        return Err(BackendError::Failed(
            "give a run configuration name, a command (`php x.php`, `curl URL`: debugger-mcp listens and adds the Xdebug trigger) or attach (the pid of a running PHP process, or the host:port Xdebug connects to)".into(),
        ));
    }
    l.pathmap.extend(compose);
    l.stop_on_entry |= req.stop_on_entry;
    l.stop_on_exception |= req.stop_on_exception;
    Ok(l)
}

/// The trigger's command line as run: every `curl` in it gets the Xdebug session cookie, so a
/// web server with `xdebug.start_with_request=trigger` debugs the request.
pub fn trigger_command(command: &str) -> String {
    if command.contains("XDEBUG_SESSION") || command.contains("XDEBUG_TRIGGER") {
        return command.to_string();
    }
    let mut out = String::with_capacity(command.len() + 40);
    let bytes = command.as_bytes();
    let mut i = 0;
    while i < command.len() {
        let starts_word = i == 0 || b" \t;&|(".contains(&bytes[i - 1]);
        if starts_word && command[i..].starts_with("curl") {
            let end = i + 4;
            if end == command.len() || bytes[end].is_ascii_whitespace() {
                out.push_str("curl -b XDEBUG_SESSION=debugger-mcp");
                i = end;
                continue;
            }
        }
        let c = command[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The environment that makes a CLI PHP process connect to us (seed REQ-2).
pub fn xdebug_env(port: u16) -> Vec<(String, String)> {
    vec![
        ("XDEBUG_MODE".into(), "debug".into()),
        (
            "XDEBUG_CONFIG".into(),
            format!("client_host=127.0.0.1 client_port={port} idekey=debugger-mcp"),
        ),
        ("XDEBUG_TRIGGER".into(), "1".into()),
        ("XDEBUG_SESSION".into(), "debugger-mcp".into()),
    ]
}

/// The PHP executable a command runs, when it runs one directly.
fn php_program(command: &str) -> Option<String> {
    let words = shell_words(last_stage(command));
    let first = words.into_iter().find(|w| !is_env_assignment(w))?;
    let base = Path::new(&first)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    (base == "php"
        || (base.starts_with("php") && base[3..].chars().all(|c| c.is_ascii_digit() || c == '.')))
    .then_some(first)
}

/// The script a `php` command runs (`php -d x=1 repro.php`, `php -f x.php`), when it runs one:
/// not for `-r` code, a built-in server (`-S`) or a lint.
fn php_script(command: &str) -> Option<String> {
    php_program(command)?;
    let words = shell_words(last_stage(command));
    let mut rest = words
        .into_iter()
        .skip_while(|w| is_env_assignment(w))
        .skip(1);
    while let Some(w) = rest.next() {
        match w.as_str() {
            "-f" | "--" => return rest.next(),
            "-d" | "-c" | "-z" => {
                rest.next();
            }
            w if w.starts_with("-d") || w.starts_with("-c") || w.starts_with("-z") => {}
            "-n" | "-e" | "-q" | "-H" | "-C" => {}
            w if w.starts_with('-') => return None,
            // A redirection ends the words the interpreter reads.
            w if w.starts_with(['<', '>']) => return None,
            _ => return Some(w),
        }
    }
    None
}

/// A `php` command whose script is not a file where it runs: the error, saying where in the
/// project it is (PHP's own "Could not open input file" came back as Xdebug never connecting).
fn check_script(root: &Path, command: &str, cwd: &Path) -> Result<(), BackendError> {
    let Some(script) = php_script(command) else {
        return Ok(());
    };
    if cwd.join(&script).is_file() {
        return Ok(());
    }
    let mut m = format!("script '{script}' (relative to {})", cwd.display());
    if let Some(hint) = debugger_mcp_core::project::missing_path_hint(root, cwd, [script.as_str()])
    {
        m = format!("{m}. {hint}");
    }
    Err(BackendError::NotFound(m))
}

static CHECKED: Mutex<Option<HashMap<String, Result<(), String>>>> = Mutex::new(None);

/// For a command that runs `php` itself: the interpreter exists and loads Xdebug, or an error
/// that says how to get it. Cached per executable.
pub async fn check_xdebug(command: &str, cwd: &Path) -> Result<(), BackendError> {
    let Some(php) = php_program(command) else {
        return Ok(());
    };
    if let Some(r) = CHECKED.lock().unwrap().get_or_insert_default().get(&php) {
        return r.clone().map_err(BackendError::Failed);
    }
    let out = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        tokio::process::Command::new(&php)
            .args([
                "-r",
                "echo PHP_VERSION, ' ', phpversion('xdebug') ?: 'none';",
            ])
            .env("XDEBUG_MODE", "off")
            .current_dir(cwd)
            .stdin(std::process::Stdio::null())
            .output(),
    )
    .await;
    let result = match out {
        Err(_) => Err(format!("`{php} -r …` did not answer within 10 s")),
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "`{php}` was not found on PATH: install PHP and Xdebug (Debian/Ubuntu: apt-get install php-cli php-xdebug; macOS: brew install php && pecl install xdebug)"
        )),
        Ok(Err(e)) => Err(format!("cannot run `{php}`: {e}")),
        Ok(Ok(o)) => {
            let text = String::from_utf8_lossy(&o.stdout).trim().to_string();
            match text.split_once(' ') {
                Some((v, "none")) => Err(format!(
                    "Xdebug is not loaded in `{php}` (PHP {v}), so it cannot connect to the debugger: install it (Debian/Ubuntu: apt-get install php-xdebug; otherwise pecl install xdebug and add zend_extension=xdebug to php.ini; see https://xdebug.org/docs/install), then check with `{php} -v` that it lists Xdebug"
                )),
                Some((_, x)) if x.starts_with('2') => Err(format!(
                    "`{php}` loads Xdebug {x}; debugger-mcp speaks to Xdebug 3 (install Xdebug 3: pecl install xdebug)"
                )),
                Some(_) => Ok(()),
                None => Err(format!(
                    "`{php}` did not report its version (exit {:?}): {}",
                    o.status.code(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )),
            }
        }
    };
    CHECKED
        .lock()
        .unwrap()
        .get_or_insert_default()
        .insert(php, result.clone());
    result.map_err(BackendError::Failed)
}

/// Is `pid` the process `ancestor` or one of its descendants (a few levels, Linux /proc)?
pub fn descends_from(pid: u32, ancestor: u32) -> bool {
    let mut cur = pid;
    for _ in 0..8 {
        if cur == ancestor {
            return true;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{cur}/stat")) else {
            return false;
        };
        // Field 4 (ppid) follows the parenthesised command name, which may contain spaces.
        let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) else {
            return false;
        };
        let Some(ppid) = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            return false;
        };
        if ppid <= 1 {
            return false;
        }
        cur = ppid;
    }
    false
}

/// Runs a trigger command as `sh -c` with Xdebug pointed at `port` (CLI runs) and the session
/// cookie added to every curl (web requests), in its own process group so that ending the
/// session ends all of it.
fn spawn_trigger(cmd: &str, l: &PhpLaunch, port: u16) -> BackendResult<tokio::process::Child> {
    let mut c = tokio::process::Command::new("sh");
    c.arg("-c")
        .arg(trigger_command(cmd))
        .current_dir(&l.cwd)
        .envs(xdebug_env(port))
        .envs(l.env.iter().cloned())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0);
    c.spawn().map_err(|e| {
        BackendError::Failed(format!("cannot run `{cmd}` in {}: {e}", l.cwd.display()))
    })
}

impl Inner {
    /// Delivers the output of `trap`'s trigger `child` (to its session once one claimed it,
    /// kept until then) and its end: the exit code, and for an attach the `TriggerEnded` the
    /// core shows; then forgets the trap unless something may still claim it.
    fn watch_trigger(self: &Arc<Self>, trap: &Arc<Trap>, mut child: tokio::process::Child) {
        let pipes = [
            child.stdout.take().map(|p| {
                (
                    OutputCategory::Stdout,
                    Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>,
                )
            }),
            child.stderr.take().map(|p| {
                (
                    OutputCategory::Stderr,
                    Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>,
                )
            }),
        ];
        let mut readers = Vec::new();
        for (category, pipe) in pipes.into_iter().flatten() {
            let inner = self.clone();
            let trap = trap.clone();
            readers.push(tokio::spawn(async move {
                let mut lines = tokio::io::BufReader::new(pipe).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    let text = format!("{line}\n");
                    let to = trap.output_to.lock().unwrap().clone();
                    match to {
                        Some(_)
                            if category == OutputCategory::Stdout
                                && !trap.output_owned.load(Ordering::SeqCst) =>
                        {
                            trap.keep(category, text);
                        }
                        Some(sid) => inner.emit(BackendEvent::Output {
                            session_id: sid,
                            category,
                            text,
                        }),
                        None => trap.keep(category, text),
                    }
                }
            }));
        }
        let inner = self.clone();
        let trap2 = trap.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            for r in readers {
                let _ = r.await;
            }
            let code = status.ok().and_then(|s| s.code()).map(i64::from);
            *trap2.exit_code.lock().unwrap() = Some(code);
            trap2.exited.notify_waiters();
            // An attach's trigger: its end told as the DAP backend tells it (the core shows it).
            if trap2.launch.attached {
                let output = trap2.kept_output();
                inner.emit(BackendEvent::TriggerEnded {
                    session_id: trap2
                        .output_to
                        .lock()
                        .unwrap()
                        .clone()
                        .unwrap_or_else(|| trap2.session_id.clone()),
                    command: trap2.launch.command.clone().unwrap_or_default(),
                    exit_code: code,
                    output_bytes: output.len() as u64,
                    output,
                });
            }
            // Forget the trap once nothing can claim it any more (an attach listens on).
            inner.traps.lock().unwrap().retain(|t| {
                !Arc::ptr_eq(t, &trap2)
                    || !t.claimed.load(Ordering::SeqCst)
                        && (t.claim_tx.lock().unwrap().is_some() || t.launch.attached)
            });
        });
    }

    /// wait_for_pause {command}: sends the next request of the attached session `id` while it
    /// listens (its first request ended, or none came yet): the command runs as the attach's
    /// own trigger did, and the connection it causes is the session's again.
    pub async fn run_trigger(self: &Arc<Self>, id: &str, command: &str) -> BackendResult<()> {
        let Some(t) = self.pending_attach(id) else {
            return Err(match self.session(id) {
                Ok(s) if !s.info().attached => BackendError::Unsupported(format!(
                    "session {id} is a PHP run debugger-mcp started, not an attach: a command goes with an attached session (start_debug_session {{attach: pid or host:port}}); to run this one again, start_debug_session with the command"
                )),
                Ok(s) if !s.is_ended() => BackendError::InvalidState(format!(
                    "session {id} still serves a request that has neither paused nor ended; wait_for_pause for it, then send the next"
                )),
                _ => BackendError::NotFound(format!(
                    "session {id} listens for no request (it was stopped); attach again with start_debug_session {{attach, command}}"
                )),
            });
        };
        if self
            .traps
            .lock()
            .unwrap()
            .iter()
            .any(|x| x.session_id == id && x.running())
        {
            return Err(BackendError::InvalidState(
                "the session's previous command still runs; wait for its end (wait_for_pause) before sending another".into(),
            ));
        }
        let mut launch = t.launch.clone();
        launch.command = Some(command.to_string());
        let child = spawn_trigger(command, &launch, t.port)?;
        let fresh = Arc::new(Trap::new(id.to_string(), launch, t.port, child.id(), None));
        {
            let mut traps = self.traps.lock().unwrap();
            traps.retain(|x| !Arc::ptr_eq(x, &t));
            traps.push(fresh.clone());
        }
        self.watch_trigger(&fresh, child);
        Ok(())
    }
}

/// Starting a PHP session: run the trigger (if any) with Xdebug pointed at our port, then
/// wait for the connection it causes.
impl Inner {
    /// When the server listens on another port than the configured one (Xdebug's 9003) because
    /// something else holds that one: who does, since a PHP process set to connect there (a
    /// server's client_port nobody may change) reaches it and not us.
    fn default_port_taken(&self, port: u16) -> String {
        let first = self.port.load(Ordering::Relaxed) as u16;
        if port == first {
            return String::new();
        }
        let holder = debugger_mcp_core::backend::listening_pid(first).map(|pid| {
            let cmd = crate::attach::nul_list(pid, "cmdline").join(" ");
            let cmd: String = cmd.chars().take(120).collect();
            format!(" by process {pid} (`{cmd}`)")
        });
        format!(
            "port {first}, where Xdebug connects unless told otherwise, is held{}, so the server listens on {port}: a PHP process set to connect to {first} reaches that listener, not this one (stop it, or attach: '127.0.0.1:{first}' once it is free); ",
            holder.unwrap_or_default()
        )
    }

    pub async fn launch(self: &Arc<Self>, req: LaunchRequest) -> BackendResult<SessionInfo> {
        let mut l = resolve(&self.root, &req)?;
        let attached = match &req.attach {
            Some(target) => Some(self.attach(&mut l, target).await?),
            None => None,
        };
        if let Some(cmd) = &l.command
            && attached.is_none()
        {
            check_script(&self.root, cmd, &l.cwd)?;
            check_xdebug(cmd, &l.cwd).await?;
        }
        let port = self.ensure_listener(l.port).await?;
        if attached.is_some() {
            // A new attach where an earlier one still listens (its last request ended) takes
            // over: the earlier would claim this one's request.
            let stale: Vec<Arc<Trap>> = self
                .traps
                .lock()
                .unwrap()
                .iter()
                .filter(|t| {
                    t.port == port && t.launch.attached && !t.claimed.load(Ordering::SeqCst)
                })
                .cloned()
                .collect();
            for t in stale {
                self.drop_pending(&t);
            }
        }
        let id = self.new_session_id();
        if let (Some((what, which)), None) = (&attached, &l.command) {
            // Nothing to send the request: listen, and answer at once with how to send one.
            let trap = Arc::new(Trap::listening(id.clone(), l.clone(), port));
            self.traps.lock().unwrap().push(trap);
            let trigger =
                "curl -b XDEBUG_SESSION=debugger-mcp URL, or ?XDEBUG_TRIGGER=1 in the URL";
            return Ok(SessionInfo {
                id,
                name: l.name.clone(),
                state: SessionState::Running,
                run_configuration: l.run_configuration.clone(),
                process_id: l.attach_pid,
                mode: LaunchMode::Debug,
                attached: true,
                note: Some(format!(
                    "listening for Xdebug from {what} on port {port}: {which}; send one ({trigger}) and call wait_for_pause, or pass command (\"curl 'URL'\") with attach to send it in this call"
                )),
            });
        }
        let (claim_tx, claim_rx) = oneshot::channel();
        let child = match &l.command {
            Some(cmd) => Some(spawn_trigger(cmd, &l, port)?),
            None => None,
        };
        let trap = Arc::new(Trap::new(
            id.clone(),
            l.clone(),
            port,
            child.as_ref().and_then(|c| c.id()),
            Some(claim_tx),
        ));
        self.traps.lock().unwrap().push(trap.clone());
        if let Some(child) = child {
            self.watch_trigger(&trap, child);
        }
        let timeout = Duration::from_millis(self.connect_timeout_ms.load(Ordering::Relaxed));
        let settings = format!(
            "{}check that the PHP process loads Xdebug 3 with xdebug.mode=debug, xdebug.client_host=127.0.0.1, xdebug.client_port={port} and xdebug.start_with_request=yes (or =trigger with an XDEBUG_TRIGGER/XDEBUG_SESSION cookie or variable); CLI triggers get XDEBUG_MODE, XDEBUG_CONFIG and XDEBUG_TRIGGER from debugger-mcp, curl triggers the XDEBUG_SESSION cookie; a PHP process whose Xdebug connects to another port (a container's, another host's client_port): give attach: '127.0.0.1:PORT' with the command, and the server listens there",
            self.default_port_taken(port)
        );
        let what = l
            .command
            .as_deref()
            .map(|c| format!("`{c}`"))
            .unwrap_or_else(|| "nothing (listening only)".into());
        let exited = async {
            if l.command.is_none() {
                std::future::pending::<()>().await;
            }
            loop {
                let n = trap.exited.notified();
                if trap.exit_code.lock().unwrap().is_some() {
                    return;
                }
                n.await;
            }
        };
        let result = tokio::select! {
            r = claim_rx => r.map_err(|_| BackendError::Failed("the launch was abandoned".into())),
            _ = exited => {
                // A connection may be on its way as the trigger ends: give it a moment.
                let n = trap.claim_tx.lock().unwrap().is_some();
                if n {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
                match self.session(&id) {
                    Ok(s) => Ok(s.info()),
                    Err(_) => {
                        let code = trap.exit_code.lock().unwrap().flatten();
                        let tail = trap.output_tail();
                        Err(BackendError::Failed(format!(
                            "{what} exited{} before Xdebug connected to 127.0.0.1:{port}{}; {settings}",
                            code.map(|c| format!(" with code {c}")).unwrap_or_default(),
                            if tail.is_empty() { String::new() } else { format!(" (its output: {tail})") }
                        )))
                    }
                }
            }
            _ = tokio::time::sleep(timeout) => {
                trap.kill();
                let tail = trap.output_tail();
                Err(BackendError::Timeout(format!(
                    "no Xdebug connection on 127.0.0.1:{port} within {} ms after starting {what}{}; {settings} (wait longer with [php] connect_timeout_ms)",
                    timeout.as_millis(),
                    if tail.is_empty() { String::new() } else { format!(" (its output so far: {tail})") }
                )))
            }
        };
        if result.is_err() {
            trap.claim_tx.lock().unwrap().take();
            self.traps
                .lock()
                .unwrap()
                .retain(|t| !Arc::ptr_eq(t, &trap));
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_a_php_command_runs() {
        for (c, want) in [
            ("php repro.php", Some("repro.php")),
            (
                "XDEBUG_MODE=debug php -d memory_limit=1G -n work/r.php a b",
                Some("work/r.php"),
            ),
            ("php8.2 -f x.php", Some("x.php")),
            (
                "php -dfoo=1 'my script.php' < in.txt",
                Some("my script.php"),
            ),
            ("php -r 'echo 1;'", None),
            ("php -S 127.0.0.1:8000 -t public", None),
            ("curl -s http://h/x.php", None),
            ("vendor/bin/phpunit tests", None),
        ] {
            assert_eq!(php_script(c).as_deref(), want, "{c}");
        }
    }

    #[test]
    fn php_commands_and_triggers() {
        for c in [
            "php a.php",
            "php8.2 -f a.php",
            "FOO=1 php artisan test --filter X",
            "curl -s http://localhost:8000/x",
            "vendor/bin/phpunit",
            "./vendor/bin/pest",
            "cat in.txt | php a.php",
            "printf 'a|b' |php a.php < /dev/null",
        ] {
            assert!(is_php_command(c), "{c}");
        }
        for c in [
            "python3 app.py",
            "./prog",
            "go test ./x",
            "node php.js",
            "php gen.php | ./prog",
            "true || ./prog",
        ] {
            assert!(!is_php_command(c), "{c}");
        }
        assert_eq!(
            trigger_command("curl -s http://x/a"),
            "curl -b XDEBUG_SESSION=debugger-mcp -s http://x/a"
        );
        assert_eq!(
            trigger_command("curl -b XDEBUG_SESSION=me http://x"),
            "curl -b XDEBUG_SESSION=me http://x"
        );
        assert_eq!(trigger_command("php a.php"), "php a.php");
        assert_eq!(php_program("A=1 php8.2 x.php").as_deref(), Some("php8.2"));
        assert_eq!(php_program("phpunit"), None);
        assert_eq!(php_program("cat x | php x.php").as_deref(), Some("php"));
        let (mut e, mut x) = (false, false);
        apply_preset("panic", &mut e, &mut x).unwrap();
        assert!(x && !e);
        apply_preset("profile", &mut e, &mut x).unwrap();
        assert!(e);
        assert!(
            apply_preset("fast", &mut e, &mut x)
                .unwrap_err()
                .to_string()
                .contains("standard, panic or profile")
        );
        assert!(descends_from(std::process::id(), std::process::id()));
        assert!(!descends_from(std::process::id(), 999_999_999));
    }
}
