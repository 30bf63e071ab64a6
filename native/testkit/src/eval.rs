//! The fake's expression language: names, paths, literals, `+ - *`, `len(..)`, log-point
//! interpolation.

use crate::program::FValue;
use debugger_mcp_core::backend::*;

pub(crate) fn interpolate(msg: &str, vars: &[(String, FValue, ValueScope)]) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        let expr = &rest[start + 1..start + end];
        out.push_str(
            &eval_expr(expr, vars)
                .map(|v| v.render())
                .unwrap_or_else(|e| format!("<{e}>")),
        );
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

/// A tiny evaluator: literals, `name(.field|[i]|['key'])*`, `len(x)`, and binary `+ - *`.
pub(crate) fn eval_expr(
    expr: &str,
    vars: &[(String, FValue, ValueScope)],
) -> Result<FValue, String> {
    let expr = expr.trim();
    // Comparisons, as Python answers them (True/False).
    for op in [" == ", " != ", " > ", " < "] {
        if let Some(pos) = expr.find(op) {
            let (l, r) = (
                eval_expr(&expr[..pos], vars)?,
                eval_expr(&expr[pos + op.len()..], vars)?,
            );
            return Ok(FValue::Bool(match (op, &l, &r) {
                (" == ", ..) => l == r,
                (" != ", ..) => l != r,
                (" > ", FValue::Int(a), FValue::Int(b)) => a > b,
                (" < ", FValue::Int(a), FValue::Int(b)) => a < b,
                _ => {
                    return Err(format!(
                        "TypeError: '{}' not supported between instances of '{}' and '{}'",
                        op.trim(),
                        l.type_name(),
                        r.type_name()
                    ));
                }
            }));
        }
    }
    for op in ['+', '-', '*'] {
        if let Some(pos) = expr.rfind(op).filter(|p| *p > 0) {
            let (l, r) = (
                eval_expr(&expr[..pos], vars)?,
                eval_expr(&expr[pos + 1..], vars)?,
            );
            return match (op, l, r) {
                ('+', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a + b)),
                ('-', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a - b)),
                ('*', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a * b)),
                ('+', FValue::Str(a), FValue::Str(b)) => Ok(FValue::Str(a + &b)),
                (_, l, r) => Err(format!(
                    "TypeError: unsupported operand type(s) for {op}: '{}' and '{}'",
                    l.type_name(),
                    r.type_name()
                )),
            };
        }
    }
    if let Ok(i) = expr.parse::<i64>() {
        return Ok(FValue::Int(i));
    }
    if expr.len() >= 2
        && (expr.starts_with('\'') && expr.ends_with('\'')
            || expr.starts_with('"') && expr.ends_with('"'))
    {
        return Ok(FValue::Str(expr[1..expr.len() - 1].to_string()));
    }
    if expr == "None" {
        return Ok(FValue::None);
    }
    if let Some(inner) = expr.strip_prefix("len(").and_then(|e| e.strip_suffix(')')) {
        return match eval_expr(inner, vars)? {
            FValue::Str(s) => Ok(FValue::Int(s.chars().count() as i64)),
            v => Ok(FValue::Int(v.children().len() as i64)),
        };
    }
    let name_end = expr.find(['.', '[']).unwrap_or(expr.len());
    let name = &expr[..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!("SyntaxError: invalid syntax: {expr}"));
    }
    let mut value = vars
        .iter()
        .find(|(n, _, _)| n == name)
        .map(|(_, v, _)| v.clone())
        .ok_or_else(|| format!("NameError: name '{name}' is not defined"))?;
    let mut rest = &expr[name_end..];
    while !rest.is_empty() {
        let (key, after) = if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            (r[..end].to_string(), &r[end..])
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r
                .find(']')
                .ok_or_else(|| format!("SyntaxError: missing ] in {expr}"))?;
            (
                r[..end].trim_matches(['\'', '"']).to_string(),
                &r[end + 1..],
            )
        } else {
            return Err(format!("SyntaxError: invalid syntax: {expr}"));
        };
        let next = value
            .children()
            .into_iter()
            .find(|(n, _)| n.trim_matches('\'') == key)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                format!(
                    "AttributeError: '{}' has no attribute or item '{key}'",
                    value.type_name()
                )
            })?;
        value = next;
        rest = after;
    }
    Ok(value)
}

pub(crate) fn parse_literal(text: &str) -> BackendResult<FValue> {
    eval_expr(text, &[])
        .map_err(|_| BackendError::Failed(format!("cannot convert {text:?}: not a literal")))
}
