//! Short value ids ("v1", "v2", …) mapped to backend handles, and how values are shown to an
//! agent: truncated with a marker and the full length, secrets redacted.
//!
//! Ids are numbered per session and never reused: on resume (or a new pause) the table is cleared
//! and `first_valid` moves past every issued id, so an old id is recognisably *stale* rather than
//! unknown — the agent gets told to read the variables again instead of a confusing "not found".

use super::tools::out::ValueNode as OutValue;
use crate::backend::ValueNode;
use crate::config::Config;
use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Clone)]
pub struct ValueRef {
    pub name: String,
    /// Path from the frame's top-level variable, e.g. `user.address.city` (for messages and
    /// the value ledger), or the expression for evaluation results.
    pub path: String,
    pub children_handle: Option<String>,
    pub set_handle: Option<String>,
    pub redacted: bool,
    pub child_count: Option<u64>,
    /// The value as the debugger rendered it (untruncated; shown through `put_value`).
    pub value: String,
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
        if let Some(n) = self.by_key.get(&key) {
            if let Some(existing) = self.entries.get_mut(n) {
                *existing = r;
                return format!("v{n}");
            }
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

/// ASCII case-insensitive substring test without allocating (patterns are ASCII key names).
fn contains_ci(haystack: &str, needle: &str) -> bool {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    !n.is_empty() && h.len() >= n.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

pub fn is_secret(cfg: &Config, name: &str) -> bool {
    cfg.redaction.enabled && cfg.redaction.patterns.iter().any(|p| contains_ci(name, p))
}

/// Masks `key: value` / `key=value` pairs whose key looks like a secret inside a rendered
/// composite value, e.g. `{'api_key': 'sk-1'}` -> `{'api_key': <redacted>}`; a parent's
/// rendering must not leak what the child's name-based redaction hides.
pub fn scrub(cfg: &Config, value: &str) -> String {
    if !cfg.redaction.enabled || cfg.redaction.patterns.is_empty() {
        return value.to_string();
    }
    // Fast path, no allocation: most values mention no secret at all.
    if !cfg.redaction.patterns.iter().any(|p| contains_ci(value, p)) {
        return value.to_string();
    }
    let lower = value.to_lowercase();
    let patterns: Vec<String> = cfg
        .redaction
        .patterns
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| p.to_lowercase())
        .collect();
    if lower.len() != value.len() {
        // (A lowercase form of different byte length would misalign offsets; such values are
        // only scrubbed by name.)
        return value.to_string();
    }
    let chars: Vec<(usize, char)> = value.char_indices().collect();
    let mut out = String::with_capacity(value.len());
    let mut copied = 0; // byte offset copied so far
    let mut i = 0; // index into chars
    while i < chars.len() {
        let (pos, _) = chars[i];
        let hit = patterns.iter().find(|p| {
            lower
                .get(pos..)
                .is_some_and(|rest| rest.starts_with(p.as_str()))
        });
        let Some(p) = hit else {
            i += 1;
            continue;
        };
        // Skip the rest of the key (identifier chars and a closing quote) and find ':' or '='.
        let mut j = i + p.chars().count();
        while j < chars.len()
            && (chars[j].1.is_alphanumeric()
                || chars[j].1 == '_'
                || chars[j].1 == '\''
                || chars[j].1 == '"')
        {
            j += 1;
        }
        while j < chars.len() && chars[j].1 == ' ' {
            j += 1;
        }
        if j >= chars.len() || !(chars[j].1 == ':' || chars[j].1 == '=') {
            i += 1;
            continue;
        }
        j += 1;
        while j < chars.len() && chars[j].1 == ' ' {
            j += 1;
        }
        // The value: a quoted string, or everything up to , } ) ].
        let start = j;
        if j < chars.len() && (chars[j].1 == '\'' || chars[j].1 == '"') {
            let q = chars[j].1;
            j += 1;
            while j < chars.len() && chars[j].1 != q {
                j += 1;
            }
            j = (j + 1).min(chars.len());
        } else {
            while j < chars.len() && !matches!(chars[j].1, ',' | '}' | ')' | ']') {
                j += 1;
            }
        }
        let start_byte = chars.get(start).map_or(value.len(), |c| c.0);
        let end_byte = chars.get(j).map_or(value.len(), |c| c.0);
        out.push_str(&value[copied..start_byte]);
        out.push_str("<redacted>");
        copied = end_byte;
        i = j.max(i + 1);
    }
    out.push_str(&value[copied..]);
    out
}

/// A value as shown: cut to `max` characters (with a marker and the full length) or redacted.
pub struct Shown {
    pub value: String,
    pub truncated: bool,
    pub value_length: Option<u64>,
    pub redacted: bool,
}

pub fn shown(value: &str, max: usize, redacted: bool) -> Shown {
    if redacted {
        return Shown {
            value: "<redacted>".into(),
            truncated: false,
            value_length: None,
            redacted: true,
        };
    }
    let len = value.chars().count();
    if len > max {
        let cut: String = value.chars().take(max).collect();
        Shown {
            value: format!("{cut}…"),
            truncated: true,
            value_length: Some(len as u64),
            redacted: false,
        }
    } else {
        Shown {
            value: value.to_string(),
            truncated: false,
            value_length: None,
            redacted: false,
        }
    }
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

/// A node as the agent sees it; registers an id for it in `table`.
pub fn show(
    cfg: &Config,
    table: &mut ValueTable,
    node: &ValueNode,
    path: String,
    parent_redacted: bool,
) -> (OutValue, String) {
    let redacted = parent_redacted || is_secret(cfg, &node.name);
    let id = table.register(ValueRef {
        name: node.name.clone(),
        path,
        children_handle: node.children_handle.clone().filter(|_| node.has_children),
        set_handle: node.set_handle.clone(),
        redacted,
        child_count: node.child_count,
        value: node.value.clone(),
    });
    let mut m = OutValue {
        id: id.clone(),
        name: node.name.clone(),
        ..Default::default()
    };
    m.put(shown(
        &scrub(cfg, &node.value),
        cfg.max_value_length,
        redacted,
    ));
    // The debugger's rendering was cut before it reached us: the length the agent needs is
    // the value's own, which only the backend knows.
    if let (false, Some(n)) = (redacted, node.value_length) {
        m.truncated = true;
        m.value_length = Some(n as u64);
    }
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

    #[test]
    fn a_children_handle_and_a_set_handle_with_the_same_text_are_different_values() {
        let mut t = ValueTable::default();
        let v = |name: &str, children: Option<&str>, set: Option<&str>| ValueRef {
            name: name.into(),
            path: name.into(),
            children_handle: children.map(Into::into),
            set_handle: set.map(Into::into),
            redacted: false,
            child_count: None,
            value: String::new(),
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
            redacted: false,
            child_count: None,
            value: String::new(),
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
            redacted: false,
            child_count: None,
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
    fn scrub_masks_secret_pairs_only() {
        let cfg = Config::default();
        assert_eq!(
            scrub(&cfg, "{'host': 'h', 'api_key': 'sk-1'}"),
            "{'host': 'h', 'api_key': <redacted>}"
        );
        assert_eq!(
            scrub(&cfg, "Conf(token=abc, n=1)"),
            "Conf(token=<redacted>, n=1)"
        );
        assert_eq!(scrub(&cfg, "my password is long"), "my password is long");
        let mut off = Config::default();
        off.redaction.enabled = false;
        assert_eq!(scrub(&off, "{'api_key': 'sk-1'}"), "{'api_key': 'sk-1'}");
    }

    #[test]
    fn truncation_states_length() {
        let m = shown(&"x".repeat(500), 200, false);
        assert_eq!(m.value_length, Some(500));
        assert!(m.truncated && m.value.ends_with('…'));
        assert_eq!(m.value.chars().count(), 201);
    }
}
