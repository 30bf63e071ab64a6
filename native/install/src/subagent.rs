//! The debugging subagent `debugger-mcp install` offers next to the server entry.
//!
//! Debug2Fix (2026): a debugger subagent with a small toolset raised GPT-5 by more than 20% and
//! Claude by 13–16% on GitBug-Java and SWE-Bench-Live, while the same tools in the main agent's
//! context lowered scores. So, where the agent has subagents, the install writes one limited to
//! our tools with a short protocol; where it has skills (loaded on demand, which keeps the main
//! context small), a skill; for the others it prints the protocol as a rule to paste.
//!
//! - Claude Code: `~/.claude/agents/debugger.md` (project: `.claude/agents/debugger.md`),
//!   `tools:` listing only `mcp__<server>__<tool>` names.
//! - Codex: `$CODEX_HOME/skills/debugger-mcp/SKILL.md` (default `~/.codex`).
//! - Gemini CLI: `~/.gemini/skills/debugger-mcp/SKILL.md` (project: `.gemini/skills/…`).

use crate::{AgentId, Change, Env, InstallError, Status, fsio};
use std::path::PathBuf;

/// The server's tools (the core's registry; a sidecar test keeps the two lists equal).
pub const TOOLS: &[&str] = &[
    "list_run_configurations",
    "run_configuration",
    "list_debug_sessions",
    "start_debug_session",
    "stop_debug_session",
    "get_debug_session_status",
    "list_breakpoints",
    "set_breakpoint",
    "get_call_records",
    "remove_breakpoint",
    "resume",
    "pause",
    "step_over",
    "step_into",
    "step_out",
    "run_to_line",
    "wait_for_pause",
    "get_stack_trace",
    "select_stack_frame",
    "list_threads",
    "get_variables",
    "expand_variable",
    "set_variable",
    "evaluate_expression",
    "evaluate_code_fragment",
    "capture",
    "watches",
    "get_source_context",
    "get_debug_history",
    "get_session_summary",
    "get_console_output",
    "trace_function",
    "debug_test",
];

/// Marks files the installer wrote: an uninstall removes only those.
const MARKER: &str = "Written by `debugger-mcp install`";

const DESCRIPTION: &str = "Debugs a failing program or test with a real debugger (breakpoints, stepping, runtime values) through the debugger-mcp tools. Use it when a bug needs runtime facts (a wrong value, an unexpected branch, an exception) rather than more code reading; give it the failing command or test id and the question to answer.";

/// The debugging protocol: the body of the subagent, the skill and the rule.
pub const PROTOCOL: &str = "\
You find the cause of a bug by running the program under a real debugger, through the \
debugger-mcp tools. Do not edit code.

1. Reproduce under the debugger in one call: start_debug_session with the failing command or \
run configuration (or debug_test with the failing test id), giving it the breakpoints on the \
lines you suspect (file paths relative to the project) and the expressions to evaluate there \
(breakpoints, evaluate): it answers with the first stop and those values. For a crash, \
stop_on_exception: true. A question like \
\"what is x at each hit of line L\" is one capture call (it runs to the points and records \
expressions at each hit without stopping).
2. At each stop, one call answers most questions: get_debug_session_status (location, source, \
stack, variables), evaluate_expression with several expressions at once, expand_variable with a JSONPath filter for \
a part of a big value. Values seen earlier are in get_debug_history, also after resuming.
3. Narrow down with step_over / step_into / step_out / run_to_line (each waits and returns the \
new stop, with the values of its evaluate), a conditional breakpoint or hit_condition instead of stepping through a loop, \
trace_function to see a whole call line by line, and for \"which call returns the wrong \
value\" start with breakpoints [{function, on_hit: 'record'}]: it runs to the end and answers \
every call's arguments and result.
4. Stop when the values prove the cause. Report: the root cause at file:line, the values that \
show it (with the step they were read at), and the fix you suggest.
5. Nothing to clean up: your breakpoints and sessions go when your MCP session ends.
";

/// Whether the subagent (or skill) goes to the user's home or into the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    User,
    Project,
}

/// What the agent gets: a subagent definition or a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Subagent,
    Skill,
}

/// The kind of definition `id` takes, if any (the others get [`rule_text`]).
pub fn kind(id: AgentId) -> Option<Kind> {
    match id {
        AgentId::ClaudeCode => Some(Kind::Subagent),
        AgentId::Codex | AgentId::Gemini => Some(Kind::Skill),
        _ => None,
    }
}

/// Where the definition for `id` goes.
pub fn path(id: AgentId, env: &Env, scope: Scope) -> Option<PathBuf> {
    let base = |dir: &str| match scope {
        Scope::User => env.home.join(dir),
        Scope::Project => env.workspace.join(dir),
    };
    Some(match id {
        AgentId::ClaudeCode => base(".claude").join("agents").join("debugger.md"),
        // Codex reads skills from its home only, whatever the scope.
        AgentId::Codex => env
            .codex_home
            .clone()
            .unwrap_or_else(|| env.home.join(".codex"))
            .join("skills")
            .join("debugger-mcp")
            .join("SKILL.md"),
        AgentId::Gemini => base(".gemini")
            .join("skills")
            .join("debugger-mcp")
            .join("SKILL.md"),
        _ => return None,
    })
}

/// The file's text for `id`.
pub fn text(id: AgentId, server_name: &str) -> Option<String> {
    match kind(id)? {
        Kind::Subagent => {
            let tools: Vec<String> = TOOLS
                .iter()
                .map(|t| format!("mcp__{server_name}__{t}"))
                .collect();
            Some(format!(
                "---\nname: debugger\ndescription: {DESCRIPTION}\ntools: {}\n---\n\n<!-- {MARKER}; `debugger-mcp install --no-subagent` leaves it out. -->\n\n{PROTOCOL}",
                tools.join(", ")
            ))
        }
        Kind::Skill => Some(format!(
            "---\nname: debugger-mcp\ndescription: {DESCRIPTION}\n---\n\n<!-- {MARKER}; `debugger-mcp install --no-subagent` leaves it out. -->\n\nUse the `{server_name}` MCP server's tools.\n\n{PROTOCOL}"
        )),
    }
}

/// The rule for agents without subagents or skills (paste into the agent's rules file).
pub fn rule_text(server_name: &str) -> String {
    format!(
        "When a bug needs runtime facts, debug it with the `{server_name}` MCP tools:\n\n{PROTOCOL}"
    )
}

/// Plans writing (or, for an uninstall, removing) the definition for `id`; `None` for agents
/// that take a rule instead. Reads only.
pub fn plan(
    env: &Env,
    id: AgentId,
    server_name: &str,
    scope: Scope,
    install: bool,
) -> Option<Result<Change, InstallError>> {
    let path = path(id, env, scope)?;
    let after = text(id, server_name)?;
    Some(fsio::read_optional(&path).map(|before| {
        let status = match (&before, install) {
            (None, true) => Status::Create,
            (Some(b), true) if *b == after => Status::Unchanged,
            (Some(_), true) => Status::Update,
            (_, false) => Status::Absent,
        };
        Change {
            agent: Some(id),
            path,
            before,
            after,
            status,
        }
    }))
}

/// Removes a definition the installer wrote (a file without the marker is the user's: kept).
/// Returns whether a file was removed.
pub fn remove(env: &Env, id: AgentId, scope: Scope) -> Result<bool, InstallError> {
    let Some(path) = path(id, env, scope) else {
        return Ok(false);
    };
    match fsio::read_optional(&path)? {
        Some(text) if text.contains(MARKER) => {
            std::fs::remove_file(&path).map_err(|source| InstallError::Io {
                path: crate::display(&path),
                source,
            })?;
            // The skill's own directory goes too when it is empty.
            if kind(id) == Some(Kind::Skill)
                && let Some(dir) = path.parent()
            {
                let _ = std::fs::remove_dir(dir);
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}
