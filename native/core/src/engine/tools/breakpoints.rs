//! Breakpoints: the backend owns them; the core adds owner (agent/user), observed hit counts,
//! the bound line's source text, "moved"/"pending" notes, update-instead-of-duplicate, and
//! removal of temporary breakpoints after their first hit.

use super::super::context::{Call, ToolError};
use super::super::state::BpMeta;
use super::out::is_false;
use super::same_file;
use super::{Kind, Outcome, ProjectArg, yes};
use crate::backend::SessionState;
use crate::backend::{
    BreakpointInfo, BreakpointKind, BreakpointUpdate, ExceptionBreakpointSpec, LineBreakpointSpec,
    SuspendPolicy,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

#[derive(Serialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum BpType {
    Line,
    Exception,
}

/// A breakpoint as agents see it.
#[derive(Serialize, JsonSchema)]
pub struct Breakpoint {
    id: String,
    #[serde(rename = "type")]
    kind: BpType,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The bound line (the requested one until bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    requested_line: Option<u32>,
    verified: bool,
    enabled: bool,
    owner: Owner,
    hit_count: u64,
    #[serde(skip_serializing_if = "is_false")]
    temporary: bool,
    suspend_policy: Suspend,
    #[serde(skip_serializing_if = "Option::is_none")]
    condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hit_condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exception_class: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    caught: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uncaught: Option<bool>,
    /// set_breakpoint: "set" or "updated".
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    /// set_breakpoint: the text of the bound line.
    #[serde(skip_serializing_if = "Option::is_none")]
    source_line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moved: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn suspend(p: SuspendPolicy) -> Suspend {
    match p {
        SuspendPolicy::All => Suspend::All,
        SuspendPolicy::Thread => Suspend::Thread,
        SuspendPolicy::None => Suspend::None,
    }
}

/// A breakpoint as agents see it.
fn bp_json(info: &BreakpointInfo, meta: Option<&BpMeta>) -> Breakpoint {
    let exception = info.kind == BreakpointKind::Exception;
    let text = |v: &Option<String>| v.clone().filter(|v| !v.is_empty());
    Breakpoint {
        id: info.id.clone(),
        kind: if exception {
            BpType::Exception
        } else {
            BpType::Line
        },
        file: info.file.clone(),
        line: info.line.or(info.requested_line),
        requested_line: info.requested_line,
        verified: info.verified,
        enabled: info.enabled,
        owner: if meta.is_some_and(|m| m.agent) {
            Owner::Agent
        } else {
            Owner::User
        },
        hit_count: info
            .hit_count
            .unwrap_or(0)
            .max(meta.map(|m| m.hits).unwrap_or(0)),
        temporary: info.temporary,
        suspend_policy: suspend(info.suspend_policy),
        condition: text(&info.condition),
        log_message: text(&info.log_message),
        hit_condition: text(&info.hit_condition),
        message: text(&info.message),
        exception_class: if exception {
            info.exception.clone()
        } else {
            None
        },
        caught: if exception { info.caught } else { None },
        uncaught: if exception { info.uncaught } else { None },
        status: None,
        source_line: None,
        moved: None,
        note: None,
    }
}

/// Lists the backend's breakpoints and refreshes what the engine knows about them.
async fn fetch(
    c: &Call<'_>,
    root: &str,
) -> Result<Vec<(BreakpointInfo, Option<BpMeta>)>, ToolError> {
    let backend = c.engine.backend.clone();
    let list = c.bk("breakpoints", backend.breakpoints(root)).await?;
    Ok(c.engine.with_state(|s| {
        list.into_iter()
            .map(|info| {
                let meta = s.breakpoints.entry(info.id.clone()).or_default();
                meta.project.get_or_insert_with(|| root.to_string());
                meta.observe(info.clone());
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
        meta.observe(info.clone());
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
tool!(
    ListBreakpoints,
    "list_breakpoints",
    Kind::Read,
    Breakpoints,
    list_breakpoints
);

#[derive(Serialize, JsonSchema)]
pub struct Breakpoints {
    breakpoints: Vec<Breakpoint>,
    total: u64,
}

/// A line breakpoint the backend reports unbound while no session runs, though it was bound
/// (and maybe hit) in the session that ended: says so instead of "pending".
fn explain_idle(b: &mut Breakpoint, meta: Option<&BpMeta>, live: bool) {
    let Some(bound) = meta.and_then(|m| m.bound_line) else {
        return;
    };
    if b.verified || live || b.kind != BpType::Line {
        return;
    }
    b.line = Some(bound);
    let hits = match b.hit_count {
        0 => String::new(),
        1 => ", hit once".into(),
        n => format!(", hit {n} times"),
    };
    b.message = Some(format!(
        "session ended: it was bound at line {bound}{hits}; binds again when a session starts"
    ));
}

fn live_session(c: &Call<'_>, root: &str) -> bool {
    c.engine.with_state(|s| {
        s.sessions
            .values()
            .any(|x| x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped)
    })
}

async fn list_breakpoints(c: &mut Call<'_>, a: ListBreakpoints) -> Outcome<Breakpoints> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let file = a
        .file_path
        .as_deref()
        .map(|f| c.file_in_project(&root, f))
        .transpose()?;
    let all = fetch(c, &root).await?;
    let live = live_session(c, &root);
    let items: Vec<Breakpoint> = all
        .iter()
        .filter(|(i, _)| {
            file.as_deref()
                .is_none_or(|f| i.file.as_deref().is_some_and(|bf| same_file(bf, f)))
        })
        .filter(|(i, _)| !a.enabled_only || i.enabled)
        .map(|(i, m)| {
            let mut b = bp_json(i, m.as_ref());
            explain_idle(&mut b, m.as_ref(), live);
            b
        })
        .filter(|m| a.owner.is_none_or(|o| m.owner == o))
        .collect();
    Ok(Breakpoints {
        total: items.len() as u64,
        breakpoints: items,
    })
}

/// # Set a line breakpoint
/// Set or update a line breakpoint; returns id, verified, actual line and its source.
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
tool!(
    SetBreakpoint,
    "set_breakpoint",
    Kind::Write { idempotent: true },
    Breakpoint,
    set_breakpoint
);

async fn set_breakpoint(c: &mut Call<'_>, a: SetBreakpoint) -> Outcome<Breakpoint> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let file = c.file_in_project(&root, &a.file_path)?;
    c.line_in_file(&file, a.line, &a.file_path)?;
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
            (
                c.bk(
                    "update_breakpoint",
                    backend.update_breakpoint(&root, &old.id, update),
                )
                .await?,
                true,
            )
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
            (
                c.bk(
                    "add_line_breakpoint",
                    backend.add_line_breakpoint(&root, spec),
                )
                .await?,
                false,
            )
        }
    };
    let meta = remember(c, &root, &info);
    let mut m = bp_json(&info, Some(&meta));
    m.requested_line = Some(a.line);
    m.status = Some(if updated { "updated" } else { "set" }.into());
    let actual = info.line.unwrap_or(a.line);
    let source = c
        .bk("read_source", backend.read_source(&root, &file))
        .await
        .ok();
    if let Some(src) = source
        .as_deref()
        .and_then(|t| t.lines().nth(actual.saturating_sub(1) as usize))
    {
        m.source_line = Some(src.trim_end().to_string());
    }
    // Not bound yet on a line without code: say where the source suggests it will bind, now
    // rather than after the session starts.
    let hint = source
        .as_deref()
        .filter(|_| !info.verified)
        .and_then(|t| code_lines_near(t, a.line));
    if info.verified && actual != a.line {
        m.moved = Some(format!(
            "the debugger moved it from line {} to line {actual} (the nearest line with code)",
            a.line
        ));
    }
    if !info.verified {
        let live = c.engine.with_state(|s| {
            s.sessions.values().any(|x| {
                x.project.as_deref() == Some(root.as_str()) && x.state() != SessionState::Stopped
            })
        });
        let why = match (&info.message, live) {
            (Some(msg), _) => format!("not bound: {msg}"),
            (None, false) => "pending: binds when a session starts".to_string(),
            (None, true) => {
                "not verified yet: the debugger has not bound it (it may be on a line without code)"
                    .to_string()
            }
        };
        m.message = Some(match hint {
            Some(h) => format!("{why}; {h}"),
            None => why,
        });
    }
    if updated {
        m.note = Some(format!(
            "line {} already had breakpoint {}; it was updated",
            a.line, info.id
        ));
    }
    Ok(m)
}

/// Whether a source line holds no code: blank, or only a comment.
fn no_code(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
}

/// For a breakpoint on a line without code: "line 15 is blank: the debugger will bind it to a
/// nearby line with code, 13 (`return base`) or 16 (`def total(order):`)". `None` when the line
/// has code.
pub(crate) fn code_lines_near(text: &str, line: u32) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let here = lines.get(line.checked_sub(1)? as usize)?;
    if !no_code(here) {
        return None;
    }
    let show = |i: usize| format!("{} (`{}`)", i + 1, lines[i].trim());
    let at = line as usize - 1;
    let before = (0..at).rev().find(|&i| !no_code(lines[i])).map(show);
    let after = (at + 1..lines.len())
        .find(|&i| !no_code(lines[i]))
        .map(show);
    let what = if here.trim().is_empty() {
        "is blank"
    } else {
        "is a comment"
    };
    Some(match (before, after) {
        (Some(b), Some(a)) => format!(
            "line {line} {what}: the debugger will bind it to a nearby line with code, {b} or {a}"
        ),
        (Some(x), None) | (None, Some(x)) => format!(
            "line {line} {what}: the debugger will bind it to the nearest line with code, {x}"
        ),
        (None, None) => format!("line {line} {what} and the file has no code: it cannot bind"),
    })
}

/// "breakpoint 2 bound at line 13, not 15" for each line breakpoint the debugger moved, as soon
/// as a session bound them (start_debug_session says it; the agent need not list them).
pub async fn moved_note(c: &Call<'_>, root: &str) -> Option<String> {
    let all = fetch(c, root).await.ok()?;
    let moved: Vec<String> = all
        .iter()
        .filter(|(i, _)| i.kind == BreakpointKind::Line && i.verified)
        .filter_map(|(i, _)| {
            let (line, asked) = (i.line?, i.requested_line?);
            (line != asked)
                .then(|| format!("breakpoint {} bound at line {line}, not {asked}", i.id))
        })
        .collect();
    (!moved.is_empty()).then(|| moved.join("; "))
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
tool!(
    RemoveBreakpoint,
    "remove_breakpoint",
    Kind::Destructive { idempotent: true },
    Removed,
    remove_breakpoint
);

/// `removed` counts the breakpoints removed; `ids` names them (a list of ids under `removed`
/// read as a count to agents: "removed: 2" for breakpoint 2).
#[derive(Serialize, JsonSchema)]
pub struct Removed {
    removed: u64,
    ids: Vec<String>,
    message: String,
}

async fn remove_breakpoint(c: &mut Call<'_>, a: RemoveBreakpoint) -> Outcome<Removed> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let modes = [
        a.breakpoint_id.is_some(),
        a.file_path.is_some(),
        a.all_agent_breakpoints,
    ]
    .iter()
    .filter(|b| **b)
    .count();
    if modes != 1 {
        return Err(ToolError(
            "give exactly one of: breakpoint_id, file_path (optionally with line), or all_agent_breakpoints: true".into(),
        ));
    }
    if a.line.is_some() && a.file_path.is_none() {
        return Err("line needs file_path".into());
    }
    let file = a
        .file_path
        .as_deref()
        .map(|f| c.file_in_project(&root, f))
        .transpose()?;
    let all = fetch(c, &root).await?;
    let targets: Vec<String> = all
        .iter()
        .filter(|(i, m)| {
            if let Some(id) = &a.breakpoint_id {
                &i.id == id
            } else if let Some(f) = &file {
                i.file.as_deref().is_some_and(|bf| same_file(bf, f))
                    && a.line
                        .is_none_or(|l| i.line == Some(l) || i.requested_line == Some(l))
            } else {
                m.as_ref().is_some_and(|m| m.agent)
            }
        })
        .map(|(i, _)| i.id.clone())
        .collect();
    let backend = c.engine.backend.clone();
    for id in &targets {
        c.bk("remove_breakpoint", backend.remove_breakpoint(&root, id))
            .await?;
        c.engine.with_state(|s| s.breakpoints.remove(id));
    }
    let message = match targets.len() {
        0 => "no breakpoint matched; nothing to remove".to_string(),
        1 => format!("removed 1 breakpoint (id {})", targets[0]),
        n => format!("removed {n} breakpoints (ids {})", targets.join(", ")),
    };
    Ok(Removed {
        removed: targets.len() as u64,
        ids: targets,
        message,
    })
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
tool!(
    ToggleBreakpoint,
    "toggle_breakpoint",
    Kind::Write { idempotent: false },
    Breakpoint,
    toggle_breakpoint
);

async fn toggle_breakpoint(c: &mut Call<'_>, a: ToggleBreakpoint) -> Outcome<Breakpoint> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let all = fetch(c, &root).await?;
    let Some((current, _)) = all.iter().find(|(i, _)| i.id == a.breakpoint_id) else {
        let ids: Vec<&str> = all.iter().map(|(i, _)| i.id.as_str()).collect();
        return Err(ToolError(format!(
            "unknown breakpoint id '{}'; existing ids: {}",
            a.breakpoint_id,
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        )));
    };
    let enabled = a.enabled.unwrap_or(!current.enabled);
    let backend = c.engine.backend.clone();
    let update = BreakpointUpdate {
        enabled: Some(enabled),
        ..Default::default()
    };
    let info = c
        .bk(
            "update_breakpoint",
            backend.update_breakpoint(&root, &a.breakpoint_id, update),
        )
        .await?;
    let meta = c.engine.with_state(|s| {
        let m = s.breakpoints.entry(info.id.clone()).or_default();
        m.observe(info.clone());
        m.clone()
    });
    Ok(bp_json(&info, Some(&meta)))
}

/// # Break on exceptions
/// Stop on exceptions: a class name (debugpy, IDE) or a filter the debugger offers.
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
tool!(
    SetExceptionBreakpoint,
    "set_exception_breakpoint",
    Kind::Write { idempotent: false },
    Breakpoint,
    set_exception_breakpoint
);

async fn set_exception_breakpoint(
    c: &mut Call<'_>,
    a: SetExceptionBreakpoint,
) -> Outcome<Breakpoint> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let info = c.engine.info().await;
    if !info.supports_exception_breakpoints {
        return Err(ToolError(format!(
            "the {} debugger backend does not support exception breakpoints",
            info.name
        )));
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
    let bp = c
        .bk(
            "add_exception_breakpoint",
            backend.add_exception_breakpoint(&root, spec),
        )
        .await
        .map_err(|e| {
            // Named once: a backend's own refusal may already list them.
            if info.exception_filters.is_empty()
                || info.exception_filters.iter().any(|f| e.0.contains(&f.id))
            {
                e
            } else {
                let known: Vec<String> = info
                    .exception_filters
                    .iter()
                    .map(|f| format!("{} ({})", f.id, f.label))
                    .collect();
                ToolError(format!(
                    "{}; this debugger knows: {}",
                    e.0,
                    known.join(", ")
                ))
            }
        })?;
    let meta = remember(c, &root, &bp);
    Ok(bp_json(&bp, Some(&meta)))
}

/// After a pause: temporary breakpoints that were hit are removed if the backend kept them.
pub async fn remove_temporary(c: &Call<'_>, sid: &str, hit: &[String]) {
    let temporary: Vec<(String, String)> = c.engine.with_state(|s| {
        let session_project = s.sessions.get(sid).and_then(|x| x.project.clone());
        hit.iter()
            .filter_map(|id| {
                let m = s.breakpoints.get(id)?;
                let project = m.project.clone().or(session_project.clone())?;
                m.last
                    .as_ref()
                    .filter(|b| b.temporary)
                    .map(|_| (id.clone(), project))
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
        if still_there
            && c.bk(
                "remove_breakpoint",
                backend.remove_breakpoint(&project, &id),
            )
            .await
            .is_ok()
        {
            c.engine.with_state(|s| s.breakpoints.remove(&id));
        }
    }
}
