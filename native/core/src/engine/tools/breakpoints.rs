//! Breakpoints: the backend owns them; the core adds owner (agent/user), observed hit counts,
//! the bound line's source text, "moved"/"pending" notes, update-instead-of-duplicate, and
//! removal of temporary breakpoints after their first hit.

use super::super::context::{Call, ToolError, ToolResult};
use super::super::state::BpMeta;
use crate::backend::SessionState;
use super::same_file;
use crate::backend::{BreakpointInfo, BreakpointKind, BreakpointUpdate, ExceptionBreakpointSpec, LineBreakpointSpec, SuspendPolicy};
use super::{Kind, ProjectArg, out, yes};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

// Threads to suspend on hit (no doc comment: it would become the property description).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Suspend {
    #[default]
    All,
    Thread,
    None,
}

fn policy(p: Suspend) -> SuspendPolicy {
    match p {
        Suspend::All => SuspendPolicy::All,
        Suspend::Thread => SuspendPolicy::Thread,
        Suspend::None => SuspendPolicy::None,
    }
}

// Who set a breakpoint: the agent (through these tools) or the user (in the IDE).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    Agent,
    User,
}

fn policy_name(p: SuspendPolicy) -> &'static str {
    match p {
        SuspendPolicy::All => "all",
        SuspendPolicy::Thread => "thread",
        SuspendPolicy::None => "none",
    }
}

/// A breakpoint as agents see it.
fn bp_json(info: &BreakpointInfo, meta: Option<&BpMeta>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("id".into(), json!(info.id));
    m.insert("type".into(), json!(if info.kind == BreakpointKind::Exception { "exception" } else { "line" }));
    if let Some(f) = &info.file {
        m.insert("file".into(), json!(f));
    }
    if let Some(l) = info.line.or(info.requested_line) {
        m.insert("line".into(), json!(l));
    }
    if let Some(r) = info.requested_line {
        m.insert("requested_line".into(), json!(r));
    }
    m.insert("verified".into(), json!(info.verified));
    m.insert("enabled".into(), json!(info.enabled));
    m.insert("owner".into(), json!(if meta.is_some_and(|m| m.agent) { "agent" } else { "user" }));
    let hits = info.hit_count.unwrap_or(0).max(meta.map(|m| m.hits).unwrap_or(0));
    m.insert("hit_count".into(), json!(hits));
    m.insert("temporary".into(), json!(info.temporary));
    m.insert("suspend_policy".into(), json!(policy_name(info.suspend_policy)));
    for (k, v) in [("condition", &info.condition), ("log_message", &info.log_message), ("hit_condition", &info.hit_condition), ("message", &info.message)] {
        if let Some(v) = v.as_ref().filter(|v| !v.is_empty()) {
            m.insert(k.into(), json!(v));
        }
    }
    if info.kind == BreakpointKind::Exception {
        m.insert("exception_class".into(), json!(info.exception));
        m.insert("caught".into(), json!(info.caught));
        m.insert("uncaught".into(), json!(info.uncaught));
    }
    m
}

/// Lists the backend's breakpoints and refreshes what the engine knows about them.
async fn fetch(c: &Call<'_>, root: &str) -> Result<Vec<(BreakpointInfo, Option<BpMeta>)>, ToolError> {
    let backend = c.engine.backend.clone();
    let list = c.bk("breakpoints", backend.breakpoints(root)).await?;
    Ok(c.engine.with_state(|s| {
        list.into_iter()
            .map(|info| {
                let meta = s.breakpoints.entry(info.id.clone()).or_default();
                meta.project.get_or_insert_with(|| root.to_string());
                meta.last = Some(info.clone());
                (info, Some(meta.clone()))
            })
            .collect()
    }))
}

fn remember(c: &Call<'_>, root: &str, info: &BreakpointInfo) -> BpMeta {
    c.engine.with_state(|s| {
        let meta = s.breakpoints.entry(info.id.clone()).or_default();
        meta.agent = true;
        meta.project = Some(root.to_string());
        meta.last = Some(info.clone());
        meta.clone()
    })
}

/// # List breakpoints
/// Breakpoints: id, file, line, verified, condition, hits, owner.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListBreakpoints {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[serde(default)]
    enabled_only: bool,
    owner: Option<Owner>,
}
tool!(ListBreakpoints, "list_breakpoints", Kind::Read,
    out::obj(json!({"breakpoints": {"type": "array", "items": out::breakpoint()}, "total": {"type": "integer"}}), &["breakpoints", "total"]),
    list_breakpoints);

async fn list_breakpoints(c: &mut Call<'_>, a: ListBreakpoints) -> ToolResult {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let file = a.file_path.as_deref().map(|f| c.file_in_project(&root, f)).transpose()?;
    let all = fetch(c, &root).await?;
    let items: Vec<Value> = all
        .iter()
        .filter(|(i, _)| file.as_deref().is_none_or(|f| i.file.as_deref().is_some_and(|bf| same_file(bf, f))))
        .filter(|(i, _)| !a.enabled_only || i.enabled)
        .map(|(i, m)| bp_json(i, m.as_ref()))
        .filter(|m| a.owner.is_none_or(|o| m["owner"] == if o == Owner::Agent { "agent" } else { "user" }))
        .map(Value::Object)
        .collect();
    Ok(json!({"total": items.len(), "breakpoints": items}))
}

/// # Set a line breakpoint
/// Set or update a line breakpoint; returns its id, verified, the actual line and its source.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SetBreakpoint {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    file_path: String,
    #[schemars(range(min = 1))]
    line: u32,
    condition: Option<String>,
    /// Log instead of stopping; {expr} is evaluated.
    log_message: Option<String>,
    /// e.g. '3' = stop on the 3rd hit.
    hit_condition: Option<String>,
    #[serde(default)]
    suspend_policy: Suspend,
    #[serde(default = "yes")]
    enabled: bool,
    #[serde(default)]
    temporary: bool,
}
tool!(SetBreakpoint, "set_breakpoint", Kind::Write { idempotent: true }, out::breakpoint(), set_breakpoint);

async fn set_breakpoint(c: &mut Call<'_>, a: SetBreakpoint) -> ToolResult {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let file = c.file_in_project(&root, &a.file_path)?;
    let backend = c.engine.backend.clone();
    let existing = fetch(c, &root).await?.into_iter().find(|(i, _)| {
        i.kind == BreakpointKind::Line
            && i.file.as_deref().is_some_and(|f| same_file(f, &file))
            && (i.requested_line == Some(a.line) || i.line == Some(a.line))
    });
    let (info, updated) = match existing {
        Some((old, _)) => {
            // Re-setting a line updates the breakpoint instead of stacking a duplicate.
            let update = BreakpointUpdate {
                enabled: Some(a.enabled),
                condition: Some(a.condition.clone().unwrap_or_default()),
                log_message: Some(a.log_message.clone().unwrap_or_default()),
                hit_condition: Some(a.hit_condition.clone().unwrap_or_default()),
                suspend_policy: Some(policy(a.suspend_policy)),
                temporary: Some(a.temporary),
            };
            (c.bk("update_breakpoint", backend.update_breakpoint(&root, &old.id, update)).await?, true)
        }
        None => {
            let spec = LineBreakpointSpec {
                file: file.clone(),
                line: a.line,
                condition: a.condition.clone().filter(|s| !s.is_empty()),
                log_message: a.log_message.clone().filter(|s| !s.is_empty()),
                hit_condition: a.hit_condition.clone().filter(|s| !s.is_empty()),
                suspend_policy: policy(a.suspend_policy),
                enabled: a.enabled,
                temporary: a.temporary,
            };
            (c.bk("add_line_breakpoint", backend.add_line_breakpoint(&root, spec)).await?, false)
        }
    };
    let meta = remember(c, &root, &info);
    let mut m = bp_json(&info, Some(&meta));
    m.insert("requested_line".into(), json!(a.line));
    m.insert("status".into(), json!(if updated { "updated" } else { "set" }));
    let actual = info.line.unwrap_or(a.line);
    if let Ok(text) = c.bk("read_source", backend.read_source(&root, &file)).await {
        if let Some(src) = text.lines().nth(actual.saturating_sub(1) as usize) {
            m.insert("source_line".into(), json!(src.trim_end()));
        }
    }
    if info.verified && actual != a.line {
        m.insert("moved".into(), json!(format!("the debugger moved it from line {} to line {actual} (the nearest line with code)", a.line)));
    }
    if !info.verified {
        let live = c.engine.with_state(|s| {
            s.sessions.values().any(|x| x.project.as_deref() == Some(root.as_str()) && x.state() != SessionState::Stopped)
        });
        let why = match (&info.message, live) {
            (Some(msg), _) => format!("not bound: {msg}"),
            (None, false) => "pending: binds when a session starts".to_string(),
            (None, true) => "not verified yet: the debugger has not bound it (it may be on a line without code)".to_string(),
        };
        m.insert("message".into(), json!(why));
    }
    if updated {
        m.insert("note".into(), json!(format!("line {} already had breakpoint {}; it was updated", a.line, info.id)));
    }
    Ok(Value::Object(m))
}

/// # Remove breakpoints
/// Remove by breakpoint_id, file_path (+ line), or all_agent_breakpoints.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct RemoveBreakpoint {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    breakpoint_id: Option<String>,
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    #[serde(default)]
    all_agent_breakpoints: bool,
}
tool!(RemoveBreakpoint, "remove_breakpoint", Kind::Destructive { idempotent: true },
    out::obj(json!({"removed": {"type": "array", "items": {"type": "string"}}, "message": {"type": "string"}}), &["removed", "message"]),
    remove_breakpoint);

async fn remove_breakpoint(c: &mut Call<'_>, a: RemoveBreakpoint) -> ToolResult {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let modes = [a.breakpoint_id.is_some(), a.file_path.is_some(), a.all_agent_breakpoints].iter().filter(|b| **b).count();
    if modes != 1 {
        return Err(ToolError(
            "give exactly one of: breakpoint_id, file_path (optionally with line), or all_agent_breakpoints: true".into(),
        ));
    }
    if a.line.is_some() && a.file_path.is_none() {
        return Err("line needs file_path".into());
    }
    let file = a.file_path.as_deref().map(|f| c.file_in_project(&root, f)).transpose()?;
    let all = fetch(c, &root).await?;
    let targets: Vec<String> = all
        .iter()
        .filter(|(i, m)| {
            if let Some(id) = &a.breakpoint_id {
                &i.id == id
            } else if let Some(f) = &file {
                i.file.as_deref().is_some_and(|bf| same_file(bf, f)) && a.line.is_none_or(|l| i.line == Some(l) || i.requested_line == Some(l))
            } else {
                m.as_ref().is_some_and(|m| m.agent)
            }
        })
        .map(|(i, _)| i.id.clone())
        .collect();
    let backend = c.engine.backend.clone();
    for id in &targets {
        c.bk("remove_breakpoint", backend.remove_breakpoint(&root, id)).await?;
        c.engine.with_state(|s| s.breakpoints.remove(id));
    }
    let message = if targets.is_empty() {
        "no breakpoint matched; nothing to remove".to_string()
    } else {
        format!("removed {} breakpoint(s)", targets.len())
    };
    Ok(json!({"removed": targets, "message": message}))
}

/// # Enable or disable a breakpoint
/// Enable or disable a breakpoint by id.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ToggleBreakpoint {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    breakpoint_id: String,
    /// Omit to flip.
    enabled: Option<bool>,
}
tool!(ToggleBreakpoint, "toggle_breakpoint", Kind::Write { idempotent: false }, out::breakpoint(), toggle_breakpoint);

async fn toggle_breakpoint(c: &mut Call<'_>, a: ToggleBreakpoint) -> ToolResult {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let all = fetch(c, &root).await?;
    let Some((current, _)) = all.iter().find(|(i, _)| i.id == a.breakpoint_id) else {
        let ids: Vec<&str> = all.iter().map(|(i, _)| i.id.as_str()).collect();
        return Err(ToolError(format!(
            "unknown breakpoint id '{}'; existing ids: {}",
            a.breakpoint_id,
            if ids.is_empty() { "none".to_string() } else { ids.join(", ") }
        )));
    };
    let enabled = a.enabled.unwrap_or(!current.enabled);
    let backend = c.engine.backend.clone();
    let update = BreakpointUpdate { enabled: Some(enabled), ..Default::default() };
    let info = c.bk("update_breakpoint", backend.update_breakpoint(&root, &a.breakpoint_id, update)).await?;
    let meta = c.engine.with_state(|s| {
        let m = s.breakpoints.entry(info.id.clone()).or_default();
        m.last = Some(info.clone());
        m.clone()
    });
    Ok(Value::Object(bp_json(&info, Some(&meta))))
}

/// # Break on exceptions
/// Stop on exceptions: a class name, or a DAP filter (debugpy: raised, uncaught).
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SetExceptionBreakpoint {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    exception_class: String,
    #[serde(default = "yes")]
    caught: bool,
    #[serde(default = "yes")]
    uncaught: bool,
    condition: Option<String>,
    #[serde(default = "yes")]
    enabled: bool,
    #[serde(default)]
    suspend_policy: Suspend,
}
tool!(SetExceptionBreakpoint, "set_exception_breakpoint", Kind::Write { idempotent: false }, out::breakpoint(), set_exception_breakpoint);

async fn set_exception_breakpoint(c: &mut Call<'_>, a: SetExceptionBreakpoint) -> ToolResult {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let info = c.engine.info().await;
    if !info.supports_exception_breakpoints {
        return Err(ToolError(format!("the {} debugger backend does not support exception breakpoints", info.name)));
    }
    let spec = ExceptionBreakpointSpec {
        exception: a.exception_class.clone(),
        caught: a.caught,
        uncaught: a.uncaught,
        condition: a.condition.filter(|s| !s.is_empty()),
        enabled: a.enabled,
        suspend_policy: policy(a.suspend_policy),
    };
    let backend = c.engine.backend.clone();
    let bp = c.bk("add_exception_breakpoint", backend.add_exception_breakpoint(&root, spec)).await.map_err(|e| {
        if info.exception_filters.is_empty() {
            e
        } else {
            let known: Vec<String> = info.exception_filters.iter().map(|f| format!("{} ({})", f.id, f.label)).collect();
            ToolError(format!("{}; this debugger knows: {}", e.0, known.join(", ")))
        }
    })?;
    let meta = remember(c, &root, &bp);
    Ok(Value::Object(bp_json(&bp, Some(&meta))))
}

/// After a pause: temporary breakpoints that were hit are removed if the backend kept them.
pub async fn remove_temporary(c: &Call<'_>, sid: &str, hit: &[String]) {
    let temporary: Vec<(String, String)> = c.engine.with_state(|s| {
        let session_project = s.sessions.get(sid).and_then(|x| x.project.clone());
        hit.iter()
            .filter_map(|id| {
                let m = s.breakpoints.get(id)?;
                let project = m.project.clone().or(session_project.clone())?;
                m.last.as_ref().filter(|b| b.temporary).map(|_| (id.clone(), project))
            })
            .collect()
    });
    let backend = c.engine.backend.clone();
    for (id, project) in temporary {
        let still_there = c
            .bk("breakpoints", backend.breakpoints(&project))
            .await
            .map(|list| list.iter().any(|b| b.id == id))
            .unwrap_or(false);
        if still_there && c.bk("remove_breakpoint", backend.remove_breakpoint(&project, &id)).await.is_ok() {
            c.engine.with_state(|s| s.breakpoints.remove(&id));
        }
    }
}
