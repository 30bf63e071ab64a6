//! One DBGp connection: a reader task per TCP connection, requests as futures keyed by
//! transaction id, and everything unsolicited (streams, notifications, the end) on a channel.
//!
//! Xdebug reads commands only while the script is paused; a continuation command (`run`,
//! `step_*`) is answered when the script next stops or ends, so its future may stay pending for
//! as long as the program runs. Callers put their own timeouts around ordinary requests.
//!
//! Xdebug (3.2.0 to at least 3.5) keeps pointing at the frame a `property_get`,
//! `property_value` or `property_set` of locals (context 0) read from, after the frame is gone
//! and even after the request ended; only `context_get` of locals lets go of it. A later read of
//! a superglobal (context 1) follows that pointer: in a PHP process that serves request after
//! request (php -S, php-fpm, mod_php), the next request's first `property_get -c 1` crashed the
//! worker, and its connection ended before any break. So before the script runs on (or is
//! stopped, or left), a connection that made Xdebug hold a frame has it let go.

use crate::protocol::{
    Decoder, Init, Packet, ProtocolError, Response, StreamKind, encode_command, parse_packet,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::{mpsc, oneshot};

#[derive(Debug, Clone, PartialEq)]
pub enum ConnEvent {
    Stream {
        kind: StreamKind,
        text: String,
    },
    Notify {
        name: String,
        root: crate::protocol::Element,
    },
    /// The connection ended: the script finished, was stopped, or the bytes made no sense.
    Closed {
        reason: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    /// The engine answered with `<error>`.
    Engine {
        code: u32,
        message: String,
    },
    Closed(String),
    Invalid(String),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Engine { code, message } => write!(f, "Xdebug error {code}: {message}"),
            Self::Closed(r) => write!(f, "the Xdebug connection is closed ({r})"),
            Self::Invalid(m) => write!(f, "{m}"),
        }
    }
}

type Pending = Arc<Mutex<HashMap<u32, oneshot::Sender<Response>>>>;

pub struct Connection {
    writer: tokio::sync::Mutex<OwnedWriteHalf>,
    pending: Pending,
    next_tx: AtomicU32,
    closed: Arc<AtomicBool>,
    close_reason: Arc<Mutex<Option<String>>>,
    /// Xdebug points at a frame since a read of locals (see the module's notes).
    holds_frame: AtomicBool,
}

/// Reads that leave Xdebug pointing at the frame they read in (in context 0, the default).
const HOLD_FRAME: [&str; 3] = ["property_get", "property_value", "property_set"];
/// Commands after which the paused frames may be gone: continuations, and the end.
const LEAVE_FRAME: [&str; 6] = [
    "run",
    "step_into",
    "step_over",
    "step_out",
    "stop",
    "detach",
];
/// `context_get` of frame 0's locals, which lets go of the held frame: answered at once while
/// paused; bounded so that a silent engine cannot hold the continuation back.
const RELEASE_TIMEOUT: Duration = Duration::from_secs(5);

/// Time the engine has to send its `init` packet after connecting.
const INIT_TIMEOUT: Duration = Duration::from_secs(10);

impl Connection {
    /// Reads the `init` packet, then hands reading over to a task of its own.
    pub async fn accept(
        stream: TcpStream,
    ) -> Result<(Init, Arc<Connection>, mpsc::UnboundedReceiver<ConnEvent>), String> {
        let _ = stream.set_nodelay(true);
        let (mut read, write) = stream.into_split();
        let mut decoder = Decoder::default();
        let mut buf = vec![0u8; 64 * 1024];
        let init = tokio::time::timeout(INIT_TIMEOUT, async {
            loop {
                if let Some(xml) = decoder.next_payload().map_err(|e| e.to_string())? {
                    return match parse_packet(&xml).map_err(|e| e.to_string())? {
                        Packet::Init(init) => Ok(init),
                        other => Err(format!("expected an init packet first, got {other:?}")),
                    };
                }
                let n = read.read(&mut buf).await.map_err(|e| e.to_string())?;
                if n == 0 {
                    return Err("closed before its init packet".to_string());
                }
                decoder.push(&buf[..n]);
            }
        })
        .await
        .map_err(|_| format!("no init packet within {} s", INIT_TIMEOUT.as_secs()))??;
        let (tx, rx) = mpsc::unbounded_channel();
        let conn = Arc::new(Connection {
            writer: tokio::sync::Mutex::new(write),
            pending: Arc::default(),
            next_tx: AtomicU32::new(1),
            closed: Arc::default(),
            close_reason: Arc::default(),
            holds_frame: AtomicBool::new(false),
        });
        let (pending, closed, reason) = (
            conn.pending.clone(),
            conn.closed.clone(),
            conn.close_reason.clone(),
        );
        tokio::spawn(async move {
            let why = read_loop(read, decoder, &pending, &tx).await;
            *reason.lock().unwrap() = Some(why.clone());
            closed.store(true, Ordering::SeqCst);
            // Dropping the senders fails every request still waiting.
            pending.lock().unwrap().clear();
            let _ = tx.send(ConnEvent::Closed { reason: why });
        });
        Ok((init, conn, rx))
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    fn closed_error(&self) -> RequestError {
        RequestError::Closed(
            self.close_reason
                .lock()
                .unwrap()
                .clone()
                .unwrap_or_else(|| "connection closed".into()),
        )
    }

    /// Sends a command and waits for its response. An `<error>` answer is an `Err`.
    pub async fn request(
        &self,
        name: &str,
        args: &[(char, String)],
        data: Option<&str>,
    ) -> Result<Response, RequestError> {
        let r = self.request_raw(name, args, data).await?;
        match r.error {
            Some(e) => Err(RequestError::Engine {
                code: e.code,
                message: e.message,
            }),
            None => Ok(r),
        }
    }

    pub async fn request_raw(
        &self,
        name: &str,
        args: &[(char, String)],
        data: Option<&str>,
    ) -> Result<Response, RequestError> {
        if self.is_closed() {
            return Err(self.closed_error());
        }
        if LEAVE_FRAME.contains(&name) {
            self.release_frame().await;
        } else if HOLD_FRAME.contains(&name) && args.iter().all(|(k, v)| *k != 'c' || v == "0") {
            self.holds_frame.store(true, Ordering::SeqCst);
        }
        self.send(name, args, data).await
    }

    /// Has Xdebug let go of the frame a read of locals left it pointing at (see the module's
    /// notes); an error answer (no frame: the script is ending) leaves nothing to let go of.
    async fn release_frame(&self) {
        if !self.holds_frame.swap(false, Ordering::SeqCst) {
            return;
        }
        let release = async {
            // At a return breakpoint Xdebug answers frame 0's locals with the return value
            // alone and keeps the frame; the caller's (frame 1: a returning function has one)
            // lets go of it.
            for depth in ["0", "1"] {
                let args = [('d', depth.to_string()), ('c', "0".to_string())];
                let Ok(r) = self.send("context_get", &args, None).await else {
                    return;
                };
                let return_only = r.root.child("property").is_some_and(|p| {
                    crate::values::parse_prop(p).name == crate::values::RETURN_VALUE
                });
                if !return_only {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(RELEASE_TIMEOUT, release).await;
    }

    async fn send(
        &self,
        name: &str,
        args: &[(char, String)],
        data: Option<&str>,
    ) -> Result<Response, RequestError> {
        let txid = self.next_tx.fetch_add(1, Ordering::SeqCst);
        let bytes = encode_command(name, txid, args, data).map_err(RequestError::Invalid)?;
        let (tx, rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(txid, tx);
        tracing::trace!(command = name, txid, "dbgp →");
        let written = {
            let mut w = self.writer.lock().await;
            w.write_all(&bytes).await
        };
        if let Err(e) = written {
            self.pending.lock().unwrap().remove(&txid);
            return Err(RequestError::Closed(format!("write failed: {e}")));
        }
        match rx.await {
            Ok(r) => Ok(r),
            Err(_) => Err(self.closed_error()),
        }
    }

    /// Closes the socket (Xdebug then ends the debug session and lets the script run on).
    pub async fn close(&self) {
        if !self.is_closed() {
            self.release_frame().await;
        }
        let mut w = self.writer.lock().await;
        let _ = w.shutdown().await;
    }
}

async fn read_loop(
    mut read: tokio::net::tcp::OwnedReadHalf,
    mut decoder: Decoder,
    pending: &Pending,
    events: &mpsc::UnboundedSender<ConnEvent>,
) -> String {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        loop {
            let xml = match decoder.next_payload() {
                Ok(Some(x)) => x,
                Ok(None) => break,
                Err(e) => return e.to_string(),
            };
            match parse_packet(&xml) {
                Ok(Packet::Response(r)) => {
                    tracing::trace!(command = %r.command, txid = r.transaction_id, "dbgp ←");
                    match pending.lock().unwrap().remove(&r.transaction_id) {
                        Some(tx) => {
                            let _ = tx.send(r);
                        }
                        None => tracing::debug!(
                            txid = r.transaction_id,
                            "DBGp response nobody waits for"
                        ),
                    }
                }
                Ok(Packet::Stream { kind, text }) => {
                    let _ = events.send(ConnEvent::Stream { kind, text });
                }
                Ok(Packet::Notify { name, root }) => {
                    let _ = events.send(ConnEvent::Notify { name, root });
                }
                Ok(Packet::Init(_)) => {
                    return ProtocolError("a second init packet".into()).to_string();
                }
                Err(e) => return e.to_string(),
            }
        }
        match read.read(&mut buf).await {
            Ok(0) => return "the script ended the connection".into(),
            Ok(n) => decoder.push(&buf[..n]),
            Err(e) => return format!("read failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A stand-in for Xdebug: sends its init packet, then answers every command (a `break` for
    /// continuations) and passes on the commands as it read them (without their `-i` id).
    async fn engine() -> (Arc<Connection>, mpsc::UnboundedReceiver<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (seen_tx, seen) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut s = TcpStream::connect(addr).await.unwrap();
            let packet = |xml: String| {
                let mut b = format!("{}\0{xml}", xml.len()).into_bytes();
                b.push(0);
                b
            };
            let init = r#"<init xmlns="urn:debugger_protocol_v1" fileuri="file:///x.php" appid="1"><engine version="3.2.0">Xdebug</engine></init>"#;
            s.write_all(&packet(init.into())).await.unwrap();
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // A step out here stops at a return breakpoint: frame 0's locals are then the
            // return value alone, as Xdebug answers them.
            let mut at_return = false;
            loop {
                while let Some(nul) = buf.iter().position(|&b| b == 0) {
                    let cmd = String::from_utf8(buf.drain(..=nul).collect()).unwrap();
                    let mut words = cmd.trim_end_matches('\0').split(' ');
                    let name = words.next().unwrap().to_string();
                    let (_, txid) = (words.next(), words.next().unwrap().to_string());
                    let rest: Vec<&str> = words.collect();
                    let _ = seen_tx.send(format!("{name} {}", rest.join(" ")).trim().to_string());
                    let status = if LEAVE_FRAME.contains(&name.as_str()) {
                        at_return = name == "step_out";
                        r#" status="break" reason="ok""#
                    } else {
                        ""
                    };
                    let body = if name == "context_get" && rest[..2] == ["-d", "\"0\""] && at_return
                    {
                        r#"<property name="$__RETURN_VALUE" fullname="$__RETURN_VALUE" type="int"><![CDATA[3]]></property>"#
                    } else {
                        ""
                    };
                    let xml = format!(
                        r#"<response xmlns="urn:debugger_protocol_v1" command="{name}" transaction_id="{txid}"{status}>{body}</response>"#
                    );
                    s.write_all(&packet(xml)).await.unwrap();
                }
                match s.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buf.extend_from_slice(&chunk[..n]),
                }
            }
        });
        let (stream, _) = listener.accept().await.unwrap();
        let (_, conn, _) = Connection::accept(stream).await.unwrap();
        (conn, seen)
    }

    fn drain(seen: &mut mpsc::UnboundedReceiver<String>) -> Vec<String> {
        std::iter::from_fn(|| seen.try_recv().ok()).collect()
    }

    #[tokio::test]
    async fn xdebug_lets_go_of_a_frame_read_in_before_the_script_runs_on() {
        let (c, mut seen) = engine().await;
        let local = |n: &str| {
            [
                ('d', "0".to_string()),
                ('c', "0".to_string()),
                ('n', n.to_string()),
            ]
        };
        // Reads of locals (by any of the three commands, context 0 named or implied), then a
        // continuation: the frame is let go first, once.
        c.request("property_get", &local("$order"), None)
            .await
            .unwrap();
        c.request("property_get", &local("$order->items"), None)
            .await
            .unwrap();
        c.request("run", &[], None).await.unwrap();
        c.request("run", &[], None).await.unwrap();
        assert_eq!(
            drain(&mut seen),
            [
                r#"property_get -d "0" -c "0" -n "$order""#,
                r#"property_get -d "0" -c "0" -n "$order->items""#,
                r#"context_get -d "0" -c "0""#,
                "run",
                "run",
            ]
        );
        c.request("property_value", &[('n', "$s".to_string())], None)
            .await
            .unwrap();
        c.request("stop", &[], None).await.unwrap();
        assert_eq!(
            drain(&mut seen),
            [
                r#"property_value -n "$s""#,
                r#"context_get -d "0" -c "0""#,
                "stop"
            ]
        );
        c.request("property_set", &local("$n"), Some("3"))
            .await
            .unwrap();
        c.close().await;
        let closing = drain(&mut seen);
        assert_eq!(closing[1], r#"context_get -d "0" -c "0""#, "{closing:?}");
        // At a return stop, frame 0's locals do not let go (Xdebug answers the return value
        // alone); the caller's do.
        let (c, mut seen) = engine().await;
        c.request("step_out", &[], None).await.unwrap();
        c.request("property_get", &local("$total"), None)
            .await
            .unwrap();
        c.request("run", &[], None).await.unwrap();
        assert_eq!(
            drain(&mut seen),
            [
                "step_out",
                r#"property_get -d "0" -c "0" -n "$total""#,
                r#"context_get -d "0" -c "0""#,
                r#"context_get -d "1" -c "0""#,
                "run",
            ]
        );
        // A superglobal read (context 1) holds no frame; nothing to let go of.
        let (c, mut seen) = engine().await;
        let sup = [
            ('c', "1".to_string()),
            ('n', "$_SERVER['REQUEST_URI']".to_string()),
        ];
        c.request("property_get", &sup, None).await.unwrap();
        c.request("step_over", &[], None).await.unwrap();
        assert_eq!(
            drain(&mut seen),
            [
                r#"property_get -c "1" -n "$_SERVER['REQUEST_URI']""#,
                "step_over"
            ]
        );
    }
}
