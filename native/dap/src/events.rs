//! DAP events → session state and [`BackendEvent`]s. One task per session reads its event
//! channel in order (`spawn_pump`), so a stop is never reported before the resume before it.

use crate::protocol::{
    self, Event, ExceptionInfoResponse, OutputEvent, StackTraceArguments, StoppedEvent,
    ThreadArguments,
};
use crate::session::{DISCONNECT_TIMEOUT, Inner, Session};
use debugger_mcp_core::backend::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long an adapter may still deliver output after `terminated` before it is disconnected.
const TERMINATED_GRACE: Duration = Duration::from_millis(1500);
/// How long a session's end waits for an exit status reported after the disconnect.
const LATE_EXIT_STATUS_WAIT: Duration = Duration::from_secs(1);
/// Frames searched for the project frame a signal in library code came from.
const SIGNAL_FRAMES: u32 = 30;

/// Reads session `s`'s events until its adapter is gone.
pub fn spawn_pump(inner: &Arc<Inner>, s: Arc<Session>, mut rx: mpsc::UnboundedReceiver<Event>) {
    let inner = inner.clone();
    tokio::spawn(async move {
        while let Some(ev) = rx.recv().await {
            let closed = matches!(ev, Event::Closed);
            on_event(&inner, &s, ev).await;
            if closed {
                break;
            }
        }
    });
}

/// Translates one event of session `s`.
async fn on_event(inner: &Arc<Inner>, s: &Arc<Session>, ev: Event) {
    match ev {
        Event::Initialized => {
            s.initialized.store(true, Ordering::SeqCst);
            s.initialized_notify.notify_waiters();
        }
        Event::Process(p) => {
            if let Some(pid) = p.system_process_id {
                *s.process_id.lock().unwrap() = Some(pid as u32);
            }
            s.process_seen.notify_waiters();
        }
        Event::CallStarted => {
            s.calls_in_flight.fetch_add(1, Ordering::SeqCst);
        }
        Event::CallEnded => {
            let _ = s
                .calls_in_flight
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        }
        // An expression's function call (gdb: "continued", then "stopped" with reason
        // "function call"): the program ran only inside the expression and is back where it
        // was paused. Neither is a resume or a new pause, so the frames and values read before
        // stay valid (gdb keeps its references across a call, too).
        Event::Continued if s.calls_in_flight.load(Ordering::SeqCst) > 0 => {}
        Event::Stopped(stop)
            if stop.reason == "function call"
                && *s.state.lock().unwrap() == SessionState::Paused => {}
        // A stop reported while or after the session ends (delve halts the process to detach
        // from it) is no pause of the program anyone can act on.
        Event::Stopped(_) if s.is_ended() => {}
        Event::Stopped(stop) => on_stopped(inner, s, stop).await,
        Event::Continued | Event::Resumed => {
            let mut st = s.state.lock().unwrap();
            if *st != SessionState::Running && *st != SessionState::Stopped {
                *st = SessionState::Running;
                drop(st);
                s.clear_values();
                inner.emit(BackendEvent::Resumed {
                    session_id: s.id.clone(),
                });
            }
        }
        Event::Exited(e) => {
            *s.exit_code.lock().unwrap() = e.exit_code.map(|c| s.adapter.exit_code(c))
        }
        Event::Terminated => on_terminated(inner, s),
        Event::Closed => {
            // An adapter that exits after the debuggee did (delve, once disconnected) ended
            // because the program did.
            let why = if s.terminated.load(Ordering::SeqCst) {
                "the debuggee terminated".into()
            } else {
                s.client
                    .exit_info()
                    .map(|e| e.describe())
                    .unwrap_or_else(|| "adapter exited".into())
            };
            inner.mark_ended(s, why);
        }
        Event::Output(o) => on_output(inner, s, o),
        Event::Breakpoint(b) => {
            let Some(bp) = b.breakpoint else { return };
            let Some(dap_id) = bp.id else { return };
            if b.reason == "removed" {
                return;
            }
            let ours = s.bp_ids.lock().unwrap().get(&dap_id).cloned();
            if let Some(id) = ours {
                let function = inner
                    .breakpoint(&id)
                    .is_ok_and(|b| b.kind == BreakpointKind::Function);
                if function {
                    inner.apply_function_bp(s, &id, &bp);
                } else {
                    inner.apply_dap_bp(&id, &bp);
                }
            }
        }
        Event::Capabilities(c) => s.caps.lock().unwrap().merge(c.capabilities),
        Event::Other(_) => {}
    }
}

fn map_reason(reason: &str) -> PauseReason {
    match reason {
        "breakpoint" | "function breakpoint" | "data breakpoint" | "instruction breakpoint" => {
            PauseReason::Breakpoint
        }
        "step" => PauseReason::Step,
        "pause" => PauseReason::Pause,
        "exception" => PauseReason::Exception,
        "entry" => PauseReason::Entry,
        "goto" => PauseReason::Goto,
        "signal" => PauseReason::Signal,
        _ => PauseReason::Other,
    }
}

/// The launch's stop at the adapter's warm-up function (see `Adapter::warm_up_function`), the
/// program's first: no pause of the program. Its breakpoint goes, the program runs on, and the
/// start that waits for it answers. Any other stop ends the wait too and is reported as usual.
async fn passed_warm_up(inner: &Arc<Inner>, s: &Arc<Session>, stop: &StoppedEvent) -> bool {
    s.warm_up_pending.store(false, Ordering::SeqCst);
    let ours = !stop.hit_breakpoint_ids.is_empty() && {
        let temp = s.temp_ids.lock().unwrap();
        stop.hit_breakpoint_ids.iter().all(|h| temp.contains(h))
    };
    if ours {
        s.temp_ids.lock().unwrap().clear();
        // The function breakpoint list without it (DAP replaces the list whole).
        if let Err(e) = inner.sync_functions(s, None).await {
            tracing::warn!("removing the warm-up breakpoint failed: {e}");
        }
        let thread_id = stop.thread_id.unwrap_or(1);
        if let Err(e) = s
            .req::<crate::protocol::Continue>(&ThreadArguments { thread_id })
            .await
        {
            tracing::warn!("resuming after the warm-up stop failed: {e}");
        }
    }
    s.warm_up_done.notify_waiters();
    ours
}

async fn on_stopped(inner: &Arc<Inner>, s: &Arc<Session>, stop: StoppedEvent) {
    // The program's stderr up to the stop comes before it (an abort's text is quoted by it).
    #[cfg(unix)]
    crate::program_stderr::drain(inner, s);
    if s.warm_up_pending.load(Ordering::SeqCst) && passed_warm_up(inner, s, &stop).await {
        return;
    }
    let thread = match stop.thread_id {
        Some(t) => Some(t),
        // A pause that names no thread (delve's, of a program waiting in the runtime): the
        // stop is the first listed thread's, which every later request can name.
        None => s
            .req::<crate::protocol::Threads>(&())
            .await
            .ok()
            .and_then(|r| r.threads.iter().find_map(|t| t.id)),
    };
    if let Some(t) = thread {
        *s.last_thread.lock().unwrap() = Some(t);
    }
    if crate::after_throw::on_stop(inner, s, &stop).await {
        return;
    }
    let mut reason = map_reason(&stop.reason);
    if matches!(
        reason,
        PauseReason::Other | PauseReason::Entry | PauseReason::Signal
    ) && s.attach_stop_pending.swap(false, Ordering::SeqCst)
    {
        // The stop that attaching makes (see `Adapter::attach_stop`): not a pause of the
        // program, which runs on as it did before the attach.
        if s.adapter.attach_stop() == crate::adapters::AttachStop::Left {
            let thread_id = thread.unwrap_or(1);
            if let Err(e) = s
                .req::<crate::protocol::Continue>(&crate::protocol::ThreadArguments { thread_id })
                .await
            {
                tracing::warn!("resuming after the attach failed: {e}");
            }
        }
        return;
    }
    if reason != PauseReason::Step {
        // A step out that a breakpoint interrupted returned nothing yet.
        s.stepped_out.store(false, Ordering::SeqCst);
    }
    let stop_text = stop.text.as_deref().or(stop.description.as_deref());
    if s.adapter.is_signal_stop(&stop.reason, stop_text) {
        reason = PauseReason::Signal;
    }
    let at_exception_bp =
        reason == PauseReason::Breakpoint && !stop.hit_breakpoint_ids.is_empty() && {
            let ex = s.exception_bp_ids.lock().unwrap();
            stop.hit_breakpoint_ids.iter().all(|h| ex.contains(h))
        };
    if at_exception_bp {
        // gdb's exception filters are catchpoints: a throw stops "at a breakpoint".
        reason = PauseReason::Exception;
    }
    let mut ids: Vec<String> = {
        let map = s.bp_ids.lock().unwrap();
        stop.hit_breakpoint_ids
            .iter()
            .filter_map(|h| map.get(h).cloned())
            .collect()
    };
    // lldb-dap 19 reports a watchpoint stop as "breakpoint" naming no breakpoint: with one
    // watchpoint in the session, an unnamed breakpoint stop is that one's.
    if ids.is_empty()
        && stop.hit_breakpoint_ids.is_empty()
        && matches!(stop.reason.as_str(), "breakpoint" | "data breakpoint")
    {
        let data = s.data_bps.lock().unwrap();
        if data.len() == 1 {
            ids.push(data[0].0.clone());
        }
    }
    let failed = failed_conditions(inner, s, reason, &mut ids).await;
    if pass_failed_conditions(inner, s, &stop, &ids, &failed, thread).await {
        return;
    }
    let failed = said_failed(inner, s, &failed);
    // A step that broke on a raise (see `step_raises`): at the raise, the step's exception; at
    // the handler's recover(), on out into the handler.
    let mut raised = None;
    if let Some(f) = inner.step_function_hit(s, &stop.hit_breakpoint_ids).await
        && let Some(t) = thread
    {
        if Some(f) == s.adapter.recover_function() {
            if crate::step_raises::out_into_handler(s, t).await {
                return;
            }
        } else if let Some((_, param)) = s.adapter.raise_function() {
            reason = PauseReason::Exception;
            s.step_exceptions.store(true, Ordering::SeqCst);
            raised = Some(crate::step_raises::raised(s, t, param).await);
        }
    }
    let fatal = s
        .adapter
        .is_fatal_stop(&stop.reason, stop.description.as_deref());
    s.fatal_stop.store(fatal, Ordering::SeqCst);
    let hit_temp = stop
        .hit_breakpoint_ids
        .iter()
        .any(|h| s.temp_ids.lock().unwrap().contains(h));
    let first = !s.first_stop_seen.swap(true, Ordering::SeqCst);
    // A stop on entry is reported as a breakpoint (gdb's stopAtBeginningOfMainSubprogram, the
    // entry-function breakpoint of the others).
    let entry = first && s.stop_on_entry && ids.is_empty() && reason == PauseReason::Breakpoint;
    if entry {
        reason = PauseReason::Entry;
        if s.adapter.entry_function().is_some() {
            // The entry breakpoint has served: the list again without it (DAP replaces it
            // whole; an empty list dropped the user's function breakpoints on library code).
            s.temp_ids.lock().unwrap().clear();
            if let Err(e) = inner.sync_functions(s, None).await {
                tracing::warn!("removing the entry breakpoint failed: {e}");
            }
        }
    }
    let mut description = stop.text.or(stop.description);
    if at_exception_bp && description.is_none() {
        description = Some("exception thrown".into());
    }
    if hit_temp && ids.is_empty() && !entry {
        description = Some("reached the run-to location".into());
    }
    if let Some(f) = failed {
        description = Some(f);
    }
    if raised.is_some() {
        description = raised;
    } else if reason == PauseReason::Exception
        && s.cap(|c| c.supports_exception_info_request)
        && let Some(t) = thread
        && let Ok(ExceptionInfoResponse {
            exception_id,
            description: d,
        }) = s
            .req::<protocol::ExceptionInfo>(&ThreadArguments { thread_id: t })
            .await
    {
        let d = d.unwrap_or_default();
        description = Some(if d.is_empty() {
            exception_id
        } else {
            format!("{exception_id}: {d}")
        });
    }
    if reason == PauseReason::Exception
        && let Some(d) = description.as_mut()
        && let Some(origin) = project_origin(inner, s, thread).await
    {
        // A C++ throw stops inside the runtime (__cxa_throw): say where the program threw.
        d.push_str(&origin);
    }
    let after_exception = s.step_exception.lock().unwrap().take();
    if reason == PauseReason::Exception
        && s.step_exceptions.load(Ordering::SeqCst)
        && let Some(d) = description.take()
    {
        *s.step_exception.lock().unwrap() = Some(d.clone());
        description = Some(step_raised(&d, None));
    } else if let Some(e) = after_exception
        && reason == PauseReason::Step
    {
        description = Some(exception_went(&e));
    }
    if fatal && let Some(d) = description.as_mut() {
        d.push_str("; nothing recovered it: the program ends at the next step or resume");
    }
    if reason == PauseReason::Signal {
        let text = signal_description(inner, s, thread, description.take()).await;
        *s.fatal_signal.lock().unwrap() = fatal_signal(&text);
        description = Some(with_abort_text(s, text));
    } else {
        *s.fatal_signal.lock().unwrap() = None;
    }
    if let Some(passed) = passed_on_the_way(s) {
        description = Some(match description {
            Some(d) => format!("{d}; {passed}"),
            None => passed,
        });
    }
    inner.after_stop(s, &ids).await;
    s.clear_values();
    // The session may have ended while this stop was being read (another client stopped it,
    // a detach): an end is final, and its end was reported already.
    if !s.set_state(SessionState::Paused) {
        return;
    }
    inner.emit(BackendEvent::Paused {
        session_id: s.id.clone(),
        thread_id: thread.map(|t| t.to_string()).unwrap_or_default(),
        reason,
        breakpoint_ids: ids,
        description,
    });
}

/// A hit breakpoint whose condition failed to evaluate at this stop.
pub struct Failed {
    id: String,
    condition: String,
    error: String,
}

/// Stops at breakpoints whose condition failed to evaluate that were passed (the program
/// resumed at once), in one session.
#[derive(Default)]
pub struct Passes {
    /// Per breakpoint: how many of its stops were passed in this session.
    total: std::collections::HashMap<String, u32>,
    /// Passed since the last reported stop, per breakpoint: its condition, the error, how many.
    pending: std::collections::BTreeMap<String, (String, String, u32)>,
    /// Stops passed since the last reported one.
    in_a_row: u32,
}

/// Stops at failing conditions passed in a row before one is reported: a condition that fails
/// at every hit of a hot loop would otherwise crawl through the run, a stop and an evaluation
/// per hit, with the agent's wait running out and no word why.
const PASSES_IN_A_ROW: u32 = 20;

/// At a breakpoint stop of an adapter that stops where a condition fails to evaluate
/// ([`Adapter::condition_check`](crate::adapters::Adapter::condition_check)): the hit
/// breakpoints whose condition fails now are no hit (taken out of `ids`, not counted).
async fn failed_conditions(
    inner: &Inner,
    s: &Session,
    reason: PauseReason,
    ids: &mut Vec<String>,
) -> Vec<Failed> {
    if reason != PauseReason::Breakpoint {
        return vec![];
    }
    let conditions: Vec<(String, String, String)> = {
        let store = inner.bps.lock().unwrap();
        ids.iter()
            .filter_map(|id| {
                let b = store.list.iter().find(|b| &b.id == id)?;
                let c = b
                    .condition
                    .as_deref()
                    .map(str::trim)
                    .filter(|c| !c.is_empty())?;
                let file = b.file.as_deref().unwrap_or_default();
                Some((
                    id.clone(),
                    c.to_string(),
                    s.adapter.condition(file, c.to_string()),
                ))
            })
            .collect()
    };
    let mut failed = Vec::new();
    for (id, condition, sent) in conditions {
        let Some(command) = s.adapter.condition_check(&sent) else {
            continue;
        };
        let Err(e) = s.repl(&command, None).await else {
            continue;
        };
        ids.retain(|i| i != &id);
        failed.push(Failed {
            id,
            condition,
            error: e.to_string().trim().to_string(),
        });
    }
    failed
}

/// Resumes the program at once when this stop is only at breakpoints whose condition failed
/// (not a step's end, a run-to target, the entry or a catchpoint, and fewer than
/// [`PASSES_IN_A_ROW`] such stops since the last reported one): the debugger did not know
/// whether they hold, so it is no stop the agent asked for. Counted on each breakpoint and
/// said at the next reported stop ([`passed_on_the_way`]) or on the breakpoint at the end.
async fn pass_failed_conditions(
    inner: &Inner,
    s: &Session,
    stop: &StoppedEvent,
    ids: &[String],
    failed: &[Failed],
    thread: Option<i64>,
) -> bool {
    let Some(thread_id) = thread else {
        return false;
    };
    if failed.is_empty() || !ids.is_empty() || s.stepping.load(Ordering::SeqCst) {
        return false;
    }
    let only_failed = {
        let map = s.bp_ids.lock().unwrap();
        stop.hit_breakpoint_ids.iter().all(|h| {
            map.get(h)
                .is_some_and(|id| failed.iter().any(|f| &f.id == id))
        })
    };
    if !only_failed {
        return false;
    }
    let totals: Vec<u32> = {
        let mut p = s.passes.lock().unwrap();
        if p.in_a_row >= PASSES_IN_A_ROW {
            return false;
        }
        p.in_a_row += 1;
        failed
            .iter()
            .map(|f| {
                let pending = p
                    .pending
                    .entry(f.id.clone())
                    .or_insert_with(|| (f.condition.clone(), f.error.clone(), 0));
                pending.2 += 1;
                let total = p.total.entry(f.id.clone()).or_insert(0);
                *total += 1;
                *total
            })
            .collect()
    };
    for (f, total) in failed.iter().zip(totals) {
        inner.update_bp(&f.id, |b| b.message = Some(passed_message(s, f, total)));
    }
    if let Err(e) = s
        .req::<protocol::Continue>(&ThreadArguments { thread_id })
        .await
    {
        tracing::warn!("resuming past a failed condition failed: {e}");
        return false;
    }
    true
}

/// "once", "3 times".
fn times(n: u32) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{n} times")
    }
}

/// A breakpoint's message once stops at it were passed `total` times in this session.
fn passed_message(s: &Session, f: &Failed, total: u32) -> String {
    format!(
        "its condition `{}` {CONDITION_FAILS} ({}): {} stopped at it {} without knowing whether it holds, each passed and not counted as a hit; fix the condition (update_breakpoint)",
        f.condition,
        f.error,
        s.adapter.name(),
        times(total)
    )
}

/// The description of a stop at breakpoints whose condition failed and that is reported (a
/// step's end, or [`PASSES_IN_A_ROW`] reached), and their messages.
fn said_failed(inner: &Inner, s: &Session, failed: &[Failed]) -> Option<String> {
    if failed.is_empty() {
        return None;
    }
    let mut said = Vec::new();
    for f in failed {
        let (passed, total) = {
            let mut p = s.passes.lock().unwrap();
            let passed = p.pending.remove(&f.id).map(|x| x.2).unwrap_or(0);
            (passed, p.total.get(&f.id).copied().unwrap_or(0))
        };
        inner.update_bp(&f.id, |b| {
            b.message = Some(if total > 0 {
                passed_message(s, f, total)
            } else {
                format!(
                    "its condition `{}` {CONDITION_FAILS} ({}); {} stops at it without knowing whether it holds: fix the condition (update_breakpoint)",
                    f.condition,
                    f.error,
                    s.adapter.name()
                )
            })
        });
        said.push(if passed > 0 {
            format!(
                "breakpoint {}'s condition `{}` {CONDITION_FAILS} ({}) at {} hits in a row: {} stops at each without knowing whether it holds; {} were passed, this one is kept so that the run does not crawl through them all; fix the condition (update_breakpoint) or remove the breakpoint",
                f.id,
                f.condition,
                f.error,
                passed + 1,
                s.adapter.name(),
                passed
            )
        } else {
            format!(
                "breakpoint {}'s condition `{}` {CONDITION_FAILS} ({}): {} stopped here without knowing whether it holds, so this is not a hit where it is true; fix the condition (update_breakpoint)",
                f.id,
                f.condition,
                f.error,
                s.adapter.name()
            )
        });
    }
    Some(said.join("; "))
}

/// At a reported stop: what was passed since the last one ("on the way, breakpoint 3's
/// condition … failed 3 times …"), and the count in a row starts again.
fn passed_on_the_way(s: &Session) -> Option<String> {
    let pending = {
        let mut p = s.passes.lock().unwrap();
        p.in_a_row = 0;
        std::mem::take(&mut p.pending)
    };
    let said: Vec<String> = pending
        .into_iter()
        .map(|(id, (condition, error, n))| {
            format!(
                "on the way, breakpoint {id}'s condition `{condition}` {CONDITION_FAILS} ({error}): {} stopped there {} without knowing whether it holds, each passed and not counted as a hit; fix the condition (update_breakpoint)",
                s.adapter.name(),
                times(n)
            )
        })
        .collect();
    (!said.is_empty()).then(|| said.join("; "))
}

/// Names the signal of a `signal` stop (as the adapter can tell). When the signal arrived in
/// library code (abort() inside libc), the description also names the first frame in the
/// project, where the program went wrong.
async fn signal_description(
    inner: &Inner,
    s: &Session,
    thread: Option<i64>,
    said: Option<String>,
) -> String {
    let mut text = match said {
        Some(t) => t,
        None => s
            .adapter
            .signal_name(s)
            .await
            .unwrap_or_else(|| "signal (the debugger did not say which)".into()),
    };
    if let Some(origin) = project_origin(inner, s, thread).await {
        text.push_str(&origin);
    }
    text
}

/// ", raised from prog.c:9 in copy_name" when a stop is in code outside the project (abort()
/// inside libc, __cxa_throw in libstdc++): the first project frame, where the program went
/// wrong.
async fn project_origin(inner: &Inner, s: &Session, thread: Option<i64>) -> Option<String> {
    let t = thread?;
    let args = StackTraceArguments {
        thread_id: t,
        start_frame: 0,
        levels: SIGNAL_FRAMES,
    };
    let body = s.req::<protocol::StackTrace>(&args).await.ok()?;
    let frames = body.stack_frames;
    let in_project = |f: &protocol::StackFrame| inner.in_project(&s.local_path(f.path()?));
    if frames.first().is_some_and(|f| in_project(f).is_none())
        && let Some((f, path)) = frames.iter().find_map(|f| in_project(f).map(|p| (f, p)))
    {
        let rel = path
            .strip_prefix(&inner.root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let line = f.line.unwrap_or(0);
        let name = if f.name.is_empty() { "?" } else { &f.name };
        return Some(format!(", raised from {rel}:{line} in {name}"));
    }
    None
}

/// The number of the signal `text` names ("signal SIGSEGV (…)") when that signal ends a
/// program that does not handle it; none for the debugger's own (SIGTRAP, SIGINT).
fn fatal_signal(text: &str) -> Option<i64> {
    let name = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| w.starts_with("SIG"))?;
    if matches!(name, "SIGTRAP" | "SIGINT" | "SIGSTOP" | "SIGCHLD") {
        return None;
    }
    debugger_mcp_core::engine::signals::number(name)
}

/// Lines of program output that explain an abort: glibc's and the C++ runtime's last words.
const ABORT_MARKS: &[&str] = &[
    "***",
    "assert",
    "terminate called",
    "what():",
    "Sanitizer",
    "runtime error",
    "panic",
];

/// A SIGABRT stop's description with the abort's own text, when the program printed one just
/// before (`*** stack smashing detected ***: terminated`, `prog: f.c:9: check: Assertion
/// '…' failed.`): the reason for the abort without reading the console.
fn with_abort_text(s: &Session, mut text: String) -> String {
    if !text.contains("SIGABRT") {
        return text;
    }
    let tail = s.output_tail.lock().unwrap().clone();
    if let Some(said) = abort_text(&tail) {
        text.push_str(&format!("; the program printed: {said}"));
    }
    text
}

/// The last (at most two) lines among the last few of `output` that explain an abort.
fn abort_text(output: &str) -> Option<String> {
    let lines: Vec<&str> = output
        .lines()
        .rev()
        .take(8)
        .filter(|l| {
            let lower = l.to_ascii_lowercase();
            ABORT_MARKS
                .iter()
                .any(|m| lower.contains(&m.to_ascii_lowercase()))
        })
        .take(2)
        .collect();
    let said: Vec<&str> = lines.into_iter().rev().map(str::trim).collect();
    (!said.is_empty()).then(|| said.join(" / "))
}

/// The program's output kept for [`with_abort_text`]: the last few KB.
const OUTPUT_TAIL: usize = 2048;

fn on_terminated(inner: &Arc<Inner>, s: &Arc<Session>) {
    #[cfg(unix)]
    crate::program_stderr::drain(inner, s);
    s.terminated.store(true, Ordering::SeqCst);
    if s.adapter.exit_status_after_disconnect() {
        // The exit status comes as output once disconnected (delve): the end is reported once
        // that is known (bounded), so Stopped carries the exit code. The program is gone and
        // its output already in the adapter's stdout pipe, which is read to its end before
        // the connection counts as closed: no grace needed.
        let (inner, s) = (inner.clone(), s.clone());
        tokio::spawn(async move {
            let seen = s.exit_seen.notified();
            tokio::pin!(seen);
            seen.as_mut().enable();
            let args = protocol::DisconnectArguments {
                terminate_debuggee: true,
                restart: None,
            };
            let _ = s
                .client
                .request::<protocol::Disconnect>(&args, DISCONNECT_TIMEOUT)
                .await;
            if s.exit_code.lock().unwrap().is_none() {
                let _ = tokio::time::timeout(LATE_EXIT_STATUS_WAIT, seen).await;
            }
            inner.mark_ended(&s, "the debuggee terminated".into());
            s.shutdown().await
        });
        return;
    }
    inner.mark_ended(s, "the debuggee terminated".into());
    let s = s.clone();
    tokio::spawn(async move {
        // gdb forwards the inferior's output from a thread of its own, which can lag behind
        // `terminated`; disconnecting at once would lose the program's last lines. The
        // debuggee is gone already, so a grace period costs nothing.
        tokio::time::sleep(TERMINATED_GRACE).await;
        s.shutdown().await
    });
}

pub(crate) fn on_output(inner: &Inner, s: &Session, o: OutputEvent) {
    let category = match o.category.as_deref().unwrap_or("console") {
        "stdout" => OutputCategory::Stdout,
        "stderr" => OutputCategory::Stderr,
        "telemetry" => return,
        _ => OutputCategory::Console,
    };
    let text = o.output;
    if let Some(code) = s.adapter.exit_status(category, &text) {
        *s.exit_code.lock().unwrap() = Some(code);
        s.exit_seen.notify_waiters();
    }
    if let Some(condition) = s.adapter.failed_condition(category, &text) {
        inner.condition_failed(condition);
    }
    if s.adapter.is_chatter(category, &text) {
        return;
    }
    let debugger = if let Some(more) = s.adapter.debugger_says(category, &text) {
        s.debugger_lines.store(more, Ordering::SeqCst);
        true
    } else {
        category == OutputCategory::Stdout
            && s.debugger_lines
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok()
    };
    if debugger {
        inner.emit(BackendEvent::Output {
            session_id: s.id.clone(),
            category: OutputCategory::Console,
            text,
        });
        return;
    }
    if matches!(category, OutputCategory::Stdout | OutputCategory::Stderr) {
        let mut tail = s.output_tail.lock().unwrap();
        tail.push_str(&text);
        if tail.len() > OUTPUT_TAIL {
            let mut cut = tail.len() - OUTPUT_TAIL;
            while !tail.is_char_boundary(cut) {
                cut += 1;
            }
            tail.drain(..cut);
        }
    }
    // Log-point output carries the breakpoint's source location (debugpy does), or an empty
    // `source` (program output has none); some adapters send it as plain console output.
    let at_path = o
        .source
        .as_ref()
        .and_then(|src| src.path.as_deref())
        .map(|p| s.local_path(p));
    let at = at_path.as_deref().zip(o.line);
    let is_log = at.is_some_and(|(f, l)| inner.is_log_point_at(f, l))
        || (o.source.as_ref().is_some_and(|src| src.is_empty()) && inner.has_log_points())
        || (s.adapter.log_points_on_console()
            && category == OutputCategory::Console
            && inner.has_log_points());
    let category = if is_log {
        OutputCategory::Tracepoint
    } else {
        category
    };
    inner.emit(BackendEvent::Output {
        session_id: s.id.clone(),
        category,
        text,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fatal_signals_are_recognised_and_the_debuggers_own_are_not() {
        assert_eq!(
            fatal_signal("signal SIGSEGV (Segmentation fault)"),
            Some(11)
        );
        assert_eq!(
            fatal_signal("signal SIGABRT, raised from a.c:3 in f"),
            Some(6)
        );
        assert_eq!(fatal_signal("signal SIGTRAP"), None);
        assert_eq!(
            fatal_signal("signal (the debugger did not say which)"),
            None
        );
    }

    #[test]
    fn abort_text_is_the_runtime_s_last_words() {
        let out = "checking hello\nprog: a.c:11: check: Assertion `x' failed.\n";
        assert_eq!(
            abort_text(out).as_deref(),
            Some("prog: a.c:11: check: Assertion `x' failed.")
        );
        let cxx = "start\nterminate called after throwing an instance of 'std::runtime_error'\n  what():  boom\n";
        assert_eq!(
            abort_text(cxx).as_deref(),
            Some(
                "terminate called after throwing an instance of 'std::runtime_error' / what():  boom"
            )
        );
        assert_eq!(abort_text("just output\n"), None);
    }
}
