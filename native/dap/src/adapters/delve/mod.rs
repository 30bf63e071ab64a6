//! delve (Go, `dlv dap`). Its quirks: it listens on TCP only; `go run`/`go test` command lines
//! and VS Code Go's launch modes; the program is built before delve starts (`gobuild`); its
//! stopOnEntry stops before the Go runtime runs (a breakpoint on `main.main` instead); no
//! `process` event (the debuggee is its child) and no `exited` event (the status is console
//! text after a disconnect); its terminal client's banner; panics as its exceptions (a step
//! breaks on `runtime.gopanic` to say it ended in one: `step_raises`); returned values that its
//! DAP does not show, read from registers after a step out (`returns`).

mod gobuild;
mod gocmd;
mod returns;
mod strings;

use super::{Adapter, Settings, on_path};
use crate::config::{Generic, ResolvedLaunch};
use crate::transport::Wire;
use async_trait::async_trait;
use crate::session::Session;
use debugger_mcp_core::backend::{
    AttachTarget, BackendError, BackendResult, OutputCategory, PrintFormat, ValueNode,
};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use gobuild::DEFAULT_BUILD_TIMEOUT;

pub struct Delve;

#[async_trait]
impl Adapter for Delve {
    /// delve 1.20's DAP server offers no value formats (its `initialize` answer has no
    /// supportsValueFormattingOptions) and evaluates Go expressions, which cannot call fmt
    /// without call injection: the value comes in decimal, bits are tested in the expression.
    fn format_command(&self, f: &PrintFormat, e: &str) -> Result<String, String> {
        let write = |letter: char| match letter {
            'x' | 'z' | 't' | 'o' | 'a' => Some(format!(
                "{e} for its decimal value, or test bits in the expression, e.g. {e}&0xff == 0x1f"
            )),
            'c' => Some(format!("string(rune({e}))")),
            _ => None,
        };
        Err(super::format_refusal(
            "Go (delve)",
            f,
            e,
            write,
            &format!("evaluate the slice or array, e.g. {e}[:16]"),
        ))
    }
    fn name(&self) -> &'static str {
        "delve"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["dlv", "go"]
    }

    /// Port 0: the system picks a free one, which dlv prints (see transport::Wire::Tcp).
    fn command(&self, _python: Option<&str>) -> BackendResult<(String, Vec<String>)> {
        Ok((
            dlv()?.display().to_string(),
            vec!["dap".into(), "--listen".into(), "127.0.0.1:0".into()],
        ))
    }
    /// `dlv dap` has no stdio mode.
    fn wire(&self) -> Wire {
        Wire::Tcp
    }
    fn spawn_hint(&self) -> &'static str {
        "delve is needed (apt install delve, or go install github.com/go-delve/delve/cmd/dlv@latest; or set DEBUGGER_MCP_DLV)"
    }
    /// Builds the program first (see `gobuild`); the binary belongs to the session.
    async fn prepare(
        &self,
        launch: &mut ResolvedLaunch,
        root: &Path,
        settings: &Settings,
    ) -> BackendResult<Option<PathBuf>> {
        let Some(binary) = built_binary(launch) else {
            return Ok(None);
        };
        gobuild::build(
            &mut launch.arguments,
            &launch.cwd,
            root,
            settings.go_build_timeout(),
        )
        .await?;
        Ok(Some(binary))
    }
    fn prepare_allowance(&self, launch: &ResolvedLaunch, settings: &Settings) -> Duration {
        if built_binary(launch).is_some() {
            settings.go_build_timeout()
        } else {
            Duration::ZERO
        }
    }

    fn parse_command(&self, cwd: &Path, words: &[String]) -> Option<BackendResult<Generic>> {
        let is_go = Path::new(&words[0]).file_name().is_some_and(|n| n == "go");
        (is_go && matches!(words.get(1).map(String::as_str), Some("run" | "test")))
            .then(|| gocmd::from_go_command(cwd, words))
    }
    fn claims_file_name(&self, name: &str) -> bool {
        name.ends_with(".go")
    }
    /// A Go binary carries its build information behind this magic (`go version -m` reads it).
    fn claims_process(&self, exe: &Path) -> u8 {
        const MAGIC: &[u8] = b"\xff Go buildinf:";
        let found = std::fs::read(exe).is_ok_and(|b| b.windows(MAGIC.len()).any(|w| w == MAGIC));
        if found { 2 } else { 0 }
    }
    /// `dlv dap` attaches to a local process (`mode: local`); a `dlv --headless` server already
    /// runs its target (`mode: remote`) and speaks DAP itself.
    fn attach_arguments(&self, target: &AttachTarget) -> Option<Map<String, Value>> {
        let v = match target {
            AttachTarget::Pid(pid) => json!({ "mode": "local", "processId": pid }),
            AttachTarget::Address(_) => json!({ "mode": "remote" }),
        };
        v.as_object().cloned()
    }
    fn serves_dap_at_address(&self) -> bool {
        true
    }
    fn complete(&self, r: &mut ResolvedLaunch) {
        if r.request == "launch" {
            launch_defaults(&mut r.arguments);
        }
        // delve's own stopOnEntry stops before the Go runtime has a goroutine, where no stack
        // trace can be had; the backend stops at main.main instead (`entry_function`).
        if r.arguments.remove("stopOnEntry").and_then(|v| v.as_bool()) == Some(true) {
            r.stop_on_entry = true;
        }
    }

    fn entry_function(&self) -> Option<&'static str> {
        Some("main.main")
    }

    /// delve reads the debug information of the shared libraries the program loaded (libc's,
    /// from /usr/lib/debug when libc6-dbg is installed) at the first stop after the dynamic
    /// loader ran them in: `linutil.ElfUpdateSharedObjects`, called by the native backend's
    /// `stop1` at every stop (delve 1.20.2, pkg/proc/native/proc_linux.go), adding each new
    /// library with `BinaryInfo.AddImage`. A launched program's first stop of its own is
    /// therefore the slow one (1.3-1.9 s measured on a `net/http` server's first `pause`);
    /// `runtime.rt0_go` is the first Go code of every Go program, linked internally or
    /// externally (runtime/asm_amd64.s, asm_arm64.s), run after the loader and before the
    /// runtime starts, so a stop there pays it before the program does anything.
    fn warm_up_function(&self) -> Option<&'static str> {
        Some("runtime.rt0_go")
    }

    /// delve has no exception filters; a panic is Go's exception. `gopanic(e any)` is where
    /// every panic starts, runtime errors (index, nil map, nil pointer) included.
    fn raise_function(&self) -> Option<(&'static str, &'static str)> {
        Some(("runtime.gopanic", "e"))
    }
    /// `recover()` compiles to a call of `runtime.gorecover` in the deferred function.
    fn recover_function(&self) -> Option<&'static str> {
        Some("runtime.gorecover")
    }
    /// delve stops at its own breakpoints on an unrecovered panic and a fatal throw
    /// (`proc.UnrecoveredPanic`, `proc.FatalThrow`) with reason "exception" and these words.
    fn is_fatal_stop(&self, reason: &str, description: Option<&str>) -> bool {
        reason == "exception" && matches!(description, Some("panic" | "fatal error"))
    }

    /// The returned value is in registers after a step out (`returns`).
    async fn before_step_out(&self, s: &Session, thread: i64) {
        returns::note_result_types(s, thread).await;
    }
    async fn returned_value(&self, s: &Session, frame_id: i64) -> Option<ValueNode> {
        returns::returned(s, frame_id).await
    }

    /// Strings cut at delve's limit say their real length (`strings`).
    async fn real_sizes(&self, _s: &Session, nodes: &mut [ValueNode], _frame_id: Option<i64>) {
        strings::mark(nodes);
    }
    /// The context in which delve loads 4,096 bytes of a string and shows them all.
    fn whole_value_context(&self) -> Option<&'static str> {
        Some("clipboard")
    }
    async fn rest_of_string(&self, s: &Session, node: &mut ValueNode, expr: &str, frame_id: i64) {
        strings::rest(s, node, expr, frame_id).await;
    }

    fn debuggee_is_child(&self) -> bool {
        true
    }
    fn exit_status_after_disconnect(&self) -> bool {
        true
    }
    fn exit_status(&self, category: OutputCategory, text: &str) -> Option<i64> {
        (category == OutputCategory::Console)
            .then(|| exit_status(text))
            .flatten()
    }
    /// dlv's terminal-client banner, meaningless over DAP.
    fn is_chatter(&self, category: OutputCategory, text: &str) -> bool {
        category == OutputCategory::Console && text.starts_with("Type 'dlv help'")
    }
}

/// The binary a launch builds before delve starts (modes debug/test), removed when it ends.
fn built_binary(launch: &ResolvedLaunch) -> Option<PathBuf> {
    (launch.request == "launch" && gobuild::builds(&launch.arguments))
        .then(|| {
            launch
                .arguments
                .get("output")
                .and_then(Value::as_str)
                .map(PathBuf::from)
        })
        .flatten()
}

/// delve's launch arguments where the configuration left them open: the mode from the program
/// (VS Code Go's "auto": a `_test.go` file → test, a package directory or .go file → debug,
/// anything else → exec), and the binary it builds in a temporary directory rather than as
/// `__debug_bin` in the user's project (delve removes it when the session ends).
fn launch_defaults(a: &mut Map<String, Value>) {
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
    if gobuild::builds(a) && !a.contains_key("output") {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = std::env::temp_dir().join(format!("debugger-mcp-dlv-{}-{n}", std::process::id()));
        a.insert("output".into(), json!(out.display().to_string()));
    }
}

/// The exit status in delve's "Process 4242 has exited with status 1" console line.
fn exit_status(text: &str) -> Option<i64> {
    let rest = text.trim().strip_prefix("Process ")?;
    let (pid, rest) = rest.split_once(' ')?;
    pid.parse::<u32>().ok()?;
    rest.strip_prefix("has exited with status ")?
        .trim()
        .parse()
        .ok()
}

/// delve: $DEBUGGER_MCP_DLV, else `dlv` on PATH, else where `go install` puts it.
fn dlv() -> Result<PathBuf, BackendError> {
    if let Ok(p) = std::env::var("DEBUGGER_MCP_DLV") {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = on_path(&["dlv"]).into_iter().next() {
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
    use super::exit_status;

    #[test]
    fn console_gives_the_exit_status() {
        assert_eq!(
            exit_status("Process 12227 has exited with status 0\n"),
            Some(0)
        );
        assert_eq!(exit_status("Process 9 has exited with status 1"), Some(1));
        assert_eq!(
            exit_status("Detaching and terminating target process\n"),
            None
        );
        assert_eq!(exit_status("Process x has exited with status 2"), None);
    }
}
