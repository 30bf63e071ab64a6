//! Frames, scopes, variables, evaluation and setting, as core `FrameInfo`s and `ValueNode`s.
//! Handles are DAP's own numbers (frame ids, variablesReference) and an index into the
//! session's set targets, valid until the next resume. Real sizes where an adapter shows
//! values cut come from the adapter module; truncation and ids for agents are the core's.

use crate::assign;
use crate::c_macros;
use crate::protocol::{
    self, EvaluateArguments, ScopesArguments, SetExpressionArguments, SetVariableArguments,
    StackTraceArguments, Variable, VariablesArguments,
};
use crate::session::{Inner, Session};
use debugger_mcp_core::backend::*;
use std::collections::HashMap;

/// What `set_value` needs for a node (DAP identifies values by container + name).
#[derive(Clone)]
pub struct SetTarget {
    parent_ref: Option<i64>,
    name: String,
    /// What `setExpression` sets when `setVariable` refuses: the adapter's evaluateName, else
    /// the expression [`crate::assign`] rebuilt.
    evaluate_name: Option<String>,
    frame_id: Option<i64>,
}

/// Per-pause value bookkeeping, cleared on every resume (handles are valid until then).
#[derive(Default)]
pub struct ValueTable {
    set_targets: Vec<SetTarget>,
    /// variablesReference → frame it belongs to (for setExpression on children).
    ref_frame: HashMap<i64, i64>,
    /// variablesReference → number of children, when the adapter said (for paged totals).
    ref_count: HashMap<i64, u64>,
    /// variablesReference → the expression of what it expands, for adapters that send no
    /// evaluateName (see [`crate::assign`]).
    ref_lineage: HashMap<i64, assign::Lineage>,
    /// DAP ids of the frames listed as the top of a stack in this stop (delve's ids are new
    /// handles per listing, so the top frame is known only by having been listed so).
    top_frames: std::collections::BTreeSet<i64>,
    /// The value returned by the step out that led to this stop, once read (delve reads it
    /// from registers; see `Adapter::returned_value`).
    pub(crate) returned: Option<Option<ValueNode>>,
    /// DAP frame id → its local source file, for frames listed in this stop (read for C macros,
    /// [`crate::c_macros`]).
    frame_files: HashMap<i64, std::path::PathBuf>,
    /// variablesReferences of an agent's expression (and what it contains): their strings
    /// are read under the raised string limit too (`DapBackend::children`), as the
    /// expression's own value was — a struct's `desc` field was cut at gdb's 200 otherwise.
    pub(crate) asked_refs: std::collections::HashSet<i64>,
}

/// The local source file of a frame listed in this stop.
pub(crate) fn frame_file(s: &Session, frame_id: i64) -> Option<std::path::PathBuf> {
    s.values.lock().unwrap().frame_files.get(&frame_id).cloned()
}

impl Session {
    /// The expression that reads value `n` in its frame: the adapter's `evaluateName`, else
    /// the one rebuilt from its lineage (`req.body` for a member `body`, see [`crate::assign`]);
    /// None where neither names it.
    pub(crate) fn value_expression(&self, n: &ValueNode) -> Option<String> {
        n.evaluate_name.clone().or_else(|| {
            let i = n.set_handle.as_deref()?.parse::<usize>().ok()?;
            let t = self.values.lock().unwrap();
            t.set_targets.get(i)?.evaluate_name.clone()
        })
    }

    /// Whether `frame_id` was listed as the top frame of a stack in this stop.
    pub fn is_top_frame(&self, frame_id: i64) -> bool {
        self.values.lock().unwrap().top_frames.contains(&frame_id)
    }
}

pub(crate) fn parse_handle(h: &str, what: &str) -> BackendResult<i64> {
    h.parse()
        .map_err(|_| BackendError::NotFound(format!("{what} '{h}'")))
}

/// Locals and arguments are listed; other scopes (globals, registers) become group nodes.
fn scope_kind(scope: &protocol::Scope) -> Option<ValueScope> {
    let hint = scope.presentation_hint.as_deref().unwrap_or("");
    let name = scope.name.as_deref().unwrap_or("").to_ascii_lowercase();
    // gdb's "Return" scope (after a step out) holds one value, `(return)`: shown with the locals
    // so the returned value is where debugpy puts its `(return) f` too.
    if hint == "locals" || name == "locals" || name == "local" || hint == "returnValue" {
        Some(ValueScope::Local)
    } else if hint == "arguments" || name == "arguments" {
        Some(ValueScope::Argument)
    } else {
        None
    }
}

impl Session {
    /// Turns a DAP variable (or evaluate / set result) into a ValueNode.
    pub(crate) fn node(
        &self,
        v: Variable,
        parent_ref: Option<i64>,
        frame_id: Option<i64>,
        scope: ValueScope,
    ) -> ValueNode {
        let Variable {
            name,
            value,
            type_name,
            variables_reference: r,
            evaluate_name,
            named_variables,
            indexed_variables,
        } = v;
        let type_name = type_name.filter(|t| !t.is_empty());
        let child_count = match (named_variables, indexed_variables) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        let synthetic = self.adapter.is_synthetic_group(&name);
        // What setExpression can set when setVariable refuses (gdb: array elements).
        let expression = assign::expression(
            &mut self.values.lock().unwrap().ref_lineage,
            self.adapter.c_expressions(),
            (parent_ref, r),
            &name,
            evaluate_name.as_deref(),
            type_name.as_deref(),
        );
        let settable = !synthetic
            && ((parent_ref.is_some() && self.cap(|c| c.supports_set_variable))
                || (expression.is_some() && self.cap(|c| c.supports_set_expression)));
        let set_handle = {
            let mut t = self.values.lock().unwrap();
            if r > 0 {
                if let Some(c) = child_count {
                    t.ref_count.insert(r, c);
                }
                if let Some(f) = frame_id {
                    t.ref_frame.insert(r, f);
                }
            }
            settable.then(|| {
                t.set_targets.push(SetTarget {
                    parent_ref,
                    name: name.clone(),
                    evaluate_name: expression,
                    frame_id,
                });
                (t.set_targets.len() - 1).to_string()
            })
        };
        // gdb renders aggregates (structs, arrays) with an empty value; a placeholder tells the
        // reader there is something to expand.
        let value = without_nul_padding(&value);
        let value = if value.is_empty() && r > 0 && !synthetic {
            match indexed_variables {
                Some(n) => format!("[{n} items]"),
                None => "{…}".to_string(),
            }
        } else {
            value
        };
        let scope = if synthetic {
            ValueScope::Synthetic
        } else if matches!(scope, ValueScope::Local | ValueScope::Argument)
            && (name == "self" || name == "this")
        {
            ValueScope::This
        } else {
            scope
        };
        ValueNode {
            name,
            value,
            type_name,
            has_children: r > 0,
            children_handle: (r > 0).then(|| r.to_string()),
            set_handle,
            evaluate_name,
            child_count,
            value_length: None,
            scope,
        }
    }
}

/// gdb writes a fixed-size `char` array whole, its padding too: `"CR-1716", '\000' <repeats
/// 24 times>` (the lazy string its DAP prints ignores `print null-stop`), in every row of a
/// search over records with `char id[32]`. The padding after the text is dropped, and an array
/// of NULs alone reads `""`.
fn without_nul_padding(value: &str) -> String {
    const PAD: &str = "'\\000' <repeats ";
    if !value.contains(PAD) {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find(PAD) {
        let after = &rest[at + PAD.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let end = (digits > 0 && after[digits..].starts_with(" times>"))
            .then_some(at + PAD.len() + digits + " times>".len());
        let before = &rest[..at];
        // Only padding that ends the array: the value's end, its struct's `}`, the next field
        // (`, owner = `). `"x", '\000' <repeats 12 times>, "y"` is one array with text after
        // its NULs (or an array of arrays): written as gdb wrote it.
        let end = end.filter(|&e| {
            let next = &rest[e..];
            next.is_empty()
                || next.starts_with('}')
                || next.strip_prefix(", ").is_some_and(|f| {
                    let name = f
                        .bytes()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                        .count();
                    name > 0 && f[name..].starts_with(" = ")
                })
        });
        match end {
            // After a string's closing quote (not an escaped one): `"CR-1716", ` + padding.
            Some(end) if before.ends_with("\", ") && closes(&before[..before.len() - 2]) => {
                out.push_str(&before[..before.len() - 2]);
                rest = &rest[end..];
            }
            // The whole value, or a field's (`id = `, `{`): the array holds no text.
            Some(end) if before.is_empty() || before.ends_with("= ") || before.ends_with('{') => {
                out.push_str(before);
                out.push_str("\"\"");
                rest = &rest[end..];
            }
            _ => {
                out.push_str(&rest[..at + PAD.len()]);
                rest = &rest[at + PAD.len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Does `text` end with a string's closing quote, one no backslash escapes?
fn closes(text: &str) -> bool {
    let Some(body) = text.strip_suffix('"') else {
        return false;
    };
    body.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0
}

/// What one call may spend walking down a stack for an adapter that unwinds from the top
/// ([`Adapter::stack_walk_step`](crate::adapters::Adapter::stack_walk_step)).
const WALK_BUDGET: std::time::Duration = std::time::Duration::from_secs(4);

/// How deep a thread's stack was listed in this stop, and its depth once a page reached its end.
#[derive(Default, Clone, Copy)]
pub struct StackWalk {
    pub reached: u32,
    pub total: Option<u32>,
}

/// Makes the adapter walk down to frame `offset` in steps of `step` frames (each one short
/// request), within [`WALK_BUDGET`]: one long request would hold the adapter for as long as the
/// walk takes (gdb: 10 s to frame 49,000, answering nothing else meanwhile), and a cancelled
/// one loses what it walked. What was walked is kept by the adapter for the stop, so the next
/// call goes on from there.
async fn walk_down(s: &Session, thread: i64, offset: u32, step: u32) -> BackendResult<()> {
    let started = std::time::Instant::now();
    loop {
        let w = s
            .stack_walks
            .lock()
            .unwrap()
            .get(&thread)
            .copied()
            .unwrap_or_default();
        if offset <= w.reached.saturating_add(step) || w.total.is_some() {
            return Ok(());
        }
        if started.elapsed() >= WALK_BUDGET {
            return Err(BackendError::Timeout(format!(
                "frame {offset} is deeper than {} could list in {} s: it has listed {} frames so far (kept until the program runs; call again to go on), and each frame deeper costs more{}",
                s.adapter.name(),
                WALK_BUDGET.as_secs(),
                w.reached,
                s.adapter.stack_walk_hint()
            )));
        }
        let probe = w.reached + step;
        let args = StackTraceArguments {
            thread_id: thread,
            start_frame: probe,
            levels: 1,
        };
        let found = !s
            .req::<protocol::StackTrace>(&args)
            .await?
            .stack_frames
            .is_empty();
        let mut walks = s.stack_walks.lock().unwrap();
        let w = walks.entry(thread).or_default();
        if found {
            w.reached = w.reached.max(probe + 1);
        } else {
            // The stack ends above `probe`: the page request itself is short now.
            return Ok(());
        }
    }
}

impl Inner {
    pub async fn frames(
        &self,
        s: &Session,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        s.require_paused()?;
        let t = parse_handle(thread_id, "thread")?;
        if let Some(step) = s.adapter.stack_walk_step() {
            walk_down(s, t, offset, step).await?;
        }
        // limit 0 means "all" (as DAP's levels 0 does).
        let args = StackTraceArguments {
            thread_id: t,
            start_frame: offset,
            levels: limit,
        };
        let body = s.req::<protocol::StackTrace>(&args).await?;
        if offset == 0
            && let Some(f) = body.stack_frames.first()
        {
            s.values.lock().unwrap().top_frames.insert(f.id);
        }
        let total = body.total_frames.map(|t| t as u32).or_else(|| {
            // A page that ends early ends the stack: its depth is known for this stop.
            let n = body.stack_frames.len() as u32;
            let end = (limit > 0 && n < limit && (n > 0 || offset == 0)).then_some(offset + n);
            let mut walks = s.stack_walks.lock().unwrap();
            let w = walks.entry(t).or_default();
            if end.is_some() {
                w.total = end;
            }
            w.reached = w.reached.max(offset + n);
            w.total
        });
        let take = if limit == 0 {
            usize::MAX
        } else {
            limit as usize
        };
        let frames: Vec<FrameInfo> = body
            .stack_frames
            .iter()
            .take(take)
            .enumerate()
            .map(|(i, f)| {
                let file = f.path().map(|p| s.local_path(p)).map(|p| {
                    std::fs::canonicalize(&p)
                        .map(|c| c.display().to_string())
                        .unwrap_or_else(|_| p.to_string())
                });
                if let Some(file) = &file {
                    let mut t = s.values.lock().unwrap();
                    t.frame_files.insert(f.id, file.into());
                }
                let name = f.name.clone();
                // "Class.method" (Python/Java style) is split; a C++ name stays whole
                // (`ns::Scanner::peek`, `ns::AstBase<ns::EmptyType>::get`): split, it would be
                // shown joined by '.', and a template argument's `::` is no class boundary.
                let (class_name, mut method_name) = match name.rsplit_once('.') {
                    Some((c, m))
                        if !c.is_empty()
                            && !m.is_empty()
                            && !name.starts_with('<')
                            && !name.contains("::") =>
                    {
                        (Some(c.to_string()), m.to_string())
                    }
                    _ => (None, name.clone()),
                };
                let line = f.line.filter(|l| *l > 0).map(|l| l as u32);
                if (file.is_none() || line.is_none())
                    && let Some(pc) = f.instruction_pointer_reference.as_deref()
                    && !method_name.contains(pc)
                {
                    // Without source the address is all there is: a smashed stack's
                    // 0x6161616161616161 is the clue.
                    method_name = if method_name.is_empty() {
                        pc.to_string()
                    } else {
                        format!("{method_name} at {pc}")
                    };
                }
                let src_hint = f
                    .source
                    .as_ref()
                    .and_then(|s| s.presentation_hint.as_deref());
                let is_library = self.is_library(file.as_deref())
                    || matches!(
                        f.presentation_hint.as_deref(),
                        Some("subtle") | Some("deemphasize")
                    )
                    || src_hint == Some("deemphasize");
                FrameInfo {
                    index: offset + i as u32,
                    handle: f.id.to_string(),
                    file,
                    line,
                    class_name,
                    method_name: Some(method_name),
                    is_library,
                }
            })
            .collect();
        Ok(FramePage {
            frames,
            total,
            hidden: None,
        })
    }

    pub async fn frame_variables(&self, s: &Session, frame: &str) -> BackendResult<Vec<ValueNode>> {
        s.require_paused()?;
        let frame_id = parse_handle(frame, "frame")?;
        let scopes = s
            .req::<protocol::Scopes>(&ScopesArguments { frame_id })
            .await?
            .scopes;
        let mut out = Vec::new();
        for scope in &scopes {
            let r = scope.variables_reference;
            if r == 0 {
                continue;
            }
            {
                let mut values = s.values.lock().unwrap();
                values.ref_frame.insert(r, frame_id);
                let hint = scope.presentation_hint.as_deref();
                if let Some(l) =
                    assign::Lineage::scope(s.adapter.c_expressions(), scope.name.as_deref(), hint)
                {
                    values.ref_lineage.insert(r, l);
                }
            }
            match scope_kind(scope) {
                Some(kind) => {
                    let start = out.len();
                    let vars = s
                        .req::<protocol::Variables>(&VariablesArguments::all(r))
                        .await?;
                    out.extend(
                        vars.variables
                            .into_iter()
                            .map(|v| s.node(v, Some(r), Some(frame_id), kind)),
                    );
                    s.adapter
                        .real_sizes(s, &mut out[start..], Some(frame_id))
                        .await;
                }
                None => {
                    // Globals, registers and the like: one expandable group node.
                    let name = scope.name.clone().unwrap_or_else(|| "scope".into());
                    let count = scope
                        .named_variables
                        .map(|n| n + scope.indexed_variables.unwrap_or(0));
                    let global = name.to_ascii_lowercase().contains("global");
                    out.push(ValueNode {
                        name,
                        value: String::new(),
                        type_name: None,
                        has_children: true,
                        children_handle: Some(r.to_string()),
                        set_handle: None,
                        evaluate_name: None,
                        child_count: count,
                        value_length: None,
                        scope: if global {
                            ValueScope::Global
                        } else {
                            ValueScope::Synthetic
                        },
                    });
                }
            }
        }
        s.adapter.mark_arguments(s, &mut out, frame_id).await;
        if s.stepped_out.load(std::sync::atomic::Ordering::SeqCst)
            && let Some(v) = s.adapter.returned_value(s, frame_id).await
        {
            out.insert(0, v);
        }
        Ok(out)
    }

    pub async fn children(
        &self,
        s: &Session,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        s.require_paused()?;
        let r = parse_handle(handle, "value handle")?;
        let frame_id = s.values.lock().unwrap().ref_frame.get(&r).copied();
        let paging = s.cap(|c| c.supports_variable_paging) && limit > 0;
        let limit = if limit == 0 { u32::MAX } else { limit };
        let args = if paging {
            VariablesArguments {
                variables_reference: r,
                start: Some(offset),
                count: Some(limit),
            }
        } else {
            VariablesArguments::all(r)
        };
        let all = s
            .req::<protocol::Variables>(&args)
            .await
            .map_err(|e| match e {
                BackendError::Failed(m) => BackendError::Failed(format!(
                    "{m} (value handle {handle}; handles are valid until the next resume)"
                )),
                e => e,
            })?;
        let (page, total) = if paging {
            let known = s.values.lock().unwrap().ref_count.get(&r).copied();
            (
                all.variables.into_iter().take(limit as usize).collect(),
                known,
            )
        } else {
            let (page, total) = s.adapter.page(s, all.variables, offset, limit).await?;
            (page, Some(total))
        };
        let mut children: Vec<ValueNode> = page
            .into_iter()
            .map(|v| s.node(v, Some(r), frame_id, ValueScope::Local))
            .collect();
        s.adapter.real_sizes(s, &mut children, frame_id).await;
        Ok(ChildPage { children, total })
    }

    pub async fn set_value(
        &self,
        s: &Session,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        s.require_paused()?;
        let idx: usize = handle
            .parse()
            .map_err(|_| BackendError::NotFound(format!("set handle '{handle}'")))?;
        let target = s
            .values
            .lock()
            .unwrap()
            .set_targets
            .get(idx)
            .cloned()
            .ok_or_else(|| {
                BackendError::NotFound(format!(
                    "set handle '{handle}' (handles are valid until the next resume)"
                ))
            })?;
        let result = match target.parent_ref {
            Some(parent) if s.cap(|c| c.supports_set_variable) => {
                let args = SetVariableArguments {
                    variables_reference: parent,
                    name: target.name.clone(),
                    value: new_value.to_string(),
                };
                s.req::<protocol::SetVariable>(&args).await
            }
            _ => Err(BackendError::Unsupported("setVariable".into())),
        };
        // Where the container cannot set it, the expression naming the value can.
        let body = match result {
            Ok(b) => b,
            Err(e) => match (&target.evaluate_name, s.cap(|c| c.supports_set_expression)) {
                (Some(expr), true) => {
                    let args = SetExpressionArguments {
                        expression: expr.clone(),
                        value: new_value.to_string(),
                        frame_id: target.frame_id,
                    };
                    s.req::<protocol::SetExpression>(&args).await?
                }
                _ => return Err(e),
            },
        };
        let v = body.into_variable(target.name.clone(), target.evaluate_name.clone());
        Ok(s.node(v, target.parent_ref, target.frame_id, ValueScope::Local))
    }

    pub async fn evaluate(
        &self,
        s: &std::sync::Arc<Session>,
        request: EvalRequest,
    ) -> BackendResult<ValueNode> {
        s.require_paused()?;
        let frame_id = parse_handle(&request.frame, "frame")?;
        // gdb: "repl" runs CLI commands, other contexts evaluate expressions; debugpy: "repl"
        // also accepts statements, "watch" only expressions. Side-effect freedom is not
        // something either adapter can enforce for expressions (a function call still runs).
        let context = match request.context {
            EvalContext::Expression => s.adapter.whole_value_context().unwrap_or("watch"),
            EvalContext::Watch => "watch",
            EvalContext::Repl | EvalContext::CodeFragment => {
                if !request.allow_side_effects {
                    return Err(BackendError::InvalidState(
                        "code fragments and REPL evaluation can change the program; they need allow_side_effects".into(),
                    ));
                }
                "repl"
            }
        };
        if let Some(f) = &request.format {
            let answer = |x: String| -> futures::future::BoxFuture<'_, _> {
                Box::pin(async move {
                    let command = s
                        .adapter
                        .format_command(f, &x)
                        .map_err(BackendError::Failed)?;
                    format_answer(&command, &s.repl(&command, Some(frame_id)).await?)
                })
            };
            let ((value, type_name), note) = match answer(request.expression.clone()).await {
                Err(BackendError::Failed(e)) if c_macros::applies(s, &e) => {
                    let (v, note) = c_macros::retry(
                        s,
                        frame_id,
                        &request.expression,
                        e,
                        request.allow_side_effects,
                        answer,
                        |v| v.0.clone(),
                    )
                    .await?;
                    (v, Some(note))
                }
                other => (other?, None),
            };
            return Ok(ValueNode {
                name: request.expression.clone(),
                value,
                type_name: match note {
                    Some(n) => c_macros::noted(type_name, &n),
                    None => type_name,
                },
                scope: ValueScope::Local,
                ..Default::default()
            });
        }
        let mut args = EvaluateArguments {
            expression: s
                .adapter
                .expression(&request.expression)
                .unwrap_or_else(|| request.expression.clone()),
            frame_id: Some(frame_id),
            context,
        };
        let mut note = None;
        let explain = |e: BackendError| match e {
            BackendError::Failed(m) => {
                BackendError::Failed(s.adapter.evaluate_error(&request.expression, m))
            }
            other => other,
        };
        let body = if request.context == EvalContext::Repl && s.adapter.repl_is_cli() {
            // An expression first (a string of it whole, see `string_limit`); the CLI only for
            // what does not parse as one (`set var …`), at the user's own string limit.
            args.context = "watch";
            let raised = match s.adapter.whole_strings() {
                Some(limit) => Some(crate::string_limit::Raised::raise(s.clone(), limit).await),
                None => None,
            };
            let first = as_written(s, &args, &request.expression).await;
            if let Some(raised) = raised {
                raised.set_back().await;
            }
            // A C macro (side effects allowed here): its expansion, else the CLI as before.
            let first = match first {
                Err(BackendError::Failed(e)) if c_macros::applies(s, &e) => {
                    let expression = &request.expression;
                    let again = evaluate_in(s, frame_id, "watch");
                    match c_macros::retry(s, frame_id, expression, e.clone(), true, again, shown)
                        .await
                    {
                        Ok((body, n)) => {
                            note = Some(n);
                            Ok(body)
                        }
                        Err(_) => Err(BackendError::Failed(e)),
                    }
                }
                other => other,
            };
            match first {
                Err(BackendError::Failed(e))
                    if s.adapter.is_not_an_expression(&request.expression, &e) =>
                {
                    // A CLI command as the agent wrote it (`break … if …`), a print's
                    // expression as an expression is read (`print s == "x"`).
                    args.context = "repl";
                    args.expression = s
                        .adapter
                        .cli_command(&request.expression)
                        .unwrap_or_else(|| request.expression.clone());
                    s.req::<protocol::Evaluate>(&args).await.map_err(explain)?
                }
                other => other.map_err(explain)?,
            }
        } else {
            match as_written(s, &args, &request.expression).await {
                Err(BackendError::Failed(e))
                    if let Some(receiver) = s.adapter.size_receiver(&request.expression, &e) =>
                {
                    return printer_size(s, &request.expression, receiver, frame_id, None)
                        .await
                        .ok_or(BackendError::Failed(e))
                        .map_err(explain);
                }
                Err(BackendError::Failed(e)) if c_macros::applies(s, &e) => {
                    let (body, n) = c_macros::retry(
                        s,
                        frame_id,
                        &request.expression,
                        e,
                        request.allow_side_effects,
                        evaluate_in(s, frame_id, context),
                        shown,
                    )
                    .await
                    .map_err(explain)?;
                    note = Some(n);
                    body
                }
                Ok(body) => {
                    if let Ok(called) = body.result.trim().parse::<u64>()
                        && let Some(receiver) = s
                            .adapter
                            .miscounted_size(s, &request.expression, frame_id)
                            .await
                        && let Some(node) =
                            printer_size(s, &request.expression, receiver, frame_id, Some(called))
                                .await
                    {
                        return Ok(node);
                    }
                    body
                }
                other => other.map_err(explain)?,
            }
        };
        let mut node = [s.node(
            body.into_variable(&request.expression),
            None,
            Some(frame_id),
            ValueScope::Local,
        )];
        s.adapter.real_sizes(s, &mut node, Some(frame_id)).await;
        let [mut node] = node;
        if request.context != EvalContext::Watch && node.value_length.is_some() {
            s.adapter
                .rest_of_string(s, &mut node, &request.expression, frame_id)
                .await;
        }
        if let Some(n) = note {
            node.type_name = c_macros::noted(node.type_name, &n);
        }
        Ok(node)
    }
}

/// The value a repl `print/FMT` answered, without the history name and, from lldb, with the
/// type it names: gdb `$1 = 0xff`, lldb `(int) $0 = 0x000000ff` or `(int) 0x000000ff`; an
/// examine's rows (`0x7ffe…:\t0x00000001\t…`) are kept as they are. lldb-dap (19) answers a
/// command with its prompt and the command echoed on the first line (`(lldb) p/x n`), and its
/// errors as `error: …` text.
fn format_answer(command: &str, said: &str) -> BackendResult<(String, Option<String>)> {
    let mut text = said.trim();
    if let Some((first, rest)) = text.split_once('\n')
        && first.trim().trim_start_matches("(lldb)").trim()
            == command.trim_start_matches('`').trim()
    {
        text = rest.trim();
    }
    if text.starts_with("error:") {
        return Err(BackendError::Failed(text.to_string()));
    }
    let (type_name, rest) = match text.strip_prefix('(').and_then(|r| r.split_once(") ")) {
        Some((t, rest)) if !t.contains('\n') => (Some(t.to_string()), rest),
        _ => (None, text),
    };
    let rest = match rest.strip_prefix('$').and_then(|r| r.split_once(" = ")) {
        Some((n, v)) if n.chars().all(|c| c.is_ascii_digit()) => v,
        _ => rest,
    };
    Ok((rest.to_string(), type_name))
}

/// `x.size()` answered by `x`'s pretty printer where the call cannot be made (`called` None):
/// the number of children it lists, else the count its summary says ("std::queue wrapping:
/// std::deque with 2 elements"); or where the call answered `called` and the summary says
/// another count (libstdc++'s deque xmethod). None: the printer does not tell, or agrees.
async fn printer_size(
    s: &Session,
    expression: &str,
    receiver: &str,
    frame_id: i64,
    called: Option<u64>,
) -> Option<ValueNode> {
    let args = EvaluateArguments {
        expression: receiver.to_string(),
        frame_id: Some(frame_id),
        context: "watch",
    };
    let body = s.req::<protocol::Evaluate>(&args).await.ok()?;
    let node = s.node(
        body.into_variable(receiver),
        None,
        Some(frame_id),
        ValueScope::Local,
    );
    let said = || {
        let (_, rest) = node.value.rsplit_once(" with ")?;
        rest.split_whitespace()
            .next()?
            .parse::<u64>()
            .ok()
            .filter(|_| rest.contains("element"))
    };
    let (n, why) = match called {
        None => (
            said().or(node.child_count)?,
            "size() is not in the program".to_string(),
        ),
        Some(called) => {
            let n = said().filter(|n| *n != called)?;
            (
                n,
                format!("size() said {called}, miscounted by the debugger"),
            )
        }
    };
    Some(ValueNode {
        name: expression.to_string(),
        value: n.to_string(),
        type_name: Some(format!("size (from {receiver}'s printer: {why})")),
        has_children: false,
        children_handle: None,
        set_handle: None,
        evaluate_name: None,
        child_count: None,
        value_length: None,
        scope: ValueScope::Local,
    })
}

/// A DAP `evaluate` of another text in frame `frame_id` and `context`: what a C macro's
/// expansion (`c_macros::retry`) is evaluated with.
fn evaluate_in<'a>(
    s: &'a Session,
    frame_id: i64,
    context: &'static str,
) -> impl FnMut(String) -> futures::future::BoxFuture<'a, BackendResult<protocol::EvaluateResponse>>
{
    move |expression: String| {
        Box::pin(async move {
            // A macro's expansion is read as the agent's text is (`c_strings` on gdb).
            let expression = s.adapter.expression(&expression).unwrap_or(expression);
            let args = EvaluateArguments {
                expression,
                frame_id: Some(frame_id),
                context,
            };
            s.req::<protocol::Evaluate>(&args).await
        })
    }
}

/// A DAP `evaluate` of `args`, whose expression is the adapter's rewrite of `written` (a text
/// comparison, `c_strings`) or `written` itself: where the rewrite fails (lldb: a
/// `std::string` has no bytes to index) the agent's own text is evaluated, so the rewrite never
/// answers worse than the expression as written, nor with an error quoting text it never wrote.
async fn as_written(
    s: &Session,
    args: &EvaluateArguments,
    written: &str,
) -> BackendResult<protocol::EvaluateResponse> {
    let first = s.req::<protocol::Evaluate>(args).await;
    match first {
        Err(BackendError::Failed(_)) if args.expression != written => {
            let again = EvaluateArguments {
                expression: written.to_string(),
                frame_id: args.frame_id,
                context: args.context,
            };
            s.req::<protocol::Evaluate>(&again).await
        }
        other => other,
    }
}

/// The text of an evaluation's answer, as a macro's expansion error or note quotes it.
fn shown(b: &protocol::EvaluateResponse) -> String {
    b.result.clone()
}

#[cfg(test)]
mod padding_tests {
    use super::without_nul_padding as w;

    #[test]
    fn a_char_arrays_nul_padding_is_dropped() {
        assert_eq!(w(r#""CR-1716", '\000' <repeats 24 times>"#), r#""CR-1716""#);
        assert_eq!(
            w(
                r#"{id = "CR-2291", '\000' <repeats 24 times>, owner = '\000' <repeats 63 times>, n = 3}"#
            ),
            r#"{id = "CR-2291", owner = "", n = 3}"#
        );
        assert_eq!(w(r#"'\000' <repeats 31 times>"#), r#""""#);
        // Left as gdb wrote them: text that only looks like padding (an escaped quote before
        // it), padding with text after it, repeats of another character.
        let text_after = r#""x", '\000' <repeats 12 times>, "y""#;
        assert_eq!(w(text_after), text_after);
        assert_eq!(
            w(r#""a \", '\000' <repeats 3 times>""#),
            r#""a \", '\000' <repeats 3 times>""#
        );
        assert_eq!(
            w(r#""ab", 'c' <repeats 12 times>"#),
            r#""ab", 'c' <repeats 12 times>"#
        );
        assert_eq!(w("42"), "42");
    }
}

#[cfg(test)]
mod format_tests {
    use super::format_answer;

    #[test]
    fn gdb_and_lldb_print_answers() {
        let ok = |c: &str, s: &str| format_answer(c, s).unwrap();
        assert_eq!(ok("print/x n", "$3 = 0xff\n"), ("0xff".into(), None));
        assert_eq!(
            ok("`p/x n", "(lldb) p/x n\n(int) 0x00000007\n"),
            ("0x00000007".into(), Some("int".into()))
        );
        assert_eq!(
            ok("`p/x n", "(unsigned int) $0 = 0x7"),
            ("0x7".into(), Some("unsigned int".into()))
        );
        let rows = "0x7ffe0010:\t10\t20";
        assert_eq!(ok("x/2dw &a", rows), (rows.into(), None));
        let err = format_answer(
            "`x/2dw a",
            "(lldb) x/2dw a\nerror: invalid start address expression.",
        );
        assert!(err.is_err());
    }
}
