//! Input and output JSON Schemas (2020-12) derived from the tool and result types, normalised
//! for agents and for strict validation, and the limits validation adds on top.

use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

/// The input schema of a tool type, as sent in `tools/list` (title and description still at
/// the root; [`build`] lifts them into the tool).
///
/// schemars output is normalised for agents and strict validation: subschemas inlined; `null`
/// removed from `Option` fields (omit a field instead of sending null — what the seeds' schemas
/// said); `format` dropped (`uint32` etc. are noise to a model; `minimum` says it);
/// `additionalProperties: false` at the root (flattened shared fields make serde's
/// `deny_unknown_fields` unusable, the schema enforces it instead).
pub fn input_schema<T: schemars::JsonSchema>() -> schemars::Schema {
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
/// The `required` property names of a tool's input schema, in schema order.
pub fn required(schema: &serde_json::Map<String, Value>) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

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
    // A result that is one of several shapes (expand_variable: children, or a filter's
    // matches) is still an object, as MCP requires of an output schema's root; each shape
    // takes the engine's `watchdog` notice.
    fn watchdog(shape: &mut Value) {
        if let Some(Value::Object(props)) = shape.get_mut("properties") {
            props.insert("watchdog".into(), json!({"type": "array"}));
        }
    }
    match schema.get_mut("anyOf") {
        Some(Value::Array(shapes)) => shapes.iter_mut().for_each(watchdog),
        _ => watchdog(&mut schema),
    }
    if let Value::Object(root) = &mut schema {
        root.entry("type").or_insert(json!("object"));
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
        _ => DEFAULT_MAX_LENGTH,
    }
}

/// The limit of a string parameter not named in [`max_length`].
pub const DEFAULT_MAX_LENGTH: u64 = 1024;

/// States the enforced string limits ([`max_length`]) as `maxLength` in a tool's full schema
/// (what `help` shows; the listing leaves them to the instructions, see `router::lean`), on its
/// string parameters and the strings of its array parameters.
pub(super) fn state_string_limits(schema: &mut Value) {
    let Some(Value::Object(props)) = schema.get_mut("properties") else {
        return;
    };
    for (name, p) in props.iter_mut() {
        let target = match p.get("type").and_then(Value::as_str) {
            Some("array") => p.get_mut("items"),
            _ => Some(p),
        };
        if let Some(Value::Object(m)) = target
            && m.get("type").and_then(Value::as_str) == Some("string")
        {
            m.entry("maxLength")
                .or_insert(json!(max_length(Some(name))));
        }
    }
}

/// Adds the limits validation enforces but `tools/list` does not spell out (its 16 KB budget
/// has no room for ~60 `maximum`/`maxLength` keywords): integers without a maximum get
/// [`MAX_INTEGER`], strings [`max_length`] by property name, arrays [`MAX_ITEMS`]. The
/// validator names the field and the limit when one is exceeded.
pub(super) fn add_limits(v: &mut Value, property: Option<&str>) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        use crate::engine::out::{FrameSnapshot, Location, State, StopResult, ValueNode, Watch};
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
        stop.callers = vec!["main m.c:3".into()];
        stop.watches = vec![Watch {
            id: "w1".into(),
            expression: "x".into(),
            ..Default::default()
        }];
        stop.values = stop.frame.as_ref().unwrap().variables.clone();
        stop.calls = vec!["#1 f(n=1) -> 2 @m.c:3".into()];
        stop.exit_code = Some(0);
        stop.stderr = Some("e".into());
        stop.timed_out = true;
        stop.already_paused = true;
        stop.matched = Some(true);
        stop.message = Some("m".into());
        stop.trigger = Some(crate::engine::out::TriggerOut {
            command: "curl x".into(),
            status: "exited with code 0".into(),
            output: Some("ok".into()),
        });
        let v = serde_json::to_value(&stop).unwrap();
        assert_eq!(keys(&v), props::<StopResult>());
        assert!(
            jsonschema::validator_for(&output_schema::<StopResult>())
                .unwrap()
                .is_valid(&v),
            "{v:#}"
        );
    }
}
