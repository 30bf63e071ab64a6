//! Source context around a line, through the backend (so unsaved IDE edits are seen), refusing
//! files outside the project.

use super::super::context::{Call, ToolError};
use super::out::is_false;
use super::same_file;
use super::{Kind, Outcome, SessionArg};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn five() -> u32 {
    5
}

/// # Source around a line
/// Default: the current line.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetSourceContext {
    #[serde(flatten)]
    s: SessionArg,
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    #[serde(default = "five")]
    #[schemars(range(max = 50))]
    context_lines: u32,
}
tool!(
    GetSourceContext,
    "get_source_context",
    Kind::Read,
    SourceContext,
    get_source_context
);

/// Numbered lines around a line of a file.
#[derive(Serialize, JsonSchema)]
pub struct SourceContext {
    file: String,
    start_line: u32,
    end_line: u32,
    current_line: u32,
    total_lines: u32,
    lines: Vec<SourceLine>,
    /// Lines in view that carry a breakpoint.
    breakpoints: Vec<u32>,
}

#[derive(Serialize, JsonSchema)]
pub struct SourceLine {
    number: u32,
    content: String,
    #[serde(skip_serializing_if = "is_false")]
    is_current: bool,
}

/// Lines `line ± n` of `file` (canonical, inside `root`), with breakpoint lines in view.
pub async fn context(
    c: &Call<'_>,
    root: &str,
    file: &str,
    line: u32,
    n: u32,
) -> Outcome<SourceContext> {
    let backend = c.engine.backend.clone();
    let text = c.bk("read_source", backend.read_source(root, file)).await?;
    let lines: Vec<&str> = text.lines().collect();
    let count = lines.len() as u32;
    if line == 0 || line > count.max(1) {
        return Err(ToolError(format!(
            "line {line} is beyond the end of {file} ({count} lines)"
        )));
    }
    let start = line.saturating_sub(n).max(1);
    let end = (line + n).min(count);
    let shown: Vec<SourceLine> = (start..=end)
        .map(|l| SourceLine {
            number: l,
            content: lines.get(l as usize - 1).copied().unwrap_or("").to_string(),
            is_current: l == line,
        })
        .collect();
    let mut bps: Vec<u32> = c
        .bk("breakpoints", backend.breakpoints(root))
        .await
        .unwrap_or_default()
        .iter()
        .filter(|b| b.file.as_deref().is_some_and(|f| same_file(f, file)))
        .filter_map(|b| b.line.or(b.requested_line))
        .filter(|l| (start..=end).contains(l))
        .collect();
    bps.sort_unstable();
    bps.dedup();
    Ok(SourceContext {
        file: file.to_string(),
        start_line: start,
        end_line: end,
        current_line: line,
        total_lines: count,
        lines: shown,
        breakpoints: bps,
    })
}

async fn get_source_context(c: &mut Call<'_>, a: GetSourceContext) -> Outcome<SourceContext> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let n = a.context_lines;
    let here = current_location(c, &root, a.s.session_id.as_deref()).await;
    let (file, line) = match (a.file_path.as_deref(), a.line) {
        (Some(f), line) => {
            let file = c.file_in_project(&root, f)?;
            let line = match line {
                Some(l) => l,
                None => here
                    .as_ref()
                    .ok()
                    .filter(|(hf, _)| same_file(hf, &file))
                    .map(|(_, l)| *l)
                    .ok_or_else(|| {
                        ToolError("pass line: the file is not the current stop location".into())
                    })?,
            };
            (file, line)
        }
        (None, Some(_)) => return Err("line needs file_path".into()),
        (None, None) => {
            let (f, l) = here.map_err(|e| {
                ToolError(format!(
                    "no current location ({}); pass file_path and line",
                    e.0
                ))
            })?;
            (c.file_in_project(&root, &f)?, l)
        }
    };
    context(c, &root, &file, line, n).await
}

/// File and line of the selected frame of the paused session.
async fn current_location(
    c: &mut Call<'_>,
    root: &str,
    session: Option<&str>,
) -> Result<(String, u32), ToolError> {
    let sid = c.session(root, session).await?;
    let (thread, _) = c.paused(&sid)?;
    let selected = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0));
    let frame = c.frame(&sid, &thread, selected).await?;
    match (frame.file, frame.line) {
        (Some(f), Some(l)) => Ok((f, l)),
        _ => Err(ToolError("the current frame has no source".into())),
    }
}

/// Whether a source line holds no code: blank, or only a comment.
fn no_code(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
}

/// For a breakpoint on a line without code: "line 15 is blank: the debugger will bind it to a
/// nearby line with code, 13 (`return base`) or 16 (`def total(order):`)". `None` when the line
/// has code.
pub(crate) fn code_lines_near(text: &str, line: u32) -> Option<String> {
    let (what, before, after) = no_code_at(text, line)?;
    Some(match (before, after) {
        (Some(b), Some(a)) => format!(
            "line {line} {what}: the debugger will bind it to a nearby line with code, {b} or {a}"
        ),
        (Some(x), None) | (None, Some(x)) => format!(
            "line {line} {what}: the debugger will bind it to the nearest line with code, {x}"
        ),
        (None, None) => format!("line {line} {what} and the file has no code: it cannot bind"),
    })
}

/// Whether `line` holds no code ("is blank", "is a comment") and the nearest lines with code
/// before and after it, as `13 (`return base`)`; `None` when the line has code.
pub(crate) fn no_code_at(
    text: &str,
    line: u32,
) -> Option<(&'static str, Option<String>, Option<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let here = lines.get(line.checked_sub(1)? as usize)?;
    if !no_code(here) {
        return None;
    }
    let show = |i: usize| format!("{} (`{}`)", i + 1, lines[i].trim());
    let at = line as usize - 1;
    let before = (0..at).rev().find(|&i| !no_code(lines[i])).map(show);
    let after = (at + 1..lines.len())
        .find(|&i| !no_code(lines[i]))
        .map(show);
    let what = if here.trim().is_empty() {
        "is blank"
    } else {
        "is a comment"
    };
    Some((what, before, after))
}
