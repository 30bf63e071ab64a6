//! Discovery records: how `debugger-mcp stdio` (and anything else local) finds the running
//! servers — the headless `debugger-mcp serve` and the IDE plugin.
//!
//! Each server process writes one JSON file `<pid>.json` into a per-user directory and removes it
//! on exit: `$DEBUGGER_MCP_DISCOVERY_DIR` when set; else Linux `$XDG_RUNTIME_DIR/debugger-mcp`
//! (or `~/.cache/debugger-mcp/instances`), macOS `~/Library/Caches/debugger-mcp/instances`,
//! Windows `%LOCALAPPDATA%\debugger-mcp\instances`. Files are private to the user (0600 in a
//! 0700 directory on Unix): they carry the bearer token. A process killed without cleanup
//! leaves a stale file; readers skip records whose process is gone and delete them.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Record {
    pub pid: u32,
    /// Streamable HTTP endpoint, e.g. `http://127.0.0.1:41234/debugger-mcp`.
    pub url: String,
    pub port: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Who serves: "debugger-mcp serve" or the IDE's name.
    pub product: String,
    /// Absolute project roots this server debugs.
    pub roots: Vec<PathBuf>,
}

impl Record {
    /// The longest root containing `path` (a more specific project wins), if any.
    pub fn best_root_for(&self, path: &Path) -> Option<&Path> {
        self.roots
            .iter()
            .map(PathBuf::as_path)
            .filter(|r| path.starts_with(r))
            .max_by_key(|r| r.as_os_str().len())
    }
}

pub fn dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if let Some(d) = var("DEBUGGER_MCP_DISCOVERY_DIR") {
        return Some(d);
    }
    if cfg!(windows) {
        return var("LOCALAPPDATA").map(|d| d.join("debugger-mcp").join("instances"));
    }
    let home = var("HOME")?;
    if cfg!(target_os = "macos") {
        return Some(
            home.join("Library")
                .join("Caches")
                .join("debugger-mcp")
                .join("instances"),
        );
    }
    Some(match var("XDG_RUNTIME_DIR") {
        Some(run) => run.join("debugger-mcp"),
        None => home.join(".cache").join("debugger-mcp").join("instances"),
    })
}

/// Is the process alive? (Unix: signal 0. Elsewhere we cannot tell cheaply: assume yes; the
/// bridge still skips servers it cannot reach.)
pub fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return false;
        };
        // SAFETY: kill with signal 0 only checks for existence/permission; no signal is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the record file when dropped (normal exit, graceful shutdown, plugin unload).
#[derive(Debug)]
pub struct Published {
    path: PathBuf,
}

impl Published {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rewrites the record (e.g. the IDE opened or closed a project).
    pub fn update(&self, record: &Record) -> std::io::Result<()> {
        write_private(&self.path, &serde_json::to_vec_pretty(record)?)
    }
}

impl Drop for Published {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("json.tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        use std::io::Write;
        let mut f = options.open(&tmp)?;
        f.write_all(bytes)?;
    }
    std::fs::rename(&tmp, path)
}

/// Writes this process's record; the returned guard removes it.
pub fn publish(record: &Record) -> std::io::Result<Published> {
    let dir = dir().ok_or_else(|| {
        std::io::Error::other("no per-user directory for discovery records (HOME unset)")
    })?;
    std::fs::create_dir_all(&dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    }
    let path = dir.join(format!("{}.json", record.pid));
    write_private(&path, &serde_json::to_vec_pretty(record)?)?;
    Ok(Published { path })
}

/// The live records; files of dead processes are deleted, unreadable ones skipped.
pub fn list() -> Vec<Record> {
    let Some(dir) = dir() else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(record) = serde_json::from_slice::<Record>(&bytes) else {
            continue;
        };
        if process_alive(record.pid) {
            out.push(record);
        } else {
            tracing::debug!(path = %path.display(), "removing the discovery record of a dead process");
            let _ = std::fs::remove_file(&path);
        }
    }
    out.sort_by_key(|r| r.pid);
    out
}
