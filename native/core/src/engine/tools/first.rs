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

// A breakpoint set with the start: file_path+line or function, as set_breakpoint takes them.
#[derive(Deserialize, Serialize, JsonSchema, Clone)]
pub struct BreakAt {
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    #[schemars(length(min = 1))]
    function: Option<String>,
    condition: Option<String>,
    hit_condition: Option<String>,
    #[serde(default)]
    on_hit: Hit,
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
pub struct FirstAnswer {
    // {file_path, line} or {function}; set before the start. The tool's description and the
    // instructions say what they do (no doc comments: every byte of tools/list counts).
    #[schemars(length(min = 1))]
    pub breakpoints: Option<Vec<BreakAt>>,
    // Evaluated at the first stop.
    #[schemars(length(min = 1))]
    pub evaluate: Option<Vec<String>>,
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
        if bps.len() > MAX_BREAKPOINTS {
            return Err(format!(
                "breakpoints: {} given, at most {MAX_BREAKPOINTS}",
                bps.len()
            )
            .into());
        }
        for (i, b) in bps.iter().enumerate() {
            match (&b.file_path, b.line, &b.function) {
                (Some(_), Some(_), None) if b.on_hit == Hit::Record => {
                    return Err(format!(
                        "breakpoints[{i}]: on_hit 'record' needs function (a call is recorded from its entry to its return)"
                    )
                    .into());
                }
                (Some(_), Some(_), None) | (_, None, Some(_)) => {}
                _ => {
                    return Err(format!(
                        "breakpoints[{i}]: give file_path with line, or function (e.g. {{\"file_path\": \"app.py\", \"line\": 12}})"
                    )
                    .into());
                }
            }
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
        let mut ids = Vec::new();
        for (i, b) in self.breakpoints.iter().flatten().enumerate() {
            let a = SetBreakpoint {
                p: ProjectArg {
                    project_path: Some(root.to_string()),
                },
                file_path: b.file_path.clone(),
                line: b.line,
                function: b.function.clone(),
                condition: b.condition.clone(),
                log_message: None,
                hit_condition: b.hit_condition.clone(),
                suspend_policy: Suspend::All,
                enabled: yes(),
                temporary: false,
                on_hit: match b.on_hit {
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
            };
            match super::breakpoints::set_breakpoint(c, a).await {
                Ok(bp) => ids.push(bp.id),
                Err(e) => {
                    let _ = super::breakpoints::remove_ids(c, root, &ids).await;
                    return Err(format!("breakpoints[{i}]: {}", e.0).into());
                }
            }
        }
        Ok(ids)
    }

    /// Adds to the first stop what was asked: the values at a pause, the calls recorded in the
    /// session when recordings were set.
    pub async fn answer(&self, c: &mut Call<'_>, root: &str, stop: &mut StopResult) {
        evaluate_at(c, root, self.evaluate.clone(), stop).await;
        if self.records() {
            stop.calls = super::calls::rows_of(c, root, &stop.session_id);
            if stop.calls.is_empty() {
                note(stop, "no call was recorded (the function never ran)".into());
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
    match super::eval::values(c, root, &sid, list).await {
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
