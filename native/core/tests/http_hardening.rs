//! Issue 16 over the HTTP router: requests rmcp cannot parse get errors naming the field
//! (item 4), initialize-era sessions are capped with idle ones evicted first (item 2), and the
//! strict-HTTP checks the core can make wherever it runs (item 5: one Host, one Origin, an
//! absolute-form target that agrees with Host, `Connection: close` on refusals sent before the
//! body is read, a body that must arrive in time).

mod common;
#[path = "tools_common/mod.rs"]
mod tools_common;

use axum::body::Body;
use common::*;
use debugger_mcp_core::config::HttpConfig;
use http::{Request, StatusCode};
use serde_json::{Value, json};
use std::time::Duration;

fn engine_app(h: &tools_common::H) -> axum::Router {
    debugger_mcp_core::http::router(h.engine.handler(), &HttpConfig::default())
}

/// Item 4: `tools/call` whose `arguments` is not an object was answered -32601 "tools/call"
/// (HTTP 404 in the 2026-07-28 revision).
#[tokio::test]
async fn tools_call_with_non_object_arguments_is_invalid_params_naming_arguments() {
    let h = tools_common::H::new(tools_common::brave());
    let app = engine_app(&h);
    for args in [json!([1, 2]), json!("x"), json!(7)] {
        // Stateless era.
        let msg = json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_breakpoints","arguments":args,"_meta":meta()}});
        let r = send(&app, stateless_post(&msg)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let e = &r.message()["error"];
        assert_eq!(e["code"], -32602, "{}", r.body);
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("params.arguments: expected an object"),
            "{}",
            r.body
        );
        // Initialize era.
        let session = open_session(&app, "2025-06-18").await;
        let msg = json!({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list_breakpoints","arguments":args}});
        let r = session_call(&app, &session, "2025-06-18", msg).await;
        let e = &r.message()["error"];
        assert_eq!(e["code"], -32602, "{}", r.body);
        assert!(
            e["message"].as_str().unwrap().contains("params.arguments"),
            "{}",
            r.body
        );
    }
    // A missing name names `params.name`.
    let msg = json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{},"_meta":meta()}});
    let r = send(
        &app,
        post()
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "tools/call")
            .body(json_body(&msg))
            .unwrap(),
    )
    .await;
    assert!(
        r.error_message().contains("params.name: required"),
        "{}",
        r.body
    );
    // An unknown method says which methods exist.
    let session = open_session(&app, "2025-06-18").await;
    let r = session_call(
        &app,
        &session,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":9,"method":"tools/run","params":{}}),
    )
    .await;
    let e = &r.message()["error"];
    assert_eq!(e["code"], -32601, "{}", r.body);
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("'tools/run'") && m.contains("tools/call") && m.contains("resources/read"),
        "{m}"
    );
}

fn capped(max: usize) -> axum::Router {
    let config = HttpConfig {
        max_sessions: max,
        ..Default::default()
    };
    debugger_mcp_core::http::router(TestHandler, &config)
}

async fn session_ping(app: &axum::Router, session: &str) -> StatusCode {
    session_call(
        app,
        session,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":2,"method":"ping"}),
    )
    .await
    .status
}

/// Item 2: at the cap a new session evicts the one idle longest.
#[tokio::test]
async fn sessions_are_capped_evicting_the_idle_longest() {
    let app = capped(3);
    let a = open_session(&app, "2025-06-18").await;
    let b = open_session(&app, "2025-06-18").await;
    let c = open_session(&app, "2025-06-18").await;
    // a is used again: b is now the one idle longest.
    assert_eq!(session_ping(&app, &a).await, StatusCode::OK);
    let d = open_session(&app, "2025-06-18").await;
    assert_eq!(
        session_ping(&app, &b).await,
        StatusCode::NOT_FOUND,
        "b was evicted"
    );
    for s in [&a, &c, &d] {
        assert_eq!(session_ping(&app, s).await, StatusCode::OK);
    }
    // Many more initializes never hold more than 3.
    for _ in 0..20 {
        open_session(&app, "2025-06-18").await;
    }
    let alive = futures::future::join_all([&a, &c, &d].map(|s| session_ping(&app, s))).await;
    assert!(
        alive.iter().all(|s| *s == StatusCode::NOT_FOUND),
        "{alive:?}"
    );
}

/// Item 2: when every session is busy (an open GET stream), a new one is refused, saying why.
#[tokio::test]
async fn a_new_session_is_refused_when_every_session_is_busy() {
    use tower::ServiceExt;
    let app = capped(2);
    let mut streams = Vec::new();
    for _ in 0..2 {
        let s = open_session(&app, "2025-06-18").await;
        let get = Request::get(MCP)
            .header("host", "localhost")
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &s)
            .header("mcp-protocol-version", "2025-06-18")
            .body(Body::empty())
            .unwrap();
        let r = app.clone().oneshot(get).await.unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        streams.push(r.into_body());
    }
    let r = send(
        &app,
        post().body(json_body(&initialize("2025-06-18"))).unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    let m = r.error_message();
    assert!(
        m.contains("http.max_sessions = 2") && m.contains("none is idle"),
        "{m}"
    );
    // A stream closing frees its session for eviction.
    let body = streams.pop().unwrap();
    drop(body.into_data_stream());
    let r = send(
        &app,
        post().body(json_body(&initialize("2025-06-18"))).unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

/// Item 5: duplicate Host and Origin headers are 400; the first one must not decide alone.
#[tokio::test]
async fn duplicate_host_or_origin_is_a_bad_request() {
    let app = app();
    let d = discover();
    let base = || {
        post()
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "server/discover")
    };
    let mut req = base().body(json_body(&d)).unwrap();
    req.headers_mut()
        .append("host", "evil.example".parse().unwrap());
    let r = send(&app, req).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("more than one Host"), "{}", r.body);
    assert_eq!(r.headers["connection"], "close");
    let r = send(
        &app,
        base()
            .header("origin", "http://localhost:1")
            .header("origin", "http://evil.example")
            .body(json_body(&d))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("more than one Origin"), "{}", r.body);
    assert_still_serving(&app).await;
}

/// Item 5: an absolute-form target names the host that counts (RFC 9112 §3.2.2).
#[tokio::test]
async fn absolute_form_targets_must_be_loopback_and_agree_with_host() {
    let app = app();
    let d = discover();
    for (target, ok) in [
        ("http://evil.example/debugger-mcp", false),
        ("http://127.0.0.1:9/debugger-mcp", false),
        ("http://127.0.0.1:1234/debugger-mcp", true),
    ] {
        let r = send(
            &app,
            post_to(target)
                .header("mcp-protocol-version", STATELESS)
                .header("mcp-method", "server/discover")
                .body(json_body(&d))
                .unwrap(),
        )
        .await;
        if ok {
            assert_eq!(r.status, StatusCode::OK, "{target}: {}", r.body);
        } else {
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{target}: {}", r.body);
            assert!(r.body.contains("origin-form"), "{}", r.body);
        }
    }
}

/// Item 5: refusals sent before the body is read close the connection, so a keep-alive client
/// does not send its next request into the unread body.
#[tokio::test]
async fn early_refusals_say_connection_close() {
    let app = app_with(Some("t0ken"), 1024);
    let call = stateless_tool_call(1, "add", json!({"a": 1, "b": 2}));
    let r = send(&app, stateless_post(&call)).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers["connection"], "close");
    let mut req = stateless_post(&call);
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    let r = send(&app, req).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(r.headers["connection"], "close");
    let mut req = stateless_post(&call);
    req.headers_mut()
        .insert("authorization", "Bearer t0ken".parse().unwrap());
    req.headers_mut()
        .insert("content-length", "999999".parse().unwrap());
    let r = send(&app, req).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(r.headers["connection"], "close");
}

/// Item 5: a body that never finishes is answered 408 after `http.read_timeout_ms`, on the MCP
/// endpoint and the legacy message endpoint.
#[tokio::test]
async fn a_body_that_never_arrives_times_out() {
    let config = HttpConfig {
        read_timeout_ms: 300,
        ..Default::default()
    };
    let app = debugger_mcp_core::http::router(TestHandler, &config);
    for path in [MCP, "/debugger-mcp/message?sessionId=x"] {
        let stalled = futures::stream::once(async {
            Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"{\"jsonrpc\""))
        })
        .chain(futures::stream::pending());
        let req = post_to(path)
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "ping")
            .body(Body::from_stream(stalled))
            .unwrap();
        let started = std::time::Instant::now();
        let r = send(&app, req).await;
        assert_eq!(r.status, StatusCode::REQUEST_TIMEOUT, "{path}: {}", r.body);
        assert!(r.body.contains("http.read_timeout_ms"), "{}", r.body);
        assert_eq!(r.headers["connection"], "close");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let _: Value = json!(null);
}

use futures::StreamExt;

fn delete(session: &str) -> Request<Body> {
    Request::delete(MCP)
        .header("host", "localhost")
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-06-18")
        .body(Body::empty())
        .unwrap()
}

/// Issue 28 item 2: DELETE of a session id that is not open is 404 (MCP transport, Session
/// Management: after a session ends the server MUST answer requests with its id with 404);
/// an open one is still 200, and deleting it twice is 404 the second time.
#[tokio::test]
async fn delete_of_an_unknown_session_is_404() {
    let app = capped(5);
    let r = send(&app, delete("no-such-session")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let m = r.error_message();
    assert!(
        m.contains("'no-such-session'") && m.contains("initialize"),
        "{m}"
    );
    let s = open_session(&app, "2025-06-18").await;
    let r = send(&app, delete(&s)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = send(&app, delete(&s)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
}

/// Issue 28 item 4: a client whose session the cap evicted is told so, and what to do, on its
/// next request (not rmcp's bare "Session not found").
#[tokio::test]
async fn an_evicted_session_is_told_it_was_evicted_by_the_cap() {
    let app = capped(2);
    let a = open_session(&app, "2025-06-18").await;
    open_session(&app, "2025-06-18").await;
    open_session(&app, "2025-06-18").await;
    let r = session_call(
        &app,
        &a,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let m = r.error_message();
    assert!(
        m.contains("evicted") && m.contains("http.max_sessions = 2") && m.contains("initialize"),
        "{m}"
    );
    // Never-opened ids are not called evicted.
    let r = session_call(
        &app,
        "never-opened",
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":2,"method":"ping"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert!(!r.body.contains("evicted"), "{}", r.body);
}

/// Issue 28 item 3: a number no 64-bit float holds (`"line": 1e400`) failed the whole body as
/// "number out of range at line 1 column 125"; it is an error naming the field, like `1e300`.
#[tokio::test]
async fn a_number_json_cannot_hold_is_an_error_naming_the_field() {
    let app = app();
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"add","arguments":{{"a":1e400,"b":1}},"_meta":{}}}}}"#,
        meta()
    );
    let req = post()
        .header("mcp-protocol-version", STATELESS)
        .header("mcp-method", "tools/call")
        .header("mcp-name", "add")
        .body(Body::from(body))
        .unwrap();
    let r = send(&app, req).await;
    let e = &r.message()["error"];
    assert_eq!(e["code"], -32602, "{}", r.body);
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("field 'a'") && m.contains("params.arguments.a") && !m.contains("column"),
        "{m}"
    );
    // In the envelope it is an invalid request naming the field.
    let r = send(
        &app,
        raw_post(r#"{"jsonrpc":"2.0","id":-1e999,"method":"ping"}"#),
    )
    .await;
    let e = &r.message()["error"];
    assert_eq!(e["code"], -32600, "{}", r.body);
    assert!(
        e["message"].as_str().unwrap().contains("field 'id'"),
        "{}",
        r.body
    );
}

/// A session lives as long as `http.session_idle_ms` without requests, each request starting
/// the wait again; rmcp's own default (five minutes) expired an agent's session while it read
/// code before its first call (eighth set). Short here to be testable: 1.5 s.
#[tokio::test]
async fn a_session_expires_after_the_configured_idle_time_not_before() {
    let config = HttpConfig {
        session_idle_ms: 1_500,
        ..Default::default()
    };
    let app = debugger_mcp_core::http::router(TestHandler, &config);
    let s = open_session(&app, "2025-06-18").await;
    for _ in 0..3 {
        // Requests 1 s apart: 3 s in all, twice the idle time, and the session stays.
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        assert_eq!(session_ping(&app, &s).await, StatusCode::OK);
    }
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let r = session_call(
        &app,
        &s,
        "2025-06-18",
        json!({"jsonrpc":"2.0","id":3,"method":"ping"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert!(r.error_message().contains("initialize"), "{}", r.body);
    // The default outlives an agent's pause between two calls (rmcp's was 300 s).
    assert!(HttpConfig::default().session_idle_ms >= 30 * 60 * 1000);
}
