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
//! `delattr(`, `globals()[`, `reload(`) and calls of mutating methods (`.append(`,
//! `->push_back(`, `.setName(`, `System.exit(` …; deny list extendable in
//! `[expression_safety]`). It cannot see side effects hidden inside other calls (`f(x)` is
//! allowed), and it may refuse some harmless text; either way the agent can pass
//! `allow_side_effects: true`, which goes through the confirmation guard. A call's named argument
//! (`f(g, key=None)`) and a lambda's default (`lambda x=1: x`) assign nothing in Python, Kotlin and
//! Scala, but the same text assigns in C, C++, Java, JS and PHP: which one applies is read from the
//! file the expression is evaluated in ([`named_arguments`]); unknown, it is taken as an assignment.
//!
//! Reaching a module's state from a frame that has not imported it is a read:
//! `__import__("pkg.mod").X`, `importlib.import_module("pkg.mod")`, `sys.modules["pkg.mod"]`.
//! CPython's `__import__` of a module already in `sys.modules` only looks it up there (and, for
//! `a.b`, returns `sys.modules["a"]`): nothing runs (`PyImport_ImportModuleLevelObject` in
//! CPython's Python/import.c; `importlib.import_module` reaches `_find_and_load`, which looks
//! in `sys.modules` first, Lib/importlib/_bootstrap.py, read in 3.11). A module not loaded yet
//! would be found, executed and added: the program's imports, top-level code and `sys.modules`
//! change. So the guard
//! lets `__import__`/`import_module` through only with one constant name ([`modules_read`])
//! and the caller asks the debugger first whether each is loaded ([`loaded_probe`]), refusing
//! it otherwise ([`not_loaded`]); `sys` and `builtins` exist before any program code runs and
//! need no question. Any other argument (a variable, an f-string, `fromlist`) is refused.

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
    "reload",
    "system",
];

/// Method name prefixes that mutate (`setName`, `set_name`, `writeBytes`, `deleteAll`): the
/// prefix alone or followed by an upper-case letter or `_`, so `settings()` stays allowed.
const MUTATING_PREFIXES: &[&str] = &["set", "write", "delete"];

/// Free functions that change the program or run code.
const MUTATING_FUNCTIONS: &[&str] = &[
    "exec", "eval", "setattr", "delattr", "reload", "exit", "quit", "compile",
];

/// Multi-character operators, longest first, so `<<=` is not read as `<` `<=`.
const OPERATORS: &[&str] = &[
    ">>>=", "<<=", ">>=", "//=", "**=", "??=", "===", "!==", "==", "!=", "<=", ">=", "=>", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".=", ":=", "++", "--", "->", "::", "<<", ">>", "**",
    "//", "&&", "||",
];

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Op(String),
    Literal,
    /// A quoted literal and its text between the quotes (escapes kept as written).
    Str(String),
}

/// Calls that import a module by name: `__import__("m")`, `importlib.import_module("m")`.
const IMPORT_CALLS: &[&str] = &["__import__", "import_module"];

/// Modules every CPython has loaded before the program's first line: importing them is a
/// look-up without asking the debugger.
const ALWAYS_LOADED: &[&str] = &["sys", "builtins"];

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
            let start = i;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            let text: String = chars[start..i.min(chars.len())].iter().collect();
            i += 1;
            out.push(Tok::Str(text));
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

/// Words that open a parenthesis without calling anything (`if (x = 1)` assigns in C and Java).
const KEYWORDS: &[&str] = &[
    "if", "elif", "while", "for", "return", "and", "or", "not", "in", "is", "else", "when",
];

/// Whether the language of `file` passes arguments by name as `f(key=value)` (Python, Kotlin,
/// Scala), so `key=` in a call assigns nothing.
pub fn named_arguments(file: Option<&str>) -> bool {
    let ext = file
        .and_then(|f| std::path::Path::new(f).extension())
        .and_then(|e| e.to_str());
    matches!(ext, Some("py" | "pyw" | "pyi" | "kt" | "kts" | "scala"))
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

/// The module `toks[i]` (an import call) names: `(` then one quoted dotted name then `)`.
fn import_name(toks: &[Tok], i: usize) -> Option<String> {
    let [Tok::Op(open), Tok::Str(name), Tok::Op(close)] = toks.get(i + 1..i + 4)? else {
        return None;
    };
    let dotted = !name.is_empty()
        && name.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    (open == "(" && close == ")" && dotted).then(|| name.clone())
}

/// The modules `expression` imports by a constant name (see the module doc), besides those
/// always loaded: the debugger must say they are loaded before it is evaluated read-only.
pub fn modules_read(expression: &str) -> Vec<String> {
    let toks = tokenize(expression);
    let mut out: Vec<String> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if let Tok::Ident(w) = t
            && IMPORT_CALLS.contains(&w.as_str())
            && let Some(name) = import_name(&toks, i)
            && !ALWAYS_LOADED.contains(&name.as_str())
            && !out.contains(&name)
        {
            out.push(name);
        }
    }
    out
}

/// A Python expression that is `True` when every module of `names` is in `sys.modules` (names
/// as [`modules_read`] gives them: dotted identifiers, nothing to escape).
pub fn loaded_probe(names: &[String]) -> String {
    let set: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    format!("__import__('sys').modules.keys() >= {{{}}}", set.join(", "))
}

/// The refusal of `expression` when a module it imports is not loaded (or the debugger could
/// not say): importing it would run its code.
pub fn not_loaded(expression: &str, names: &[String], why: Option<&str>) -> ToolError {
    let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let why = why
        .map(|w| format!(" (the debugger could not tell: {w})"))
        .unwrap_or_default();
    ToolError(format!(
        "expression `{expression}` imports {} not loaded in the program yet{why}: importing would run its top-level code. \
         Evaluate it once the program has imported it, read `sys.modules.get(\"name\")` (None while not loaded), \
         or pass allow_side_effects: true",
        list.join(", ")
    ))
}

/// Asks the debugger, in the frame the expression is evaluated in, whether the modules
/// `expression` imports by name are loaded; refuses it when not (see the module doc). No
/// debugger call when it imports none.
pub async fn require_loaded(
    c: &super::context::Call<'_>,
    sid: &str,
    thread: &str,
    frame: &str,
    expression: &str,
) -> Result<(), ToolError> {
    let names = modules_read(expression);
    if names.is_empty() || !c.cfg.expression_safety.enabled {
        return Ok(());
    }
    let request = crate::backend::EvalRequest {
        thread_id: thread.to_string(),
        frame: frame.to_string(),
        expression: loaded_probe(&names),
        context: crate::backend::EvalContext::Expression,
        allow_side_effects: false,
        format: None,
    };
    let backend = c.engine.backend.clone();
    match c.bk("evaluate", backend.evaluate(sid, request)).await {
        Ok(v) if v.value.trim() == "True" => Ok(()),
        Ok(_) => Err(not_loaded(expression, &names, None)),
        Err(e) => Err(not_loaded(expression, &names, Some(&e.0))),
    }
}

/// What in `expression` looks like it changes state, if anything. `named_args`: the language
/// has `f(key=value)` (see [`named_arguments`]).
/// A PHP closure's body (`function ($r) use ($k) { … }`): the `{` token's index, and the
/// variables it shares with its caller by reference (`&$n` among parameters or `use`).
struct ClosureBody {
    open: usize,
    by_ref: Vec<String>,
}

/// The PHP closures of `toks` (`function (…) [use (…)] [: type] {`), each with its body's `{`.
fn php_closures(toks: &[Tok]) -> Vec<ClosureBody> {
    let op = |i: usize, s: &str| i < toks.len() && matches!(&toks[i], Tok::Op(o) if o == s);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if !matches!(t, Tok::Ident(w) if w == "function") || !op(i + 1, "(") {
            continue;
        }
        let mut by_ref = Vec::new();
        let mut j = i + 1;
        // The parameters' and then the `use` list's parentheses.
        loop {
            let mut depth = 0usize;
            while j < toks.len() {
                if op(j, "(") {
                    depth += 1;
                } else if op(j, ")") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else if op(j, "&")
                    && let Some(Tok::Ident(v)) = toks.get(j + 1)
                    && v.starts_with('$')
                {
                    by_ref.push(v.clone());
                }
                j += 1;
            }
            j += 1;
            if matches!(toks.get(j), Some(Tok::Ident(w)) if w == "use") && op(j + 1, "(") {
                j += 1;
                continue;
            }
            break;
        }
        // A return type (`: ?array`) up to the body.
        if op(j, ":") {
            while j < toks.len() && !op(j, "{") && !op(j, ";") {
                j += 1;
            }
        }
        if op(j, "{") {
            out.push(ClosureBody { open: j, by_ref });
        }
    }
    out
}

pub fn detect(expression: &str, cfg: &ExpressionSafetyConfig, named_args: bool) -> Option<String> {
    let toks = tokenize(expression);
    let op = |i: usize, s: &str| i < toks.len() && matches!(&toks[i], Tok::Op(o) if o == s);
    let ident = |i: usize| i < toks.len() && matches!(&toks[i], Tok::Ident(_));
    // Per open bracket: whether it is a call's `(`.
    let mut opens: Vec<bool> = Vec::new();
    // Bracket depth of each `lambda` whose parameters are being read (until its `:`).
    let mut lambdas: Vec<usize> = Vec::new();
    // PHP closures: a plain variable assigned in a closure's body is that call's own local
    // (PHP closures see the caller's variables only through `use`, by value unless `&`), so
    // `array_filter($rs, function ($r) { $d = $r->at; return $d > 3; })` reads. Each entry: the
    // bracket depth inside the body and its by-reference names.
    let closures = php_closures(&toks);
    let mut bodies: Vec<(usize, &[String])> = Vec::new();
    let closure_local = |i: usize, bodies: &[(usize, &[String])]| {
        !bodies.is_empty()
            && matches!(toks.get(i.wrapping_sub(1)), Some(Tok::Ident(v)) if v.starts_with('$') && v != "$this"
                && !bodies.iter().any(|(_, r)| r.contains(v)))
            && !(i >= 2
                && (op(i - 2, "->") || op(i - 2, "::") || op(i - 2, "?->") || op(i - 2, "&")))
    };
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Op(o) if o == "(" || o == "[" || o == "{" => {
                let callee = i > 0
                    && (matches!(&toks[i - 1], Tok::Ident(w) if !KEYWORDS.contains(&w.as_str()))
                        || op(i - 1, ")")
                        || op(i - 1, "]"));
                opens.push(o == "(" && callee);
                if let Some(c) = closures.iter().find(|c| c.open == i) {
                    bodies.push((opens.len(), &c.by_ref));
                }
            }
            Tok::Op(o) if o == ")" || o == "]" || o == "}" => {
                opens.pop();
                lambdas.retain(|d| *d <= opens.len());
                bodies.retain(|(d, _)| *d <= opens.len());
            }
            Tok::Ident(w) if !bodies.is_empty() && (w == "global" || w == "static") => {
                return Some(format!(
                    "'{w}' in a closure, which reaches the program's variables"
                ));
            }
            Tok::Op(o)
                if closure_local(i, &bodies)
                    && (o == "="
                        || (o.len() >= 2
                            && o.ends_with('=')
                            && !["==", "!=", "<=", ">=", "===", "!==", "=>"]
                                .contains(&o.as_str()))) => {}
            Tok::Op(o)
                if (o == "++" || o == "--")
                    && !bodies.is_empty()
                    && (closure_local(i, &bodies)
                        || matches!(toks.get(i + 1), Some(Tok::Ident(v)) if v.starts_with('$') && v != "$this"
                        && !bodies.iter().any(|(_, r)| r.contains(v))
                        && !op(i + 2, "->") && !op(i + 2, "[") && !op(i + 2, "::"))) => {}
            Tok::Ident(w) if w == "lambda" => lambdas.push(opens.len()),
            Tok::Op(o) if o == ":" && lambdas.last() == Some(&opens.len()) => {
                lambdas.pop();
            }
            Tok::Op(o) if o == "=" => {
                let named = named_args
                    && i >= 2
                    && ident(i - 1)
                    && ((opens.last() == Some(&true) && (op(i - 2, "(") || op(i - 2, ",")))
                        || (lambdas.last() == Some(&opens.len())
                            && (op(i - 2, ",")
                                || matches!(&toks[i - 2], Tok::Ident(w) if w == "lambda"))));
                if !named {
                    return Some("assignment '='".into());
                }
            }
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
            Tok::Ident(w)
                if IMPORT_CALLS.contains(&w.as_str()) && import_name(&toks, i).is_none() =>
            {
                return Some(format!(
                    "call to '{w}' with other than one module name in quotes, which may import a module and run its code"
                ));
            }
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

/// Ok when `expression` may be evaluated without side effects in `file` (the frame's source, for
/// its language; None when unknown); otherwise the refusal to return.
pub fn check(
    expression: &str,
    cfg: &ExpressionSafetyConfig,
    file: Option<&str>,
) -> Result<(), ToolError> {
    if !cfg.enabled {
        return Ok(());
    }
    // A search (`EXPR for i in 0..n if COND`): each part once, before anything runs.
    if let Some(Ok(scan)) = super::scan::parse(expression) {
        for (what, part) in scan.parts() {
            if let Some(why) = detect(part, cfg, named_arguments(file)) {
                return Err(ToolError(format!(
                    "expression `{expression}` looks like it changes the program ({why} in {what} `{part}`); evaluation without allow_side_effects must not change state. \
                     Pass allow_side_effects: true (the user is asked to confirm unless brave mode is on)"
                )));
            }
        }
        return Ok(());
    }
    match detect(expression, cfg, named_arguments(file)) {
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
            // Module state reached by name (a module not loaded is refused by the debugger's
            // answer, `require_loaded`).
            "__import__(\"sys\").modules[\"pkg.mod\"].SOME_GLOBAL",
            "__import__('pkg.mod').mod.X",
            "importlib.import_module('pkg.mod').X",
            "sys.modules['pkg.mod'].X",
            "sys.modules.get('pkg')",
            "getattr(x, 'name')",
            "vars(x)",
            "type(x)",
            "repr(x)",
            "sorted(x)",
            "dict(x)",
            "list(x)",
            "[k for k in sys.modules if k.startswith('pkg')]",
        ];
        for e in allowed {
            assert_eq!(detect(e, &cfg, false), None, "{e} should be allowed");
            assert_eq!(detect(e, &cfg, true), None, "{e} should be allowed");
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
            ("__import__('os').system('ls')", "mutating method 'system'"),
            (
                "__import__(name)",
                "call to '__import__' with other than one module name",
            ),
            ("__import__(f'pkg.{x}')", "'__import__'"),
            ("__import__('a', fromlist=['b'])", "'__import__'"),
            ("__import__('')", "'__import__'"),
            ("__import__('os; x')", "'__import__'"),
            ("importlib.import_module(name)", "'import_module'"),
            ("importlib.reload(mod)", "mutating method 'reload'"),
            ("reload(mod)", "call to 'reload'"),
            (
                "__import__('sys').modules.pop('x')",
                "mutating method 'pop'",
            ),
            (
                "__import__('sys').modules.clear()",
                "mutating method 'clear'",
            ),
            ("vars(__import__('m'))['X'] = 1", "assignment '='"),
            ("System.exit(0)", "'exit'"),
            ("v->push_back(1)", "'push_back'"),
            ("out.write('x')", "'write'"),
            ("a[i] = s == 'x'", "assignment '='"),
        ];
        for (e, why) in refused {
            for named in [false, true] {
                let got = detect(e, &cfg, named).unwrap_or_else(|| panic!("{e} should be refused"));
                assert!(got.contains(why), "{e}: {got}");
            }
        }
    }

    #[test]
    fn a_php_closures_own_variables_may_be_assigned() {
        let cfg = ExpressionSafetyConfig::default();
        for ok in [
            "array_values(array_filter($rs, function ($r) { $l = $r->at; return $l > 3; }))",
            "array_map(function ($r) use ($tz) { $d = $r['at']; $d .= 'Z'; $n = 0; $n++; ++$n; $n += 2; $m ??= 1; return $d; }, $rs)",
            "usort_copy(function (array $a): ?int { $x = count($a); return $x; })",
            "array_filter($rs, fn($r) => $r->units > 7000)",
        ] {
            assert_eq!(detect(ok, &cfg, false), None, "{ok}");
        }
        for (bad, why) in [
            // Outside a closure, the caller's variable.
            ("$l = 1", "assignment"),
            ("$s .= 'x'", "compound assignment '.='"),
            ("$m ??= 1", "compound assignment '??='"),
            // Shared with the caller by reference, or an object's or array's element.
            (
                "array_map(function ($r) use (&$sum) { $sum = $sum + $r; }, $xs)",
                "assignment",
            ),
            ("array_map(function (&$r) { $r = 0; }, $xs)", "assignment"),
            (
                "array_map(function ($r) { $r->seen = true; return $r; }, $xs)",
                "assignment",
            ),
            (
                "array_map(function ($r) use ($a) { $a[0] = $r; }, $xs)",
                "assignment",
            ),
            ("array_map(function ($r) { $this->n++; }, $xs)", "increment"),
            (
                "array_map(function ($r) { global $total; $total = 1; }, $xs)",
                "'global' in a closure",
            ),
            (
                "array_map(function ($r) { static $n; return $n; }, $xs)",
                "'static' in a closure",
            ),
            // After the body, the caller's again.
            (
                "array_map(function ($r) { $x = 1; return $x; }, $xs) + ($y = 2)",
                "assignment",
            ),
            (
                "array_map(function ($r) { $r->push(1); }, $xs)",
                "mutating method",
            ),
        ] {
            let got = detect(bad, &cfg, false);
            assert!(
                got.as_deref().is_some_and(|w| w.contains(why)),
                "{bad}: {got:?}"
            );
        }
    }

    #[test]
    fn named_arguments_and_lambda_defaults_are_not_assignments_where_the_language_has_them() {
        let cfg = ExpressionSafetyConfig::default();
        let py = Some("src/graph/match.py");
        for e in [
            "f(g, node_match=None)",
            "nx.is_isomorphic(g1, g2, node_match=lambda a, b: a == b)",
            "sorted(xs, key=lambda v: v.x, reverse=True)",
            "dict(a=1, b=f(c=2))",
            "fns[0](k=1)(j=2)",
            "(lambda x, y=2: x + y)(1)",
            "obj.method(a <= b, flag=a == b)",
            "[f(x, n=1) for x in xs if x != 0]",
        ] {
            assert_eq!(check(e, &cfg, py).map_err(|e| e.0), Ok(()), "{e}");
            assert_eq!(
                check(e, &cfg, Some("App.kt")).map_err(|e| e.0),
                Ok(()),
                "{e}"
            );
            // In C, Java or JS the same text assigns, and without a file it is taken so.
            assert!(check(e, &cfg, Some("prog.cpp")).is_err(), "{e}");
            assert!(check(e, &cfg, None).is_err(), "{e}");
        }
        for e in [
            "f(x, y) = 3",
            "x = f(k=1)",
            "f(a[0]=1)",
            "f(k=1) or (y := 2)",
            "f(a.b=1)",
            "(x = 1)",
            "if (x = 1)",
            "[y = 2]",
            "lambda: (z = 1)",
            "f(lambda x=1: x, g=(h = 2))",
        ] {
            assert!(check(e, &cfg, py).is_err(), "{e} must be refused in Python");
        }
    }

    #[test]
    fn modules_imported_by_name_are_listed_for_the_loaded_check() {
        assert_eq!(
            modules_read("__import__('sys').modules['a'].X + __import__(\"pkg.mod\").Y"),
            vec!["pkg.mod".to_string()]
        );
        assert_eq!(
            modules_read(
                "importlib.import_module('a.b').c, __import__('a.b'), __import__('builtins')"
            ),
            vec!["a.b".to_string()]
        );
        assert!(modules_read("sys.modules['x']").is_empty());
        assert_eq!(
            loaded_probe(&["a".into(), "b.c".into()]),
            "__import__('sys').modules.keys() >= {'a', 'b.c'}"
        );
        let e = not_loaded("__import__('b.c').X", &["b.c".into()], None).0;
        assert!(
            e.contains("imports 'b.c' not loaded")
                && e.contains("sys.modules.get")
                && e.contains("allow_side_effects: true"),
            "{e}"
        );
    }

    #[test]
    fn deny_list_is_configurable_and_the_guard_can_be_off() {
        let mut cfg = ExpressionSafetyConfig::default();
        assert!(check("cache.invalidate()", &cfg, None).is_ok());
        cfg.extra_mutating_methods.push("invalidate".into());
        let e = check("cache.invalidate()", &cfg, None).unwrap_err().0;
        assert!(
            e.contains("mutating method 'invalidate'") && e.contains("allow_side_effects: true"),
            "{e}"
        );
        cfg.enabled = false;
        assert!(check("items.append(1)", &cfg, None).is_ok());
    }

    #[test]
    fn refusal_names_the_expression_and_the_way_out() {
        let e = check("items.append(1)", &ExpressionSafetyConfig::default(), None)
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
