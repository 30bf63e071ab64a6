//! The tools, grouped by area, each defined once as a type.
//!
//! A tool is its argument struct: it derives `Deserialize` (the call), `JsonSchema` (the input
//! schema: field doc comments become property descriptions, `#[serde(default = ...)]` becomes the
//! schema's `default`, so the advertised default and the one the code uses are the same function)
//! and `Serialize` (a test re-serialises parsed defaults and compares them with the schema). The
//! struct's doc comment is the tool: `# Title` on the first line, the description below. Its
//! [`Tool`] impl adds the name, the annotations ([`Kind`]), the result type and `run`. The
//! result is a type too (`Output`: `Serialize` is the `structuredContent`, `JsonSchema` the
//! output schema), so the schema cannot drift from what the tool returns.
//! [`tool_table!`] lists the types once and derives both the registry entries and the dispatch.
//!
//! Adding a tool: write the struct + `impl Tool` in the area's file, add the type to the table
//! below. Nothing else (registry, dispatch, validation, compact profile) needs editing.

/// Implements [`Tool`] for an argument struct whose work is done by `fn(c, args)`, returning
/// `Result<$output, ToolError>`.
macro_rules! tool {
    ($t:ty, $name:literal, $kind:expr, $output:ty, $run:expr) => {
        impl $crate::engine::tools::Tool for $t {
            const NAME: &'static str = $name;
            const KIND: $crate::engine::tools::Kind = $kind;
            type Output = $output;
            async fn run(
                self,
                c: &mut $crate::engine::context::Call<'_>,
            ) -> Result<$output, $crate::engine::context::ToolError> {
                ($run)(c, self).await
            }
        }
    };
}

pub mod breakpoints;
mod by_text;
mod calls;
mod capture;
mod eval;
mod execution;
mod first;
mod inspect;
mod memory;
#[cfg(test)]
mod registry_checks;
mod sessions;
mod source;
mod stack;
mod tests;
mod trace;
mod variables;
mod watches;

use super::context::{Call, ToolError, ToolResult};
use super::out;
use super::registry::Registry;
pub use super::registry::{DEFAULT_WAIT_MS, Kind, MAX_WAIT_MS, Outcome, Tool, ToolDef, unlist};
pub(crate) use capture::OUT_OF_SCOPE;
pub(crate) use execution::left_pause;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::LazyLock;

/// The single registry of this process, built from the table below.
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(|| Registry::build(defs()));
    &REGISTRY
}

/// The single list of tools: registry order and dispatch both come from it.
macro_rules! tool_table {
    ($($t:ty),* $(,)?) => {
        pub fn defs() -> Vec<ToolDef> {
            vec![$(ToolDef::of::<$t>()),*]
        }

        pub async fn dispatch(c: &mut Call<'_>, name: &str, args: &Value) -> ToolResult {
            $(
                if name == <$t as Tool>::NAME {
                    let out = parse::<$t>(args)?.run(c).await?;
                    return serde_json::to_value(out).map_err(|e| ToolError(format!("{name}: the result could not be serialised: {e}")));
                }
            )*
            Err(ToolError(format!("unknown tool '{name}'")))
        }
    };
}

tool_table![
    sessions::ListRunConfigurations,
    sessions::RunConfiguration,
    sessions::ListDebugSessions,
    sessions::StartDebugSession,
    sessions::StopDebugSession,
    sessions::GetDebugSessionStatus,
    breakpoints::ListBreakpoints,
    breakpoints::SetBreakpoint,
    calls::GetCallRecords,
    breakpoints::RemoveBreakpoint,
    execution::Resume,
    execution::Pause,
    execution::StepOver,
    execution::StepInto,
    execution::StepOut,
    execution::RunToLine,
    execution::WaitForPause,
    capture::Capture,
    trace::TraceFunction,
    stack::GetStackTrace,
    stack::SelectStackFrame,
    stack::ListThreads,
    variables::GetVariables,
    variables::ExpandVariable,
    variables::SetVariable,
    eval::EvaluateExpression,
    eval::EvaluateCodeFragment,
    watches::Watches,
    source::GetSourceContext,
    tests::DebugTest,
    memory::GetDebugHistory,
    memory::GetSessionSummary,
    memory::GetConsoleOutput,
];

// ---- fields shared by many tools (flattened into each tool's struct) ------------------------
// (Plain comments, not doc comments: schemars would take a flattened struct's doc comment as
// the description of a tool that has none.)

// `project_path` alone.
#[derive(Deserialize, Serialize, JsonSchema, Default)]
pub struct ProjectArg {
    pub project_path: Option<String>,
}

// `project_path` + `session_id`.
#[derive(Deserialize, Serialize, JsonSchema, Default)]
pub struct SessionArg {
    pub project_path: Option<String>,
    pub session_id: Option<String>,
}

pub fn default_wait_ms() -> u64 {
    DEFAULT_WAIT_MS
}

pub fn yes() -> bool {
    true
}

// `timeout_ms` of the waiting tools.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct TimeoutArg {
    #[serde(default = "default_wait_ms")]
    #[schemars(range(min = 1, max = MAX_WAIT_MS))]
    pub timeout_ms: u64,
}

// Session, wait and thread of the execution-control tools.
#[derive(Deserialize, Serialize, JsonSchema)]
// `evaluate` is named once, in the instructions, for the six tools (6 x 53 B); the starts list
// theirs (FirstAnswer): it is what they are for.
#[schemars(transform = |s: &mut schemars::Schema| unlist(s, &["evaluate", "allow_side_effects"]))]
pub struct ControlArg {
    #[serde(flatten)]
    pub s: SessionArg,
    #[serde(default = "yes")]
    pub wait: bool,
    #[serde(flatten)]
    pub t: TimeoutArg,
    pub thread_id: Option<String>,
    // Expressions evaluated at the new stop (no doc comment: the instructions say it once).
    #[schemars(length(min = 1))]
    pub evaluate: Option<Vec<String>>,
    // As evaluate_expression's, for `evaluate` (the instructions say it once).
    #[serde(default)]
    pub allow_side_effects: bool,
}

/// The schema already checked types; this only maps JSON onto the tool's struct.
fn parse<T: DeserializeOwned>(args: &Value) -> Result<T, ToolError> {
    T::deserialize(args).map_err(|e| ToolError(format!("invalid arguments: {e}")))
}

/// Same file? Backends may report non-canonical paths.
fn same_file(reported: &str, canonical: &str) -> bool {
    reported == canonical
        || std::fs::canonicalize(reported).is_ok_and(|p| p.to_string_lossy() == canonical)
}
