//! Expression guard: refuses expressions that visibly change the program when they are evaluated
//! without `allow_side_effects` (evaluate_expression and watches).
//!
//! Why here: the SPEC makes evaluation side-effect free by default, but no DAP adapter can
//! enforce that (debugpy runs `items.append(1)`, gdb assigns `counter = 9` in the `watch`
//! context), so the core checks once, for every backend, before the backend is asked.
//!
//! The check is conservative and language-agnostic: a small tokenizer skips string and char
//! literals, then looks for assignment (`=`, compound `+=` … `**=`, walrus `:=`), `++`/`--`,
//! Python statements and dynamic code (`del`, `import`, `exec(`, `eval(`, `setattr(`,
//! `delattr(`, `globals()[`, `__import__`) and calls of mutating methods (`.append(`,
//! `->push_back(`, `.setName(`, `System.exit(` …; deny list extendable in
//! `[expression_safety]`). It cannot see side effects hidden inside other calls (`f(x)` is
//! allowed), and it refuses some harmless text (e.g. Python keyword arguments `f(key=1)`); either
//! way the agent can pass `allow_side_effects: true`, which goes through the confirmation guard.

use super::context::ToolError;
use crate::config::ExpressionSafetyConfig;

/// Methods that change their receiver or the world in common languages (Python, Java/Kotlin,
/// C++, JS). Matched only as `.name(` / `->name(` calls.
const MUTATING_METHODS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "pop",
    "popitem",
    "remove",
    "clear",
    "update",
    "setdefault",
    "add",
    "discard",
    "sort",
    "reverse",
    "put",
    "putAll",
    "putIfAbsent",
    "addAll",
    "removeAll",
    "retainAll",
    "removeIf",
    "replaceAll",
    "offer",
    "poll",
    "push",
    "shift",
    "unshift",
    "splice",
    "push_back",
    "pop_back",
    "push_front",
    "pop_front",
    "emplace",
    "emplace_back",
    "erase",
    "resize",
    "close",
    "send",
    "flush",
    "truncate",
    "exit",
    "quit",
    "kill",
    "terminate",
    "interrupt",
    "start",
    "run",
];

/// Method name prefixes that mutate (`setName`, `set_name`, `writeBytes`, `deleteAll`): the
/// prefix alone or followed by an upper-case letter or `_`, so `settings()` stays allowed.
const MUTATING_PREFIXES: &[&str] = &["set", "write", "delete"];

/// Free functions that change the program or run code.
const MUTATING_FUNCTIONS: &[&str] = &[
    "exec",
    "eval",
    "setattr",
    "delattr",
    "__import__",
    "exit",
    "quit",
    "compile",
];

/// Multi-character operators, longest first, so `<<=` is not read as `<` `<=`.
const OPERATORS: &[&str] = &[
    ">>>=", "<<=", ">>=", "//=", "**=", "===", "!==", "==", "!=", "<=", ">=", "=>", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", ":=", "++", "--", "->", "::", "<<", ">>", "**", "//", "&&",
    "||",
];

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Op(String),
    Literal,
}

fn tokenize(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' || c == '\'' || c == '`' {
            // String/char literal: skip to the unescaped closing quote (Python's '''…''' reads as
            // three literals in a row, which is just as good).
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Tok::Literal);
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                out.push(Tok::Literal);
            } else {
                out.push(Tok::Ident(word));
            }
        } else {
            let rest: String = chars[i..chars.len().min(i + 4)].iter().collect();
            let op = OPERATORS
                .iter()
                .find(|op| rest.starts_with(*op))
                .map(|s| s.to_string())
                .unwrap_or_else(|| c.to_string());
            i += op.chars().count();
            out.push(Tok::Op(op));
        }
    }
    out
}

fn is_mutating_method(name: &str, extra: &[String]) -> bool {
    MUTATING_METHODS.contains(&name)
        || extra.iter().any(|m| m == name)
        || MUTATING_PREFIXES.iter().any(|p| {
            name.strip_prefix(p).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(|c: char| c.is_uppercase() || c == '_')
            })
        })
}

/// What in `expression` looks like it changes state, if anything.
pub fn detect(expression: &str, cfg: &ExpressionSafetyConfig) -> Option<String> {
    let toks = tokenize(expression);
    let op = |i: usize, s: &str| matches!(toks.get(i), Some(Tok::Op(o)) if o == s);
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Op(o) if o == "=" => return Some("assignment '='".into()),
            Tok::Op(o) if o == ":=" => return Some("assignment expression ':='".into()),
            Tok::Op(o)
                if o.len() >= 2
                    && o.ends_with('=')
                    && !["==", "!=", "<=", ">=", "===", "!=="].contains(&o.as_str()) =>
            {
                return Some(format!("compound assignment '{o}'"));
            }
            Tok::Op(o) if o == "++" || o == "--" => {
                return Some(format!("increment/decrement '{o}'"));
            }
            Tok::Ident(w) if w == "del" || w == "import" => {
                return Some(format!("Python statement '{w}'"));
            }
            Tok::Ident(w) if w == "__import__" => return Some("call to '__import__'".into()),
            Tok::Ident(w)
                if w == "globals" && op(i + 1, "(") && op(i + 2, ")") && op(i + 3, "[") =>
            {
                return Some("write through 'globals()[...]'".into());
            }
            Tok::Ident(w) if op(i + 1, "(") => {
                let member = i > 0 && (op(i - 1, ".") || op(i - 1, "->"));
                if member && is_mutating_method(w, &cfg.extra_mutating_methods) {
                    return Some(format!("call to mutating method '{w}'"));
                }
                if !member && MUTATING_FUNCTIONS.contains(&w.as_str()) {
                    return Some(format!("call to '{w}'"));
                }
            }
            _ => {}
        }
    }
    None
}

/// Ok when `expression` may be evaluated without side effects; otherwise the refusal to return.
pub fn check(expression: &str, cfg: &ExpressionSafetyConfig) -> Result<(), ToolError> {
    if !cfg.enabled {
        return Ok(());
    }
    match detect(expression, cfg) {
        None => Ok(()),
        Some(what) => Err(ToolError(format!(
            "expression `{expression}` looks like it changes the program ({what}); evaluation without allow_side_effects must not change state. \
             Pass allow_side_effects: true (the user is asked to confirm unless brave mode is on)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_and_refused_expressions() {
        let cfg = ExpressionSafetyConfig::default();
        let allowed = [
            "a == b",
            "x <= 3",
            "x >= 3",
            "a != b",
            "a === b",
            "\"a=b\"",
            "s.count('=')",
            "len(items)",
            "str(x)",
            "order.items[3]['price']",
            "user.getName()",
            "list.size()",
            "obj.toString()",
            "x => x + 1",
            "p->next",
            "settings()",
            "a << 2",
            "x ** 2",
            "total + 41",
            "'it''s = fine'",
            "d.get('k', 0)",
            "-x - -1",
            "s == 'a\\'=b'",
        ];
        for e in allowed {
            assert_eq!(detect(e, &cfg), None, "{e} should be allowed");
        }
        let refused = [
            ("items.append(1)", "mutating method 'append'"),
            ("counter = 9", "assignment '='"),
            ("i++", "'++'"),
            ("--i", "'--'"),
            ("d.update(x)", "mutating method 'update'"),
            ("obj.setName(\"x\")", "mutating method 'setName'"),
            ("obj.set_name('x')", "mutating method 'set_name'"),
            ("x += 1", "'+='"),
            ("x <<= 1", "'<<='"),
            ("x //= 2", "'//='"),
            ("x **= 2", "'**='"),
            ("(y := 3)", "':='"),
            ("del d['k']", "'del'"),
            ("import os", "'import'"),
            ("exec('x=1')", "'exec'"),
            ("eval(s)", "'eval'"),
            ("setattr(o, 'a', 1)", "'setattr'"),
            ("globals()['x']", "globals()"),
            ("__import__('os').system('ls')", "'__import__'"),
            ("System.exit(0)", "'exit'"),
            ("v->push_back(1)", "'push_back'"),
            ("out.write('x')", "'write'"),
            ("a[i] = s == 'x'", "assignment '='"),
        ];
        for (e, why) in refused {
            let got = detect(e, &cfg).unwrap_or_else(|| panic!("{e} should be refused"));
            assert!(got.contains(why), "{e}: {got}");
        }
    }

    #[test]
    fn deny_list_is_configurable_and_the_guard_can_be_off() {
        let mut cfg = ExpressionSafetyConfig::default();
        assert!(check("cache.invalidate()", &cfg).is_ok());
        cfg.extra_mutating_methods.push("invalidate".into());
        let e = check("cache.invalidate()", &cfg).unwrap_err().0;
        assert!(
            e.contains("mutating method 'invalidate'") && e.contains("allow_side_effects: true"),
            "{e}"
        );
        cfg.enabled = false;
        assert!(check("items.append(1)", &cfg).is_ok());
    }

    #[test]
    fn refusal_names_the_expression_and_the_way_out() {
        let e = check("items.append(1)", &ExpressionSafetyConfig::default())
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            "expression `items.append(1)` looks like it changes the program (call to mutating method 'append'); \
             evaluation without allow_side_effects must not change state. Pass allow_side_effects: true \
             (the user is asked to confirm unless brave mode is on)"
        );
    }
}
