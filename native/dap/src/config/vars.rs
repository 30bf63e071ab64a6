//! VS Code's `${…}` variables in run configurations, substituted headless.

use debugger_mcp_core::backend::BackendError;
use serde_json::Value;
use std::path::Path;

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

pub(super) fn substitute_value(
    v: &mut Value,
    root: &Path,
    config: &str,
) -> Result<(), BackendError> {
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
