//! Starting a session: resolve the run configuration or command, prepare (the adapter's own
//! step, e.g. a Go build), start the adapter, then DAP's configuration handshake.

use crate::config::{self, ResolvedLaunch};
use crate::events::spawn_pump;
use crate::protocol::{self, InitializeArguments};
use crate::session::{Inner, Session, child_pids};
use crate::transport::{Client, DapError};
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::PathMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Each phase of a launch (initialized, configurationDone, the launch response): adapters start
/// the debuggee there (debugpy spawns a launcher, gdb loads symbols).
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(25);
/// How long the launch waits for the `process` event that gives the debuggee's pid.
const PROCESS_EVENT_WAIT: Duration = Duration::from_secs(3);

/// How much longer than a plain launch starting `request` may take (a build first).
pub fn allowance(inner: &Inner, request: &LaunchRequest) -> Duration {
    match config::resolve(&inner.root, request) {
        Ok(r) => r.adapter.prepare_allowance(&r, &inner.settings),
        Err(_) => Duration::ZERO,
    }
}

/// The launch entry's path mappings (debugpy `pathMappings`/`localRoot`+`remoteRoot`, delve
/// `substitutePath`, cpptools `sourceFileMap`), taken out of what the adapter is sent: the
/// session applies them (breakpoints out, stops back) with the core's one implementation, as
/// the DBGp backend does, so every adapter maps alike and none maps twice.
fn take_path_mappings(resolved: &mut ResolvedLaunch) -> PathMap {
    let map = std::mem::take(&mut resolved.pathmap);
    if !map.is_empty() {
        let arguments = &mut resolved.arguments;
        for key in [
            "pathMappings",
            "localRoot",
            "remoteRoot",
            "substitutePath",
            "sourceFileMap",
        ] {
            arguments.remove(key);
        }
    }
    map
}

pub async fn launch(inner: &Arc<Inner>, mut req: LaunchRequest) -> BackendResult<SessionInfo> {
    if req.adapter.is_none()
        && req.configuration.is_none()
        && let Some(AttachTarget::Address(addr)) = &req.attach
        && let Some(a) = crate::attach::adapter_at(addr).await
    {
        req.adapter = Some(a.name().to_string());
    }
    let mut resolved: ResolvedLaunch = config::resolve(&inner.root, &req)?;
    let pathmap = take_path_mappings(&mut resolved);
    let adapter = resolved.adapter;
    let (program, args) = adapter.command(resolved.python.as_deref())?;
    if let Some((input, file)) = &resolved.feed {
        feed(input, file, &resolved.cwd).await?;
    }
    let owned_file = adapter
        .prepare(&mut resolved, &inner.root, &inner.settings)
        .await
        .map_err(|e| match e {
            BackendError::Failed(m) => {
                BackendError::Failed(format!("launching '{}' failed: {m}", resolved.name))
            }
            other => other,
        })?;
    let started = match &resolved.connect {
        Some(addr) => Client::connect(adapter.name(), addr).await.map_err(|e| {
            BackendError::Failed(format!(
                "cannot connect to the {} at {addr}: {e}; is it listening there (debugpy --listen {addr}, dlv --headless --listen={addr} --accept-multiclient)?",
                adapter.name()
            ))
        }),
        None => Client::spawn(
            adapter.name(),
            &program,
            &args,
            &resolved.cwd,
            adapter.wire(),
        )
        .await
        .map_err(|e| {
            BackendError::Failed(format!(
                "cannot start the {} adapter ({program}): {e}; {}",
                adapter.name(),
                adapter.spawn_hint()
            ))
        }),
    };
    let (client, rx) = match started {
        Ok(c) => c,
        Err(e) => {
            if let Some(f) = &owned_file {
                let _ = std::fs::remove_file(f);
            }
            return Err(e);
        }
    };
    let session = Arc::new(Session::new(
        inner.next_session_id(),
        &resolved,
        req.mode,
        client.clone(),
        owned_file,
    ));
    *session.pathmap.write().unwrap() = pathmap;
    if resolved.attach_pid.is_some() {
        *session.process_id.lock().unwrap() = resolved.attach_pid;
    }
    // Hit counts are per debug session (the store keeps breakpoints across sessions), and so
    // is what a condition that failed to evaluate did in it.
    inner.bps.lock().unwrap().list.iter_mut().for_each(|b| {
        b.hit_count = None;
        if b.message
            .as_deref()
            .is_some_and(|m| m.contains(debugger_mcp_core::backend::CONDITION_FAILS))
        {
            b.message = None;
        }
    });
    inner.add_session(session.clone());
    spawn_pump(inner, session.clone(), rx);
    // SessionStarted goes out before anything the adapter can report (a stop on entry).
    inner.emit(BackendEvent::SessionStarted {
        session: session.info(),
    });
    match configure(inner, &session, &resolved).await {
        Ok(()) => {}
        // A program that ran to its end during the start sequence (quick scripts, run
        // mode) was launched fine; the Stopped event already tells that it ended.
        Err(_) if session.terminated.load(Ordering::SeqCst) => {}
        Err(e) => {
            let tail = client.stderr_tail();
            inner.mark_ended(&session, format!("launch failed: {e}"));
            session.shutdown().await;
            let hint = if tail.trim().is_empty() {
                String::new()
            } else {
                format!(" (adapter stderr: {})", tail.trim())
            };
            return Err(match e {
                BackendError::Failed(m) | BackendError::InvalidState(m) => {
                    BackendError::Failed(format!("launching '{}' failed: {m}{hint}", resolved.name))
                }
                other => other,
            });
        }
    }
    if !session.is_ended() {
        adapter.after_configured(&session).await;
    }
    if resolved.connect.is_some() && !session.is_ended() {
        crate::attach::infer_mapping(inner, &session).await;
    }
    if let Some(command) = req.trigger.as_deref().filter(|_| !session.is_ended()) {
        let cwd = req
            .cwd
            .as_deref()
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| inner.root.clone());
        if let Err(e) = crate::trigger::start(inner, &session, command, &cwd) {
            inner.mark_ended(&session, format!("the trigger did not start: {e}"));
            session.shutdown().await;
            return Err(e);
        }
    }
    Ok(session.info())
}

/// How long the commands piped into the program (`gen | ./prog`) may run before it starts.
const FEED_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs a pipeline's input (`gen` of `gen | ./prog`) with `sh` in `cwd`, its output into
/// `file`, which the program reads as stdin: the debugged process stays the program itself.
async fn feed(input: &str, file: &Path, cwd: &Path) -> BackendResult<()> {
    let out = std::fs::File::create(file).map_err(|e| {
        BackendError::Failed(format!(
            "cannot create {} for the piped input: {e}",
            file.display()
        ))
    })?;
    let child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(input)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| BackendError::Failed(format!("cannot run '{input}' (before the '|'): {e}")))?;
    let done = tokio::time::timeout(FEED_TIMEOUT, child.wait_with_output()).await;
    let fail = |why: String| {
        let _ = std::fs::remove_file(file);
        BackendError::Failed(format!(
            "'{input}' (piped into the program) {why}; nothing was started"
        ))
    };
    match done {
        Err(_) => Err(fail(format!(
            "did not end within {} s: write its output to a file and use '< file'",
            FEED_TIMEOUT.as_secs()
        ))),
        Ok(Err(e)) => Err(fail(format!("failed: {e}"))),
        Ok(Ok(o)) if !o.status.success() => Err(fail(format!(
            "ended with {}: {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ))),
        Ok(Ok(_)) => Ok(()),
    }
}

/// initialize → launch/attach (answered late) → initialized → breakpoints →
/// configurationDone → launch response → process event.
async fn configure(inner: &Arc<Inner>, s: &Arc<Session>, r: &ResolvedLaunch) -> BackendResult<()> {
    let caps = s
        .req::<protocol::Initialize>(&InitializeArguments {
            client_id: "debugger-mcp",
            client_name: "Debugger MCP",
            adapter_id: r.adapter.name(),
            locale: "en",
            lines_start_at1: true,
            columns_start_at1: true,
            path_format: "path",
            supports_variable_type: true,
            supports_variable_paging: true,
            supports_run_in_terminal_request: false,
            supports_progress_reporting: false,
            supports_invalidated_event: false,
            supports_start_debugging_request: false,
        })
        .await?;
    *s.caps.lock().unwrap() = caps;
    inner.known_takes_classes.store(
        s.takes_exception_classes(),
        std::sync::atomic::Ordering::Relaxed,
    );
    {
        let mut known = inner.known_filters.lock().unwrap();
        for f in s.filters() {
            if !known.iter().any(|k| k.id == f.id) {
                known.push(f);
            }
        }
    }
    // Register for `initialized` before sending launch so the notification is not missed.
    let init = s.initialized_notify.notified();
    tokio::pin!(init);
    init.as_mut().enable();
    let attach = r.request == "attach";
    let sent = if attach {
        s.client.send::<protocol::Attach>(&r.arguments).await
    } else {
        s.client.send::<protocol::Launch>(&r.arguments).await
    };
    let mut launch_answer = sent.map_err(|e| s.error(e))?;
    let mut answered = false;
    if !s.initialized.load(Ordering::SeqCst) {
        tokio::select! {
            _ = &mut init => {}
            a = &mut launch_answer => {
                // Some adapters answer launch before `initialized`; a failure ends it here.
                let a = a.unwrap_or_else(|_| Err(DapError::Closed("adapter connection dropped".into())));
                if let Err(e) = a { return Err(s.error(e)); }
                answered = true;
                if !s.initialized.load(Ordering::SeqCst) {
                    tokio::time::timeout(LAUNCH_TIMEOUT, &mut init).await.map_err(|_| BackendError::Timeout(
                        "the adapter sent no 'initialized' event".into()))?;
                }
            }
            _ = tokio::time::sleep(LAUNCH_TIMEOUT) => {
                return Err(BackendError::Timeout("the adapter sent no 'initialized' event".into()));
            }
        }
    }
    if s.is_ended() {
        return Err(BackendError::Failed(
            s.ended.lock().unwrap().clone().unwrap_or_default(),
        ));
    }
    inner.sync_all_lines(s).await?;
    inner.sync_exceptions(s).await?;
    if s.stop_on_entry
        && !attach
        && let Some(main) = s.adapter.entry_function()
    {
        // "Entry" means the start of main, as gdb's stopAtBeginningOfMainSubprogram does; it
        // goes in the function breakpoint list (DAP replaces it whole) as a temporary stop.
        inner.sync_functions(s, Some(main)).await?;
    } else if !attach
        && s.mode != LaunchMode::Run
        && let Some(first) = s.adapter.warm_up_function()
    {
        // A silent stop before the program's own code (see `Adapter::warm_up_function`): the
        // start waits for it, so the user's first pause or breakpoint is not the slow stop.
        inner.sync_functions(s, Some(first)).await?;
        let armed = !s.temp_ids.lock().unwrap().is_empty();
        s.warm_up_pending.store(armed, Ordering::SeqCst);
    }
    let warmed = s.warm_up_done.notified();
    tokio::pin!(warmed);
    warmed.as_mut().enable();
    for command in s.adapter.repl_setup() {
        if let Err(e) = s.repl(&command, None).await {
            tracing::warn!(adapter = s.adapter.name(), "setup command failed: {e}");
        }
    }
    // Pointed at a file by the command line, the program's stderr is not gdb's to mix.
    #[cfg(unix)]
    if !attach && !r.redirects.iter().any(|d| d.fd == 2) {
        crate::program_stderr::redirect(inner, s).await;
    }
    if s.cap(|c| c.supports_configuration_done_request) {
        s.req_t::<protocol::ConfigurationDone>(&(), LAUNCH_TIMEOUT)
            .await?;
    }

    if !answered {
        let answer = if attach {
            Client::wait::<protocol::Attach>(launch_answer, LAUNCH_TIMEOUT).await
        } else {
            Client::wait::<protocol::Launch>(launch_answer, LAUNCH_TIMEOUT).await
        };
        answer.map_err(|e| s.error(e))?;
    }
    if s.warm_up_pending.load(Ordering::SeqCst)
        && !s.is_ended()
        && tokio::time::timeout(LAUNCH_TIMEOUT, &mut warmed)
            .await
            .is_err()
    {
        tracing::warn!(
            adapter = s.adapter.name(),
            "the program did not reach the warm-up stop; its first stop will be slower"
        );
    }
    {
        let mut st = s.state.lock().unwrap();
        if *st == SessionState::Starting {
            *st = SessionState::Running;
        }
    }
    if attach {
        return Ok(());
    }
    if s.adapter.debuggee_is_child() {
        // No `process` event: the program it launched (stopped until configurationDone) is its
        // only child by now. Known, it is killed with the session.
        let child = s
            .client
            .pid()
            .and_then(|p| child_pids(p).into_iter().next());
        *s.process_id.lock().unwrap() = child;
    } else if s.process_id.lock().unwrap().is_none() {
        // The process id comes in an event right after the launch; wait briefly for it so the
        // returned SessionInfo carries it (event-driven, bounded).
        let seen = s.process_seen.notified();
        tokio::pin!(seen);
        seen.as_mut().enable();
        if s.process_id.lock().unwrap().is_none() && !s.is_ended() {
            let _ = tokio::time::timeout(PROCESS_EVENT_WAIT, seen).await;
        }
    }
    Ok(())
}
