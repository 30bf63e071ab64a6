//! rmcp glue: `ServerHandler` for the engine. Tool listing is a clone of a prebuilt list; calls
//! go to [`Engine::call_tool`]. Confirmation uses MCP elicitation when the client declared it.

use super::context::{CallContext, Confirmer};
use super::{Engine, registry};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ElicitRequestParams, ElicitationAction, ElicitationSchema, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{ElicitationMode, Peer, RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

const INSTRUCTIONS: &str = "Debugger MCP drives a real debugger. Typical workflow: \
1) set_breakpoint on the lines you suspect (file paths relative to the project root are fine); \
2) start_debug_session (a run configuration from list_run_configurations, or a command) with wait_for_pause: true; \
3) at a stop, get_debug_session_status shows location, stack, variables and source in one call; \
4) step_over / step_into / step_out / resume / run_to_line wait for the next stop and return the new location and variables; \
5) get_variables / expand_variable (ids like v3 are valid until the program resumes) and evaluate_expression to inspect; add_watch for values to track at every stop; \
6) remove_breakpoint with all_agent_breakpoints: true and stop_debug_session when done. \
Lines are 1-based. Waits are capped at 55 s; if a result says the program is still running, call wait_for_pause. \
Starting sessions, setting variables and side-effecting evaluation ask the user first unless brave mode is on.";

#[derive(Clone)]
pub struct McpHandler {
    engine: Arc<Engine>,
}

impl McpHandler {
    pub(super) fn new(engine: Arc<Engine>) -> Self {
        Self { engine }
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }
}

/// Asks through the connected client with an empty form: accept = go ahead.
struct PeerConfirmer(Peer<RoleServer>);

#[async_trait::async_trait]
impl Confirmer for PeerConfirmer {
    async fn confirm(&self, message: &str) -> Result<bool, String> {
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.to_string(),
            requested_schema: ElicitationSchema::new(BTreeMap::new()),
        };
        let answer = self.0.create_elicitation(params).await.map_err(|e| e.to_string())?;
        Ok(matches!(answer.action, ElicitationAction::Accept))
    }
}

impl ServerHandler for McpHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("debugger-mcp", env!("CARGO_PKG_VERSION"))
                    .with_title("Debugger MCP")
                    .with_description("Lets AI agents drive a debugger: breakpoints, sessions, stepping, variables, evaluation, watches."),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items((*registry::registry().tools).clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.engine.tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !registry::registry().specs.contains_key(request.name.as_ref()) {
            return Err(McpError::invalid_params(format!("unknown tool '{}'", request.name), None));
        }
        // Stateless (2026-07-28) requests cannot send server-to-client requests; rmcp then
        // fails the elicitation and the guard falls back to its refusal message.
        let can_elicit = context.peer.supported_elicitation_modes().contains(&ElicitationMode::Form);
        let ctx = CallContext { confirmer: can_elicit.then(|| Arc::new(PeerConfirmer(context.peer.clone())) as Arc<dyn Confirmer>) };
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        Ok(CallToolResponse::Complete(self.engine.call_tool(&request.name, args, &ctx).await))
    }
}
