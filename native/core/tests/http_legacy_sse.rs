//! Legacy HTTP+SSE (2024-11-05): GET /debugger-mcp/sse, the `endpoint` event, POST → 202,
//! responses as `message` events, unknown sessionId → 404, closing the stream ends the session.

mod common;
use axum::body::Body;
use common::*;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

/// Reads SSE events (`event` name, `data`) from a streaming body.
struct Events {
    body: Body,
    buffer: String,
}

impl Events {
    async fn next(&mut self) -> (String, String) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = "message".to_string();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                if data.is_empty() {
                    continue; // keep-alive comment
                }
                return (event, data);
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("an SSE event within 10 s")
                .expect("stream still open")
                .unwrap();
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    async fn message(&mut self) -> Value {
        let (event, data) = self.next().await;
        assert_eq!(event, "message");
        serde_json::from_str(&data).unwrap()
    }
}

async fn open(app: &axum::Router) -> (Events, String) {
    let response = app
        .clone()
        .oneshot(
            Request::get("/debugger-mcp/sse")
                .header("host", "127.0.0.1:9")
                .header("accept", "text/event-stream")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut events = Events {
        body: response.into_body(),
        buffer: String::new(),
    };
    let (event, endpoint) = events.next().await;
    assert_eq!(event, "endpoint");
    assert!(
        endpoint.starts_with("/debugger-mcp/message?sessionId="),
        "{endpoint}"
    );
    (events, endpoint)
}

async fn post_to(app: &axum::Router, endpoint: &str, msg: &Value) -> Reply {
    send(
        app,
        Request::post(endpoint)
            .header("host", "localhost")
            .header("content-type", "application/json")
            .body(json_body(msg))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn round_trip_over_the_stream() {
    let app = app();
    let (mut events, endpoint) = open(&app).await;

    let r = post_to(&app, &endpoint, &initialize("2024-11-05")).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.body);
    let init = events.message().await;
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05");
    assert_eq!(init["result"]["serverInfo"]["name"], "transport-test");

    let r = post_to(
        &app,
        &endpoint,
        &json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);

    let r = post_to(
        &app,
        &endpoint,
        &json!({"jsonrpc":"2.0","id":2,"method":"tools/list"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    let list = events.message().await;
    assert_eq!(list["id"], 2);
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 2);

    // Several requests in flight: every response arrives, matched by id.
    for id in 10..15 {
        let call = json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"add","arguments":{"a":id,"b":1}}});
        assert_eq!(
            post_to(&app, &endpoint, &call).await.status,
            StatusCode::ACCEPTED
        );
    }
    let mut seen = std::collections::BTreeMap::new();
    for _ in 10..15 {
        let m = events.message().await;
        seen.insert(m["id"].as_i64().unwrap(), text_of(&m));
    }
    for id in 10..15 {
        assert_eq!(seen[&id], (id + 1).to_string());
    }

    // Unknown method: a JSON-RPC error on the stream, the session lives on.
    post_to(
        &app,
        &endpoint,
        &json!({"jsonrpc":"2.0","id":20,"method":"nope/nope"}),
    )
    .await;
    assert_eq!(events.message().await["error"]["code"], -32601);

    // Malformed bodies: 400 on the POST, nothing on the stream, session still works.
    let r = send(
        &app,
        Request::post(&endpoint)
            .header("host", "localhost")
            .body(Body::from("{oops"))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        serde_json::from_str::<Value>(&r.body).unwrap()["error"]["code"],
        -32700
    );
    post_to(
        &app,
        &endpoint,
        &json!({"jsonrpc":"2.0","id":21,"method":"ping"}),
    )
    .await;
    assert_eq!(events.message().await["id"], 21);
}

#[tokio::test]
async fn unknown_or_missing_session_ids() {
    let app = app();
    let r = post_to(
        &app,
        "/debugger-mcp/message?sessionId=does-not-exist",
        &json!({"jsonrpc":"2.0","id":1,"method":"ping"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"], "unknown_session");
    assert!(v["message"].as_str().unwrap().contains("does-not-exist"));

    let r = post_to(
        &app,
        "/debugger-mcp/message",
        &json!({"jsonrpc":"2.0","id":1,"method":"ping"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        serde_json::from_str::<Value>(&r.body).unwrap()["error"],
        "missing_session_id"
    );
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn closing_the_stream_ends_the_session() {
    let app = app();
    let (mut events, endpoint) = open(&app).await;
    post_to(&app, &endpoint, &initialize("2024-11-05")).await;
    events.message().await;
    drop(events); // the client goes away
    // The session is removed synchronously when the body is dropped.
    let r = post_to(
        &app,
        &endpoint,
        &json!({"jsonrpc":"2.0","id":2,"method":"ping"}),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn shutdown_token_ends_open_streams() {
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut options = debugger_mcp_core::http::RouterOptions::from_config(&Default::default());
    options.cancel = cancel.clone();
    let app = debugger_mcp_core::http::router_with(TestHandler, options);
    let (mut events, _endpoint) = open(&app).await;
    cancel.cancel();
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match events.body.frame().await {
                None => break,
                Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the SSE stream ended after cancellation");
}
