//! A deterministic in-memory [`Backend`] for tests and benchmarks of the core and the JNI
//! bridge. Test support only: no product crate depends on it (the core takes it as a
//! dev-dependency), so the core's `src` holds product code only.
//!
//! It "runs" a small scripted Python-like program (`main.py`, `util.py`) as a fixed trace of
//! states. Control ops move a program counter through the trace and push the same events a real
//! debugger would (`Resumed`, then `Paused`/`Stopped`), *before* the op returns — the hardest case
//! for the engine's "subscribe before acting" waits. Breakpoints bind when a session starts and
//! move from blank/comment lines to the next code line (like real debuggers), values are nested
//! (dict, object, long string, 50-element list), expressions understand names, paths, literals,
//! `+ - *`, `len(..)` and (with side effects) assignments.
//!
//! Knobs for failure tests: [`FakeBackend::set_hang`] makes every op never answer,
//! [`FakeBackend::set_confirm`] turns on an IDE-like confirmation dialog, [`FakeBackend::calls`]
//! returns the op log.

mod eval;
mod ops;
mod program;

pub use program::{FILES, FValue, MAIN_PY, UTIL_PY};

use debugger_mcp_core::backend::*;
use eval::{eval_expr, interpolate};
use program::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

struct FakeBp {
    project: String,
    info: BreakpointInfo,
    /// Relative file name in the program, for line breakpoints.
    rel: Option<&'static str>,
}

struct FakeSession {
    info: SessionInfo,
    project: String,
    pc: usize,
    paused: bool,
    /// Running with nothing left to hit (inside the endless loop).
    idle: bool,
    overrides: HashMap<(String, String), FValue>,
    hits: HashMap<String, u64>,
    /// Evaluation results that have children, addressed by `e:<n>/...` handles.
    evals: Vec<FValue>,
    /// Pauses asked and not yet landed ([`FakeBackend::set_late_pauses`]).
    pending_pauses: u32,
}

#[derive(Default)]
struct Inner {
    next_session: u32,
    next_bp: u32,
    sessions: BTreeMap<String, FakeSession>,
    breakpoints: BTreeMap<String, FakeBp>,
}

pub struct FakeBackend {
    sink: EventSink,
    projects: Vec<ProjectInfo>,
    program: Program,
    inner: Mutex<Inner>,
    hang: AtomicBool,
    late_pauses: AtomicBool,
    can_confirm: AtomicBool,
    confirm_answer: AtomicBool,
    /// A launch that builds first: how long it takes and the allowance it asks for.
    launch_build: Mutex<(std::time::Duration, std::time::Duration)>,
    evaluate_took: Mutex<std::time::Duration>,
    log: Mutex<Vec<String>>,
    /// Depths `frames` leaves out as hidden (from, count), as the IDE folds library frames.
    folded: Mutex<Option<(u32, u32)>>,
}

enum Target<'a> {
    Resume,
    Over(usize),
    Into,
    Out(usize),
    RunTo(&'a str, u32),
}

impl FakeBackend {
    /// One project at `root`. The program files are written there (the directory is created) so
    /// that path checks and canonicalization work on real files.
    pub fn new(root: impl AsRef<Path>) -> (Arc<Self>, EventStream) {
        Self::with_projects(&[root.as_ref()])
    }

    pub fn with_projects(roots: &[&Path]) -> (Arc<Self>, EventStream) {
        let (sink, stream) = event_channel();
        let projects = roots
            .iter()
            .map(|root| {
                std::fs::create_dir_all(root).expect("create fake project root");
                for (name, text) in FILES {
                    std::fs::write(root.join(name), text).expect("write fake program");
                }
                let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
                ProjectInfo {
                    name: root
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    root: root.to_string_lossy().into_owned(),
                }
            })
            .collect();
        let backend = Arc::new(Self {
            sink,
            projects,
            program: build_program(),
            inner: Mutex::new(Inner::default()),
            hang: AtomicBool::new(false),
            late_pauses: AtomicBool::new(false),
            can_confirm: AtomicBool::new(false),
            confirm_answer: AtomicBool::new(false),
            launch_build: Mutex::new(Default::default()),
            evaluate_took: Mutex::new(Default::default()),
            log: Mutex::new(Vec::new()),
            folded: Mutex::new(None),
        });
        (backend, stream)
    }

    /// `frames` hides `count` depths from `from` on (indexes keep their depths and `hidden`
    /// says which), as the IDE folds library frames when 'Show Library Frames' is off.
    pub fn set_folded(&self, from: u32, count: u32) {
        *self.folded.lock().unwrap_or_else(|e| e.into_inner()) = Some((from, count));
    }

    /// When true, every op waits forever (to test the engine's timeouts).
    pub fn set_hang(&self, hang: bool) {
        self.hang.store(hang, Ordering::SeqCst);
    }

    /// When true, a pause of a running session is accepted and lands only when the test says
    /// ([`FakeBackend::land_pause`]), as debugpy's does for a thread blocked in select().
    pub fn set_late_pauses(&self, on: bool) {
        self.late_pauses.store(on, Ordering::SeqCst);
    }

    /// Pauses asked of `sid` that have not landed.
    pub fn pending_pauses(&self, sid: &str) -> u32 {
        self.lock()
            .sessions
            .get(sid)
            .map_or(0, |s| s.pending_pauses)
    }

    /// Lands one pending pause of `sid`: it stops as a pause does (false: none pending, or the
    /// session is not running).
    pub fn land_pause(&self, sid: &str) -> bool {
        let mut inner = self.lock();
        let Some(s) = inner.sessions.get_mut(sid) else {
            return false;
        };
        if s.pending_pauses == 0 || s.paused || s.info.state == SessionState::Stopped {
            return false;
        }
        s.pending_pauses -= 1;
        s.paused = true;
        s.idle = false;
        s.pc = self.program.loop_start + 2;
        s.info.state = SessionState::Paused;
        drop(inner);
        self.emit(BackendEvent::Paused {
            session_id: sid.into(),
            thread_id: "1".into(),
            reason: PauseReason::Pause,
            breakpoint_ids: Vec::new(),
            description: None,
        });
        true
    }

    /// Each `evaluate` takes `took` (a slow debugger: a search's bounds).
    pub fn set_evaluate_took(&self, took: std::time::Duration) {
        *self.evaluate_took.lock().unwrap_or_else(|e| e.into_inner()) = took;
    }

    /// Launches take `took` (a build) and report `allowance` from `launch_build_allowance`.
    pub fn set_launch_build(&self, took: std::time::Duration, allowance: std::time::Duration) {
        *self.launch_build.lock().unwrap_or_else(|e| e.into_inner()) = (took, allowance);
    }

    /// Simulate an IDE confirmation dialog that answers `answer`.
    pub fn set_confirm(&self, available: bool, answer: bool) {
        self.can_confirm.store(available, Ordering::SeqCst);
        self.confirm_answer.store(answer, Ordering::SeqCst);
    }

    /// Names of the ops called so far, with their main argument (e.g. `"update_breakpoint 1"`).
    pub fn calls(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Lets a test push an event as if a user acted in the IDE.
    pub fn emit(&self, event: BackendEvent) {
        self.sink.send(event);
    }

    /// Absolute path of a program file in the first project.
    pub fn file(&self, rel: &str) -> String {
        Path::new(&self.projects[0].root)
            .join(rel)
            .to_string_lossy()
            .into_owned()
    }

    async fn enter(&self, op: String) {
        {
            let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            // Bounded: benchmarks call millions of ops.
            if log.len() >= 10_000 {
                log.drain(..5_000);
            }
            log.push(op);
        }
        if self.hang.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn rel_of(&self, project: &str, path: &str) -> Option<&'static str> {
        FILES
            .iter()
            .map(|(n, _)| *n)
            .find(|n| Path::new(project).join(n) == Path::new(path))
    }

    fn text_of(rel: &str) -> &'static str {
        FILES
            .iter()
            .find(|(n, _)| *n == rel)
            .map(|(_, t)| *t)
            .unwrap_or("")
    }

    fn abs(project: &str, rel: &str) -> String {
        PathBuf::from(project)
            .join(rel)
            .to_string_lossy()
            .into_owned()
    }

    /// Binds a line breakpoint as a debugger would: moves it to the next code line.
    fn bind(bp: &mut FakeBp) {
        let Some(rel) = bp.rel else { return };
        let text = Self::text_of(rel);
        let total = text.lines().count() as u32;
        let requested = bp.info.requested_line.unwrap_or(1);
        match (requested..=total).find(|l| is_code_line(text, *l)) {
            Some(line) => {
                bp.info.line = Some(line);
                bp.info.verified = true;
                bp.info.message = None;
            }
            None => {
                bp.info.line = None;
                bp.info.verified = false;
                bp.info.message = Some(format!(
                    "no code at or after line {requested} in {rel} ({total} lines)"
                ));
            }
        }
    }

    fn project_has_session(inner: &Inner, project: &str) -> bool {
        inner
            .sessions
            .values()
            .any(|s| s.project == project && s.info.state != SessionState::Stopped)
    }

    /// The top-frame variables of state `pc`, frame `index`, with the session's overrides.
    fn frame_vars(
        &self,
        s: &FakeSession,
        index: usize,
    ) -> Option<Vec<(String, FValue, ValueScope)>> {
        let frame = self.program.states.get(s.pc)?.frames.get(index)?;
        let mut vars = frame.vars.clone();
        for (name, value, _) in vars.iter_mut() {
            if let Some(v) = s.overrides.get(&(frame.func.to_string(), name.clone())) {
                *value = v.clone();
            }
        }
        Some(vars)
    }

    fn node(
        &self,
        name: String,
        v: &FValue,
        scope: ValueScope,
        handle_base: &str,
        settable: bool,
    ) -> ValueNode {
        let n = v.child_len();
        ValueNode {
            name,
            value: v.render(),
            type_name: Some(v.type_name()),
            has_children: n > 0,
            children_handle: (n > 0).then(|| format!("c:{handle_base}")),
            set_handle: settable.then(|| format!("s:{handle_base}")),
            evaluate_name: None,
            child_count: (n > 0).then_some(n as u64),
            value_length: None,
            scope,
        }
    }

    /// Resolves a handle body `<pc>:<frame>:<var>/<i>/<j>` or `e<n>/<i>` to a value.
    fn resolve(&self, s: &FakeSession, body: &str) -> BackendResult<FValue> {
        let stale = || BackendError::NotFound(format!("value handle {body} is no longer valid"));
        let mut parts = body.split('/');
        let head = parts.next().ok_or_else(stale)?;
        let mut value = if let Some(n) = head.strip_prefix('e') {
            s.evals
                .get(n.parse::<usize>().map_err(|_| stale())?)
                .cloned()
                .ok_or_else(stale)?
        } else {
            let mut it = head.splitn(3, ':');
            let pc: usize = it.next().and_then(|p| p.parse().ok()).ok_or_else(stale)?;
            let frame: usize = it.next().and_then(|p| p.parse().ok()).ok_or_else(stale)?;
            let var = it.next().ok_or_else(stale)?;
            if pc != s.pc || !s.paused {
                return Err(stale());
            }
            let vars = self.frame_vars(s, frame).ok_or_else(stale)?;
            vars.into_iter()
                .find(|(n, _, _)| n == var)
                .map(|(_, v, _)| v)
                .ok_or_else(stale)?
        };
        for p in parts {
            let i: usize = p.parse().map_err(|_| stale())?;
            value = value
                .children()
                .get(i)
                .map(|(_, v)| v.clone())
                .ok_or_else(stale)?;
        }
        Ok(value)
    }

    fn session_mut<'a>(inner: &'a mut Inner, id: &str) -> BackendResult<&'a mut FakeSession> {
        inner
            .sessions
            .get_mut(id)
            .filter(|s| s.info.state != SessionState::Stopped)
            .ok_or_else(|| BackendError::NotFound(format!("session {id}")))
    }

    fn next_pc(&self, pc: usize) -> usize {
        if pc + 1 < self.program.states.len() {
            pc + 1
        } else {
            self.program.loop_start
        }
    }

    /// Runs from `s.pc` (exclusive unless `include_current`) towards `target`, honouring
    /// breakpoints, and leaves the session paused or idle. Returns the events to send.
    fn run(
        &self,
        inner: &mut Inner,
        sid: &str,
        target: Target<'_>,
        ignore_bps: bool,
        include_current: bool,
    ) -> Vec<BackendEvent> {
        let mut events = vec![BackendEvent::Resumed {
            session_id: sid.to_string(),
        }];
        let Inner {
            sessions,
            breakpoints,
            ..
        } = inner;
        let Some(s) = sessions.get_mut(sid) else {
            return events;
        };
        let run_mode = s.info.mode == LaunchMode::Run;
        s.paused = false;
        s.evals.clear();
        s.info.state = SessionState::Running;
        let mut pc = if include_current {
            s.pc
        } else {
            self.next_pc(s.pc)
        };
        // Bounded walk: the trace plus one turn of the loop is enough to find any stop.
        for _ in 0..self.program.states.len() * 2 {
            let state = &self.program.states[pc];
            let top = state.top();
            let depth = state.frames.len();
            let mut stop: Option<(PauseReason, Vec<String>)> = None;
            if !ignore_bps && !run_mode {
                for bp in breakpoints.values().filter(|b| b.project == s.project) {
                    let i = &bp.info;
                    if !(i.enabled
                        && i.verified
                        && bp.rel == Some(top.file)
                        && i.line == Some(top.line))
                    {
                        continue;
                    }
                    if let Some(cond) = i.condition.as_deref().filter(|c| !c.is_empty()) {
                        let vars = state.top().vars.clone();
                        match eval_expr(cond, &vars) {
                            Ok(FValue::Int(0)) | Ok(FValue::None) | Err(_) => continue,
                            _ => {}
                        }
                    }
                    let hits = s.hits.entry(i.id.clone()).or_insert(0);
                    *hits += 1;
                    if let Some(n) = i
                        .hit_condition
                        .as_deref()
                        .and_then(|h| h.trim().parse::<u64>().ok())
                        && *hits < n
                    {
                        continue;
                    }
                    if let Some(msg) = i.log_message.as_deref().filter(|m| !m.is_empty()) {
                        events.push(BackendEvent::Output {
                            session_id: sid.to_string(),
                            category: OutputCategory::Tracepoint,
                            text: format!("{}\n", interpolate(msg, &top.vars)),
                        });
                        continue;
                    }
                    if i.suspend_policy == SuspendPolicy::None {
                        continue;
                    }
                    let entry = stop.get_or_insert((PauseReason::Breakpoint, Vec::new()));
                    entry.1.push(i.id.clone());
                }
            }
            let reached = match target {
                Target::Resume => false,
                Target::Into => true,
                Target::Over(d) => depth <= d,
                Target::Out(d) => depth < d,
                Target::RunTo(file, line) => top.file == file && top.line == line,
            };
            if stop.is_none() && reached {
                stop = Some((
                    if matches!(target, Target::RunTo(..)) {
                        PauseReason::Goto
                    } else {
                        PauseReason::Step
                    },
                    Vec::new(),
                ));
            }
            if top.func == "main" && top.line == 12 && !run_mode {
                // `print(total)` writes to stdout when executed.
                events.push(BackendEvent::Output {
                    session_id: sid.to_string(),
                    category: OutputCategory::Stdout,
                    text: "6\n".into(),
                });
            }
            if let Some((reason, ids)) = stop {
                s.pc = pc;
                s.paused = true;
                s.idle = false;
                s.info.state = SessionState::Paused;
                events.push(BackendEvent::Paused {
                    session_id: sid.to_string(),
                    thread_id: "1".into(),
                    reason,
                    breakpoint_ids: ids,
                    description: None,
                });
                return events;
            }
            pc = self.next_pc(pc);
        }
        s.pc = self.program.loop_start;
        s.idle = true;
        events
    }

    fn emit_all(&self, events: Vec<BackendEvent>) {
        for e in events {
            self.sink.send(e);
        }
    }
}

/// `{expr}` placeholders of a log message, evaluated against `vars`.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_lines_are_code_lines() {
        let p = build_program();
        for s in &p.states {
            for f in &s.frames {
                assert!(
                    is_code_line(FakeBackend::text_of(f.file), f.line),
                    "{}:{} is not code",
                    f.file,
                    f.line
                );
            }
        }
    }

    #[test]
    fn evaluator() {
        let vars = vec![
            ("a".to_string(), FValue::Int(2), ValueScope::Local),
            (
                "d".to_string(),
                FValue::Dict(vec![("k".into(), FValue::List(vec![FValue::Int(7)]))]),
                ValueScope::Local,
            ),
        ];
        assert_eq!(eval_expr("a + 3", &vars), Ok(FValue::Int(5)));
        assert_eq!(eval_expr("d['k'][0]", &vars), Ok(FValue::Int(7)));
        assert_eq!(eval_expr("len(d.k)", &vars), Ok(FValue::Int(1)));
        assert!(eval_expr("zz", &vars).unwrap_err().contains("NameError"));
    }
}
