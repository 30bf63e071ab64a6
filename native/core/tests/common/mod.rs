//! Shared pieces of the router tests: a tiny MCP server (tools `echo` and `add`) so the tests
//! do not depend on the engine, and helpers to drive the router with `tower::oneshot` — the
//! same way the IDE relays requests over JNI, no socket involved.
#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

#[derive(Clone, Default)]
pub struct TestHandler;

fn schema(v: Value) -> Arc<JsonObject> {
    Arc::new(v.as_object().unwrap().clone())
}

fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "echo",
            "Returns its text argument",
            schema(
                json!({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}),
            ),
        ),
        Tool::new(
            "add",
            "Adds two integers",
            schema(
                json!({"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}),
            ),
        ),
    ]
}

impl ServerHandler for TestHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("transport-test", "0.0.1"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let text = match request.name.as_ref() {
            "echo" => args
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            "add" => {
                let a = args.get("a").and_then(Value::as_i64);
                let b = args.get("b").and_then(Value::as_i64);
                match (a, b) {
                    (Some(a), Some(b)) => (a + b).to_string(),
                    _ => {
                        return Ok(CallToolResult::error(vec![ContentBlock::text(
                            "a and b must be integers",
                        )])
                        .into());
                    }
                }
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ));
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

/// The transport tests' server serves no resources.
impl debugger_mcp_core::http::ListenPolicy for TestHandler {
    fn check_resource_subscription(&self, uri: &str) -> Result<(), String> {
        Err(format!("unknown resource '{uri}'; this server has none"))
    }
}

pub const MCP: &str = "/debugger-mcp";
pub const INIT_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
pub const STATELESS: &str = "2026-07-28";

pub fn app() -> Router {
    debugger_mcp_core::http::router(
        TestHandler,
        &debugger_mcp_core::config::HttpConfig::default(),
    )
}

pub fn app_with(token: Option<&str>, max_body_bytes: usize) -> Router {
    let config = debugger_mcp_core::config::HttpConfig {
        token: token.map(String::from),
        max_body_bytes,
        ..Default::default()
    };
    debugger_mcp_core::http::router(TestHandler, &config)
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    /// The JSON-RPC message of the reply: the JSON body, or the first SSE `data:` line that
    /// holds a JSON-RPC response (priming events have empty data).
    pub fn message(&self) -> Value {
        if let Ok(v) = serde_json::from_str::<Value>(&self.body) {
            return v;
        }
        for line in self.body.lines() {
            if let Some(data) = line.strip_prefix("data:")
                && let Ok(v) = serde_json::from_str::<Value>(data.trim())
                && (v.get("result").is_some() || v.get("error").is_some())
            {
                return v;
            }
        }
        panic!(
            "no JSON-RPC message in body (status {}): {}",
            self.status, self.body
        )
    }

    /// The JSON-RPC error's message of the reply (panics when it has none).
    pub fn error_message(&self) -> String {
        let m = self.message();
        m["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no JSON-RPC error in: {m}"))
            .to_string()
    }

    pub fn session(&self) -> Option<String> {
        self.headers
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_string())
    }
}

/// Sends one request and reads the whole body (bounded: a stream that never ends fails the test).
pub async fn send(app: &Router, req: Request<Body>) -> Reply {
    let response = tokio::time::timeout(Duration::from_secs(10), app.clone().oneshot(req))
        .await
        .expect("router answered within 10 s")
        .unwrap();
    let (parts, body) = response.into_parts();
    let bytes = tokio::time::timeout(Duration::from_secs(10), body.collect())
        .await
        .expect("body completed within 10 s")
        .unwrap()
        .to_bytes();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// A POST to the MCP endpoint with the headers every Streamable HTTP client sends.
pub fn post() -> http::request::Builder {
    post_to(MCP)
}

/// A POST to `target` (any path, or an absolute-form URL) with a client's usual headers: the
/// hardening and security tests vary the target and add or stall what they probe.
pub fn post_to(target: &str) -> http::request::Builder {
    Request::post(target)
        .header("host", "127.0.0.1:1234")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
}

/// A POST of `body` exactly as written (malformed JSON included).
pub fn raw_post(body: &'static str) -> Request<Body> {
    post().body(Body::from(body)).unwrap()
}

pub fn json_body(v: &Value) -> Body {
    Body::from(serde_json::to_vec(v).unwrap())
}

pub fn initialize(version: &str) -> Value {
    json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name":"router-test","version":"1"}}})
}

/// Runs the initialize handshake of `version`; returns the session id.
pub async fn open_session(app: &Router, version: &str) -> String {
    let init = initialize(version);
    let r = send(app, post().body(json_body(&init)).unwrap()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let session = r.session().expect("initialize answers with Mcp-Session-Id");
    assert_eq!(r.message()["result"]["protocolVersion"], version);
    let note = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
    let r = send(
        app,
        post()
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", version)
            .body(json_body(&note))
            .unwrap(),
    )
    .await;
    assert_eq!(
        r.status,
        StatusCode::ACCEPTED,
        "notification gets 202: {}",
        r.body
    );
    session
}

/// A request inside an initialize-era session.
pub async fn session_call(app: &Router, session: &str, version: &str, msg: Value) -> Reply {
    send(
        app,
        post()
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", version)
            .body(json_body(&msg))
            .unwrap(),
    )
    .await
}

/// The per-request `_meta` of the 2026-07-28 revision.
pub fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": STATELESS,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name":"router-test","version":"1"}
    })
}

pub fn stateless_tool_call(id: u64, name: &str, args: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":args,"_meta":meta()}})
}

/// A 2026-07-28 request with the standard headers (`Mcp-Method`, and `Mcp-Name` for tools/call).
pub fn stateless_post(msg: &Value) -> Request<Body> {
    let method = msg["method"].as_str().unwrap();
    let mut b = post()
        .header("mcp-protocol-version", STATELESS)
        .header("mcp-method", method);
    if let Some(name) = msg["params"]["name"].as_str() {
        b = b.header("mcp-name", name);
    }
    b.body(json_body(msg)).unwrap()
}

pub fn discover() -> Value {
    json!({"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":meta()}})
}

/// Proof the server still works: a stateless tool call returns the right sum.
pub async fn assert_still_serving(app: &Router) {
    let call = stateless_tool_call(99, "add", json!({"a": 40, "b": 2}));
    let r = send(app, stateless_post(&call)).await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "server still answers a good request: {}",
        r.body
    );
    assert_eq!(
        r.message()["result"]["content"][0]["text"],
        "42",
        "{}",
        r.body
    );
}

pub fn text_of(v: &Value) -> String {
    v["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}
