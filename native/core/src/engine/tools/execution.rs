//! resume / pause / step_* / run_to_line / wait_for_pause. Control tools subscribe to the
//! session's changes *before* sending the op (the stop may arrive before the op returns), then
//! wait for a pause newer than the one they started from.

use super::super::context::{Call, ToolError, ended};
use super::super::snapshot;
use super::super::state::Trigger;
use super::out::{State, StopResult};
use super::{ControlArg, Kind, Outcome, SessionArg, TimeoutArg};
use crate::backend::{ControlOp, SessionState};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// # Resume
/// Runs to the next stop.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Resume {
    #[serde(flatten)]
    a: ControlArg,
}
tool!(
    Resume,
    "resume",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: Resume| control(c, "resume", a.a, Step::Resume)
);

/// # Pause
/// Stops a running program.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Pause {
    #[serde(flatten)]
    a: ControlArg,
}
tool!(
    Pause,
    "pause",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: Pause| control(c, "pause", a.a, Step::Pause)
);

/// # Step over
/// Runs the current line.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct StepOver {
    #[serde(flatten)]
    a: ControlArg,
    #[serde(default)]
    ignore_breakpoints: bool,
}
tool!(
    StepOver,
    "step_over",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: StepOver| control(
        c,
        "step_over",
        a.a,
        Step::Op(ControlOp::StepOver {
            ignore_breakpoints: a.ignore_breakpoints
        })
    )
);

/// # Step into
/// Enters the call on this line.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct StepInto {
    #[serde(flatten)]
    a: ControlArg,
    /// Also into library code.
    #[serde(default)]
    force: bool,
}
tool!(
    StepInto,
    "step_into",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: StepInto| control(
        c,
        "step_into",
        a.a,
        Step::Op(ControlOp::StepInto { force: a.force })
    )
);

/// # Step out
/// Runs to the caller.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct StepOut {
    #[serde(flatten)]
    a: ControlArg,
}
tool!(
    StepOut,
    "step_out",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: StepOut| control(c, "step_out", a.a, Step::Op(ControlOp::STEP_OUT))
);

/// # Run to line
/// Or to a breakpoint before it.
#[derive(Deserialize, Serialize, JsonSchema)]
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["text"]))]
pub struct RunToLine {
    #[serde(flatten)]
    a: ControlArg,
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    // A fragment of the line's source instead of line, file_path optional (`by_text`;
    // unlisted: the instructions name it).
    text: Option<String>,
    #[serde(default)]
    ignore_breakpoints: bool,
}
tool!(
    RunToLine,
    "run_to_line",
    Kind::Write { idempotent: false },
    StopResult,
    |c, a: RunToLine| control(
        c,
        "run_to_line",
        a.a,
        Step::RunTo {
            file_path: a.file_path,
            line: a.line,
            text: a.text,
            ignore_breakpoints: a.ignore_breakpoints
        }
    )
);

/// A `thread_id` the session does not have is an error listing the threads it has (a paused
/// session would otherwise answer "already paused" for any id, and a backend may ignore it).
async fn check_thread(
    c: &Call<'_>,
    sid: &str,
    want: &str,
) -> Result<(), super::super::context::ToolError> {
    let backend = c.engine.backend.clone();
    let threads = c.bk("threads", backend.threads(sid)).await?;
    if threads.iter().any(|t| t.id == want) {
        return Ok(());
    }
    let listed: Vec<String> = threads
        .iter()
        .take(20)
        .map(|t| format!("{} ({})", t.id, t.name))
        .collect();
    let more = threads.len().saturating_sub(20);
    let shown: String = want.chars().take(40).collect();
    Err(format!(
        "field 'thread_id': session {sid} has no thread '{shown}'; its threads: {}{} (list_threads shows them)",
        listed.join(", "),
        if more > 0 { format!(" and {more} more") } else { String::new() }
    )
    .into())
}

/// How long a control op the debugger refused may take to turn out to be the program's end.
const ENDED_MS: u64 = 1_000;

/// What a control tool asks for; run_to_line's file is resolved against the project first.
enum Step {
    Pause,
    Resume,
    Op(ControlOp),
    RunTo {
        file_path: Option<String>,
        line: Option<u32>,
        text: Option<String>,
        ignore_breakpoints: bool,
    },
}

async fn control(
    c: &mut Call<'_>,
    tool: &str,
    mut a: ControlArg,
    step: Step,
) -> Outcome<StopResult> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let evaluate = a.evaluate.take();
    let effects = a.allow_side_effects;
    if let Some(i) = evaluate.iter().flatten().position(|e| e.trim().is_empty()) {
        return Err(format!("evaluate[{i}] is empty").into());
    }
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (state, thread) = c.engine.with_state(|s| {
        let x = s.sessions.get(&sid);
        (
            x.map(|x| x.state()),
            x.and_then(|x| x.current_thread.clone()),
        )
    });
    if state == Some(SessionState::Stopped) && matches!(step, Step::Resume) {
        // The program ended while the agent was away (an earlier wait timed out): the end is
        // what this resume runs to, not a failure.
        return Ok(snapshot::stop_result(c, &sid, None).await);
    }
    if state == Some(SessionState::Stopped) {
        let err = c
            .engine
            .with_state(|s| s.sessions.get(&sid).map(|x| ended(&sid, x)));
        return Err(err.unwrap_or_else(|| format!("session {sid} has ended").into()));
    }
    if let Some(want) = a.thread_id.as_deref() {
        check_thread(c, &sid, want).await?;
    }
    // run_to_line on a `def` line: where it was moved (said with the stop).
    let mut moved_to_call: Option<String> = None;
    let op = match step {
        Step::Pause => {
            if state == Some(SessionState::Paused) {
                let mut r = snapshot::stop_result(c, &sid, None).await;
                r.message = Some("already paused".into());
                super::first::evaluate_at(c, &root, evaluate, effects, &mut r).await;
                return Ok(r);
            }
            // The agent's own pause: a read's late one, if it comes, is this stop, kept.
            c.engine.with_state(|s| {
                if let Some(x) = s.sessions.get_mut(&sid) {
                    x.late_pause = None;
                }
            });
            ControlOp::Pause
        }
        step => {
            // Stepping a running program makes no sense; say what to do instead.
            c.paused(&sid)?;
            match step {
                Step::Pause | Step::Resume => ControlOp::Resume,
                Step::Op(op) => op,
                Step::RunTo {
                    file_path,
                    line,
                    text,
                    ignore_breakpoints,
                } => {
                    super::by_text::check_fields(
                        file_path.as_deref(),
                        line,
                        text.as_deref(),
                        None,
                    )?;
                    let (file, line) = match (file_path, line, text) {
                        (file_path, _, Some(text)) => {
                            let (file, line, _) =
                                super::by_text::line_of(c, &root, file_path.as_deref(), &text)
                                    .await?;
                            (file, line)
                        }
                        (Some(file_path), Some(line), None) => {
                            let file = c.file_in_project(&root, &file_path)?;
                            c.line_in_file(&file, line, &file_path)?;
                            (file, line)
                        }
                        (None, _, None) => {
                            return Err("field 'file_path': required with line; or give text (a fragment of the line)".into());
                        }
                        (Some(_), None, None) => {
                            return Err("field 'line': required with file_path (or give text: a fragment of the line)".into());
                        }
                    };
                    let (line, moved) = c.at_call(&file, line);
                    moved_to_call = moved;
                    ControlOp::RunTo {
                        file,
                        line,
                        ignore_breakpoints,
                    }
                }
            }
        }
    };
    let thread = a.thread_id.or(thread);
    let run_to = match &op {
        ControlOp::RunTo { file, line, .. } => Some((file.clone(), *line)),
        _ => None,
    };
    // Where a step starts: its end is told against it (another thread, a new frame).
    let stepping = matches!(
        op,
        ControlOp::StepOver { .. } | ControlOp::StepInto { .. } | ControlOp::StepOut { .. }
    );
    let before = match (&thread, stepping) {
        (Some(t), true) => c.frame(&sid, t, 0).await.ok().map(|f| (t.clone(), f)),
        _ => None,
    };
    let mut sub = c.subscribe(&sid)?;
    let backend = c.engine.backend.clone();
    let resumes = !matches!(op, ControlOp::Pause);
    // The stop this op leads to is the agent's (the watchdog may act on it).
    c.engine.watchdog.arm(&sid);
    super::super::recorder::arm_step(c, &sid, thread.as_deref(), &op).await;
    if let Err(e) = c
        .bk("control", backend.control(&sid, thread.as_deref(), op))
        .await
    {
        // The program may end while the op is on its way (an adapter that exits with it
        // before answering): that end is the op's result, not a failure.
        let gone = |x: &super::super::state::SessionSlot| x.state() == SessionState::Stopped;
        if !(resumes && c.wait_until(&sid, &mut sub, ENDED_MS, gone).await) {
            // A debugger that cannot bind the line (Xdebug: "breakpoint could not be set" on a
            // blank line between two functions): which lines nearby have code.
            if let Some((file, line)) = &run_to {
                let backend = c.engine.backend.clone();
                let source = c
                    .bk("read_source", backend.read_source(&root, file))
                    .await
                    .ok();
                if let Some(near) = super::capture::nearby(source.as_deref(), *line) {
                    return Err(ToolError(format!("{}; {near}: run to one of those", e.0)));
                }
            }
            return Err(e);
        }
    }
    if resumes {
        left_pause(c, &sid, sub.seq);
    }
    if !a.wait {
        let state = c
            .engine
            .with_state(|s| s.sessions.get(&sid).map(|x| State::from(x.state())))
            .unwrap_or(State::Running);
        let mut r = StopResult::new(&sid, state);
        r.message = Some(format!(
            "{tool} sent; call wait_for_pause to wait for the next stop"
        ));
        return Ok(r);
    }
    let timeout = a.t.timeout_ms;
    // A resume that lets the trigger's request finish answers at its end.
    let stopped = c.wait_for_stop_or_trigger(&sid, &mut sub, timeout).await;
    let mut r = snapshot::stop_result(c, &sid, (!stopped).then_some(timeout)).await;
    if !stopped && !resumes && matches!(r.state, State::Running) && r.trigger.is_none() {
        // "pause to stop it" is no advice after a pause; some debuggers stop only where the
        // program runs its own code, and say why.
        let why = c.engine.backend.pause_pending_note(&sid);
        r.message = Some(format!(
            "not stopped after {timeout} ms; the pause stays asked and wait_for_pause returns the stop{}",
            why.map(|w| format!(". {w}")).unwrap_or_default()
        ));
    }
    if let Some((thread, from)) = before
        && let Some(note) = step_note(&thread, &from, &r)
    {
        r.message = Some(match r.message.take() {
            Some(m) => format!("{m}; {note}"),
            None => note,
        });
    }
    if let Some((file, line)) = run_to
        && stopped
        && let Some(note) = not_reached(c, &root, &file, line, &r).await
    {
        r.message = Some(match r.message.take() {
            Some(m) => format!("{m}; {note}"),
            None => note,
        });
    }
    if let Some(moved) = moved_to_call {
        r.message = Some(match r.message.take() {
            Some(m) => format!("{moved}; {m}"),
            None => moved,
        });
    }
    super::first::evaluate_at(c, &root, evaluate, effects, &mut r).await;
    Ok(r)
}

/// run_to_line's end elsewhere than `file:line` (issue 26: "the session has ended" alone read
/// as a run through the line): the line was not reached and why — the program ended, or a
/// breakpoint or something else stopped it first — and, for a line without code, that and the
/// lines nearby that have code (gdb and delve bind no code-less line between two functions).
async fn not_reached(
    c: &Call<'_>,
    root: &str,
    file: &str,
    line: u32,
    r: &StopResult,
) -> Option<String> {
    let at = r.location.as_ref();
    let same_file = at
        .and_then(|l| l.file.as_deref())
        .is_some_and(|f| super::same_file(f, file));
    if r.state == State::Paused && same_file && at.and_then(|l| l.line) == Some(line) {
        return None;
    }
    let rel = file
        .strip_prefix(root)
        .map(|f| f.trim_start_matches('/'))
        .unwrap_or(file);
    let backend = c.engine.backend.clone();
    let source = c
        .bk("read_source", backend.read_source(root, file))
        .await
        .ok();
    let near = super::capture::nearby(source.as_deref(), line);
    let why = match r.state {
        State::Paused if !r.breakpoint_ids.is_empty() => {
            format!(
                "breakpoint {} stopped it first",
                r.breakpoint_ids.join(", ")
            )
        }
        // A debugger that bound the line's temporary breakpoint to the next line with code.
        State::Paused if same_file && near.is_some() => {
            let l = at.and_then(|l| l.line).unwrap_or(0);
            return Some(format!("stopped at line {l}: {}", near.unwrap_or_default()));
        }
        State::Paused => "the program paused elsewhere first".to_string(),
        _ => "the program ended first".to_string(),
    };
    Some(match near {
        Some(near) => format!("line {line} of {rel} was not reached: {why}; {near}"),
        None => format!("line {line} of {rel} was not reached: {why}"),
    })
}

/// What a step's end does not say by its location alone: that the stop is in another thread
/// (one hit a breakpoint meanwhile), or in a new frame on the line it started from (a Python
/// 3.11 comprehension, a lambda), which reads like "stepped, same line".
fn step_note(thread: &str, from: &crate::backend::FrameInfo, r: &StopResult) -> Option<String> {
    let at = r.location.as_ref()?;
    if let Some(t) = r.thread_id.as_deref()
        && t != thread
    {
        return Some(format!(
            "the stop is in thread {t}, not in thread {thread} that was stepped"
        ));
    }
    // (Frames without source have no line to be the same: instruction steps in a library.)
    let same_line = at.line.is_some() && at.file == from.file && at.line == from.line;
    if same_line && at.method.is_some() && at.method != from.method_name {
        return Some(format!(
            "stepped into a new frame on the same line: {}",
            at.method.as_deref().unwrap_or("?")
        ));
    }
    None
}

/// # Wait for a pause
/// Until it stops or ends.
#[derive(Deserialize, Serialize, JsonSchema)]
// `command` and `evaluate` are named in the instructions (every byte of tools/list counts).
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["command", "evaluate", "allow_side_effects"]))]
pub struct WaitForPause {
    #[serde(flatten)]
    s: SessionArg,
    #[serde(flatten)]
    t: TimeoutArg,
    /// Say if paused at one of these.
    breakpoint_ids: Option<Vec<String>>,
    // Run first for this running session, as an attach's trigger is (`curl …`): its stop,
    // or its end without one, is the answer.
    #[schemars(length(min = 1))]
    command: Option<String>,
    // Expressions evaluated at the stop, as resume's.
    #[schemars(length(min = 1))]
    evaluate: Option<Vec<String>>,
    // As evaluate_expression's, for `evaluate` (named in the instructions).
    #[serde(default)]
    allow_side_effects: bool,
}
tool!(
    WaitForPause,
    "wait_for_pause",
    Kind::Read,
    StopResult,
    wait_for_pause
);

async fn wait_for_pause(c: &mut Call<'_>, a: WaitForPause) -> Outcome<StopResult> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    if let Some(i) = a
        .evaluate
        .iter()
        .flatten()
        .position(|e| e.trim().is_empty())
    {
        return Err(format!("evaluate[{i}] is empty").into());
    }
    if let Some(cmd) = &a.command {
        crate::engine::shell::check_command(cmd)?;
    }
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let timeout = a.t.timeout_ms;
    let mut sub = c.subscribe(&sid)?;
    let state = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.state()));
    let already = matches!(state, Some(SessionState::Paused | SessionState::Stopped));
    // The calls recording breakpoints had recorded before the command's request.
    let mut recorded = None;
    if let Some(cmd) = &a.command {
        match state {
            Some(SessionState::Paused) => {
                return Err(format!(
                    "command: session {sid} is paused, so the request would wait on it; resume (or resume {{evaluate}}) to run on, then wait_for_pause {{command}}"
                )
                .into());
            }
            Some(SessionState::Stopped) => {
                let err = c
                    .engine
                    .with_state(|s| s.sessions.get(&sid).map(|x| ended(&sid, x)));
                return Err(err.unwrap_or_else(|| format!("session {sid} has ended").into()));
            }
            _ => {}
        }
        recorded = Some(super::calls::count_of(c, &sid));
        run_trigger(c, &sid, cmd).await?;
    }
    let stopped = if already {
        true
    } else {
        c.wait_for_stop_or_trigger(&sid, &mut sub, timeout).await
    };
    let mut r = snapshot::stop_result(c, &sid, (!stopped).then_some(timeout)).await;
    if already && r.state == State::Paused {
        r.already_paused = true;
    }
    if let Some(from) = recorded {
        r.calls = super::calls::rows_after(c, &root, &sid, from);
    }
    if a.command.is_some() {
        trigger_note(c, &sid, stopped, &mut r);
    }
    if let Some(wanted) = a.breakpoint_ids.filter(|w| !w.is_empty())
        && r.state == State::Paused
    {
        let matched = r.breakpoint_ids.iter().any(|h| wanted.contains(h));
        r.matched = Some(matched);
        if !matched {
            r.message = Some(format!(
                "paused, but not at one of the awaited breakpoints ({}); resume to continue towards them",
                wanted.join(", ")
            ));
        }
    }
    super::first::evaluate_at(c, &root, a.evaluate, a.allow_side_effects, &mut r).await;
    Ok(r)
}

/// wait_for_pause {command}: the session's trigger is now `cmd` (its end told once, as an
/// attach's), run by the backend; a refusal leaves the session's trigger as it was.
pub(super) async fn run_trigger(c: &mut Call<'_>, sid: &str, cmd: &str) -> Result<(), ToolError> {
    let fresh = Trigger {
        command: cmd.to_string(),
        ..Default::default()
    };
    // Set before it runs: its end may come before the backend's answer.
    let old = c.engine.with_state(|s| {
        s.sessions
            .get_mut(sid)
            .and_then(|x| x.trigger.replace(fresh))
    });
    let backend = c.engine.backend.clone();
    if let Err(e) = c.bk("run_trigger", backend.run_trigger(sid, cmd)).await {
        c.engine.with_state(|s| {
            if let Some(x) = s.sessions.get_mut(sid) {
                x.trigger = old;
            }
        });
        return Err(ToolError(format!(
            "command (a request sent for this session) not run: {}. Send it from your shell, then call wait_for_pause",
            e.0
        )));
    }
    Ok(())
}

/// What is said of a request (an attach's trigger) that ended with the program running, not
/// stopped: `trigger` is its line (`trigger `curl …` exited with code 0`); with `recorded`
/// calls, recording breakpoints were hit, and never stop (not "without hitting a breakpoint",
/// read as never reached).
pub(super) fn request_ended(trigger: &str, recorded: bool) -> String {
    if recorded {
        format!(
            "the request ran to its end ({trigger}; its output: trigger); recording breakpoints record without stopping (calls); the program runs on"
        )
    } else {
        format!(
            "the request completed without hitting a breakpoint ({trigger}; its output: trigger); the program runs on: send another request, or call wait_for_pause"
        )
    }
}

/// What a wait after wait_for_pause {command} says of the command, as start's trigger does.
fn trigger_note(c: &Call<'_>, sid: &str, stopped: bool, r: &mut StopResult) {
    let running = c.engine.with_state(|s| {
        s.sessions
            .get(sid)
            .and_then(|x| x.trigger.as_ref())
            .is_some_and(|t| t.ended.is_none())
    });
    if !stopped
        && r.state == State::Running
        && !running
        && let Some(t) = r.trigger.as_ref()
    {
        r.message = Some(request_ended(&t.line(), !r.calls.is_empty()));
    } else if running && r.state == State::Paused {
        let still = "the command still runs (its end comes with a later result)";
        r.message = Some(match r.message.take() {
            Some(m) => format!("{m}; {still}"),
            None => still.into(),
        });
    }
}

/// The program left the pause `seq` it was in, even if the backend's `Resumed` event is still
/// queued: mark it running now (unless a newer pause already arrived), so a following
/// wait_for_pause does not return the old stop.
pub(crate) fn left_pause(c: &Call<'_>, sid: &str, seq: u64) {
    c.engine.with_state(|s| {
        if let Some(x) = s
            .sessions
            .get_mut(sid)
            .filter(|x| x.pause_seq == seq && x.state() == SessionState::Paused)
        {
            x.invalidate();
            x.pause = None;
            x.info.state = SessionState::Running;
            x.notify();
        }
    });
}
