//! One DBGp connection: a reader task per TCP connection, requests as futures keyed by
//! transaction id, and everything unsolicited (streams, notifications, the end) on a channel.
//!
//! Xdebug reads commands only while the script is paused; a continuation command (`run`,
//! `step_*`) is answered when the script next stops or ends, so its future may stay pending for
//! as long as the program runs. Callers put their own timeouts around ordinary requests.

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
}

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
