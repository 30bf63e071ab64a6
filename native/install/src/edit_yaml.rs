//! YAML edits for Continue's `config.yaml`, where servers are a list under `mcpServers`.
//!
//! No maintained Rust crate edits YAML while keeping comments, so the edit is textual and
//! narrow: the document is first parsed (a broken file is refused with its line), the list
//! item whose `name` is ours is located by parsing and then by its lines, and only those lines
//! are replaced, removed or appended. Anything the textual view cannot map one-to-one onto the
//! parsed list (flow style, anchors) is refused with a message saying to edit by hand.

use crate::{InstallError, Val};
use yaml_rust2::{Yaml, YamlLoader};

fn shape(path: &str, message: impl Into<String>) -> InstallError {
    InstallError::Shape {
        path: path.to_owned(),
        message: message.into(),
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:-".contains(c))
        && !s.starts_with(['-', ':', '.'])
        && !matches!(
            s,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        )
        && s.parse::<f64>().is_err();
    if plain {
        s.to_owned()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn render_map(
    out: &mut Vec<String>,
    entries: &[(String, Val)],
    indent: usize,
    first_prefix: Option<&str>,
) {
    for (i, (k, v)) in entries.iter().enumerate() {
        let pad = match (i, first_prefix) {
            (0, Some(p)) => p.to_owned(),
            _ => " ".repeat(indent),
        };
        match v {
            Val::Str(s) => out.push(format!("{pad}{k}: {}", scalar(s))),
            Val::Bool(b) => out.push(format!("{pad}{k}: {b}")),
            Val::List(items) => {
                out.push(format!("{pad}{k}:"));
                for item in items {
                    match item {
                        Val::Str(s) => {
                            out.push(format!("{}- {}", " ".repeat(indent + 2), scalar(s)))
                        }
                        Val::Bool(b) => out.push(format!("{}- {b}", " ".repeat(indent + 2))),
                        _ => {}
                    }
                }
            }
            Val::Map(inner) => {
                out.push(format!("{pad}{k}:"));
                render_map(out, inner, indent + 2, None);
            }
        }
    }
}

/// The entry as list-item lines at `indent` ("<indent>- name: …").
fn render_item(entry: &Val, indent: usize) -> Vec<String> {
    let mut out = Vec::new();
    if let Val::Map(entries) = entry {
        let prefix = format!("{}- ", " ".repeat(indent));
        render_map(&mut out, entries, indent + 2, Some(&prefix));
    }
    out
}

fn equals(y: &Yaml, v: &Val) -> bool {
    match (y, v) {
        (Yaml::String(a), Val::Str(b)) => a == b,
        (Yaml::Boolean(a), Val::Bool(b)) => a == b,
        (Yaml::Array(a), Val::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equals(x, y))
        }
        (Yaml::Hash(h), Val::Map(m)) => {
            h.len() == m.len()
                && m.iter().all(|(k, v)| {
                    h.get(&Yaml::String(k.clone()))
                        .is_some_and(|y| equals(y, v))
                })
        }
        _ => false,
    }
}

/// Sets (`Some`) or removes (`None`) the item named `name` in the top-level list `key`.
pub fn edit(
    path: &str,
    text: &str,
    key: &str,
    name: &str,
    entry: Option<&Val>,
) -> Result<String, InstallError> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| InstallError::Parse {
        path: path.to_owned(),
        line: e.marker().line(),
        column: e.marker().col() + 1,
        message: e.info().to_owned(),
    })?;
    if docs.len() > 1 {
        return Err(shape(
            path,
            "holds several YAML documents; add the entry by hand",
        ));
    }
    let root = docs.into_iter().next().unwrap_or(Yaml::Null);
    let list: Vec<Yaml> = match &root {
        Yaml::Null => Vec::new(),
        Yaml::Hash(h) => match h.get(&Yaml::String(key.to_owned())) {
            None | Some(Yaml::Null) => Vec::new(),
            Some(Yaml::Array(a)) => a.clone(),
            Some(_) => return Err(shape(path, format!("'{key}' is not a list"))),
        },
        _ => return Err(shape(path, "the top level is not a mapping")),
    };
    let ours = list
        .iter()
        .position(|item| item["name"].as_str() == Some(name));
    if let (Some(i), Some(entry)) = (ours, entry)
        && equals(&list[i], entry)
    {
        return Ok(text.to_owned());
    }
    if ours.is_none() && entry.is_none() {
        return Ok(text.to_owned());
    }

    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let key_line = lines.iter().position(|l| {
        l.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(':'))
            .is_some_and(|rest| is_blank_or_comment(rest) || rest.trim() == "[]")
    });
    let Some(key_line) = key_line else {
        if lines
            .iter()
            .any(|l| l.trim_start().starts_with(&format!("{key}:")))
            || !list.is_empty()
        {
            return Err(shape(
                path,
                format!("cannot locate the '{key}:' block; add the entry by hand"),
            ));
        }
        let Some(entry) = entry else {
            return Ok(text.to_owned());
        };
        // No list yet: append one.
        if lines.last().is_some_and(|l| !l.trim().is_empty()) || lines.is_empty() {
            // keep the file's own last line; the block follows it
        }
        lines.push(format!("{key}:"));
        lines.extend(render_item(entry, 2));
        return Ok(join(lines));
    };
    if lines[key_line].contains("[]") {
        lines[key_line] = format!("{key}:");
    }
    // The block: lines after the key until the next top-level key (a '-' at column 0 still
    // belongs to the list: `key:\n- item` is valid YAML).
    let mut end = key_line + 1;
    while end < lines.len() {
        let l = &lines[end];
        if !is_blank_or_comment(l) && indent_of(l) == 0 && !l.starts_with('-') {
            break;
        }
        end += 1;
    }
    // Items start with "<indent>- " at the list's indent (the first item's).
    let item_indent = (key_line + 1..end)
        .find(|&i| !is_blank_or_comment(&lines[i]))
        .map(|i| indent_of(&lines[i]))
        .filter(|&i| lines.get(key_line + 1..end).is_some() && i < usize::MAX);
    let starts: Vec<usize> = match item_indent {
        Some(ind) => (key_line + 1..end)
            .filter(|&i| {
                let l = &lines[i];
                indent_of(l) == ind && l[ind..].starts_with('-')
            })
            .collect(),
        None => Vec::new(),
    };
    if starts.len() != list.len() {
        return Err(shape(
            path,
            format!(
                "the '{key}' list is written in a form this installer does not edit (flow style or anchors); add the entry by hand"
            ),
        ));
    }
    // Trailing blank/comment lines of the block stay outside the last item.
    let mut block_end = end;
    while block_end > key_line + 1 && is_blank_or_comment(&lines[block_end - 1]) {
        block_end -= 1;
    }
    let indent = item_indent.unwrap_or(2);
    match (ours, entry) {
        (Some(i), entry) => {
            let from = starts[i];
            let mut to = starts.get(i + 1).copied().unwrap_or(block_end);
            while to > from + 1 && is_blank_or_comment(&lines[to - 1]) {
                to -= 1;
            }
            let replacement = entry.map(|e| render_item(e, indent)).unwrap_or_default();
            lines.splice(from..to, replacement);
            if entry.is_none() && list.len() == 1 {
                // The list is now empty: the key goes too (install + uninstall = no change),
                // unless comments sit in the block, which then keep an explicit empty list.
                let rest_has_text = (key_line + 1
                    ..key_line + 1 + (block_end - key_line - 1).saturating_sub(to - from))
                    .any(|i| lines.get(i).is_some_and(|l| !l.trim().is_empty()));
                if rest_has_text {
                    lines[key_line] = format!("{key}: []");
                } else {
                    lines.remove(key_line);
                }
            }
        }
        (None, Some(entry)) => {
            let at = if starts.is_empty() {
                key_line + 1
            } else {
                block_end
            };
            lines.splice(at..at, render_item(entry, indent));
        }
        (None, None) => unreachable!("handled above"),
    }
    Ok(join(lines))
}

fn join(lines: Vec<String>) -> String {
    let mut out = lines.join("\n");
    out.push('\n');
    out
}
