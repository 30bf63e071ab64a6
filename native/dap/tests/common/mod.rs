//! Test harness: a fresh copy of a fixture project, a backend on it, and event waits with
//! timeouts (never sleeps as synchronisation).
#![allow(dead_code)]

use debugger_mcp_core::backend::*;
use debugger_mcp_dap::DapBackend;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generous: only a failing test waits this long, and the machine is shared with builds.
pub const WAIT: Duration = Duration::from_secs(60);

pub struct Harness {
    pub backend: DapBackend,
    events: EventStream,
    /// Every event received so far, in order.
    pub log: Vec<BackendEvent>,
    cursor: usize,
    pub root: PathBuf,
    pub project: String,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap();
        }
    }
}

impl Harness {
    /// Copies `tests/fixtures/<fixture>` into a directory of its own for test `name`.
    pub fn new(fixture: &str, name: &str) -> Self {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixture);
        let base = std::env::var_os("CARGO_TARGET_TMPDIR")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir)
            .join("dap-tests")
            .join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        copy_dir(&src, &base);
        let root = std::fs::canonicalize(&base).unwrap();
        let (sink, events) = event_channel();
        let backend = DapBackend::new(&root, sink).unwrap();
        Harness {
            backend,
            events,
            log: Vec::new(),
            cursor: 0,
            project: root.display().to_string(),
            root,
        }
    }

    pub fn file(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }

    /// Makes the next wait search the whole log again.
    pub fn rewind(&mut self) {
        self.cursor = 0;
    }

    /// Waits for the next event (after the previous match) that satisfies `pred`.
    pub async fn wait_for(
        &mut self,
        what: &str,
        pred: impl Fn(&BackendEvent) -> bool,
    ) -> BackendEvent {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            while self.cursor < self.log.len() {
                let e = &self.log[self.cursor];
                self.cursor += 1;
                if pred(e) {
                    return e.clone();
                }
            }
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
                Ok(Some(e)) => self.log.push(e),
                Ok(None) => panic!("event stream closed while waiting for {what}"),
                Err(_) => panic!(
                    "timed out waiting for {what}; events so far: {:#?}",
                    self.log
                ),
            }
        }
    }

    /// Waits until the output of `session` so far (all events, concatenated: adapters may
    /// split a line over several events) contains `text`; returns the category of the event
    /// that completed it.
    pub async fn wait_output(&mut self, session: &str, text: &str) -> OutputCategory {
        let deadline = tokio::time::Instant::now() + WAIT;
        let mut seen = 0;
        let mut all = String::new();
        loop {
            while seen < self.log.len() {
                if let BackendEvent::Output {
                    session_id,
                    text: t,
                    category,
                } = &self.log[seen]
                    && session_id == session
                {
                    all.push_str(t);
                    if all.contains(text) {
                        return *category;
                    }
                }
                seen += 1;
            }
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
                Ok(Some(e)) => self.log.push(e),
                Ok(None) => panic!("event stream closed while waiting for output '{text}'"),
                Err(_) => panic!(
                    "timed out waiting for output '{text}' of {session}; output so far: {all:?}; events: {:#?}",
                    self.log
                ),
            }
        }
    }

    /// Waits for the next pause of `session`: (thread, reason, breakpoint ids, description).
    pub async fn wait_paused(
        &mut self,
        session: &str,
    ) -> (String, PauseReason, Vec<String>, Option<String>) {
        match self
            .wait_for(&format!("pause of {session}"), |e| {
                matches!(e, BackendEvent::Paused { session_id, .. } if session_id == session)
                    || matches!(e, BackendEvent::Stopped { session_id, .. } if session_id == session)
            })
            .await
        {
            BackendEvent::Paused { thread_id, reason, breakpoint_ids, description, .. } => (thread_id, reason, breakpoint_ids, description),
            other => panic!("{session} stopped instead of pausing: {other:?}; events: {:#?}", self.log),
        }
    }

    pub async fn wait_stopped(&mut self, session: &str) -> Option<i64> {
        match self
            .wait_for(
                &format!("end of {session}"),
                |e| matches!(e, BackendEvent::Stopped { session_id, .. } if session_id == session),
            )
            .await
        {
            BackendEvent::Stopped { exit_code, .. } => exit_code,
            _ => unreachable!(),
        }
    }

    /// Launches `req` in the project; the session id (a launch error fails the test with it).
    pub async fn launch(&self, req: LaunchRequest) -> String {
        let what = req
            .command
            .clone()
            .or(req.configuration.clone())
            .unwrap_or_default();
        self.backend
            .launch(&self.project, req)
            .await
            .unwrap_or_else(|e| panic!("launching '{what}': {e}"))
            .id
    }

    pub async fn top_frame(&self, session: &str, thread: &str) -> FrameInfo {
        let page = self.backend.frames(session, thread, 0, 20).await.unwrap();
        page.frames.into_iter().next().expect("at least one frame")
    }

    /// Line of the top frame.
    pub async fn line(&self, session: &str, thread: &str) -> u32 {
        self.top_frame(session, thread).await.line.unwrap()
    }

    pub async fn control(&self, session: &str, thread: &str, op: ControlOp) {
        self.backend
            .control(session, Some(thread), op)
            .await
            .unwrap();
    }

    pub async fn bp(&self, file: &str, line: u32) -> BreakpointInfo {
        self.backend
            .add_line_breakpoint(
                &self.project,
                LineBreakpointSpec {
                    file: self.file(file),
                    line,
                    enabled: true,
                    ..Default::default()
                },
            )
            .await
            .unwrap()
    }

    pub async fn eval(
        &self,
        session: &str,
        frame: &str,
        expr: &str,
        context: EvalContext,
        side_effects: bool,
    ) -> BackendResult<ValueNode> {
        self.backend
            .evaluate(
                session,
                EvalRequest {
                    thread_id: String::new(),
                    frame: frame.into(),
                    expression: expr.into(),
                    context,
                    allow_side_effects: side_effects,
                    format: None,
                },
            )
            .await
    }

    pub async fn children_of(
        &self,
        session: &str,
        node: &ValueNode,
        offset: u32,
        limit: u32,
    ) -> ChildPage {
        let h = node
            .children_handle
            .as_deref()
            .unwrap_or_else(|| panic!("{} has no children handle: {node:?}", node.name));
        self.backend
            .children(session, h, offset, limit)
            .await
            .unwrap()
    }
}

pub fn find<'a>(nodes: &'a [ValueNode], name: &str) -> &'a ValueNode {
    nodes
        .iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no value '{name}' among {nodes:#?}"))
}

pub fn pid_alive(pid: u32) -> bool {
    // A zombie has exited; only a running/sleeping process counts as alive.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

/// Waits (bounded) until `pid` is gone: process exit is asynchronous to the kill.
pub async fn wait_pid_gone(pid: u32) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tokio::time::Instant::now() < deadline {
        if !pid_alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}
