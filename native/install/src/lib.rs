//! Installs the Debugger MCP server into AI agents' configuration files — one implementation for
//! the `debugger-mcp install` command and for the IDE's "Install on Agents" button (through JNI).
//!
//! The flow is plan → show → apply: [`plan`] reads each agent's file and computes the new text
//! without writing anything (so `--dry-run` and the IDE's checklist show exactly what will
//! change, as a unified diff); [`Change::apply`] writes it atomically (temp file + rename), after
//! copying the previous file to `<file>.debugger-mcp.bak`.
//!
//! Edits are surgical: only the server's own entry is added, replaced or removed; comments,
//! formatting, key order and unknown keys elsewhere stay as they were (JSON with comments through
//! `jsonc-parser`'s concrete syntax tree, TOML through `toml_edit`, YAML by replacing the entry's
//! own lines after checking the document with a YAML parser). Re-installing the same entry
//! changes nothing. A file that does not parse is refused with its path and line, and nothing is
//! written.

pub mod agents;
mod edit_json;
mod edit_toml;
mod edit_yaml;
mod fsio;
pub mod report;
pub mod token;

pub use agents::{AGENTS, Agent, AgentId, Format, Val};
use std::path::{Path, PathBuf};

/// The server name used as the entry's key in every agent's config.
pub const SERVER_NAME: &str = "debugger-mcp";
/// The IDE's built-in web server serves MCP here (first port of its range 63342–63361).
pub const DEFAULT_URL: &str = "http://127.0.0.1:63342/debugger-mcp";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(target_os = "windows") {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::MacOs
        } else {
            Os::Linux
        }
    }
}

/// Where things live for this user. Tests build one with a temporary home for each OS layout.
#[derive(Debug, Clone)]
pub struct Env {
    pub os: Os,
    pub home: PathBuf,
    /// Per-user config root override: Linux `$XDG_CONFIG_HOME`, Windows `%APPDATA%`.
    pub config: Option<PathBuf>,
    /// `$CODEX_HOME` (Codex's own override of `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// The project directory, for workspace-level files (`.vscode/mcp.json`).
    pub workspace: PathBuf,
}

impl Env {
    /// The real environment of this process.
    pub fn from_process(workspace: PathBuf) -> Result<Env, InstallError> {
        let os = Os::current();
        let var = |k: &str| {
            std::env::var_os(k)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        let home = var("HOME").or_else(|| var("USERPROFILE")).ok_or_else(|| {
            InstallError::Environment("cannot find the home directory (set HOME)".into())
        })?;
        let config = match os {
            Os::Linux => var("XDG_CONFIG_HOME"),
            Os::Windows => var("APPDATA"),
            Os::MacOs => None,
        };
        Ok(Env {
            os,
            home,
            config,
            codex_home: var("CODEX_HOME"),
            workspace,
        })
    }

    /// Per-user config root: Linux `~/.config`, macOS `~/Library/Application Support`, Windows
    /// `%APPDATA%` (`~/AppData/Roaming`).
    pub fn config_dir(&self) -> PathBuf {
        if let Some(c) = &self.config {
            return c.clone();
        }
        match self.os {
            Os::Linux => self.home.join(".config"),
            Os::MacOs => self.home.join("Library").join("Application Support"),
            Os::Windows => self.home.join("AppData").join("Roaming"),
        }
    }
}

/// What to install.
#[derive(Debug, Clone)]
pub struct Server {
    pub name: String,
    /// Streamable HTTP endpoint.
    pub url: String,
    /// Bearer token sent by agents that support headers.
    pub token: Option<String>,
    /// Install the stdio bridge (`<command> stdio`) instead of the URL, for every agent.
    pub stdio: bool,
    /// The `debugger-mcp` executable, for stdio entries.
    pub command: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Install,
    Uninstall,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The file does not exist and will be created.
    Create,
    Update,
    /// Already as wanted: nothing to write.
    Unchanged,
    /// Uninstall and the entry is not there.
    Absent,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Create => "create",
            Status::Update => "update",
            Status::Unchanged => "unchanged",
            Status::Absent => "absent",
        }
    }
}

/// One planned edit of one file.
#[derive(Debug, Clone)]
pub struct Change {
    pub agent: Option<AgentId>,
    pub path: PathBuf,
    /// The file's text when planned (`None`: it did not exist).
    pub before: Option<String>,
    pub after: String,
    pub status: Status,
}

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(
        "{path}:{line}:{column}: {message} — fix or move the file aside and run the install again; nothing was changed"
    )]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: {message}; nothing was changed")]
    Shape { path: String, message: String },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} changed since the plan was made; plan again")]
    Changed { path: String },
    #[error("unknown agent '{0}' (known: {known})", known = AGENTS.iter().map(|a| a.name).collect::<Vec<_>>().join(", "))]
    UnknownAgent(String),
    #[error("{0}")]
    Environment(String),
}

pub fn display(path: &Path) -> String {
    path.display().to_string()
}

impl Change {
    pub fn is_write(&self) -> bool {
        matches!(self.status, Status::Create | Status::Update)
    }

    /// Unified diff of the planned edit (empty when nothing changes).
    pub fn diff(&self) -> String {
        if !self.is_write() {
            return String::new();
        }
        let before = self.before.as_deref().unwrap_or("");
        let name = display(&self.path);
        let old = if self.before.is_some() {
            name.clone()
        } else {
            "/dev/null".into()
        };
        similar::TextDiff::from_lines(before, &self.after)
            .unified_diff()
            .context_radius(3)
            .header(&old, &name)
            .to_string()
    }

    /// Writes the planned text atomically, keeping the previous file as `<file>.debugger-mcp.bak`.
    /// Returns the backup path, if one was made. Refuses when the file changed since planning.
    pub fn apply(&self) -> Result<Option<PathBuf>, InstallError> {
        if !self.is_write() {
            return Ok(None);
        }
        let now = fsio::read_optional(&self.path)?;
        if now != self.before {
            return Err(InstallError::Changed {
                path: display(&self.path),
            });
        }
        fsio::write_atomic(&self.path, &self.after, self.before.is_some())
    }
}

/// Resolves `--agent` names.
pub fn parse_agents(names: &[String]) -> Result<Vec<AgentId>, InstallError> {
    names
        .iter()
        .map(|n| {
            agents::by_name(n)
                .map(|a| a.id)
                .ok_or_else(|| InstallError::UnknownAgent(n.clone()))
        })
        .collect()
}

/// Agents that look installed for this user: their own directory or their config file exists. The workspace entry
/// (`.vscode/mcp.json`) counts when the project already has a `.vscode` directory.
pub fn detect(env: &Env) -> Vec<AgentId> {
    AGENTS
        .iter()
        .filter(|a| match a.id {
            AgentId::VsCodeWorkspace => env.workspace.join(".vscode").is_dir(),
            id => agents::presence_dir(id, env).is_dir() || agents::config_path(id, env).is_file(),
        })
        .map(|a| a.id)
        .collect()
}

/// Plans the edit of one agent's file. Reads only.
pub fn plan_agent(
    env: &Env,
    id: AgentId,
    server: &Server,
    action: Action,
) -> Result<Change, InstallError> {
    let agent = agents::agent(id);
    let path = agents::config_path(id, env);
    let before = fsio::read_optional(&path)?;
    let base = before
        .clone()
        .unwrap_or_else(|| agents::new_file_text(agent.format).to_owned());
    let entry = match action {
        Action::Install => Some(agents::entry(id, server)),
        Action::Uninstall => None,
    };
    if before.is_none() && action == Action::Uninstall {
        return Ok(Change {
            agent: Some(id),
            path,
            before,
            after: String::new(),
            status: Status::Absent,
        });
    }
    let shown = display(&path);
    let after = match agent.format {
        Format::Json { servers_key } => {
            edit_json::edit(&shown, &base, servers_key, &server.name, entry.as_ref())?
        }
        Format::Toml { table } => {
            edit_toml::edit(&shown, &base, table, &server.name, entry.as_ref())?
        }
        Format::YamlList { key } => {
            edit_yaml::edit(&shown, &base, key, &server.name, entry.as_ref())?
        }
    };
    let status = match (&before, action) {
        (Some(b), _) if *b == after => {
            if action == Action::Uninstall {
                Status::Absent
            } else {
                Status::Unchanged
            }
        }
        (None, _) => Status::Create,
        (Some(_), _) => Status::Update,
    };
    Ok(Change {
        agent: Some(id),
        path,
        before,
        after,
        status,
    })
}

/// Plans every agent; one agent's broken file does not stop the others.
pub fn plan(
    env: &Env,
    ids: &[AgentId],
    server: &Server,
    action: Action,
) -> Vec<(AgentId, Result<Change, InstallError>)> {
    ids.iter()
        .map(|&id| (id, plan_agent(env, id, server, action)))
        .collect()
}

/// The text a user can paste by hand into the agent's file ("copy config"), plus the agent's own
/// CLI command for the same change when it has one.
pub fn copy_text(id: AgentId, server: &Server) -> String {
    let agent = agents::agent(id);
    let entry = agents::entry(id, server);
    match agent.format {
        Format::Json { servers_key } => {
            let mut text =
                edit_json::edit("snippet", "{}\n", servers_key, &server.name, Some(&entry))
                    .unwrap_or_default();
            if let Some(hint) = cli_hint(id, server) {
                text.push_str(&format!("\nor run: {hint}\n"));
            }
            text
        }
        Format::Toml { table } => {
            let mut text = edit_toml::edit("snippet", "", table, &server.name, Some(&entry))
                .unwrap_or_default();
            if let Some(hint) = cli_hint(id, server) {
                text.push_str(&format!("\nor run: {hint}\n"));
            }
            text
        }
        Format::YamlList { key } => {
            edit_yaml::edit("snippet", "", key, &server.name, Some(&entry)).unwrap_or_default()
        }
    }
}

/// The agent's own command doing the same (shown to users; never run by the installer).
pub fn cli_hint(id: AgentId, server: &Server) -> Option<String> {
    let hint = agents::agent(id).cli_hint?;
    if server.stdio {
        return match id {
            AgentId::ClaudeCode => Some(format!(
                "claude mcp add --scope user debugger-mcp -- {} stdio",
                server.command.display()
            )),
            AgentId::Codex => Some(format!(
                "codex mcp add debugger-mcp -- {} stdio",
                server.command.display()
            )),
            AgentId::Gemini => Some(format!(
                "gemini mcp add --scope user debugger-mcp {} stdio",
                server.command.display()
            )),
            _ => None,
        };
    }
    let header_flag = match (&server.token, id) {
        (Some(t), AgentId::ClaudeCode | AgentId::Gemini) => {
            format!(" --header \"Authorization: Bearer {t}\"")
        }
        _ => String::new(),
    };
    Some(
        hint.replace("{url}", &server.url)
            .replace("{header_flag}", &header_flag),
    )
}
