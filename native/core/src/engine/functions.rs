//! Function names → where their bodies start, found in the project's sources.
//!
//! A function breakpoint (`set_breakpoint {function}`) binds at the first line of the body of
//! each definition the name matches, as a line breakpoint every backend has (DAP adapters,
//! Xdebug, the IDE). The core resolves the name itself, so the result can say where it bound
//! (file:line per match) before a session runs and the same name works on every debugger.
//!
//! Names: `total`, `Cart.add_item` / `Cart::add_item` (class, receiver type or struct), `pkg.Func`
//! / `module:func` (Go package, Python module = file stem, or directory), PHP's `Ns\Class::method`,
//! `\Ns\Class::method` and `Ns\func` (the file's `namespace Ns;`). The scan is lexical
//! (no parser): Python `def`, Go `func`, Rust `fn`, PHP/JS `function`, Kotlin `fun`, and C-like
//! definitions (`type name(...) {` not ending in `;`).

use std::path::Path;

/// One definition the name matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// Canonical path.
    pub file: String,
    /// 1-based line of the definition (`def`, `func`, signature).
    pub line: u32,
    /// 1-based first line of the body: where the breakpoint goes.
    pub body_line: u32,
    /// `Class.method`, `pkg.Func` or the bare name (PHP: `Ns\\Class::method`): how it is shown.
    pub qualified: String,
}

/// Files scanned at most, and bytes read per file: a function breakpoint must answer quickly in a
/// large checkout; definitions past these bounds are not found (the error says so).
const MAX_FILES: usize = 5_000;
const MAX_FILE_BYTES: u64 = 1_000_000;
const SOURCE_EXT: [&str; 17] = [
    "py", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "go", "rs", "java", "kt", "php", "js", "ts",
    "m", "cs",
];

/// What the scan found: the matches, and every function name seen (for "did you mean").
pub struct Found {
    pub matches: Vec<Definition>,
    pub near: Vec<String>,
    pub files: usize,
}

/// Splits `Cart.add_item`, `Class::method`, `pkg:func` into (qualifiers, name).
fn split(name: &str) -> (Vec<&str>, &str) {
    let parts: Vec<&str> = name
        .split("::")
        .flat_map(|p| p.split(['.', ':']))
        .filter(|p| !p.is_empty())
        .collect();
    match parts.split_last() {
        Some((last, rest)) => (rest.to_vec(), last),
        None => (Vec::new(), name),
    }
}

/// Finds the definitions of `name` under `root`.
pub fn resolve(root: &Path, name: &str) -> Found {
    // PHP namespaces: `\Ns\Class::method`, `Ns\Class.method`, `Ns\fn` name the file's
    // `namespace Ns;` (case-insensitive, as PHP's) and the class or function after it.
    let name = name.trim().trim_start_matches('\\');
    let (ns, name) = match name.rfind('\\') {
        Some(i) => (Some(&name[..i]), &name[i + 1..]),
        None => (None, name),
    };
    let (quals, bare) = split(name);
    let files = source_files(root);
    let mut matches = Vec::new();
    let mut seen: Vec<(String, String, bool)> = Vec::new();
    scan(root, &files, (ns, &quals, bare), &mut matches, &mut seen);
    let mut searched = files.len();
    // Dependencies are left out of the scan (their names would crowd the project's), but a
    // name the project does not define may be a library's: PHP's Composer packages under
    // vendor/ (`Vendor\Pkg\Class::method`), found through Composer's autoload maps first.
    if matches.is_empty() {
        let deps = vendor_files(root, ns, quals.last().copied());
        let mut ignored = Vec::new();
        scan(root, &deps, (ns, &quals, bare), &mut matches, &mut ignored);
        searched += deps.len();
    }
    Found {
        near: near(bare, &seen),
        matches,
        files: searched,
    }
}

/// The definitions of `bare` (under `quals`, in PHP namespace `ns`) in `files`, into `matches`;
/// every function seen into `seen` (for "did you mean").
fn scan(
    root: &Path,
    files: &[std::path::PathBuf],
    (ns, quals, bare): (Option<&str>, &[&str], &str),
    matches: &mut Vec<Definition>,
    seen: &mut Vec<(String, String, bool)>,
) {
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        let stem = f.file_stem().and_then(|e| e.to_str()).unwrap_or("");
        let dir = f
            .parent()
            .and_then(|d| d.file_name())
            .and_then(|d| d.to_str())
            .unwrap_or("");
        let lines: Vec<&str> = text.lines().collect();
        for d in definitions(ext, &lines) {
            let shown = format!("{}:{}", rel(root, f), d.line + 1);
            // A method of the class the name qualifies is near whatever it is called.
            let sibling = quals.last().is_some_and(|q| d.owner.as_deref() == Some(*q));
            let display = match &d.owner {
                Some(o) => format!("{o}.{}", d.name),
                None => d.name.to_string(),
            };
            seen.push((display, shown, sibling));
            if d.name != bare {
                continue;
            }
            // Every qualifier must name the enclosing class, the package, the file or its dir.
            let ok = quals.iter().all(|q| {
                d.owner.as_deref() == Some(*q) || d.package.as_deref() == Some(*q) || {
                    *q == stem || *q == dir
                }
            });
            let in_ns = ns.is_none_or(|ns| {
                ext == "php"
                    && d.package
                        .as_deref()
                        .is_some_and(|p| p.eq_ignore_ascii_case(ns))
            });
            if !ok || !in_ns {
                continue;
            }
            let Some(body) = body_line(ext, &lines, d.line) else {
                continue;
            };
            let qualified = qualified_name(ext, &d, bare);
            if matches
                .iter()
                .any(|m| m.file == f.to_string_lossy() && m.line == d.line as u32 + 1)
            {
                continue;
            }
            matches.push(Definition {
                file: f.to_string_lossy().into_owned(),
                line: d.line as u32 + 1,
                body_line: body as u32 + 1,
                qualified,
            });
        }
    }
}

/// How a definition is shown: `Class.method` / `pkg.Func` / `name`, and in PHP as PHP names
/// it (`__METHOD__`, and how Xdebug's own breakpoints and frames spell it): `Ns\\Class::method`,
/// `Ns\\func`.
fn qualified_name(ext: &str, d: &Def<'_>, bare: &str) -> String {
    if ext == "php" {
        let ns = d
            .package
            .as_deref()
            .map(|p| format!("{p}\\"))
            .unwrap_or_default();
        return match &d.owner {
            Some(o) => format!("{ns}{o}::{bare}"),
            None => format!("{ns}{bare}"),
        };
    }
    match &d.owner {
        Some(o) => format!("{o}.{bare}"),
        None => bare.to_string(),
    }
}

/// PHP files of the project's Composer dependencies (`vendor/`) that may define a name: for a
/// class in a namespace, the file Composer's class map or PSR-4 prefixes (vendor/composer/
/// autoload_classmap.php, autoload_psr4.php) give it; then every PHP file under vendor/
/// (bounded as the project scan is). Composer writes those maps as PHP arrays of
/// `'Ns\\Class' => $vendorDir . '/pkg/src/Class.php'` and
/// `'Ns\\' => array($vendorDir . '/pkg/src')` (read in the maps it generates).
fn vendor_files(root: &Path, ns: Option<&str>, class: Option<&str>) -> Vec<std::path::PathBuf> {
    let vendor = root.join("vendor");
    if !vendor.is_dir() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let (Some(ns), Some(class)) = (ns, class) {
        let fqcn = format!("{ns}\\{class}");
        let map = |name: &str| std::fs::read_to_string(vendor.join("composer").join(name));
        for (key, dirs) in composer_map(&map("autoload_classmap.php").unwrap_or_default(), root) {
            if key.eq_ignore_ascii_case(&fqcn) {
                out.extend(dirs);
            }
        }
        for (prefix, dirs) in composer_map(&map("autoload_psr4.php").unwrap_or_default(), root) {
            let Some(rest) = fqcn
                .get(..prefix.len())
                .filter(|p| p.eq_ignore_ascii_case(&prefix))
                .map(|_| &fqcn[prefix.len()..])
            else {
                continue;
            };
            for d in dirs {
                out.push(d.join(format!("{}.php", rest.replace('\\', "/"))));
            }
        }
        out.retain(|f| f.is_file());
    }
    let all = super::sources::files(
        &vendor,
        &super::sources::Walk {
            extensions: &[],
            vendor: true,
            max_files: MAX_FILES,
            max_file_bytes: MAX_FILE_BYTES,
        },
    )
    .files;
    out.extend(
        all.into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "php")),
    );
    out
}

/// Entries of a Composer autoload map: (key with PHP's `\\` unescaped, the paths it maps to).
fn composer_map(text: &str, root: &Path) -> Vec<(String, Vec<std::path::PathBuf>)> {
    let vendor = root.join("vendor");
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let Some((key, value)) = t.strip_prefix('\'').and_then(|k| k.split_once("' => ")) else {
            continue;
        };
        let key = key.replace("\\\\", "\\");
        let mut paths = Vec::new();
        for part in value.split(',') {
            let part = part
                .trim()
                .trim_start_matches("array(")
                .trim_end_matches([')', ';']);
            let Some((base, path)) = part.split_once(" . ") else {
                continue;
            };
            let base = match base.trim() {
                "$vendorDir" => vendor.clone(),
                "$baseDir" => root.to_path_buf(),
                _ => continue,
            };
            let path = path.trim().trim_matches('\'');
            paths.push(base.join(path.trim_start_matches('/')));
        }
        out.push((key, paths));
    }
    out
}

fn rel(root: &Path, f: &Path) -> String {
    f.strip_prefix(root)
        .unwrap_or(f)
        .to_string_lossy()
        .into_owned()
}

/// The project's source files, as the function scan sees them (bounded by [`MAX_FILES`], links
/// not followed, build and dependency folders left out).
pub fn source_files(root: &Path) -> Vec<std::path::PathBuf> {
    super::sources::files(
        root,
        &super::sources::Walk {
            extensions: &SOURCE_EXT,
            vendor: false,
            max_files: MAX_FILES,
            max_file_bytes: MAX_FILE_BYTES,
        },
    )
    .files
}

struct Def<'a> {
    name: &'a str,
    /// 0-based line.
    line: usize,
    /// Enclosing class / receiver type / `Class::` prefix.
    owner: Option<String>,
    /// Go package clause.
    package: Option<String>,
}

fn ident_at(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '$'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    &s[..end]
}

fn indent(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

const NOT_FUNCTIONS: [&str; 12] = [
    "if", "while", "for", "switch", "return", "sizeof", "catch", "else", "do", "case", "new",
    "defined",
];

fn definitions<'a>(ext: &str, lines: &[&'a str]) -> Vec<Def<'a>> {
    let mut out = Vec::new();
    // Go's package clause; PHP's `namespace Ns;` (its functions and classes live in it).
    let package = match ext {
        "go" => lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("package "))
            .map(|p| p.trim().to_string()),
        "php" => lines
            .iter()
            .find_map(|l| l.trim().strip_prefix("namespace "))
            .map(|p| p.trim().trim_end_matches([';', '{']).trim().to_string()),
        _ => None,
    };
    // Python classes by indentation: (indent, name).
    let mut classes: Vec<(usize, &str)> = Vec::new();
    // PHP/JS/TS/Kotlin classes by braces: (depth before the class line, name, body entered).
    let mut braced: Vec<(i32, &str, bool)> = Vec::new();
    let mut depth: i32 = 0;
    for (i, raw) in lines.iter().enumerate() {
        let t = raw.trim_start();
        if matches!(ext, "php" | "js" | "ts" | "kt") {
            braced.retain(|(d, _, entered)| !*entered || depth > *d);
            let words: Vec<&str> = t.split_whitespace().collect();
            if let Some(k) = words
                .iter()
                .position(|w| ["class", "trait", "interface", "enum", "object"].contains(w))
                && k + 1 < words.len()
                && words[..k].iter().all(|w| {
                    [
                        "abstract", "final", "readonly", "export", "default", "data", "open",
                        "private", "public", "internal",
                    ]
                    .contains(w)
                })
            {
                braced.push((depth, ident_at(words[k + 1]), false));
            }
        }
        match ext {
            "py" => {
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                let ind = indent(raw);
                classes.retain(|(ci, _)| *ci < ind);
                if let Some(rest) = t.strip_prefix("class ") {
                    classes.push((ind, ident_at(rest.trim_start())));
                    continue;
                }
                let rest = t.strip_prefix("async ").unwrap_or(t);
                if let Some(rest) = rest.strip_prefix("def ") {
                    let name = ident_at(rest.trim_start());
                    out.push(Def {
                        name,
                        line: i,
                        owner: classes.last().map(|(_, c)| c.to_string()),
                        package: None,
                    });
                }
            }
            "go" => {
                let Some(rest) = t.strip_prefix("func ") else {
                    continue;
                };
                let mut rest = rest.trim_start();
                let mut owner = None;
                if let Some(r) = rest.strip_prefix('(') {
                    let Some(close) = r.find(')') else { continue };
                    // `(c *Cart)` → Cart; `(Cart)` → Cart.
                    let recv = r[..close].split_whitespace().last().unwrap_or("");
                    owner = Some(ident_at(recv.trim_start_matches('*')).to_string());
                    rest = r[close + 1..].trim_start();
                }
                let name = ident_at(rest);
                if !name.is_empty() {
                    out.push(Def {
                        name,
                        line: i,
                        owner,
                        package: package.clone(),
                    });
                }
            }
            "rs" => {
                let Some(pos) = t.find("fn ") else { continue };
                let before = &t[..pos];
                if !before
                    .split_whitespace()
                    .all(|w| w.starts_with("pub") || ["async", "unsafe", "const"].contains(&w))
                {
                    continue;
                }
                let name = ident_at(&t[pos + 3..]);
                out.push(Def {
                    name,
                    line: i,
                    owner: None,
                    package: None,
                });
            }
            _ => {
                // PHP / JS `function name(`, Kotlin `fun name(`.
                let before = out.len();
                for kw in ["function ", "fun "] {
                    let Some(pos) = t.find(kw) else { continue };
                    if pos != 0 && !t[..pos].ends_with(' ') {
                        continue;
                    }
                    let name = ident_at(t[pos + kw.len()..].trim_start());
                    if !name.is_empty() {
                        // A method: the innermost class whose body this line is in.
                        let owner = braced
                            .iter()
                            .rev()
                            .find(|(_, _, entered)| *entered)
                            .map(|(_, c, _)| c.to_string());
                        out.push(Def {
                            name,
                            line: i,
                            owner,
                            package: package.clone(),
                        });
                    }
                }
                // Not the same definition a second time, without its class.
                if out.len() == before
                    && let Some(d) = c_like(lines, i)
                {
                    out.push(d);
                }
            }
        }
        if !braced.is_empty() || matches!(ext, "php" | "js" | "ts" | "kt") {
            // Braces outside `//` comments (strings with braces are rare in signatures).
            let code = raw.split("//").next().unwrap_or("");
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            for c in braced.iter_mut() {
                c.2 |= depth > c.0;
            }
        }
    }
    out
}

/// A C/C++/Java definition on line `i`: `type [Class::]name(...)` whose signature reaches `{`
/// before any `;` (a declaration or a call ends in `;`).
fn c_like<'a>(lines: &[&'a str], i: usize) -> Option<Def<'a>> {
    let raw = lines[i];
    let t = raw.trim();
    if t.starts_with('#') || t.starts_with("//") || t.starts_with('*') || t.ends_with(';') {
        return None;
    }
    let paren = raw.find('(')?;
    let head = raw[..paren].trim_end();
    // The identifier before `(`, with an optional `Class::` in front.
    let start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == ':' || *c == '~'))
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    let full = &head[start..];
    let before = head[..start].trim();
    let (owner, name) = match full.rfind("::") {
        Some(p) => (Some(full[..p].to_string()), &full[p + 2..]),
        None => (None, full),
    };
    // A definition has a return type before the name (or is `Class::ctor`); a call or a macro
    // has none, an assignment has `=`.
    if name.is_empty()
        || NOT_FUNCTIONS.contains(&name)
        || (before.is_empty() && owner.is_none())
        || before.contains('=')
        || before
            .split_whitespace()
            .any(|w| NOT_FUNCTIONS.contains(&w))
    {
        return None;
    }
    // The signature must open a body before it ends a statement.
    for l in lines.iter().skip(i).take(6) {
        let code = l.split("//").next().unwrap_or("");
        match (code.find('{'), code.find(';')) {
            (Some(b), Some(s)) if s < b => return None,
            (Some(_), _) => {
                let name: &'a str = &raw[raw.find(full)? + full.len() - name.len()..][..name.len()];
                return Some(Def {
                    name,
                    line: i,
                    owner,
                    package: None,
                });
            }
            (None, Some(_)) => return None,
            (None, None) => {}
        }
    }
    None
}

fn no_code(t: &str) -> bool {
    t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with("/*") || t == "{"
}

/// 0-based first line of the body of the definition at `def` (None: a one-line stub).
/// Where a Python `def` at line `def` (0-based) ends its signature: the line of the ':' outside
/// brackets and strings (annotations, defaults holding ':' or '#', a signature over several
/// lines), and whether code follows that ':' on its line (`def f() -> int: return 1`). None when
/// no such ':' comes within 40 lines.
fn py_signature_end(lines: &[&str], def: usize) -> Option<(usize, bool)> {
    let mut depth = 0i32;
    // The open string's quote and whether it is triple.
    let mut quote: Option<(char, bool)> = None;
    for (i, line) in lines.iter().enumerate().skip(def).take(40) {
        let cs: Vec<char> = line.chars().collect();
        let mut k = 0;
        while k < cs.len() {
            let ch = cs[k];
            let triple =
                |at: usize, q: char| cs.get(at + 1) == Some(&q) && cs.get(at + 2) == Some(&q);
            match quote {
                Some((q, long)) => {
                    if ch == '\\' {
                        k += 1;
                    } else if ch == q && (!long || triple(k, q)) {
                        quote = None;
                        if long {
                            k += 2;
                        }
                    }
                }
                None => match ch {
                    '#' => break,
                    '\'' | '"' => {
                        let long = triple(k, ch);
                        quote = Some((ch, long));
                        if long {
                            k += 2;
                        }
                    }
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth -= 1,
                    ':' if depth == 0 => {
                        let rest: String = cs[k + 1..].iter().collect();
                        let rest = rest.trim();
                        return Some((i, !rest.is_empty() && !rest.starts_with('#')));
                    }
                    _ => {}
                },
            }
            k += 1;
        }
        // A one-quote string does not continue on the next line.
        if quote.is_some_and(|(_, long)| !long) {
            quote = None;
        }
    }
    None
}

fn body_line(ext: &str, lines: &[&str], def: usize) -> Option<usize> {
    if ext == "py" {
        // The signature may span lines; `def f(): return 1` (code after its ':') is one line.
        let (i, one_line) = py_signature_end(lines, def)?;
        if one_line {
            return Some(def);
        }
        let mut j = i + 1;
        let mut in_doc: Option<&str> = None;
        while j < lines.len() {
            let t = lines[j].trim();
            if let Some(q) = in_doc {
                if t.contains(q) {
                    in_doc = None;
                }
                j += 1;
                continue;
            }
            if t.is_empty() || t.starts_with('#') {
                j += 1;
                continue;
            }
            // A docstring runs no code: the body starts after it.
            let doc = ["\"\"\"", "'''"].into_iter().find(|q| t.starts_with(q));
            if let Some(q) = doc {
                if !(t.len() >= 6 && t[3..].contains(q)) {
                    in_doc = Some(q);
                }
                j += 1;
                continue;
            }
            return Some(j);
        }
        return None;
    }
    // Brace languages: the line after the `{` that opens the body, unless code follows `{`.
    let mut i = def;
    while i < lines.len() && i < def + 8 {
        if let Some(b) = lines[i].find('{') {
            let after = lines[i][b + 1..].trim();
            if !after.is_empty() && !after.starts_with("//") && after != "}" {
                return Some(i);
            }
            let mut j = i + 1;
            while j < lines.len() {
                let t = lines[j].trim();
                if t.starts_with('}') {
                    // An empty body: break on its closing line.
                    return Some(j);
                }
                if !no_code(t) {
                    return Some(j);
                }
                j += 1;
            }
            return None;
        }
        i += 1;
    }
    None
}

/// A line breakpoint on a line that runs only when a function is defined, never when it is
/// called, moved to the line a call first runs: the first line of the body, and the phrase that
/// says so ("line 60 (def who) runs at definition; set at 61, the first line of its body").
/// `None` for any other line, and for a one-line `def f(): return 1` (a call runs that line).
///
/// Python only, by the file's extension: CPython runs a `def` statement (its decorators, its
/// signature's default values) once, when the module or the enclosing function runs it; a call
/// reports a `line` event for the body's first statement, never for the `def` line or a
/// docstring (checked with `sys.settrace` on CPython 3.11: a decorated two-line signature with
/// a docstring gave `call` then `line` at the first statement). Go (delve), C (gdb) and PHP
/// (Xdebug) stop on a function's opening line at each call, so their lines are left as given.
pub fn call_line(path: &str, text: &str, line: u32) -> Option<(u32, String)> {
    if !path.ends_with(".py") {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let at = (line as usize)
        .checked_sub(1)
        .filter(|&i| i < lines.len())?;
    let code = |i: usize| lines[i].split('#').next().unwrap_or("").trim();
    let def_name = |i: usize| {
        let t = lines[i].trim_start();
        let rest = t.strip_prefix("async ").unwrap_or(t).trim_start();
        rest.strip_prefix("def ").map(|r| ident_at(r.trim_start()))
    };
    // The `def` this line belongs to: the line itself, a line of its signature (up to the one
    // ending in ':'), or a decorator above it.
    // The nearest decorator or `def` at or above the line.
    let start = (at.saturating_sub(40)..=at)
        .rev()
        .find(|&i| lines[i].trim_start().starts_with('@') || def_name(i).is_some())?;
    let def = if lines[start].trim_start().starts_with('@') {
        // Decorators stack (their arguments may span lines): the first line after them at their
        // indent that is neither a decorator nor a closing bracket.
        let ind = indent(lines[start]);
        (start + 1..lines.len().min(start + 40))
            .find(|&i| {
                let c = code(i);
                !c.is_empty() && indent(lines[i]) == ind && !c.starts_with(['@', ')', ']', '}'])
            })
            .filter(|&i| def_name(i).is_some())
    } else {
        Some(start)
    };
    // The line must lie between the first decorator and the end of the signature (the first
    // line whose code ends with ':').
    let def = def.filter(|&d| py_signature_end(&lines, d).is_some_and(|(end, _)| at <= end));
    let d = def?;
    let body = body_line("py", &lines, d)?;
    if body == d {
        return None;
    }
    let name = def_name(d).unwrap_or("");
    let what = if at == d {
        format!("def {name}")
    } else if lines[at].trim_start().starts_with('@') {
        format!("a decorator of def {name}")
    } else {
        format!("the signature of def {name}")
    };
    Some((
        body as u32 + 1,
        format!(
            "line {line} ({what}) runs at definition; set at {}, the first line of its body",
            body + 1
        ),
    ))
}

/// Up to five names close to `want` (a bare name), each with where it is defined; `seen` holds
/// (shown name, place, a method of the class the name qualified).
fn near(want: &str, seen: &[(String, String, bool)]) -> Vec<String> {
    let w = want.to_lowercase();
    let mut scored: Vec<(usize, &String, &String)> = seen
        .iter()
        .filter(|(n, _, _)| !n.is_empty())
        .filter_map(|(n, at, sibling)| {
            let bare = n.rsplit('.').next().unwrap_or(n);
            let l = bare.to_lowercase();
            let mut d = distance(&l, &w);
            // `total` for `calculate_total`: a containing name is near whatever its length.
            if l.len().min(w.len()) >= 3 && (l.contains(&w) || w.contains(&l)) {
                d = d.min(1);
            }
            let close = d <= 2.max(l.len().max(w.len()) / 3);
            (close || *sibling).then_some((if close { d } else { d + 10 }, n, at))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
    scored
        .into_iter()
        .take(5)
        .map(|(_, n, at)| format!("{n} ({at})"))
        .collect()
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The line and phrase of [`call_line`] for `line` of `src` (a .py file).
    fn moved(src: &str, line: u32) -> Option<(u32, String)> {
        call_line("/p/team.py", src, line)
    }

    #[test]
    fn a_def_line_moves_to_the_first_line_a_call_runs() {
        let src = "class Team:\n    def who(self, at):\n        return self.names[at]\n";
        assert_eq!(
            moved(src, 2),
            Some((
                3,
                "line 2 (def who) runs at definition; set at 3, the first line of its body".into()
            ))
        );
        // The body's lines and the class line are left as given.
        assert_eq!(moved(src, 3), None);
        assert_eq!(moved(src, 1), None);
        let a = "async def fetch(u):\n    # get it\n\n    r = await get(u)\n    return r\n";
        assert_eq!(moved(a, 1).map(|m| m.0), Some(4));
    }

    #[test]
    fn decorators_signature_lines_and_a_docstring_move_past_to_the_body() {
        let src = "@cache\n@route(\n    \"/who\")\ndef who(self,\n        at=1):\n    \"\"\"Who is at.\n\n    More.\"\"\"\n    x = at\n    return x\n";
        for line in 1..=5 {
            assert_eq!(moved(src, line).map(|m| m.0), Some(9), "line {line}");
        }
        let (_, said) = moved(src, 1).unwrap();
        assert_eq!(
            said,
            "line 1 (a decorator of def who) runs at definition; set at 9, the first line of its body"
        );
        assert!(
            moved(src, 5)
                .unwrap()
                .1
                .contains("(the signature of def who)")
        );
        // A docstring is not code a call runs; the body is.
        assert_eq!(moved(src, 9), None);
    }

    #[test]
    fn a_nested_def_moves_to_its_own_body_not_the_outer_one() {
        let src =
            "def outer(n):\n    k = n\n    def inner(m):\n        return m + k\n    return inner\n";
        assert_eq!(moved(src, 3).map(|m| m.0), Some(4));
        assert_eq!(moved(src, 1).map(|m| m.0), Some(2));
        assert_eq!(moved(src, 2), None);
    }

    #[test]
    fn a_one_line_def_is_run_by_its_calls_and_stays() {
        // CPython reports a `line` event on the def line at each call of a one-line function.
        assert_eq!(moved("def one(): return 1\nx = one()\n", 1), None);
    }

    #[test]
    fn the_signature_ends_at_its_colon_outside_brackets_strings_and_comments() {
        // An annotated one-line def is run by its calls: left as given (it moved into the next
        // function's body when the end was "a line ending in ':'").
        let ann = "def __len__(self) -> int: return len(self.items)\n\ndef nxt():\n    return 2\n";
        assert_eq!(moved(ann, 1), None);
        // A '#' inside a default value is no comment: line 1 moves to 2, the body stays.
        let hash = "def join(parts, sep=\"#\"):\n    out = []\n    for p in parts:\n        out.append(p)\n    return sep.join(out)\n";
        assert_eq!(moved(hash, 1).map(|m| m.0), Some(2));
        assert_eq!(moved(hash, 2), None);
        assert_eq!(moved(hash, 3), None);
        // A signature over two lines with a one-line body: its calls run that line.
        let two = "def h(a,\n      b=1): return a\nwhile True:\n    break\n";
        assert_eq!(moved(two, 1), None);
        // Defaults holding ':' (a lambda, a dict) and a string with ':' stay inside the signature.
        let colons = "def f(k=lambda x: x, d={'a': 1},\n      s='x:y'):\n    return k\n";
        assert_eq!(moved(colons, 1).map(|m| m.0), Some(3));
        assert_eq!(moved(colons, 2).map(|m| m.0), Some(3));
    }

    #[test]
    fn other_languages_and_lines_out_of_range_are_left_as_given() {
        assert_eq!(call_line("/p/a.go", "func f() {\n\treturn\n}\n", 1), None);
        assert_eq!(
            call_line("/p/a.php", "<?php\nfunction f($x) {\n  return $x;\n}\n", 2),
            None
        );
        assert_eq!(moved("def f(x):\n    return x\n", 0), None);
        assert_eq!(moved("def f(x):\n    return x\n", 9), None);
        // A def whose body is not in the file yet: nothing to move to.
        assert_eq!(moved("def f(x):\n", 1), None);
    }

    #[test]
    fn composer_maps_give_the_files_of_a_class() {
        let root = Path::new("/p");
        let psr4 = "<?php\n\n$vendorDir = dirname(__DIR__);\n$baseDir = dirname($vendorDir);\n\nreturn array(\n    'Acme\\\\Pricing\\\\' => array($vendorDir . '/acme/pricing/src', $vendorDir . '/acme/pricing/lib'),\n    'App\\\\' => array($baseDir . '/app'),\n);\n";
        assert_eq!(
            composer_map(psr4, root),
            [
                (
                    "Acme\\Pricing\\".to_string(),
                    vec![
                        PathBuf::from("/p/vendor/acme/pricing/src"),
                        PathBuf::from("/p/vendor/acme/pricing/lib")
                    ]
                ),
                ("App\\".to_string(), vec![PathBuf::from("/p/app")]),
            ]
        );
    }

    #[test]
    fn php_definitions_are_shown_as_php_names_them() {
        let d = Def {
            name: "apply",
            line: 0,
            owner: Some("Discount".into()),
            package: Some("Acme\\Pricing".into()),
        };
        assert_eq!(
            qualified_name("php", &d, "apply"),
            "Acme\\Pricing\\Discount::apply"
        );
        assert_eq!(qualified_name("py", &d, "apply"), "Discount.apply");
        let f = Def { owner: None, ..d };
        assert_eq!(qualified_name("php", &f, "apply"), "Acme\\Pricing\\apply");
    }

    fn defs(ext: &str, src: &str) -> Vec<(String, usize, Option<usize>, Option<String>)> {
        let lines: Vec<&str> = src.lines().collect();
        definitions(ext, &lines)
            .into_iter()
            .map(|d| {
                (
                    d.name.to_string(),
                    d.line + 1,
                    body_line(ext, &lines, d.line).map(|b| b + 1),
                    d.owner,
                )
            })
            .collect()
    }

    #[test]
    fn python_methods_docstrings_and_signatures_over_lines() {
        let src = "class Cart:\n    def add_item(self, x):\n        \"\"\"Adds.\n        more\"\"\"\n        self.items.append(x)\n\ndef total(a,\n          b):\n    # sum\n    return a + b\n";
        assert_eq!(
            defs("py", src),
            [
                ("add_item".into(), 2, Some(5), Some("Cart".into())),
                ("total".into(), 7, Some(10), None)
            ]
        );
    }

    #[test]
    fn c_definitions_not_declarations_or_calls() {
        let src = "int sum(int *a, int n);\nint sum(int *a, int n)\n{\n    int s = 0;\n    return s;\n}\nint main(void) {\n    return sum(0, 0);\n}\nvoid Cart::add(int x) {\n  items.push_back(x);\n}\n";
        assert_eq!(
            defs("c", src),
            [
                ("sum".into(), 2, Some(4), None),
                ("main".into(), 7, Some(8), None),
                ("add".into(), 10, Some(11), Some("Cart".into()))
            ]
        );
    }

    #[test]
    fn php_methods_belong_to_their_class() {
        let src = "<?php\nclass Cart\n{\n    public function add($x)\n    {\n        $this->items[] = $x;\n    }\n}\nfunction total($c)\n{\n    return 1;\n}\nfinal class Tax\n{\n    public static function rate() { return 2; }\n}\n";
        assert_eq!(
            defs("php", src),
            [
                ("add".into(), 4, Some(6), Some("Cart".into())),
                ("total".into(), 9, Some(11), None),
                ("rate".into(), 15, Some(15), Some("Tax".into()))
            ]
        );
    }

    #[test]
    fn go_functions_and_methods() {
        let src = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc (c *Cart) Total() int {\n\treturn 0\n}\n";
        assert_eq!(
            defs("go", src),
            [
                ("Add".into(), 3, Some(4), None),
                ("Total".into(), 7, Some(8), Some("Cart".into()))
            ]
        );
    }

    #[test]
    fn names_split_on_dots_colons_and_double_colons() {
        assert_eq!(split("Cart.add_item"), (vec!["Cart"], "add_item"));
        assert_eq!(split("Class::method"), (vec!["Class"], "method"));
        assert_eq!(split("mod:func"), (vec!["mod"], "func"));
        assert_eq!(split("f"), (vec![], "f"));
    }

    #[test]
    fn near_names_rank_close_spellings_first() {
        let seen = vec![
            ("calculate_total".to_string(), "a.py:3".to_string(), false),
            ("main".to_string(), "a.py:9".to_string(), false),
            ("f".to_string(), "b.py:1".to_string(), false),
            ("Cart.add".to_string(), "c.py:5".to_string(), true),
        ];
        assert_eq!(
            near("calc_total", &seen),
            ["calculate_total (a.py:3)", "Cart.add (c.py:5)"]
        );
        assert_eq!(
            near("calculate_totl", &seen),
            ["calculate_total (a.py:3)", "Cart.add (c.py:5)"]
        );
        assert_eq!(near("fcat", &seen), ["Cart.add (c.py:5)"]);
    }
}
