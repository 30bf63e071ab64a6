//! The tool registry: names, titles, LLM-oriented descriptions, input/output JSON Schemas
//! (2020-12) and annotations, all derived from tool types. Built once per process from the tool
//! table (`tools::registry`); the validators are compiled once too, so `tools/list` and input
//! validation cost no schema work per call.
//!
//! What a tool is ([`Tool`], [`Kind`], [`ToolDef`]) is defined here, below the tools: the tools
//! implement it and hand their table to [`Registry::build`], so this module never names a tool.
//! `schema` derives and normalises the schemas; `router` is the compact profile.

mod router;
mod schema;

pub use router::{HELP, ROUTER, Routed, UNLISTED_KEY, unlist};
pub use schema::{input_schema, output_schema, required};

use super::context::{Call, ToolError};
use crate::config::ToolProfile;
use rmcp::model::{JsonObject, Tool as McpTool, ToolAnnotations};
use router::{SHARED, lean, router_tool};
use schema::add_limits;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

/// Longest wait of the waiting tools, in milliseconds.
pub const DEFAULT_WAIT_MS: u64 = 30_000;
/// The cap on every wait: clients give up on calls around 60 s.
pub const MAX_WAIT_MS: u64 = 55_000;

/// What a tool's `run` returns.
pub type Outcome<T> = Result<T, ToolError>;

/// How a tool changes the world, for the MCP annotations.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Reads only.
    Read,
    /// Changes debugger state (breakpoints, stepping); `idempotent` when repeating is harmless.
    Write { idempotent: bool },
    /// Can change the program or its data (start processes, set values, run code).
    Destructive { idempotent: bool },
}

/// One tool: its arguments type is the tool.
pub trait Tool: DeserializeOwned + Serialize + JsonSchema + Send {
    const NAME: &'static str;
    const KIND: Kind;
    /// The result (`structuredContent`); its derived schema is the output schema.
    type Output: Serialize + JsonSchema;
    fn run(self, c: &mut Call<'_>) -> impl Future<Output = Outcome<Self::Output>> + Send;
}

/// Type-erased view of a [`Tool`] for the registry.
pub struct ToolDef {
    pub name: &'static str,
    pub kind: Kind,
    pub input: fn() -> schemars::Schema,
    pub output: fn() -> Value,
    /// Parses arguments and serialises the parsed struct back: defaults filled in as the code
    /// sees them (used by the test that compares them with the schema defaults).
    pub roundtrip: fn(&Value) -> Result<Value, String>,
}

impl ToolDef {
    pub fn of<T: Tool>() -> Self {
        ToolDef {
            name: T::NAME,
            kind: T::KIND,
            input: input_schema::<T>,
            output: output_schema::<T::Output>,
            roundtrip: |v| {
                let parsed = T::deserialize(v).map_err(|e| format!("invalid arguments: {e}"))?;
                serde_json::to_value(parsed).map_err(|e| e.to_string())
            },
        }
    }
}

pub struct ToolSpec {
    pub tool: McpTool,
    /// Human-readable title; listed only where it says more than the name, always in `help`.
    pub title: String,
    /// How the tool changes the world (its annotations).
    #[cfg_attr(not(test), allow(dead_code))]
    pub kind: Kind,
    /// The JSON Schema of `structuredContent`, derived from the tool's `Output` type
    /// ([`output_schema`]). Advertised only by the `typed` profile (MCP makes `outputSchema`
    /// optional; the 36 derived schemas are 53 KB, 13.9 KB even summarised to top-level
    /// properties and types, and a bare `{"type":"object"}` each is 1.2 KB: the full profile's
    /// 16 KB budget has < 100 B left); the tests validate every result against it.
    pub output: Value,
    pub validator: jsonschema::Validator,
    /// Property names the input accepts, for "unknown parameter" messages.
    pub properties: Vec<String>,
    /// Parses + re-serialises arguments (see [`ToolDef::roundtrip`]).
    #[cfg_attr(not(test), allow(dead_code))]
    pub roundtrip: fn(&Value) -> Result<Value, String>,
}

pub struct Registry {
    pub specs: HashMap<&'static str, ToolSpec>,
    /// In registration order, ready for `tools/list` (full profile).
    pub tools: Arc<Vec<McpTool>>,
    /// The compact profile: the single [`ROUTER`] tool.
    pub compact: Arc<Vec<McpTool>>,
    /// The typed profile: the full list, each tool with its `outputSchema` and `title` (what
    /// SPEC §3 names and the full profile leaves out for its byte budget).
    pub typed: Arc<Vec<McpTool>>,
}

impl Registry {
    pub fn tools_for(&self, profile: ToolProfile) -> Arc<Vec<McpTool>> {
        match profile {
            ToolProfile::Full => self.tools.clone(),
            ToolProfile::Compact => self.compact.clone(),
            ToolProfile::Typed => self.typed.clone(),
        }
    }
}

fn obj(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("schemas are objects"),
    }
}

impl Registry {
    /// Builds the registry of `defs` (the tool table, in registration order).
    pub fn build(defs: Vec<ToolDef>) -> Registry {
        let mut specs = HashMap::new();
        let mut tools = Vec::new();
        for d in defs {
            let (read_only, destructive, idempotent) = match d.kind {
                Kind::Read => (true, false, true),
                Kind::Write { idempotent } => (false, false, idempotent),
                Kind::Destructive { idempotent } => (false, true, idempotent),
            };
            let mut input = (d.input)().to_value();
            let root = input.as_object_mut().expect("object schema");
            // Shared fields are explained once, in the server instructions (and the router's
            // description), not in every tool that takes them.
            if let Some(Value::Object(props)) = root.get_mut("properties") {
                for name in SHARED {
                    if let Some(Value::Object(p)) = props.get_mut(name) {
                        p.remove("description");
                    }
                }
            }
            // The string limits validation enforces, stated (listed leaner: `router::lean`).
            schema::state_string_limits(&mut input);
            let root = input.as_object_mut().expect("object schema");
            let title = root
                .remove("title")
                .and_then(|t| t.as_str().map(String::from))
                .unwrap_or_else(|| d.name.to_string());
            let description = root
                .remove("description")
                .and_then(|t| t.as_str().map(String::from))
                .unwrap_or_default();
            let properties = root
                .get("properties")
                .and_then(Value::as_object)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            let mut checked = input.clone();
            add_limits(&mut checked, None);
            let validator = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .build(&checked)
                .unwrap_or_else(|e| panic!("input schema of {} does not compile: {e}", d.name));
            let mut tool = McpTool::new(d.name, description, obj(input));
            // No `title` in tools/list: it is display text for client UIs (which show the name
            // without one), and 36 titles cost an agent ~0.9 KB of context per session — the
            // difference between meeting the 16 KB budget and not. `help` and the history keep it.
            // Bytes in tools/list are paid by the agent on every session, so hints equal to MCP's
            // defaults (readOnlyHint false, idempotentHint false) are left out; destructiveHint is
            // always stated on writing tools because its default (true) is the one that matters.
            // A read-only tool says only that. openWorldHint is left out (default true): a
            // debugged program may touch anything.
            // (Hints equal to MCP's defaults are left out, `destructiveHint: true` included.)
            // `destructiveHint: true` is MCP's default too (for a tool not read-only), so a
            // destructive tool says only whether it is idempotent, and says nothing when not.
            let mut annotations = ToolAnnotations::new();
            if read_only {
                annotations = annotations.read_only(true);
            } else if !destructive {
                annotations = annotations.destructive(false);
            }
            if !read_only && idempotent {
                annotations = annotations.idempotent(true);
            }
            if annotations != ToolAnnotations::new() {
                tool.annotations = Some(annotations);
            }
            tools.push(lean(&tool));
            // The mark is for `lean`; the full schema keeps the parameter, not the mark.
            let mut full = Value::Object((*tool.input_schema).clone());
            fn unmark(v: &mut Value) {
                match v {
                    Value::Object(m) => {
                        m.remove(UNLISTED_KEY);
                        m.values_mut().for_each(unmark);
                    }
                    Value::Array(a) => a.iter_mut().for_each(unmark),
                    _ => {}
                }
            }
            unmark(&mut full);
            let Value::Object(full) = full else {
                unreachable!("a schema is an object")
            };
            tool.input_schema = Arc::new(full);
            specs.insert(
                d.name,
                ToolSpec {
                    tool,
                    title,
                    kind: d.kind,
                    output: (d.output)(),
                    validator,
                    properties,
                    roundtrip: d.roundtrip,
                },
            );
        }
        let compact = vec![router_tool(&tools)];
        let typed = tools
            .iter()
            .map(|t| {
                let mut t = t.clone();
                let spec = &specs[t.name.as_ref()];
                t.output_schema = Some(Arc::new(obj(spec.output.clone())));
                t.title = Some(spec.title.clone());
                t
            })
            .collect();
        Registry {
            specs,
            tools: Arc::new(tools),
            compact: Arc::new(compact),
            typed: Arc::new(typed),
        }
    }
}
