//! Short value ids ("v1", "v2", …) mapped to backend handles, and how values are shown to an
//! agent: truncated with a marker and the full length, secrets redacted.
//!
//! Ids are numbered per session and never reused: on resume (or a new pause) the table is cleared
//! and `first_valid` moves past every issued id, so an old id is recognisably *stale* rather than
//! unknown — the agent gets told to read the variables again instead of a confusing "not found".

use super::out::ValueNode as OutValue;
use crate::backend::ValueNode;
use crate::config::Config;
use regex::Regex;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

#[derive(Debug, Clone)]
pub struct ValueRef {
    pub name: String,
    /// Path from the frame's top-level variable, e.g. `user.address.city` (for messages and
    /// the value ledger), or the expression for evaluation results.
    pub path: String,
    pub children_handle: Option<String>,
    pub set_handle: Option<String>,
    pub child_count: Option<u64>,
    /// The value as the debugger rendered it (untruncated, unredacted; shown through
    /// `values::visible`).
    pub value: String,
    pub type_name: Option<String>,
}

/// Ids kept per pause at most; older ones expire (bounded memory on huge object graphs).
const MAX_IDS: usize = 20_000;

#[derive(Debug, Default)]
pub struct ValueTable {
    next: u64,
    first_valid: u64,
    /// Ids below this (and at least `first_valid`) were dropped by the size cap.
    expired_below: u64,
    entries: BTreeMap<u64, ValueRef>,
    /// Same backend value read twice during one pause gets the same id.
    by_key: HashMap<String, u64>,
}

pub enum Lookup<'a> {
    Found(&'a ValueRef),
    Stale,
    Expired,
    Unknown,
}

impl ValueTable {
    pub fn register(&mut self, r: ValueRef) -> String {
        // Children handles and set handles are separate namespaces of the backend (DAP: a
        // variablesReference vs an index into its set targets), so "5" in one is not "5" in
        // the other.
        let key = match (&r.children_handle, &r.set_handle) {
            (Some(h), _) => format!("c:{h}"),
            (None, Some(h)) => format!("s:{h}"),
            (None, None) => format!("p:{}", r.path),
        };
        if let Some(n) = self.by_key.get(&key)
            && let Some(existing) = self.entries.get_mut(n)
        {
            *existing = r;
            return format!("v{n}");
        }
        self.next += 1;
        self.entries.insert(self.next, r);
        self.by_key.insert(key, self.next);
        while self.entries.len() > MAX_IDS {
            if let Some((n, _)) = self.entries.pop_first() {
                self.expired_below = n + 1;
            }
        }
        format!("v{}", self.next)
    }

    pub fn invalidate(&mut self) {
        self.entries.clear();
        self.by_key.clear();
        self.first_valid = self.next + 1;
        self.expired_below = self.first_valid;
    }

    pub fn get(&self, id: &str) -> Lookup<'_> {
        let Some(n) = id.strip_prefix('v').and_then(|n| n.parse::<u64>().ok()) else {
            return Lookup::Unknown;
        };
        if n == 0 || n > self.next {
            return Lookup::Unknown;
        }
        if n < self.first_valid {
            return Lookup::Stale;
        }
        if n < self.expired_below {
            return Lookup::Expired;
        }
        self.entries.get(&n).map_or(Lookup::Unknown, Lookup::Found)
    }
}

/// Locals a test runner adds to the code it runs, not the program's: pytest's assertion
/// rewriting leaves `@py_assert1`, `@py_format3`, … in every test frame that asserted.
pub fn is_runner_temporary(name: &str) -> bool {
    name.starts_with("@py_assert") || name.starts_with("@py_format")
}

/// A name's identifier words, lower-cased: `api_token` → `[api, token]`, `authToken` →
/// `[auth, token]`, `APIKey` → `[api, key]`, `m_tokens` → `[m, tokens]`.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        // camelCase (`authToken`) and the end of an acronym (`APIKey`) start a new word.
        let boundary = ch.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.extend(ch.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The secret pattern `name` ends with, as whole identifier words: `token`, `api_token`,
/// `authToken` and `config['api_key']` match; `tokens`, `m_tokens`, `token_type`, `Tokenizer`
/// and `tokenize` do not (a name that only mentions a secret word is program data).
pub fn secret_pattern<'a>(cfg: &'a Config, name: &str) -> Option<&'a str> {
    if !cfg.redaction.enabled {
        return None;
    }
    let name = words(name);
    cfg.redaction.patterns.iter().map(String::as_str).find(|p| {
        let p = words(p);
        !p.is_empty() && name.ends_with(&p)
    })
}

#[cfg(test)]
fn is_secret(cfg: &Config, name: &str) -> bool {
    secret_pattern(cfg, name).is_some()
}

/// Whether a value is text (the only kind a secret name hides): strings of every language,
/// C strings (`char *`, `char[16]`), or, without a type, a quoted literal. Numbers, enums,
/// pointers and containers are never hidden by name.
pub fn string_like(type_name: Option<&str>, value: &str) -> bool {
    if let Some(t) = type_name.map(str::trim).filter(|t| !t.is_empty()) {
        let lower = t.to_ascii_lowercase();
        let t = lower
            .trim_start_matches("const ")
            .trim_start_matches("volatile ")
            .trim_end_matches('&')
            .trim();
        let stars = t.matches('*').count();
        let base = t
            .split(['*', '['])
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches("const")
            .trim();
        if (stars == 1 || (stars == 0 && t.contains('[')))
            && matches!(
                base,
                "char"
                    | "signed char"
                    | "unsigned char"
                    | "wchar_t"
                    | "char8_t"
                    | "char16_t"
                    | "char32_t"
                    | "gchar"
            )
        {
            return true;
        }
        let head = t.split('<').next().unwrap_or("").trim();
        let last = head
            .rsplit("::")
            .next()
            .unwrap_or(head)
            .rsplit('.')
            .next()
            .unwrap_or(head);
        return stars == 0
            && matches!(
                last,
                "str"
                    | "&str"
                    | "string"
                    | "wstring"
                    | "u16string"
                    | "u32string"
                    | "basic_string"
                    | "string_view"
                    | "basic_string_view"
                    | "bytes"
                    | "bytearray"
                    | "unicode"
                    | "[]byte"
                    | "[]uint8"
            );
    }
    let v = value
        .trim()
        .trim_start_matches(['b', 'u', 'r', 'B', 'U', 'R']);
    let q = v.chars().next();
    matches!(q, Some('\'' | '"'))
        && v.len() >= 2
        && (v.ends_with(q.unwrap_or('"')) || v.ends_with('…'))
}

/// The shapes of well-known secrets, whatever their name.
static SHAPES: LazyLock<[(&str, Regex); 3]> = LazyLock::new(|| {
    let re = |s: &str| Regex::new(s).expect("shape regex");
    [
        (
            "jwt",
            re(r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}"),
        ),
        (
            "pem",
            re(
                r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)",
            ),
        ),
        (
            "key",
            re(concat!(
                r"\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{36,}",
                r"|github_pat_[A-Za-z0-9_]{40,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}",
                r"|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}|hf_[A-Za-z0-9]{30,})"
            )),
        ),
    ]
});

/// `key: 'value'` / `key = "value"` / `key = 0x… "value"` inside a rendered composite value.
static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?P<key>['"]?[A-Za-z_][A-Za-z0-9_]*['"]?)(?P<sep>\s*[:=]\s*)(?P<val>(?:0x[0-9a-fA-F]+ )?[bBuUrR]?(?:'(?:[^'\\]|\\.)*(?:'|$)|"(?:[^"\\]|\\.)*(?:"|$)))"#)
        .expect("pair regex")
});

/// How a hidden value reads: one word saying why (the name pattern, or `jwt`/`pem`/`key`).
pub fn mark(reason: &str) -> String {
    format!("<redacted:{reason}>")
}

/// Masks what looks like a secret inside a rendered value: the string values of secret keys
/// (`{'api_key': 'sk-1'}` → `{'api_key': <redacted:api_key>}`; a parent's rendering must not
/// leak what the child's name hides) and secrets by shape anywhere (JWT, PEM private keys, key
/// prefixes). Numbers, enums and other keys stay as they are.
pub fn scrub(cfg: &Config, value: &str) -> String {
    if !cfg.redaction.enabled {
        return value.to_string();
    }
    let mut out = std::borrow::Cow::Borrowed(value);
    // Fast path, no regex: most values mention no secret word at all.
    let lower = value.to_ascii_lowercase();
    let mentions = cfg
        .redaction
        .patterns
        .iter()
        .any(|p| words(p).first().is_some_and(|w| lower.contains(w.as_str())));
    if mentions && (value.contains(':') || value.contains('=')) {
        let replaced = PAIR.replace_all(&out, |c: &regex::Captures<'_>| {
            match secret_pattern(cfg, &c["key"]) {
                Some(p) => format!("{}{}{}", &c["key"], &c["sep"], mark(p)),
                None => c[0].to_string(),
            }
        });
        out = std::borrow::Cow::Owned(replaced.into_owned());
    }
    for (name, re) in SHAPES.iter() {
        if cfg.redaction.shapes.iter().any(|s| s == name) && re.is_match(&out) {
            out = std::borrow::Cow::Owned(re.replace_all(&out, mark(name).as_str()).into_owned());
        }
    }
    out.into_owned()
}

/// What an agent is shown of a value (see [`visible`]).
pub struct Visible {
    pub text: String,
    /// Something in it was hidden.
    pub redacted: bool,
    /// The whole value was hidden (a string-like value of a secret name).
    pub hidden: bool,
}

/// What an agent is shown of a value named `name`. A string-like value of a secret name is
/// hidden whole; otherwise secrets inside it are scrubbed.
pub fn visible(cfg: &Config, name: &str, type_name: Option<&str>, value: &str) -> Visible {
    if let Some(p) = secret_pattern(cfg, name).filter(|_| string_like(type_name, value)) {
        return Visible {
            text: mark(p),
            redacted: true,
            hidden: true,
        };
    }
    let text = scrub(cfg, value);
    Visible {
        redacted: text != value,
        text,
        hidden: false,
    }
}

/// A value as shown: cut to `max` characters (with a marker and the full length); `redacted`
/// says a secret in it was hidden (the text already says so: `<redacted:token>`).
pub struct Shown {
    pub value: String,
    pub truncated: bool,
    pub value_length: Option<u64>,
    pub redacted: bool,
}

/// gdb and lldb end a string they cut at their own limit (`print elements`,
/// `max-string-summary-length`) with `...` after the closing quote: `"<html>…"...`. Such a
/// value is shown as cut (`"<html>…`), its length unknown.
fn debugger_cut(value: &str) -> Option<&str> {
    let body = value.strip_suffix("...")?;
    (body.ends_with('"') && body.len() > 1).then(|| &body[..body.len() - 1])
}

/// Characters of `value`'s text: a quoted literal's without its quotes (and a `b`/`u` prefix);
/// escapes count as written.
fn text_chars(value: &str) -> u64 {
    let n = value.chars().count();
    let v = value.trim_start_matches(['b', 'u', 'B', 'U']);
    let prefix = n - v.chars().count();
    match v.chars().next() {
        Some(q @ ('"' | '\'')) if v.len() >= 2 && v.ends_with(q) => (n - prefix - 2) as u64,
        _ => n as u64,
    }
}

pub fn shown(value: &str, max: usize, redacted: bool) -> Shown {
    if let Some(body) = debugger_cut(value) {
        let mut s = shown(body, max, redacted);
        if !s.truncated {
            s.value.push('…');
        }
        s.truncated = true;
        s.value_length = None;
        return s;
    }
    let len = value.chars().count();
    // `max` counts the text: a literal's opening quote (and `b` prefix) come on top.
    let v = value.trim_start_matches(['b', 'u', 'B', 'U']);
    let opening = match v.chars().next() {
        Some('"' | '\'') => len - v.chars().count() + 1,
        _ => 0,
    };
    if len > max + opening {
        let cut: String = value.chars().take(max + opening).collect();
        Shown {
            value: format!("{cut}…"),
            truncated: true,
            value_length: Some(text_chars(value)),
            redacted,
        }
    } else {
        Shown {
            value: value.to_string(),
            truncated: false,
            value_length: None,
            redacted,
        }
    }
}

/// [`shown`] of a value the debugger may have cut before it reached us (`length`: the
/// value's real length, which only the backend knows): it never reads as whole.
pub fn shown_of(value: &str, max: usize, redacted: bool, length: Option<u64>) -> Shown {
    let mut s = shown(value, max, redacted);
    if let Some(n) = length {
        if !s.truncated {
            let open = s.value.chars().next().filter(|q| matches!(q, '"' | '\''));
            if open.is_some_and(|q| s.value.len() > 1 && s.value.ends_with(q)) {
                s.value.pop();
            }
            s.value.push('…');
        }
        s.truncated = true;
        s.value_length = Some(n);
    }
    s
}

/// How a cut value says so, after it: `cut: 200 of 6,041 chars`, or `cut at 200 chars` when
/// the debugger cut it without saying how long it is. Counts the text shown (inside the quotes).
pub fn cut_note(value: &str, value_length: Option<u64>) -> String {
    let body = value.strip_suffix('…').unwrap_or(value);
    // What precedes a string's opening quote (`b`, gdb's `0x4010 <page> `) is not its text.
    let text = match body.find(['"', '\'']) {
        Some(i) => &body[i + 1..],
        None => body,
    };
    let shown = text.chars().count() as u64;
    match value_length {
        Some(n) if n > shown => format!("cut: {} of {} chars", thousands(shown), thousands(n)),
        _ => format!("cut at {} chars", thousands(shown)),
    }
}

/// Where the text of a cut string literal as shown (`'a\\nb…`, `"x\\"y…`, gdb's `0x4010
/// "ab\\033…`) ended, in the string's own units: (characters, UTF-8 bytes) before the first
/// one not shown. Each escape is one character (`\\n`, `\\'`, `\\x41`, `\\u00e9`, `\\033`), and
/// an escape cut in its middle was not shown. A slice from there reads on exactly where the
/// text ended. `None` for a value that is no string literal (a list, a number).
pub fn shown_offset(value: &str) -> Option<(u64, u64)> {
    let body = value.strip_suffix('…').unwrap_or(value);
    // What precedes a string's opening quote (`b`, gdb's `0x4010 <page> `) is not its text.
    let at = body.find(['"', '\''])?;
    let before = &body[..at];
    let literal = matches!(before, "" | "b" | "u" | "B" | "U")
        || (before.starts_with("0x") && before.ends_with(' '));
    if !literal {
        return None;
    }
    let text = &body[at + 1..];
    let mut chars = text.chars().peekable();
    let (mut n, mut bytes) = (0u64, 0u64);
    while let Some(c) = chars.next() {
        if c != '\\' {
            n += 1;
            bytes += c.len_utf8() as u64;
            continue;
        }
        let Some(e) = chars.next() else {
            break;
        };
        let hex = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, k: usize| {
            let mut v = 0u32;
            for _ in 0..k {
                v = v * 16 + chars.next()?.to_digit(16)?;
            }
            Some(v)
        };
        let width = match e {
            // One byte (`\\xff` in bytes, C, Go) or one character below 256 (Python).
            'x' => match hex(&mut chars, 2) {
                Some(_) => 1,
                None => break,
            },
            'u' | 'U' => match hex(&mut chars, if e == 'u' { 4 } else { 8 }) {
                Some(v) => char::from_u32(v).map_or(1, |c| c.len_utf8() as u64),
                None => break,
            },
            // Python's `\\N{NAME}`.
            'N' if chars.peek() == Some(&'{') => {
                let mut name = String::new();
                for c in chars.by_ref() {
                    name.push(c);
                    if c == '}' {
                        break;
                    }
                }
                if !name.ends_with('}') {
                    break;
                }
                2
            }
            // C's octal byte (`\\033`): up to three digits.
            '0'..='7' => {
                for _ in 0..2 {
                    if chars.peek().is_some_and(|d| ('0'..='7').contains(d)) {
                        chars.next();
                    }
                }
                1
            }
            _ => 1,
        };
        n += 1;
        bytes += width;
    }
    Some((n, bytes))
}

/// `6041` → `6,041`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl OutValue {
    /// Sets `value` and its truncation/redaction flags.
    pub fn put(&mut self, s: Shown) {
        self.value = s.value;
        self.truncated = s.truncated;
        self.value_length = s.value_length;
        self.redacted = s.redacted;
    }
}

/// A node as the agent sees it; registers an id for it in `table`. A string-like value whose
/// name is a secret is hidden; secrets by shape are masked in any value.
pub fn show(
    cfg: &Config,
    table: &mut ValueTable,
    node: &ValueNode,
    path: String,
) -> (OutValue, String) {
    show_max(cfg, table, node, path, cfg.max_value_length)
}

/// [`show`] with `max` characters of the value kept (evaluate_expression keeps more).
pub fn show_max(
    cfg: &Config,
    table: &mut ValueTable,
    node: &ValueNode,
    path: String,
    max: usize,
) -> (OutValue, String) {
    let Visible {
        text,
        redacted,
        hidden,
    } = visible(cfg, &node.name, node.type_name.as_deref(), &node.value);
    let id = table.register(ValueRef {
        name: node.name.clone(),
        path,
        children_handle: node.children_handle.clone().filter(|_| node.has_children),
        set_handle: node.set_handle.clone(),
        child_count: node.child_count,
        value: node.value.clone(),
        type_name: node.type_name.clone(),
    });
    let mut m = OutValue {
        id: id.clone(),
        name: node.name.clone(),
        ..Default::default()
    };
    m.put(shown_of(
        &text,
        max,
        redacted,
        node.value_length.filter(|_| !hidden),
    ));
    m.type_name = node.type_name.clone();
    m.has_children = node.has_children;
    m.child_count = node.child_count;
    (m, id)
}

/// Joins a child name onto a path the way an agent would write it.
pub fn child_path(parent: &str, child: &str) -> String {
    let key = child.trim_matches(['\'', '"']);
    if child.starts_with('[') {
        format!("{parent}{child}")
    } else if child == key && key.chars().all(|c| c.is_ascii_digit()) && !key.is_empty() {
        // "03" (debugpy pads list indices) is index 3.
        let index = key.trim_start_matches('0');
        format!("{parent}[{}]", if index.is_empty() { "0" } else { index })
    } else if child != key {
        format!("{parent}[{child}]")
    } else {
        format!("{parent}.{child}")
    }
}

/// Splits `user.address[0]['k']` into `["user", "address", "0", "k"]`.
pub fn split_path(path: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if cur.is_empty() {
                    return Err(format!("path {path:?} has an empty segment"));
                }
                out.push(std::mem::take(&mut cur));
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                let mut key = String::new();
                loop {
                    match chars.next() {
                        Some(']') => break,
                        Some(k) => key.push(k),
                        None => return Err(format!("path {path:?} misses a closing ]")),
                    }
                }
                out.push(key.trim().trim_matches(['\'', '"']).to_string());
                if chars.peek() == Some(&'.') {
                    chars.next();
                }
            }
            // PHP's member access (`$order->items`) reads like `order.items`.
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                if cur.is_empty() && out.is_empty() {
                    return Err(format!("path {path:?} has an empty segment"));
                }
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if out.is_empty() {
        return Err("path is empty".into());
    }
    Ok(out)
}

/// Whether a child named `name` (as the debugger shows it: `0`, `[0]`, `'key'`, `field`)
/// matches a path segment.
/// A frame's top-level variable named by a path's first segment: PHP names variables `$x`
/// (Xdebug does too), so `$x` and `x` both name it.
pub fn top_name_matches(name: &str, segment: &str) -> bool {
    name == segment
        || name.strip_prefix('$') == Some(segment)
        || segment.strip_prefix('$') == Some(name)
}

pub fn name_matches(name: &str, segment: &str) -> bool {
    let n = name
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_matches(['\'', '"']);
    // debugpy names list items with zero padding ("03" in a 30-item list); `items[3]` means it.
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let quoted = name.trim().trim_start_matches('[').starts_with(['\'', '"']);
    if !quoted && digits(n) && digits(segment) {
        return n.trim_start_matches('0') == segment.trim_start_matches('0');
    }
    n == segment
}

#[cfg(test)]
mod tests {

    use super::shown_offset;

    #[test]
    fn a_cut_literal_says_where_its_text_ended_in_the_strings_own_characters() {
        // Python's repr of `'a"b\'\n' * n`: each escape is one character of the string.
        assert_eq!(shown_offset("'a\"b\\'\\na\"…"), Some((7, 7)));
        // An escape cut in its middle was not shown: the next slice starts at it.
        assert_eq!(shown_offset("'ab\\…"), Some((2, 2)));
        assert_eq!(shown_offset("'ab\\x4…"), Some((2, 2)));
        assert_eq!(shown_offset("b'\\xff\\x00z…"), Some((3, 3)));
        // gdb: an address first, octal escapes; non-ASCII text differs in bytes.
        assert_eq!(shown_offset("0x4010 <page> \"\\033[1m…"), Some((4, 4)));
        assert_eq!(shown_offset("'é\\u00e9x…"), Some((3, 5)));
        // No string literal: no offset.
        assert_eq!(shown_offset("['a', 'b', …"), None);
        assert_eq!(shown_offset("12345…"), None);
    }

    #[test]
    fn php_paths_and_dollar_names() {
        assert_eq!(
            super::split_path("$order->items[0]->price").unwrap(),
            vec!["$order", "items", "0", "price"]
        );
        assert_eq!(
            super::split_path("order.items").unwrap(),
            vec!["order", "items"]
        );
        assert!(super::split_path("->x").is_err());
        assert!(
            super::top_name_matches("$order", "order")
                && super::top_name_matches("order", "$order")
        );
        assert!(
            super::top_name_matches("$order", "$order")
                && !super::top_name_matches("$orders", "order")
        );
    }

    #[test]
    fn a_children_handle_and_a_set_handle_with_the_same_text_are_different_values() {
        let mut t = ValueTable::default();
        let v = |name: &str, children: Option<&str>, set: Option<&str>| ValueRef {
            name: name.into(),
            path: name.into(),
            children_handle: children.map(Into::into),
            set_handle: set.map(Into::into),
            child_count: None,
            value: String::new(),
            type_name: None,
        };
        let order = t.register(v("order", Some("5"), Some("2")));
        let count = t.register(v("count", None, Some("5")));
        assert_ne!(order, count);
        let Lookup::Found(found) = t.get(&count) else {
            panic!("count's id must resolve")
        };
        assert_eq!(found.name, "count");
        // The same value read again in the same pause keeps its id.
        assert_eq!(t.register(v("count", None, Some("5"))), count);
    }

    use super::*;

    #[test]
    fn ids_go_stale_after_invalidate() {
        let mut t = ValueTable::default();
        let r = ValueRef {
            name: "x".into(),
            path: "x".into(),
            children_handle: None,
            set_handle: None,
            child_count: None,
            value: String::new(),
            type_name: None,
        };
        let a = t.register(r.clone());
        assert!(matches!(t.get(&a), Lookup::Found(_)));
        t.invalidate();
        assert!(matches!(t.get(&a), Lookup::Stale));
        assert!(matches!(t.get("v99"), Lookup::Unknown));
        assert!(matches!(t.get("zz"), Lookup::Unknown));
        let b = t.register(r.clone());
        assert_ne!(a, b);
        // The same value read again keeps its id.
        assert_eq!(t.register(r), b);
    }

    #[test]
    fn ids_beyond_the_cap_expire() {
        let mut t = ValueTable::default();
        let mk = |i: usize| ValueRef {
            name: "x".into(),
            value: String::new(),
            path: format!("x{i}"),
            children_handle: None,
            set_handle: None,
            child_count: None,
            type_name: None,
        };
        let first = t.register(mk(0));
        for i in 1..=MAX_IDS {
            t.register(mk(i));
        }
        assert!(matches!(t.get(&first), Lookup::Expired));
        assert!(matches!(
            t.get(&format!("v{}", MAX_IDS + 1)),
            Lookup::Found(_)
        ));
    }

    #[test]
    fn paths() {
        assert_eq!(
            split_path("user.address[0]['k'].x").unwrap(),
            ["user", "address", "0", "k", "x"]
        );
        assert!(split_path("a..b").is_err());
        assert!(split_path("a[1").is_err());
        assert_eq!(child_path("items", "2"), "items[2]");
        assert_eq!(child_path("config", "'api_key'"), "config['api_key']");
        assert_eq!(child_path("user", "name"), "user.name");
        assert!(name_matches("'api_key'", "api_key") && name_matches("[3]", "3"));
        assert!(name_matches("03", "3") && name_matches("00", "0") && !name_matches("'03'", "3"));
        assert_eq!(child_path("items", "03"), "items[3]");
        assert_eq!(child_path("d", "'03'"), "d['03']");
    }

    #[test]
    fn scrub_masks_secret_strings_in_pairs_only() {
        let cfg = Config::default();
        assert_eq!(
            scrub(&cfg, "{'host': 'h', 'api_key': 'sk-1'}"),
            "{'host': 'h', 'api_key': <redacted:api_key>}"
        );
        assert_eq!(
            scrub(&cfg, "Conf(token='abc', n=1)"),
            "Conf(token=<redacted:token>, n=1)"
        );
        assert_eq!(
            scrub(&cfg, "{token = 0x5555 \"abc\", n = 1}"),
            "{token = <redacted:token>, n = 1}"
        );
        // Numbers, enums and other keys are program data.
        assert_eq!(
            scrub(&cfg, "Conf(token=3, kind=<Kind.A: 1>)"),
            "Conf(token=3, kind=<Kind.A: 1>)"
        );
        assert_eq!(
            scrub(&cfg, "Tok(token_type='NAME', tokens=['a'])"),
            "Tok(token_type='NAME', tokens=['a'])"
        );
        assert_eq!(scrub(&cfg, "my password is long"), "my password is long");
        let mut off = Config::default();
        off.redaction.enabled = false;
        assert_eq!(scrub(&off, "{'api_key': 'sk-1'}"), "{'api_key': 'sk-1'}");
    }

    #[test]
    fn secret_names_match_as_identifier_words_at_the_end() {
        let cfg = Config::default();
        for name in [
            "token",
            "api_token",
            "auth_token",
            "password",
            "authToken",
            "DB_PASSWORD",
            "config.api_key",
            "d['apiKey']",
            "APIKey",
            "m_token",
        ] {
            assert!(is_secret(&cfg, name), "{name} must be secret");
        }
        for name in [
            "tokens",
            "m_tokens",
            "token_type",
            "Tokenizer",
            "tokenize",
            "tokenCount",
            "(int)m_tokens.front().type",
            "password_hash",
            "secrets",
        ] {
            assert!(!is_secret(&cfg, name), "{name} must not be secret");
        }
        assert_eq!(secret_pattern(&cfg, "user_password"), Some("password"));
    }

    #[test]
    fn only_string_like_values_are_hidden_by_name() {
        let cfg = Config::default();
        let v = |name: &str, ty: Option<&str>, value: &str| visible(&cfg, name, ty, value);
        assert_eq!(v("token", Some("str"), "'if'").text, "<redacted:token>");
        assert_eq!(v("api_token", None, "\"abc\"").text, "<redacted:token>");
        assert!(v("password", Some("const char *"), "0x4006f4 \"hunter2\"").hidden);
        assert!(
            v(
                "password",
                Some("char [16]"),
                "\"hunter2\", '\\000' <repeats 8 times>"
            )
            .hidden
        );
        assert!(v("password", Some("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"), "\"x\"").hidden);
        assert!(v("password", Some("java.lang.String"), "\"x\"").hidden);
        // Numbers, enums, pointers, containers: shown.
        for (ty, value) in [
            ("int", "3"),
            ("TokenType", "TOK_IDENT"),
            ("Token *", "0x5555"),
            ("list", "['a', 'b']"),
            ("char **", "0x7ffe"),
            ("std::vector<std::string>", "std::vector of length 2"),
        ] {
            let s = v("token", Some(ty), value);
            assert!(!s.hidden && s.text == value, "{ty}: {}", s.text);
        }
        assert_eq!(
            v("token", None, "<TokenType.NAME: 1>").text,
            "<TokenType.NAME: 1>"
        );
    }

    #[test]
    fn secrets_are_caught_by_shape_whatever_their_name() {
        let cfg = Config::default();
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(
            visible(&cfg, "header", Some("str"), &format!("'Bearer {jwt}'")).text,
            "'Bearer <redacted:jwt>'"
        );
        let pem = "'-----BEGIN RSA PRIVATE KEY-----\\nMIIEow\\n-----END RSA PRIVATE KEY-----'";
        assert_eq!(visible(&cfg, "blob", None, pem).text, "'<redacted:pem>'");
        let v = visible(
            &cfg,
            "x",
            None,
            "{'k': 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'n': 1}",
        );
        assert!(
            v.redacted && v.text == "{'k': '<redacted:key>', 'n': 1}",
            "{}",
            v.text
        );
        assert!(!visible(&cfg, "x", None, "'sk-short'").redacted);
        let mut off = Config::default();
        off.redaction.shapes.retain(|s| s != "jwt");
        assert!(visible(&off, "header", None, jwt).text.contains("eyJ"));
    }

    #[test]
    fn a_cut_string_says_so_with_the_length_of_its_text() {
        // The length is the string's, not its literal's (quotes are not text).
        let page = format!("'{}'", "x".repeat(500));
        let m = shown(&page, 200, false);
        assert!(
            m.truncated && m.value_length == Some(500),
            "{:?}",
            m.value_length
        );
        assert_eq!(cut_note(&m.value, m.value_length), "cut: 200 of 500 chars");
        assert_eq!(cut_note("\"<html>…", Some(6041)), "cut: 6 of 6,041 chars");
        assert_eq!(thousands(16_000), "16,000");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn a_string_the_debugger_cut_never_reads_as_whole() {
        // gdb and lldb end a string cut at their own limit with `...` after the quote.
        let gdb = format!("0x4040 <page> \"{}\"...", "a".repeat(50));
        let m = shown(&gdb, 200, false);
        assert!(m.truncated && m.value_length.is_none());
        assert!(m.value.ends_with("aaa…"), "{}", m.value);
        assert_eq!(cut_note(&m.value, None), "cut at 50 chars");
        // Xdebug and debugpy say how long the value is: shown cut even within our bound.
        let xdebug = format!("\"{}\"", "b".repeat(1024));
        let m = shown_of(&xdebug, 16_000, false, Some(6041));
        assert!(m.truncated && m.value.ends_with("bb…") && m.value_length == Some(6041));
        assert_eq!(
            cut_note(&m.value, m.value_length),
            "cut: 1,024 of 6,041 chars"
        );
        // A string that merely ends in dots is whole.
        assert!(!shown("\"wait...\"", 200, false).truncated);
    }

    #[test]
    fn truncation_states_length() {
        let m = shown(&"x".repeat(500), 200, false);
        assert_eq!(m.value_length, Some(500));
        assert!(m.truncated && m.value.ends_with('…'));
        assert_eq!(m.value.chars().count(), 201);
    }
}
