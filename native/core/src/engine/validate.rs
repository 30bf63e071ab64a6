//! Input validation against the tool's compiled schema, with messages an agent can act on:
//! which field, what was expected, what was received.

use super::registry::ToolSpec;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

/// Validates `args`; on failure returns one line per problem (at most 5).
pub fn check(tool: &str, spec: &ToolSpec, args: &Value) -> Result<(), String> {
    if spec.validator.is_valid(args) {
        return Ok(());
    }
    let problems: Vec<String> = spec
        .validator
        .iter_errors(args)
        .take(5)
        .map(|e| describe(spec, &e))
        .collect();
    Err(format!(
        "invalid arguments for {tool}: {}",
        problems.join("; ")
    ))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn describe(spec: &ToolSpec, e: &jsonschema::ValidationError<'_>) -> String {
    let path = e
        .instance_path()
        .as_str()
        .trim_start_matches('/')
        .replace('/', ".");
    let field = if path.is_empty() {
        "arguments".to_string()
    } else {
        format!("'{path}'")
    };
    let received = e.instance();
    let got = format!("{} {}", type_name(received), short(received));
    match e.kind() {
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            format!("field {field}: expected {expected}, received {got}")
        }
        ValidationErrorKind::Required { property } => {
            format!(
                "field {}: required, received nothing",
                property
                    .as_str()
                    .map(|p| format!("'{p}'"))
                    .unwrap_or_else(|| property.to_string())
            )
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => format!(
            "field '{}': unknown parameter, expected one of {}",
            unexpected.join("', '"),
            spec.properties.join(", ")
        ),
        ValidationErrorKind::Enum { options } => {
            format!("field {field}: expected one of {options}, received {got}")
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("field {field}: expected a value >= {limit}, received {got}")
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("field {field}: expected a value <= {limit}, received {got}")
        }
        ValidationErrorKind::MinLength { limit } => {
            format!("field {field}: expected at least {limit} character(s), received {got}")
        }
        ValidationErrorKind::MaxLength { limit } => format!(
            "field {field}: expected at most {limit} characters, received a string of {}",
            received.as_str().map(|s| s.chars().count()).unwrap_or(0)
        ),
        ValidationErrorKind::MaxItems { limit } => format!(
            "field {field}: expected at most {limit} items, received {}",
            received.as_array().map(Vec::len).unwrap_or(0)
        ),
        _ => format!("field {field}: {e}, received {got}"),
    }
}
