//! Finding and starting debug adapters.

use crate::config::AdapterKind;
use crate::transport::Wire;
use debugger_mcp_core::backend::BackendError;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

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

/// The program and arguments that start an adapter (speaking DAP as [`wire`] says).
pub fn command(
    kind: AdapterKind,
    python: Option<&str>,
) -> Result<(String, Vec<String>), BackendError> {
    match kind {
        AdapterKind::Debugpy => {
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
        AdapterKind::Gdb => Ok((
            gdb()?.display().to_string(),
            vec!["--quiet".into(), "-i".into(), "dap".into()],
        )),
        AdapterKind::Lldb => Ok((lldb_dap()?.display().to_string(), vec![])),
        // Port 0: the system picks a free one, which dlv prints (see transport::Wire::Tcp).
        AdapterKind::Delve => Ok((
            dlv()?.display().to_string(),
            vec!["dap".into(), "--listen".into(), "127.0.0.1:0".into()],
        )),
    }
}

/// How the adapter speaks DAP: delve only listens on a TCP port (`dlv dap` has no stdio mode).
pub fn wire(kind: AdapterKind) -> Wire {
    match kind {
        AdapterKind::Delve => Wire::Tcp,
        _ => Wire::Stdio,
    }
}

/// Why an adapter could not start, worded with how to fix it.
pub fn spawn_hint(kind: AdapterKind) -> &'static str {
    match kind {
        AdapterKind::Debugpy => "is debugpy installed for this Python? (pip install debugpy)",
        AdapterKind::Gdb => {
            "gdb >= 14 with DAP is needed (pip install gdb-for-pwndbg, or set DEBUGGER_MCP_GDB)"
        }
        AdapterKind::Lldb => {
            "lldb-dap is needed (apt install lldb-19, or set DEBUGGER_MCP_LLDB_DAP)"
        }
        AdapterKind::Delve => {
            "delve is needed (apt install delve, or go install github.com/go-delve/delve/cmd/dlv@latest; or set DEBUGGER_MCP_DLV)"
        }
    }
}

fn path_candidates(names: &[&str]) -> Vec<PathBuf> {
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

/// Parses "GNU gdb (GDB) 18.1" / "GNU gdb (Debian 13.1-3) 13.1" into the major version.
pub fn gdb_major(version_line: &str) -> Option<u32> {
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
pub fn gdb() -> Result<PathBuf, BackendError> {
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
            for p in path_candidates(&["gdb", "gdb-multiarch"]) {
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

pub fn lldb_dap() -> Result<PathBuf, BackendError> {
    if let Ok(p) = std::env::var("DEBUGGER_MCP_LLDB_DAP") {
        return Ok(PathBuf::from(p));
    }
    let mut names = vec!["lldb-dap".to_string()];
    for v in (14..=25).rev() {
        names.push(format!("lldb-dap-{v}"));
    }
    names.push("lldb-vscode".into());
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    if let Some(p) = path_candidates(&refs).into_iter().next() {
        return Ok(p);
    }
    for v in (14..=25).rev() {
        let p = PathBuf::from(format!("/usr/lib/llvm-{v}/bin/lldb-dap"));
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(BackendError::Unsupported(
        "lldb-dap not found; install lldb (e.g. apt install lldb-19) or set DEBUGGER_MCP_LLDB_DAP"
            .into(),
    ))
}

/// delve: $DEBUGGER_MCP_DLV, else `dlv` on PATH, else where `go install` puts it.
pub fn dlv() -> Result<PathBuf, BackendError> {
    if let Ok(p) = std::env::var("DEBUGGER_MCP_DLV") {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = path_candidates(&["dlv"]).into_iter().next() {
        return Ok(p);
    }
    let gopath = std::env::var_os("GOPATH")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join("go")));
    if let Some(p) = gopath.map(|g| g.join("bin/dlv")).filter(|p| p.is_file()) {
        return Ok(p);
    }
    Err(BackendError::Unsupported(
        "dlv (delve) not found; install it (apt install delve, or go install github.com/go-delve/delve/cmd/dlv@latest) \
         or set DEBUGGER_MCP_DLV"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn parses_gdb_versions() {
        assert_eq!(super::gdb_major("GNU gdb (GDB) 18.1"), Some(18));
        assert_eq!(super::gdb_major("GNU gdb (Debian 13.1-3) 13.1"), Some(13));
    }
}
