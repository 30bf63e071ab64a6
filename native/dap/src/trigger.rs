//! An attach's trigger (`LaunchRequest::trigger`): the command that sends a service the request
//! its breakpoints wait for (`curl -s localhost:8000/x`), run once the attach is configured.
//! It runs as `sh -c` runs it (redirections, pipes, `VAR=value`), as a pipeline's input and
//! PHP's triggers do, apart from the debuggee: stdin empty, its own process group, so the
//! session's end ends all of it — at once when the program is gone with it (terminate, a
//! launch's end), after [`AFTER_DETACH`] when it runs on (a detach: the request the pause held
//! is answered then, and the core shows that answer). Its end is reported as `BackendEvent::TriggerEnded` with the
//! start of its output; the core decides what the agent sees of it.

use crate::session::{Inner, Session};
use debugger_mcp_core::backend::{BackendError, BackendEvent, BackendResult};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// Output kept per trigger (its start; the byte count of all of it goes with it).
const KEEP: usize = 16 * 1024;
/// After the trigger exits, how long its pipes may still deliver (a background child of it
/// holding them open is not waited for).
const DRAIN: Duration = Duration::from_millis(500);
/// From SIGTERM to SIGKILL when the session ends it.
const TERM_GRACE: Duration = Duration::from_secs(2);
/// How long a trigger runs on after its attached session ended (a detach: the program runs on
/// and answers the request the pause held; killing the trigger then would cut a service's
/// request off mid-answer; stop_debug_session waits a little for it and shows its answer).
pub const AFTER_DETACH: Duration = Duration::from_secs(30);

/// A running trigger, held by its session.
pub struct Running {
    /// Its process group (= the shell's pid).
    pgid: u32,
    /// Asks the watcher to end it.
    end: tokio::sync::mpsc::UnboundedSender<()>,
}

impl Running {
    /// Ends it: the watcher sends SIGTERM to its group, SIGKILL after [`TERM_GRACE`] (it alone
    /// signals, and only before it reaps the shell: no recycled group is hit).
    pub fn end(&self) {
        let _ = self.end.send(());
    }

    /// Lets it run on for `after`, then ends it as [`Running::end`] does if it still runs.
    pub fn end_after(&self, after: Duration) {
        let end = self.end.clone();
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => {
                rt.spawn(async move {
                    tokio::time::sleep(after).await;
                    let _ = end.send(());
                });
            }
            Err(_) => self.end(),
        }
    }

    /// Ends it without waiting for anything (the backend is being dropped).
    pub fn kill_now(&self) {
        signal_group(self.pgid, Signal::Kill);
    }
}

enum Signal {
    Term,
    Kill,
}

fn signal_group(pgid: u32, sig: Signal) {
    #[cfg(unix)]
    // SAFETY: kill(2) on the process group of a child we spawned; no memory is touched.
    unsafe {
        libc::kill(
            -(pgid as i32),
            match sig {
                Signal::Term => libc::SIGTERM,
                Signal::Kill => libc::SIGKILL,
            },
        );
    }
    #[cfg(not(unix))]
    let _ = (pgid, sig);
}

#[derive(Default)]
struct Output {
    kept: Vec<u8>,
    total: u64,
}

/// Starts `command` for session `s` in `cwd`; its end goes out as an event. An error means
/// nothing runs.
pub fn start(inner: &Arc<Inner>, s: &Arc<Session>, command: &str, cwd: &Path) -> BackendResult<()> {
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| {
        BackendError::Failed(format!(
            "cannot run the trigger `{command}` in {}: {e}",
            cwd.display()
        ))
    })?;
    let pgid = child.id().unwrap_or_default();
    let (end_tx, mut end_rx) = tokio::sync::mpsc::unbounded_channel();
    *s.trigger.lock().unwrap() = Some(Running { pgid, end: end_tx });
    let out = Arc::new(Mutex::new(Output::default()));
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
    ]
    .into_iter()
    .flatten()
    .map(|mut pipe| {
        let out = out.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                let mut o = out.lock().unwrap();
                o.total += n as u64;
                let room = KEEP.saturating_sub(o.kept.len()).min(n);
                o.kept.extend_from_slice(&buf[..room]);
            }
        })
    })
    .collect();
    let (inner, s, command) = (inner.clone(), s.clone(), command.to_string());
    tokio::spawn(async move {
        let status = tokio::select! {
            st = child.wait() => st,
            _ = end_rx.recv() => {
                // Not reaped yet (this task reaps it): the group is still the trigger's.
                signal_group(pgid, Signal::Term);
                let graceful = tokio::time::timeout(TERM_GRACE, child.wait()).await;
                match graceful {
                    Ok(st) => st,
                    Err(_) => {
                        signal_group(pgid, Signal::Kill);
                        child.wait().await
                    }
                }
            }
        };
        let _ = tokio::time::timeout(DRAIN, futures::future::join_all(readers)).await;
        s.trigger.lock().unwrap().take();
        let exit_code = status.ok().and_then(|st| {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                st.code()
                    .map(i64::from)
                    .or(st.signal().map(|sig| -i64::from(sig)))
            }
            #[cfg(not(unix))]
            st.code().map(i64::from)
        });
        let (output, output_bytes) = {
            let o = out.lock().unwrap();
            (String::from_utf8_lossy(&o.kept).into_owned(), o.total)
        };
        inner.emit(BackendEvent::TriggerEnded {
            session_id: s.id.clone(),
            command,
            exit_code,
            output,
            output_bytes,
        });
    });
    Ok(())
}
