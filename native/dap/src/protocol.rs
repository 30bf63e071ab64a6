//! Typed DAP messages: the requests we send, the response bodies and events we read.
//!
//! Only what the backend uses is modelled (docs/DEPENDENCIES.md says why not a DAP type crate).
//! Reading is lenient, as adapters differ from the specification and from each other: unknown
//! fields are ignored, and a missing field, a `null` or a value of the wrong type reads as the
//! field's default (`lenient`) instead of failing the whole message. So a body is never
//! rejected for a detail the backend does not need; the backend decides what a missing value
//! means. No I/O here: `transport` frames and correlates these.

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// A DAP request: its command, argument type and response body type.
pub trait Request {
    const COMMAND: &'static str;
    /// The debuggee runs once the adapter takes this request (see `transport`'s `Resumed`).
    const RESUMES: bool = false;
    /// The adapter may run the debuggee's code for it (an expression that calls a function)
    /// without the program resuming: see `transport`'s `CallStarted`.
    const CALLS: bool = false;
    type Arguments: Serialize;
    type Response: DeserializeOwned;
}

macro_rules! requests {
    (@flag resumes) => { const RESUMES: bool = true; };
    (@flag calls) => { const CALLS: bool = true; };
    ($($name:ident = $command:literal ($args:ty) -> $response:ty $(, $flag:ident)?;)*) => {$(
        #[doc = concat!("The `", $command, "` request.")]
        pub enum $name {}
        impl Request for $name {
            const COMMAND: &'static str = $command;
            $(requests!(@flag $flag);)?
            type Arguments = $args;
            type Response = $response;
        }
    )*};
}

requests! {
    Initialize = "initialize" (InitializeArguments) -> Capabilities;
    Launch = "launch" (Map<String, Value>) -> IgnoredAny;
    Attach = "attach" (Map<String, Value>) -> IgnoredAny;
    ConfigurationDone = "configurationDone" (()) -> IgnoredAny;
    Disconnect = "disconnect" (DisconnectArguments) -> IgnoredAny;
    SetBreakpoints = "setBreakpoints" (SetBreakpointsArguments) -> BreakpointsResponse;
    SetFunctionBreakpoints = "setFunctionBreakpoints" (SetFunctionBreakpointsArguments) -> BreakpointsResponse;
    SetExceptionBreakpoints = "setExceptionBreakpoints" (SetExceptionBreakpointsArguments) -> BreakpointsResponse;
    Continue = "continue" (ThreadArguments) -> IgnoredAny, resumes;
    Next = "next" (StepArguments) -> IgnoredAny, resumes;
    StepIn = "stepIn" (StepArguments) -> IgnoredAny, resumes;
    StepOut = "stepOut" (StepArguments) -> IgnoredAny, resumes;
    Pause = "pause" (ThreadArguments) -> IgnoredAny;
    Threads = "threads" (()) -> ThreadsResponse;
    StackTrace = "stackTrace" (StackTraceArguments) -> StackTraceResponse;
    Scopes = "scopes" (ScopesArguments) -> ScopesResponse;
    Variables = "variables" (VariablesArguments) -> VariablesResponse;
    Evaluate = "evaluate" (EvaluateArguments) -> EvaluateResponse, calls;
    SetVariable = "setVariable" (SetVariableArguments) -> SetValueResponse;
    SetExpression = "setExpression" (SetExpressionArguments) -> SetValueResponse, calls;
    ExceptionInfo = "exceptionInfo" (ThreadArguments) -> ExceptionInfoResponse;
    DataBreakpointInfo = "dataBreakpointInfo" (DataBreakpointInfoArguments) -> DataBreakpointInfoResponse;
    SetDataBreakpoints = "setDataBreakpoints" (SetDataBreakpointsArguments) -> BreakpointsResponse;
}

/// Reads a field as its default when it is `null` or of another type than expected.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned + Default>(d: D) -> Result<T, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(T::deserialize(v).unwrap_or_default())
}

// ---- requests' arguments ----

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeArguments {
    #[serde(rename = "clientID")]
    pub client_id: &'static str,
    pub client_name: &'static str,
    #[serde(rename = "adapterID")]
    pub adapter_id: &'static str,
    pub locale: &'static str,
    pub lines_start_at1: bool,
    pub columns_start_at1: bool,
    pub path_format: &'static str,
    pub supports_variable_type: bool,
    pub supports_variable_paging: bool,
    pub supports_run_in_terminal_request: bool,
    pub supports_progress_reporting: bool,
    pub supports_invalidated_event: bool,
    pub supports_start_debugging_request: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DisconnectArguments {
    pub terminate_debuggee: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceArgument {
    pub path: String,
}

/// What a watch expression names, asked in a frame (`name` is the expression).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DataBreakpointInfoArguments {
    pub name: String,
    pub frame_id: i64,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct DataBreakpointInfoResponse {
    /// Absent when the expression names nothing that can be watched (`description` says why).
    #[serde(deserialize_with = "lenient")]
    pub data_id: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub description: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDataBreakpointsArguments {
    pub breakpoints: Vec<DataBreakpoint>,
}

#[derive(Serialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct DataBreakpoint {
    pub data_id: String,
    /// "read", "write" or "readWrite".
    pub access_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetBreakpointsArguments {
    pub source: SourceArgument,
    pub breakpoints: Vec<SourceBreakpoint>,
    pub source_modified: bool,
}

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct SourceBreakpoint {
    pub line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_message: Option<String>,
}

#[derive(Serialize)]
pub struct SetFunctionBreakpointsArguments {
    pub breakpoints: Vec<FunctionBreakpoint>,
}

#[derive(Serialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct FunctionBreakpoint {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_condition: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExceptionBreakpointsArguments {
    pub filters: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter_options: Option<Vec<ExceptionFilterOptions>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception_options: Option<Vec<ExceptionOptions>>,
}

/// Exceptions named by a path of names (`["Python Exceptions"], ["KeyError"]`) and when to
/// break on them (`always`, `unhandled`, `userUnhandled`).
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionOptions {
    pub path: Vec<ExceptionPathSegment>,
    pub break_mode: String,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ExceptionPathSegment {
    pub names: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionFilterOptions {
    pub filter_id: String,
    pub condition: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThreadArguments {
    pub thread_id: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepArguments {
    pub thread_id: i64,
    pub granularity: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StackTraceArguments {
    pub thread_id: i64,
    pub start_frame: u32,
    /// 0 = all frames.
    pub levels: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScopesArguments {
    pub frame_id: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VariablesArguments {
    pub variables_reference: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

impl VariablesArguments {
    pub fn all(variables_reference: i64) -> Self {
        Self {
            variables_reference,
            start: None,
            count: None,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateArguments {
    pub expression: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
    /// "watch" (expressions) or "repl" (statements; gdb: CLI commands).
    pub context: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetVariableArguments {
    pub variables_reference: i64,
    pub name: String,
    pub value: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetExpressionArguments {
    pub expression: String,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<i64>,
}

// ---- response bodies and their parts ----

/// What an adapter can do (`initialize` response, `capabilities` event).
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct Capabilities {
    #[serde(deserialize_with = "lenient")]
    pub supports_configuration_done_request: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_set_variable: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_set_expression: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_variable_paging: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_exception_filter_options: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_exception_info_request: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_exception_options: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub exception_breakpoint_filters: Option<Vec<ExceptionBreakpointsFilter>>,
    #[serde(deserialize_with = "lenient")]
    pub supports_data_breakpoints: Option<bool>,
    #[serde(deserialize_with = "lenient")]
    pub supports_function_breakpoints: Option<bool>,
}

impl Capabilities {
    /// A `capabilities` event changes only what it names.
    pub fn merge(&mut self, other: Capabilities) {
        macro_rules! take {
            ($($f:ident),*) => {$( if other.$f.is_some() { self.$f = other.$f; } )*};
        }
        take!(
            supports_configuration_done_request,
            supports_set_variable,
            supports_set_expression,
            supports_variable_paging,
            supports_exception_filter_options,
            supports_exception_info_request,
            supports_exception_options,
            exception_breakpoint_filters,
            supports_data_breakpoints,
            supports_function_breakpoints
        );
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct ExceptionBreakpointsFilter {
    #[serde(deserialize_with = "lenient")]
    pub filter: String,
    #[serde(deserialize_with = "lenient")]
    pub label: String,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct Source {
    #[serde(deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub path: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub source_reference: Option<i64>,
    #[serde(deserialize_with = "lenient")]
    pub presentation_hint: Option<String>,
}

impl Source {
    /// `"source": {}` (debugpy marks log-point output so).
    pub fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.path.is_none()
            && self.source_reference.is_none()
            && self.presentation_hint.is_none()
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct BreakpointsResponse {
    #[serde(deserialize_with = "lenient")]
    pub breakpoints: Vec<Breakpoint>,
}

/// A breakpoint as the adapter bound it (responses and `breakpoint` events).
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct Breakpoint {
    #[serde(deserialize_with = "lenient")]
    pub id: Option<i64>,
    #[serde(deserialize_with = "lenient")]
    pub verified: bool,
    #[serde(deserialize_with = "lenient")]
    pub line: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub message: Option<String>,
    /// "pending" / "failed" (DAP 1.65), when there is no message.
    #[serde(deserialize_with = "lenient")]
    pub reason: Option<String>,
    /// Where a function breakpoint bound.
    #[serde(deserialize_with = "lenient")]
    pub source: Option<Source>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct ThreadsResponse {
    #[serde(deserialize_with = "lenient")]
    pub threads: Vec<Thread>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct Thread {
    #[serde(deserialize_with = "lenient")]
    pub id: Option<i64>,
    #[serde(deserialize_with = "lenient")]
    pub name: String,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct StackTraceResponse {
    #[serde(deserialize_with = "lenient")]
    pub stack_frames: Vec<StackFrame>,
    #[serde(deserialize_with = "lenient")]
    pub total_frames: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct StackFrame {
    #[serde(deserialize_with = "lenient")]
    pub id: i64,
    #[serde(deserialize_with = "lenient")]
    pub name: String,
    #[serde(deserialize_with = "lenient")]
    pub source: Option<Source>,
    /// 0 (or absent) when the frame has no source position.
    #[serde(deserialize_with = "lenient")]
    pub line: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub presentation_hint: Option<String>,
    /// The frame's program counter ("0x6161616161616161"), what is left of a frame without
    /// source or symbol.
    #[serde(deserialize_with = "lenient")]
    pub instruction_pointer_reference: Option<String>,
}

impl StackFrame {
    pub fn path(&self) -> Option<&str> {
        self.source.as_ref()?.path.as_deref()
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct ScopesResponse {
    #[serde(deserialize_with = "lenient")]
    pub scopes: Vec<Scope>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct Scope {
    #[serde(deserialize_with = "lenient")]
    pub name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub presentation_hint: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub variables_reference: i64,
    #[serde(deserialize_with = "lenient")]
    pub named_variables: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub indexed_variables: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct VariablesResponse {
    #[serde(deserialize_with = "lenient")]
    pub variables: Vec<Variable>,
}

/// A value as adapters show it; evaluate and set results are turned into one too.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct Variable {
    #[serde(deserialize_with = "lenient")]
    pub name: String,
    #[serde(deserialize_with = "lenient")]
    pub value: String,
    #[serde(rename = "type", deserialize_with = "lenient")]
    pub type_name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub variables_reference: i64,
    #[serde(deserialize_with = "lenient")]
    pub evaluate_name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub named_variables: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub indexed_variables: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct EvaluateResponse {
    #[serde(deserialize_with = "lenient")]
    pub result: String,
    #[serde(rename = "type", deserialize_with = "lenient")]
    pub type_name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub variables_reference: i64,
    #[serde(deserialize_with = "lenient")]
    pub named_variables: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub indexed_variables: Option<u64>,
}

impl EvaluateResponse {
    /// The result as a value named by (and re-evaluable as) its expression.
    pub fn into_variable(self, expression: &str) -> Variable {
        Variable {
            name: expression.to_string(),
            value: self.result,
            type_name: self.type_name,
            variables_reference: self.variables_reference,
            evaluate_name: Some(expression.to_string()),
            named_variables: self.named_variables,
            indexed_variables: self.indexed_variables,
        }
    }
}

/// Body of `setVariable` and `setExpression`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct SetValueResponse {
    #[serde(deserialize_with = "lenient")]
    pub value: String,
    #[serde(rename = "type", deserialize_with = "lenient")]
    pub type_name: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub variables_reference: i64,
    #[serde(deserialize_with = "lenient")]
    pub named_variables: Option<u64>,
    #[serde(deserialize_with = "lenient")]
    pub indexed_variables: Option<u64>,
}

impl SetValueResponse {
    pub fn into_variable(self, name: String, evaluate_name: Option<String>) -> Variable {
        Variable {
            name,
            value: self.value,
            type_name: self.type_name,
            variables_reference: self.variables_reference,
            evaluate_name,
            named_variables: self.named_variables,
            indexed_variables: self.indexed_variables,
        }
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct ExceptionInfoResponse {
    #[serde(deserialize_with = "lenient")]
    pub exception_id: String,
    #[serde(deserialize_with = "lenient")]
    pub description: Option<String>,
}

// ---- events ----

/// An event from the adapter, or one the transport adds in order with them.
#[derive(Debug, Clone)]
pub enum Event {
    Initialized,
    Stopped(StoppedEvent),
    Continued,
    Exited(ExitedEvent),
    Terminated,
    Output(OutputEvent),
    Breakpoint(BreakpointEvent),
    Process(ProcessEvent),
    Capabilities(CapabilitiesEvent),
    /// Any other event (thread, module, loadedSource, …): not needed headless.
    Other(String),
    /// Synthetic: a resuming request is being sent (queued before its bytes go out).
    Resumed,
    /// Synthetic: a request that may call the debuggee's functions ([`Request::CALLS`]) is
    /// being sent. The adapter's `continued`/`stopped` for such a call come before
    /// [`Event::CallEnded`]: the program ran only inside the expression.
    CallStarted,
    /// Synthetic: that request was answered (queued before its answer is handed over).
    CallEnded,
    /// Synthetic: the adapter's output stream closed (the adapter is gone).
    Closed,
}

impl Event {
    /// The event named `event` with its `body` (absent: `null`).
    pub fn from_wire(event: &str, body: Value) -> Event {
        fn read<T: DeserializeOwned + Default>(body: Value) -> T {
            serde_json::from_value(body).unwrap_or_default()
        }
        match event {
            "initialized" => Event::Initialized,
            "stopped" => Event::Stopped(read(body)),
            "continued" => Event::Continued,
            "exited" => Event::Exited(read(body)),
            "terminated" => Event::Terminated,
            "output" => Event::Output(read(body)),
            "breakpoint" => Event::Breakpoint(read(body)),
            "process" => Event::Process(read(body)),
            "capabilities" => Event::Capabilities(read(body)),
            other => Event::Other(other.to_string()),
        }
    }
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct StoppedEvent {
    #[serde(deserialize_with = "lenient")]
    pub reason: String,
    #[serde(deserialize_with = "lenient")]
    pub description: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub thread_id: Option<i64>,
    #[serde(deserialize_with = "lenient")]
    pub text: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub hit_breakpoint_ids: Vec<i64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct ExitedEvent {
    #[serde(deserialize_with = "lenient")]
    pub exit_code: Option<i64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct OutputEvent {
    /// "console" when absent.
    #[serde(deserialize_with = "lenient")]
    pub category: Option<String>,
    #[serde(deserialize_with = "lenient")]
    pub output: String,
    #[serde(deserialize_with = "lenient")]
    pub source: Option<Source>,
    #[serde(deserialize_with = "lenient")]
    pub line: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct BreakpointEvent {
    /// "changed", "new" or "removed".
    #[serde(deserialize_with = "lenient")]
    pub reason: String,
    #[serde(deserialize_with = "lenient")]
    pub breakpoint: Option<Breakpoint>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct ProcessEvent {
    #[serde(deserialize_with = "lenient")]
    pub system_process_id: Option<u64>,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(default)]
pub struct CapabilitiesEvent {
    #[serde(deserialize_with = "lenient")]
    pub capabilities: Capabilities,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_null_and_mistyped_fields_read_as_defaults() {
        let v: Variable = serde_json::from_value(json!({
            "name": "x", "value": null, "type": 3, "variablesReference": "7",
            "presentationHint": {"kind": "data"}, "namedVariables": 2
        }))
        .unwrap();
        assert_eq!((v.name.as_str(), v.value.as_str()), ("x", ""));
        assert_eq!(
            (v.type_name, v.variables_reference, v.named_variables),
            (None, 0, Some(2))
        );
    }

    #[test]
    fn events_are_typed_and_bodyless_ones_default() {
        let Event::Stopped(s) = Event::from_wire(
            "stopped",
            json!({"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [4]}),
        ) else {
            panic!("not a stop")
        };
        assert_eq!(
            (s.reason.as_str(), s.thread_id, s.hit_breakpoint_ids),
            ("breakpoint", Some(1), vec![4])
        );
        assert!(matches!(
            Event::from_wire("exited", Value::Null),
            Event::Exited(ExitedEvent { exit_code: None })
        ));
        assert!(matches!(Event::from_wire("module", json!({})), Event::Other(n) if n == "module"));
        let Event::Output(o) = Event::from_wire("output", json!({"output": "hi", "source": {}}))
        else {
            panic!()
        };
        assert!(o.source.is_some_and(|s| s.is_empty()) && o.category.is_none());
    }

    #[test]
    fn capability_events_change_only_what_they_name() {
        let mut caps: Capabilities = serde_json::from_value(
            json!({"supportsSetVariable": true, "supportsSetExpression": true}),
        )
        .unwrap();
        caps.merge(serde_json::from_value(json!({"supportsSetExpression": false})).unwrap());
        assert_eq!(
            (caps.supports_set_variable, caps.supports_set_expression),
            (Some(true), Some(false))
        );
    }

    #[test]
    fn requests_serialise_in_dap_spelling() {
        let a = serde_json::to_value(VariablesArguments::all(5)).unwrap();
        assert_eq!(a, json!({"variablesReference": 5}));
        let i = serde_json::to_value(SetBreakpointsArguments {
            source: SourceArgument {
                path: "/a.py".into(),
            },
            breakpoints: vec![SourceBreakpoint {
                line: 3,
                hit_condition: Some("2".into()),
                ..Default::default()
            }],
            source_modified: false,
        })
        .unwrap();
        assert_eq!(
            i,
            json!({"source": {"path": "/a.py"}, "breakpoints": [{"line": 3, "hitCondition": "2"}], "sourceModified": false})
        );
    }
}
