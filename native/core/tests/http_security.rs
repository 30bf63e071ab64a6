//! Bad input and the security middleware: every failure gets a clear status and body, and the
//! server keeps answering good requests afterwards.

mod common;
use axum::body::Body;
use common::*;
use http::{Request, StatusCode};
use serde_json::{Value, json};

#[tokio::test]
async fn malformed_json_is_a_parse_error() {
    let app = app();
    for body in ["{bad", "", "{\"jsonrpc\":\"2.0\",", "\u{0}"] {
        let r = send(&app, raw_post(body)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body:?}: {}", r.body);
        let v: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["error"]["code"], -32700, "{body:?}: {}", r.body);
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not valid JSON")
        );
        assert_still_serving(&app).await;
    }
}

#[tokio::test]
async fn wrong_json_rpc_shapes_are_invalid_requests_naming_the_problem() {
    let app = app();
    let cases: [(&str, &str); 7] = [
        ("[]", "batches"),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, "batches"),
        ("42", "got a number"),
        (r#""tools/list""#, "got a string"),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            "\"jsonrpc\" must be \"2.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
            "\"method\" must be a string",
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, "neither a request"),
    ];
    for (body, expected) in cases {
        let r = send(&app, raw_post(body)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.body);
        let v: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["error"]["code"], -32600, "{body}: {}", r.body);
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{body}: {message}");
        assert_still_serving(&app).await;
    }
    // Known method, wrong params shape (tools/call without a name) in the stateless era: rmcp
    // treats the unparseable request as an unknown custom method (-32601 → HTTP 404), which is
    // still a clear JSON-RPC error naming the method.
    let bad = json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{},"_meta":meta()}});
    let r = send(
        &app,
        post()
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "tools/call")
            .body(json_body(&bad))
            .unwrap(),
    )
    .await;
    assert!(r.status.is_client_error(), "{}", r.body);
    assert_eq!(r.message()["id"], 3, "{}", r.body);
    assert!(r.message()["error"]["code"].is_i64(), "{}", r.body);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn wrong_content_type_and_accept_are_refused() {
    let app = app();
    let ping = json!({"jsonrpc":"2.0","id":1,"method":"ping"});
    let r = send(
        &app,
        Request::post(MCP)
            .header("host", "localhost")
            .header("content-type", "text/plain")
            .header("accept", "application/json, text/event-stream")
            .body(json_body(&ping))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", r.body);
    let r = send(
        &app,
        Request::post(MCP)
            .header("host", "localhost")
            .header("content-type", "application/json")
            .header("accept", "text/html")
            .body(json_body(&ping))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_ACCEPTABLE, "{}", r.body);
    assert_still_serving(&app).await;
}

#[tokio::test]
async fn oversized_bodies_get_413_with_or_without_content_length() {
    let app = app_with(None, 1024);
    let big = stateless_tool_call(1, "echo", json!({"text": "x".repeat(4096)}));
    // Declared length (oneshot does not add Content-Length by itself; hyper would).
    let mut req = stateless_post(&big);
    let len = serde_json::to_vec(&big).unwrap().len();
    req.headers_mut().insert("content-length", len.into());
    let r = send(&app, req).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    assert!(r.body.contains("1024"), "names the limit: {}", r.body);
    // Chunked (no Content-Length): the limit applies while reading.
    let bytes = serde_json::to_vec(&big).unwrap();
    let chunks: Vec<Result<bytes::Bytes, std::io::Error>> = bytes
        .chunks(100)
        .map(|c| Ok(bytes::Bytes::copy_from_slice(c)))
        .collect();
    let streamed = Body::from_stream(futures::stream::iter(chunks));
    let r = send(
        &app,
        post()
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "tools/call")
            .header("mcp-name", "echo")
            .body(streamed)
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    // Legacy message endpoint too (the limit is checked before the session lookup).
    let r = send(
        &app,
        post_to("/debugger-mcp/message?sessionId=x")
            .body(json_body(&big))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    // A body under the limit still works.
    assert_still_serving(&app).await;
}

const PATHS: [(&str, &str); 3] = [
    ("POST", "/debugger-mcp"),
    ("GET", "/debugger-mcp/sse"),
    ("POST", "/debugger-mcp/message?sessionId=x"),
];

#[tokio::test]
async fn foreign_origins_get_403_on_every_path() {
    let app = app();
    for origin in [
        "http://evil.example",
        "https://localhost.evil.example",
        "null",
        "http://127.0.0.1.nip.io:80",
    ] {
        for (method, path) in PATHS {
            let r = send(
                &app,
                Request::builder()
                    .method(method)
                    .uri(path)
                    .header("host", "localhost:3000")
                    .header("origin", origin)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
            assert_eq!(
                r.status,
                StatusCode::FORBIDDEN,
                "{origin} {method} {path}: {}",
                r.body
            );
            let v: Value = serde_json::from_str(&r.body).unwrap();
            assert_eq!(v["error"], "forbidden_origin");
        }
        assert_still_serving(&app).await;
    }
    // A loopback Origin is fine (e.g. a local inspector UI).
    let d = discover();
    let r = send(
        &app,
        post()
            .header("origin", "http://localhost:6274")
            .header("mcp-protocol-version", STATELESS)
            .header("mcp-method", "server/discover")
            .body(json_body(&d))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn foreign_hosts_get_403_on_every_path() {
    let app = app();
    for host in [
        "evil.example",
        "evil.example:80",
        "127.0.0.1.nip.io",
        "192.168.1.10:8080",
        "0.0.0.0",
    ] {
        for (method, path) in PATHS {
            let r = send(
                &app,
                Request::builder()
                    .method(method)
                    .uri(path)
                    .header("host", host)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
            assert_eq!(
                r.status,
                StatusCode::FORBIDDEN,
                "{host} {method} {path}: {}",
                r.body
            );
            let v: Value = serde_json::from_str(&r.body).unwrap();
            assert_eq!(v["error"], "forbidden_host");
        }
        assert_still_serving(&app).await;
    }
    // No Host at all (and no authority in the URI) is a 400, not a pass.
    let r = send(&app, Request::post(MCP).body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    // Every loopback spelling, any port.
    for host in [
        "localhost",
        "LOCALHOST:1",
        "127.0.0.1:63342",
        "[::1]:8080",
        "[::1]",
    ] {
        let d = discover();
        let r = send(
            &app,
            Request::post(MCP)
                .header("host", host)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", STATELESS)
                .header("mcp-method", "server/discover")
                .body(json_body(&d))
                .unwrap(),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{host}: {}", r.body);
    }
}

#[tokio::test]
async fn bearer_token_is_required_when_configured() {
    let app = app_with(Some("s3cret-token"), 4 << 20);
    let call = stateless_tool_call(1, "add", json!({"a":1,"b":2}));
    for (authorization, code) in [
        (None, "missing_token"),
        (Some("Bearer wrong"), "invalid_token"),
        (Some("Basic czNjcmV0LXRva2Vu"), "missing_token"),
        (Some("Bearer s3cret-toke"), "invalid_token"),
    ] {
        for (method, path) in PATHS {
            let mut b = Request::builder()
                .method(method)
                .uri(path)
                .header("host", "localhost");
            if let Some(a) = authorization {
                b = b.header("authorization", a);
            }
            let r = send(&app, b.body(Body::empty()).unwrap()).await;
            assert_eq!(
                r.status,
                StatusCode::UNAUTHORIZED,
                "{authorization:?} {path}: {}",
                r.body
            );
            assert!(
                r.headers["www-authenticate"]
                    .to_str()
                    .unwrap()
                    .starts_with("Bearer"),
                "challenge header"
            );
            let v: Value = serde_json::from_str(&r.body).unwrap();
            assert_eq!(v["error"], code, "{authorization:?}");
        }
    }
    // The right token (scheme is case-insensitive) is served.
    for auth in ["Bearer s3cret-token", "bearer s3cret-token"] {
        let mut req = stateless_post(&call);
        req.headers_mut()
            .insert("authorization", auth.parse().unwrap());
        let r = send(&app, req).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        assert_eq!(text_of(&r.message()), "3");
    }
}

#[tokio::test]
async fn unknown_paths_and_methods_are_clear_errors() {
    let app = app();
    let r = send(
        &app,
        Request::get("/nope")
            .header("host", "localhost")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("/debugger-mcp"), "{}", r.body);
    let r = send(
        &app,
        Request::put(MCP)
            .header("host", "localhost")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{}", r.body);
    assert_still_serving(&app).await;
}
