//! Evaluation. Side-effect free by default (debugger "watch"/hover semantics); side effects and
//! code fragments go through the confirmation guard.

use super::super::context::{Call, ToolError};
use super::super::ledger::{ReadKind, ValueRead};
use super::super::preview::Room;
use super::super::{expression_guard, values};
use super::out::ValueNode;
use super::{Kind, Outcome, SessionArg};
use crate::backend::{EvalContext, EvalRequest, PrintFormat, WHOLE_STRING_CHARS};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// Where and how to evaluate (shared by both evaluation tools).
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct EvalWhere {
    #[serde(flatten)]
    s: SessionArg,
    /// 0 = top. Default: the selected frame.
    frame_index: Option<u32>,
    thread_id: Option<String>,
}

/// # Evaluate expressions
/// Read-only unless allow_side_effects.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct EvaluateExpression {
    #[serde(flatten)]
    w: EvalWhere,
    #[schemars(length(min = 1))]
    expression: Option<String>,
    #[schemars(length(min = 1))]
    expressions: Option<Vec<String>>,
    #[serde(default)]
    allow_side_effects: bool,
}
tool!(
    EvaluateExpression,
    "evaluate_expression",
    Kind::Write { idempotent: false },
    Evaluated,
    evaluate_expression
);

/// `text` without the gdb print format an agent put before it (`/x mask`, `p/x mask`,
/// `x/4xw buf` → `mask`, `buf`) and that format, which the backend applies (gdb) or refuses
/// saying what to write instead (debugpy, delve, PHP).
pub(crate) fn split_format(text: &str) -> Result<(String, Option<PrintFormat>), ToolError> {
    match PrintFormat::split(text) {
        None => Ok((text.to_string(), None)),
        Some(Ok((f, e))) => Ok((e, Some(f))),
        Some(Err(e)) => Err(ToolError(e)),
    }
}

/// Expressions one evaluate_expression call answers at most.
const MAX_EXPRESSIONS: usize = 50;

async fn evaluate_expression(c: &mut Call<'_>, a: EvaluateExpression) -> Outcome<Evaluated> {
    match (a.expression, a.expressions) {
        (Some(e), None) => evaluate(c, a.w, e, a.allow_side_effects, false).await,
        (None, Some(list)) => evaluate_all(c, a.w, list, a.allow_side_effects).await,
        (Some(_), Some(_)) => Err("give expression or expressions, not both".into()),
        (None, None) => Err(
            "give expression (e.g. 'user.name') or expressions (e.g. ['a', 'b[0]', 'len(c)'])"
                .into(),
        ),
    }
}

/// allow_side_effects: the user is asked once for `list` (a batch, a start's `evaluate`, a
/// capture's expressions) unless brave mode is on.
pub(super) async fn confirm_side_effects(
    c: &Call<'_>,
    root: &str,
    list: &[String],
) -> Result<(), ToolError> {
    c.confirm(
        root,
        "evaluate expressions with side effects",
        &list.join("\n"),
    )
    .await
}

/// The values of `list` at the session's stop, as evaluate_expression's `expressions` answer
/// them (the first answer of a start, a step's `evaluate`): read-only unless `side_effects`.
pub(super) async fn values(
    c: &mut Call<'_>,
    root: &str,
    sid: &str,
    list: Vec<String>,
    side_effects: bool,
) -> Result<Vec<ValueNode>, ToolError> {
    let w = EvalWhere {
        s: SessionArg {
            project_path: Some(root.to_string()),
            session_id: Some(sid.to_string()),
        },
        frame_index: None,
        thread_id: None,
    };
    Ok(evaluate_all(c, w, list, side_effects)
        .await?
        .results
        .unwrap_or_default())
}

/// # Run a code fragment
/// Statements; needs allow_side_effects.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct EvaluateCodeFragment {
    #[serde(flatten)]
    w: EvalWhere,
    #[schemars(length(min = 1))]
    code: String,
    // Must be true (the tool's description says so).
    #[serde(default)]
    allow_side_effects: bool,
}
tool!(
    EvaluateCodeFragment,
    "evaluate_code_fragment",
    Kind::Destructive { idempotent: false },
    Evaluated,
    |c, a: EvaluateCodeFragment| evaluate(c, a.w, a.code, a.allow_side_effects, true)
);

/// What an evaluation returns (`expression` for evaluate_expression only); several
/// expressions answer `results`, one row each (`name` is the expression; `error` when it failed).
#[derive(Serialize, JsonSchema)]
pub struct Evaluated {
    session_id: String,
    frame_index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    expression: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ValueNode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    results: Option<Vec<ValueNode>>,
}

/// Several expressions in one frame, one row each: the agent's `p a` `p b` `p c` in one call.
/// A failing expression is a row with its error; the others still answer.
async fn evaluate_all(
    c: &mut Call<'_>,
    a: EvalWhere,
    list: Vec<String>,
    side_effects: bool,
) -> Outcome<Evaluated> {
    if list.len() > MAX_EXPRESSIONS {
        return Err(ToolError(format!(
            "expressions: {} given, at most {MAX_EXPRESSIONS} per call",
            list.len()
        )));
    }
    if let Some(i) = list.iter().position(|e| e.trim().is_empty()) {
        return Err(ToolError(format!("expressions[{i}] is empty")));
    }
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (thread, _) = c.paused(&sid)?;
    let thread = a.thread_id.clone().unwrap_or(thread);
    let frame_index = a.frame_index.unwrap_or_else(|| {
        c.engine
            .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0))
    });
    let frame = c.frame(&sid, &thread, frame_index).await?;
    // An expression the guard refuses is a row saying why; the others still answer.
    let mut refused = vec![None; list.len()];
    let mut split = Vec::with_capacity(list.len());
    for (e, why) in list.iter().zip(refused.iter_mut()) {
        match split_format(e) {
            Ok(s) => split.push(s),
            Err(bad) => {
                *why = Some(bad);
                split.push((e.clone(), None));
            }
        }
    }
    if !side_effects {
        for ((e, _), why) in split.iter().zip(refused.iter_mut()) {
            let file = frame.file.as_deref();
            if why.is_none() {
                *why = expression_guard::check(e, &c.cfg.expression_safety, file).err();
            }
        }
    } else {
        confirm_side_effects(c, &root, &list).await?;
    }
    let context = if side_effects {
        EvalContext::Repl
    } else {
        EvalContext::Expression
    };
    // The rows share one value's bound: each is shown up to its share (at least a row's).
    let max = (WHOLE_STRING_CHARS / list.len()).max(c.cfg.max_value_length);
    let mut rows = Vec::with_capacity(list.len());
    let mut nodes = Vec::new();
    // The searches among the expressions share one time bound.
    let batch = super::super::scan::Deadline::batch();
    for ((text, why), (expression, format)) in list.iter().zip(refused).zip(split) {
        // A module imported by name must be loaded already: the debugger is asked first.
        let why = match why {
            None if !side_effects => {
                expression_guard::require_loaded(c, &sid, &thread, &frame.handle, &expression)
                    .await
                    .err()
            }
            why => why,
        };
        if let Some(why) = why {
            rows.push(ValueNode {
                name: text.clone(),
                error: Some(why.0),
                ..Default::default()
            });
            continue;
        }
        let request = EvalRequest {
            thread_id: thread.clone(),
            frame: frame.handle.clone(),
            expression,
            context,
            allow_side_effects: side_effects,
            format,
        };
        match super::super::scan::evaluate(c, &sid, request, frame.file.as_deref(), batch).await {
            Ok(mut node) => {
                node.name = text.clone();
                let shown = c.engine.with_state(|s| {
                    let slot = s
                        .sessions
                        .get_mut(&sid)
                        .ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))?;
                    Ok::<_, ToolError>(
                        values::show_max(&c.cfg, &mut slot.values, &node, text.clone(), max).0,
                    )
                })?;
                nodes.push((rows.len(), node));
                rows.push(shown);
            }
            Err(e) => rows.push(ValueNode {
                name: text.clone(),
                error: Some(e.0),
                ..Default::default()
            }),
        }
    }
    let refs: Vec<&crate::backend::ValueNode> = nodes.iter().map(|(_, n)| n).collect();
    for ((i, _), p) in nodes
        .iter()
        .zip(super::super::preview::previews_in(c, &sid, &refs, Room::asked(c, max)).await)
    {
        if let Some(p) = p {
            super::super::preview::put(&mut rows[*i], p);
        }
    }
    let kind = if side_effects {
        ReadKind::Modified
    } else {
        ReadKind::Evaluation
    };
    let reads = rows
        .iter()
        .filter(|r| r.error.is_none())
        .map(|r| ValueRead::from_shown(kind, r.name.clone(), r))
        .collect();
    c.remember(&sid, &thread, frame_index, reads);
    Ok(Evaluated {
        session_id: sid,
        frame_index,
        expression: None,
        result: None,
        results: Some(rows),
    })
}

async fn evaluate(
    c: &mut Call<'_>,
    a: EvalWhere,
    text: String,
    side_effects: bool,
    fragment: bool,
) -> Outcome<Evaluated> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (thread, _) = c.paused(&sid)?;
    let thread = a.thread_id.clone().unwrap_or(thread);
    if fragment && !side_effects {
        return Err(ToolError(
            "evaluate_code_fragment runs statements that can change the program; pass allow_side_effects: true (the user is asked to confirm unless brave mode is on). For a read-only value use evaluate_expression".into(),
        ));
    }
    let frame_index = a.frame_index.unwrap_or_else(|| {
        c.engine
            .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0))
    });
    let frame = c.frame(&sid, &thread, frame_index).await?;
    // Adapters cannot keep an expression side-effect free (debugpy runs `items.append(1)`, gdb
    // assigns), so the core refuses visible state changes before the backend sees them.
    let (expression, format) = if fragment {
        (text.clone(), None)
    } else {
        split_format(&text)?
    };
    if !fragment && !side_effects {
        expression_guard::check(&expression, &c.cfg.expression_safety, frame.file.as_deref())?;
        expression_guard::require_loaded(c, &sid, &thread, &frame.handle, &expression).await?;
    }
    let context = match (fragment, side_effects) {
        (true, _) => EvalContext::CodeFragment,
        (false, true) => EvalContext::Repl,
        (false, false) => EvalContext::Expression,
    };
    if side_effects {
        let what = if fragment {
            "run a code fragment in the debugged program"
        } else {
            "evaluate an expression with side effects"
        };
        c.confirm(&root, what, &text).await?;
    }
    let backend = c.engine.backend.clone();
    let request_thread = thread.clone();
    let request = EvalRequest {
        thread_id: thread,
        frame: frame.handle.clone(),
        expression,
        context,
        allow_side_effects: side_effects,
        format,
    };
    let mut node = if fragment {
        c.bk("evaluate", backend.evaluate(&sid, request)).await?
    } else {
        super::super::scan::evaluate(
            c,
            &sid,
            request,
            frame.file.as_deref(),
            super::super::scan::Deadline::search(),
        )
        .await?
    };
    node.name = text.clone();
    // An expression that names a secret (e.g. `config.api_key`) is redacted like the variable.
    let mut shown = c.engine.with_state(|s| {
        let slot = s
            .sessions
            .get_mut(&sid)
            .ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))?;
        // A string is shown whole up to WHOLE_STRING_CHARS: this is how an agent reads one.
        Ok::<_, ToolError>(
            values::show_max(
                &c.cfg,
                &mut slot.values,
                &node,
                text.clone(),
                WHOLE_STRING_CHARS.max(c.cfg.max_value_length),
            )
            .0,
        )
    })?;
    {
        let room = Room::asked(c, WHOLE_STRING_CHARS);
        if let Some(p) = super::super::preview::previews_in(c, &sid, &[&node], room)
            .await
            .pop()
            .flatten()
        {
            super::super::preview::put(&mut shown, p);
        }
    }
    let kind = if side_effects {
        ReadKind::Modified
    } else {
        ReadKind::Evaluation
    };
    c.remember(
        &sid,
        &request_thread,
        frame_index,
        ValueRead::with_fields(kind, &text, &shown),
    );
    Ok(Evaluated {
        session_id: sid,
        frame_index,
        expression: (!fragment).then_some(text),
        result: Some(shown),
        results: None,
    })
}
