//! MCP resources and prompts (seed 003 "Phase 2"): read-only views an agent (or its client) can
//! pull into context or subscribe to, and prompt templates that start the usual debugging flows.
//!
//! Resources: `debugger://status`, `debugger://breakpoints`, `debugger://sessions`,
//! `debugger://history`, and per session `debugger://sessions/{id}/summary` (Markdown hand-off)
//! and `debugger://sessions/{id}/output` (console tail). Subscribers get
//! `notifications/resources/updated` when a session pauses or stops, output arrives, or a
//! breakpoint changes. Initialize-era clients subscribe with `resources/subscribe` and get the
//! updates on their session; 2026-07-28 clients name the URIs in `subscriptions/listen` and get
//! them on that request's stream. Both kinds of subscriber are fed by the same
//! [`Subscribers::notify`]. A subscription to a session this server has not seen yet is
//! accepted: a session id can be subscribed before the session exists.

use super::context::{Call, CallContext};
use super::memory::{category_name, clock};
use super::shared::Engine;
use super::state::{reason_name, state_name};
use crate::backend::SessionState;
use crate::history::HistoryFilter;
use rmcp::model::{
    Prompt, PromptArgument, PromptMessage, Resource, ResourceContents, ResourceTemplate, Role,
};
use rmcp::service::{Peer, RoleServer, SubscriptionSink};
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, Weak};

pub const STATUS: &str = "debugger://status";
pub const BREAKPOINTS: &str = "debugger://breakpoints";
pub const SESSIONS: &str = "debugger://sessions";
pub const HISTORY: &str = "debugger://history";
const SESSION_PREFIX: &str = "debugger://sessions/";
/// Output chunks a `.../output` resource shows (the tool pages through more).
const OUTPUT_TAIL: usize = 200;
/// History entries the history resource shows.
const HISTORY_TAIL: usize = 50;

pub fn summary_uri(sid: &str) -> String {
    format!("{SESSION_PREFIX}{sid}/summary")
}
pub fn output_uri(sid: &str) -> String {
    format!("{SESSION_PREFIX}{sid}/output")
}

/// URIs that change when a session pauses.
pub fn on_pause(sid: &str) -> Vec<String> {
    vec![
        STATUS.into(),
        SESSIONS.into(),
        HISTORY.into(),
        summary_uri(sid),
    ]
}

/// URIs that change when a session stops (or the watchdog moves it on).
pub fn on_stop(sid: &str) -> Vec<String> {
    vec![STATUS.into(), SESSIONS.into(), summary_uri(sid)]
}

/// Where a subscriber's updates go.
#[derive(Clone)]
enum Target {
    /// An initialize-era session: its standalone stream (HTTP GET, stdio, legacy SSE).
    Session(Peer<RoleServer>),
    /// One 2026-07-28 `subscriptions/listen` stream; rmcp's sink tags every notification with
    /// the listen request's id (`io.modelcontextprotocol/subscriptionId`).
    Listen(SubscriptionSink),
}

/// One connection's (or one listen stream's) subscriptions.
pub struct Subscriber {
    target: Target,
    uris: Mutex<HashSet<String>>,
}

impl Subscriber {
    pub fn new(peer: Peer<RoleServer>) -> Self {
        Self {
            target: Target::Session(peer),
            uris: Mutex::new(HashSet::new()),
        }
    }
    /// A listen stream's subscriber; it lives as long as the `listen` call holds it.
    pub fn listening(sink: SubscriptionSink, uris: impl IntoIterator<Item = String>) -> Self {
        Self {
            target: Target::Listen(sink),
            uris: Mutex::new(uris.into_iter().collect()),
        }
    }
    pub fn subscribe(&self, uri: &str) {
        self.uris
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(uri.to_string());
    }
    pub fn unsubscribe(&self, uri: &str) {
        self.uris
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(uri);
    }
    fn closed(&self) -> bool {
        match &self.target {
            Target::Session(peer) => peer.is_transport_closed(),
            // The listen call drops its subscriber when the stream ends; until then it is open.
            Target::Listen(_) => false,
        }
    }
}

impl Target {
    async fn updated(&self, uri: String) {
        // A client that went away cannot be told; the next read shows the state.
        match self {
            Target::Session(peer) => {
                let _ = peer
                    .notify_resource_updated(rmcp::model::ResourceUpdatedNotificationParam::new(
                        uri,
                    ))
                    .await;
            }
            Target::Listen(sink) => {
                let _ = sink.notify_resource_updated(uri).await;
            }
        }
    }
}

/// Checks a URI a 2026-07-28 client names in `subscriptions/listen`: one of the fixed resources
/// or a session's summary/output (the session need not exist yet). `Err` says which URIs exist.
pub fn check_subscribable(uri: &str) -> Result<(), String> {
    if [STATUS, BREAKPOINTS, SESSIONS, HISTORY].contains(&uri) {
        return Ok(());
    }
    let per_session = uri
        .strip_prefix(SESSION_PREFIX)
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(sid, what)| !sid.is_empty() && matches!(what, "summary" | "output"));
    if per_session {
        Ok(())
    } else {
        Err(unknown(uri))
    }
}

/// Every connection with subscriptions; closed connections are dropped as they are found.
#[derive(Default)]
pub struct Subscribers {
    list: Mutex<Vec<Weak<Subscriber>>>,
}

impl Subscribers {
    pub fn add(&self, sub: &Arc<Subscriber>) {
        self.list
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::downgrade(sub));
    }

    /// Sends `notifications/resources/updated` for each URI to the connections subscribed to it.
    /// Never blocks the caller (event handling): sending happens on a task.
    pub fn notify(&self, uris: Vec<String>) {
        if uris.is_empty() {
            return;
        }
        let mut targets = Vec::new();
        {
            let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
            list.retain(|w| w.upgrade().is_some_and(|s| !s.closed()));
            for sub in list.iter().filter_map(Weak::upgrade) {
                let wanted: Vec<String> = {
                    let subscribed = sub.uris.lock().unwrap_or_else(|e| e.into_inner());
                    let mut seen = HashSet::new();
                    uris.iter()
                        .filter(|u| subscribed.contains(*u) && seen.insert(*u))
                        .cloned()
                        .collect()
                };
                if !wanted.is_empty() {
                    targets.push((sub.target.clone(), wanted));
                }
            }
        }
        if targets.is_empty() {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        rt.spawn(async move {
            for (target, uris) in targets {
                for uri in uris {
                    target.updated(uri).await;
                }
            }
        });
    }

    /// Subscribers still alive (sessions not closed, listen streams not ended).
    pub fn live(&self) -> usize {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|w| w.upgrade().is_some_and(|s| !s.closed()));
        list.len()
    }
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{SESSION_PREFIX}{{id}}/summary"), "session-summary")
            .with_title("Session summary")
            .with_description("Markdown hand-off of a debug session: path taken, pauses, exceptions, values inspected and modified, breakpoints, output tail.")
            .with_mime_type("text/markdown"),
        ResourceTemplate::new(format!("{SESSION_PREFIX}{{id}}/output"), "session-output")
            .with_title("Session output")
            .with_description("The debuggee's latest stdout/stderr/tracepoint output (get_console_output pages through all of it).")
            .with_mime_type("text/plain"),
    ]
}

pub fn prompts() -> Vec<Prompt> {
    let session = || {
        PromptArgument::new("session_id")
            .with_description("Debug session id (default: the current one).")
            .with_required(false)
    };
    vec![
        Prompt::new(
            "debug-session-start",
            Some("Start debugging a problem: the workflow, the tools to use, and the current breakpoints and sessions."),
            Some(vec![
                PromptArgument::new("problem").with_description("What goes wrong, in a sentence.").with_required(false),
                PromptArgument::new("file").with_description("File you suspect, relative to the project.").with_required(false),
            ]),
        )
        .with_title("Start a debug session"),
        Prompt::new(
            "investigate-exception",
            Some("Investigate the last exception a session stopped on: where, what, and how to find the cause."),
            Some(vec![session()]),
        )
        .with_title("Investigate an exception"),
        Prompt::new(
            "inspect-paused-location",
            Some("Look at where a paused session stopped: location, values and the next steps."),
            Some(vec![session()]),
        )
        .with_title("Inspect the paused location"),
    ]
}

impl Engine {
    /// The fixed resources plus one summary and one output resource per remembered session.
    pub(super) fn resource_list(&self) -> Vec<Resource> {
        let mut out = vec![
            Resource::new(STATUS, "status").with_title("Debugger status").with_description("Sessions with state, step, pause reason and location; watchdog settings.").with_mime_type("application/json"),
            Resource::new(BREAKPOINTS, "breakpoints").with_title("Breakpoints").with_description("Breakpoints of the open projects with owner, verification and hits.").with_mime_type("application/json"),
            Resource::new(SESSIONS, "sessions").with_title("Debug sessions").with_description("Debug sessions this server saw, live and ended, with their summary and output URIs.").with_mime_type("application/json"),
            Resource::new(HISTORY, "history").with_title("Tool call history").with_description("The latest tool calls with status and duration.").with_mime_type("application/json"),
        ];
        for sid in self.ledger.session_ids(None) {
            out.push(
                Resource::new(summary_uri(&sid), format!("summary-{sid}"))
                    .with_title(format!("Summary of session {sid}"))
                    .with_mime_type("text/markdown"),
            );
            out.push(
                Resource::new(output_uri(&sid), format!("output-{sid}"))
                    .with_title(format!("Output of session {sid}"))
                    .with_mime_type("text/plain"),
            );
        }
        out
    }

    /// Reads a resource; `Err` carries a message that says which URIs exist.
    pub(super) async fn read_resource(&self, uri: &str) -> Result<ResourceContents, String> {
        let json_doc = |v: Value| {
            Ok(ResourceContents::TextResourceContents {
                uri: uri.into(),
                mime_type: Some("application/json".into()),
                text: v.to_string(),
                meta: None,
            })
        };
        match uri {
            STATUS => json_doc(self.status_json()),
            SESSIONS => json_doc(self.sessions_json()),
            HISTORY => json_doc(self.history_json()),
            BREAKPOINTS => json_doc(self.breakpoints_json().await),
            _ => {
                let rest = uri
                    .strip_prefix(SESSION_PREFIX)
                    .ok_or_else(|| unknown(uri))?;
                let (sid, what) = rest.rsplit_once('/').ok_or_else(|| unknown(uri))?;
                if !self.ledger.contains(sid) {
                    let known = self.ledger.session_ids(None);
                    return Err(format!(
                        "no debug session '{sid}' in {uri}; known sessions: {}",
                        if known.is_empty() {
                            "none yet".into()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
                match what {
                    "summary" => {
                        let md = self.summary_markdown(sid).unwrap_or_default();
                        Ok(ResourceContents::TextResourceContents {
                            uri: uri.into(),
                            mime_type: Some("text/markdown".into()),
                            text: md,
                            meta: None,
                        })
                    }
                    "output" => Ok(ResourceContents::TextResourceContents {
                        uri: uri.into(),
                        mime_type: Some("text/plain".into()),
                        text: self.output_text(sid),
                        meta: None,
                    }),
                    _ => Err(unknown(uri)),
                }
            }
        }
    }

    fn status_json(&self) -> Value {
        let cfg = self.cfg();
        let sessions: Vec<Value> = self.with_state(|s| {
            let mut v: Vec<Value> = s
                .sessions
                .iter()
                .map(|(id, x)| {
                    let mut m = Map::new();
                    m.insert("id".into(), json!(id));
                    m.insert("name".into(), json!(x.info.name));
                    m.insert("state".into(), json!(state_name(x.state())));
                    m.insert("project".into(), json!(x.project));
                    m.insert(
                        "is_current".into(),
                        json!(
                            x.project
                                .as_ref()
                                .is_some_and(|p| s.current.get(p) == Some(id))
                        ),
                    );
                    if let (SessionState::Paused, Some(p)) = (x.state(), &x.pause) {
                        m.insert("step".into(), json!(x.pause_seq));
                        m.insert("reason".into(), json!(reason_name(p.reason)));
                        if let Some(d) = &p.description {
                            m.insert("description".into(), json!(d));
                        }
                    }
                    if x.state() == SessionState::Stopped {
                        m.insert("exit_code".into(), json!(x.exit_code));
                    }
                    Value::Object(m)
                })
                .collect();
            v.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
            v
        });
        // Locations come from the ledger (the engine state keeps no location between calls).
        let sessions: Vec<Value> = sessions
            .into_iter()
            .map(|mut s| {
                if s.get("step").is_some() {
                    let sid = s["id"].as_str().unwrap_or_default().to_string();
                    if let Some(p) = self.ledger.get(&sid).and_then(|l| l.pauses.back().cloned()) {
                        s["location"] = json!(p.at.place());
                    }
                }
                s
            })
            .collect();
        json!({"sessions": sessions, "watchdog": {"enabled": cfg.watchdog.enabled, "idle_seconds": cfg.watchdog.idle_seconds, "action": cfg.watchdog.action}})
    }

    fn sessions_json(&self) -> Value {
        let ids = self.ledger.session_ids(None);
        let list: Vec<Value> = ids
            .iter()
            .filter_map(|sid| {
                let l = self.ledger.get(sid)?;
                let state = self.with_state(|s| s.sessions.get(sid).map(|x| state_name(x.state()))).unwrap_or("stopped");
                Some(json!({
                    "id": sid, "name": l.name, "project": l.project, "state": state, "started": clock(l.started_ms),
                    "ended": l.ended_ms.map(clock), "exit_code": l.exit_code, "pauses": l.pauses.len(), "values_read": l.entries.len(),
                    "summary_uri": summary_uri(sid), "output_uri": output_uri(sid),
                }))
            })
            .collect();
        json!({"sessions": list})
    }

    fn history_json(&self) -> Value {
        let entries = self.history.entries(&HistoryFilter {
            limit: Some(HISTORY_TAIL),
            ..Default::default()
        });
        let list: Vec<Value> = entries
            .iter()
            .map(|e| {
                let mut v = json!({"id": e.id, "time": clock(e.time_ms), "tool": e.tool, "status": e.status, "duration_ms": (e.duration_ms * 10.0).round() / 10.0});
                if let Some(err) = &e.error {
                    v["error"] = json!(err);
                }
                v
            })
            .collect();
        json!({"calls": list, "note": format!("newest first, at most {HISTORY_TAIL}")})
    }

    async fn breakpoints_json(&self) -> Value {
        let timeout = std::time::Duration::from_millis(self.cfg().backend_timeout_ms);
        let projects = match tokio::time::timeout(timeout, self.backend.projects()).await {
            Ok(Ok(p)) => p,
            Ok(Err(e)) => return json!({"error": e.to_string()}),
            Err(_) => return json!({"error": "the debugger did not list its projects in time"}),
        };
        let ctx = CallContext::default();
        let mut out = Vec::new();
        for p in projects {
            let mut call = Call {
                engine: self,
                ctx: &ctx,
                cfg: self.cfg(),
                project: None,
            };
            let listed = super::tools::dispatch(
                &mut call,
                "list_breakpoints",
                &json!({"project_path": p.root}),
            )
            .await;
            out.push(match listed {
                Ok(v) => json!({"project": p.root, "breakpoints": v["breakpoints"]}),
                Err(e) => json!({"project": p.root, "error": e.0}),
            });
        }
        json!({"projects": out})
    }

    fn output_text(&self, sid: &str) -> String {
        self.with_state(|s| {
            let Some(x) = s.sessions.get(sid) else {
                return String::new();
            };
            let skip = x.output.len().saturating_sub(OUTPUT_TAIL);
            let mut text = String::new();
            if x.output_total > (x.output.len() - skip) as u64 {
                text.push_str(&format!(
                    "[… {} earlier chunks; get_console_output pages through what is kept]\n",
                    x.output_total - (x.output.len() - skip) as u64
                ));
            }
            for (cat, t) in x.output.iter().skip(skip) {
                if *cat != crate::backend::OutputCategory::Stdout {
                    text.push_str(&format!("[{}] ", category_name(*cat)));
                }
                text.push_str(t.trim_end_matches('\n'));
                text.push('\n');
            }
            text
        })
    }

    /// A prompt's messages; `Err` names the unknown prompt or argument problem.
    pub(super) fn prompt_messages(
        &self,
        name: &str,
        args: &Map<String, Value>,
    ) -> Result<(String, Vec<PromptMessage>), String> {
        let arg = |k: &str| {
            args.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .filter(|s| !s.is_empty())
        };
        match name {
            "debug-session-start" => {
                let mut text = String::from(
                    "Debug this with the debugger tools, reading as little as possible.\n",
                );
                if let Some(p) = arg("problem") {
                    text.push_str(&format!("Problem: {p}\n"));
                }
                if let Some(f) = arg("file") {
                    text.push_str(&format!("Suspected file: {f}\n"));
                }
                text.push_str(
                    "1. Form a hypothesis from the code first (get_source_context).\n\
                     2. One call to the first answer: start_debug_session (run_configuration or command) with breakpoints on the lines that decide it (a condition avoids stopping in every loop iteration) and evaluate: the expressions that test it; stop_on_exception: true if you do not know where it fails.\n\
                     3. Only recording breakpoints ({function, on_hit: 'record'}): the run goes to its end and the answer lists every call.\n\
                     4. At a stop, read only what tests the hypothesis: evaluate_expression, expand_variable by path, get_debug_session_status.\n\
                     5. step_over / run_to_line / resume, each with evaluate; get_debug_history answers what a value was earlier.\n\
                     6. get_session_summary hands over what you found. Nothing to tidy: your breakpoints and sessions go when your MCP session ends.\n",
                );
                text.push_str(&format!("Current state: {}", self.status_json()));
                Ok((
                    "Start debugging".into(),
                    vec![PromptMessage::new_text(Role::User, text)],
                ))
            }
            "investigate-exception" => {
                let sid = self.prompt_session(arg("session_id"))?;
                let l = self
                    .ledger
                    .get(&sid)
                    .ok_or_else(|| format!("no debug session '{sid}'"))?;
                let text = match l.pauses.iter().rev().find(|p| p.reason == "exception") {
                    Some(p) => format!(
                        "Session {sid} stopped on an exception at step {} at {}{}: {}\n\
                         Find the cause, not just the symptom:\n\
                         1. get_debug_session_status for the stack, locals and source at the raise.\n\
                         2. get_stack_trace, then select_stack_frame on the first project frame to see the caller's values.\n\
                         3. evaluate_expression / expand_variable on the values the failing line uses.\n\
                         4. get_debug_history for how those values changed before the exception.\n\
                         5. Report the root cause with the line and values; get_session_summary hands off.",
                        p.at.step,
                        p.at.place(),
                        p.at.function
                            .as_ref()
                            .map(|f| format!(" in {f}"))
                            .unwrap_or_default(),
                        p.description
                            .as_deref()
                            .unwrap_or("(the debugger gave no exception text)")
                    ),
                    None => format!(
                        "Session {sid} has not stopped on an exception yet. Use set_breakpoint with exception_class (debugpy: 'raised' or 'uncaught'; Java: the class name), or start_debug_session with stop_on_exception: true, then resume and investigate where it stops."
                    ),
                };
                Ok((
                    "Investigate an exception".into(),
                    vec![PromptMessage::new_text(Role::User, text)],
                ))
            }
            "inspect-paused-location" => {
                let sid = self.prompt_session(arg("session_id"))?;
                let paused = self.with_state(|s| {
                    s.sessions
                        .get(&sid)
                        .is_some_and(|x| x.state() == SessionState::Paused)
                });
                let l = self
                    .ledger
                    .get(&sid)
                    .ok_or_else(|| format!("no debug session '{sid}'"))?;
                let text = match l.pauses.back().filter(|_| paused) {
                    Some(p) => format!(
                        "Session {sid} is paused at {}{} (step {}, {}).\n\
                         1. get_debug_session_status (locals, watches, source around the line).\n\
                         2. Compare the values with what the code expects at this line; expand only what matters (expand_variable by path).\n\
                         3. Decide: step_over to see the next line, step_into a suspicious call, or run_to_line further on.\n\
                         Values read earlier are in get_debug_history.",
                        p.at.place(),
                        p.at.function
                            .as_ref()
                            .map(|f| format!(" in {f}"))
                            .unwrap_or_default(),
                        p.at.step,
                        p.reason
                    ),
                    None => format!(
                        "Session {sid} is not paused. Use wait_for_pause, pause, or set a breakpoint and resume."
                    ),
                };
                Ok((
                    "Inspect the paused location".into(),
                    vec![PromptMessage::new_text(Role::User, text)],
                ))
            }
            other => Err(format!(
                "unknown prompt '{other}'; prompts: debug-session-start, investigate-exception, inspect-paused-location"
            )),
        }
    }

    /// The requested session, else the current one of any project, else the newest remembered.
    fn prompt_session(&self, requested: Option<String>) -> Result<String, String> {
        if let Some(id) = requested {
            return if self.ledger.contains(&id) {
                Ok(id)
            } else {
                Err(format!(
                    "unknown session_id '{id}'; known: {}",
                    self.ledger.session_ids(None).join(", ")
                ))
            };
        }
        let current = self.with_state(|s| s.current.values().next().cloned());
        current
            .or_else(|| self.ledger.session_ids(None).pop())
            .ok_or_else(|| "no debug session yet; start one with start_debug_session".to_string())
    }
}

fn unknown(uri: &str) -> String {
    format!(
        "unknown resource '{uri}'; resources: {STATUS}, {BREAKPOINTS}, {SESSIONS}, {HISTORY}, {SESSION_PREFIX}{{id}}/summary, {SESSION_PREFIX}{{id}}/output"
    )
}
