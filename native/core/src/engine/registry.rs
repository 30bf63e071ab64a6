//! The tool registry: names, titles, LLM-oriented descriptions, input/output JSON Schemas
//! (2020-12) and annotations, all derived from the tool types in [`super::tools`]. Built once per
//! process; the validators are compiled once too, so `tools/list` and input validation cost no
//! schema work per call.

use super::context::ToolError;
use super::tools::{self, Kind, Tool};
use crate::config::ToolProfile;
use rmcp::model::{JsonObject, Tool as McpTool, ToolAnnotations};
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

pub struct ToolSpec {
    pub tool: McpTool,
    /// Human-readable title; listed only where it says more than the name, always in `help`.
    pub title: String,
    /// The JSON Schema of `structuredContent`, derived from the tool's `Output` type
    /// ([`output_schema`]). Advertised only by the `typed` profile (MCP makes `outputSchema`
    /// optional; the 36 derived schemas are 53 KB, 13.9 KB even summarised to top-level
    /// properties and types, and a bare `{"type":"object"}` each is 1.2 KB: the full profile's
    /// 16 KB budget has < 100 B left); the tests validate every result against it.
    pub output: Value,
    pub validator: jsonschema::Validator,
    /// Property names the input accepts, for "unknown parameter" messages.
    pub properties: Vec<String>,
    /// Parses + re-serialises arguments (see [`tools::ToolDef::roundtrip`]).
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

/// The compact profile's one tool: `{"op": "<tool name>", ...that tool's arguments}`.
pub const ROUTER: &str = "debugger";
/// The router's on-demand help operation.
pub const HELP: &str = "help";

/// Fields most operations accept; the router's description names them once instead of in every
/// signature.
const SHARED: [&str; 6] = [
    "project_path",
    "session_id",
    "thread_id",
    "wait",
    "timeout_ms",
    "frame_index",
];

/// Resolves a router call to the operation it names and that operation's arguments (`op`
/// removed), or answers `help`. Every error lists what to send instead.
pub enum Routed {
    Tool(String, Value),
    Help(Value),
}

pub fn route(args: Value) -> Result<Routed, ToolError> {
    let r = registry();
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
        return help(m.get("about").and_then(Value::as_str)).map(Routed::Help);
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
fn help(about: Option<&str>) -> Result<Value, ToolError> {
    let r = registry();
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
            let required: Vec<&str> = t
                .input_schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
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

fn router_tool(tools: &[McpTool]) -> McpTool {
    let description = format!(
        "Drive a debugger: put the operation in `op` and its parameters beside it, e.g. \
         {{\"op\":\"set_breakpoint\",\"file_path\":\"app.py\",\"line\":12}}. \
         {{\"op\":\"help\",\"about\":\"<op>\"}} gives an op's description and parameters. \
         Any op also takes project_path? (several open projects), session_id? (default: current); \
         stepping: wait?, timeout_ms?, thread_id?; frames: frame_index? (0 = top). Lines are 1-based. \
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
/// on names and paths, `minItems: 1` on lists, `minimum: 0` on counts and indexes) and the defaults the instructions
/// state once (`wait` true, `timeout_ms` 30000): ~0.7 KB of every session's context.
/// The server still validates with the full schema (`ToolSpec::validator`), so an empty path or
/// a negative index is refused with the field named, and `help` shows the full schema.
fn lean(tool: &McpTool) -> McpTool {
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
                // Defaults the instructions state once (see `handler::INSTRUCTIONS`).
                if let Some(Value::Object(props)) = m.get_mut("properties") {
                    for (name, default) in [
                        ("timeout_ms", json!(super::tools::DEFAULT_WAIT_MS)),
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
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut t = tool.clone();
    let mut schema = Value::Object((*t.input_schema).clone());
    strip(&mut schema);
    t.input_schema = Arc::new(obj(schema));
    t
}

/// The single registry of this process.
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(build);
    &REGISTRY
}

fn obj(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        _ => unreachable!("schemas are objects"),
    }
}

/// The input schema of a tool type, as sent in `tools/list` (title and description still at
/// the root; [`build`] lifts them into the tool).
///
/// schemars output is normalised for agents and strict validation: subschemas inlined; `null`
/// removed from `Option` fields (omit a field instead of sending null — what the seeds' schemas
/// said); `format` dropped (`uint32` etc. are noise to a model; `minimum` says it);
/// `additionalProperties: false` at the root (flattened shared fields make serde's
/// `deny_unknown_fields` unusable, the schema enforces it instead).
pub fn input_schema<T: Tool>() -> schemars::Schema {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    normalise(&mut schema);
    let root = schema.as_object_mut().expect("object schema");
    root.insert("type".into(), json!("object"));
    root.insert("additionalProperties".into(), json!(false));
    root.entry("properties").or_insert_with(|| json!({}));
    if root
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.is_empty())
    {
        root.remove("required");
    }
    schemars::Schema::try_from(schema).expect("object schema")
}

/// The output schema of a result type: schemars' *serialize* contract (a field is optional
/// exactly when it has `skip_serializing_if`, as the result omits it), normalised like the input
/// schemas, without descriptions and titles (the schema is for validation, not for a reader),
/// and strict: every object with declared properties rejects others, so a field a tool returns
/// without declaring it fails the tests. `watchdog` (notices attached to any result by the
/// engine, `watchdog::attach_notices`) is allowed at the root of every result.
pub fn output_schema<O: schemars::JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut schema = generator.into_root_schema_for::<O>().to_value();
    normalise(&mut schema);
    strict(&mut schema);
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        props.insert("watchdog".into(), json!({"type": "array"}));
    }
    schema
}

/// Drops descriptions and titles; closes every object schema that lists properties.
fn strict(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("description");
            m.remove("title");
            if m.contains_key("properties") {
                m.entry("additionalProperties").or_insert(json!(false));
            }
            for (k, child) in m.iter_mut() {
                // Under `properties`/`$defs` the keys are names, not keywords.
                if k == "properties" || k == "$defs" {
                    if let Value::Object(named) = child {
                        named.values_mut().for_each(strict);
                    }
                } else {
                    strict(child);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(strict),
        _ => {}
    }
}

fn normalise(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("format");
            if m.get("default").is_some_and(Value::is_null) {
                m.remove("default");
            }
            if let Some(Value::Array(types)) = m.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let t = types.remove(0);
                    m.insert("type".into(), t);
                }
            }
            if let Some(Value::Array(any)) = m.get("anyOf") {
                let non_null: Vec<Value> = any
                    .iter()
                    .filter(|s| s.get("type").is_none_or(|t| t != "null"))
                    .cloned()
                    .collect();
                if non_null.len() == 1 {
                    m.remove("anyOf");
                    if let Value::Object(inner) = &non_null[0] {
                        for (k, val) in inner {
                            m.entry(k.clone()).or_insert_with(|| val.clone());
                        }
                    }
                }
            }
            if let Some(Value::Array(e)) = m.get_mut("enum") {
                e.retain(|x| !x.is_null());
            }
            // A string enum says its type; `"type":"string"` beside it is bytes an agent pays for.
            if m.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| e.iter().all(Value::is_string))
            {
                m.remove("type");
            }
            // Booleans default to false (the instructions say so once): `"default":false` on every
            // flag costs ~200 B of tools/list. `true` defaults stay stated.
            if m.get("default") == Some(&Value::Bool(false)) {
                m.remove("default");
            }
            for child in m.values_mut() {
                normalise(child);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(normalise),
        _ => {}
    }
}

/// Integers without a stated maximum: every such field is a `u32` (or wider) in the tool's
/// struct; past this, serde would fail with "expected u32" and no field name.
pub const MAX_INTEGER: u64 = u32::MAX as u64;
/// Items of an array parameter (breakpoint ids, expressions).
pub const MAX_ITEMS: u64 = 100;

/// The longest string a parameter may hold, by its name (characters). Nobody means a 3 MiB
/// breakpoint condition; an agent sending one gets an error naming the field instead of the
/// debugger (and the history) receiving it.
pub fn max_length(property: Option<&str>) -> u64 {
    match property {
        Some("project_path" | "file_path" | "cwd" | "binary") => 4096,
        Some("code") => 64 * 1024,
        Some(
            "condition" | "hit_condition" | "log_message" | "expression" | "expressions"
            | "new_value" | "filter" | "path" | "command" | "about",
        ) => 16 * 1024,
        _ => 1024,
    }
}

/// Adds the limits validation enforces but `tools/list` does not spell out (its 16 KB budget
/// has no room for ~60 `maximum`/`maxLength` keywords): integers without a maximum get
/// [`MAX_INTEGER`], strings [`max_length`] by property name, arrays [`MAX_ITEMS`]. The
/// validator names the field and the limit when one is exceeded.
fn add_limits(v: &mut Value, property: Option<&str>) {
    let Value::Object(m) = v else { return };
    match m.get("type").and_then(Value::as_str) {
        Some("integer") => {
            m.entry("maximum").or_insert(json!(MAX_INTEGER));
        }
        Some("string") => {
            m.entry("maxLength").or_insert(json!(max_length(property)));
        }
        Some("array") => {
            m.entry("maxItems").or_insert(json!(MAX_ITEMS));
        }
        _ => {}
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for (name, p) in props.iter_mut() {
            add_limits(p, Some(name));
        }
    }
    if let Some(items) = m.get_mut("items") {
        add_limits(items, property);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(alts)) = m.get_mut(key) {
            alts.iter_mut().for_each(|a| add_limits(a, property));
        }
    }
}

fn build() -> Registry {
    let mut specs = HashMap::new();
    let mut tools = Vec::new();
    for d in tools::defs() {
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
        let mut annotations = ToolAnnotations::new();
        if read_only {
            annotations = annotations.read_only(true);
        } else {
            annotations = annotations.destructive(destructive);
            if idempotent {
                annotations = annotations.idempotent(true);
            }
        }
        tool.annotations = Some(annotations);
        tools.push(lean(&tool));
        specs.insert(
            d.name,
            ToolSpec {
                tool,
                title,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    /// Bytes of the `tools/list` result as sent (compact JSON).
    fn list_bytes(profile: ToolProfile) -> usize {
        let tools = (*registry().tools_for(profile)).clone();
        let text =
            serde_json::to_string(&rmcp::model::ListToolsResult::with_all_items(tools)).unwrap();
        if let Ok(dir) = std::env::var("DEBUGGER_MCP_DUMP_TOOLS") {
            std::fs::write(format!("{dir}/tools-{profile:?}.json"), &text).unwrap();
            let outputs: serde_json::Map<String, Value> = registry()
                .specs
                .iter()
                .map(|(k, s)| (k.to_string(), s.output.clone()))
                .collect();
            std::fs::write(
                format!("{dir}/output-schemas.json"),
                Value::Object(outputs).to_string(),
            )
            .unwrap();
        }
        text.len()
    }

    /// Issue 6 budgets: every session pays for the tool list in context.
    #[test]
    fn tool_lists_fit_their_budgets() {
        let full = list_bytes(ToolProfile::Full);
        let compact = list_bytes(ToolProfile::Compact);
        eprintln!("tools/list bytes: full {full}, compact {compact}");
        assert!(
            full <= 16 * 1024,
            "full profile tools/list is {full} B (budget 16 KB)"
        );
        assert!(
            compact <= 3 * 1024,
            "compact profile tools/list is {compact} B (budget 3 KB)"
        );
        assert!(registry().compact.len() <= 8);
    }

    /// Every op of the full profile is named in the router's description with its required
    /// parameters, and routes to the tool of that name.
    #[test]
    fn every_op_is_reachable_through_the_router() {
        let r = registry();
        let router = &r.compact[0];
        let desc = router.description.as_deref().unwrap();
        for t in r.tools.iter() {
            let required: Vec<&str> = t
                .input_schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let sig = format!("{}({}", t.name, required.join(","));
            assert!(desc.contains(&sig), "router description lacks {sig}");
            match route(json!({"op": t.name, "x": 1})) {
                Ok(Routed::Tool(op, rest)) => {
                    assert_eq!(op, t.name.as_ref());
                    assert_eq!(rest, json!({"x": 1}));
                }
                _ => panic!("{} not routed", t.name),
            }
            let Ok(Routed::Help(h)) = route(json!({"op": "help", "about": t.name})) else {
                panic!("no help for {}", t.name)
            };
            // help shows the full schema (the listed one is `lean`).
            assert_eq!(
                h["input_schema"],
                Value::Object((*r.specs[t.name.as_ref()].tool.input_schema).clone())
            );
        }
        let Err(e) = route(json!({"op": "step"})) else {
            panic!("unknown op accepted")
        };
        assert!(
            e.0.contains("unknown op 'step'") && e.0.contains("step_over"),
            "{}",
            e.0
        );
        let Err(e) = route(json!({"line": 3})) else {
            panic!("missing op accepted")
        };
        assert!(e.0.contains("'op': required"), "{}", e.0);
    }

    #[test]
    fn the_listed_tools_with_strict_schemas_and_annotations() {
        let r = registry();
        let listed: Value = serde_json::from_str(include_str!(
            "../../../../tests/clients/expected_tools.json"
        ))
        .unwrap();
        assert_eq!(r.tools.len(), listed["tools"].as_array().unwrap().len());
        for t in r.tools.iter() {
            assert_eq!(
                t.input_schema["additionalProperties"],
                json!(false),
                "{}",
                t.name
            );
            assert!(
                t.input_schema["properties"].get("project_path").is_some(),
                "{}",
                t.name
            );
            assert!(
                t.description.as_ref().is_some_and(|d| d.len() > 15),
                "{}",
                t.name
            );
            assert!(r.specs[t.name.as_ref()].title.len() > 3, "{}", t.name);
            let a = t.annotations.as_ref().unwrap();
            // Read-only tools say so; every other tool states whether it is destructive.
            assert!(
                a.read_only_hint == Some(true) || a.destructive_hint.is_some(),
                "{}",
                t.name
            );
            assert_ne!(
                a.read_only_hint,
                Some(false),
                "{}: default hint spelled out",
                t.name
            );
            assert_ne!(
                a.idempotent_hint,
                Some(false),
                "{}: default hint spelled out",
                t.name
            );
            jsonschema::draft202012::meta::validate(&Value::Object((*t.input_schema).clone()))
                .unwrap();
            jsonschema::draft202012::meta::validate(&r.specs[t.name.as_ref()].output).unwrap();
        }
    }

    /// The output schema is the result type's: a field added to the type appears in the schema
    /// (optional exactly when the result may omit it), and the schema rejects what the type
    /// does not declare.
    #[test]
    fn output_schemas_are_derived_from_the_result_types() {
        use schemars::JsonSchema;
        use serde::Serialize;
        #[derive(Serialize, JsonSchema)]
        struct Before {
            a: u32,
        }
        #[derive(Serialize, JsonSchema)]
        struct After {
            a: u32,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<String>,
            c: Vec<String>,
        }
        let before = output_schema::<Before>();
        let after = output_schema::<After>();
        let valid = |s: &Value, v: Value| jsonschema::validator_for(s).unwrap().is_valid(&v);
        assert!(valid(&before, json!({"a": 1})));
        assert!(
            !valid(&before, json!({"a": 1, "b": "x"})),
            "undeclared field accepted: {before}"
        );
        assert_eq!(
            after["properties"]["b"],
            json!({"type": "string"}),
            "{after}"
        );
        assert_eq!(after["required"], json!(["a", "c"]), "{after}");
        assert!(valid(&after, json!({"a": 1, "b": "x", "c": []})));
        assert!(valid(&after, json!({"a": 1, "c": []})));
        assert!(
            !valid(&after, json!({"a": 1, "b": "x"})),
            "missing required field accepted"
        );
        // Engine notices may be attached to any result.
        assert!(valid(&before, json!({"a": 1, "watchdog": []})));
    }

    /// Every field of the shared result shapes is in their schemas (and nothing else): a fully
    /// populated value serialises to exactly the declared properties.
    #[test]
    fn shared_result_shapes_declare_every_field_they_serialise() {
        use super::super::tools::out::{
            FrameSnapshot, Location, State, StopResult, ValueNode, Watch,
        };
        fn keys(v: &Value) -> Vec<String> {
            v.as_object().unwrap().keys().cloned().collect()
        }
        fn props<T: schemars::JsonSchema>() -> Vec<String> {
            let s = output_schema::<T>();
            s["properties"]
                .as_object()
                .unwrap()
                .keys()
                .filter(|k| *k != "watchdog")
                .cloned()
                .collect()
        }
        let node = ValueNode {
            id: "v1".into(),
            name: "n".into(),
            value: "1".into(),
            type_name: Some("int".into()),
            has_children: true,
            child_count: Some(1),
            truncated: true,
            value_length: Some(9),
            redacted: true,
            preview: true,
            changed: true,
            path: Some("n".into()),
            children: Some(vec![]),
            total: Some(3),
            preview_fields: vec![("a".into(), "1".into())],
            error: Some("e".into()),
        };
        assert_eq!(
            keys(&serde_json::to_value(&node).unwrap()),
            props::<ValueNode>()
        );
        let mut stop = StopResult::new("s", State::Paused);
        stop.step = Some(1);
        stop.reason = Some("step".into());
        stop.description = Some("d".into());
        stop.thread_id = Some("1".into());
        stop.breakpoint_ids = vec!["b".into()];
        stop.location = Some(Location {
            file: Some("f".into()),
            line: Some(1),
            method: Some("m".into()),
            class: Some("C".into()),
        });
        stop.source_line = Some("x".into());
        stop.frame = Some(FrameSnapshot {
            method: Some("m".into()),
            variables: vec![node],
            truncated: true,
            total: Some(1),
            error: Some("e".into()),
        });
        stop.watches = vec![Watch {
            id: "w1".into(),
            expression: "x".into(),
            ..Default::default()
        }];
        stop.exit_code = Some(0);
        stop.stderr = Some("e".into());
        stop.timed_out = true;
        stop.already_paused = true;
        stop.matched = Some(true);
        stop.message = Some("m".into());
        let v = serde_json::to_value(&stop).unwrap();
        assert_eq!(keys(&v), props::<StopResult>());
        assert!(
            jsonschema::validator_for(&output_schema::<StopResult>())
                .unwrap()
                .is_valid(&v),
            "{v:#}"
        );
    }

    /// A value for a required property, valid against its schema.
    fn sample(schema: &Value) -> Value {
        if let Some(e) = schema["enum"].as_array() {
            return e[0].clone();
        }
        match schema["type"].as_str() {
            Some("integer") => json!(schema["minimum"].as_u64().unwrap_or(1).max(1)),
            Some("boolean") => json!(false),
            Some("array") => json!([]),
            _ => json!("x"),
        }
    }

    /// The default a schema advertises is the default the code applies: parse arguments with
    /// only the required fields, serialise the parsed struct, compare field by field. Fails e.g.
    /// when a `#[schemars(default)]` or a hand-written default drifts from `#[serde(default)]`.
    #[test]
    fn schema_defaults_are_the_code_defaults() {
        let r = registry();
        let mut checked = 0;
        // The full schemas (`help`); the listed ones leave out defaults the instructions state.
        for t in r.tools.iter().map(|t| &r.specs[t.name.as_ref()].tool) {
            let props = t.input_schema["properties"].as_object().unwrap();
            let mut args = Map::new();
            for req in t
                .input_schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = req.as_str().unwrap();
                args.insert(name.into(), sample(&props[name]));
            }
            let parsed = (r.specs[t.name.as_ref()].roundtrip)(&Value::Object(args.clone()))
                .unwrap_or_else(|e| panic!("{}: {e}", t.name));
            for (name, schema) in props {
                if args.contains_key(name) {
                    continue;
                }
                let code = parsed.get(name).cloned().unwrap_or(Value::Null);
                match schema.get("default") {
                    Some(d) => {
                        assert_eq!(
                            &code, d,
                            "{}.{name}: schema default {d} but the code uses {code}",
                            t.name
                        );
                        checked += 1;
                    }
                    // Flags left out of the schema default to false (instructions say so once).
                    // (An optional flag whose absence means something else — toggle_breakpoint's
                    // `enabled`: flip — must say so in its description.)
                    None if schema["type"] == "boolean" => assert!(
                        code == json!(false)
                            || (code.is_null() && schema.get("description").is_some()),
                        "{}.{name}: a boolean without a stated default must default to false, or describe its absence (code: {code})",
                        t.name
                    ),
                    None => assert!(
                        code.is_null(),
                        "{}.{name}: the code defaults to {code} but the schema states no default",
                        t.name
                    ),
                }
            }
        }
        assert!(checked > 20, "only {checked} defaults checked");
    }

    /// Descriptions must not promise a numeric default the schema does not carry (e.g.
    /// "default 20" where the code reads the config).
    #[test]
    fn descriptions_state_no_stray_default_literals() {
        for t in registry().tools.iter() {
            for (name, schema) in t.input_schema["properties"].as_object().unwrap() {
                let desc = schema["description"].as_str().unwrap_or("").to_lowercase();
                if let Some(i) = desc.find("default") {
                    let after = &desc[i + 7..];
                    let digits: String = after
                        .trim_start_matches([' ', ':'])
                        .chars()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    if !digits.is_empty() {
                        assert_eq!(
                            schema["default"].to_string(),
                            digits,
                            "{}.{name}: description says default {digits}",
                            t.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn config_defaults_are_not_stated_as_literals() {
        let gv = &registry().specs["get_variables"].tool.input_schema["properties"]["max_children"];
        assert!(gv.get("default").is_none(), "{gv}");
        assert!(
            gv["description"].as_str().unwrap().contains("config"),
            "{gv}"
        );
    }
}
