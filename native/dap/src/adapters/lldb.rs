//! lldb-dap (LLVM ≥ 14; `lldb-vscode` before 18). Its quirks: finding the versioned binary,
//! `env` as a list of `K=V`, and a stop on entry in the dynamic loader (a breakpoint on `main`
//! instead).

use super::{Adapter, on_path};
use crate::config::{Generic, Redirect, RedirectTo};
use crate::session::Session;
use async_trait::async_trait;
use debugger_mcp_core::backend::{
    AttachTarget, BackendError, BackendResult, PrintFormat, ValueNode, ValueScope,
};
use serde_json::{Map, Value, json};
use std::path::PathBuf;

pub struct Lldb;

#[async_trait]
impl Adapter for Lldb {
    /// lldb-dap evaluates the name in the frame and watches the memory its *value* points at
    /// (`acct.limit` = 50 would watch address 50): the address of the value is asked for.
    fn data_breakpoint_name(&self, expression: &str) -> String {
        format!("&({expression})")
    }
    fn name(&self) -> &'static str {
        "lldb"
    }

    fn c_expressions(&self) -> bool {
        true
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["lldb-dap", "lldb-vscode", "codelldb"]
    }

    fn command(&self, _python: Option<&str>) -> BackendResult<(String, Vec<String>)> {
        Ok((lldb_dap()?.display().to_string(), vec![]))
    }
    fn spawn_hint(&self) -> &'static str {
        "lldb-dap is needed (apt install lldb-19, or set DEBUGGER_MCP_LLDB_DAP)"
    }

    /// A Mach-O binary (64-bit, or universal).
    fn claims_file(&self, head: &[u8]) -> bool {
        head.starts_with(&[0xcf, 0xfa, 0xed, 0xfe]) || head.starts_with(&[0xca, 0xfe, 0xba, 0xbe])
    }
    /// lldb-dap continues the attached process at configurationDone, after reporting its stop.
    fn attach_stop(&self) -> super::AttachStop {
        super::AttachStop::ResumedByAdapter
    }
    /// lldb-dap attaches by `pid`, or to a gdbserver/lldb-server by its remote port.
    fn attach_arguments(&self, target: &AttachTarget) -> Option<Map<String, Value>> {
        let v = match target {
            AttachTarget::Pid(pid) => json!({ "pid": pid }),
            AttachTarget::Address(addr) => {
                let (host, port) = addr.rsplit_once(':')?;
                json!({ "gdb-remote-port": port.parse::<u16>().ok()?, "gdb-remote-hostname": host })
            }
        };
        v.as_object().cloned()
    }
    fn launch_arguments(&self, g: &Generic) -> Map<String, Value> {
        let mut a = g.base_arguments(true);
        if !g.env.is_empty() {
            let list: Vec<String> = g
                .env
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect();
            a.insert("env".into(), json!(list));
        }
        a
    }

    /// lldb-dap 19's launch has no stdio argument, but it launches with the target's launch
    /// settings, which `preRunCommands` set: `target.input-path`, `target.output-path`,
    /// `target.error-path` (lldb opens each file itself, so it cannot append or share one
    /// open file between two streams).
    fn redirect(
        &self,
        redirects: &[Redirect],
        _g: &Generic,
        args: &mut Map<String, Value>,
    ) -> Result<(), String> {
        let mut commands = Vec::new();
        for r in redirects {
            let (setting, path) = match (&r.to, r.fd) {
                (RedirectTo::Read(p), 0) => ("input-path", p),
                (RedirectTo::Write(p), 1) => ("output-path", p),
                (RedirectTo::Write(p), 2) => ("error-path", p),
                _ => {
                    return Err(format!(
                        "lldb opens each of the program's streams on a file of its own: '{}' cannot be done; \
                         write '> out 2> err', or use adapter gdb",
                        r.shell()
                    ));
                }
            };
            let quoted = format!("\"{}\"", path.display().to_string().replace('\\', "\\\\").replace('"', "\\\""));
            commands.push(json!(format!("settings set target.{setting} {quoted}")));
        }
        let mut list = args
            .get("preRunCommands")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        list.extend(commands);
        args.insert("preRunCommands".into(), Value::Array(list));
        Ok(())
    }

    /// lldb-dap's stopOnEntry stops in the dynamic loader, before main.
    fn entry_function(&self) -> Option<&'static str> {
        Some("main")
    }
    /// lldb-dap 19 answers `setFunctionBreakpoints` in the order of its own name map, not the
    /// request's (seen with 8 names: the answers permuted, ids with them).
    fn function_answers_in_order(&self) -> bool {
        false
    }
    fn stop_on_exception_filters(&self) -> &'static [&'static str] {
        &["cpp_throw", "objc_throw", "swift_throw"]
    }
    fn catch_all_filters(&self) -> (&'static [&'static str], &'static [&'static str]) {
        (&["cpp_throw"], &["cpp_throw"])
    }
    /// A C++ `throw` stops the step where it throws.
    fn step_exception_filters(&self) -> &'static [&'static str] {
        &["cpp_throw"]
    }
    /// A one-shot breakpoint: "Breakpoint 3: where = libstdc++.so.6`__cxa_begin_catch …".
    fn catch_stop_command(&self) -> Option<&'static str> {
        Some("`breakpoint set --one-shot true --name __cxa_begin_catch")
    }
    fn delete_command(&self, n: i64) -> Option<String> {
        Some(format!("`breakpoint delete {n}"))
    }
    /// Signals stop as "exception" with the text "signal SIGABRT".
    fn is_signal_stop(&self, reason: &str, text: Option<&str>) -> bool {
        reason == "signal"
            || (reason == "exception" && text.is_some_and(|t| t.starts_with("signal SIG")))
    }
    /// lldb shows `target.max-string-summary-length` characters of a C string (1,024 by
    /// default, lldb/source/Target/TargetProperties.td), then `...`. Raised for the session to
    /// the core's whole-string bound, not around one evaluation as gdb's is: lldb keeps a
    /// variable's summary for the stop, so `page` evaluated after the variables were listed
    /// answers the summary cut then. The core cuts rows shorter, now knowing their length.
    fn repl_setup(&self) -> Vec<String> {
        vec![format!(
            "`settings set target.max-string-summary-length {}",
            debugger_mcp_core::backend::WHOLE_STRING_CHARS
        )]
    }
    /// `name == "eve"` on a `char *` compares text, as on gdb (`c_strings`).
    fn expression(&self, expression: &str) -> Option<String> {
        crate::c_strings::rewrite_as_bytes(expression)
    }
    /// `error: <user expression 0>:1:1: use of undeclared identifier 'state'`.
    fn unknown_name(&self, error: &str) -> Option<String> {
        let rest = error.split("use of undeclared identifier '").nth(1)?;
        Some(rest.split_once('\'')?.0.to_string())
    }
    /// lldb-dap's repl answers like its CLI (`(unsigned long) $0 = 5`) and takes commands; an
    /// expression is evaluated as one (calls and assignments run there too).
    fn repl_is_cli(&self) -> bool {
        true
    }
    /// lldb takes gdb's format letters on its own commands (`p/x` is `dwim-print` with a
    /// format, `x/4xw` is `memory read` with a gdb format), run as a command through the repl's
    /// backquote escape; the answer's text is read as gdb's (`values::format_answer`).
    fn format_command(&self, f: &PrintFormat, expression: &str) -> Result<String, String> {
        Ok(format!("`{}", f.gdb_command(expression).replacen("print/", "p/", 1)))
    }
    /// A command given as an expression: "use of undeclared identifier 'frame'".
    fn is_not_an_expression(&self, expression: &str, error: &str) -> bool {
        let first = super::command_word(expression);
        !first.is_empty() && error.contains(&format!("undeclared identifier '{first}'"))
    }
    /// lldb-dap 19 lists no return value after a step out, but its CLI's `thread info` says
    /// it ("Return value: (long) $0 = 3628800"); only for the top frame (lldb-dap's frame ids
    /// keep the frame's index in their low 19 bits).
    async fn returned_value(&self, s: &Session, frame_id: i64) -> Option<ValueNode> {
        if frame_id & ((1 << 19) - 1) != 0 {
            return None;
        }
        let said = s.repl("`thread info", Some(frame_id)).await.ok()?;
        parse_return_value(&said)
    }
    /// lldb-dap 19 lists arguments among the locals; its CLI names them apart (`frame variable
    /// --no-locals`: "(int) weight = 685"), so a recorded call shows its arguments, not the
    /// stale locals of the first body line.
    async fn mark_arguments(&self, s: &Session, nodes: &mut [ValueNode], frame_id: i64) {
        if !nodes.iter().any(|n| n.scope == ValueScope::Local) {
            return;
        }
        let Ok(said) = s.repl("`frame variable --no-locals", Some(frame_id)).await else {
            return;
        };
        let names: Vec<&str> = said
            .lines()
            .filter_map(|l| l.split_once(") ")?.1.split_once(" = ").map(|(n, _)| n.trim()))
            .collect();
        for n in nodes.iter_mut() {
            if n.scope == ValueScope::Local && names.contains(&n.name.as_str()) {
                n.scope = ValueScope::Argument;
            }
        }
    }
    /// Log-point text comes as "console" output.
    fn log_points_on_console(&self) -> bool {
        true
    }
}

fn lldb_dap() -> Result<PathBuf, BackendError> {
    if let Ok(p) = std::env::var("DEBUGGER_MCP_LLDB_DAP") {
        return Ok(PathBuf::from(p));
    }
    let mut names = vec!["lldb-dap".to_string()];
    for v in (14..=25).rev() {
        names.push(format!("lldb-dap-{v}"));
    }
    names.push("lldb-vscode".into());
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    if let Some(p) = on_path(&refs).into_iter().next() {
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

/// `Return value: (long) $0 = 3628800` out of `thread info` after a step out.
fn parse_return_value(text: &str) -> Option<ValueNode> {
    if !text.contains("stop reason = step out") {
        return None;
    }
    let line = text.lines().find_map(|l| l.trim().strip_prefix("Return value: "))?;
    let (type_name, rest) = match line.strip_prefix('(') {
        Some(r) => {
            let close = r.find(')')?;
            (Some(r[..close].to_string()), r[close + 1..].trim())
        }
        None => (None, line),
    };
    // `$0 = value`: the value after the convenience variable.
    let value = rest.split_once(" = ").map(|(_, v)| v).unwrap_or(rest);
    Some(ValueNode {
        name: "(Return Value)".into(),
        value: value.trim().to_string(),
        type_name,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn return_value_of_thread_info_after_a_step_out() {
        let said = "thread #1: tid = 7444, 0x5 calls`main at calls.c:35:15, name = 'calls', stop reason = step out\nReturn value: (long) $0 = 3628800\n";
        let v = super::parse_return_value(said).unwrap();
        assert_eq!((v.name.as_str(), v.value.as_str()), ("(Return Value)", "3628800"));
        assert_eq!(v.type_name.as_deref(), Some("long"));
        assert!(super::parse_return_value("stop reason = breakpoint 1.1\n").is_none());
    }

    #[test]
    fn an_undeclared_identifier_is_named() {
        use crate::adapters::Adapter;
        let said = "error: <user expression 0>:1:1: use of undeclared identifier 'level_state'\n    1 | level_state\n      | ^";
        assert_eq!(super::Lldb.unknown_name(said).as_deref(), Some("level_state"));
        assert_eq!(super::Lldb.unknown_name("error: no member named 'x'"), None);
    }
}
