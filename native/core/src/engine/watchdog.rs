//! The idle watchdog (seed 004 REQ-9): a session the agent left paused with no tool call for
//! `watchdog.idle_seconds` is resumed or stopped (`watchdog.action`), so a frozen debuggee does
//! not hold locks, connections or containers forever. The next tool result and the session
//! summary say what was done and when.
//!
//! Only the agent's pauses count. A pause is the agent's when it follows an agent control call
//! (step/resume/run_to_line/pause, or a launch through a tool) or stops at a breakpoint the agent
//! set; a pause the IDE user made (their own resume/step/pause, their breakpoints) is left alone.

use super::context::ToolError;
use super::ledger::now_ms;
use super::memory::clock;
use super::shared::Engine;
use crate::backend::{ControlOp, SessionState};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

/// How often paused sessions are checked; the reaction time is idle_seconds plus at most this.
const TICK: Duration = Duration::from_millis(250);

#[derive(Default)]
pub struct Watchdog {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    last_call: Option<Instant>,
    in_flight: u32,
    /// Launches through a tool in progress: sessions that start meanwhile are the agent's.
    launching: u32,
    /// Sessions whose next pause follows an agent control call.
    armed: HashSet<String>,
    /// Agent-owned pauses: session → (step, paused at).
    paused: HashMap<String, (u64, Instant)>,
    /// What the watchdog did, for the next tool result.
    notices: Vec<Value>,
}

/// Marks a tool call in flight for as long as it lives (no firing while the agent is active).
pub struct Activity<'a>(&'a Watchdog);

impl Drop for Activity<'_> {
    fn drop(&mut self) {
        let mut i = self.0.lock();
        i.in_flight = i.in_flight.saturating_sub(1);
        i.last_call = Some(Instant::now());
    }
}

/// Counts a launch in flight while it lives.
pub struct Launch<'a>(&'a Watchdog);

impl Drop for Launch<'_> {
    fn drop(&mut self) {
        let mut i = self.0.lock();
        i.launching = i.launching.saturating_sub(1);
    }
}

impl Watchdog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn call_started(&self) -> Activity<'_> {
        let mut i = self.lock();
        i.in_flight += 1;
        i.last_call = Some(Instant::now());
        Activity(self)
    }

    pub fn launch_started(&self) -> Launch<'_> {
        self.lock().launching += 1;
        Launch(self)
    }

    /// The agent is about to send a control op (or launched) `sid`: its next pause is the agent's.
    pub fn arm(&self, sid: &str) {
        self.lock().armed.insert(sid.to_string());
    }

    pub fn session_started(&self, sid: &str) {
        let mut i = self.lock();
        if i.launching > 0 {
            i.armed.insert(sid.to_string());
        }
    }

    /// A pause arrived; returns whether it is the agent's.
    pub fn paused(&self, sid: &str, step: u64, agent_breakpoint: bool) -> bool {
        let mut i = self.lock();
        let armed = i.armed.remove(sid);
        let by_agent = armed || agent_breakpoint || (i.launching > 0 && step == 1);
        if by_agent {
            i.paused.insert(sid.to_string(), (step, Instant::now()));
        } else {
            i.paused.remove(sid);
        }
        by_agent
    }

    pub fn left_pause(&self, sid: &str) {
        self.lock().paused.remove(sid);
    }

    pub fn take_notices(&self) -> Vec<Value> {
        std::mem::take(&mut self.lock().notices)
    }

    /// Agent pauses idle for `idle`, removed from the watch list (acted on once).
    fn due(&self, idle: Duration) -> Vec<(String, u64)> {
        let mut i = self.lock();
        if i.in_flight > 0 {
            return Vec::new();
        }
        let last_call = i.last_call;
        let due: Vec<(String, u64)> = i
            .paused
            .iter()
            .filter(|(_, (_, at))| last_call.map_or(*at, |c| c.max(*at)).elapsed() >= idle)
            .map(|(sid, (step, _))| (sid.clone(), *step))
            .collect();
        for (sid, _) in &due {
            i.paused.remove(sid);
        }
        due
    }
}

/// Puts the watchdog's notices on the tool result: a `watchdog` field on success, a sentence
/// on errors.
pub fn attach_notices(
    notices: Vec<Value>,
    outcome: Result<Value, ToolError>,
) -> Result<Value, ToolError> {
    if notices.is_empty() {
        return outcome;
    }
    match outcome {
        Ok(Value::Object(mut m)) => {
            m.insert("watchdog".into(), Value::Array(notices));
            Ok(Value::Object(m))
        }
        Ok(other) => Ok(other),
        Err(ToolError(text)) => {
            let said: Vec<&str> = notices
                .iter()
                .filter_map(|n| n["message"].as_str())
                .collect();
            Err(ToolError(format!(
                "{text}\n(watchdog: {})",
                said.join("; ")
            )))
        }
    }
}

pub async fn run(engine: Weak<Engine>) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(engine) = engine.upgrade() else {
            break;
        };
        let cfg = engine.cfg();
        if !cfg.watchdog.enabled {
            continue;
        }
        let idle = Duration::from_secs(cfg.watchdog.idle_seconds.max(1));
        for (sid, step) in engine.watchdog.due(idle) {
            engine
                .watchdog_act(
                    &sid,
                    step,
                    &cfg.watchdog.action,
                    cfg.watchdog.idle_seconds,
                    cfg.backend_timeout_ms,
                )
                .await;
        }
    }
}

impl Engine {
    async fn watchdog_act(&self, sid: &str, step: u64, action: &str, idle_s: u64, timeout_ms: u64) {
        // Still at the same pause? Anything else means someone moved on meanwhile.
        let still = self.with_state(|s| {
            s.sessions
                .get(sid)
                .is_some_and(|x| x.pause_seq == step && x.state() == SessionState::Paused)
        });
        if !still {
            return;
        }
        let place = self
            .ledger
            .get(sid)
            .and_then(|l| {
                l.pauses
                    .iter()
                    .rev()
                    .find(|p| p.at.step == step)
                    .map(|p| p.at.place())
            })
            .unwrap_or_else(|| "?".into());
        let stop = action == "stop";
        let op = async {
            if stop {
                self.asking_to_stop(sid, "the watchdog (left paused)");
                self.backend.stop(sid).await
            } else {
                self.backend.control(sid, None, ControlOp::Resume).await
            }
        };
        let done = matches!(
            tokio::time::timeout(Duration::from_millis(timeout_ms), op).await,
            Ok(Ok(()))
        );
        let verb = if stop { "stopped" } else { "resumed" };
        let when = clock(now_ms());
        let message = if done {
            format!(
                "session {sid} was left paused at {place} (step {step}) with no agent call for {idle_s} s; the watchdog {verb} it at {when}"
            )
        } else {
            format!(
                "session {sid} was left paused at {place} (step {step}) for {idle_s} s; the watchdog could not {} it at {when}",
                if stop { "stop" } else { "resume" }
            )
        };
        if done && !stop {
            // Like a resume tool: the old pause is over even if the backend's event is queued.
            self.with_state(|s| {
                if let Some(x) = s
                    .sessions
                    .get_mut(sid)
                    .filter(|x| x.pause_seq == step && x.state() == SessionState::Paused)
                {
                    x.invalidate();
                    x.pause = None;
                    x.info.state = SessionState::Running;
                    x.notify();
                }
            });
        }
        tracing::info!("{message}");
        self.ledger.note(sid, format!("watchdog: {message}"));
        self.watchdog.lock().notices.push(json!({
            "session_id": sid, "action": if done { verb } else { "failed" }, "step": step, "location": place,
            "time": when, "message": message,
        }));
        self.subscribers.notify(super::resources::on_stop(sid));
    }
}
