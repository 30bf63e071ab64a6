//! resume / pause / step_* / run_to_line / wait_for_pause. Control tools subscribe to the
//! session's changes *before* sending the op (the stop may arrive before the op returns), then
//! wait for a pause newer than the one they started from.

use super::super::context::{Call, ended, ToolResult};
use super::super::snapshot;
use crate::backend::{ControlOp, SessionState};
use serde::Deserialize;
use serde_json::json;

const DEFAULT_WAIT_MS: u64 = 30_000;

#[derive(Deserialize)]
pub struct ControlArgs {
    project_path: Option<String>,
    session_id: Option<String>,
    wait: Option<bool>,
    timeout_ms: Option<u64>,
    thread_id: Option<String>,
    #[serde(default)]
    ignore_breakpoints: bool,
    #[serde(default)]
    force: bool,
    file_path: Option<String>,
    line: Option<u32>,
}

pub async fn control(c: &mut Call<'_>, tool: &str, a: ControlArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let sid = c.session(&root, a.session_id.as_deref()).await?;
    let (state, thread) = c.engine.with_state(|s| {
        let x = s.sessions.get(&sid);
        (x.map(|x| x.state()), x.and_then(|x| x.current_thread.clone()))
    });
    if state == Some(SessionState::Stopped) {
        let err = c.engine.with_state(|s| s.sessions.get(&sid).map(|x| ended(&sid, x)));
        return Err(err.unwrap_or_else(|| format!("session {sid} has ended").into()));
    }
    let op = match tool {
        "pause" => {
            if state == Some(SessionState::Paused) {
                let mut r = snapshot::stop_result(c, &sid, None).await;
                r["message"] = json!("already paused");
                return Ok(r);
            }
            ControlOp::Pause
        }
        _ => {
            // Stepping a running program makes no sense; say what to do instead.
            c.paused(&sid)?;
            match tool {
                "resume" => ControlOp::Resume,
                "step_over" => ControlOp::StepOver { ignore_breakpoints: a.ignore_breakpoints },
                "step_into" => ControlOp::StepInto { force: a.force },
                "step_out" => ControlOp::StepOut,
                _ => {
                    let (Some(path), Some(line)) = (a.file_path.as_deref(), a.line) else {
                        return Err("run_to_line needs file_path and line".into());
                    };
                    let file = c.file_in_project(&root, path)?;
                    ControlOp::RunTo { file, line, ignore_breakpoints: a.ignore_breakpoints }
                }
            }
        }
    };
    let thread = a.thread_id.or(thread);
    let mut sub = c.subscribe(&sid)?;
    let backend = c.engine.backend.clone();
    let resumes = !matches!(op, ControlOp::Pause);
    // The stop this op leads to is the agent's (the watchdog may act on it).
    c.engine.watchdog.arm(&sid);
    c.bk("control", backend.control(&sid, thread.as_deref(), op)).await?;
    if resumes {
        // The program left the pause it was in, even if the backend's `Resumed` event is still
        // queued: mark it running now (unless a newer pause already arrived), so a following
        // wait_for_pause does not return the old stop.
        let seq = sub.seq;
        c.engine.with_state(|s| {
            if let Some(x) = s.sessions.get_mut(&sid).filter(|x| x.pause_seq == seq && x.state() == SessionState::Paused) {
                x.invalidate();
                x.pause = None;
                x.info.state = SessionState::Running;
                x.notify();
            }
        });
    }
    if !a.wait.unwrap_or(true) {
        return Ok(json!({
            "session_id": sid,
            "state": c.engine.with_state(|s| s.sessions.get(&sid).map(|x| super::super::state::state_name(x.state()))).unwrap_or("running"),
            "message": format!("{tool} sent; call wait_for_pause to wait for the next stop"),
        }));
    }
    let timeout = a.timeout_ms.unwrap_or(DEFAULT_WAIT_MS);
    let stopped = c.wait_for_stop(&sid, &mut sub, timeout).await;
    Ok(snapshot::stop_result(c, &sid, (!stopped).then_some(timeout)).await)
}

#[derive(Deserialize)]
pub struct WaitArgs {
    project_path: Option<String>,
    session_id: Option<String>,
    timeout_ms: Option<u64>,
    breakpoint_ids: Option<Vec<String>>,
}

pub async fn wait_for_pause(c: &mut Call<'_>, a: WaitArgs) -> ToolResult {
    let root = c.project(a.project_path.as_deref()).await?;
    let sid = c.session(&root, a.session_id.as_deref()).await?;
    let timeout = a.timeout_ms.unwrap_or(DEFAULT_WAIT_MS);
    let mut sub = c.subscribe(&sid)?;
    let already = matches!(
        c.engine.with_state(|s| s.sessions.get(&sid).map(|x| x.state())),
        Some(SessionState::Paused | SessionState::Stopped)
    );
    let stopped = if already { true } else { c.wait_for_stop(&sid, &mut sub, timeout).await };
    let mut r = snapshot::stop_result(c, &sid, (!stopped).then_some(timeout)).await;
    if already && r["state"] == "paused" {
        r["already_paused"] = json!(true);
    }
    if let Some(wanted) = a.breakpoint_ids.filter(|w| !w.is_empty()) {
        if r["state"] == "paused" {
            let hit: Vec<String> = r["breakpoint_ids"].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect();
            let matched = hit.iter().any(|h| wanted.contains(h));
            r["matched"] = json!(matched);
            if !matched {
                r["message"] = json!(format!(
                    "paused, but not at one of the awaited breakpoints ({}); resume to continue towards them",
                    wanted.join(", ")
                ));
            }
        }
    }
    Ok(r)
}
