//! A search over a sequence in one expression (issue 26): agents looking for the one record of
//! 300 that triggers a bug wrote a gdb Python loop because expressions have none.
//!
//! - `EXPR for VAR in A..B [if COND]`: VAR takes the integers A ≤ VAR < B (A and B are integer
//!   literals or expressions the debugger evaluates once); where COND (if given) is true, EXPR
//!   is evaluated. Each with VAR replaced by the number.
//! - `EXPR for VAR in FIRST, NEXT [if COND]` (C/C++ only): VAR is FIRST, then NEXT evaluated
//!   with VAR, until null; VAR is replaced by the pointer written with its type,
//!   `((struct node *) 0x5555…)`.
//!
//! `..` is no operator in C, C++, Go, Python or PHP, so only a top-level ` for ` followed by
//! this shape is taken: a comprehension (`[x for x in xs]`) is inside brackets and stays the
//! language's. Every element is one backend `evaluate` (the IDE's, gdb's, debugpy's alike); the
//! side-effect guard checks the parts once, before anything runs (expression_guard::check).

use super::context::{Call, ToolError};
use super::values;
use crate::backend::{EvalRequest, ValueNode};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Elements visited at most.
pub const MAX_VISITED: u64 = 10_000;
/// Rows shown at most.
pub const MAX_ROWS: usize = 50;
/// Characters of row values a search's answer holds in all (half of an evaluation's whole
/// string: the summary line and the labels take the rest).
const ROWS_ROOM: usize = crate::backend::WHOLE_STRING_CHARS / 2;

/// A matched element's value as shown, before its cut.
struct Row {
    text: String,
    redacted: bool,
    /// The value's real length when the debugger cut it.
    length: Option<u64>,
}
/// The whole search's time bound (each evaluation also has the backend timeout).
pub const TIME_BOUND: Duration = Duration::from_secs(20);
/// A watch's: it is evaluated again at every stop.
pub const WATCH_BOUND: Duration = Duration::from_secs(2);

/// When a search must stop, and how its answer names that bound. The caller's (a watch's, a
/// capture's deadline, one budget shared by a batch) or a search's own [`TIME_BOUND`],
/// whichever ends first.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    pub at: Instant,
    pub what: &'static str,
}

impl Deadline {
    /// One search alone: [`TIME_BOUND`].
    pub fn search() -> Self {
        Deadline {
            at: Instant::now() + TIME_BOUND,
            what: "the time bound of 20 s",
        }
    }
    /// Expressions asked at once: the searches among them share one [`TIME_BOUND`].
    pub fn batch() -> Self {
        Deadline {
            at: Instant::now() + TIME_BOUND,
            what: "the time bound of 20 s the batch's expressions share",
        }
    }
    /// A watch, evaluated at every stop: [`WATCH_BOUND`].
    pub fn watch() -> Self {
        Deadline {
            at: Instant::now() + WATCH_BOUND,
            what: "a watch's time bound of 2 s (it runs at every stop; evaluate_expression allows 20 s)",
        }
    }
    /// A capture's own deadline (its timeout_ms).
    pub fn capture(at: Instant) -> Self {
        Deadline {
            at,
            what: "the capture's deadline (its timeout_ms)",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    pub expr: String,
    pub var: String,
    pub over: Over,
    pub cond: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Over {
    /// `A..B`: the bounds as written.
    Range(String, String),
    /// `FIRST, NEXT`.
    Walk(String, String),
}

impl Scan {
    /// The parts the debugger evaluates, named as an error names them.
    pub fn parts(&self) -> Vec<(&'static str, &str)> {
        let mut v = vec![("the expression", self.expr.as_str())];
        if let Some(c) = &self.cond {
            v.push(("the condition", c.as_str()));
        }
        match &self.over {
            Over::Range(a, b) => {
                v.push(("the range's start", a.as_str()));
                v.push(("the range's end", b.as_str()));
            }
            Over::Walk(f, n) => {
                v.push(("the walk's first", f.as_str()));
                v.push(("the walk's next", n.as_str()));
            }
        }
        v
    }
}

/// For each byte of `text` that starts a character: whether it is code at bracket depth 0
/// (outside string and char literals and outside `()[]{}`), and whether it is code at all.
fn classify(text: &str) -> Vec<(usize, char, bool, bool)> {
    let mut out = Vec::with_capacity(text.len());
    let mut depth: i32 = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev: Option<char> = None;
    for (i, ch) in text.char_indices() {
        if let Some(q) = quote {
            out.push((i, ch, false, false));
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == q {
                quote = None;
            }
            prev = Some(ch);
            continue;
        }
        match ch {
            // A `'` after a digit is C++'s digit separator (1'000), not a quote.
            '"' => quote = Some(ch),
            '\'' if !prev.is_some_and(|p| p.is_ascii_digit()) => quote = Some(ch),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        let opening = quote.is_some();
        let top = depth == 0 && !opening && !matches!(ch, '(' | '[' | '{');
        out.push((i, ch, top, !opening));
        prev = Some(ch);
    }
    out
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offset of the first top-level whole word `word` in `text` with whitespace (or the
/// text's edge) on both sides.
fn top_word(text: &str, word: &str, from: usize) -> Option<usize> {
    let cls = classify(text);
    let bytes = text.as_bytes();
    cls.iter().find_map(|&(i, _, top, _)| {
        if i < from || !top || !text[i..].starts_with(word) {
            return None;
        }
        let before = i == 0 || (bytes[i - 1] as char).is_whitespace();
        let end = i + word.len();
        let after = end == text.len() || (bytes[end] as char).is_whitespace();
        (before && after).then_some(i)
    })
}

/// `text` as a search, if it is one: None when it is no `EXPR for VAR in A..B` or
/// `EXPR for VAR in FIRST, NEXT` at the top level (the language's own text, left alone);
/// Some(Err) when it is one but a part is missing.
pub fn parse(text: &str) -> Option<Result<Scan, String>> {
    let mut from = 0;
    // The first top-level ` for ` followed by `VAR in`: the shape decides, not the word.
    let (expr, var, tail) = loop {
        let at = top_word(text, "for", from)?;
        from = at + 3;
        let rest = text[at + 3..].trim_start();
        let var_len = rest
            .char_indices()
            .take_while(|&(i, c)| ident_char(c) || (i == 0 && c == '$'))
            .map(|(i, c)| i + c.len_utf8())
            .last()
            .unwrap_or(0);
        let var = &rest[..var_len];
        let after = &rest[var_len..];
        let valid_var = var
            .trim_start_matches('$')
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if !valid_var || !after.starts_with(char::is_whitespace) {
            continue;
        }
        let Some(tail) = after.trim_start().strip_prefix("in") else {
            continue;
        };
        if !tail.starts_with(char::is_whitespace) {
            continue;
        }
        break (text[..at].trim(), var.to_string(), tail.trim());
    };
    let (source, cond) = match top_word(tail, "if", 0) {
        Some(i) => (tail[..i].trim(), Some(tail[i + 2..].trim())),
        None => (tail, None),
    };
    let cls = classify(source);
    let top: Vec<(usize, char)> = cls
        .iter()
        .filter(|c| c.2)
        .map(|&(i, ch, _, _)| (i, ch))
        .collect();
    let dots = top
        .windows(2)
        .position(|w| w[0].1 == '.' && w[1].1 == '.' && w[1].0 == w[0].0 + 1);
    let over = match dots {
        // `...` (a Python Ellipsis, a C variadic) is not the form.
        Some(k)
            if top
                .get(k + 2)
                .is_some_and(|c| c.1 == '.' && c.0 == top[k].0 + 2) =>
        {
            return None;
        }
        Some(k) => {
            let at = top[k].0;
            Over::Range(
                source[..at].trim().to_string(),
                source[at + 2..].trim().to_string(),
            )
        }
        None => {
            let commas: Vec<usize> = top.iter().filter(|c| c.1 == ',').map(|c| c.0).collect();
            match commas.as_slice() {
                [] => return None,
                [at] => Over::Walk(
                    source[..*at].trim().to_string(),
                    source[at + 1..].trim().to_string(),
                ),
                _ => {
                    return Some(Err(format!(
                        "`{source}`: a walk is `FIRST, NEXT` (two parts), e.g. `n->name for n in list->head, n->next`"
                    )));
                }
            }
        }
    };
    let scan = Scan {
        expr: expr.to_string(),
        var,
        over,
        cond: cond.map(str::to_string),
    };
    if let Some((what, _)) = scan.parts().into_iter().find(|(_, p)| p.is_empty()) {
        return Some(Err(format!(
            "{what} is empty: write `EXPR for VAR in A..B [if COND]` (e.g. `recs[i].name for i in 0..n_recs if recs[i].cp == 7`) or, on C/C++, `EXPR for VAR in FIRST, NEXT [if COND]`"
        )));
    }
    Some(Ok(scan))
}

/// `text` with the variable `var` replaced by `by`: whole words only, outside string and char
/// literals, and not a member of the same name (after `.`, `->` or `::`).
pub fn substitute(text: &str, var: &str, by: &str) -> String {
    let cls = classify(text);
    let mut out = String::with_capacity(text.len() + by.len());
    let mut k = 0;
    while k < cls.len() {
        let (i, ch, _, code) = cls[k];
        let starts_word = ident_char(ch) || ch == '$';
        if !code || !starts_word {
            out.push(ch);
            k += 1;
            continue;
        }
        // The whole token (a number's letters, `0x1f`, are part of it, never a name).
        let mut j = k + 1;
        while j < cls.len() && cls[j].3 && ident_char(cls[j].1) {
            j += 1;
        }
        let end = cls.get(j).map_or(text.len(), |c| c.0);
        let word = &text[i..end];
        let before = text[..i].trim_end();
        // `$i` after `.` is PHP's concatenation (`$a . $i`), never a member.
        let member = before.ends_with('.') && !before.ends_with("..") && ch != '$'
            || before.ends_with("->")
            || before.ends_with("::");
        if word == var && !member {
            out.push_str(by);
        } else {
            out.push_str(word);
        }
        k = j;
    }
    out
}

/// A cast gdb writes before a value, `(struct node *) 0x55…` → `0x55…`, and the cast's type.
fn uncast(v: &str) -> (Option<&str>, &str) {
    let v = v.trim();
    if let Some(rest) = v.strip_prefix('(')
        && let Some(close) = rest.find(')')
    {
        let after = rest[close + 1..].trim_start();
        if !after.is_empty() {
            return (Some(rest[..close].trim()), after);
        }
    }
    (None, v)
}

/// A value's type as shown, split into the type and the note of the macros expanded to
/// evaluate it (`int; BUMP → (counter += 1) (macro, rv.c:5)`; a note alone when the debugger
/// gave no type).
fn type_and_note(t: &str) -> (Option<&str>, Option<&str>) {
    let t = t.trim();
    let Some(arrow) = t.find(" → ") else {
        return ((!t.is_empty()).then_some(t), None);
    };
    match t[..arrow].rfind("; ") {
        Some(semi) => (
            Some(t[..semi].trim()).filter(|ty| !ty.is_empty()),
            Some(&t[semi + 2..]),
        ),
        None => (None, Some(t)),
    }
}

/// The type a walk's pointer is cast to: `ty` as the debugger named it, or `__typeof__(FIRST)`
/// where that name cannot be written back (a type in an anonymous namespace,
/// `(anonymous namespace)::Node *`: gdb reads `(anonymous` as a symbol). gdb and lldb (clang)
/// both accept `__typeof__`.
fn cast_type(ty: &str, first: &str) -> String {
    if ty.contains("(anonymous") || ty.contains("{lambda") || ty.contains("<lambda") {
        format!("__typeof__({first})")
    } else {
        ty.to_string()
    }
}

/// The leading integer of a value: `300`, `0x12c`, gdb's char `65 'A'`, `-1`.
pub fn integer(v: &str) -> Option<i64> {
    let (_, v) = uncast(v);
    let first = v.split_whitespace().next()?;
    let (neg, digits) = match first.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, first),
    };
    let n = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => digits.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()?,
    };
    Some(if neg { -n } else { n })
}

/// A pointer's address: `0x5555…`, `0x5555… <sym>`, `(T *) 0x0`, `NULL`, `nullptr`.
pub fn address(v: &str) -> Option<u64> {
    let (_, v) = uncast(v);
    let first = v.split_whitespace().next()?;
    match first {
        "0" | "NULL" | "nullptr" | "nil" | "None" => return Some(0),
        _ => {}
    }
    let h = first
        .strip_prefix("0x")
        .or_else(|| first.strip_prefix("0X"))?;
    u64::from_str_radix(h, 16).ok()
}

/// A condition's value as true/false: `true`/`True`, a non-zero number or pointer; None when
/// it is neither (a string, a struct).
pub fn truth(v: &str) -> Option<bool> {
    let t = v.trim();
    match t {
        "true" | "True" | "TRUE" => return Some(true),
        "false" | "False" | "FALSE" | "None" | "null" | "NULL" | "nil" | "nullptr" => {
            return Some(false);
        }
        _ => {}
    }
    if let Some(a) = address(t) {
        return Some(a != 0);
    }
    if let Some(n) = integer(t) {
        return Some(n != 0);
    }
    let (_, rest) = uncast(t);
    rest.split_whitespace()
        .next()
        .and_then(|f| f.parse::<f64>().ok())
        .map(|f| f != 0.0)
}

/// A walk follows pointers: C and C++ only (gdb, lldb). A frame in another language refuses it.
fn walk_refused(file: Option<&str>) -> Option<&'static str> {
    let ext = file
        .and_then(|f| std::path::Path::new(f).extension())
        .and_then(|e| e.to_str())?;
    match ext {
        "py" | "pyw" => {
            Some("in Python write a comprehension, e.g. `[n.name for n in nodes if n.cp == 7]`")
        }
        "php" | "phtml" | "inc" => {
            Some("in PHP use array_filter/array_map, or the range form over an array")
        }
        "go" => {
            Some("in Go use the range form over a slice, e.g. `recs[i].Name for i in 0..len(recs)`")
        }
        "java" | "kt" | "kts" | "scala" | "groovy" | "js" | "ts" | "rb" => {
            Some("use the range form over an index")
        }
        _ => None,
    }
}

/// Evaluates `request`: a search when its expression is one (see the module doc), else the
/// backend's evaluate as is. `file`: the frame's source, for its language.
pub async fn evaluate(
    c: &Call<'_>,
    sid: &str,
    request: EvalRequest,
    file: Option<&str>,
    deadline: Deadline,
) -> Result<ValueNode, ToolError> {
    let backend = c.engine.backend.clone();
    let scan = match parse(&request.expression) {
        None => return c.bk("evaluate", backend.evaluate(sid, request)).await,
        Some(Err(e)) => return Err(ToolError(format!("`{}`: {e}", request.expression))),
        Some(Ok(s)) => s,
    };
    if matches!(scan.over, Over::Walk(..))
        && let Some(instead) = walk_refused(file)
    {
        return Err(ToolError(format!(
            "`{}`: the linked walk `EXPR for VAR in FIRST, NEXT` follows C/C++ pointers (gdb, lldb); {instead}. The range form `EXPR for VAR in A..B [if COND]` works everywhere",
            request.expression
        )));
    }
    Runner {
        c,
        sid,
        request: &request,
        scan: &scan,
        file,
        deadline: if deadline.at <= Instant::now() + TIME_BOUND {
            deadline
        } else {
            Deadline::search()
        },
        note: Default::default(),
        previews: (super::preview::PER_RESULT as i64).into(),
    }
    .run()
    .await
}

struct Runner<'a, 'c> {
    c: &'a Call<'c>,
    sid: &'a str,
    request: &'a EvalRequest,
    scan: &'a Scan,
    file: Option<&'a str>,
    deadline: Deadline,
    /// The first macro note a value's type carried (`X → body (macro, f.c:3)`), for the summary.
    note: std::sync::Mutex<Option<String>>,
    /// Rows whose struct or array may still be previewed (a read of its children each).
    previews: std::sync::atomic::AtomicI64,
}

/// Why a search ended before its sequence did.
enum Stop {
    Error(String, String),
    Visited(String),
    Time(String),
    Cycle(String),
}

impl Runner<'_, '_> {
    /// One evaluation of `expression` in the request's frame; `format` for EXPR only.
    async fn eval(&self, expression: String, formatted: bool) -> Result<ValueNode, String> {
        // The parts were checked before anything ran, but VAR's replacement can make a call of
        // what was none (`xs.pop i` → `xs.pop (-1)`, `f n` → `f ((T *) 0x…)`): each text sent
        // is checked as the caller checks an expression.
        if !self.request.allow_side_effects {
            super::expression_guard::check(&expression, &self.c.cfg.expression_safety, self.file)
                .map_err(|e| format!("the side-effect guard refused it: {}", e.0))?;
        }
        let req = EvalRequest {
            expression,
            format: if formatted {
                self.request.format.clone()
            } else {
                None
            },
            ..self.request.clone()
        };
        let backend = self.c.engine.backend.clone();
        self.c
            .bk("evaluate", backend.evaluate(self.sid, req))
            .await
            // The debugger's words: the search already says what was evaluated.
            .map_err(|e| {
                e.0.strip_prefix("evaluate failed: ")
                    .map_or_else(|| e.0.clone(), str::to_string)
            })
            .inspect(|v| {
                if let Some(n) = v.type_name.as_deref().and_then(|t| type_and_note(t).1)
                    && let Ok(mut kept) = self.note.lock()
                    && kept.is_none()
                {
                    *kept = Some(n.to_string());
                }
            })
    }

    async fn bound(&self, what: &str, text: &str) -> Result<i64, ToolError> {
        if let Some(n) = integer(text).filter(|_| !text.trim().contains(char::is_whitespace)) {
            return Ok(n);
        }
        let v = self.eval(text.to_string(), false).await.map_err(|e| {
            ToolError(format!(
                "`{}`: {what} `{text}` could not be evaluated: {e}",
                self.request.expression
            ))
        })?;
        integer(&v.value).ok_or_else(|| {
            ToolError(format!(
                "`{}`: {what} `{text}` is `{}`, not an integer",
                self.request.expression, v.value
            ))
        })
    }

    /// Whether the element `by` (VAR's replacement) matches, and its row when it does and
    /// `row` asks for one.
    async fn element(&self, by: &str, row: bool) -> Result<(bool, Option<Row>), String> {
        if let Some(cond) = &self.scan.cond {
            let v = self
                .eval(substitute(cond, &self.scan.var, by), false)
                .await?;
            match truth(&v.value) {
                Some(true) => {}
                Some(false) => return Ok((false, None)),
                None => {
                    return Err(format!(
                        "the condition `{cond}` is `{}`, not true/false or a number; write a comparison",
                        v.value
                    ));
                }
            }
        }
        if !row {
            return Ok((true, None));
        }
        let text = substitute(&self.scan.expr, &self.scan.var, by);
        let mut v = self.eval(text.clone(), true).await?;
        let cfg = &self.c.cfg;
        // A row is read like a print: a struct or array shows its contents (gdb's `*p@n` is
        // `[3 items]` alone), for the first rows (each preview is a read of its children).
        if self
            .previews
            .fetch_sub(1, std::sync::atomic::Ordering::Relaxed)
            > 0
            && let Some(p) = super::preview::preview(self.c, self.sid, &v).await
        {
            v.value = p.text;
            v.value_length = None;
        }
        let seen = values::visible(cfg, &text, v.type_name.as_deref(), &v.value);
        Ok((
            true,
            Some(Row {
                length: v.value_length.filter(|_| !seen.hidden),
                text: seen.text,
                redacted: seen.redacted,
            }),
        ))
    }

    async fn run(&self) -> Result<ValueNode, ToolError> {
        let var = &self.scan.var;
        // (label, value), cut to their share of the room once their number is known.
        let mut rows: Vec<(String, Row)> = Vec::new();
        let (mut visited, mut matched) = (0u64, 0u64);
        let mut stop = None;
        let mut header;
        // Without a condition every element is a row: the rows bound ends the search.
        let unfiltered = self.scan.cond.is_none();
        match &self.scan.over {
            Over::Range(a, b) => {
                let from = self.bound("the range's start", a).await?;
                let to = self.bound("the range's end", b).await?;
                header = format!("{var} in {from}..{to}");
                let mut i = from;
                while i < to {
                    if let Some(s) = self.limits(visited, &format!("{var}={i}"), Some((i, to))) {
                        stop = Some(s);
                        break;
                    }
                    if unfiltered && rows.len() == MAX_ROWS {
                        break;
                    }
                    let by = if i < 0 {
                        format!("({i})")
                    } else {
                        i.to_string()
                    };
                    visited += 1;
                    match self.element(&by, rows.len() < MAX_ROWS).await {
                        Ok((true, row)) => {
                            matched += 1;
                            if let Some(r) = row {
                                rows.push((format!("{var}={i}"), r));
                            }
                        }
                        Ok((false, _)) => {}
                        Err(e) if visited == 1 => {
                            return Err(ToolError(format!(
                                "`{}`: at {var}={i}: {e}",
                                self.request.expression
                            )));
                        }
                        Err(e) => {
                            stop = Some(Stop::Error(format!("{var}={i}"), e));
                            break;
                        }
                    }
                    i += 1;
                }
                if unfiltered && rows.len() == MAX_ROWS && i < to && stop.is_none() {
                    header.push_str(&format!(
                        " (rows bound: the first {MAX_ROWS} shown; continue with {i}..{to}, or add `if COND`)"
                    ));
                }
            }
            Over::Walk(first, next) => {
                let start = self.eval(first.clone(), false).await.map_err(|e| {
                    ToolError(format!(
                        "`{}`: the walk's first `{first}` could not be evaluated: {e}",
                        self.request.expression
                    ))
                })?;
                let pointer = |v: &ValueNode, what: &str| -> Result<(String, u64), String> {
                    let (cast, _) = uncast(&v.value);
                    // The type only: a macro's note after it (`T; X → body (macro, f.c:3)`)
                    // is no part of a cast.
                    let ty = v
                        .type_name
                        .as_deref()
                        .and_then(|t| type_and_note(t).0)
                        .or(cast)
                        .map(str::to_string);
                    match (address(&v.value), ty) {
                        (Some(a), Some(t)) => Ok((t, a)),
                        _ => Err(format!(
                            "{what} is `{}`{}, not a pointer; a walk follows pointers (write `&x` for a struct)",
                            v.value,
                            v.type_name
                                .as_deref()
                                .map(|t| format!(" of type {t}"))
                                .unwrap_or_default()
                        )),
                    }
                };
                let (mut ty, mut at) = pointer(&start, &format!("the walk's first `{first}`"))
                    .map_err(|e| ToolError(format!("`{}`: {e}", self.request.expression)))?;
                header = format!("{var} from {first} by {next}");
                let mut seen: HashMap<u64, u64> = HashMap::new();
                let mut n = 0u64;
                while at != 0 {
                    let label = format!("#{n} {var}=0x{at:x}");
                    if let Some(s) = self.limits(visited, &label, None) {
                        stop = Some(s);
                        break;
                    }
                    if let Some(k) = seen.get(&at) {
                        stop = Some(Stop::Cycle(format!(
                            "#{n} is 0x{at:x}, the node visited at #{k}"
                        )));
                        break;
                    }
                    if unfiltered && rows.len() == MAX_ROWS {
                        header.push_str(&format!(
                            " (rows bound: the first {MAX_ROWS} shown; add `if COND` to find one further on)"
                        ));
                        break;
                    }
                    seen.insert(at, n);
                    let by = format!("(({}) 0x{at:x})", cast_type(&ty, first));
                    visited += 1;
                    let step = async {
                        let (hit, row) = self.element(&by, rows.len() < MAX_ROWS).await?;
                        let v = self.eval(substitute(next, var, &by), false).await?;
                        let (t, a) = pointer(&v, &format!("the walk's next `{next}`"))?;
                        Ok::<_, String>((hit, row, t, a))
                    };
                    match step.await {
                        Ok((hit, row, t, a)) => {
                            if hit {
                                matched += 1;
                                if let Some(r) = row {
                                    rows.push((format!("#{n} {var}=0x{at:x}"), r));
                                }
                            }
                            (ty, at) = (t, a);
                        }
                        Err(e) if visited == 1 => {
                            return Err(ToolError(format!(
                                "`{}`: at {label}: {e}",
                                self.request.expression
                            )));
                        }
                        Err(e) => {
                            stop = Some(Stop::Error(label, e));
                            break;
                        }
                    }
                    n += 1;
                }
            }
        }
        let mut summary = format!(
            "{header}: visited {}, matched {}",
            values::thousands(visited),
            values::thousands(matched)
        );
        if matched as usize > rows.len() && !unfiltered {
            summary.push_str(&format!(
                " (the first {} shown; narrow the condition or the range)",
                rows.len()
            ));
        }
        if let Some(n) = self.note.lock().ok().and_then(|n| n.clone()) {
            summary.push_str(&format!(" ({n})"));
        }
        match stop {
            None => {}
            Some(Stop::Error(at, e)) => {
                summary.push_str(&format!("; stopped early at {at}: {e}"));
            }
            Some(Stop::Visited(at)) => summary.push_str(&format!(
                "; stopped early at {at}: the bound of {} elements visited",
                values::thousands(MAX_VISITED)
            )),
            Some(Stop::Time(at)) => {
                summary.push_str(&format!("; stopped early at {at}: {}", self.deadline.what))
            }
            Some(Stop::Cycle(what)) => {
                summary.push_str(&format!("; stopped: a cycle, {what}"));
            }
        }
        let mut value = summary;
        // One match is read whole, as the expression alone would be (a CR's description was
        // cut at 200 characters, and a read that had detached left no session to ask again);
        // many share the room, each at least the settings' max_value_length.
        let room = (ROWS_ROOM / rows.len().max(1)).max(self.c.cfg.max_value_length);
        for (label, r) in rows {
            let s = values::shown_of(&r.text, room, r.redacted, r.length);
            value.push('\n');
            value.push_str(&format!("{label}: {}", s.value));
        }
        Ok(ValueNode {
            name: self.request.expression.clone(),
            value,
            ..Default::default()
        })
    }

    /// The bound reached before visiting `at`, if one is.
    fn limits(&self, visited: u64, at: &str, range: Option<(i64, i64)>) -> Option<Stop> {
        let rest = range
            .map(|(i, to)| format!(" (continue with {i}..{to})"))
            .unwrap_or_default();
        if visited >= MAX_VISITED {
            return Some(Stop::Visited(format!("{at}{rest}")));
        }
        if Instant::now() >= self.deadline.at {
            return Some(Stop::Time(format!("{at}{rest}")));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Scan {
        parse(text).expect("a search").expect("parses")
    }

    #[test]
    fn the_range_and_walk_forms_parse_and_other_text_is_left_alone() {
        let s = scan("recs[i].name for i in 0..n_recs if recs[i].cp == 0x11a7");
        assert_eq!(s.expr, "recs[i].name");
        assert_eq!(s.var, "i");
        assert_eq!(s.over, Over::Range("0".into(), "n_recs".into()));
        assert_eq!(s.cond.as_deref(), Some("recs[i].cp == 0x11a7"));
        let s = scan("recs[i] for i in 0 .. roster.count");
        assert_eq!(s.over, Over::Range("0".into(), "roster.count".into()));
        assert_eq!(s.cond, None);
        let s = scan("n->name for n in list->head, n->next if n->v > 2");
        assert_eq!(s.over, Over::Walk("list->head".into(), "n->next".into()));
        assert_eq!(s.cond.as_deref(), Some("n->v > 2"));
        let s = scan("$recs[$i]['id'] for $i in 0..count($recs)");
        assert_eq!(s.var, "$i");
        assert_eq!(s.over, Over::Range("0".into(), "count($recs)".into()));
        // The language's own text: comprehensions, generator arguments, `for` in a string,
        // a plain name `format`, Python's Ellipsis.
        for text in [
            "[x for x in xs]",
            "[x for x in range(0, 3) if x]",
            "sum(1 for x in xs if x > 0)",
            "{k: v for k, v in d.items()}",
            "f(\"a for i in 0..3\")",
            "formatter.for_each",
            "x for x in xs",
            "x for x in range(0, 3)",
            "x[...] for x in a...b",
            "'for i in 0..3'",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }

    #[test]
    fn missing_parts_are_named() {
        let e = parse(" for i in 0..3").unwrap().unwrap_err();
        assert!(e.contains("the expression is empty"), "{e}");
        let e = parse("a[i] for i in ..3").unwrap().unwrap_err();
        assert!(e.contains("the range's start is empty"), "{e}");
        let e = parse("a[i] for i in 0..n if ").unwrap().unwrap_err();
        assert!(e.contains("the condition is empty"), "{e}");
        let e = parse("p->v for p in a, b, c").unwrap().unwrap_err();
        assert!(e.contains("two parts"), "{e}");
    }

    #[test]
    fn the_variable_is_replaced_whole_outside_literals_and_members() {
        let s = |t: &str| substitute(t, "i", "17");
        assert_eq!(s("recs[i].name"), "recs[17].name");
        assert_eq!(
            s("recs[i].i + obj->i + ns::i + i"),
            "recs[17].i + obj->i + ns::i + 17"
        );
        assert_eq!(s("idx + i2 + xi + i"), "idx + i2 + xi + 17");
        assert_eq!(
            s("strcmp(name[i], \"i\") == 'i'"),
            "strcmp(name[17], \"i\") == 'i'"
        );
        assert_eq!(s("\"a\\\"i\" + i"), "\"a\\\"i\" + 17");
        assert_eq!(s("a[i] . i"), "a[17] . i");
        assert_eq!(s("0xi1 + i"), "0xi1 + 17");
        assert_eq!(substitute("$a[$i] + $i2 + i", "$i", "3"), "$a[3] + $i2 + i");
        assert_eq!(
            substitute("$recs[$i]->name . '#' . $i", "$i", "3"),
            "$recs[3]->name . '#' . 3"
        );
        assert_eq!(substitute("$a.$i", "$i", "3"), "$a.3");
        assert_eq!(
            substitute("n->next", "n", "((struct node *) 0x10)"),
            "((struct node *) 0x10)->next"
        );
    }

    #[test]
    fn the_guard_passes_the_texts_a_search_sends_that_call_nothing() {
        let cfg = crate::config::ExpressionSafetyConfig::default();
        for (text, file) in [
            ("((struct node *) 0x5555)->next", "main.c"),
            ("((__typeof__(head)) 0x10)->v", "main.cpp"),
            ("numbers[(-1)] > 2", "main.py"),
        ] {
            let r = super::super::expression_guard::check(text, &cfg, Some(file));
            assert!(r.is_ok(), "{text}: {r:?}");
        }
    }

    #[test]
    fn a_walk_casts_to_the_type_alone() {
        assert_eq!(
            type_and_note("struct node *"),
            (Some("struct node *"), None)
        );
        assert_eq!(
            type_and_note("struct node *; HEAD → (&n1) (macro, rv.c:7)"),
            (Some("struct node *"), Some("HEAD → (&n1) (macro, rv.c:7)"))
        );
        assert_eq!(
            type_and_note("A → 1 (macro, a.c:1); B → 2 (macro, a.c:2)"),
            (None, Some("A → 1 (macro, a.c:1); B → 2 (macro, a.c:2)"))
        );
        assert_eq!(cast_type("struct node *", "head"), "struct node *");
        assert_eq!(
            cast_type("(anonymous namespace)::Node *", "head"),
            "__typeof__(head)"
        );
    }

    #[test]
    fn values_read_as_integers_pointers_and_truth() {
        assert_eq!(integer("300"), Some(300));
        assert_eq!(integer("0x12c"), Some(300));
        assert_eq!(integer("65 'A'"), Some(65));
        assert_eq!(integer("-2"), Some(-2));
        assert_eq!(integer("'abc'"), None);
        assert_eq!(address("0x5555555592a0"), Some(0x5555555592a0));
        assert_eq!(address("(struct node *) 0x0"), Some(0));
        assert_eq!(address("0x4010 <nodes+16>"), Some(0x4010));
        assert_eq!(address("{v = 1}"), None);
        for (v, t) in [
            ("true", Some(true)),
            ("False", Some(false)),
            ("1", Some(true)),
            ("0", Some(false)),
            ("0x0", Some(false)),
            ("0 '\\000'", Some(false)),
            ("None", Some(false)),
            ("0.5", Some(true)),
            ("'abc'", None),
        ] {
            assert_eq!(truth(v), t, "{v}");
        }
    }
}
