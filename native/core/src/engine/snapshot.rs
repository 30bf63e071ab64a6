//! Waiting for stops (event driven: subscribe to the session's change counter *before* acting,
//! then re-check state after every change) and the compact result a stop produces: state,
//! reason, location, top-frame variables, watches.

use super::context::{Call, ToolError};
use super::ledger::{ReadKind, ValueRead};
use super::out::{
    EvaluatedAt, FrameSnapshot, Location, State, StopResult, ValueNode, Watch as OutWatch,
};
use super::state::{EvalPoint, SessionSlot, Watch, reason_name};
use super::values;
use crate::backend::{
    EvalContext, EvalRequest, FrameInfo, FramePage, PauseReason, SessionState, ValueScope,
};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Bytes of the debuggee's stderr shown when a result reports its end.
pub const STDERR_TAIL: usize = 600;

/// Variables shown in a stop result's frame snapshot.
const SNAPSHOT_VARS: usize = 20;

/// Taken before issuing a control op; `wait` then looks for a pause newer than `seq`.
pub struct Subscription {
    rx: watch::Receiver<u64>,
    pub seq: u64,
}

impl Call<'_> {
    pub fn subscribe(&self, sid: &str) -> Result<Subscription, ToolError> {
        self.engine.with_state(|s| {
            s.sessions
                .get(sid)
                .map(|slot| Subscription {
                    rx: slot.changed.subscribe(),
                    seq: slot.pause_seq,
                })
                .ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))
        })
    }

    /// Waits until `done` holds for the session (checked now and after every change), or the
    /// timeout. Returns whether it holds.
    pub async fn wait_until(
        &self,
        sid: &str,
        sub: &mut Subscription,
        timeout_ms: u64,
        done: impl Fn(&SessionSlot) -> bool,
    ) -> bool {
        let deadline =
            tokio::time::Instant::from_std(Instant::now() + Duration::from_millis(timeout_ms));
        loop {
            sub.rx.borrow_and_update();
            if self
                .engine
                .with_state(|s| s.sessions.get(sid).is_some_and(&done))
            {
                return true;
            }
            match tokio::time::timeout_at(deadline, sub.rx.changed()).await {
                Ok(Ok(())) => continue,
                _ => {
                    return self
                        .engine
                        .with_state(|s| s.sessions.get(sid).is_some_and(&done));
                }
            }
        }
    }

    /// Waits for a pause newer than the subscription, or the end of the session.
    pub async fn wait_for_stop(&self, sid: &str, sub: &mut Subscription, timeout_ms: u64) -> bool {
        let seq = sub.seq;
        self.wait_until(sid, sub, timeout_ms, |slot| {
            slot.pause_seq > seq || slot.state() == SessionState::Stopped
        })
        .await
    }

    /// [`Call::wait_for_stop`], or the end of the session's trigger not yet told (an attach's
    /// request answered without a stop: nothing else will come of it). Returns whether the
    /// program stopped or ended (false for a trigger's end and for the timeout).
    pub async fn wait_for_stop_or_trigger(
        &self,
        sid: &str,
        sub: &mut Subscription,
        timeout_ms: u64,
    ) -> bool {
        let seq = sub.seq;
        let stop =
            move |slot: &SessionSlot| slot.pause_seq > seq || slot.state() == SessionState::Stopped;
        let trigger_ended = |slot: &SessionSlot| {
            slot.trigger
                .as_ref()
                .is_some_and(|t| t.ended.is_some() && !t.told)
        };
        let start = Instant::now();
        if self
            .wait_until(sid, sub, timeout_ms, |x| stop(x) || trigger_ended(x))
            .await
            && !self
                .engine
                .with_state(|s| s.sessions.get(sid).is_some_and(stop))
        {
            // The trigger ended: a stop it caused may still be on its way (a handler that
            // stops after it answered).
            let left = timeout_ms.saturating_sub(start.elapsed().as_millis() as u64);
            return self
                .wait_until(sid, sub, left.min(TRIGGER_GRACE_MS), stop)
                .await;
        }
        self.engine
            .with_state(|s| s.sessions.get(sid).is_some_and(stop))
    }
}

/// How long a wait goes on after a trigger ended, for a stop it caused.
const TRIGGER_GRACE_MS: u64 = 300;

/// The trigger's end for a result, once: the first result after it ended says it.
pub fn take_trigger(call: &Call<'_>, sid: &str) -> Option<super::out::TriggerOut> {
    call.engine.with_state(|s| {
        let t = s.sessions.get_mut(sid)?.trigger.as_mut()?;
        if t.ended.is_none() || t.told {
            return None;
        }
        t.told = true;
        Some(super::out::TriggerOut::of(t))
    })
}

pub fn location(frame: &FrameInfo) -> Location {
    Location::from(frame)
}

/// The result of resume/step/run_to_line/pause/wait_for_pause: where the program is now.
pub async fn stop_result(call: &Call<'_>, sid: &str, waited_ms: Option<u64>) -> StopResult {
    let snapshot = call.engine.with_state(|s| {
        s.sessions.get(sid).map(|slot| {
            (
                slot.state(),
                slot.pause.clone(),
                slot.pause_seq,
                slot.exit_code,
                slot.current_thread.clone(),
            )
        })
    });
    let Some((state, pause, seq, exit_code, thread)) = snapshot else {
        let mut gone = StopResult::new(sid, State::Stopped);
        gone.message = Some(format!("session {sid} is gone"));
        return gone;
    };
    let mut out = StopResult::new(sid, state.into());
    let trigger = take_trigger(call, sid);
    match (state, pause) {
        (SessionState::Paused, Some(pause)) => {
            let thread = thread.unwrap_or(pause.thread_id.clone());
            out.step = Some(seq);
            out.reason = Some(reason_name(pause.reason).into());
            out.description = pause.description.clone();
            out.thread_id = Some(thread.clone());
            out.breakpoint_ids = pause.breakpoint_ids.clone();
            match call.frame(sid, &thread, 0).await {
                Ok(top) => {
                    out.location = Some(location(&top));
                    out.source_line = source_line(call, sid, &top).await;
                    let line = out.source_line.as_deref();
                    out.frame = Some(match frame_snapshot(call, sid, &top, line).await {
                        Ok(frame) => frame,
                        Err(e) => FrameSnapshot {
                            error: Some(e.0),
                            ..Default::default()
                        },
                    });
                    // Where it was called from, with the frame_index of each: every stop but a
                    // step's (a step stays in the frame the agent has seen, or says the new one).
                    let rows = match pause.reason {
                        PauseReason::Signal | PauseReason::Exception => Some(CALLERS),
                        PauseReason::Step => None,
                        _ => Some(STOP_CALLERS),
                    };
                    if let Some(rows) = rows {
                        out.callers = callers(call, sid, &thread, rows).await;
                    }
                }
                Err(e) => {
                    out.message = Some(format!(
                        "paused, but the location could not be read: {}",
                        e.0
                    ));
                }
            }
            refresh_watches(call, sid).await;
            out.watches = project_watches(call, sid);
        }
        (SessionState::Stopped, _) => {
            out.exit_code = exit_code;
            out.stderr = call
                .engine
                .with_state(|s| s.sessions.get(sid).and_then(|x| x.stderr_tail(STDERR_TAIL)));
            out.message = Some(format!(
                "the session has ended{}",
                exit_code
                    .map(|c| format!(" with {}", super::signals::describe(c)))
                    .unwrap_or_default()
            ));
            for note in failed_conditions(call, sid).await {
                if let Some(m) = out.message.as_mut() {
                    m.push_str("; ");
                    m.push_str(&note);
                }
            }
        }
        _ if trigger.is_some() => {
            out.message = Some(
                "running: the trigger ended without a stop at a breakpoint; send another request (or run a command), then call wait_for_pause".into(),
            );
        }
        _ => {
            if let Some(ms) = waited_ms {
                out.timed_out = true;
                out.message = Some(format!(
                    "still running after {ms} ms; call wait_for_pause to keep waiting, or pause to stop it where it is"
                ));
            } else {
                out.message = Some("running; call wait_for_pause to wait for the next stop".into());
            }
        }
    }
    out.trigger = trigger;
    out
}

/// What the debugger said in this session of the breakpoints whose condition failed to
/// evaluate ("breakpoint 3: its condition `…` fails to evaluate (…): gdb stopped at it 3
/// times …"): a run that ended without the stop asked for says why.
async fn failed_conditions(call: &Call<'_>, sid: &str) -> Vec<String> {
    let Some(root) = call
        .engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.project.clone()))
    else {
        return vec![];
    };
    let backend = call.engine.backend.clone();
    let Ok(bps) = call.bk("breakpoints", backend.breakpoints(&root)).await else {
        return vec![];
    };
    bps.iter()
        .filter_map(|b| {
            let m = b.message.as_deref()?;
            m.contains(crate::backend::CONDITION_FAILS)
                .then(|| format!("breakpoint {}: {m}", b.id))
        })
        .collect()
}

/// Caller rows of a crash or exception stop (the question every such stop raises first) …
const CALLERS: usize = 8;
/// … and of any other stop but a step's: enough for frame_index, few bytes.
const STOP_CALLERS: usize = 3;
/// Frames read below the top to fold a recursion's run into one row.
const CALLERS_READ: u32 = 24;

/// `#1 method file:line` of the frames below the top (paths relative to the project), at most
/// `rows` rows: a run of identical frames (a recursion) is one row with its count (`#1 fact
/// calls.py:17 ×3`, the next row's index says where it ends), and a last row says how many more
/// frames there are when the stack is deeper. Best effort: an adapter that cannot page the stack
/// leaves the stop without callers.
async fn callers(call: &Call<'_>, sid: &str, thread: &str, rows: usize) -> Vec<String> {
    let backend = call.engine.backend.clone();
    let Ok(page) = call
        .bk("frames", backend.frames(sid, thread, 1, CALLERS_READ))
        .await
    else {
        return Vec::new();
    };
    let root = call
        .engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.project.clone()));
    caller_rows(&page, root.as_deref(), rows)
}

/// The rows of [`callers`] from a page of frames starting at index 1.
pub(crate) fn caller_rows(page: &FramePage, root: Option<&str>, rows: usize) -> Vec<String> {
    // (index, text, count, gap row before it)
    let mut runs: Vec<(u32, String, u32, Option<String>)> = Vec::new();
    // What calls `main` (libc's start-up, Go's runtime.main) is no question of the program's.
    let mut at_main = false;
    for f in &page.frames {
        if at_main {
            break;
        }
        at_main = matches!(f.method_name.as_deref(), Some("main" | "main.main"));
        // A gap the backend folded (library frames in the IDE): said where it is, as the
        // indexes the agent passes to frame_index skip it.
        let gap = super::out::hidden_above(page, f.index).map(|n| {
            let why = super::out::hidden_reason(page).unwrap_or_default();
            format!("{} ({why})", super::out::hidden_row(f.index, n))
        });
        let line = super::capture::frame_line(f, root);
        match runs.last_mut() {
            Some((_, last, n, _)) if gap.is_none() && *last == line && f.line.is_some() => *n += 1,
            _ => runs.push((f.index, line, 1, gap)),
        }
    }
    let mut out = Vec::new();
    let mut below = 1;
    for (index, line, n, gap) in runs.iter().take(rows) {
        if let Some(g) = gap {
            out.push(g.clone());
        }
        out.push(if *n > 1 {
            format!("#{index} {line} ×{n}")
        } else {
            format!("#{index} {line}")
        });
        below = index + n;
    }
    // Frames read but not shown (exact up to main), and whether the stack goes on below the
    // page (a run cut by the page's end may go on too: its count is a lower bound then).
    let hidden: u32 = runs.iter().skip(rows).map(|r| r.2).sum();
    let goes_on = !at_main && page.frames.len() >= CALLERS_READ as usize;
    if hidden > 0 || goes_on {
        out.push(match page.total {
            Some(t) if !at_main && t > below => format!("… {} more (get_stack_trace)", t - below),
            _ if !goes_on => format!("… {hidden} more (get_stack_trace)"),
            _ => "… more (get_stack_trace)".into(),
        });
    }
    out
}

/// Puts the variables the source `line` names first (the local it computes, its operands),
/// the rest after in their order: what a cut list must keep.
pub fn line_first<T>(vars: &mut [T], name: impl Fn(&T) -> &str, line: &str) {
    let words: std::collections::HashSet<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    // A stable sort: named first, each group in the debugger's order.
    vars.sort_by_key(|v| !words.contains(name(v).trim_start_matches('$')));
}

/// The text of the line a frame is at (trimmed), when the file is in the session's project.
pub async fn source_line(call: &Call<'_>, sid: &str, frame: &FrameInfo) -> Option<String> {
    let (file, line) = (frame.file.as_ref()?, frame.line?);
    let root = call
        .engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.project.clone()))?;
    let canonical = call.file_in_project(&root, file).ok()?;
    let backend = call.engine.backend.clone();
    let text = call
        .bk("read_source", backend.read_source(&root, &canonical))
        .await
        .ok()?;
    let l = text.lines().nth(line.checked_sub(1)? as usize)?.trim();
    Some(if l.chars().count() > 160 {
        format!("{}…", l.chars().take(160).collect::<String>())
    } else {
        l.to_string()
    })
}

/// Top-level variables of `frame`, compact (no children), with ids.
async fn frame_snapshot(
    call: &Call<'_>,
    sid: &str,
    frame: &FrameInfo,
    line: Option<&str>,
) -> Result<FrameSnapshot, ToolError> {
    let backend = call.engine.backend.clone();
    let vars = call
        .bk(
            "frame_variables",
            backend.frame_variables(sid, &frame.handle),
        )
        .await?;
    let shown: Vec<_> = vars
        .iter()
        .filter(|v| {
            !matches!(v.scope, ValueScope::Global | ValueScope::Synthetic)
                && !values::is_runner_temporary(&v.name)
        })
        .collect();
    let total = shown.len();
    let mut shown = shown;
    if let Some(line) = line.filter(|_| total > SNAPSHOT_VARS) {
        line_first(&mut shown, |v| &v.name, line);
    }
    let cfg = &call.cfg;
    let mut items: Vec<ValueNode> = call.engine.with_state(|s| {
        let Some(slot) = s.sessions.get_mut(sid) else {
            return Vec::new();
        };
        shown
            .iter()
            .take(SNAPSHOT_VARS)
            .map(|v| values::show(cfg, &mut slot.values, v, v.name.clone()).0)
            .collect()
    });
    // (A hidden value is a string, never an address repr with a preview.)
    let candidates: Vec<&crate::backend::ValueNode> =
        shown.iter().take(SNAPSHOT_VARS).copied().collect();
    let found = super::preview::previews(call, sid, &candidates)
        .await
        .into_iter();
    for (m, p) in items.iter_mut().zip(found) {
        if let Some(p) = p {
            super::preview::put(m, p);
        }
    }
    // Mark what changed since the previous stop in the same function: the agent's question
    // after a step is usually "what did that line do?".
    let now: HashMap<String, String> = shown
        .iter()
        .map(|v| (v.name.clone(), v.value.clone()))
        .collect();
    let before = call.engine.with_state(|s| {
        s.sessions.get_mut(sid).and_then(|slot| {
            slot.last_values
                .replace((frame.method_name.clone(), now.clone()))
        })
    });
    if let Some((method, old)) = before.filter(|(m, _)| *m == frame.method_name) {
        let _ = method;
        for (m, v) in items.iter_mut().zip(shown.iter()) {
            if old.get(&v.name).is_none_or(|o| *o != v.value) {
                m.changed = true;
            }
        }
    }
    // The agent sees these values in the stop result: remember them (history across steps).
    let reads: Vec<ValueRead> = items
        .iter()
        .zip(shown.iter())
        .flat_map(|(m, v)| ValueRead::with_fields(ReadKind::Variable, &v.name, m))
        .collect();
    let at = call.engine.at(sid, None, frame.index);
    call.engine.ledger.record(sid, &at, reads);
    let cut = total > SNAPSHOT_VARS;
    Ok(FrameSnapshot {
        method: frame.method_name.clone(),
        variables: items,
        truncated: cut,
        total: cut.then_some(total as u64),
        error: None,
    })
}

pub fn watch_json(w: &Watch, max: usize) -> OutWatch {
    let mut out = OutWatch {
        id: w.id.clone(),
        expression: w.expression.clone(),
        type_name: w.type_name.clone(),
        error: w.error.clone(),
        ..Default::default()
    };
    if let Some(v) = &w.value {
        let s = values::shown(v, max, false);
        out.value = Some(s.value);
        out.truncated = s.truncated;
        out.value_length = s.value_length;
    }
    out.evaluated_at = w.at.as_ref().map(|at| EvaluatedAt {
        session_id: at.session_id.clone(),
        step: at.step,
        file: at.file.clone(),
        line: at.line,
    });
    out
}

/// Watches of the session's project, as JSON.
pub fn project_watches(call: &Call<'_>, sid: &str) -> Vec<OutWatch> {
    let max = call.cfg.max_value_length;
    call.engine.with_state(|s| {
        let project = s.sessions.get(sid).and_then(|x| x.project.clone());
        project
            .and_then(|p| s.watches.get(&p))
            .map(|ws| ws.iter().map(|w| watch_json(w, max)).collect())
            .unwrap_or_default()
    })
}

/// Evaluates (side-effect free) every watch of the session's project not yet evaluated at the
/// current pause.
pub async fn refresh_watches(call: &Call<'_>, sid: &str) {
    let _guard = call.engine.watch_lock.lock().await;
    let found = call.engine.with_state(|s| {
        let slot = s.sessions.get(sid)?;
        let pause = slot.pause.as_ref()?;
        let project = slot.project.clone()?;
        let thread = slot
            .current_thread
            .clone()
            .unwrap_or(pause.thread_id.clone());
        let seq = slot.pause_seq;
        let todo: Vec<(String, String)> = s
            .watches
            .get(&project)?
            .iter()
            .filter(|w| {
                w.at.as_ref()
                    .is_none_or(|a| a.session_id != sid || a.step != seq)
            })
            .map(|w| (w.id.clone(), w.expression.clone()))
            .collect();
        Some((project, thread, seq, todo))
    });
    let Some((project, thread, seq, todo)) = found else {
        return;
    };
    if todo.is_empty() {
        return;
    }
    let frame = call.frame(sid, &thread, 0).await;
    let mut results = Vec::new();
    for (id, expression) in todo {
        // A watch added before the guard was switched on (or its deny list grew) is checked
        // again so a re-evaluation never changes the program.
        let file = frame.as_ref().ok().and_then(|f| f.file.as_deref());
        let guarded =
            super::expression_guard::check(&expression, &call.cfg.expression_safety, file);
        let guarded = match (&frame, guarded) {
            (Ok(f), Ok(())) => {
                super::expression_guard::require_loaded(call, sid, &thread, &f.handle, &expression)
                    .await
            }
            (_, g) => g,
        };
        let r = match (&frame, guarded) {
            (_, Err(e)) => Err(e),
            (Ok(f), Ok(())) => {
                let req = EvalRequest {
                    thread_id: thread.clone(),
                    frame: f.handle.clone(),
                    expression: expression.clone(),
                    context: EvalContext::Watch,
                    allow_side_effects: false,
                    format: None,
                };
                super::scan::evaluate(
                    call,
                    sid,
                    req,
                    f.file.as_deref(),
                    super::scan::Deadline::watch(),
                )
                .await
            }
            (Err(e), Ok(())) => Err(e.clone()),
        };
        results.push((
            id,
            r.map(|mut v| {
                v.value =
                    values::visible(&call.cfg, &expression, v.type_name.as_deref(), &v.value).text;
                v
            }),
        ));
    }
    let (file, line) = frame
        .as_ref()
        .map(|f| (f.file.clone(), f.line))
        .unwrap_or((None, None));
    let at = call.engine.at(sid, Some(&thread), 0);
    let max = call.cfg.max_value_length;
    let reads: Vec<ValueRead> = results
        .iter()
        .filter_map(|(id, r)| {
            let v = r.as_ref().ok()?;
            let expr = todo_expr(&project, id, call)?;
            Some(ValueRead::new(
                ReadKind::Watch,
                expr,
                v.value.chars().take(max).collect::<String>(),
                v.type_name.clone(),
            ))
        })
        .collect();
    let stored = call.engine.with_state(|s| {
        // Only store if nothing moved on meanwhile.
        if s.sessions.get(sid).map(|x| x.pause_seq) != Some(seq) {
            return false;
        }
        let Some(ws) = s.watches.get_mut(&project) else {
            return false;
        };
        for (id, r) in results {
            if let Some(w) = ws.iter_mut().find(|w| w.id == id) {
                w.at = Some(EvalPoint {
                    session_id: sid.to_string(),
                    step: seq,
                    file: file.clone(),
                    line,
                });
                match r {
                    Ok(v) => {
                        w.value_length = Some(v.value.chars().count());
                        w.value = Some(v.value);
                        w.type_name = v.type_name;
                        w.error = None;
                    }
                    Err(e) => {
                        w.value = None;
                        w.type_name = None;
                        w.error = Some(e.0);
                    }
                }
            }
        }
        true
    });
    if stored && at.step == seq {
        call.engine.ledger.record(sid, &at, reads);
    }
}

/// The expression of watch `id` of `project`.
fn todo_expr(project: &str, id: &str, call: &Call<'_>) -> Option<String> {
    call.engine.with_state(|s| {
        s.watches
            .get(project)?
            .iter()
            .find(|w| w.id == id)
            .map(|w| w.expression.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(index: u32, method: &str, line: u32) -> FrameInfo {
        FrameInfo {
            index,
            handle: index.to_string(),
            file: Some("/p/calls.py".into()),
            line: Some(line),
            method_name: Some(method.into()),
            ..Default::default()
        }
    }

    #[test]
    fn a_stops_callers_fold_a_recursion_and_say_what_is_left() {
        // fact(7) stopped in fact(4): frames 1-3 are fact at line 17, then main, then <module>.
        let mut frames: Vec<FrameInfo> = (1..=3).map(|i| frame(i, "fact", 17)).collect();
        frames.push(frame(4, "main", 40));
        frames.push(frame(5, "<module>", 52));
        let page = FramePage {
            frames,
            total: Some(6),
            hidden: None,
        };
        // What calls main is left out, and not counted as more.
        assert_eq!(
            caller_rows(&page, Some("/p"), 3),
            ["#1 fact calls.py:17 ×3", "#4 main calls.py:40"]
        );
        assert_eq!(
            caller_rows(&page, Some("/p"), 1),
            ["#1 fact calls.py:17 ×3", "… 1 more (get_stack_trace)"]
        );
    }

    #[test]
    fn a_page_read_to_its_limit_says_more_frames_may_follow() {
        let frames: Vec<FrameInfo> = (1..=CALLERS_READ).map(|i| frame(i, "deep", 26)).collect();
        let page = FramePage {
            frames,
            total: None,
            hidden: None,
        };
        assert_eq!(
            caller_rows(&page, Some("/p"), 3),
            ["#1 deep calls.py:26 ×24", "… more (get_stack_trace)"]
        );
    }
}
