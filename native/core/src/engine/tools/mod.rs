//! The tools, grouped by area. Each tool parses its (already schema-validated) arguments into a
//! typed struct, resolves project/session through [`Call`], talks to the backend with timeouts,
//! and returns the JSON that becomes both `structuredContent` and the text content.

pub mod breakpoints;
mod eval;
mod execution;
mod memory;
mod sessions;
mod source;
mod stack;
mod variables;
mod watches;

use super::context::{Call, ToolError, ToolResult};
use serde::de::DeserializeOwned;
use serde_json::Value;

pub async fn dispatch(c: &mut Call<'_>, name: &str, args: &Value) -> ToolResult {
    match name {
        "list_run_configurations" => sessions::list_run_configurations(c, parse(args)?).await,
        "run_configuration" => sessions::run_configuration(c, parse(args)?).await,
        "list_debug_sessions" => sessions::list_debug_sessions(c, parse(args)?).await,
        "start_debug_session" => sessions::start_debug_session(c, parse(args)?).await,
        "stop_debug_session" => sessions::stop_debug_session(c, parse(args)?).await,
        "get_debug_session_status" => sessions::get_debug_session_status(c, parse(args)?).await,
        "list_breakpoints" => breakpoints::list_breakpoints(c, parse(args)?).await,
        "set_breakpoint" => breakpoints::set_breakpoint(c, parse(args)?).await,
        "remove_breakpoint" => breakpoints::remove_breakpoint(c, parse(args)?).await,
        "toggle_breakpoint" => breakpoints::toggle_breakpoint(c, parse(args)?).await,
        "set_exception_breakpoint" => breakpoints::set_exception_breakpoint(c, parse(args)?).await,
        "resume" | "pause" | "step_over" | "step_into" | "step_out" | "run_to_line" => {
            execution::control(c, name, parse(args)?).await
        }
        "wait_for_pause" => execution::wait_for_pause(c, parse(args)?).await,
        "get_stack_trace" => stack::get_stack_trace(c, parse(args)?).await,
        "select_stack_frame" => stack::select_stack_frame(c, parse(args)?).await,
        "list_threads" => stack::list_threads(c, parse(args)?).await,
        "get_variables" => variables::get_variables(c, parse(args)?).await,
        "expand_variable" => variables::expand_variable(c, parse(args)?).await,
        "set_variable" => variables::set_variable(c, parse(args)?).await,
        "evaluate_expression" => eval::evaluate_expression(c, parse(args)?).await,
        "evaluate_code_fragment" => eval::evaluate_code_fragment(c, parse(args)?).await,
        "list_watches" => watches::list_watches(c, parse(args)?).await,
        "add_watch" => watches::add_watch(c, parse(args)?).await,
        "remove_watch" => watches::remove_watch(c, parse(args)?).await,
        "get_source_context" => source::get_source_context(c, parse(args)?).await,
        "get_debug_history" => memory::get_debug_history(c, parse(args)?).await,
        "get_session_summary" => memory::get_session_summary(c, parse(args)?).await,
        "get_console_output" => memory::get_console_output(c, parse(args)?).await,
        other => Err(ToolError(format!("unknown tool '{other}'"))),
    }
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
