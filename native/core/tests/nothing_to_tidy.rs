//! Issue 26 item 1 with the IDE's lifetime (debug sessions kept with the MCP session, the
//! plugin's default) over the real HTTP router and the engine's handler: the breakpoints an MCP
//! session set go when it ends (DELETE); the IDE user's breakpoints stay, also when the agent
//! updated one of them; stop_debug_session takes the agent's and never the user's.

#[path = "tools_common/mod.rs"]
mod tools_common;

use axum::Router;
use axum::body::Body;
use debugger_mcp_core::backend::{Backend, LineBreakpointSpec};
use debugger_mcp_core::config::HttpConfig;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tools_common::{H, brave};
use tower::ServiceExt;

const VERSION: &str = "2025-11-25";

async fn send(
    app: &Router,
    session: Option<&str>,
    method: http::Method,
    msg: Option<Value>,
) -> (StatusCode, Option<String>, Value) {
    let mut b = Request::builder()
        .method(method)
        .uri("/debugger-mcp")
        .header("host", "127.0.0.1:1234")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", VERSION);
    if let Some(s) = session {
        b = b.header("mcp-session-id", s);
    }
    let body = msg
        .map(|m| Body::from(m.to_string()))
        .unwrap_or_else(Body::empty);
    let r = app.clone().oneshot(b.body(body).unwrap()).await.unwrap();
    let status = r.status();
    let sid = r
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    let bytes = r.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let v = serde_json::from_str(&text)
        .ok()
        .or_else(|| {
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .find_map(|d| serde_json::from_str(d.trim()).ok())
        })
        .unwrap_or(Value::Null);
    (status, sid, v)
}

async fn open(app: &Router) -> String {
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name":"tidy-test","version":"1"}}});
    let (status, sid, _) = send(app, None, http::Method::POST, Some(init)).await;
    assert_eq!(status, StatusCode::OK);
    let sid = sid.expect("a session id");
    let note = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
    send(app, Some(&sid), http::Method::POST, Some(note)).await;
    sid
}

async fn call(app: &Router, sid: &str, tool: &str, args: Value) -> Value {
    let msg = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name": tool, "arguments": args}});
    let (_, _, v) = send(app, Some(sid), http::Method::POST, Some(msg)).await;
    assert_ne!(v["result"]["isError"], true, "{tool}: {v}");
    v["result"]["structuredContent"].clone()
}

async fn lines(h: &H) -> Vec<u32> {
    let root = h.root.to_string_lossy().into_owned();
    let mut l: Vec<u32> = h
        .fake
        .breakpoints(&root)
        .await
        .unwrap()
        .iter()
        .filter_map(|b| b.requested_line.or(b.line))
        .collect();
    l.sort();
    l
}

async fn user_breakpoint(h: &H, line: u32) {
    let root = h.root.to_string_lossy().into_owned();
    let spec = LineBreakpointSpec {
        file: h.path("main.py"),
        line,
        condition: None,
        log_message: None,
        hit_condition: None,
        suspend_policy: Default::default(),
        enabled: true,
        temporary: false,
    };
    h.fake.add_line_breakpoint(&root, spec).await.unwrap();
}

#[tokio::test]
async fn the_agents_breakpoints_go_with_its_mcp_session_and_the_users_stay() {
    let h = H::new(brave());
    let app = debugger_mcp_core::http::router(h.engine.handler(), &HttpConfig::default());
    user_breakpoint(&h, 8).await;
    let sid = open(&app).await;
    call(
        &app,
        &sid,
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 11}),
    )
    .await;
    // Setting the user's line again updates the user's breakpoint: it stays the user's.
    call(
        &app,
        &sid,
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 8, "condition": "True"}),
    )
    .await;
    assert_eq!(lines(&h).await, [8, 11]);

    let (status, _, _) = send(&app, Some(&sid), http::Method::DELETE, None).await;
    assert_eq!(status, StatusCode::OK);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while lines(&h).await != [8] {
        assert!(
            std::time::Instant::now() < deadline,
            "left: {:?}",
            lines(&h).await
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn stop_takes_the_agents_breakpoints_not_the_users() {
    let h = H::new(brave());
    let app = debugger_mcp_core::http::router(h.engine.handler(), &HttpConfig::default());
    user_breakpoint(&h, 8).await;
    let sid = open(&app).await;
    let r = call(
        &app,
        &sid,
        "start_debug_session",
        json!({
        "run_configuration": "main", "breakpoints": [{"file_path": "main.py", "line": 11}]}),
    )
    .await;
    assert_eq!(r["pause"]["state"], "paused", "{r}");
    assert_eq!(lines(&h).await, [8, 11]);
    let stopped = call(&app, &sid, "stop_debug_session", json!({})).await;
    assert!(
        stopped["message"]
            .as_str()
            .unwrap()
            .contains("removed your breakpoints"),
        "{stopped}"
    );
    assert_eq!(lines(&h).await, [8]);
}
