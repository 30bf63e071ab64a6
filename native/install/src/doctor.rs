//! `debugger-mcp doctor`: which debuggers work for a project and why the others do not, each
//! failing line with the command that fixes it. One implementation for the CLI and the IDE's
//! tool window (through JNI), like the installer beside it: both hosts set up the same machine.
//!
//! What the host knows and this crate does not (the discovery directory, running servers, the
//! settings file) comes in through [`Inputs`]. Every external command runs with a timeout, so a
//! hanging tool cannot hang the report.

use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the host knows.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    pub project: PathBuf,
    /// Discovery directory (see `debugger_mcp_core::discovery`), if one can be determined.
    pub discovery_dir: Option<PathBuf>,
    /// Running servers from discovery records: (product, url).
    pub servers: Vec<(String, String)>,
    /// The server settings file and whether it holds a token.
    pub settings: Option<PathBuf>,
    pub token_set: bool,
}

/// One line of the report.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Check {
    pub name: String,
    pub ok: bool,
    pub detail: String,
    /// The command (or step) that fixes a failing check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub project: String,
    pub checks: Vec<Check>,
}

fn ok(name: &str, detail: impl Into<String>) -> Check {
    Check {
        name: name.into(),
        ok: true,
        detail: detail.into(),
        fix: None,
    }
}

fn fail(name: &str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        name: name.into(),
        ok: false,
        detail: detail.into(),
        fix: Some(fix.into()),
    }
}

/// Bound on each external command (`gdb --version` on a cold cache takes a second or two).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `program args`, returning (success, stdout + stderr) or `None` when it cannot start or
/// times out.
fn run(program: &Path, args: &[&str]) -> Option<(bool, String)> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < COMMAND_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Some((out.status.success(), text))
}

/// The first of `names` on PATH.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&paths) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var).map(PathBuf::from)
}

/// The Python the project uses: its virtual environment, else `$DEBUGGER_MCP_PYTHON`, else
/// `python3` on PATH (what the DAP backend runs debugpy with).
pub fn project_python(project: &Path) -> Option<PathBuf> {
    for venv in [".venv", "venv", "env"] {
        for exe in ["bin/python", "Scripts/python.exe"] {
            let p = project.join(venv).join(exe);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    env_path("DEBUGGER_MCP_PYTHON").or_else(|| on_path(&["python3", "python"]))
}

fn python(project: &Path) -> Check {
    let Some(py) = project_python(project) else {
        return fail(
            "python",
            "no python3 on PATH and no project venv (.venv, venv)",
            "install Python 3, e.g. apt-get install python3 python3-pip",
        );
    };
    let shown = py.display();
    match run(
        &py,
        &[
            "-c",
            "import sys, debugpy; print(sys.version.split()[0], debugpy.__version__)",
        ],
    ) {
        Some((true, out)) => {
            let mut words = out.split_whitespace();
            let (v, d) = (words.next().unwrap_or("?"), words.next().unwrap_or("?"));
            ok(
                "python",
                format!("{shown} (Python {v}): debugpy {d} imports"),
            )
        }
        Some((false, _)) => fail(
            "python",
            format!("{shown}: debugpy does not import"),
            format!("{shown} -m pip install debugpy"),
        ),
        None => fail(
            "python",
            format!("{shown} does not run"),
            "install Python 3 or set DEBUGGER_MCP_PYTHON to one that runs",
        ),
    }
}

/// "GNU gdb (GDB) 18.1" → 18.
fn gdb_major(line: &str) -> Option<u32> {
    line.split_whitespace()
        .last()?
        .split('.')
        .next()?
        .parse()
        .ok()
}

fn gdb() -> Check {
    let fix = "pip install gdb-for-pwndbg (or apt-get install gdb >= 14; or set DEBUGGER_MCP_GDB)";
    let candidates: Vec<PathBuf> = match env_path("DEBUGGER_MCP_GDB") {
        Some(p) => vec![p],
        None => ["gdb", "gdb-multiarch"]
            .iter()
            .filter_map(|n| on_path(&[n]))
            .collect(),
    };
    if candidates.is_empty() {
        return fail("gdb", "not found on PATH (C, C++, Rust under gdb)", fix);
    }
    let mut seen = Vec::new();
    for p in &candidates {
        match run(p, &["--version"]) {
            Some((_, out)) => {
                let line = out.lines().next().unwrap_or("").to_string();
                match gdb_major(&line) {
                    Some(v) if v >= 14 => {
                        return ok(
                            "gdb",
                            format!("{} ({line}): has the DAP interpreter", p.display()),
                        );
                    }
                    _ => seen.push(format!("{} is '{line}'", p.display())),
                }
            }
            None => seen.push(format!("{} does not run", p.display())),
        }
    }
    fail(
        "gdb",
        format!("{}; DAP needs gdb >= 14", seen.join("; ")),
        fix,
    )
}

fn lldb_dap() -> Check {
    let fix = "apt-get install lldb-19 (or set DEBUGGER_MCP_LLDB_DAP)";
    if let Some(p) = env_path("DEBUGGER_MCP_LLDB_DAP") {
        return if p.is_file() {
            ok("lldb-dap", p.display().to_string())
        } else {
            fail(
                "lldb-dap",
                format!("DEBUGGER_MCP_LLDB_DAP={} does not exist", p.display()),
                fix,
            )
        };
    }
    let mut names = vec!["lldb-dap".to_string()];
    names.extend((14..=25).rev().map(|v| format!("lldb-dap-{v}")));
    names.push("lldb-vscode".into());
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let found = on_path(&refs).or_else(|| {
        (14..=25)
            .rev()
            .map(|v| PathBuf::from(format!("/usr/lib/llvm-{v}/bin/lldb-dap")))
            .find(|p| p.is_file())
    });
    match found {
        Some(p) => ok("lldb-dap", p.display().to_string()),
        None => fail(
            "lldb-dap",
            "not found (C, C++, Rust, Swift under LLDB)",
            fix,
        ),
    }
}

fn go_and_dlv() -> Vec<Check> {
    let go = match on_path(&["go"]).and_then(|p| run(&p, &["version"]).map(|r| (p, r))) {
        Some((p, (true, out))) => ok("go", format!("{} ({})", p.display(), out.trim())),
        _ => fail(
            "go",
            "go not found on PATH (needed to build Go programs for delve)",
            "install Go from https://go.dev/dl or apt-get install golang-go",
        ),
    };
    let gopath_dlv = env_path("GOPATH")
        .or_else(|| env_path("HOME").map(|h| h.join("go")))
        .map(|g| g.join("bin/dlv"))
        .filter(|p| p.is_file());
    let dlv = match env_path("DEBUGGER_MCP_DLV")
        .or_else(|| on_path(&["dlv"]))
        .or(gopath_dlv)
    {
        Some(p) => match run(&p, &["version"]) {
            Some((true, out)) => ok(
                "dlv",
                format!(
                    "{} ({})",
                    p.display(),
                    out.lines()
                        .nth(1)
                        .or(out.lines().next())
                        .unwrap_or("")
                        .trim()
                ),
            ),
            _ => fail(
                "dlv",
                format!("{} does not run", p.display()),
                "go install github.com/go-delve/delve/cmd/dlv@latest",
            ),
        },
        None => fail(
            "dlv",
            "delve not found (Go)",
            "go install github.com/go-delve/delve/cmd/dlv@latest (or apt-get install delve; or set DEBUGGER_MCP_DLV)",
        ),
    };
    vec![go, dlv]
}

fn php() -> Check {
    let fix = "apt-get install php-cli php-xdebug";
    let Some(p) = on_path(&["php"]) else {
        return fail("php+xdebug", "php not found on PATH (PHP over Xdebug)", fix);
    };
    match run(&p, &["-m"]) {
        Some((true, out)) if out.lines().any(|l| l.trim().eq_ignore_ascii_case("xdebug")) => {
            ok("php+xdebug", format!("{}: Xdebug loaded", p.display()))
        }
        Some((true, _)) => fail(
            "php+xdebug",
            format!("{}: the Xdebug extension is not loaded", p.display()),
            "apt-get install php-xdebug (or pecl install xdebug and enable it in php.ini)",
        ),
        _ => fail("php+xdebug", format!("{} does not run", p.display()), fix),
    }
}

fn ptrace_scope() -> Option<Check> {
    let text = std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope").ok()?;
    let v = text.trim();
    Some(match v {
        "0" => ok(
            "ptrace_scope",
            "0: debuggers may launch programs and attach to any of yours",
        ),
        "1" => ok(
            "ptrace_scope",
            "1: launching works; attaching to a running process needs 0 or root",
        ),
        other => fail(
            "ptrace_scope",
            format!("{other}: debuggers cannot trace programs (gdb, lldb, delve fail)"),
            "sudo sysctl kernel.yama.ptrace_scope=1",
        ),
    })
}

fn discovery(inputs: &Inputs) -> Check {
    let Some(dir) = &inputs.discovery_dir else {
        return fail(
            "discovery",
            "no directory for discovery records (HOME unset)",
            "set HOME, or DEBUGGER_MCP_DISCOVERY_DIR to a private directory",
        );
    };
    if !dir.exists() {
        return ok(
            "discovery",
            format!(
                "{} (created private by the first server that starts)",
                dir.display()
            ),
        );
    }
    let probe = dir.join(format!(".doctor-{}", std::process::id()));
    let writable = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    if !writable {
        return fail(
            "discovery",
            format!(
                "{} is not writable: `debugger-mcp stdio` cannot find servers",
                dir.display()
            ),
            format!("mkdir -p {0} && chmod 700 {0}", dir.display()),
        );
    }
    let servers = if inputs.servers.is_empty() {
        "no server running".to_string()
    } else {
        inputs
            .servers
            .iter()
            .map(|(p, u)| format!("{p} at {u}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    ok("discovery", format!("{}: {servers}", dir.display()))
}

fn token(inputs: &Inputs) -> Check {
    let file = inputs
        .settings
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "the settings file".into());
    if inputs.token_set {
        ok(
            "token",
            format!("set in {file}; agents installed with `debugger-mcp install` send it"),
        )
    } else {
        // Loopback-only with Host/Origin checks is safe; a token also keeps other local users' processes out.
        ok(
            "token",
            format!(
                "none in {file}: any local process may call the server (`debugger-mcp install` writes one)"
            ),
        )
    }
}

/// Ports: the IDE's built-in server (63342) and Xdebug's DBGp port (9003).
fn ports() -> Vec<Check> {
    let in_use = |port: u16| std::net::TcpListener::bind(("127.0.0.1", port)).is_err();
    let ide = if in_use(63342) {
        ok(
            "port 63342",
            "in use: an IDE's built-in server (the plugin's endpoint is http://127.0.0.1:63342/debugger-mcp)",
        )
    } else {
        ok(
            "port 63342",
            "free: no IDE running (agents reach `debugger-mcp serve` at its own port, or through `debugger-mcp stdio`)",
        )
    };
    let dbgp = if in_use(9003) {
        ok(
            "port 9003",
            "in use: the DBGp backend takes the next free one of 9004-9010 and hands it to the triggered command",
        )
    } else {
        ok("port 9003", "free for Xdebug (DBGp)")
    };
    vec![ide, dbgp]
}

/// The whole report.
pub fn report(inputs: &Inputs) -> Report {
    let mut checks = vec![python(&inputs.project), gdb(), lldb_dap()];
    checks.extend(go_and_dlv());
    checks.push(php());
    checks.extend(ptrace_scope());
    checks.push(discovery(inputs));
    checks.push(token(inputs));
    checks.extend(ports());
    Report {
        project: inputs.project.display().to_string(),
        checks,
    }
}

impl Report {
    /// One line per check; failing ones end with the command that fixes them.
    pub fn text(&self) -> String {
        let mut out = format!("debugger-mcp doctor for {}\n", self.project);
        for c in &self.checks {
            out.push_str(&format!(
                "{} {}: {}\n",
                if c.ok { "ok  " } else { "FAIL" },
                c.name,
                c.detail
            ));
            if let Some(fix) = &c.fix {
                out.push_str(&format!("     fix: {fix}\n"));
            }
        }
        let failing = self.checks.iter().filter(|c| !c.ok).count();
        out.push_str(&if failing == 0 {
            "everything works\n".to_string()
        } else {
            format!("{failing} check(s) failed; each names its fix\n")
        });
        out
    }

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn gdb_versions() {
        assert_eq!(super::gdb_major("GNU gdb (GDB) 18.1"), Some(18));
        assert_eq!(super::gdb_major("GNU gdb (Debian 13.1-3) 13.1"), Some(13));
    }

    #[test]
    fn a_project_venv_is_the_python_it_uses() {
        let dir = std::env::temp_dir().join(format!("dmcp-doctor-venv-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".venv/bin")).unwrap();
        std::fs::write(dir.join(".venv/bin/python"), "").unwrap();
        assert_eq!(
            super::project_python(&dir),
            Some(dir.join(".venv/bin/python"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
