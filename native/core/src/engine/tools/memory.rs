//! Memory tools over the ledger: get_debug_history (values over time), get_session_summary
//! (Markdown hand-off), get_console_output (output since a cursor).

use super::super::context::{Call, ToolError};
use super::super::ledger::{Entry, ReadKind, SessionLedger};
use super::super::memory::{category_name, cursor, parse_cursor};
use super::out::{State, is_false};
use super::sessions::OutputLine;
use super::{Kind, Outcome, SessionArg};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn twenty() -> usize {
    20
}
fn fifty() -> usize {
    50
}
/// Bytes of output text one get_console_output answer carries at most.
const OUTPUT_BYTES: usize = 8 * 1024;

impl Call<'_> {
    /// The session a memory tool reads: requested (live or ended), else the current/only live
    /// one, else the newest remembered session of the project.
    async fn memory_session(
        &mut self,
        root: &str,
        requested: Option<&str>,
    ) -> Result<SessionLedger, ToolError> {
        let sid = match requested {
            Some(id) if self.engine.ledger.contains(id) => id.to_string(),
            Some(id) => self.session(root, Some(id)).await?,
            None => match self.session(root, None).await {
                Ok(id) => id,
                Err(e) => self.engine.ledger.session_ids(Some(root)).pop().ok_or(e)?,
            },
        };
        if let Some(p) = self
            .engine
            .ledger
            .get(&sid)
            .and_then(|l| l.project)
            .filter(|p| p != root)
        {
            return Err(ToolError(format!(
                "session {sid} belongs to project {p}; pass project_path \"{p}\""
            )));
        }
        self.engine
            .ledger
            .get(&sid)
            .ok_or_else(|| ToolError(format!("nothing is remembered of session {sid} yet")))
    }
}

/// One remembered reading of a value.
#[derive(Serialize, JsonSchema)]
pub struct Reading {
    /// An attribute of the asked name (`cat.hunger`), in `attribute_changes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    step: u64,
    value: String,
    kind: ReadKind,
    location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    function: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thread: Option<String>,
    /// With `changes`: the value before this change.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous: Option<String>,
}

fn entry_json(e: &Entry) -> Reading {
    Reading {
        name: None,
        step: e.at.step,
        value: e.value.clone(),
        kind: e.kind,
        location: e.at.place(),
        function: e.at.function.clone(),
        thread: e.at.thread.clone(),
        previous: None,
    }
}

/// get_debug_history's answer: the names read (no `name`), a value `steps_ago`, or its readings
/// (`values`) or changes (`changes`).
#[derive(Serialize, JsonSchema)]
pub struct History {
    session_id: String,
    current_step: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    names: Option<Vec<NameRead>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps_ago: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_step: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_at: Option<Reading>,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<Reading>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    changes: Option<Vec<Reading>>,
    /// Changes of the name's attributes (`cat.hunger`) the agent was shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    attribute_changes: Option<Vec<Reading>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

impl History {
    fn new(session_id: String, current_step: u64) -> Self {
        History {
            session_id,
            current_step,
            name: None,
            names: None,
            steps_ago: None,
            at_step: None,
            value: None,
            read_at: None,
            values: None,
            changes: None,
            attribute_changes: None,
            total: None,
            truncated: false,
            message: None,
        }
    }
}

#[derive(Serialize, JsonSchema)]
pub struct NameRead {
    name: String,
    reads: u64,
    changes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_step: Option<u64>,
}

/// # Value history
/// Values of earlier pauses: name+steps_ago, name+changes, name+line; no name: the names.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetDebugHistory {
    #[serde(flatten)]
    s: SessionArg,
    name: Option<String>,
    steps_ago: Option<u64>,
    #[serde(default)]
    changes: bool,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    file_path: Option<String>,
    #[schemars(range(min = 1, max = 200))]
    limit: Option<usize>,
}
tool!(
    GetDebugHistory,
    "get_debug_history",
    Kind::Read,
    History,
    get_debug_history
);

async fn get_debug_history(c: &mut Call<'_>, a: GetDebugHistory) -> Outcome<History> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let l = c.memory_session(&root, a.s.session_id.as_deref()).await?;
    let sid = l.session_id.clone();
    let limit = a.limit.unwrap_or_else(twenty);
    let current = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.pause_seq))
        .unwrap_or_else(|| l.last_step());
    let Some(name) = a.name.as_deref() else {
        if a.steps_ago.is_some() || a.changes || a.line.is_some() {
            return Err("steps_ago, changes and line need `name` (a variable path or expression you read); omit them to list the names".into());
        }
        let names = l.names();
        let total = names.len();
        let list: Vec<NameRead> = names
            .iter()
            .rev()
            .take(limit)
            .map(|n| {
                let last = l.readings(n).last();
                NameRead {
                    name: n.clone(),
                    reads: l.readings(n).count() as u64,
                    changes: l.changes(n).len().saturating_sub(1) as u64,
                    last_value: last.map(|e| e.value.clone()),
                    last_step: last.map(|e| e.at.step),
                }
            })
            .collect();
        let mut out = History::new(sid, current);
        out.names = Some(list);
        out.total = Some(total as u64);
        out.truncated = total > limit;
        if total == 0 {
            out.message = Some("nothing read yet in this session; values shown at stops, by get_variables, evaluate_expression and watches are remembered".into());
        }
        return Ok(out);
    };
    if l.readings(name).next().is_none() {
        let names = l.names();
        let similar: Vec<&String> = names
            .iter()
            .filter(|n| n.ends_with(name) || n.contains(name) || name.contains(n.as_str()))
            .take(5)
            .collect();
        let hint = if !similar.is_empty() {
            format!(
                "; did you mean {}?",
                similar
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else if names.is_empty() {
            "; nothing was read in this session yet".into()
        } else {
            let some: Vec<&str> = names.iter().rev().take(15).map(String::as_str).collect();
            format!("; names read: {}", some.join(", "))
        };
        return Err(ToolError(format!(
            "'{name}' was never read in session {sid}{hint}. Only values the agent saw are remembered: read it with get_variables or evaluate_expression first"
        )));
    }
    let mut out = History::new(sid.clone(), current);
    out.name = Some(name.to_string());
    if let Some(n) = a.steps_ago {
        if n > current {
            return Err(ToolError(format!(
                "steps_ago {n} is before the first pause: session {sid} is at step {current}"
            )));
        }
        let target = current - n;
        out.steps_ago = Some(n);
        out.at_step = Some(target);
        match l.readings(name).filter(|e| e.at.step <= target).last() {
            Some(e) => {
                out.value = Some(e.value.clone());
                out.read_at = Some(entry_json(e));
                if e.at.step != target {
                    out.message = Some(format!(
                        "'{name}' was not read at step {target}; this is its last reading before, at step {} ({})",
                        e.at.step,
                        e.at.place()
                    ));
                }
            }
            None => {
                let first = l.readings(name).next().map(|e| e.at.step).unwrap_or(0);
                out.message = Some(format!(
                    "'{name}' was first read at step {first}, after step {target}"
                ));
            }
        }
        return Ok(out);
    }
    let rows: Vec<Reading> = if a.changes {
        l.changes(name)
            .iter()
            .map(|(e, prev)| Reading {
                previous: prev.map(String::from),
                ..entry_json(e)
            })
            .collect()
    } else {
        let file = a.file_path.as_deref().map(|f| {
            c.engine.relative(
                Some(&root),
                &c.file_in_project(&root, f)
                    .unwrap_or_else(|_| f.to_string()),
            )
        });
        let mut rows: Vec<Reading> = Vec::new();
        let mut last_step = None;
        for e in l.readings(name) {
            if a.line.is_some_and(|line| e.at.line != Some(line)) {
                continue;
            }
            if file
                .as_deref()
                .is_some_and(|f| e.at.file.as_deref() != Some(f))
            {
                continue;
            }
            // One row per step: the last reading in that pause.
            if last_step == Some(e.at.step) {
                rows.pop();
            }
            last_step = Some(e.at.step);
            rows.push(entry_json(e));
        }
        if rows.is_empty() {
            let lines: Vec<String> = {
                let mut v: Vec<String> = l.readings(name).map(|e| e.at.place()).collect();
                v.dedup();
                v
            };
            return Err(ToolError(format!(
                "'{name}' was never read at {}{}; it was read at: {}",
                file.as_deref()
                    .map(|f| format!("{f}:"))
                    .unwrap_or_else(|| "line ".into()),
                a.line.map(|n| n.to_string()).unwrap_or_default(),
                lines.join(", ")
            )));
        }
        rows
    };
    let attrs = attribute_changes(&l, name, limit);
    if !attrs.is_empty() {
        if a.changes && rows.len() <= 1 {
            out.message = Some(format!(
                "'{name}' itself read the same each time; its attributes changed (attribute_changes)"
            ));
        }
        out.attribute_changes = Some(attrs);
    }
    let total = rows.len();
    let skip = total.saturating_sub(limit);
    let shown: Vec<Reading> = rows.into_iter().skip(skip).collect();
    if a.changes {
        out.changes = Some(shown);
    } else {
        out.values = Some(shown);
    }
    out.total = Some(total as u64);
    if skip > 0 {
        out.truncated = true;
        out.message = Some(format!(
            "showing the last {limit} of {total}; raise limit to see more"
        ));
    }
    Ok(out)
}

/// Changes of `name.attr` / `name[key]` readings (not their first reading), by step, the last
/// `limit`.
fn attribute_changes(l: &SessionLedger, name: &str, limit: usize) -> Vec<Reading> {
    let (dot, index) = (format!("{name}."), format!("{name}["));
    let mut rows: Vec<Reading> = l
        .names()
        .iter()
        .filter(|n| n.starts_with(&dot) || n.starts_with(&index))
        .flat_map(|n| {
            l.changes(n)
                .into_iter()
                .skip(1)
                .map(|(e, prev)| Reading {
                    name: Some(n.clone()),
                    previous: prev.map(String::from),
                    ..entry_json(e)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    rows.sort_by_key(|r| r.step);
    let skip = rows.len().saturating_sub(limit);
    rows.split_off(skip)
}

/// # Session summary
/// Markdown hand-off of the session.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetSessionSummary {
    #[serde(flatten)]
    s: SessionArg,
}
tool!(
    GetSessionSummary,
    "get_session_summary",
    Kind::Read,
    Summary,
    get_session_summary
);

#[derive(Serialize, JsonSchema)]
pub struct Summary {
    session_id: String,
    state: State,
    markdown: String,
    /// Where the summary was written (relative to the project).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// Where it will be written when the session ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    file_when_ended: Option<String>,
}

async fn get_session_summary(c: &mut Call<'_>, a: GetSessionSummary) -> Outcome<Summary> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let l = c.memory_session(&root, a.s.session_id.as_deref()).await?;
    let sid = l.session_id.clone();
    let markdown = c.engine.summary_markdown(&sid).unwrap_or_default();
    let state = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| State::from(x.state())))
        .unwrap_or(State::Stopped);
    let path = c.engine.summary_path(&root, &sid);
    let mut out = Summary {
        session_id: sid,
        state,
        markdown,
        file: None,
        file_when_ended: None,
    };
    if path.exists() {
        out.file = Some(c.engine.relative(Some(&root), &path.to_string_lossy()));
    } else if c.cfg.memory.write_summaries {
        out.file_when_ended = Some(c.engine.relative(Some(&root), &path.to_string_lossy()));
    }
    Ok(out)
}

// An output stream (no doc comment: it would be listed as the property's description).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Stream {
    Stdout,
    Stderr,
    Console,
    Tracepoint,
}

/// # Console output
/// Since cursor (the last next_cursor; none: the start).
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetConsoleOutput {
    #[serde(flatten)]
    s: SessionArg,
    cursor: Option<String>,
    #[schemars(range(min = 1, max = 500))]
    max_lines: Option<usize>,
    category: Option<Stream>,
}
tool!(
    GetConsoleOutput,
    "get_console_output",
    Kind::Read,
    ConsoleOutput,
    get_console_output
);

#[derive(Serialize, JsonSchema)]
pub struct ConsoleOutput {
    session_id: String,
    state: State,
    output: Vec<OutputLine>,
    /// Pass back as `cursor` to read what follows.
    next_cursor: String,
    more: bool,
    /// Chunks lost before the cursor (the buffer is bounded).
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// Adds a chunk of output as lines: adapters send what the program wrote as it wrote it (a
/// word, a space, a newline), and a line is what a reader expects. A chunk continues the last
/// line when that is of the same stream and has no newline yet.
fn join_lines(lines: &mut Vec<OutputLine>, category: crate::backend::OutputCategory, text: &str) {
    for piece in text.split_inclusive('\n') {
        match lines.last_mut() {
            Some(last) if last.category == category && !last.text.ends_with('\n') => {
                last.text.push_str(piece)
            }
            _ => lines.push(OutputLine {
                category,
                text: piece.to_string(),
            }),
        }
    }
}

async fn get_console_output(c: &mut Call<'_>, a: GetConsoleOutput) -> Outcome<ConsoleOutput> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let category = a.category.map(|k| match k {
        Stream::Stdout => "stdout",
        Stream::Stderr => "stderr",
        Stream::Console => "console",
        Stream::Tracepoint => "tracepoint",
    });
    // A cursor names its session: use it when no session is given, so the natural "pass the
    // cursor back" call works without session_id.
    let from_cursor = a
        .cursor
        .as_deref()
        .and_then(|cur| cur.rsplit_once(':').map(|(s, _)| s.to_string()));
    let requested = a.s.session_id.clone().or(from_cursor);
    let l = c.memory_session(&root, requested.as_deref()).await?;
    let sid = l.session_id.clone();
    let start = match a.cursor.as_deref() {
        Some(cur) => parse_cursor(cur, &sid)?,
        None => 0,
    };
    let max_lines = a.max_lines.unwrap_or_else(fifty);
    let (chunks, total, first_kept, state) = c
        .engine
        .with_state(|s| {
            s.sessions.get(&sid).map(|x| {
                let first_kept = x.output_total - x.output.len() as u64;
                let from = start.max(first_kept);
                let chunks: Vec<(crate::backend::OutputCategory, String)> =
                    x.output.iter().skip((from - first_kept) as usize).cloned().collect();
                (chunks, x.output_total, first_kept, x.state())
            })
        })
        .ok_or_else(|| ToolError(format!("session {sid} has no output buffer any more (forgotten); its summary keeps the tail")))?;
    if start > total {
        return Err(ToolError(format!(
            "cursor '{}' is past the end of session {sid}'s output ({total} chunks); omit it to read from the start",
            a.cursor.unwrap_or_default()
        )));
    }
    let mut lines = Vec::new();
    let mut bytes = 0usize;
    let mut next = start.max(first_kept);
    let mut cut = false;
    for (cat, text) in chunks {
        if lines.len() >= max_lines || bytes + text.len() > OUTPUT_BYTES && !lines.is_empty() {
            cut = true;
            break;
        }
        next += 1;
        let name = category_name(cat);
        if category.is_some_and(|want| want != name) {
            continue;
        }
        bytes += text.len();
        join_lines(&mut lines, cat, &text);
    }
    let mut out = ConsoleOutput {
        next_cursor: cursor(&sid, next),
        session_id: sid,
        state: state.into(),
        output: lines,
        more: cut,
        dropped: None,
        message: None,
    };
    if start < first_kept {
        out.dropped = Some(first_kept - start);
        out.message = Some(format!(
            "{} older chunks were dropped (the buffer keeps the last {})",
            first_kept - start,
            super::super::state::OUTPUT_LINES
        ));
    } else if cut {
        out.message = Some("more output follows; call again with next_cursor".into());
    }
    Ok(out)
}
