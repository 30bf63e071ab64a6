//! Command history: every tool call with time, tool, parameters, status, duration and result.
//! Bounded per project (oldest entries dropped first); exported as JSON or CSV for the IDE's
//! tool window, which only renders what this module returns.

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

pub struct History {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    per_project: HashMap<String, VecDeque<HistoryEntry>>,
}

impl History {
    pub fn new(capacity_per_project: usize) -> Self {
        Self {
            capacity: capacity_per_project.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Records an entry (its `id` is assigned here) and returns the id.
    pub fn record(&self, mut entry: HistoryEntry) -> u64 {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.next_id += 1;
        entry.id = inner.next_id;
        let id = entry.id;
        let queue = inner.per_project.entry(entry.project.clone()).or_default();
        if queue.len() >= self.capacity {
            queue.pop_front();
        }
        queue.push_back(entry);
        id
    }

    /// Matching entries, newest first.
    pub fn entries(&self, filter: &HistoryFilter) -> Vec<HistoryEntry> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let text = filter.text.as_ref().map(|t| t.to_lowercase());
        let mut out: Vec<HistoryEntry> = inner
            .per_project
            .iter()
            .filter(|(p, _)| filter.project.as_ref().is_none_or(|want| want == *p))
            .flat_map(|(_, q)| q.iter())
            .filter(|e| filter.tool.as_ref().is_none_or(|t| &e.tool == t))
            .filter(|e| filter.status.as_ref().is_none_or(|s| &e.status == s))
            .filter(|e| {
                text.as_ref()
                    .is_none_or(|t| entry_text(e).contains(t.as_str()))
            })
            .cloned()
            .collect();
        out.sort_by(|a, b| b.id.cmp(&a.id));
        if let Some(limit) = filter.limit {
            out.truncate(limit);
        }
        out
    }

    pub fn clear(&self, project: Option<&str>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match project {
            Some(p) => {
                inner.per_project.remove(p);
            }
            None => inner.per_project.clear(),
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
        let h = History::new(2);
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

    #[test]
    fn csv_quotes_json_and_json_round_trips() {
        let h = History::new(10);
        h.record(entry("/a", "set_breakpoint", "ok"));
        let csv = h.export_csv(&HistoryFilter::default());
        assert!(csv.starts_with("id,time_ms,project,tool,status"));
        assert!(csv.contains("\"{\"\"line\"\":3}\""), "{csv}");
        let back: Vec<HistoryEntry> =
            serde_json::from_str(&h.export_json(&HistoryFilter::default())).unwrap();
        assert_eq!(back[0].tool, "set_breakpoint");
    }
}
