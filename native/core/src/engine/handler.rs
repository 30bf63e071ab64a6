//! rmcp glue: `ServerHandler` for the engine. Tool listing is a clone of a prebuilt list; calls
//! go to [`Engine::call_tool`]. Confirmation uses MCP elicitation when the client declared it.

use super::Engine;
use super::context::{CallContext, ClientSessions, Confirmer};
use super::resources::{self, Subscriber};
use crate::config::ToolProfile;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ElicitRequest,
    ElicitRequestParams, ElicitationAction, ElicitationSchema, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, InputRequest, InputRequiredResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
#[allow(deprecated)]
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{ElicitationMode, Peer, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData as McpError, ServerHandler};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Interval of `notifications/progress` while a tool call waits (when the client sent a
/// progress token).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Key of the confirmation in a 2026-07-28 `input_required` round trip.
const CONFIRM_KEY: &str = "confirm";

pub(crate) const INSTRUCTIONS: &str = "Debugger MCP drives a real debugger. The first answer takes one call:
- A program: start_debug_session {command: 'python3 app.py' (or run_configuration), breakpoints: [{file_path, line} or {function}, optional condition / hit_condition], evaluate: ['x', 'len(items)']} sets the breakpoints, runs to the first stop and returns it with those values, the frame's locals, its callers and the source line. debug_test takes the same for one test.
- A running process's state now: capture {attach: '4242' (its pid, or a debug port's host:port), expressions: [...]} (no points, no command) pauses it once, reads each expression in the first frame that has its names, detaches: like gdb -batch -p. start_debug_session {attach, evaluate} reads the same and stays attached, running.
- A running service, to read and leave: capture {attach: pid or host:port, command: 'curl -s localhost:8000/x', points: [{file_path, line}], expressions: [...]} attaches, runs command as a shell would, records at each hit while it runs, then detaches: nothing left paused, no stop call.
- A running service, to stop and step: start_debug_session {attach, command, breakpoints, evaluate} answers the stop the request causes (the command's exit and output come with this or a later result); wait_for_pause {command, evaluate} sends it again and answers its stop; without command, send the request yourself, then wait_for_pause. stop_debug_session detaches, and the request the pause held is answered then. While you have an attached session, capture's command (without run_configuration) is its trigger, never a new program: the session stays attached and running (with several, name it by attach or session_id; to launch a program instead, stop_debug_session first).
- Every call of a function: breakpoints [{function, on_hit: 'record'}] only runs to the end and returns each call (arguments, result, caller); get_call_records reads them again.
- No line number needed: points, breakpoints and run_to_line take {file_path, text: 'total += price'} (a fragment of the line, as a field of its own) instead of {file_path, line}; file_path is optional (the project's sources are searched); capture points also take {function: 'Cart.add'} (recorded at its entry).
Then step_over / step_into / step_out / resume / run_to_line / pause / wait_for_pause, each with evaluate: [...], wait for the next stop and return it with those values. \
After the start, set_breakpoint {breakpoints: [...]} sets several (the same items; one that fails fails alone). Any breakpoint takes after: an id (in a list, also an earlier item's index): it stops only once that one was hit in the session. capture without attach runs command (or resumes) and records at many hits without stopping.
PHP (Xdebug connects to the server): a script is command: 'php x.php'; a web request is command: \"curl 'URL'\" (the server listens and adds the trigger cookie); a running php -S / php-fpm is attach: its pid, or, in a container or on another host, attach: '127.0.0.1:9013', the address its Xdebug connects to (xdebug.client_port), where the server listens (a request you send yourself needs the XDEBUG_SESSION cookie). \
Commands are read as a shell reads them (quote a URL holding &) and run in the project's root unless cwd is given. Expressions and conditions are the program's language ($id === 'R-1' in PHP).
get_debug_session_status, get_variables / expand_variable (ids like v3 last until the program resumes), evaluate_expression and watches read more at a stop. \
capture shows values as evaluate_expression does, whole up to 16,000 chars shared by its expressions, when it records one hit (rows of several hits share 6,000). A value marked (cut: 200 of 6,041 chars) is whole in evaluate_expression (after a read that detached: capture it alone); a slice reads on where its text ends (the result says where: s[16000:32000]). \
A search is one expression wherever expressions are taken: 'recs[i].name for i in 0..n_recs if recs[i].cp == 7' (each i from 0 to n_recs-1), on C/C++ also a list walk 'n->name for n in head, n->next if n->v > 2' (s == \"x\" compares a C string's text; gdb: *p@n shows n elements); it answers the matches as rows (i=17: value). \
Nothing to tidy: your breakpoints (and, headless, your debug sessions) go when your MCP session ends; a program that ended needs no stop; stop_debug_session also removes your breakpoints unless keep_breakpoints.
Lines, counts and limits start at 1 (indexes at 0); file paths may be relative to the project; strings hold at most 1024 characters (file paths, cwd 4096; expressions, conditions, log messages, values, value paths, filters, commands 16384; code 65536); unless a default is stated, flags (booleans) default to false, enums to their first value and offsets to 0. Waiting tools wait (wait: true) up to timeout_ms (default 30000, at most 55000); if a result says the program is still running, call wait_for_pause. \
max_children and expand_variable's limit default to the settings' max_children. \
Parameters the tool list leaves out: every tool takes project_path (needed only when several projects are open; the error lists them) and, for session tools, session_id (default: the current session); the waiting tools take wait and timeout_ms; stepping, stack, variable and evaluation tools take thread_id (default: the stopped thread) and the frame tools frame_index (0 = top frame, default the one chosen with select_stack_frame); what takes evaluate or expressions (starts, steps, capture) also takes allow_side_effects, as evaluate_expression does, and capture takes start_debug_session's adapter. \
Starting sessions, setting variables and side-effecting evaluation ask the user first unless brave mode is on. \
With the compact tool profile these tools are ops of the single `debugger` tool: {\"op\": \"step_over\"}.";

pub struct McpHandler {
    engine: Arc<Engine>,
    /// This connection's resource subscriptions. Hosts clone the handler once per connection
    /// (session), so a clone starts with none.
    subscriber: Arc<OnceLock<Arc<Subscriber>>>,
    /// Minimum level of `notifications/message` the client asked for with `logging/setLevel`
    /// (initialize-era revisions; SEP-2577 drops logging from 2026-07-28). `None` until a client
    /// sets one: agents pay for every token, so nothing is logged unasked. Per connection, like
    /// `subscriber` (MCP: the level is what *this* client wants to receive): one agent asking for
    /// logs must not start logging to every other agent of the server.
    #[allow(deprecated)]
    log_level: Arc<Mutex<Option<LoggingLevel>>>,
    /// Host-specific sentence appended to the instructions (e.g. the stdio bridge saying it
    /// found no IDE and serves headless).
    instructions_note: Option<Arc<str>>,
    /// Debug sessions this connection (MCP session) started; per connection like `subscriber`.
    client: Arc<ClientSessions>,
}

impl McpHandler {
    pub(super) fn new(engine: Arc<Engine>) -> Self {
        let client = Arc::new(ClientSessions::new(&engine));
        Self {
            engine,
            subscriber: Arc::default(),
            log_level: Arc::new(Mutex::new(None)),
            instructions_note: None,
            client,
        }
    }

    /// Appends `note` to the server instructions the client sees at initialize.
    pub fn with_instructions_note(mut self, note: impl Into<Arc<str>>) -> Self {
        self.instructions_note = Some(note.into());
        self
    }

    fn subscriber(&self, peer: &Peer<RoleServer>) -> Arc<Subscriber> {
        self.subscriber
            .get_or_init(|| {
                let sub = Arc::new(Subscriber::new(peer.clone()));
                self.engine.subscribers.add(&sub);
                sub
            })
            .clone()
    }

    /// Sends a one-line log of a finished tool call when the client asked for that level:
    /// failures at `warning`, stops and session changes at `info`.
    #[allow(deprecated)]
    async fn log_outcome(
        &self,
        peer: &Peer<RoleServer>,
        tool: &str,
        result: &rmcp::model::CallToolResult,
    ) {
        let Some(min) = *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) else {
            return;
        };
        let (level, line) = if result.is_error == Some(true) {
            let text = result
                .content
                .first()
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone())
                .unwrap_or_default();
            (LoggingLevel::Warning, format!("{tool} failed: {text}"))
        } else {
            let Some(v) = result.structured_content.as_ref() else {
                return;
            };
            let (Some(sid), Some(state)) = (v["session_id"].as_str(), v["state"].as_str()) else {
                return;
            };
            let mut line = format!("{tool}: session {sid} {state}");
            if let (Some(file), Some(n)) = (
                v["location"]["file"].as_str(),
                v["location"]["line"].as_u64(),
            ) {
                line.push_str(&format!(" at {file}:{n}"));
            }
            if let Some(reason) = v["reason"].as_str() {
                line.push_str(&format!(" ({reason})"));
            }
            (LoggingLevel::Info, line)
        };
        if level_rank(level) < level_rank(min) {
            return;
        }
        let note = LoggingMessageNotificationParam::new(level, Value::String(line))
            .with_logger("debugger-mcp");
        // A client that went away cannot be logged to; the tool result still stands.
        let _ = peer.notify_logging_message(note).await;
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }
}

impl Clone for McpHandler {
    fn clone(&self) -> Self {
        Self {
            engine: self.engine.clone(),
            subscriber: Arc::default(),
            log_level: Arc::default(),
            instructions_note: self.instructions_note.clone(),
            client: Arc::new(ClientSessions::new(&self.engine)),
        }
    }
}

fn confirm_form(message: &str) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.to_string(),
        requested_schema: ElicitationSchema::new(BTreeMap::new()),
    }
}

/// Asks through the connected client with an empty form: accept = go ahead. Session-based
/// protocol revisions (server-to-client requests allowed).
struct PeerConfirmer(Peer<RoleServer>);

#[async_trait::async_trait]
impl Confirmer for PeerConfirmer {
    async fn confirm(&self, message: &str) -> Result<bool, String> {
        let answer = self
            .0
            .create_elicitation(confirm_form(message))
            .await
            .map_err(|e| e.to_string())?;
        Ok(matches!(answer.action, ElicitationAction::Accept))
    }
}

/// Stateless revisions (2026-07-28) forbid server-to-client requests: the first round records
/// the question (the call then ends with `input_required`), the client's retry carries the answer.
/// Tools ask before doing anything destructive, so re-running the call on retry is safe.
#[derive(Default)]
struct RoundTripConfirmer {
    answer: Option<bool>,
    asked: Mutex<Option<String>>,
}

#[async_trait::async_trait]
impl Confirmer for RoundTripConfirmer {
    async fn confirm(&self, message: &str) -> Result<bool, String> {
        if let Some(answer) = self.answer {
            return Ok(answer);
        }
        *self.asked.lock().unwrap_or_else(|e| e.into_inner()) = Some(message.to_string());
        Err("asked through input_required".into())
    }
}

impl crate::http::ListenPolicy for McpHandler {
    fn check_resource_subscription(&self, uri: &str) -> Result<(), String> {
        resources::check_subscribable(uri)
    }
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)]
        let capabilities = ServerCapabilities::builder()
            .enable_logging()
            .enable_prompts()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_tools()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new("debugger-mcp", env!("CARGO_PKG_VERSION"))
                    .with_title("Debugger MCP")
                    .with_description("Lets AI agents drive a debugger: breakpoints, sessions, stepping, variables, evaluation, watches."),
            )
            .with_instructions(match &self.instructions_note {
                Some(note) => format!("{INSTRUCTIONS}\n\n{note}"),
                None => INSTRUCTIONS.to_string(),
            })
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let profile = match requested_profile(&context) {
            Some(Ok(p)) => p,
            Some(Err(bad)) => {
                return Err(McpError::invalid_params(
                    format!(
                        "unknown tool profile '{bad}' in the URL query; use profile=full, profile=compact or profile=typed"
                    ),
                    None,
                ));
            }
            None => self.engine.tool_profile(),
        };
        Ok(ListToolsResult::with_all_items(
            (*self.engine.tools_for(profile)).clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.engine.tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if self.engine.tool(request.name.as_ref()).is_none() {
            return Err(McpError::invalid_params(
                format!(
                    "params.name: unknown tool '{}'; tools/list shows the tools",
                    clip(&request.name, 80)
                ),
                None,
            ));
        }
        let stateless = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        let mut round_trip = None;
        let confirmer: Option<Arc<dyn Confirmer>> = if stateless {
            let answer = request
                .input_responses
                .as_ref()
                .and_then(|r| r.get(CONFIRM_KEY))
                .map(|v| v["action"] == "accept");
            let client_elicits = context
                .client_capabilities()
                .is_some_and(|c| c.elicitation.is_some());
            (answer.is_some() || client_elicits).then(|| {
                let rt = Arc::new(RoundTripConfirmer {
                    answer,
                    asked: Mutex::new(None),
                });
                round_trip = Some(rt.clone());
                rt as Arc<dyn Confirmer>
            })
        } else if context
            .peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
        {
            Some(Arc::new(PeerConfirmer(context.peer.clone())))
        } else {
            None
        };
        let ctx = CallContext {
            confirmer,
            client: (!stateless).then(|| self.client.clone()),
        };
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let call = self.engine.call_tool(&request.name, args, &ctx);
        let token = context.meta.get_progress_token().filter(|_| !stateless);
        let result = match token {
            None => call.await,
            Some(token) => {
                // Long waits (resume, wait_for_pause, launches) tell the client they are alive.
                tokio::pin!(call);
                let started = Instant::now();
                let mut tick = tokio::time::interval_at(
                    tokio::time::Instant::now() + PROGRESS_EVERY,
                    PROGRESS_EVERY,
                );
                // Progress must increase at every notification: count them.
                let mut n = 0u32;
                loop {
                    tokio::select! {
                        r = &mut call => break r,
                        _ = tick.tick() => {
                            n += 1;
                            let secs = started.elapsed().as_secs();
                            let note = ProgressNotificationParam::new(token.clone(), f64::from(n))
                                .with_message(format!("{}: waiting, {secs} s", request.name));
                            let _ = context.peer.notify_progress(note).await;
                        }
                    }
                }
            }
        };
        if let Some(question) =
            round_trip.and_then(|rt| rt.asked.lock().unwrap_or_else(|e| e.into_inner()).take())
        {
            let ask = InputRequest::Elicitation(ElicitRequest::new(confirm_form(&question)));
            return Ok(CallToolResponse::InputRequired(
                InputRequiredResult::from_input_requests(BTreeMap::from([(
                    CONFIRM_KEY.to_string(),
                    ask,
                )])),
            ));
        }
        if !stateless {
            self.log_outcome(&context.peer, &request.name, &result)
                .await;
        }
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(
            self.engine.resource_list(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        match self.engine.read_resource(&request.uri).await {
            Ok(contents) => Ok(ReadResourceResponse::Complete(ReadResourceResult::new(
                vec![contents],
            ))),
            Err(message) => Err(McpError::resource_not_found(
                message,
                Some(serde_json::json!({"uri": request.uri})),
            )),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.subscriber(&context.peer).subscribe(&request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.subscriber(&context.peer).unsubscribe(&request.uri);
        Ok(())
    }

    /// 2026-07-28 `subscriptions/listen`: resource updates only. The tool and prompt lists never
    /// change while the server runs, and no `list_changed` is advertised, so rmcp leaves those
    /// types out of the acknowledgement. URIs this server can never serve are left out too (the
    /// HTTP router already rejected them with an error naming them; see `http::listen`).
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| resources::check_subscribable(uri).is_ok())
            .cloned()
            .collect();
        Some(
            SubscriptionFilter::builder()
                .resource_subscriptions(uris)
                .build(),
        )
    }

    /// Feeds one listen stream from the same updates initialize-era subscribers get, until the
    /// client closes the stream (or the server shuts down, which closes it too).
    async fn listen(&self, context: SubscriptionContext) -> Result<(), McpError> {
        let uris = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let sub = Arc::new(Subscriber::listening(context.sink().clone(), uris));
        self.engine.subscribers.add(&sub);
        context.cancelled().await;
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(resources::prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let args = request.arguments.unwrap_or_default();
        match self.engine.prompt_messages(&request.name, &args) {
            Ok((description, messages)) => Ok(GetPromptResponse::Complete(
                GetPromptResult::new(messages).with_description(description),
            )),
            Err(message) => Err(McpError::invalid_params(message, None)),
        }
    }

    /// rmcp hands us every request it could not parse as a known MCP request: an unknown method,
    /// or a known one whose params do not fit (then its default answer, -32601 with the bare
    /// method name, would misdirect the client). Known methods get -32602 naming the field.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        Err(custom_request_error(
            &request.method,
            request.params.as_ref(),
        ))
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = Some(request.level);
        Ok(())
    }
}

/// `?profile=full|compact` on the HTTP request that carried this MCP message (rmcp puts the
/// request parts into the extensions). Clients send every request to the URL they were
/// configured with, so the query holds for the whole connection. `None` without a query (stdio,
/// legacy SSE, no `profile` key): the configured profile applies.
fn requested_profile(context: &RequestContext<RoleServer>) -> Option<Result<ToolProfile, String>> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let value = parts
        .uri
        .query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("profile="))?;
    Some(ToolProfile::parse(value).ok_or_else(|| value.chars().take(40).collect()))
}

/// Methods this server answers (what an unknown method's error lists).
const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "subscriptions/listen",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
];

/// First `max` characters of client text echoed in an error.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The error for a request rmcp could not parse (see `on_custom_request`).
pub(crate) fn custom_request_error(method: &str, params: Option<&Value>) -> McpError {
    if !METHODS.contains(&method) {
        return McpError::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "Method not found: '{}'. This server implements {}",
                clip(method, 80),
                METHODS.join(", ")
            ),
            None,
        );
    }
    let problem = match (method, params) {
        (_, Some(p)) if !p.is_object() => format!("params must be an object, received {}", kind(p)),
        ("tools/call", Some(p)) => match (p.get("name"), p.get("arguments")) {
            (None, _) => {
                "params.name: required (the tool to call; tools/list shows them)".to_string()
            }
            (Some(n), _) if !n.is_string() => {
                format!("params.name: expected a string, received {}", kind(n))
            }
            (_, Some(a)) if !a.is_object() && !a.is_null() => {
                format!(
                    "params.arguments: expected an object of the tool's parameters, received {}",
                    kind(a)
                )
            }
            _ => {
                "params do not match tools/call: expected {\"name\": string, \"arguments\": object}"
                    .to_string()
            }
        },
        ("tools/call", None) => {
            "params: required ({\"name\": tool, \"arguments\": {...}})".to_string()
        }
        ("resources/read" | "resources/subscribe" | "resources/unsubscribe", p) => {
            match p.and_then(|p| p.get("uri")) {
                None => "params.uri: required (resources/list shows the resources)".to_string(),
                Some(u) if !u.is_string() => {
                    format!("params.uri: expected a string, received {}", kind(u))
                }
                _ => "params do not match the MCP schema: expected {\"uri\": string}".to_string(),
            }
        }
        ("prompts/get", p) => match p.and_then(|p| p.get("name")) {
            None => "params.name: required (prompts/list shows the prompts)".to_string(),
            Some(n) if !n.is_string() => {
                format!("params.name: expected a string, received {}", kind(n))
            }
            _ => "params.arguments: expected an object of string values".to_string(),
        },
        (m, _) => format!("params do not match the MCP schema of {m}"),
    };
    McpError::invalid_params(format!("Invalid params for {method}: {problem}"), None)
}

#[allow(deprecated)]
fn level_rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}
