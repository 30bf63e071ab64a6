//! Stack traces, frame selection (the default frame for variables/evaluation) and threads.

use super::super::context::{Call, ToolError};
use super::super::snapshot::location;
use super::out::{Frame, Location, collapse, hidden_above, hidden_reason, is_false};
use super::{Kind, Outcome, SessionArg};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn twenty() -> u32 {
    20
}

/// # Stack trace
/// File, line, function per frame.
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
tool!(
    GetStackTrace,
    "get_stack_trace",
    Kind::Read,
    StackTrace,
    get_stack_trace
);

#[derive(Serialize, JsonSchema)]
pub struct StackTrace {
    session_id: String,
    thread_id: String,
    /// The thread's name, when asked for by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    thread: Option<String>,
    frames: Vec<Frame>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u32>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_offset: Option<u32>,
    /// Where the listing was cut, and of how many frames when the debugger knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// Why some indexes have no frame (a frame's `hidden_above` says which).
    #[serde(skip_serializing_if = "Option::is_none")]
    hidden: Option<String>,
}

async fn get_stack_trace(c: &mut Call<'_>, a: GetStackTrace) -> Outcome<StackTrace> {
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
                ToolError(format!(
                    "no thread named '{n}'; threads: {}",
                    names.join(", ")
                ))
            })?;
            (t.id.clone(), Some(n))
        }
        (None, None) => (current.clone(), None),
    };
    let selected = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.selected_frame).unwrap_or(0));
    let offset = a.offset;
    let page = c
        .bk(
            "frames",
            // One frame more than shown: whether the stack goes on is known even where the
            // debugger does not count its frames (gdb; a 90,000-frame overflow).
            backend.frames(&sid, &thread, offset, a.max_frames + 1),
        )
        .await?;
    let more = page.frames.len() as u32 > a.max_frames;
    let frames: Vec<Frame> = page
        .frames
        .iter()
        .take(a.max_frames as usize)
        .map(|f| Frame {
            at: location(f),
            index: f.index,
            is_current: thread == current && f.index == selected,
            is_library: f.is_library,
            repeated: None,
            hidden_above: hidden_above(&page, f.index),
        })
        .collect();
    // Offsets count depths: where frames were hidden, the next page starts after the last
    // shown index, not after as many frames as were shown.
    let shown = frames
        .last()
        .map_or(offset, |f| f.index + 1)
        .max(offset + frames.len() as u32);
    let frames_hidden = frames
        .iter()
        .any(|f| f.hidden_above.is_some())
        .then(|| hidden_reason(&page))
        .flatten();
    let frames = collapse(frames);
    let next_offset = (more || page.total.is_some_and(|t| shown < t)).then_some(shown);
    let message = next_offset.map(|n| match page.total {
        Some(t) => format!("cut at frame {n} of {t}; next page: offset {n}"),
        None => format!("cut at frame {n}, more below; next page: offset {n}"),
    });
    Ok(StackTrace {
        session_id: sid,
        thread_id: thread,
        thread: name,
        frames,
        total: page.total,
        truncated: next_offset.is_some(),
        next_offset,
        message,
        hidden: frames_hidden,
    })
}

/// # Select a stack frame
/// The default for later calls.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SelectStackFrame {
    #[serde(flatten)]
    s: SessionArg,
    frame_index: u32,
    thread_id: Option<String>,
}
tool!(
    SelectStackFrame,
    "select_stack_frame",
    Kind::Write { idempotent: true },
    FrameSelected,
    select_stack_frame
);

#[derive(Serialize, JsonSchema)]
pub struct FrameSelected {
    session_id: String,
    thread_id: String,
    frame_index: u32,
    location: Location,
    message: String,
}

async fn select_stack_frame(c: &mut Call<'_>, a: SelectStackFrame) -> Outcome<FrameSelected> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let (current, seq) = c.paused(&sid)?;
    let thread = a.thread_id.unwrap_or(current);
    let frame = c.frame(&sid, &thread, a.frame_index).await?;
    let backend = c.engine.backend.clone();
    c.bk(
        "select_frame",
        backend.select_frame(&sid, &thread, &frame.handle),
    )
    .await?;
    c.engine.with_state(|s| {
        if let Some(x) = s.sessions.get_mut(&sid).filter(|x| x.pause_seq == seq) {
            x.selected_frame = a.frame_index;
            x.current_thread = Some(thread.clone());
        }
    });
    Ok(FrameSelected {
        session_id: sid,
        thread_id: thread,
        frame_index: a.frame_index,
        location: location(&frame),
        message: "get_variables and evaluate_expression now use this frame by default".into(),
    })
}

/// # List threads
/// Id, name, state of each.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListThreads {
    #[serde(flatten)]
    s: SessionArg,
}
tool!(
    ListThreads,
    "list_threads",
    Kind::Read,
    Threads,
    list_threads
);

#[derive(Serialize, JsonSchema)]
pub struct Threads {
    session_id: String,
    threads: Vec<Thread>,
    #[serde(skip_serializing_if = "Option::is_none")]
    current_thread: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub struct Thread {
    id: String,
    name: String,
    state: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<String>,
    is_current: bool,
}

async fn list_threads(c: &mut Call<'_>, a: ListThreads) -> Outcome<Threads> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = c.session(&root, a.s.session_id.as_deref()).await?;
    let backend = c.engine.backend.clone();
    let threads = c.bk("threads", backend.threads(&sid)).await?;
    let current = c
        .engine
        .with_state(|s| s.sessions.get(&sid).and_then(|x| x.current_thread.clone()));
    // The stopped thread first: a threaded server's request thread would otherwise sit among
    // (or, for delve's goroutines, far behind) the workers the adapter lists in id order.
    let mut items: Vec<Thread> = threads
        .iter()
        .map(|t| Thread {
            id: t.id.clone(),
            name: t.name.clone(),
            state: t.state.clone(),
            group: t.group.clone(),
            is_current: Some(&t.id) == current.as_ref(),
        })
        .collect();
    items.sort_by_key(|t| !t.is_current);
    Ok(Threads {
        session_id: sid,
        threads: items,
        current_thread: current,
    })
}
