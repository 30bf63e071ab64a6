//! Building a Go program before delve starts, as a phase of its own.
//!
//! delve's `debug`/`test` modes compile inside the DAP `launch` request, so a cold build of a
//! real module ran into the per-phase launch timeout and failed with a message that said
//! nothing about compiling. The backend builds first (`go build` / `go test -c` with
//! optimisations off, as delve would), bounded by its own timeout (`[go] build_timeout_ms`), and
//! then launches delve in `exec` mode on the binary.

use crate::config::split_command;
use debugger_mcp_core::backend::BackendError;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::time::Duration;

/// Compiler output lines quoted in a build error.
const QUOTED_LINES: usize = 12;

/// Default of `[go] build_timeout_ms`: a cold build of a large module takes minutes.
pub const DEFAULT_BUILD_TIMEOUT: Duration = Duration::from_secs(300);

/// Whether delve would build this launch itself (modes `debug` and `test`).
pub fn builds(arguments: &Map<String, Value>) -> bool {
    matches!(
        arguments.get("mode").and_then(Value::as_str),
        Some("debug" | "test")
    )
}

/// Builds the program a delve `debug`/`test` launch names into its `output` path, in `cwd` (where
/// delve would have run the go tool), then rewrites the arguments to an `exec` launch of that
/// binary. Compile errors quote the compiler's first lines, with paths relative to `root`.
pub async fn build(
    arguments: &mut Map<String, Value>,
    cwd: &Path,
    root: &Path,
    timeout: Duration,
) -> Result<(), BackendError> {
    let test = arguments.get("mode").and_then(Value::as_str) == Some("test");
    let program = arguments
        .get("program")
        .and_then(Value::as_str)
        .unwrap_or(".")
        .to_string();
    let output = arguments
        .get("output")
        .and_then(Value::as_str)
        .ok_or_else(|| BackendError::Failed("no output path for the Go build".into()))?
        .to_string();
    let mut args: Vec<String> = if test {
        vec!["test".into(), "-c".into()]
    } else {
        vec!["build".into()]
    };
    // What delve passes: no optimisation, no inlining, so every line and local is debuggable.
    args.push("-gcflags=all=-N -l".into());
    args.extend(["-o".into(), output.clone()]);
    match arguments.get("buildFlags") {
        Some(Value::String(s)) => args.extend(split_command(s)?),
        Some(Value::Array(a)) => {
            args.extend(a.iter().filter_map(Value::as_str).map(str::to_string))
        }
        _ => {}
    }
    args.push(program.clone());
    let shown = format!(
        "go {}",
        args.iter()
            .map(|a| if a.contains(' ') {
                format!("'{a}'")
            } else {
                a.clone()
            })
            .collect::<Vec<_>>()
            .join(" ")
    );

    let mut cmd = tokio::process::Command::new("go");
    cmd.args(&args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        // On timeout `go` is killed; compiler processes it started finish their one package
        // and exit on their own.
        .kill_on_drop(true);
    let child = cmd.spawn().map_err(|e| {
        BackendError::Failed(format!("cannot run `go` to build the program ({e}); is Go installed and on PATH? (apt install golang-go)"))
    })?;
    let out = match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(r) => r.map_err(|e| BackendError::Failed(format!("`{shown}` failed to run: {e}")))?,
        Err(_) => {
            let _ = std::fs::remove_file(&output);
            return Err(BackendError::Timeout(format!(
                "building the Go program (`{shown}`) did not finish within {} ms; raise build_timeout_ms in the [go] section of the settings (debugger-mcp.toml)",
                timeout.as_millis()
            )));
        }
    };
    if !out.status.success() {
        let _ = std::fs::remove_file(&output);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        return Err(BackendError::Failed(format!(
            "the Go build failed ({}; `{shown}`):\n{}",
            out.status,
            compiler_lines(&text, cwd, root)
        )));
    }
    arguments.insert("mode".into(), json!("exec"));
    arguments.insert("program".into(), json!(output));
    arguments.remove("buildFlags");
    arguments.remove("output");
    Ok(())
}

/// The compiler's first lines, with `file.go:L:C` locations made relative to the project root
/// (the go tool prints them relative to where it ran, e.g. `./calc_test.go` in a package dir).
fn compiler_lines(text: &str, cwd: &Path, root: &Path) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out: Vec<String> = lines
        .iter()
        .take(QUOTED_LINES)
        .map(|l| relative_location(l, cwd, root))
        .collect();
    if lines.len() > QUOTED_LINES {
        out.push(format!("… ({} more lines)", lines.len() - QUOTED_LINES));
    }
    out.join("\n")
}

fn relative_location(line: &str, cwd: &Path, root: &Path) -> String {
    let Some((file, rest)) = line.split_once(".go:") else {
        return line.to_string();
    };
    if file.contains(char::is_whitespace) || !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return line.to_string();
    }
    let path = cwd.join(format!("{file}.go"));
    let Ok(canon) = std::fs::canonicalize(&path) else {
        return line.to_string();
    };
    match canon.strip_prefix(root) {
        Ok(rel) => format!("{}:{rest}", rel.display()),
        Err(_) => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_locations_become_relative_to_the_project() {
        let root = std::env::temp_dir().join(format!("gobuild-rel-{}", std::process::id()));
        std::fs::create_dir_all(root.join("calc")).unwrap();
        std::fs::write(root.join("calc/calc_test.go"), "package calc\n").unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        let text =
            "# example.com/x/calc [example.com/x/calc.test]\n./calc_test.go:7:2: undefined: nope\n";
        let got = compiler_lines(text, &root.join("calc"), &root);
        assert_eq!(
            got,
            "# example.com/x/calc [example.com/x/calc.test]\ncalc/calc_test.go:7:2: undefined: nope"
        );
        let many: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let got = compiler_lines(&many, &root, &root);
        assert!(got.ends_with("line 12\n… (8 more lines)"), "{got}");
        let _ = std::fs::remove_dir_all(&root);
    }
}
