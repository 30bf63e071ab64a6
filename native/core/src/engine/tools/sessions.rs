//! Run configurations and sessions: list, start (guarded), stop, and the one-shot status view
//! (seed 000 §6.3).

use super::super::context::{Call, ToolError};
use super::super::snapshot::{self, location};
use super::super::state::{reason_name, state_name};
use super::out::{Frame, Location, State, StopResult, ValueNode, Watch};
use super::source::SourceContext;
use super::{Kind, Outcome, ProjectArg, SessionArg, TimeoutArg, yes};
use super::{source, variables};
use crate::backend::{AttachTarget, LaunchMode, LaunchRequest, SessionState};
use crate::backend::{OutputCategory, RunConfigInfo};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// # List run configurations
/// From the IDE, launch.json, debugger-mcp.toml.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListRunConfigurations {
    #[serde(flatten)]
    p: ProjectArg,
}
tool!(
    ListRunConfigurations,
    "list_run_configurations",
    Kind::Read,
    Configurations,
    list_run_configurations
);

#[derive(Serialize, JsonSchema)]
pub struct Configurations {
    configurations: Vec<RunConfigInfo>,
}

async fn list_run_configurations(
    c: &mut Call<'_>,
    a: ListRunConfigurations,
) -> Outcome<Configurations> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let backend = c.engine.backend.clone();
    let configs = c
        .bk("run_configurations", backend.run_configurations(&root))
        .await?;
    Ok(Configurations {
        configurations: configs,
    })
}

// run_configuration's `mode` (no doc comment: it would become the property description).
#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum RunMode {
    #[default]
    Run,
    Debug,
}

/// # Run a configuration
/// Prefer start_debug_session to debug.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct RunConfiguration {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    name: String,
    #[serde(default)]
    mode: RunMode,
}
tool!(
    RunConfiguration,
    "run_configuration",
    Kind::Destructive { idempotent: false },
    Launched,
    run_configuration
);

/// A session started by run_configuration.
#[derive(Serialize, JsonSchema)]
pub struct Launched {
    session_id: String,
    name: String,
    mode: RunMode,
    state: State,
    message: String,
}

async fn run_configuration(c: &mut Call<'_>, a: RunConfiguration) -> Outcome<Launched> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let mode = if a.mode == RunMode::Debug {
        LaunchMode::Debug
    } else {
        LaunchMode::Run
    };
    let mode_name = if mode == LaunchMode::Debug {
        "debug"
    } else {
        "run"
    };
    require_configuration(c, &root, &a.name).await?;
    c.confirm(
        &root,
        &format!("{mode_name} the configuration '{}'", a.name),
        &format!("project: {root}"),
    )
    .await?;
    let request = LaunchRequest {
        configuration: Some(a.name.clone()),
        mode,
        ..Default::default()
    };
    let info = launch(c, &root, request).await?;
    Ok(Launched {
        state: current_state(c, &info.id, info.state).into(),
        message: format!(
            "started '{}' in {mode_name} mode as session {}",
            a.name, info.id
        ),
        session_id: info.id,
        name: info.name,
        mode: a.mode,
    })
}

/// An unknown name is reported before the user is asked to confirm: a confirmation for
/// something that cannot start wastes the user's attention and hides the real error.
async fn require_configuration(c: &Call<'_>, root: &str, name: &str) -> Result<(), ToolError> {
    let backend = c.engine.backend.clone();
    let configs = c
        .bk("run_configurations", backend.run_configurations(root))
        .await?;
    if configs.iter().any(|rc| rc.name == name) {
        return Ok(());
    }
    let known: Vec<&str> = configs.iter().map(|rc| rc.name.as_str()).collect();
    Err(ToolError(if known.is_empty() {
        format!(
            "run configuration '{name}' not found: the project has none. Start a session with `command` instead (e.g. 'python3 app.py')"
        )
    } else {
        format!(
            "run configuration '{name}' not found; available: '{}'",
            known.join("', '")
        )
    }))
}

pub(super) async fn launch(
    c: &Call<'_>,
    root: &str,
    request: LaunchRequest,
) -> Result<crate::backend::SessionInfo, ToolError> {
    let backend = c.engine.backend.clone();
    // Breakpoints waiting for another's hit start the session waiting (`after`).
    super::breakpoints::before_launch(c, root).await;
    let launching = c.engine.watchdog.launch_started();
    // A backend that builds the program first (Go) gets the build's own bound on top.
    let budget =
        c.cfg.launch_timeout_ms + backend.launch_build_allowance(root, &request).as_millis() as u64;
    let known: std::collections::HashSet<String> = c
        .engine
        .with_state(|s| s.sessions.keys().cloned().collect());
    let target = request.attach.as_ref().map(target_text);
    let info = match c
        .bk_within("launch", budget, backend.launch(root, request))
        .await
    {
        Ok(info) => info,
        // Another client stopped the new session before its launch finished: say so, not
        // how the adapter words an interrupted launch.
        Err(e) => {
            let stopped = c.engine.with_state(|s| {
                s.sessions
                    .iter()
                    .filter(|(id, _)| !known.contains(*id))
                    .find_map(|(id, x)| Some((id.clone(), x.stop_asked_by?)))
            });
            return Err(match stopped {
                Some((id, by)) => ToolError(format!(
                    "session {id} was stopped by {by} before it finished starting; start it again with start_debug_session"
                )),
                None => doctor_hint(e),
            });
        }
    };
    c.engine.register_session(info.clone(), Some(root));
    if let Some(t) = target {
        c.engine.with_state(|s| {
            if let Some(x) = s.sessions.get_mut(&info.id) {
                x.attached_to = Some(t);
            }
        });
    }
    if let Some(client) = &c.ctx.client {
        client.started(&info.id);
    }
    // A session the agent launched: its first stop is the agent's, whenever it comes.
    if current_state(c, &info.id, info.state) != SessionState::Paused {
        c.engine.watchdog.arm(&info.id);
    }
    drop(launching);
    c.engine.with_state(|s| {
        s.current.insert(root.to_string(), info.id.clone());
    });
    Ok(info)
}

/// Who stopped session `sid`, when it was stopped on request (another client's
/// stop_debug_session, the watchdog) rather than ending on its own.
fn stopped_by(c: &Call<'_>, sid: &str) -> Option<&'static str> {
    c.engine
        .with_state(|s| s.sessions.get(sid).and_then(|x| x.stop_asked_by))
}

fn current_state(c: &Call<'_>, sid: &str, fallback: SessionState) -> SessionState {
    c.engine
        .with_state(|s| s.sessions.get(sid).map(|x| x.state()))
        .unwrap_or(fallback)
}

/// # List debug sessions
/// Id, name, state of each.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ListDebugSessions {
    #[serde(flatten)]
    p: ProjectArg,
}
tool!(
    ListDebugSessions,
    "list_debug_sessions",
    Kind::Read,
    Sessions,
    list_debug_sessions
);

#[derive(Serialize, JsonSchema)]
pub struct Sessions {
    sessions: Vec<SessionEntry>,
}

#[derive(Serialize, JsonSchema)]
pub struct SessionEntry {
    id: String,
    name: String,
    state: State,
    is_current: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_configuration: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    process_id: Option<u32>,
    mode: RunMode,
}

async fn list_debug_sessions(c: &mut Call<'_>, a: ListDebugSessions) -> Outcome<Sessions> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let listed = c.backend_sessions(&root).await?;
    let sessions = c.engine.with_state(|s| {
        let current = s.current.get(&root).cloned();
        let mut out: Vec<SessionEntry> = s
            .sessions
            .iter()
            .filter(|(id, x)| {
                (x.project.as_deref() == Some(root.as_str()) || listed.iter().any(|l| &l.id == *id))
                    && x.state() != SessionState::Stopped
            })
            .map(|(id, x)| SessionEntry {
                id: id.clone(),
                name: x.info.name.clone(),
                state: x.state().into(),
                is_current: current.as_deref() == Some(id.as_str()),
                run_configuration: x.info.run_configuration.clone(),
                process_id: x.info.process_id,
                mode: if x.info.mode == LaunchMode::Run {
                    RunMode::Run
                } else {
                    RunMode::Debug
                },
            })
            .collect();
        out.sort_by(|a, b| a.id.cmp(&b.id));
        out
    });
    Ok(Sessions { sessions })
}

/// # Start a debug session
/// Debug command ('python3 app.py'), run_configuration or attach (pid, host:port; its command = the request to send, e.g. curl); answers the first stop, with evaluate's values.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct StartDebugSession {
    #[serde(flatten)]
    p: ProjectArg,
    #[schemars(length(min = 1))]
    run_configuration: Option<String>,
    #[schemars(length(min = 1))]
    command: Option<String>,
    // A pid or the host:port a debugger listens on (the tool's description says it).
    attach: Option<String>,
    /// debugpy|gdb|lldb|delve|php, if not inferable
    adapter: Option<String>,
    cwd: Option<String>,
    #[serde(default)]
    stop_on_entry: bool,
    #[serde(default)]
    stop_on_exception: bool,
    #[serde(default)]
    wait_for_pause: bool,
    #[serde(flatten)]
    t: TimeoutArg,
    #[serde(flatten)]
    first: super::first::FirstAnswer,
}
tool!(
    StartDebugSession,
    "start_debug_session",
    Kind::Destructive { idempotent: false },
    Started,
    start_debug_session
);

/// A started debug session; `pause` is its first stop (or its end) when there was one.
#[derive(Serialize, JsonSchema)]
pub struct Started {
    session_id: String,
    name: String,
    state: State,
    message: String,
    /// Another session of this agent that is still paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    also: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pause: Option<StopResult>,
    /// An attach with evaluate and no breakpoints: the values read at one pause (resumed since),
    /// one row per frame that answered, as capture's read of a running process.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    read: Vec<super::super::capture::Hit>,
}

/// How long start_debug_session (without wait_for_pause) watches for a program that ends at
/// once; Python reports a syntax error within a few ms of starting the file.
const EARLY_END_MS: u64 = 300;
/// … and how long more once it wrote to stderr in that time.
const EARLY_END_DYING_MS: u64 = 3_000;

async fn start_debug_session(c: &mut Call<'_>, a: StartDebugSession) -> Outcome<Started> {
    let root = c.project(a.p.project_path.as_deref()).await?;
    let attach = a.attach.as_deref().map(attach_target).transpose()?;
    if let Some(cmd) = &a.command {
        crate::engine::shell::check_command(cmd)?;
    }
    // With attach, `command` is the trigger: run beside the service once the breakpoints are
    // armed, to send it the request that hits them.
    let trigger = a.command.clone().filter(|_| attach.is_some());
    let what = match (&a.run_configuration, &a.command, &attach) {
        (rc, _, Some(t)) => {
            let on = match t {
                AttachTarget::Pid(pid) => format!("process {pid}"),
                AttachTarget::Address(addr) => format!("the debugger at {addr}"),
            };
            match rc {
                // Never "started": a service attached to was not (re)started.
                Some(rc) => format!("attached to {on} (as run configuration '{rc}')"),
                None => format!("attached to {on}"),
            }
        }
        (Some(rc), None, None) => format!("started run configuration '{rc}'"),
        (None, Some(cmd), None) => format!("started command `{}`", super::out::brief(cmd)),
        (Some(_), Some(_), None) => {
            return Err("give either run_configuration or command, not both".into());
        }
        (None, None, None) => {
            return Err("give run_configuration (see list_run_configurations), command (e.g. 'python3 app.py') or attach (a pid or host:port) to start a session".into());
        }
    };
    let cwd = a
        .cwd
        .as_deref()
        .map(|d| c.file_in_project(&root, d))
        .transpose()?;
    a.first.check()?;
    if let Some(name) = &a.run_configuration {
        require_configuration(c, &root, name).await?;
    }
    let request = LaunchRequest {
        configuration: a.run_configuration.clone(),
        command: a.command.clone().filter(|_| trigger.is_none()),
        mode: LaunchMode::Debug,
        stop_on_entry: a.stop_on_entry,
        stop_on_exception: a.stop_on_exception,
        adapter: a.adapter.clone(),
        cwd,
        attach,
        trigger: trigger.clone(),
    };
    if trigger.is_some() {
        refuse_trigger(c, &request)?;
    }
    c.confirm(&root, "start a debug session", &format!("{what} in {root}"))
        .await?;
    let attached = request.attach.is_some();
    // An attach without a trigger or wait_for_pause: the request that stops a service is the
    // agent's to send, so the answer comes now (with a stop seen within the early window: a
    // loop at its breakpoint).
    let service = attached && trigger.is_none() && !a.wait_for_pause;
    // An attach with evaluate and no breakpoints: the values now, at one pause, then running
    // (capture {attach, expressions} without its detach).
    let read_now = service && a.first.breakpoints.is_none();
    // That read evaluates in `pause_read_resume`, which asks nothing: side effects are asked
    // for here, before anything is attached. (At a first stop `evaluate_at` asks, as
    // evaluate_expression does.)
    if read_now
        && a.first.allow_side_effects
        && let Some(list) = a.first.evaluate.as_ref()
    {
        super::eval::confirm_side_effects(c, &root, list).await?;
    }
    let set = a.first.set(c, &root).await?;
    let info = match launch(c, &root, request).await {
        Ok(info) => info,
        Err(e) => {
            // A start that failed leaves no breakpoint of its own behind.
            let _ = super::breakpoints::remove_ids(c, &root, &set).await;
            return Err(e);
        }
    };
    if let Some(cmd) = &trigger {
        note_trigger(c, &info.id, cmd);
    }
    let (message, mut pause);
    let mut read = Vec::new();
    if let Some(list) = a.first.evaluate.as_ref().filter(|_| read_now) {
        match super::capture::pause_read_resume(c, &info.id, list, a.first.allow_side_effects, true)
            .await
        {
            Ok((rows, how)) => {
                let n: usize = rows
                    .iter()
                    .map(|h| h.values.iter().filter(|v| v.error.is_none()).count())
                    .sum();
                message = format!(
                    "{what}; {n} of {} expressions read at one pause{how}: running",
                    list.len()
                );
                read = rows;
            }
            Err(e) => message = format!("{what}; evaluate: {}; running", e.0),
        }
        pause = None;
    } else if (a.wait_for_pause || a.first.waits() || trigger.is_some()) && !service {
        let timeout = a.t.timeout_ms;
        let mut sub = c.subscribe(&info.id)?;
        // A stop before this subscription is the one wanted too.
        sub.seq = 0;
        let stopped = c
            .wait_for_stop_or_trigger(&info.id, &mut sub, timeout)
            .await;
        let mut stop = snapshot::stop_result(c, &info.id, (!stopped).then_some(timeout)).await;
        // The trigger as it is now, read once: it may have ended since the stop was read.
        let (now, running) = c
            .engine
            .with_state(|s| {
                let t = s.sessions.get_mut(&info.id)?.trigger.as_mut()?;
                let out = super::out::TriggerOut::of(t);
                t.told |= t.ended.is_some();
                Some((Some(out), t.ended.is_none()))
            })
            .unwrap_or((None, false));
        let still = if running {
            "; the trigger still runs (its end comes with a later result)"
        } else {
            ""
        };
        if stop.trigger.is_none() {
            stop.trigger = now;
        }
        message = match stop.state {
            State::Paused => format!(
                "{what}; paused ({}){still}",
                stop.reason.as_deref().unwrap_or("")
            ),
            State::Stopped if a.first.records() => format!(
                "{what}; it ran to its end{} (the recorded calls: calls)",
                stop.exit_code
                    .map(|c| format!(", {}", super::super::signals::describe(c)))
                    .unwrap_or_default()
            ),
            State::Stopped => match stopped_by(c, &info.id) {
                Some(by) => format!("{what}; it was stopped by {by} before it paused"),
                None => format!(
                    "{what}; it ended before pausing (no breakpoint was hit){}",
                    stop.exit_code
                        .map(|c| format!(", {}", super::super::signals::describe(c)))
                        .unwrap_or_default()
                ),
            },
            _ if !stopped && still.is_empty() && stop.trigger.is_some() => format!(
                "{what}; {}",
                super::execution::request_ended(
                    &stop.trigger.as_ref().map(|t| t.line()).unwrap_or_default(),
                    a.first.records()
                )
            ),
            _ => match &info.note {
                Some(note) => {
                    format!("{what}; nothing stopped within {timeout} ms{still}; {note}")
                }
                None => {
                    format!("{what}; still running after {timeout} ms{still}: call wait_for_pause")
                }
            },
        };
        pause = Some(stop);
    } else if service {
        let mut sub = c.subscribe(&info.id)?;
        let settled = |x: &super::super::state::SessionSlot| {
            x.state() == SessionState::Stopped || x.pause_seq > 0
        };
        if c.wait_until(&info.id, &mut sub, EARLY_END_MS, settled)
            .await
        {
            let stop = snapshot::stop_result(c, &info.id, None).await;
            message = match stop.state {
                State::Paused => {
                    format!("{what}; paused ({})", stop.reason.as_deref().unwrap_or(""))
                }
                _ => format!("{what}; it ended at once"),
            };
            pause = Some(stop);
        } else {
            message = match &info.note {
                Some(note) => format!("{what}; {note}"),
                None => format!(
                    "{what}; running: send the request (e.g. curl from your shell), then call wait_for_pause; or give the request as command to send it and get its stop in one call"
                ),
            };
            pause = None;
        }
    } else {
        // A program that dies at once (syntax error, missing module) is reported here rather
        // than one call later: a short, event-driven wait for an early end.
        let mut sub = c.subscribe(&info.id)?;
        let settled = |x: &super::super::state::SessionSlot| {
            x.state() == SessionState::Stopped || x.pause_seq > 0
        };
        let mut ended = c
            .wait_until(&info.id, &mut sub, EARLY_END_MS, settled)
            .await;
        // Writing to stderr right at the start usually means dying (a traceback is on its way
        // out); the adapter reports the end a few hundred ms after the output.
        if !ended
            && c.engine.with_state(|s| {
                s.sessions
                    .get(&info.id)
                    .is_some_and(|x| x.stderr_tail(1).is_some())
            })
        {
            ended = c
                .wait_until(&info.id, &mut sub, EARLY_END_DYING_MS, settled)
                .await;
        }
        if ended && current_state(c, &info.id, info.state) == SessionState::Stopped {
            let stop = snapshot::stop_result(c, &info.id, None).await;
            message = match stopped_by(c, &info.id) {
                Some(by) => format!("{what}; it was stopped by {by} during launch"),
                None => format!(
                    "{what}; it ended during launch{}",
                    stop.exit_code
                        .map(|c| format!(" with {}", super::super::signals::describe(c)))
                        .unwrap_or_default()
                ),
            };
            pause = Some(stop);
        } else if let Some(note) = &info.note {
            message = format!("{what}; {note}");
            pause = None;
        } else {
            message = format!(
                "{what}; call wait_for_pause to block until it stops, or get_debug_session_status"
            );
            pause = None;
        }
    }
    if let Some(stop) = pause.as_mut() {
        a.first.answer(c, &root, stop).await;
    }
    // The run or its request ended without a stop: a function breakpoint given here that never
    // paused is named with its spelling (issue 26: a PHP method name that bound nowhere).
    let ended = pause.as_ref().is_some_and(|p| {
        p.state != State::Paused && (p.state == State::Stopped || p.trigger.is_some())
    });
    let message = match never_hit(c, &set).filter(|_| ended && !a.first.records()) {
        Some(note) => format!("{message}. {note}"),
        None => message,
    };
    let message = match super::breakpoints::moved_note(c, &root).await {
        Some(note) => format!("{message}. {note}"),
        None => message,
    };
    let message = match super::breakpoints::unbound_note(c, &root, &set, ended).await {
        Some(note) if pause.is_some() || service => format!("{message}. {note}"),
        _ => message,
    };
    Ok(Started {
        state: current_state(c, &info.id, info.state).into(),
        also: still_paused(c, &root, &info.id),
        session_id: info.id,
        name: super::out::brief(&info.name),
        message,
        pause,
        read,
    })
}

/// The agent's other sessions still paused when it starts `new` (an MCP session's own; without
/// one, the project's): one line, so it knows they are there and how to reach them.
pub(super) fn still_paused(c: &Call<'_>, root: &str, new: &str) -> Option<String> {
    let mine = c.ctx.client.as_ref().map(|cl| cl.started_ids());
    let mut paused: Vec<(String, String)> = c.engine.with_state(|s| {
        s.sessions
            .iter()
            .filter(|(id, x)| {
                id.as_str() != new
                    && x.state() == SessionState::Paused
                    && match &mine {
                        Some(m) => m.contains(id),
                        None => x.project.as_deref() == Some(root),
                    }
            })
            .map(|(id, x)| (id.clone(), super::out::brief(&x.info.name)))
            .collect()
    });
    if paused.is_empty() {
        return None;
    }
    paused.sort_by(|(a, _), (b, _)| (a.len(), a).cmp(&(b.len(), b)));
    let list: Vec<String> = paused.iter().map(|(id, n)| format!("{id} ({n})")).collect();
    Some(format!(
        "still paused: {}; calls without session_id use {new}",
        list.join(", ")
    ))
}

/// `4242` → a pid, `host:port` → an address.
/// An attach's trigger refused where the backend runs none (the IDE), naming the way round.
pub(super) fn refuse_trigger(c: &Call<'_>, request: &LaunchRequest) -> Result<(), ToolError> {
    match c.engine.backend.trigger_refusal(request) {
        Some(why) => Err(ToolError(format!(
            "command with attach (a trigger run after the attach) is not available: {why}. Start with attach alone, send the request from your shell (e.g. curl), then call wait_for_pause"
        ))),
        None => Ok(()),
    }
}

/// The session's trigger, known before its end is reported (an end may come first).
pub(super) fn note_trigger(c: &Call<'_>, sid: &str, cmd: &str) {
    c.engine.with_state(|s| {
        if let Some(x) = s.sessions.get_mut(sid) {
            x.trigger
                .get_or_insert_with(|| super::super::state::Trigger {
                    command: cmd.to_string(),
                    ..Default::default()
                });
        }
    });
}

/// An attach target as the agent writes it: `4242`, `127.0.0.1:5678`.
pub(super) fn target_text(t: &AttachTarget) -> String {
    match t {
        AttachTarget::Pid(pid) => pid.to_string(),
        AttachTarget::Address(at) => at.clone(),
    }
}

pub(super) fn attach_target(text: &str) -> Result<AttachTarget, ToolError> {
    let t = text.trim();
    if let Ok(pid) = t.parse::<u32>() {
        return Ok(AttachTarget::Pid(pid));
    }
    match t.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
            Ok(AttachTarget::Address(t.to_string()))
        }
        _ => Err(ToolError(format!(
            "attach '{text}' is neither a pid (4242) nor host:port (127.0.0.1:5678)"
        ))),
    }
}

/// # Stop a debug session
/// Attached: detaches unless terminate. Your breakpoints go unless keep_breakpoints.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct StopDebugSession {
    #[serde(flatten)]
    s: SessionArg,
    #[serde(default)]
    terminate: bool,
    #[serde(default)]
    keep_breakpoints: bool,
}
tool!(
    StopDebugSession,
    "stop_debug_session",
    Kind::Destructive { idempotent: true },
    Stopped,
    stop_debug_session
);

/// How long stop_debug_session waits, after a detach, for a trigger the pause held up to finish
/// (its answer is then shown).
const TRIGGER_AFTER_DETACH_MS: u64 = 3_000;

#[derive(Serialize, JsonSchema)]
pub struct Stopped {
    session_id: String,
    state: State,
    message: String,
}

async fn stop_debug_session(c: &mut Call<'_>, a: StopDebugSession) -> Outcome<Stopped> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = match c.session(&root, a.s.session_id.as_deref()).await {
        Ok(sid) => sid,
        // The program ended on its own before the agent stopped it: what the agent wanted is
        // done, so this succeeds and says how it ended.
        Err(e) => match last_ended(c, &root).filter(|_| a.s.session_id.is_none()) {
            Some(sid) => sid,
            None => return Err(e),
        },
    };
    if current_state(c, &sid, SessionState::Running) == SessionState::Stopped {
        let (exit, by) = c.engine.with_state(|s| {
            s.sessions
                .get(&sid)
                .map(|x| (x.exit_code, x.stop_asked_by))
                .unwrap_or_default()
        });
        return Ok(Stopped {
            message: match by {
                Some(by) => format!(
                    "session {sid} was already stopped (by {by}){}",
                    removed(c, &root, a.keep_breakpoints).await
                ),
                None => format!(
                    "session {sid} had already ended: the program {}{}",
                    exit_status(exit),
                    removed(c, &root, a.keep_breakpoints).await
                ),
            },
            session_id: sid,
            state: State::Stopped,
        });
    }
    let mut sub = c.subscribe(&sid)?;
    let backend = c.engine.backend.clone();
    let (attached, pid) = c.engine.with_state(|s| {
        s.sessions
            .get(&sid)
            .map(|x| (x.info.attached, x.info.process_id))
            .unwrap_or_default()
    });
    // A trigger still running (likely waiting on the paused service): after a detach its
    // request runs on in the service and the trigger is left to finish (the backend ends it
    // if it has not after a while), so its answer is shown; otherwise it ends with the session.
    let running_trigger = c.engine.with_state(|s| {
        s.sessions
            .get(&sid)
            .and_then(|x| x.trigger.as_ref())
            .filter(|t| t.ended.is_none())
            .map(|t| super::out::brief(&t.command))
    });
    let detach = attached && !a.terminate;
    c.engine
        .asking_to_stop(&sid, super::super::state::BY_STOP_TOOL);
    let asked = if a.terminate {
        c.bk("terminate", backend.terminate(&sid)).await
    } else {
        c.bk("stop", backend.stop(&sid)).await
    };
    if let Err(e) = asked {
        c.engine.with_state(|s| {
            if let Some(x) = s.sessions.get_mut(&sid) {
                x.stop_asked_by = None;
            }
        });
        return Err(e);
    }
    let ended = c
        .wait_until(&sid, &mut sub, 5_000, |x| {
            x.state() == SessionState::Stopped
        })
        .await;
    let mut answer = String::new();
    let trigger = match running_trigger {
        None => String::new(),
        Some(cmd) if detach && ended => {
            let finished = c
                .wait_until(&sid, &mut sub, TRIGGER_AFTER_DETACH_MS, |x| {
                    x.trigger.as_ref().is_some_and(|t| t.ended.is_some())
                })
                .await;
            match crate::engine::snapshot::take_trigger(c, &sid).filter(|_| finished) {
                Some(t) => {
                    answer = t
                        .output
                        .as_ref()
                        .map(|o| format!("\ntrigger output:\n{}", o.trim_end()))
                        .unwrap_or_default();
                    format!("; its {} once the program ran on", t.line())
                }
                None => {
                    format!("; its trigger `{cmd}` still runs (its request goes on in the program)")
                }
            }
        }
        Some(cmd) => format!(
            "; its trigger `{cmd}` was ended (its request was still waiting on the paused program when the session {})",
            if detach { "detached" } else { "stopped" }
        ),
    };
    let removed = format!("{trigger}{}", removed(c, &root, a.keep_breakpoints).await);
    Ok(Stopped {
        state: current_state(c, &sid, SessionState::Running).into(),
        message: if ended && attached && !a.terminate {
            let what = pid
                .map(|p| format!("process {p}"))
                .unwrap_or("the program".into());
            format!(
                "detached session {sid}: {what} keeps running without its breakpoints (terminate: true kills it){removed}{answer}"
            )
        } else if ended {
            format!("session {sid} stopped{removed}")
        } else {
            format!("stop requested; session {sid} has not reported its end yet{removed}")
        },
        session_id: sid,
    })
}

/// The function breakpoints among `ids` that no pause hit (by the name they were set for).
fn never_hit(c: &Call<'_>, ids: &[String]) -> Option<String> {
    let names: Vec<String> = c.engine.with_state(|s| {
        let mut names: Vec<String> = Vec::new();
        for id in ids {
            let Some(name) = s.breakpoints.get(id).and_then(|m| m.function.clone()) else {
                continue;
            };
            // One name may bind several definitions (ids): never hit is none of them.
            let hit = s
                .breakpoints
                .values()
                .any(|m| m.function.as_deref() == Some(name.as_str()) && m.hits > 0);
            if !hit && !names.contains(&name) {
                names.push(name);
            }
        }
        names
    });
    (!names.is_empty()).then(|| {
        let shown: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        format!(
            "function breakpoint {} never hit: check that this run calls it, and the name (PHP: Ns\\Class::method or Class::method; Python/Go: Class.method, pkg.Func), or set a line breakpoint in its body",
            shown.join(", ")
        )
    })
}

/// stop_debug_session's note on the agent's breakpoints it removed.
async fn removed(c: &Call<'_>, root: &str, keep: bool) -> String {
    if keep {
        return String::new();
    }
    match super::breakpoints::remove_agents(c, root).await.as_slice() {
        [] => String::new(),
        ids => format!("; removed your breakpoints {}", ids.join(", ")),
    }
}

/// A launch that failed for want of a debugger (not found, too old, debugpy missing) points to
/// `debugger-mcp doctor`, which checks every debugger and names each fix.
fn doctor_hint(e: ToolError) -> ToolError {
    let lower = e.0.to_lowercase();
    let missing = [
        "not found",
        "install",
        "does not run",
        ">= 14",
        "no module named",
        "debugpy",
    ];
    // The program's own files missing (its script, its input) are not the debugger's.
    let own = [
        "not found: script",
        "not found: program",
        "not found: input file",
        "name the adapter",
    ];
    if missing.iter().any(|m| lower.contains(m)) && !own.iter().any(|m| lower.contains(m)) {
        ToolError(format!(
            "{}. `debugger-mcp doctor` (in the IDE: the Debugger MCP tool window) shows which debuggers work here and the command that fixes each other one",
            e.0.trim_end_matches('.')
        ))
    } else {
        e
    }
}

/// The project's most recently started session that has ended (session ids grow: s1, s2, …).
fn last_ended(c: &Call<'_>, root: &str) -> Option<String> {
    c.engine.with_state(|s| {
        s.sessions
            .iter()
            .filter(|(_, x)| {
                x.project.as_deref() == Some(root) && x.state() == SessionState::Stopped
            })
            .map(|(id, _)| id.clone())
            .max_by(|a, b| (a.len(), a).cmp(&(b.len(), b)))
    })
}

/// "exited with code 0", "was killed by SIGKILL (signal 9)", or "ended (exit status
/// unknown)".
pub(crate) fn exit_status(code: Option<i64>) -> String {
    match code {
        Some(c) => match super::super::signals::from_exit_code(c) {
            Some(sig) => format!("was killed by {sig}"),
            None => format!("exited with code {c}"),
        },
        None => "ended (exit status unknown)".into(),
    }
}

fn five() -> u32 {
    5
}

/// # Debug session status
/// Stop, stack, locals, watches, output; include_variables, include_source_context (true), source_context_lines, max_stack_frames (5).
#[derive(Deserialize, Serialize, JsonSchema)]
// The knobs are named in the description, not listed: 249 B of schema for four rarely used
// parameters.
#[schemars(transform = |s: &mut schemars::Schema| super::unlist(s, &["include_variables", "include_source_context", "source_context_lines", "max_stack_frames"]))]
pub struct GetDebugSessionStatus {
    #[serde(flatten)]
    s: SessionArg,
    #[serde(default = "yes")]
    include_variables: bool,
    #[serde(default = "yes")]
    include_source_context: bool,
    #[serde(default = "five")]
    #[schemars(range(max = 50))]
    source_context_lines: u32,
    #[serde(default = "five")]
    #[schemars(range(min = 1, max = 100))]
    max_stack_frames: u32,
}
tool!(
    GetDebugSessionStatus,
    "get_debug_session_status",
    Kind::Read,
    Status,
    get_debug_session_status
);

/// The one-shot view of a session (what is known depends on its state).
#[derive(Serialize, JsonSchema, Default)]
pub struct Status {
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// A session state, or "no_session".
    state: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recent_output: Option<Vec<OutputLine>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thread_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    current_thread: Option<ThreadRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    paused_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    breakpoint_hit: Option<Vec<BreakpointHit>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_summary: Option<Vec<Frame>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_stack_depth: Option<u32>,
    /// Why some stack indexes have no frame (a frame's `hidden_above` says which).
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_hidden: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variables: Option<Vec<ValueNode>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variables_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    watches: Option<Vec<Watch>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_context: Option<SourceContext>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_context_error: Option<String>,
    /// The attach's trigger command, running or how it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    trigger: Option<super::out::TriggerOut>,
}

/// A chunk of the debuggee's output.
#[derive(Serialize, JsonSchema)]
pub struct OutputLine {
    pub category: OutputCategory,
    pub text: String,
}

#[derive(Serialize, JsonSchema)]
pub struct ThreadRef {
    id: String,
    name: String,
    state: String,
}

#[derive(Serialize, JsonSchema)]
pub struct BreakpointHit {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    condition: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hit_count: Option<u64>,
}

/// Output entries get_debug_session_status returns (the latest ones).
const RECENT_OUTPUT: usize = 50;

async fn get_debug_session_status(c: &mut Call<'_>, a: GetDebugSessionStatus) -> Outcome<Status> {
    let root = c.project(a.s.project_path.as_deref()).await?;
    let sid = match c.session(&root, a.s.session_id.as_deref()).await {
        Ok(sid) => sid,
        Err(e) if a.s.session_id.is_none() && e.0.starts_with("no debug session") => {
            let backend = c.engine.backend.clone();
            let configs = c
                .bk("run_configurations", backend.run_configurations(&root))
                .await
                .unwrap_or_default();
            let names: Vec<&str> = configs.iter().map(|r| r.name.as_str()).collect();
            return Ok(Status {
                state: "no_session".into(),
                message: Some(format!(
                    "no debug session is running. Set breakpoints with set_breakpoint, then start_debug_session with run_configuration ({}) or command",
                    if names.is_empty() {
                        "none configured".to_string()
                    } else {
                        names.join(", ")
                    }
                )),
                ..Default::default()
            });
        }
        Err(e) => return Err(e),
    };
    let (info, pause, seq, exit_code, thread, selected, output) = c
        .engine
        .with_state(|s| {
            s.sessions.get(&sid).map(|x| {
                // The debuggee's latest output (stdout/stderr/tracepoints): the only way, until a
                // console-output tool exists, for an agent to see prints and log-message breakpoints.
                let skip = x.output.len().saturating_sub(RECENT_OUTPUT);
                let output: Vec<OutputLine> = x
                    .output
                    .iter()
                    .skip(skip)
                    .map(|(cat, text)| OutputLine {
                        category: *cat,
                        text: text.clone(),
                    })
                    .collect();
                (
                    x.info.clone(),
                    x.pause.clone(),
                    x.pause_seq,
                    x.exit_code,
                    x.current_thread.clone(),
                    x.selected_frame,
                    output,
                )
            })
        })
        .ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))?;
    let trigger = c.engine.with_state(|s| {
        let t = s.sessions.get_mut(&sid)?.trigger.as_mut()?;
        t.told |= t.ended.is_some();
        Some(super::out::TriggerOut::of(t))
    });
    let mut out = Status {
        session_id: Some(sid.clone()),
        name: Some(info.name.clone()),
        state: state_name(info.state).into(),
        recent_output: Some(output),
        trigger,
        ..Default::default()
    };
    let backend = c.engine.backend.clone();
    if info.state == SessionState::Stopped {
        out.exit_code = exit_code;
        out.message = Some(format!(
            "the session has ended: the program {}; start a new one with start_debug_session",
            exit_status(exit_code)
        ));
        return Ok(out);
    }
    let threads = c.bk("threads", backend.threads(&sid)).await?;
    out.thread_count = Some(threads.len() as u64);
    let current = thread
        .clone()
        .or_else(|| pause.as_ref().map(|p| p.thread_id.clone()));
    if let Some(t) = threads.iter().find(|t| Some(&t.id) == current.as_ref()) {
        out.current_thread = Some(ThreadRef {
            id: t.id.clone(),
            name: t.name.clone(),
            state: t.state.clone(),
        });
    }
    let Some(pause) = pause.filter(|_| info.state == SessionState::Paused) else {
        out.message = Some("running; call pause or wait_for_pause to stop it and inspect".into());
        return Ok(out);
    };
    let thread = current.unwrap_or(pause.thread_id.clone());
    out.step = Some(seq);
    out.paused_reason = Some(reason_name(pause.reason).into());
    out.description = pause.description.clone();
    if !pause.breakpoint_ids.is_empty() {
        let hits: Vec<BreakpointHit> = c.engine.with_state(|s| {
            pause
                .breakpoint_ids
                .iter()
                .map(|id| {
                    let meta = s.breakpoints.get(id);
                    let last = meta.and_then(|m| m.last.as_ref());
                    BreakpointHit {
                        id: id.clone(),
                        file: last.and_then(|b| b.file.clone()),
                        line: last.and_then(|b| b.line),
                        condition: last.and_then(|b| b.condition.clone()),
                        hit_count: meta.map(|m| m.hits),
                    }
                })
                .collect()
        });
        out.breakpoint_hit = Some(hits);
    }
    let max = a.max_stack_frames;
    let page = c
        .bk("frames", backend.frames(&sid, &thread, 0, max))
        .await?;
    let frames: Vec<Frame> = page
        .frames
        .iter()
        .map(|f| Frame {
            at: location(f),
            index: f.index,
            is_current: f.index == selected,
            is_library: f.is_library,
            repeated: None,
            hidden_above: super::out::hidden_above(&page, f.index),
        })
        .collect();
    if frames.iter().any(|f| f.hidden_above.is_some()) {
        out.stack_hidden = super::out::hidden_reason(&page);
    }
    let frames = super::out::collapse(frames);
    let current_frame = page
        .frames
        .iter()
        .find(|f| f.index == selected)
        .or(page.frames.first())
        .cloned();
    out.location = current_frame.as_ref().map(location);
    out.stack_summary = Some(frames);
    out.total_stack_depth = Some(page.total.unwrap_or(page.frames.len() as u32));
    if a.include_variables {
        match variables::frame_values(
            c,
            &sid,
            &thread,
            selected,
            variables::Scope::Frame,
            1,
            c.cfg.max_children,
        )
        .await
        {
            Ok(v) => out.variables = Some(v.variables),
            Err(e) => out.variables_error = Some(e.0),
        }
    }
    snapshot::refresh_watches(c, &sid).await;
    out.watches = Some(snapshot::project_watches(c, &sid));
    if a.include_source_context
        && let Some(f) = current_frame
            .as_ref()
            .filter(|f| f.file.is_some() && f.line.is_some())
    {
        let file = f.file.clone().unwrap_or_default();
        match c.file_in_project(&root, &file) {
            Ok(canon) => match source::context(
                c,
                &root,
                &canon,
                f.line.unwrap_or(1),
                a.source_context_lines,
            )
            .await
            {
                Ok(ctx) => out.source_context = Some(ctx),
                Err(e) => out.source_context_error = Some(e.0),
            },
            Err(_) => {
                out.source_context_error =
                    Some("the current frame is outside the project (library code)".into())
            }
        }
    }
    Ok(out)
}
