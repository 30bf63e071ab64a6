//! The debugger's own string limit (gdb's `print elements`), raised for one evaluation so that
//! an agent's expression shows a string whole, then set back to the user's value.
//!
//! Only an expression's evaluation runs with it raised: a repl command of the user's runs at
//! their own limit (`show print elements` says theirs, `set print elements 50` sets it). Their
//! value is read before the first raise of a session (it may come from a `.gdbinit`), and
//! again after a repl command, which may have set it. The raised limit is set back
//! even when the evaluation is given up on (the caller's timeout drops its future): a guard
//! sends the restore from a task of its own. The session's lock is held from the raise to the
//! restore, so the next evaluation's raise cannot overtake a restore still to be sent; the
//! debugger runs requests in the order sent, so the restore comes after the given-up
//! evaluation and before anything asked later.

use crate::adapters::StringLimit;
use crate::session::Session;
use std::sync::Arc;
use tokio::sync::OwnedMutexGuard;

/// A raised limit, set back by [`Raised::set_back`] or, when dropped first, by a task.
pub(crate) struct Raised {
    s: Arc<Session>,
    held: Option<OwnedMutexGuard<Option<String>>>,
}

impl Raised {
    /// Raises `limit` for one evaluation of an expression.
    pub(crate) async fn raise(s: Arc<Session>, limit: StringLimit) -> Raised {
        let mut held = s.string_limit.clone().lock_owned().await;
        if held.is_none() {
            let shown = s.repl(limit.show, None).await;
            *held = shown.ok().and_then(|shown| (limit.restore)(&shown));
        }
        // Unreadable (an ended session): nothing is raised, nothing to set back. Held before
        // the raise is sent: a caller giving up while it is in flight still sets it back.
        let raising = held.is_some();
        let raised = Raised {
            s,
            held: raising.then_some(held),
        };
        if raising {
            let _ = raised.s.repl(&limit.raise, None).await;
        }
        raised
    }

    /// Sets the user's limit back now (the evaluation is done).
    pub(crate) async fn set_back(mut self) {
        if let Some(held) = self.held.take() {
            set_back(&self.s, held).await;
        }
    }
}

impl Drop for Raised {
    fn drop(&mut self) {
        let Some(held) = self.held.take() else {
            return;
        };
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let s = self.s.clone();
        rt.spawn(async move { set_back(&s, held).await });
    }
}

async fn set_back(s: &Session, held: OwnedMutexGuard<Option<String>>) {
    if let Some(back) = held.as_deref() {
        let _ = s.repl(back, None).await;
    }
}

/// After a repl command (which may have set the limit): the user's value is read again
/// before the next raise.
pub(crate) async fn forget(s: &Session) {
    *s.string_limit.lock().await = None;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    use tokio::sync::mpsc;

    /// A debugger that answers `show print elements` with 200, sends no answer to the raise
    /// (it is still in flight), and reports every repl command it is sent.
    async fn debugger() -> (String, mpsc::UnboundedReceiver<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let (r, mut w) = stream.into_split();
            let mut r = BufReader::new(r);
            loop {
                let mut len = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    match line.trim() {
                        "" => break,
                        h => {
                            if let Some(n) = h.strip_prefix("Content-Length:") {
                                len = n.trim().parse().unwrap();
                            }
                        }
                    }
                }
                let mut body = vec![0; len];
                r.read_exact(&mut body).await.unwrap();
                let msg: Value = serde_json::from_slice(&body).unwrap();
                let command = msg["arguments"]["expression"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                let _ = tx.send(command.clone());
                if command.starts_with("set print elements 16") {
                    continue;
                }
                let result = if command == "show print elements" {
                    "Limit on string chars or array elements to print is 200."
                } else {
                    ""
                };
                let answer = json!({"seq": 1, "type": "response", "request_seq": msg["seq"],
                    "success": true, "command": "evaluate",
                    "body": {"result": result, "variablesReference": 0}})
                .to_string();
                let framed = format!("Content-Length: {}\r\n\r\n{answer}", answer.len());
                w.write_all(framed.as_bytes()).await.unwrap();
            }
        });
        (addr, rx)
    }

    fn session(client: Arc<crate::transport::Client>) -> Arc<Session> {
        let launch = crate::config::ResolvedLaunch {
            name: "gdb".into(),
            adapter: crate::adapters::find("gdb").unwrap(),
            request: "launch".into(),
            arguments: Default::default(),
            cwd: ".".into(),
            run_configuration: None,
            python: None,
            stop_on_entry: false,
            stop_on_exception: false,
            pathmap: Default::default(),
            connect: None,
            attach_pid: None,
            redirects: Vec::new(),
            feed: None,
        };
        Arc::new(Session::new(
            "1".into(),
            &launch,
            Default::default(),
            client,
            None,
        ))
    }

    #[tokio::test]
    async fn the_limit_is_set_back_when_the_evaluation_is_given_up_on_during_the_raise() {
        let (addr, mut sent) = debugger().await;
        let (client, _events) = crate::transport::Client::connect("gdb", &addr)
            .await
            .unwrap();
        let s = session(client);
        let limit = s.adapter.whole_strings().unwrap();
        let mut raise = Box::pin(Raised::raise(s.clone(), limit));
        // Until the debugger holds the raise (no answer comes): then the caller gives up.
        loop {
            tokio::select! {
                _ = &mut raise => panic!("the raise was answered"),
                command = sent.recv() => {
                    if command.unwrap().starts_with("set print elements 16") {
                        break;
                    }
                }
            }
        }
        drop(raise);
        let back = tokio::time::timeout(std::time::Duration::from_secs(20), sent.recv()).await;
        assert_eq!(
            back.ok().flatten().as_deref(),
            Some("set print elements 200"),
            "the user's limit was not set back"
        );
    }
}
