//! Tool profiles as a client sees them: the configured profile, the per-connection URL query
//! (`/debugger-mcp?profile=compact`), and the compact router reaching operations with the same
//! validation as the full tools. Driven through the real HTTP router with the engine's handler.

#[path = "tools_common/mod.rs"]
mod tools_common;

use axum::Router;
use axum::body::Body;
use debugger_mcp_core::config::{Config, HttpConfig, ToolProfile};
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tools_common::{H, brave};
use tower::ServiceExt;

/// One stateless (2026-07-28) request to `uri`; returns the JSON-RPC message.
async fn rpc(app: &Router, uri: &str, id: u64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "profile-test", "version": "1"}
    });
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut b = Request::post(uri)
        .header("host", "127.0.0.1:1234")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = msg["params"]["name"].as_str() {
        b = b.header("mcp-name", name);
    }
    let response = app
        .clone()
        .oneshot(b.body(Body::from(msg.to_string())).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body = String::from_utf8_lossy(&bytes).into_owned();
    serde_json::from_str(&body)
        .ok()
        .or_else(|| {
            body.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .find_map(|d| serde_json::from_str(d.trim()).ok())
        })
        .unwrap_or_else(|| panic!("no JSON-RPC message: {body}"))
}

fn app(h: &H) -> Router {
    debugger_mcp_core::http::router(h.engine.handler(), &HttpConfig::default())
}

fn names(list: &Value) -> Vec<String> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn url_query_selects_the_profile_per_connection() {
    let h = H::new(Config::default());
    let app = app(&h);
    let full = rpc(&app, "/debugger-mcp", 1, "tools/list", json!({})).await;
    assert_eq!(names(&full).len(), tools_common::expected_tool_count());
    let compact = rpc(
        &app,
        "/debugger-mcp?profile=compact",
        2,
        "tools/list",
        json!({}),
    )
    .await;
    assert_eq!(names(&compact), ["debugger"]);
    let explicit_full = rpc(
        &app,
        "/debugger-mcp?profile=full",
        3,
        "tools/list",
        json!({}),
    )
    .await;
    assert_eq!(
        names(&explicit_full).len(),
        tools_common::expected_tool_count()
    );
    let bad = rpc(
        &app,
        "/debugger-mcp?profile=tiny",
        4,
        "tools/list",
        json!({}),
    )
    .await;
    let message = bad["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("'tiny'") && message.contains("profile=compact"),
        "{bad}"
    );
}

#[tokio::test]
async fn configured_compact_profile_applies_without_a_query() {
    let h = H::new(Config {
        tool_profile: ToolProfile::Compact,
        ..Config::default()
    });
    let app = app(&h);
    let list = rpc(&app, "/debugger-mcp", 1, "tools/list", json!({})).await;
    assert_eq!(names(&list), ["debugger"]);
    // A client can still ask for the full list.
    let list = rpc(
        &app,
        "/debugger-mcp?profile=full",
        2,
        "tools/list",
        json!({}),
    )
    .await;
    assert_eq!(names(&list).len(), tools_common::expected_tool_count());
}

#[tokio::test]
async fn the_router_runs_ops_with_the_ops_validation_and_history() {
    let h = H::new(brave());
    let app = app(&h);
    let uri = "/debugger-mcp?profile=compact";
    let call = |id: u64, args: Value| {
        rpc(
            &app,
            uri,
            id,
            "tools/call",
            json!({"name": "debugger", "arguments": args}),
        )
    };

    let r = call(
        1,
        json!({"op": "set_breakpoint", "file_path": "main.py", "line": 8}),
    )
    .await;
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(r["result"]["structuredContent"]["line"], 8, "{r}");

    let r = call(2, json!({"op": "start_debug_session", "run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000})).await;
    assert_eq!(
        r["result"]["structuredContent"]["pause"]["state"], "paused",
        "{r}"
    );
    let r = call(3, json!({"op": "get_variables"})).await;
    assert_eq!(r["result"]["isError"], false, "{r}");

    // The op's own schema validates the rest of the arguments.
    let r = call(
        4,
        json!({"op": "set_breakpoint", "file_path": "main.py", "line": "eight"}),
    )
    .await;
    assert_eq!(r["result"]["isError"], true);
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("set_breakpoint") && text.contains("'line'") && text.contains("integer"),
        "{text}"
    );

    let r = call(5, json!({"op": "step"})).await;
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("unknown op 'step'") && text.contains("step_over"),
        "{text}"
    );

    // help lists the ops, and explains one with its full schema.
    let r = call(6, json!({"op": "help"})).await;
    assert_eq!(
        r["result"]["structuredContent"]["ops"]
            .as_array()
            .unwrap()
            .len(),
        tools_common::expected_tool_count(),
        "{r}"
    );
    let r = call(7, json!({"op": "help", "about": "run_to_line"})).await;
    let about = &r["result"]["structuredContent"];
    // The full schema: with `text`, which the listing leaves out (the instructions name it).
    let props = &about["input_schema"]["properties"];
    assert!(
        props.get("line").is_some() && props.get("text").is_some(),
        "{r}"
    );

    // The history records the operation, not the router.
    let tools: Vec<String> = h
        .engine
        .history()
        .entries(&Default::default())
        .iter()
        .map(|e| e.tool.clone())
        .collect();
    assert!(
        tools.contains(&"set_breakpoint".to_string())
            && tools.contains(&"get_variables".to_string()),
        "{tools:?}"
    );
}

/// `?profile=typed`: the full list with each tool's `outputSchema` (left out of `full` for the
/// 16 KB budget); what a client validating `structuredContent` against it sees must pass.
#[tokio::test]
async fn typed_profile_advertises_output_schemas_that_results_meet() {
    let h = H::new(brave());
    let app = app(&h);
    let uri = "/debugger-mcp?profile=typed";
    let full = rpc(&app, "/debugger-mcp", 1, "tools/list", json!({})).await;
    assert!(
        full["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("outputSchema").is_none() && t.get("title").is_none()),
        "{full}"
    );
    let typed = rpc(&app, uri, 2, "tools/list", json!({})).await;
    let tools = typed["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), tools_common::expected_tool_count());
    let schema = |name: &str| -> Value {
        let t = tools
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no tool {name}"));
        t["outputSchema"].clone()
    };
    for t in tools {
        assert_eq!(
            t["outputSchema"]["type"], "object",
            "{} has no object outputSchema: {t}",
            t["name"]
        );
        assert!(
            t["title"].as_str().is_some_and(|x| !x.is_empty()),
            "{} has no title: {t}",
            t["name"]
        );
    }
    let call = |id: u64, name: &'static str, args: Value| {
        rpc(
            &app,
            uri,
            id,
            "tools/call",
            json!({"name": name, "arguments": args}),
        )
    };
    let calls = [
        ("set_breakpoint", json!({"file_path": "main.py", "line": 8})),
        (
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000}),
        ),
        ("get_stack_trace", json!({})),
        ("get_variables", json!({})),
        ("step_over", json!({})),
        ("list_breakpoints", json!({})),
    ];
    for (id, (name, args)) in calls.into_iter().enumerate() {
        let r = call(10 + id as u64, name, args).await;
        assert_eq!(r["result"]["isError"], false, "{name}: {r}");
        let sc = &r["result"]["structuredContent"];
        let v = jsonschema::validator_for(&schema(name)).unwrap();
        let errors: Vec<String> = v
            .iter_errors(sc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{name}'s result does not meet its advertised outputSchema: {errors:?}\n{sc:#}"
        );
    }
    // A misspelt profile is refused with the three names.
    let bad = rpc(
        &app,
        "/debugger-mcp?profile=types",
        99,
        "tools/list",
        json!({}),
    )
    .await;
    let message = bad["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("'types'") && message.contains("profile=typed"),
        "{bad}"
    );
}
