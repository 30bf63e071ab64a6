//! A deterministic in-memory [`Backend`] for tests and benchmarks (cargo feature `fake-backend`).
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

use crate::backend::*;
use async_trait::async_trait;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Source of the scripted program. Line numbers in the trace refer to these texts.
pub const MAIN_PY: &str = r#"import util

def main(limit):
    config = {"host": "localhost", "api_key": "sk-123"}
    user = util.User("ada", util.Address("London", "N1"))
    notes = "x" * 500
    numbers = list(range(50))
    total = 0
    items = [1, 2, 3]
    for i in items:
        total = util.add(total, i)
    print(total)
    return total

# entry point
main(3)
while True:
    util.serve()
"#;

pub const UTIL_PY: &str = r#"def add(a, b):
    result = a + b
    return result

def serve():
    pass
"#;

/// The program files, relative to each project root.
pub const FILES: [(&str, &str); 2] = [("main.py", MAIN_PY), ("util.py", UTIL_PY)];

/// A value in the fake program.
#[derive(Debug, Clone, PartialEq)]
pub enum FValue {
    None,
    Int(i64),
    Str(String),
    List(Vec<FValue>),
    Dict(Vec<(String, FValue)>),
    Obj {
        class: String,
        fields: Vec<(String, FValue)>,
    },
}

impl FValue {
    fn type_name(&self) -> String {
        match self {
            FValue::None => "NoneType".into(),
            FValue::Int(_) => "int".into(),
            FValue::Str(_) => "str".into(),
            FValue::List(_) => "list".into(),
            FValue::Dict(_) => "dict".into(),
            FValue::Obj { class, .. } => class.clone(),
        }
    }

    fn render(&self) -> String {
        match self {
            FValue::None => "None".into(),
            FValue::Int(i) => i.to_string(),
            FValue::Str(s) => format!("'{s}'"),
            FValue::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|v| v.render())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FValue::Dict(entries) => format!(
                "{{{}}}",
                entries
                    .iter()
                    .map(|(k, v)| format!("'{k}': {}", v.render()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FValue::Obj { class, fields } => format!(
                "{class}({})",
                fields
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.render()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// Children as (display name, value). Dict keys are shown quoted, like debugpy does.
    fn children(&self) -> Vec<(String, FValue)> {
        match self {
            FValue::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v.clone()))
                .collect(),
            FValue::Dict(entries) => entries
                .iter()
                .map(|(k, v)| (format!("'{k}'"), v.clone()))
                .collect(),
            FValue::Obj { fields, .. } => fields.clone(),
            _ => Vec::new(),
        }
    }

    fn child_len(&self) -> usize {
        match self {
            FValue::List(items) => items.len(),
            FValue::Dict(entries) => entries.len(),
            FValue::Obj { fields, .. } => fields.len(),
            _ => 0,
        }
    }

    fn child_mut(&mut self, index: usize) -> Option<&mut FValue> {
        match self {
            FValue::List(items) => items.get_mut(index),
            FValue::Dict(entries) => entries.get_mut(index).map(|(_, v)| v),
            FValue::Obj { fields, .. } => fields.get_mut(index).map(|(_, v)| v),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
struct FFrame {
    func: &'static str,
    file: &'static str,
    line: u32,
    vars: Vec<(String, FValue, ValueScope)>,
}

/// One state of the trace: the stack, top first.
#[derive(Debug, Clone)]
struct State {
    frames: Vec<FFrame>,
}

impl State {
    fn top(&self) -> &FFrame {
        &self.frames[0]
    }
}

struct Program {
    states: Vec<State>,
    /// Index where the endless `while True: util.serve()` loop starts.
    loop_start: usize,
}

fn module_frame(line: u32) -> FFrame {
    FFrame {
        func: "<module>",
        file: "main.py",
        line,
        vars: vec![(
            "__name__".into(),
            FValue::Str("__main__".into()),
            ValueScope::Global,
        )],
    }
}

fn build_program() -> Program {
    let mut states = Vec::new();
    states.push(State {
        frames: vec![module_frame(16)],
    });
    let mut vars: Vec<(String, FValue, ValueScope)> =
        vec![("limit".into(), FValue::Int(3), ValueScope::Argument)];
    let main_at = |line: u32, vars: &Vec<(String, FValue, ValueScope)>| State {
        frames: vec![
            FFrame {
                func: "main",
                file: "main.py",
                line,
                vars: vars.clone(),
            },
            module_frame(16),
        ],
    };
    let local = |name: &str, v: FValue| (name.to_string(), v, ValueScope::Local);
    let defs: Vec<(u32, (String, FValue, ValueScope))> = vec![
        (
            4,
            local(
                "config",
                FValue::Dict(vec![
                    ("host".into(), FValue::Str("localhost".into())),
                    ("api_key".into(), FValue::Str("sk-123".into())),
                ]),
            ),
        ),
        (
            5,
            local(
                "user",
                FValue::Obj {
                    class: "User".into(),
                    fields: vec![
                        ("name".into(), FValue::Str("ada".into())),
                        (
                            "address".into(),
                            FValue::Obj {
                                class: "Address".into(),
                                fields: vec![
                                    ("city".into(), FValue::Str("London".into())),
                                    ("zip".into(), FValue::Str("N1".into())),
                                ],
                            },
                        ),
                    ],
                },
            ),
        ),
        (6, local("notes", FValue::Str("x".repeat(500)))),
        (
            7,
            local("numbers", FValue::List((0..50).map(FValue::Int).collect())),
        ),
        (8, local("total", FValue::Int(0))),
        (
            9,
            local(
                "items",
                FValue::List(vec![FValue::Int(1), FValue::Int(2), FValue::Int(3)]),
            ),
        ),
    ];
    for (line, def) in defs {
        states.push(main_at(line, &vars));
        vars.push(def);
    }
    let set = |vars: &mut Vec<(String, FValue, ValueScope)>, name: &str, v: FValue| {
        if let Some(slot) = vars.iter_mut().find(|(n, _, _)| n == name) {
            slot.1 = v;
        } else {
            vars.push((name.into(), v, ValueScope::Local));
        }
    };
    let mut total = 0;
    for i in [1, 2, 3] {
        states.push(main_at(10, &vars));
        set(&mut vars, "i", FValue::Int(i));
        states.push(main_at(11, &vars));
        let caller = main_at(11, &vars).frames;
        let args = vec![
            ("a".to_string(), FValue::Int(total), ValueScope::Argument),
            ("b".into(), FValue::Int(i), ValueScope::Argument),
        ];
        let add = |line: u32, vars: Vec<(String, FValue, ValueScope)>| {
            let mut frames = vec![FFrame {
                func: "add",
                file: "util.py",
                line,
                vars,
            }];
            frames.extend(caller.clone());
            State { frames }
        };
        states.push(add(2, args.clone()));
        let mut with_result = args.clone();
        with_result.push(("result".into(), FValue::Int(total + i), ValueScope::Local));
        states.push(add(3, with_result));
        total += i;
        set(&mut vars, "total", FValue::Int(total));
    }
    states.push(main_at(12, &vars));
    states.push(main_at(13, &vars));
    let loop_start = states.len();
    states.push(State {
        frames: vec![module_frame(17)],
    });
    states.push(State {
        frames: vec![module_frame(18)],
    });
    states.push(State {
        frames: vec![
            FFrame {
                func: "serve",
                file: "util.py",
                line: 6,
                vars: Vec::new(),
            },
            module_frame(18),
        ],
    });
    Program { states, loop_start }
}

/// Lines a breakpoint can bind to: non-blank, non-comment lines.
fn is_code_line(text: &str, line: u32) -> bool {
    text.lines()
        .nth(line as usize - 1)
        .map(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or(false)
}

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
    can_confirm: AtomicBool,
    confirm_answer: AtomicBool,
    /// A launch that builds first: how long it takes and the allowance it asks for.
    launch_build: Mutex<(std::time::Duration, std::time::Duration)>,
    log: Mutex<Vec<String>>,
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
            can_confirm: AtomicBool::new(false),
            confirm_answer: AtomicBool::new(false),
            launch_build: Mutex::new(Default::default()),
            log: Mutex::new(Vec::new()),
        });
        (backend, stream)
    }

    /// When true, every op waits forever (to test the engine's timeouts).
    pub fn set_hang(&self, hang: bool) {
        self.hang.store(hang, Ordering::SeqCst);
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
                    {
                        if *hits < n {
                            continue;
                        }
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
fn interpolate(msg: &str, vars: &[(String, FValue, ValueScope)]) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        let expr = &rest[start + 1..start + end];
        out.push_str(
            &eval_expr(expr, vars)
                .map(|v| v.render())
                .unwrap_or_else(|e| format!("<{e}>")),
        );
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

/// A tiny evaluator: literals, `name(.field|[i]|['key'])*`, `len(x)`, and binary `+ - *`.
fn eval_expr(expr: &str, vars: &[(String, FValue, ValueScope)]) -> Result<FValue, String> {
    let expr = expr.trim();
    for op in ['+', '-', '*'] {
        if let Some(pos) = expr.rfind(op).filter(|p| *p > 0) {
            let (l, r) = (
                eval_expr(&expr[..pos], vars)?,
                eval_expr(&expr[pos + 1..], vars)?,
            );
            return match (op, l, r) {
                ('+', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a + b)),
                ('-', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a - b)),
                ('*', FValue::Int(a), FValue::Int(b)) => Ok(FValue::Int(a * b)),
                ('+', FValue::Str(a), FValue::Str(b)) => Ok(FValue::Str(a + &b)),
                (_, l, r) => Err(format!(
                    "TypeError: unsupported operand type(s) for {op}: '{}' and '{}'",
                    l.type_name(),
                    r.type_name()
                )),
            };
        }
    }
    if let Ok(i) = expr.parse::<i64>() {
        return Ok(FValue::Int(i));
    }
    if expr.len() >= 2
        && (expr.starts_with('\'') && expr.ends_with('\'')
            || expr.starts_with('"') && expr.ends_with('"'))
    {
        return Ok(FValue::Str(expr[1..expr.len() - 1].to_string()));
    }
    if expr == "None" {
        return Ok(FValue::None);
    }
    if let Some(inner) = expr.strip_prefix("len(").and_then(|e| e.strip_suffix(')')) {
        return match eval_expr(inner, vars)? {
            FValue::Str(s) => Ok(FValue::Int(s.chars().count() as i64)),
            v => Ok(FValue::Int(v.children().len() as i64)),
        };
    }
    let name_end = expr.find(['.', '[']).unwrap_or(expr.len());
    let name = &expr[..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(format!("SyntaxError: invalid syntax: {expr}"));
    }
    let mut value = vars
        .iter()
        .find(|(n, _, _)| n == name)
        .map(|(_, v, _)| v.clone())
        .ok_or_else(|| format!("NameError: name '{name}' is not defined"))?;
    let mut rest = &expr[name_end..];
    while !rest.is_empty() {
        let (key, after) = if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            (r[..end].to_string(), &r[end..])
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r
                .find(']')
                .ok_or_else(|| format!("SyntaxError: missing ] in {expr}"))?;
            (
                r[..end].trim_matches(['\'', '"']).to_string(),
                &r[end + 1..],
            )
        } else {
            return Err(format!("SyntaxError: invalid syntax: {expr}"));
        };
        let next = value
            .children()
            .into_iter()
            .find(|(n, _)| n.trim_matches('\'') == key)
            .map(|(_, v)| v)
            .ok_or_else(|| {
                format!(
                    "AttributeError: '{}' has no attribute or item '{key}'",
                    value.type_name()
                )
            })?;
        value = next;
        rest = after;
    }
    Ok(value)
}

fn parse_literal(text: &str) -> BackendResult<FValue> {
    eval_expr(text, &[])
        .map_err(|_| BackendError::Failed(format!("cannot convert {text:?}: not a literal")))
}

#[async_trait]
impl Backend for FakeBackend {
    async fn handshake(&self) -> BackendResult<BackendInfo> {
        self.enter("handshake".into()).await;
        Ok(BackendInfo {
            name: "fake".into(),
            table_version: TABLE_VERSION,
            can_confirm: self.can_confirm.load(Ordering::SeqCst),
            supports_set_value: true,
            supports_code_fragments: true,
            supports_exception_breakpoints: true,
            exception_filters: vec![
                ExceptionFilter {
                    id: "raised".into(),
                    label: "Raised Exceptions".into(),
                },
                ExceptionFilter {
                    id: "uncaught".into(),
                    label: "Uncaught Exceptions".into(),
                },
            ],
        })
    }

    async fn projects(&self) -> BackendResult<Vec<ProjectInfo>> {
        self.enter("projects".into()).await;
        Ok(self.projects.clone())
    }

    async fn run_configurations(&self, project: &str) -> BackendResult<Vec<RunConfigInfo>> {
        self.enter(format!("run_configurations {project}")).await;
        Ok(["main", "tests"]
            .into_iter()
            .map(|name| RunConfigInfo {
                name: name.into(),
                type_name: "debugpy".into(),
                type_id: "python".into(),
                can_run: true,
                can_debug: true,
                source: Some(".vscode/launch.json".into()),
                ..Default::default()
            })
            .collect())
    }

    fn launch_build_allowance(
        &self,
        _project: &str,
        _request: &LaunchRequest,
    ) -> std::time::Duration {
        self.launch_build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1
    }

    async fn launch(&self, project: &str, request: LaunchRequest) -> BackendResult<SessionInfo> {
        self.enter(format!(
            "launch {}",
            request
                .configuration
                .clone()
                .or(request.command.clone())
                .unwrap_or_default()
        ))
        .await;
        let took = self
            .launch_build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0;
        if !took.is_zero() {
            tokio::time::sleep(took).await;
        }
        let name = match (&request.configuration, &request.command) {
            (Some(c), _) if c == "main" || c == "tests" => c.clone(),
            (Some(c), _) => return Err(BackendError::NotFound(format!("run configuration '{c}'"))),
            (None, Some(cmd)) => cmd.clone(),
            (None, None) => return Err(BackendError::Failed("nothing to launch".into())),
        };
        let mut events = Vec::new();
        let mut inner = self.lock();
        inner.next_session += 1;
        let id = format!("s{}", inner.next_session);
        let info = SessionInfo {
            id: id.clone(),
            name,
            state: SessionState::Running,
            run_configuration: request.configuration.clone(),
            process_id: Some(4000 + inner.next_session),
            mode: request.mode,
        };
        events.push(BackendEvent::SessionStarted {
            session: info.clone(),
        });
        for bp in inner
            .breakpoints
            .values_mut()
            .filter(|b| b.project == project && b.info.kind == BreakpointKind::Line)
        {
            let before = bp.info.clone();
            Self::bind(bp);
            if bp.info != before {
                events.push(BackendEvent::BreakpointChanged {
                    breakpoint: bp.info.clone(),
                });
            }
        }
        inner.sessions.insert(
            id.clone(),
            FakeSession {
                info: info.clone(),
                project: project.to_string(),
                pc: 0,
                paused: false,
                idle: false,
                overrides: HashMap::new(),
                hits: HashMap::new(),
                evals: Vec::new(),
            },
        );
        if request.stop_on_entry && request.mode == LaunchMode::Debug {
            let s = inner.sessions.get_mut(&id).expect("just inserted");
            s.paused = true;
            s.info.state = SessionState::Paused;
            events.push(BackendEvent::Paused {
                session_id: id.clone(),
                thread_id: "1".into(),
                reason: PauseReason::Entry,
                breakpoint_ids: Vec::new(),
                description: None,
            });
        } else {
            let run = self.run(&mut inner, &id, Target::Resume, false, true);
            events.extend(run.into_iter().skip(1)); // no Resumed before the first stop
        }
        let info = inner.sessions[&id].info.clone();
        drop(inner);
        self.emit_all(events);
        Ok(info)
    }

    /// Like a headless backend: logged, then unsupported (the core falls back to a command).
    async fn debug_test(&self, project: &str, request: TestRequest) -> BackendResult<SessionInfo> {
        self.enter(format!("debug_test {project} {}", request.test_id))
            .await;
        Err(BackendError::Unsupported(
            "the fake backend has no test runner".into(),
        ))
    }

    async fn sessions(&self, project: &str) -> BackendResult<Vec<SessionInfo>> {
        self.enter(format!("sessions {project}")).await;
        Ok(self
            .lock()
            .sessions
            .values()
            .filter(|s| s.project == project && s.info.state != SessionState::Stopped)
            .map(|s| s.info.clone())
            .collect())
    }

    async fn stop(&self, session_id: &str) -> BackendResult<()> {
        self.enter(format!("stop {session_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        s.info.state = SessionState::Stopped;
        s.paused = false;
        let project = s.project.clone();
        let mut events = vec![BackendEvent::Stopped {
            session_id: session_id.into(),
            exit_code: Some(0),
        }];
        if !Self::project_has_session(&inner, &project) {
            for bp in inner
                .breakpoints
                .values_mut()
                .filter(|b| b.project == project && b.info.kind == BreakpointKind::Line)
            {
                bp.info.verified = false;
                bp.info.line = bp.info.requested_line;
                events.push(BackendEvent::BreakpointChanged {
                    breakpoint: bp.info.clone(),
                });
            }
        }
        drop(inner);
        self.emit_all(events);
        Ok(())
    }

    async fn breakpoints(&self, project: &str) -> BackendResult<Vec<BreakpointInfo>> {
        self.enter(format!("breakpoints {project}")).await;
        let inner = self.lock();
        Ok(inner
            .breakpoints
            .values()
            .filter(|b| b.project == project)
            .map(|b| {
                let mut info = b.info.clone();
                let hits: u64 = inner
                    .sessions
                    .values()
                    .filter_map(|s| s.hits.get(&info.id))
                    .sum();
                info.hit_count = Some(hits);
                info
            })
            .collect())
    }

    async fn add_line_breakpoint(
        &self,
        project: &str,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("add_line_breakpoint {}:{}", spec.file, spec.line))
            .await;
        let rel = self.rel_of(project, &spec.file);
        let mut inner = self.lock();
        inner.next_bp += 1;
        let id = inner.next_bp.to_string();
        let mut bp = FakeBp {
            project: project.into(),
            rel,
            info: BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Line,
                file: Some(spec.file.clone()),
                requested_line: Some(spec.line),
                line: Some(spec.line),
                verified: false,
                message: None,
                enabled: spec.enabled,
                condition: spec.condition,
                log_message: spec.log_message,
                hit_condition: spec.hit_condition,
                suspend_policy: spec.suspend_policy,
                temporary: spec.temporary,
                hit_count: Some(0),
                ..Default::default()
            },
        };
        if rel.is_none() {
            bp.info.message = Some(format!("{} is not part of the program", spec.file));
        } else if Self::project_has_session(&inner, project) {
            Self::bind(&mut bp);
        }
        let info = bp.info.clone();
        inner.breakpoints.insert(id, bp);
        // A breakpoint in the endless loop is hit at once by an idle session.
        let mut events = Vec::new();
        if info.verified && info.enabled {
            let idle: Vec<String> = inner
                .sessions
                .values()
                .filter(|s| {
                    s.project == project && s.idle && !s.paused && s.info.mode == LaunchMode::Debug
                })
                .map(|s| s.info.id.clone())
                .collect();
            for sid in idle {
                let target = self.program.states[self.program.loop_start..]
                    .iter()
                    .position(|st| Some(st.top().file) == rel && Some(st.top().line) == info.line);
                if let Some(offset) = target {
                    let s = inner.sessions.get_mut(&sid).expect("listed");
                    s.pc = self.program.loop_start + offset;
                    s.paused = true;
                    s.idle = false;
                    s.info.state = SessionState::Paused;
                    *s.hits.entry(info.id.clone()).or_insert(0) += 1;
                    events.push(BackendEvent::Paused {
                        session_id: sid,
                        thread_id: "1".into(),
                        reason: PauseReason::Breakpoint,
                        breakpoint_ids: vec![info.id.clone()],
                        description: None,
                    });
                }
            }
        }
        drop(inner);
        self.emit_all(events);
        Ok(info)
    }

    async fn add_exception_breakpoint(
        &self,
        project: &str,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("add_exception_breakpoint {}", spec.exception))
            .await;
        let mut inner = self.lock();
        inner.next_bp += 1;
        let id = inner.next_bp.to_string();
        let info = BreakpointInfo {
            id: id.clone(),
            kind: BreakpointKind::Exception,
            verified: true,
            enabled: spec.enabled,
            condition: spec.condition,
            suspend_policy: spec.suspend_policy,
            exception: Some(spec.exception),
            caught: Some(spec.caught),
            uncaught: Some(spec.uncaught),
            hit_count: Some(0),
            ..Default::default()
        };
        inner.breakpoints.insert(
            id,
            FakeBp {
                project: project.into(),
                info: info.clone(),
                rel: None,
            },
        );
        Ok(info)
    }

    async fn update_breakpoint(
        &self,
        project: &str,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        self.enter(format!("update_breakpoint {id}")).await;
        let mut inner = self.lock();
        let bp = inner
            .breakpoints
            .get_mut(id)
            .filter(|b| b.project == project)
            .ok_or_else(|| BackendError::NotFound(format!("breakpoint {id}")))?;
        let clear = |s: String| (!s.is_empty()).then_some(s);
        if let Some(e) = update.enabled {
            bp.info.enabled = e;
        }
        if let Some(c) = update.condition {
            bp.info.condition = clear(c);
        }
        if let Some(l) = update.log_message {
            bp.info.log_message = clear(l);
        }
        if let Some(h) = update.hit_condition {
            bp.info.hit_condition = clear(h);
        }
        if let Some(p) = update.suspend_policy {
            bp.info.suspend_policy = p;
        }
        if let Some(t) = update.temporary {
            bp.info.temporary = t;
        }
        Ok(bp.info.clone())
    }

    async fn remove_breakpoint(&self, project: &str, id: &str) -> BackendResult<()> {
        self.enter(format!("remove_breakpoint {id}")).await;
        let mut inner = self.lock();
        match inner.breakpoints.get(id) {
            Some(b) if b.project == project => {
                inner.breakpoints.remove(id);
                Ok(())
            }
            _ => Err(BackendError::NotFound(format!("breakpoint {id}"))),
        }
    }

    async fn control(
        &self,
        session_id: &str,
        thread_id: Option<&str>,
        op: ControlOp,
    ) -> BackendResult<()> {
        self.enter(format!("control {session_id} {op:?}")).await;
        let _ = thread_id;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let depth = self.program.states[s.pc].frames.len();
        let paused = s.paused;
        let events = match op {
            ControlOp::Pause => {
                if paused {
                    return Err(BackendError::InvalidState(format!(
                        "session {session_id} is already paused"
                    )));
                }
                if !s.idle {
                    return Err(BackendError::InvalidState("program is starting".into()));
                }
                s.paused = true;
                s.idle = false;
                s.pc = self.program.loop_start + 2;
                s.info.state = SessionState::Paused;
                vec![BackendEvent::Paused {
                    session_id: session_id.into(),
                    thread_id: "1".into(),
                    reason: PauseReason::Pause,
                    breakpoint_ids: Vec::new(),
                    description: None,
                }]
            }
            _ if !paused => {
                return Err(BackendError::InvalidState(format!(
                    "session {session_id} is running"
                )));
            }
            ControlOp::Resume => self.run(&mut inner, session_id, Target::Resume, false, false),
            ControlOp::StepOver { ignore_breakpoints } => self.run(
                &mut inner,
                session_id,
                Target::Over(depth),
                ignore_breakpoints,
                false,
            ),
            ControlOp::StepInto { .. } => {
                self.run(&mut inner, session_id, Target::Into, false, false)
            }
            ControlOp::StepOut => {
                self.run(&mut inner, session_id, Target::Out(depth), false, false)
            }
            ControlOp::RunTo {
                file,
                line,
                ignore_breakpoints,
            } => {
                let project = s.project.clone();
                let rel = self.rel_of(&project, &file).ok_or_else(|| {
                    BackendError::NotFound(format!("{file} is not part of the program"))
                })?;
                self.run(
                    &mut inner,
                    session_id,
                    Target::RunTo(rel, line),
                    ignore_breakpoints,
                    false,
                )
            }
        };
        drop(inner);
        self.emit_all(events);
        Ok(())
    }

    async fn threads(&self, session_id: &str) -> BackendResult<Vec<ThreadInfo>> {
        self.enter(format!("threads {session_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let state = if s.paused { "paused" } else { "running" };
        Ok(vec![
            ThreadInfo {
                id: "1".into(),
                name: "MainThread".into(),
                state: state.into(),
                group: Some("main".into()),
            },
            ThreadInfo {
                id: "2".into(),
                name: "worker".into(),
                state: "waiting".into(),
                group: Some("main".into()),
            },
        ])
    }

    async fn frames(
        &self,
        session_id: &str,
        thread_id: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<FramePage> {
        self.enter(format!("frames {session_id} {thread_id}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if !s.paused {
            return Err(BackendError::InvalidState(format!(
                "session {session_id} is running"
            )));
        }
        let mut frames: Vec<FrameInfo> = match thread_id {
            "1" => self.program.states[s.pc]
                .frames
                .iter()
                .enumerate()
                .map(|(i, f)| FrameInfo {
                    index: i as u32,
                    handle: format!("{}:{i}", s.pc),
                    file: Some(Self::abs(&s.project, f.file)),
                    line: Some(f.line),
                    class_name: None,
                    method_name: Some(f.func.into()),
                    is_library: false,
                })
                .collect(),
            "2" => vec![],
            other => return Err(BackendError::NotFound(format!("thread {other}"))),
        };
        let n = frames.len() as u32;
        frames.push(FrameInfo {
            index: n,
            handle: "lib".into(),
            file: Some("/usr/lib/python3/runpy.py".into()),
            line: Some(86),
            class_name: None,
            method_name: Some("_run_code".into()),
            is_library: true,
        });
        let total = frames.len() as u32;
        let page = frames
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .collect();
        Ok(FramePage {
            frames: page,
            total: Some(total),
        })
    }

    async fn select_frame(
        &self,
        session_id: &str,
        _thread_id: &str,
        frame: &str,
    ) -> BackendResult<()> {
        self.enter(format!("select_frame {session_id} {frame}"))
            .await;
        Ok(())
    }

    async fn frame_variables(
        &self,
        session_id: &str,
        frame: &str,
    ) -> BackendResult<Vec<ValueNode>> {
        self.enter(format!("frame_variables {session_id} {frame}"))
            .await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if frame == "lib" {
            return Ok(Vec::new());
        }
        let (pc, index) = frame
            .split_once(':')
            .and_then(|(p, i)| Some((p.parse::<usize>().ok()?, i.parse::<usize>().ok()?)))
            .ok_or_else(|| BackendError::NotFound(format!("frame {frame}")))?;
        if pc != s.pc || !s.paused {
            return Err(BackendError::NotFound(format!(
                "frame {frame} is no longer valid"
            )));
        }
        let vars = self
            .frame_vars(s, index)
            .ok_or_else(|| BackendError::NotFound(format!("frame {frame}")))?;
        Ok(vars
            .iter()
            .map(|(name, v, scope)| {
                self.node(
                    name.clone(),
                    v,
                    *scope,
                    &format!("{pc}:{index}:{name}"),
                    true,
                )
            })
            .collect())
    }

    async fn children(
        &self,
        session_id: &str,
        handle: &str,
        offset: u32,
        limit: u32,
    ) -> BackendResult<ChildPage> {
        self.enter(format!("children {session_id} {handle}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let body = handle
            .strip_prefix("c:")
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let value = self.resolve(s, body)?;
        let kids = value.children();
        let total = kids.len() as u64;
        let settable = !body.starts_with('e');
        let children = kids
            .iter()
            .enumerate()
            .skip(offset as usize)
            .take(limit as usize)
            .map(|(i, (name, v))| {
                self.node(
                    name.clone(),
                    v,
                    ValueScope::Local,
                    &format!("{body}/{i}"),
                    settable,
                )
            })
            .collect();
        Ok(ChildPage {
            children,
            total: Some(total),
        })
    }

    async fn set_value(
        &self,
        session_id: &str,
        handle: &str,
        new_value: &str,
    ) -> BackendResult<ValueNode> {
        self.enter(format!("set_value {session_id} {handle}")).await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        let body = handle
            .strip_prefix("s:")
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let new = parse_literal(new_value)?;
        let mut parts = body.split('/');
        let head = parts.next().unwrap_or_default();
        let mut it = head.splitn(3, ':');
        let (pc, frame, var) = (it.next(), it.next(), it.next());
        let (Some(pc), Some(frame), Some(var)) = (pc, frame, var) else {
            return Err(BackendError::NotFound(format!("handle {handle}")));
        };
        let (pc, frame): (usize, usize) = (
            pc.parse().unwrap_or(usize::MAX),
            frame.parse().unwrap_or(usize::MAX),
        );
        if pc != s.pc || !s.paused {
            return Err(BackendError::NotFound(format!(
                "value handle {handle} is no longer valid"
            )));
        }
        let func = self.program.states[pc]
            .frames
            .get(frame)
            .map(|f| f.func.to_string())
            .unwrap_or_default();
        let vars = self
            .frame_vars(s, frame)
            .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        let mut root = vars
            .iter()
            .find(|(n, _, _)| n == var)
            .map(|(_, v, _)| v.clone())
            .ok_or_else(|| BackendError::NotFound(format!("variable {var}")))?;
        let mut slot = &mut root;
        for p in parts {
            let i: usize = p
                .parse()
                .map_err(|_| BackendError::NotFound(format!("handle {handle}")))?;
            slot = slot
                .child_mut(i)
                .ok_or_else(|| BackendError::NotFound(format!("handle {handle}")))?;
        }
        *slot = new.clone();
        s.overrides.insert((func, var.to_string()), root);
        Ok(self.node(var.to_string(), &new, ValueScope::Local, body, true))
    }

    async fn evaluate(&self, session_id: &str, request: EvalRequest) -> BackendResult<ValueNode> {
        self.enter(format!(
            "evaluate {session_id} {:?} {}",
            request.context, request.expression
        ))
        .await;
        let mut inner = self.lock();
        let s = Self::session_mut(&mut inner, session_id)?;
        if !s.paused {
            return Err(BackendError::InvalidState(format!(
                "session {session_id} is running"
            )));
        }
        let (pc, index) = request
            .frame
            .split_once(':')
            .and_then(|(p, i)| Some((p.parse::<usize>().ok()?, i.parse::<usize>().ok()?)))
            .ok_or_else(|| BackendError::NotFound(format!("frame {}", request.frame)))?;
        if pc != s.pc {
            return Err(BackendError::NotFound(format!(
                "frame {} is no longer valid",
                request.frame
            )));
        }
        let func = self.program.states[pc]
            .frames
            .get(index)
            .map(|f| f.func.to_string())
            .unwrap_or_default();
        let may_assign = request.allow_side_effects
            && matches!(
                request.context,
                EvalContext::Repl | EvalContext::CodeFragment
            );
        let mut result = FValue::None;
        for stmt in request
            .expression
            .split(['\n', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let vars = self.frame_vars(s, index).unwrap_or_default();
            let assignment = stmt.split_once('=').filter(|(l, r)| {
                !r.starts_with('=')
                    && !l.ends_with(['!', '<', '>', '='])
                    && l.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
            });
            if let Some((name, rhs)) = assignment {
                if !may_assign {
                    return Err(BackendError::Failed(
                        "SyntaxError: assignment is a side effect; not allowed here".into(),
                    ));
                }
                let v = eval_expr(rhs, &vars).map_err(BackendError::Failed)?;
                s.overrides
                    .insert((func.clone(), name.trim().to_string()), v);
                result = FValue::None;
            } else {
                let stmt = stmt.strip_prefix("return ").unwrap_or(stmt);
                result = eval_expr(stmt, &vars).map_err(BackendError::Failed)?;
            }
        }
        let n = s.evals.len();
        s.evals.push(result.clone());
        Ok(self.node(
            request.expression.clone(),
            &result,
            ValueScope::Local,
            &format!("e{n}"),
            false,
        ))
    }

    async fn read_source(&self, project: &str, path: &str) -> BackendResult<String> {
        self.enter(format!("read_source {path}")).await;
        match self.rel_of(project, path) {
            Some(rel) => Ok(Self::text_of(rel).to_string()),
            None => std::fs::read_to_string(path)
                .map_err(|e| BackendError::NotFound(format!("{path}: {e}"))),
        }
    }

    async fn confirm(&self, project: &str, request: ConfirmRequest) -> BackendResult<bool> {
        self.enter(format!("confirm {project} {}", request.title))
            .await;
        if self.can_confirm.load(Ordering::SeqCst) {
            Ok(self.confirm_answer.load(Ordering::SeqCst))
        } else {
            Err(BackendError::Unsupported("no user interface".into()))
        }
    }
}

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
