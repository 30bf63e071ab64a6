//! Per-call context: the resolved project, backend calls with timeouts and error wording,
//! project/session/path resolution. Every error here says what to do next.

use super::shared::Engine;
use super::state::{SessionSlot, state_name};
use crate::backend::{
    BackendError, BackendResult, FrameInfo, ProjectInfo, SessionInfo, SessionState,
};
use crate::config::Config;
use crate::pathmap::normalize;
use serde_json::Value;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// A tool failure: becomes an `isError` result with this text.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError(pub String);

impl<S: Into<String>> From<S> for ToolError {
    fn from(s: S) -> Self {
        ToolError(s.into())
    }
}

pub type ToolResult = Result<Value, ToolError>;

/// Asks the user to confirm a destructive action through the MCP client (elicitation).
#[async_trait::async_trait]
pub trait Confirmer: Send + Sync {
    /// `Ok(true)` accepted, `Ok(false)` declined/cancelled, `Err` the client could not ask.
    async fn confirm(&self, message: &str) -> Result<bool, String>;
}

/// What the transport knows about the calling client.
#[derive(Clone, Default)]
pub struct CallContext {
    /// Present when the client supports MCP elicitation.
    pub confirmer: Option<Arc<dyn Confirmer>>,
    /// The calling MCP session's record of the debug sessions it started (none for stateless
    /// requests, which have no session to outlive).
    pub client: Option<Arc<ClientSessions>>,
}

/// What one MCP session made: the debug sessions it started and the breakpoints it set. Dropped
/// with that MCP session's handler (rmcp drops the per-session service on DELETE or when the
/// session expires; the stdio bridge DELETEs its sessions when its client goes): the engine then
/// removes those breakpoints and ends those sessions (`end_sessions_with_client`), so an agent
/// has nothing to tidy up.
pub struct ClientSessions {
    engine: std::sync::Weak<Engine>,
    started: std::sync::Mutex<Vec<String>>,
    /// (project root, breakpoint id) of each breakpoint this MCP session created.
    breakpoints: std::sync::Mutex<Vec<(String, String)>>,
}

impl ClientSessions {
    pub fn new(engine: &Arc<Engine>) -> Self {
        Self {
            engine: Arc::downgrade(engine),
            started: std::sync::Mutex::default(),
            breakpoints: std::sync::Mutex::default(),
        }
    }

    pub fn started(&self, id: &str) {
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(id.to_string());
    }

    /// The debug sessions this MCP session started.
    pub fn started_ids(&self) -> Vec<String> {
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// A breakpoint this MCP session created (never one it only updated: that may be the
    /// IDE user's).
    pub fn made_breakpoint(&self, root: &str, id: &str) {
        let mut b = self.breakpoints.lock().unwrap_or_else(|e| e.into_inner());
        if !b.iter().any(|(r, i)| r == root && i == id) {
            b.push((root.to_string(), id.to_string()));
        }
    }

    /// The breakpoints this MCP session made in `root`, forgotten (the caller removes them).
    pub fn take_breakpoints(&self, root: &str) -> Vec<String> {
        let mut b = self.breakpoints.lock().unwrap_or_else(|e| e.into_inner());
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut *b)
            .into_iter()
            .partition(|(r, _)| r == root);
        *b = rest;
        mine.into_iter().map(|(_, id)| id).collect()
    }
}

impl Drop for ClientSessions {
    fn drop(&mut self) {
        let started = std::mem::take(&mut *self.started.lock().unwrap_or_else(|e| e.into_inner()));
        let breakpoints =
            std::mem::take(&mut *self.breakpoints.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(engine) = self.engine.upgrade() {
            engine.client_gone(started, breakpoints);
        }
    }
}

pub struct Call<'a> {
    pub engine: &'a Engine,
    pub ctx: &'a CallContext,
    pub cfg: Arc<Config>,
    /// The project this call ended up working on (recorded in the history).
    pub project: Option<String>,
}

pub fn backend_error(op: &str, backend: &str, e: BackendError) -> ToolError {
    let doing = op_words(op);
    ToolError(match e {
        BackendError::NotFound(m) => format!("{doing}: not found: {m}"),
        // The backend's words already say what is wrong ("session s1 has ended (…)").
        BackendError::InvalidState(m) => m,
        BackendError::Unsupported(m) => {
            format!("{doing} is not supported by the {backend} debugger backend: {m}")
        }
        BackendError::Failed(m) => format!("{doing} failed: {m}"),
        BackendError::Timeout(m) => format!("{doing}: the debugger timed out: {m}"),
    })
}

/// A backend operation as the agent knows it: the `Backend` trait's names (`frames`,
/// `frame_variables`, `control`) are ours, not the tools' the agent called.
fn op_words(op: &str) -> String {
    match op {
        "threads" => "listing the threads",
        "frames" => "reading the stack",
        "frame_variables" => "reading the frame's variables",
        "children" => "expanding the value",
        "control" => "running the program",
        "select_frame" => "selecting the frame",
        "set_value" => "setting the value",
        "force_return" => "forcing the return",
        "breakpoints" => "listing the breakpoints",
        "add_line_breakpoint" | "add_exception_breakpoint" | "add_data_breakpoint" => {
            "setting the breakpoint"
        }
        "update_breakpoint" => "changing the breakpoint",
        "set_master_breakpoint" => "making the breakpoint wait for another",
        "remove_breakpoint" => "removing the breakpoint",
        "read_source" => "reading the source",
        "run_configurations" => "listing the run configurations",
        "sessions" => "listing the debug sessions",
        "projects" => "listing the projects",
        "launch" | "debug_test" => "starting the program",
        "stop" => "stopping the session",
        "terminate" => "terminating the program",
        "attach" => "attaching to the process",
        "confirm" => "asking the user to confirm",
        other => return other.replace('_', " "),
    }
    .to_string()
}

impl<'a> Call<'a> {
    /// Runs a backend op under `config.backend_timeout_ms`.
    pub async fn bk<T>(
        &self,
        op: &str,
        fut: impl Future<Output = BackendResult<T>>,
    ) -> Result<T, ToolError> {
        self.bk_within(op, self.cfg.backend_timeout_ms, fut).await
    }

    pub async fn bk_within<T>(
        &self,
        op: &str,
        ms: u64,
        fut: impl Future<Output = BackendResult<T>>,
    ) -> Result<T, ToolError> {
        match tokio::time::timeout(Duration::from_millis(ms), fut).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(backend_error(op, &self.engine.backend_name(), e)),
            Err(_) => Err(ToolError(format!(
                "the debugger did not finish {} within {ms} ms; it may be busy or hung. Retry, check get_debug_session_status, or raise {} in the settings",
                op_words(op),
                // A launch is bounded by its own setting (plus a build's, for Go).
                if op == "launch" {
                    "launch_timeout_ms"
                } else {
                    "backend_timeout_ms"
                }
            ))),
        }
    }

    /// The project root the call targets (see module docs for the rules).
    pub async fn project(&mut self, requested: Option<&str>) -> Result<String, ToolError> {
        let backend = self.engine.backend.clone();
        let projects = self.bk("projects", backend.projects()).await?;
        let root = pick_project(&projects, requested)?;
        self.project = Some(root.clone());
        Ok(root)
    }

    /// Resolves `path` (absolute or relative to the root) to a canonical path inside the project.
    ///
    /// A path outside the project is refused before the file system is asked, and a link that
    /// leads outside is refused without saying where: errors must not tell a client whether a
    /// file outside the project exists or where a link points.
    pub fn file_in_project(&self, root: &str, path: &str) -> Result<String, ToolError> {
        let croot = self.engine.canonical_root(root);
        let p = Path::new(path);
        let joined = if p.is_absolute() {
            p.to_path_buf()
        } else {
            croot.join(p)
        };
        let outside = || {
            ToolError(format!(
                "'{path}' is outside the project root {root}; only files inside the project can be used (give a path relative to the project root)"
            ))
        };
        // `..` and absolute paths first, without touching the file system. An absolute path
        // may name the root through a link (`/tmp/x` for `/private/tmp/x`): compare with both.
        let lexical = normalize(&joined);
        if !lexical.starts_with(&croot) && !lexical.starts_with(normalize(Path::new(root))) {
            return Err(outside());
        }
        let leads_outside = || {
            ToolError(format!(
                "'{path}' is a link that leads outside the project root {root}; only files inside the project can be used"
            ))
        };
        let canon = match std::fs::canonicalize(&joined) {
            Ok(canon) => canon,
            // A missing file under a link that leads outside answers as an existing one does:
            // "not found" there would tell whether a file outside the project exists.
            Err(_) if through_link_outside(&lexical, &croot) => return Err(leads_outside()),
            Err(_) => {
                // A path relative to where the agent's shell is (`lib/x.c` for the project's
                // `work/lib/x.c`) names the one source file that ends with it: taken, as the
                // agent meant it; the result shows the path it resolved to.
                let suffix = !p.is_absolute()
                    && p.components()
                        .all(|c| matches!(c, std::path::Component::Normal(_)));
                let hits: Vec<_> = if suffix {
                    super::functions::source_files(&croot)
                        .into_iter()
                        .filter(|f| f.ends_with(p))
                        .collect()
                } else {
                    Vec::new()
                };
                match hits.as_slice() {
                    [one] => {
                        let rel = one.strip_prefix(&croot).unwrap_or(one);
                        return self.file_in_project(root, &rel.to_string_lossy());
                    }
                    [] => {}
                    many => {
                        let names: Vec<String> = many
                            .iter()
                            .take(5)
                            .map(|f| {
                                f.strip_prefix(&croot)
                                    .unwrap_or(f)
                                    .to_string_lossy()
                                    .into_owned()
                            })
                            .collect();
                        return Err(ToolError(format!(
                            "file '{path}' is not at the project root {root}; {} files end with it ({}{}): give the path relative to the project root",
                            many.len(),
                            names.join(", "),
                            if many.len() > 5 { ", …" } else { "" }
                        )));
                    }
                }
                return Err(ToolError(format!(
                    "file '{path}' not found in the project {root}; give a path absolute or relative to the project root"
                )));
            }
        };
        if !canon.starts_with(&croot) {
            return Err(leads_outside());
        }
        Ok(canon.to_string_lossy().into_owned())
    }

    /// Refuses a line past the end of `file` (a canonical path from [`Self::file_in_project`]):
    /// a breakpoint there could never bind, yet a pending one would look fine to the agent.
    pub fn line_in_file(&self, file: &str, line: u32, shown: &str) -> Result<(), ToolError> {
        // A file that cannot be read here (a remote or virtual document) is the backend's to judge.
        let Ok(bytes) = std::fs::read(file) else {
            return Ok(());
        };
        let newlines = bytes.iter().filter(|b| **b == b'\n').count();
        let lines = newlines + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
        if line as usize > lines {
            return Err(ToolError(format!(
                "field 'line': {line} is past the end of {shown} ({lines} lines); pass a line from 1 to {lines}"
            )));
        }
        Ok(())
    }

    /// Where a line breakpoint on `file:line` (canonical) goes: the line itself, or, for a line
    /// that runs only when a function is defined (a Python `def`, its decorators and signature),
    /// the first line of the body with the phrase that says so (see
    /// [`super::functions::call_line`]). Every tool that sets a line point asks here.
    pub fn at_call(&self, file: &str, line: u32) -> (u32, Option<String>) {
        let Ok(text) = std::fs::read_to_string(file) else {
            return (line, None);
        };
        match super::functions::call_line(file, &text, line) {
            Some((body, said)) => (body, Some(said)),
            None => (line, None),
        }
    }

    /// Session to act on: the requested id, else the current session, else the only live one.
    pub async fn session(
        &mut self,
        root: &str,
        requested: Option<&str>,
    ) -> Result<String, ToolError> {
        if let Some(id) = requested {
            let owner = self
                .engine
                .with_state(|s| s.sessions.get(id).map(|x| x.project.clone()));
            match owner {
                Some(Some(p)) if p != root => {
                    return Err(ToolError(format!(
                        "session {id} belongs to project {p}; pass project_path \"{p}\""
                    )));
                }
                Some(_) => {
                    self.engine.claim_session(id, root);
                    self.use_after_end(root, id);
                    return Ok(id.to_string());
                }
                None => {}
            }
            let listed = self.backend_sessions(root).await?;
            if listed.iter().any(|s| s.id == id) {
                return Ok(id.to_string());
            }
            return Err(ToolError(format!(
                "unknown session id '{id}'. {}",
                self.session_list(root)
            )));
        }
        self.last_ended(root)?;
        if let Some(id) = self.default_session(root) {
            return Ok(id);
        }
        // Nothing known here: the user may have started a session in the IDE.
        self.backend_sessions(root).await?;
        if let Some(id) = self.default_session(root) {
            return Ok(id);
        }
        let live = self.live_sessions(root);
        if live.is_empty() {
            // The session the agent was using ended (killed, stopped by another client): say
            // so, rather than as if there had never been one.
            let last = self.engine.with_state(|s| {
                s.sessions
                    .iter()
                    .filter(|(_, x)| x.project.as_deref() == Some(root))
                    .max_by(|(a, _), (b, _)| (a.len(), a).cmp(&(b.len(), b)))
                    .map(|(id, x)| (id.clone(), x.end_words()))
            });
            Err(ToolError(match last {
                Some((id, how)) => format!(
                    "no debug session is running in {root}: session {id} has ended{}. Start one with start_debug_session",
                    how.map(|h| format!(" ({h})")).unwrap_or_default()
                ),
                None => format!(
                    "no debug session is running in {root}. Start one with start_debug_session (list_run_configurations shows the configurations)"
                ),
            }))
        } else {
            Err(ToolError(format!(
                "several debug sessions are running; pass session_id. {}",
                self.session_list(root)
            )))
        }
    }

    /// The session the agent last started or stopped in (the current one) has ended while
    /// others of the project live: answering from one of them unasked would pass its state off
    /// as the ended one's, so the agent is told both and picks.
    fn last_ended(&self, root: &str) -> Result<(), ToolError> {
        let refusal = self.engine.with_state(|s| {
            let last = s.current.get(root).or_else(|| s.ended_current.get(root))?;
            let slot = s.sessions.get(last);
            if slot.is_some_and(|x| x.state() != SessionState::Stopped) {
                return None;
            }
            let mut live: Vec<(&String, SessionState)> = s
                .sessions
                .iter()
                .filter(|(_, x)| {
                    x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped
                })
                .map(|(id, x)| (id, x.state()))
                .collect();
            live.sort_by(|(a, _), (b, _)| (a.len(), a).cmp(&(b.len(), b)));
            let how = slot
                .and_then(|x| x.end_words())
                .map(|h| format!(" ({h})"))
                .unwrap_or_default();
            let others = match live.as_slice() {
                [] => return None,
                [(id, st)] => format!(
                    "{id} is still {} — pass session_id: \"{id}\"",
                    state_name(*st)
                ),
                many => format!(
                    "still there: {}; pass session_id",
                    many.iter()
                        .map(|(id, st)| format!("{id} ({})", state_name(*st)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            Some(format!(
                "session {last} has ended{how}; {others} (or start_debug_session)"
            ))
        });
        match refusal {
            Some(r) => Err(ToolError(r)),
            None => Ok(()),
        }
    }

    /// A session named after the current one ended becomes the current one: the agent chose it.
    fn use_after_end(&self, root: &str, id: &str) {
        self.engine.with_state(|s| {
            let live = |sid: &str| {
                s.sessions
                    .get(sid)
                    .is_some_and(|x| x.state() != SessionState::Stopped)
            };
            if live(id) && s.current.get(root).is_none_or(|cur| !live(cur)) {
                s.current.insert(root.to_string(), id.to_string());
                s.ended_current.remove(root);
            }
        });
    }

    fn default_session(&self, root: &str) -> Option<String> {
        self.engine.with_state(|s| {
            if let Some(cur) = s.current.get(root)
                && s.sessions
                    .get(cur)
                    .is_some_and(|x| x.state() != SessionState::Stopped)
            {
                return Some(cur.clone());
            }
            let live: Vec<&String> = s
                .sessions
                .iter()
                .filter(|(_, x)| {
                    x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped
                })
                .map(|(id, _)| id)
                .collect();
            (live.len() == 1).then(|| live[0].clone())
        })
    }

    fn live_sessions(&self, root: &str) -> Vec<String> {
        self.engine.with_state(|s| {
            s.sessions
                .iter()
                .filter(|(_, x)| {
                    x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped
                })
                .map(|(id, _)| id.clone())
                .collect()
        })
    }

    fn session_list(&self, root: &str) -> String {
        let mut items: Vec<String> = self.engine.with_state(|s| {
            s.sessions
                .iter()
                .filter(|(_, x)| {
                    x.project.as_deref() == Some(root) && x.state() != SessionState::Stopped
                })
                .map(|(id, x)| format!("{id} ({}, {})", x.info.name, state_name(x.state())))
                .collect()
        });
        items.sort();
        if items.is_empty() {
            "No debug session is running; start one with start_debug_session".into()
        } else {
            format!("Sessions: {}", items.join(", "))
        }
    }

    /// Sessions the backend knows in this project; registers them with the engine.
    pub async fn backend_sessions(&self, root: &str) -> Result<Vec<SessionInfo>, ToolError> {
        let backend = self.engine.backend.clone();
        let listed = self.bk("sessions", backend.sessions(root)).await?;
        for info in &listed {
            self.engine.register_session(info.clone(), Some(root));
        }
        Ok(listed)
    }

    /// The session must be paused; returns (thread, pause sequence).
    pub fn paused(&self, sid: &str) -> Result<(String, u64), ToolError> {
        self.engine.with_state(|s| {
            let slot = s.sessions.get(sid).ok_or_else(|| ToolError(format!("unknown session id '{sid}'")))?;
            match (&slot.pause, slot.state()) {
                (Some(p), SessionState::Paused) => Ok((slot.current_thread.clone().unwrap_or_else(|| p.thread_id.clone()), slot.pause_seq)),
                (_, SessionState::Stopped) => Err(ended(sid, slot)),
                _ => Err(ToolError(format!(
                    "session {sid} is running; call pause or wait_for_pause first (variables, frames and evaluation need a paused program)"
                ))),
            }
        })
    }

    /// A frame of the paused thread, cached for the current pause.
    pub async fn frame(&self, sid: &str, thread: &str, index: u32) -> Result<FrameInfo, ToolError> {
        let cached = self.engine.with_state(|s| {
            s.sessions.get(sid).map(|x| {
                (
                    x.frames.get(&(thread.to_string(), index)).cloned(),
                    x.pause_seq,
                )
            })
        });
        let Some((cached, seq)) = cached else {
            return Err(ToolError(format!("unknown session id '{sid}'")));
        };
        if let Some(f) = cached {
            return Ok(f);
        }
        let backend = self.engine.backend.clone();
        let page = self
            .bk("frames", backend.frames(sid, thread, index, 1))
            .await?;
        let folded = page.hidden.as_ref().filter(|h| {
            h.ranges
                .iter()
                .any(|r| (r.from_index..r.from_index.saturating_add(r.count)).contains(&index))
        });
        if let Some(h) = folded {
            return Err(ToolError(format!(
                "frame {index} on thread {thread} is hidden ({}); pick a shown frame from get_stack_trace",
                h.reason
            )));
        }
        let frame = page.frames.into_iter().next().ok_or_else(|| {
            let depth = page
                .total
                .map(|t| format!(" (the stack has {t} frames)"))
                .unwrap_or_default();
            ToolError(format!(
                "no frame {index} on thread {thread}{depth}; see get_stack_trace"
            ))
        })?;
        self.engine.with_state(|s| {
            if let Some(x) = s
                .sessions
                .get_mut(sid)
                .filter(|x| x.pause_seq == seq && x.pause.is_some())
            {
                x.frames.insert((thread.to_string(), index), frame.clone());
                x.frame_total.insert(thread.to_string(), page.total);
            }
        });
        Ok(frame)
    }
}

pub fn ended(sid: &str, slot: &SessionSlot) -> ToolError {
    let code = slot
        .end_words()
        .map(|c| format!(" ({c})"))
        .unwrap_or_default();
    ToolError(format!(
        "session {sid} has ended{code}; start a new one with start_debug_session"
    ))
}

/// Whether `path` (lexically normal, not resolvable) passes through a link leading outside
/// `root`: its deepest part that exists resolves outside, or is a dangling link whose target
/// lies outside.
fn through_link_outside(path: &Path, root: &Path) -> bool {
    let Some(existing) = path
        .ancestors()
        .find(|a| std::fs::symlink_metadata(a).is_ok())
    else {
        return false;
    };
    match std::fs::canonicalize(existing) {
        Ok(canon) => !canon.starts_with(root),
        Err(_) => std::fs::read_link(existing).is_ok_and(|target| {
            let parent = existing.parent().unwrap_or(Path::new("/"));
            !normalize(&parent.join(target)).starts_with(root)
        }),
    }
}

fn canon(p: &str) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| PathBuf::from(p))
}

pub fn pick_project(
    projects: &[ProjectInfo],
    requested: Option<&str>,
) -> Result<String, ToolError> {
    let list = || {
        projects
            .iter()
            .map(|p| format!("{} ({})", p.root, p.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match requested {
        Some(want) => {
            let want_path = canon(want);
            projects
                .iter()
                .find(|p| p.name == want || p.root == want || want_path.starts_with(canon(&p.root)))
                .map(|p| p.root.clone())
                .ok_or_else(|| {
                    ToolError(format!(
                        "project_path '{want}' is not an open project. Open projects: {}",
                        list()
                    ))
                })
        }
        None => match projects {
            [] => Err(ToolError(
                "no project is open in the IDE/debugger host".into(),
            )),
            [one] => Ok(one.root.clone()),
            _ => Err(ToolError(format!(
                "several projects are open; pass project_path, one of: {}",
                list()
            ))),
        },
    }
}
