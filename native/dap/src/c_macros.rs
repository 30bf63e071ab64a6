//! Object-like C macros in an expression (issue 26). An agent at a stop in json-c's
//! json_tokener.c wrote `state`, which there is `#define state tok->stack[tok->depth].state`;
//! gdb said `No symbol "state" in current context`. Code built with -g (not -g3) carries no
//! macro information, so gdb's `info macro` / `macro expand` know nothing of it: the macro is
//! read from the source instead — the paused frame's file, then the headers it includes with
//! `#include "…"` (relative to its directory, one level), bounded reads — and the expression
//! evaluated again with the name replaced by `(body)`, for up to [`MAX_MACROS`] names (a body
//! naming another macro is expanded at the next failure, so nesting is bounded by the same).
//! Function-like macros are not expanded: the error names and shows them. The files are read
//! in order (each quoted include where it stands) following `#if`/`#ifdef`/`#ifndef`/`#elif`/
//! `#else` with what they define and `#undef` (integers, `defined`, `!`, `&&`, `||`,
//! comparisons and arithmetic; a name is its macro's body): the first definition of a name in
//! a compiled branch is taken. A condition these files cannot decide (a name they never define,
//! which a `-D` option or a system header may; an include guard's `#ifndef X` / `#define X` (nothing after X)
//! excepted) makes the definitions under it candidates: each is evaluated, and the answer
//! stands behind the ones that evaluate, saying it is uncertain and naming the others with their
//! lines; candidates that evaluate to different values are an error listing each.
//! In each candidate the names it still fails on are expanded in turn (`LVL + ON`). A body the
//! core's side-effect guard would refuse (`#define BUMP (counter += 1)`) is not run unless
//! side effects are allowed (each candidate checked before any runs), and a breakpoint
//! condition does not write it out.
//! Which errors name an unknown identifier is the adapter's (`Adapter::unknown_name`).

use crate::session::Session;
use debugger_mcp_core::backend::{BackendError, BackendResult};
use futures::future::BoxFuture;
use std::path::Path;

/// At most this many macros are expanded in one expression (nested ones included).
pub const MAX_MACROS: usize = 4;
/// At most this many definitions of one name are evaluated where `#if` leaves it uncertain.
const MAX_CANDIDATES: usize = 4;
/// Bytes read of one file; the file and at most [`MAX_HEADERS`] headers are read.
const MAX_BYTES: u64 = 1 << 20;
const MAX_HEADERS: usize = 32;

#[derive(Debug, Clone, PartialEq)]
pub struct Macro {
    pub name: String,
    /// `Some("(a, b)")` for a function-like macro.
    pub params: Option<String>,
    pub body: String,
    /// Where it is defined, as the frame's file names it: its file name, or the include's
    /// spelling (`include/tok.h`).
    pub file: String,
    /// 1-based line of the `#define`.
    pub line: u32,
}

/// The definitions of a name that may be in force where its code uses it: one, or, under a
/// condition the files cannot decide (`undecided`: `#ifdef FAST (f.c:9)`), several.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub candidates: Vec<Macro>,
    pub undecided: Option<String>,
}

impl Macro {
    fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The definitions in a file's text: (1-based line, the logical line with its continuations
/// joined and comments taken out), for lines starting with `#` (spaces allowed around it).
fn directives(text: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut in_comment = false;
    while let Some((i, line)) = lines.next() {
        let mut logical = line.to_string();
        while logical.ends_with('\\') {
            logical.pop();
            match lines.next() {
                Some((_, next)) => {
                    logical.push(' ');
                    logical.push_str(next);
                }
                None => break,
            }
        }
        let starts_comment = in_comment;
        let clean = strip_comments(&logical, &mut in_comment);
        if !starts_comment && clean.trim_start().starts_with('#') {
            out.push((i as u32 + 1, clean));
        }
    }
    out
}

/// `line` without its `/* … */` and `// …` comments (outside string and char literals);
/// `in_comment` carries a block comment over to the next line.
fn strip_comments(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if *in_comment {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                *in_comment = false;
                out.push(' ');
            }
            continue;
        }
        if in_literal(&mut quote, c, &mut chars, &mut out) {
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                out.push(c);
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                *in_comment = true;
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

/// Inside a string or char literal (`quote` its opening quote): copies `c` (and an escaped
/// character after a backslash) to `out`, closing the literal at its quote.
fn in_literal(
    quote: &mut Option<char>,
    c: char,
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    out: &mut String,
) -> bool {
    let Some(q) = *quote else {
        return false;
    };
    out.push(c);
    if c == '\\' {
        if let Some(n) = chars.next() {
            out.push(n);
        }
    } else if c == q {
        *quote = None;
    }
    true
}

/// `# define NAME body` / `#define NAME(a, b) body` → (name, params, body).
fn parse_define(directive: &str) -> Option<(String, Option<String>, String)> {
    let rest = directive.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    // Function-like only when the parenthesis follows the name at once (C11 6.10.3p3).
    if after.starts_with('(') {
        let close = after.find(')')?;
        let params = after[..=close].to_string();
        let body = after[close + 1..].trim().to_string();
        return Some((name.to_string(), Some(params), body));
    }
    Some((name.to_string(), None, after.trim().to_string()))
}

/// Whether a definition is compiled: its enclosing `#if` branches all true (`Active`), one
/// false (`Inactive`), or one that cannot be decided from these files and none false
/// (`Unknown`, with that condition and where it is: `#ifdef FAST (f.c:9)`).
#[derive(Debug, Clone, PartialEq)]
enum Branch {
    Active,
    Inactive,
    Unknown(String),
}

/// What the files say of a name while they are read in order: defined with a body, `#undef`-ed,
/// or changed in a branch that cannot be decided. A name they never define is unknown too (a
/// `-D` option or a system header may define it), except as an include guard.
#[derive(Debug, Clone)]
enum State {
    Defined(String),
    /// A function-like macro: defined, its value not read.
    Function,
    Undefined,
    Unknown,
}

/// One `#if`/`#ifdef`/`#ifndef` group: whether a branch was already taken (three-valued),
/// whether the current one is, and the first undecided condition of the group.
struct Group {
    taken: Option<bool>,
    current: Option<bool>,
    undecided: Option<String>,
}

/// A definition of a name in the files, in reading order, with its branch.
#[derive(Debug, Clone)]
struct Def {
    m: Macro,
    branch: Branch,
}

/// Reads `texts` (the frame's file, then each quoted include where it stands: `(file, text,
/// included_at)` is flattened by [`scan`]) in order, following `#if` groups.
struct Scan {
    stack: Vec<Group>,
    states: std::collections::HashMap<String, State>,
    defs: Vec<Def>,
}

impl Scan {
    fn branch(&self) -> Branch {
        let mut unknown = None;
        for g in &self.stack {
            match g.current {
                Some(false) => return Branch::Inactive,
                None if unknown.is_none() => unknown = g.undecided.clone(),
                _ => {}
            }
        }
        match unknown {
            Some(why) => Branch::Unknown(why),
            None => Branch::Active,
        }
    }

    /// One directive (`d`, comments out) at `file:line`; `next` is the directive after it
    /// (an include guard is `#ifndef X` then `#define X`). Returns the quoted include to read
    /// here, when the branch may be compiled.
    fn directive(&mut self, d: &str, next: Option<&str>, file: &str, line: u32) -> Option<String> {
        let rest = d.trim_start().strip_prefix('#')?.trim_start();
        let end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (word, arg) = (&rest[..end], rest[end..].trim());
        let at = |what: &str| match what.trim() {
            "" => format!("#{word} ({file}:{line})"),
            what => format!("#{word} {what} ({file}:{line})"),
        };
        // An include guard: `#ifndef X` then `#define X` with nothing after it, X not stated
        // before. `#ifndef N` / `#define N 1` is a default a `-D N=5` overrides: undecided.
        let guard = |name: &str| {
            !self.states.contains_key(name)
                && next
                    .and_then(parse_define)
                    .is_some_and(|(n, p, body)| n == name && p.is_none() && body.is_empty())
        };
        match word {
            "if" | "ifdef" | "ifndef" => {
                let value = if self.branch() == Branch::Inactive {
                    Some(false)
                } else {
                    match word {
                        "ifdef" => self.defined(ident(arg)),
                        "ifndef" if guard(ident(arg)) => Some(true),
                        "ifndef" => self.defined(ident(arg)).map(|v| !v),
                        _ => match guarded_if(arg) {
                            Some(name) if guard(name) => Some(true),
                            _ => self.eval(arg),
                        },
                    }
                };
                self.stack.push(Group {
                    taken: value,
                    current: value,
                    undecided: value.is_none().then(|| at(arg)),
                });
            }
            "elif" | "else" => {
                let value = match word {
                    "else" => Some(true),
                    _ => self.eval(arg),
                };
                let g = self.stack.last_mut()?;
                let current = and(g.taken.map(|t| !t), value);
                if current.is_none() && g.undecided.is_none() {
                    g.undecided = Some(at(if word == "else" { "" } else { arg }));
                }
                g.current = current;
                g.taken = or(g.taken, value);
            }
            "endif" => {
                self.stack.pop();
            }
            "define" | "undef" => {
                let branch = self.branch();
                if branch == Branch::Inactive {
                    return None;
                }
                let (name, state) = match parse_define(d) {
                    Some((name, params, body)) => {
                        self.defs.push(Def {
                            m: Macro {
                                name: name.clone(),
                                params: params.clone(),
                                body: body.clone(),
                                file: file.to_string(),
                                line,
                            },
                            branch: branch.clone(),
                        });
                        (
                            name,
                            if params.is_some() {
                                State::Function
                            } else {
                                State::Defined(body)
                            },
                        )
                    }
                    None => (ident(arg).to_string(), State::Undefined),
                };
                let state = if branch == Branch::Active {
                    state
                } else {
                    State::Unknown
                };
                self.states.insert(name, state);
            }
            "include" if self.branch() != Branch::Inactive => {
                let inc = arg.strip_prefix('"')?;
                return Some(inc.split('"').next()?.to_string());
            }
            _ => {}
        }
        None
    }

    /// `defined(name)`: Some where the files decided it.
    fn defined(&self, name: &str) -> Option<bool> {
        match self.states.get(name)? {
            State::Defined(_) | State::Function => Some(true),
            State::Undefined => Some(false),
            State::Unknown => None,
        }
    }

    /// An `#if` expression's value, None where it cannot be decided.
    fn eval(&self, expr: &str) -> Option<bool> {
        let tokens = tokens(expr)?;
        let mut p = CondParser {
            tokens: &tokens,
            at: 0,
            scan: self,
            depth: 0,
        };
        let v = p.ternary();
        (p.at == tokens.len()).then_some(())?;
        v.map(|v| v != 0)
    }
}

/// The name an `#ifdef`/`#ifndef`/`#undef` names.
fn ident(arg: &str) -> &str {
    let end = arg
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(arg.len());
    &arg[..end]
}

/// `X` of `#if !defined(X)` / `#if !defined X` (an include guard's other spelling).
fn guarded_if(arg: &str) -> Option<&str> {
    let rest = arg.trim().strip_prefix('!')?.trim_start();
    let rest = rest.strip_prefix("defined")?.trim_start();
    let (rest, paren) = match rest.strip_prefix('(') {
        Some(r) => (r.trim_start(), true),
        None => (rest, false),
    };
    let name = ident(rest);
    let after = rest[name.len()..].trim();
    (!name.is_empty()
        && (if paren {
            after == ")"
        } else {
            after.is_empty()
        }))
    .then_some(name)
}

/// Three-valued `&&` and `||` (None: undecided).
fn and(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn or(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Name(String),
    Op(&'static str),
}

/// An `#if` expression's tokens; None for what this does not read (strings, floats).
fn tokens(expr: &str) -> Option<Vec<Tok>> {
    const OPS: [&str; 22] = [
        "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "!", "~", "-", "+", "*", "/", "%", "<",
        ">", "(", ")", "?", ":", "&",
    ];
    let b = expr.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = expr[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let n = match lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16).ok()?,
                None if lit.len() > 1 && lit.starts_with('0') => {
                    i64::from_str_radix(lit, 8).ok()?
                }
                None => lit.parse().ok()?,
            };
            out.push(Tok::Num(n));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Name(expr[start..i].to_string()));
        } else {
            let op = OPS.iter().find(|op| expr[i..].starts_with(**op))?;
            i += op.len();
            out.push(Tok::Op(op));
        }
    }
    Some(out)
}

/// A recursive-descent reader of `#if` expressions over integers (C's precedence), each
/// value None where it cannot be decided; a name is its macro's body read the same way.
struct CondParser<'a> {
    tokens: &'a [Tok],
    at: usize,
    scan: &'a Scan,
    depth: usize,
}

type V = Option<i64>;

impl CondParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, op: &str) -> bool {
        let found = matches!(self.peek(), Some(Tok::Op(o)) if *o == op);
        if found {
            self.at += 1;
        }
        found
    }

    fn ternary(&mut self) -> V {
        let c = self.binary(0);
        if !self.eat("?") {
            return c;
        }
        let a = self.ternary();
        if !self.eat(":") {
            self.at = usize::MAX / 2;
            return None;
        }
        let b = self.ternary();
        match c? {
            0 => b,
            _ => a,
        }
    }

    /// Binary operators by precedence level, loosest first.
    fn binary(&mut self, level: usize) -> V {
        const LEVELS: [&[&str]; 8] = [
            &["||"],
            &["&&"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1);
        loop {
            let Some(Tok::Op(op)) = self.peek().cloned() else {
                return left;
            };
            if !LEVELS[level].contains(&op) {
                return left;
            }
            self.at += 1;
            let right = self.binary(level + 1);
            left = match op {
                "||" => or(left.map(|v| v != 0), right.map(|v| v != 0)).map(i64::from),
                "&&" => and(left.map(|v| v != 0), right.map(|v| v != 0)).map(i64::from),
                _ => {
                    let (l, r) = (left, right);
                    match (l, r) {
                        (Some(l), Some(r)) => match op {
                            "&" => Some(l & r),
                            "==" => Some(i64::from(l == r)),
                            "!=" => Some(i64::from(l != r)),
                            "<" => Some(i64::from(l < r)),
                            ">" => Some(i64::from(l > r)),
                            "<=" => Some(i64::from(l <= r)),
                            ">=" => Some(i64::from(l >= r)),
                            "<<" => l.checked_shl(u32::try_from(r).ok()?),
                            ">>" => l.checked_shr(u32::try_from(r).ok()?),
                            "+" => l.checked_add(r),
                            "-" => l.checked_sub(r),
                            "*" => l.checked_mul(r),
                            "/" => l.checked_div(r),
                            "%" => l.checked_rem(r),
                            _ => None,
                        },
                        _ => None,
                    }
                }
            };
        }
    }

    fn unary(&mut self) -> V {
        match self.peek().cloned() {
            Some(Tok::Op("!")) => {
                self.at += 1;
                self.unary().map(|v| i64::from(v == 0))
            }
            Some(Tok::Op("-")) => {
                self.at += 1;
                self.unary().and_then(i64::checked_neg)
            }
            Some(Tok::Op("+")) => {
                self.at += 1;
                self.unary()
            }
            Some(Tok::Op("~")) => {
                self.at += 1;
                self.unary().map(|v| !v)
            }
            Some(Tok::Op("(")) => {
                self.at += 1;
                let v = self.ternary();
                if !self.eat(")") {
                    self.at = usize::MAX / 2;
                    return None;
                }
                v
            }
            Some(Tok::Num(n)) => {
                self.at += 1;
                Some(n)
            }
            Some(Tok::Name(n)) if n == "defined" => {
                self.at += 1;
                let paren = self.eat("(");
                let Some(Tok::Name(name)) = self.peek().cloned() else {
                    self.at = usize::MAX / 2;
                    return None;
                };
                self.at += 1;
                if paren && !self.eat(")") {
                    self.at = usize::MAX / 2;
                    return None;
                }
                self.scan.defined(&name).map(i64::from)
            }
            Some(Tok::Name(n)) => {
                self.at += 1;
                // A function-like macro's call is not read.
                if self.peek() == Some(&Tok::Op("(")) {
                    self.at = usize::MAX / 2;
                    return None;
                }
                match self.scan.states.get(&n)? {
                    // An identifier no macro names is 0 (C11 6.10.1p4).
                    State::Undefined => Some(0),
                    State::Unknown | State::Function => None,
                    State::Defined(body) if self.depth < 8 => {
                        let tokens = tokens(body)?;
                        let mut p = CondParser {
                            tokens: &tokens,
                            at: 0,
                            scan: self.scan,
                            depth: self.depth + 1,
                        };
                        let v = p.ternary();
                        (p.at == tokens.len()).then_some(())?;
                        v
                    }
                    State::Defined(_) => None,
                }
            }
            _ => {
                self.at = usize::MAX / 2;
                None
            }
        }
    }
}

fn read_bounded(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Every definition in compiled or undecided branches of `source` and of the headers it
/// includes with `#include "…"` (relative to its directory, one level, each read where it
/// stands), in reading order.
fn scan(source: &Path) -> Vec<Def> {
    let Some(text) = read_bounded(source) else {
        return vec![];
    };
    let file = source
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = source.parent().unwrap_or(Path::new("."));
    let mut headers = 0;
    scan_text(&text, &file, &mut |inc| {
        headers += 1;
        (headers <= MAX_HEADERS)
            .then(|| read_bounded(&dir.join(inc)))
            .flatten()
    })
}

/// [`scan`] of a file's text, `include` reading its quoted includes.
fn scan_text(text: &str, file: &str, include: &mut dyn FnMut(&str) -> Option<String>) -> Vec<Def> {
    let mut scan = Scan {
        stack: Vec::new(),
        states: std::collections::HashMap::new(),
        defs: Vec::new(),
    };
    walk(&mut scan, text, file, include);
    scan.defs
}

/// Reads `text`'s directives into `scan`; `include` gives a quoted include's text, read in
/// place (its own includes are not followed).
fn walk(scan: &mut Scan, text: &str, file: &str, include: &mut dyn FnMut(&str) -> Option<String>) {
    let ds = directives(text);
    for (i, (line, d)) in ds.iter().enumerate() {
        let next = ds.get(i + 1).map(|(_, d)| d.as_str());
        if let Some(inc) = scan.directive(d, next, file, *line)
            && let Some(t) = include(&inc)
        {
            let depth = scan.stack.len();
            walk(scan, &t, &inc, &mut |_| None);
            scan.stack.truncate(depth);
        }
    }
}

/// The definitions of `name` among `defs` that may be in force: the first compiled one and
/// the undecided ones before it, the same definition once.
fn resolve(defs: &[Def], name: &str) -> Option<Found> {
    let mut candidates: Vec<Macro> = Vec::new();
    let mut undecided = None;
    for d in defs.iter().filter(|d| d.m.name == name) {
        if let Branch::Unknown(why) = &d.branch {
            undecided.get_or_insert_with(|| why.clone());
        }
        if !candidates
            .iter()
            .any(|c| c.params == d.m.params && c.body == d.m.body)
        {
            candidates.push(d.m.clone());
        }
        if d.branch == Branch::Active {
            break;
        }
    }
    (!candidates.is_empty()).then_some(Found {
        candidates,
        undecided,
    })
}

/// `name`'s definitions in `source` or in a header it includes with `#include "…"`.
pub fn find(source: &Path, name: &str) -> Option<Found> {
    resolve(&scan(source), name)
}

/// The object-like macros of `source` (and its quoted includes) that one definition answers
/// for, first definition of a name first.
fn object_like(source: &Path) -> Vec<Macro> {
    let mut names: Vec<String> = Vec::new();
    let mut by_name: std::collections::HashMap<String, Vec<Def>> = Default::default();
    for d in scan(source) {
        let defs = by_name.entry(d.m.name.clone()).or_default();
        if defs.is_empty() {
            names.push(d.m.name.clone());
        }
        defs.push(d);
    }
    names
        .iter()
        .filter_map(|name| {
            let f = resolve(&by_name[name], name)?;
            match f.candidates.as_slice() {
                [m] if m.params.is_none() => Some(m.clone()),
                _ => None,
            }
        })
        .collect()
}

/// A breakpoint condition written in `file` as its code reads it: each name that is an
/// object-like macro there (not a member's name, not in a literal) replaced by `(body)`, for
/// up to [`MAX_MACROS`] macros, nested ones included. The debugger evaluates conditions
/// itself at each hit, where no failure can be retried (`retry`).
pub fn condition(file: &Path, condition: &str) -> String {
    let mut expr = condition.to_string();
    let macros = object_like(file);
    let mut done: Vec<&str> = Vec::new();
    while done.len() < MAX_MACROS {
        // A body that changes the program (`(counter += 1)`) is not written out: it would
        // run at every hit; the debugger names the unknown name instead.
        let Some(m) = macros
            .iter()
            .filter(|m| changes(&m.body).is_none())
            .find(|m| !done.contains(&m.name.as_str()) && substitute(&expr, &m.name, "\0") != expr)
        else {
            break;
        };
        expr = substitute(&expr, &m.name, &format!("({})", m.body));
        done.push(&m.name);
    }
    expr
}

/// What in a macro's body changes the program (`compound assignment '+='`), as the core's
/// guard reads an expression; None when it reads nothing.
fn changes(body: &str) -> Option<String> {
    debugger_mcp_core::engine::side_effect(body, &Default::default(), false)
}

/// The refusal of a body that changes the program, where side effects were not allowed.
fn refused(m: &Macro) -> Option<BackendError> {
    let why = changes(&m.body)?;
    Some(BackendError::Failed(format!(
        "`{}` expands to {} (macro, {}), which changes the program ({why}); evaluation without allow_side_effects must not change state. Pass allow_side_effects: true (the user is asked to confirm unless brave mode is on)",
        m.name,
        m.body,
        m.at()
    )))
}

/// `name`'s definitions in the frame's `source`, read off the async runtime.
async fn lookup(source: &Path, name: &str) -> Option<Found> {
    let (source, name) = (source.to_path_buf(), name.to_string());
    tokio::task::spawn_blocking(move || find(&source, &name))
        .await
        .ok()
        .flatten()
}

/// One candidate's expansion `expr` run, with the names it still fails on expanded in turn
/// (object-like macros of one definition, up to `budget` more): its value and those macros
/// with their notes, or None where it fails.
#[allow(clippy::type_complexity)]
async fn follow<'a, T>(
    s: &Session,
    source: &Path,
    mut expr: String,
    run: &mut impl FnMut(String) -> BoxFuture<'a, BackendResult<T>>,
    allow_side_effects: bool,
    seen: &[String],
    budget: usize,
) -> BackendResult<Option<(T, Vec<(Macro, String)>)>> {
    let mut more: Vec<(Macro, String)> = Vec::new();
    loop {
        let e = match run(expr.clone()).await {
            Ok(v) => return Ok(Some((v, more))),
            Err(BackendError::Failed(e)) => e,
            Err(other) => return Err(other),
        };
        let Some(name) = s.adapter.unknown_name(&e) else {
            return Ok(None);
        };
        if more.len() >= budget || seen.contains(&name) || more.iter().any(|(m, _)| m.name == name)
        {
            return Ok(None);
        }
        let Some(Found {
            candidates,
            undecided,
        }) = lookup(source, &name).await
        else {
            return Ok(None);
        };
        let [m] = candidates.as_slice() else {
            return Ok(None);
        };
        if m.params.is_some() {
            return Ok(None);
        }
        if !allow_side_effects && let Some(no) = refused(m) {
            return Err(no);
        }
        let next = substitute(&expr, &name, &format!("({})", m.body));
        if next == expr {
            return Ok(None);
        }
        expr = next;
        let note = undecided
            .map(|why| format!("; uncertain: {why}"))
            .unwrap_or_default();
        more.push((m.clone(), note));
    }
}

/// `expression` with every whole-word `name` outside string and char literals replaced by
/// `with`; a member's name (after `.` or `->`) is left, as the debugger knows the fields (the
/// preprocessor would replace it too, which is why code that defines `state` writes no field
/// of that name after it).
pub fn substitute(expression: &str, name: &str, with: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut word = String::new();
    let mut chars = expression.chars().peekable();
    let flush = |word: &mut String, out: &mut String| {
        let member = {
            let before = out.trim_end();
            before.ends_with('.') || before.ends_with("->")
        };
        if word == name && !member {
            out.push_str(with);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        if in_literal(&mut quote, c, &mut chars, &mut out) {
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        if c == '"' || c == '\'' {
            quote = Some(c);
        }
        out.push(c);
    }
    flush(&mut word, &mut out);
    out
}

/// Whether `error` (an evaluation's) names an identifier the frame lacks, for a debugger of C.
pub fn applies(s: &Session, error: &str) -> bool {
    s.adapter.c_expressions() && s.adapter.unknown_name(error).is_some()
}

/// Evaluates `expression` again through `run` with the object-like macros its errors name
/// expanded, having failed first with `error`. The answer and the note naming what was
/// expanded (`state → tok->stack[tok->depth].state (macro, json_tokener.c:62)`); `error`
/// itself where the name is no macro the frame's source defines.
#[allow(clippy::too_many_arguments)]
pub async fn retry<'a, T>(
    s: &Session,
    frame_id: i64,
    expression: &str,
    error: String,
    allow_side_effects: bool,
    mut run: impl FnMut(String) -> BoxFuture<'a, BackendResult<T>>,
    shown: impl Fn(&T) -> String,
) -> BackendResult<(T, String)> {
    let Some(source) = crate::values::frame_file(s, frame_id) else {
        return Err(BackendError::Failed(error));
    };
    let mut expr = expression.to_string();
    let mut error = error;
    // Each macro expanded, with what its note adds (an undecided `#if`).
    let mut done: Vec<(Macro, String)> = Vec::new();
    let told = |done: &[(Macro, String)]| {
        done.iter()
            .map(|(m, more)| format!("{} → {} (macro, {}{more})", m.name, m.body, m.at()))
            .collect::<Vec<_>>()
            .join("; ")
    };
    loop {
        let failed = |e: String, done: &[(Macro, String)], expr: &str| {
            if done.is_empty() {
                BackendError::Failed(e)
            } else {
                BackendError::Failed(format!(
                    "{}; expanded, `{expr}` failed too: {e}",
                    told(done)
                ))
            }
        };
        let Some(name) = s.adapter.unknown_name(&error) else {
            return Err(failed(error, &done, &expr));
        };
        if done.len() >= MAX_MACROS || done.iter().any(|(m, _)| m.name == name) {
            return Err(failed(error, &done, &expr));
        }
        let found = lookup(&source, &name).await;
        let Some(Found {
            candidates,
            undecided,
        }) = found
        else {
            return Err(failed(error, &done, &expr));
        };
        if candidates.len() > 1 {
            let why = undecided.unwrap_or_default();
            let candidates: Vec<Macro> = candidates.into_iter().take(MAX_CANDIDATES).collect();
            // Each candidate runs: none may change the program unless allowed.
            if !allow_side_effects
                && let Some(no) = candidates
                    .iter()
                    .filter(|m| m.params.is_none())
                    .find_map(refused)
            {
                return Err(no);
            }
            let mut seen: Vec<String> = done.iter().map(|(m, _)| m.name.clone()).collect();
            seen.push(name.clone());
            let budget = MAX_MACROS.saturating_sub(seen.len());
            let mut tried = Vec::new();
            let mut further = Vec::new();
            for m in candidates {
                let next = substitute(&expr, &name, &format!("({})", m.body));
                let r = if m.params.is_some() || next == expr {
                    None
                } else {
                    follow(
                        s,
                        &source,
                        next,
                        &mut run,
                        allow_side_effects,
                        &seen,
                        budget,
                    )
                    .await?
                };
                let (r, more) = match r {
                    Some((v, more)) => (Some(v), more),
                    None => (None, Vec::new()),
                };
                let text = r.as_ref().map(&shown);
                tried.push((m, r, text));
                further.push(more);
            }
            let values: Vec<&String> = tried.iter().filter_map(|t| t.2.as_ref()).collect();
            let each = |tried: &[(Macro, Option<T>, Option<String>)], skip: Option<usize>| {
                tried
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| Some(*i) != skip)
                    .map(|(_, (m, _, v))| {
                        let def = match &m.params {
                            Some(p) => format!("{}{p} {}", m.name, m.body),
                            None => m.body.clone(),
                        };
                        match (v, skip) {
                            (Some(_), Some(_)) => format!("{} `{def}` the same", m.at()),
                            (Some(v), None) => format!("{} `{def}` = {v}", m.at()),
                            (None, _) => format!("{} `{def}` fails here", m.at()),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            if values.is_empty() || values.iter().any(|v| *v != values[0]) {
                return Err(BackendError::Failed(format!(
                    "`{name}` is uncertain: {why} cannot be decided from the files (a -D option or a system header may decide it): {}; evaluate the expansion that applies",
                    each(&tried, None)
                )));
            }
            let at = tried.iter().position(|t| t.1.is_some()).unwrap_or(0);
            let others = each(&tried, Some(at));
            let (m, v, _) = tried.swap_remove(at);
            let Some(v) = v else {
                return Err(failed(error, &done, &expr));
            };
            done.push((m, format!("; uncertain: {why}; {others}")));
            done.extend(further.swap_remove(at));
            return Ok((v, told(&done)));
        }
        let Some(m) = candidates.into_iter().next() else {
            return Err(failed(error, &done, &expr));
        };
        if let Some(params) = &m.params {
            return Err(BackendError::Failed(format!(
                "`{name}` is a function-like macro at {}: #define {name}{params} {}; the debugger knows no macros (built without -g3): write its expansion out with the arguments",
                m.at(),
                m.body
            )));
        }
        if !allow_side_effects && let Some(no) = refused(&m) {
            return Err(no);
        }
        let next = substitute(&expr, &name, &format!("({})", m.body));
        if next == expr {
            return Err(failed(error, &done, &expr));
        }
        expr = next;
        let more = undecided
            .map(|why| format!("; uncertain: {why}"))
            .unwrap_or_default();
        done.push((m, more));
        match run(expr.clone()).await {
            Ok(v) => return Ok((v, told(&done))),
            Err(BackendError::Failed(e)) => error = e,
            Err(other) => return Err(other),
        }
    }
}

/// The type shown with an expanded expression's value carries the note.
pub fn noted(type_name: Option<String>, note: &str) -> Option<String> {
    Some(match type_name {
        Some(t) => format!("{t}; {note}"),
        None => note.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str, name: &str) -> Option<Found> {
        resolve(&scan_text(text, "f.c", &mut |_| None), name)
    }

    fn one(text: &str, name: &str) -> Option<Macro> {
        let f = found(text, name)?;
        assert_eq!((f.candidates.len(), &f.undecided), (1, &None), "{f:?}");
        f.candidates.into_iter().next()
    }

    /// The body and line of the definition taken.
    fn taken(text: &str, name: &str) -> Option<(String, u32)> {
        one(text, name).map(|m| (m.body, m.line))
    }

    #[test]
    fn the_definition_in_the_compiled_branch_is_taken() {
        // The alternative json-c style: an `#ifndef` of a name defined above is false.
        let text = "#define USE_STACK 1\n#ifndef USE_STACK\n#define state tok->fast\n#else\n#define state tok->stack[tok->depth].state\n#endif\n";
        assert_eq!(
            taken(text, "state"),
            Some(("tok->stack[tok->depth].state".into(), 5))
        );
        // #if 0, an #elif of integer macros, #else.
        let text = "#define LEVEL 2\n#define OFF 0\n#if 0\n#define N a\n#elif LEVEL > 2 || OFF\n#define N b\n#elif (LEVEL + 1) * 3 == 9 && !OFF\n#define N c\n#else\n#define N d\n#endif\n";
        assert_eq!(taken(text, "N"), Some(("c".into(), 8)));
        // defined(), an #undef-ed name (0, as C reads it), a nested group under a false one.
        let text = "#define X 1\n#undef X\n#define Y 0x10\n#if defined(X) || X\n#define N a\n#if 1\n#define N b\n#endif\n#elif defined Y && Y >= 16\n#define N c\n#endif\n";
        assert_eq!(taken(text, "N"), Some(("c".into(), 10)));
        // #ifdef of a name defined above; the second definition in a dead #else.
        let text = "#define HAVE_FAST\n#ifdef HAVE_FAST\n#define M 1\n#else\n#define M 2\n#endif\n";
        assert_eq!(taken(text, "M"), Some(("1".into(), 3)));
    }

    #[test]
    fn a_default_under_ifndef_is_no_include_guard() {
        // `-DBUMP_BY=5` may define it: the 1 is uncertain, not certain.
        let text = "#ifndef BUMP_BY\n#define BUMP_BY 1\n#endif\n";
        let f = found(text, "BUMP_BY").unwrap();
        assert_eq!(f.undecided.as_deref(), Some("#ifndef BUMP_BY (f.c:1)"));
        let text = "#if !defined(BUMP_BY)\n#define BUMP_BY 1\n#endif\n";
        assert!(found(text, "BUMP_BY").unwrap().undecided.is_some());
    }

    #[test]
    fn an_include_guard_is_taken_as_compiled() {
        let text = "#ifndef TOK_H\n#define TOK_H\n#define DEPTH tok->depth\n#endif\n";
        assert_eq!(taken(text, "DEPTH"), Some(("tok->depth".into(), 3)));
        let text = "#if !defined(TOK_H)\n#define TOK_H\n#define DEPTH 1\n#endif\n";
        assert_eq!(taken(text, "DEPTH"), Some(("1".into(), 3)));
    }

    #[test]
    fn a_condition_the_files_cannot_decide_makes_its_definitions_candidates() {
        // FAST is defined nowhere here: a -D option may define it.
        let text = "#ifdef FAST\n#define level (tok->depth + 100)\n#else\n#define level tok->depth\n#endif\n";
        let f = found(text, "level").unwrap();
        assert_eq!(f.undecided.as_deref(), Some("#ifdef FAST (f.c:1)"));
        let lines: Vec<_> = f
            .candidates
            .iter()
            .map(|m| (m.body.as_str(), m.line))
            .collect();
        assert_eq!(lines, [("(tok->depth + 100)", 2), ("tok->depth", 4)]);
        // A compiled definition before an undecided one ends the candidates.
        let text = "#define N 1\n#if FAST > 1\n#define N 2\n#endif\n";
        assert_eq!(taken(text, "N"), Some(("1".into(), 1)));
        // The same definition in each branch is certain.
        let text = "#if FAST\n#define N 1\n#else\n#define N 1\n#endif\n";
        assert_eq!(found(text, "N").unwrap().candidates.len(), 1);
        // What this does not read (a function-like macro's call) is undecided too.
        let text = "#define F(x) x\n#if F(1)\n#define N 1\n#else\n#define N 2\n#endif\n";
        assert_eq!(
            found(text, "N").unwrap().undecided.as_deref(),
            Some("#if F(1) (f.c:2)")
        );
    }

    #[test]
    fn object_like_with_comment_and_spacing() {
        let m = one(
            "int x;\n#  define state tok->stack[tok->depth].state /* the level's */\n",
            "state",
        )
        .unwrap();
        assert_eq!(m.body, "tok->stack[tok->depth].state");
        assert_eq!((m.params, m.line), (None, 2));
        let m = one("# define\tN 4 // four\n", "N").unwrap();
        assert_eq!(m.body, "4");
    }

    #[test]
    fn continuation_lines_join_and_count_from_the_define() {
        let text = "\n#define TOP \\\n    tok->stack[ \\\n  tok->depth]\nint y;\n#define AFTER 1\n";
        assert_eq!(one(text, "TOP").unwrap().body, "tok->stack[    tok->depth]");
        assert_eq!(one(text, "TOP").unwrap().line, 2);
        assert_eq!(one(text, "AFTER").unwrap().line, 6);
    }

    #[test]
    fn function_like_only_with_the_parenthesis_at_the_name() {
        let m = one("#define AT(i, j) (t[(i)][(j)])\n", "AT").unwrap();
        assert_eq!(m.params.as_deref(), Some("(i, j)"));
        assert_eq!(m.body, "(t[(i)][(j)])");
        let m = one("#define PAIR (a, b)\n", "PAIR").unwrap();
        assert_eq!((m.params, m.body.as_str()), (None, "(a, b)"));
    }

    #[test]
    fn defines_in_comments_prefixes_and_undef_are_not_taken() {
        let text = "/*\n#define state 1\n*/\n#undef state\n#define stateful 2\n#define state 3\n";
        let m = one(text, "state").unwrap();
        assert_eq!((m.body.as_str(), m.line), ("3", 6));
        assert_eq!(
            one("#define STR \"// not a comment\"\n", "STR")
                .unwrap()
                .body,
            "\"// not a comment\""
        );
        assert!(one("#defined x 1\n", "x").is_none());
    }

    #[test]
    fn substitutes_whole_words_outside_literals() {
        let with = "(tok->stack[tok->depth].state)";
        assert_eq!(
            substitute(
                "state == 3 && states[state] != 'state' && strcmp(s, \"a state\\\" state\")",
                "state",
                with
            ),
            format!("{with} == 3 && states[{with}] != 'state' && strcmp(s, \"a state\\\" state\")")
        );
        assert_eq!(
            substitute("x.state + state_of(state)", "state", "S"),
            "x.state + state_of(S)"
        );
        assert_eq!(
            substitute("p-> state * state", "state", "S"),
            "p-> state * S"
        );
    }

    #[test]
    fn quoted_includes_one_level() {
        let dir = std::env::temp_dir().join(format!("c_macros_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("inc")).unwrap();
        std::fs::write(
            dir.join("inc/tok.h"),
            "#pragma once\n#define DEPTH \\\n  tok->depth\n#include \"deep.h\"\n",
        )
        .unwrap();
        std::fs::write(dir.join("inc/deep.h"), "#define DEEP 1\n").unwrap();
        std::fs::write(
            dir.join("a.c"),
            "#include <stdio.h>\n#include \"inc/tok.h\"\n#define LOCAL 2\n",
        )
        .unwrap();
        let a = dir.join("a.c");
        let first = |name: &str| find(&a, name).map(|f| f.candidates[0].clone());
        assert_eq!(first("LOCAL").unwrap().at(), "a.c:3");
        let m = first("DEPTH").unwrap();
        assert_eq!(
            (m.body.as_str(), m.at().as_str()),
            ("tok->depth", "inc/tok.h:2")
        );
        assert!(find(&a, "DEEP").is_none(), "one level of includes");
        // An include in a dead branch is not read; an undecided macro stays out of a condition.
        std::fs::write(dir.join("dead.h"), "#define DEAD 1\n").unwrap();
        std::fs::write(
            dir.join("b.c"),
            "#if 0\n#include \"dead.h\"\n#endif\n#ifdef FAST\n#define LVL 1\n#else\n#define LVL 2\n#endif\n#define ON 3\n",
        )
        .unwrap();
        let b = dir.join("b.c");
        assert!(find(&b, "DEAD").is_none());
        assert_eq!(condition(&b, "LVL == ON"), "LVL == (3)");
        assert!(find(&a, "missing").is_none());
        assert_eq!(
            condition(&a, "LOCAL + DEPTH == 'LOCAL' && p->LOCAL"),
            "(2) + (tok->depth) == 'LOCAL' && p->LOCAL"
        );
        assert_eq!(condition(&a, "x > 1"), "x > 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
