//! TOML edits through `toml_edit`, which keeps comments, whitespace and key order.

use crate::{InstallError, Val};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

fn line_of(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

pub fn parse(path: &str, text: &str) -> Result<DocumentMut, InstallError> {
    text.parse::<DocumentMut>().map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| line_of(text, s.start));
        InstallError::Parse {
            path: path.to_owned(),
            line,
            column,
            message: e.message().trim().to_owned(),
        }
    })
}

fn value(v: &Val) -> Value {
    match v {
        Val::Str(s) => Value::from(s.as_str()),
        Val::Bool(b) => Value::from(*b),
        Val::List(items) => Value::Array(items.iter().map(value).collect::<Array>()),
        Val::Map(entries) => {
            let mut t = InlineTable::new();
            for (k, v) in entries {
                t.insert(k, value(v));
            }
            Value::InlineTable(t)
        }
    }
}

fn to_serde_item(item: &Item) -> Option<serde_json::Value> {
    match item {
        Item::Value(v) => to_serde_value(v),
        Item::Table(t) => Some(serde_json::Value::Object(
            t.iter()
                .map(|(k, v)| to_serde_item(v).map(|v| (k.to_owned(), v)))
                .collect::<Option<_>>()?,
        )),
        _ => None,
    }
}

fn to_serde_value(v: &Value) -> Option<serde_json::Value> {
    Some(match v {
        Value::String(s) => serde_json::Value::String(s.value().clone()),
        Value::Boolean(b) => serde_json::Value::Bool(*b.value()),
        Value::Array(a) => {
            serde_json::Value::Array(a.iter().map(to_serde_value).collect::<Option<_>>()?)
        }
        Value::InlineTable(t) => serde_json::Value::Object(
            t.iter()
                .map(|(k, v)| to_serde_value(v).map(|v| (k.to_owned(), v)))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

/// Sets (`Some`) or removes (`None`) the `[<table>.<name>]` table.
pub fn edit(
    path: &str,
    text: &str,
    table: &str,
    name: &str,
    entry: Option<&Val>,
) -> Result<String, InstallError> {
    let mut doc = parse(path, text)?;
    let shape = |m: String| InstallError::Shape {
        path: path.to_owned(),
        message: m,
    };
    match entry {
        Some(entry) => {
            let servers = doc.entry(table).or_insert_with(|| {
                let mut t = Table::new();
                // Only `[mcp_servers.<name>]` headers appear, no empty `[mcp_servers]`.
                t.set_implicit(true);
                Item::Table(t)
            });
            let servers = servers
                .as_table_mut()
                .ok_or_else(|| shape(format!("'{table}' is not a table")))?;
            if let Some(existing) = servers.get(name)
                && to_serde_item(existing) == Some(crate::edit_json::to_serde(entry))
            {
                return Ok(text.to_owned());
            }
            let Val::Map(fields) = entry else {
                return Err(shape("internal: entry is not a table".into()));
            };
            let mut t = Table::new();
            for (k, v) in fields {
                t.insert(k, Item::Value(value(v)));
            }
            servers.insert(name, Item::Table(t));
        }
        None => {
            let Some(servers) = doc.get_mut(table) else {
                return Ok(text.to_owned());
            };
            let servers = servers
                .as_table_like_mut()
                .ok_or_else(|| shape(format!("'{table}' is not a table")))?;
            if servers.remove(name).is_none() {
                return Ok(text.to_owned());
            }
        }
    }
    Ok(doc.to_string())
}

/// Sets `[section] key = value` in a TOML file's text (the server's own settings file).
pub fn set_string(
    path: &str,
    text: &str,
    section: &str,
    key: &str,
    val: &str,
) -> Result<String, InstallError> {
    let mut doc = parse(path, text)?;
    let t = doc
        .entry(section)
        .or_insert_with(|| Item::Table(Table::new()));
    let t = t.as_table_like_mut().ok_or_else(|| InstallError::Shape {
        path: path.to_owned(),
        message: format!("'{section}' is not a table"),
    })?;
    if t.get(key).and_then(|i| i.as_str()) == Some(val) {
        return Ok(text.to_owned());
    }
    t.insert(key, Item::Value(Value::from(val)));
    Ok(doc.to_string())
}

/// Reads `[section] key` as a string, if present.
pub fn get_string(
    path: &str,
    text: &str,
    section: &str,
    key: &str,
) -> Result<Option<String>, InstallError> {
    let doc = parse(path, text)?;
    Ok(doc
        .get(section)
        .and_then(|s| s.get(key))
        .and_then(|v| v.as_str())
        .map(str::to_owned))
}
