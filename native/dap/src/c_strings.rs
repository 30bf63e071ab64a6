//! `name == "eve"` in a C/C++ expression, as agents write it (and as they would in Python or
//! PHP). gdb reads it as C does: the literal is put in the program's memory and its address
//! compared with the pointer, so it is always false — a search for a record by name matched
//! nothing and said so without an error. For gdb such comparisons are rewritten to
//! `$_mcp_eq(name, "eve")`, a convenience function of ours (`EQ_FUNCTION`, defined when the
//! session starts) that compares text when both sides are strings (a `char *` or `char[]`, or
//! anything whose pretty printer says it is a string: `std::string`), else as `==` does.
//!
//! Only a comparison with a string literal on one side is touched; the other side is the
//! operand `==` takes in C (up to `&&`, `||`, `?`, `:`, `,`, another comparison or the
//! enclosing bracket). Text inside string and character literals is never read as code.

/// The gdb Python that defines `$_mcp_eq` (run once per session, `Adapter::repl_setup`).
pub const EQ_FUNCTION: &str = r#"import gdb
def _mcp_text(v):
    t = v.type.strip_typedefs()
    if t.code in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_ARRAY):
        e = t.target().strip_typedefs()
        if e.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR) and e.sizeof == 1:
            if t.code == gdb.TYPE_CODE_PTR and int(v) == 0:
                return None
            try:
                s = v.string(errors="replace")
            except gdb.error:
                return None
            return s.split("\0", 1)[0]
    try:
        p = gdb.default_visualizer(v)
        hint = getattr(p, "display_hint", lambda: None)() if p is not None else None
        if hint == "string":
            s = p.to_string()
            if isinstance(s, gdb.LazyString):
                s = s.value()
            if isinstance(s, gdb.Value):
                return s.string(errors="replace")
            return str(s)
    except Exception:
        pass
    return None
class _McpEq(gdb.Function):
    """$_mcp_eq(a, b): a == b, as text when both are strings."""
    def __init__(self):
        super().__init__("_mcp_eq")
    def invoke(self, a, b):
        x, y = _mcp_text(a), _mcp_text(b)
        if x is not None and y is not None:
            return 1 if x == y else 0
        return 1 if a == b else 0
_McpEq()
"#;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A string literal, quotes included.
    Str,
    /// `==` or `!=`.
    Eq(bool),
    /// Where an operand of `==` ends: `&&`, `||`, `?`, `:`, `,`, `;`, `=`.
    Stop,
    Open,
    Close,
    /// `<`, `>`, `<=`, `>=`, `<<`, `>>`: a comparison or shift, or a C++ template's or cast's
    /// bracket (`static_cast<const char *>(p)`): next to an operand, nothing is rewritten.
    Angle,
    /// Anything else: names, numbers, other operators, character literals.
    Other,
}

/// The tokens of `e` with their byte spans; None when a literal is not closed.
fn tokens(e: &str) -> Option<Vec<(Tok, usize, usize)>> {
    let b = e.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = match c {
            b'"' | b'\'' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return None;
                }
                i += 1;
                if c == b'"' { Tok::Str } else { Tok::Other }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'(' | b'[' | b'{' => {
                i += 1;
                Tok::Open
            }
            b')' | b']' | b'}' => {
                i += 1;
                Tok::Close
            }
            b'=' | b'!' if b.get(i + 1) == Some(&b'=') => {
                i += 2;
                Tok::Eq(c == b'!')
            }
            b'&' | b'|' if b.get(i + 1) == Some(&c) => {
                i += 2;
                Tok::Stop
            }
            b'?' | b',' | b':' | b';' => {
                i += 1;
                // `::` (C++ scope) is part of a name.
                if c == b':' && b.get(i) == Some(&b':') {
                    i += 1;
                    Tok::Other
                } else if c == b':' && start > 0 && b[start - 1] == b':' {
                    Tok::Other
                } else {
                    Tok::Stop
                }
            }
            b'<' | b'>' => {
                // `->` is a member access, `<<`/`>>` shifts (no text either way).
                if c == b'>' && start > 0 && b[start - 1] == b'-' {
                    i += 1;
                    Tok::Other
                } else {
                    i += 1;
                    while i < b.len() && matches!(b[i], b'<' | b'>' | b'=') {
                        i += 1;
                    }
                    Tok::Angle
                }
            }
            b'=' => {
                i += 1;
                Tok::Stop
            }
            _ => {
                i += 1;
                // A run of name characters or one other byte (a UTF-8 sequence stays whole).
                if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.' {
                    while i < b.len()
                        && (b[i].is_ascii_alphanumeric()
                            || b[i] == b'_'
                            || b[i] == b'$'
                            || b[i] == b'.')
                    {
                        i += 1;
                    }
                } else {
                    while i < b.len() && !e.is_char_boundary(i) {
                        i += 1;
                    }
                }
                Tok::Other
            }
        };
        out.push((tok, start, i));
    }
    Some(out)
}

/// The token index range of the operand that ends (`left`) or starts at token `at`.
fn operand(toks: &[(Tok, usize, usize)], at: usize, left: bool) -> Option<(usize, usize)> {
    let mut depth = 0i32;
    let mut j = at as isize;
    let mut last = None;
    while j >= 0 && (j as usize) < toks.len() {
        let t = &toks[j as usize].0;
        match t {
            Tok::Open if left => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            Tok::Close if !left => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            Tok::Open => depth += 1,
            Tok::Close => depth += 1,
            Tok::Stop | Tok::Eq(_) if depth == 0 => break,
            Tok::Angle if depth == 0 => return None,
            _ => {}
        }
        last = Some(j as usize);
        j += if left { -1 } else { 1 };
    }
    let last = last?;
    Some(if left { (last, at) } else { (at, last) })
}

/// `e` with each `X == "lit"` / `"lit" == X` written `$_mcp_eq(X, "lit")` (`!=`: negated), or
/// None when it has no such comparison (or cannot be read safely). gdb's form.
pub fn rewrite(e: &str) -> Option<String> {
    rewrite_by(e, |lhs, rhs| Some(format!("$_mcp_eq({lhs}, {rhs})")))
}

/// lldb's form: lldb (clang) compares a `char *` with a literal by address too, and has no
/// convenience functions; `X == "eve"` becomes a comparison of X's bytes with the literal's,
/// `((X) != 0 && (unsigned char)(X)[0] == 101 && … && (X)[3] == 0)`, which lldb's IR
/// interpreter evaluates without running code in the program (a `strcmp` call would, at every
/// hit of a condition). Literals up to 64 bytes; X must be a side-effect-free operand (the
/// guard refuses others), as it is read once per byte. A `std::string` X fails as before.
pub fn rewrite_as_bytes(e: &str) -> Option<String> {
    rewrite_by(e, |lhs, rhs| {
        let (x, lit) = if is_literal(rhs) {
            (lhs, rhs)
        } else {
            (rhs, lhs)
        };
        if is_literal(x) {
            return None;
        }
        let bytes = unescape(&lit[1..lit.len() - 1])?;
        if bytes.len() > 64 {
            return None;
        }
        let mut parts = vec![format!("({x}) != 0")];
        for (i, b) in bytes.iter().enumerate() {
            parts.push(format!("(unsigned char)({x})[{i}] == {b}"));
        }
        parts.push(format!("({x})[{}] == 0", bytes.len()));
        Some(format!("({})", parts.join(" && ")))
    })
}

fn is_literal(s: &str) -> bool {
    s.len() >= 2 && s.starts_with('"') && s.ends_with('"')
}

/// The bytes of a C string literal's body; None for an escape this does not read (`\u`).
fn unescape(body: &str) -> Option<Vec<u8>> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = *b.get(i + 1)?;
        i += 2;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'"' | b'\'' | b'?' => c,
            b'x' => {
                let n = b[i..].iter().take_while(|d| d.is_ascii_hexdigit()).count();
                if n == 0 || n > 2 {
                    return None;
                }
                let v = u8::from_str_radix(&body[i..i + n], 16).ok()?;
                i += n;
                v
            }
            b'0'..=b'7' => {
                let n = 1 + b[i..]
                    .iter()
                    .take(2)
                    .take_while(|d| (b'0'..=b'7').contains(d))
                    .count();
                let v = u32::from_str_radix(&body[i - 1..i - 1 + n], 8).ok()?;
                i += n - 1;
                u8::try_from(v).ok()?
            }
            _ => return None,
        });
    }
    // A NUL inside ends the C string: what follows is never compared.
    if out.contains(&0) {
        return None;
    }
    Some(out)
}

/// `e` with each comparison with a string literal written by `eq(lhs, rhs)` (`!=`: negated);
/// a comparison `eq` declines is left as written.
fn rewrite_by(e: &str, eq: impl Fn(&str, &str) -> Option<String>) -> Option<String> {
    if !e.contains('"') || !(e.contains("==") || e.contains("!=")) {
        return None;
    }
    let toks = tokens(e)?;
    // (start byte, end byte, replacement), left to right, not overlapping.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (k, (t, _, _)) in toks.iter().enumerate() {
        let Tok::Eq(negated) = t else { continue };
        if k == 0 || k + 1 >= toks.len() || (toks[k - 1].0 != Tok::Str && toks[k + 1].0 != Tok::Str)
        {
            continue;
        }
        let (l0, l1) = operand(&toks, k - 1, true)?;
        let (r0, r1) = operand(&toks, k + 1, false)?;
        let literal = |a: usize, b: usize| a == b && toks[a].0 == Tok::Str;
        if !literal(l0, l1) && !literal(r0, r1) {
            continue;
        }
        let (from, to) = (toks[l0].1, toks[r1].2);
        if edits.last().is_some_and(|(_, end, _)| *end > from) {
            // `a == "x" == b`: nothing sensible to write.
            return None;
        }
        let lhs = &e[toks[l0].1..toks[l1].2];
        let rhs = &e[toks[r0].1..toks[r1].2];
        let Some(call) = eq(lhs, rhs) else { continue };
        edits.push((from, to, if *negated { format!("(!{call})") } else { call }));
    }
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(e.len() + 16 * edits.len());
    let mut at = 0;
    for (from, to, text) in edits {
        out.push_str(&e[at..from]);
        out.push_str(&text);
        at = to;
    }
    out.push_str(&e[at..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn comparisons_with_a_string_literal_become_text_comparisons() {
        let cases = [
            (
                r#"arts[i].id == "KB-4471""#,
                r#"$_mcp_eq(arts[i].id, "KB-4471")"#,
            ),
            (
                r#""eve" == recs[i].name"#,
                r#"$_mcp_eq("eve", recs[i].name)"#,
            ),
            (r#"n->name != "beta""#, r#"(!$_mcp_eq(n->name, "beta"))"#),
            (
                r#"recs[i].cp == 7 && recs[i].name == "eve""#,
                r#"recs[i].cp == 7 && $_mcp_eq(recs[i].name, "eve")"#,
            ),
            (
                r#"(p->kind == "a" || p->kind == "b\"c") ? 1 : 0"#,
                r#"($_mcp_eq(p->kind, "a") || $_mcp_eq(p->kind, "b\"c")) ? 1 : 0"#,
            ),
            (r#"f(x, "y") == "z""#, r#"$_mcp_eq(f(x, "y"), "z")"#),
            (r#"ns::g_name == "x""#, r#"$_mcp_eq(ns::g_name, "x")"#),
            (r#"*(char **) p == "x""#, r#"$_mcp_eq(*(char **) p, "x")"#),
            (r#"n < 3 && s == "x""#, r#"n < 3 && $_mcp_eq(s, "x")"#),
            (
                r#"m.find(k)->second == "x""#,
                r#"$_mcp_eq(m.find(k)->second, "x")"#,
            ),
            (
                r#"a < b == c && s == "x""#,
                r#"a < b == c && $_mcp_eq(s, "x")"#,
            ),
        ];
        for (given, want) in cases {
            assert_eq!(rewrite(given).as_deref(), Some(want), "{given}");
        }
    }

    #[test]
    fn everything_else_is_left_as_written() {
        for e in [
            "recs[i].cp == 0x11a7",
            r#"strlen("a==b")"#,
            r#"$_streq(s, "x")"#,
            r#"c == '"'"#,
            r#"s == "unclosed"#,
            "a == b",
            r#"n < "x""#,
            // A C++ cast's or template's angle brackets next to the operand: left alone.
            r#"static_cast<const char*>(p) == "x""#,
            r#"std::get<0>(t) == "x""#,
            r#"dynamic_cast<D*>(b)->name == "x""#,
        ] {
            assert_eq!(rewrite(e), None, "{e}");
        }
    }
    #[test]
    fn for_lldb_a_comparison_with_a_literal_compares_bytes() {
        use super::rewrite_as_bytes;
        assert_eq!(
            rewrite_as_bytes(r#"recs[i].name == "eve""#).as_deref(),
            Some(
                "((recs[i].name) != 0 && (unsigned char)(recs[i].name)[0] == 101 && (unsigned char)(recs[i].name)[1] == 118 && (unsigned char)(recs[i].name)[2] == 101 && (recs[i].name)[3] == 0)"
            )
        );
        assert_eq!(
            rewrite_as_bytes(r#"n > 1 && "\x41\"\101ü" != p"#).as_deref(),
            Some(
                "n > 1 && (!((p) != 0 && (unsigned char)(p)[0] == 65 && (unsigned char)(p)[1] == 34 && (unsigned char)(p)[2] == 65 && (unsigned char)(p)[3] == 195 && (unsigned char)(p)[4] == 188 && (p)[5] == 0))"
            )
        );
        assert_eq!(
            rewrite_as_bytes(r#"s == """#).as_deref(),
            Some("((s) != 0 && (s)[0] == 0)")
        );
        // Left as written: two literals, an unread escape, an inner NUL, a long literal.
        let long = format!(r#"s == "{}""#, "x".repeat(65));
        for e in [
            r#""a" == "b""#,
            r#"s == "\u00e9""#,
            r#"s == "a\0b""#,
            long.as_str(),
        ] {
            assert_eq!(rewrite_as_bytes(e), None, "{e}");
        }
    }
}
