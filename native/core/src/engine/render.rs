//! What a tool result looks like to a model. `structuredContent` keeps the complete JSON (nulls
//! and default-false flags omitted); the text block is a compact rendering of the same facts:
//! `file:line` relative to the project, the source line, one line per value
//! (`name = value (type) #id`), changed values marked, no JSON punctuation or repeated keys.

use serde_json::{Map, Value};
use std::fmt::Write;

/// Flags whose `false` is the default and says nothing.
const DEFAULT_FALSE: [&str; 8] = ["truncated", "redacted", "has_children", "is_library", "temporary", "timed_out", "preview", "changed"];

/// Removes nulls and default-false flags, recursively. A `value` is the program's data, not
/// ours: inspect_variable's `{"value": null}` is Python's None, so it is kept as it is.
pub fn strip(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, x| k == "value" || (!x.is_null() && !(x == &Value::Bool(false) && DEFAULT_FALSE.contains(&k.as_str()))));
            m.iter_mut().filter(|(k, _)| k.as_str() != "value").for_each(|(_, x)| strip(x));
        }
        Value::Array(a) => a.iter_mut().for_each(strip),
        _ => {}
    }
}

/// Keys the text leaves out: ids the agent passes back are kept, bookkeeping is not.
const HIDDEN: [&str; 4] = ["session_id", "thread_id", "step", "has_children"];

/// Tools whose session id is the point of the answer.
const SHOW_SESSION: [&str; 4] = ["start_debug_session", "run_configuration", "list_debug_sessions", "stop_debug_session"];

pub fn text(tool: &str, v: &Value, root: Option<&str>) -> String {
    if tool == super::registry::HELP {
        // Help is a schema: the model reads JSON Schema best as JSON.
        return v.to_string();
    }
    let r = Renderer { root: root.map(|r| format!("{}/", r.trim_end_matches('/'))), show_session: SHOW_SESSION.contains(&tool) };
    let mut out = String::new();
    match v {
        Value::Object(m) => r.object(&mut out, m, 0),
        other => out.push_str(&r.scalar(other)),
    }
    while out.ends_with('\n') {
        out.pop();
    }
    out
}

struct Renderer {
    root: Option<String>,
    show_session: bool,
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn is_value_node(v: &Value) -> bool {
    v.get("name").is_some_and(Value::is_string) && v.get("value").is_some()
}

impl Renderer {
    fn rel<'a>(&self, s: &'a str) -> &'a str {
        match &self.root {
            Some(root) => s.strip_prefix(root.as_str()).unwrap_or(s),
            None => s,
        }
    }

    fn scalar(&self, v: &Value) -> String {
        match v {
            Value::String(s) => self.rel(s).to_string(),
            Value::Object(_) | Value::Array(_) => self.inline(v),
            other => other.to_string(),
        }
    }

    /// One-line `k=v k=v` form of an object (nested objects in braces).
    fn inline(&self, v: &Value) -> String {
        match v {
            Value::Object(m) => {
                if let Some(loc) = self.location(v) {
                    return loc;
                }
                m.iter()
                    .filter(|(k, _)| !self.hidden(k))
                    .map(|(k, x)| match x {
                        Value::Object(_) => format!("{k}={{{}}}", self.inline(x)),
                        _ => format!("{k}={}", self.scalar(x)),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            Value::Array(a) => a.iter().map(|x| self.scalar(x)).collect::<Vec<_>>().join(", "),
            other => self.scalar(other),
        }
    }

    fn hidden(&self, k: &str) -> bool {
        HIDDEN.contains(&k) && !(k == "session_id" && self.show_session)
    }

    /// `file:line in method` for a location-shaped object.
    fn location(&self, v: &Value) -> Option<String> {
        let file = v.get("file")?.as_str()?;
        let mut s = format!("{}", self.rel(file));
        if let Some(l) = v.get("line").and_then(Value::as_u64) {
            let _ = write!(s, ":{l}");
        }
        if let Some(m) = v.get("method").and_then(Value::as_str) {
            match v.get("class").and_then(Value::as_str) {
                Some(c) => {
                    let _ = write!(s, " in {c}.{m}");
                }
                None => {
                    let _ = write!(s, " in {m}");
                }
            }
        }
        Some(s)
    }

    /// `name = value (type, N items) #id [changed]`, children below, indented.
    fn value_node(&self, out: &mut String, v: &Value, indent: usize) {
        pad(out, indent);
        let name = v["name"].as_str().unwrap_or("");
        let value = self.scalar(&v["value"]);
        let _ = write!(out, "{name} = {value}");
        if let Some(n) = v.get("value_length").and_then(Value::as_u64) {
            // The cut value already ends with the marker.
            let _ = write!(out, " ({n} chars)");
        }
        let mut meta = Vec::new();
        if let Some(t) = v.get("type").and_then(Value::as_str) {
            // A preview already starts with its class.
            if !value.starts_with(t) {
                meta.push(t.to_string());
            }
        }
        if let Some(n) = v.get("child_count").and_then(Value::as_u64) {
            meta.push(format!("{n} items"));
        }
        if !meta.is_empty() {
            let _ = write!(out, " ({})", meta.join(", "));
        }
        // Ids matter for values that can be expanded; a leaf is reachable by path.
        let expandable = v.get("has_children") == Some(&Value::Bool(true)) || v.get("child_count").is_some_and(|n| n != 0);
        if let Some(id) = v.get("id").and_then(Value::as_str).filter(|_| expandable) {
            let _ = write!(out, " #{id}");
        }
        if v.get("changed") == Some(&Value::Bool(true)) {
            out.push_str(" [changed]");
        }
        if v.get("redacted") == Some(&Value::Bool(true)) {
            out.push_str(" [redacted]");
        }
        out.push('\n');
        if let Some(kids) = v.get("children").and_then(Value::as_array) {
            for k in kids {
                self.value_node(out, k, indent + 2);
            }
            if let Some(total) = v.get("total").and_then(Value::as_u64) {
                pad(out, indent + 2);
                let _ = writeln!(out, "… {} of {total} shown", kids.len());
            }
        }
    }

    fn object(&self, out: &mut String, m: &Map<String, Value>, indent: usize) {
        // A stop result leads with where it is and the line there.
        let lead = m.get("location").and_then(|l| self.location(l));
        if let Some(loc) = &lead {
            pad(out, indent);
            let state = m.get("state").and_then(Value::as_str);
            let reason = m.get("reason").and_then(Value::as_str);
            match (state, reason) {
                (Some(s), Some(r)) => {
                    let _ = writeln!(out, "{s} ({r}) at {loc}");
                }
                (Some(s), None) => {
                    let _ = writeln!(out, "{s} at {loc}");
                }
                _ => {
                    let _ = writeln!(out, "at {loc}");
                }
            }
            if let Some(src) = m.get("source_line").and_then(Value::as_str) {
                pad(out, indent + 2);
                let _ = writeln!(out, "{}| {src}", m["location"].get("line").and_then(Value::as_u64).unwrap_or(0));
            }
        }
        for (k, v) in m {
            if self.hidden(k) || (lead.is_some() && matches!(k.as_str(), "location" | "source_line" | "state" | "reason")) {
                continue;
            }
            match v {
                Value::Array(a) if a.is_empty() => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}: none");
                }
                Value::Array(a) if a.iter().all(is_value_node) => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    for x in a {
                        self.value_node(out, x, indent + 2);
                    }
                }
                Value::Array(a) if a.iter().any(|x| x.is_object()) => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    for x in a {
                        pad(out, indent + 2);
                        let _ = writeln!(out, "{}", self.inline(x));
                    }
                }
                Value::Object(o) if is_value_node(v) => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    let _ = o;
                    self.value_node(out, v, indent + 2);
                }
                // A stop's frame snapshot: its method is in the lead line already.
                Value::Object(o) if k == "frame" && lead.is_some() => {
                    let mut inner = o.clone();
                    inner.remove("method");
                    self.object(out, &inner, indent);
                }
                Value::Object(o) => {
                    if let Some(loc) = self.location(v) {
                        pad(out, indent);
                        let _ = writeln!(out, "{k}: {loc}");
                    } else {
                        pad(out, indent);
                        let _ = writeln!(out, "{k}:");
                        self.object(out, o, indent + 2);
                    }
                }
                other => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}: {}", self.scalar(other));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_and_default_flags_go_real_falses_stay() {
        let mut v = json!({"a": null, "truncated": false, "verified": false, "x": [{"redacted": false, "b": null, "c": 1}]});
        strip(&mut v);
        assert_eq!(v, json!({"verified": false, "x": [{"c": 1}]}));
        // The program's values are data: a filtered None stays null, nothing inside is pruned.
        let mut v = json!({"matches": [{"path": "o.note", "value": null}, {"path": "o.m", "value": {"k": null}}]});
        strip(&mut v);
        assert_eq!(v, json!({"matches": [{"path": "o.note", "value": null}, {"path": "o.m", "value": {"k": null}}]}));
    }

    #[test]
    fn a_stop_reads_as_location_source_and_values() {
        let v = json!({
            "session_id": "s1", "state": "paused", "reason": "breakpoint", "thread_id": "1", "step": 3,
            "location": {"file": "/p/app.py", "line": 12, "method": "total"},
            "source_line": "total += item.price * item.qty",
            "frame": {"method": "total", "variables": [
                {"id": "v1", "name": "total", "value": "4.5", "type": "float", "changed": true},
                {"id": "v2", "name": "item", "value": "Item(name='pen', price=1.5, qty=3)", "type": "Item", "preview": true, "has_children": true},
            ]},
        });
        let t = text("step_over", &v, Some("/p"));
        assert_eq!(
            t,
            "paused (breakpoint) at app.py:12 in total\n  12| total += item.price * item.qty\nvariables:\n  total = 4.5 (float) [changed]\n  item = Item(name='pen', price=1.5, qty=3) #v2"
        );
    }

    #[test]
    fn variables_nest_and_show_truncation() {
        let v = json!({"frame_index": 0, "variables": [
            {"id": "v1", "name": "items", "value": "[1, 2]", "type": "list", "child_count": 2,
             "children": [{"id": "v2", "name": "0", "value": "1", "type": "int"}], "total": 2},
            {"id": "v3", "name": "notes", "value": "xxxx…", "type": "str", "truncated": true, "value_length": 500},
        ]});
        let t = text("get_variables", &v, None);
        assert!(t.contains("items = [1, 2] (list, 2 items) #v1\n    0 = 1 (int)\n    … 1 of 2 shown"), "{t}");
        assert!(t.ends_with("notes = xxxx… (500 chars) (str)"), "{t}");
    }
}
