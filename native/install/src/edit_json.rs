//! JSON / JSONC edits on a concrete syntax tree: only the server's property is touched, so
//! comments, trailing commas, indentation and every other key survive byte for byte.

use crate::{InstallError, Val};
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};

fn to_input(v: &Val) -> CstInputValue {
    match v {
        Val::Str(s) => CstInputValue::String(s.clone()),
        Val::Bool(b) => CstInputValue::Bool(*b),
        Val::List(items) => CstInputValue::Array(items.iter().map(to_input).collect()),
        Val::Map(entries) => CstInputValue::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), to_input(v)))
                .collect(),
        ),
    }
}

pub fn to_serde(v: &Val) -> serde_json::Value {
    match v {
        Val::Str(s) => serde_json::Value::String(s.clone()),
        Val::Bool(b) => serde_json::Value::Bool(*b),
        Val::List(items) => serde_json::Value::Array(items.iter().map(to_serde).collect()),
        Val::Map(entries) => serde_json::Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), to_serde(v)))
                .collect(),
        ),
    }
}

fn shape(path: &str, message: impl Into<String>) -> InstallError {
    InstallError::Shape {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Sets (`Some`) or removes (`None`) `<servers_key>.<name>` in the document.
pub fn edit(
    path: &str,
    text: &str,
    servers_key: &str,
    name: &str,
    entry: Option<&Val>,
) -> Result<String, InstallError> {
    let root =
        CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| InstallError::Parse {
            path: path.to_owned(),
            line: e.line_display(),
            column: e.column_display(),
            message: e.kind().to_string(),
        })?;
    let obj = match root.value() {
        None => root.object_value_or_set(),
        Some(v) => v
            .as_object()
            .ok_or_else(|| shape(path, "the top level is not a JSON object"))?,
    };
    match entry {
        Some(entry) => {
            let servers = obj
                .object_value_or_create(servers_key)
                .ok_or_else(|| shape(path, format!("\"{servers_key}\" is not an object")))?;
            match servers.get(name) {
                Some(prop) => {
                    let same =
                        prop.value().and_then(|v| v.to_serde_value()) == Some(to_serde(entry));
                    if same {
                        return Ok(text.to_owned());
                    }
                    prop.set_value(to_input(entry));
                }
                None => {
                    servers.append(name, to_input(entry));
                }
            }
        }
        None => {
            let Some(servers) = obj.get(servers_key) else {
                return Ok(text.to_owned());
            };
            let servers = servers
                .value()
                .and_then(|v| v.as_object())
                .ok_or_else(|| shape(path, format!("\"{servers_key}\" is not an object")))?;
            match servers.get(name) {
                Some(prop) => prop.remove(),
                None => return Ok(text.to_owned()),
            }
            // A servers object left empty goes too, so install + uninstall leaves the file as it was.
            if servers.properties().is_empty()
                && let Some(prop) = obj.get(servers_key)
            {
                prop.remove();
            }
        }
    }
    let mut out = root.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}
