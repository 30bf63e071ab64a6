//! The per-install bearer token and the server settings file that holds it (`[http] token`,
//! enforced by the core's HTTP security layer).

use crate::{Change, InstallError, Status, display, edit_toml, fsio};
use std::path::{Path, PathBuf};

/// 32 random bytes from the OS, hex-encoded.
pub fn generate() -> Result<String, InstallError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| InstallError::Environment(format!("cannot generate a token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The user-level settings file the server reads when a project has no `debugger-mcp.toml`:
/// `$XDG_CONFIG_HOME/debugger-mcp/config.toml` (default `~/.config/...`; Windows `%APPDATA%`).
pub fn settings_path(env: &crate::Env) -> PathBuf {
    match env.os {
        crate::Os::MacOs => env
            .home
            .join(".config")
            .join("debugger-mcp")
            .join("config.toml"),
        _ => env.config_dir().join("debugger-mcp").join("config.toml"),
    }
}

/// The token already in the settings file, if any.
pub fn read(path: &Path) -> Result<Option<String>, InstallError> {
    match fsio::read_optional(path)? {
        Some(text) => Ok(
            edit_toml::get_string(&display(path), &text, "http", "token")?
                .filter(|t| !t.is_empty()),
        ),
        None => Ok(None),
    }
}

/// Plans writing `token` into the settings file (idempotent; everything else kept).
pub fn plan(path: &Path, token: &str) -> Result<Change, InstallError> {
    let before = fsio::read_optional(path)?;
    let after = edit_toml::set_string(
        &display(path),
        before.as_deref().unwrap_or(""),
        "http",
        "token",
        token,
    )?;
    let status = match &before {
        None => Status::Create,
        Some(b) if *b == after => Status::Unchanged,
        Some(_) => Status::Update,
    };
    Ok(Change {
        agent: None,
        path: path.to_owned(),
        before,
        after,
        status,
    })
}
