//! The one table of agents: where each keeps its MCP settings on Linux, macOS and Windows, in
//! which format, and what entry it expects. Formats were checked against each agent's published
//! documentation (see docs/INSTALL.md for the sources); a change in an agent goes here only.

use crate::{Env, Os, Server};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentId {
    ClaudeCode,
    Codex,
    Cursor,
    VsCode,
    VsCodeWorkspace,
    Windsurf,
    Gemini,
    Cline,
    Continue,
    Zed,
    ClaudeDesktop,
}

/// How the server entry is stored in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON (comments allowed): an object of servers at this key path, keyed by server name.
    Json { servers_key: &'static str },
    /// TOML: a `[<table>.<name>]` table.
    Toml { table: &'static str },
    /// YAML: a list of servers under this top-level key, each with a `name`.
    YamlList { key: &'static str },
}

pub struct Agent {
    pub id: AgentId,
    /// The name used on the command line (`--agent NAME`).
    pub name: &'static str,
    pub display: &'static str,
    pub format: Format,
    /// Only speaks stdio to local servers (Claude Desktop): always gets the stdio bridge entry.
    pub stdio_only: bool,
    /// The agent's own command for the same change, shown to the user (never run by us).
    pub cli_hint: Option<&'static str>,
}

pub const AGENTS: &[Agent] = &[
    Agent {
        id: AgentId::ClaudeCode,
        name: "claude-code",
        display: "Claude Code",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: false,
        cli_hint: Some(
            "claude mcp add --scope user --transport http debugger-mcp {url}{header_flag}",
        ),
    },
    Agent {
        id: AgentId::Codex,
        name: "codex",
        display: "Codex",
        format: Format::Toml {
            table: "mcp_servers",
        },
        stdio_only: false,
        cli_hint: Some("codex mcp add debugger-mcp --url {url}"),
    },
    Agent {
        id: AgentId::Cursor,
        name: "cursor",
        display: "Cursor",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::VsCode,
        name: "vscode",
        display: "VS Code (user)",
        format: Format::Json {
            servers_key: "servers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::VsCodeWorkspace,
        name: "vscode-workspace",
        display: "VS Code (workspace .vscode/mcp.json)",
        format: Format::Json {
            servers_key: "servers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::Windsurf,
        name: "windsurf",
        display: "Windsurf",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::Gemini,
        name: "gemini",
        display: "Gemini CLI",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: false,
        cli_hint: Some(
            "gemini mcp add --scope user --transport http debugger-mcp {url}{header_flag}",
        ),
    },
    Agent {
        id: AgentId::Cline,
        name: "cline",
        display: "Cline",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::Continue,
        name: "continue",
        display: "Continue",
        format: Format::YamlList { key: "mcpServers" },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::Zed,
        name: "zed",
        display: "Zed",
        format: Format::Json {
            servers_key: "context_servers",
        },
        stdio_only: false,
        cli_hint: None,
    },
    Agent {
        id: AgentId::ClaudeDesktop,
        name: "claude-desktop",
        display: "Claude Desktop",
        format: Format::Json {
            servers_key: "mcpServers",
        },
        stdio_only: true,
        cli_hint: None,
    },
];

pub fn agent(id: AgentId) -> &'static Agent {
    AGENTS
        .iter()
        .find(|a| a.id == id)
        .expect("every AgentId is in AGENTS")
}

pub fn by_name(name: &str) -> Option<&'static Agent> {
    let lower = name.to_ascii_lowercase();
    AGENTS.iter().find(|a| a.name == lower)
}

/// The per-OS path table. `home` is the user's home; `config` is the OS's per-user config root
/// (Linux `$XDG_CONFIG_HOME` or `~/.config`, macOS `~/Library/Application Support`, Windows
/// `%APPDATA%`).
pub fn config_path(id: AgentId, env: &Env) -> PathBuf {
    let home = &env.home;
    let config = env.config_dir();
    // VS Code keeps user data under <config>/Code/User on every OS.
    let vscode_user = config.join("Code").join("User");
    match id {
        AgentId::ClaudeCode => home.join(".claude.json"),
        AgentId::Codex => env
            .codex_home
            .clone()
            .unwrap_or_else(|| home.join(".codex"))
            .join("config.toml"),
        AgentId::Cursor => home.join(".cursor").join("mcp.json"),
        AgentId::VsCode => vscode_user.join("mcp.json"),
        AgentId::VsCodeWorkspace => env.workspace.join(".vscode").join("mcp.json"),
        AgentId::Windsurf => home
            .join(".codeium")
            .join("windsurf")
            .join("mcp_config.json"),
        AgentId::Gemini => home.join(".gemini").join("settings.json"),
        AgentId::Cline => vscode_user
            .join("globalStorage")
            .join("saoudrizwan.claude-dev")
            .join("settings")
            .join("cline_mcp_settings.json"),
        AgentId::Continue => home.join(".continue").join("config.yaml"),
        AgentId::Zed => match env.os {
            // Zed uses ~/.config/zed on macOS as well as on Linux.
            Os::Linux => config.join("zed").join("settings.json"),
            Os::MacOs => home.join(".config").join("zed").join("settings.json"),
            Os::Windows => config.join("Zed").join("settings.json"),
        },
        AgentId::ClaudeDesktop => config.join("Claude").join("claude_desktop_config.json"),
    }
}

/// Where presence of the agent shows (its own directory), used by detection.
pub fn presence_dir(id: AgentId, env: &Env) -> PathBuf {
    let path = config_path(id, env);
    match id {
        // ~/.claude.json lives in HOME itself; ~/.claude is the agent's directory.
        AgentId::ClaudeCode => env.home.join(".claude"),
        AgentId::Cline => env
            .config_dir()
            .join("Code")
            .join("User")
            .join("globalStorage")
            .join("saoudrizwan.claude-dev"),
        AgentId::VsCodeWorkspace => env.workspace.clone(),
        _ => path.parent().map(PathBuf::from).unwrap_or(path),
    }
}

/// A config value with its key order kept (serde_json's map would sort keys).
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Str(String),
    Bool(bool),
    List(Vec<Val>),
    Map(Vec<(String, Val)>),
}

fn s(v: impl Into<String>) -> Val {
    Val::Str(v.into())
}

fn map(entries: Vec<(&str, Val)>) -> Val {
    Val::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

fn bearer(server: &Server) -> Option<Val> {
    server
        .token
        .as_ref()
        .map(|t| map(vec![("Authorization", s(format!("Bearer {t}")))]))
}

/// The server's entry for this agent (converted to JSON / TOML / YAML by their editors).
pub fn entry(id: AgentId, server: &Server) -> Val {
    let stdio = server.stdio || agent(id).stdio_only;
    let cmd = s(server.command.to_string_lossy());
    let args = Val::List(vec![s("stdio")]);
    let mut fields: Vec<(&str, Val)> = Vec::new();
    if stdio {
        match id {
            AgentId::ClaudeCode | AgentId::VsCode | AgentId::VsCodeWorkspace => {
                fields.push(("type", s("stdio")))
            }
            AgentId::Continue => {
                fields.push(("name", s(&server.name)));
                fields.push(("type", s("stdio")));
            }
            _ => {}
        }
        fields.push(("command", cmd));
        fields.push(("args", args));
        return map(fields);
    }
    let url = s(&server.url);
    let header_key = match id {
        AgentId::Codex => "http_headers",
        _ => "headers",
    };
    match id {
        AgentId::ClaudeCode | AgentId::VsCode | AgentId::VsCodeWorkspace => {
            fields.push(("type", s("http")));
            fields.push(("url", url));
        }
        AgentId::Codex | AgentId::Cursor | AgentId::Zed => fields.push(("url", url)),
        AgentId::Windsurf => fields.push(("serverUrl", url)),
        AgentId::Gemini => fields.push(("httpUrl", url)),
        AgentId::Cline => {
            fields.push(("type", s("streamableHttp")));
            fields.push(("url", url));
            fields.push(("disabled", Val::Bool(false)));
        }
        AgentId::Continue => {
            fields.push(("name", s(&server.name)));
            fields.push(("type", s("streamable-http")));
            fields.push(("url", url));
            if let Some(h) = bearer(server) {
                fields.push(("requestOptions", map(vec![("headers", h)])));
            }
            return map(fields);
        }
        AgentId::ClaudeDesktop => unreachable!("stdio_only agents take the stdio branch"),
    }
    if let Some(h) = bearer(server) {
        fields.push((header_key, h));
    }
    map(fields)
}

/// Minimal content for a file that does not exist yet (Continue requires name/version/schema).
pub fn new_file_text(format: Format) -> &'static str {
    match format {
        Format::Json { .. } => "{}\n",
        Format::Toml { .. } => "",
        Format::YamlList { .. } => "name: Local Config\nversion: 1.0.0\nschema: v1\n",
    }
}

impl std::fmt::Display for AgentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(agent(*self).name)
    }
}
