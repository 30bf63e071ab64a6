//! Resource updates as a client receives them through the HTTP router, in both protocol eras:
//! 2026-07-28 `subscriptions/listen` streams (acknowledgement, `subscriptionId` tag, filtering,
//! bad parameters, the stream ending when the client goes away) and initialize-era
//! `resources/subscribe` + the GET stream. Updates come from a real pause of the fake backend.

#[path = "tools_common/mod.rs"]
mod tools_common;

use axum::Router;
use axum::body::Body;
use debugger_mcp_core::config::HttpConfig;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::time::Duration;
use tools_common::{H, brave};
use tower::ServiceExt;

const V: &str = "2026-07-28";

fn app(h: &H) -> Router {
    debugger_mcp_core::http::router(h.engine.handler(), &HttpConfig::default())
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "listen-test", "version": "1"}
    })
}

fn stateless_post(method: &str, body: &Value) -> Request<Body> {
    Request::post("/debugger-mcp")
        .header("host", "127.0.0.1:1234")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", V)
        .header("mcp-method", method)
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn listen_request(id: &str, notifications: Value) -> Request<Body> {
    stateless_post(
        "subscriptions/listen",
        &json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
                "params": {"notifications": notifications, "_meta": meta()}}),
    )
}

/// An open SSE response read event by event, as a client would.
struct Stream {
    body: Body,
    buf: String,
}

impl Stream {
    async fn open(app: &Router, req: Request<Body>) -> Self {
        let response = tokio::time::timeout(Duration::from_secs(10), app.clone().oneshot(req))
            .await
            .expect("answered")
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let ct = response
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            ct.starts_with("text/event-stream"),
            "listen answers with a stream, got {ct}"
        );
        Stream {
            body: response.into_body(),
            buf: String::new(),
        }
    }

    /// The next JSON-RPC message, or `None` when nothing arrives within `wait`.
    async fn next(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            while let Some(end) = self.buf.find("\n\n") {
                let event: String = self.buf.drain(..end + 2).collect();
                let data: Vec<&str> = event
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .map(str::trim)
                    .collect();
                if let Ok(v) = serde_json::from_str::<Value>(&data.join("\n")) {
                    return Some(v);
                }
            }
            let frame = tokio::time::timeout_at(deadline, self.body.frame())
                .await
                .ok()??
                .unwrap();
            if let Ok(chunk) = frame.into_data() {
                self.buf.push_str(&String::from_utf8_lossy(&chunk));
            }
        }
    }

    /// The next `notifications/resources/updated` (skipping other messages).
    async fn next_update(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let msg = self.next(left).await?;
            if msg["method"] == "notifications/resources/updated" {
                return Some(msg);
            }
        }
    }
}

async fn json_reply(app: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("JSON body: {}", String::from_utf8_lossy(&bytes))),
    )
}

async fn until(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..200 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for: {what}");
}

#[tokio::test]
async fn listen_stream_gets_the_update_of_a_pause_tagged_with_its_id_and_ends_with_the_client() {
    let h = H::new(brave());
    let app = app(&h);
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 14}),
    )
    .await;

    let mut status = Stream::open(
        &app,
        listen_request(
            "watch-status",
            json!({"resourceSubscriptions": ["debugger://status"]}),
        ),
    )
    .await;
    let ack = status
        .next(Duration::from_secs(5))
        .await
        .expect("acknowledgement first");
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["debugger://status"]}),
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "watch-status",
        "{ack}"
    );
    // A second stream opted in to a type this server never sends and to a session that is not
    // the one about to pause: the acknowledgement leaves the list-changed type out.
    let elsewhere = "debugger://sessions/not-this-one/summary";
    let mut other = Stream::open(
        &app,
        listen_request(
            "watch-other",
            json!({"toolsListChanged": true, "resourceSubscriptions": [elsewhere]}),
        ),
    )
    .await;
    let ack = other.next(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": [elsewhere]}),
        "{ack}"
    );
    assert_eq!(h.engine.live_subscribers(), 2);

    let started = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true}),
        )
        .await;
    assert_eq!(started["pause"]["reason"], "breakpoint");
    let update = status
        .next_update(Duration::from_secs(5))
        .await
        .expect("resources/updated after the pause");
    assert_eq!(update["params"]["uri"], "debugger://status", "{update}");
    assert_eq!(
        update["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "watch-status",
        "{update}"
    );
    // The pause changed this session's resources, not another session's summary.
    assert!(
        other
            .next_update(Duration::from_millis(500))
            .await
            .is_none(),
        "the other stream must stay quiet"
    );

    // The client going away ends its subscription (the listen call returns, nothing is left
    // subscribed); the other stream stays.
    drop(status);
    until("the closed stream's subscriber to go", || {
        h.engine.live_subscribers() == 1
    })
    .await;
    drop(other);
    until("no subscriber left", || h.engine.live_subscribers() == 0).await;
}

#[tokio::test]
async fn listen_with_bad_params_is_refused_before_any_stream_naming_the_problem() {
    let h = H::new(brave());
    let app = app(&h);
    let cases = [
        (
            json!({"resourceSubscriptions": ["debugger://stauts"]}),
            "unknown resource 'debugger://stauts'",
        ),
        (
            json!({"resourceSubscriptions": ["debugger://sessions/s1/stack"]}),
            "unknown resource 'debugger://sessions/s1/stack'",
        ),
        (
            json!({"resourceSubscriptions": "debugger://status"}),
            "notifications.resourceSubscriptions must be an array",
        ),
        (
            json!({"toolListChanged": true}),
            "unknown notification type notifications.toolListChanged",
        ),
        (
            json!({"toolsListChanged": "yes"}),
            "notifications.toolsListChanged must be true or false",
        ),
        (
            json!({"taskIds": ["t1"]}),
            "io.modelcontextprotocol/tasks extension",
        ),
    ];
    for (notifications, expected) in cases {
        let (status, reply) = json_reply(&app, listen_request("bad", notifications.clone())).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        assert_eq!(reply["id"], "bad");
        assert_eq!(reply["error"]["code"], -32602, "{notifications}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{notifications}: {message}");
    }
    // Known URIs are listed so the client can correct itself.
    let (_, reply) = json_reply(
        &app,
        listen_request("bad", json!({"resourceSubscriptions": ["file:///x"]})),
    )
    .await;
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("debugger://status"),
        "{reply}"
    );
    let (_, reply) = json_reply(
        &app,
        stateless_post("subscriptions/listen", &json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {"_meta": meta()}})),
    )
    .await;
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("params.notifications is missing"),
        "{reply}"
    );
    assert_eq!(
        h.engine.live_subscribers(),
        0,
        "no refused request may leave a subscriber"
    );
}

#[tokio::test]
async fn stateless_revision_has_no_subscribe_and_no_get_stream() {
    let h = H::new(brave());
    let app = app(&h);
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let body = json!({"jsonrpc": "2.0", "id": 4, "method": method, "params": {"uri": "debugger://status", "_meta": meta()}});
        let (status, reply) = json_reply(&app, stateless_post(method, &body)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{reply}");
        assert_eq!(reply["error"]["code"], -32601);
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("subscriptions/listen"),
            "{reply}"
        );
    }
    for method in [http::Method::GET, http::Method::DELETE] {
        let req = Request::builder()
            .method(method.clone())
            .uri("/debugger-mcp")
            .header("host", "127.0.0.1:1234")
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", V)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(req).await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
        assert_eq!(response.headers()["allow"], "POST");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&bytes).contains("subscriptions/listen"));
    }
}

#[tokio::test]
async fn initialize_era_subscription_still_gets_the_update_on_its_get_stream() {
    let h = H::new(brave());
    let app = app(&h);
    let version = "2025-11-25";
    let post = |session: Option<&str>, body: Value| {
        let mut b = Request::post("/debugger-mcp")
            .header("host", "127.0.0.1:1234")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version);
        if let Some(s) = session {
            b = b.header("mcp-session-id", s);
        }
        b.body(Body::from(body.to_string())).unwrap()
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "listen-test", "version": "1"}}});
    let response = app.clone().oneshot(post(None, init)).await.unwrap();
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_string();
    let _ = response.into_body().collect().await;
    let r = app
        .clone()
        .oneshot(post(
            Some(&session),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::ACCEPTED);
    let r = app
        .clone()
        .oneshot(post(Some(&session), json!({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": {"uri": "debugger://status"}})))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let _ = r.into_body().collect().await;
    let get = Request::get("/debugger-mcp")
        .header("host", "127.0.0.1:1234")
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", version)
        .header("mcp-session-id", &session)
        .body(Body::empty())
        .unwrap();
    let mut stream = Stream::open(&app, get).await;
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 14}),
    )
    .await;
    h.ok(
        "start_debug_session",
        json!({"run_configuration": "main", "wait_for_pause": true}),
    )
    .await;
    let update = stream
        .next_update(Duration::from_secs(5))
        .await
        .expect("resources/updated on the GET stream");
    assert_eq!(update["params"]["uri"], "debugger://status");
    assert!(
        update["params"].get("_meta").is_none(),
        "no subscription id outside a listen stream: {update}"
    );
}
