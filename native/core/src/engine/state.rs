//! Engine-side state derived from backend events and tool calls: sessions (state, pause, value
//! ids, selected frame), breakpoint ownership and observed hits, watches. Guarded by one
//! `std::sync::Mutex` that is never held across an `.await`.

use super::values::ValueTable;
use crate::backend::{
    BreakpointInfo, FrameInfo, OutputCategory, PauseReason, SessionInfo, SessionState,
};
use std::collections::{HashMap, VecDeque};
use tokio::sync::watch;

#[derive(Debug, Clone)]
pub struct PauseInfo {
    pub thread_id: String,
    pub reason: PauseReason,
    pub breakpoint_ids: Vec<String>,
    pub description: Option<String>,
}

pub struct SessionSlot {
    pub info: SessionInfo,
    /// Project root, once known (launch through a tool, or found in `backend.sessions`).
    pub project: Option<String>,
    pub pause: Option<PauseInfo>,
    /// Increments at every pause: the "step number" reported with locations and watches.
    pub pause_seq: u64,
    pub exit_code: Option<i64>,
    /// Short value ids of the current pause.
    pub values: ValueTable,
    /// Frame chosen with select_stack_frame; reset to 0 at every pause.
    pub selected_frame: u32,
    /// Thread of the last pause (or chosen by the agent).
    pub current_thread: Option<String>,
    /// Frames fetched during the current pause, by (thread, index).
    pub frames: HashMap<(String, u32), FrameInfo>,
    pub frame_total: HashMap<String, Option<u32>>,
    /// Bumped at every state change; waiters subscribe before acting so no event is lost.
    pub changed: watch::Sender<u64>,
    /// Recent debuggee output (bounded).
    pub output: VecDeque<(OutputCategory, String)>,
    /// Output chunks received in total (the first kept one is `output_total - output.len()`);
    /// console cursors count in these.
    pub output_total: u64,
    /// Top-frame values of the previous stop result, by (method, variable name), so the next
    /// one can mark what changed. Survives resumes on purpose.
    pub last_values: Option<(Option<String>, HashMap<String, String>)>,
    /// Who asked for the end, when it was asked for (`stop_debug_session`, the watchdog, …):
    /// an end we caused reads as that, not as the signal that carried it out.
    pub stop_asked_by: Option<&'static str>,
    /// The command an attach ran to send the request (start_debug_session {attach, command}).
    pub trigger: Option<Trigger>,
    /// What an attach named (`4242`, `127.0.0.1:5678`): capture {attach} on the same target
    /// reuses the session instead of attaching twice.
    pub attached_to: Option<String>,
    /// Pauses a read of the running process asked and stopped waiting for (the wait timed
    /// out, or it asked again meanwhile): the stops they bring later are resumed at once, as
    /// nobody waits for them. (how many, until when: `None` until they came).
    pub late_pause: Option<(u32, Option<std::time::Instant>)>,
    /// Such stops resumed so far (said by the next read of the session).
    pub late_pauses_resumed: u32,
}

/// An attach's trigger and, once it ended, how.
#[derive(Debug, Clone, Default)]
pub struct Trigger {
    pub command: String,
    /// Exit status (a signal as its negative number) and output, once it ended.
    pub ended: Option<(Option<i64>, String, u64)>,
    /// Its end was shown in a result: later ones leave it out.
    pub told: bool,
}

/// `stop_asked_by` of the agent's own stop_debug_session and of capture's end: ends the agent
/// asked for, so it knows the session is gone.
pub const BY_STOP_TOOL: &str = "stop_debug_session";
pub const BY_CAPTURE: &str = "capture (done recording)";

pub const OUTPUT_LINES: usize = 500;

impl SessionSlot {
    pub fn new(info: SessionInfo, project: Option<String>) -> Self {
        Self {
            info,
            project,
            pause: None,
            pause_seq: 0,
            exit_code: None,
            values: ValueTable::default(),
            selected_frame: 0,
            current_thread: None,
            frames: HashMap::new(),
            frame_total: HashMap::new(),
            changed: watch::channel(0).0,
            output: VecDeque::new(),
            output_total: 0,
            last_values: None,
            stop_asked_by: None,
            trigger: None,
            attached_to: None,
            late_pause: None,
            late_pauses_resumed: 0,
        }
    }

    pub fn state(&self) -> SessionState {
        self.info.state
    }

    /// Moves the session to `to`, unless it has ended: an end is final, and an event that
    /// arrives after it (a stop of a step or a pause that was in flight when another client
    /// stopped the session) must not bring the session back. Returns whether it moved.
    pub fn set_state(&mut self, to: SessionState) -> bool {
        if self.info.state == SessionState::Stopped {
            return to == SessionState::Stopped;
        }
        self.info.state = to;
        true
    }

    /// How the session ended, in words: who stopped it, else its exit status.
    pub fn end_words(&self) -> Option<String> {
        match (self.stop_asked_by, self.exit_code) {
            (Some(by), _) => Some(format!("stopped by {by}")),
            (None, Some(c)) => Some(super::signals::describe(c)),
            (None, None) => None,
        }
    }

    /// Forget everything tied to the previous pause (value ids, frames).
    pub fn invalidate(&mut self) {
        self.values.invalidate();
        self.frames.clear();
        self.frame_total.clear();
    }

    /// The end of the debuggee's stderr, at most `max` bytes starting at a line, for results
    /// that report an end: a traceback or a syntax error explains itself there.
    pub fn stderr_tail(&self, max: usize) -> Option<String> {
        let all: String = self
            .output
            .iter()
            .filter(|(c, _)| *c == OutputCategory::Stderr)
            .map(|(_, t)| t.as_str())
            .collect();
        let all = without_runner_frames(&all);
        let all = all.trim_end();
        if all.trim().is_empty() {
            return None;
        }
        let mut start = all.len().saturating_sub(max);
        while !all.is_char_boundary(start) {
            start += 1;
        }
        if start > 0 {
            // Whole lines only; a cut line would read as a different message.
            start = all[start..].find('\n').map_or(start, |i| start + i + 1);
        }
        Some(all[start..].to_string())
    }

    pub fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }
}

/// A Python traceback without the frames of the debugger's own runner (debugpy, pydevd,
/// runpy): they come before the program's frames in every uncaught exception under debugpy,
/// and would fill the stderr tail a result shows in place of the program's own lines.
pub fn without_runner_frames(text: &str) -> String {
    let runner = |l: &str| {
        l.starts_with("  File \"")
            && ["/debugpy/", "/pydevd", "<frozen runpy>", "/runpy.py\""]
                .iter()
                .any(|m| l.contains(m))
    };
    let mut out = String::with_capacity(text.len());
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("  File \"") {
            skipping = runner(line);
        } else if !line.starts_with("    ") {
            skipping = false;
        }
        if !skipping {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod runner_frames {
    #[test]
    fn a_traceback_under_debugpy_reads_as_without_it() {
        let tb = "Traceback (most recent call last):\n  File \"/usr/lib/python3.11/site-packages/debugpy/_vendored/pydevd/_pydevd_bundle/pydevd_runpy.py\", line 118, in _run_code\n    exec(code, run_globals)\n  File \"/p/app.py\", line 6, in <module>\n    assert got == [[1]]\n           ^^^^^^^^\nAssertionError: got [[1], []]\n";
        assert_eq!(
            super::without_runner_frames(tb),
            "Traceback (most recent call last):\n  File \"/p/app.py\", line 6, in <module>\n    assert got == [[1]]\n           ^^^^^^^^\nAssertionError: got [[1], []]\n"
        );
    }
}

#[derive(Debug, Clone, Default)]
pub struct BpMeta {
    pub project: Option<String>,
    /// Created through a tool (owner "agent"); everything else is the user's.
    pub agent: bool,
    /// Pauses observed at this breakpoint.
    pub hits: u64,
    /// Last state the backend reported.
    pub last: Option<BreakpointInfo>,
    /// The line the debugger last bound it to: after the session ends the backend reports it
    /// unbound again, and "pending" would hide that it was bound (and hit) there.
    pub bound_line: Option<u32>,
    /// Function breakpoints: the name they were set for.
    pub function: Option<String>,
    /// `on_hit: "record"`: the recording this breakpoint drives (its pauses are never shown).
    pub record: Option<super::recorder::Recording>,
    /// Removed by stop_debug_session with its session: kept for that session's summary.
    pub removed: bool,
    /// `after`: the breakpoint this one waits for (see `dependent`).
    pub after: Option<super::dependent::After>,
    /// The breakpoint it waited for was removed (its id): it now stops at every hit.
    pub master_removed: Option<String>,
}

impl BpMeta {
    /// Records the backend's latest view of the breakpoint.
    pub fn observe(&mut self, info: BreakpointInfo) {
        if info.verified && info.line.is_some() {
            self.bound_line = info.line;
        }
        super::dependent::observe(self, &info);
        self.last = Some(info);
    }
}

#[derive(Debug, Clone)]
pub struct EvalPoint {
    pub session_id: String,
    pub step: u64,
    pub file: Option<String>,
    pub line: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct Watch {
    pub id: String,
    pub expression: String,
    pub value: Option<String>,
    pub type_name: Option<String>,
    pub value_length: Option<usize>,
    pub error: Option<String>,
    pub at: Option<EvalPoint>,
}

#[derive(Default)]
pub struct EngineState {
    pub sessions: HashMap<String, SessionSlot>,
    /// Current session per project root.
    pub current: HashMap<String, String>,
    /// Per project root, the current session that ended (until another becomes current): a
    /// call without session_id must not then answer from another session unasked.
    pub ended_current: HashMap<String, String>,
    pub breakpoints: HashMap<String, BpMeta>,
    /// Watches per project root.
    pub watches: HashMap<String, Vec<Watch>>,
    pub next_watch: u64,
    /// Recorded calls (see `recorder`).
    pub calls: super::recorder::Calls,
}

pub fn state_name(s: SessionState) -> &'static str {
    match s {
        SessionState::Starting => "starting",
        SessionState::Running => "running",
        SessionState::Paused => "paused",
        SessionState::Stopped => "stopped",
    }
}

pub fn reason_name(r: PauseReason) -> &'static str {
    match r {
        PauseReason::Breakpoint => "breakpoint",
        PauseReason::Step => "step",
        PauseReason::Pause => "pause",
        PauseReason::Exception => "exception",
        PauseReason::Entry => "entry",
        PauseReason::Goto => "goto",
        PauseReason::Signal => "signal",
        PauseReason::Other => "other",
    }
}
