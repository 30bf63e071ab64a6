//! Attaching to what already runs: the checks made before a debugger is asked to ptrace a
//! process (so a refusal names its fix instead of surfacing as an adapter's timeout), and the
//! adapter a process is debugged with when the agent did not name one.
//!
//! Linux only reads `/proc`; elsewhere the checks pass and the adapter's own error stands.

use crate::adapters::{ADAPTERS, AdapterRef};
use crate::breakpoints::Override;
use crate::protocol;
use crate::session::Session;
use debugger_mcp_core::backend::{BackendError, BackendResult, SessionState};
use std::path::{Path, PathBuf};

/// CAP_SYS_PTRACE's bit in the capability sets of /proc/<pid>/status.
const CAP_SYS_PTRACE: u32 = 19;

/// What /proc says about a process that matters to tracing it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ProcStatus {
    pub name: String,
    pub tracer: u32,
    /// Real, effective, saved and filesystem uids.
    pub uids: Vec<u32>,
    pub ppid: u32,
    pub cap_eff: u64,
}

pub fn parse_status(text: &str) -> ProcStatus {
    let mut st = ProcStatus::default();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key {
            "Name" => st.name = value.to_string(),
            "TracerPid" => st.tracer = value.parse().unwrap_or(0),
            "PPid" => st.ppid = value.parse().unwrap_or(0),
            "Uid" => {
                st.uids = value
                    .split_whitespace()
                    .filter_map(|u| u.parse().ok())
                    .collect()
            }
            "CapEff" => st.cap_eff = u64::from_str_radix(value, 16).unwrap_or(0),
            _ => {}
        }
    }
    st
}

fn status(pid: u32) -> Option<ProcStatus> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .map(|t| parse_status(&t))
}

/// Why this process may not ptrace `target`, worded with the fix; `None` when nothing stands
/// in the way (or this is not Linux). `me` is this process's status, `scope` the Yama
/// `ptrace_scope` (absent without Yama), `is_descendant` whether `target` descends from us.
pub fn refusal(
    pid: u32,
    target: &ProcStatus,
    me: &ProcStatus,
    scope: Option<u8>,
    is_descendant: bool,
) -> Option<String> {
    if target.tracer != 0 {
        let who = status(target.tracer)
            .map(|t| format!(" ({})", t.name))
            .unwrap_or_default();
        return Some(format!(
            "process {pid} ({}) is already traced by pid {}{who}: a process has one tracer at a time; detach that debugger (quit its gdb/strace) and attach again",
            target.name, target.tracer
        ));
    }
    let privileged = me.cap_eff & (1 << CAP_SYS_PTRACE) != 0;
    match scope {
        Some(3) => {
            return Some(
                "ptrace is disabled on this machine (/proc/sys/kernel/yama/ptrace_scope is 3, which only a reboot lowers): no debugger can attach; start the program under the debugger instead".into(),
            );
        }
        Some(2) if !privileged => {
            return Some(format!(
                "ptrace of process {pid} refused: /proc/sys/kernel/yama/ptrace_scope is 2 (admin only) and this server lacks CAP_SYS_PTRACE; run it as root or with that capability (setcap cap_sys_ptrace+ep $(which debugger-mcp)), or start the program under the debugger instead"
            ));
        }
        Some(1) if !privileged && !is_descendant => {
            return Some(format!(
                "ptrace of process {pid} refused: /proc/sys/kernel/yama/ptrace_scope is 1 (a process may trace only its own descendants) and this server lacks CAP_SYS_PTRACE; fix with `sudo sysctl kernel.yama.ptrace_scope=0`, or give the server CAP_SYS_PTRACE, or start the program under the debugger instead"
            ));
        }
        _ => {}
    }
    let my_uid = me.uids.first().copied();
    let foreign = my_uid.is_some_and(|u| target.uids.iter().any(|t| *t != u));
    if foreign && !privileged {
        return Some(format!(
            "ptrace of process {pid} ({}) refused: it runs as uid {} and this server as uid {} without CAP_SYS_PTRACE; run the server as that user, or as root with CAP_SYS_PTRACE",
            target.name,
            target.uids.first().copied().unwrap_or_default(),
            my_uid.unwrap_or_default()
        ));
    }
    None
}

/// Checks that `pid` exists and can be traced by this process.
pub fn check_pid(pid: u32) -> BackendResult<()> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let Some(target) = status(pid) else {
        return Err(BackendError::NotFound(format!(
            "no process with pid {pid} (list candidates with `ps -eo pid,comm,args`)"
        )));
    };
    if pid == std::process::id() {
        return Err(BackendError::Failed(
            "pid is this debugger server's own process".into(),
        ));
    }
    let me = status(std::process::id()).unwrap_or_default();
    let scope = std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope")
        .ok()
        .and_then(|s| s.trim().parse().ok());
    match refusal(pid, &target, &me, scope, descends_from_me(pid)) {
        Some(why) => Err(BackendError::Failed(why)),
        None => Ok(()),
    }
}

fn descends_from_me(pid: u32) -> bool {
    let me = std::process::id();
    let mut p = pid;
    for _ in 0..64 {
        match status(p) {
            Some(st) if st.ppid == me => return true,
            Some(st) if st.ppid > 1 => p = st.ppid,
            _ => return false,
        }
    }
    false
}

/// The process's executable, as /proc links it.
pub fn executable(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/exe")).ok()
}

/// The adapter that debugs the process best: the one claiming its executable most strongly
/// (a Python interpreter debugpy, a Go binary delve, any native binary gdb).
pub fn adapter_for(pid: u32) -> BackendResult<AdapterRef> {
    let exe = executable(pid).ok_or_else(|| {
        BackendError::Failed(format!(
            "cannot read /proc/{pid}/exe to tell which debugger fits process {pid}; name the adapter (debugpy, gdb, lldb or delve)"
        ))
    })?;
    // A program rebuilt while it runs: /proc names its executable `… (deleted)`. Its name
    // (without the mark) still tells an interpreter, and /proc/PID/exe still opens the file
    // the process runs (an ELF for gdb, a Go binary for delve).
    let mut candidates = vec![exe.clone()];
    if let Some(name) = exe.to_str().and_then(|e| e.strip_suffix(" (deleted)")) {
        candidates.push(PathBuf::from(name));
        candidates.push(PathBuf::from(format!("/proc/{pid}/exe")));
    }
    candidates
        .iter()
        .filter_map(|c| best_claim(c))
        .max_by_key(|(rank, _)| *rank)
        .map(|(_, a)| a)
        .ok_or_else(|| {
            BackendError::Failed(format!(
                "no debugger here recognises {} (process {pid}); name the adapter (debugpy, gdb, lldb or delve)",
                exe.display()
            ))
        })
}

/// The debugger listening at `addr` when it listens on this machine's loopback: the process
/// owning the listening socket, told by its command line (debugpy's adapter, gdbserver, dlv).
/// A debugger reached through a tunnel or on another host is not seen here: `probe` asks it.
fn listener_adapter(addr: &str) -> Option<AdapterRef> {
    let (host, port) = addr.rsplit_once(':')?;
    if !debugger_mcp_core::backend::is_loopback(host) {
        return None;
    }
    let port: u16 = port.parse().ok()?;
    let pid = debugger_mcp_core::backend::listening_pid(port)?;
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let words: Vec<String> = cmdline
        .split(|b| *b == 0)
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    let base = |w: &String| {
        Path::new(w)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    // A program run through the dynamic loader (`ld-linux-x86-64.so.2 …/gdbserver …`, as the
    // pip-packaged gdbserver is) is its second word.
    let program = words
        .iter()
        .find(|w| !(base(w).starts_with("ld-linux") || base(w).starts_with("ld.so")));
    let name = if words.iter().any(|w| w.contains("debugpy")) {
        "debugpy"
    } else if program.is_some_and(|w| base(w) == "gdbserver") {
        "gdb"
    } else if program.is_some_and(|w| base(w) == "dlv") {
        "delve"
    } else {
        return None;
    };
    crate::adapters::find(name).ok()
}

/// For an attach by address with no mapping configured (no launch.json entry, compose file):
/// where the program's files are on its side, when that is not where the project has them (a
/// container, another host). The adapter reads the main script and the breakpoints' files
/// there (`Adapter::remote_sources`); the first that is a project file byte for byte (SHA-256)
/// gives the mapping (`PathMap::inferred`), and the breakpoints are sent again through it.
/// Nothing changes when the files are where the project has them, or none matches.
pub async fn infer_mapping(inner: &crate::session::Inner, s: &Session) {
    use sha2::{Digest, Sha256};
    if !s.pathmap.read().unwrap().is_empty() {
        return;
    }
    let names: Vec<String> = inner
        .bp_files()
        .iter()
        .filter_map(|f| {
            Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .collect();
    let found = s.adapter.remote_sources(s, &names).await;
    let hex = |b: &[u8]| {
        Sha256::digest(b)
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
    };
    let mut map = None;
    // The program runs where the project is (this machine, or the same paths): nothing to map.
    if found
        .iter()
        .any(|(remote, digest)| std::fs::read(remote).is_ok_and(|b| hex(&b) == *digest))
    {
        return;
    }
    for (remote, digest) in &found {
        let (root, remote, digest) = (inner.root.clone(), remote.clone(), digest.clone());
        let m = tokio::task::spawn_blocking(move || {
            debugger_mcp_core::pathmap::PathMap::inferred(&root, &remote, |b| hex(b) == digest)
        })
        .await
        .ok()
        .flatten();
        if m.is_some() {
            map = m;
            break;
        }
    }
    let Some(map) = map else { return };
    tracing::info!("path mapping {}", map.describe(&inner.root));
    *s.pathmap.write().unwrap() = map;
    if let Err(e) = inner.sync_all_lines(s).await {
        tracing::warn!("breakpoints through the inferred mapping: {e}");
    }
}

/// The adapter of the debugger at `addr`, for an attach that names none: the listening process
/// when it is on this machine (`listener_adapter`), else what the port answers — through a
/// tunnel or from a container or another host the listener is out of sight.
pub async fn adapter_at(addr: &str) -> Option<AdapterRef> {
    if let Some(a) = listener_adapter(addr) {
        return Some(a);
    }
    crate::adapters::find(probe(addr).await?).ok()
}

/// How long the probe waits to connect, then for the first answer.
const PROBE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Which debugger answers at `addr`: one DAP `initialize` whose client name carries the remote
/// protocol's `?` packet (`$?#3f`). A DAP server (debugpy's adapter, `dlv --headless`) answers
/// the request and is then sent `disconnect`, leaving the program running — debugpy 1.8's
/// adapter answers no later client's `initialize` after one that hung up without it (checked);
/// gdbserver skips the bytes outside a packet and acknowledges the packet with `+`. Nothing else
/// is sent: a byte outside DAP's framing makes debugpy's adapter exit. A port where nobody
/// answers is left to the attach's own error.
async fn probe(addr: &str) -> Option<&'static str> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::time::{Instant, timeout, timeout_at};
    let mut stream = timeout(PROBE_WAIT, tokio::net::TcpStream::connect(addr))
        .await
        .ok()?
        .ok()?;
    let frame = |seq: u32, command: &str, arguments: serde_json::Value| {
        let body = serde_json::json!({
            "seq": seq, "type": "request", "command": command, "arguments": arguments,
        })
        .to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let hello = frame(
        1,
        "initialize",
        serde_json::json!({"clientID": "debugger-mcp", "clientName": "debugger-mcp $?#3f", "adapterID": "probe"}),
    );
    stream.write_all(hello.as_bytes()).await.ok()?;
    let mut got: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    let deadline = Instant::now() + PROBE_WAIT;
    let name = loop {
        match timeout_at(deadline, stream.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
            _ => return None,
        }
        if matches!(got.first(), Some(b'+' | b'$')) {
            return Some("gdb");
        }
        if let Some(name) = dap_server(&got) {
            break name;
        }
    };
    let bye = frame(
        2,
        "disconnect",
        serde_json::json!({"terminateDebuggee": false}),
    );
    // debugpy's answer, briefly: its adapter must have taken the disconnect before the socket
    // closes. dlv (1.20) answers none to a client that never attached, so it is not waited for.
    if stream.write_all(bye.as_bytes()).await.is_ok() && name == "debugpy" {
        let deadline = Instant::now() + std::time::Duration::from_millis(500);
        while let Ok(Ok(n)) = timeout_at(deadline, stream.read(&mut buf)).await {
            if n == 0 || String::from_utf8_lossy(&buf[..n]).contains("\"disconnect\"") {
                break;
            }
        }
    }
    Some(name)
}

/// The adapter behind a DAP server's first messages, once its `initialize` response is among
/// them: debugpy says so; delve is the other debugger that serves DAP at an address.
fn dap_server(got: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(got);
    let answered = text
        .split("Content-Length")
        .any(|m| m.contains("\"response\"") && m.contains("\"initialize\""));
    if !answered {
        return None;
    }
    if text.contains("debugpy") || text.contains("ptvsd") || text.contains("\"userUnhandled\"") {
        Some("debugpy")
    } else {
        Some("delve")
    }
}

fn best_claim(exe: &Path) -> Option<(u8, AdapterRef)> {
    ADAPTERS
        .iter()
        .map(|a| (a.claims_process(exe), *a))
        .filter(|(rank, _)| *rank > 0)
        .max_by_key(|(rank, _)| *rank)
}

impl crate::session::Inner {
    /// Leaves an attached process as it was found: every breakpoint and exception filter of
    /// ours taken out, and running (a paused program resumed), before the disconnect. A
    /// debugger that stays (`dlv --headless --accept-multiclient`) would otherwise keep them
    /// armed and stop the next request with no one to resume it. Best effort, each step
    /// bounded by the request timeout.
    pub async fn clear_for_detach(&self, s: &Session) {
        *s.override_.lock().unwrap() = Some(Override {
            temp: None,
            suppress: true,
        });
        let _ = self.sync_all_lines(s).await;
        let _ = self.sync_functions(s, None).await;
        let _ = s
            .req::<protocol::SetExceptionBreakpoints>(&protocol::SetExceptionBreakpointsArguments {
                filters: vec![],
                filter_options: None,
                exception_options: None,
            })
            .await;
        if let Some(command) = s.adapter.detach_command() {
            if let Err(e) = s.repl(command, None).await {
                tracing::warn!("{command} before the disconnect failed: {e}");
            }
            return;
        }
        if *s.state.lock().unwrap() == SessionState::Paused {
            let thread_id = s.last_thread.lock().unwrap().unwrap_or(0);
            let _ = s
                .req::<protocol::Continue>(&protocol::ThreadArguments { thread_id })
                .await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me() -> ProcStatus {
        ProcStatus {
            name: "debugger-mcp".into(),
            uids: vec![1000; 4],
            ..Default::default()
        }
    }
    fn target() -> ProcStatus {
        ProcStatus {
            name: "python3".into(),
            uids: vec![1000; 4],
            ..Default::default()
        }
    }

    #[test]
    fn reads_the_fields_that_decide_tracing() {
        let st = parse_status(
            "Name:\tpython3\nPPid:\t12\nTracerPid:\t77\nUid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\n",
        );
        assert_eq!(st.name, "python3");
        assert_eq!(st.tracer, 77);
        assert_eq!(st.ppid, 12);
        assert_eq!(st.uids, vec![0, 0, 0, 0]);
        assert_ne!(st.cap_eff & (1 << CAP_SYS_PTRACE), 0);
    }

    #[test]
    fn each_refusal_names_its_fix() {
        assert_eq!(refusal(9, &target(), &me(), Some(0), false), None);
        let scope1 = refusal(9, &target(), &me(), Some(1), false).unwrap();
        assert!(scope1.contains("ptrace_scope is 1") && scope1.contains("sysctl"));
        assert_eq!(refusal(9, &target(), &me(), Some(1), true), None);
        let mut root = me();
        root.cap_eff = 1 << CAP_SYS_PTRACE;
        assert_eq!(refusal(9, &target(), &root, Some(1), false), None);
        assert!(
            refusal(9, &target(), &root, Some(3), false)
                .unwrap()
                .contains("reboot")
        );
        let mut other = target();
        other.uids = vec![0; 4];
        let uid = refusal(9, &other, &me(), None, false).unwrap();
        assert!(
            uid.contains("uid 0") && uid.contains("CAP_SYS_PTRACE"),
            "{uid}"
        );
        let mut traced = target();
        traced.tracer = 4242;
        let t = refusal(9, &traced, &root, None, false).unwrap();
        assert!(t.contains("already traced by pid 4242"), "{t}");
    }
}
