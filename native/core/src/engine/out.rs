//! Result shapes shared by several tools. Every tool's `structuredContent` is a Rust type
//! (`Tool::Output`): the output schema is derived from it (`registry::output_schema`), so the
//! schema and the result cannot drift apart. A lower module: `values`, `snapshot` and the tools
//! all build on it.
//!
//! Serialised as the agent receives them: `None` and default-false flags are skipped
//! (`skip_serializing_if`), which also makes them optional in the derived schema (schemars'
//! serialize contract). A field without it is required.

use crate::backend::{FrameInfo, FramePage, SessionState};
use schemars::JsonSchema;
use serde::Serialize;

pub fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recursion_is_one_frame_with_a_count() {
        let at = |line: u32, method: &str| Location {
            file: Some("/p/prog.cpp".into()),
            line: Some(line),
            method: Some(method.into()),
            class: None,
        };
        let frame = |index: u32, at: Location| Frame {
            at,
            index,
            is_current: index == 0,
            is_library: false,
            repeated: None,
            hidden_above: None,
        };
        let mut frames = vec![frame(0, at(26, "deep"))];
        frames.extend((1..=20).map(|i| frame(i, at(26, "deep"))));
        frames.push(frame(21, at(40, "main")));
        let shown = collapse(frames);
        let brief: Vec<(u32, u32, Option<u32>)> = shown
            .iter()
            .map(|f| (f.index, f.at.line.unwrap(), f.repeated))
            .collect();
        // The current frame alone, then the twenty callers in it as one, then main.
        assert_eq!(brief, [(0, 26, None), (1, 26, Some(20)), (21, 40, None)]);
        let json = serde_json::to_value(&shown[1]).unwrap();
        assert_eq!(json["repeated"], 20);
        assert!(
            serde_json::to_value(&shown[2])
                .unwrap()
                .get("repeated")
                .is_none()
        );
    }
}

/// A command line as a result repeats it: its first 80 characters and its length (the agent
/// wrote it; a 4 KB argument list said back twice cost 8 KB of context).
pub fn brief(command: &str) -> String {
    match command.char_indices().nth(80) {
        Some((cut, _)) => format!("{}… ({} chars)", &command[..cut], command.chars().count()),
        None => command.to_string(),
    }
}

/// Where a frame is.
#[derive(Serialize, JsonSchema, Clone, Debug, Default, PartialEq)]
pub struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

impl From<&FrameInfo> for Location {
    fn from(f: &FrameInfo) -> Self {
        Location {
            file: f.file.clone(),
            line: f.line,
            method: f.method_name.clone(),
            class: f.class_name.clone(),
        }
    }
}

/// A stack frame in a listing.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct Frame {
    #[serde(flatten)]
    pub at: Location,
    pub index: u32,
    pub is_current: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub is_library: bool,
    // This frame and the next repeated-1 are the same place (a recursion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeated: Option<u32>,
    /// The debugger hid this many frames right above this one (indexes index-n..index-1):
    /// why is in the listing's `hidden`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_above: Option<u32>,
}

/// How many depths right above `index` the backend left out of the page (the IDE's folds of
/// library frames), so a listing can say so at the gap.
pub fn hidden_above(page: &FramePage, index: u32) -> Option<u32> {
    page.hidden
        .as_ref()?
        .ranges
        .iter()
        .find(|r| r.count > 0 && r.from_index.saturating_add(r.count) == index)
        .map(|r| r.count)
}

/// Why frames are missing from a page, once per listing (the rows say where).
pub fn hidden_reason(page: &FramePage) -> Option<String> {
    let h = page.hidden.as_ref().filter(|h| !h.ranges.is_empty())?;
    Some(if h.reason.is_empty() {
        "frames hidden by the debugger".into()
    } else {
        h.reason.clone()
    })
}

/// `… frames 1-2 hidden` / `… frame 1 hidden`: the row a text listing shows at a gap.
pub fn hidden_row(index: u32, count: u32) -> String {
    let from = index.saturating_sub(count);
    if count == 1 {
        format!("… frame {from} hidden")
    } else {
        format!("… frames {from}-{} hidden", index - 1)
    }
}

/// A run of identical frames (a recursion: `prog.cpp:26 in deep` twenty times) as its first
/// frame with how many: the other nineteen lines tell nothing. The current frame stays alone.
pub fn collapse(frames: Vec<Frame>) -> Vec<Frame> {
    let mut out: Vec<Frame> = Vec::with_capacity(frames.len());
    for f in frames {
        if let Some(last) = out.last_mut()
            && !last.is_current
            && !f.is_current
            && last.at == f.at
            && last.at.line.is_some()
            && last.is_library == f.is_library
            && f.hidden_above.is_none()
        {
            last.repeated = Some(last.repeated.unwrap_or(1) + 1);
            continue;
        }
        out.push(f);
    }
    out
}

/// A value as the agent sees it (`values::show`): short id, shown (truncated/redacted) value.
#[derive(Serialize, JsonSchema, Clone, Debug, Default)]
pub struct ValueNode {
    pub id: String,
    pub name: String,
    pub value: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub has_children: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_count: Option<u64>,
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// Length of the full value when `value` was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_length: Option<u64>,
    #[serde(skip_serializing_if = "is_false")]
    pub redacted: bool,
    /// `value` is a one-level preview of an address-only object.
    #[serde(skip_serializing_if = "is_false")]
    pub preview: bool,
    /// Differs from the previous stop in the same function.
    #[serde(skip_serializing_if = "is_false")]
    pub changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<ValueNode>>,
    /// Children in all, when `children` was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// The fields a preview was built from (name, shown value): the ledger records them as
    /// `name.field`, so a change of one attribute is a change the history can report.
    #[serde(skip)]
    #[schemars(skip)]
    pub preview_fields: Vec<(String, String)>,
    /// Why this value could not be read (a row of several evaluations or of a capture).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A watch expression and its value at the last pause.
#[derive(Serialize, JsonSchema, Clone, Debug, Default)]
pub struct Watch {
    pub id: String,
    pub expression: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_name: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_length: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluated_at: Option<EvaluatedAt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Where a watch was last evaluated.
#[derive(Serialize, JsonSchema, Clone, Debug, Default)]
pub struct EvaluatedAt {
    pub session_id: String,
    pub step: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[derive(Serialize, JsonSchema, Clone, Copy, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Starting,
    Running,
    Paused,
    Stopped,
}

impl From<SessionState> for State {
    fn from(s: SessionState) -> Self {
        match s {
            SessionState::Starting => State::Starting,
            SessionState::Running => State::Running,
            SessionState::Paused => State::Paused,
            SessionState::Stopped => State::Stopped,
        }
    }
}

/// The top frame's variables in a stop result.
#[derive(Serialize, JsonSchema, Clone, Debug, Default)]
pub struct FrameSnapshot {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<ValueNode>,
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What stepping, resuming and waiting return: where the program is now.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct StopResult {
    pub session_id: String,
    pub state: State,
    /// Pause counter of the session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub breakpoint_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<FrameSnapshot>,
    /// A crash or exception stop: the frames below the top (`method file:line`), the question
    /// every such stop raises first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub watches: Vec<Watch>,
    /// The expressions the call asked to evaluate at this stop.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueNode>,
    /// Calls recorded in this run (on_hit 'record' breakpoints set with the start).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub timed_out: bool,
    /// wait_for_pause: the session was already paused when called.
    #[serde(skip_serializing_if = "is_false")]
    pub already_paused: bool,
    /// wait_for_pause with breakpoint_ids: whether the pause is at one of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The attach's trigger command, the first result after it ended (or its start's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<TriggerOut>,
}

/// An attach's trigger: what ran, how it ended, the start of its output.
#[derive(Serialize, JsonSchema, Clone, Debug)]
pub struct TriggerOut {
    pub command: String,
    /// "running", "exited with code 0", "was killed by SIGTERM (signal 15)".
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

/// Bytes of a trigger's output a result shows.
const TRIGGER_SHOWN: usize = 800;

impl TriggerOut {
    pub fn of(t: &super::state::Trigger) -> Self {
        let (status, output) = match &t.ended {
            None => ("running".to_string(), None),
            Some((code, out, total)) => (
                match code {
                    Some(c) => match super::signals::from_exit_code(*c) {
                        Some(sig) => format!("was killed by {sig}"),
                        None => format!("exited with code {c}"),
                    },
                    None => "ended (exit status unknown)".into(),
                },
                shown_output(out, *total),
            ),
        };
        TriggerOut {
            command: brief(&t.command),
            status,
            output,
        }
    }

    /// `` trigger `curl -s …` exited with code 0 `` for a message.
    pub fn line(&self) -> String {
        trigger_line(&self.command, &self.status)
    }
}

/// A trigger's head line, `` trigger `curl -s …` exited with code 0 ``: a message's and the
/// rendered result's alike.
pub fn trigger_line(command: &str, status: &str) -> String {
    format!("trigger `{command}` {status}")
}

/// The start of a trigger's output, whole lines where they fit, its cut stated.
fn shown_output(out: &str, total: u64) -> Option<String> {
    let text = out.trim_end();
    if text.trim().is_empty() {
        return (total > 0).then(|| format!("({total} bytes, blank)"));
    }
    let mut cut = text.len().min(TRIGGER_SHOWN);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    if cut < text.len()
        && let Some(nl) = text[..cut].rfind('\n').filter(|&n| n > TRIGGER_SHOWN / 4)
    {
        cut = nl;
    }
    let all = (total as usize).max(out.len());
    Some(if cut < text.len() || all > out.len() {
        format!("{}\n… (first {cut} of {all} bytes)", &text[..cut])
    } else {
        text.to_string()
    })
}

impl StopResult {
    pub fn new(session_id: &str, state: State) -> Self {
        StopResult {
            session_id: session_id.to_string(),
            state,
            step: None,
            reason: None,
            description: None,
            thread_id: None,
            breakpoint_ids: Vec::new(),
            location: None,
            source_line: None,
            frame: None,
            callers: Vec::new(),
            watches: Vec::new(),
            values: Vec::new(),
            calls: Vec::new(),
            exit_code: None,
            stderr: None,
            timed_out: false,
            already_paused: false,
            matched: None,
            message: None,
            trigger: None,
        }
    }
}
