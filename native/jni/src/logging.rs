//! Rust's logs go to the IDE log, never to stdout: a tracing layer queues each record and one
//! daemon thread hands them to the static Java method `NativeBridge.log(level, target, message)`.
//!
//! Why a queue and a thread instead of calling Java in place: a log line may be emitted while a
//! JNI call is half done (pending exception, a Netty thread inside a native method, a lock held);
//! calling back into the JVM there would be re-entrant and slow. The queue is bounded; when Java
//! cannot keep up, records are dropped and the number dropped is reported with the next record.

use crate::jvm;
use jni::objects::JString;
use jni::sys::jvalue;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::Context;

/// Levels as Java sees them (NativeBridge.log's `level`).
pub const ERROR: i32 = 1;
pub const WARN: i32 = 2;
pub const INFO: i32 = 3;
pub const DEBUG: i32 = 4;
pub const TRACE: i32 = 5;

const QUEUE: usize = 4096;

struct Record {
    level: i32,
    target: String,
    message: String,
}

static SENDER: OnceLock<SyncSender<Record>> = OnceLock::new();
static DROPPED: AtomicU64 = AtomicU64::new(0);

/// Installs the global subscriber and starts the forwarding thread (once per process).
/// `DEBUGGER_MCP_LOG` (an EnvFilter directive such as `debug` or `debugger_mcp_jni=trace`)
/// overrides the default `info`.
pub(crate) fn install() {
    if SENDER.get().is_some() {
        return;
    }
    let (tx, rx) = sync_channel::<Record>(QUEUE);
    if SENDER.set(tx).is_err() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("debugger-mcp-log".into())
        .spawn(move || forward(rx));
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::try_from_env("DEBUGGER_MCP_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing::subscriber::set_global_default(
        tracing_subscriber::registry().with(filter).with(JavaLayer),
    );
    // Panics are caught at every JNI entry and task boundary; the hook makes sure the message
    // and location reach the IDE log instead of the process' stderr.
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let payload = crate::panic_message(info.payload());
        tracing::error!(target: "debugger_mcp_jni::panic", "Rust panic{location}: {payload}");
    }));
}

fn forward(rx: Receiver<Record>) {
    jvm::attach_daemon("debugger-mcp-log");
    while let Ok(record) = rx.recv() {
        let dropped = DROPPED.swap(0, Ordering::Relaxed);
        let message = if dropped > 0 {
            format!(
                "{} ({dropped} earlier log records dropped: queue full)",
                record.message
            )
        } else {
            record.message
        };
        let Some(ids) = jvm::ids() else { continue };
        let _ = jvm::with_env(|env| {
            let target = JString::from_str(env, &record.target)?;
            let message = JString::from_str(env, &message)?;
            let args = [
                jvalue { i: record.level },
                jvalue { l: target.as_raw() },
                jvalue {
                    l: message.as_raw(),
                },
            ];
            // SAFETY: id resolved from NativeBridge with signature (ILjava/lang/String;Ljava/lang/String;)V.
            unsafe {
                env.call_static_method_unchecked(
                    &ids.bridge_class,
                    ids.bridge_log,
                    jni::signature::ReturnType::Primitive(jni::signature::Primitive::Void),
                    &args,
                )
            }?;
            Ok(())
        });
    }
}

struct JavaLayer;

impl<S: Subscriber> Layer<S> for JavaLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let Some(tx) = SENDER.get() else { return };
        let meta = event.metadata();
        let level = match *meta.level() {
            Level::ERROR => ERROR,
            Level::WARN => WARN,
            Level::INFO => INFO,
            Level::DEBUG => DEBUG,
            Level::TRACE => TRACE,
        };
        let mut visitor = MessageVisitor(String::new());
        event.record(&mut visitor);
        let record = Record {
            level,
            target: meta.target().to_string(),
            message: visitor.0,
        };
        if let Err(TrySendError::Full(_)) = tx.try_send(record) {
            DROPPED.fetch_add(1, Ordering::Relaxed);
        }
    }
}

struct MessageVisitor(String);

impl Visit for MessageVisitor {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        use std::fmt::Write;
        if field.name() == "message" {
            if !self.0.is_empty() {
                self.0.insert(0, ' ');
            }
            let mut msg = format!("{value:?}");
            msg.push_str(&self.0);
            self.0 = msg;
        } else {
            let _ = write!(self.0, " {}={:?}", field.name(), value);
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.insert_str(0, value);
        } else {
            use std::fmt::Write;
            let _ = write!(self.0, " {}={}", field.name(), value);
        }
    }
}
