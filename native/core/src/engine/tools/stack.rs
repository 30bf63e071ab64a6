//! Stack traces, frame selection (the default frame for variables/evaluation) and threads.

use super::super::context::{Call, ToolError, ToolResult};
use super::super::snapshot::location;
use super::{Kind, SessionArg, out};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn twenty() -> u32 {
    20
}

/// # Stack trace
/// Call stack of a thread: file, line, method per frame.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct GetStackTrace {
    #[serde(flatten)]
    s: SessionArg,
    thread_id: Option<String>,
    thread_name: Option<String>,
    #[serde(default = "twenty")]
    #[schemars(range(min = 1, max = 500))]
    max_frames: u32,
    #[serde(default)]
    offset: u32,
}
tool!(GetStackTrace, "get_stack_trace", Kind::Read,
    out::obj(json!({"thread_id": {"type": "string"}, "frames": {"type": "array"}, "total": {"type": ["integer", "null"]}}), &["thread_id", "frames"]),
    get_stack_trace);

async fn get_stack_trace(c: &mut Call<'_>, a: GetStackTrace) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (current, _) = c.paused(&sid)?;
    let backend = c.engine.backend.clone();
    let (thread, name) = match (a.thread_id, a.thread_name) {
        (Some(t), _) => (t, None),
        (None, Some(n)) => {
            let threads = c.bk("threads", backend.threads(&sid)).await?;
            let t = threads.iter().find(|t| t.name == n).ok_or_else(|| {
                let names: Vec<&str> = threads.iter().map(|t| t.name.as_str()).collect();
                ToolError(format!("no thread named '{n}'; threads: {}", names.join(", ")))
            })?;
            (t.id.clone(), Some(n))
        }
        (None, None) => (current.clone(), None),
    };
    let selected = c.engine.with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0));
    let offset = a.offset;
    let page = c.bk("frames", backend.frames(&sid, &thread, offset, a.max_frames)).await?;
    let frames: Vec<Value> = page
        .frames
        .iter()
        .map(|f| {
            let mut l = location(f);
            l["index"] = json!(f.index);
            l["is_current"] = json!(thread == current && f.index == selected);
            l["is_library"] = json!(f.is_library);
            l
        })
        .collect();
    let mut out = json!({"session_id": sid, "thread_id": thread, "frames": frames, "total": page.total});
    if let Some(n) = name {
        out["thread"] = json!(n);
    }
    if let Some(total) = page.total {
        let shown = offset + page.frames.len() as u32;
        if shown < total {
            out["truncated"] = json!(true);
            out["next_offset"] = json!(shown);
        }
    }
    Ok(out)
}

/// # Select a stack frame
/// Make a frame the default for variables and evaluation.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SelectStackFrame {
    #[serde(flatten)]
    s: SessionArg,
    frame_index: u32,
    thread_id: Option<String>,
}
tool!(SelectStackFrame, "select_stack_frame", Kind::Write { idempotent: true },
    out::obj(json!({"frame_index": {"type": "integer"}, "location": out::location()}), &["frame_index"]),
    select_stack_frame);

async fn select_stack_frame(c: &mut Call<'_>, a: SelectStackFrame) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (current, seq) = c.paused(&sid)?;
    let thread = a.thread_id.unwrap_or(current);
    let frame = c.frame(&sid, &thread, a.frame_index).await?;
    let backend = c.engine.backend.clone();
    c.bk("select_frame", backend.select_frame(&sid, &thread, &frame.handle)).await?;
    c.engine.with_state(|s| {
        if let Some(x) = s.sessions.get_mut(&sid).filter(|x| x.pause_seq == seq) {
            x.selected_frame = a.frame_index;
            x.current_thread = Some(thread.clone());
        }
    });
    Ok(json!({"session_id": sid, "thread_id": thread, "frame_index": a.frame_index, "location": location(&frame),
              "message": "get_variables and evaluate_expression now use this frame by default"}))
}

/// # List threads
/// Threads: id, name, state, current.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListThreads {
    #[serde(flatten)]
    s: SessionArg,
}
tool!(ListThreads, "list_threads", Kind::Read,
    out::obj(json!({"threads": {"type": "array"}, "current_thread": {"type": ["string", "null"]}}), &["threads"]),
    list_threads);

async fn list_threads(c: &mut Call<'_>, a: ListThreads) -> ToolResult {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let backend = c.engine.backend.clone();
    let threads = c.bk("threads", backend.threads(&sid)).await?;
    let current = c.engine.with_state(|s| s.sessions.get(&sid).and_then(|x| x.current_thread.clone()));
    let items: Vec<Value> = threads
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "state": t.state, "group": t.group, "is_current": Some(&t.id) == current.as_ref()}))
        .collect();
    Ok(json!({"session_id": sid, "threads": items, "current_thread": current}))
}
