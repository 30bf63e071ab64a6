//! The project's files as the source scans see them: the function scan (`functions`: where a
//! function breakpoint binds, a path suffix the agent typed) and points by text (`by_text`).
//! One walk, in name order and depth first, so the same project answers the same way; links
//! are not followed (a link could lead outside the project), hidden folders and build output
//! are left out, and the walk stops at a bound the caller states and reports.

use std::path::{Path, PathBuf};

/// Folders no scan enters, beside hidden ones (`.git`, `.venv`): build output and installed
/// dependencies. `vendor/` is entered only when [`Walk::vendor`] says so.
const SKIP_DIRS: [&str; 8] = [
    "target",
    "node_modules",
    "__pycache__",
    "venv",
    "build",
    "dist",
    "site-packages",
    "out",
];

/// Folders deeper than this are not entered.
const MAX_DEPTH: usize = 16;

/// What one walk takes.
pub(crate) struct Walk<'a> {
    /// File name extensions taken; empty takes every file (and enters every folder: the walk of
    /// a dependency folder itself).
    pub extensions: &'a [&'a str],
    /// Whether `vendor/` (Composer's packages) is entered.
    pub vendor: bool,
    pub max_files: usize,
    /// Larger files are passed over (generated or minified, not read by a scan).
    pub max_file_bytes: u64,
}

/// The files found, and whether the walk stopped at `max_files` before the end.
pub(crate) struct Files {
    pub files: Vec<PathBuf>,
    pub cut: bool,
}

/// The folders the walk leaves out, as an error says them.
pub(crate) fn skipped(vendor: bool) -> String {
    let mut d: Vec<&str> = SKIP_DIRS.to_vec();
    if !vendor {
        d.push("vendor");
    }
    format!("hidden folders, {}", d.join(", "))
}

pub(crate) fn files(root: &Path, w: &Walk) -> Files {
    let all = w.extensions.is_empty();
    let enter = |e: &walkdir::DirEntry| {
        if e.depth() == 0 || !e.file_type().is_dir() || all {
            return true;
        }
        let name = e.file_name().to_string_lossy();
        !(name.starts_with('.')
            || SKIP_DIRS.contains(&name.as_ref())
            || (name == "vendor" && !w.vendor))
    };
    let mut out = Files {
        files: Vec::new(),
        cut: false,
    };
    let walk = walkdir::WalkDir::new(root)
        .follow_links(false)
        .max_depth(MAX_DEPTH)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(enter);
    for e in walk.flatten() {
        if !e.file_type().is_file() {
            continue;
        }
        let taken = all
            || e.path()
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| w.extensions.contains(&x));
        if !taken || e.metadata().map_or(true, |m| m.len() > w.max_file_bytes) {
            continue;
        }
        if out.files.len() >= w.max_files {
            out.cut = true;
            break;
        }
        out.files.push(e.into_path());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Tree(PathBuf);
    impl Tree {
        fn path(&self) -> &Path {
            &self.0
        }
    }
    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn tree(name: &str) -> Tree {
        let d =
            Tree(std::env::temp_dir().join(format!("dmcp-sources-{name}-{}", std::process::id())));
        let _ = std::fs::remove_dir_all(d.path());
        for f in [
            "a.py",
            "b/c.py",
            "b/notes.txt",
            ".hidden/x.py",
            "node_modules/m.js",
            "vendor/lib/v.php",
            "build/gen.c",
        ] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x = 1\n").unwrap();
        }
        d
    }

    fn names(root: &Path, f: &Files) -> Vec<String> {
        f.files
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn takes_source_files_in_name_order_and_leaves_out_hidden_build_and_dependency_folders() {
        let d = tree("order");
        let ext = ["py", "php", "c", "js"];
        let w = Walk {
            extensions: &ext,
            vendor: false,
            max_files: 100,
            max_file_bytes: 1000,
        };
        assert_eq!(names(d.path(), &files(d.path(), &w)), ["a.py", "b/c.py"]);
        let w = Walk { vendor: true, ..w };
        assert_eq!(
            names(d.path(), &files(d.path(), &w)),
            ["a.py", "b/c.py", "vendor/lib/v.php"]
        );
    }

    #[test]
    fn stops_at_the_file_bound_and_says_so() {
        let d = tree("bound");
        let w = Walk {
            extensions: &["py"],
            vendor: false,
            max_files: 1,
            max_file_bytes: 1000,
        };
        let f = files(d.path(), &w);
        assert_eq!(
            (names(d.path(), &f), f.cut),
            (vec!["a.py".to_string()], true)
        );
        let w = Walk {
            max_file_bytes: 2,
            max_files: 10,
            ..w
        };
        assert!(
            files(d.path(), &w).files.is_empty(),
            "files over the byte bound are passed over"
        );
    }

    #[test]
    fn without_extensions_every_file_of_every_folder() {
        let d = tree("all");
        let w = Walk {
            extensions: &[],
            vendor: true,
            max_files: 100,
            max_file_bytes: 1000,
        };
        assert_eq!(files(d.path(), &w).files.len(), 7);
    }
}
