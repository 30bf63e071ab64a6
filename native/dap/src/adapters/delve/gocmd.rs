//! `go run` / `go test` command lines as delve launches.

use crate::config::{Generic, absolutize};
use debugger_mcp_core::backend::BackendError;
use serde_json::json;
use std::path::{Path, PathBuf};

/// `go build` flags that take a value (the rest are booleans).
const GO_BUILD_VALUE_FLAGS: &[&str] = &[
    "tags",
    "ldflags",
    "gcflags",
    "asmflags",
    "mod",
    "modfile",
    "p",
    "overlay",
    "pgo",
    "covermode",
    "coverpkg",
];
const GO_BUILD_BOOL_FLAGS: &[&str] = &[
    "race", "msan", "asan", "trimpath", "cover", "a", "n", "x", "work", "buildvcs",
];
/// `go test` flags the test binary takes as `-test.<name>`, and whether they take a value.
const GO_TEST_FLAGS: &[(&str, bool)] = &[
    ("run", true),
    ("skip", true),
    ("v", false),
    ("count", true),
    ("timeout", true),
    ("short", false),
    ("failfast", false),
    ("bench", true),
    ("benchtime", true),
    ("benchmem", false),
    ("cpu", true),
    ("parallel", true),
    ("list", true),
    ("shuffle", true),
];

/// `go run PKG|FILE.go [args…]` and `go test [PKG] [flags]` as delve launches: the package
/// (a directory or .go file, relative to `cwd`) is what `dlv debug`/`dlv test` would build;
/// `go test`'s flags become the test binary's (`-run X` → `-test.run X`) and build flags
/// delve's `buildFlags`. One package at a time: delve debugs one process.
pub(super) fn from_go_command(cwd: &Path, words: &[String]) -> Result<Generic, BackendError> {
    let test = words[1] == "test";
    let verb = if test { "go test" } else { "go run" };
    let mut g = Generic::default();
    let mut build_flags: Vec<String> = Vec::new();
    let mut package: Option<String> = None;
    let mut rest = words[2..].iter();
    while let Some(w) = rest.next() {
        let is_flag = w.starts_with('-') && w.len() > 1;
        if !is_flag {
            if package.is_none() {
                package = Some(w.clone());
                continue;
            }
            if test {
                return Err(BackendError::Failed(format!(
                    "'{verb}' with more than one package ('{}', '{w}'): the debugger runs one package's tests at a time",
                    package.unwrap_or_default()
                )));
            }
            // go run: everything after the package is the program's.
            g.args.push(w.clone());
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        if !test && package.is_some() {
            g.args.push(w.clone());
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        if test && (w == "-args" || w == "--args") {
            g.args.extend(rest.by_ref().cloned());
            break;
        }
        let body = w.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let mut value = |takes: bool| -> Result<Option<String>, BackendError> {
            if !takes || inline.is_some() {
                return Ok(inline.clone());
            }
            rest.next()
                .cloned()
                .map(Some)
                .ok_or_else(|| BackendError::Failed(format!("'{verb}': flag {w} needs a value")))
        };
        let test_flag = GO_TEST_FLAGS
            .iter()
            .find(|(n, _)| *n == name || name.strip_prefix("test.") == Some(*n));
        if test && let Some((n, takes)) = test_flag {
            match value(*takes)? {
                Some(v) if *takes => g.args.extend([format!("-test.{n}"), v]),
                Some(v) => g.args.push(format!("-test.{n}={v}")),
                None => g.args.push(format!("-test.{n}")),
            }
        } else if GO_BUILD_VALUE_FLAGS.contains(&name) {
            let v = value(true)?.unwrap_or_default();
            build_flags.push(format!("-{name}={v}"));
        } else if GO_BUILD_BOOL_FLAGS.contains(&name) {
            build_flags.push(w.clone());
        } else {
            return Err(BackendError::Failed(format!(
                "'{verb}': unsupported flag {w} (known: build flags {}; {})",
                GO_BUILD_VALUE_FLAGS
                    .iter()
                    .chain(GO_BUILD_BOOL_FLAGS)
                    .map(|f| format!("-{f}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                if test {
                    format!(
                        "test flags {}",
                        GO_TEST_FLAGS
                            .iter()
                            .map(|(f, _)| format!("-{f}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                } else {
                    "program arguments go after the package".into()
                }
            )));
        }
    }
    let package = package.unwrap_or_else(|| ".".into());
    if package.contains("...") {
        return Err(BackendError::Failed(format!(
            "'{verb} {package}': the debugger runs one package at a time; name its directory (e.g. ./calc)"
        )));
    }
    // Without the "./" of "./calc" (components() drops inner "." parts).
    let path: PathBuf = absolutize(cwd, &package).components().collect();
    if !path.exists() {
        return Err(BackendError::NotFound(format!(
            "Go package '{package}' (no such directory or file under {}; give its path, e.g. ./calc)",
            cwd.display()
        )));
    }
    if test {
        // Tests run in their package's directory (testdata/ is found relative to it).
        let dir = if path.is_dir() {
            path.clone()
        } else {
            path.parent().unwrap_or(cwd).to_path_buf()
        };
        g.cwd = Some(dir.display().to_string());
    }
    g.program = Some(path.display().to_string());
    g.extra
        .insert("mode".into(), json!(if test { "test" } else { "debug" }));
    if !build_flags.is_empty() {
        let quoted: Vec<String> = build_flags
            .iter()
            .map(|f| {
                if f.contains(' ') {
                    format!("'{f}'")
                } else {
                    f.clone()
                }
            })
            .collect();
        g.extra.insert("buildFlags".into(), json!(quoted.join(" ")));
    }
    Ok(g)
}
