//! expand_variable {filter}: a JSONPath (RFC 9535) filter over one value's tree (seed 004's "surgical"
//! read). The tree is fetched from the backend only as deep as the query needs (≤ 3 levels) and
//! only along the named branches of the query's leading `.name` segments; then it is mapped to
//! JSON and queried with `serde_json_path`.
//!
//! Mapping a debugger value to JSON (debuggers render values as strings plus a type):
//! - a value with fetched children is an object keyed by child name (quotes of dict keys like
//!   `'qty'` and brackets like `[0]` removed), or an array when every child name is an index
//!   (`0`, `01`, `[2]`); synthetic groups (debugpy's "special variables", `len()`) are left out;
//!   object members are ordered by key (a wildcard lists them in that order);
//! - a leaf is parsed from its rendering where that is unambiguous: `True`/`true`/`False`/`false`
//!   → booleans, `None`/`null`/`nil` → null, decimal numbers → numbers, a quoted string
//!   (`'ab'`, `"ab"`, gdb's `0x4006f4 "ab"`) → the string; anything else stays the rendering;
//! - a value with children that were not fetched (depth exhausted) is its rendering;
//! - secrets are hidden like everywhere else (`values::visible`).

use super::super::context::{Call, ToolError};
use super::super::ledger::{ReadKind, ValueRead};
use super::super::values::{self, ValueRef, child_path, name_matches};
use super::Outcome;
use super::out::is_false;
use super::variables::{ValueTarget, target};
use crate::backend::{ValueNode, ValueScope};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};
use serde_json_path::JsonPath;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

/// Deepest tree (levels of children below the inspected value) ever fetched.
const MAX_DEPTH: u32 = 3;
/// Backend children fetched per inspection at most, whatever the shape of the value.
const MAX_NODES: usize = 2_000;
/// Bytes of match values per answer; more goes to the next page.
const MAX_RESULT_BYTES: usize = 8_000;

/// Children fetched per value at most (values with more are searched in their first ones).
const MAX_CHILDREN: u32 = 50;

/// expand_variable {filter}'s result.
#[derive(Serialize, JsonSchema)]
pub struct Inspected {
    session_id: String,
    variable: Inspectee,
    filter: String,
    /// Levels fetched below the value.
    depth: u32,
    matches: Vec<Match>,
    total: u64,
    offset: u64,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct Inspectee {
    name: String,
    path: String,
}

/// One value the filter selected.
#[derive(Serialize, JsonSchema)]
pub struct Match {
    path: String,
    /// For expand_variable, when the match has children.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// The program's data as JSON: a `null` here is the program's None/null and is kept.
    value: Value,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
}

/// What the query needs fetched, read from its leading segments.
#[derive(Debug, PartialEq)]
pub struct Plan {
    /// Child names to fetch at each leading level (`$.items.name` → [["items"], ["name"]]);
    /// levels after these fetch every child (up to `max_children`).
    pub names: Vec<String>,
    /// Levels below the root the query reaches (a descendant segment counts as the most that is
    /// ever fetched); may exceed what is fetched, which the answer then says.
    pub reach: u32,
    /// A `..` segment: matches may lie deeper than anything fetched.
    pub descendant: bool,
}

/// Reads the fetch plan from the parsed query's canonical text (`serde_json_path` keeps its AST
/// private; its Display writes `.name`, `['name']`, `[0]`, `..`, `[?…]` segments).
pub fn plan(q: &JsonPath) -> Plan {
    let text = q.to_string();
    let segs = segments(text.strip_prefix('$').unwrap_or(&text));
    let mut names = Vec::new();
    let mut leading = true;
    let mut level = 0u32;
    let mut reach = 0u32;
    let mut descendant = false;
    for s in &segs {
        if s.starts_with("..") {
            reach = reach.max(MAX_DEPTH);
            descendant = true;
            leading = false;
            continue;
        }
        level += 1;
        reach = reach.max(level);
        if s.starts_with("[?") {
            // A filter looks into each candidate: `@.a.b` needs two levels below this one.
            reach = reach.max(level + filter_reach(s));
        }
        if leading {
            match simple_name(s) {
                Some(n) => names.push(n),
                None => leading = false,
            }
        }
    }
    Plan {
        names,
        reach,
        descendant,
    }
}

/// Splits `['a'].b[?@.x > 1]..c` into its top-level segments.
fn segments(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            cur.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                cur.push(c);
            }
            '[' => {
                if depth == 0 && !cur.is_empty() && cur != ".." {
                    out.push(std::mem::take(&mut cur));
                }
                depth += 1;
                cur.push(c);
            }
            ']' => {
                depth -= 1;
                cur.push(c);
                if depth == 0 {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '.' if depth == 0 => {
                if chars.peek() == Some(&'.') {
                    chars.next();
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                    cur.push_str("..");
                } else {
                    if !cur.is_empty() && cur != ".." {
                        out.push(std::mem::take(&mut cur));
                    }
                    if cur != ".." {
                        cur.push('.');
                    }
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `.name` or `['name']` (one plain name, no wildcard) → the name.
fn simple_name(seg: &str) -> Option<String> {
    if let Some(n) = seg.strip_prefix('.') {
        return (n != "*" && !n.is_empty()).then(|| n.to_string());
    }
    let inner = seg.strip_prefix("['")?.strip_suffix("']")?;
    (!inner.contains(['\'', '\\'])).then(|| inner.to_string())
}

/// Longest chain of segments after an `@` inside a filter.
fn filter_reach(seg: &str) -> u32 {
    let mut best = 0;
    for (i, _) in seg.match_indices('@') {
        let rest = &seg[i + 1..];
        let end = rest
            .find(|c: char| {
                c.is_whitespace() || matches!(c, ')' | '=' | '!' | '<' | '>' | '&' | '|' | ',')
            })
            .unwrap_or(rest.len());
        let chain = &rest[..end];
        let n = segments(chain).len() as u32;
        best = best.max(n);
    }
    best
}

/// A leaf's rendering as JSON (see the module docs for the rules).
pub fn leaf_json(rendered: &str) -> Value {
    let v = rendered.trim();
    match v {
        "True" | "true" => return json!(true),
        "False" | "false" => return json!(false),
        "None" | "null" | "nil" => return Value::Null,
        _ => {}
    }
    if let Ok(i) = v.parse::<i64>() {
        return json!(i);
    }
    if let Ok(u) = v.parse::<u64>() {
        return json!(u);
    }
    // Only plain decimal floats: "inf", "nan", "1e5" are fine for Rust but "nan" is no number.
    if v.chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
        && v.chars().any(|c| c.is_ascii_digit())
        && let Ok(f) = v.parse::<f64>()
        && let Some(n) = serde_json::Number::from_f64(f)
    {
        return Value::Number(n);
    }
    // gdb renders `char *` as `0x4006f4 "text"`.
    let quoted = match v.split_once(' ') {
        Some((addr, rest)) if addr.starts_with("0x") && rest.starts_with('"') => rest,
        _ => v,
    };
    if let Some(s) = unquote(quoted) {
        return json!(s);
    }
    json!(rendered)
}

/// `'ab\'c'` / `"ab"` → the text, with the common escapes undone; None if not one quoted string.
fn unquote(v: &str) -> Option<String> {
    let q = v.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    if v.len() < 2 || !v.ends_with(q) {
        return None;
    }
    let body = &v[1..v.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                x => out.push(x),
            },
            // An unescaped quote inside means this is not a single string literal.
            c if c == q => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// A child's key in the JSON object: `'qty'` → `qty`, `[2]` → `2`.
fn key_of(name: &str) -> String {
    let n = name.trim();
    let n = n
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(n);
    unquote(n).unwrap_or_else(|| n.to_string())
}

/// Index of a child named like a sequence element (`0`, `03`, `[2]`); quoted keys are no index.
fn index_of(name: &str) -> Option<usize> {
    let n = name.trim();
    let n = n
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .unwrap_or(n);
    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| n.parse().ok())
        .flatten()
}

/// Children that are not program values.
fn synthetic(node: &ValueNode) -> bool {
    node.scope == ValueScope::Synthetic || node.name == "len()" || node.name.ends_with(" variables")
}

/// One fetched node, kept to give matches a variable path and an id.
struct Seen {
    node: ValueNode,
    path: String,
}

struct Fetch<'a> {
    c: &'a Call<'a>,
    sid: &'a str,
    max_children: u32,
    nodes: usize,
    /// The node budget ran out somewhere.
    incomplete: bool,
    /// Some value had more children than `max_children`.
    capped: bool,
    /// JSON pointer → fetched node.
    seen: HashMap<String, Seen>,
}

type Boxed<'a> = Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send + 'a>>;

impl<'a> Fetch<'a> {
    /// The JSON of `node` with `depth` levels of children, restricted to `names[0]` at the first
    /// level when the plan names it.
    fn tree<'b>(
        &'b mut self,
        node: ValueNode,
        path: String,
        pointer: String,
        depth: u32,
        names: &'b [String],
    ) -> Boxed<'b>
    where
        'a: 'b,
    {
        Box::pin(async move {
            let shown = values::visible(
                &self.c.cfg,
                &node.name,
                node.type_name.as_deref(),
                &node.value,
            );
            let handle = node.children_handle.clone().filter(|_| node.has_children);
            let rendered = shown.text;
            self.seen.insert(
                pointer.clone(),
                Seen {
                    node: node.clone(),
                    path: path.clone(),
                },
            );
            if shown.hidden {
                return Ok(json!(rendered));
            }
            let Some(handle) = handle.filter(|_| depth > 0) else {
                return Ok(if node.has_children {
                    json!(rendered)
                } else {
                    leaf_json(&rendered)
                });
            };
            let kids = match names.first() {
                Some(want) => self.find(&handle, want).await?.into_iter().collect(),
                None => self.page(&handle).await?,
            };
            let rest = if names.is_empty() { names } else { &names[1..] };
            let as_array = !kids.is_empty()
                && kids.iter().all(|k| index_of(&k.name).is_some())
                && names.is_empty();
            if as_array {
                let mut kids = kids;
                kids.sort_by_key(|k| index_of(&k.name));
                let mut arr = Vec::new();
                for (i, k) in kids.into_iter().enumerate() {
                    let p = child_path(&path, &k.name);
                    arr.push(
                        self.tree(k, p, format!("{pointer}/{i}"), depth - 1, rest)
                            .await?,
                    );
                }
                Ok(Value::Array(arr))
            } else {
                let mut obj = Map::new();
                for k in kids {
                    let key = key_of(&k.name);
                    let p = child_path(&path, &k.name);
                    let ptr = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                    let v = self.tree(k, p, ptr, depth - 1, rest).await?;
                    obj.insert(key, v);
                }
                Ok(Value::Object(obj))
            }
        })
    }

    async fn page(&mut self, handle: &str) -> Result<Vec<ValueNode>, ToolError> {
        let room = MAX_NODES.saturating_sub(self.nodes) as u32;
        if room == 0 {
            self.incomplete = true;
            return Ok(Vec::new());
        }
        let backend = self.c.engine.backend.clone();
        let page = self
            .c
            .bk(
                "children",
                backend.children(self.sid, handle, 0, self.max_children.min(room)),
            )
            .await?;
        self.nodes += page.children.len();
        // Without a total (some IDE values), a full page means there may be more.
        let more = page.total.map_or(
            page.children.len() as u32 >= self.max_children.min(room),
            |t| t > page.children.len() as u64,
        );
        if more {
            if self.max_children > room {
                self.incomplete = true;
            } else {
                self.capped = true;
            }
        }
        Ok(page
            .children
            .into_iter()
            .filter(|k| !synthetic(k))
            .collect())
    }

    /// The child named `want`, paging through the children (as expand_variable's paths do).
    async fn find(&mut self, handle: &str, want: &str) -> Result<Option<ValueNode>, ToolError> {
        let backend = self.c.engine.backend.clone();
        let mut offset = 0u32;
        while self.nodes < MAX_NODES {
            let page = self
                .c
                .bk("children", backend.children(self.sid, handle, offset, 200))
                .await?;
            self.nodes += page.children.len();
            if let Some(k) = page
                .children
                .iter()
                .find(|k| !synthetic(k) && name_matches(&k.name, want))
            {
                return Ok(Some(k.clone()));
            }
            offset += page.children.len() as u32;
            let last = page
                .total
                .map_or(page.children.len() < 200, |t| offset as u64 >= t);
            if page.children.is_empty() || last {
                return Ok(None);
            }
        }
        self.incomplete = true;
        Ok(None)
    }
}

/// Strings in a match longer than `max` characters are cut with "…" (the filter saw them whole).
fn shorten(v: &mut Value, max: usize) -> bool {
    match v {
        Value::String(s) if s.chars().count() > max => {
            *s = format!("{}…", s.chars().take(max).collect::<String>());
            true
        }
        Value::Array(a) => a.iter_mut().fold(false, |acc, x| shorten(x, max) | acc),
        Value::Object(o) => o.values_mut().fold(false, |acc, x| shorten(x, max) | acc),
        _ => false,
    }
}

/// expand_variable with `filter` (what inspect_variable was until issue 26 folded it in).
pub(super) async fn inspect(
    c: &mut Call<'_>,
    sid: &str,
    v: &ValueTarget,
    filter: String,
    offset: u32,
    limit: u32,
) -> Outcome<Inspected> {
    let sid = sid.to_string();
    // The query is checked before the debugger is asked anything.
    let query = JsonPath::parse(&filter).map_err(|e| {
        let pos = e.position();
        let pointer = format!("{}^", " ".repeat(pos.saturating_sub(1)));
        ToolError(format!(
            "invalid JSONPath filter at position {pos}: {}\n  {filter}\n  {pointer}\nExamples: '$.items[*].name', '$.items[?@.qty > 1]', '$..price'",
            e.message()
        ))
    })?;
    let t: ValueRef = target(c, &sid, v).await?;
    let plan = plan(&query);
    let depth = plan.reach.clamp(1, MAX_DEPTH);
    let root_node = ValueNode {
        name: t.name.clone(),
        value: t.value.clone(),
        type_name: t.type_name.clone(),
        has_children: t.children_handle.is_some(),
        children_handle: t.children_handle.clone(),
        set_handle: t.set_handle.clone(),
        child_count: t.child_count,
        ..Default::default()
    };
    let mut f = Fetch {
        c,
        sid: &sid,
        max_children: MAX_CHILDREN,
        nodes: 0,
        incomplete: false,
        capped: false,
        seen: HashMap::new(),
    };
    // Names beyond the depth are not fetched anyway.
    let names: Vec<String> = plan.names.iter().take(depth as usize).cloned().collect();
    let tree = f
        .tree(root_node, t.path.clone(), String::new(), depth, &names)
        .await?;
    let (incomplete, capped, seen) = (f.incomplete, f.capped, f.seen);

    let located = query.query_located(&tree);
    let total = located.len();
    let offset = offset as usize;
    let limit = limit.clamp(1, 200) as usize;
    let mut matches = Vec::new();
    let mut reads = Vec::new();
    let mut bytes = 0usize;
    let mut cut = false;
    let mut end = offset;
    for node in located.iter().skip(offset).take(limit) {
        let pointer = node.location().to_json_pointer();
        let mut value = node.node().clone();
        let shortened = shorten(&mut value, c.cfg.max_value_length);
        let (path, id) = match seen.get(&pointer) {
            Some(s) => {
                // An id to page this value further with expand_variable.
                let id = (s.node.has_children && s.node.children_handle.is_some())
                    .then(|| {
                        c.engine.with_state(|st| {
                            st.sessions.get_mut(&sid).map(|x| {
                                values::show(&c.cfg, &mut x.values, &s.node, s.path.clone()).1
                            })
                        })
                    })
                    .flatten();
                (s.path.clone(), id)
            }
            None => (node.location().to_string(), None),
        };
        // Leaves the agent saw go to the ledger under their variable path (history, summary).
        if let (Some(s), false) = (seen.get(&pointer), value.is_object() || value.is_array()) {
            let shown = match &value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            reads.push(ValueRead::new(
                ReadKind::Inspection,
                s.path.clone(),
                shown,
                s.node.type_name.clone(),
            ));
        }
        let m = Match {
            path,
            id,
            value,
            truncated: shortened,
        };
        let size = serde_json::to_string(&m).map(|s| s.len()).unwrap_or(0);
        if bytes + size > MAX_RESULT_BYTES && !matches.is_empty() {
            cut = true;
            break;
        }
        bytes += size;
        matches.push(m);
        end += 1;
    }
    let frame = v.frame_index.unwrap_or_else(|| {
        c.engine
            .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0))
    });
    let at = c.engine.at(&sid, None, frame);
    c.engine.ledger.record(&sid, &at, reads);
    let more = end < total;
    let mut out = Inspected {
        session_id: sid,
        variable: Inspectee {
            name: t.name.clone(),
            path: t.path.clone(),
        },
        filter: filter.clone(),
        depth,
        matches,
        total: total as u64,
        offset: offset as u64,
        truncated: more,
        next_offset: more.then_some(end as u64),
        message: None,
    };
    let mut notes = Vec::new();
    if cut {
        notes.push(format!(
            "answer limited to {MAX_RESULT_BYTES} bytes; call again with offset {end}"
        ));
    }
    if plan.reach > depth {
        notes.push(format!("the filter reaches {} levels below '{}' but only {depth} were fetched; inspect a deeper path", plan.reach, t.path));
    } else if plan.descendant {
        notes.push(format!("values deeper than {MAX_DEPTH} levels are shown as their rendering; inspect a deeper path to filter inside them"));
    }
    if capped {
        notes.push(format!("some values have more than {MAX_CHILDREN} children; only the first {MAX_CHILDREN} were searched: inspect a deeper path or page it with expand_variable"));
    }
    if incomplete {
        notes.push(format!(
            "stopped fetching after {MAX_NODES} values; narrow the filter or inspect a deeper path"
        ));
    }
    if total == 0 && notes.is_empty() {
        notes.push(format!(
            "no match for {filter} in '{}'; call without filter to see its shape",
            t.path
        ));
    }
    if !notes.is_empty() {
        out.message = Some(notes.join("; "));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(q: &str) -> Plan {
        plan(&JsonPath::parse(q).unwrap())
    }

    #[test]
    fn plans_fetch_named_branches_and_enough_depth() {
        assert_eq!(
            p("$.items[?@.qty > 1].name"),
            Plan {
                names: vec!["items".into()],
                reach: 3,
                descendant: false
            }
        );
        assert_eq!(
            p("$.a.b.c.d"),
            Plan {
                names: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                reach: 4,
                descendant: false
            }
        );
        assert_eq!(
            p("$['order'].customer"),
            Plan {
                names: vec!["order".into(), "customer".into()],
                reach: 2,
                descendant: false
            }
        );
        assert_eq!(
            p("$..price"),
            Plan {
                names: vec![],
                reach: 3,
                descendant: true
            }
        );
        assert_eq!(
            p("$.a..b"),
            Plan {
                names: vec!["a".into()],
                reach: 3,
                descendant: true
            }
        );
        assert_eq!(
            p("$[*].x"),
            Plan {
                names: vec![],
                reach: 2,
                descendant: false
            }
        );
        assert_eq!(
            p("$"),
            Plan {
                names: vec![],
                reach: 0,
                descendant: false
            }
        );
        assert_eq!(
            p("$[?@.a.b == 1]"),
            Plan {
                names: vec![],
                reach: 3,
                descendant: false
            }
        );
        assert_eq!(
            p("$[0]"),
            Plan {
                names: vec![],
                reach: 1,
                descendant: false
            }
        );
    }

    #[test]
    fn leaves_map_to_json_where_unambiguous() {
        assert_eq!(leaf_json("42"), json!(42));
        assert_eq!(leaf_json("-3"), json!(-3));
        assert_eq!(leaf_json("2.5"), json!(2.5));
        assert_eq!(leaf_json("True"), json!(true));
        assert_eq!(leaf_json("false"), json!(false));
        assert_eq!(leaf_json("None"), Value::Null);
        assert_eq!(leaf_json("'it\\'s'"), json!("it's"));
        assert_eq!(leaf_json("\"ab\""), json!("ab"));
        assert_eq!(leaf_json("0x4006f4 \"hello\""), json!("hello"));
        assert_eq!(leaf_json("nan"), json!("nan"));
        assert_eq!(leaf_json("97 'a'"), json!("97 'a'"));
        assert_eq!(leaf_json("'a' + 'b'"), json!("'a' + 'b'"));
        assert_eq!(leaf_json("<object at 0x7f>"), json!("<object at 0x7f>"));
    }

    #[test]
    fn child_names_become_keys_and_indices() {
        assert_eq!(key_of("'qty'"), "qty");
        assert_eq!(key_of("[2]"), "2");
        assert_eq!(index_of("03"), Some(3));
        assert_eq!(index_of("[1]"), Some(1));
        assert_eq!(index_of("'1'"), None);
        assert_eq!(index_of("qty"), None);
    }
}
