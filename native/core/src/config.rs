//! Settings, owned by Rust and stored as TOML (the IDE's settings page edits the same file).
//! Unknown keys are rejected so a typo is reported instead of silently ignored.

use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Skip confirmations for destructive tools (start session, set variable, side effects).
    pub brave_mode: bool,
    /// Commands kept in the in-memory history per project.
    pub history_size: usize,
    /// Bytes the in-memory history may take in total (every project); the oldest entries go
    /// first. Each entry is bounded too (long strings cut, their real size noted).
    pub history_max_bytes: usize,
    /// Children per node returned by default / at most.
    pub max_children: u32,
    /// Characters of a value shown before truncation.
    pub max_value_length: usize,
    /// Timeout for one backend call, milliseconds.
    pub backend_timeout_ms: u64,
    /// Timeout for launching a session, milliseconds.
    pub launch_timeout_ms: u64,
    /// Tool list clients get: `full` (one tool per operation), `compact` (a single `debugger`
    /// tool with an `op` field, for agents that pay for every listed byte) or `typed` (the full
    /// list with every tool's `outputSchema`, for clients that validate `structuredContent`). A
    /// client overrides it per connection with `/debugger-mcp?profile=compact` (or `full`, `typed`).
    pub tool_profile: ToolProfile,
    /// Whether the debug sessions an MCP client started end when that client's MCP session
    /// ends (DELETE, or the session expired). Unset: the host decides. `debugger-mcp serve`
    /// ends them (nobody else sees them; a debuggee left running holds ports and files), the IDE
    /// keeps them (the user sees them in the Debug tool window and may go on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_sessions_with_client: Option<bool>,
    pub watchdog: WatchdogConfig,
    pub memory: MemoryConfig,
    pub redaction: RedactionConfig,
    pub http: HttpConfig,
    pub expression_safety: ExpressionSafetyConfig,
    pub go: GoConfig,
    pub php: PhpConfig,
    pub ide: IdeConfig,
    /// Headless launch entries (`[[launch]]` tables), read by the DAP backend; the same file
    /// holds settings and launch entries so a project needs one file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub launch: Vec<toml::Table>,
}

/// See [`Config::tool_profile`].
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum ToolProfile {
    #[default]
    Full,
    Compact,
    /// `full` plus each tool's `outputSchema` (derived from its result type; ~53 KB more).
    Typed,
}

impl ToolProfile {
    /// `full` / `compact` / `typed` (the URL query and TOML spelling).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "full" => Some(Self::Full),
            "compact" => Some(Self::Compact),
            "typed" => Some(Self::Typed),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct WatchdogConfig {
    pub enabled: bool,
    /// Seconds a paused session may sit with no agent call (pauses the IDE user made are left
    /// alone).
    pub idle_seconds: u64,
    /// "resume" or "stop".
    pub action: String,
}

/// The ledger of values the agent read and the session summaries (see `engine::ledger`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryConfig {
    /// Values (and pauses) remembered per session; the oldest are dropped beyond this.
    pub max_entries_per_session: usize,
    /// Sessions remembered; the oldest ended sessions are forgotten beyond this.
    pub max_sessions: usize,
    /// Write a Markdown summary (and the ledger as JSON lines) into the project when a session ends.
    pub write_summaries: bool,
    /// Directory for those files, relative to the project root.
    pub summary_dir: String,
    /// Sessions kept on disk; older files are deleted.
    pub keep_files: usize,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self {
            max_entries_per_session: 5000,
            max_sessions: 20,
            write_summaries: true,
            summary_dir: ".debugger-mcp/sessions".into(),
            keep_files: 50,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RedactionConfig {
    pub enabled: bool,
    /// Names whose string values are hidden: a name matches when it ends with the pattern as
    /// whole identifier words (`token` hides `token`, `api_token`, `authToken`; not `tokens`,
    /// `token_type` or `Tokenizer`). Numbers, enums, pointers and containers are never hidden.
    pub patterns: Vec<String>,
    /// Secrets caught by their shape whatever their name: `jwt`, `pem` (private keys), `key`
    /// (well-known key prefixes: `sk-…`, `ghp_…`, `AKIA…`, …).
    pub shapes: Vec<String>,
}

/// The shapes [`RedactionConfig::shapes`] knows.
pub const REDACTION_SHAPES: [&str; 3] = ["jwt", "pem", "key"];

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    /// Optional bearer token required on every HTTP request.
    pub token: Option<String>,
    /// Request body limit in bytes.
    pub max_body_bytes: usize,
    /// Open initialize-era MCP sessions at most; at the limit a new one evicts the session idle
    /// longest, and is refused when every session is busy.
    pub max_sessions: usize,
    /// Milliseconds a client may take to send a request's headers (sidecar) and, separately,
    /// its body; a connection that takes longer is answered 408 and closed.
    pub read_timeout_ms: u64,
    /// Milliseconds an initialize-era MCP session may go without a request before it expires
    /// (and, headless, takes its breakpoints and debug sessions with it). rmcp's default is five
    /// minutes, which an agent reading code or running a test suite between two calls outlasts
    /// (the eighth set: a session expired before the agent's first call).
    pub session_idle_ms: u64,
}

/// The core's check that refuses state-changing expressions evaluated without
/// `allow_side_effects` (see `engine::expression_guard`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ExpressionSafetyConfig {
    pub enabled: bool,
    /// Method names refused as `.name(` calls in addition to the built-in deny list.
    pub extra_mutating_methods: Vec<String>,
}

/// Headless Go sessions (the DAP backend under delve).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct GoConfig {
    /// Timeout for building the program (`go build` / `go test -c`) before delve starts,
    /// milliseconds; counted on top of `launch_timeout_ms`. A cold build of a large module takes
    /// minutes.
    pub build_timeout_ms: u64,
}

/// Sessions the IDE plugin starts (the JNI backend).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct IdeConfig {
    /// How long a launch may take beyond `launch_timeout_ms` for the run configuration's
    /// before-run tasks (a Gradle or Maven build runs before the debugger starts), milliseconds.
    /// A cold build of a large project takes minutes.
    pub build_timeout_ms: u64,
}

impl Default for IdeConfig {
    fn default() -> Self {
        Self {
            build_timeout_ms: 300_000,
        }
    }
}

/// Headless PHP sessions (the DBGp backend; Xdebug connects to us).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct PhpConfig {
    /// First loopback port to listen on for Xdebug; when busy, the next free of the seven after
    /// it (9004-9010 for 9003) is used and handed to the trigger command.
    pub port: u16,
    /// How long a launch waits for Xdebug to connect, milliseconds.
    pub connect_timeout_ms: u64,
    /// The address Xdebug connects to. Loopback by default; Xdebug in a container reaches the
    /// host on its bridge address, so `"0.0.0.0"` (or that address) there. DBGp has no
    /// authentication: whoever reaches the port can drive the debugger, so widen it knowingly.
    pub listen_host: String,
}

impl Default for PhpConfig {
    fn default() -> Self {
        Self {
            port: 9003,
            connect_timeout_ms: 20_000,
            listen_host: "127.0.0.1".into(),
        }
    }
}

impl Default for GoConfig {
    fn default() -> Self {
        Self {
            build_timeout_ms: 300_000,
        }
    }
}

impl Default for ExpressionSafetyConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            extra_mutating_methods: Vec::new(),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            brave_mode: false,
            history_size: 1000,
            history_max_bytes: 8 * 1024 * 1024,
            max_children: 20,
            max_value_length: 200,
            backend_timeout_ms: 10_000,
            launch_timeout_ms: 30_000,
            tool_profile: ToolProfile::Full,
            end_sessions_with_client: None,
            watchdog: WatchdogConfig::default(),
            memory: MemoryConfig::default(),
            redaction: RedactionConfig::default(),
            http: HttpConfig::default(),
            expression_safety: ExpressionSafetyConfig::default(),
            go: GoConfig::default(),
            php: PhpConfig::default(),
            ide: IdeConfig::default(),
            launch: Vec::new(),
        }
    }
}

impl Default for WatchdogConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            idle_seconds: 60,
            action: "resume".into(),
        }
    }
}

impl Default for RedactionConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            patterns: [
                "password",
                "passwd",
                "passphrase",
                "token",
                "secret",
                "secret_key",
                "api_key",
                "apikey",
                "private_key",
                "access_key",
            ]
            .map(String::from)
            .to_vec(),
            shapes: REDACTION_SHAPES.map(String::from).to_vec(),
        }
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            token: None,
            max_body_bytes: 4 * 1024 * 1024,
            max_sessions: 100,
            read_timeout_ms: 10_000,
            session_idle_ms: 3_600_000,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("invalid settings in {path}: {message}")]
    Parse { path: String, message: String },
}

impl Config {
    /// Parse TOML text; errors name the offending key.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let c: Self = toml::from_str(text).map_err(|e| e.to_string())?;
        c.check()?;
        Ok(c)
    }

    /// Values serde cannot check: a typo here would otherwise surface only when used.
    fn check(&self) -> Result<(), String> {
        if !matches!(self.watchdog.action.as_str(), "resume" | "stop") {
            return Err(format!(
                "watchdog.action must be \"resume\" or \"stop\", not \"{}\"",
                self.watchdog.action
            ));
        }
        if self.php.port == 0 || self.php.connect_timeout_ms == 0 {
            return Err("php.port and php.connect_timeout_ms must be at least 1".into());
        }
        if self.php.listen_host.parse::<std::net::IpAddr>().is_err() {
            return Err(format!(
                "php.listen_host must be an IP address (\"127.0.0.1\", \"0.0.0.0\" for Xdebug in a container), not \"{}\"",
                self.php.listen_host
            ));
        }
        if let Some(bad) = self
            .redaction
            .shapes
            .iter()
            .find(|s| !REDACTION_SHAPES.contains(&s.as_str()))
        {
            return Err(format!(
                "redaction.shapes: unknown shape \"{bad}\"; known: {}",
                REDACTION_SHAPES.join(", ")
            ));
        }
        if self.go.build_timeout_ms == 0 {
            return Err("go.build_timeout_ms must be at least 1".into());
        }
        if self.ide.build_timeout_ms == 0 {
            return Err("ide.build_timeout_ms must be at least 1".into());
        }
        if self.http.max_sessions == 0 {
            return Err("http.max_sessions must be at least 1".into());
        }
        if self.http.read_timeout_ms == 0 {
            return Err("http.read_timeout_ms must be at least 1".into());
        }
        if self.http.session_idle_ms == 0 {
            return Err("http.session_idle_ms must be at least 1".into());
        }
        if self.watchdog.idle_seconds == 0 {
            return Err("watchdog.idle_seconds must be at least 1 (set watchdog.enabled = false to turn it off)".into());
        }
        Ok(())
    }

    /// Load from a file; a missing file yields the defaults.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::from_toml(&text).map_err(|message| ConfigError::Parse {
                path: path.display().to_string(),
                message,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Io {
                path: path.display().to_string(),
                source,
            }),
        }
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("config serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_file_keeps_defaults_and_typos_are_reported() {
        let c = Config::from_toml("brave_mode = true\n[watchdog]\nidle_seconds = 5\n").unwrap();
        assert!(c.brave_mode);
        assert_eq!(c.watchdog.idle_seconds, 5);
        assert_eq!(c.max_children, 20);
        let err = Config::from_toml("brave_mod = true").unwrap_err();
        assert!(err.contains("brave_mod"), "{err}");
    }

    #[test]
    fn tool_profile_is_read_and_misspellings_are_reported() {
        assert_eq!(Config::default().tool_profile, ToolProfile::Full);
        assert_eq!(
            Config::from_toml("tool_profile = \"compact\"")
                .unwrap()
                .tool_profile,
            ToolProfile::Compact
        );
        assert_eq!(
            Config::from_toml("tool_profile = \"typed\"")
                .unwrap()
                .tool_profile,
            ToolProfile::Typed
        );
        let err = Config::from_toml("tool_profile = \"tiny\"").unwrap_err();
        assert!(err.contains("compact"), "{err}");
    }

    #[test]
    fn php_port_and_connect_timeout() {
        assert_eq!(
            Config::default().php,
            PhpConfig {
                port: 9003,
                connect_timeout_ms: 20_000,
                listen_host: "127.0.0.1".into(),
            }
        );
        assert_eq!(
            Config::from_toml("[php]\nport = 9100\n").unwrap().php.port,
            9100
        );
        assert!(
            Config::from_toml("[php]\nport = 0\n")
                .unwrap_err()
                .contains("php.port")
        );
        assert!(Config::from_toml("[php]\nprot = 1\n").is_err());
        assert_eq!(Config::default().php.listen_host, "127.0.0.1");
        assert_eq!(
            Config::from_toml("[php]\nlisten_host = \"0.0.0.0\"\n")
                .unwrap()
                .php
                .listen_host,
            "0.0.0.0"
        );
        let e = Config::from_toml("[php]\nlisten_host = \"docker\"\n").unwrap_err();
        assert!(e.contains("php.listen_host") && e.contains("docker"), "{e}");
    }

    #[test]
    fn go_build_timeout_defaults_to_five_minutes_and_zero_is_refused() {
        assert_eq!(Config::default().go.build_timeout_ms, 300_000);
        assert_eq!(
            Config::from_toml("[go]\nbuild_timeout_ms = 900000\n")
                .unwrap()
                .go
                .build_timeout_ms,
            900_000
        );
        let err = Config::from_toml("[go]\nbuild_timeout_ms = 0\n").unwrap_err();
        assert!(err.contains("go.build_timeout_ms"), "{err}");
        let err = Config::from_toml("[go]\nbuild_timeout = 5\n").unwrap_err();
        assert!(err.contains("build_timeout"), "{err}");
    }

    #[test]
    fn launch_entries_are_accepted_beside_settings() {
        let c = Config::from_toml(
            "brave_mode = true\n[[launch]]\nname = \"prog\"\nadapter = \"gdb\"\n",
        )
        .unwrap();
        assert_eq!(c.launch.len(), 1);
        assert_eq!(c.launch[0]["name"].as_str(), Some("prog"));
    }

    #[test]
    fn expression_safety_defaults_on_and_takes_extra_methods() {
        assert!(Config::default().expression_safety.enabled);
        let c =
            Config::from_toml("[expression_safety]\nextra_mutating_methods = [\"invalidate\"]\n")
                .unwrap();
        assert!(c.expression_safety.enabled);
        assert_eq!(c.expression_safety.extra_mutating_methods, ["invalidate"]);
        let c = Config::from_toml("[expression_safety]\nenabled = false\n").unwrap();
        assert!(!c.expression_safety.enabled);
        let err = Config::from_toml("[expression_safety]\nenable = false\n").unwrap_err();
        assert!(err.contains("enable"), "{err}");
    }

    #[test]
    fn memory_and_watchdog_settings_are_checked() {
        let c =
            Config::from_toml("[memory]\nwrite_summaries = false\n[watchdog]\naction = \"stop\"\n")
                .unwrap();
        assert!(!c.memory.write_summaries);
        assert_eq!(c.memory.summary_dir, ".debugger-mcp/sessions");
        assert_eq!(c.watchdog.action, "stop");
        let err = Config::from_toml("[watchdog]\naction = \"kill\"\n").unwrap_err();
        assert!(
            err.contains("watchdog.action") && err.contains("kill"),
            "{err}"
        );
        let err = Config::from_toml("[watchdog]\nidle_seconds = 0\n").unwrap_err();
        assert!(err.contains("idle_seconds"), "{err}");
    }

    #[test]
    fn redaction_shapes_are_checked_and_patterns_can_be_dropped() {
        let c = Config::from_toml("[redaction]\npatterns = [\"password\"]\nshapes = [\"jwt\"]\n")
            .unwrap();
        assert_eq!(c.redaction.patterns, ["password"]);
        assert_eq!(c.redaction.shapes, ["jwt"]);
        let err = Config::from_toml("[redaction]\nshapes = [\"jwts\"]\n").unwrap_err();
        assert!(err.contains("jwts") && err.contains("pem"), "{err}");
    }

    #[test]
    fn round_trips() {
        let c = Config::default();
        assert_eq!(Config::from_toml(&c.to_toml()).unwrap(), c);
    }
}
