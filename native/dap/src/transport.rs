//! A typed DAP client over an adapter process's stdio (helix-dap style): one reader task per
//! adapter process, requests correlated by `seq` through a oneshot each, events on a channel,
//! reverse requests answered, adapter stderr kept for error messages.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, oneshot, watch};

/// Commands that make the debuggee run. A synthetic `_resumed` event is queued when such a
/// request is sent, before its bytes reach the adapter: the `stopped` event that ends the step
/// can then never be overtaken by the "resumed" the backend emits. (Adapters often send no
/// `continued` event, and lldb-dap answers `next` only after the `stopped` event.)
const RESUMING: &[&str] = &["continue", "next", "stepIn", "stepOut", "stepBack", "reverseContinue", "goto"];

/// Name of the synthetic event queued after a resuming command's success.
pub const SYNTHETIC_RESUMED: &str = "_resumed";
/// Name of the synthetic event queued when the adapter's output stream closed.
pub const SYNTHETIC_CLOSED: &str = "_closed";

#[derive(Debug, Clone)]
pub struct DapEvent {
    pub event: String,
    pub body: Value,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum DapError {
    /// The adapter answered `success: false`.
    #[error("{0}")]
    Failed(String),
    #[error("the debug adapter did not answer '{0}' within {1} ms")]
    Timeout(String, u64),
    /// The adapter process is gone.
    #[error("{0}")]
    Closed(String),
}

type Pending = Arc<Mutex<HashMap<i64, (String, oneshot::Sender<Result<Value, DapError>>)>>>;

/// How the adapter process ended, once it did.
#[derive(Debug, Clone)]
pub struct ExitInfo {
    pub code: Option<i32>,
    pub stderr_tail: String,
}

impl ExitInfo {
    pub fn describe(&self) -> String {
        let code = match self.code {
            Some(c) => format!("adapter exited with code {c}"),
            None => "adapter was killed".to_string(),
        };
        if self.stderr_tail.trim().is_empty() { code } else { format!("{code}: {}", self.stderr_tail.trim()) }
    }
}

pub struct Client {
    name: String,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    seq: AtomicI64,
    pending: Pending,
    stderr_tail: Arc<Mutex<String>>,
    child: Arc<tokio::sync::Mutex<Option<Child>>>,
    exit: watch::Receiver<Option<ExitInfo>>,
    /// The event channel, for synthetic events queued in order with the adapter's.
    events: mpsc::UnboundedSender<DapEvent>,
}

const STDERR_TAIL: usize = 2000;

impl Client {
    /// Starts `program args…` as a debug adapter speaking DAP on stdio.
    pub fn spawn(
        name: &str,
        program: &str,
        args: &[String],
        cwd: &std::path::Path,
    ) -> std::io::Result<(Arc<Client>, mpsc::UnboundedReceiver<DapEvent>)> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // The adapter (and with it, for debugpy and gdb, the debuggee) must not outlive us.
            .kill_on_drop(true);
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let (exit_tx, exit_rx) = watch::channel(None);
        let client = Arc::new(Client {
            name: name.to_string(),
            stdin: tokio::sync::Mutex::new(stdin),
            seq: AtomicI64::new(1),
            pending: Arc::new(Mutex::new(HashMap::new())),
            stderr_tail: Arc::new(Mutex::new(String::new())),
            child: Arc::new(tokio::sync::Mutex::new(Some(child))),
            exit: exit_rx,
            events: events_tx.clone(),
        });
        // stderr: keep a bounded tail for error messages.
        let tail = client.stderr_tail.clone();
        let stderr_task = tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::debug!(target: "dap.stderr", "{line}");
                let mut t = tail.lock().unwrap();
                t.push_str(&line);
                t.push('\n');
                if t.len() > STDERR_TAIL {
                    let cut = t.len() - STDERR_TAIL;
                    let cut = (cut..t.len()).find(|i| t.is_char_boundary(*i)).unwrap_or(t.len());
                    t.drain(..cut);
                }
            }
        });
        let weak = Arc::downgrade(&client);
        let pending = client.pending.clone();
        let tail = client.stderr_tail.clone();
        let child_slot = client.child.clone();
        tokio::spawn(async move {
            let reason = read_loop(stdout, &pending, &events_tx, &weak).await;
            tracing::debug!("adapter output closed: {reason}");
            // Collect the exit status (the process may still be shutting down).
            let code = {
                let mut guard = child_slot.lock().await;
                match guard.as_mut() {
                    Some(c) => match tokio::time::timeout(Duration::from_secs(3), c.wait()).await {
                        Ok(Ok(st)) => st.code(),
                        _ => {
                            let _ = c.start_kill();
                            None
                        }
                    },
                    None => None,
                }
            };
            // stderr reaches EOF when the process exited: let its task drain it so the error
            // message carries the adapter's last words.
            let _ = tokio::time::timeout(Duration::from_secs(1), stderr_task).await;
            let info = ExitInfo { code, stderr_tail: tail.lock().unwrap().clone() };
            let msg = info.describe();
            for (_, (_, tx)) in pending.lock().unwrap().drain() {
                let _ = tx.send(Err(DapError::Closed(msg.clone())));
            }
            let _ = exit_tx.send(Some(info));
            let _ = events_tx.send(DapEvent { event: SYNTHETIC_CLOSED.into(), body: Value::Null });
        });
        Ok((client, events_rx))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn stderr_tail(&self) -> String {
        self.stderr_tail.lock().unwrap().clone()
    }

    /// How the adapter ended, when it did.
    pub fn exit_info(&self) -> Option<ExitInfo> {
        self.exit.borrow().clone()
    }

    async fn write(&self, msg: &Value) -> Result<(), DapError> {
        let body = serde_json::to_vec(msg).expect("json");
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(&body);
        let mut guard = self.stdin.lock().await;
        let ok = match guard.as_mut() {
            Some(stdin) => stdin.write_all(&frame).await.is_ok() && stdin.flush().await.is_ok(),
            None => false,
        };
        drop(guard);
        if ok { Ok(()) } else { Err(self.closed_error().await) }
    }

    /// The error for a dead adapter, with its exit code and stderr once known: a broken pipe
    /// is usually noticed before the reader task has collected the exit status.
    async fn closed_error(&self) -> DapError {
        let mut exit = self.exit.clone();
        let _ = tokio::time::timeout(Duration::from_secs(3), exit.wait_for(|e| e.is_some())).await;
        DapError::Closed(self.exit_info().map(|e| e.describe()).unwrap_or_else(|| "the adapter closed its input".into()))
    }

    /// Sends a request and returns a receiver for its response body; used where the answer
    /// comes late (launch/attach are answered only after `configurationDone`).
    pub async fn send(&self, command: &str, arguments: Value) -> Result<oneshot::Receiver<Result<Value, DapError>>, DapError> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Some(info) = self.exit_info() {
            return Err(DapError::Closed(info.describe()));
        }
        self.pending.lock().unwrap().insert(seq, (command.to_string(), tx));
        if RESUMING.contains(&command) {
            let _ = self.events.send(DapEvent { event: SYNTHETIC_RESUMED.into(), body: Value::Null });
        }
        let mut msg = json!({"seq": seq, "type": "request", "command": command});
        if !arguments.is_null() {
            msg["arguments"] = arguments;
        }
        if let Err(e) = self.write(&msg).await {
            self.pending.lock().unwrap().remove(&seq);
            return Err(e);
        }
        Ok(rx)
    }

    /// Sends a request and waits for its response body, at most `timeout`.
    pub async fn request(&self, command: &str, arguments: Value, timeout: Duration) -> Result<Value, DapError> {
        let rx = self.send(command, arguments).await?;
        Self::wait(command, rx, timeout).await
    }

    pub async fn wait(
        command: &str,
        rx: oneshot::Receiver<Result<Value, DapError>>,
        timeout: Duration,
    ) -> Result<Value, DapError> {
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => Err(DapError::Closed("adapter connection dropped".into())),
            Err(_) => Err(DapError::Timeout(command.to_string(), timeout.as_millis() as u64)),
        }
    }

    async fn respond(&self, request_seq: i64, command: &str, success: bool, message: Option<&str>) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({"seq": seq, "type": "response", "request_seq": request_seq, "command": command, "success": success});
        if let Some(m) = message {
            msg["message"] = json!(m);
        }
        let _ = self.write(&msg).await;
    }

    /// Kills the adapter process (and so, for launched debuggees, the debuggee).
    pub async fn kill(&self) {
        if let Some(c) = self.child.lock().await.as_mut() {
            let _ = c.start_kill();
        }
        *self.stdin.lock().await = None;
    }
}

impl Client {
    /// Kills the adapter without awaiting (for Drop paths).
    pub fn kill_now(&self) {
        if let Ok(mut g) = self.child.try_lock()
            && let Some(c) = g.as_mut()
        {
            let _ = c.start_kill();
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // The reader task shares the child handle until the adapter closes its output, so
        // kill_on_drop alone would not fire when a session is dropped: kill explicitly.
        if let Ok(mut g) = self.child.try_lock()
            && let Some(c) = g.as_mut()
        {
            let _ = c.start_kill();
        }
    }
}

async fn read_message<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> Result<Value, String> {
    let mut len: Option<usize> = None;
    let mut line = String::new();
    loop {
        line.clear();
        let n = r.read_line(&mut line).await.map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("end of stream".into());
        }
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            if len.is_some() {
                break;
            }
            continue;
        }
        if let Some((k, v)) = l.split_once(':')
            && k.trim().eq_ignore_ascii_case("content-length")
        {
            len = Some(v.trim().parse().map_err(|_| format!("bad Content-Length: {l}"))?);
        }
    }
    let mut buf = vec![0u8; len.unwrap()];
    r.read_exact(&mut buf).await.map_err(|e| e.to_string())?;
    serde_json::from_slice(&buf).map_err(|e| format!("bad JSON from adapter: {e}"))
}

async fn read_loop<R: AsyncRead + Unpin>(
    stdout: R,
    pending: &Pending,
    events: &mpsc::UnboundedSender<DapEvent>,
    client: &std::sync::Weak<Client>,
) -> String {
    let mut r = BufReader::new(stdout);
    loop {
        let msg = match read_message(&mut r).await {
            Ok(m) => m,
            Err(e) => return e,
        };
        match msg.get("type").and_then(Value::as_str) {
            Some("response") => {
                let rs = msg.get("request_seq").and_then(Value::as_i64).unwrap_or(-1);
                let Some((_command, tx)) = pending.lock().unwrap().remove(&rs) else { continue };
                let success = msg.get("success").and_then(Value::as_bool).unwrap_or(false);
                if success {
                    let _ = tx.send(Ok(msg.get("body").cloned().unwrap_or(Value::Null)));
                } else {
                    let text = msg
                        .pointer("/body/error/format")
                        .and_then(Value::as_str)
                        .or_else(|| msg.get("message").and_then(Value::as_str))
                        .unwrap_or("request failed")
                        .to_string();
                    let _ = tx.send(Err(DapError::Failed(text)));
                }
            }
            Some("event") => {
                let event = msg.get("event").and_then(Value::as_str).unwrap_or("").to_string();
                let body = msg.get("body").cloned().unwrap_or(Value::Null);
                let _ = events.send(DapEvent { event, body });
            }
            Some("request") => {
                // Reverse requests. Headless, there is no terminal to run the debuggee in and no
                // UI for child sessions; refusing makes adapters fall back (debugpy then uses
                // its internal console) instead of waiting forever.
                let seq = msg.get("seq").and_then(Value::as_i64).unwrap_or(0);
                let command = msg.get("command").and_then(Value::as_str).unwrap_or("").to_string();
                if let Some(c) = client.upgrade() {
                    tokio::spawn(async move {
                        c.respond(seq, &command, false, Some("not supported by the headless debugger-mcp client")).await;
                    });
                }
            }
            _ => {}
        }
    }
}
