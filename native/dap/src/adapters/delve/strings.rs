//! Long Go strings. delve's DAP loads 512 bytes of a string for variables and, in the
//! `clipboard` context of an evaluate, 4,096 (`maxSingleStringLen`), rendering the rest as a
//! count: `"<html>…"...+5529 more"` (service/dap/server.go, `DefaultLoadConfig`,
//! `onEvaluateRequest`). The count gives the real length; an evaluation reads the string in
//! windows of that size (`(expr)[4096:8192]`, a slice delve evaluates without running the
//! program) up to the core's whole-string bound.

use crate::protocol::{self, EvaluateArguments};
use crate::session::Session;
use debugger_mcp_core::backend::{ValueNode, WHOLE_STRING_CHARS};

/// A delve string cut at its limit: its quoted body (without the closing quote) and the bytes
/// left out.
fn cut(value: &str) -> Option<(&str, u64)> {
    let rest = value.strip_suffix(" more\"")?;
    let (body, more) = rest.rsplit_once("...+")?;
    let more = more.parse().ok()?;
    (body.starts_with('"') && body.len() > 1).then_some((body, more))
}

/// Bytes of the Go string a `%q` body (no quotes) stands for.
fn raw_len(body: &str) -> u64 {
    let mut n = 0u64;
    let mut it = body.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            n += c.len_utf8() as u64;
            continue;
        }
        match it.next() {
            Some('x') => {
                it.nth(1);
                n += 1;
            }
            Some('u') => {
                let hex: String = it.by_ref().take(4).collect();
                n += char_len(&hex);
            }
            Some('U') => {
                let hex: String = it.by_ref().take(8).collect();
                n += char_len(&hex);
            }
            Some(d) if d.is_ascii_digit() => {
                it.nth(1);
                n += 1;
            }
            _ => n += 1,
        }
    }
    n
}

fn char_len(hex: &str) -> u64 {
    u32::from_str_radix(hex, 16)
        .ok()
        .and_then(char::from_u32)
        .map_or(1, |c| c.len_utf8() as u64)
}

/// A string delve cut reads as one the core knows is cut (`"…"...`, gdb's form), with its
/// real length in bytes, Go's `len`.
pub fn mark(nodes: &mut [ValueNode]) {
    for n in nodes {
        if let Some((body, more)) = cut(&n.value) {
            n.value_length = Some(raw_len(&body[1..]) + more);
            n.value = format!("{body}\"...");
        }
    }
}

/// The rest of a string `node` (the value of `expression`, cut by delve) read in windows,
/// while it is cut and within WHOLE_STRING_CHARS bytes.
pub async fn rest(s: &Session, node: &mut ValueNode, expression: &str, frame_id: i64) {
    let (Some(total), Some(body)) = (
        node.value_length,
        node.value.strip_suffix("\"..."),
    ) else {
        return;
    };
    let mut text = body.to_string();
    let mut have = raw_len(&text[1..]);
    while have < total && have < WHOLE_STRING_CHARS as u64 {
        let args = EvaluateArguments {
            expression: format!("({expression})[{have}:]"),
            frame_id: Some(frame_id),
            context: "clipboard",
        };
        let Ok(b) = s.req::<protocol::Evaluate>(&args).await else {
            break;
        };
        let part = b.result.trim();
        let (window, cut_again) = match cut(part) {
            Some((body, _)) => (&body[1..], true),
            None => match part.strip_prefix('"').and_then(|p| p.strip_suffix('"')) {
                Some(whole) => (whole, false),
                None => break,
            },
        };
        let got = raw_len(window);
        if got == 0 {
            break;
        }
        text.push_str(window);
        have += got;
        if !cut_again {
            break;
        }
    }
    node.value = if have < total {
        format!("{text}\"...")
    } else {
        node.value_length = None;
        format!("{text}\"")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_string_gets_its_go_length() {
        let mut n = [ValueNode {
            value: "\"ab\\\"c\\xffé...+10 more\"".into(),
            ..Default::default()
        }];
        mark(&mut n);
        // a, b, ", c, one byte, é (2 bytes): 7 shown, 10 more.
        assert_eq!(n[0].value_length, Some(17));
        assert_eq!(n[0].value, "\"ab\\\"c\\xffé\"...");
        let mut whole = [ValueNode {
            value: "\"see more\"".into(),
            ..Default::default()
        }];
        mark(&mut whole);
        assert_eq!(whole[0].value_length, None);
    }
}
