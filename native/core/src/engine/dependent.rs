//! Breakpoints that wait for another's hit (issue 26, `after`): IntelliJ's "Disable until hit
//! the following breakpoint". Read in intellij-community:
//! - `XDependentBreakpointManager.setMasterBreakpoint(slave, master, leaveEnabled)`
//!   (platform/xdebugger-impl/src/com/intellij/xdebugger/impl/breakpoints/
//!   XDependentBreakpointManager.java) keeps the slave → master table; `onBreakpointRemoved`
//!   drops a removed master's slaves from it, so they become plain breakpoints again.
//! - Each session (`XDebugSessionBreakpointManager`, same package: `initBreakpoints` →
//!   `disableSlaveBreakpoints`) starts with every slave inactive, i.e. not registered with the
//!   debugger; `processDependencies`, called when a breakpoint is reached, registers the
//!   master's slaves (and, unless `leaveEnabled`, makes a slave inactive again after its own
//!   hit); `dependencyCleared` registers a slave whose master went.
//!
//! The IDE keeps dependencies itself (op `set_master_breakpoint`). Backends without it (DAP,
//! DBGp: the trait's `unsupported` default) get the same from the core, once for all: the slave
//! stays disabled in the backend until a pause names its master; the engine enables it before
//! that pause is seen by anyone (an agent's wait, capture, the recorder that resumes at once),
//! and disables it again when the session ends. `leaveEnabled` is always true here: once its
//! master was hit, a breakpoint behaves as any other for the rest of the session. The backend's
//! breakpoints are per project, so while two sessions of one project run, a master hit in one
//! arms the slave in both.

use super::context::CallContext;
use super::shared::Engine;
use super::state::{BpMeta, EngineState};
use crate::backend::{BreakpointInfo, BreakpointUpdate, SessionState};

#[derive(Debug, Clone)]
pub struct After {
    /// The id of the breakpoint waited for.
    pub master: String,
    /// Kept by the core (the backend has no dependencies): disabled in the backend while waiting.
    pub emulated: bool,
    /// Its master was hit in the running session.
    pub armed: bool,
    /// `enabled` as the agent set it (the backend's flag says "waiting" for an emulated one).
    pub enabled: bool,
}

impl After {
    pub fn waiting(&self) -> bool {
        !self.armed
    }
}

/// The backend's view of a breakpoint: a dependency the backend keeps (the IDE, the user's own
/// included) is taken from it.
pub fn observe(meta: &mut BpMeta, info: &BreakpointInfo) {
    match (&info.master, &mut meta.after) {
        (Some(m), Some(a)) if !a.emulated => {
            if &a.master != m {
                a.master = m.clone();
                a.armed = false;
            }
            a.enabled = info.enabled;
        }
        (Some(m), _) => {
            meta.after = Some(After {
                master: m.clone(),
                emulated: false,
                armed: false,
                enabled: info.enabled,
            })
        }
        (None, Some(a)) if !a.emulated => meta.after = None,
        _ => {}
    }
}

/// A pause at the breakpoints `hit`: the breakpoints waiting for one of them are armed. Returns
/// those the backend must enable before the pause goes on: (project, id).
pub fn arm(s: &mut EngineState, hit: &[String]) -> Vec<(String, String)> {
    let mut enable = Vec::new();
    for (id, m) in s.breakpoints.iter_mut() {
        let project = m.project.clone();
        if let Some(a) = m.after.as_mut()
            && !a.armed
            && hit.contains(&a.master)
        {
            a.armed = true;
            if a.emulated
                && a.enabled
                && let Some(p) = project
            {
                enable.push((p, id.clone()));
            }
        }
    }
    enable
}

/// The session `sid` ended: its breakpoints wait again (hits are per session). Returns the
/// emulated ones the backend must disable, unless another session of the project still runs.
pub fn disarm(s: &mut EngineState, sid: &str) -> Vec<(String, String)> {
    let project = s.sessions.get(sid).and_then(|x| x.project.clone());
    let other_live = s
        .sessions
        .iter()
        .any(|(id, x)| id != sid && x.state() != SessionState::Stopped && x.project == project);
    if other_live {
        return Vec::new();
    }
    let mut disable = Vec::new();
    for (id, m) in s.breakpoints.iter_mut() {
        if project.is_some() && m.project.is_some() && m.project != project {
            continue;
        }
        let p = m.project.clone().or(project.clone());
        if let Some(a) = m.after.as_mut()
            && a.armed
        {
            a.armed = false;
            if a.emulated
                && let Some(p) = p
            {
                disable.push((p, id.clone()));
            }
        }
    }
    disable
}

/// The breakpoint `master` was removed: those waiting for it become plain breakpoints (as the
/// platform's `onBreakpointRemoved` clears their dependency). Returns their ids and the emulated
/// ones the backend must enable: (project, id).
pub fn master_gone(s: &mut EngineState, master: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut freed = Vec::new();
    let mut enable = Vec::new();
    for (id, m) in s.breakpoints.iter_mut() {
        let Some(a) = m.after.as_ref().filter(|a| a.master == master) else {
            continue;
        };
        if a.emulated
            && !a.armed
            && a.enabled
            && let Some(p) = &m.project
        {
            enable.push((p.clone(), id.clone()));
        }
        m.after = None;
        m.master_removed = Some(master.to_string());
        freed.push(id.clone());
    }
    freed.sort();
    (freed, enable)
}

impl Engine {
    /// Sets `enabled` of each (project, id) in the backend, under the backend timeout; a
    /// breakpoint removed meanwhile is left alone.
    pub(super) async fn set_backend_enabled(&self, list: Vec<(String, String)>, on: bool) {
        if list.is_empty() {
            return;
        }
        let ctx = CallContext::default();
        let call = self.own_call(&ctx);
        let backend = self.backend.clone();
        for (project, id) in list {
            let update = BreakpointUpdate {
                enabled: Some(on),
                ..Default::default()
            };
            if let Err(e) = call
                .bk(
                    "update_breakpoint",
                    backend.update_breakpoint(&project, &id, update),
                )
                .await
            {
                tracing::debug!(breakpoint = %id, error = %e.0, "dependent breakpoint not switched");
            }
        }
    }
}
