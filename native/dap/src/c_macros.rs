//! Object-like C macros in an expression (issue 26). An agent at a stop in json-c's
//! json_tokener.c wrote `state`, which there is `#define state tok->stack[tok->depth].state`;
//! gdb said `No symbol "state" in current context`. Code built with -g (not -g3) carries no
//! macro information, so gdb's `info macro` / `macro expand` know nothing of it: the macro is
//! read from the source instead — the paused frame's file, then the headers it includes with
//! `#include "…"` (relative to its directory, one level), bounded reads — and the expression
//! evaluated again with the name replaced by `(body)`, for up to [`MAX_MACROS`] names (a body
//! naming another macro is expanded at the next failure, so nesting is bounded by the same).
//! Function-like macros are not expanded: the error names and shows them. The first
//! definition of a name is taken; `#undef` and `#if` are not followed.
//! Which errors name an unknown identifier is the adapter's (`Adapter::unknown_name`).

use crate::session::Session;
use debugger_mcp_core::backend::{BackendError, BackendResult};
use futures::future::BoxFuture;
use std::path::Path;

/// At most this many macros are expanded in one expression (nested ones included).
pub const MAX_MACROS: usize = 4;
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

/// The `#include "…"` spellings of a file's text, in order.
fn quoted_includes(text: &str) -> Vec<String> {
    directives(text)
        .into_iter()
        .filter_map(|(_, d)| {
            let rest = d.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest.strip_prefix("include")?.trim_start();
            let rest = rest.strip_prefix('"')?;
            Some(rest.split('"').next()?.to_string())
        })
        .collect()
}

/// The first definition of `name` in `text`.
fn define_in(text: &str, name: &str, file: &str) -> Option<Macro> {
    directives(text).into_iter().find_map(|(line, d)| {
        let (n, params, body) = parse_define(&d)?;
        (n == name).then(|| Macro {
            name: n,
            params,
            body,
            file: file.to_string(),
            line,
        })
    })
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

/// `name`'s definition in `source` or in a header it includes with `#include "…"`.
pub fn find(source: &Path, name: &str) -> Option<Macro> {
    let text = read_bounded(source)?;
    let file = source
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(m) = define_in(&text, name, &file) {
        return Some(m);
    }
    let dir = source.parent().unwrap_or(Path::new("."));
    quoted_includes(&text)
        .into_iter()
        .take(MAX_HEADERS)
        .find_map(|inc| define_in(&read_bounded(&dir.join(&inc))?, name, &inc))
}

/// The object-like macros defined in `source` and the headers it includes with quotes (first
/// definition of a name first).
fn object_like(source: &Path) -> Vec<Macro> {
    let Some(text) = read_bounded(source) else {
        return vec![];
    };
    let file = source
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = source.parent().unwrap_or(Path::new("."));
    let mut texts = vec![(file, text.clone())];
    for inc in quoted_includes(&text).into_iter().take(MAX_HEADERS) {
        if let Some(t) = read_bounded(&dir.join(&inc)) {
            texts.push((inc, t));
        }
    }
    texts
        .iter()
        .flat_map(|(file, text)| {
            directives(text).into_iter().filter_map(move |(line, d)| {
                let (name, params, body) = parse_define(&d)?;
                params.is_none().then(|| Macro {
                    name,
                    params,
                    body,
                    file: file.clone(),
                    line,
                })
            })
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
        let Some(m) = macros
            .iter()
            .find(|m| !done.contains(&m.name.as_str()) && substitute(&expr, &m.name, "\0") != expr)
        else {
            break;
        };
        expr = substitute(&expr, &m.name, &format!("({})", m.body));
        done.push(&m.name);
    }
    expr
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
pub async fn retry<'a, T>(
    s: &Session,
    frame_id: i64,
    expression: &str,
    error: String,
    mut run: impl FnMut(String) -> BoxFuture<'a, BackendResult<T>>,
) -> BackendResult<(T, String)> {
    let Some(source) = crate::values::frame_file(s, frame_id) else {
        return Err(BackendError::Failed(error));
    };
    let mut expr = expression.to_string();
    let mut error = error;
    let mut done: Vec<Macro> = Vec::new();
    let told = |done: &[Macro]| {
        done.iter()
            .map(|m| format!("{} → {} (macro, {})", m.name, m.body, m.at()))
            .collect::<Vec<_>>()
            .join("; ")
    };
    loop {
        let failed = |e: String, done: &[Macro], expr: &str| {
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
        if done.len() >= MAX_MACROS || done.iter().any(|m| m.name == name) {
            return Err(failed(error, &done, &expr));
        }
        let found = {
            let (source, name) = (source.clone(), name.clone());
            tokio::task::spawn_blocking(move || find(&source, &name))
                .await
                .ok()
                .flatten()
        };
        let Some(m) = found else {
            return Err(failed(error, &done, &expr));
        };
        if let Some(params) = &m.params {
            return Err(BackendError::Failed(format!(
                "`{name}` is a function-like macro at {}: #define {name}{params} {}; the debugger knows no macros (built without -g3): write its expansion out with the arguments",
                m.at(),
                m.body
            )));
        }
        let next = substitute(&expr, &name, &format!("({})", m.body));
        if next == expr {
            return Err(failed(error, &done, &expr));
        }
        expr = next;
        done.push(m);
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

    fn one(text: &str, name: &str) -> Option<Macro> {
        define_in(text, name, "f.c")
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
        assert_eq!(find(&a, "LOCAL").unwrap().at(), "a.c:3");
        let m = find(&a, "DEPTH").unwrap();
        assert_eq!(
            (m.body.as_str(), m.at().as_str()),
            ("tok->depth", "inc/tok.h:2")
        );
        assert!(find(&a, "DEEP").is_none(), "one level of includes");
        assert!(find(&a, "missing").is_none());
        assert_eq!(
            condition(&a, "LOCAL + DEPTH == 'LOCAL' && p->LOCAL"),
            "(2) + (tok->depth) == 'LOCAL' && p->LOCAL"
        );
        assert_eq!(condition(&a, "x > 1"), "x > 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
