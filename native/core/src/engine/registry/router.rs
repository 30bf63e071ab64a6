//! The compact profile: one `debugger` tool whose `op` names the operation, its description
//! listing every op's signature, `help` on demand, and the lean schemas of the full list.

use super::{Registry, obj};
use crate::engine::context::ToolError;
use rmcp::model::{Tool as McpTool, ToolAnnotations};
use serde_json::{Value, json};
use std::sync::Arc;

/// The compact profile's one tool: `{"op": "<tool name>", ...that tool's arguments}`.
pub const ROUTER: &str = "debugger";
/// The router's on-demand help operation.
pub const HELP: &str = "help";

/// Fields most operations accept; the router's description names them once instead of in every
/// signature.
pub(super) const SHARED: [&str; 6] = [
    "project_path",
    "session_id",
    "thread_id",
    "wait",
    "timeout_ms",
    "frame_index",
];

/// Shared parameters every tool (or every waiting tool) takes that the listing leaves out.
pub(super) const UNLISTED: [&str; 6] = [
    "project_path",
    "session_id",
    "wait",
    "timeout_ms",
    "thread_id",
    "frame_index",
];

/// Marks a parameter the listing leaves out because the tool's description names it (see
/// [`unlist`]); the full schema (validation, `help`) keeps the parameter, not the mark.
pub const UNLISTED_KEY: &str = "x-unlisted";

/// For `#[schemars(transform = ...)]`: leaves `names` out of the listed schema. Only for
/// parameters the tool's description names (the agent can find them) and the instructions or
/// another tool explain.
pub fn unlist(schema: &mut schemars::Schema, names: &[&str]) {
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        for name in names {
            let p = props
                .get_mut(*name)
                .and_then(Value::as_object_mut)
                .unwrap_or_else(|| panic!("unlist: no parameter '{name}'"));
            p.insert(UNLISTED_KEY.into(), Value::Bool(true));
        }
    }
}

/// Resolves a router call to the operation it names and that operation's arguments (`op`
/// removed), or answers `help`. Every error lists what to send instead.
pub enum Routed {
    Tool(String, Value),
    Help(Value),
}

impl Registry {
    pub fn route(&self, args: Value) -> Result<Routed, ToolError> {
        let r = self;
        let Value::Object(mut m) = args else {
            return Err(ToolError(
                "invalid arguments for debugger: expected an object with 'op'".into(),
            ));
        };
        let op = match m.remove("op") {
            Some(Value::String(op)) => op,
            Some(other) => {
                return Err(ToolError(format!(
                    "invalid arguments for debugger: field 'op': expected string, received {}",
                    clip(&other.to_string())
                )));
            }
            None => {
                return Err(ToolError(format!(
                    "invalid arguments for debugger: field 'op': required; one of {HELP}, {}",
                    r.names().join(", ")
                )));
            }
        };
        if op == HELP {
            return self
                .help(m.get("about").and_then(Value::as_str))
                .map(Routed::Help);
        }
        if !r.specs.contains_key(op.as_str()) {
            return Err(ToolError(format!(
                "field 'op': unknown op '{}'; one of {HELP}, {}",
                clip(&op),
                r.names().join(", ")
            )));
        }
        Ok(Routed::Tool(op, Value::Object(m)))
    }

    /// `help` without `about`: every op with its title; with `about`: that op's description and
    /// input schema (what the full profile would have listed).
    fn help(&self, about: Option<&str>) -> Result<Value, ToolError> {
        let r = self;
        match about {
            None => Ok(
                json!({"ops": r.tools.iter().map(|t| json!({"op": t.name, "title": r.specs[t.name.as_ref()].title})).collect::<Vec<_>>(),
                          "hint": "{\"op\":\"help\",\"about\":\"<op>\"} for an op's parameters"}),
            ),
            Some(name) => {
                let spec = r.specs.get(name).ok_or_else(|| {
                    ToolError(format!(
                        "field 'about': unknown op '{}'; one of {}",
                        clip(name),
                        r.names().join(", ")
                    ))
                })?;
                Ok(
                    json!({"op": name, "description": spec.tool.description, "input_schema": spec.tool.input_schema}),
                )
            }
        }
    }
}

/// Client text echoed in an error, at most 80 characters.
fn clip(s: &str) -> String {
    if s.chars().count() <= 80 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(80).collect::<String>())
    }
}

impl Registry {
    fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name.as_ref()).collect()
    }
}

/// `name(required, optional?)` for every tool, shared fields left out.
fn signatures(tools: &[McpTool]) -> String {
    tools
        .iter()
        .map(|t| {
            let props = t.input_schema.get("properties").and_then(Value::as_object);
            let required = super::required(&t.input_schema);
            let mut params: Vec<String> = required.iter().map(|r| r.to_string()).collect();
            params.extend(
                props
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k.as_str())
                    .filter(|k| !required.contains(k) && !SHARED.contains(k))
                    .map(|k| format!("{k}?")),
            );
            format!("{}({})", t.name, params.join(","))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn router_tool(tools: &[McpTool]) -> McpTool {
    let description = format!(
        "Drive a debugger: put the operation in `op` and its parameters beside it, e.g. \
         {{\"op\":\"set_breakpoint\",\"file_path\":\"app.py\",\"line\":12}}. \
         {{\"op\":\"help\",\"about\":\"<op>\"}} gives an op's description and parameters. \
         Any op also takes project_path? (several open projects), session_id? (default: current); \
         stepping: evaluate? (expressions at the stop), wait?, timeout_ms?, thread_id?; frames: frame_index? (0 = top). Lines are 1-based. \
         Ops: {}",
        signatures(tools)
    );
    let schema = json!({"type": "object", "properties": {
        "op": {"type": "string", "description": "Operation, or help"},
        "about": {"type": "string", "description": "With op=help: the op to explain"}},
        "required": ["op"]});
    let mut tool = McpTool::new(ROUTER, description, obj(schema));
    tool.title = Some("Debugger".into());
    // The router reaches every op, the destructive ones too (they still ask for confirmation).
    tool.annotations = Some(
        ToolAnnotations::new()
            .read_only(false)
            .destructive(true)
            .idempotent(false),
    );
    tool
}

/// A tool as listed: its schema without the bounds every agent sends anyway (`minLength: 1`
/// on names and paths, `minItems: 1` on lists, `minimum: 0` on counts and indexes), the string
/// limits (`maxLength`) and the defaults the instructions state once (`wait` true, `timeout_ms`
/// 30000): ~0.7 KB of every session's context.
/// The server still validates with the full schema (`ToolSpec::validator`), so an empty path or
/// a negative index is refused with the field named, and `help` shows the full schema.
pub(super) fn lean(tool: &McpTool) -> McpTool {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for bound in ["minLength", "minItems"] {
                    if m.get(bound) == Some(&json!(1)) {
                        m.remove(bound);
                    }
                }
                // Counts and lines start at 0 or 1 (the instructions say so once); validation
                // still names the field when one is below.
                if m.get("minimum") == Some(&json!(0)) || m.get("minimum") == Some(&json!(1)) {
                    m.remove("minimum");
                }
                // String limits: the instructions state them once, by kind (on the 27
                // parameters whose limit is not the default they cost 451 B of every listing).
                m.remove("maxLength");
                // Caps on counts (max_children 200, limit 500…): a value above one is refused
                // naming the cap, which costs an agent less than reading every cap each session.
                if m.get("type") == Some(&json!("integer")) {
                    m.remove("maximum");
                }
                // Defaults the instructions state once (see `handler::INSTRUCTIONS`).
                if let Some(Value::Object(props)) = m.get_mut("properties") {
                    for (name, default) in [
                        ("timeout_ms", json!(super::DEFAULT_WAIT_MS)),
                        ("wait", json!(true)),
                    ] {
                        if let Some(Value::Object(p)) = props
                            .get_mut(name)
                            .filter(|p| p.get("default") == Some(&default))
                        {
                            p.remove("default");
                            p.remove("minimum");
                            // "at most 55000": stated once in the instructions.
                            p.remove("maximum");
                        }
                    }
                }
                if m.get("default") == Some(&json!([])) {
                    m.remove("default");
                }
                // Unlisted parameters of nested objects too (a list item's `after`), and their
                // `additionalProperties` (for validators, as at the root).
                if let Some(Value::Object(props)) = m.get_mut("properties") {
                    props.retain(|_, p| p.get(UNLISTED_KEY).is_none());
                    m.remove("additionalProperties");
                }
                // An enum's default is its first value, an offset's 0: the instructions say so
                // once.
                if let Some(first) = m.get("enum").and_then(|e| e.get(0))
                    && m.get("default") == Some(first)
                {
                    m.remove("default");
                }
                if let Some(Value::Object(props)) = m.get_mut("properties")
                    && let Some(Value::Object(offset)) = props.get_mut("offset")
                    && offset.get("default") == Some(&json!(0))
                {
                    offset.remove("default");
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut t = tool.clone();
    let mut schema = Value::Object((*t.input_schema).clone());
    strip(&mut schema);
    // Said once in the instructions (and the router's description) instead of in every tool:
    // project_path and session_id on every tool, wait/timeout_ms on the waiting ones,
    // thread_id/frame_index on the stack and value ones (~3 KB), unless a tool requires one.
    // `additionalProperties: false` is for validators; the server's own (the full schema) still
    // refuses an unknown parameter by name (~1 KB).
    if let Value::Object(root) = &mut schema {
        root.remove("additionalProperties");
        let required: Vec<Value> = root
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(Value::Object(props)) = root.get_mut("properties") {
            props.retain(|_, p| p.get(UNLISTED_KEY).is_none());
            for name in UNLISTED {
                if !required.contains(&json!(name)) {
                    props.remove(name);
                }
            }
        }
    }
    t.input_schema = Arc::new(obj(schema));
    t
}
