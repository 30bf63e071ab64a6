//! The installer as one JSON request → JSON report, for the IDE (through JNI) — the same plan
//! and apply as the CLI, in a shape the tool window renders as a checklist.
//!
//! Request: `{"action": "install"|"uninstall", "agents": ["codex", …] | null (= every agent),
//! "url": "…", "stdio": false, "project": "/abs/dir", "settings": "/abs/settings.toml",
//! "command": "/abs/debugger-mcp"}`.
//! Report: `{"applied": bool, "settings": {"path", "status", "error"?},
//! "agents": [{"agent", "display", "detected", "path", "status", "diff", "error"?, "backup"?,
//! "copy", "cli"?}]}` — `status` is create / update / unchanged / absent / error.

use crate::{Action, AgentId, Change, Env, Server, agents, token};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub agents: Option<Vec<String>>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub stdio: bool,
    pub project: PathBuf,
    pub settings: PathBuf,
    #[serde(default)]
    pub command: Option<PathBuf>,
}

/// Plans (and with `apply`, applies) the request against the real environment.
pub fn run(request_json: &str, apply: bool) -> Result<Value, String> {
    let req: Request =
        serde_json::from_str(request_json).map_err(|e| format!("bad install request: {e}"))?;
    let env = Env::from_process(req.project.clone()).map_err(|e| e.to_string())?;
    run_in(&env, req, apply)
}

pub fn run_in(env: &Env, req: Request, apply: bool) -> Result<Value, String> {
    let action = match req.action.as_deref() {
        None | Some("install") => Action::Install,
        Some("uninstall") => Action::Uninstall,
        Some(other) => {
            return Err(format!(
                "bad install request: action '{other}' (install or uninstall)"
            ));
        }
    };
    let ids: Vec<AgentId> = match &req.agents {
        Some(names) => crate::parse_agents(names).map_err(|e| e.to_string())?,
        None => agents::AGENTS.iter().map(|a| a.id).collect(),
    };
    let detected = crate::detect(env);
    let mut token_value = None;
    let mut settings_report = Value::Null;
    if action == Action::Install && !req.stdio {
        let planned = token::read(&req.settings)
            .and_then(|t| match t {
                Some(t) => Ok(t),
                None => token::generate(),
            })
            .and_then(|t| token::plan(&req.settings, &t).map(|c| (t, c)));
        settings_report = match planned {
            Ok((t, change)) => {
                token_value = Some(t);
                change_json(&change, apply, None)
            }
            Err(e) => json!({"path": req.settings, "status": "error", "error": e.to_string()}),
        };
    }
    let server = Server {
        name: crate::SERVER_NAME.into(),
        url: req.url.clone().unwrap_or_else(|| crate::DEFAULT_URL.into()),
        token: token_value,
        stdio: req.stdio,
        command: req
            .command
            .clone()
            .unwrap_or_else(|| PathBuf::from("debugger-mcp")),
    };
    let rows: Vec<Value> = ids
        .iter()
        .map(|&id| {
            let agent = agents::agent(id);
            let mut row = match crate::plan_agent(env, id, &server, action) {
                Ok(change) => change_json(&change, apply, Some(id)),
                Err(e) => json!({"path": agents::config_path(id, env), "status": "error", "error": e.to_string()}),
            };
            row["agent"] = json!(agent.name);
            row["display"] = json!(agent.display);
            row["detected"] = json!(detected.contains(&id));
            row["copy"] = json!(crate::copy_text(id, &server));
            if let Some(cli) = crate::cli_hint(id, &server) {
                row["cli"] = json!(cli);
            }
            row
        })
        .collect();
    Ok(json!({"applied": apply, "settings": settings_report, "agents": rows}))
}

fn change_json(change: &Change, apply: bool, _id: Option<AgentId>) -> Value {
    let mut v = json!({
        "path": change.path,
        "status": change.status.as_str(),
        "diff": change.diff(),
    });
    if apply {
        match change.apply() {
            Ok(Some(backup)) => v["backup"] = json!(backup),
            Ok(None) => {}
            Err(e) => {
                v["status"] = json!("error");
                v["error"] = json!(e.to_string());
            }
        }
    }
    v
}
