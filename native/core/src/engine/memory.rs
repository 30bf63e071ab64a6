//! Glue between the engine and the [`ledger`](super::ledger): recording reads with their
//! location (`Call::remember`), the Markdown session summary, the files written into the
//! project when a session ends, and console output since a cursor.

use super::context::{Call, ToolError};
use super::ledger::{At, SessionLedger, ValueRead};
use super::shared::Engine;
use super::state::state_name;
use crate::backend::{OutputCategory, SessionState};
use crate::config::MemoryConfig;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Pauses listed in a summary's "path taken" (first and last ones when there are more).
const SUMMARY_PAUSES: usize = 30;
/// Names listed under "values inspected".
const SUMMARY_VALUES: usize = 40;
/// Output lines at the end of a summary.
const SUMMARY_OUTPUT: usize = 20;

impl Call<'_> {
    /// Records values the agent was shown in frame `frame_index` of `thread` at the current
    /// pause. The frame must have been fetched during this pause (tools always do before reading
    /// its values); without it the read is recorded without a location.
    pub fn remember(&self, sid: &str, thread: &str, frame_index: u32, reads: Vec<ValueRead>) {
        if reads.is_empty() {
            return;
        }
        let at = self.engine.at(sid, Some(thread), frame_index);
        self.engine.ledger.record(sid, &at, reads);
    }
}

/// A breakpoint as the session summary lists it: id, set by the agent, hits, file, line,
/// exception (sorted by id).
type BreakpointRow = (
    String,
    bool,
    u64,
    Option<String>,
    Option<u32>,
    Option<String>,
);

impl Engine {
    /// Where the session is: step, thread and the cached frame's location (project-relative).
    pub(super) fn at(&self, sid: &str, thread: Option<&str>, frame_index: u32) -> At {
        let found = self.with_state(|s| {
            let slot = s.sessions.get(sid)?;
            let thread = thread
                .map(String::from)
                .or_else(|| slot.current_thread.clone())?;
            let frame = slot.frames.get(&(thread.clone(), frame_index)).cloned();
            Some((slot.pause_seq, thread, frame, slot.project.clone()))
        });
        let Some((step, thread, frame, project)) = found else {
            return At::default();
        };
        let mut at = At {
            step,
            thread: Some(thread),
            ..Default::default()
        };
        if let Some(f) = frame {
            at.file = f.file.map(|file| self.relative(project.as_deref(), &file));
            at.line = f.line;
            at.function = f.method_name;
        }
        at
    }

    /// `file` relative to the project root when inside it (shorter for the agent).
    pub(super) fn relative(&self, project: Option<&str>, file: &str) -> String {
        let Some(root) = project else {
            return file.to_string();
        };
        let p = Path::new(file);
        if let Ok(rel) = p.strip_prefix(root) {
            return rel.to_string_lossy().into_owned();
        }
        let croot = self.canonical_root(root);
        match std::fs::canonicalize(p)
            .ok()
            .as_deref()
            .and_then(|c| c.strip_prefix(&croot).ok())
        {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => file.to_string(),
        }
    }

    /// The Markdown hand-off of a session (also written to the project when it ends).
    pub(super) fn summary_markdown(&self, sid: &str) -> Option<String> {
        let l = self.ledger.get(sid)?;
        let live = self.with_state(|s| {
            s.sessions.get(sid).map(|x| {
                let skip = x.output.len().saturating_sub(SUMMARY_OUTPUT);
                let out: Vec<(OutputCategory, String)> =
                    x.output.iter().skip(skip).cloned().collect();
                (x.state(), x.exit_code, out, x.output_total)
            })
        });
        let (state, exit_code, output, output_total) =
            live.unwrap_or((SessionState::Stopped, l.exit_code, Vec::new(), 0));
        let breakpoints = self.with_state(|s| {
            let mut v: Vec<BreakpointRow> = s
                .breakpoints
                .iter()
                .filter(|(_, m)| {
                    l.project.is_none() || m.project.is_none() || m.project == l.project
                })
                .map(|(id, m)| {
                    let b = m.last.as_ref();
                    (
                        id.clone(),
                        m.agent,
                        m.hits,
                        b.and_then(|b| b.file.clone()),
                        b.and_then(|b| b.line),
                        b.and_then(|b| b.exception.clone()),
                    )
                })
                .collect();
            v.sort();
            v
        });
        let mut md = String::new();
        let _ = writeln!(md, "# Debug session {} ({})\n", l.name, l.session_id);
        let ended = match (state, exit_code.or(l.exit_code)) {
            (SessionState::Stopped, Some(c)) => format!("ended, {}", super::signals::describe(c)),
            (s, _) => state_name(s).to_string(),
        };
        let _ = writeln!(
            md,
            "- State: {ended}; started {}{}",
            clock(l.started_ms),
            l.ended_ms
                .map(|t| format!(", ended {}", clock(t)))
                .unwrap_or_default()
        );
        let _ = writeln!(
            md,
            "- Pauses: {}; values read: {}",
            l.pauses.len() as u64 + l.pauses_dropped,
            l.entries.len() as u64 + l.dropped
        );
        path_taken(&mut md, &l);
        exceptions(&mut md, &l);
        values(&mut md, &l);
        if !breakpoints.is_empty() {
            let _ = writeln!(md, "\n## Breakpoints\n");
            for (id, agent, hits, file, line, exception) in breakpoints {
                let place = match (file, line, exception) {
                    (Some(f), Some(n), _) => {
                        format!("{}:{n}", self.relative(l.project.as_deref(), &f))
                    }
                    (_, _, Some(e)) => format!("exception {e}"),
                    _ => "?".into(),
                };
                let _ = writeln!(
                    md,
                    "- {id} {place} ({}, {hits} hit{})",
                    if agent { "agent" } else { "user" },
                    if hits == 1 { "" } else { "s" }
                );
            }
        }
        // Recorded calls (set_breakpoint on_hit "record"): the first rows and where the rest is.
        let calls: Vec<String> = self.with_state(|s| {
            s.calls
                .rows
                .iter()
                .filter(|r| r.session == sid)
                .map(|r| r.row())
                .collect()
        });
        if !calls.is_empty() {
            let _ = writeln!(md, "\n## Recorded calls ({})\n", calls.len());
            for r in calls.iter().take(SUMMARY_CALLS) {
                let _ = writeln!(md, "- {r}");
            }
            if calls.len() > SUMMARY_CALLS {
                let _ = writeln!(
                    md,
                    "- … {} more: get_call_records",
                    calls.len() - SUMMARY_CALLS
                );
            }
        }
        if !l.notes.is_empty() {
            let _ = writeln!(md, "\n## Notes\n");
            for n in &l.notes {
                let _ = writeln!(md, "- {} {}", clock(n.time_ms), n.text);
            }
        }
        if !output.is_empty() {
            let _ = writeln!(
                md,
                "\n## Output (last {} of {} chunks)\n\n```",
                output.len(),
                output_total
            );
            for (cat, text) in output {
                let text = text.trim_end_matches('\n');
                match cat {
                    OutputCategory::Stdout => md.push_str(text),
                    other => {
                        let _ = write!(md, "[{}] {text}", category_name(other));
                    }
                }
                md.push('\n');
            }
            md.push_str("```\n");
        }
        Some(md)
    }

    /// Writes `<project>/<summary_dir>/<id>.md` and `<id>.ledger.jsonl` (bounded like the
    /// ledger), keeping the newest `keep_files` sessions. Errors are logged, never raised: a
    /// read-only project must not break the debugger.
    pub(super) fn write_session_files(&self, sid: &str) {
        let cfg = self.cfg();
        let mem = &cfg.memory;
        if !mem.write_summaries {
            return;
        }
        let (Some(l), Some(md)) = (self.ledger.get(sid), self.summary_markdown(sid)) else {
            return;
        };
        let Some(project) = l.project.clone() else {
            return;
        };
        if let Err(e) = write_files(&project, mem, sid, &md, &l) {
            tracing::warn!("could not write the summary of session {sid} into {project}: {e}");
        }
    }

    /// Path of a session's summary file (whether or not it exists yet).
    pub(super) fn summary_path(&self, project: &str, sid: &str) -> PathBuf {
        Path::new(project)
            .join(&self.cfg().memory.summary_dir)
            .join(format!("{}.md", file_stem(sid)))
    }
}

/// Writes `path` whole or not at all: a reader (an agent, an editor, `cat`) never sees it empty
/// or half written, since the summary is rewritten while the session runs. The text goes to a
/// sibling file first and is renamed over `path` (atomic on one file system).
fn write_whole(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".{}.partial", std::process::id()));
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, contents)?;
    std::fs::rename(&partial, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

fn write_files(
    project: &str,
    mem: &MemoryConfig,
    sid: &str,
    md: &str,
    l: &SessionLedger,
) -> std::io::Result<()> {
    let dir = Path::new(project).join(&mem.summary_dir);
    std::fs::create_dir_all(&dir)?;
    ignore_own_dir(project, &mem.summary_dir)?;
    let stem = file_stem(sid);
    write_whole(&dir.join(format!("{stem}.md")), md.as_bytes())?;
    let mut lines = String::new();
    for p in &l.pauses {
        lines.push_str(&serde_json::json!({"pause": p}).to_string());
        lines.push('\n');
    }
    for e in &l.entries {
        lines.push_str(&serde_json::json!({"value": e}).to_string());
        lines.push('\n');
    }
    write_whole(&dir.join(format!("{stem}.ledger.jsonl")), lines.as_bytes())?;
    // Bounded on disk: the oldest sessions' files go.
    let mut mds: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    mds.sort();
    let excess = mds.len().saturating_sub(mem.keep_files.max(1));
    for (_, p) in mds.into_iter().take(excess) {
        let _ = std::fs::remove_file(p.with_extension("ledger.jsonl"));
        let _ = std::fs::remove_file(&p);
    }
    Ok(())
}

/// Keeps `.debugger-mcp/` out of the user's `git status`: a `.gitignore` holding `*` in it (as
/// pytest does in `.pytest_cache/`), written once. Only for a directory of ours (a configured
/// `summary_dir` elsewhere is the user's choice).
fn ignore_own_dir(project: &str, summary_dir: &str) -> std::io::Result<()> {
    let Some(std::path::Component::Normal(first)) = Path::new(summary_dir).components().next()
    else {
        return Ok(());
    };
    if first != OWN_DIR {
        return Ok(());
    }
    let ignore = Path::new(project).join(OWN_DIR).join(".gitignore");
    if !ignore.exists() {
        std::fs::write(
            ignore,
            "# Written by debugger-mcp: session summaries and ledgers stay out of git.\n*\n",
        )?;
    }
    Ok(())
}

/// The directory debugger-mcp writes into a project.
pub const OWN_DIR: &str = ".debugger-mcp";

/// A session id as a file name: ids are backend-chosen and may contain separators.
fn file_stem(sid: &str) -> String {
    sid.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn category_name(c: OutputCategory) -> &'static str {
    match c {
        OutputCategory::Stdout => "stdout",
        OutputCategory::Stderr => "stderr",
        OutputCategory::Console => "console",
        OutputCategory::Tracepoint => "tracepoint",
    }
}

/// `HH:MM:SS UTC` of a Unix time in milliseconds (enough for a hand-off; dates are in the file's
/// metadata).
/// Recorded calls the summary lists (the rest are a get_call_records away).
const SUMMARY_CALLS: usize = 20;

pub fn clock(ms: u64) -> String {
    let s = (ms / 1000) % 86_400;
    format!("{:02}:{:02}:{:02} UTC", s / 3600, (s / 60) % 60, s % 60)
}

fn path_taken(md: &mut String, l: &SessionLedger) {
    if l.pauses.is_empty() {
        return;
    }
    let _ = writeln!(md, "\n## Path taken\n");
    let n = l.pauses.len();
    let head = SUMMARY_PAUSES / 3;
    for (i, p) in l.pauses.iter().enumerate() {
        if n > SUMMARY_PAUSES && i == head {
            let _ = writeln!(md, "- … {} pauses omitted …", n - SUMMARY_PAUSES);
        }
        if n > SUMMARY_PAUSES && i >= head && i < n - (SUMMARY_PAUSES - head) {
            continue;
        }
        let func =
            p.at.function
                .as_ref()
                .map(|f| format!(" in {f}"))
                .unwrap_or_default();
        let bps = if p.breakpoint_ids.is_empty() {
            String::new()
        } else {
            format!(" [{}]", p.breakpoint_ids.join(", "))
        };
        let user = if p.by_agent {
            ""
        } else {
            " (paused by the IDE user)"
        };
        let _ = writeln!(
            md,
            "- step {}: {}{func} — {}{bps}{user}",
            p.at.step,
            p.at.place(),
            p.reason
        );
    }
}

fn exceptions(md: &mut String, l: &SessionLedger) {
    let ex: Vec<_> = l
        .pauses
        .iter()
        .filter(|p| p.reason == "exception")
        .collect();
    if ex.is_empty() {
        return;
    }
    let _ = writeln!(md, "\n## Exceptions\n");
    for p in ex {
        let _ = writeln!(
            md,
            "- step {} at {}: {}",
            p.at.step,
            p.at.place(),
            p.description.as_deref().unwrap_or("(no description)")
        );
    }
}

fn values(md: &mut String, l: &SessionLedger) {
    use super::ledger::ReadKind;
    let modified: Vec<_> = l
        .entries
        .iter()
        .filter(|e| e.kind == ReadKind::Modified)
        .collect();
    if !modified.is_empty() {
        let _ = writeln!(md, "\n## Values modified\n");
        for e in modified {
            let _ = writeln!(
                md,
                "- `{}` = {} (step {}, {})",
                e.name,
                e.value,
                e.at.step,
                e.at.place()
            );
        }
    }
    // A value the agent changed (set_variable, a code fragment) is listed under "modified";
    // it is "inspected" only if it was also read.
    let names: Vec<String> = l
        .names()
        .into_iter()
        .filter(|n| l.readings(n).any(|e| e.kind != ReadKind::Modified))
        .collect();
    if names.is_empty() {
        return;
    }
    let _ = writeln!(md, "\n## Values inspected\n");
    let shown = names.len().min(SUMMARY_VALUES);
    for name in names.iter().rev().take(shown).rev() {
        let changes = l.changes(name);
        let Some(last) = l
            .readings(name)
            .filter(|e| e.kind != ReadKind::Modified)
            .last()
        else {
            continue;
        };
        let history = if changes.len() > 1 {
            let vals: Vec<String> = changes
                .iter()
                .rev()
                .take(6)
                .rev()
                .map(|(e, _)| format!("{} (step {})", e.value, e.at.step))
                .collect();
            format!(
                "; changed {} time{}: {}",
                changes.len() - 1,
                if changes.len() == 2 { "" } else { "s" },
                vals.join(" → ")
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            md,
            "- `{name}` = {} (step {}, {}){history}",
            last.value,
            last.at.step,
            last.at.place()
        );
    }
    if names.len() > shown {
        let _ = writeln!(
            md,
            "- … {} more names (get_debug_history lists them)",
            names.len() - shown
        );
    }
}

/// A console cursor: `<session>:<index of the next chunk>`. Carrying the session makes a cursor
/// from another session a clear error instead of a silent wrong answer.
pub fn parse_cursor(cursor: &str, sid: &str) -> Result<u64, ToolError> {
    let (owner, n) = cursor
        .rsplit_once(':')
        .and_then(|(s, n)| n.parse::<u64>().ok().map(|n| (s, n)))
        .ok_or_else(|| ToolError(format!("cursor '{cursor}' is not a cursor of get_console_output (expected '<session>:<n>'); omit it to read from the start")))?;
    if owner != sid {
        return Err(ToolError(format!(
            "cursor '{cursor}' belongs to session {owner}, not {sid}; pass session_id \"{owner}\" with it, or omit the cursor to read session {sid} from the start"
        )));
    }
    Ok(n)
}

pub fn cursor(sid: &str, n: u64) -> String {
    format!("{sid}:{n}")
}

#[cfg(test)]
mod tests {
    use super::write_whole;

    /// The summary is rewritten while the session runs and read by agents at any time (the
    /// flake hunt read it empty once, right after `std::fs::write` truncated it): a reader
    /// sees the old text or the new one, never an empty or cut file.
    #[test]
    fn a_reader_never_sees_a_summary_empty_or_half_written() {
        let dir = std::env::temp_dir().join(format!("dmcp-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s1.md");
        let texts = ["# a\n".repeat(2_000), "# bb\n".repeat(3_000)];
        write_whole(&path, texts[0].as_bytes()).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (path, stop, texts) = (path.clone(), stop.clone(), texts.clone());
            std::thread::spawn(move || {
                let mut reads = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let got = std::fs::read_to_string(&path).unwrap();
                    assert!(
                        texts.contains(&got),
                        "read {} bytes: neither text",
                        got.len()
                    );
                    reads += 1;
                }
                reads
            })
        };
        for i in 0..500 {
            write_whole(&path, texts[i % 2].as_bytes()).unwrap();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(reader.join().unwrap() > 0);
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no partial file left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
