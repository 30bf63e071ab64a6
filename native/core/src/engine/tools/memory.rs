//! Memory tools over the ledger: get_debug_history (values over time), get_session_summary
//! (Markdown hand-off), get_console_output (output since a cursor).

use super::super::context::{Call, ToolError, ToolResult};
use super::super::ledger::{Entry, SessionLedger};
use super::super::memory::{category_name, cursor, parse_cursor};
use super::super::state::state_name;
use super::{Kind, SessionArg, out};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

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
    async fn memory_session(&mut self, root: &str, requested: Option<&str>) -> Result<SessionLedger, ToolError> {
        let sid = match requested {
            Some(id) if self.engine.ledger.contains(id) => id.to_string(),
            Some(id) => self.session(root, Some(id)).await?,
            None => match self.session(root, None).await {
                Ok(id) => id,
                Err(e) => self.engine.ledger.session_ids(Some(root)).pop().ok_or(e)?,
            },
        };
        if let Some(p) = self.engine.ledger.get(&sid).and_then(|l| l.project).filter(|p| p != root) {
            return Err(ToolError(format!("session {sid} belongs to project {p}; pass project_path \"{p}\"")));
        }
        self.engine.ledger.get(&sid).ok_or_else(|| ToolError(format!("nothing is remembered of session {sid} yet")))
    }
}

fn entry_json(e: &Entry) -> Value {
    let mut v = json!({"step": e.at.step, "value": e.value, "kind": e.kind, "location": e.at.place()});
    if let Some(f) = &e.at.function {
        v["function"] = json!(f);
    }
    v
}

/// # Value history
/// Values seen at earlier pauses, also after resumes: name+steps_ago, name+changes, name+line; no name: the names.
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
tool!(GetDebugHistory, "get_debug_history", Kind::Read,
    out::obj(json!({"session_id": {"type": "string"}, "current_step": {"type": "integer"}}), &["session_id", "current_step"]),
    get_debug_history);

async fn get_debug_history(c: &mut Call<'_>, a: GetDebugHistory) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let l = c.memory_session(&root, a.s.session_id.as_deref()).await?;
    let sid = l.session_id.clone();
    let limit = a.limit.unwrap_or_else(twenty);
    let current = c.engine.with_state(|s| s.sessions.get(&sid).map(|x| x.pause_seq)).unwrap_or_else(|| l.last_step());
    let Some(name) = a.name.as_deref() else {
        if a.steps_ago.is_some() || a.changes || a.line.is_some() {
            return Err("steps_ago, changes and line need `name` (a variable path or expression you read); omit them to list the names".into());
        }
        let names = l.names();
        let total = names.len();
        let list: Vec<Value> = names
            .iter()
            .rev()
            .take(limit)
            .map(|n| {
                let last = l.readings(n).last();
                json!({"name": n, "reads": l.readings(n).count(), "changes": l.changes(n).len().saturating_sub(1),
                       "last_value": last.map(|e| e.value.clone()), "last_step": last.map(|e| e.at.step)})
            })
            .collect();
        let mut out = json!({"session_id": sid, "current_step": current, "names": list, "total": total});
        if total > limit {
            out["truncated"] = json!(true);
        }
        if total == 0 {
            out["message"] = json!("nothing read yet in this session; values shown at stops, by get_variables, evaluate_expression and watches are remembered");
        }
        return Ok(out);
    };
    if l.readings(name).next().is_none() {
        let names = l.names();
        let similar: Vec<&String> = names.iter().filter(|n| n.ends_with(name) || n.contains(name) || name.contains(n.as_str())).take(5).collect();
        let hint = if !similar.is_empty() {
            format!("; did you mean {}?", similar.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "))
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
    let mut out = json!({"session_id": sid, "name": name, "current_step": current});
    if let Some(n) = a.steps_ago {
        if n > current {
            return Err(ToolError(format!("steps_ago {n} is before the first pause: session {sid} is at step {current}")));
        }
        let target = current - n;
        out["steps_ago"] = json!(n);
        out["at_step"] = json!(target);
        match l.readings(name).filter(|e| e.at.step <= target).last() {
            Some(e) => {
                out["value"] = json!(e.value);
                out["read_at"] = entry_json(e);
                if e.at.step != target {
                    out["message"] = json!(format!(
                        "'{name}' was not read at step {target}; this is its last reading before, at step {} ({})",
                        e.at.step,
                        e.at.place()
                    ));
                }
            }
            None => {
                let first = l.readings(name).next().map(|e| e.at.step).unwrap_or(0);
                out["value"] = Value::Null;
                out["message"] = json!(format!("'{name}' was first read at step {first}, after step {target}"));
            }
        }
        return Ok(out);
    }
    let rows: Vec<Value> = if a.changes {
        l.changes(name)
            .iter()
            .map(|(e, prev)| {
                let mut v = entry_json(e);
                v["previous"] = json!(prev);
                v
            })
            .collect()
    } else {
        let file = a.file_path.as_deref().map(|f| c.engine.relative(Some(&root), &c.file_in_project(&root, f).unwrap_or_else(|_| f.to_string())));
        let mut rows: Vec<Value> = Vec::new();
        let mut last_step = None;
        for e in l.readings(name) {
            if a.line.is_some_and(|line| e.at.line != Some(line)) {
                continue;
            }
            if file.as_deref().is_some_and(|f| e.at.file.as_deref() != Some(f)) {
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
                file.as_deref().map(|f| format!("{f}:")).unwrap_or_else(|| "line ".into()),
                a.line.map(|n| n.to_string()).unwrap_or_default(),
                lines.join(", ")
            )));
        }
        rows
    };
    let total = rows.len();
    let skip = total.saturating_sub(limit);
    out[if a.changes { "changes" } else { "values" }] = json!(rows.into_iter().skip(skip).collect::<Vec<_>>());
    out["total"] = json!(total);
    if skip > 0 {
        out["truncated"] = json!(true);
        out["message"] = json!(format!("showing the last {limit} of {total}; raise limit to see more"));
    }
    Ok(out)
}

/// # Session summary
/// Markdown hand-off: path, pauses, exceptions, values seen/set, output; saved in .debugger-mcp/ at the end.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetSessionSummary {
    #[serde(flatten)]
    s: SessionArg,
}
tool!(GetSessionSummary, "get_session_summary", Kind::Read,
    out::obj(json!({"session_id": {"type": "string"}, "markdown": {"type": "string"}}), &["session_id", "markdown"]),
    get_session_summary);

async fn get_session_summary(c: &mut Call<'_>, a: GetSessionSummary) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let l = c.memory_session(&root, a.s.session_id.as_deref()).await?;
    let sid = l.session_id.clone();
    let markdown = c.engine.summary_markdown(&sid).unwrap_or_default();
    let state = c.engine.with_state(|s| s.sessions.get(&sid).map(|x| state_name(x.state()))).unwrap_or("stopped");
    let mut out = json!({"session_id": sid, "state": state, "markdown": markdown});
    let file = c.engine.summary_path(&root, &sid);
    if file.exists() {
        out["file"] = json!(c.engine.relative(Some(&root), &file.to_string_lossy()));
    } else if c.cfg.memory.write_summaries {
        out["file_when_ended"] = json!(c.engine.relative(Some(&root), &file.to_string_lossy()));
    }
    Ok(out)
}

/// An output stream.
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Stream {
    Stdout,
    Stderr,
    Console,
    Tracepoint,
}

/// # Console output
/// Program output since `cursor` (the last next_cursor; none = start).
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetConsoleOutput {
    #[serde(flatten)]
    s: SessionArg,
    cursor: Option<String>,
    #[schemars(range(min = 1, max = 500))]
    max_lines: Option<usize>,
    category: Option<Stream>,
}
tool!(GetConsoleOutput, "get_console_output", Kind::Read,
    out::obj(json!({"output": {"type": "array"}, "next_cursor": {"type": "string"}}), &["output", "next_cursor"]),
    get_console_output);

async fn get_console_output(c: &mut Call<'_>, a: GetConsoleOutput) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let category = a.category.map(|k| match k {
        Stream::Stdout => "stdout",
        Stream::Stderr => "stderr",
        Stream::Console => "console",
        Stream::Tracepoint => "tracepoint",
    });
    // A cursor names its session: use it when no session is given, so the natural "pass the
    // cursor back" call works without session_id.
    let from_cursor = a.cursor.as_deref().and_then(|cur| cur.rsplit_once(':').map(|(s, _)| s.to_string()));
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
        return Err(ToolError(format!("cursor '{}' is past the end of session {sid}'s output ({total} chunks); omit it to read from the start", a.cursor.unwrap_or_default())));
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
        lines.push(json!({"category": name, "text": text}));
    }
    let mut out = json!({"session_id": sid, "state": state_name(state), "output": lines, "next_cursor": cursor(&sid, next), "more": cut});
    if start < first_kept {
        out["dropped"] = json!(first_kept - start);
        out["message"] = json!(format!("{} older chunks were dropped (the buffer keeps the last {})", first_kept - start, super::super::state::OUTPUT_LINES));
    } else if cut {
        out["message"] = json!("more output follows; call again with next_cursor");
    }
    Ok(out)
}
