//! The [`Engine`] struct and what every engine module uses of it (settings, state, the
//! backend's handshake, session registration). It sits below the tools and the lower modules
//! (`context`, `memory`, `resources`, `watchdog`…): they import `Engine` from here, never from
//! `engine::mod`, which only adds the public entry points and the event loop.

use super::state::{EngineState, SessionSlot};
use super::{ledger, resources, watchdog};
use crate::backend::{Backend, BackendInfo, SessionInfo, SessionState};
use crate::config::Config;
use crate::history::History;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::Duration;

pub struct Engine {
    pub(super) backend: Arc<dyn Backend>,
    pub(super) config: RwLock<Arc<Config>>,
    pub(super) history: History,
    pub(super) state: Mutex<EngineState>,
    /// Handshake answer, fetched on first need.
    pub(super) info: tokio::sync::OnceCell<BackendInfo>,
    pub(super) backend_name: OnceLock<String>,
    pub(super) roots: Mutex<HashMap<String, PathBuf>>,
    /// Serialises watch evaluation so a pause is evaluated once even when a tool and the
    /// post-pause task both ask.
    pub(super) watch_lock: tokio::sync::Mutex<()>,
    /// What the agent read, per session (outlives value ids).
    pub(super) ledger: ledger::Ledger,
    /// Agent activity and agent-owned pauses, for the idle watchdog.
    pub(super) watchdog: watchdog::Watchdog,
    /// Clients subscribed to resources.
    pub(super) subscribers: resources::Subscribers,
    /// `end_sessions_with_client` when the settings leave it unset (set by the host).
    pub(super) end_with_client_default: std::sync::atomic::AtomicBool,
    pub(super) weak: Weak<Engine>,
}

impl Engine {
    pub(super) fn cfg(&self) -> Arc<Config> {
        self.config
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(super) fn end_sessions_with_client(&self) -> bool {
        self.cfg().end_sessions_with_client.unwrap_or_else(|| {
            self.end_with_client_default
                .load(std::sync::atomic::Ordering::Relaxed)
        })
    }

    /// An MCP session ended: the breakpoints it set go (unless the settings say
    /// `end_sessions_with_client = false`), and the debug sessions it started end too when so
    /// configured (serve: yes; the IDE keeps them, where the user sees them).
    pub(super) fn client_gone(&self, started: Vec<String>, breakpoints: Vec<(String, String)>) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let timeout = Duration::from_millis(self.cfg().backend_timeout_ms);
        if self.cfg().end_sessions_with_client != Some(false) {
            // Only those still known as the agent's: one the agent already removed, or one the
            // user took over, stays as it is.
            let mine: Vec<(String, String)> = self.with_state(|s| {
                breakpoints
                    .into_iter()
                    .filter(|(_, id)| {
                        s.breakpoints
                            .remove_entry(id)
                            .is_some_and(|(_, m)| m.agent && !m.removed)
                    })
                    .collect()
            });
            if !mine.is_empty() {
                tracing::info!(
                    "the MCP session that set breakpoints {mine:?} ended: removing them"
                );
                let backend = self.backend.clone();
                rt.spawn(async move {
                    for (root, id) in mine {
                        let _ =
                            tokio::time::timeout(timeout, backend.remove_breakpoint(&root, &id))
                                .await;
                    }
                });
            }
        }
        if started.is_empty() || !self.end_sessions_with_client() {
            return;
        }
        let live: Vec<String> = self.with_state(|s| {
            started
                .into_iter()
                .filter(|id| {
                    s.sessions
                        .get(id)
                        .is_some_and(|x| x.state() != SessionState::Stopped)
                })
                .collect()
        });
        for id in live {
            let backend = self.backend.clone();
            tracing::info!(
                "the MCP session that started debug session {id} ended: stopping it (end_sessions_with_client)"
            );
            rt.spawn(async move {
                let _ = tokio::time::timeout(timeout, backend.stop(&id)).await;
            });
        }
    }

    pub(super) fn with_state<R>(&self, f: impl FnOnce(&mut EngineState) -> R) -> R {
        f(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub(super) async fn info(&self) -> BackendInfo {
        let timeout = std::time::Duration::from_millis(self.cfg().backend_timeout_ms);
        let got = self
            .info
            .get_or_try_init(|| async {
                match tokio::time::timeout(timeout, self.backend.handshake()).await {
                    Ok(Ok(info)) => Ok(info),
                    _ => Err(()),
                }
            })
            .await;
        match got {
            Ok(info) => {
                let _ = self.backend_name.set(info.name.clone());
                info.clone()
            }
            Err(()) => BackendInfo::default(),
        }
    }

    pub(super) fn backend_name(&self) -> String {
        self.backend_name
            .get()
            .cloned()
            .unwrap_or_else(|| "current".into())
    }

    pub(super) fn canonical_root(&self, root: &str) -> PathBuf {
        let mut roots = self.roots.lock().unwrap_or_else(|e| e.into_inner());
        roots
            .entry(root.to_string())
            .or_insert_with(|| std::fs::canonicalize(root).unwrap_or_else(|_| PathBuf::from(root)))
            .clone()
    }

    /// Adds a session the backend told us about; keeps event-derived state if known.
    pub(super) fn register_session(&self, info: SessionInfo, project: Option<&str>) {
        self.with_state(|s| {
            let slot = s
                .sessions
                .entry(info.id.clone())
                .or_insert_with(|| SessionSlot::new(info.clone(), None));
            if slot.project.is_none() {
                slot.project = project.map(String::from);
            }
            if slot.info.name.is_empty() || slot.info.name == slot.info.id {
                slot.info.name = info.name.clone();
            }
            if slot.info.run_configuration.is_none() {
                slot.info.run_configuration = info.run_configuration.clone();
            }
            if slot.info.process_id.is_none() {
                slot.info.process_id = info.process_id;
            }
            slot.info.attached |= info.attached;
            // The launch answered after configuring: a program that neither paused nor ended
            // meanwhile runs (no event says so; DAP has none for "configuration done").
            if slot.info.state == SessionState::Starting && info.state == SessionState::Running {
                slot.info.state = SessionState::Running;
                slot.notify();
            }
            self.ledger
                .open(&slot.info.id, &slot.info.name, slot.project.as_deref());
        });
    }

    /// A session addressed in `root` belongs to it when it had no project yet.
    pub(super) fn claim_session(&self, id: &str, root: &str) {
        self.with_state(|s| {
            if let Some(slot) = s.sessions.get_mut(id) {
                if slot.project.is_none() {
                    slot.project = Some(root.to_string());
                }
                self.ledger.open(id, &slot.info.name, Some(root));
            }
        });
    }
}
