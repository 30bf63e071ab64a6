//! The tool registry: names, titles, LLM-oriented descriptions, input/output JSON Schemas
//! (2020-12) and annotations, all derived from the tool types in [`super::tools`]. Built once per
//! process; the validators are compiled once too, so `tools/list` and input validation cost no
//! schema work per call.

use super::tools::{self, Kind, Tool};
use rmcp::model::{JsonObject, Tool as McpTool, ToolAnnotations};
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

pub struct ToolSpec {
    pub tool: McpTool,
    pub validator: jsonschema::Validator,
    /// Property names the input accepts, for "unknown parameter" messages.
    pub properties: Vec<String>,
    /// Parses + re-serialises arguments (see [`tools::ToolDef::roundtrip`]).
    #[cfg_attr(not(test), allow(dead_code))]
    pub roundtrip: fn(&Value) -> Result<Value, String>,
}

pub struct Registry {
    pub specs: HashMap<&'static str, ToolSpec>,
    /// In registration order, ready for `tools/list`.
    pub tools: Arc<Vec<McpTool>>,
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
    if root.get("required").and_then(Value::as_array).is_some_and(|r| r.is_empty()) {
        root.remove("required");
    }
    schemars::Schema::try_from(schema).expect("object schema")
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
                let non_null: Vec<Value> = any.iter().filter(|s| s.get("type").is_none_or(|t| t != "null")).cloned().collect();
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
            for child in m.values_mut() {
                normalise(child);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(normalise),
        _ => {}
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
        let title = root.remove("title").and_then(|t| t.as_str().map(String::from)).unwrap_or_else(|| d.name.to_string());
        let description = root.remove("description").and_then(|t| t.as_str().map(String::from)).unwrap_or_default();
        let properties = root.get("properties").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&input)
            .unwrap_or_else(|e| panic!("input schema of {} does not compile: {e}", d.name));
        let mut tool = McpTool::new(d.name, description, obj(input));
        tool.title = Some(title.clone());
        tool.output_schema = Some(Arc::new(obj((d.output)())));
        tool.annotations = Some(
            ToolAnnotations::with_title(title)
                .read_only(read_only)
                .destructive(destructive)
                .idempotent(idempotent)
                .open_world(false),
        );
        tools.push(tool.clone());
        specs.insert(d.name, ToolSpec { tool, validator, properties, roundtrip: d.roundtrip });
    }
    Registry { specs, tools: Arc::new(tools) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    #[test]
    fn dump() {
        let v = serde_json::to_string(&*registry().tools).unwrap();
        eprintln!("TOOLS_LIST_BYTES {}", v.len());
        std::fs::write("/tmp/t6-tools.json", &v).unwrap();
    }

    #[test]
    fn thirty_three_tools_with_strict_schemas_and_annotations() {
        let r = registry();
        assert_eq!(r.tools.len(), 33);
        for t in r.tools.iter() {
            assert_eq!(t.input_schema["additionalProperties"], json!(false), "{}", t.name);
            assert!(t.input_schema["properties"].get("project_path").is_some(), "{}", t.name);
            assert!(t.title.is_some() && t.description.as_ref().is_some_and(|d| d.len() > 30), "{}", t.name);
            let a = t.annotations.as_ref().unwrap();
            assert!(a.read_only_hint.is_some() && a.destructive_hint.is_some() && a.idempotent_hint.is_some());
            jsonschema::draft202012::meta::validate(&Value::Object((*t.input_schema).clone())).unwrap();
            jsonschema::draft202012::meta::validate(&Value::Object((**t.output_schema.as_ref().unwrap()).clone())).unwrap();
        }
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
        for t in r.tools.iter() {
            let props = t.input_schema["properties"].as_object().unwrap();
            let mut args = Map::new();
            for req in t.input_schema.get("required").and_then(Value::as_array).into_iter().flatten() {
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
                        assert_eq!(&code, d, "{}.{name}: schema default {d} but the code uses {code}", t.name);
                        checked += 1;
                    }
                    None => assert!(code.is_null(), "{}.{name}: the code defaults to {code} but the schema states no default", t.name),
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
                    let digits: String =
                        after.trim_start_matches([' ', ':']).chars().take_while(|c| c.is_ascii_digit()).collect();
                    if !digits.is_empty() {
                        assert_eq!(schema["default"].to_string(), digits, "{}.{name}: description says default {digits}", t.name);
                    }
                }
            }
        }
    }

    #[test]
    fn config_defaults_are_not_stated_as_literals() {
        let gv = &registry().specs["get_variables"].tool.input_schema["properties"]["max_children"];
        assert!(gv.get("default").is_none(), "{gv}");
        assert!(gv["description"].as_str().unwrap().contains("config"), "{gv}");
    }
}
