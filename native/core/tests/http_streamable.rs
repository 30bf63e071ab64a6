//! Streamable HTTP at /debugger-mcp: both protocol eras on one endpoint, sessions, 202 for
//! notifications, DELETE, stateless 2026-07-28 with its header checks. Driven with
//! `tower::oneshot` (the JNI path); `http_socket.rs` repeats the essentials over TCP.

mod common;
use common::*;
use http::{Request, StatusCode};
use serde_json::json;

#[tokio::test]
async fn every_initialize_era_revision_gets_a_session_and_tools() {
    let app = app();
    for version in INIT_VERSIONS {
        let session = open_session(&app, version).await;
        let list = session_call(
            &app,
            &session,
            version,
            json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
        )
        .await;
        assert_eq!(list.status, StatusCode::OK, "{version}: {}", list.body);
        let names: Vec<_> = list.message()["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["echo", "add"], "{version}");
        let call = session_call(
            &app,
            &session,
            version,
            json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}),
        )
        .await;
        assert_eq!(call.status, StatusCode::OK);
        assert_eq!(text_of(&call.message()), "5", "{version}: {}", call.body);
        assert_eq!(call.message()["id"], 3);
    }
}

#[tokio::test]
async fn initialize_with_an_unknown_version_negotiates_a_supported_one() {
    let app = app();
    let init = initialize("2099-01-01");
    let r = send(&app, post().body(json_body(&init)).unwrap()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.message()["result"]["protocolVersion"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(INIT_VERSIONS.contains(&v.as_str()), "negotiated {v}");
}

#[tokio::test]
async fn stateless_2026_discover_and_tool_call_on_the_same_endpoint() {
    let app = app();
    // An initialize-era session is open at the same time, on the same router.
    let session = open_session(&app, "2025-06-18").await;

    let r = send(&app, stateless_post(&discover())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.session().is_none(), "2026-07-28 is sessionless");
    let versions = r.message()["result"]["supportedVersions"].clone();
    assert!(
        versions.as_array().unwrap().iter().any(|v| v == STATELESS),
        "{versions}"
    );
    assert!(
        versions
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "2024-11-05"),
        "{versions}"
    );

    let call = stateless_tool_call(5, "echo", json!({"text": "héllo"}));
    let r = send(&app, stateless_post(&call)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.session().is_none());
    assert_eq!(text_of(&r.message()), "héllo");

    // The session still works after stateless traffic.
    let r = session_call(
        &app,
        &session,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1}}}),
    )
    .await;
    assert_eq!(text_of(&r.message()), "2");
}

#[tokio::test]
async fn stateless_header_mismatches_are_400_and_change_nothing() {
    let app = app();
    let call = stateless_tool_call(1, "add", json!({"a": 1, "b": 2}));
    let cases: [(&str, &str, &str); 3] = [
        // (Mcp-Method, Mcp-Name, what is wrong)
        ("tools/list", "add", "Mcp-Method names another method"),
        ("tools/call", "echo", "Mcp-Name names another tool"),
        ("tools/call", "", "Mcp-Name missing"),
    ];
    for (method, name, why) in cases {
        let mut b = post()
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", method);
        if !name.is_empty() {
            b = b.header("mcp-name", name);
        }
        let r = send(&app, b.body(json_body(&call)).unwrap()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{why}: {}", r.body);
        let err = r.message();
        assert!(
            err["error"]["code"].is_i64(),
            "{why}: JSON-RPC error expected: {}",
            r.body
        );
        assert_eq!(err["id"], 1, "{why}");
        assert_still_serving(&app).await;
    }
    // _meta protocolVersion disagreeing with the MCP-Protocol-Version header.
    let r = send(
        &app,
        post()
            .header("mcp-protocol-version", "2025-11-25")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "add")
            .body(json_body(&call))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn notifications_get_202_and_delete_ends_the_session() {
    let app = app();
    let version = "2025-11-25";
    let session = open_session(&app, version).await; // asserts 202 for notifications/initialized
    let r = session_call(
        &app,
        &session,
        version,
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}}),
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);

    let r = send(
        &app,
        Request::delete(MCP)
            .header("host", "localhost")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", version)
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "DELETE: {}", r.body);

    let r = session_call(
        &app,
        &session,
        version,
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
    )
    .await;
    assert_eq!(
        r.status,
        StatusCode::NOT_FOUND,
        "a deleted session is gone: {}",
        r.body
    );
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn session_requests_need_a_session_and_unknown_ones_are_404() {
    let app = app();
    let list = json!({"jsonrpc":"2.0","id":2,"method":"tools/list"});
    let r = send(
        &app,
        post()
            .header("mcp-protocol-version", "2025-06-18")
            .body(json_body(&list))
            .unwrap(),
    )
    .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "no session id: {}",
        r.body
    );
    let r = session_call(&app, "no-such-session", "2025-06-18", list).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn get_opens_the_session_stream() {
    let app = app();
    let session = open_session(&app, "2025-06-18").await;
    let response = tower::ServiceExt::oneshot(
        app.clone(),
        Request::get(MCP)
            .header("host", "localhost")
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-06-18")
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
}

#[tokio::test]
async fn unknown_methods_are_json_rpc_errors_in_both_eras() {
    let app = app();
    let session = open_session(&app, "2025-06-18").await;
    let r = session_call(
        &app,
        &session,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":4,"method":"debugger/teleport"}),
    )
    .await;
    assert_eq!(r.message()["error"]["code"], -32601, "{}", r.body);

    let msg =
        json!({"jsonrpc":"2.0","id":5,"method":"debugger/teleport","params":{"_meta":meta()}});
    let r = send(&app, stateless_post(&msg)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert_eq!(r.message()["error"]["code"], -32601, "{}", r.body);
    assert_still_serving(&app).await;
}
