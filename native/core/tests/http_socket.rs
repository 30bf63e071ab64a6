//! The router over a real loopback socket (as the sidecar serves it), with a raw HTTP/1.1
//! client so nothing between the test and the server rewrites headers.

mod common;
use common::*;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn serve() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app()).await.unwrap() });
    addr
}

/// One request on its own connection (`Connection: close`), returns (status, head, body).
async fn raw(addr: std::net::SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    // The server may answer (413) and close before an oversized body is fully written.
    let _ = s.write_all(body.as_bytes()).await;
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("response within 10 s")
        {
            Ok(0) | Err(_) => break, // EOF, or a reset after the server refused the body
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (h, b) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = h.split(' ').nth(1).unwrap().parse().unwrap();
    (status, h.to_string(), b.to_string())
}

#[tokio::test]
async fn stateless_call_and_security_over_tcp() {
    let addr = serve().await;
    let call = stateless_tool_call(1, "add", json!({"a": 20, "b": 22})).to_string();
    let head = format!(
        "POST /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: add",
        addr.port()
    );
    let (status, _, body) = raw(addr, &head, &call).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""text":"42""#), "{body}");

    // DNS rebinding: the attacker's name arrives as Host.
    let (status, _, body) = raw(
        addr,
        &head.replace(
            &format!("Host: 127.0.0.1:{}", addr.port()),
            "Host: attacker.example",
        ),
        &call,
    )
    .await;
    assert_eq!(status, 403, "{body}");
    // Cross-site POST from a browser page.
    let (status, _, _) = raw(
        addr,
        &format!("{head}\r\nOrigin: https://attacker.example"),
        &call,
    )
    .await;
    assert_eq!(status, 403);
    // Declared oversize body is refused from its Content-Length (4 MiB default).
    let big = "x".repeat(4 * 1024 * 1024 + 1);
    let (status, _, body) = raw(addr, &head, &big).await;
    assert_eq!(status, 413, "{body}");
    // And the server still answers.
    let (status, _, body) = raw(addr, &head, &call).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn legacy_sse_disconnect_over_tcp_ends_the_session() {
    let addr = serve().await;
    let mut sse = TcpStream::connect(addr).await.unwrap();
    sse.write_all(
        b"GET /debugger-mcp/sse HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
    )
    .await
    .unwrap();
    let mut buf = vec![0u8; 4096];
    let mut got = String::new();
    while !got.contains("sessionId=") || !got[got.find("sessionId=").unwrap()..].contains('\n') {
        let n = tokio::time::timeout(Duration::from_secs(10), sse.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0, "stream closed early: {got}");
        got.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let start = got.find("/debugger-mcp/message?sessionId=").unwrap();
    let endpoint: String = got[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();

    let init = initialize("2024-11-05").to_string();
    let post_head =
        format!("POST {endpoint} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json");
    let (status, _, _) = raw(addr, &post_head, &init).await;
    assert_eq!(status, 202);
    // The initialize result arrives on the stream.
    let mut stream_text = String::new();
    while !stream_text.contains("\"protocolVersion\"") {
        let n = tokio::time::timeout(Duration::from_secs(10), sse.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0);
        stream_text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(stream_text.contains("event: message"), "{stream_text}");

    drop(sse); // client disconnects
    // The server notices the closed socket on its next write or poll; wait up to 5 s.
    let ping = json!({"jsonrpc":"2.0","id":2,"method":"ping"}).to_string();
    let mut last = 0;
    for _ in 0..50 {
        let (status, _, body) = raw(addr, &post_head, &ping).await;
        last = status;
        if status == 404 {
            let v: Value = serde_json::from_str(&body).unwrap_or_default();
            assert_eq!(v["error"], "unknown_session", "{body}");
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        last, 404,
        "session ended after the client closed the stream"
    );
}
