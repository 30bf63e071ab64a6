//! Output schema pieces shared by several tools (the `structuredContent` shapes).

use serde_json::{Value, json};

pub fn location() -> Value {
    json!({"type": ["object", "null"], "properties": {
        "file": {"type": ["string", "null"]}, "line": {"type": ["integer", "null"]},
        "method": {"type": ["string", "null"]}, "class": {"type": ["string", "null"]}}})
}
pub fn value_node() -> Value {
    json!({"type": "object", "required": ["name", "value"], "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "value": {"type": "string"},
        "type": {"type": ["string", "null"]}, "has_children": {"type": "boolean"},
        "child_count": {"type": "integer"}, "truncated": {"type": "boolean"},
        "value_length": {"type": "integer"}, "redacted": {"type": "boolean"},
        "children": {"type": "array"}}})
}
pub fn breakpoint() -> Value {
    json!({"type": "object", "required": ["id", "type", "enabled", "verified", "owner"], "properties": {
        "id": {"type": "string"}, "type": {"enum": ["line", "exception"]},
        "file": {"type": "string"}, "line": {"type": "integer"}, "requested_line": {"type": "integer"},
        "source_line": {"type": "string"}, "verified": {"type": "boolean"}, "enabled": {"type": "boolean"},
        "owner": {"enum": ["agent", "user"]}, "hit_count": {"type": "integer"}, "temporary": {"type": "boolean"},
        "suspend_policy": {"enum": ["all", "thread", "none"]}, "message": {"type": "string"}}})
}
pub fn watch() -> Value {
    json!({"type": "object", "required": ["id", "expression"], "properties": {
        "id": {"type": "string"}, "expression": {"type": "string"}, "value": {"type": ["string", "null"]},
        "type": {"type": ["string", "null"]}, "error": {"type": ["string", "null"]}}})
}
/// What stepping, resuming and waiting return.
pub fn stop_result() -> Value {
    json!({"type": "object", "required": ["session_id", "state"], "properties": {
        "session_id": {"type": "string"},
        "state": {"enum": ["starting", "running", "paused", "stopped"]},
        "reason": {"type": "string"}, "location": location(), "thread_id": {"type": "string"},
        "breakpoint_ids": {"type": "array", "items": {"type": "string"}},
        "frame": {"type": "object"}, "watches": {"type": "array", "items": watch()},
        "timed_out": {"type": "boolean"}, "message": {"type": "string"}}})
}
pub fn obj(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}
