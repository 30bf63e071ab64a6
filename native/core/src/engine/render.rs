//! What a tool result looks like to a model. `structuredContent` keeps the complete JSON (nulls
//! and default-false flags omitted); the text block is a compact rendering of the same facts:
//! `file:line` relative to the project, the source line, one line per value
//! (`name = value (type) #id`), changed values marked, no JSON punctuation or repeated keys.

use serde_json::{Map, Value};
use std::cell::{Cell, RefCell};
use std::fmt::Write;

/// Keys the text leaves out: ids the agent passes back are kept, bookkeeping is not.
const HIDDEN: [&str; 4] = ["session_id", "thread_id", "step", "has_children"];

/// Tools whose session id is the point of the answer.
const SHOW_SESSION: [&str; 4] = [
    "start_debug_session",
    "run_configuration",
    "list_debug_sessions",
    "stop_debug_session",
];

pub fn text(tool: &str, v: &Value, root: Option<&str>) -> String {
    if tool == super::registry::HELP {
        // Help is a schema: the model reads JSON Schema best as JSON.
        return v.to_string();
    }
    let r = Renderer {
        root: root.map(|r| format!("{}/", r.trim_end_matches('/'))),
        show_session: SHOW_SESSION.contains(&tool),
        cut: Cell::new(false),
        next: RefCell::new(Vec::new()),
    };
    let mut out = String::new();
    match v {
        Value::Object(m) if tool == "capture" && m.contains_key("hits") => r.capture(&mut out, m),
        // A start that paused: the pause says the state, the message names the program.
        Value::Object(m) if m.get("pause").is_some_and(Value::is_object) => {
            let mut m = m.clone();
            m.remove("state");
            let said = m
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if m.get("name")
                .and_then(Value::as_str)
                .is_some_and(|n| said.contains(n))
            {
                m.remove("name");
            }
            let reason = m["pause"]
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or("");
            if let Some(short) = said.strip_suffix(&format!("; paused ({reason})")) {
                m.insert("message".into(), Value::String(short.to_string()));
            }
            r.object(&mut out, &m, 0)
        }
        // start_debug_session {attach, evaluate}: the session, then the values read.
        Value::Object(m) if m.get("read").is_some_and(Value::is_array) => {
            let mut rest = m.clone();
            let rows = rest.remove("read").unwrap_or_default();
            r.object(&mut out, &rest, 0);
            if !out.ends_with('\n') {
                out.push('\n');
            }
            r.read_rows(&mut out, rows.as_array().into_iter().flatten());
        }
        Value::Object(m) => r.object(&mut out, m, 0),
        other => out.push_str(&r.scalar(other)),
    }
    while out.ends_with('\n') {
        out.pop();
    }
    // Rows rely on the instructions (results of every kind are kept compact); an evaluation
    // and a read of a running process (values asked for by name) say where the rest is.
    let read = v.get("read").is_some() || v.get("end").and_then(Value::as_str) == Some("read");
    if r.cut.get() && (tool == "evaluate_expression" || read) {
        out.push('\n');
        out.push_str(&cut_hint(&r.next.borrow()));
    }
    out
}

struct Renderer {
    root: Option<String>,
    show_session: bool,
    /// A value was shown cut (an evaluation's text then ends saying how to read more).
    cut: Cell<bool>,
    /// Cut string values, by name: where their shown text ended, in the string's own
    /// characters and UTF-8 bytes (`values::shown_offset`).
    next: RefCell<Vec<(String, (u64, u64))>>,
}

/// Said once under an evaluation that shows a cut value: how to read the rest. A string's
/// slice starts where its shown text ended, in its own characters (escapes are one, and a
/// batch's values each show their share of the bound): `s[7998:23998]`; in bytes too when
/// they differ (C, Go and PHP's substr count bytes).
fn cut_hint(next: &[(String, (u64, u64))]) -> String {
    let n = crate::backend::WHOLE_STRING_CHARS as u64;
    let slice = |(chars, bytes): (u64, u64)| {
        let bytes = if bytes == chars {
            String::new()
        } else {
            format!(" (bytes: from {bytes})")
        };
        format!("s[{chars}:{}]{bytes}, substr($s, {chars}, {n})", chars + n)
    };
    match next {
        [] => format!(
            "cut: one expression shows up to {} chars; a slice shows more (s[{n}:{}], substr($s, {n}, {n}))",
            super::values::thousands(n),
            2 * n
        ),
        [(_, at), rest @ ..] if rest.iter().all(|(_, x)| x == at) => {
            format!("cut: a slice reads on where the text ends ({})", slice(*at))
        }
        many => format!(
            "cut: a slice reads on where each text ends: {}",
            many.iter()
                .map(|(name, at)| format!("{name}: {}", slice(*at)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn is_value_node(v: &Value) -> bool {
    v.get("name").is_some_and(Value::is_string) && v.get("value").is_some()
}

impl Renderer {
    /// `cut: 200 of 6,041 chars` for a value row cut by the core or the debugger (`value`
    /// as shown); a container whose children were cut says so under them instead.
    fn cut(&self, v: &Value, value: &str) -> Option<String> {
        let length = v.get("value_length").and_then(Value::as_u64);
        let truncated = v.get("truncated") == Some(&Value::Bool(true));
        if length.is_none() && !(truncated && value.ends_with('…') && v.get("total").is_none()) {
            return None;
        }
        self.cut.set(true);
        if let (Some(name), Some(at)) = (
            v.get("name").and_then(Value::as_str),
            super::values::shown_offset(value),
        ) {
            self.next.borrow_mut().push((name.to_string(), at));
        }
        Some(super::values::cut_note(value, length))
    }

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
            Value::Array(a) => a
                .iter()
                .map(|x| self.scalar(x))
                .collect::<Vec<_>>()
                .join(", "),
            other => self.scalar(other),
        }
    }

    fn hidden(&self, k: &str) -> bool {
        HIDDEN.contains(&k) && !(k == "session_id" && self.show_session)
    }

    /// `file:line in method` for a location-shaped object.
    fn location(&self, v: &Value) -> Option<String> {
        let Some(file) = v.get("file").and_then(Value::as_str) else {
            // A frame without source: its function (and address) is what there is.
            let m = v.as_object()?;
            if m.contains_key("index") && m.contains_key("is_current") {
                return m
                    .get("method")
                    .and_then(Value::as_str)
                    .map(|x| format!("in {x}"));
            }
            return None;
        };
        let mut s = self.rel(file).to_string();
        if let Some(l) = v.get("line").and_then(Value::as_u64) {
            let _ = write!(s, ":{l}");
        }
        if let Some(m) = v.get("method").and_then(Value::as_str) {
            // A method already named with its class (PHP's `Ns\\Class->method`) is shown as is.
            match v
                .get("class")
                .and_then(Value::as_str)
                .filter(|c| !m.starts_with(c))
            {
                Some(c) => {
                    let _ = write!(s, " in {c}.{m}");
                }
                None => {
                    let _ = write!(s, " in {m}");
                }
            }
        }
        if let Some(n) = v.get("repeated").and_then(Value::as_u64) {
            let _ = write!(s, " ×{n}");
        }
        Some(s)
    }

    /// `name = value (type, N items) #id [changed]`, children below, indented.
    fn value_node(&self, out: &mut String, v: &Value, indent: usize) {
        pad(out, indent);
        let name = v["name"].as_str().unwrap_or("");
        if let Some(e) = v.get("error").and_then(Value::as_str) {
            let _ = writeln!(out, "{name} → error: {e}");
            return;
        }
        let value = short_addresses(&self.scalar(&v["value"]));
        let _ = write!(out, "{name} = {value}");
        if let Some(note) = self.cut(v, &value) {
            let _ = write!(out, " ({note})");
        }
        let mut meta = Vec::new();
        if let Some(t) = v.get("type").and_then(Value::as_str) {
            // A preview already starts with its class.
            if !value.starts_with(t) {
                meta.push(t.to_string());
            }
        }
        // A C pointer has one child, what it points to: not a container of "1 items".
        let pointer = v
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.trim_end_matches(" const").ends_with('*'));
        if let Some(n) = v.get("child_count").and_then(Value::as_u64)
            && !(pointer && n == 1)
        {
            meta.push(format!("{n} items"));
        }
        if !meta.is_empty() {
            let _ = write!(out, " ({})", meta.join(", "));
        }
        // Ids matter for values that can be expanded; a leaf is reachable by path.
        let expandable = v.get("has_children") == Some(&Value::Bool(true))
            || v.get("child_count").is_some_and(|n| n != 0);
        if let Some(id) = v.get("id").and_then(Value::as_str).filter(|_| expandable) {
            let _ = write!(out, " #{id}");
        }
        if v.get("changed") == Some(&Value::Bool(true)) {
            out.push_str(" [changed]");
        }
        // (A redacted value says so itself: `<redacted:token>`.)
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

    /// `breakpoint 1 set at calc.py:14 (not bound: …)` plus what differs from the defaults, for
    /// a breakpoint-shaped object; its source line goes on the next line when `with_source`.
    fn breakpoint(&self, v: &Value, with_source: bool) -> Option<String> {
        let m = v.as_object()?;
        if !(m.contains_key("verified") && m.contains_key("owner") && m.contains_key("id")) {
            return None;
        }
        let mut s = format!("breakpoint {}", m["id"].as_str().unwrap_or("?"));
        if let Some(status) = m.get("status").and_then(Value::as_str) {
            let _ = write!(s, " {status}");
        }
        match (
            m.get("file").and_then(Value::as_str),
            m.get("line").and_then(Value::as_u64),
        ) {
            (Some(f), Some(l)) => {
                let _ = write!(s, " at {}:{l}", self.rel(f));
                if let Some(r) = m
                    .get("requested_line")
                    .and_then(Value::as_u64)
                    .filter(|r| *r != l)
                {
                    let _ = write!(s, " (moved from line {r})");
                }
            }
            _ => {
                if let Some(e) = m
                    .get("exception")
                    .or_else(|| m.get("filter"))
                    .and_then(Value::as_str)
                {
                    let _ = write!(s, " on {e}");
                }
            }
        }
        if m.get("verified") != Some(&Value::Bool(true)) {
            // Bound in a session that has ended: not the same as never bound.
            let idle = m
                .get("message")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with("session ended"));
            s.push_str(if idle {
                " [no session]"
            } else {
                " [not bound]"
            });
        }
        let mut extra = Vec::new();
        for (k, x) in m {
            // `after`: whether it still waits is what matters.
            if k == "after" {
                let waiting = m.get("waiting") == Some(&Value::Bool(true));
                extra.push(format!(
                    "{} {}",
                    if waiting { "waiting for" } else { "after" },
                    self.scalar(x)
                ));
                continue;
            }
            let default = match k.as_str() {
                "waiting" => true,
                "id" | "status" | "file" | "line" | "requested_line" | "verified"
                | "source_line" | "type" | "session_id" => true,
                "enabled" => x == &Value::Bool(true),
                "owner" => x == "agent",
                "suspend_policy" => x == "all",
                "hit_count" => x == 0,
                _ => false,
            };
            if !default {
                extra.push(format!("{k}: {}", self.scalar(x)));
            }
        }
        if !extra.is_empty() {
            let _ = write!(s, "; {}", extra.join("; "));
        }
        if let (true, Some(src), Some(l)) = (
            with_source,
            m.get("source_line").and_then(Value::as_str),
            m.get("line").and_then(Value::as_u64),
        ) {
            let _ = write!(s, "\n  {l}| {}", src.trim());
        }
        Some(s)
    }

    /// `app.py:14-24` then `  19> acc += price(item)` (`>` marks the current line, `*` a
    /// breakpoint).
    fn source(&self, out: &mut String, m: &Map<String, Value>, indent: usize) {
        let file = m
            .get("file")
            .and_then(Value::as_str)
            .map(|f| self.rel(f))
            .unwrap_or("?");
        let (start, end) = (
            m.get("start_line").and_then(Value::as_u64).unwrap_or(0),
            m.get("end_line").and_then(Value::as_u64).unwrap_or(0),
        );
        pad(out, indent);
        let _ = write!(out, "{file}:{start}-{end}");
        if let Some(t) = m.get("total_lines").and_then(Value::as_u64) {
            let _ = write!(out, " of {t}");
        }
        out.push('\n');
        let bps: Vec<u64> = m
            .get("breakpoints")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let current = m.get("current_line").and_then(Value::as_u64);
        for l in m["lines"].as_array().into_iter().flatten() {
            let n = l.get("number").and_then(Value::as_u64).unwrap_or(0);
            let mark = if Some(n) == current {
                '>'
            } else if bps.contains(&n) {
                '*'
            } else {
                '|'
            };
            pad(out, indent);
            let _ = writeln!(
                out,
                "{n}{mark} {}",
                l.get("content")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim_end()
            );
        }
    }

    /// capture: what a print would have shown, as a table: one header of the expressions, then
    /// per point (again when the hits move to another point or stack) where it is and its
    /// callers, then one row per hit. Without expressions a row shows the locals instead.
    /// Then how the run ended. Nothing is repeated (structuredContent keeps every hit's
    /// locals and stack, and the whole stderr tail).
    fn capture(&self, out: &mut String, m: &Map<String, Value>) {
        // The program's end, when it ended, belongs to the first line: "…; the program ended
        // with exit code 1".
        let ended = match m.get("stop") {
            Some(Value::Object(stop))
                if stop.get("state").and_then(Value::as_str) == Some("stopped") =>
            {
                Some(stop)
            }
            _ => None,
        };
        if let Some(message) = m.get("message").and_then(Value::as_str) {
            // The lines after the first are per point; how it ended belongs to the first.
            let (msg, points) = message.split_once('\n').unwrap_or((message, ""));
            out.push_str(msg);
            if let Some(how) = ended
                .and_then(|s| s.get("message"))
                .and_then(Value::as_str)
                .and_then(|t| t.strip_prefix("the session has ended"))
            {
                if !msg.ends_with("ended") {
                    out.push_str("; ended");
                }
                out.push_str(how);
            }
            out.push('\n');
            if !points.is_empty() {
                out.push_str(points);
                out.push('\n');
            }
        }
        let hits = m.get("hits").and_then(Value::as_array);
        // A read of a running process: per frame that answered, `#2 <module> app.py:40: a = 1`.
        if hits.is_some_and(|h| h.iter().any(|h| h.get("frame").is_some())) {
            self.read_rows(out, hits.into_iter().flatten());
            return;
        }
        let names: Vec<&str> = hits
            .and_then(|h| h.first())
            .and_then(|h| h.get("values"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v["name"].as_str())
            .collect();
        // One hit reads best as `name = value`; several as a table under one header.
        let single = hits.is_some_and(|h| h.len() == 1);
        if !names.is_empty() && !single {
            let _ = writeln!(out, "hit | {}", names.join(" | "));
        }
        let mut last: Option<(u64, Value)> = None;
        // Callers last shown per point: a point met again names only the callers that differ.
        let mut shown: Vec<(u64, Vec<String>)> = Vec::new();
        let mut prev_locals: Vec<(u64, Map<String, Value>)> = Vec::new();
        for h in hits.into_iter().flatten() {
            let point = h.get("point").and_then(Value::as_u64).unwrap_or(0);
            let stack = h.get("stack").cloned().unwrap_or(Value::Null);
            if last.as_ref() != Some(&(point, stack.clone())) {
                let callers: Vec<String> = stack
                    .as_array()
                    .into_iter()
                    .flatten()
                    .skip(1)
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect();
                let before = shown.iter().find(|(p, _)| *p == point).map(|(_, c)| c);
                match before {
                    Some(prev) => {
                        let same = callers.iter().zip(prev).take_while(|(a, b)| a == b).count();
                        let at = h.get("at").and_then(|a| {
                            let mut a = a.clone();
                            a.as_object_mut()?.remove("method");
                            Some(self.inline(&a))
                        });
                        let _ = write!(out, "at {} again", at.unwrap_or_default());
                        if same < callers.len() {
                            let rest = callers[same..].join(" < ");
                            let _ =
                                write!(out, ", from {}{rest}", if same > 0 { "… < " } else { "" });
                        }
                    }
                    None => {
                        let at = h.get("at").map(|a| self.inline(a)).unwrap_or_default();
                        let _ = write!(out, "at {at}");
                        if !callers.is_empty() {
                            let _ = write!(out, ", from {}", callers.join(" < "));
                        }
                    }
                }
                out.push('\n');
                shown.retain(|(p, _)| *p != point);
                shown.push((point, callers));
                last = Some((point, stack));
            }
            let mut cells: Vec<String> = Vec::new();
            let mut last_error = "";
            for v in h
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                cells.push(match v.get("error").and_then(Value::as_str) {
                    // Said once per point in the message: a name this point's frame lacks.
                    Some(e) if e == super::tools::OUT_OF_SCOPE => "-".into(),
                    // Several expressions failing alike.
                    Some(e) if e == last_error => "(same error)".into(),
                    Some(e) => {
                        last_error = e;
                        format!("error: {}", e.trim_start_matches("evaluate failed: "))
                    }
                    None => {
                        let value = short_addresses(&self.scalar(&v["value"]));
                        match self.cut(v, &value) {
                            Some(note) => format!("{value} ({note})"),
                            None => value,
                        }
                    }
                });
            }
            let n = h.get("hit").and_then(Value::as_u64).unwrap_or(0);
            if cells.is_empty() {
                // Without expressions the locals are the values: all at a point's first hit,
                // then those that changed since its previous hit.
                let locals = h.get("locals").and_then(Value::as_object);
                let before = prev_locals
                    .iter()
                    .find(|(p, _)| *p == point)
                    .map(|(_, l)| l);
                let mut changed: Vec<String> = locals
                    .into_iter()
                    .flatten()
                    .filter(|(k, v)| before.and_then(|b| b.get(*k)) != Some(*v))
                    .map(|(k, v)| {
                        // A local capture cut carries its note (`(cut: 80 of 6,041 chars)`).
                        if v.as_str().is_some_and(|t| t.ends_with(" chars)")) {
                            self.cut.set(true);
                        }
                        format!("{k}={}", short_addresses(&self.scalar(v)))
                    })
                    .collect();
                // Said once per point: the locals past the cap may be the ones that change.
                let more = h.get("more_locals").and_then(Value::as_u64).unwrap_or(0);
                if more > 0 && before.is_none() {
                    changed.push(format!("(+{more} more locals: name them in expressions)"));
                }
                if changed.is_empty() {
                    changed.push("(no local changed)".into());
                }
                let _ = writeln!(out, "  {n} | {}", changed.join(" "));
                prev_locals.retain(|(p, _)| *p != point);
                prev_locals.push((point, locals.cloned().unwrap_or_default()));
            } else if single {
                let pairs: Vec<String> = names
                    .iter()
                    .zip(&cells)
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                write_cells(out, "  ", &pairs);
            } else if cells.iter().any(|c| c.contains('\n')) {
                // A value spanning lines (a search's rows) breaks the table's row: this hit's
                // values one a line, named.
                let _ = writeln!(out, "  {n} |");
                for (k, v) in names.iter().zip(&cells) {
                    let _ = writeln!(out, "    {k} = {}", v.replace('\n', "\n      "));
                }
            } else {
                let _ = writeln!(out, "  {n} | {}", cells.join(" | "));
            }
        }
        // How it ended: the last line of stderr says why (an uncaught exception's message); a
        // stop the agent continues from is shown whole.
        match m.get("stop") {
            Some(Value::Object(stop)) if ended.is_some() => {
                if let Some(last) = stop
                    .get("stderr")
                    .and_then(Value::as_str)
                    .and_then(|e| e.lines().rev().find(|l| !l.trim().is_empty()))
                {
                    let _ = writeln!(out, "stderr ends: {}", last.trim());
                }
            }
            Some(Value::Object(stop)) => {
                let nested = Renderer {
                    root: self.root.clone(),
                    show_session: false,
                    cut: Cell::new(false),
                    next: RefCell::new(Vec::new()),
                };
                nested.object(out, stop, 0);
                self.cut.set(self.cut.get() || nested.cut.get());
                self.next.borrow_mut().extend(nested.next.take());
            }
            _ => {}
        }
        // An attach's request: how it ended and what it answered.
        if let Some(Value::Object(t)) = m.get("trigger") {
            let field = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
            let _ = writeln!(
                out,
                "{}",
                super::out::trigger_line(field("command"), field("status"))
            );
            if let Some(output) = t.get("output").and_then(Value::as_str) {
                for line in output.lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
    }

    /// Rows of a read of a running process, one line per frame that answered.
    fn read_rows<'a>(&self, out: &mut String, hits: impl Iterator<Item = &'a Value>) {
        for h in hits {
            let cells: Vec<String> = h
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|v| {
                    let name = v["name"].as_str().unwrap_or("");
                    match v.get("error").and_then(Value::as_str) {
                        Some(e) => format!(
                            "{name}: error: {}",
                            e.trim_start_matches("evaluate failed: ")
                        ),
                        None => {
                            let value = short_addresses(&self.scalar(&v["value"]));
                            match self.cut(v, &value) {
                                Some(note) => format!("{name} = {value} ({note})"),
                                None => format!("{name} = {value}"),
                            }
                        }
                    }
                })
                .collect();
            let frame = h.get("frame").and_then(Value::as_str).unwrap_or("?");
            let _ = write!(out, "{frame}:");
            write_cells(out, " ", &cells);
        }
    }

    fn object(&self, out: &mut String, m: &Map<String, Value>, indent: usize) {
        if indent == 0 {
            if let Some(line) = self.breakpoint(&Value::Object(m.clone()), true) {
                out.push_str(&line);
                return;
            }
            if m.get("lines").is_some_and(Value::is_array) && m.contains_key("current_line") {
                self.source(out, m, 0);
                return;
            }
        }
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
                let _ = writeln!(
                    out,
                    "{}| {src}",
                    m["location"]
                        .get("line")
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                );
            }
        }
        for (k, v) in m {
            if self.hidden(k)
                || (lead.is_some()
                    && matches!(k.as_str(), "location" | "source_line" | "state" | "reason"))
            {
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
                // Lines of text (a runner's output): one per line, not joined with ", ".
                Value::Array(a)
                    if a.iter().all(Value::is_string)
                        && a.iter()
                            .any(|x| x.as_str().is_some_and(|t| t.contains(' '))) =>
                {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    for x in a {
                        pad(out, indent + 2);
                        let _ = writeln!(out, "{}", self.rel(x.as_str().unwrap_or("")));
                    }
                }
                Value::Array(a) if a.iter().any(|x| x.is_object()) => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    for x in a {
                        // Frames the debugger hid: a row at the gap, as the indexes skip it.
                        if let (Some(n), Some(i)) = (
                            x.get("hidden_above").and_then(Value::as_u64),
                            x.get("index").and_then(Value::as_u64),
                        ) {
                            pad(out, indent + 2);
                            let _ = writeln!(out, "{}", super::out::hidden_row(i as u32, n as u32));
                        }
                        pad(out, indent + 2);
                        // A list item that failed (set_breakpoint {breakpoints}): which, and why.
                        if let (Some(i), Some(e), 2) = (
                            x.get("index").and_then(Value::as_u64),
                            x.get("error").and_then(Value::as_str),
                            x.as_object().map_or(0, Map::len),
                        ) {
                            let _ = writeln!(out, "{k}[{i}] failed: {e}");
                            continue;
                        }
                        let line = self.breakpoint(x, false).unwrap_or_else(|| self.inline(x));
                        let _ = writeln!(out, "{line}");
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
                // Source context: numbered lines, the current one marked (not just its file).
                Value::Object(o) if o.get("lines").is_some_and(Value::is_array) => {
                    pad(out, indent);
                    let _ = writeln!(out, "{k}:");
                    self.source(out, o, indent + 2);
                }
                Value::Object(o) => {
                    if let Some(loc) = self.location(v) {
                        pad(out, indent);
                        let _ = writeln!(out, "{k}: {loc}");
                    } else {
                        pad(out, indent);
                        let _ = writeln!(out, "{k}:");
                        // The session id is said once, at the top.
                        let nested = Renderer {
                            root: self.root.clone(),
                            show_session: false,
                            cut: Cell::new(false),
                            next: RefCell::new(Vec::new()),
                        };
                        nested.object(out, o, indent + 2);
                        self.cut.set(self.cut.get() || nested.cut.get());
                        self.next.borrow_mut().extend(nested.next.take());
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

/// `<__main__.Item object at 0x7f…>` → `<Item>` inside a rendering: the address is noise to a
/// model (structuredContent keeps the debugger's text as it was).
fn short_addresses(text: &str) -> String {
    const AT: &str = " object at 0x";
    if !text.contains(AT) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(AT) {
        let Some(open) = rest[..i].rfind('<') else {
            break;
        };
        let after = &rest[i + AT.len()..];
        let hex = after
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(after.len());
        if hex == 0 || !after[hex..].starts_with('>') || rest[open + 1..i].contains([' ', '<', '>'])
        {
            out.push_str(&rest[..i + AT.len()]);
            rest = after;
            continue;
        }
        let class = rest[open + 1..i].rsplit('.').next().unwrap_or("");
        out.push_str(&rest[..open]);
        let _ = write!(out, "<{class}>");
        rest = &after[hex + 1..];
    }
    out.push_str(rest);
    out
}

/// `cells` after `lead` on one line, `; ` between them; one a line (indented, its own lines
/// further in) when a value spans lines (a search's rows), so no row runs into the next name.
fn write_cells(out: &mut String, lead: &str, cells: &[String]) {
    if cells.iter().any(|c| c.contains('\n')) {
        if lead != "  " {
            out.push('\n');
        }
        for c in cells {
            let _ = writeln!(out, "  {}", c.replace('\n', "\n    "));
        }
    } else {
        let _ = writeln!(out, "{lead}{}", cells.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A capture over two points, the first met again from another caller, one expression out
    /// of scope at the second: one header, a point met again names only the differing callers,
    /// an error repeated along a row is said once, the end is on the first line.
    #[test]
    fn capture_reads_like_a_print() {
        let hit = |n: u64, point: u64, line: u64, stack: &[&str], vals: Value| {
            json!({"hit": n, "point": point, "at": {"file": "/p/a.c", "line": line, "method": "f"},
                   "stack": stack, "values": vals, "locals": {"x": "1"}})
        };
        let ok = |a: &str, b: &str| json!([{"name": "a", "value": a}, {"name": "b", "value": b}]);
        let v = json!({
            "message": "3 hits recorded; the program ended",
            "hits": [
                hit(1, 1, 5, &["f a.c:5", "g a.c:9", "main a.c:20"], ok("1", "2")),
                hit(2, 2, 7, &["h a.c:7", "main a.c:21"], json!([
                    {"name": "a", "error": "evaluate failed: No symbol \"a\" in current context."},
                    {"name": "b", "error": "evaluate failed: No symbol \"a\" in current context."}])),
                hit(3, 1, 5, &["f a.c:5", "g a.c:9", "main a.c:22"], ok("3", "4")),
            ],
            "stop": {"state": "stopped", "exit_code": 1, "message": "the session has ended with exit code 1",
                     "stderr": "Traceback:\nValueError: bad\n"},
        });
        assert_eq!(
            text("capture", &v, Some("/p")),
            "3 hits recorded; the program ended with exit code 1\n\
             hit | a | b\n\
             at a.c:5 in f, from g a.c:9 < main a.c:20\n  1 | 1 | 2\n\
             at a.c:7 in f, from main a.c:21\n  \
             2 | error: No symbol \"a\" in current context. | (same error)\n\
             at a.c:5 again, from … < main a.c:22\n  3 | 3 | 4\n\
             stderr ends: ValueError: bad"
        );
    }

    /// A search's rows span lines: a row of the table (several hits) or of a read is written
    /// one value a line, indented, so no row runs into the next column or name.
    #[test]
    fn values_spanning_lines_are_written_one_a_line() {
        let hit = |n: u64, line: u64| {
            json!({"hit": n, "point": 1, "at": {"file": "/p/a.py", "line": line, "method": "f"},
                   "stack": ["f a.py:4"], "locals": {},
                   "values": [{"name": "s", "value": "i in 0..6: visited 6, matched 2\ni=1: 'n1'\ni=4: 'n4'"},
                              {"name": "k", "value": "0"}]})
        };
        let v = json!({"message": "2 hits recorded; the program ended", "hits": [hit(1, 4), hit(2, 4)]});
        let shown = text("capture", &v, Some("/p"));
        assert!(
            shown.contains("  1 |\n    s = i in 0..6: visited 6, matched 2\n      i=1: 'n1'\n      i=4: 'n4'\n    k = 0\n"),
            "{shown}"
        );
        let read = json!({"message": "2 of 2 expressions read", "end": "read", "hits": [
            {"hit": 1, "point": 0, "at": {}, "frame": "#3 main a.c:9",
             "values": [{"name": "s", "value": "i in 0..2: visited 2, matched 1\ni=1: 7"}, {"name": "n", "value": "2"}]}]});
        assert_eq!(
            text("capture", &read, Some("/p")),
            "2 of 2 expressions read\n#3 main a.c:9:\n  s = i in 0..2: visited 2, matched 1\n    i=1: 7\n  n = 2"
        );
    }

    /// A read of a running process (capture or start_debug_session with attach and no points):
    /// one line per frame that answered, naming it; an expression no frame answers, its error.
    #[test]
    fn a_read_of_a_running_process_names_the_frame_of_each_value() {
        let rows = json!([
            {"hit": 1, "point": 0, "at": {"file": "a.c", "line": 9, "method": "main"},
             "frame": "#2 main a.c:9",
             "values": [{"name": "n", "value": "2"}, {"name": "x", "value": "", "error": "No symbol \"x\" in current context. (in none of the 3 frames of the paused thread)"}]},
            {"hit": 2, "point": 0, "at": {}, "frame": "#3 start b.c:1", "values": [{"name": "m", "value": "7"}]},
        ]);
        let v = json!({"message": "2 of 3 expressions read at one pause of process 9, resumed; detached: process 9 runs on",
                       "end": "read", "hits": rows.clone()});
        assert_eq!(
            text("capture", &v, Some("/p")),
            "2 of 3 expressions read at one pause of process 9, resumed; detached: process 9 runs on\n\
             #2 main a.c:9: n = 2; x: error: No symbol \"x\" in current context. (in none of the 3 frames of the paused thread)\n\
             #3 start b.c:1: m = 7"
        );
        let started = json!({"session_id": "s1", "name": "9", "state": "running",
                             "message": "attached to process 9; 2 of 3 expressions read at one pause, resumed: running",
                             "read": rows});
        let shown = text("start_debug_session", &started, Some("/p"));
        assert!(shown.ends_with("#3 start b.c:1: m = 7"), "{shown}");
        assert!(
            shown.contains("resumed: running") && shown.contains("#2 main a.c:9: n = 2"),
            "{shown}"
        );
    }

    /// capture's lines per point (a point never hit, names not in scope) follow the first line,
    /// which keeps how the run ended; a name out of scope is a short cell, not its error again.
    #[test]
    fn capture_per_point_lines_follow_the_end_and_out_of_scope_cells_are_short() {
        let hit = |n: u64, w: &str| {
            json!({"hit": n, "point": 1, "at": {"file": "/p/a.c", "line": 5, "method": "f"},
                   "stack": ["f a.c:5"],
                   "values": [{"name": "v", "error": "not in scope"}, {"name": "w", "value": w}]})
        };
        let v = json!({
            "message": "2 hits recorded; the program ended\npoint 2 (a.c:9): never hit\n`v`: not in scope at a.c:5 (2 rows)",
            "hits": [hit(1, "3"), hit(2, "4")],
            "stop": {"state": "stopped", "exit_code": 0, "message": "the session has ended with exit code 0"},
        });
        assert_eq!(
            text("capture", &v, Some("/p")),
            "2 hits recorded; the program ended with exit code 0\n\
             point 2 (a.c:9): never hit\n\
             `v`: not in scope at a.c:5 (2 rows)\n\
             hit | v | w\n\
             at a.c:5 in f\n  1 | - | 3\n  2 | - | 4"
        );
    }

    /// Without expressions, locals past the cap are said at a point's first hit (a Java main's
    /// loop variable was the 13th: rows then read empty while it counted), and a row where no
    /// shown local changed says so instead of being blank.
    #[test]
    fn capture_locals_say_what_is_left_out_and_when_nothing_changed() {
        let hit = |n: u64, x: &str| {
            json!({"hit": n, "point": 1, "at": {"file": "/p/A.java", "line": 5, "method": "main"},
                   "stack": ["main A.java:5"], "locals": {"x": x, "y": "2"}, "more_locals": 1})
        };
        let v = json!({"message": "3 hits recorded (max_hits)", "hits": [hit(1, "1"), hit(2, "1"), hit(3, "4")]});
        assert_eq!(
            text("capture", &v, Some("/p")),
            "3 hits recorded (max_hits)\n\
             at A.java:5 in main\n  \
             1 | x=1 y=2 (+1 more locals: name them in expressions)\n  \
             2 | (no local changed)\n  \
             3 | x=4"
        );
    }

    #[test]
    fn addresses_inside_reprs_are_left_out_of_the_text() {
        assert_eq!(
            short_addresses(
                "[<__main__.Item object at 0x7f62c11e5250>, <shop.cart.Item object at 0xABC>]"
            ),
            "[<Item>, <Item>]"
        );
        // Not an address repr: left as it is.
        assert_eq!(
            short_addresses("'a <b object at 0xZZ>' <x object at 0x12"),
            "'a <b object at 0xZZ>' <x object at 0x12"
        );
    }

    #[test]
    fn a_breakpoint_reads_as_one_line_with_what_differs_from_the_defaults() {
        let v = json!({"id": "1", "type": "line", "status": "set", "file": "/p/calc.py", "line": 14, "requested_line": 13,
            "verified": false, "enabled": true, "owner": "agent", "suspend_policy": "all", "hit_count": 0,
            "condition": "qty > 1", "message": "pending", "source_line": "    subtotal += x  "});
        let t = text("set_breakpoint", &v, Some("/p"));
        assert_eq!(
            t,
            "breakpoint 1 set at calc.py:14 (moved from line 13) [not bound]; condition: qty > 1; message: pending\n  14| subtotal += x"
        );
        let list = json!({"breakpoints": [v]});
        assert!(
            text("list_breakpoints", &list, Some("/p"))
                .contains("\n  breakpoint 1 set at calc.py:14"),
            "{}",
            text("list_breakpoints", &list, Some("/p"))
        );
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
        assert!(
            t.contains("items = [1, 2] (list, 2 items) #v1\n    0 = 1 (int)\n    … 1 of 2 shown"),
            "{t}"
        );
        // A cut value says so, with both lengths (how to read more is in the instructions).
        assert!(
            t.ends_with("notes = xxxx… (cut: 4 of 500 chars) (str)"),
            "{t}"
        );
        // An evaluation cut at its bound says where the rest is.
        let e = json!({"frame_index": 0, "expression": "page * 4", "result":
            {"id": "v1", "name": "page * 4", "value": "'<html>…", "type": "str", "truncated": true, "value_length": 24164}});
        assert_eq!(
            text("evaluate_expression", &e, None),
            "expression: page * 4\nframe_index: 0\nresult:\n  page * 4 = '<html>… (cut: 6 of 24,164 chars) (str)\ncut: a slice reads on where the text ends (s[6:16006], substr($s, 6, 16000))"
        );
        // A batch's values, each cut at its share: each slice starts where its own text
        // ended, in the string's characters (`\n` is one).
        let e = json!({"frame_index": 0, "results": [
            {"id": "v1", "name": "a", "value": "'x\\ny…", "type": "str", "truncated": true, "value_length": 9000},
            {"id": "v2", "name": "b", "value": "'wxyz…", "type": "str", "truncated": true, "value_length": 9000}]});
        let t = text("evaluate_expression", &e, None);
        assert!(
            t.ends_with("cut: a slice reads on where each text ends: a: s[3:16003], substr($s, 3, 16000); b: s[4:16004], substr($s, 4, 16000)"),
            "{t}"
        );
        // Cut by the debugger at a length it did not say; a container cut below its rows
        // (`total`) is not a cut value.
        let v = json!({"frame_index": 0, "variables": [
            {"id": "v1", "name": "buf", "value": "\"<html>…", "type": "char [8192]", "truncated": true},
            {"id": "v2", "name": "xs", "value": "[1, 2]", "type": "list", "truncated": true, "total": 9},
        ]});
        let t = text("get_variables", &v, None);
        assert!(
            t.contains("buf = \"<html>… (cut at 6 chars) (char [8192])\n"),
            "{t}"
        );
        assert!(t.ends_with("xs = [1, 2] (list)"), "{t}");
    }

    #[test]
    fn a_recursion_reads_as_one_line_with_a_count() {
        let v = json!({"session_id": "s1", "thread_id": "1", "frames": [
            {"file": "/p/prog.cpp", "line": 26, "method": "deep", "index": 0, "is_current": true},
            {"file": "/p/prog.cpp", "line": 26, "method": "deep", "index": 1, "is_current": false, "repeated": 20},
            {"file": "/p/prog.cpp", "line": 40, "method": "main", "index": 21, "is_current": false},
        ]});
        let t = text("get_stack_trace", &v, Some("/p"));
        assert_eq!(
            t,
            "frames:\n  prog.cpp:26 in deep\n  prog.cpp:26 in deep ×20\n  prog.cpp:40 in main"
        );
    }
}
