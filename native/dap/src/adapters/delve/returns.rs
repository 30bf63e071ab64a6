//! The value a Go function returned, after a step out of it. delve 1.20 collects it (its
//! terminal prints "Values returned") but its DAP server shows it nowhere: after a step out the
//! caller's frame lists only the caller's own `~r0`. Go's register ABI (1.17+, amd64) leaves
//! the results in registers at the return address, where the step out stops: integer-class
//! results in RAX, RBX, RCX, RDI, RSI, R8–R11 in order. So the callee's result types are read
//! before the step out (its unnamed `~rN` locals) and, after it, the registers through delve's
//! "Registers" scope (`dlv config showRegisters`, switched on only for that read).
//!
//! Integers, booleans, pointers, strings (their bytes read through delve) and nil interfaces
//! are told; a result of any other type (float, struct, array) leaves the call without a
//! value, as before, and so do named results (delve's DAP lists them as plain locals).

use crate::protocol::{
    self, EvaluateArguments, ScopesArguments, StackTraceArguments, VariablesArguments,
};
use crate::session::Session;
use debugger_mcp_core::backend::ValueNode;

/// Go's integer result registers (amd64 ABIInternal), in result order.
const RESULT_REGISTERS: &[&str] = &["rax", "rbx", "rcx", "rdi", "rsi", "r8", "r9", "r10", "r11"];

/// The types of the top frame's unnamed results (`~r0`, `~r1`, …), in order, noted for
/// [`returned`].
pub async fn note_result_types(s: &Session, thread_id: i64) {
    let types = result_types(s, thread_id).await.unwrap_or_default();
    *s.callee_results.lock().unwrap() = types;
}

async fn result_types(s: &Session, thread_id: i64) -> Option<Vec<String>> {
    let frame = top_frame(s, thread_id).await?;
    let vars = scope_variables(s, frame, "Locals").await?;
    let mut results: Vec<(usize, String)> = vars
        .into_iter()
        .filter_map(|v| {
            let n = v.name.strip_prefix("~r")?.parse().ok()?;
            Some((n, v.type_name.unwrap_or_default()))
        })
        .collect();
    results.sort();
    Some(results.into_iter().map(|(_, t)| t).collect())
}

/// After a step out: what the call returned, as a node of frame `frame_id` when that is the
/// top frame (the registers are the stopped thread's). Read once per stop.
pub async fn returned(s: &Session, frame_id: i64) -> Option<ValueNode> {
    if !s.is_top_frame(frame_id) {
        return None;
    }
    if let Some(known) = s.values.lock().unwrap().returned.clone() {
        return known;
    }
    let value = read_returned(s, frame_id).await;
    s.values.lock().unwrap().returned = Some(value.clone());
    value
}

async fn read_returned(s: &Session, frame_id: i64) -> Option<ValueNode> {
    let types = s.callee_results.lock().unwrap().clone();
    if types.is_empty() || types.iter().any(|t| register_kind(t).is_none()) {
        return None;
    }
    configure(s, frame_id, true).await;
    let registers = scope_variables(s, frame_id, "Registers").await;
    configure(s, frame_id, false).await;
    let registers = registers?;
    let register = |name: &str| {
        registers
            .iter()
            .find(|v| v.name.trim().eq_ignore_ascii_case(name))
            .and_then(|v| u64::from_str_radix(v.value.trim().trim_start_matches("0x"), 16).ok())
    };
    let mut regs = RESULT_REGISTERS.iter().map(|r| register(r));
    let mut values = Vec::new();
    for t in &types {
        let value = match register_kind(t)? {
            Kind::Word(bits, signed) => word(t, regs.next()??, bits, signed),
            Kind::Pointer => pointer(t, regs.next()??),
            Kind::String => {
                let (ptr, len) = (regs.next()??, regs.next()??);
                string(s, frame_id, ptr, len).await?
            }
            Kind::Interface => {
                let (tab, data) = (regs.next()??, regs.next()??);
                if tab == 0 {
                    "nil".to_string()
                } else {
                    format!("{t}(non-nil, data {data:#x})")
                }
            }
        };
        values.push(value);
    }
    Some(ValueNode {
        name: "(Return Value)".into(),
        value: values.join(", "),
        type_name: Some(types.join(", ")),
        ..Default::default()
    })
}

/// How a result of a Go type sits in the integer registers.
#[derive(Debug, PartialEq)]
enum Kind {
    /// One register: (bits, signed).
    Word(u32, bool),
    Pointer,
    /// Two: data pointer, length.
    String,
    /// Two: type word, data pointer (nil when the type word is 0).
    Interface,
}

fn register_kind(t: &str) -> Option<Kind> {
    Some(match t {
        "int" | "int64" => Kind::Word(64, true),
        "int32" | "rune" => Kind::Word(32, true),
        "int16" => Kind::Word(16, true),
        "int8" => Kind::Word(8, true),
        "uint" | "uint64" | "uintptr" => Kind::Word(64, false),
        "uint32" => Kind::Word(32, false),
        "uint16" => Kind::Word(16, false),
        "uint8" | "byte" | "bool" => Kind::Word(8, false),
        "string" => Kind::String,
        "error" | "interface {}" | "any" => Kind::Interface,
        _ if t.starts_with('*') || t.starts_with("map[") || t.starts_with("chan ") => {
            Kind::Pointer
        }
        _ => return None,
    })
}

/// An integer or bool result held in a register as `raw`.
fn word(t: &str, raw: u64, bits: u32, signed: bool) -> String {
    let masked = if bits == 64 {
        raw
    } else {
        raw & ((1u64 << bits) - 1)
    };
    if t == "bool" {
        (masked != 0).to_string()
    } else if signed {
        ((masked << (64 - bits)) as i64 >> (64 - bits)).to_string()
    } else {
        masked.to_string()
    }
}

fn pointer(t: &str, raw: u64) -> String {
    if raw == 0 {
        "nil".into()
    } else {
        format!("({t})({raw:#x})")
    }
}

/// Bytes of a string result read through delve (`*(*[n]uint8)(ptr)`), at most [`STRING_BYTES`].
const STRING_BYTES: u64 = 64;

async fn string(s: &Session, frame_id: i64, ptr: u64, len: u64) -> Option<String> {
    if len == 0 {
        return Some("\"\"".into());
    }
    let n = len.min(STRING_BYTES);
    let args = EvaluateArguments {
        expression: format!("*(*[{n}]uint8)({ptr:#x})"),
        frame_id: Some(frame_id),
        context: "watch",
    };
    let shown = s.req::<protocol::Evaluate>(&args).await.ok()?.result;
    let bytes = bytes_of(&shown)?;
    let mut text = format!("{:?}", String::from_utf8_lossy(&bytes));
    if len > n {
        text.push_str(&format!("… ({len} bytes)"));
    }
    Some(text)
}

/// The bytes of delve's `[2]uint8 [110,51]`.
fn bytes_of(shown: &str) -> Option<Vec<u8>> {
    let list = shown.rsplit_once('[')?.1.strip_suffix(']')?;
    list.split(',').map(|b| b.trim().parse().ok()).collect()
}

async fn top_frame(s: &Session, thread_id: i64) -> Option<i64> {
    let args = StackTraceArguments {
        thread_id,
        start_frame: 0,
        levels: 1,
    };
    let body = s.req::<protocol::StackTrace>(&args).await.ok()?;
    body.stack_frames.first().map(|f| f.id)
}

async fn scope_variables(
    s: &Session,
    frame_id: i64,
    scope: &str,
) -> Option<Vec<protocol::Variable>> {
    let scopes = s
        .req::<protocol::Scopes>(&ScopesArguments { frame_id })
        .await
        .ok()?;
    let r = scopes
        .scopes
        .iter()
        .find(|x| x.name.as_deref() == Some(scope))?
        .variables_reference;
    let vars = s
        .req::<protocol::Variables>(&VariablesArguments::all(r))
        .await
        .ok()?;
    Some(vars.variables)
}

/// delve's `dlv config showRegisters` (a "Registers" scope in every frame while on).
async fn configure(s: &Session, frame_id: i64, on: bool) {
    let _ = s
        .repl(&format!("dlv config showRegisters {on}"), Some(frame_id))
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_decode_by_result_type() {
        assert_eq!(word("int", 0x78, 64, true), "120");
        assert_eq!(word("int", u64::MAX, 64, true), "-1");
        assert_eq!(word("int32", 0xffff_ffff, 32, true), "-1");
        assert_eq!(word("uint8", 0x1ff, 8, false), "255");
        assert_eq!(word("bool", 0x101, 8, false), "true");
        assert_eq!(word("bool", 0x100, 8, false), "false");
        assert_eq!(pointer("*main.node", 0), "nil");
        assert_eq!(register_kind("string"), Some(Kind::String));
        assert_eq!(register_kind("float64"), None);
        assert_eq!(register_kind("main.point"), None);
    }

    #[test]
    fn string_bytes_from_delves_array() {
        assert_eq!(bytes_of("[2]uint8 [110,51]"), Some(vec![110, 51]));
        assert_eq!(bytes_of("[0]uint8 []"), None);
    }
}
