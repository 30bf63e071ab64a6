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
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["text", "function"]))]
pub struct CapturePoint {
    #[schemars(length(min = 1))]
    file_path: Option<String>,
    #[schemars(range(min = 1))]
    line: Option<u32>,
    // A fragment of the line's source instead of line, file_path optional (`by_text`); or a
    // function, recorded at its entry (its first body line, as set_breakpoint {function}
    // binds). Unlisted: the instructions name them.
    text: Option<String>,
    #[schemars(length(min = 1))]
    function: Option<String>,
    condition: Option<String>,
    hit_condition: Option<String>,
}

/// A point as resolved: where it records, and how results name it.
struct Placed {
    file: String,
    line: u32,
    /// The file as the agent gave it (or relative to the project when found by text/function).
    shown: String,
    /// "text `acc +=`" or "function price" when the line was found rather than given.
    found_by: Option<String>,
    /// "line 60 (def who) runs at definition; set at 61, …" when the line was moved to a call's.
    moved: Option<String>,
    condition: Option<String>,
}

/// Where each point records: `line` as given, `text` found in the sources, `function` at its
/// one definition's first body line. Nothing is set or asked of the debugger here.
async fn place(
    c: &Call<'_>,
    root: &str,
    points: &[CapturePoint],
) -> Result<Vec<Placed>, ToolError> {
    let mut out = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let field = |e: ToolError| ToolError(format!("points[{i}]: {}", e.0));
        super::by_text::check_fields(
            p.file_path.as_deref(),
            p.line,
            p.text.as_deref(),
            p.function.as_deref(),
        )
        .map_err(|e| field(e.into()))?;
        let (file, line, shown, found_by) = match (&p.file_path, p.line, &p.text, &p.function) {
            (_, _, Some(text), _) => {
                let (file, line, shown) =
                    super::by_text::line_of(c, root, p.file_path.as_deref(), text)
                        .await
                        .map_err(field)?;
                (file, line, shown, Some(format!("text `{}`", text.trim())))
            }
            (_, Some(_), None, Some(_)) => {
                return Err(field("give function or line, not both: function records at its entry (file_path narrows it to that file)".into()));
            }
            (file_path, None, None, Some(name)) => {
                let (file, line, shown) = function_entry(c, root, file_path.as_deref(), name)
                    .await
                    .map_err(field)?;
                (file, line, shown, Some(format!("function {name}")))
            }
            (Some(path), Some(line), None, None) => {
                let file = c.file_in_project(root, path).map_err(field)?;
                (file, line, path.clone(), None)
            }
            (Some(_), None, None, None) => {
                return Err(field(
                    "field 'line': required with file_path (or give text: a fragment of the line)"
                        .into(),
                ));
            }
            (None, _, None, None) => {
                return Err(field("field 'file_path': required with line; or give text (a fragment of the line) or function".into()));
            }
        };
        // A function's entry is its body already; a line or text may name its `def`.
        let (line, moved) = match &p.function {
            Some(_) => (line, None),
            None => c.at_call(&file, line),
        };
        let placed = Placed {
            file,
            line,
            shown,
            found_by,
            moved,
            condition: p.condition.clone(),
        };
        out.push(placed);
    }
    Ok(out)
}

/// The entry of the function `name` (in `file_path` when given): its one definition in the
/// project's sources, at the first line of its body — the line set_breakpoint {function} binds,
/// which stops each call on every backend. Several definitions are refused, listed.
async fn function_entry(
    c: &Call<'_>,
    root: &str,
    file_path: Option<&str>,
    name: &str,
) -> Result<(String, u32, String), ToolError> {
    let croot = c.engine.canonical_root(root);
    let file = file_path.map(|f| c.file_in_project(root, f)).transpose()?;
    let found = {
        let (croot, name) = (croot.clone(), name.to_string());
        tokio::task::spawn_blocking(move || super::super::functions::resolve(&croot, &name))
            .await
            .map_err(|e| ToolError(format!("function lookup failed: {e}")))?
    };
    let rel = |f: &str| {
        std::path::Path::new(f)
            .strip_prefix(&croot)
            .map(|x| x.to_string_lossy().into_owned())
            .unwrap_or_else(|_| f.to_string())
    };
    let defs: Vec<_> = found
        .matches
        .iter()
        .filter(|d| file.as_deref().is_none_or(|f| super::same_file(&d.file, f)))
        .collect();
    match defs.as_slice() {
        [d] => Ok((d.file.clone(), d.body_line, rel(&d.file))),
        [] => {
            let near = if found.near.is_empty() {
                String::new()
            } else {
                format!("; near: {}", found.near.join(", "))
            };
            let within = match (file_path, found.matches.is_empty()) {
                (Some(f), true) => format!(" in {f}"),
                (Some(f), false) => format!(
                    " in {f} (defined at {})",
                    found
                        .matches
                        .iter()
                        .take(5)
                        .map(|d| format!("{}:{}", rel(&d.file), d.line))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                (None, _) => " in the project".into(),
            };
            Err(ToolError(format!(
                "field 'function': no definition of '{name}'{within} ({} source files searched){near}; capture records at a definition in the project's sources: give file_path+line or text, or set_breakpoint {{function}} for a library's",
                found.files
            )))
        }
        many => {
            let listed: Vec<String> = many
                .iter()
                .take(5)
                .map(|d| format!("{}:{} {}", rel(&d.file), d.line, d.qualified))
                .collect();
            Err(ToolError(format!(
                "field 'function': '{name}' has {} definitions: {}{}; qualify it (Class.method, pkg.Func), give file_path, or one point per definition",
                many.len(),
                listed.join(", "),
                if many.len() > 5 { ", …" } else { "" }
            )))
        }
    }
}

/// Points one capture takes at most.
const MAX_POINTS: usize = 10;

fn ten() -> u32 {
    10
}

/// # Capture values at points
/// Runs command (or resumes), records expressions, locals, stack at max_hits hits of points without stopping, then ends it (or keep_paused). attach+expressions alone: reads now.
#[derive(Deserialize, Serialize, JsonSchema)]
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["attach", "session_id", "allow_side_effects", "adapter"]))]
pub struct Capture {
    project_path: Option<String>,
    // The attached session whose trigger `command` is, when the agent has several (named in
    // the instructions; every byte of tools/list counts).
    session_id: Option<String>,
    #[schemars(length(min = 1))]
    command: Option<String>,
    // A pid or host:port to attach to, as start_debug_session's; `command` is then the request
    // (the trigger) whose end ends the capture, and the process is detached, never ended.
    attach: Option<String>,
    #[schemars(length(min = 1))]
    run_configuration: Option<String>,
    cwd: Option<String>,
    #[serde(default)]
    #[schemars(length(min = 1))]
    points: Vec<CapturePoint>,
    #[serde(default)]
    expressions: Vec<String>,
    #[serde(default = "ten")]
    #[schemars(range(min = 1, max = 100))]
    max_hits: u32,
    #[serde(default)]
    keep_paused: bool,
    // As evaluate_expression's (named in the instructions): the expressions may change the
    // program; confirmed once, then no guard.
    #[serde(default)]
    allow_side_effects: bool,
    // As start_debug_session's, where the server cannot tell (an error says to name it).
    #[schemars(length(min = 1))]
    adapter: Option<String>,
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
    /// With attach: the request's command, how it ended, the start of its output.
    #[serde(skip_serializing_if = "Option::is_none")]
    trigger: Option<super::out::TriggerOut>,
}

async fn run(c: &mut Call<'_>, a: Capture) -> Outcome<Captured> {
    let root = c.project(a.project_path.as_deref()).await?;
    if a.points.len() > MAX_POINTS {
        return Err(ToolError(format!(
            "points: {} given, at most {MAX_POINTS}",
            a.points.len()
        )));
    }
    let placed = place(c, &root, &a.points).await?;
    for e in &a.expressions {
        if e.trim().is_empty() {
            return Err("expressions: an expression is empty".into());
        }
        let (e_plain, _) =
            super::eval::split_format(e).map_err(|err| ToolError(format!("{e}: {}", err.0)))?;
        // A read without points has the guard in `read_paused` (shared with start_debug_session
        // {attach, evaluate}): there a refused expression fails alone.
        if placed.is_empty() || a.allow_side_effects {
            continue;
        }
        // The points' language decides whether `f(key=1)` names an argument or assigns.
        let file = placed.first().map(|p| p.file.as_str());
        expression_guard::check(&e_plain, &c.cfg.expression_safety, file)
            .map_err(|err| ToolError(format!("{e}: {}", err.0)))?;
    }
    let points: Vec<Point> = placed
        .iter()
        .zip(&a.points)
        .map(|(at, p)| Point::Line {
            file: at.file.clone(),
            line: at.line,
            condition: p.condition.clone(),
            hit_condition: p.hit_condition.clone(),
        })
        .collect();
    let attach = a
        .attach
        .as_deref()
        .map(super::sessions::attach_target)
        .transpose()?;
    if let Some(cmd) = &a.command {
        crate::engine::shell::check_command(cmd)?;
    }
    if attach.is_some() && a.run_configuration.is_some() {
        return Err("give attach or run_configuration, not both".into());
    }
    // No points: a read of the running process now (attach + expressions), or what to give.
    if a.points.is_empty() {
        return read_now(c, &root, &a, attach.as_ref()).await;
    }
    // The agent's own attached session, whose trigger `command` then is: named by attach (the
    // same pid or host:port) or session_id, or the only one it has.
    let reuse = if a.command.is_some() && a.run_configuration.is_none() {
        attached_session(c, &root, &a, attach.as_ref()).await?
    } else {
        None
    };
    if let Some(sid) = reuse.as_ref().filter(|_| a.cwd.is_some()) {
        return Err(ToolError(format!(
            "cwd: command is the trigger of attached session {sid} and runs in the project; leave cwd out (or cd inside command)"
        )));
    }
    if attach.is_some() && a.command.is_none() {
        return Err("attach needs command: the request that runs the points, e.g. \"curl -s 'http://127.0.0.1:8000/path'\"; or leave points out to read the process now (capture {attach, expressions})".into());
    }
    let launch = match (&a.command, &a.run_configuration) {
        (Some(_), Some(_)) => return Err("give command or run_configuration, not both".into()),
        (None, None) => None,
        _ if reuse.is_some() => None,
        (cmd, rc) => Some((cmd.clone(), rc.clone())),
    };
    if a.cwd.is_some() && launch.is_none() && reuse.is_none() {
        return Err("cwd is where a started program runs: give command with it".into());
    }
    if a.adapter.is_some() && launch.is_none() {
        return Err(ToolError(match &reuse {
            Some(sid) => format!(
                "adapter: command is the trigger of attached session {sid}, which keeps its own debugger; leave adapter out"
            ),
            None => "adapter names the debugger of a session this capture starts (with command, run_configuration or attach); leave it out to record in the current session".into(),
        }));
    }
    let cwd = a
        .cwd
        .as_deref()
        .map(|d| c.file_in_project(&root, d))
        .transpose()?;
    let request = launch.as_ref().map(|(cmd, rc)| LaunchRequest {
        configuration: rc.clone(),
        command: cmd.clone().filter(|_| attach.is_none()),
        trigger: cmd.clone().filter(|_| attach.is_some()),
        attach: attach.clone(),
        mode: LaunchMode::Debug,
        cwd: cwd.clone(),
        adapter: a.adapter.clone(),
        ..Default::default()
    });
    if let Some(r) = request.as_ref().filter(|r| r.trigger.is_some()) {
        super::sessions::refuse_trigger(c, r)?;
    }
    // A session to resume must be paused; checked before anything changes.
    let resumed = match &launch {
        None if reuse.is_some() => None,
        None => {
            let sid = c
                .session(&root, a.session_id.as_deref())
                .await
                .map_err(|e| {
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
        let what = match &attach {
            Some(crate::backend::AttachTarget::Pid(pid)) => {
                format!("process {pid} (attached), {what}")
            }
            Some(crate::backend::AttachTarget::Address(at)) => {
                format!("the debugger at {at} (attached), {what}")
            }
            None => what,
        };
        c.confirm(&root, "start a debug session", &format!("{what} in {root}"))
            .await?;
    }
    // Asked before anything is set: a refusal leaves no breakpoint behind.
    confirm_side_effects(c, &root, &a).await?;
    let ids = capture::arm(c, &root, &points).await?;
    let spec = Spec {
        expressions: a.expressions.clone(),
        locals: true,
        stack: true,
        max_hits: a.max_hits,
        deadline: capture::deadline(super::MAX_WAIT_MS),
        until_trigger: attach.is_some() || reuse.is_some(),
        side_effects: a.allow_side_effects,
    };
    let started = async {
        match (request, &resumed) {
            (Some(request), _) => {
                let trigger = request.trigger.clone();
                let info = super::sessions::launch(c, &root, request).await?;
                if let Some(cmd) = &trigger {
                    super::sessions::note_trigger(c, &info.id, cmd);
                }
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
            (None, None) => {
                let sid = reuse
                    .clone()
                    .expect("launched, resumed or an attached session");
                trigger_attached(c, &sid, a.command.as_deref().unwrap_or_default()).await
            }
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
    let (mut hits, end) = match outcome {
        Ok(x) => x,
        Err(e) => {
            capture::disarm(c, &root, &ids).await;
            return Err(e);
        }
    };
    let ended = matches!(end, End::Exited | End::Trigger);
    let unhit = unhit_points(c, &root, &placed, &ids, &hits, ended).await;
    capture::disarm(c, &root, &ids).await;
    let out_of_scope = not_in_scope(&mut hits);
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
        // An attach's session ends without its process: PHP's with each request.
        End::Exited if attach.is_some() || reuse.is_some() => (
            "exited",
            format!("{n} hits recorded; the attached session ended"),
        ),
        End::Exited => ("exited", format!("{n} hits recorded; the program ended")),
        End::Elsewhere => (
            "elsewhere",
            format!(
                "{n} hits recorded; {}{}",
                elsewhere
                    .as_ref()
                    .map(|s| paused_elsewhere(s, &root))
                    .unwrap_or_else(|| "paused elsewhere".into()),
                if attach.is_some() && reuse.is_none() {
                    ""
                } else {
                    ", left paused there"
                }
            ),
        ),
        End::Trigger => ("trigger", format!("{n} hits recorded; the request ended")),
        End::Timeout => (
            "timeout",
            format!(
                "{n} hits recorded; still running after {} ms",
                super::MAX_WAIT_MS
            ),
        ),
    };
    if n == 0 && ended {
        message.push_str(" before reaching a point");
    }
    // Done recording: end the program unless asked to stay, or it stopped somewhere the agent
    // must see.
    let paused_at_hit = matches!(end, End::Hits | End::Bytes);
    if let Some(sid) = reuse.as_ref().filter(|_| end != End::Exited) {
        // The agent's own session: left attached, running as the capture found it.
        if paused_at_hit && !a.keep_paused {
            let sub = c.subscribe(sid)?;
            let backend = c.engine.backend.clone();
            let thread = c.paused(sid).map(|(t, _)| t).ok();
            c.bk(
                "control",
                backend.control(sid, thread.as_deref(), ControlOp::Resume),
            )
            .await?;
            super::left_pause(c, sid, sub.seq);
            message.push_str("; resumed");
        } else if paused_at_hit {
            message.push_str("; paused at the last hit");
        }
        message.push_str(&format!("; session {sid} stays attached"));
    } else if attach.is_some() && !(paused_at_hit && a.keep_paused) {
        message.push_str(&detach(c, &sid).await?);
    } else if paused_at_hit && !a.keep_paused {
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
    // Where points given by text or function record, then one line per point that recorded
    // nothing, and per point where expressions name nothing.
    let found: Vec<String> = placed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match (&p.found_by, &p.moved) {
            (Some(by), None) => Some(format!("point {} ({by}) at {}:{}", i + 1, p.shown, p.line)),
            (by, Some(moved)) => Some(format!(
                "point {} ({}{}): {moved}",
                i + 1,
                by.as_ref().map(|b| format!("{b}, ")).unwrap_or_default(),
                p.shown
            )),
            (None, None) => None,
        })
        .collect();
    let found = (!found.is_empty()).then(|| found.join("; "));
    for line in found.iter().chain(&unhit).chain(&out_of_scope) {
        message.push('\n');
        message.push_str(line);
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
    let trigger = if attach.is_some() || reuse.is_some() {
        trigger_end(c, &sid).await
    } else {
        None
    };
    Ok(Captured {
        trigger,
        session_id: sid,
        hits,
        end: end_name.into(),
        state,
        message,
        stop,
    })
}

/// The attached session `command` is the trigger of, when there is one: the agent's session
/// attached to `attach`'s target, the one `session_id` names, or (no attach, program or run
/// configuration given) the only live attached session the agent's MCP session started.
/// Refused: a target attached by another MCP session, a session_id naming a launched session,
/// and two attached sessions without session_id.
async fn attached_session(
    c: &mut Call<'_>,
    root: &str,
    a: &Capture,
    attach: Option<&crate::backend::AttachTarget>,
) -> Result<Option<String>, ToolError> {
    let mine = c.ctx.client.as_ref().map(|cl| cl.started_ids());
    let mine = |id: &str| mine.as_ref().is_none_or(|m| m.iter().any(|x| x == id));
    // (id, target as the attach named it, pid) of every live attached session of the project.
    let mut live: Vec<(String, Option<String>, Option<u32>)> = c.engine.with_state(|s| {
        s.sessions
            .iter()
            .filter(|(_, x)| {
                x.info.attached
                    && x.state() != SessionState::Stopped
                    && x.project.as_deref() == Some(root)
            })
            .map(|(id, x)| (id.clone(), x.attached_to.clone(), x.info.process_id))
            .collect()
    });
    live.sort_by(|(a, ..), (b, ..)| (a.len(), a).cmp(&(b.len(), b)));
    if let Some(t) = attach {
        let text = super::sessions::target_text(t);
        let pid = match t {
            crate::backend::AttachTarget::Pid(p) => Some(*p),
            crate::backend::AttachTarget::Address(_) => None,
        };
        let Some((id, ..)) = live.iter().find(|(_, to, p)| {
            to.as_deref() == Some(text.as_str()) || (pid.is_some() && *p == pid)
        }) else {
            return Ok(None);
        };
        if !mine(id) {
            return Err(ToolError(format!(
                "attach: {text} is attached by debug session {id} of another client (MCP session or the IDE's user); a process takes one debugger: wait until that session ends, or capture without attach after start_debug_session in that client"
            )));
        }
        return Ok(Some(id.clone()));
    }
    if let Some(id) = &a.session_id {
        if live.iter().any(|(x, ..)| x == id) {
            return Ok(Some(id.clone()));
        }
        let sid = c.session(root, Some(id)).await?;
        return Err(ToolError(format!(
            "session_id: session {sid} is not an attached, running session, so command would start a new program; leave session_id out to start one, or name an attached session"
        )));
    }
    let ours: Vec<&String> = live
        .iter()
        .map(|(id, ..)| id)
        .filter(|id| mine(id))
        .collect();
    match ours.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some((*one).clone())),
        many => Err(ToolError(format!(
            "command: you have {} attached sessions ({}); say whose trigger it is with session_id, or give attach (its pid or host:port)",
            many.len(),
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// allow_side_effects: the user is asked once for the capture's expressions (as
/// evaluate_expression asks for a batch), before anything starts.
async fn confirm_side_effects(c: &Call<'_>, root: &str, a: &Capture) -> Result<(), ToolError> {
    if !a.allow_side_effects || a.expressions.is_empty() {
        return Ok(());
    }
    super::eval::confirm_side_effects(c, root, &a.expressions).await
}

/// How long a read of a running process waits for the pause it asked (at most the backend's
/// timeout).
const READ_PAUSE_MS: u64 = 10_000;
/// … asking it again after this long without a stop.
const READ_PAUSE_AGAIN_MS: u64 = 1_500;

/// capture {attach, expressions} without points or command: attach, pause once, read the
/// expressions in the paused thread's frames (`read_paused`), resume and detach — what
/// `gdb -batch -p PID -ex 'p x'` does. On the agent's own attached session: read, resumed, left
/// attached. Refused before anything changes: no attach, no expressions, a command or
/// run_configuration without points, keep_paused, and a debugger that cannot pause (Xdebug).
async fn read_now(
    c: &mut Call<'_>,
    root: &str,
    a: &Capture,
    attach: Option<&crate::backend::AttachTarget>,
) -> Outcome<Captured> {
    let what_points = "({file_path, line}, {text} or {function})";
    let Some(target) = attach else {
        return Err(ToolError(format!(
            "points: give at least one {what_points}; or, to read a running process now, attach (its pid or host:port) with expressions and no points"
        )));
    };
    if a.command.is_some() || a.run_configuration.is_some() {
        return Err(ToolError(format!(
            "points: give where to record what the request runs {what_points}; or leave command out to read the process now (capture {{attach, expressions}} pauses it once, reads, detaches)"
        )));
    }
    if a.expressions.is_empty() {
        return Err("expressions: give what to read (e.g. [\"count\", \"items[0]\"]): capture {attach} without points pauses the process once, reads them and detaches; or give points and command to record where a request runs".into());
    }
    if a.keep_paused {
        return Err("keep_paused: a read without points resumes the process at once; to keep it paused, start_debug_session {attach} then pause".into());
    }
    if a.cwd.is_some() {
        return Err("cwd is where a started program runs: a read of a running process starts none; leave cwd out".into());
    }
    let text = super::sessions::target_text(target);
    let on = match target {
        crate::backend::AttachTarget::Pid(pid) => format!("process {pid}"),
        crate::backend::AttachTarget::Address(at) => format!("the debugger at {at}"),
    };
    let reuse = attached_session(c, root, a, Some(target)).await?;
    if let Some(sid) = reuse.as_ref().filter(|_| a.adapter.is_some()) {
        return Err(ToolError(format!(
            "adapter: {text} is attached already (session {sid}), with its own debugger; leave adapter out"
        )));
    }
    confirm_side_effects(c, root, a).await?;
    let request = LaunchRequest {
        attach: Some(target.clone()),
        mode: LaunchMode::Debug,
        adapter: a.adapter.clone(),
        ..Default::default()
    };
    if reuse.is_none() {
        if let Some(why) = c.engine.backend.pause_refusal(&request) {
            return Err(ToolError(format!(
                "attach {text}: a read without points pauses the process, and {why}. Instead: capture {{attach: \"{text}\", command: \"curl 'URL'\", points: [{{file_path, line}}], expressions}} records the values where the request runs"
            )));
        }
        c.confirm(
            root,
            "start a debug session",
            &format!(
                "{on} (attached) to read {} expressions, then detached, in {root}",
                a.expressions.len()
            ),
        )
        .await?;
    }
    let sid = match &reuse {
        Some(sid) => sid.clone(),
        None => super::sessions::launch(c, root, request).await?.id,
    };
    let read = pause_read_resume(
        c,
        &sid,
        &a.expressions,
        a.allow_side_effects,
        reuse.is_none(),
    )
    .await;
    let left = if reuse.is_some() {
        format!("; session {sid} stays attached")
    } else {
        detach(c, &sid)
            .await
            .unwrap_or_else(|e| format!("; detach failed: {}", e.0))
    };
    let (hits, how) = match read {
        Ok(x) => x,
        Err(e) => return Err(ToolError(format!("{}{left}", e.0))),
    };
    let n: usize = hits
        .iter()
        .map(|h| h.values.iter().filter(|v| v.error.is_none()).count())
        .sum();
    let message = format!(
        "{n} of {} expressions read at one pause of {on}{how}{left}",
        a.expressions.len()
    );
    let state: State = c
        .engine
        .with_state(|s| s.sessions.get(&sid).map(|x| x.state()))
        .unwrap_or(SessionState::Stopped)
        .into();
    Ok(Captured {
        session_id: sid,
        hits,
        end: "read".into(),
        state,
        message,
        stop: None,
        trigger: None,
    })
}

/// Pauses the attached session `sid` once (unless it is paused already), reads `expressions`
/// there (`read_paused`) and resumes it (a pause found already there is left alone unless
/// `resume_found`). Returns the rows and how it left the pause (", resumed"). A pause asked
/// and not waited for any more (the wait timed out, or it was asked again) never leaves the
/// process stopped: its stop, if it comes later, is resumed at once (`late_pause`).
pub(super) async fn pause_read_resume(
    c: &Call<'_>,
    sid: &str,
    expressions: &[String],
    side_effects: bool,
    resume_found: bool,
) -> Result<(Vec<Hit>, String), ToolError> {
    let backend = c.engine.backend.clone();
    let late_pause = |until: Option<(u32, Option<std::time::Instant>)>| {
        c.engine.with_state(|s| {
            s.sessions.get_mut(sid).map(|x| {
                x.late_pause = until;
                std::mem::take(&mut x.late_pauses_resumed)
            })
        })
    };
    // Stops of an earlier read's pauses resumed meanwhile: said once, here.
    let before = match late_pause(None).unwrap_or(0) {
        0 => String::new(),
        n => format!(
            "; {n} late pause{} of an earlier read came and {} resumed at once",
            if n == 1 { "" } else { "s" },
            if n == 1 { "was" } else { "were" }
        ),
    };
    let bound = READ_PAUSE_MS.min(c.cfg.backend_timeout_ms).max(1);
    let again = READ_PAUSE_AGAIN_MS.min(bound / 3).max(1);
    let found = c.paused(sid).is_ok();
    let mut asked = 0u32;
    if !found {
        let mut sub = c.subscribe(sid)?;
        c.bk("control", backend.control(sid, None, ControlOp::Pause))
            .await?;
        asked = 1;
        // A pause asked while the adapter still finishes the attach (gdb, lldb resuming the
        // process it stopped to attach) can be lost: asked again while it runs, until the bound.
        let deadline = super::super::capture::deadline(bound);
        let mut paused = false;
        while !paused {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            let wait = left.min(std::time::Duration::from_millis(again));
            paused = c
                .wait_for_stop(sid, &mut sub, wait.as_millis() as u64)
                .await;
            if !paused
                && c.paused(sid).is_err()
                && left > wait
                && c.bk("control", backend.control(sid, None, ControlOp::Pause))
                    .await
                    .is_ok()
            {
                asked += 1;
            }
        }
        if !paused {
            // It may still land (debugpy stops a thread blocked in select() when it next runs
            // Python code): then nobody is waiting, so its stop is resumed.
            late_pause(Some((asked, None)));
            let why = backend.pause_pending_note(sid);
            return Err(ToolError(format!(
                "the process did not pause within {bound} ms, so nothing was read{}; if the pause comes later, the process is resumed at once{before}",
                why.map(|w| format!(" ({w})")).unwrap_or_default()
            )));
        }
    }
    let (thread, _) = c.paused(sid)?;
    let rows = capture::read_paused(c, sid, &thread, expressions, side_effects).await;
    if found && !resume_found {
        return rows.map(|r| {
            (
                r,
                format!("; it was paused already and stays paused{before}"),
            )
        });
    }
    // A pause asked again may still land after the resume below: its stop is resumed too.
    let extra = asked > 1;
    if extra {
        let until = std::time::Instant::now() + std::time::Duration::from_millis(bound);
        late_pause(Some((asked - 1, Some(until))));
    }
    let sub = c.subscribe(sid)?;
    c.bk(
        "control",
        backend.control(sid, Some(&thread), ControlOp::Resume),
    )
    .await?;
    super::left_pause(c, sid, sub.seq);
    let how = if extra {
        format!(
            ", resumed (the pause was asked {asked} times; a stop of another within {bound} ms is resumed at once){before}"
        )
    } else {
        format!(", resumed{before}")
    };
    rows.map(|r| (r, how))
}

/// Runs `cmd` as the trigger of the attached session `sid` (resumed first when paused, as a
/// capture without command resumes), subscribed before it runs.
async fn trigger_attached(
    c: &mut Call<'_>,
    sid: &str,
    cmd: &str,
) -> Result<(String, super::super::snapshot::Subscription), ToolError> {
    let mut sub = c.subscribe(sid)?;
    if let Ok((thread, _)) = c.paused(sid) {
        let backend = c.engine.backend.clone();
        c.bk(
            "control",
            backend.control(sid, Some(&thread), ControlOp::Resume),
        )
        .await?;
        super::left_pause(c, sid, sub.seq);
        sub = c.subscribe(sid)?;
    }
    super::execution::run_trigger(c, sid, cmd).await?;
    Ok((sid.to_string(), sub))
}

/// Ends an attach as stop_debug_session does, detaching (the process runs on, its breakpoints
/// gone); "; detached: process 4242 runs on" for the message.
async fn detach(c: &Call<'_>, sid: &str) -> Result<String, ToolError> {
    let (state, pid) = c.engine.with_state(|s| {
        s.sessions
            .get(sid)
            .map(|x| (x.state(), x.info.process_id))
            .unwrap_or((SessionState::Stopped, None))
    });
    let what = pid
        .map(|p| format!("process {p}"))
        .unwrap_or("the program".into());
    if state == SessionState::Stopped {
        return Ok(String::new());
    }
    let mut sub = c.subscribe(sid)?;
    let backend = c.engine.backend.clone();
    c.engine
        .asking_to_stop(sid, super::super::state::BY_CAPTURE);
    c.bk("stop", backend.stop(sid)).await?;
    let done = c
        .wait_until(sid, &mut sub, 5_000, |x| x.state() == SessionState::Stopped)
        .await;
    Ok(if done {
        format!("; detached: {what} runs on")
    } else {
        format!("; detach asked: {what} has not reported it yet")
    })
}

/// The trigger's end for capture's answer, waited for a few seconds when the service answers
/// it after the detach.
async fn trigger_end(c: &Call<'_>, sid: &str) -> Option<super::out::TriggerOut> {
    if let Ok(mut sub) = c.subscribe(sid) {
        c.wait_until(sid, &mut sub, 5_000, |x| {
            x.trigger.as_ref().is_none_or(|t| t.ended.is_some())
        })
        .await;
    }
    c.engine.with_state(|s| {
        let t = s.sessions.get_mut(sid)?.trigger.as_mut()?;
        t.told |= t.ended.is_some();
        Some(super::out::TriggerOut::of(t))
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

/// One line per point that recorded nothing, with the reason: its condition fails to evaluate
/// (said as the debugger says it), the debugger never bound it (its words, and for a line without
/// code the nearest lines with code), it bound elsewhere, or the program never ran it. A capture
/// whose point is silent otherwise reads as "the code never runs there".
async fn unhit_points(
    c: &Call<'_>,
    root: &str,
    points: &[Placed],
    ids: &[String],
    hits: &[Hit],
    ended: bool,
) -> Vec<String> {
    let backend = c.engine.backend.clone();
    let bps = c
        .bk("breakpoints", backend.breakpoints(root))
        .await
        .unwrap_or_default();
    let mut lines = Vec::new();
    for (i, (p, id)) in points.iter().zip(ids).enumerate() {
        if hits.iter().any(|h| h.point as usize == i + 1) {
            continue;
        }
        let Some(info) = bps.iter().find(|b| &b.id == id) else {
            continue;
        };
        let said = info.message.as_deref().unwrap_or("").trim();
        if said.contains(crate::backend::CONDITION_FAILS) {
            lines.push(format!("point {}: {said}", i + 1));
            continue;
        }
        let file = info.file.clone().unwrap_or_default();
        let source = c
            .bk("read_source", backend.read_source(root, &file))
            .await
            .ok();
        // gdb reports every breakpoint pending again once the program ended: bound during the
        // run is what the engine saw then.
        let once = c
            .engine
            .with_state(|s| s.breakpoints.get(id).and_then(|m| m.bound_line));
        let bound = if info.verified { info.line } else { once };
        let why = match bound {
            None => if_not_bound(info, source.as_deref(), &p.shown)
                .unwrap_or_else(|| "not bound".into()),
            Some(at) => {
                let never = if ended { "never hit" } else { "not hit" };
                match (&p.condition, nearby(source.as_deref(), p.line)) {
                    _ if at != p.line => format!("{never} (the debugger bound it at line {at})"),
                    (Some(cond), _) if !cond.is_empty() => {
                        format!("{never} (its condition `{cond}` never held)")
                    }
                    (_, Some(near)) => format!("{never}: {near}"),
                    _ => never.to_string(),
                }
            }
        };
        lines.push(format!("point {} ({}:{}): {why}", i + 1, p.shown, p.line));
    }
    lines
}

/// Why a line breakpoint is not bound, when it is not: the debugger's words, then where code
/// is for a line without any ("line 20 is blank; lines with code nearby: 19 (`}`), 21 (…)"),
/// or, for a line with code, that the program may not contain the file.
pub(super) fn if_not_bound(
    info: &crate::backend::BreakpointInfo,
    source: Option<&str>,
    file: &str,
) -> Option<String> {
    if info.verified {
        return None;
    }
    let line = info.requested_line.or(info.line)?;
    let said = match info.message.as_deref().map(str::trim) {
        // After the run the backend adds "binds when a session starts": not why it never bound.
        Some(m) if m.starts_with("pending") => "not bound (the debugger says: pending)".into(),
        Some(m) if !m.is_empty() => format!("not bound (the debugger says: {m})"),
        _ => "not bound".to_string(),
    };
    Some(match nearby(source, line) {
        Some(near) => format!("{said}; {near}"),
        None => format!("{said}; line {line} has code: is {file} built into the program?"),
    })
}

/// "line 20 is blank; lines with code nearby: 19 (`}`), 21 (`static int f(int n) {`)".
pub(super) fn nearby(source: Option<&str>, line: u32) -> Option<String> {
    let (what, before, after) = super::source::no_code_at(source?, line)?;
    let near: Vec<String> = before.into_iter().chain(after).collect();
    Some(if near.is_empty() {
        format!("line {line} {what} and the file has no code")
    } else {
        format!(
            "line {line} {what}; lines with code nearby: {}",
            near.join(", ")
        )
    })
}

/// What a debugger answers for a name the frame does not have (gdb, lldb, Python, PHP, Go):
/// an expression meant for another point, not an error of this row.
const NOT_IN_SCOPE: [&str; 5] = [
    "in current context",
    "use of undeclared identifier",
    // Python's NameError; Xdebug's for a variable by name or one an expression names.
    "not defined",
    "undefined variable",
    "could not find symbol value",
];

/// The error a row keeps for such an expression; the message says it once per point.
pub(crate) const OUT_OF_SCOPE: &str = "not in scope";

/// A point's place (`prog.c:24`) and its out-of-scope expressions with their rows.
type ScopeMisses = (u32, String, Vec<(String, usize)>);

/// Expressions that name nothing at a point's rows: each such error becomes `not in scope`,
/// and one line per point says which and where ("`v`: not in scope at prog.c:24 (4 rows)").
fn not_in_scope(hits: &mut [Hit]) -> Vec<String> {
    // (point, at, [(expression, rows)]) in the order the points were first hit.
    let mut per_point: Vec<ScopeMisses> = Vec::new();
    for h in hits.iter_mut() {
        let at = format!(
            "{}:{}",
            h.at.file.as_deref().unwrap_or("?"),
            h.at.line.map(|l| l.to_string()).unwrap_or_default()
        );
        for v in h.values.iter_mut() {
            let Some(err) = v.error.as_deref() else {
                continue;
            };
            let lower = err.to_lowercase();
            if !NOT_IN_SCOPE.iter().any(|p| lower.contains(p)) {
                continue;
            }
            v.error = Some(OUT_OF_SCOPE.into());
            let slot = match per_point.iter().position(|(p, _, _)| *p == h.point) {
                Some(i) => i,
                None => {
                    per_point.push((h.point, at.clone(), Vec::new()));
                    per_point.len() - 1
                }
            };
            let names = &mut per_point[slot].2;
            match names.iter_mut().find(|(n, _)| *n == v.name) {
                Some((_, rows)) => *rows += 1,
                None => names.push((v.name.clone(), 1)),
            }
        }
    }
    per_point
        .into_iter()
        .map(|(_, at, names)| {
            let rows = |n: usize| {
                if n == 1 {
                    "1 row".to_string()
                } else {
                    format!("{n} rows")
                }
            };
            let same = names.iter().all(|(_, n)| *n == names[0].1);
            if same {
                let listed: Vec<String> = names.iter().map(|(n, _)| format!("`{n}`")).collect();
                format!(
                    "{}: not in scope at {at} ({})",
                    listed.join(", "),
                    rows(names[0].1)
                )
            } else {
                let listed: Vec<String> = names
                    .iter()
                    .map(|(n, k)| format!("`{n}` ({})", rows(*k)))
                    .collect();
                format!("{}: not in scope at {at}", listed.join(", "))
            }
        })
        .collect()
}
