//! A point named by its source text (issue 26: agents ran `grep -n` before every breakpoint):
//! `{file_path, text}` is the one line of that file holding `text`; `{text}` alone searches the
//! project's source files. One match is that line; several, or none, are an error that lists
//! them (or says what was searched) and what to give instead. capture points, set_breakpoint
//! (and its `breakpoints` items) and a start's `breakpoints` resolve `text` here before anything
//! is set, so a refused text changes nothing.

use super::super::context::{Call, ToolError};
use std::path::{Path, PathBuf};

/// Files and bytes a project-wide search reads at most; past either it stops and says so.
pub(crate) const MAX_FILES: usize = 20_000;
pub(crate) const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// A file larger than this is not read (a generated or minified file, not one to break in).
const MAX_FILE_BYTES: u64 = 2_000_000;
/// Matches listed in the error for an ambiguous text.
const LISTED: usize = 5;
const SOURCE_EXT: [&str; 28] = [
    "py", "pyi", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "inc", "go", "rs", "java", "kt",
    "php", "phtml", "js", "mjs", "cjs", "jsx", "ts", "tsx", "m", "mm", "cs", "rb", "swift",
];

/// One line holding the text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Match {
    pub file: PathBuf,
    /// 1-based.
    pub line: u32,
    pub source: String,
}

/// What a project search read.
#[derive(Debug, Default)]
pub(crate) struct Searched {
    pub matches: Vec<Match>,
    pub files: usize,
    /// Stopped at a bound: "20000 files" or "67108864 bytes".
    pub cut: Option<String>,
}

/// The lines of `source` containing `text` (already trimmed), in `file`. A text over several
/// lines (as an agent took it out of the file, twelfth set) matches where each of its lines is held by one
/// source line after another, blank ones left out of the text; the match is its first line.
fn lines_with(file: &Path, source: &str, text: &str, out: &mut Vec<Match>) {
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let lines: Vec<&str> = source.lines().collect();
    for i in 0..lines.len() {
        let held = parts
            .iter()
            .enumerate()
            .all(|(k, p)| lines.get(i + k).is_some_and(|l| l.contains(p)));
        if held {
            out.push(Match {
                file: file.to_path_buf(),
                line: i as u32 + 1,
                source: lines[i].trim().to_string(),
            });
        }
    }
}

/// Searches the source files under `root` (as [`super::super::sources`] walks them, `vendor/`
/// included: PHP agents set points in Composer packages), within `max_files` files and
/// `max_bytes` bytes read.
pub(crate) fn search(root: &Path, text: &str, max_files: usize, max_bytes: u64) -> Searched {
    use super::super::sources::{Walk, files};
    let mut s = Searched::default();
    let found = files(
        root,
        &Walk {
            extensions: &SOURCE_EXT,
            vendor: true,
            max_files,
            max_file_bytes: MAX_FILE_BYTES,
        },
    );
    let mut bytes = 0u64;
    for path in found.files {
        let Ok(raw) = std::fs::read(&path) else {
            continue;
        };
        if bytes + raw.len() as u64 > max_bytes {
            s.cut = Some(format!("{} MB read", max_bytes / (1024 * 1024)));
            return s;
        }
        bytes += raw.len() as u64;
        s.files += 1;
        lines_with(&path, &String::from_utf8_lossy(&raw), text, &mut s.matches);
    }
    if found.cut {
        s.cut = Some(format!("{max_files} files"));
    }
    s
}

/// `path` relative to `root` when inside it.
fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The text as matched: surrounding whitespace dropped; empty refused.
pub(crate) fn fragment(text: &str) -> Result<&str, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(
            "field 'text': empty; give a fragment of the line's source, e.g. 'total += price'"
                .into(),
        );
    }
    Ok(t)
}

/// The one line holding `text`: in `file` (canonical, inside `root`) when given, else in the
/// project's source files. `root` is canonical. Errors say what to give instead.
pub(crate) fn resolve(
    root: &Path,
    file: Option<&Path>,
    text: &str,
    max_files: usize,
    max_bytes: u64,
) -> Result<Match, String> {
    let t = fragment(text)?;
    let shown = brief(t);
    let (mut matches, cut, searched) = match file {
        Some(f) => {
            let raw = std::fs::read(f)
                .map_err(|e| format!("field 'file_path': cannot read {}: {e}", rel(root, f)))?;
            let mut m = Vec::new();
            lines_with(f, &String::from_utf8_lossy(&raw), t, &mut m);
            (m, None, rel(root, f))
        }
        None => {
            let s = search(root, t, max_files, max_bytes);
            let what = format!(
                "the project's {} source files ({} left out)",
                s.files,
                super::super::sources::skipped(true)
            );
            (s.matches, s.cut, what)
        }
    };
    let stopped = |cut: &str| {
        format!(
            "; the search stopped at its bound ({cut}; at most {max_files} files, {} MB): give file_path",
            max_bytes / (1024 * 1024)
        )
    };
    match matches.len() {
        0 => Err(format!(
            "field 'text': no line holds `{shown}` in {searched}{}; copy the fragment from one line (case and spacing as in the source), or give line",
            cut.as_deref().map(stopped).unwrap_or_else(|| match file {
                Some(_) => String::new(),
                None => "; give file_path if the file is elsewhere".into(),
            })
        )),
        1 if cut.is_none() => Ok(matches.remove(0)),
        1 => {
            let m = &matches[0];
            Err(format!(
                "field 'text': `{shown}` is at {}:{}, but other files may hold it too{}",
                rel(root, &m.file),
                m.line,
                stopped(cut.as_deref().unwrap_or_default())
            ))
        }
        n => {
            let listed: Vec<String> = matches
                .iter()
                .take(LISTED)
                .map(|m| format!("{}:{}: {}", rel(root, &m.file), m.line, brief(&m.source)))
                .collect();
            let more = if n > LISTED {
                format!("\n({} more)", n - LISTED)
            } else {
                String::new()
            };
            Err(format!(
                "field 'text': `{shown}` is on {n} lines{}; give {}a longer text, or line:\n{}{more}",
                if file.is_some() {
                    String::new()
                } else {
                    format!(" of {searched}")
                },
                if file.is_some() { "" } else { "file_path, " },
                listed.join("\n"),
            ))
        }
    }
}

/// A source line or text as an error quotes it: on one line (`↵` for a break), at most 80
/// characters.
fn brief(s: &str) -> String {
    let s = &s
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ↵ ");
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(80).collect::<String>())
    } else {
        s.to_string()
    }
}

/// A point's place as the agent named it, checked before anything is set: `line` or `text`
/// (not both), and `text` not with `function`.
pub(crate) fn check_fields(
    file_path: Option<&str>,
    line: Option<u32>,
    text: Option<&str>,
    function: Option<&str>,
) -> Result<(), String> {
    let Some(text) = text else {
        return Ok(());
    };
    if line.is_some() {
        return Err("give line or text, not both: keep line for that line number, or text to find the line holding it".into());
    }
    if function.is_some() {
        return Err("give text or function, not both: text names a line (with file_path optional), function a function's entry".into());
    }
    let _ = file_path;
    fragment(text).map(|_| ())
}

/// `text` (with `file_path` when given) → the canonical file, its 1-based line and the file
/// relative to the project (as results show it).
pub(crate) async fn line_of(
    c: &Call<'_>,
    root: &str,
    file_path: Option<&str>,
    text: &str,
) -> Result<(String, u32, String), ToolError> {
    let file = file_path.map(|f| c.file_in_project(root, f)).transpose()?;
    let croot = c.engine.canonical_root(root);
    let text = text.to_string();
    let base = croot.clone();
    let found = tokio::task::spawn_blocking(move || {
        resolve(
            &base,
            file.as_deref().map(Path::new),
            &text,
            MAX_FILES,
            MAX_BYTES,
        )
    })
    .await
    .map_err(|e| ToolError(format!("text search failed: {e}")))?
    .map_err(ToolError)?;
    let shown = rel(&croot, &found.file);
    Ok((found.file.to_string_lossy().into_owned(), found.line, shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Removed when dropped.
    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn project() -> (Dir, PathBuf) {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let d = std::env::temp_dir().join(format!(
            "dmcp-by-text-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        let root = d.canonicalize().unwrap();
        let d = Dir(d);
        let w = |p: &str, s: &str| {
            let f = root.join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, s).unwrap();
        };
        w(
            "app.py",
            "def total(xs):\n    acc = 0\n    for x in xs:\n        acc += x\n    return acc\n",
        );
        w(
            "lib/util.py",
            "def twice(v):\n    return v * 2\n\n\ndef thrice(v):\n    return v * 3\n",
        );
        w(
            "vendor/acme/src/Cart.php",
            "<?php\nclass Cart {\n    function add($x) {\n        $this->items[] = $x; // in a Composer package\n    }\n}\n",
        );
        w("node_modules/x/index.js", "acc += x\n");
        w(".hidden/h.py", "acc += x\n");
        w("notes.txt", "acc += x\n");
        (d, root)
    }

    #[test]
    fn one_match_in_the_project_is_that_line() {
        let (_d, root) = project();
        let m = resolve(&root, None, "  acc += x ", 100, 1 << 20).unwrap();
        assert_eq!((m.file, m.line), (root.join("app.py"), 4));
        // vendor/ is searched.
        let m = resolve(&root, None, "// in a Composer package", 100, 1 << 20).unwrap();
        assert_eq!((m.file, m.line), (root.join("vendor/acme/src/Cart.php"), 4));
    }

    #[test]
    fn several_matches_are_listed_with_what_to_give() {
        let (_d, root) = project();
        let e = resolve(&root, None, "return v *", 100, 1 << 20).unwrap_err();
        assert!(
            e.starts_with("field 'text': `return v *` is on 2 lines of the project's"),
            "{e}"
        );
        assert!(
            e.ends_with("; give file_path, a longer text, or line:\nlib/util.py:2: return v * 2\nlib/util.py:6: return v * 3"),
            "{e}"
        );
        // In one file: listed without the search's description.
        let f = root.join("lib/util.py");
        let e = resolve(&root, Some(&f), "return", 100, 1 << 20).unwrap_err();
        assert_eq!(
            e,
            "field 'text': `return` is on 2 lines; give a longer text, or line:\nlib/util.py:2: return v * 2\nlib/util.py:6: return v * 3"
        );
        let m = resolve(&root, Some(&f), "v * 3", 100, 1 << 20).unwrap();
        assert_eq!(m.line, 6);
    }

    #[test]
    fn more_than_five_matches_list_five_and_count_the_rest() {
        let (_d, root) = project();
        std::fs::write(root.join("many.py"), "x = 1\n".repeat(8)).unwrap();
        let e = resolve(&root, None, "x = 1", 100, 1 << 20).unwrap_err();
        assert!(
            e.contains("is on 8 lines") && e.ends_with("\nmany.py:5: x = 1\n(3 more)"),
            "{e}"
        );
        assert!(!e.contains("many.py:6"), "{e}");
    }

    #[test]
    fn no_match_names_what_was_searched() {
        let (_d, root) = project();
        let e = resolve(&root, None, "nowhere()", 100, 1 << 20).unwrap_err();
        // app.py, lib/util.py, Cart.php: not node_modules, hidden folders or .txt.
        assert!(
            e.starts_with(
                "field 'text': no line holds `nowhere()` in the project's 3 source files"
            ),
            "{e}"
        );
        assert!(
            e.contains("hidden folders, target, node_modules, __pycache__"),
            "{e}"
        );
        let f = root.join("app.py");
        let e = resolve(&root, Some(&f), "acc -= x", 100, 1 << 20).unwrap_err();
        assert!(
            e.starts_with("field 'text': no line holds `acc -= x` in app.py; copy the fragment"),
            "{e}"
        );
    }

    #[test]
    fn a_search_past_its_bounds_says_the_bound() {
        let (_d, root) = project();
        // Two files read (app.py, lib/util.py) before the bound: the one match is not trusted.
        let e = resolve(&root, None, "acc += x", 2, 1 << 20).unwrap_err();
        assert!(
            e.contains("`acc += x` is at app.py:4, but other files may hold it too"),
            "{e}"
        );
        assert!(
            e.contains(
                "the search stopped at its bound (2 files; at most 2 files, 1 MB): give file_path"
            ),
            "{e}"
        );
        let e = resolve(&root, None, "nowhere()", 1, 1 << 20).unwrap_err();
        assert!(e.contains("stopped at its bound (1 files"), "{e}");
        let e = resolve(&root, None, "nowhere()", 100, 100).unwrap_err();
        assert!(e.contains("stopped at its bound (0 MB read"), "{e}");
    }

    #[test]
    fn empty_text_and_mixed_fields_are_refused_and_a_text_may_span_lines() {
        let (_d, root) = project();
        assert!(
            resolve(&root, None, "  ", 100, 1 << 20)
                .unwrap_err()
                .starts_with("field 'text': empty")
        );
        // A text over lines: where its lines stand one after another, on the first.
        let m = resolve(&root, None, "acc = 0\n\n    for x in xs:", 100, 1 << 20).unwrap();
        assert_eq!((m.file.ends_with("app.py"), m.line), (true, 2), "{m:?}");
        let e = resolve(&root, None, "acc = 0\nreturn acc", 100, 1 << 20).unwrap_err();
        assert!(e.contains("no line holds `acc = 0 ↵ return acc`"), "{e}");
        assert!(
            check_fields(Some("a.py"), Some(3), Some("x"), None)
                .unwrap_err()
                .starts_with("give line or text, not both")
        );
        assert!(
            check_fields(None, None, Some("x"), Some("f"))
                .unwrap_err()
                .starts_with("give text or function, not both")
        );
        assert!(
            check_fields(None, None, Some(""), None)
                .unwrap_err()
                .starts_with("field 'text': empty")
        );
        assert!(check_fields(Some("a.py"), None, Some("x"), None).is_ok());
    }
}
