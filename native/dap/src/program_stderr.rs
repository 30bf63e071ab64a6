//! The program's stderr told apart from its stdout where the adapter mixes them (gdb's DAP
//! sends both as "stdout"): the adapter's [`stderr_redirect`](crate::adapters::Adapter::stderr_redirect)
//! command points the program's stderr at a named pipe, read here and reported as stderr.
//! Unix only (named pipes); elsewhere stderr keeps the adapter's label.

use crate::events::on_output;
use crate::protocol::OutputEvent;
use crate::session::{Inner, Session};
use std::sync::Arc;
use std::time::Duration;

/// Reports what the program wrote to stderr up to now, if it goes through a pipe: called at
/// a stop (an abort's text is quoted by it) and at the end.
pub fn drain(inner: &Inner, s: &Session) {
    let pipe = s.stderr_pipe.lock().unwrap().clone();
    if let Some(p) = pipe {
        p.drain(inner, s);
        // The program runs (it stopped, or ended): its shell opened the pipe long ago, so
        // its name can go (the open ends stay), even if this process is killed later.
        p.remove();
    }
}

/// Removes the pipe's name, at the session's end.
pub fn remove(s: &Session) {
    if let Some(p) = s.stderr_pipe.lock().unwrap().as_ref() {
        p.remove();
    }
}

/// The program's stderr read from a named pipe, for adapters that report it as stdout
/// ([`Adapter::stderr_redirect`](crate::adapters::Adapter::stderr_redirect)).
pub struct StderrPipe {
    rx: tokio::net::unix::pipe::Receiver,
    dir: std::path::PathBuf,
    /// Bytes of a character cut by a read; held by whoever is reading, so output stays in
    /// order between the reader task and a stop's drain.
    carry: std::sync::Mutex<Vec<u8>>,
}

impl StderrPipe {
    fn remove(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// Reports what the program wrote to stderr so far (never waits).
    fn drain(&self, inner: &Inner, s: &Session) {
        let mut carry = self.carry.lock().unwrap();
        let mut buf = [0u8; 8192];
        while let Ok(n) = self.rx.try_read(&mut buf) {
            if n == 0 {
                break;
            }
            carry.extend_from_slice(&buf[..n]);
        }
        let whole = match std::str::from_utf8(&carry) {
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            _ => carry.len(),
        };
        if whole == 0 {
            return;
        }
        let bytes: Vec<u8> = carry.drain(..whole).collect();
        let event = OutputEvent {
            category: Some("stderr".into()),
            output: String::from_utf8_lossy(&bytes).into_owned(),
            ..Default::default()
        };
        on_output(inner, s, event);
    }
}

/// Points the program's stderr at a named pipe read here, when the adapter mixes it into stdout
/// (before the program starts). Best effort: without it, stderr keeps the adapter's label.
pub async fn redirect(inner: &Arc<Inner>, s: &Arc<Session>) {
    // Unique in the machine: several backends (tests) in one process number sessions alike.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("debugger-mcp-{}-{n}-stderr", std::process::id()));
    let fifo = dir.join("stderr");
    let Some(command) = s.adapter.stderr_redirect(&fifo) else {
        return;
    };
    let opened = std::fs::create_dir_all(&dir).ok().and_then(|()| {
        make_fifo(&fifo)?;
        // Opened for writing too, so that reading never sees an end before the program
        // opens it (or after it exits, when a child may still write).
        tokio::net::unix::pipe::OpenOptions::new()
            .read_write(true)
            .open_receiver(&fifo)
            .ok()
    });
    let Some(rx) = opened else {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    };
    if s.repl(&command, None).await.is_err() {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let pipe = Arc::new(StderrPipe {
        rx,
        dir,
        carry: Default::default(),
    });
    *s.stderr_pipe.lock().unwrap() = Some(pipe.clone());
    let (inner, s) = (inner.clone(), s.clone());
    tokio::spawn(async move {
        while !s.is_ended() {
            // Bounded, so the task notices the session's end (the pipe never ends by itself).
            if let Ok(Err(_)) =
                tokio::time::timeout(Duration::from_millis(500), pipe.rx.readable()).await
            {
                break;
            }
            pipe.drain(&inner, &s);
        }
        // What the program wrote last, before the end was reported.
        pipe.drain(&inner, &s);
        pipe.remove();
    });
}

fn make_fifo(path: &std::path::Path) -> Option<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    (unsafe { libc::mkfifo(c.as_ptr(), 0o600) } == 0).then_some(())
}
