//! The handler over a real MCP connection (rmcp client and server on an in-memory duplex pipe):
//! initialize, tools/list, tools/call, and confirmation through MCP elicitation.

#[path = "tools_common/mod.rs"]
mod common;

use common::H;
use debugger_mcp_core::config::Config;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation, InitializeRequestParams,
};
use rmcp::service::{RequestContext, RoleClient};
use rmcp::{ClientHandler, ErrorData as McpError, ServiceExt};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone)]
struct Client {
    elicitation: bool,
    accept: bool,
    asked: Arc<AtomicUsize>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps = if self.elicitation {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        InitializeRequestParams::new(caps, Implementation::new("test-client", "0.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        let ElicitRequestParams::FormElicitationParams { message, .. } = request else {
            return Err(McpError::invalid_params("expected a form", None));
        };
        assert!(message.contains("start a debug session"), "{message}");
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(ElicitResult::new(if self.accept {
            ElicitationAction::Accept
        } else {
            ElicitationAction::Decline
        }))
    }
}

fn args(v: serde_json::Value) -> rmcp::model::JsonObject {
    v.as_object().unwrap().clone()
}

async fn connect(h: &H, client: Client) -> rmcp::service::RunningService<RoleClient, Client> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let handler = h.engine.handler();
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(client_io).await.expect("initialize")
}

#[tokio::test]
async fn tools_over_mcp_with_elicitation() {
    let h = H::new(Config::default());
    let asked = Arc::new(AtomicUsize::new(0));
    let client = connect(
        &h,
        Client {
            elicitation: true,
            accept: true,
            asked: asked.clone(),
        },
    )
    .await;
    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "debugger-mcp");
    assert!(
        info.instructions
            .as_deref()
            .unwrap()
            .contains("wait_for_pause")
    );
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), common::expected_tool_count());
    let sb = tools.iter().find(|t| t.name == "set_breakpoint").unwrap();
    assert_eq!(
        sb.annotations.as_ref().unwrap().destructive_hint,
        Some(false)
    );
    // Output schemas are not advertised (issue 6: 13.7 KB of every session's context); the
    // fake-backend suite validates every result against the engine's output schema instead.
    assert!(sb.output_schema.is_none());

    let r = client
        .call_tool(
            CallToolRequestParams::new("set_breakpoint")
                .with_arguments(args(json!({"file_path": "main.py", "line": 8}))),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false));
    assert_eq!(r.structured_content.unwrap()["line"], 8);

    // Destructive: the user is asked through the client and accepts.
    let r = client
        .call_tool(
            CallToolRequestParams::new("start_debug_session").with_arguments(args(
                json!({"run_configuration": "main", "wait_for_pause": true}),
            )),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(
        r.structured_content.unwrap()["pause"]["location"]["line"],
        8
    );

    let r = client
        .call_tool(
            CallToolRequestParams::new("step_over")
                .with_arguments(args(json!({"timeout_ms": "soon"}))),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    let text = &r.content[0].as_text().unwrap().text;
    assert!(
        text.contains("'timeout_ms'") && text.contains("integer") && text.contains("\"soon\""),
        "{text}"
    );

    assert!(
        client
            .call_tool(CallToolRequestParams::new("no_such_tool"))
            .await
            .is_err()
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn declined_elicitation_and_clients_without_it() {
    let h = H::new(Config::default());
    let asked = Arc::new(AtomicUsize::new(0));
    let client = connect(
        &h,
        Client {
            elicitation: true,
            accept: false,
            asked: asked.clone(),
        },
    )
    .await;
    let start = CallToolRequestParams::new("start_debug_session")
        .with_arguments(args(json!({"run_configuration": "main"})));
    let r = client.call_tool(start.clone()).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(r.content[0].as_text().unwrap().text.contains("declined"));
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    client.cancel().await.unwrap();

    let plain = connect(
        &h,
        Client {
            elicitation: false,
            accept: true,
            asked: asked.clone(),
        },
    )
    .await;
    let r = plain.call_tool(start).await.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert!(
        r.content[0]
            .as_text()
            .unwrap()
            .text
            .contains("brave_mode = true")
    );
    assert_eq!(
        asked.load(Ordering::SeqCst),
        1,
        "a client without elicitation is never asked"
    );
    assert!(!h.fake.calls().iter().any(|c| c.starts_with("launch")));
    plain.cancel().await.unwrap();
}

/// 2026-07-28 forbids server-to-client requests: the confirmation travels as an
/// `input_required` result and the client's retry carries the answer.
#[tokio::test]
async fn stateless_revision_confirms_through_input_required() {
    use rmcp::model::{InitializeResult, ProtocolVersion, ServerCapabilities};
    use rmcp::service::{RoleServer, serve_directly};
    let h = H::new(Config::default());
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let server_peer_info = InitializeRequestParams::new(
        ClientCapabilities::builder().enable_elicitation().build(),
        Implementation::new("stateless-client", "0.0.0"),
    )
    .with_protocol_version(ProtocolVersion::V_2026_07_28);
    let mut client_peer_info =
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
    client_peer_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let handler = h.engine.handler();
    tokio::spawn(async move {
        let running =
            serve_directly::<RoleServer, _, _, _, _>(handler, server_io, Some(server_peer_info));
        let _ = running.waiting().await;
    });
    let asked = Arc::new(AtomicUsize::new(0));
    let client = serve_directly::<RoleClient, _, _, _, _>(
        Client {
            elicitation: true,
            accept: true,
            asked: asked.clone(),
        },
        client_io,
        Some(client_peer_info.into()),
    );
    let r = client
        .call_tool(
            CallToolRequestParams::new("start_debug_session")
                .with_arguments(args(json!({"run_configuration": "main"}))),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert_eq!(
        h.fake
            .calls()
            .iter()
            .filter(|c| c.starts_with("launch"))
            .count(),
        1
    );
}
