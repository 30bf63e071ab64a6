//! Path mapping between the project (what agents see: project-relative local paths) and where
//! the debuggee runs (a container, a remote host, another root). One implementation for every
//! backend: the DBGp and DAP backends translate breakpoints out and stops back with it (the
//! DAP backend takes the keys out of what the adapter is sent, so none maps twice).
//!
//! Sources: launch.json `pathMappings` (PHP Debug: `{"/var/www/html": "${workspaceFolder}/src"}`;
//! debugpy: `[{"localRoot": …, "remoteRoot": …}]`), `localRoot`/`remoteRoot`, `substitutePath`
//! (delve: `[{"from": local, "to": remote}]`), `sourceFileMap` (cpptools: `{remote: local}`), and
//! bind mounts of `docker-compose.yml` / `compose.yaml` services (`./src:/var/www/html`).
//! With none of those, a backend that can read a remote file's bytes (DBGp `source`) infers the
//! mapping from the project file with those very bytes (`PathMap::inferred`). A remote path no
//! mapping covers, that does not exist locally either, is reported as unmapped: never guessed.

use serde_json::{Map, Value};
use std::path::{Component, Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// Remote directory, without a trailing slash.
    pub remote: String,
    /// Local absolute directory.
    pub local: PathBuf,
    /// Where the mapping came from (".vscode/launch.json", "docker-compose.yml service app").
    pub source: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct PathMap {
    maps: Vec<Mapping>,
}

/// A remote path as seen locally.
#[derive(Debug, Clone, PartialEq)]
pub enum Located {
    Local(PathBuf),
    /// No mapping covers it and it does not exist locally.
    Unmapped(String),
}

fn trim_slash(s: &str) -> String {
    let t = s.trim_end_matches(['/', '\\']);
    if t.is_empty() {
        "/".into()
    } else {
        t.to_string()
    }
}

/// `/a/b/../c` → `/a/c`: `.` and `..` resolved by name only, without touching the file system
/// (mapped roots may not exist yet; no links followed).
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn under<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    if dir == "/" {
        return path.strip_prefix('/');
    }
    let rest = path.strip_prefix(dir)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/').or_else(|| rest.strip_prefix('\\'))
    }
}

impl PathMap {
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    pub fn mappings(&self) -> &[Mapping] {
        &self.maps
    }

    /// Adds `remote` ↔ `local` (relative locals are taken from `root`). Later duplicates of a
    /// remote directory are ignored: launch.json entries are read before compose files.
    pub fn push(&mut self, root: &Path, remote: &str, local: &str, source: &str) {
        let remote = trim_slash(remote.trim());
        let local = local.trim();
        if remote.is_empty() || local.is_empty() || self.maps.iter().any(|m| m.remote == remote) {
            return;
        }
        let local = Path::new(local);
        let local = normalize(&if local.is_absolute() {
            local.to_path_buf()
        } else {
            root.join(local)
        });
        self.maps.push(Mapping {
            remote,
            local,
            source: source.to_string(),
        });
    }

    /// Merges `other`'s mappings after this one's.
    pub fn extend(&mut self, other: PathMap) {
        for m in other.maps {
            if !self.maps.iter().any(|x| x.remote == m.remote) {
                self.maps.push(m);
            }
        }
    }

    /// The remote path of a local file: through the mapping with the longest local directory
    /// containing it; unchanged when none does (local debugging).
    pub fn to_remote(&self, local: &Path) -> String {
        let text = local.display().to_string();
        let best = self
            .maps
            .iter()
            .filter_map(|m| under(&text, &m.local.display().to_string()).map(|rest| (m, rest)))
            .max_by_key(|(m, _)| m.local.as_os_str().len());
        match best {
            Some((m, "")) => m.remote.clone(),
            Some((m, rest)) if m.remote == "/" => format!("/{rest}"),
            Some((m, rest)) => format!("{}/{rest}", m.remote),
            None => text,
        }
    }

    /// The local path of a remote one: through the mapping with the longest remote directory
    /// containing it; else the path itself when it exists locally; else `Unmapped`.
    pub fn to_local(&self, remote: &str) -> Located {
        let best = self
            .maps
            .iter()
            .filter_map(|m| under(remote, &m.remote).map(|rest| (m, rest)))
            .max_by_key(|(m, _)| m.remote.len());
        if let Some((m, rest)) = best {
            return Located::Local(if rest.is_empty() {
                m.local.clone()
            } else {
                m.local.join(rest)
            });
        }
        if Path::new(remote).exists() {
            Located::Local(PathBuf::from(remote))
        } else {
            Located::Unmapped(remote.to_string())
        }
    }

    /// The mappings of one launch configuration (variables already substituted), any dialect.
    pub fn from_launch_entry(root: &Path, entry: &Map<String, Value>) -> PathMap {
        let mut map = PathMap::default();
        let src = ".vscode/launch.json";
        match entry.get("pathMappings") {
            // PHP Debug: {"remote": "local"}.
            Some(Value::Object(o)) => {
                for (remote, local) in o {
                    if let Some(local) = local.as_str() {
                        map.push(root, remote, local, src);
                    }
                }
            }
            // debugpy: [{"localRoot", "remoteRoot"}].
            Some(Value::Array(a)) => {
                for m in a {
                    if let (Some(l), Some(r)) = (
                        m.get("localRoot").and_then(Value::as_str),
                        m.get("remoteRoot").and_then(Value::as_str),
                    ) {
                        map.push(root, r, l, src);
                    }
                }
            }
            _ => {}
        }
        if let (Some(l), Some(r)) = (
            entry.get("localRoot").and_then(Value::as_str),
            entry.get("remoteRoot").and_then(Value::as_str),
        ) {
            map.push(root, r, l, src);
        }
        // delve: [{"from": local, "to": remote}].
        if let Some(Value::Array(a)) = entry.get("substitutePath") {
            for m in a {
                if let (Some(l), Some(r)) = (
                    m.get("from").and_then(Value::as_str),
                    m.get("to").and_then(Value::as_str),
                ) {
                    map.push(root, r, l, src);
                }
            }
        }
        // cpptools: {"remote": "local"} (or {"remote": {"editorPath": local}}).
        if let Some(Value::Object(o)) = entry.get("sourceFileMap") {
            for (remote, local) in o {
                let local = local
                    .as_str()
                    .or_else(|| local.get("editorPath").and_then(Value::as_str));
                if let Some(local) = local {
                    map.push(root, remote, local, src);
                }
            }
        }
        map
    }

    /// Bind mounts of every service in the project's compose file (`docker-compose.yml`,
    /// `docker-compose.yaml`, `compose.yaml`, `compose.yml`), relative sources taken from the
    /// file's directory. Named volumes are not files of the project and are skipped. No file
    /// is an empty map; a file that does not parse is an error naming it.
    pub fn from_compose(root: &Path) -> Result<PathMap, String> {
        let mut map = PathMap::default();
        for name in [
            "compose.yaml",
            "compose.yml",
            "docker-compose.yml",
            "docker-compose.yaml",
        ] {
            let path = root.join(name);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let docs =
                yaml_rust2::YamlLoader::load_from_str(&text).map_err(|e| format!("{name}: {e}"))?;
            let Some(doc) = docs.first() else { continue };
            let Some(services) = doc["services"].as_hash() else {
                continue;
            };
            for (svc, def) in services {
                let svc = svc.as_str().unwrap_or("?");
                let Some(vols) = def["volumes"].as_vec() else {
                    continue;
                };
                for v in vols {
                    let (source, target) = if let Some(s) = v.as_str() {
                        let mut parts = s.splitn(3, ':');
                        (
                            parts.next().map(str::to_string),
                            parts.next().map(str::to_string),
                        )
                    } else if v["type"].as_str() == Some("bind") || v["type"].is_badvalue() {
                        (
                            v["source"].as_str().map(str::to_string),
                            v["target"].as_str().map(str::to_string),
                        )
                    } else {
                        (None, None)
                    };
                    let (Some(source), Some(target)) = (source, target) else {
                        continue;
                    };
                    let is_bind = source.starts_with('.')
                        || source.starts_with('/')
                        || source.starts_with('~');
                    if !is_bind {
                        continue;
                    }
                    let source = match source.strip_prefix("~/") {
                        Some(rest) => std::env::var("HOME")
                            .map(|h| format!("{h}/{rest}"))
                            .unwrap_or(source),
                        None => source,
                    };
                    map.push(root, &target, &source, &format!("{name} service {svc}"));
                }
            }
        }
        Ok(map)
    }

    /// The mapping under which the remote file `remote` is a project file with its very bytes
    /// (`same`: the debuggee's bytes, read through DBGp `source`, or their digest): among the
    /// project's files of that name with those bytes, the one sharing the most trailing path
    /// components with `remote`; the directories above what they share map onto each other.
    /// None when no file has the bytes or two share as many components (a copy is not a guess).
    pub fn inferred(root: &Path, remote: &str, same: impl Fn(&[u8]) -> bool) -> Option<PathMap> {
        let remote = remote.replace('\\', "/");
        // A relative path says nothing about where the root is.
        if !(remote.starts_with('/') || remote.get(1..3) == Some(":/")) {
            return None;
        }
        let name = remote.rsplit('/').next().filter(|n| !n.is_empty())?;
        let mut best: Vec<(usize, PathBuf)> = Vec::new();
        for local in files_named(root, name) {
            if !std::fs::read(&local).is_ok_and(|b| same(&b)) {
                continue;
            }
            let shared = shared_tail(&remote, &local);
            match best.first() {
                Some((n, _)) if *n > shared => {}
                Some((n, _)) if *n == shared => best.push((shared, local)),
                _ => best = vec![(shared, local)],
            }
        }
        let [(shared, local)] = best.as_slice() else {
            return None;
        };
        let remote_parts: Vec<&str> = remote.split('/').collect();
        let remote_dir = remote_parts[..remote_parts.len() - shared].join("/");
        let mut local_dir = local.clone();
        for _ in 0..*shared {
            local_dir.pop();
        }
        let rel = local
            .strip_prefix(root)
            .unwrap_or(local)
            .display()
            .to_string();
        let mut map = PathMap::default();
        map.push(
            root,
            if remote_dir.is_empty() {
                "/"
            } else {
                &remote_dir
            },
            &local_dir.display().to_string(),
            &format!("inferred: the debuggee's {remote} is {rel}, byte for byte"),
        );
        Some(map)
    }

    /// One line per mapping, for messages: `/var/www/html → src (docker-compose.yml service app)`.
    pub fn describe(&self, root: &Path) -> String {
        if self.maps.is_empty() {
            return "no path mappings (launch.json pathMappings or docker-compose.yml volumes)"
                .into();
        }
        self.maps
            .iter()
            .map(|m| {
                let local = m
                    .local
                    .strip_prefix(root)
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| m.local.display().to_string());
                format!(
                    "{} → {} ({})",
                    m.remote,
                    if local.is_empty() { ".".into() } else { local },
                    m.source
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The project's files called `name`, found by the source scans' walk (`engine::sources`:
/// hidden folders and build output left out, `vendor/` entered).
fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let ext: Vec<&str> = Path::new(name)
        .extension()
        .and_then(|x| x.to_str())
        .into_iter()
        .collect();
    let walk = crate::engine::sources::Walk {
        extensions: &ext,
        vendor: true,
        max_files: 50_000,
        max_file_bytes: 16 << 20,
    };
    crate::engine::sources::files(root, &walk)
        .files
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n == name))
        .collect()
}

/// How many trailing path components `remote` and `local` have in common (the name at least).
fn shared_tail(remote: &str, local: &Path) -> usize {
    let local: Vec<String> = local
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    remote
        .split('/')
        .rev()
        .zip(local.iter().rev())
        .take_while(|(r, l)| *r == l.as_str())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_mapping_is_inferred_only_from_a_file_with_the_same_bytes() {
        let root = std::env::temp_dir().join(format!("dmcp-infer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in [
            ("src/public/index.php", "<?php echo 1;\n"),
            ("tests/fixtures/index.php", "<?php echo 2;\n"),
            ("src/lib/util.php", "<?php function u() {}\n"),
            ("copy/a/util.php", "<?php function u() {}\n"),
            ("copy/b/util.php", "<?php function u() {}\n"),
            (".git/index.php", "<?php echo 1;\n"),
        ] {
            let f = root.join(path);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, text).unwrap();
        }
        // The deployed entry script: the directories above the shared `public/index.php` map.
        let m = PathMap::inferred(&root, "/var/www/html/public/index.php", |b| {
            b == b"<?php echo 1;\n"
        })
        .expect("one file with those bytes");
        assert_eq!(
            m.to_local("/var/www/html/lib/x.php"),
            Located::Local(root.join("src/lib/x.php"))
        );
        assert!(
            m.describe(&root)
                .starts_with("/var/www/html → src (inferred"),
            "{}",
            m.describe(&root)
        );
        // A relative path (a script named relative to the program's directory): no root.
        assert_eq!(
            PathMap::inferred(&root, "public/index.php", |b| b == b"<?php echo 1;\n"),
            None
        );
        // Other bytes: no file is taken for it.
        assert_eq!(
            PathMap::inferred(&root, "/app/public/index.php", |b| b == b"<?php echo 3;\n"),
            None
        );
        // The same bytes in three places: the one sharing `lib/util.php` wins ...
        let m = PathMap::inferred(&root, "/srv/lib/util.php", |b| {
            b == b"<?php function u() {}\n"
        })
        .unwrap();
        assert_eq!(
            m.to_remote(&root.join("src/lib/util.php")),
            "/srv/lib/util.php"
        );
        // ... and where two share as much, nothing is guessed.
        assert_eq!(
            PathMap::inferred(&root, "/srv/x/util.php", |b| b
                == b"<?php function u() {}\n"),
            None
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn launch_json_dialects() {
        let root = Path::new("/p");
        let php = json!({"pathMappings": {"/var/www/html/": "${workspaceFolder}/src".replace("${workspaceFolder}", "/p")}});
        let m = PathMap::from_launch_entry(root, php.as_object().unwrap());
        assert_eq!(
            m.to_remote(Path::new("/p/src/a/b.php")),
            "/var/www/html/a/b.php"
        );
        assert_eq!(
            m.to_local("/var/www/html/a/b.php"),
            Located::Local("/p/src/a/b.php".into())
        );
        assert_eq!(
            m.to_local("/var/www/htmlx/b.php"),
            Located::Unmapped("/var/www/htmlx/b.php".into())
        );
        assert_eq!(m.to_remote(Path::new("/p/other.php")), "/p/other.php");
        let py = json!({"pathMappings": [{"localRoot": "app", "remoteRoot": "/srv"}]});
        assert_eq!(
            PathMap::from_launch_entry(root, py.as_object().unwrap())
                .to_remote(Path::new("/p/app/x.py")),
            "/srv/x.py"
        );
        let lr = json!({"localRoot": "/p", "remoteRoot": "/"});
        assert_eq!(
            PathMap::from_launch_entry(root, lr.as_object().unwrap()).to_local("/x.py"),
            Located::Local("/p/x.py".into())
        );
        let dlv = json!({"substitutePath": [{"from": "/p", "to": "/go/src/app"}]});
        assert_eq!(
            PathMap::from_launch_entry(root, dlv.as_object().unwrap())
                .to_remote(Path::new("/p/main.go")),
            "/go/src/app/main.go"
        );
        let gdb = json!({"sourceFileMap": {"/build": "/p/src", "/b2": {"editorPath": "lib"}}});
        let g = PathMap::from_launch_entry(root, gdb.as_object().unwrap());
        assert_eq!(
            g.to_local("/build/x.c"),
            Located::Local("/p/src/x.c".into())
        );
        assert_eq!(g.to_local("/b2/y.c"), Located::Local("/p/lib/y.c".into()));
    }

    #[test]
    fn longest_mapping_wins() {
        let mut m = PathMap::default();
        m.push(Path::new("/p"), "/app", ".", "t");
        m.push(Path::new("/p"), "/app/vendor", "third_party", "t");
        assert_eq!(
            m.to_local("/app/vendor/x.php"),
            Located::Local("/p/third_party/x.php".into())
        );
        assert_eq!(
            m.to_local("/app/src/x.php"),
            Located::Local("/p/src/x.php".into())
        );
        assert_eq!(
            m.to_remote(Path::new("/p/third_party/y.php")),
            "/app/vendor/y.php"
        );
    }

    #[test]
    fn compose_volumes() {
        let dir = std::env::temp_dir().join(format!("pathmap-compose-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("docker-compose.yml"),
            "services:\n  app:\n    image: php\n    volumes:\n      - ./src:/var/www/html:ro\n      - data:/var/lib/data\n      - type: bind\n        source: ./conf\n        target: /etc/app\n  db:\n    image: x\nvolumes:\n  data: {}\n",
        )
        .unwrap();
        let m = PathMap::from_compose(&dir).unwrap();
        assert_eq!(m.mappings().len(), 2, "{m:?}");
        assert_eq!(
            m.to_local("/var/www/html/index.php"),
            Located::Local(dir.join("src/index.php"))
        );
        assert_eq!(m.to_remote(&dir.join("conf/a.ini")), "/etc/app/a.ini");
        assert!(
            m.describe(&dir)
                .contains("/var/www/html → src (docker-compose.yml service app)"),
            "{}",
            m.describe(&dir)
        );
        std::fs::write(dir.join("docker-compose.yml"), "services: [oops\n").unwrap();
        assert!(
            PathMap::from_compose(&dir)
                .unwrap_err()
                .contains("docker-compose.yml")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
