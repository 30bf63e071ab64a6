//! Reading and atomic writing of config files.

use crate::{InstallError, display};
use std::io::Write;
use std::path::{Path, PathBuf};

fn io(path: &Path, source: std::io::Error) -> InstallError {
    InstallError::Io {
        path: display(path),
        source,
    }
}

/// The file's text, or `None` when it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| InstallError::Shape {
                path: display(path),
                message: "is not UTF-8 text".into(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(path, e)),
    }
}

pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".debugger-mcp.bak");
    path.with_file_name(name)
}

/// Writes `text` to a temporary file beside `path` and renames it over `path`, so a reader (or a
/// crash) never sees half a file. The previous file is copied to the backup first; the new file
/// keeps the old one's permissions (e.g. ~/.claude.json is private).
pub fn write_atomic(
    path: &Path,
    text: &str,
    existed: bool,
) -> Result<Option<PathBuf>, InstallError> {
    let dir = path.parent().ok_or_else(|| InstallError::Shape {
        path: display(path),
        message: "has no parent directory".into(),
    })?;
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let backup = if existed {
        let b = backup_path(path);
        std::fs::copy(path, &b).map_err(|e| io(&b, e))?;
        Some(b)
    } else {
        None
    };
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".debugger-mcp.{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if existed && let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(path, e));
    }
    Ok(backup)
}
