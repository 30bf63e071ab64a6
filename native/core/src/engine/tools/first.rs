//! The first answer in one call (issue 26): start_debug_session and debug_test take the
//! breakpoints to set and the expressions to evaluate at the first stop, and the calls that move
//! the program take expressions for the new stop. Breakpoints go through set_breakpoint's code,
//! values through evaluate_expression's, recorded calls through get_call_records'.

use super::super::context::{Call, ToolError};
use super::breakpoints::{OnHit, SetBreakpoint, Suspend};
use super::out::{State, StopResult};
use super::{ProjectArg, yes};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Expressions one stop evaluates at most (evaluate_expression's own cap applies too).
const MAX_AT_ONCE: usize = 20;
/// Breakpoints one start sets at most.
const MAX_BREAKPOINTS: usize = 20;

// A breakpoint set with the start (or several with set_breakpoint {breakpoints}):
// file_path+line or function, as set_breakpoint takes them.
#[derive(Deserialize, Serialize, JsonSchema, Clone)]
#[schemars(transform = |s: &mut schemars::Schema| {
    super::unlist(s, &["after", "text"]);
    // A misspelt key is refused by name, not dropped (the listing leaves the keyword out).
    s.insert("additionalProperties".into(), false.into());
})]
pub struct BreakAt {
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    // A fragment of the line's source instead of line, file_path optional (unlisted: the
    // instructions name it).
    text: Option<String>,
    #[schemars(length(min = 1))]
    function: Option<String>,
    condition: Option<String>,
    hit_condition: Option<String>,
    #[serde(default)]
    on_hit: Hit,
    // Stops only once this breakpoint was hit in the session: its id, or the index of an
    // earlier item of the same list (unlisted: the instructions say it).
    after: Option<AfterRef>,
}

// `after` in a list: a breakpoint id ("3", "b3") or an earlier item's index (0-based).
#[derive(Deserialize, Serialize, JsonSchema, Clone)]
#[serde(untagged)]
pub enum AfterRef {
    Index(u32),
    Id(#[schemars(length(min = 1))] String),
}

impl BreakAt {
    /// The item's shape, before anything is asked or set (`i`: its index in the list).
    fn check(&self, i: usize) -> Result<(), String> {
        super::by_text::check_fields(
            self.file_path.as_deref(),
            self.line,
            self.text.as_deref(),
            self.function.as_deref(),
        )?;
        match (&self.file_path, self.line, &self.function) {
            _ if self.text.is_some() && self.on_hit == Hit::Record => {
                return Err(
                    "on_hit 'record' needs function (a call is recorded from its entry to its return)"
                        .into(),
                );
            }
            (_, None, None) if self.text.is_some() => {}
            (Some(_), Some(_), None) if self.on_hit == Hit::Record => {
                return Err(
                    "on_hit 'record' needs function (a call is recorded from its entry to its return)"
                        .into(),
                );
            }
            (Some(_), Some(_), None) | (_, None, Some(_)) => {}
            _ => {
                return Err("give file_path with line (or text), or function (e.g. {\"file_path\": \"app.py\", \"line\": 12})".into());
            }
        }
        if let Some(AfterRef::Index(j)) = self.after
            && j as usize >= i
        {
            return Err(format!(
                "after: {j} is not an earlier item of the list; give the index of an item before this one, or a breakpoint id"
            ));
        }
        Ok(())
    }

    /// set_breakpoint's arguments for this item, `after` resolved to an id.
    fn args(&self, root: &str, after: Option<String>) -> SetBreakpoint {
        SetBreakpoint {
            p: ProjectArg {
                project_path: Some(root.to_string()),
            },
            file_path: self.file_path.clone(),
            line: self.line,
            text: self.text.clone(),
            function: self.function.clone(),
            condition: self.condition.clone(),
            log_message: None,
            hit_condition: self.hit_condition.clone(),
            suspend_policy: Suspend::All,
            enabled: yes(),
            temporary: false,
            on_hit: match self.on_hit {
                Hit::Stop => OnHit::Stop,
                Hit::Record => OnHit::Record,
            },
            watch: None,
            access: None,
            force_return: None,
            max_calls: None,
            breakpoint_id: None,
            exception_class: None,
            caught: true,
            uncaught: true,
            breakpoints: None,
            after,
        }
    }

    /// `after` as an id: an index names the id its item got (`set`: the ids so far, `None`
    /// for an item that failed).
    fn after_id(&self, set: &[Option<String>]) -> Result<Option<String>, String> {
        match &self.after {
            None => Ok(None),
            Some(AfterRef::Id(id)) => Ok(Some(id.clone())),
            Some(AfterRef::Index(j)) => match set.get(*j as usize) {
                Some(Some(id)) => Ok(Some(id.clone())),
                _ => Err(format!(
                    "after: item {j} was not set, so there is nothing to wait for"
                )),
            },
        }
    }
}

/// At most [`MAX_BREAKPOINTS`] in one list.
pub fn check_count(n: usize) -> Result<(), ToolError> {
    if n > MAX_BREAKPOINTS {
        return Err(format!("breakpoints: {n} given, at most {MAX_BREAKPOINTS}").into());
    }
    Ok(())
}

/// set_breakpoint {breakpoints}: each item set through set_breakpoint's code, in order; one
/// that fails is a row with why, and the others are still set (as a batch of expressions).
pub async fn set_each(
    c: &mut Call<'_>,
    root: &str,
    items: &[BreakAt],
) -> Vec<super::breakpoints::Row> {
    use super::breakpoints::Row;
    let mut ids: Vec<Option<String>> = Vec::new();
    let mut rows = Vec::new();
    for (i, b) in items.iter().enumerate() {
        let outcome = match b.check(i).and_then(|()| b.after_id(&ids)) {
            Err(e) => Err(e),
            Ok(after) => super::breakpoints::set_breakpoint(c, b.args(root, after))
                .await
                .map_err(|e| e.0),
        };
        match outcome {
            Ok(bp) => {
                ids.push(Some(bp.id.clone()));
                rows.push(Row::Set(Box::new(bp)));
            }
            Err(error) => {
                ids.push(None);
                rows.push(Row::Failed {
                    index: i as u32,
                    error,
                });
            }
        }
    }
    rows
}

// What a breakpoint set with the start does on a hit (set_breakpoint's on_hit without 'log').
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Hit {
    #[default]
    Stop,
    Record,
}

// What a start sets and reads in the same call (flattened into start_debug_session and
// debug_test).
#[derive(Deserialize, Serialize, JsonSchema, Default)]
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["allow_side_effects"]))]
pub struct FirstAnswer {
    // {file_path, line} or {function}; set before the start. The tool's description and the
    // instructions say what they do (no doc comments: every byte of tools/list counts).
    #[schemars(length(min = 1))]
    pub breakpoints: Option<Vec<BreakAt>>,
    // Evaluated at the first stop.
    #[schemars(length(min = 1))]
    pub evaluate: Option<Vec<String>>,
    // As evaluate_expression's, for `evaluate` (named in the instructions).
    #[serde(default)]
    pub allow_side_effects: bool,
    // Where items given by text resolved ("breakpoints[0] (text) at prog.c:24"), for the answer.
    #[serde(skip)]
    #[schemars(skip)]
    placed: std::sync::Mutex<Vec<String>>,
}

impl FirstAnswer {
    /// Whether the call waits for the first stop (or the end).
    pub fn waits(&self) -> bool {
        self.breakpoints.is_some() || self.evaluate.is_some()
    }

    pub fn records(&self) -> bool {
        self.breakpoints
            .iter()
            .flatten()
            .any(|b| b.on_hit == Hit::Record)
    }

    /// The argument shapes, before anything is asked, set or started.
    pub fn check(&self) -> Result<(), ToolError> {
        let bps = self.breakpoints.as_deref().unwrap_or_default();
        check_count(bps.len())?;
        for (i, b) in bps.iter().enumerate() {
            b.check(i)
                .map_err(|e| ToolError(format!("breakpoints[{i}]: {e}")))?;
        }
        let exprs = self.evaluate.as_deref().unwrap_or_default();
        if exprs.len() > MAX_AT_ONCE {
            return Err(format!("evaluate: {} given, at most {MAX_AT_ONCE}", exprs.len()).into());
        }
        if let Some(i) = exprs.iter().position(|e| e.trim().is_empty()) {
            return Err(format!("evaluate[{i}] is empty").into());
        }
        Ok(())
    }

    /// Sets the breakpoints through set_breakpoint; one that fails undoes the others this call
    /// set, so a refused start changes nothing. Returns the ids.
    pub async fn set(&self, c: &mut Call<'_>, root: &str) -> Result<Vec<String>, ToolError> {
        // Lines given by text first, all of them: a text that names no line (or several) is
        // refused before any breakpoint is set.
        let mut items = self.breakpoints.clone().unwrap_or_default();
        let mut placed = Vec::new();
        for (i, b) in items.iter_mut().enumerate() {
            if let Some(text) = b.text.take() {
                let (file, line, shown) =
                    super::by_text::line_of(c, root, b.file_path.as_deref(), &text)
                        .await
                        .map_err(|e| ToolError(format!("breakpoints[{i}]: {}", e.0)))?;
                placed.push(format!("breakpoints[{i}] (text) at {shown}:{line}"));
                b.file_path = Some(file);
                b.line = Some(line);
            }
            // A `def` line goes to its body (set_breakpoint moves it too); the start says so.
            if let (Some(path), Some(line)) = (&b.file_path, b.line)
                && let Ok(file) = c.file_in_project(root, path)
                && let (body, Some(moved)) = c.at_call(&file, line)
            {
                placed.push(format!("breakpoints[{i}]: {moved}"));
                b.line = Some(body);
            }
        }
        if let Ok(mut p) = self.placed.lock() {
            *p = placed;
        }
        let mut ids: Vec<Option<String>> = Vec::new();
        for (i, b) in items.iter().enumerate() {
            let outcome = match b.after_id(&ids) {
                Err(e) => Err(e),
                Ok(after) => super::breakpoints::set_breakpoint(c, b.args(root, after))
                    .await
                    .map_err(|e| e.0),
            };
            match outcome {
                Ok(bp) => ids.push(Some(bp.id)),
                Err(e) => {
                    let set: Vec<String> = ids.into_iter().flatten().collect();
                    let _ = super::breakpoints::remove_ids(c, root, &set).await;
                    return Err(format!("breakpoints[{i}]: {e}").into());
                }
            }
        }
        Ok(ids.into_iter().flatten().collect())
    }

    /// Adds to the first stop what was asked: the values at a pause, the calls recorded in the
    /// session when recordings were set.
    pub async fn answer(&self, c: &mut Call<'_>, root: &str, stop: &mut StopResult) {
        let placed = self.placed.lock().map(|p| p.join("; ")).unwrap_or_default();
        if !placed.is_empty() {
            note(stop, placed);
        }
        evaluate_at(
            c,
            root,
            self.evaluate.clone(),
            self.allow_side_effects,
            stop,
        )
        .await;
        if self.records() {
            stop.calls = super::calls::rows_of(c, root, &stop.session_id);
            if stop.calls.is_empty() {
                note(stop, "no call was recorded (the function never ran)".into());
            } else if stop.state == State::Running && stop.trigger.is_some() {
                // Recording breakpoints never stop: "without a stop at a breakpoint" read as
                // if they had not been reached.
                stop.message = Some(
                    "running: the request ran, its calls recorded (calls); send another request to record more (get_call_records reads them all)".into(),
                );
            }
        }
    }
}

/// Evaluates `list` at the stop `stop` reports (a step's, a resume's, a start's) with
/// evaluate_expression's code; values go in `values`, a refusal in the message.
pub async fn evaluate_at(
    c: &mut Call<'_>,
    root: &str,
    list: Option<Vec<String>>,
    side_effects: bool,
    stop: &mut StopResult,
) {
    let Some(list) = list.filter(|l| !l.is_empty()) else {
        return;
    };
    if stop.state != State::Paused {
        note(
            stop,
            "evaluate: nothing evaluated, the program is not paused".into(),
        );
        return;
    }
    let sid = stop.session_id.clone();
    match super::eval::values(c, root, &sid, list, side_effects).await {
        Ok(values) => stop.values = values,
        Err(e) => note(stop, format!("evaluate: {}", e.0)),
    }
}

fn note(stop: &mut StopResult, text: String) {
    stop.message = Some(match stop.message.take() {
        Some(m) => format!("{m}; {text}"),
        None => text,
    });
}
