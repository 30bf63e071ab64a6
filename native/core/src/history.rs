//! Command history: every tool call with time, tool, parameters, status, duration and result.
//! Bounded per project (oldest entries dropped first) and in total bytes (oldest entries of any
//! project dropped first), and every entry is bounded itself: long strings in parameters and
//! results and a long error are cut with their real size noted ([`bound_entry`]). A client
//! controls the parameters (a 3 MiB `file_path`, a unique `project_path` per call), so nothing
//! here may grow with what it sends. Exported as JSON or CSV for the IDE's tool window, which only
//! renders what this module returns.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HistoryEntry {
    /// Increasing sequence number, unique per engine.
    pub id: u64,
    /// Milliseconds since the Unix epoch.
    pub time_ms: u64,
    pub project: String,
    pub tool: String,
    pub params: Value,
    /// "ok" or "error".
    pub status: String,
    pub duration_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Filter for `entries`; every present field must match. `text` searches tool, params,
/// result and error, case-insensitively.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryFilter {
    pub project: Option<String>,
    pub tool: Option<String>,
    pub status: Option<String>,
    pub text: Option<String>,
    /// Newest entries first, at most this many (default: all).
    pub limit: Option<usize>,
}

/// Longest string kept in an entry's parameters or result (characters); longer ones are cut
/// and say their real length.
pub const MAX_STRING_CHARS: usize = 512;
/// Longest error text kept (characters).
pub const MAX_ERROR_CHARS: usize = 2048;
/// Most bytes one entry's parameters or result may take as JSON; beyond that the value is
/// replaced by a note with its real size.
pub const MAX_VALUE_BYTES: usize = 8 * 1024;

pub struct History {
    capacity: usize,
    max_bytes: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    per_project: HashMap<String, VecDeque<(HistoryEntry, usize)>>,
    /// Approximate bytes of every kept entry.
    bytes: usize,
}

impl History {
    /// `capacity_per_project` entries per project, `max_bytes` in total.
    pub fn new(capacity_per_project: usize, max_bytes: usize) -> Self {
        Self {
            capacity: capacity_per_project.max(1),
            max_bytes: max_bytes.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Records an entry (its `id` is assigned here, and it is bounded with [`bound_entry`]) and
    /// returns the id.
    pub fn record(&self, mut entry: HistoryEntry) -> u64 {
        bound_entry(&mut entry);
        let size = entry_bytes(&entry);
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.next_id += 1;
        entry.id = inner.next_id;
        let id = entry.id;
        let queue = inner.per_project.entry(entry.project.clone()).or_default();
        let mut freed = 0;
        if queue.len() >= self.capacity
            && let Some((_, n)) = queue.pop_front()
        {
            freed += n;
        }
        queue.push_back((entry, size));
        inner.bytes = inner.bytes + size - freed;
        // Over the total: drop the oldest entries of any project.
        while inner.bytes > self.max_bytes {
            let oldest = inner
                .per_project
                .iter()
                .filter_map(|(p, q)| q.front().map(|(e, _)| (e.id, p.clone())))
                .min_by_key(|(id, _)| *id);
            let Some((_, project)) = oldest else { break };
            let Some(q) = inner.per_project.get_mut(&project) else {
                break;
            };
            let (_, n) = q.pop_front().expect("front exists");
            if q.is_empty() {
                inner.per_project.remove(&project);
            }
            inner.bytes -= n;
        }
        id
    }

    /// Approximate bytes the kept entries take (what `max_bytes` bounds).
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }

    /// Matching entries, newest first.
    pub fn entries(&self, filter: &HistoryFilter) -> Vec<HistoryEntry> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let text = filter.text.as_ref().map(|t| t.to_lowercase());
        let mut out: Vec<HistoryEntry> = inner
            .per_project
            .iter()
            .filter(|(p, _)| filter.project.as_ref().is_none_or(|want| want == *p))
            .flat_map(|(_, q)| q.iter().map(|(e, _)| e))
            .filter(|e| filter.tool.as_ref().is_none_or(|t| &e.tool == t))
            .filter(|e| filter.status.as_ref().is_none_or(|s| &e.status == s))
            .filter(|e| {
                text.as_ref()
                    .is_none_or(|t| entry_text(e).contains(t.as_str()))
            })
            .cloned()
            .collect();
        out.sort_by_key(|e| std::cmp::Reverse(e.id));
        if let Some(limit) = filter.limit {
            out.truncate(limit);
        }
        out
    }

    pub fn clear(&self, project: Option<&str>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match project {
            Some(p) => {
                if let Some(q) = inner.per_project.remove(p) {
                    inner.bytes -= q.iter().map(|(_, n)| n).sum::<usize>();
                }
            }
            None => {
                inner.per_project.clear();
                inner.bytes = 0;
            }
        }
    }

    pub fn export_json(&self, filter: &HistoryFilter) -> String {
        serde_json::to_string_pretty(&self.entries(filter)).expect("history serializes")
    }

    pub fn export_csv(&self, filter: &HistoryFilter) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record([
            "id",
            "time_ms",
            "project",
            "tool",
            "status",
            "duration_ms",
            "params",
            "result",
            "error",
        ]);
        for e in self.entries(filter) {
            let _ = w.write_record([
                e.id.to_string(),
                e.time_ms.to_string(),
                e.project,
                e.tool,
                e.status,
                format!("{:.3}", e.duration_ms),
                e.params.to_string(),
                e.result.map(|r| r.to_string()).unwrap_or_default(),
                e.error.unwrap_or_default(),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// Bounds one entry in place: strings in `params` and `result` longer than
/// [`MAX_STRING_CHARS`] are cut and end with `…[N chars]`, a value still over
/// [`MAX_VALUE_BYTES`] becomes `{"omitted": "...", "bytes": N}`, and the error keeps its first
/// [`MAX_ERROR_CHARS`] characters plus its real length. The project key is cut like a string.
pub fn bound_entry(e: &mut HistoryEntry) {
    bound_value(&mut e.params);
    if let Some(r) = e.result.as_mut() {
        bound_value(r);
    }
    if let Some(err) = e.error.as_mut() {
        cut(err, MAX_ERROR_CHARS);
    }
    cut(&mut e.project, MAX_STRING_CHARS);
    cut(&mut e.tool, 64);
}

fn bound_value(v: &mut Value) {
    cut_strings(v, 0);
    let bytes = serde_json::to_string(v).map(|s| s.len()).unwrap_or(0);
    if bytes > MAX_VALUE_BYTES {
        *v = serde_json::json!({"omitted": "too large for the history", "bytes": bytes});
    }
}

fn cut_strings(v: &mut Value, depth: usize) {
    match v {
        Value::String(s) => cut(s, MAX_STRING_CHARS),
        // Deeper than any tool's parameters or result: not worth keeping.
        Value::Array(_) | Value::Object(_) if depth > 16 => {
            *v = Value::String("…[nested too deep]".into())
        }
        Value::Array(a) => a.iter_mut().for_each(|x| cut_strings(x, depth + 1)),
        Value::Object(m) => {
            // Keys are client-chosen too (unknown parameters are refused, but still recorded).
            if m.keys().any(|k| k.len() > MAX_STRING_CHARS) {
                let old = std::mem::take(m);
                for (mut k, x) in old {
                    cut(&mut k, MAX_STRING_CHARS);
                    m.insert(k, x);
                }
            }
            m.values_mut().for_each(|x| cut_strings(x, depth + 1));
        }
        _ => {}
    }
}

/// Keeps the first `max` characters of `s` and notes the real length.
fn cut(s: &mut String, max: usize) {
    if s.len() <= max {
        return;
    }
    let chars = s.chars().count();
    if chars <= max {
        return;
    }
    let end = s.char_indices().nth(max).map(|(i, _)| i).unwrap_or(s.len());
    s.truncate(end);
    s.push_str(&format!("…[{chars} chars]"));
    s.shrink_to_fit();
}

/// What an entry costs in memory, roughly: its JSON size plus the fixed part.
fn entry_bytes(e: &HistoryEntry) -> usize {
    let json = |v: &Value| serde_json::to_string(v).map(|s| s.len()).unwrap_or(0);
    128 + e.project.len()
        + e.tool.len()
        + json(&e.params)
        + e.result.as_ref().map(json).unwrap_or(0)
        + e.error.as_ref().map(String::len).unwrap_or(0)
}

fn entry_text(e: &HistoryEntry) -> String {
    let mut s = format!("{} {}", e.tool, e.params);
    if let Some(r) = &e.result {
        s.push(' ');
        s.push_str(&r.to_string());
    }
    if let Some(err) = &e.error {
        s.push(' ');
        s.push_str(err);
    }
    s.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(project: &str, tool: &str, status: &str) -> HistoryEntry {
        HistoryEntry {
            id: 0,
            time_ms: 1,
            project: project.into(),
            tool: tool.into(),
            params: json!({"line": 3}),
            status: status.into(),
            duration_ms: 1.5,
            result: Some(json!({"ok": true})),
            error: (status == "error").then(|| "session s9 not found".to_string()),
        }
    }

    #[test]
    fn bounded_per_project_and_filtered() {
        let h = History::new(2, 1 << 20);
        h.record(entry("/a", "resume", "ok"));
        h.record(entry("/a", "step_over", "ok"));
        h.record(entry("/a", "pause", "error"));
        h.record(entry("/b", "resume", "ok"));
        let a = h.entries(&HistoryFilter {
            project: Some("/a".into()),
            ..Default::default()
        });
        assert_eq!(
            a.iter().map(|e| e.tool.as_str()).collect::<Vec<_>>(),
            ["pause", "step_over"]
        );
        let errors = h.entries(&HistoryFilter {
            status: Some("error".into()),
            ..Default::default()
        });
        assert_eq!(errors.len(), 1);
        let text = h.entries(&HistoryFilter {
            text: Some("S9 NOT".into()),
            ..Default::default()
        });
        assert_eq!(text[0].tool, "pause");
        h.clear(Some("/a"));
        assert_eq!(h.entries(&HistoryFilter::default()).len(), 1);
    }

    /// Issue 16: what a client sends cannot grow the history beyond its bounds. Fails before the
    /// fix: entries kept their 3 MiB parameters, and the only bound was per project key.
    #[test]
    fn entries_are_bounded_and_the_total_is_capped() {
        let h = History::new(1000, 256 * 1024);
        let big = "x".repeat(3 << 20);
        for i in 0..150 {
            let mut e = entry(&format!("/p{i}{big}"), "set_breakpoint", "error");
            e.params = json!({"file_path": big, "line": 3});
            e.error = Some(format!("file '{big}' not found"));
            e.result = Some(json!({"text": big}));
            h.record(e);
        }
        assert!(h.bytes() <= 256 * 1024, "{} bytes kept", h.bytes());
        let all = h.entries(&HistoryFilter::default());
        assert!(!all.is_empty() && all.len() < 150, "{} entries", all.len());
        let newest = &all[0];
        let fp = newest.params["file_path"].as_str().unwrap();
        assert!(
            fp.len() < 1024 && fp.ends_with(&format!("…[{} chars]", 3 << 20)),
            "{}",
            &fp[fp.len() - 40..]
        );
        assert!(newest.error.as_ref().unwrap().len() < 4096);
        assert!(newest.project.len() < 1024);
        assert_eq!(newest.params["line"], 3);
        // A value still too large after cutting strings (many small ones) says its size.
        let mut e = entry("/a", "evaluate_expression", "ok");
        e.params = json!({"expressions": vec!["y".repeat(500); 100]});
        h.record(e);
        let e = &h.entries(&HistoryFilter {
            project: Some("/a".into()),
            ..Default::default()
        })[0];
        assert!(
            e.params["bytes"].as_u64().unwrap() > 8 * 1024,
            "{}",
            e.params
        );
        h.clear(None);
        assert_eq!(h.bytes(), 0);
    }

    #[test]
    fn csv_quotes_json_and_json_round_trips() {
        let h = History::new(10, 1 << 20);
        h.record(entry("/a", "set_breakpoint", "ok"));
        let csv = h.export_csv(&HistoryFilter::default());
        assert!(csv.starts_with("id,time_ms,project,tool,status"));
        assert!(csv.contains("\"{\"\"line\"\":3}\""), "{csv}");
        let back: Vec<HistoryEntry> =
            serde_json::from_str(&h.export_json(&HistoryFilter::default())).unwrap();
        assert_eq!(back[0].tool, "set_breakpoint");
    }
}
