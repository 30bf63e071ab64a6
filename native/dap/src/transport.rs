//! A typed DAP client over an adapter process's stdio or a TCP socket it listens on (helix-dap
//! style): one reader task per adapter process, requests correlated by `seq` through a oneshot
//! each and answered as typed futures (`request::<R>`), events typed ([`Event`]) on a channel,
//! reverse requests answered, adapter stderr kept for error messages. The byte stream is the
//! only difference between the two wires; everything above it is shared. Knows nothing of
//! sessions, adapters' quirks or the `Backend` trait.

use crate::protocol::{Event, OutputEvent, Request};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{mpsc, oneshot, watch};

#[derive(Debug, Clone, thiserror::Error)]
pub enum DapError {
    /// The adapter answered `success: false`, or a body we cannot read.
    #[error("{0}")]
    Failed(String),
    #[error("the debug adapter did not answer '{0}' within {1} ms")]
    Timeout(String, u64),
    /// The adapter process is gone.
    #[error("{0}")]
    Closed(String),
}

/// A response body not read yet: what [`Client::send`] returns, [`Client::wait`] awaits.
pub type Answer = oneshot::Receiver<Result<Value, DapError>>;

/// Requests awaiting their answer: command, whether it may call the debuggee (`CALLS`), and
/// who waits.
type Pending = Arc<Mutex<HashMap<i64, (String, bool, oneshot::Sender<Result<Value, DapError>>)>>>;

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
        if self.stderr_tail.trim().is_empty() {
            code
        } else {
            format!("{code}: {}", self.stderr_tail.trim())
        }
    }
}

/// How an adapter speaks DAP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// On its stdin/stdout (debugpy, gdb, lldb-dap).
    Stdio,
    /// On a TCP port it picks and prints ("DAP server listening at: 127.0.0.1:PORT", as
    /// `dlv dap --listen 127.0.0.1:0` does). Its stdout and stderr then carry the debuggee's
    /// output, which is passed on as `output` events.
    Tcp,
}

/// How long an adapter on [`Wire::Tcp`] may take to print its address, and then to accept.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(15);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn AsyncWrite + Send + Unpin>;

pub struct Client {
    name: String,
    writer: tokio::sync::Mutex<Option<Writer>>,
    seq: AtomicI64,
    pending: Pending,
    stderr_tail: Arc<Mutex<String>>,
    child: Arc<tokio::sync::Mutex<Option<Child>>>,
    exit: watch::Receiver<Option<ExitInfo>>,
    /// The event channel, for synthetic events queued in order with the adapter's.
    events: mpsc::UnboundedSender<Event>,
}

const STDERR_TAIL: usize = 2000;

impl Client {
    /// Starts `program args…` as a debug adapter speaking DAP over `wire`. Errors name what
    /// the adapter printed when it did not come up.
    pub async fn spawn(
        name: &str,
        program: &str,
        args: &[String],
        cwd: &std::path::Path,
        wire: Wire,
    ) -> std::io::Result<(Arc<Client>, mpsc::UnboundedReceiver<Event>)> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .current_dir(cwd)
            .stdin(if wire == Wire::Stdio {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // The adapter (and with it, for debugpy and gdb, the debuggee) must not outlive us.
            .kill_on_drop(true);
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        // Over TCP, stderr is the debuggee's (the adapter's own logging is off by default).
        let forward = (wire == Wire::Tcp).then(|| ("stderr", events_tx.clone()));
        let stderr_task = tokio::spawn(pump_output(stderr, Some(stderr_tail.clone()), forward));
        let (reader, writer, stdout_task) = match wire {
            Wire::Stdio => {
                let r: Reader = Box::new(stdout);
                let w: Writer = Box::new(child.stdin.take().expect("piped stdin"));
                (r, w, None)
            }
            Wire::Tcp => match connect(&mut child, stdout, &events_tx).await {
                Ok((r, w, task)) => (r, w, Some(task)),
                Err(e) => {
                    let _ = child.start_kill();
                    let _ = tokio::time::timeout(Duration::from_secs(1), stderr_task).await;
                    let tail = stderr_tail.lock().unwrap().trim().to_string();
                    return Err(std::io::Error::other(if tail.is_empty() {
                        e
                    } else {
                        format!("{e}; its stderr: {tail}")
                    }));
                }
            },
        };
        Ok(Self::start(
            name,
            (reader, writer),
            Some(child),
            stderr_tail,
            Some(stderr_task),
            stdout_task,
            (events_tx, events_rx),
        ))
    }

    /// Connects to a debugger that already listens at `addr` and speaks DAP itself
    /// (`debugpy --listen`, `dlv --headless`): no process of ours, nothing to kill.
    pub async fn connect(
        name: &str,
        addr: &str,
    ) -> std::io::Result<(Arc<Client>, mpsc::UnboundedReceiver<Event>)> {
        let stream = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(addr))
            .await
            .map_err(|_| {
                std::io::Error::other(format!(
                    "nothing accepted a connection at {addr} within {} s",
                    CONNECT_TIMEOUT.as_secs()
                ))
            })??;
        let _ = stream.set_nodelay(true);
        let (r, w) = stream.into_split();
        Ok(Self::start(
            name,
            (Box::new(r), Box::new(w)),
            None,
            Arc::new(Mutex::new(String::new())),
            None,
            None,
            mpsc::unbounded_channel(),
        ))
    }

    /// The client over an open byte stream, and its reader task.
    fn start(
        name: &str,
        (reader, writer): (Reader, Writer),
        child: Option<Child>,
        stderr_tail: Arc<Mutex<String>>,
        stderr_task: Option<tokio::task::JoinHandle<()>>,
        stdout_task: Option<tokio::task::JoinHandle<()>>,
        (events_tx, events_rx): (mpsc::UnboundedSender<Event>, mpsc::UnboundedReceiver<Event>),
    ) -> (Arc<Client>, mpsc::UnboundedReceiver<Event>) {
        let (exit_tx, exit_rx) = watch::channel(None);
        let client = Arc::new(Client {
            name: name.to_string(),
            writer: tokio::sync::Mutex::new(Some(writer)),
            seq: AtomicI64::new(1),
            pending: Arc::new(Mutex::new(HashMap::new())),
            stderr_tail,
            child: Arc::new(tokio::sync::Mutex::new(child)),
            exit: exit_rx,
            events: events_tx.clone(),
        });
        let weak = Arc::downgrade(&client);
        let pending = client.pending.clone();
        let tail = client.stderr_tail.clone();
        let child_slot = client.child.clone();
        tokio::spawn(async move {
            let reason = read_loop(reader, &pending, &events_tx, &weak).await;
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
            if let Some(t) = stderr_task {
                let _ = tokio::time::timeout(Duration::from_secs(1), t).await;
            }
            // Over TCP the debuggee's last output is on stdout: passed on before "closed".
            if let Some(t) = stdout_task {
                let _ = tokio::time::timeout(Duration::from_secs(1), t).await;
            }
            let info = ExitInfo {
                code,
                stderr_tail: tail.lock().unwrap().clone(),
            };
            let msg = info.describe();
            for (_, (_, _, tx)) in pending.lock().unwrap().drain() {
                let _ = tx.send(Err(DapError::Closed(msg.clone())));
            }
            let _ = exit_tx.send(Some(info));
            let _ = events_tx.send(Event::Closed);
        });
        (client, events_rx)
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
        let mut guard = self.writer.lock().await;
        let ok = match guard.as_mut() {
            Some(w) => w.write_all(&frame).await.is_ok() && w.flush().await.is_ok(),
            None => false,
        };
        drop(guard);
        if ok {
            Ok(())
        } else {
            Err(self.closed_error().await)
        }
    }

    /// The error for a dead adapter, with its exit code and stderr once known: a broken pipe
    /// is usually noticed before the reader task has collected the exit status.
    async fn closed_error(&self) -> DapError {
        let mut exit = self.exit.clone();
        let _ = tokio::time::timeout(Duration::from_secs(3), exit.wait_for(|e| e.is_some())).await;
        DapError::Closed(
            self.exit_info()
                .map(|e| e.describe())
                .unwrap_or_else(|| "the adapter closed its input".into()),
        )
    }

    /// Sends a request and waits for its response, at most `timeout`.
    pub async fn request<R: Request>(
        &self,
        arguments: &R::Arguments,
        timeout: Duration,
    ) -> Result<R::Response, DapError> {
        let answer = self.send::<R>(arguments).await?;
        Self::wait::<R>(answer, timeout).await
    }

    /// Sends a request without waiting; used where the answer comes late (launch/attach are
    /// answered only after `configurationDone`). [`Client::wait`] reads the answer.
    pub async fn send<R: Request>(&self, arguments: &R::Arguments) -> Result<Answer, DapError> {
        let arguments = serde_json::to_value(arguments).map_err(|e| {
            DapError::Failed(format!("cannot encode '{}' arguments: {e}", R::COMMAND))
        })?;
        self.send_value(R::COMMAND, arguments, R::RESUMES, R::CALLS)
            .await
    }

    /// Waits (at most `timeout`) for the answer to an `R` request and reads its body.
    pub async fn wait<R: Request>(
        answer: Answer,
        timeout: Duration,
    ) -> Result<R::Response, DapError> {
        let body = match tokio::time::timeout(timeout, answer).await {
            Ok(Ok(r)) => r?,
            Ok(Err(_)) => return Err(DapError::Closed("adapter connection dropped".into())),
            Err(_) => {
                return Err(DapError::Timeout(
                    R::COMMAND.to_string(),
                    timeout.as_millis() as u64,
                ));
            }
        };
        // Bodyless answers read as an empty body (every field at its default).
        let body = if body.is_null() {
            Value::Object(Default::default())
        } else {
            body
        };
        serde_json::from_value(body).map_err(|e| {
            DapError::Failed(format!(
                "the adapter's '{}' answer is not understood: {e}",
                R::COMMAND
            ))
        })
    }

    /// A resuming request queues a synthetic [`Event::Resumed`] before its bytes reach the
    /// adapter: the `stopped` event that ends the step can then never be overtaken by the
    /// "resumed" the backend emits. (Adapters often send no `continued` event, and lldb-dap
    /// answers `next` only after the `stopped` event.)
    async fn send_value(
        &self,
        command: &str,
        arguments: Value,
        resumes: bool,
        calls: bool,
    ) -> Result<Answer, DapError> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Some(info) = self.exit_info() {
            return Err(DapError::Closed(info.describe()));
        }
        self.pending
            .lock()
            .unwrap()
            .insert(seq, (command.to_string(), calls, tx));
        if resumes {
            let _ = self.events.send(Event::Resumed);
        }
        if calls {
            let _ = self.events.send(Event::CallStarted);
        }
        let mut msg = json!({"seq": seq, "type": "request", "command": command});
        if !arguments.is_null() {
            msg["arguments"] = arguments;
        }
        if let Err(e) = self.write(&msg).await {
            if self.pending.lock().unwrap().remove(&seq).is_some() && calls {
                let _ = self.events.send(Event::CallEnded);
            }
            return Err(e);
        }
        Ok(rx)
    }

    async fn respond(&self, request_seq: i64, command: &str, success: bool, message: Option<&str>) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({"seq": seq, "type": "response", "request_seq": request_seq, "command": command, "success": success});
        if let Some(m) = message {
            msg["message"] = json!(m);
        }
        let _ = self.write(&msg).await;
    }

    /// The adapter process's id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.try_lock().ok()?.as_ref()?.id()
    }

    /// Kills the adapter process (and so, for launched debuggees, the debuggee).
    pub async fn kill(&self) {
        if let Some(c) = self.child.lock().await.as_mut() {
            let _ = c.start_kill();
        }
        *self.writer.lock().await = None;
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

/// Appends `text` to a bounded tail (the last STDERR_TAIL bytes, cut at a char boundary).
fn push_tail(tail: &Mutex<String>, text: &str) {
    let mut t = tail.lock().unwrap();
    t.push_str(text);
    if t.len() > STDERR_TAIL {
        let cut = t.len() - STDERR_TAIL;
        let cut = (cut..t.len())
            .find(|i| t.is_char_boundary(*i))
            .unwrap_or(t.len());
        t.drain(..cut);
    }
}

/// Reads an adapter's output stream to its end: kept in `tail` (for error messages) and, with
/// `forward`, passed on as `output` events of that category as it comes (not line by line: a
/// prompt without a newline is shown before the program pauses).
async fn pump_output<R: AsyncRead + Unpin>(
    mut r: R,
    tail: Option<Arc<Mutex<String>>>,
    forward: Option<(&'static str, mpsc::UnboundedSender<Event>)>,
) {
    let mut buf = vec![0u8; 8192];
    // Bytes of a UTF-8 character split across two reads.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        carry.extend_from_slice(&buf[..n]);
        let valid = match std::str::from_utf8(&carry) {
            Ok(_) => carry.len(),
            // An incomplete character at the end waits for the next read; invalid bytes don't.
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => carry.len(),
        };
        let text = String::from_utf8_lossy(&carry[..valid]).into_owned();
        carry.drain(..valid);
        if text.is_empty() {
            continue;
        }
        tracing::debug!(target: "dap.output", "{}", text.trim_end());
        if let Some(t) = &tail {
            push_tail(t, &text);
        }
        if let Some((category, tx)) = &forward {
            let _ = tx.send(Event::Output(OutputEvent {
                category: Some(category.to_string()),
                output: text,
                ..Default::default()
            }));
        }
    }
}

/// The address in a line like "DAP server listening at: 127.0.0.1:38127" (delve's wording;
/// "listening at"/"listening on" followed by host:port).
pub fn listen_address(line: &str) -> Option<std::net::SocketAddr> {
    let lower = line.to_ascii_lowercase();
    let at = lower
        .find("listening at")
        .or_else(|| lower.find("listening on"))?;
    line[at..]
        .split_whitespace()
        .find_map(|w| w.trim_end_matches(['.', ',']).parse().ok())
}

/// Waits (bounded) for a TCP adapter to print its address, connects, and passes the rest of its
/// stdout on as the debuggee's output.
async fn connect(
    child: &mut Child,
    stdout: tokio::process::ChildStdout,
    events: &mpsc::UnboundedSender<Event>,
) -> Result<(Reader, Writer, tokio::task::JoinHandle<()>), String> {
    let mut out = BufReader::new(stdout);
    let mut said = String::new();
    let found = tokio::time::timeout(LISTEN_TIMEOUT, async {
        let mut line = String::new();
        loop {
            line.clear();
            match out.read_line(&mut line).await {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            if let Some(addr) = listen_address(&line) {
                return Some(addr);
            }
            said.push_str(&line);
        }
    })
    .await;
    let printed = |said: &str| {
        let said = said.trim();
        if said.is_empty() {
            "it printed nothing on stdout".to_string()
        } else {
            format!(
                "its stdout: {}",
                said.chars().take(STDERR_TAIL).collect::<String>()
            )
        }
    };
    let addr = match found {
        Ok(Some(a)) => a,
        Ok(None) => {
            let code = tokio::time::timeout(Duration::from_secs(2), child.wait())
                .await
                .ok()
                .and_then(Result::ok)
                .and_then(|s| s.code());
            return Err(format!(
                "the adapter ended (exit code {}) without printing the address it listens on; {}",
                code.map(|c| c.to_string())
                    .unwrap_or_else(|| "unknown".into()),
                printed(&said)
            ));
        }
        Err(_) => {
            return Err(format!(
                "the adapter printed no 'listening at HOST:PORT' line within {} s; {}",
                LISTEN_TIMEOUT.as_secs(),
                printed(&said)
            ));
        }
    };
    let stream =
        match tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(addr)).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return Err(format!("cannot connect to the adapter at {addr}: {e}")),
            Err(_) => {
                return Err(format!(
                    "the adapter did not accept a connection at {addr} within {} s",
                    CONNECT_TIMEOUT.as_secs()
                ));
            }
        };
    // Requests are small writes answered at once: Nagle would hold each for an ACK.
    let _ = stream.set_nodelay(true);
    let (r, w) = stream.into_split();
    // What stdout said before the address is adapter chatter; after it, the debuggee speaks.
    let task = tokio::spawn(pump_output(out, None, Some(("stdout", events.clone()))));
    Ok((Box::new(r), Box::new(w), task))
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
            len = Some(
                v.trim()
                    .parse()
                    .map_err(|_| format!("bad Content-Length: {l}"))?,
            );
        }
    }
    let mut buf = vec![0u8; len.unwrap()];
    r.read_exact(&mut buf).await.map_err(|e| e.to_string())?;
    serde_json::from_slice(&buf).map_err(|e| format!("bad JSON from adapter: {e}"))
}

async fn read_loop<R: AsyncRead + Unpin>(
    stdout: R,
    pending: &Pending,
    events: &mpsc::UnboundedSender<Event>,
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
                let Some((_command, calls, tx)) = pending.lock().unwrap().remove(&rs) else {
                    continue;
                };
                if calls {
                    // After every event the call caused, before its caller hears the answer.
                    let _ = events.send(Event::CallEnded);
                }
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
                let event = msg.get("event").and_then(Value::as_str).unwrap_or("");
                let body = msg.get("body").cloned().unwrap_or(Value::Null);
                tracing::trace!(event, %body, "dap event");
                let _ = events.send(Event::from_wire(event, body));
            }
            Some("request") => {
                // Reverse requests. Headless, there is no terminal to run the debuggee in and no
                // UI for child sessions; refusing makes adapters fall back (debugpy then uses
                // its internal console) instead of waiting forever.
                let seq = msg.get("seq").and_then(Value::as_i64).unwrap_or(0);
                let command = msg
                    .get("command")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if let Some(c) = client.upgrade() {
                    tokio::spawn(async move {
                        c.respond(
                            seq,
                            &command,
                            false,
                            Some("not supported by the headless debugger-mcp client"),
                        )
                        .await;
                    });
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::listen_address;

    #[test]
    fn finds_the_address_an_adapter_listens_on() {
        assert_eq!(
            listen_address("DAP server listening at: 127.0.0.1:38127\n"),
            Some("127.0.0.1:38127".parse().unwrap())
        );
        assert_eq!(
            listen_address("listening on [::1]:4711."),
            Some("[::1]:4711".parse().unwrap())
        );
        assert_eq!(
            listen_address("Type 'dlv help' for list of commands."),
            None
        );
        assert_eq!(listen_address("listening at: nowhere"), None);
    }
}
