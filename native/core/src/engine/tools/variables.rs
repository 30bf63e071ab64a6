//! Variables: frame values with short ids, depth/children limits, truncation and redaction;
//! expansion by id or path with paging; setting values (guarded).

use super::super::context::{Call, ToolError};
use super::super::ledger::{ReadKind, ValueRead};
use super::super::preview;
use super::super::snapshot::location;
use super::super::values::{self, Lookup, ValueRef, child_path, name_matches, split_path};
use super::out::{Location, ValueNode as Shown, is_false};
use super::{Kind, Outcome, SessionArg};
use crate::backend::{ValueNode, ValueScope};
use futures::{StreamExt, TryStreamExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;

// Which variables (get_variables `scope`). The default, `frame`, is the frame's own values
// (locals, arguments, this) without globals and the debugger's groups ("Globals", "special
// variables", registers) an agent rarely wants; `all` adds them, `globals` is only globals.
// (Plain comments: doc comments would become schema text in every tools/list.)
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Default)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    Frame,
    Local,
    Arguments,
    This,
    Globals,
    All,
}

impl Scope {
    fn admits(self, v: &ValueNode) -> bool {
        if values::is_runner_temporary(&v.name) && !matches!(self, Scope::All) {
            return false;
        }
        match self {
            Scope::All => true,
            Scope::Frame => !matches!(v.scope, ValueScope::Global | ValueScope::Synthetic),
            Scope::Local => v.scope == ValueScope::Local,
            Scope::Arguments => v.scope == ValueScope::Argument,
            Scope::This => v.scope == ValueScope::This,
            Scope::Globals => v.scope == ValueScope::Global,
        }
    }
}

type BoxedNode<'a> = Pin<Box<dyn Future<Output = Result<Shown, ToolError>> + Send + 'a>>;

/// Children fetched at once while building a tree (bounded so a wide tree does not flood the
/// debugger with hundreds of simultaneous requests).
const CONCURRENT_FETCHES: usize = 8;

/// Registers `node` and, while `depth > 1`, its children (at most `max` per node). Children are
/// fetched concurrently: a depth-3 tree is two rounds of parallel requests instead of one
/// request after another.
fn build<'a>(
    c: &'a Call<'a>,
    sid: &'a str,
    node: ValueNode,
    path: String,
    depth: u32,
    max: u32,
) -> BoxedNode<'a> {
    Box::pin(async move {
        let mut m = register(c, sid, &node, path.clone())?;
        if depth > 1 && node.has_children {
            if let Some(handle) = &node.children_handle {
                let backend = c.engine.backend.clone();
                let page = c
                    .bk("children", backend.children(sid, handle, 0, max))
                    .await?;
                let n = page.children.len();
                let kids: Vec<Shown> =
                    futures::stream::iter(page.children.into_iter().map(|child| {
                        let p = child_path(&path, &child.name);
                        build(c, sid, child, p, depth - 1, max)
                    }))
                    .buffered(CONCURRENT_FETCHES)
                    .try_collect()
                    .await?;
                let total = page.total.unwrap_or(n as u64);
                m.children = Some(kids);
                if total > n as u64 {
                    m.truncated = true;
                    m.total = Some(total);
                }
            }
        } else {
            // (A hidden value is a string, never an address repr with a preview.)
            if let Some(p) = preview::previews(c, sid, &[&node]).await.pop().flatten() {
                preview::put(&mut m, p);
            }
        }
        // Recorded as shown: with its preview, not the address repr it replaced.
        record(c, sid, &path, &m);
        Ok(m)
    })
}

fn register(c: &Call<'_>, sid: &str, node: &ValueNode, path: String) -> Result<Shown, ToolError> {
    c.engine.with_state(|s| {
        let slot = s
            .sessions
            .get_mut(sid)
            .ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))?;
        Ok::<_, ToolError>(values::show(&c.cfg, &mut slot.values, node, path.clone()).0)
    })
}

/// Every value shown to the agent goes to the ledger (get_debug_history, summaries).
fn record(c: &Call<'_>, sid: &str, path: &str, shown: &Shown) {
    let frame = c
        .engine
        .with_state(|s| s.sessions.get(sid).map(|x| x.selected_frame).unwrap_or(0));
    let at = c.engine.at(sid, None, frame);
    c.engine.ledger.record(
        sid,
        &at,
        ValueRead::with_fields(ReadKind::Variable, path, shown),
    );
}

/// The values of a frame as get_variables returns them.
/// get_variables' result.
#[derive(Serialize, JsonSchema)]
pub struct FrameValues {
    pub session_id: String,
    pub thread_id: String,
    pub frame_index: u32,
    pub location: Location,
    pub variables: Vec<Shown>,
    /// Variables in scope, shown or not.
    pub total: u64,
    #[serde(skip_serializing_if = "is_false")]
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

pub async fn frame_values(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    frame_index: u32,
    scope: Scope,
    depth: u32,
    max: u32,
) -> Outcome<FrameValues> {
    let frame = c.frame(sid, thread, frame_index).await?;
    let backend = c.engine.backend.clone();
    let vars = c
        .bk(
            "frame_variables",
            backend.frame_variables(sid, &frame.handle),
        )
        .await?;
    let mut admitted: Vec<ValueNode> = vars.into_iter().filter(|v| scope.admits(v)).collect();
    let total = admitted.len();
    // Cut: the names the current line uses stay (issue 26: the local it computes was left out).
    if total > max as usize
        && let Some(line) = super::super::snapshot::source_line(c, sid, &frame).await
    {
        super::super::snapshot::line_first(&mut admitted, |v| &v.name, &line);
    }
    let variables: Vec<Shown> =
        futures::stream::iter(admitted.into_iter().take(max as usize).map(|v| {
            let path = v.name.clone();
            build(c, sid, v, path, depth, max)
        }))
        .buffered(CONCURRENT_FETCHES)
        .try_collect()
        .await?;
    let truncated = total > max as usize;
    Ok(FrameValues {
        session_id: sid.to_string(),
        thread_id: thread.to_string(),
        frame_index,
        location: location(&frame),
        variables,
        total: total as u64,
        truncated,
        message: truncated
            .then(|| format!("showing {max} of {total} variables; raise max_children to see more")),
    })
}

fn one() -> u32 {
    1
}

/// # Get variables
/// Of a frame, by scope.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetVariables {
    #[serde(flatten)]
    s: SessionArg,
    /// 0 = top. Default: the selected frame.
    frame_index: Option<u32>,
    thread_id: Option<String>,
    #[serde(default)]
    scope: Scope,
    // 1 = top level only.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 3))]
    depth: u32,
    // Default: the settings' max_children (the instructions say so).
    #[schemars(range(min = 1, max = 200))]
    max_children: Option<u32>,
}
tool!(
    GetVariables,
    "get_variables",
    Kind::Read,
    FrameValues,
    get_variables
);

async fn get_variables(c: &mut Call<'_>, a: GetVariables) -> Outcome<FrameValues> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (thread, _) = c.paused(&sid)?;
    let thread = a.thread_id.unwrap_or(thread);
    let frame_index = a.frame_index.unwrap_or_else(|| {
        c.engine
            .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0))
    });
    let max = a.max_children.unwrap_or(c.cfg.max_children);
    frame_values(c, &sid, &thread, frame_index, a.scope, a.depth, max).await
}

// The value a tool acts on: by id (from a result) or by path from a frame's variable.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ValueTarget {
    #[schemars(length(min = 1))]
    pub variable_id: Option<String>,
    #[schemars(length(min = 1))]
    pub path: Option<String>,
    /// 0 = top. Default: the selected frame.
    pub frame_index: Option<u32>,
}

/// The value an id or a path names.
pub(super) async fn target(
    c: &Call<'_>,
    sid: &str,
    v: &ValueTarget,
) -> Result<ValueRef, ToolError> {
    let frame_index = v.frame_index;
    match (v.variable_id.as_deref(), v.path.as_deref()) {
        (Some(id), None) => {
            let found = c.engine.with_state(|s| match s.sessions.get(sid).map(|x| x.values.get(id)) {
                Some(Lookup::Found(r)) => Ok(r.clone()),
                Some(Lookup::Stale) => Err(ToolError(format!(
                    "value id {id} is stale: the program resumed since it was read; call get_variables again"
                ))),
                Some(Lookup::Expired) => Err(ToolError(format!(
                    "value id {id} expired: too many values were read during this pause; read it again with get_variables or expand_variable by path"
                ))),
                _ => Err(ToolError(format!(
                    "unknown variable id '{id}'; ids come from get_variables, expand_variable or evaluate_expression of this session"
                ))),
            })?;
            c.paused(sid)?;
            Ok(found)
        }
        (None, Some(path)) => {
            let (thread, _) = c.paused(sid)?;
            let frame_index = frame_index.unwrap_or_else(|| {
                c.engine
                    .with_state(|s| s.sessions.get(sid).map(|x| x.selected_frame).unwrap_or(0))
            });
            let (node, full) = match resolve_path(c, sid, &thread, frame_index, path).await {
                Ok(found) => found,
                // Not a walk through the children shown (`this->m_member` where gdb shows a
                // pointer's target as a child `value`, `*p`, `v[i + 1]`): the path as an
                // expression, when it is a side-effect-free one.
                Err(e) => match path_as_expression(c, sid, &thread, frame_index, path).await {
                    Some(node) => (node, path.to_string()),
                    None => return Err(e),
                },
            };
            Ok(ValueRef {
                name: node.name.clone(),
                path: full,
                children_handle: node.children_handle.clone().filter(|_| node.has_children),
                set_handle: node.set_handle.clone(),
                child_count: node.child_count,
                value: node.value.clone(),
                type_name: node.type_name.clone(),
            })
        }
        (Some(_), Some(_)) => Err("give variable_id or path, not both".into()),
        (None, None) => {
            Err("give variable_id (from get_variables) or path (e.g. 'user.address.city')".into())
        }
    }
}

/// The value of `path` evaluated as an expression in the frame, if it is a safe one and the
/// debugger can evaluate it.
async fn path_as_expression(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    frame_index: u32,
    path: &str,
) -> Option<ValueNode> {
    let frame = c.frame(sid, thread, frame_index).await.ok()?;
    super::super::expression_guard::check(path, &c.cfg.expression_safety, frame.file.as_deref())
        .ok()?;
    super::super::expression_guard::require_loaded(c, sid, thread, &frame.handle, path)
        .await
        .ok()?;
    let backend = c.engine.backend.clone();
    let request = crate::backend::EvalRequest {
        thread_id: thread.to_string(),
        frame: frame.handle.clone(),
        expression: path.to_string(),
        context: crate::backend::EvalContext::Expression,
        allow_side_effects: false,
        format: None,
    };
    let mut node = c
        .bk("evaluate", backend.evaluate(sid, request))
        .await
        .ok()?;
    node.name = path.to_string();
    Some(node)
}

async fn resolve_path(
    c: &Call<'_>,
    sid: &str,
    thread: &str,
    frame_index: u32,
    path: &str,
) -> Result<(ValueNode, String), ToolError> {
    let segments = split_path(path).map_err(ToolError)?;
    let frame = c.frame(sid, thread, frame_index).await?;
    let backend = c.engine.backend.clone();
    let vars = c
        .bk(
            "frame_variables",
            backend.frame_variables(sid, &frame.handle),
        )
        .await?;
    let mut node = vars
        .iter()
        .find(|v| values::top_name_matches(&v.name, &segments[0]))
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
            ToolError(format!(
                "no variable '{}' in frame {frame_index}; variables: {}",
                segments[0],
                names.join(", ")
            ))
        })?;
    let mut full = node.name.clone();
    for seg in &segments[1..] {
        let handle = node
            .children_handle
            .clone()
            .filter(|_| node.has_children)
            .ok_or_else(|| ToolError(format!("'{full}' has no children (value {})", node.value)))?;
        let mut offset = 0u32;
        let found = loop {
            let page = c
                .bk("children", backend.children(sid, &handle, offset, 200))
                .await?;
            if let Some(child) = page.children.iter().find(|ch| name_matches(&ch.name, seg)) {
                break Some(child.clone());
            }
            offset += page.children.len() as u32;
            if page.children.is_empty() || page.total.is_some_and(|t| offset as u64 >= t) {
                break None;
            }
        };
        node = found.ok_or_else(|| {
            ToolError(format!(
                "'{full}' has no child '{seg}'; use expand_variable on '{full}' to see its children"
            ))
        })?;
        full = child_path(&full, &node.name);
    }
    Ok((node, full))
}

/// # Expand a variable
/// Children by variable_id or path ('user.items[2]'); filter: JSONPath, e.g. '$.items[?@.qty > 1].name', '$..price'.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ExpandVariable {
    #[serde(flatten)]
    s: SessionArg,
    #[serde(flatten)]
    v: ValueTarget,
    // What inspect_variable took, folded in (issue 26 item 5: one tool fewer in every
    // agent's listing).
    #[schemars(length(min = 1))]
    filter: Option<String>,
    #[serde(default)]
    offset: u32,
    // Default: max_children of the config (the instructions say so).
    #[schemars(range(min = 1, max = 500))]
    limit: Option<u32>,
}
tool!(
    ExpandVariable,
    "expand_variable",
    Kind::Read,
    ExpandOut,
    expand_variable
);

/// The children, or with `filter` the matches.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ExpandOut {
    Children(Expanded),
    Matches(super::inspect::Inspected),
}

/// expand_variable's result.
#[derive(Serialize, JsonSchema)]
pub struct Expanded {
    session_id: String,
    /// The expanded value itself (with its id and path).
    variable: Shown,
    children: Vec<Shown>,
    offset: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_offset: Option<u32>,
}

async fn expand_variable(c: &mut Call<'_>, a: ExpandVariable) -> Outcome<ExpandOut> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    if let Some(filter) = a.filter {
        let limit = a.limit.unwrap_or(c.cfg.max_children);
        return super::inspect::inspect(c, &sid, &a.v, filter, a.offset, limit)
            .await
            .map(ExpandOut::Matches);
    }
    let t = target(c, &sid, &a.v).await?;
    let Some(handle) = t.children_handle.clone() else {
        return Err(ToolError(format!("'{}' has no children to expand", t.path)));
    };
    let offset = a.offset;
    let limit = a.limit.unwrap_or(c.cfg.max_children);
    let backend = c.engine.backend.clone();
    let page = c
        .bk("children", backend.children(&sid, &handle, offset, limit))
        .await?;
    let n = page.children.len() as u32;
    let mut kids = Vec::new();
    let mut paths = Vec::new();
    for child in &page.children {
        let p = child_path(&t.path, &child.name);
        kids.push(register(c, &sid, child, p.clone())?);
        paths.push(p);
    }
    {
        // (A hidden value is a string, never an address repr with a preview.)
        let nodes: Vec<&ValueNode> = page.children.iter().collect();
        for (m, p) in kids
            .iter_mut()
            .zip(preview::previews(c, &sid, &nodes).await)
        {
            if let Some(p) = p {
                preview::put(m, p);
            }
        }
    }
    for (m, p) in kids.iter().zip(&paths) {
        record(c, &sid, p, m);
    }
    let id = a.v.variable_id.clone().unwrap_or_else(|| {
        c.engine.with_state(|s| {
            s.sessions
                .get_mut(&sid)
                .map(|x| x.values.register(t.clone()))
                .unwrap_or_default()
        })
    });
    let total = page.total.or(t.child_count);
    // The expanded value itself, shaped like every value node (`value` is required by the schema).
    let mut variable = Shown {
        id,
        name: t.name.clone(),
        path: Some(t.path.clone()),
        child_count: total,
        ..Default::default()
    };
    let v = values::visible(&c.cfg, &t.name, t.type_name.as_deref(), &t.value);
    variable.put(values::shown(&v.text, c.cfg.max_value_length, v.redacted));
    let end = offset + n;
    let more = total.map(|t| (end as u64) < t).unwrap_or(n == limit);
    Ok(ExpandOut::Children(Expanded {
        session_id: sid,
        variable,
        children: kids,
        offset,
        total,
        truncated: more,
        next_offset: more.then_some(end),
    }))
}

/// # Set a variable
/// By variable_id or path.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SetVariable {
    #[serde(flatten)]
    s: SessionArg,
    #[serde(flatten)]
    v: ValueTarget,
    /// An expression, e.g. '42' or "'text'".
    new_value: String,
}
tool!(
    SetVariable,
    "set_variable",
    Kind::Destructive { idempotent: true },
    SetResult,
    set_variable
);

/// set_variable's result.
#[derive(Serialize, JsonSchema)]
pub struct SetResult {
    session_id: String,
    variable: Shown,
    message: String,
}

async fn set_variable(c: &mut Call<'_>, a: SetVariable) -> Outcome<SetResult> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let info = c.engine.info().await;
    if !info.supports_set_value {
        return Err(ToolError(format!(
            "the {} debugger backend cannot change values",
            info.name
        )));
    }
    let t = target(c, &sid, &a.v).await?;
    let Some(handle) = t.set_handle.clone() else {
        return Err(ToolError(format!(
            "'{}' cannot be modified (the debugger reports it read-only)",
            t.path
        )));
    };
    c.confirm(
        &root,
        "change a variable in the running program",
        &format!("{} = {}", t.path, a.new_value),
    )
    .await?;
    let backend = c.engine.backend.clone();
    let mut node = c
        .bk("set_value", backend.set_value(&sid, &handle, &a.new_value))
        .await?;
    node.name = t.name.clone();
    let shown = register(c, &sid, &node, t.path.clone())?;
    let frame = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0));
    let at = c.engine.at(&sid, None, frame);
    c.engine.ledger.record(
        &sid,
        &at,
        [ValueRead::from_shown(
            ReadKind::Modified,
            t.path.clone(),
            &shown,
        )],
    );
    let message = format!("{} is now {}", t.path, shown.value);
    Ok(SetResult {
        session_id: sid,
        variable: shown,
        message,
    })
}
