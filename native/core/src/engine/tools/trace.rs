//! trace_function: the server steps the current function call (step_over) until it returns,
//! recording each executed line and the locals that changed on it — a function-level view for
//! the agent instead of one step per tool call. Every step has its own timeout and the whole
//! trace a total bound (≤ 55 s); rows are bounded in count and bytes.

use super::super::context::{Call, ToolError};
use super::super::ledger::{ReadKind, ValueRead};
use super::super::snapshot::location;
use super::super::state::reason_name;
use super::super::values;
use super::execution::left_pause;
use super::out::{Location, State, is_false};
use super::{Kind, MAX_WAIT_MS, Outcome, SessionArg};
use crate::backend::{ControlOp, FrameInfo, PauseReason, SessionState, ValueScope};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Longest wait for one step; a step that takes longer ends the trace (the program runs on).
const STEP_MS: u64 = 10_000;
/// Frames counted when the backend does not report the stack depth.
const MAX_STACK: u32 = 500;
/// Characters of a value in a row.
const ROW_VALUE_CHARS: usize = 80;

fn hundred() -> u32 {
    100
}

/// Bytes of rows per answer; a longer function is continued by calling again.
const MAX_BYTES: usize = 4_000;
/// The whole trace's bound: clients give up on calls around 60 s.
const TOTAL_MS: u64 = MAX_WAIT_MS;

/// # Trace a function
/// Steps the current function to its return: each line with the locals it changed.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct TraceFunction {
    #[serde(flatten)]
    s: SessionArg,
    /// Trace the call on this line instead.
    #[serde(default)]
    enter: bool,
    #[serde(default = "hundred")]
    #[schemars(range(min = 1, max = 500))]
    max_lines: u32,
}
tool!(
    TraceFunction,
    "trace_function",
    Kind::Write { idempotent: false },
    Trace,
    trace_function
);

/// The traced call: one row per executed line with the locals it changed.
#[derive(Serialize, JsonSchema)]
pub struct Trace {
    session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    function: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_line: Option<u32>,
    start_locals: BTreeMap<String, String>,
    rows: Vec<Row>,
    steps: u32,
    returned: bool,
    // What the traced function itself raised, when it ended by an exception.
    #[serde(skip_serializing_if = "Option::is_none")]
    raised: Option<String>,
    now: Now,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct Row {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "is_false")]
    returned: bool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    changed: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "is_false")]
    exception: bool,
}

impl Row {
    fn at(line: Option<u32>) -> Self {
        Row {
            line,
            returned: false,
            changed: BTreeMap::new(),
            exception: false,
        }
    }
}

/// Where the session is after the trace.
#[derive(Serialize, JsonSchema)]
pub struct Now {
    state: State,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
}

/// Stack depth of `thread` at the current pause.
async fn depth(c: &Call<'_>, sid: &str, thread: &str) -> Result<u32, ToolError> {
    c.frame(sid, thread, 0).await?;
    let known = c.engine.with_state(|s| {
        s.sessions
            .get(sid)
            .and_then(|x| x.frame_total.get(thread).copied().flatten())
    });
    if let Some(t) = known {
        return Ok(t);
    }
    let backend = c.engine.backend.clone();
    Ok(c.bk("frames", backend.frames(sid, thread, 0, MAX_STACK))
        .await?
        .frames
        .len() as u32)
}

/// The frame's locals and arguments as name → short rendering (secrets redacted).
async fn locals(
    c: &Call<'_>,
    sid: &str,
    frame: &FrameInfo,
) -> Result<BTreeMap<String, String>, ToolError> {
    let backend = c.engine.backend.clone();
    let vars = c
        .bk(
            "frame_variables",
            backend.frame_variables(sid, &frame.handle),
        )
        .await?;
    Ok(vars
        .into_iter()
        .filter(|v| {
            matches!(
                v.scope,
                ValueScope::Local | ValueScope::Argument | ValueScope::This
            )
        })
        .filter(|v| !values::is_runner_temporary(&v.name))
        .map(|v| {
            let shown =
                short(&values::visible(&c.cfg, &v.name, v.type_name.as_deref(), &v.value).text);
            (v.name, shown)
        })
        .collect())
}

fn short(v: &str) -> String {
    if v.chars().count() > ROW_VALUE_CHARS {
        format!("{}…", v.chars().take(ROW_VALUE_CHARS).collect::<String>())
    } else {
        v.to_string()
    }
}

/// Values in `now` that are new or differ from `before`.
fn changed(
    before: &BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    now.iter()
        .filter(|(k, v)| before.get(*k) != Some(*v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Sends one control op and waits for the next stop; false when none came in `ms`.
async fn step(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    op: ControlOp,
    ms: u64,
) -> Result<bool, ToolError> {
    let mut sub = c.subscribe(sid)?;
    let backend = c.engine.backend.clone();
    // A recorded call inside the step finishes the step rather than resuming the program.
    super::super::recorder::arm_step(c, sid, Some(thread), &op).await;
    c.bk("control", backend.control(sid, Some(thread), op))
        .await?;
    left_pause(c, sid, sub.seq);
    Ok(c.wait_for_stop(sid, &mut sub, ms).await)
}

/// `ValueError: bad` out of a stop's exception description (a step's note or the adapter's).
fn exception_of(description: &str) -> String {
    let text = description
        .strip_prefix(crate::backend::STEP_RAISED)
        .unwrap_or(description);
    short(text.split("; raised here").next().unwrap_or(text).trim())
}

/// Where the session is now, compactly.
async fn now(c: &Call<'_>, sid: &str, thread: &str) -> Now {
    let (state, reason) = c.engine.with_state(|s| {
        s.sessions
            .get(sid)
            .map(|x| (x.state(), x.pause.as_ref().map(|p| p.reason)))
            .unwrap_or((SessionState::Stopped, None))
    });
    let location = if state == SessionState::Paused {
        c.frame(sid, thread, 0).await.ok().map(|f| location(&f))
    } else {
        None
    };
    Now {
        state: state.into(),
        reason: reason.map(|r| reason_name(r).to_string()),
        location,
    }
}

async fn trace_function(c: &mut Call<'_>, a: TraceFunction) -> Outcome<Trace> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (paused_thread, _) = c.paused(&sid)?;
    let thread = paused_thread;
    let (max_lines, max_bytes) = (a.max_lines as usize, MAX_BYTES);
    let budget = Duration::from_millis(TOTAL_MS);
    let started = Instant::now();
    let left = |cap: u64| (budget.saturating_sub(started.elapsed()).as_millis() as u64).min(cap);

    if a.enter {
        let before = depth(c, &sid, &thread).await?;
        if !step(
            c,
            &sid,
            &thread,
            ControlOp::StepInto { force: false },
            left(STEP_MS),
        )
        .await?
        {
            return Err(ToolError(format!(
                "step_into did not stop within {} ms; the program is running: call wait_for_pause",
                left(STEP_MS)
            )));
        }
        c.paused(&sid)?;
        if depth(c, &sid, &thread).await? <= before {
            let at = now(c, &sid, &thread).await;
            return Err(ToolError(format!(
                "no call was entered from the current line (now at {}); pause on a line that calls a function, or omit enter to trace the current function",
                serde_json::to_value(&at.location).unwrap_or_default()
            )));
        }
    }

    let top = c.frame(&sid, &thread, 0).await?;
    let start_depth = depth(c, &sid, &thread).await?;
    let mut prev = locals(c, &sid, &top).await?;
    let at = c.engine.at(&sid, Some(&thread), 0);
    c.engine.ledger.record(
        &sid,
        &at,
        prev.iter()
            .map(|(k, v)| ValueRead::new(ReadKind::Variable, k.clone(), v.clone(), None)),
    );
    let start_locals = prev.clone();
    let mut line = top.line;
    let mut rows: Vec<Row> = Vec::new();
    let mut bytes = 0usize;
    let mut steps = 0u32;
    let step_over = ControlOp::StepOver {
        ignore_breakpoints: false,
    };
    let mut op = step_over.clone();
    // Stepping out of a callee that raised, back to the traced frame.
    let mut unwinding = false;
    // An exception the traced frame itself met and has not handled yet.
    let mut raising: Option<String> = None;
    let ended = loop {
        if rows.len() >= max_lines {
            break format!(
                "max_lines ({max_lines}) reached before the function returned; call trace_function again to continue"
            );
        }
        let ms = left(STEP_MS);
        if ms == 0 {
            break format!(
                "time limit ({} ms) reached before the function returned",
                budget.as_millis()
            );
        }
        let stopped = step(c, &sid, &thread, op.clone(), ms).await?;
        op = step_over.clone();
        let unwound = std::mem::take(&mut unwinding);
        steps += 1;
        let (state, description) = c.engine.with_state(|s| {
            let x = s.sessions.get(&sid);
            let pause = x.and_then(|x| x.pause.as_ref());
            (
                x.map(|x| (x.state(), pause.map(|p| p.reason))),
                pause.and_then(|p| p.description.clone()),
            )
        });
        let row_line = line;
        let mut push = |row: Row, rows: &mut Vec<Row>| -> bool {
            let size = serde_json::to_string(&row).map(|s| s.len()).unwrap_or(0);
            if bytes + size > max_bytes && !rows.is_empty() {
                return false;
            }
            bytes += size;
            rows.push(row);
            true
        };
        match state {
            Some((SessionState::Stopped, _)) => {
                push(Row::at(row_line), &mut rows);
                break "the program ended".into();
            }
            Some((SessionState::Paused, reason)) if stopped => {
                let d = depth(c, &sid, &thread).await?;
                if d < start_depth {
                    // Left by the exception its own frame met last: a raise, not a return.
                    if let Some(e) = &raising {
                        // (The raise's own row says it already when the step stopped there.)
                        if rows
                            .last()
                            .is_none_or(|r| r.line != row_line || !r.exception)
                        {
                            push(
                                Row {
                                    exception: true,
                                    ..Row::at(row_line)
                                },
                                &mut rows,
                            );
                        }
                        break format!("raised {e}");
                    }
                    push(
                        Row {
                            returned: true,
                            ..Row::at(row_line)
                        },
                        &mut rows,
                    );
                    break "returned".into();
                }
                if d > start_depth && reason == Some(PauseReason::Exception) {
                    // A callee raised (the step stops at raises): its own handler may catch
                    // it. Out to the traced frame; only what arrives there is the function's.
                    op = ControlOp::STEP_OUT;
                    unwinding = true;
                    continue;
                }
                if d > start_depth {
                    // A breakpoint (or exception) inside a callee interrupted the step over.
                    push(Row::at(row_line), &mut rows);
                    break format!(
                        "stopped inside a call ({}); trace_function there or step_out",
                        reason.map(reason_name).unwrap_or("pause")
                    );
                }
                let top = c.frame(&sid, &thread, 0).await?;
                if unwound && reason != Some(PauseReason::Exception) && top.line == row_line {
                    // Back from the callee in the middle of the line: finish the line first.
                    continue;
                }
                let cur = locals(c, &sid, &top).await?;
                let mut row = Row::at(row_line);
                let diff = changed(&prev, &cur);
                // What the trace showed is remembered like any read: get_debug_history then
                // answers "when did acc change" for a traced loop too.
                let at = c.engine.at(&sid, Some(&thread), 0);
                c.engine.ledger.record(
                    &sid,
                    &at,
                    diff.iter().map(|(k, v)| {
                        ValueRead::new(ReadKind::Variable, k.clone(), v.clone(), None)
                    }),
                );
                row.changed = diff;
                row.exception = reason == Some(PauseReason::Exception);
                if !push(row, &mut rows) {
                    break format!(
                        "{max_bytes} bytes of rows reached before the function returned; call trace_function again to continue"
                    );
                }
                prev = cur;
                line = top.line;
                raising = (reason == Some(PauseReason::Exception))
                    .then(|| exception_of(description.as_deref().unwrap_or("an exception")));
            }
            _ => {
                break format!(
                    "a step did not stop within {ms} ms (the program is running: call wait_for_pause or pause)"
                );
            }
        }
    };
    let returned = ended == "returned";
    let raised = ended.strip_prefix("raised ").map(str::to_string);
    let now = now(c, &sid, &thread).await;
    Ok(Trace {
        session_id: sid,
        function: top.method_name,
        file: top.file,
        start_line: top.line,
        start_locals,
        rows,
        steps,
        returned,
        raised,
        now,
        message: (!returned).then_some(ended),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_new_or_different_values_are_changes() {
        let a: BTreeMap<String, String> =
            [("i".into(), "1".into()), ("t".into(), "0".into())].into();
        let b: BTreeMap<String, String> = [
            ("i".into(), "2".into()),
            ("t".into(), "0".into()),
            ("x".into(), "'a'".into()),
        ]
        .into();
        let d = changed(&a, &b);
        assert_eq!(
            serde_json::to_value(d).unwrap(),
            serde_json::json!({"i": "2", "x": "'a'"})
        );
        assert_eq!(short(&"y".repeat(100)).chars().count(), ROW_VALUE_CHARS + 1);
    }
}
