//! Recorded calls (`set_breakpoint {function, on_hit: "record"}`): each call of the function
//! records its arguments, caller and thread at entry, then its result after a step out, and the
//! program runs on at once. The agent sees no stop: the engine routes these pauses here instead
//! of showing them ([`route`]), and `get_call_records` reads the rows.
//!
//! Built on the `Backend` trait only (frames, frame_variables, control), like `capture`, so it
//! works on every backend. The result is what the debugger shows after the step out: debugpy's
//! `(return) f` (launched with `showReturnValue`), gdb's `(return)` (its "Return" scope), lldb's
//! return value, delve's (read by the backend from the result registers, as delve's DAP shows
//! none). A recursive call arriving during a step out is recorded too and
//! finished first (a stack of pending calls per session).

use super::Engine;
use super::context::{Call, CallContext};
use super::state::EngineState;
use super::values;
use crate::backend::{BreakpointUpdate, ControlOp, FrameInfo, PauseReason, ValueScope};
use std::collections::{HashMap, VecDeque};

/// Calls kept (all functions, all sessions); older ones are dropped first.
pub const KEEP: usize = 5_000;
/// Frames searched for the project frame that raised, when a raise stops in library code.
const RAISE_FRAMES: u32 = 8;
/// Arguments shown per call, and characters per argument or result.
const ARGS: usize = 8;
const CHARS: usize = 60;

/// How a function breakpoint records (kept in its `BpMeta`).
#[derive(Debug, Clone, Default)]
pub struct Recording {
    pub function: String,
    pub max_calls: u32,
    pub recorded: u32,
    /// Each call returns this at once (gdb's `return`), instead of running.
    pub force_return: Option<String>,
}

/// One call.
#[derive(Debug, Clone)]
pub struct CallRecord {
    /// 1-based per function.
    pub n: u32,
    pub session: String,
    pub function: String,
    pub args: Vec<(String, String)>,
    pub caller: String,
    pub thread: String,
    pub result: Option<String>,
    /// Set when the call did not return normally (an exception) or was left unfinished.
    pub outcome: Option<String>,
    pub done: bool,
    pub started_ms: u64,
    pub ms: Option<u64>,
}

impl CallRecord {
    /// `#3 fact(n=5) -> 120 @app.py:12` (one row of get_call_records).
    pub fn row(&self) -> String {
        let args: Vec<String> = self.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let result = match (&self.result, &self.outcome, self.done) {
            (Some(r), _, _) => r.clone(),
            (None, Some(o), _) => o.clone(),
            (None, None, true) => "(no value)".into(),
            (None, None, false) => "(running)".into(),
        };
        format!(
            "#{} {}({}) -> {result} @{}{}",
            self.n,
            self.function,
            args.join(", "),
            self.caller,
            if self.thread.is_empty() || self.thread == "1" {
                String::new()
            } else {
                format!(" t{}", self.thread)
            }
        )
    }
}

/// `get_call_records {where}`: comparisons on a call's arguments and result (`result < 0`,
/// `n == 3`, `args.x > 2`, joined by `and`), or else text the row contains (`-> None`), so the
/// agent need not guess how a row is printed to ask which call returned a negative value.
#[derive(Debug, PartialEq)]
pub enum Where {
    Text(String),
    All(Vec<(String, &'static str, String)>),
}

impl Where {
    pub fn parse(text: &str) -> Where {
        let mut all = Vec::new();
        for part in text.split(" and ").flat_map(|p| p.split("&&")) {
            let Some((name, op, value)) =
                ["==", "!=", "<=", ">=", "<", ">"].iter().find_map(|op| {
                    let (l, r) = part.split_once(op)?;
                    Some((l.trim(), *op, r.trim()))
                })
            else {
                return Where::Text(text.to_string());
            };
            let name = name.strip_prefix("args.").unwrap_or(name);
            let word =
                |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
            if !word(name) || value.is_empty() {
                return Where::Text(text.to_string());
            }
            all.push((name.to_string(), op, value.to_string()));
        }
        Where::All(all)
    }

    pub fn matches(&self, r: &CallRecord) -> bool {
        match self {
            Where::Text(t) => r.row().contains(t.as_str()),
            Where::All(all) => all.iter().all(|(name, op, want)| {
                let got = if name == "result" {
                    r.result.as_deref()
                } else {
                    r.args
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.as_str())
                };
                got.is_some_and(|got| compare(got, op, want))
            }),
        }
    }
}

/// A shown value as a number: `-3`, `2.5`, gdb's `97 'a'`, `5 (forced)`.
fn number(v: &str) -> Option<f64> {
    let v = v.trim();
    let first = v.split(' ').next().unwrap_or(v);
    first.parse().ok().or_else(|| {
        let hex = first.strip_prefix("0x")?;
        i64::from_str_radix(hex, 16).ok().map(|n| n as f64)
    })
}

fn compare(got: &str, op: &str, want: &str) -> bool {
    use std::cmp::Ordering::*;
    let unquote = |s: &str| {
        let s = s.trim();
        let q = s.starts_with(['\'', '"']) && s.len() >= 2 && s.ends_with(&s[..1]);
        if q {
            s[1..s.len() - 1].to_string()
        } else {
            s.to_string()
        }
    };
    let order = match (number(got), number(want)) {
        (Some(a), Some(b)) => a.partial_cmp(&b),
        _ => Some(unquote(got).cmp(&unquote(want))),
    };
    match (op, order) {
        ("==", Some(o)) => o == Equal,
        ("!=", o) => o != Some(Equal),
        ("<", Some(o)) => o == Less,
        ("<=", Some(o)) => o != Greater,
        (">", Some(o)) => o == Greater,
        (">=", Some(o)) => o != Less,
        _ => false,
    }
}

/// Recording state of one session: calls entered and not yet returned, innermost last.
#[derive(Debug, Default)]
pub struct Active {
    pending: Vec<usize>,
    /// What the innermost pending call raised, once a step out stopped at the raise.
    raised: Option<String>,
    /// The thread being stepped out of a recorded call.
    stepping: Option<String>,
    /// The agent's step in flight when a recorded call is entered: finished, not resumed away.
    step: Option<AgentStep>,
}

/// An agent's step_over / step_out: its thread, op and the stack depth it started at.
#[derive(Debug, Clone)]
struct AgentStep {
    thread: Option<String>,
    op: ControlOp,
    depth: u32,
}

/// Stack depth of `thread`: the backend's total, else the frames counted.
async fn depth(c: &Call<'_>, sid: &str, thread: &str) -> Option<u32> {
    let backend = c.engine.backend.clone();
    let page = c
        .bk("frames", backend.frames(sid, thread, 0, 1))
        .await
        .ok()?;
    if page.total.is_some() {
        return page.total;
    }
    let page = c
        .bk("frames", backend.frames(sid, thread, 0, 10_000))
        .await
        .ok()?;
    Some(page.frames.len() as u32)
}

/// Called by the control tools before an op: a step_over or step_out that a recording
/// breakpoint interrupts must still stop where it would have (the recorder finishes the call,
/// unwinds to the step's frame and repeats the step), not resume the program away from it.
pub(crate) async fn arm_step(c: &Call<'_>, sid: &str, thread: Option<&str>, op: &ControlOp) {
    let steps = matches!(op, ControlOp::StepOver { .. } | ControlOp::StepOut { .. });
    let recording = c
        .engine
        .with_state(|s| s.breakpoints.values().any(|m| m.record.is_some()));
    let depth = match (steps && recording, thread) {
        (true, Some(t)) => depth(c, sid, t).await,
        _ => None,
    };
    c.engine.with_state(|s| match depth {
        Some(depth) => {
            s.calls.active.entry(sid.to_string()).or_default().step = Some(AgentStep {
                thread: thread.map(str::to_string),
                op: op.clone(),
                depth,
            });
        }
        None => {
            if let Some(a) = s.calls.active.get_mut(sid) {
                a.step = None;
            }
        }
    });
}

/// Every recorded call plus the per-session state.
#[derive(Debug, Default)]
pub struct Calls {
    pub rows: VecDeque<CallRecord>,
    /// Rows dropped from the front (indexes in `Active::pending` are absolute).
    dropped: usize,
    pub active: HashMap<String, Active>,
}

impl Calls {
    /// A new recording of `function` starts empty.
    pub fn forget(&mut self, function: &str) {
        let before = self.rows.len();
        self.rows.retain(|r| r.function != function);
        // Indexes of calls in flight shift; none is in flight when an agent re-arms (the
        // program is paused or gone), so they are dropped rather than remapped.
        if self.rows.len() != before {
            self.dropped = 0;
            for a in self.active.values_mut() {
                a.pending.clear();
                a.stepping = None;
            }
        }
    }

    fn get_mut(&mut self, abs: usize) -> Option<&mut CallRecord> {
        abs.checked_sub(self.dropped)
            .and_then(|i| self.rows.get_mut(i))
    }

    fn push(&mut self, r: CallRecord) -> usize {
        if self.rows.len() >= KEEP {
            self.rows.pop_front();
            self.dropped += 1;
        }
        self.rows.push_back(r);
        self.dropped + self.rows.len() - 1
    }

    /// A session stopped or paused where the agent sees it: its calls in flight stay unfinished.
    pub fn abandon(&mut self, sid: &str, why: &str) {
        let Some(a) = self.active.remove(sid) else {
            return;
        };
        // The innermost call's raise, when one was seen, is what ended it (a Go panic that
        // nothing recovers ends the program).
        let mut raised = a.raised.map(|r| format!("{r} {why}"));
        for i in a.pending.into_iter().rev() {
            if let Some(r) = self.get_mut(i) {
                r.done = true;
                let outcome = raised.take().unwrap_or_else(|| why.to_string());
                r.outcome.get_or_insert(outcome);
            }
        }
    }
}

/// A pause the recorder takes instead of the agent.
pub enum Stop {
    /// Entry of a recorded function (its breakpoint id).
    Entry(String),
    /// The step out of the innermost pending call finished.
    Return,
    /// The step out stopped where the call raised (an adapter that steps with its "raised"
    /// filter on): the call's outcome, then the step out goes on.
    Raised(String),
}

/// Decides whether a pause is the recorder's. Pauses at breakpoints that all record are; a step
/// stop on the thread being stepped out is. Anything else is the agent's, and calls in flight
/// on that session are left unfinished.
pub fn route(
    s: &mut EngineState,
    sid: &str,
    thread: &str,
    reason: PauseReason,
    bps: &[String],
    description: Option<&str>,
) -> Option<Stop> {
    let recording = |id: &String| s.breakpoints.get(id).is_some_and(|m| m.record.is_some());
    if !bps.is_empty() && bps.iter().all(recording) && reason != PauseReason::Exception {
        for id in bps {
            s.breakpoints.entry(id.clone()).or_default().hits += 1;
        }
        return Some(Stop::Entry(bps[0].clone()));
    }
    let stepping = s
        .calls
        .active
        .get(sid)
        .is_some_and(|a| a.stepping.as_deref() == Some(thread));
    if stepping && bps.is_empty() && reason == PauseReason::Step {
        return Some(Stop::Return);
    }
    if stepping && bps.is_empty() && reason == PauseReason::Exception {
        return Some(Stop::Raised(raised_text(
            description.unwrap_or("an exception"),
        )));
    }
    let why = match reason {
        PauseReason::Exception => "(exception: paused there)",
        _ => "(unfinished: paused elsewhere)",
    };
    s.calls.abandon(sid, why);
    None
}

/// `ValueError: bad` out of a step's exception note ("the step ended in an exception:
/// ValueError: bad; raised here. Step again …"), as the row's outcome.
fn raised_text(description: &str) -> String {
    let text = description
        .strip_prefix(crate::backend::STEP_RAISED)
        .unwrap_or(description);
    let text = text.split("; raised here").next().unwrap_or(text);
    // Where it was raised (a library raise's project frame) is the row's own call.
    let text = text.split(", raised from ").next().unwrap_or(text);
    format!("raised {}", clip(text.trim()))
}

fn clip(s: &str) -> String {
    if s.chars().count() > CHARS {
        format!("{}…", s.chars().take(CHARS).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Names debuggers give a returned value after a step out. Not delve's `~r0`: after a step out
/// delve 1.2x lists only the caller's own unnamed result (`~r0`, still 0), not the callee's;
/// the DAP backend adds the callee's as `(Return Value)`.
fn is_return_value(name: &str) -> bool {
    name.starts_with("(return)") || name == "(Return Value)" || java_returned(name).is_some()
}

/// IntelliJ's method return value (Show Method Return Values, the JDI stand-in alike): a node
/// named `Account.fib(int)` (MethodReturnValueDescriptorImpl.getName: short class name, method,
/// short argument types). Java names cannot contain parentheses, so no variable looks like it.
/// Gives `Account.fib`.
fn java_returned(name: &str) -> Option<&str> {
    let (head, rest) = name.split_once('(')?;
    (rest.ends_with(')') && head.contains('.') && !head.contains(' ')).then_some(head)
}

/// `add_item` of `Cart.add_item`, `Cart::add_item`, `cart:add_item`, PHP's `Ns\\Cart->add_item`
/// or `Ns\\helper`: the function's own name, as every spelling and frame has it.
fn bare_name(function: &str) -> &str {
    function
        .rsplit(['.', ':', '>', '\\'])
        .next()
        .unwrap_or(function)
}

/// The value `function` returned among `name`s: debugpy keeps every recent `(return) f` of the
/// frame, so its own name must match; the others show one unnamed value.
fn returned_by(name: &str, function: &str) -> bool {
    let bare = bare_name(function);
    match (name.strip_prefix("(return) "), java_returned(name)) {
        (Some(f), _) | (None, Some(f)) => f == bare || f.ends_with(&format!(".{bare}")),
        (None, None) => is_return_value(name),
    }
}

impl Engine {
    /// Handles a pause [`route`] gave the recorder; the program always runs on afterwards (a
    /// failure resumes it too, so a recording never leaves it paused).
    pub(super) async fn on_record_stop(&self, sid: &str, thread: &str, stop: Stop) {
        let ctx = CallContext::default();
        let c = Call {
            engine: self,
            ctx: &ctx,
            cfg: self.cfg(),
            project: None,
        };
        let next = match stop {
            Stop::Entry(bp) => self.record_entry(&c, sid, thread, &bp).await,
            // Unwinding to an agent's step (see below) pends no call.
            Stop::Return
                if self
                    .with_state(|s| s.calls.active.get(sid)?.pending.last().copied())
                    .is_none() =>
            {
                None
            }
            Stop::Return => self.record_return(&c, sid, thread).await,
            Stop::Raised(text) => {
                // The call's own raise, not one inside something it calls (and may catch).
                // Where the raise stops in library code (Go's runtime.gopanic, __cxa_throw), the
                // first project frame is the one that raised.
                let backend = self.backend.clone();
                let top = c
                    .bk("frames", backend.frames(sid, thread, 0, RAISE_FRAMES))
                    .await
                    .ok()
                    .and_then(|p| {
                        let first = p.frames.iter().position(|f| !f.is_library).unwrap_or(0);
                        p.frames.into_iter().nth(first)
                    });
                self.with_state(|s| {
                    let function = {
                        let a = s.calls.active.get(sid)?;
                        let i = *a.pending.last()?;
                        s.calls.get_mut(i)?.function.clone()
                    };
                    if top
                        .as_ref()
                        .and_then(|f| f.method_name.as_deref())
                        .is_some_and(|m| bare_name(m) == bare_name(&function))
                    {
                        // The first raise is the call's own; later stops are its unwinding.
                        s.calls.active.get_mut(sid)?.raised.get_or_insert(text);
                    }
                    Some(())
                });
                Some(true)
            }
        };
        let op = match next {
            Some(true) => ControlOp::StepOut { return_value: true },
            _ => {
                // An agent's step this recording interrupted goes on: out to the frame it
                // started in, then the step itself, so it stops where it would have.
                let step = self.with_state(|s| {
                    let a = s.calls.active.get(sid)?.step.clone()?;
                    a.thread.as_deref().is_none_or(|t| t == thread).then_some(a)
                });
                let deeper = match &step {
                    Some(st) => depth(&c, sid, thread).await.is_some_and(|d| d > st.depth),
                    None => false,
                };
                self.with_state(|s| {
                    if let Some(a) = s.calls.active.get_mut(sid) {
                        a.stepping = deeper.then(|| thread.to_string());
                    }
                });
                match step {
                    Some(_) if deeper => ControlOp::STEP_OUT,
                    Some(st) => st.op,
                    None => ControlOp::Resume,
                }
            }
        };
        let backend = self.backend.clone();
        if c.bk("control", backend.control(sid, Some(thread), op))
            .await
            .is_err()
        {
            self.with_state(|s| {
                s.calls
                    .abandon(sid, "(unfinished: the debugger refused to go on)")
            });
            let _ = c
                .bk(
                    "control",
                    backend.control(sid, Some(thread), ControlOp::Resume),
                )
                .await;
        }
    }

    /// Records a call at entry; `Some(true)` to step out for its result.
    async fn record_entry(&self, c: &Call<'_>, sid: &str, thread: &str, bp: &str) -> Option<bool> {
        let backend = self.backend.clone();
        let (spec, project) = self.with_state(|s| {
            let m = s.breakpoints.get(bp)?;
            Some((m.record.clone()?, m.project.clone()))
        })?;
        if spec.recorded >= spec.max_calls {
            return Some(false);
        }
        let page = c
            .bk("frames", backend.frames(sid, thread, 0, 2))
            .await
            .ok()?;
        let top = page.frames.first()?.clone();
        let rel = |f: &FrameInfo| -> String {
            let file = f.file.clone().unwrap_or_else(|| "?".into());
            let file = match &project {
                Some(r) => file
                    .strip_prefix(r.as_str())
                    .map(|x| x.trim_start_matches('/').to_string())
                    .unwrap_or(file),
                None => file,
            };
            match f.line {
                Some(l) => format!("{file}:{l}"),
                None => file,
            }
        };
        let caller = page.frames.get(1).map(rel).unwrap_or_else(|| "?".into());
        let vars = c
            .bk("frame_variables", backend.frame_variables(sid, &top.handle))
            .await
            .unwrap_or_default();
        // Arguments when the debugger tells them apart (gdb, lldb); else the locals, which at the
        // first line of the body are the arguments (debugpy, delve).
        let scope = if vars.iter().any(|v| v.scope == ValueScope::Argument) {
            ValueScope::Argument
        } else {
            ValueScope::Local
        };
        let args: Vec<(String, String)> = vars
            .iter()
            .filter(|v| v.scope == scope || v.scope == ValueScope::This)
            // Go's unnamed results (`~r0`) are locals at entry, not arguments.
            .filter(|v| !is_return_value(&v.name) && !v.name.starts_with("~r"))
            .take(ARGS)
            .map(|v| {
                let shown = values::visible(&c.cfg, &v.name, v.type_name.as_deref(), &v.value);
                (v.name.clone(), clip(&shown.text))
            })
            .collect();
        // force_return: the backend pops the frame with the value (gdb's `return`, the JVM's
        // ForceEarlyReturn); the row is finished at once and the program resumes from the caller.
        let mut forced = None;
        if let Some(v) = &spec.force_return {
            forced = Some(
                match c
                    .bk(
                        "force_return",
                        backend.force_return(sid, thread, &top.handle, v),
                    )
                    .await
                {
                    Ok(()) => Ok(format!("{v} (forced)")),
                    Err(e) => Err(format!("(force_return failed: {})", clip(&e.0))),
                },
            );
        }
        let reached = self.with_state(|s| {
            // lldb names threads by their kernel id: the main thread's is the process id, and
            // a row shows no thread for the main one (as gdb's thread 1).
            let main = s
                .sessions
                .get(sid)
                .and_then(|x| x.info.process_id)
                .is_some_and(|p| p.to_string() == thread);
            let shown_thread = if main { "" } else { thread };
            let m = s.breakpoints.get_mut(bp)?.record.as_mut()?;
            m.recorded += 1;
            let n = m.recorded;
            let row = CallRecord {
                n,
                session: sid.to_string(),
                function: m.function.clone(),
                args,
                caller,
                thread: shown_thread.to_string(),
                result: None,
                outcome: None,
                done: false,
                started_ms: super::ledger::now_ms(),
                ms: None,
            };
            let reached = (n >= m.max_calls).then(|| m.function.clone());
            let mut row = row;
            match &forced {
                Some(Ok(v)) => {
                    row.result = Some(v.clone());
                    row.done = true;
                    s.calls.push(row);
                    return Some((reached, false));
                }
                Some(Err(e)) => row.outcome = Some(e.clone()),
                None => {}
            }
            let i = s.calls.push(row);
            let a = s.calls.active.entry(sid.to_string()).or_default();
            a.pending.push(i);
            a.stepping = Some(thread.to_string());
            Some((reached, true))
        })?;
        let (reached, step_out) = reached;
        if let Some(function) = reached {
            // Bounded: later calls run without stopping at all.
            if let Some(root) = project {
                let update = BreakpointUpdate {
                    enabled: Some(false),
                    ..Default::default()
                };
                let _ = c
                    .bk(
                        "update_breakpoint",
                        backend.update_breakpoint(&root, bp, update),
                    )
                    .await;
            }
            self.ledger.note(
                sid,
                format!("recorded max_calls calls of {function}; breakpoint {bp} disabled (get_call_records)"),
            );
        }
        Some(step_out)
    }

    /// Finishes the innermost pending call with the value the step out shows; `Some(true)` while
    /// outer recorded calls are still pending (step out of them too).
    async fn record_return(&self, c: &Call<'_>, sid: &str, thread: &str) -> Option<bool> {
        let backend = self.backend.clone();
        let page = c.bk("frames", backend.frames(sid, thread, 0, 1)).await;
        let top = page.ok().and_then(|p| p.frames.into_iter().next());
        let vars = match &top {
            Some(top) => c
                .bk("frame_variables", backend.frame_variables(sid, &top.handle))
                .await
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let function = self.with_state(|s| {
            let a = s.calls.active.get(sid)?;
            let i = *a.pending.last()?;
            s.calls.get_mut(i).map(|r| r.function.clone())
        });
        let function = function.unwrap_or_default();
        let ret = vars
            .iter()
            .find(|v| returned_by(&v.name, &function))
            .map(|v| {
                let shown = values::visible(&c.cfg, &v.name, v.type_name.as_deref(), &v.value);
                clip(&shown.text)
            });
        // Python reports a call that raised as returning None (its return event carries None):
        // the raise is known only when the step out stopped at it (debugpy steps with its
        // "raised" filter). gdb/lldb/delve show no value when a call unwinds.
        let raised: Option<String> =
            self.with_state(|s| s.calls.active.get_mut(sid).and_then(|a| a.raised.take()));
        let ret = if raised.is_some() { None } else { ret };
        self.with_state(|s| {
            let a = s.calls.active.get_mut(sid)?;
            let i = a.pending.pop()?;
            let more = !a.pending.is_empty();
            if !more {
                a.stepping = None;
            }
            if let Some(r) = s.calls.get_mut(i) {
                r.done = true;
                r.ms = Some(super::ledger::now_ms().saturating_sub(r.started_ms));
                match (&ret, &raised) {
                    (Some(v), _) => r.result = Some(v.clone()),
                    (None, Some(e)) => r.outcome = Some(e.clone()),
                    (None, None) => r.outcome = Some("(no value shown)".into()),
                }
            }
            Some(more)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(n: u32, args: &[(&str, &str)], result: Option<&str>) -> CallRecord {
        CallRecord {
            n,
            session: "s1".into(),
            function: "f".into(),
            args: args
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            caller: "a.py:3".into(),
            thread: String::new(),
            result: result.map(str::to_string),
            outcome: result.is_none().then(|| "raised ValueError: x".into()),
            done: true,
            started_ms: 0,
            ms: None,
        }
    }

    #[test]
    fn where_compares_arguments_and_result_and_else_matches_text() {
        let rows = [
            call(1, &[("n", "3"), ("x", "2.5")], Some("-4")),
            call(2, &[("n", "5"), ("x", "7")], Some("10")),
            call(3, &[("n", "3"), ("name", "'beta'")], None),
            call(4, &[("c", "97 'a'")], Some("0x10")),
        ];
        let hits = |w: &str| -> Vec<u32> {
            let w = Where::parse(w);
            rows.iter().filter(|r| w.matches(r)).map(|r| r.n).collect()
        };
        assert_eq!(hits("result < 0"), [1]);
        assert_eq!(hits("result>=10"), [2, 4]);
        assert_eq!(hits("n == 3"), [1, 3]);
        assert_eq!(hits("args.x > 2"), [1, 2]);
        assert_eq!(hits("n == 3 and result != -4"), Vec::<u32>::new());
        assert_eq!(hits("name == 'beta'"), [3]);
        assert_eq!(hits("name == beta"), [3]);
        assert_eq!(hits("c == 97"), [4]);
        assert_eq!(hits("n != 3"), [2]);
        // Not a comparison: the text rows contain, as before.
        assert_eq!(hits("raised ValueError"), [3]);
        assert_eq!(hits("n=5"), [2]);
        assert_eq!(hits("-> 10"), [2]);
        assert_eq!(Where::parse("-> None"), Where::Text("-> None".into()));
    }

    #[test]
    fn a_raise_reads_as_its_exception_without_the_step_advice() {
        assert_eq!(
            raised_text(
                "the step ended in an exception: ValueError: bad; raised here. Step again …"
            ),
            "raised ValueError: bad"
        );
        // A raise stopped in library code names the project frame: that is the row's call.
        assert_eq!(
            raised_text(
                "the step ended in an exception: panic: \"x\" (string), raised from m.go:14 in main.parse; raised here. Step …"
            ),
            "raised panic: \"x\" (string)"
        );
    }

    #[test]
    fn intellij_return_values_name_class_method_and_argument_types() {
        assert!(returned_by("Account.fib(int)", "fib"));
        assert!(returned_by("Account.fib(int)", "Account.fib"));
        assert!(returned_by("Outer$Inner.f(String, int)", "f"));
        assert!(!returned_by("Account.fact(int)", "fib"));
        assert!(is_return_value("Account.fib(int)"));
        // A variable, a debugpy return value and gdb's are told apart as before.
        assert!(!is_return_value("total"));
        assert!(returned_by("(return) fib", "fib") && !returned_by("(return) fact", "fib"));
        assert!(returned_by("(Return Value)", "fib"));
    }
}
