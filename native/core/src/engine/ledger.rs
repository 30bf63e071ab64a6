//! The ledger: the per-session memory of what the agent saw (seed 004 "black box").
//!
//! Every value an agent read — stop snapshots, variables, expansions, evaluations, watches,
//! inspections — and every value it changed is recorded with the step (pause number), location,
//! thread and time it was read at; pauses (with reason, exception text, owner) and notes such as
//! watchdog actions are recorded too. Value ids die when the program resumes; the ledger does
//! not, which is what lets `get_debug_history` answer "what was `x` three steps ago" and
//! `get_session_summary` write the hand-off.
//!
//! Bounds: at most `memory.max_entries_per_session` values and as many pauses per session (the
//! oldest are dropped and counted), at most `memory.max_sessions` sessions (the oldest ended ones
//! go first). Values are stored as the agent saw them: already truncated and redacted, so the
//! ledger never holds a secret the agent was not shown. On disk, see `memory` (summary files).
//!
//! API for tools: build [`ValueRead`]s and call `Call::remember` (fills step, location, thread
//! and time from the session's current pause), or [`Ledger::record`] with an explicit [`At`].
//! Lock order: the engine state lock may be held while calling the ledger, never the reverse.

use serde::Serialize;

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// How a value came to the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReadKind {
    /// Shown in a stop result or by get_variables / get_debug_session_status.
    Variable,
    /// A child shown by expand_variable.
    Expansion,
    /// evaluate_expression / evaluate_code_fragment.
    Evaluation,
    /// A watch re-evaluated at a pause.
    Watch,
    /// expand_variable with a JSONPath filter.
    Inspection,
    /// Changed by the agent (set_variable).
    Modified,
}

/// One value as the agent saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueRead {
    pub kind: ReadKind,
    /// Path or expression, as the agent would write it (`order.total`, `len(items)`).
    pub name: String,
    /// Rendered value, already truncated/redacted.
    pub value: String,
    pub type_name: Option<String>,
}

impl ValueRead {
    pub fn new(
        kind: ReadKind,
        name: impl Into<String>,
        value: impl Into<String>,
        type_name: Option<String>,
    ) -> Self {
        Self {
            kind,
            name: name.into(),
            value: value.into(),
            type_name,
        }
    }

    /// From a value node as tools show it (`values::show`): takes the shown (redacted,
    /// truncated) `value` and `type`.
    pub fn from_shown(
        kind: ReadKind,
        name: impl Into<String>,
        shown: &super::out::ValueNode,
    ) -> Self {
        Self::new(kind, name, shown.value.as_str(), shown.type_name.clone())
    }

    /// The value and, for a preview, each field it showed as `name.field`: an object whose
    /// repr does not change (`<Cat object at 0x…>`) still shows its attribute changes.
    pub fn with_fields(kind: ReadKind, name: &str, shown: &super::out::ValueNode) -> Vec<Self> {
        let mut out = vec![Self::from_shown(kind, name, shown)];
        out.extend(
            shown
                .preview_fields
                .iter()
                .map(|(f, v)| Self::new(kind, format!("{name}.{f}"), v.as_str(), None)),
        );
        out
    }
}

/// Where and when a read happened.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct At {
    pub step: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    /// Relative to the project root when inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

impl At {
    /// `file:line` (or `?`), for messages.
    pub fn place(&self) -> String {
        match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            (Some(f), None) => f.clone(),
            _ => "?".into(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub time_ms: u64,
    #[serde(flatten)]
    pub at: At,
    pub kind: ReadKind,
    pub name: String,
    pub value: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PauseRecord {
    pub time_ms: u64,
    #[serde(flatten)]
    pub at: At,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub breakpoint_ids: Vec<String>,
    /// False for pauses the IDE user made (not after an agent call, not at an agent breakpoint).
    pub by_agent: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Note {
    pub time_ms: u64,
    pub text: String,
}

/// Everything remembered about one session.
#[derive(Debug, Clone, Default)]
pub struct SessionLedger {
    pub session_id: String,
    pub name: String,
    pub project: Option<String>,
    pub started_ms: u64,
    pub ended_ms: Option<u64>,
    pub exit_code: Option<i64>,
    pub entries: VecDeque<Entry>,
    /// Values dropped from the front to stay within bounds.
    pub dropped: u64,
    pub pauses: VecDeque<PauseRecord>,
    pub pauses_dropped: u64,
    pub notes: VecDeque<Note>,
    /// Last (step, value) per name, to skip re-reads of an unchanged value in the same pause.
    last: HashMap<String, (u64, String)>,
}

const NOTES: usize = 50;
/// Characters of a value kept (values arrive truncated to max_value_length already; this bounds
/// memory whatever that setting is).
const VALUE_CHARS: usize = 1000;

#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub entries_per_session: usize,
    pub sessions: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            entries_per_session: 5000,
            sessions: 20,
        }
    }
}

pub struct Ledger {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    bounds: Bounds,
    sessions: HashMap<String, SessionLedger>,
    /// Session ids in the order they were opened (eviction order).
    order: VecDeque<String>,
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

impl Ledger {
    pub fn new(bounds: Bounds) -> Self {
        Self {
            inner: Mutex::new(Inner {
                bounds,
                ..Default::default()
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn set_bounds(&self, bounds: Bounds) {
        self.lock().bounds = bounds;
    }

    /// Opens (or renames) a session's ledger. Called for every session the engine learns of.
    pub fn open(&self, session_id: &str, name: &str, project: Option<&str>) {
        let mut inner = self.lock();
        if !inner.sessions.contains_key(session_id) {
            inner.order.push_back(session_id.to_string());
            inner.sessions.insert(
                session_id.to_string(),
                SessionLedger {
                    session_id: session_id.into(),
                    name: name.into(),
                    started_ms: now_ms(),
                    ..Default::default()
                },
            );
            inner.evict();
        }
        if let Some(l) = inner.sessions.get_mut(session_id) {
            if !name.is_empty() && (l.name.is_empty() || l.name == l.session_id) {
                l.name = name.into();
            }
            if l.project.is_none() {
                l.project = project.map(String::from);
            }
        }
    }

    /// Records values read at `at`. Re-reading a name at the same step with the same value
    /// records nothing (a stop result and get_variables show the same locals).
    pub fn record(&self, session_id: &str, at: &At, reads: impl IntoIterator<Item = ValueRead>) {
        let mut inner = self.lock();
        let cap = inner.bounds.entries_per_session.max(1);
        if !inner.sessions.contains_key(session_id) {
            drop(inner);
            self.open(session_id, session_id, None);
            inner = self.lock();
        }
        let Some(l) = inner.sessions.get_mut(session_id) else {
            return;
        };
        let time_ms = now_ms();
        for r in reads {
            let same = l
                .last
                .get(&r.name)
                .is_some_and(|(step, v)| *step == at.step && *v == r.value);
            if same && r.kind != ReadKind::Modified {
                continue;
            }
            let value = if r.value.chars().count() > VALUE_CHARS {
                r.value.chars().take(VALUE_CHARS).chain(['…']).collect()
            } else {
                r.value
            };
            let r = ValueRead { value, ..r };
            l.last.insert(r.name.clone(), (at.step, r.value.clone()));
            if l.entries.len() >= cap {
                l.entries.pop_front();
                l.dropped += 1;
            }
            l.entries.push_back(Entry {
                time_ms,
                at: at.clone(),
                kind: r.kind,
                name: r.name,
                value: r.value,
                type_name: r.type_name,
            });
        }
    }

    /// Records a pause (its location may follow with [`Ledger::locate_pause`]).
    pub fn pause(&self, session_id: &str, record: PauseRecord) {
        let mut inner = self.lock();
        let cap = inner.bounds.entries_per_session.max(1);
        if let Some(l) = inner.sessions.get_mut(session_id) {
            if l.pauses.len() >= cap {
                l.pauses.pop_front();
                l.pauses_dropped += 1;
            }
            l.pauses.push_back(record);
        }
    }

    /// Fills in where pause `step` happened once the top frame is known.
    pub fn locate_pause(&self, session_id: &str, step: u64, at: &At) {
        let mut inner = self.lock();
        if let Some(p) = inner
            .sessions
            .get_mut(session_id)
            .and_then(|l| l.pauses.iter_mut().rev().find(|p| p.at.step == step))
        {
            p.at.file = at.file.clone();
            p.at.line = at.line;
            p.at.function = at.function.clone();
            if p.at.thread.is_none() {
                p.at.thread = at.thread.clone();
            }
        }
    }

    pub fn note(&self, session_id: &str, text: impl Into<String>) {
        let mut inner = self.lock();
        if let Some(l) = inner.sessions.get_mut(session_id) {
            if l.notes.len() >= NOTES {
                l.notes.pop_front();
            }
            l.notes.push_back(Note {
                time_ms: now_ms(),
                text: text.into(),
            });
        }
    }

    pub fn end(&self, session_id: &str, exit_code: Option<i64>) {
        let mut inner = self.lock();
        if let Some(l) = inner.sessions.get_mut(session_id) {
            if l.ended_ms.is_none() {
                l.ended_ms = Some(now_ms());
            }
            l.exit_code = exit_code.or(l.exit_code);
        }
        inner.evict();
    }

    /// A copy of one session's ledger.
    pub fn get(&self, session_id: &str) -> Option<SessionLedger> {
        self.lock().sessions.get(session_id).cloned()
    }

    pub fn contains(&self, session_id: &str) -> bool {
        self.lock().sessions.contains_key(session_id)
    }

    /// Ids of the remembered sessions of `project` (all when `None`), oldest first.
    pub fn session_ids(&self, project: Option<&str>) -> Vec<String> {
        let inner = self.lock();
        inner
            .order
            .iter()
            .filter(|id| {
                project.is_none_or(|p| {
                    inner
                        .sessions
                        .get(*id)
                        .is_some_and(|l| l.project.as_deref() == Some(p))
                })
            })
            .cloned()
            .collect()
    }
}

impl Inner {
    /// Drops the oldest ended sessions beyond the bound (live sessions are kept).
    fn evict(&mut self) {
        while self.order.len() > self.bounds.sessions.max(1) {
            let Some(pos) = self
                .order
                .iter()
                .position(|id| self.sessions.get(id).is_none_or(|l| l.ended_ms.is_some()))
            else {
                break;
            };
            if let Some(id) = self.order.remove(pos) {
                self.sessions.remove(&id);
            }
        }
    }
}

impl SessionLedger {
    /// Names read, most recently read last.
    pub fn names(&self) -> Vec<String> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, e) in self.entries.iter().enumerate() {
            seen.insert(&e.name, i);
        }
        let mut names: Vec<(&str, usize)> = seen.into_iter().collect();
        names.sort_by_key(|(_, i)| *i);
        names.into_iter().map(|(n, _)| n.to_string()).collect()
    }

    /// The readings of `name`, oldest first.
    pub fn readings<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries.iter().filter(move |e| e.name == name)
    }

    /// Readings where the value differs from the previous reading (the first reading included).
    pub fn changes<'a>(&'a self, name: &'a str) -> Vec<(&'a Entry, Option<&'a str>)> {
        let mut out = Vec::new();
        let mut prev: Option<&str> = None;
        for e in self.readings(name) {
            if prev != Some(e.value.as_str()) {
                out.push((e, prev));
            }
            prev = Some(&e.value);
        }
        out
    }

    /// The pause number the session is at (or ended after).
    pub fn last_step(&self) -> u64 {
        let p = self.pauses.back().map(|p| p.at.step).unwrap_or(0);
        let e = self.entries.back().map(|e| e.at.step).unwrap_or(0);
        p.max(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(step: u64, line: u32) -> At {
        At {
            step,
            file: Some("app.py".into()),
            line: Some(line),
            ..Default::default()
        }
    }

    #[test]
    fn skips_unchanged_rereads_and_keeps_changes() {
        let l = Ledger::new(Bounds::default());
        l.open("s1", "app", Some("/p"));
        for (step, v) in [(1, "0"), (1, "0"), (2, "1"), (3, "1"), (4, "3")] {
            l.record(
                "s1",
                &at(step, 16),
                [ValueRead::new(
                    ReadKind::Variable,
                    "total",
                    v,
                    Some("int".into()),
                )],
            );
        }
        let s = l.get("s1").unwrap();
        assert_eq!(
            s.readings("total").count(),
            4,
            "the same value twice in one pause is one reading"
        );
        let changes: Vec<_> = s
            .changes("total")
            .iter()
            .map(|(e, prev)| (e.at.step, e.value.clone(), prev.map(String::from)))
            .collect();
        assert_eq!(
            changes,
            vec![
                (1, "0".into(), None),
                (2, "1".into(), Some("0".into())),
                (4, "3".into(), Some("1".into()))
            ]
        );
        assert_eq!(s.names(), vec!["total".to_string()]);
    }

    #[test]
    fn bounded_per_session_and_in_sessions() {
        let l = Ledger::new(Bounds {
            entries_per_session: 3,
            sessions: 2,
        });
        l.open("a", "a", None);
        for step in 1..=5 {
            l.record(
                "a",
                &at(step, 1),
                [ValueRead::new(
                    ReadKind::Variable,
                    "x",
                    step.to_string(),
                    None,
                )],
            );
        }
        let a = l.get("a").unwrap();
        assert_eq!((a.entries.len(), a.dropped), (3, 2));
        l.end("a", Some(0));
        l.open("b", "b", None);
        l.open("c", "c", None);
        assert!(!l.contains("a"), "the oldest ended session is evicted");
        l.open("d", "d", None);
        assert!(
            l.contains("b") && l.contains("c") && l.contains("d"),
            "live sessions are never evicted"
        );
    }
}
