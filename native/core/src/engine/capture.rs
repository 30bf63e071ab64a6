//! Capture: run a program to points and record values at each hit without stopping between
//! hits — what `gdb -batch -ex 'break f' -ex run -ex 'p a' -ex bt` or a throwaway print does, in
//! one tool call. Built on the `Backend` trait only (breakpoints, control, frames, variables,
//! evaluate), so it works on every backend.
//!
//! The machinery is shared: [`Point`] is where to record (a line today; a function is the
//! extension the recorded calls of issue 18 add), [`arm`] binds points as breakpoints owned by
//! the capture, [`record`] reads one hit, [`run`] drives the program from hit to hit within
//! bounds (hits, bytes, time) and says why it stopped.

use super::context::{Call, ToolError};
use super::out::{Location, ValueNode};
use super::values;
use crate::backend::{
    ControlOp, EvalContext, EvalRequest, FrameInfo, LineBreakpointSpec, SessionState,
    SuspendPolicy, ValueScope,
};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Where to record.
pub enum Point {
    Line {
        file: String,
        line: u32,
        condition: Option<String>,
        hit_condition: Option<String>,
    },
}

/// Locals shown per hit, and characters per local.
const LOCALS: usize = 12;
const LOCAL_CHARS: usize = 80;
/// Frames shown per hit.
const STACK: u32 = 6;
/// Bytes of rows a capture returns at most (the rest is cut, and the result says so).
pub const MAX_BYTES: usize = 12_000;
/// Characters of one recorded value at most, however few the hits and expressions.
const ROW_VALUE_CHARS: usize = 2_000;

/// One hit, as recorded.
#[derive(Serialize, JsonSchema, Clone)]
pub struct Hit {
    /// 1-based, over all points.
    pub hit: u32,
    /// 1-based index into `points`.
    pub point: u32,
    pub at: Location,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<ValueNode>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub locals: BTreeMap<String, String>,
    /// Locals past the ones shown (a Java `main` has a dozen before its loop variable): the
    /// reader names them in `expressions` instead of taking the row for all there is.
    #[serde(skip_serializing_if = "is_zero")]
    pub more_locals: u32,
    /// `method file:line`, top first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stack: Vec<String>,
    /// A read of a running process (attach without points): the frame of the paused thread
    /// that answered this row's values, `#2 <module> service.py:40`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// Each value's text as read, longer than the row shows while more hits may come: when
    /// the recording ends with fewer rows than `max_hits`, the values are shown with the room
    /// the rows actually left (`widen`).
    #[serde(skip)]
    pub wide: Vec<Option<Wide>>,
}

/// A recorded value's text before its row's cut, and what `values::shown_of` needs again.
#[derive(Clone)]
pub struct Wide {
    text: String,
    redacted: bool,
    length: Option<u64>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What to record at each hit.
pub struct Spec {
    pub expressions: Vec<String>,
    pub locals: bool,
    pub stack: bool,
    pub max_hits: u32,
    pub deadline: Instant,
    /// An attach's trigger runs: its end (the request answered) ends the recording.
    pub until_trigger: bool,
    /// allow_side_effects: the expressions were confirmed and run as evaluate_expression
    /// {allow_side_effects: true} runs them.
    pub side_effects: bool,
}

/// Why a capture stopped recording.
#[derive(PartialEq, Eq, Debug)]
pub enum End {
    /// `max_hits` rows were recorded; the program is paused at the last one.
    Hits,
    /// The byte budget ran out; paused at the hit that did not fit.
    Bytes,
    /// The program ended.
    Exited,
    /// It paused somewhere else (another breakpoint, an exception): left paused there.
    Elsewhere,
    /// The deadline passed with the program running.
    Timeout,
    /// The attach's trigger ended with the program running.
    Trigger,
}

/// Binds the points as breakpoints of the capture; returns their ids, in point order. A line
/// that already has a breakpoint is refused (its condition would mix with the capture's).
pub async fn arm(c: &Call<'_>, root: &str, points: &[Point]) -> Result<Vec<String>, ToolError> {
    let backend = c.engine.backend.clone();
    let existing = c.bk("breakpoints", backend.breakpoints(root)).await?;
    let mut ids = Vec::new();
    for p in points {
        let Point::Line {
            file,
            line,
            condition,
            hit_condition,
        } = p;
        if let Some(b) = existing.iter().find(|b| {
            b.file.as_deref() == Some(file.as_str())
                && (b.line == Some(*line) || b.requested_line == Some(*line))
        }) {
            disarm(c, root, &ids).await;
            return Err(ToolError(format!(
                "line {line} of {file} already has breakpoint {}; remove it (remove_breakpoint) or capture at another line",
                b.id
            )));
        }
        let spec = LineBreakpointSpec {
            file: file.clone(),
            line: *line,
            condition: condition.clone().filter(|s| !s.is_empty()),
            log_message: None,
            hit_condition: hit_condition.clone().filter(|s| !s.is_empty()),
            suspend_policy: SuspendPolicy::All,
            enabled: true,
            temporary: false,
        };
        match c
            .bk(
                "add_line_breakpoint",
                backend.add_line_breakpoint(root, spec),
            )
            .await
        {
            Ok(info) => ids.push(info.id),
            Err(e) => {
                disarm(c, root, &ids).await;
                return Err(e);
            }
        }
    }
    Ok(ids)
}

/// Removes the capture's breakpoints (best effort: the session may be gone).
pub async fn disarm(c: &Call<'_>, root: &str, ids: &[String]) {
    let backend = c.engine.backend.clone();
    for id in ids {
        let _ = c
            .bk("remove_breakpoint", backend.remove_breakpoint(root, id))
            .await;
    }
}

/// One hit as `record` read it: where, the values, the locals in brief (and how many more),
/// the stack, and the values' wider texts (`Hit::wide`).
type Recorded = (
    Location,
    Vec<ValueNode>,
    (BTreeMap<String, String>, u32),
    Vec<String>,
    Vec<Option<Wide>>,
);

/// Reads the `nth` hit: the expressions, the locals in brief and the stack of the paused thread.
pub async fn record(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    spec: &Spec,
    nth: usize,
) -> Result<Recorded, ToolError> {
    let backend = c.engine.backend.clone();
    let page = c
        .bk(
            "frames",
            backend.frames(sid, thread, 0, if spec.stack { STACK } else { 1 }),
        )
        .await?;
    let top = page
        .frames
        .first()
        .cloned()
        .ok_or_else(|| ToolError("the paused thread has no frames".into()))?;
    let root = c
        .engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.project.clone()));
    let rel = |f: &str| match &root {
        Some(r) => f
            .strip_prefix(r.as_str())
            .map(|x| x.trim_start_matches('/'))
            .unwrap_or(f)
            .to_string(),
        None => f.to_string(),
    };
    let mut vals = Vec::new();
    // What the debugger answered, kept for previews of its placeholders (gdb's `{…}`, Python's
    // `<Item object at 0x…>`, Xdebug's `array(2)`): a row is read like a print, so it shows the
    // contents.
    let mut answered = Vec::new();
    // A value's share of half the rows' bytes (a few hits of a few expressions show strings
    // longer than a setting's row cut, as a print of them would), at least the setting's.
    let max = row_value_chars(spec, c.cfg.max_value_length);
    // As long as a value can be shown if the recording ends at this hit (`widen`).
    let wide_max = share_of(spec, nth, c.cfg.max_value_length);
    let mut wide = Vec::new();
    let context = if spec.side_effects {
        EvalContext::Repl
    } else if wide_max > c.cfg.max_value_length {
        // The debugger's own string limit raised, as for evaluate_expression (gdb, lldb).
        EvalContext::Expression
    } else {
        EvalContext::Watch
    };
    for e in &spec.expressions {
        // A module imported by name is read only once the program has loaded it.
        if let Err(err) =
            super::expression_guard::require_loaded(c, sid, thread, &top.handle, e).await
        {
            vals.push(ValueNode {
                name: e.clone(),
                error: Some(err.0),
                ..Default::default()
            });
            continue;
        }
        // Checked when the capture started (tools::capture): a bad format never gets here.
        let (format, expression) = match crate::backend::PrintFormat::split(e) {
            Some(Ok((f, x))) => (Some(f), x),
            _ => (None, e.clone()),
        };
        let req = EvalRequest {
            thread_id: thread.to_string(),
            frame: top.handle.clone(),
            expression,
            context,
            allow_side_effects: spec.side_effects,
            format,
        };
        // A search stops at the capture's deadline: ten hits of a slow search are no 10 × 20 s.
        let until = super::scan::Deadline::capture(spec.deadline);
        let row = match super::scan::evaluate(c, sid, req, top.file.as_deref(), until).await {
            Ok(v) => {
                let (m, redacted) = shaped(c, e, &v, max);
                let (w, _) = shaped(c, e, &v, wide_max);
                wide.push(Some(Wide {
                    text: w.value.clone(),
                    redacted,
                    length: w.value_length.or(v.value_length),
                }));
                if !redacted {
                    answered.push((vals.len(), v));
                }
                m
            }
            Err(err) => {
                wide.push(None);
                ValueNode {
                    name: e.clone(),
                    error: Some(err.0),
                    ..Default::default()
                }
            }
        };
        vals.push(row);
    }
    let mut locals = BTreeMap::new();
    let mut more_locals = 0;
    if spec.locals {
        let vars = c
            .bk("frame_variables", backend.frame_variables(sid, &top.handle))
            .await?;
        let mut shown = vars.iter().filter(|v| {
            matches!(
                v.scope,
                ValueScope::Local | ValueScope::Argument | ValueScope::This
            )
        });
        let listed: Vec<_> = shown.by_ref().take(LOCALS).collect();
        more_locals = shown.count() as u32;
        // The expressions' previews in their values' room, then the locals' (listed short).
        preview_asked(c, sid, &answered, (max, wide_max), &mut vals, &mut wide).await;
        let visible: Vec<_> = listed
            .iter()
            .map(|v| values::visible(&c.cfg, &v.name, v.type_name.as_deref(), &v.value))
            .collect();
        let nodes: Vec<&crate::backend::ValueNode> = listed
            .iter()
            .zip(&visible)
            .filter(|(_, shown)| !shown.redacted)
            .map(|(v, _)| *v)
            .collect();
        let mut previews = super::preview::previews(c, sid, &nodes).await.into_iter();
        for (v, shown) in listed.into_iter().zip(visible) {
            let preview = if shown.redacted {
                None
            } else {
                previews.next().flatten()
            };
            let (text, length) = match preview {
                Some(p) => (p.text, None),
                None => (shown.text, v.value_length.filter(|_| !shown.hidden)),
            };
            // A cut local says so where it stands: `"<html>…" (cut: 80 of 6,041 chars)`.
            let s = values::shown_of(&text, LOCAL_CHARS, false, length);
            let text = if s.truncated {
                format!(
                    "{} ({})",
                    s.value,
                    values::cut_note(&s.value, s.value_length)
                )
            } else {
                s.value
            };
            locals.insert(v.name.clone(), text);
        }
    } else {
        preview_asked(c, sid, &answered, (max, wide_max), &mut vals, &mut wide).await;
    }
    let stack = if spec.stack {
        // A recursion's identical callers once, with how many.
        let mut runs: Vec<(String, u32)> = Vec::new();
        for line in page.frames.iter().map(|f| frame_line(f, root.as_deref())) {
            // The top frame (where the hit is) stays alone.
            let callers = runs.len() > 1;
            match runs.last_mut() {
                Some((last, n)) if callers && *last == line => *n += 1,
                _ => runs.push((line, 1)),
            }
        }
        runs.into_iter()
            .map(|(l, n)| if n > 1 { format!("{l} ×{n}") } else { l })
            .collect()
    } else {
        Vec::new()
    };
    let mut at = Location::from(&top);
    at.file = at.file.map(|f| rel(&f));
    Ok((at, vals, (locals, more_locals), stack, wide))
}

/// Characters a recorded expression's value is shown with, at least the setting's row cut
/// (`setting`): a capture of one hit is a print, its expressions sharing what one
/// evaluate_expression batch shows (`WHOLE_STRING_CHARS`); rows of several hits share half of
/// `MAX_BYTES`, at most `ROW_VALUE_CHARS` a value.
fn row_value_chars(spec: &Spec, setting: usize) -> usize {
    share_of(spec, spec.max_hits as usize, setting)
}

/// The previews of a row's expressions (`answered`: their index in `vals`, and the value): each
/// read in the room it has were this hit the recording's last (`wide`, the second of `room`),
/// shown in the row's room now (the first) and whole once the rows' room is known (`widen`),
/// so one hit of a list of 30 names reads all 30 (tenth set: 8 and `…`).
async fn preview_asked(
    c: &Call<'_>,
    sid: &str,
    answered: &[(usize, crate::backend::ValueNode)],
    (max, wide_max): (usize, usize),
    vals: &mut [ValueNode],
    wide: &mut [Option<Wide>],
) {
    let nodes: Vec<&crate::backend::ValueNode> = answered.iter().map(|(_, v)| v).collect();
    let room = super::preview::Room::asked(c, wide_max);
    for ((i, _), p) in answered
        .iter()
        .zip(super::preview::previews_in(c, sid, &nodes, room).await)
    {
        if let Some(p) = p {
            let text = p.text.clone();
            super::preview::put(&mut vals[*i], p);
            vals[*i].put(values::shown_of(&text, max, false, None));
            wide[*i] = Some(Wide {
                text,
                redacted: false,
                length: None,
            });
        }
    }
}

/// A value's characters when the recording has `rows` rows (see `row_value_chars`).
fn share_of(spec: &Spec, rows: usize, setting: usize) -> usize {
    let exprs = spec.expressions.len().max(1);
    let share = if rows <= 1 {
        crate::backend::WHOLE_STRING_CHARS / exprs
    } else {
        (MAX_BYTES / 2 / (rows * exprs)).min(ROW_VALUE_CHARS)
    };
    share.max(setting)
}

/// The rows' values shown with the room the rows actually left: a recording that ended with
/// fewer hits than `max_hits` (a request's two calls of a function) cut its values for
/// `max_hits` rows while it ran, not knowing whether more would come.
fn widen(c: &Call<'_>, spec: &Spec, rows: &mut [Hit]) {
    let max = share_of(spec, rows.len(), c.cfg.max_value_length);
    if max <= row_value_chars(spec, c.cfg.max_value_length) {
        return;
    }
    for row in rows.iter_mut() {
        for (v, w) in row.values.iter_mut().zip(std::mem::take(&mut row.wide)) {
            let Some(w) = w.filter(|_| v.truncated) else {
                continue;
            };
            v.put(values::shown_of(&w.text, max, w.redacted, w.length));
        }
    }
}

/// The row of expression `e` whose value the debugger answered, as settings show it (cut,
/// redacted); and whether it was redacted (then no preview is asked).
/// A recorded value as a row shows it: at most `max` characters, redacted as configured.
fn shaped(c: &Call<'_>, e: &str, v: &crate::backend::ValueNode, max: usize) -> (ValueNode, bool) {
    let shown = values::visible(&c.cfg, e, v.type_name.as_deref(), &v.value);
    let mut m = ValueNode {
        name: e.to_string(),
        type_name: v.type_name.clone(),
        ..Default::default()
    };
    m.put(values::shown_of(
        &shown.text,
        max,
        shown.redacted,
        v.value_length.filter(|_| !shown.hidden),
    ));
    (m, shown.redacted)
}

/// `method file:line` of a frame, the path relative to the project `root` when inside it.
pub fn frame_line(f: &FrameInfo, root: Option<&str>) -> String {
    let rel = |file: &str| match root {
        Some(r) => file
            .strip_prefix(r)
            .map(|x| x.trim_start_matches('/'))
            .unwrap_or(file)
            .to_string(),
        None => file.to_string(),
    };
    let place = match (&f.file, f.line) {
        (Some(file), Some(l)) => format!("{}:{l}", rel(file)),
        (Some(file), None) => rel(file),
        _ => "?".into(),
    };
    format!("{} {place}", f.method_name.as_deref().unwrap_or("?"))
}

/// Drives the session from hit to hit: at a pause on one of `ids` records a row and resumes,
/// until `max_hits` rows, the byte budget, the end of the program, a pause elsewhere or the
/// deadline. The session must be paused or about to run into its first stop (`sub` taken
/// before the launch or resume that started it).
pub async fn run(
    c: &Call<'_>,
    sid: &str,
    ids: &[String],
    spec: &Spec,
    sub: super::snapshot::Subscription,
) -> Result<(Vec<Hit>, End), ToolError> {
    let (mut rows, end) = record_hits(c, sid, ids, spec, sub).await?;
    widen(c, spec, &mut rows);
    Ok((rows, end))
}

async fn record_hits(
    c: &Call<'_>,
    sid: &str,
    ids: &[String],
    spec: &Spec,
    mut sub: super::snapshot::Subscription,
) -> Result<(Vec<Hit>, End), ToolError> {
    let backend = c.engine.backend.clone();
    let mut rows: Vec<Hit> = Vec::new();
    let mut bytes = 0usize;
    loop {
        let left = spec.deadline.saturating_duration_since(Instant::now());
        let ms = left.as_millis() as u64;
        let stopped = if spec.until_trigger {
            c.wait_for_stop_or_trigger(sid, &mut sub, ms).await
        } else {
            c.wait_for_stop(sid, &mut sub, ms).await
        };
        if !stopped {
            let ended = spec.until_trigger
                && c.engine.with_state(|s| {
                    s.sessions
                        .get(sid)
                        .and_then(|x| x.trigger.as_ref())
                        .is_some_and(|t| t.ended.is_some())
                });
            return Ok((rows, if ended { End::Trigger } else { End::Timeout }));
        }
        let (state, pause) = c.engine.with_state(|s| {
            s.sessions
                .get(sid)
                .map(|x| {
                    (
                        x.state(),
                        x.pause
                            .as_ref()
                            .map(|p| (p.thread_id.clone(), p.breakpoint_ids.clone())),
                    )
                })
                .unwrap_or((SessionState::Stopped, None))
        });
        let Some((thread, hit_ids)) = pause.filter(|_| state == SessionState::Paused) else {
            return Ok((rows, End::Exited));
        };
        let Some(point) = ids.iter().position(|id| hit_ids.contains(id)) else {
            return Ok((rows, End::Elsewhere));
        };
        let (at, values, (locals, more_locals), stack, wide) =
            record(c, sid, &thread, spec, rows.len() + 1).await?;
        let row = Hit {
            hit: rows.len() as u32 + 1,
            point: point as u32 + 1,
            at,
            values,
            locals,
            more_locals,
            stack,
            frame: None,
            wide,
        };
        let size = serde_json::to_string(&row).map(|s| s.len()).unwrap_or(0);
        if bytes + size > MAX_BYTES && !rows.is_empty() {
            return Ok((rows, End::Bytes));
        }
        bytes += size;
        rows.push(row);
        if rows.len() as u32 >= spec.max_hits {
            return Ok((rows, End::Hits));
        }
        sub = c.subscribe(sid)?;
        c.bk(
            "control",
            backend.control(sid, Some(&thread), ControlOp::Resume),
        )
        .await?;
        super::tools::left_pause(c, sid, sub.seq);
    }
}

/// A deadline `ms` from now.
pub fn deadline(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

/// Frames of the paused thread a read of a running process tries, top down.
const READ_FRAMES: u32 = 40;

/// Whether a debugger's error says the frame lacks a name `expression` itself uses, so another
/// frame may have it, as each debugger words that: Python's NameError (`name 'x' is not
/// defined`), gdb's `No symbol "x" in current context.`, lldb's `use of undeclared identifier
/// 'x'`, delve's `could not find symbol value for x`, and the Xdebug backend's `… not defined in
/// frame N`. Anything else (a call that failed, a NameError raised inside a called function, a
/// missing `operator==`) is the expression's answer. Python runs an expression as it goes: a
/// call that completed before the missing name was looked up has run, so trying the next frame
/// would run it again, and that error is the answer too.
pub fn names_nothing(err: &str, expression: &str) -> bool {
    if err.contains(" not defined in frame ") {
        return true;
    }
    let quoted = |open: &str, close: &str| {
        let at = err.find(open)? + open.len();
        let len = err[at..].find(close)?;
        Some(&err[at..at + len])
    };
    let (name, python) = if let Some(n) = quoted("name '", "' is not defined") {
        (n, true)
    } else if let Some(n) = quoted("No symbol \"", "\" in current context")
        .or_else(|| quoted("undeclared identifier '", "'"))
    {
        (n, false)
    } else if let Some(at) = err.find("could not find symbol value for ") {
        let rest = &err[at + "could not find symbol value for ".len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        (&rest[..end], false)
    } else {
        return false;
    };
    match name_at(expression, name) {
        None => false,
        Some(at) => !(python && call_ran_before(expression, at)),
    }
}

/// Where `name` first stands in `expression` as a name of its own (not inside another name,
/// not an attribute after a `.`, not inside a string literal).
fn name_at(expression: &str, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let b = expression.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) => {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == b'"' || c == b'\'' => quote = Some(c),
            None if expression[i..].starts_with(name) => {
                let before = expression[..i].chars().next_back();
                let after = expression[i + name.len()..].chars().next();
                if !before.is_some_and(|p| word(p) || p == '.') && !after.is_some_and(word) {
                    return Some(i);
                }
            }
            None => {}
        }
        i += 1;
        while i < b.len() && !expression.is_char_boundary(i) {
            i += 1;
        }
    }
    None
}

/// Whether a call in `expression` (`f(…)`, `x.m(…)`, `g()(…)`) closes before byte `at`: Python
/// has run it by the time it evaluates what stands at `at`.
fn call_ran_before(expression: &str, at: usize) -> bool {
    let mut open: Vec<bool> = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut last = ' ';
    for (i, c) in expression.char_indices() {
        if i >= at {
            break;
        }
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
                last = c;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => open.push(last.is_alphanumeric() || matches!(last, '_' | ')' | ']')),
            '[' | '{' => open.push(false),
            ')' | ']' | '}' if open.pop() == Some(true) && c == ')' => return true,
            _ => {}
        }
        if !c.is_whitespace() {
            last = c;
        }
    }
    false
}

/// A read of a running process at its pause on `thread` (`gdb -batch -p PID -ex 'p x'`): each
/// expression is evaluated in the thread's frames — the program's own first (files under the
/// project), then the others, each group top down — and answered by the first frame that has
/// its names, so a global of the main module or a C static is found though the pause lands in
/// select() or accept(), and a C++ expression is read in a C++ frame, not libc's. Python also
/// tries the `__main__` module's globals. One row per frame that answered, in frame order; an
/// expression no frame answers is a row's error, under the frame that said it, alone. Nothing
/// is resumed here. `side_effects`: confirmed by the caller; no guard, and run as
/// evaluate_expression {allow_side_effects: true} runs them.
pub async fn read_paused(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    expressions: &[String],
    side_effects: bool,
) -> Result<Vec<Hit>, ToolError> {
    let backend = c.engine.backend.clone();
    let page = c
        .bk("frames", backend.frames(sid, thread, 0, READ_FRAMES))
        .await?;
    if page.frames.is_empty() {
        return Err(ToolError("the paused thread has no frames".into()));
    }
    let root = c
        .engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.project.clone()));
    let python = page
        .frames
        .iter()
        .any(|f| f.file.as_deref().is_some_and(|p| p.ends_with(".py")));
    // The agent asked for these values by name, once: each is shown as evaluate_expression
    // shows it (the batch shares one whole string's bound), not cut to a row's length.
    let whole =
        (crate::backend::WHOLE_STRING_CHARS / expressions.len().max(1)).max(c.cfg.max_value_length);
    // The searches among the expressions share one time bound.
    let batch = super::scan::Deadline::batch();
    let eval = |frame: String, file: Option<String>, expression: String| {
        let (format, expression) = match crate::backend::PrintFormat::split(&expression) {
            Some(Ok((f, x))) => (Some(f), x),
            _ => (None, expression),
        };
        let req = EvalRequest {
            thread_id: thread.to_string(),
            frame,
            expression,
            // As evaluate_expression asks: the debugger's own string limit raised (gdb, lldb).
            context: if side_effects {
                EvalContext::Repl
            } else {
                EvalContext::Expression
            },
            allow_side_effects: side_effects,
            format,
        };
        async move { super::scan::evaluate(c, sid, req, file.as_deref(), batch).await }
    };
    // (frame index, value) per expression, in the order given.
    let mut answers: Vec<(usize, ValueNode)> = Vec::new();
    // The program's own frames first (its files, under the project), then the others top down:
    // a pause lands in libc's accept() or select(), whose frame gdb reads in C — a C++
    // program's casts and `v[12]` (libstdc++'s xmethods) parse only in a frame of its own.
    // A file under the project root (by path components: `/p/app-lib` is not under `/p/app`),
    // or a relative one that names a file there (a build's `-ffile-prefix-map=…=.`; libc's
    // `./time/…` names none).
    let own = |f: &crate::backend::FrameInfo| {
        f.file
            .as_deref()
            .zip(root.as_deref())
            .is_some_and(|(p, r)| own_file(r, p))
    };
    let order: Vec<usize> = (0..page.frames.len())
        .filter(|&i| own(&page.frames[i]))
        .chain((0..page.frames.len()).filter(|&i| !own(&page.frames[i])))
        .collect();
    for e in expressions {
        // The side-effect guard, as every evaluation without allow_side_effects has it (a
        // start's `evaluate` reaches this read with no check of its own): refused alone.
        let plain = crate::backend::PrintFormat::split(e)
            .and_then(Result::ok)
            .map_or_else(|| e.clone(), |(_, x)| x);
        let file = page.frames[0].file.as_deref();
        if let Err(refused) = super::expression_guard::check(&plain, &c.cfg.expression_safety, file)
            && !side_effects
        {
            answers.push((
                0,
                ValueNode {
                    name: e.clone(),
                    error: Some(refused.0),
                    ..Default::default()
                },
            ));
            continue;
        }
        let mut first_error: Option<String> = None;
        // The frame whose answer the error is (the row is shown under it).
        let mut error_frame = 0;
        let mut found = None;
        for &i in &order {
            let f = &page.frames[i];
            match eval(f.handle.clone(), f.file.clone(), e.clone()).await {
                Ok(v) => {
                    found = Some((i, v));
                    break;
                }
                Err(err) if names_nothing(&err.0, e) => {
                    if first_error.is_none() {
                        first_error = Some(err.0);
                        error_frame = i;
                    }
                }
                Err(err) => {
                    // A wrong expression, not a missing name: said as the first frame says it.
                    first_error = Some(err.0);
                    error_frame = i;
                    found = None;
                    break;
                }
            }
        }
        // Python: the main module's globals, when no frame of this thread runs in it.
        let searched = first_error.as_deref().is_some_and(|x| names_nothing(x, e));
        if found.is_none() && python && searched {
            let quoted = serde_json::to_string(e).unwrap_or_default();
            let in_main = format!("eval({quoted}, __import__('sys').modules['__main__'].__dict__)");
            let file = page.frames[0].file.clone();
            if let Ok(v) = eval(page.frames[0].handle.clone(), file, in_main).await {
                found = Some((usize::MAX, v));
            }
        }
        let node = match found {
            Some((i, v)) => {
                let (mut m, redacted) = shaped(c, e, &v, whole);
                if !redacted
                    && let Some(p) = super::preview::previews_in(
                        c,
                        sid,
                        &[&v],
                        super::preview::Room::asked(c, whole),
                    )
                    .await
                    .into_iter()
                    .next()
                    .flatten()
                {
                    super::preview::put(&mut m, p);
                }
                (i, m)
            }
            None => {
                let err = first_error.unwrap_or_else(|| "no value".into());
                let err = if searched {
                    let n = page.frames.len();
                    format!(
                        "{err} (in none of the {n} frame{} of the paused thread{})",
                        if n == 1 { "" } else { "s" },
                        if python { " nor in __main__" } else { "" }
                    )
                } else {
                    err
                };
                (
                    error_frame,
                    ValueNode {
                        name: e.clone(),
                        error: Some(err),
                        ..Default::default()
                    },
                )
            }
        };
        answers.push(node);
    }
    let mut frames: Vec<usize> = answers.iter().map(|(i, _)| *i).collect();
    frames.sort_unstable();
    frames.dedup();
    let rows = frames
        .into_iter()
        .enumerate()
        .map(|(n, i)| {
            let values: Vec<ValueNode> = answers
                .iter()
                .filter(|(j, _)| *j == i)
                .map(|(_, v)| v.clone())
                .collect();
            let (at, frame) = match page.frames.get(i) {
                Some(f) => {
                    let mut at = Location::from(f);
                    at.file = at.file.map(|x| rel_to(root.as_deref(), &x));
                    (at, format!("#{i} {}", frame_line(f, root.as_deref())))
                }
                None => (Location::default(), "module __main__".to_string()),
            };
            Hit {
                hit: n as u32 + 1,
                point: 0,
                at,
                values,
                locals: BTreeMap::new(),
                more_locals: 0,
                stack: Vec::new(),
                frame: Some(frame),
                wide: Vec::new(),
            }
        })
        .collect();
    Ok(rows)
}

/// Whether a frame's `file` is the program's own: under the project `root` by path components
/// (`/p/app-lib/x.c` is not under `/p/app`), or relative and naming a file there.
fn own_file(root: &str, file: &str) -> bool {
    let p = std::path::Path::new(file);
    if p.is_absolute() {
        p.starts_with(root)
    } else {
        std::path::Path::new(root).join(p).is_file()
    }
}

/// `f` relative to the project `root` when it is under it (by path components: `/p/app-lib/x.c`
/// is not under `/p/app`), else as given.
fn rel_to(root: Option<&str>, f: &str) -> String {
    match root.and_then(|r| std::path::Path::new(f).strip_prefix(r).ok()) {
        Some(x) => x.display().to_string(),
        None => f.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::names_nothing;

    #[test]
    fn a_frame_is_the_programs_own_by_path_components() {
        let root = std::env::temp_dir().join(format!("own-{}", std::process::id()));
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/w.cpp"), "").unwrap();
        let r = root.to_str().unwrap();
        assert!(super::own_file(r, &format!("{r}/src/w.cpp")));
        assert!(
            !super::own_file(r, &format!("{r}-lib/wait.c")),
            "a sibling directory"
        );
        assert!(
            super::own_file(r, "./src/w.cpp"),
            "relative, naming a file of the project"
        );
        assert!(!super::own_file(
            r,
            "./time/../sysdeps/unix/sysv/linux/clock_nanosleep.c"
        ));
        assert_eq!(
            super::rel_to(Some(r), &format!("{r}-lib/wait.c")),
            format!("{r}-lib/wait.c")
        );
        assert_eq!(
            super::rel_to(Some(r), &format!("{r}/src/w.cpp")),
            "src/w.cpp"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn only_a_name_the_expression_itself_lacks_sends_it_to_the_next_frame() {
        // The frame lacks a name the expression uses: another frame may have it.
        assert!(names_nothing("name 'ORDERS' is not defined", "len(ORDERS)"));
        assert!(names_nothing(
            "NameError: name 'x' is not defined",
            "f(x) + 1"
        ));
        assert!(names_nothing(
            "No symbol \"npeople\" in current context.",
            "npeople * 2"
        ));
        assert!(names_nothing(
            "error: <user expression 0>:1:1: use of undeclared identifier 'people'",
            "people[1].age"
        ));
        assert!(names_nothing(
            "could not find symbol value for orders",
            "orders"
        ));
        assert!(names_nothing("$total is not defined in frame 2", "$total"));
        // A NameError raised inside the called function, a user's exception that happens to
        // say "not defined", a missing operator: the expression's answer, not a missing name.
        assert!(!names_nothing("name 'missing' is not defined", "bump()"));
        assert!(!names_nothing("ValueError: rate not defined", "rate_of(x)"));
        assert!(!names_nothing(
            "No symbol \"operator==\" in current context.",
            "n.name == \"beta\""
        ));
        // `bump()` ran before `nosuch` was looked up: trying the next frame would run it again.
        assert!(!names_nothing(
            "name 'nosuch' is not defined",
            "bump() + nosuch"
        ));
        assert!(!names_nothing(
            "name 'nosuch' is not defined",
            "g(f(), nosuch)"
        ));
        // Not yet called when the name failed: `f` is looked up, then its argument.
        assert!(names_nothing("name 'nosuch' is not defined", "f(nosuch)"));
        assert!(names_nothing(
            "name 'nosuch' is not defined",
            "(1 + 2) * nosuch"
        ));
        // The name only inside a string or as an attribute is not the expression's name.
        assert!(!names_nothing("name 'x' is not defined", "f('x')"));
        assert!(!names_nothing("name 'x' is not defined", "o.x"));
    }
}
