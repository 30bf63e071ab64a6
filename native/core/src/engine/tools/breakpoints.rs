//! Breakpoints: the backend owns them; the core adds owner (agent/user), observed hit counts,
//! the bound line's source text, "moved"/"pending" notes, update-instead-of-duplicate, and
//! removal of temporary breakpoints after their first hit.

use super::super::context::{Call, ToolError};
use super::super::state::BpMeta;
use super::out::is_false;
use super::same_file;
use super::{Kind, Outcome, ProjectArg, yes};
use crate::backend::CONDITION_FAILS;
use crate::backend::SessionState;
use crate::backend::{
    BreakpointInfo, BreakpointKind, BreakpointUpdate, DataAccess, ExceptionBreakpointSpec,
    LineBreakpointSpec, SuspendPolicy,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

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
    Watch,
}

/// A breakpoint as agents see it.
#[derive(Serialize, JsonSchema)]
pub struct Breakpoint {
    pub(super) id: String,
    #[serde(rename = "type")]
    pub(super) kind: BpType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) file: Option<String>,
    /// The bound line (the requested one until bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) requested_line: Option<u32>,
    pub(super) verified: bool,
    pub(super) enabled: bool,
    pub(super) owner: Owner,
    pub(super) hit_count: u64,
    #[serde(skip_serializing_if = "is_false")]
    pub(super) temporary: bool,
    pub(super) suspend_policy: Suspend,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) log_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) hit_condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) exception_class: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) caught: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) uncaught: Option<bool>,
    /// set_breakpoint: "set" or "updated".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) status: Option<String>,
    /// set_breakpoint: the text of the bound line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) source_line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) moved: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) note: Option<String>,
    /// Function breakpoints: the name given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) function: Option<String>,
    /// "record" when calls are recorded (get_call_records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) on_hit: Option<String>,
    /// Watchpoints: the expression and the access that stops (write, read, readWrite).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) watch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) access: Option<String>,
    /// set_breakpoint {function}: every definition it bound at, `file:line Name (id)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) bound: Vec<String>,
    /// The breakpoint this one waits for: it stops only once that one was hit in the session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) after: Option<String>,
    /// With `after`: that breakpoint was not hit yet in this session (or no session runs).
    #[serde(skip_serializing_if = "is_false")]
    pub(super) waiting: bool,
}

fn suspend(p: SuspendPolicy) -> Suspend {
    match p {
        SuspendPolicy::All => Suspend::All,
        SuspendPolicy::Thread => Suspend::Thread,
        SuspendPolicy::None => Suspend::None,
    }
}

/// A breakpoint as agents see it.
pub(super) fn bp_json(info: &BreakpointInfo, meta: Option<&BpMeta>) -> Breakpoint {
    let exception = info.kind == BreakpointKind::Exception;
    let text = |v: &Option<String>| v.clone().filter(|v| !v.is_empty());
    let dep = meta.and_then(|m| m.after.as_ref());
    Breakpoint {
        id: info.id.clone(),
        kind: match info.kind {
            BreakpointKind::Exception => BpType::Exception,
            BreakpointKind::Data => BpType::Watch,
            // A function breakpoint reads like the line breakpoints the project scan binds:
            // `function` names it, file/line say where it bound.
            BreakpointKind::Line | BreakpointKind::Function => BpType::Line,
        },
        file: info.file.clone(),
        line: info.line.or(info.requested_line),
        requested_line: info.requested_line,
        verified: info.verified,
        // One the core keeps disabled while it waits (`dependent`) is as enabled as asked.
        enabled: dep
            .filter(|d| d.emulated)
            .map_or(info.enabled, |d| d.enabled),
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
        note: meta.and_then(|m| m.master_removed.as_ref()).map(|x| {
            format!("it waited for breakpoint {x}, which was removed: it stops at every hit")
        }),
        function: meta.and_then(|m| m.function.clone()),
        on_hit: meta
            .and_then(|m| m.record.as_ref())
            .map(|_| "record".into()),
        watch: info.watch.clone(),
        access: info.access.map(|a| {
            match a {
                DataAccess::Write => "write",
                DataAccess::Read => "read",
                DataAccess::ReadWrite => "readWrite",
            }
            .into()
        }),
        bound: Vec::new(),
        after: dep
            .map(|d| d.master.clone())
            .or_else(|| info.master.clone()),
        waiting: dep.is_some_and(|d| d.waiting()),
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

pub(super) fn remember(c: &Call<'_>, root: &str, info: &BreakpointInfo) -> BpMeta {
    c.engine.with_state(|s| {
        // A breakpoint already known and not the agent's is the IDE user's (updated, not made,
        // by this call): it never goes with the agent's MCP session.
        let users = s.breakpoints.get(&info.id).is_some_and(|m| !m.agent);
        if !users && let Some(client) = &c.ctx.client {
            client.made_breakpoint(root, &info.id);
        }
        let meta = s.breakpoints.entry(info.id.clone()).or_default();
        meta.agent = true;
        meta.project = Some(root.to_string());
        meta.observe(info.clone());
        meta.clone()
    })
}

/// # List breakpoints
/// Id, where, hits, owner of each.
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
    if b.message
        .as_deref()
        .is_some_and(|m| m.contains(CONDITION_FAILS))
    {
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

/// An unbound line breakpoint on a line without code says so, with the lines that have code
/// nearby: "pending" alone reads as "not loaded yet" where gdb or delve will never bind it.
async fn no_code_notes(c: &Call<'_>, root: &str, items: &mut [Breakpoint]) {
    let backend = c.engine.backend.clone();
    let mut sources: std::collections::HashMap<String, Option<String>> = Default::default();
    for b in items.iter_mut() {
        // (One bound in a session that ended shows its bound line: explain_idle said where.)
        if b.verified
            || b.kind != BpType::Line
            || b.function.is_some()
            || b.line != b.requested_line
        {
            continue;
        }
        let (Some(file), Some(line)) = (b.file.clone(), b.requested_line.or(b.line)) else {
            continue;
        };
        if !sources.contains_key(&file) {
            let text = c
                .bk("read_source", backend.read_source(root, &file))
                .await
                .ok();
            sources.insert(file.clone(), text);
        }
        if let Some(near) = super::capture::nearby(sources[&file].as_deref(), line) {
            b.message = Some(match b.message.take() {
                Some(m) => format!("{m}; {near}"),
                None => near,
            });
        }
    }
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
    let mut items: Vec<Breakpoint> = all
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
    no_code_notes(c, &root, &mut items).await;
    Ok(Breakpoints {
        total: items.len() as u64,
        breakpoints: items,
    })
}

/// # Set a breakpoint
/// At file_path+line, function (each definition; force_return stubs it, gdb), watch (paused) or exception_class (or a filter the debugger offers); breakpoint_id updates one; breakpoints: [...] sets several; after: id to wait for.
#[derive(Deserialize, Serialize, JsonSchema)]
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["force_return", "breakpoints", "after", "text"]))]
pub struct SetBreakpoint {
    #[serde(flatten)]
    pub(super) p: ProjectArg,
    #[schemars(length(min = 1))]
    pub(super) file_path: Option<String>,
    #[schemars(range(min = 1))]
    pub(super) line: Option<u32>,
    // A fragment of the line's source instead of line, file_path optional (the project's
    // sources are searched; `by_text`). Unlisted: the instructions name it.
    pub(super) text: Option<String>,
    /// Cart.add, pkg.F, C::m, printf
    #[schemars(length(min = 1))]
    pub(super) function: Option<String>,
    pub(super) condition: Option<String>,
    /// Logged, no stop; {expr} evaluated.
    pub(super) log_message: Option<String>,
    /// e.g. '3' = stop on the 3rd hit.
    pub(super) hit_condition: Option<String>,
    #[serde(default)]
    pub(super) suspend_policy: Suspend,
    #[serde(default = "yes")]
    pub(super) enabled: bool,
    #[serde(default)]
    pub(super) temporary: bool,
    // record: arguments and result of each call kept, no stop (get_call_records reads them).
    #[serde(default)]
    pub(super) on_hit: OnHit,
    // A watchpoint on what this expression names, in the paused frame (no doc comment: the
    // tool's description says it; every byte of tools/list counts).
    #[schemars(length(min = 1))]
    pub(super) watch: Option<String>,
    pub(super) access: Option<Access>,
    // With function: every call returns this value at once (gdb), recorded (unlisted: the
    // tool's description names it, every byte of tools/list counts).
    #[schemars(length(min = 1))]
    pub(super) force_return: Option<String>,
    // Calls to record at most (100 when absent).
    #[schemars(range(min = 1))]
    pub(super) max_calls: Option<u32>,
    // The breakpoint to update (enabled, condition, hit_condition, log_message): what
    // toggle_breakpoint did, folded in (issue 26: every tool costs every agent's context).
    #[schemars(length(min = 1))]
    pub(super) breakpoint_id: Option<String>,
    // What set_exception_breakpoint took, folded in likewise.
    #[schemars(length(min = 1))]
    pub(super) exception_class: Option<String>,
    #[serde(default = "yes")]
    pub(super) caught: bool,
    #[serde(default = "yes")]
    pub(super) uncaught: bool,
    // Several at once, each as start_debug_session's breakpoints take them (unlisted: the
    // description names it); one that fails fails alone.
    #[schemars(length(min = 1))]
    pub(super) breakpoints: Option<Vec<super::first::BreakAt>>,
    // The id of the breakpoint to wait for: this one stops only once that one was hit in the
    // session (IntelliJ's "Disable until hit the following breakpoint"; `dependent`).
    #[schemars(length(min = 1))]
    pub(super) after: Option<String>,
}
tool!(
    SetBreakpoint,
    "set_breakpoint",
    Kind::Write { idempotent: true },
    SetResult,
    set_breakpoints
);

/// set_breakpoint's answer: one breakpoint, or with `breakpoints` one row per item.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SetResult {
    One(Box<Breakpoint>),
    Many(Batch),
}

/// `breakpoints`: a row per item in order, each set or failed.
#[derive(Serialize, JsonSchema)]
pub struct Batch {
    message: String,
    breakpoints: Vec<Row>,
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Row {
    Set(Box<Breakpoint>),
    /// An item that failed: its index in the list and why; the others were still set.
    Failed {
        index: u32,
        error: String,
    },
}

async fn set_breakpoints(c: &mut Call<'_>, mut a: SetBreakpoint) -> Outcome<SetResult> {
    let Some(items) = a.breakpoints.take() else {
        return Ok(SetResult::One(Box::new(set_breakpoint(c, a).await?)));
    };
    // The list stands alone: what one item needs goes in that item.
    let beside = [
        ("file_path", a.file_path.is_some()),
        ("line", a.line.is_some()),
        ("text", a.text.is_some()),
        ("function", a.function.is_some()),
        ("condition", a.condition.is_some()),
        ("log_message", a.log_message.is_some()),
        ("hit_condition", a.hit_condition.is_some()),
        ("suspend_policy", a.suspend_policy != Suspend::All),
        ("enabled", !a.enabled),
        ("temporary", a.temporary),
        ("on_hit", a.on_hit != OnHit::Stop),
        ("watch", a.watch.is_some()),
        ("access", a.access.is_some()),
        ("force_return", a.force_return.is_some()),
        ("max_calls", a.max_calls.is_some()),
        ("breakpoint_id", a.breakpoint_id.is_some()),
        ("exception_class", a.exception_class.is_some()),
        ("caught", !a.caught),
        ("uncaught", !a.uncaught),
        ("after", a.after.is_some()),
    ];
    if let Some((name, _)) = beside.iter().find(|(_, given)| *given) {
        return Err(ToolError(format!(
            "give breakpoints alone, not with {name}: each item takes file_path+line (or text) or function, condition, hit_condition, on_hit, after"
        )));
    }
    super::first::check_count(items.len())?;
    let root = c.project(a.p.project_path.as_deref()).await?;
    let rows = super::first::set_each(c, &root, &items).await;
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Failed { index, .. } => Some(format!("breakpoints[{index}]")),
            Row::Set(_) => None,
        })
        .collect();
    let set = rows.len() - failed.len();
    if set == 0 {
        let why: Vec<String> = rows
            .iter()
            .filter_map(|r| match r {
                Row::Failed { index, error } => Some(format!("breakpoints[{index}]: {error}")),
                Row::Set(_) => None,
            })
            .collect();
        return Err(ToolError(format!("no breakpoint set: {}", why.join("; "))));
    }
    let message = if failed.is_empty() {
        format!("{set} breakpoints set")
    } else {
        format!(
            "{set} of {} set; {} failed (the others are set)",
            rows.len(),
            failed.join(", ")
        )
    };
    Ok(SetResult::Many(Batch {
        message,
        breakpoints: rows,
    }))
}

// What access to a watched value stops (write when absent).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum Access {
    Write,
    Read,
    ReadWrite,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum OnHit {
    #[default]
    Stop,
    Record,
    Log,
}

/// One breakpoint (what each item of `breakpoints` is set with too), waiting for `after`'s
/// hit when given.
pub(super) async fn set_breakpoint(c: &mut Call<'_>, mut a: SetBreakpoint) -> Outcome<Breakpoint> {
    if let Some(text) = a.text.take() {
        let root = c.project(a.p.project_path.as_deref()).await?;
        let (file, line, _) = by_text(c, &root, &a, &text).await?;
        a.file_path = Some(file);
        a.line = Some(line);
    }
    let Some(master) = a.after.take() else {
        let by_id = a.breakpoint_id.is_some();
        let enabled = a.enabled;
        let project = a.p.project_path.clone();
        let mut b = set_plain(c, a).await?;
        // Re-setting a line that waited for another without `after` makes it a plain one, as
        // re-setting clears a condition; an update by id keeps it.
        if !by_id && b.after.is_some() && b.status.as_deref() == Some("updated") {
            let root = c.project(project.as_deref()).await?;
            depend(c, &root, &ids_of(&b), None, enabled).await?;
            refresh(c, &mut b);
        }
        return Ok(b);
    };
    if a.exception_class.is_some() || a.watch.is_some() {
        return Err(
            "field 'after': for line and function breakpoints, not exception_class or watch".into(),
        );
    }
    let root = c.project(a.p.project_path.as_deref()).await?;
    let all = fetch(c, &root).await?;
    let Some((m, _)) = all.iter().find(|(i, _)| i.id == master) else {
        let ids: Vec<&str> = all.iter().map(|(i, _)| i.id.as_str()).collect();
        return Err(ToolError(format!(
            "field 'after': no breakpoint '{master}'; existing ids: {}",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        )));
    };
    // Not itself: re-setting the master's line would update the master.
    let same = match (&a.breakpoint_id, &a.file_path, a.line) {
        (Some(id), _, _) => *id == master,
        (None, Some(f), Some(l)) => {
            let file = c.file_in_project(&root, f)?;
            m.kind == BreakpointKind::Line
                && m.file.as_deref().is_some_and(|mf| same_file(mf, &file))
                && (m.requested_line == Some(l) || m.line == Some(l))
        }
        _ => false,
    };
    if same {
        return Err(ToolError(format!(
            "field 'after': breakpoint {master} is this breakpoint; name another"
        )));
    }
    if m.log_message.as_deref().is_some_and(|l| !l.is_empty()) {
        return Err(ToolError(format!(
            "field 'after': breakpoint {master} logs without stopping, so its hits are not seen; wait for a breakpoint that stops"
        )));
    }
    let enabled = a.enabled;
    // Set disabled, so it cannot stop before the dependency holds.
    a.enabled = false;
    let mut b = set_plain(c, a).await?;
    depend(c, &root, &ids_of(&b), Some(&master), enabled).await?;
    refresh(c, &mut b);
    Ok(b)
}

/// set_breakpoint {text}: the line it names, refused with a field it cannot go with.
async fn by_text(
    c: &Call<'_>,
    root: &str,
    a: &SetBreakpoint,
    text: &str,
) -> Result<(String, u32, String), ToolError> {
    super::by_text::check_fields(
        a.file_path.as_deref(),
        a.line,
        Some(text),
        a.function.as_deref(),
    )?;
    let other = [
        ("breakpoint_id", a.breakpoint_id.is_some()),
        ("exception_class", a.exception_class.is_some()),
        ("watch", a.watch.is_some()),
        ("force_return", a.force_return.is_some()),
    ];
    if let Some((name, _)) = other.iter().find(|(_, given)| *given) {
        return Err(ToolError(format!(
            "give text without {name}: text names a line for a line breakpoint"
        )));
    }
    super::by_text::line_of(c, root, a.file_path.as_deref(), text).await
}

/// The backend ids of a set breakpoint: a function's one per definition it bound at.
fn ids_of(b: &Breakpoint) -> Vec<String> {
    let mut ids = vec![b.id.clone()];
    for at in &b.bound {
        if let Some(id) = at
            .rsplit_once("(id ")
            .and_then(|(_, r)| r.strip_suffix(')'))
            && !ids.iter().any(|x| x == id)
        {
            ids.push(id.to_string());
        }
    }
    ids
}

/// A set breakpoint's `enabled`, `after` and `waiting` as the engine now knows them.
fn refresh(c: &Call<'_>, b: &mut Breakpoint) {
    let fresh = c.engine.with_state(|s| {
        let m = s.breakpoints.get(&b.id)?;
        Some(bp_json(m.last.as_ref()?, Some(m)))
    });
    if let Some(f) = fresh {
        b.enabled = f.enabled;
        b.after = f.after;
        b.waiting = f.waiting;
    }
}

/// Makes `ids` wait for `master` (`None`: stop waiting), `enabled` as the agent asked. The
/// backend's own dependencies where it has them (the IDE), else the core's (`dependent`).
async fn depend(
    c: &Call<'_>,
    root: &str,
    ids: &[String],
    master: Option<&str>,
    enabled: bool,
) -> Result<(), ToolError> {
    use super::super::dependent::After;
    use crate::backend::BackendError;
    let backend = c.engine.backend.clone();
    let ms = c.cfg.backend_timeout_ms;
    for id in ids {
        let asked = tokio::time::timeout(
            std::time::Duration::from_millis(ms),
            backend.set_master_breakpoint(root, id, master),
        )
        .await;
        let on = match asked {
            Ok(Ok(info)) => {
                c.engine.with_state(|s| {
                    let m = s.breakpoints.entry(id.clone()).or_default();
                    m.observe(info);
                    m.master_removed = None;
                });
                enabled
            }
            Ok(Err(BackendError::Unsupported(_))) => c.engine.with_state(|s| {
                // Already hit in the session that runs: armed at once.
                let live = s.sessions.values().any(|x| {
                    x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped
                });
                let armed = master.is_some_and(|mid| {
                    live && s.breakpoints.get(mid).is_some_and(|mm| mm.hits > 0)
                });
                let m = s.breakpoints.entry(id.clone()).or_default();
                m.after = master.map(|mid| After {
                    master: mid.to_string(),
                    emulated: true,
                    armed,
                    enabled,
                });
                m.master_removed = None;
                enabled && (master.is_none() || armed)
            }),
            Ok(Err(e)) => {
                return Err(c
                    .bk("set_master_breakpoint", async { Err::<(), _>(e) })
                    .await
                    .unwrap_err());
            }
            Err(_) => {
                return Err(ToolError(format!(
                    "the debugger did not finish making breakpoint {id} wait within {ms} ms; retry, or raise backend_timeout_ms in the settings"
                )));
            }
        };
        let update = BreakpointUpdate {
            enabled: Some(on),
            ..Default::default()
        };
        let info = c
            .bk(
                "update_breakpoint",
                backend.update_breakpoint(root, id, update),
            )
            .await?;
        c.engine.with_state(|s| {
            s.breakpoints.entry(id.clone()).or_default().observe(info);
        });
    }
    Ok(())
}

/// Dependent breakpoints the core keeps that the backend still has enabled while they wait (a
/// session's end disables them a moment later): disabled before a launch, so the new session
/// starts with them waiting.
pub(super) async fn before_launch(c: &Call<'_>, root: &str) {
    let Ok(all) = fetch(c, root).await else {
        return;
    };
    let stray: Vec<(String, String)> = all
        .iter()
        .filter(|(i, m)| {
            i.enabled
                && m.as_ref()
                    .and_then(|m| m.after.as_ref())
                    .is_some_and(|d| d.emulated && !d.armed)
        })
        .map(|(i, _)| (root.to_string(), i.id.clone()))
        .collect();
    c.engine.set_backend_enabled(stray, false).await;
}

async fn set_plain(c: &mut Call<'_>, a: SetBreakpoint) -> Outcome<Breakpoint> {
    // Argument combinations first: a refused call asks the debugger nothing.
    if a.breakpoint_id.is_some() || a.exception_class.is_some() {
        let (field, what) = if a.breakpoint_id.is_some() {
            (
                "breakpoint_id",
                "updates enabled, condition, hit_condition or log_message",
            )
        } else {
            (
                "exception_class",
                "takes caught, uncaught, condition, enabled, suspend_policy",
            )
        };
        let other = [
            (
                "breakpoint_id",
                a.breakpoint_id.is_some() && field != "breakpoint_id",
            ),
            (
                "exception_class",
                a.exception_class.is_some() && field != "exception_class",
            ),
            ("file_path", a.file_path.is_some()),
            ("line", a.line.is_some()),
            ("function", a.function.is_some()),
            ("watch", a.watch.is_some()),
            ("access", a.access.is_some()),
            ("force_return", a.force_return.is_some()),
            ("max_calls", a.max_calls.is_some()),
            ("temporary", a.temporary),
            ("on_hit", a.on_hit != OnHit::Stop),
            (
                "log_message",
                a.log_message.is_some() && field == "exception_class",
            ),
            (
                "hit_condition",
                a.hit_condition.is_some() && field == "exception_class",
            ),
            (
                "suspend_policy",
                a.suspend_policy != Suspend::All && field == "breakpoint_id",
            ),
            ("caught", !a.caught && field == "breakpoint_id"),
            ("uncaught", !a.uncaught && field == "breakpoint_id"),
        ];
        if let Some((name, _)) = other.iter().find(|(_, given)| *given) {
            return Err(ToolError(format!(
                "give {field} without {name}: set_breakpoint with {field} {what}"
            )));
        }
        return match a.breakpoint_id {
            Some(id) => {
                update_by_id(
                    c,
                    a.p,
                    id,
                    a.enabled,
                    a.condition,
                    a.hit_condition,
                    a.log_message,
                )
                .await
            }
            None => set_exception_breakpoint(c, a).await,
        };
    }
    if a.force_return.is_some() && a.function.is_none() {
        return Err("force_return needs function (each call of it returns that value)".into());
    }
    if a.watch.is_some() {
        if a.function.is_some() || a.file_path.is_some() || a.line.is_some() {
            return Err("give watch alone, not with function or file_path+line".into());
        }
        if a.on_hit == OnHit::Record {
            return Err("on_hit 'record' needs function, not watch".into());
        }
        let root = c.project(a.p.project_path.as_deref()).await?;
        return super::calls::set_watchpoint(c, &root, a).await;
    }
    if a.access.is_some() {
        return Err("field 'access': needs watch (the expression to watch)".into());
    }
    match (&a.function, &a.file_path, a.line) {
        // A function named with a file is that function in that file (set_function_breakpoint).
        (Some(_), _, Some(_)) => {
            return Err("give function or file_path+line, not both (function takes file_path alone: that function in that file)".into());
        }
        (None, None, _) => {
            return Err("field 'file_path': required (with line), or give function".into());
        }
        (None, Some(_), None) => return Err("field 'line': required with file_path".into()),
        (None, Some(_), Some(_)) if a.on_hit == OnHit::Record => {
            return Err(
                "on_hit 'record' needs function (a call is recorded from its entry to its return)"
                    .into(),
            );
        }
        (None, Some(_), Some(_)) if a.on_hit == OnHit::Log && a.log_message.is_none() => {
            return Err(
                "on_hit 'log' needs log_message (the text to log; {expr} is evaluated)".into(),
            );
        }
        _ => {}
    }
    let root = c.project(a.p.project_path.as_deref()).await?;
    match (&a.file_path, a.line) {
        (Some(path), Some(line)) => {
            let file = c.file_in_project(&root, path)?;
            c.line_in_file(&file, line, path)?;
            let (line, moved) = c.at_call(&file, line);
            let mut b = set_at(c, &root, &file, line, &a).await?;
            if moved.is_some() {
                b.moved = moved;
            }
            Ok(b)
        }
        _ => super::calls::set_function_breakpoint(c, &root, a).await,
    }
}

/// Sets (or updates) the line breakpoint at `file:line` with the options of `a`.
pub(super) async fn set_at(
    c: &mut Call<'_>,
    root: &str,
    file: &str,
    line: u32,
    a: &SetBreakpoint,
) -> Outcome<Breakpoint> {
    let root = root.to_string();
    let file = file.to_string();
    let backend = c.engine.backend.clone();
    let existing = fetch(c, &root).await?.into_iter().find(|(i, _)| {
        i.kind == BreakpointKind::Line
            && i.file.as_deref().is_some_and(|f| same_file(f, &file))
            && (i.requested_line == Some(line) || i.line == Some(line))
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
                line,
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
    m.requested_line = Some(line);
    m.status = Some(if updated { "updated" } else { "set" }.into());
    let actual = info.line.unwrap_or(line);
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
        .and_then(|t| super::source::code_lines_near(t, line));
    if info.verified && actual != line {
        m.moved = Some(format!(
            "the debugger moved it from line {} to line {actual} (the nearest line with code)",
            line
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
            line, info.id
        ));
    }
    Ok(m)
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

/// "breakpoint 3 (calls.c:19) not bound (the debugger says: pending); …" for each of `ids` (the
/// breakpoints a start set) the debugger never bound: said with the start's answer, where the
/// agent would otherwise read "no breakpoint was hit" as "the code never runs there". The
/// agent's other line breakpoints of the project (set before the start) are told too when the
/// run `ended`, or at any stop when their line has no code (issue 26: a guessed blank line
/// between two functions that gdb and delve never bind, and nothing said so); a pending one
/// on a line with code is left out while the program runs (its library may load later).
pub async fn unbound_note(c: &Call<'_>, root: &str, ids: &[String], ended: bool) -> Option<String> {
    let all = fetch(c, root).await.ok()?;
    let backend = c.engine.backend.clone();
    let mut notes = Vec::new();
    let mine = |i: &BreakpointInfo, m: &Option<BpMeta>| {
        ids.contains(&i.id) || m.as_ref().is_some_and(|m| m.agent && !m.removed)
    };
    for (info, meta) in all.iter().filter(|(i, m)| mine(i, m)) {
        // Bound once (and maybe hit) in this session: the backend reports it unbound after the end.
        if info.kind != BreakpointKind::Line
            || !info.enabled
            || meta
                .as_ref()
                .is_some_and(|m| m.bound_line.is_some() || m.hits > 0)
        {
            continue;
        }
        let Some(file) = info.file.as_deref() else {
            continue;
        };
        let rel = file
            .strip_prefix(root)
            .map(|f| f.trim_start_matches('/'))
            .unwrap_or(file);
        let source = c
            .bk("read_source", backend.read_source(root, file))
            .await
            .ok();
        let line = info.requested_line.or(info.line).unwrap_or(0);
        let no_code = source
            .as_deref()
            .is_some_and(|s| super::source::no_code_at(s, line).is_some());
        if !ids.contains(&info.id) && !ended && !no_code {
            continue;
        }
        if let Some(why) = super::capture::if_not_bound(info, source.as_deref(), rel) {
            notes.push(format!("breakpoint {} ({rel}:{line}): {why}", info.id));
        }
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// # Remove breakpoints
/// By id, file (+ line), or all yours.
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
    let freed = remove_ids(c, &root, &targets).await?;
    let mut message = match targets.len() {
        0 => "no breakpoint matched; nothing to remove".to_string(),
        1 => format!("removed 1 breakpoint (id {})", targets[0]),
        n => format!("removed {n} breakpoints (ids {})", targets.join(", ")),
    };
    if !freed.is_empty() {
        let _ = write!(
            message,
            "; {} waited for {}: now {} at every hit",
            match freed.as_slice() {
                [one] => format!("breakpoint {one}"),
                many => format!("breakpoints {}", many.join(", ")),
            },
            if targets.len() == 1 {
                "it"
            } else {
                "one of them"
            },
            if freed.len() == 1 {
                "it stops"
            } else {
                "they stop"
            }
        );
    }
    Ok(Removed {
        removed: targets.len() as u64,
        ids: targets,
        message,
    })
}

/// Removes `ids`; returns the breakpoints that waited for one of them (`after`) and now stop
/// at every hit (those removed too left out).
pub(super) async fn remove_ids(
    c: &Call<'_>,
    root: &str,
    ids: &[String],
) -> Result<Vec<String>, ToolError> {
    let backend = c.engine.backend.clone();
    let mut freed = Vec::new();
    for id in ids {
        // Read first: the backend's removal event may free them before this call goes on.
        let waiting: Vec<String> = c.engine.with_state(|s| {
            s.breakpoints
                .iter()
                .filter(|(_, m)| m.after.as_ref().is_some_and(|a| a.master == *id))
                .map(|(k, _)| k.clone())
                .collect()
        });
        freed.extend(waiting);
        c.bk("remove_breakpoint", backend.remove_breakpoint(root, id))
            .await?;
        let (ids, enable) = c.engine.with_state(|s| {
            s.breakpoints.remove(id);
            super::super::dependent::master_gone(s, id)
        });
        c.engine.set_backend_enabled(enable, true).await;
        freed.extend(ids);
    }
    freed.retain(|f| !ids.contains(f));
    freed.sort();
    freed.dedup();
    Ok(freed)
}

/// Removes the agent's breakpoints in `root` (stop_debug_session): those this MCP session made,
/// or, for a stateless request (no MCP session), every agent-owned one. The IDE user's stay.
pub(super) async fn remove_agents(c: &Call<'_>, root: &str) -> Vec<String> {
    let made = c.ctx.client.as_ref().map(|cl| cl.take_breakpoints(root));
    let ids: Vec<String> = c.engine.with_state(|s| {
        let agents = |id: &String| {
            s.breakpoints
                .get(id)
                .is_some_and(|m| m.agent && !m.removed && m.project.as_deref() == Some(root))
        };
        match made {
            Some(made) => made.into_iter().filter(|id| agents(id)).collect(),
            None => s
                .breakpoints
                .keys()
                .filter(|id| agents(id))
                .cloned()
                .collect(),
        }
    });
    let backend = c.engine.backend.clone();
    let mut gone = Vec::new();
    for id in ids {
        // The summary of the session just stopped still lists it, with its hits (marked before
        // the backend's removal event arrives).
        c.engine.with_state(|s| {
            if let Some(m) = s.breakpoints.get_mut(&id) {
                m.removed = true;
            }
        });
        // One the user already deleted in the IDE is gone either way.
        if c.bk("remove_breakpoint", backend.remove_breakpoint(root, &id))
            .await
            .is_ok()
        {
            let (_, enable) = c
                .engine
                .with_state(|s| super::super::dependent::master_gone(s, &id));
            c.engine.set_backend_enabled(enable, true).await;
            gone.push(id);
        }
    }
    gone
}

/// set_breakpoint {breakpoint_id}: updates that breakpoint in place (its id and hit count kept).
async fn update_by_id(
    c: &mut Call<'_>,
    p: ProjectArg,
    breakpoint_id: String,
    enabled: bool,
    condition: Option<String>,
    hit_condition: Option<String>,
    log_message: Option<String>,
) -> Outcome<Breakpoint> {
    let root = c.project(p.project_path.as_deref()).await?;
    let all = fetch(c, &root).await?;
    if !all.iter().any(|(i, _)| i.id == breakpoint_id) {
        let ids: Vec<&str> = all.iter().map(|(i, _)| i.id.as_str()).collect();
        return Err(ToolError(format!(
            "unknown breakpoint id '{}'; existing ids: {}",
            breakpoint_id,
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        )));
    }
    let backend = c.engine.backend.clone();
    // One the core keeps disabled while it waits for another's hit stays so; it is enabled
    // (or not) as asked once that one is hit.
    let waits = c.engine.with_state(|s| {
        let d = s
            .breakpoints
            .get_mut(&breakpoint_id)
            .and_then(|m| m.after.as_mut())
            .filter(|d| d.emulated)?;
        d.enabled = enabled;
        Some(!d.armed)
    });
    let update = BreakpointUpdate {
        enabled: Some(enabled && waits != Some(true)),
        condition,
        hit_condition,
        log_message,
        ..Default::default()
    };
    let info = c
        .bk(
            "update_breakpoint",
            backend.update_breakpoint(&root, &breakpoint_id, update),
        )
        .await?;
    let meta = c.engine.with_state(|s| {
        let m = s.breakpoints.entry(info.id.clone()).or_default();
        m.observe(info.clone());
        m.clone()
    });
    Ok(bp_json(&info, Some(&meta)))
}

/// set_breakpoint {exception_class}.
async fn set_exception_breakpoint(c: &mut Call<'_>, a: SetBreakpoint) -> Outcome<Breakpoint> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let info = c.engine.info().await;
    if !info.supports_exception_breakpoints {
        return Err(ToolError(format!(
            "the {} debugger backend does not support exception breakpoints",
            info.name
        )));
    }
    let spec = ExceptionBreakpointSpec {
        exception: a.exception_class.clone().unwrap_or_default(),
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
