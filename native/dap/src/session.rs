//! Debug sessions: one adapter process each and what is known of it (capabilities, state,
//! process, value handles), the backend-wide state they share ([`Inner`]: project root,
//! session table, breakpoint store, event sink), and how a session ends.

use crate::adapters::{AdapterRef, Settings};
use crate::breakpoints::Override;
use crate::protocol::{self, Capabilities, DisconnectArguments, Request};
use crate::transport::{Client, DapError};
use crate::values::ValueTable;
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::{Located, PathMap};
use debugger_mcp_core::project::{self, BreakpointStore, SessionTable};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// Ordinary requests (stack, variables, evaluate, breakpoints…); below the core's own 10 s
/// budget per backend call so the error names the DAP request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(8);
/// A polite disconnect before the adapter process is killed.
pub const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// What the whole backend shares: one project, its sessions and breakpoints.
pub struct Inner {
    pub root: PathBuf,
    events: EventSink,
    pub sessions: SessionTable<Session>,
    pub bps: Mutex<BreakpointStore>,
    /// Exception filters adapters offered so far (for `handshake` and validation).
    pub known_filters: Mutex<Vec<ExceptionFilter>>,
    /// Whether the last adapter that started takes exception class names (checked while no
    /// session is live, as `known_filters` are).
    pub known_takes_classes: std::sync::atomic::AtomicBool,
    pub settings: Settings,
}

pub struct Session {
    pub id: String,
    pub name: String,
    pub run_configuration: Option<String>,
    pub mode: LaunchMode,
    pub adapter: AdapterRef,
    /// "launch" or "attach".
    pub request: String,
    /// The local process attached to by id: killed only by an explicit terminate.
    pub attach_pid: Option<u32>,
    /// Where the debuggee's files are (a container, another root): from the launch entry's
    /// mapping keys, applied here and not by the adapter, as for every backend.
    pub pathmap: std::sync::RwLock<PathMap>,
    pub client: Arc<Client>,
    pub caps: Mutex<Capabilities>,
    pub state: Mutex<SessionState>,
    pub process_id: Mutex<Option<u32>>,
    pub process_seen: Notify,
    pub exit_code: Mutex<Option<i64>>,
    /// Notified when an adapter that reports it late (delve) says the exit status.
    pub exit_seen: Notify,
    /// A file made for this session before the adapter started (delve's built binary):
    /// removed when the session ends.
    pub owned_file: Option<PathBuf>,
    /// The output of a pipeline into the program, read as its stdin; removed at the end.
    pub feed_file: Option<PathBuf>,
    /// An attach's trigger while it runs (see `trigger`): ended with the session.
    pub trigger: Mutex<Option<crate::trigger::Running>>,
    /// Why the session ended, once it did.
    pub ended: Mutex<Option<String>>,
    pub stopped_sent: AtomicBool,
    /// The adapter reported the debuggee's end (as opposed to dying itself).
    pub terminated: AtomicBool,
    pub initialized: AtomicBool,
    pub initialized_notify: Notify,
    pub stop_on_entry: bool,
    pub stop_on_exception: bool,
    pub first_stop_seen: AtomicBool,
    /// Attached, and the stop that attaching makes is still to come (see `Adapter::attach_stop`).
    pub attach_stop_pending: AtomicBool,
    /// Launched with a stop at the adapter's warm-up function still to come (see
    /// `Adapter::warm_up_function`); `warm_up_done` is notified when it has passed (or the
    /// session ended).
    pub warm_up_pending: AtomicBool,
    pub warm_up_done: Notify,
    /// DAP breakpoint id → our breakpoint id.
    pub bp_ids: Mutex<HashMap<i64, String>>,
    /// Watchpoints bound in this session (our id, what DAP needs to re-send them): data
    /// breakpoints name memory of this process, so they are not re-sent to other sessions.
    pub data_bps: Mutex<Vec<(String, crate::protocol::DataBreakpoint)>>,
    /// DAP ids of temporary breakpoints of our own (run-to, the entry function).
    pub temp_ids: Mutex<BTreeSet<i64>>,
    pub override_: Mutex<Option<Override>>,
    pub last_thread: Mutex<Option<i64>>,
    pub values: Mutex<ValueTable>,
    /// The fatal signal of the last stop, while no other stop followed: an end after it is
    /// that signal's doing, whatever status the adapter reports (gdb says 0, lldb-dap the
    /// signal's number).
    pub fatal_signal: Mutex<Option<i64>>,
    /// The program's latest output (bounded): a stop on SIGABRT quotes the abort's own words
    /// from it (a failed assertion, "*** stack smashing detected ***").
    pub output_tail: Mutex<String>,
    /// A step runs with the adapter's step exception filters added (see
    /// `Adapter::step_exception_filters`); cleared at the stop that ends it.
    pub step_exceptions: AtomicBool,
    /// The exception the last step stopped at ("ValueError: bad"): the next step runs without
    /// the step filters (it would stop again in every frame the exception passes) and its
    /// stop says where the exception went.
    pub step_exception: Mutex<Option<String>>,
    /// The step after a throw stop on its way to the handler (see `after_throw`).
    pub hunt: Mutex<Option<crate::after_throw::Hunt>>,
    /// The last run request was a step out (its stop may carry the returned value).
    pub stepped_out: AtomicBool,
    /// Functions broken on while a step runs, for adapters without step exception filters
    /// (delve: `runtime.gopanic`; see `step_raises`), and the DAP ids they bound as.
    pub step_functions: Mutex<Vec<&'static str>>,
    pub step_function_ids: Mutex<HashMap<i64, &'static str>>,
    /// The last stop is the program's fatal end (delve's unrecovered panic): a step from it
    /// runs the program to its end instead of walking the runtime's exit path.
    pub fatal_stop: AtomicBool,
    /// The result types of the function a step out leaves, for adapters that read the
    /// returned value from registers (delve; see `Adapter::before_step_out`).
    pub callee_results: Mutex<Vec<String>>,
    /// DAP ids of the breakpoints the exception filters were bound as (gdb's catchpoints).
    pub exception_bp_ids: Mutex<BTreeSet<i64>>,
    /// How deep each thread's stack was listed in this stop (see `values::walk_down`).
    pub stack_walks: Mutex<HashMap<i64, crate::values::StackWalk>>,
    /// Requests that may call the debuggee's functions, sent and not yet answered, as the
    /// event pump counts them (in order with the adapter's events).
    pub calls_in_flight: std::sync::atomic::AtomicU32,
    /// The program's stderr, where the adapter would report it as stdout.
    #[cfg(unix)]
    pub stderr_pipe: Mutex<Option<Arc<crate::program_stderr::StderrPipe>>>,
    /// Stops at breakpoints whose condition failed to evaluate, passed (see
    /// `events::pass_failed_conditions`).
    pub passes: Mutex<crate::events::Passes>,
    /// The last run of the program is a step (a stop inside it is the step's end).
    pub stepping: AtomicBool,
    /// Output chunks still to come that are the debugger's own message (see
    /// `Adapter::debugger_says`).
    pub debugger_lines: std::sync::atomic::AtomicU32,
    /// The command that sets the debugger's string limit back to the user's value, once read;
    /// held while an evaluation has it raised (see `string_limit`).
    pub string_limit: Arc<tokio::sync::Mutex<Option<String>>>,
}

debugger_mcp_core::table_entry!(Session);

impl Session {
    /// A session starting on `client`.
    pub fn new(
        id: String,
        launch: &crate::config::ResolvedLaunch,
        mode: LaunchMode,
        client: Arc<Client>,
        owned_file: Option<PathBuf>,
    ) -> Self {
        Session {
            id,
            name: launch.name.clone(),
            run_configuration: launch.run_configuration.clone(),
            mode,
            adapter: launch.adapter,
            request: launch.request.clone(),
            attach_pid: launch.attach_pid,
            pathmap: Default::default(),
            client,
            caps: Mutex::new(Capabilities::default()),
            state: Mutex::new(SessionState::Starting),
            process_id: Mutex::new(None),
            process_seen: Notify::new(),
            exit_code: Mutex::new(None),
            exit_seen: Notify::new(),
            owned_file,
            feed_file: launch.feed.as_ref().map(|f| f.1.clone()),
            trigger: Mutex::new(None),
            ended: Mutex::new(None),
            stopped_sent: AtomicBool::new(false),
            terminated: AtomicBool::new(false),
            initialized: AtomicBool::new(false),
            initialized_notify: Notify::new(),
            stop_on_entry: launch.stop_on_entry || launch.adapter.stops_on_entry(&launch.arguments),
            stop_on_exception: launch.stop_on_exception,
            first_stop_seen: AtomicBool::new(false),
            attach_stop_pending: AtomicBool::new(
                launch.request == "attach"
                    && launch.adapter.attach_stop() != crate::adapters::AttachStop::None,
            ),
            warm_up_pending: AtomicBool::new(false),
            warm_up_done: Notify::new(),
            bp_ids: Mutex::new(HashMap::new()),
            data_bps: Mutex::new(Vec::new()),
            temp_ids: Mutex::new(BTreeSet::new()),
            override_: Mutex::new(None),
            fatal_signal: Mutex::new(None),
            output_tail: Mutex::new(String::new()),
            step_exceptions: AtomicBool::new(false),
            step_exception: Mutex::new(None),
            hunt: Mutex::new(None),
            stepped_out: AtomicBool::new(false),
            step_functions: Mutex::new(Vec::new()),
            step_function_ids: Mutex::new(HashMap::new()),
            fatal_stop: AtomicBool::new(false),
            callee_results: Mutex::new(Vec::new()),
            calls_in_flight: Default::default(),
            stack_walks: Default::default(),
            exception_bp_ids: Default::default(),
            #[cfg(unix)]
            stderr_pipe: Mutex::new(None),
            passes: Default::default(),
            stepping: AtomicBool::new(false),
            debugger_lines: Default::default(),
            string_limit: Default::default(),
            last_thread: Mutex::new(None),
            values: Mutex::new(ValueTable::default()),
        }
    }

    pub fn info(&self) -> SessionInfo {
        SessionInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            state: *self.state.lock().unwrap(),
            run_configuration: self.run_configuration.clone(),
            process_id: *self.process_id.lock().unwrap(),
            mode: self.mode,
            attached: self.request == "attach",
            note: None,
        }
    }

    /// A capability the adapter declared (false when it did not say).
    pub fn cap(&self, which: impl Fn(&Capabilities) -> Option<bool>) -> bool {
        which(&self.caps.lock().unwrap()).unwrap_or(false)
    }

    /// Whether exception breakpoints may name classes (`KeyError`) here.
    pub fn takes_exception_classes(&self) -> bool {
        self.cap(|c| c.supports_exception_options)
            && self.adapter.exception_class_options(&[], &[]).is_some()
    }

    /// The exception filters the adapter offers.
    pub fn filters(&self) -> Vec<ExceptionFilter> {
        let caps = self.caps.lock().unwrap();
        caps.exception_breakpoint_filters
            .iter()
            .flatten()
            .filter(|f| !f.filter.is_empty())
            .map(|f| ExceptionFilter {
                id: f.filter.clone(),
                label: f.label.clone(),
            })
            .collect()
    }

    pub fn is_ended(&self) -> bool {
        self.ended.lock().unwrap().is_some()
    }

    /// Moves the session to `to` unless it has ended: the end is final (only
    /// [`Inner::mark_ended`] sets `Stopped`). Returns whether it moved.
    pub fn set_state(&self, to: SessionState) -> bool {
        // Never both locks at once (`control` takes `state`, then `ended`). An end landing in
        // between still ends as `Stopped`, and the core drops a pause reported after it.
        if self.is_ended() {
            return false;
        }
        let mut st = self.state.lock().unwrap();
        if *st == SessionState::Stopped {
            return false;
        }
        *st = to;
        true
    }

    fn ended_error(&self) -> Option<BackendError> {
        let why = self.ended.lock().unwrap().clone()?;
        Some(BackendError::InvalidState(format!(
            "session {} has ended ({why})",
            self.id
        )))
    }

    /// A command for the adapter's own console (`evaluate` in the `repl` context: gdb's and
    /// lldb's CLI, delve's `dlv` commands) in frame `frame_id`; what it printed.
    pub async fn repl(&self, command: &str, frame_id: Option<i64>) -> BackendResult<String> {
        let args = protocol::EvaluateArguments {
            expression: command.into(),
            frame_id,
            context: "repl",
        };
        Ok(self.req::<protocol::Evaluate>(&args).await?.result)
    }

    /// Sends an `R` request and waits for its answer ([`REQUEST_TIMEOUT`]).
    pub async fn req<R: Request>(&self, args: &R::Arguments) -> BackendResult<R::Response> {
        self.req_t::<R>(args, REQUEST_TIMEOUT).await
    }

    pub async fn req_t<R: Request>(
        &self,
        args: &R::Arguments,
        t: Duration,
    ) -> BackendResult<R::Response> {
        if let Some(e) = self.ended_error() {
            return Err(e);
        }
        self.client
            .request::<R>(args, t)
            .await
            .map_err(|e| self.error(e))
    }

    /// A transport error as the backend reports it.
    pub fn error(&self, e: DapError) -> BackendError {
        match e {
            DapError::Failed(m) => BackendError::Failed(without_terminal_codes(&m)),
            DapError::Timeout(..) => BackendError::Timeout(e.to_string()),
            DapError::Closed(m) => {
                let why = self.ended.lock().unwrap().clone().unwrap_or(m);
                BackendError::InvalidState(format!("session {} has ended ({why})", self.id))
            }
        }
    }

    pub fn require_paused(&self) -> BackendResult<()> {
        match *self.state.lock().unwrap() {
            SessionState::Paused => Ok(()),
            s => Err(BackendError::InvalidState(format!(
                "session {} is {}; this needs it paused",
                self.id,
                match s {
                    SessionState::Starting => "starting",
                    SessionState::Running => "running",
                    SessionState::Stopped => "stopped",
                    SessionState::Paused => "paused",
                }
            ))),
        }
    }

    /// Value handles are valid until the next resume.
    pub fn clear_values(&self) {
        *self.values.lock().unwrap() = ValueTable::default();
        self.stack_walks.lock().unwrap().clear();
    }

    /// Ends the session as it began: a launched debuggee is terminated, an attached one is
    /// detached from and keeps running (see [`Session::shutdown_with`]).
    pub async fn shutdown(&self) {
        self.shutdown_with(self.request == "launch").await
    }

    /// Sends `disconnect` (terminating the debuggee when `terminate`), then kills the adapter.
    /// Makes sure a terminated debuggee is gone: gdb leaves a ptrace'd inferior running when
    /// gdb itself is killed.
    pub async fn shutdown_with(&self, terminate: bool) {
        let args = DisconnectArguments {
            terminate_debuggee: terminate,
            restart: Some(false),
        };
        let _ = self
            .client
            .request::<protocol::Disconnect>(&args, DISCONNECT_TIMEOUT)
            .await;
        self.client.kill().await;
        let local = self.request == "launch" || self.attach_pid.is_some();
        if terminate
            && local
            && let Some(pid) = *self.process_id.lock().unwrap()
            && Path::new(&format!("/proc/{pid}")).exists()
        {
            kill_process(pid);
        }
        for f in self.owned_file.iter().chain(&self.feed_file) {
            let _ = std::fs::remove_file(f);
        }
        #[cfg(unix)]
        crate::program_stderr::remove(self);
    }

    /// The path the debuggee knows a project file by.
    pub fn remote_path(&self, local: &str) -> String {
        let map = self.pathmap.read().unwrap();
        if map.is_empty() {
            return local.to_string();
        }
        map.to_remote(Path::new(local))
    }

    /// The project path of a path the adapter reported; one no mapping covers stays as it was
    /// (outside the project, so never shown as a project file).
    pub fn local_path(&self, remote: &str) -> String {
        let map = self.pathmap.read().unwrap();
        if map.is_empty() {
            return remote.to_string();
        }
        match map.to_local(remote) {
            Located::Local(p) => p.display().to_string(),
            Located::Unmapped(r) => r,
        }
    }
}

/// SIGKILL to a debuggee the adapter left behind.
pub fn kill_process(pid: u32) {
    let _ = std::process::Command::new("kill")
        .arg("-9")
        .arg(pid.to_string())
        .status();
}

/// Children of a process (Linux: /proc/PID/task/*/children; elsewhere none).
pub fn child_pids(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        let text = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|p| p.parse::<u32>().ok()),
        );
    }
    out
}

impl Inner {
    pub fn new(root: PathBuf, events: EventSink) -> Self {
        Inner {
            root,
            events,
            sessions: SessionTable::new('s'),
            bps: Mutex::new(BreakpointStore::new("")),
            known_filters: Mutex::new(Vec::new()),
            known_takes_classes: Default::default(),
            settings: Settings::default(),
        }
    }

    pub fn next_session_id(&self) -> String {
        self.sessions.next_id()
    }

    pub fn add_session(&self, session: Arc<Session>) {
        self.sessions.add(session);
    }

    pub fn check_project(&self, project: &str) -> BackendResult<()> {
        project::check_project(&self.root, project)
    }

    pub fn session(&self, id: &str) -> BackendResult<Arc<Session>> {
        self.sessions.get(id)
    }

    /// A session that has not ended.
    pub fn live(&self, id: &str) -> BackendResult<Arc<Session>> {
        let s = self.session(id)?;
        match s.ended_error() {
            Some(e) => Err(e),
            None => Ok(s),
        }
    }

    pub fn live_sessions(&self) -> Vec<Arc<Session>> {
        self.sessions.live()
    }

    /// A project file as an absolute, canonical path.
    pub fn absolute(&self, file: &str) -> PathBuf {
        let p = Path::new(file);
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        };
        std::fs::canonicalize(&p).unwrap_or(p)
    }

    /// A canonical path inside the project, for a path an adapter reported.
    pub fn in_project(&self, path: &str) -> Option<PathBuf> {
        Some(std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path)))
            .filter(|p| p.starts_with(&self.root))
    }

    pub fn is_library(&self, file: Option<&str>) -> bool {
        match file {
            None => true,
            Some(f) => !Path::new(f).starts_with(&self.root),
        }
    }

    pub fn emit(&self, e: BackendEvent) {
        self.events.send(e);
    }

    /// Records the session's end (once) and reports it: breakpoints go back to pending first,
    /// so whoever reacts to `Stopped` sees them so.
    pub fn mark_ended(&self, s: &Session, why: String) {
        {
            let mut e = s.ended.lock().unwrap();
            if e.is_none() {
                *e = Some(why);
            }
        }
        *s.state.lock().unwrap() = SessionState::Stopped;
        s.clear_values();
        s.warm_up_done.notify_waiters();
        if let Some(t) = s.trigger.lock().unwrap().as_ref() {
            if s.request == "attach" {
                // Detached (or the program went, which ends the request anyway): the program
                // answers the request the pause held, so the trigger may finish.
                t.end_after(crate::trigger::AFTER_DETACH);
            } else {
                t.end();
            }
        }
        if !s.stopped_sent.swap(true, Ordering::SeqCst) {
            self.after_session_end();
            let mut exit_code = *s.exit_code.lock().unwrap();
            let signal = *s.fatal_signal.lock().unwrap();
            if let Some(sig) = signal
                && (matches!(exit_code, None | Some(0))
                    || exit_code.is_some_and(|c| c == sig || c == 128 + sig))
            {
                // The negative signal number: the core names it ("killed by SIGSEGV").
                exit_code = Some(-sig);
            }
            self.emit(BackendEvent::Stopped {
                session_id: s.id.clone(),
                exit_code,
            });
        }
        // Wake anyone waiting for the configuration phase or the process event.
        s.initialized_notify.notify_waiters();
        s.process_seen.notify_waiters();
    }

    /// Kills what is left of every session, without awaiting (the backend is being dropped).
    pub fn kill_all_now(&self) {
        // Adapter processes are killed when their clients drop (kill_on_drop + Client::drop);
        // gdb's inferiors are killed explicitly since a killed gdb leaves them running.
        for s in self.sessions.all() {
            s.client.kill_now();
            if let Some(t) = s.trigger.lock().unwrap().as_ref() {
                t.kill_now();
            }
            if !s.is_ended()
                && s.request == "launch"
                && let Some(pid) = *s.process_id.lock().unwrap()
            {
                kill_process(pid);
            }
        }
    }
}

/// `text` without terminal escape sequences (`ESC [ … letter`): a debugger's CLI may colour
/// its messages, and an agent reads them as text.
pub fn without_terminal_codes(text: &str) -> String {
    if !text.contains('\x1b') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, up to the final byte (a letter, `@`..`~`).
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod terminal_code_tests {
    #[test]
    fn colour_codes_are_taken_out_of_messages() {
        assert_eq!(
            super::without_terminal_codes("'\x1b[33;49;1mstrlen\x1b[m' has unknown return type"),
            "'strlen' has unknown return type"
        );
        assert_eq!(super::without_terminal_codes("plain"), "plain");
    }
}
