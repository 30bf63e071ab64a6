//! `debugger-mcp install`: the CLI face of the installer crate (the IDE's button is the other).

use anyhow::{Result, bail};
use debugger_mcp_install::{self as install, Action, AgentId, Change, Env, Server, Status};
use std::path::PathBuf;

pub struct Args {
    pub agents: Vec<String>,
    pub url: Option<String>,
    pub stdio: bool,
    pub dry_run: bool,
    pub uninstall: bool,
    pub project: Option<PathBuf>,
    pub settings: Option<PathBuf>,
}

fn home_relative(env: &Env, path: &std::path::Path) -> String {
    match path.strip_prefix(&env.home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

pub fn run(args: Args) -> Result<()> {
    let workspace = match args.project {
        Some(p) => p,
        None => std::env::current_dir()?,
    };
    let env = Env::from_process(workspace)?;
    let ids: Vec<AgentId> = if args.agents.is_empty() {
        let found = install::detect(&env);
        if found.is_empty() {
            bail!(
                "no agent found in this user's home; name them with --agent (one of: {})",
                install::AGENTS
                    .iter()
                    .map(|a| a.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        found
    } else {
        install::parse_agents(&args.agents)?
    };
    let action = if args.uninstall {
        Action::Uninstall
    } else {
        Action::Install
    };
    let settings = args
        .settings
        .unwrap_or_else(|| install::token::settings_path(&env));

    // The per-install token: reuse the one the server already enforces, else make one. stdio
    // entries need none (the bridge reads it from the server's discovery record).
    let mut token = None;
    let mut changes: Vec<(String, Change)> = Vec::new();
    if action == Action::Install && !args.stdio {
        let t = match install::token::read(&settings)? {
            Some(t) => t,
            None => install::token::generate()?,
        };
        changes.push((
            "server settings".into(),
            install::token::plan(&settings, &t)?,
        ));
        token = Some(t);
    }
    let server = Server {
        name: install::SERVER_NAME.into(),
        url: args.url.unwrap_or_else(|| install::DEFAULT_URL.into()),
        token,
        stdio: args.stdio,
        command: std::env::current_exe()?,
    };
    let mut failed = 0;
    for (id, planned) in install::plan(&env, &ids, &server, action) {
        match planned {
            Ok(c) => changes.push((id.to_string(), c)),
            Err(e) => {
                failed += 1;
                eprintln!("{id}: error: {e}");
            }
        }
    }
    let mut out = String::new();
    for (label, change) in &changes {
        let path = home_relative(&env, &change.path);
        if args.dry_run {
            out.push_str(&format!(
                "{label}: would {} {path}\n",
                change.status.as_str()
            ));
            out.push_str(&change.diff());
            continue;
        }
        match change.apply() {
            Ok(backup) => {
                let verb = match change.status {
                    Status::Create => "created",
                    Status::Update => "updated",
                    Status::Unchanged => "already up to date:",
                    Status::Absent => "nothing to remove in",
                };
                let backup = backup
                    .map(|b| format!(" (previous file kept as {})", home_relative(&env, &b)))
                    .unwrap_or_default();
                out.push_str(&format!("{label}: {verb} {path}{backup}\n"));
            }
            Err(e) => {
                failed += 1;
                out.push_str(&format!("{label}: error: {e}\n"));
            }
        }
        if let Some(id) = change.agent
            && action == Action::Install
            && let Some(hint) = install::cli_hint(id, &server)
        {
            out.push_str(&format!("  (the agent's own way: {hint})\n"));
        }
        if change.agent == Some(AgentId::VsCodeWorkspace)
            && server.token.is_some()
            && action == Action::Install
        {
            out.push_str("  note: .vscode/mcp.json now holds the bearer token; keep it out of version control\n");
        }
    }
    print!("{out}");
    if action == Action::Install && !args.dry_run && !args.stdio {
        println!(
            "Restart or reload the agents to pick the server up. The server requires the token from {}.",
            home_relative(&env, &settings)
        );
    }
    if failed > 0 {
        bail!("{failed} agent(s) not changed (see above)");
    }
    Ok(())
}
