//! The HTTP side of the bridge: one request to a server (token, session, protocol headers),
//! the headers a 2026-07-28 stateless request implies, and SSE decoding of answer streams.

use anyhow::{Context, Result, anyhow};
use bytes::Bytes;
use http_body_util::Full;
use serde_json::Value;
use std::time::Duration;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

pub(super) async fn post(
    url: &str,
    token: Option<&str>,
    session: Option<&str>,
    protocol: Option<&str>,
    body: Vec<u8>,
) -> Result<http::Response<hyper::body::Incoming>> {
    send(http::Method::POST, url, token, session, protocol, &[], body).await
}

pub(super) async fn send(
    method: http::Method,
    url: &str,
    token: Option<&str>,
    session: Option<&str>,
    protocol: Option<&str>,
    extra: &[(&str, String)],
    body: Vec<u8>,
) -> Result<http::Response<hyper::body::Incoming>> {
    let uri: http::Uri = url
        .parse()
        .with_context(|| format!("bad server URL {url}"))?;
    let authority = uri
        .authority()
        .ok_or_else(|| anyhow!("server URL {url} has no host"))?
        .clone();
    let tcp = tokio::time::timeout(
        CONNECT_TIMEOUT,
        tokio::net::TcpStream::connect(authority.as_str()),
    )
    .await
    .map_err(|_| anyhow!("connecting to {url} timed out"))??;
    let _ = tcp.set_nodelay(true);
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut req = http::Request::builder()
        .method(method.clone())
        .uri(uri.path())
        .header(http::header::HOST, authority.as_str());
    req = if method == http::Method::GET {
        req.header(http::header::ACCEPT, "text/event-stream")
    } else {
        req.header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
    };
    if let Some(t) = token {
        req = req.header(http::header::AUTHORIZATION, format!("Bearer {t}"));
    }
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    if let Some(p) = protocol {
        req = req.header("mcp-protocol-version", p);
    }
    for (name, value) in extra {
        req = req.header(*name, value.as_str());
    }
    Ok(sender
        .send_request(req.body(Full::new(Bytes::from(body)))?)
        .await?)
}

/// The 2026-07-28 revision names its protocol version in each request's `_meta` instead of an
/// initialize handshake; such requests (and `server/discover`) are relayed statelessly.
pub(super) const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The protocol version a stateless (2026-07-28) request carries, if it is one.
pub(super) fn stateless_version(message: &Value) -> Option<String> {
    message.get("id")?;
    message["params"]["_meta"][PROTOCOL_VERSION_META]
        .as_str()
        .map(str::to_owned)
}

/// The headers the 2026-07-28 Streamable HTTP transport requires beside the body (SEP-2243):
/// `Mcp-Method`, and `Mcp-Name` for methods naming a tool, prompt or resource. Our tools
/// annotate no argument with `x-mcp-header`, so no `Mcp-Param-*` header is needed.
pub(super) fn stateless_headers(message: &Value) -> Vec<(&'static str, String)> {
    let method = message["method"].as_str().unwrap_or_default();
    let mut headers = vec![("mcp-method", method.to_owned())];
    let key = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(name) = key.and_then(|k| message["params"][k].as_str()) {
        headers.push(("mcp-name", header_value(name)));
    }
    headers
}

/// A header value as the transport spells it: as is when it can travel bare, else Base64
/// between `=?base64?` and `?=` (non-ASCII, control characters, edge whitespace).
pub(super) fn header_value(value: &str) -> String {
    use base64::Engine;
    let wrap = value.starts_with([' ', '\t'])
        || value.ends_with([' ', '\t'])
        || !value.chars().all(|c| (' '..='~').contains(&c))
        || (value.starts_with("=?base64?") && value.ends_with("?="));
    if wrap {
        format!(
            "=?base64?{}?=",
            base64::prelude::BASE64_STANDARD.encode(value)
        )
    } else {
        value.to_owned()
    }
}

/// Splits an SSE byte stream into the `data` of its events. Works on bytes until a line is
/// complete: a chunk may end inside a UTF-8 character.
#[derive(Default)]
pub(super) struct SseDecoder {
    buf: Vec<u8>,
    data: String,
}

impl SseDecoder {
    pub(super) fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        self.buf.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(nl) = self.buf.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = self.buf.drain(..=nl).collect();
            let line = String::from_utf8_lossy(&raw[..nl]);
            let line = line.trim_end_matches('\r');
            if let Some(d) = line.strip_prefix("data:") {
                if !self.data.is_empty() {
                    self.data.push('\n');
                }
                self.data.push_str(d.strip_prefix(' ').unwrap_or(d));
            } else if line.is_empty() && !self.data.is_empty() {
                events.push(std::mem::take(&mut self.data));
            }
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sse_events_survive_chunks_split_anywhere() {
        let stream = "id: 1\r\ndata: {\"text\":\"Grüße – 完了\"}\r\n\r\n: keep-alive\n\ndata: {\"a\":\ndata: 1}\n\n".as_bytes();
        for split in 1..stream.len() {
            let mut d = SseDecoder::default();
            let mut events = d.push(&stream[..split]);
            events.extend(d.push(&stream[split..]));
            assert_eq!(
                events,
                vec![
                    "{\"text\":\"Grüße – 完了\"}".to_string(),
                    "{\"a\":\n1}".to_string()
                ],
                "split at {split}"
            );
        }
    }

    #[test]
    fn stateless_requests_carry_the_headers_their_body_implies() {
        let meta = json!({PROTOCOL_VERSION_META: "2026-07-28"});
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "step_over", "_meta": meta}});
        assert_eq!(stateless_version(&call).as_deref(), Some("2026-07-28"));
        assert_eq!(
            stateless_headers(&call),
            vec![
                ("mcp-method", "tools/call".to_string()),
                ("mcp-name", "step_over".to_string())
            ]
        );
        let read = json!({"id": 2, "method": "resources/read", "params": {"uri": "file:///tmp/Grüße.py", "_meta": meta}});
        // Non-ASCII cannot travel as a header value: Base64 between the transport's markers.
        assert_eq!(
            stateless_headers(&read)[1],
            (
                "mcp-name",
                "=?base64?ZmlsZTovLy90bXAvR3LDvMOfZS5weQ==?=".to_string()
            )
        );
        assert_eq!(
            header_value(" x"),
            "=?base64?IHg=?=",
            "edge whitespace would be trimmed"
        );
        assert_eq!(
            stateless_headers(&json!({"id": 3, "method": "tools/list", "params": {"_meta": meta}}))
                .len(),
            1
        );
        // Initialize-era requests (no per-request version) and notifications stay on the session.
        assert_eq!(
            stateless_version(&json!({"id": 4, "method": "tools/list"})),
            None
        );
        assert_eq!(
            stateless_version(
                &json!({"method": "notifications/cancelled", "params": {"_meta": meta}})
            ),
            None
        );
    }
}
