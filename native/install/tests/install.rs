//! Installer behaviour a user notices, per agent and per OS path layout, with a temporary HOME:
//! the files written (golden files under tests/golden), comments and unknown keys preserved,
//! idempotent re-install, uninstall, refusal of broken files with file and line, dry-run diffs.
//! `UPDATE_GOLDEN=1 cargo test -p debugger-mcp-install` rewrites the golden files (review them).

use debugger_mcp_install::{self as install, AGENTS, Action, AgentId, Env, Os, Server, Status};
use std::path::{Path, PathBuf};

struct TempHome(PathBuf);

impl TempHome {
    fn new(tag: &str) -> TempHome {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("dmcp-install-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("project")).unwrap();
        TempHome(dir)
    }
    fn env(&self, os: Os) -> Env {
        Env {
            os,
            home: self.0.join("home"),
            config: None,
            codex_home: None,
            workspace: self.0.join("project"),
        }
    }
}

impl Drop for TempHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn server(token: Option<&str>) -> Server {
    Server {
        name: "debugger-mcp".into(),
        url: "http://127.0.0.1:63342/debugger-mcp".into(),
        token: token.map(str::to_owned),
        stdio: false,
        command: PathBuf::from("/opt/debugger-mcp/bin/debugger-mcp"),
    }
}

const TOKEN: &str = "0123abcd";

fn install_one(env: &Env, id: AgentId, server: &Server, action: Action) -> install::Change {
    let change =
        install::plan_agent(env, id, server, action).unwrap_or_else(|e| panic!("{id}: {e}"));
    change.apply().unwrap();
    change
}

fn rel(env: &Env, path: &Path) -> String {
    let root = env.home.parent().unwrap();
    path.strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

fn check_golden(name: &str, actual: &str) {
    let path = golden_dir().join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing golden file {}", path.display()));
    assert_eq!(actual, expected, "golden {name} differs");
}

/// Fresh install into every agent on every OS layout: path and content match the golden file;
/// re-install changes nothing; uninstall removes the entry.
#[test]
fn fresh_install_per_agent_per_os() {
    for (os, os_name) in [
        (Os::Linux, "linux"),
        (Os::MacOs, "macos"),
        (Os::Windows, "windows"),
    ] {
        let home = TempHome::new(os_name);
        let env = home.env(os);
        let mut golden = String::new();
        for agent in AGENTS {
            let change = install_one(&env, agent.id, &server(Some(TOKEN)), Action::Install);
            assert_eq!(change.status, Status::Create, "{}", agent.name);
            let text = std::fs::read_to_string(&change.path).unwrap();
            golden.push_str(&format!(
                "==> {} ({})\n{text}\n",
                rel(&env, &change.path),
                agent.name
            ));
            let again =
                install::plan_agent(&env, agent.id, &server(Some(TOKEN)), Action::Install).unwrap();
            assert_eq!(
                again.status,
                Status::Unchanged,
                "re-install of {} must change nothing",
                agent.name
            );
            assert_eq!(again.diff(), "");
        }
        check_golden(&format!("fresh-{os_name}.txt"), &golden);
        for agent in AGENTS {
            let change = install_one(&env, agent.id, &server(Some(TOKEN)), Action::Uninstall);
            assert_eq!(change.status, Status::Update, "{}", agent.name);
            let text = std::fs::read_to_string(&change.path).unwrap();
            assert!(
                !text.contains("debugger-mcp\"") && !text.contains("63342"),
                "{} still has the entry:\n{text}",
                agent.name
            );
            let again =
                install::plan_agent(&env, agent.id, &server(None), Action::Uninstall).unwrap();
            assert_eq!(again.status, Status::Absent, "{}", agent.name);
        }
    }
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join("fixtures")
            .join(name),
    )
    .unwrap()
}

fn seed(env: &Env, id: AgentId, fixture_name: &str) -> PathBuf {
    let path = install::agents::config_path(id, env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, fixture(fixture_name)).unwrap();
    path
}

/// Existing files with comments, trailing commas, other servers and unknown keys: the install
/// adds only our entry (golden), keeps a backup of the original, and uninstall gives back a file
/// equal in content to the original.
#[test]
fn existing_files_keep_comments_and_unknown_keys() {
    let home = TempHome::new("existing");
    let env = home.env(Os::Linux);
    let cases = [
        (AgentId::ClaudeCode, "claude.json"),
        (AgentId::VsCode, "vscode-mcp.jsonc"),
        (AgentId::Codex, "codex.toml"),
        (AgentId::Continue, "continue.yaml"),
        (AgentId::Zed, "zed.json"),
    ];
    let mut golden = String::new();
    for (id, name) in cases {
        let path = seed(&env, id, name);
        let original = fixture(name);
        let change = install::plan_agent(&env, id, &server(Some(TOKEN)), Action::Install).unwrap();
        assert_eq!(change.status, Status::Update);
        let root = env.home.parent().unwrap().display().to_string();
        golden.push_str(&format!(
            "==> {name} ({id})\n{}\n",
            change.diff().replace(&root, "$TMP")
        ));
        let backup = change
            .apply()
            .unwrap()
            .expect("a backup of the existing file");
        assert_eq!(
            std::fs::read_to_string(&backup).unwrap(),
            original,
            "backup of {name}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        // Every original line that is a comment survives.
        for line in original
            .lines()
            .filter(|l| l.contains("//") || l.trim_start().starts_with('#'))
        {
            assert!(
                text.contains(line.trim()),
                "{name}: lost '{line}' in\n{text}"
            );
        }
        assert_eq!(
            install::plan_agent(&env, id, &server(Some(TOKEN)), Action::Install)
                .unwrap()
                .status,
            Status::Unchanged
        );
        // A new token updates the entry in place.
        let rotated =
            install::plan_agent(&env, id, &server(Some("feedbeef")), Action::Install).unwrap();
        assert_eq!(rotated.status, Status::Update);
        assert!(
            rotated.after.contains("feedbeef") && !rotated.after.contains(TOKEN),
            "{name}"
        );
        install_one(&env, id, &server(Some(TOKEN)), Action::Uninstall);
        let back = std::fs::read_to_string(&path).unwrap();
        let norm = |s: &str| s.split_whitespace().collect::<String>().replace(",}", "}");
        assert_eq!(
            norm(&back),
            norm(&original),
            "{name}: uninstall must give back the original content:\n{back}"
        );
    }
    check_golden("existing-diffs.txt", &golden);
}

/// A file that does not parse is refused with its path and line, and is left untouched.
#[test]
fn broken_files_are_refused_with_file_and_line() {
    let home = TempHome::new("broken");
    let env = home.env(Os::Linux);
    for (id, name, line) in [
        (AgentId::Cursor, "broken.json", 6),
        (AgentId::Codex, "broken.toml", 2),
        (AgentId::Continue, "broken.yaml", 4),
    ] {
        let path = seed(&env, id, name);
        let err = install::plan_agent(&env, id, &server(Some(TOKEN)), Action::Install)
            .unwrap_err()
            .to_string();
        let expected = format!("{}:{line}:", path.display());
        assert!(
            err.starts_with(&expected),
            "{name}: error should start with '{expected}': {err}"
        );
        assert!(err.contains("nothing was changed"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), fixture(name));
        assert!(
            !install::agents::config_path(id, &env)
                .with_extension("json.debugger-mcp.bak")
                .exists()
        );
    }
}

/// A planned change is not applied over a file someone changed in the meantime.
#[test]
fn apply_refuses_a_file_changed_since_planning() {
    let home = TempHome::new("race");
    let env = home.env(Os::Linux);
    let path = seed(&env, AgentId::ClaudeCode, "claude.json");
    let change =
        install::plan_agent(&env, AgentId::ClaudeCode, &server(None), Action::Install).unwrap();
    std::fs::write(&path, "{\"edited\": true}\n").unwrap();
    let err = change.apply().unwrap_err().to_string();
    assert!(err.contains("changed since the plan"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\"edited\": true}\n"
    );
}

/// `--stdio` entries run the bridge for every agent; the token stays out (the bridge finds it).
#[test]
fn stdio_entries() {
    let home = TempHome::new("stdio");
    let env = home.env(Os::Linux);
    let mut s = server(Some(TOKEN));
    s.stdio = true;
    let mut golden = String::new();
    for agent in AGENTS {
        let change = install::plan_agent(&env, agent.id, &s, Action::Install).unwrap();
        assert!(!change.after.contains(TOKEN), "{}", agent.name);
        assert!(
            change.after.contains("/opt/debugger-mcp/bin/debugger-mcp"),
            "{}",
            agent.name
        );
        golden.push_str(&format!("==> {}\n{}\n", agent.name, change.after));
    }
    check_golden("stdio-linux.txt", &golden);
}

#[test]
fn unknown_agent_names_are_listed() {
    let err = install::parse_agents(&["claude-code".into(), "emacs".into()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown agent 'emacs'") && err.contains("claude-desktop"),
        "{err}"
    );
}

#[test]
fn detection_follows_agent_directories() {
    let home = TempHome::new("detect");
    let env = home.env(Os::MacOs);
    assert!(install::detect(&env).is_empty());
    std::fs::create_dir_all(env.home.join(".codex")).unwrap();
    std::fs::create_dir_all(env.home.join("Library/Application Support/Claude")).unwrap();
    std::fs::create_dir_all(env.workspace.join(".vscode")).unwrap();
    assert_eq!(
        install::detect(&env),
        vec![
            AgentId::Codex,
            AgentId::VsCodeWorkspace,
            AgentId::ClaudeDesktop
        ]
    );
    // Claude Code without ~/.claude but with its ~/.claude.json.
    std::fs::write(env.home.join(".claude.json"), "{}").unwrap();
    assert!(install::detect(&env).contains(&AgentId::ClaudeCode));
}

/// The server's settings file gets `[http] token` without losing what it had.
#[test]
fn token_goes_into_server_settings() {
    let home = TempHome::new("token");
    let env = home.env(Os::Linux);
    let path = install::token::settings_path(&env);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "# mine\nbrave_mode = true\n\n[http]\nmax_body_bytes = 1024 # small\n",
    )
    .unwrap();
    assert_eq!(install::token::read(&path).unwrap(), None);
    let t = install::token::generate().unwrap();
    assert_eq!(t.len(), 64);
    assert_ne!(t, install::token::generate().unwrap());
    install::token::plan(&path, &t).unwrap().apply().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("# mine\nbrave_mode = true\n")
            && text.contains("max_body_bytes = 1024 # small"),
        "{text}"
    );
    assert_eq!(
        install::token::read(&path).unwrap().as_deref(),
        Some(t.as_str())
    );
    assert_eq!(
        install::token::plan(&path, &t).unwrap().status,
        Status::Unchanged
    );
}

/// The IDE's request/report (through JNI): plan lists every agent with detection, path and diff;
/// apply writes, reports backups, and one broken file is an error row, not a failure of all.
#[test]
fn ide_report_plan_then_apply() {
    let home = TempHome::new("report");
    let env = home.env(Os::Linux);
    std::fs::create_dir_all(env.home.join(".codex")).unwrap();
    seed(&env, AgentId::Cursor, "broken.json");
    let settings = home.0.join("ide-config").join("settings.toml");
    let request = |agents: &str| {
        serde_json::from_value::<install::report::Request>(serde_json::json!({
            "agents": serde_json::from_str::<serde_json::Value>(agents).unwrap(),
            "project": env.workspace, "settings": settings, "command": "/opt/dmcp",
        }))
        .unwrap()
    };
    let plan = install::report::run_in(&env, request("null"), false).unwrap();
    let rows = plan["agents"].as_array().unwrap();
    assert_eq!(rows.len(), AGENTS.len());
    let codex = rows.iter().find(|r| r["agent"] == "codex").unwrap();
    assert_eq!(codex["detected"], true);
    assert_eq!(codex["status"], "create");
    assert!(
        codex["diff"]
            .as_str()
            .unwrap()
            .contains("+[mcp_servers.debugger-mcp]")
    );
    assert!(
        codex["copy"]
            .as_str()
            .unwrap()
            .contains("[mcp_servers.debugger-mcp]")
    );
    let cursor = rows.iter().find(|r| r["agent"] == "cursor").unwrap();
    assert_eq!(cursor["status"], "error");
    assert!(
        cursor["error"].as_str().unwrap().contains("mcp.json:6:"),
        "{cursor}"
    );
    assert!(!settings.exists(), "planning writes nothing");

    let applied =
        install::report::run_in(&env, request(r#"["codex", "claude-desktop"]"#), true).unwrap();
    assert_eq!(applied["settings"]["status"], "create");
    let token = install::token::read(&settings)
        .unwrap()
        .expect("token written to the IDE settings");
    let codex_text = std::fs::read_to_string(env.home.join(".codex/config.toml")).unwrap();
    assert!(codex_text.contains(&format!("Bearer {token}")));
    let desktop =
        std::fs::read_to_string(install::agents::config_path(AgentId::ClaudeDesktop, &env))
            .unwrap();
    assert!(
        desktop.contains("\"/opt/dmcp\"") && desktop.contains("\"stdio\""),
        "{desktop}"
    );
    let err = install::report::run_in(&env, request(r#"["emacs"]"#), false).unwrap_err();
    assert!(err.contains("unknown agent 'emacs'"), "{err}");
}

/// The debugging subagent (issue 15): Claude Code gets a subagent limited to our tools, Codex
/// and Gemini CLI a skill, each at its documented place; the text matches the golden files;
/// re-planning an installed one changes nothing; removal takes only a file the installer wrote.
#[test]
fn debugging_subagent_and_skills() {
    use install::subagent::{self, Scope};
    let home = TempHome::new("subagent");
    let env = home.env(Os::Linux);
    let expected = [
        (
            AgentId::ClaudeCode,
            "home/.claude/agents/debugger.md",
            "subagent-claude-code.md",
        ),
        (
            AgentId::Codex,
            "home/.codex/skills/debugger-mcp/SKILL.md",
            "skill-codex.md",
        ),
        (
            AgentId::Gemini,
            "home/.gemini/skills/debugger-mcp/SKILL.md",
            "skill-gemini.md",
        ),
    ];
    for (id, path, golden) in expected {
        let change = subagent::plan(&env, id, "debugger-mcp", Scope::User, true)
            .expect("has a definition")
            .unwrap();
        assert_eq!(rel(&env, &change.path), path);
        assert_eq!(change.status, Status::Create);
        change.apply().unwrap();
        check_golden(golden, &std::fs::read_to_string(&change.path).unwrap());
        assert_eq!(
            subagent::plan(&env, id, "debugger-mcp", Scope::User, true)
                .unwrap()
                .unwrap()
                .status,
            Status::Unchanged
        );
    }
    // Claude Code's subagent may use our tools and nothing else.
    let text = std::fs::read_to_string(home.0.join("home/.claude/agents/debugger.md")).unwrap();
    let tools = text
        .lines()
        .find_map(|l| l.strip_prefix("tools: "))
        .unwrap();
    let names: Vec<&str> = tools.split(", ").collect();
    assert_eq!(names.len(), subagent::TOOLS.len());
    assert!(
        names.iter().all(|n| n.starts_with("mcp__debugger-mcp__")),
        "{tools}"
    );
    // Project scope for Claude Code.
    let project = subagent::plan(
        &env,
        AgentId::ClaudeCode,
        "debugger-mcp",
        Scope::Project,
        true,
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        rel(&env, &project.path),
        "project/.claude/agents/debugger.md"
    );
    // Agents without subagents or skills get the rule instead.
    assert!(subagent::plan(&env, AgentId::Cursor, "debugger-mcp", Scope::User, true).is_none());
    // (The rule is the protocol: one-call starts, nothing to clean up.)
    let rule = subagent::rule_text("debugger-mcp");
    assert!(
        rule.contains("breakpoints") && rule.contains("Nothing to clean up"),
        "{rule}"
    );
    // Uninstall removes what it wrote, never a file of the user's.
    assert!(subagent::remove(&env, AgentId::ClaudeCode, Scope::User).unwrap());
    assert!(!home.0.join("home/.claude/agents/debugger.md").exists());
    std::fs::write(
        home.0.join("home/.codex/skills/debugger-mcp/SKILL.md"),
        "my own skill\n",
    )
    .unwrap();
    assert!(!subagent::remove(&env, AgentId::Codex, Scope::User).unwrap());
    assert_eq!(
        std::fs::read_to_string(home.0.join("home/.codex/skills/debugger-mcp/SKILL.md")).unwrap(),
        "my own skill\n"
    );
}
