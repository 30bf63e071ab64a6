//! Stack traces, frame selection (the default frame for variables/evaluation) and threads.

use super::super::context::{Call, ToolError, ToolResult};
use super::super::snapshot::location;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
pub struct StackArgs {
    project_path: Option<String>,
    session_id: Option<String>,
    thread_id: Option<String>,
    thread_name: Option<String>,
    max_frames: Option<u32>,
    offset: Option<u32>,
}

pub async fn get_stack_trace(c: &mut Call<'_>, a: StackArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let sid = c.session(&root, a.session_id.as_deref()).await?;
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
    let offset = a.offset.unwrap_or(0);
    let page = c.bk("frames", backend.frames(&sid, &thread, offset, a.max_frames.unwrap_or(20))).await?;
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

#[derive(Deserialize)]
pub struct SelectArgs {
    project_path: Option<String>,
    session_id: Option<String>,
    frame_index: u32,
    thread_id: Option<String>,
}

pub async fn select_stack_frame(c: &mut Call<'_>, a: SelectArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let sid = c.session(&root, a.session_id.as_deref()).await?;
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

pub async fn list_threads(c: &mut Call<'_>, a: super::sessions::SessionArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let sid = c.session(&root, a.session_id.as_deref()).await?;
    let backend = c.engine.backend.clone();
    let threads = c.bk("threads", backend.threads(&sid)).await?;
    let current = c.engine.with_state(|s| s.sessions.get(&sid).and_then(|x| x.current_thread.clone()));
    let items: Vec<Value> = threads
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "state": t.state, "group": t.group, "is_current": Some(&t.id) == current.as_ref()}))
        .collect();
    Ok(json!({"session_id": sid, "threads": items, "current_thread": current}))
}
