//! The `capture` tool: one call from question to answer (see `engine::capture`).

use super::super::capture::{self, End, Hit, Point, Spec};
use super::super::context::{Call, ToolError};
use super::super::expression_guard;
use super::super::snapshot;
use super::out::{State, StopResult};
use super::{Kind, Outcome};
use crate::backend::{ControlOp, LaunchMode, LaunchRequest, SessionState};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct CapturePoint {
    #[schemars(length(min = 1))]
    file_path: String,
    #[schemars(range(min = 1))]
    line: u32,
    condition: Option<String>,
    hit_condition: Option<String>,
}

/// Points one capture takes at most.
const MAX_POINTS: usize = 10;

fn ten() -> u32 {
    10
}

/// # Capture values at points
/// Runs command (or resumes), records expressions, locals, stack at max_hits hits of points without stopping, then ends it (or keep_paused).
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Capture {
    project_path: Option<String>,
    #[schemars(length(min = 1))]
    command: Option<String>,
    #[schemars(length(min = 1))]
    run_configuration: Option<String>,
    cwd: Option<String>,
    #[schemars(length(min = 1))]
    points: Vec<CapturePoint>,
    #[serde(default)]
    expressions: Vec<String>,
    #[serde(default = "ten")]
    #[schemars(range(min = 1, max = 100))]
    max_hits: u32,
    #[serde(default)]
    keep_paused: bool,
}
tool!(
    Capture,
    "capture",
    Kind::Destructive { idempotent: false },
    Captured,
    run
);

/// capture's result: one row per hit, then how it ended.
#[derive(Serialize, JsonSchema)]
pub struct Captured {
    session_id: String,
    hits: Vec<Hit>,
    /// Why recording stopped: hits (max_hits reached), bytes (rows cut at the size limit), exited, elsewhere (paused at another breakpoint or an exception), timeout.
    end: String,
    state: State,
    message: String,
    /// Where the program is (paused elsewhere, kept paused) or how it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    stop: Option<StopResult>,
}

async fn run(c: &mut Call<'_>, a: Capture) -> Outcome<Captured> {
    let root = c.project(a.project_path.as_deref()).await?;
    for e in &a.expressions {
        if e.trim().is_empty() {
            return Err("expressions: an expression is empty".into());
        }
        // The points' language decides whether `f(key=1)` names an argument or assigns.
        let file = a.points.first().map(|p| p.file_path.as_str());
        expression_guard::check(e, &c.cfg.expression_safety, file)
            .map_err(|err| ToolError(format!("{e}: {}", err.0)))?;
    }
    if a.points.len() > MAX_POINTS {
        return Err(ToolError(format!(
            "points: {} given, at most {MAX_POINTS}",
            a.points.len()
        )));
    }
    let mut points = Vec::new();
    for p in &a.points {
        points.push(Point::Line {
            file: c.file_in_project(&root, &p.file_path)?,
            line: p.line,
            condition: p.condition.clone(),
            hit_condition: p.hit_condition.clone(),
        });
    }
    let launch = match (&a.command, &a.run_configuration) {
        (Some(_), Some(_)) => return Err("give command or run_configuration, not both".into()),
        (None, None) => None,
        (cmd, rc) => Some((cmd.clone(), rc.clone())),
    };
    if a.cwd.is_some() && launch.is_none() {
        return Err("cwd is where a started program runs: give command with it".into());
    }
    let cwd = a
        .cwd
        .as_deref()
        .map(|d| c.file_in_project(&root, d))
        .transpose()?;
    // A session to resume must be paused; checked before anything changes.
    let resumed = match &launch {
        None => {
            let sid = c.session(&root, None).await.map_err(|e| {
                ToolError(format!(
                    "{}; or give `command` (e.g. 'python3 app.py') to start the program",
                    e.0
                ))
            })?;
            let (thread, _) = c.paused(&sid)?;
            Some((sid, thread))
        }
        Some(_) => None,
    };
    if let Some((cmd, rc)) = &launch {
        let what = cmd
            .as_ref()
            .map(|c| format!("command `{c}`"))
            .or(rc.as_ref().map(|r| format!("run configuration '{r}'")))
            .unwrap_or_default();
        c.confirm(&root, "start a debug session", &format!("{what} in {root}"))
            .await?;
    }
    let ids = capture::arm(c, &root, &points).await?;
    let spec = Spec {
        expressions: a.expressions.clone(),
        locals: true,
        stack: true,
        max_hits: a.max_hits,
        deadline: capture::deadline(super::MAX_WAIT_MS),
    };
    let started = async {
        match (&launch, &resumed) {
            (Some((cmd, rc)), _) => {
                let request = LaunchRequest {
                    configuration: rc.clone(),
                    command: cmd.clone(),
                    mode: LaunchMode::Debug,
                    cwd: cwd.clone(),
                    ..Default::default()
                };
                let info = super::sessions::launch(c, &root, request).await?;
                // Subscribed at the start of the session: its first stop is newer than seq 0.
                let mut sub = c.subscribe(&info.id)?;
                sub.seq = 0;
                Ok::<_, ToolError>((info.id, sub))
            }
            (None, Some((sid, thread))) => {
                let sub = c.subscribe(sid)?;
                let backend = c.engine.backend.clone();
                c.bk(
                    "control",
                    backend.control(sid, Some(thread), ControlOp::Resume),
                )
                .await?;
                super::left_pause(c, sid, sub.seq);
                Ok((sid.clone(), sub))
            }
            (None, None) => unreachable!("either launched or resumed"),
        }
    }
    .await;
    let (sid, sub) = match started {
        Ok(x) => x,
        Err(e) => {
            capture::disarm(c, &root, &ids).await;
            return Err(e);
        }
    };
    let outcome = capture::run(c, &sid, &ids, &spec, sub).await;
    let failed = capture::failed_conditions(c, &root, &ids).await;
    capture::disarm(c, &root, &ids).await;
    let (hits, end) = outcome?;
    let n = hits.len();
    // Where it paused instead, said as the stop is (a crash by its signal), read before
    // anything else can change it.
    let elsewhere = if end == End::Elsewhere {
        Some(snapshot::stop_result(c, &sid, None).await)
    } else {
        None
    };
    let (end_name, mut message) = match end {
        End::Hits => ("hits", format!("{n} hits recorded (max_hits)")),
        End::Bytes => (
            "bytes",
            format!(
                "{n} hits recorded; cut at {} bytes of rows: ask for fewer expressions or hits",
                capture::MAX_BYTES
            ),
        ),
        End::Exited => ("exited", format!("{n} hits recorded; the program ended")),
        End::Elsewhere => (
            "elsewhere",
            format!(
                "{n} hits recorded; {}, left paused there",
                elsewhere
                    .as_ref()
                    .map(|s| paused_elsewhere(s, &root))
                    .unwrap_or_else(|| "paused elsewhere".into())
            ),
        ),
        End::Timeout => (
            "timeout",
            format!(
                "{n} hits recorded; still running after {} ms",
                super::MAX_WAIT_MS
            ),
        ),
    };
    if n == 0 && end == End::Exited && failed.is_empty() {
        message.push_str(
            " before reaching a point (check the lines, conditions and that the code runs)",
        );
    }
    for f in failed {
        message.push_str("; ");
        message.push_str(&f);
    }
    // Done recording: end the program unless asked to stay, or it stopped somewhere the agent
    // must see.
    let paused_at_hit = matches!(end, End::Hits | End::Bytes);
    if paused_at_hit && !a.keep_paused {
        let state = c
            .engine
            .with_state(|s| s.sessions.get(&sid).map(|x| x.state()));
        if state != Some(SessionState::Stopped) {
            let mut sub = c.subscribe(&sid)?;
            let backend = c.engine.backend.clone();
            c.engine
                .asking_to_stop(&sid, super::super::state::BY_CAPTURE);
            c.bk("stop", backend.stop(&sid)).await?;
            c.wait_until(&sid, &mut sub, 5_000, |x| {
                x.state() == SessionState::Stopped
            })
            .await;
            message.push_str("; program ended");
        }
    } else if paused_at_hit {
        message.push_str("; paused at the last hit");
    }
    let state: State = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.state()))
        .unwrap_or(SessionState::Stopped)
        .into();
    let stop = if elsewhere.is_some() {
        elsewhere
    } else if matches!(end, End::Exited) || (paused_at_hit && a.keep_paused) {
        Some(snapshot::stop_result(c, &sid, None).await)
    } else {
        None
    };
    Ok(Captured {
        session_id: sid,
        hits,
        end: end_name.into(),
        state,
        message,
        stop,
    })
}

/// What stopped a capture away from its points, as the stop says it: "crashed: SIGSEGV
/// (Segmentation fault) at crash.c:8 in main", "paused at an exception: … at …", "paused at
/// breakpoint 3 at …".
fn paused_elsewhere(stop: &StopResult, root: &str) -> String {
    let at = stop
        .location
        .as_ref()
        .map(|l| {
            let file = l.file.as_deref().unwrap_or("?");
            let file = file
                .strip_prefix(root)
                .map(|f| f.trim_start_matches('/'))
                .unwrap_or(file);
            let line = l.line.map(|n| format!(":{n}")).unwrap_or_default();
            let method = l
                .method
                .as_deref()
                .map(|m| format!(" in {m}"))
                .unwrap_or_default();
            format!(" at {file}{line}{method}")
        })
        .unwrap_or_default();
    let said = stop.description.as_deref().unwrap_or("").trim();
    match stop.reason.as_deref() {
        Some("signal") => {
            let signal = said.strip_prefix("signal ").unwrap_or(said);
            let signal = if signal.is_empty() {
                "a signal"
            } else {
                signal
            };
            format!("crashed: {signal}{at}")
        }
        Some("exception") if !said.is_empty() => format!("paused at an exception: {said}{at}"),
        Some("breakpoint") if !stop.breakpoint_ids.is_empty() => format!(
            "paused at breakpoint {}{at}",
            stop.breakpoint_ids.join(", ")
        ),
        Some(reason) => format!("paused elsewhere ({reason}){at}"),
        None => format!("paused elsewhere{at}"),
    }
}
