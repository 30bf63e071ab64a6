//! Checks for the change-notification requests of the stateless 2026-07-28 revision, run on the
//! raw request before rmcp sees it.
//!
//! 2026-07-28 replaces the GET stream and `resources/subscribe`/`unsubscribe` with
//! `subscriptions/listen`, a POST whose SSE response stays open and carries the opted-in change
//! notifications. rmcp serves the stream (acknowledgement first, every notification tagged with
//! `io.modelcontextprotocol/subscriptionId`), but it acknowledges before the handler runs and
//! its filter type drops keys it does not know, so a typo in a type or a URI the server never
//! serves would open a stream that stays silent. Bad parameters are answered here instead, with
//! an error naming what was wrong, before any stream opens.

use super::error_response;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

/// The first protocol revision without sessions and the GET stream.
const STATELESS: &str = "2026-07-28";
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
const BOOLEAN_TYPES: [&str; 3] = [
    "toolsListChanged",
    "promptsListChanged",
    "resourcesListChanged",
];
const TYPES: &str = "toolsListChanged, promptsListChanged, resourcesListChanged (true/false) and resourceSubscriptions (an array of resource URIs)";

/// What a server accepts in `subscriptions/listen`, checked before its stream opens.
pub trait ListenPolicy {
    /// Checks one URI of `notifications.resourceSubscriptions`; `Err` says what is wrong and
    /// which URIs exist.
    fn check_resource_subscription(&self, uri: &str) -> Result<(), String>;
}

fn stateless_version(version: Option<&str>) -> bool {
    // ISO dates compare lexically in date order.
    version.is_some_and(|v| v >= STATELESS)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// GET (the standalone stream) and DELETE (ending a session) do not exist in 2026-07-28: a
/// request that says it speaks that revision gets the 405 the transport spec asks for.
/// Initialize-era clients (a session id, an older version header) are left to rmcp.
pub(crate) fn stateless_get_or_delete(
    method: &http::Method,
    headers: &HeaderMap,
) -> Option<Response> {
    if !(method == http::Method::GET || method == http::Method::DELETE)
        || headers.contains_key("mcp-session-id")
        || !stateless_version(header(headers, "mcp-protocol-version"))
    {
        return None;
    }
    let mut response = error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{method} is not part of MCP {STATELESS} (no sessions, no GET stream); for change notifications POST a \
             subscriptions/listen request, its response stream carries them"
        ),
    );
    response
        .headers_mut()
        .insert(http::header::ALLOW, http::HeaderValue::from_static("POST"));
    Some(response)
}

/// Whether a POST body may be one of the requests [`check_post`] answers (a cheap scan, so
/// other requests are not parsed twice).
pub(crate) fn may_concern(body: &[u8]) -> bool {
    const NEEDLES: [&[u8]; 3] = [
        b"subscriptions/listen",
        b"resources/subscribe",
        b"resources/unsubscribe",
    ];
    NEEDLES
        .iter()
        .any(|n| body.windows(n.len()).any(|w| w == *n))
}

/// Answers a stateless `subscriptions/listen` with bad parameters (-32602) and a stateless
/// `resources/subscribe`/`unsubscribe` (-32601, 404 as the transport spec asks for unknown
/// methods) with a message saying what to send instead. `None`: rmcp serves the request.
pub(crate) fn check_post(
    body: &[u8],
    headers: &HeaderMap,
    policy: &(dyn ListenPolicy + Sync),
) -> Option<Response> {
    if headers.contains_key("mcp-session-id") {
        return None;
    }
    let msg: Value = serde_json::from_slice(body).ok()?;
    let method = msg.get("method")?.as_str()?;
    let id = msg.get("id")?.clone();
    let meta_version = msg
        .pointer("/params/_meta")
        .and_then(|m| m.get(PROTOCOL_VERSION_META))
        .and_then(Value::as_str);
    if !stateless_version(meta_version.or_else(|| header(headers, "mcp-protocol-version"))) {
        return None;
    }
    match method {
        "subscriptions/listen" => {
            let problem = check_filter(msg.pointer("/params/notifications"), policy).err()?;
            Some(jsonrpc_error(
                StatusCode::OK,
                id,
                -32602,
                format!("Invalid params of subscriptions/listen: {problem}"),
            ))
        }
        "resources/subscribe" | "resources/unsubscribe" => Some(jsonrpc_error(
            StatusCode::NOT_FOUND,
            id,
            -32601,
            format!(
                "{method} is not part of MCP {STATELESS}: name the resource URIs in notifications.resourceSubscriptions \
                 of a subscriptions/listen request; its response stream carries notifications/resources/updated \
                 until you close it"
            ),
        )),
        _ => None,
    }
}

/// Validates `params.notifications` against the 2026-07-28 `SubscriptionFilter` and the
/// server's resources.
fn check_filter(notifications: Option<&Value>, policy: &dyn ListenPolicy) -> Result<(), String> {
    let Some(notifications) = notifications else {
        return Err(format!(
            "params.notifications is missing; it opts in to notification types: {TYPES}"
        ));
    };
    let Some(types) = notifications.as_object() else {
        return Err(format!(
            "params.notifications must be an object of notification types ({TYPES})"
        ));
    };
    for (key, value) in types {
        if BOOLEAN_TYPES.contains(&key.as_str()) {
            if !value.is_boolean() {
                return Err(format!(
                    "notifications.{key} must be true or false, not {value}"
                ));
            }
        } else if key == "resourceSubscriptions" {
            let Some(uris) = value.as_array() else {
                return Err(format!(
                    "notifications.resourceSubscriptions must be an array of resource URIs, not {value}"
                ));
            };
            for uri in uris {
                let Some(uri) = uri.as_str() else {
                    return Err(format!(
                        "notifications.resourceSubscriptions must hold URI strings, not {uri}"
                    ));
                };
                policy
                    .check_resource_subscription(uri)
                    .map_err(|e| format!("notifications.resourceSubscriptions: {e}"))?;
            }
        } else if key == "taskIds" {
            return Err("notifications.taskIds belongs to the io.modelcontextprotocol/tasks extension, which this server does not offer".into());
        } else {
            return Err(format!(
                "unknown notification type notifications.{key}; the types are {TYPES}"
            ));
        }
    }
    Ok(())
}

fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: String) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (
        status,
        [(http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
