//! The engine: tool registry, validation, session state from backend events, waits, value ids,
//! watches, guardrails and history — built once on top of [`Backend`].
//!
//! Hosts create one engine per process (sidecar) or per IDE (JNI) and serve
//! [`Engine::handler`] over any transport. [`Engine::call_tool`] is the direct entry used by the
//! handler and the benchmarks.
//!
//! Layout: `registry` (tool list + schemas), `validate` (input errors), `context` (per-call
//! resolution of project/session/paths, backend timeouts), `state` (what events tell us),
//! `values` (short ids, truncation, redaction), `guard` (confirmation), `expression_guard` (refuses
//! state-changing expressions evaluated without `allow_side_effects` — assignments, `++`,
//! `del`/`import`/`exec(`, mutating calls such as `.append(`/`.setName(` — because DAP adapters
//! cannot enforce side-effect-free evaluation; used by evaluate_expression, watches and watch
//! re-evaluation), `snapshot` (pause
//! results, waits, watches), `tools/*` (the tools by area), `handler` (rmcp glue).
//!
//! Dependencies point down: `handler` and `tools` use the lower modules; the lower modules use
//! each other and `shared` (the [`Engine`] struct), `out` (result shapes) and `registry` (what a
//! tool is), never this file or `tools`. The tool table (`tools::registry`) is handed to
//! `registry` rather than read by it.

mod capture;
mod context;
mod dependent;
mod expression_guard;
mod functions;
mod guard;
mod handler;
pub mod ledger;
mod memory;
mod out;
mod preview;
mod recorder;
mod registry;
mod render;
mod resources;
mod scan;
mod shared;
mod shell;
pub mod signals;
mod snapshot;
pub(crate) mod sources;
mod state;
mod tools;
mod validate;
mod values;
mod watchdog;

pub use context::{CallContext, Confirmer, ToolError};
/// What in an expression looks like it changes the program (the guard's reading), for a
/// backend that writes an expression out (a C macro's body).
pub use expression_guard::detect as side_effect;
pub use handler::McpHandler;
pub use shared::Engine;

use crate::backend::{
    Backend, BackendEvent, ControlOp, EventStream, PauseReason, SessionInfo, SessionState,
};
use crate::config::{Config, ToolProfile};
use crate::history::{History, HistoryEntry};
use context::Call;
use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Value, json};
use state::{BpMeta, EngineState, OUTPUT_LINES, PauseInfo, SessionSlot};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

impl Engine {
    /// Creates the engine and starts consuming backend events on the current Tokio runtime.
    pub fn new(backend: Arc<dyn Backend>, events: EventStream, config: Config) -> Arc<Self> {
        let history = History::new(config.history_size, config.history_max_bytes);
        let bounds = ledger::Bounds {
            entries_per_session: config.memory.max_entries_per_session,
            sessions: config.memory.max_sessions,
        };
        let engine = Arc::new_cyclic(|weak| Self {
            backend,
            config: RwLock::new(Arc::new(config)),
            history,
            state: Mutex::new(EngineState::default()),
            info: tokio::sync::OnceCell::new(),
            backend_name: OnceLock::new(),
            roots: Mutex::new(HashMap::new()),
            watch_lock: tokio::sync::Mutex::new(()),
            ledger: ledger::Ledger::new(bounds),
            watchdog: watchdog::Watchdog::default(),
            subscribers: resources::Subscribers::default(),
            end_with_client_default: std::sync::atomic::AtomicBool::new(false),
            weak: weak.clone(),
        });
        tokio::spawn(event_loop(Arc::downgrade(&engine), events));
        tokio::spawn(watchdog::run(Arc::downgrade(&engine)));
        engine
    }

    /// What happens to a client's debug sessions when its MCP session ends, unless the settings
    /// say (`end_sessions_with_client`): `debugger-mcp serve` ends them, the IDE keeps them.
    pub fn set_end_sessions_with_client_default(&self, end: bool) {
        self.end_with_client_default
            .store(end, std::sync::atomic::Ordering::Relaxed);
    }

    /// The MCP server handler to serve over HTTP, SSE or stdio. Cheap to clone.
    pub fn handler(self: &Arc<Self>) -> McpHandler {
        McpHandler::new(self.clone())
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn config(&self) -> Config {
        (*self.cfg()).clone()
    }

    /// Applies new settings (e.g. after the TOML file changed).
    pub fn set_config(&self, config: Config) {
        self.ledger.set_bounds(ledger::Bounds {
            entries_per_session: config.memory.max_entries_per_session,
            sessions: config.memory.max_sessions,
        });
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(config);
    }

    /// The full tool list (built once per process).
    pub fn tools(&self) -> Arc<Vec<Tool>> {
        tools::registry().tools.clone()
    }

    /// The tool list of a profile (`full`: one tool per operation; `compact`: the `debugger`
    /// router).
    pub fn tools_for(&self, profile: ToolProfile) -> Arc<Vec<Tool>> {
        tools::registry().tools_for(profile)
    }

    /// The profile of this process's configuration (clients may override it per connection).
    pub fn tool_profile(&self) -> ToolProfile {
        self.cfg().tool_profile
    }

    /// Subscribers to resource updates still open (initialize-era sessions and 2026-07-28
    /// listen streams); a closed stream must leave none behind.
    pub fn live_subscribers(&self) -> usize {
        self.subscribers.live()
    }

    /// A tool of either profile by name.
    pub fn tool(&self, name: &str) -> Option<Tool> {
        let r = tools::registry();
        r.specs
            .get(name)
            .map(|s| s.tool.clone())
            .or_else(|| r.compact.iter().find(|t| t.name == name).cloned())
    }

    /// The JSON Schema a tool's `structuredContent` follows (not advertised in `tools/list`).
    pub fn output_schema(&self, name: &str) -> Option<Value> {
        tools::registry().specs.get(name).map(|s| s.output.clone())
    }

    /// Runs one tool call: validation, the tool, history. Never panics on bad input; every
    /// failure is an `isError` result whose text says what to do.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        ctx: &CallContext,
    ) -> CallToolResult {
        let started = Instant::now();
        let args = if arguments.is_null() {
            json!({})
        } else {
            arguments
        };
        // The compact profile's router names the operation in `op`; from here on the call is
        // that operation's (validation, history, errors), so both profiles behave the same.
        let (name, args, outcome) = if name == registry::ROUTER {
            match tools::registry().route(args.clone()) {
                Ok(registry::Routed::Tool(op, rest)) => (op, rest, None),
                Ok(registry::Routed::Help(v)) => (registry::HELP.to_string(), args, Some(Ok(v))),
                Err(e) => (name.to_string(), args, Some(Err(e))),
            }
        } else {
            (name.to_string(), args, None)
        };
        let name = name.as_str();
        let cfg = self.cfg();
        let mut call = Call {
            engine: self,
            ctx,
            cfg,
            project: None,
        };
        let activity = self.watchdog.call_started();
        let outcome = match outcome {
            Some(done) => done,
            None => match tools::registry().specs.get(name) {
                None => Err(ToolError(format!(
                    "unknown tool '{}'; tools/list shows the available tools",
                    name.chars().take(80).collect::<String>()
                ))),
                Some(spec) => match validate::check(name, spec, &args) {
                    Err(message) => Err(ToolError(message)),
                    Ok(()) => tools::dispatch(&mut call, name, &args).await,
                },
            },
        };
        drop(activity);
        // What the watchdog did since the agent's last call: the agent must learn it at once.
        let outcome = watchdog::attach_notices(self.watchdog.take_notices(), outcome);
        // Keyed by the project the call resolved to, never by what the client sent: a unique
        // `project_path` per call must not open a new history each time. Calls that failed
        // before resolving one are kept under "" (their parameters still show what was sent).
        let project = call.project.clone().unwrap_or_default();
        let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        let time_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        let (result, status, recorded, error) = match outcome {
            Ok(value) => {
                // structuredContent: the result as its type serialises it (no nulls, no
                // default-false flags: `skip_serializing_if` in the result types); text: the
                // compact rendering a model reads (paths relative to the project).
                let text = render::text(name, &value, call.project.as_deref());
                let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
                r.structured_content = Some(value.clone());
                (r, "ok", Some(value), None)
            }
            Err(ToolError(message)) => (
                CallToolResult::error(vec![ContentBlock::text(message.clone())]),
                "error",
                None,
                Some(message),
            ),
        };
        self.history.record(HistoryEntry {
            id: 0,
            time_ms,
            project,
            tool: name.to_string(),
            params: args,
            status: status.into(),
            duration_ms,
            result: recorded,
            error,
        });
        result
    }

    fn apply_event(&self, event: BackendEvent) {
        // An ended session stays ended: a stop reported after its end (a step or a pause in
        // flight when another client stopped it) is the adapter's late word, not a new pause.
        if let BackendEvent::Paused { session_id, .. } = &event
            && self.with_state(|s| {
                s.sessions
                    .get(session_id)
                    .is_some_and(|x| x.state() == SessionState::Stopped)
            })
        {
            tracing::debug!(session = %session_id, "pause reported after the session ended: ignored");
            return;
        }
        // A pause at a breakpoint others wait for (`after`): those the core keeps disabled in
        // the backend are enabled before anyone sees the pause (the recorder and capture resume
        // at once), then the pause goes on as if just received.
        if let BackendEvent::Paused {
            session_id,
            reason,
            breakpoint_ids,
            description,
            ..
        } = &event
        {
            let enable = self.with_state(|s| {
                let mut hit = breakpoint_ids.clone();
                if *reason == PauseReason::Exception && hit.is_empty() {
                    let project = s.sessions.get(session_id).and_then(|x| x.project.clone());
                    hit.extend(exception_breakpoint_hit(
                        s,
                        project.as_deref(),
                        description.as_deref(),
                    ));
                }
                dependent::arm(s, &hit)
            });
            if !enable.is_empty()
                && let Some(engine) = self.weak.upgrade()
            {
                tokio::spawn(async move {
                    engine.set_backend_enabled(enable, true).await;
                    engine.apply_event(event);
                });
                return;
            }
        }
        // Pauses of a call recording are the recorder's: the agent sees the program running.
        if let BackendEvent::Paused {
            session_id,
            thread_id,
            reason,
            breakpoint_ids,
            description,
            ..
        } = &event
        {
            let stop = self.with_state(|s| {
                recorder::route(
                    s,
                    session_id,
                    thread_id,
                    *reason,
                    breakpoint_ids,
                    description.as_deref(),
                )
            });
            if let (Some(stop), Some(engine)) = (stop, self.weak.upgrade()) {
                let (sid, thread) = (session_id.clone(), thread_id.clone());
                tokio::spawn(async move { engine.on_record_stop(&sid, &thread, stop).await });
                return;
            }
        }
        let mut after_pause = None;
        let mut late = None;
        let mut updated: Vec<String> = Vec::new();
        let mut ended = None;
        // Dependent breakpoints the backend must switch: (project, id), on or off.
        let mut switch: Vec<(Vec<(String, String)>, bool)> = Vec::new();
        self.with_state(|s| match event {
            BackendEvent::SessionStarted { session } => {
                // Hit counts are per debug session: a fresh one starts every breakpoint at 0.
                if !s.sessions.contains_key(&session.id) {
                    s.breakpoints.values_mut().for_each(|m| m.hits = 0);
                }
                let slot = s
                    .sessions
                    .entry(session.id.clone())
                    .or_insert_with(|| SessionSlot::new(session.clone(), None));
                let state = slot.info.state;
                slot.info = session;
                // A pause (or the end) may have been seen already; do not go back to "starting".
                if matches!(state, SessionState::Paused | SessionState::Stopped) {
                    slot.info.state = state;
                }
                slot.notify();
                self.ledger
                    .open(&slot.info.id, &slot.info.name, slot.project.as_deref());
                self.watchdog.session_started(&slot.info.id);
            }
            BackendEvent::Paused {
                session_id,
                thread_id,
                reason,
                breakpoint_ids,
                description,
            } => {
                for id in &breakpoint_ids {
                    s.breakpoints.entry(id.clone()).or_default().hits += 1;
                }
                // Adapters name no breakpoint for an exception stop: it counts as a hit of the
                // exception breakpoint that caused it, or the summary says "0 hits".
                if reason == PauseReason::Exception && breakpoint_ids.is_empty() {
                    let project = s.sessions.get(&session_id).and_then(|x| x.project.clone());
                    if let Some(id) =
                        exception_breakpoint_hit(s, project.as_deref(), description.as_deref())
                    {
                        s.breakpoints.entry(id).or_default().hits += 1;
                    }
                }
                let agent_breakpoint = breakpoint_ids
                    .iter()
                    .any(|id| s.breakpoints.get(id).is_some_and(|m| m.agent));
                let slot = s.sessions.entry(session_id.clone()).or_insert_with(|| {
                    SessionSlot::new(
                        SessionInfo {
                            id: session_id.clone(),
                            name: session_id.clone(),
                            ..Default::default()
                        },
                        None,
                    )
                });
                if !slot.set_state(SessionState::Paused) {
                    return;
                }
                slot.invalidate();
                slot.pause_seq += 1;
                slot.selected_frame = 0;
                slot.current_thread = Some(thread_id.clone());
                slot.pause = Some(PauseInfo {
                    thread_id: thread_id.clone(),
                    reason,
                    breakpoint_ids: breakpoint_ids.clone(),
                    description: description.clone(),
                });
                // A read's pause that came after the read gave up on it (or a second one it
                // asked): nobody waits for this stop, so it is resumed at once.
                if reason == PauseReason::Pause
                    && let Some((n, until)) = slot.late_pause.take()
                    && until.is_none_or(|t| Instant::now() < t)
                {
                    slot.late_pause = (n > 1).then_some((n - 1, until));
                    late = Some((session_id.clone(), thread_id.clone(), slot.pause_seq));
                }
                slot.notify();
                let by_agent = self
                    .watchdog
                    .paused(&session_id, slot.pause_seq, agent_breakpoint);
                self.ledger
                    .open(&session_id, &slot.info.name, slot.project.as_deref());
                self.ledger.pause(
                    &session_id,
                    ledger::PauseRecord {
                        time_ms: ledger::now_ms(),
                        at: ledger::At {
                            step: slot.pause_seq,
                            thread: Some(thread_id),
                            ..Default::default()
                        },
                        reason: state::reason_name(reason).into(),
                        description,
                        breakpoint_ids: breakpoint_ids.clone(),
                        by_agent,
                    },
                );
                updated.extend(resources::on_pause(&session_id));
                if let Some(p) = slot.project.clone() {
                    s.current.insert(p, session_id.clone());
                }
                after_pause = Some((session_id, breakpoint_ids));
            }
            BackendEvent::Resumed { session_id } => {
                self.watchdog.left_pause(&session_id);
                if let Some(slot) = s.sessions.get_mut(&session_id) {
                    slot.invalidate();
                    slot.pause = None;
                    slot.set_state(SessionState::Running);
                    slot.notify();
                }
            }
            BackendEvent::Stopped {
                session_id,
                exit_code,
            } => {
                if let Some(slot) = s.sessions.get_mut(&session_id) {
                    slot.invalidate();
                    slot.pause = None;
                    slot.exit_code = exit_code;
                    slot.set_state(SessionState::Stopped);
                    slot.notify();
                }
                // Ended by the agent's own stop (or capture's): it knows; the only other live
                // session may then be the default again.
                let deliberate = s.sessions.get(&session_id).is_some_and(|x| {
                    x.stop_asked_by
                        .is_some_and(|by| by == state::BY_STOP_TOOL || by == state::BY_CAPTURE)
                });
                let roots: Vec<String> = s
                    .current
                    .iter()
                    .filter(|(_, v)| **v == session_id)
                    .map(|(r, _)| r.clone())
                    .collect();
                for r in roots {
                    s.current.remove(&r);
                    if deliberate {
                        s.ended_current.remove(&r);
                    } else {
                        s.ended_current.insert(r, session_id.clone());
                    }
                }
                s.calls
                    .abandon(&session_id, "(unfinished: the program ended)");
                switch.push((dependent::disarm(s, &session_id), false));
                self.watchdog.left_pause(&session_id);
                self.ledger.end(&session_id, exit_code);
                ended = Some(session_id.clone());
                updated.extend(resources::on_stop(&session_id));
            }
            BackendEvent::Output {
                session_id,
                category,
                text,
            } => {
                if let Some(slot) = s.sessions.get_mut(&session_id) {
                    if slot.output.len() >= OUTPUT_LINES {
                        slot.output.pop_front();
                    }
                    slot.output.push_back((category, text));
                    slot.output_total += 1;
                    updated.push(resources::output_uri(&session_id));
                }
            }
            BackendEvent::BreakpointChanged { breakpoint } => {
                let meta = s
                    .breakpoints
                    .entry(breakpoint.id.clone())
                    .or_insert_with(BpMeta::default);
                meta.observe(breakpoint);
                updated.push(resources::BREAKPOINTS.into());
            }
            BackendEvent::TriggerEnded {
                session_id,
                command,
                exit_code,
                output,
                output_bytes,
            } => {
                if let Some(slot) = s.sessions.get_mut(&session_id) {
                    let t = slot.trigger.get_or_insert_with(|| state::Trigger {
                        command,
                        ..Default::default()
                    });
                    t.ended = Some((exit_code, output, output_bytes));
                    slot.notify();
                }
            }
            BackendEvent::BreakpointRemoved { id } => {
                // One stop_debug_session removed stays known to the summary of its session.
                if !s.breakpoints.get(&id).is_some_and(|m| m.removed) {
                    s.breakpoints.remove(&id);
                }
                switch.push((dependent::master_gone(s, &id).1, true));
                updated.push(resources::BREAKPOINTS.into());
            }
        });
        if let Some(sid) = ended {
            // After the state lock is released: rendering the summary reads the state again.
            self.write_session_files(&sid);
        }
        self.subscribers.notify(updated);
        for (list, on) in switch {
            if !list.is_empty()
                && let Some(engine) = self.weak.upgrade()
            {
                tokio::spawn(async move { engine.set_backend_enabled(list, on).await });
            }
        }
        if let Some((sid, bps)) = after_pause
            && let Some(engine) = self.weak.upgrade()
        {
            tokio::spawn(async move { engine.after_pause(&sid, &bps).await });
        }
        if let Some((sid, thread, seq)) = late
            && let Some(engine) = self.weak.upgrade()
        {
            tokio::spawn(async move { engine.resume_late_pause(&sid, &thread, seq).await });
        }
    }

    /// A call the engine makes of itself (after an event), with no client's project.
    fn own_call<'a>(&'a self, ctx: &'a CallContext) -> Call<'a> {
        Call {
            engine: self,
            ctx,
            cfg: self.cfg(),
            project: None,
        }
    }

    /// Resumes the stop of a read's pause nobody waits for any more (`late_pause`), unless the
    /// session has moved on since, and counts it for the next read's answer.
    async fn resume_late_pause(&self, sid: &str, thread: &str, seq: u64) {
        let ctx = CallContext::default();
        let call = self.own_call(&ctx);
        let still = self.with_state(|s| {
            s.sessions
                .get(sid)
                .is_some_and(|x| x.pause_seq == seq && x.state() == SessionState::Paused)
        });
        if !still {
            return;
        }
        let Ok(sub) = call.subscribe(sid) else {
            return;
        };
        let backend = self.backend.clone();
        if call
            .bk(
                "control",
                backend.control(sid, Some(thread), ControlOp::Resume),
            )
            .await
            .is_ok()
        {
            tools::left_pause(&call, sid, sub.seq);
            self.with_state(|s| {
                if let Some(x) = s.sessions.get_mut(sid) {
                    x.late_pauses_resumed += 1;
                }
            });
        }
    }

    /// Work a pause triggers: temporary breakpoints go away, watches are evaluated.
    async fn after_pause(&self, sid: &str, bps: &[String]) {
        let ctx = CallContext::default();
        let call = self.own_call(&ctx);
        tools::breakpoints::remove_temporary(&call, sid, bps).await;
        // Where the pause happened, for the ledger (summary path, history locations).
        let found = self.with_state(|s| {
            s.sessions
                .get(sid)
                .and_then(|x| Some((x.current_thread.clone()?, x.pause_seq)))
        });
        if let Some((thread, seq)) = found
            && call.frame(sid, &thread, 0).await.is_ok()
        {
            let at = self.at(sid, Some(&thread), 0);
            if at.step == seq {
                self.ledger.locate_pause(sid, seq, &at);
            }
        }
        snapshot::refresh_watches(&call, sid).await;
    }
}

async fn event_loop(engine: Weak<Engine>, mut events: EventStream) {
    while let Some(event) = events.recv().await {
        let Some(engine) = engine.upgrade() else {
            break;
        };
        engine.apply_event(event);
    }
}

/// The exception breakpoint an exception stop belongs to: the one whose class the description
/// names, else the only enabled one of the project.
fn exception_breakpoint_hit(
    s: &state::EngineState,
    project: Option<&str>,
    description: Option<&str>,
) -> Option<String> {
    let mut candidates: Vec<(&String, &str)> = s
        .breakpoints
        .iter()
        .filter(|(_, m)| {
            project.is_none() || m.project.is_none() || m.project.as_deref() == project
        })
        // A removed breakpoint stays listed for the summaries it was part of; it caused nothing.
        .filter(|(_, m)| !m.removed)
        .filter_map(|(id, m)| {
            let b = m.last.as_ref()?;
            (b.kind == crate::backend::BreakpointKind::Exception && b.enabled)
                .then(|| (id, b.exception.as_deref().unwrap_or("")))
        })
        .collect();
    candidates.sort();
    let named = description.and_then(|d| {
        candidates
            .iter()
            .find(|(_, e)| !e.is_empty() && d.contains(e))
    });
    match (named, candidates.len()) {
        (Some((id, _)), _) => Some((*id).clone()),
        (None, 1) => Some(candidates[0].0.clone()),
        _ => None,
    }
}
