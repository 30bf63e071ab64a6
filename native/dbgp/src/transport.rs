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
//!
//! Xdebug before 3.4 writes a float in a property with PHP's `precision` ini (14 significant
//! digits by default: `xdebug_sprintf("%.*H", (int) EG(precision), ...)` for `IS_DOUBLE` in
//! src/lib/var_export_xml.c at tag 3.2.0; 3.4.0 switched to `serialize_precision`, commit
//! 7fe5abd4), so `50 - 1e-14` read `50` and `0.1 + 0.2` read `0.3`. With `precision` at -1 the
//! same code writes the shortest text that reads back as the same double. So the reads of a
//! pause run with `precision` -1, set by an `eval` of `ini_set` before the first read, and the
//! program's own value is set back before anything of the program runs: before a continuation,
//! `stop`, `detach` or the socket's close (commands Xdebug runs in the order sent, so a restore
//! not yet answered still comes first), and before an `eval` or `property_set` (both run PHP
//! code, which must convert floats as the program does). An expression the agent evaluates runs
//! at the program's precision inside a closure call that switches to -1 only once the value is
//! computed, for Xdebug's writing of it (see [`exact_floats_eval`]); nothing is switched with a
//! later Xdebug (`writes_floats_with_precision`).
//!
//! The program's value is read again whenever code ran that may have changed it: an expression
//! (the wrapper keeps the value it replaced with -1 in a global that the read right after takes
//! back and unsets, so no program code ever sees it), a `property_set` or an `eval` given as is.
//! A read that fails (an error answer, a value that is no integer, no answer) is tried again,
//! at once and at the next read of values; only `ini_set` missing (`false`) or an engine without
//! `eval` turns the switching off for the connection.
//!
//! An `eval` the agent asked for is answered with its string whole (up to a bound): Xdebug's
//! `max_data` is raised for it, then set back to the user's value (a launch entry's
//! `xdebugSettings`, else ours), read with `feature_get` before the first raise. A result whose
//! elements hold arrays or objects Xdebug did not send (an eval result has no name to fetch
//! them by later) is asked again with `max_depth` and `max_children` set for it (3 levels of at
//! most 10, strings at the user's `max_data`: bounded), then set back the same way. Should the
//! caller give up on an eval (its timeout drops the future), the raised values are set back
//! before the next command is sent, so no later read gets more than the user's.

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
    /// How Xdebug writes floats now (see the module's notes).
    floats: tokio::sync::Mutex<Floats>,
    /// Xdebug's features as this connection's evals left them (see the module's notes).
    max_data: tokio::sync::Mutex<MaxData>,
}

/// Xdebug's features an agent's `eval` raises (`max_data`: bytes of a string it sends;
/// `max_depth`, `max_children`: levels and children of a property it sends).
#[derive(Debug, Default)]
struct MaxData {
    /// The user's values, each read before its first raise (None: not answered, never raised).
    user: HashMap<&'static str, Option<String>>,
    /// Raised and not yet set back, in order: done before anything else is sent.
    raised: Vec<&'static str>,
}

/// Levels of an eval result [`Connection::eval_deep`] asks for (the result itself is the
/// first): a filtered list of records shows each record's fields (`[3 => ['at' => …, 'units'
/// => 7500, 'meta' => array(2)]]`, not `[3 => array(5)]`).
const EVAL_DEPTH: u32 = 3;
/// Children a level of [`Connection::eval_deep`]'s answer: what a preview shows (8) and more.
pub const DEEP_CHILDREN: u32 = 10;

/// The `precision` ini as this connection left it (see the module's notes).
#[derive(Debug, Default)]
struct Floats {
    /// The program's own value, read while paused; forgotten when the program runs on.
    program: Option<String>,
    /// `precision` may be -1 now: the program's value must be set back before it runs.
    shortest: bool,
    /// An expression ran since `program` was read, which may have changed it: its wrapper's
    /// kept value is to be read back (`program` is then only the fallback).
    recheck: bool,
    /// `ini_set` is disabled or the engine has no `eval`: floats stay as Xdebug writes them.
    unavailable: bool,
    /// Paused at a throw, where Xdebug 3.2 keeps the next step from stopping at the returns
    /// the exception unwinds through (`suppress_return_value_step`, set in
    /// `xdebug_debugger_throw_exception_hook`, src/debugger/debugger.c); any `eval` clears it
    /// (`xdebug_do_eval`), so reads here leave `precision` alone until something else evals.
    at_throw: bool,
}

/// Reads whose answers carry values, floats written with `precision`.
const FORMATS_VALUES: [&str; 3] = ["context_get", "property_get", "property_value"];
/// Commands that run PHP code: at the program's own precision.
const RUNS_CODE: [&str; 2] = ["eval", "property_set"];
/// Where an evaluated expression's wrapper keeps the precision it replaced with -1, for
/// [`READ_PRECISION`] right after (see [`exact_floats_eval`]).
const STASH: &str = "__debugger_mcp_precision";
/// The program's precision: the value an expression's wrapper kept (taken back and unset, then
/// followed by ` -1`: precision is -1 now), else `ini_get`'s; false where `ini_set` is disabled
/// (then nothing is changed).
const READ_PRECISION: &str = "(static function () { if (\\array_key_exists('__debugger_mcp_precision', $GLOBALS)) { $p = $GLOBALS['__debugger_mcp_precision']; unset($GLOBALS['__debugger_mcp_precision']); return \\is_string($p) ? $p . ' -1' : $p; } return \\function_exists('ini_set') ? \\ini_get('precision') : false; })()";
const SHORTEST: &str = "\\ini_set('precision', '-1')";
/// Bound on each of those `eval`s, which PHP answers at once while paused.
const PRECISION_TIMEOUT: Duration = Duration::from_secs(5);

/// `expr` evaluated at the program's precision, its value then written by Xdebug with
/// `precision` -1: a closure call whose argument is `expr` (evaluated first, in the paused
/// frame's scope, as before) and whose body sets -1, keeping the value it replaced (the
/// program's, which `expr` may have changed) in [`STASH`], and returns it. None where wrapping
/// could change what runs: statements (`;` inside), or an expression naming `precision`.
pub fn exact_floats_eval(expr: &str) -> Option<String> {
    let e = expr
        .trim()
        .trim_end_matches(|c: char| c == ';' || c.is_whitespace());
    if e.is_empty() || e.contains(';') || e.to_ascii_lowercase().contains("precision") {
        return None;
    }
    // The newline ends a `//` or `#` comment the expression may end with.
    Some(format!(
        "(static function ($v) {{ $GLOBALS['{STASH}'] = {SHORTEST}; return $v; }})({e}\n)"
    ))
}

/// Whether the engine (`Xdebug 3.2.0`, as the init packet names it) writes floats with
/// `precision`: Xdebug before 3.4, and any engine this cannot tell; 3.4 and later write them
/// with `serialize_precision`, -1 unless the program set it, so nothing is switched there.
fn writes_floats_with_precision(engine: &str) -> bool {
    let Some(version) = engine.strip_prefix("Xdebug ") else {
        return true;
    };
    let mut parts = version.split('.').map(|p| {
        p.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<u32>()
    });
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor) < (3, 4),
        _ => true,
    }
}

/// What an answer to [`READ_PRECISION`] says.
#[derive(Debug, PartialEq)]
enum Learned {
    /// The program's value (an integer's text), and whether `precision` is -1 now (an
    /// expression's wrapper switched it).
    Program { value: String, shortest: bool },
    /// `ini_set` is disabled (`false`), or the engine implements no `eval` (DBGp error 4):
    /// nothing can be switched on this connection.
    Unsupported,
    /// Anything else (an error evaluating, a value that is no integer): unknown for now.
    Unknown,
}

/// Reads the answer to [`READ_PRECISION`] (see [`Learned`]).
fn program_precision(r: &Response) -> Learned {
    if let Some(e) = &r.error {
        return if e.code == 4 {
            Learned::Unsupported
        } else {
            Learned::Unknown
        };
    }
    let Some(prop) = r.root.child("property") else {
        return Learned::Unknown;
    };
    let p = crate::values::parse_prop(prop);
    if p.type_name == "bool" {
        return Learned::Unsupported;
    }
    let v = p.value.trim();
    let (value, shortest) = match v.strip_suffix(" -1") {
        Some(kept) => (kept.trim(), true),
        None => (v, false),
    };
    if p.type_name == "string" && !value.is_empty() && value.parse::<i64>().is_ok() {
        Learned::Program {
            value: value.to_string(),
            shortest,
        }
    } else {
        Learned::Unknown
    }
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
            floats: tokio::sync::Mutex::new(Floats {
                unavailable: !writes_floats_with_precision(&init.engine),
                ..Floats::default()
            }),
            max_data: tokio::sync::Mutex::default(),
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
        self.max_data_back(&mut *self.max_data.lock().await).await;
        if LEAVE_FRAME.contains(&name) {
            {
                let mut f = self.floats.lock().await;
                self.restore(&mut f).await;
                // Sent (restored before the continuation, in order) and the program runs on,
                // which may set its precision itself.
                (f.shortest, f.program, f.at_throw, f.recheck) = (false, None, false, false);
            }
            self.release_frame().await;
            let r = self.send(name, args, data).await;
            if let Ok(r) = &r
                && r.break_message()
                    .and_then(|m| m.exception)
                    .is_some_and(|e| !e.is_empty())
            {
                self.floats.lock().await.at_throw = true;
            }
            return r;
        } else {
            if FORMATS_VALUES.contains(&name) {
                self.shortest_floats().await;
            } else if RUNS_CODE.contains(&name) {
                let mut f = self.floats.lock().await;
                self.restore(&mut f).await;
                f.at_throw = false;
                // The code may set the program's precision: read again before the next read.
                if !f.shortest {
                    f.program = None;
                }
            }
            if HOLD_FRAME.contains(&name) && args.iter().all(|(k, v)| *k != 'c' || v == "0") {
                self.holds_frame.store(true, Ordering::SeqCst);
            }
        }
        self.send(name, args, data).await
    }

    /// Evaluates an expression the agent asked for: run at the program's precision, its value
    /// written exactly (see [`exact_floats_eval`]); as given where it cannot be wrapped.
    pub async fn eval_exact(&self, expr: &str) -> Result<Response, RequestError> {
        if self.is_closed() {
            return Err(self.closed_error());
        }
        self.max_data_back(&mut *self.max_data.lock().await).await;
        self.eval_exact_now(expr).await
    }

    /// [`Connection::eval_exact`] with Xdebug's `max_data` at `bytes` for this eval (a string
    /// value sent whole up to that), then the user's value again (see the module's notes).
    pub async fn eval_whole(&self, expr: &str, bytes: u64) -> Result<Response, RequestError> {
        self.eval_raised(expr, &[("max_data", bytes)]).await
    }

    /// [`Connection::eval_exact`] answered [`EVAL_DEPTH`] levels deep, at most
    /// [`DEEP_CHILDREN`] children a level and strings at the user's `max_data` (so a result is
    /// bounded: 10 × 10 × 10 properties), then the user's values again: the nested arrays and
    /// objects of an eval result, which no name reaches later.
    pub async fn eval_deep(&self, expr: &str) -> Result<Response, RequestError> {
        self.eval_raised(
            expr,
            &[
                ("max_depth", u64::from(EVAL_DEPTH)),
                ("max_children", u64::from(DEEP_CHILDREN)),
            ],
        )
        .await
    }

    /// An eval with Xdebug `features` set for it, each set back to the user's value after.
    async fn eval_raised(
        &self,
        expr: &str,
        features: &[(&'static str, u64)],
    ) -> Result<Response, RequestError> {
        if self.is_closed() {
            return Err(self.closed_error());
        }
        let mut m = self.max_data.lock().await;
        self.max_data_back(&mut m).await;
        for (name, value) in features {
            if !m.user.contains_key(name) {
                let user = self.read_feature(name).await;
                m.user.insert(name, user);
            }
            // Unread (not answered): left as it is, with nothing to set back.
            if m.user.get(name).is_none_or(Option::is_none) {
                continue;
            }
            // Marked first: an eval given up on is followed by the user's values.
            m.raised.push(name);
            let set = [('n', name.to_string()), ('v', value.to_string())];
            match tokio::time::timeout(PRECISION_TIMEOUT, self.send("feature_set", &set, None))
                .await
            {
                Ok(Ok(r)) if r.error.is_none() => {}
                _ => tracing::debug!("Xdebug did not raise {name} to {value}"),
            }
        }
        let r = self.eval_exact_now(expr).await;
        self.max_data_back(&mut m).await;
        r
    }

    /// An Xdebug feature's value now (`feature_get`), None when not answered with a number.
    async fn read_feature(&self, feature: &str) -> Option<String> {
        let name = [('n', feature.to_string())];
        let get = self.send("feature_get", &name, None);
        let r = tokio::time::timeout(PRECISION_TIMEOUT, get)
            .await
            .ok()?
            .ok()?;
        let v = r.root.text.trim();
        (r.error.is_none() && v.parse::<u64>().is_ok()).then(|| v.to_string())
    }

    /// The user's values of the features an eval raised, back.
    async fn max_data_back(&self, m: &mut MaxData) {
        while let Some(name) = m.raised.first().copied() {
            let Some(Some(v)) = m.user.get(name).cloned() else {
                m.raised.remove(0);
                continue;
            };
            let set = [('n', name.to_string()), ('v', v)];
            match tokio::time::timeout(PRECISION_TIMEOUT, self.send("feature_set", &set, None))
                .await
            {
                Ok(Ok(_)) => {
                    m.raised.remove(0);
                }
                // Sent, and Xdebug runs commands in order: it is set back before what follows.
                _ => {
                    tracing::warn!("Xdebug did not confirm setting {name} back");
                    return;
                }
            }
        }
    }

    async fn eval_exact_now(&self, expr: &str) -> Result<Response, RequestError> {
        let mut f = self.floats.lock().await;
        self.restore(&mut f).await;
        f.at_throw = false;
        if f.program.is_none() && !f.unavailable {
            self.learn(&mut f).await;
        }
        let wrapped = exact_floats_eval(expr).filter(|_| f.program.is_some() && !f.shortest);
        let r = match wrapped {
            Some(code) => {
                // Set first: a call given up on (its timeout) may still switch when PHP is
                // done, keeping what the expression left, which the restore then takes.
                (f.shortest, f.recheck) = (true, true);
                let r = self.send("eval", &[], Some(&code)).await?;
                // The value the wrapper replaced, or (the expression failed before it switched)
                // the one in force.
                self.learn(&mut f).await;
                r
            }
            None => {
                let r = self.send("eval", &[], Some(expr)).await?;
                f.program = None;
                r
            }
        };
        match r.error {
            Some(e) => Err(RequestError::Engine {
                code: e.code,
                message: e.message,
            }),
            None => Ok(r),
        }
    }

    /// Before a read of values: `precision` -1, the program's value read first.
    async fn shortest_floats(&self) {
        let mut f = self.floats.lock().await;
        if f.unavailable || f.at_throw || (f.shortest && f.program.is_some()) {
            return;
        }
        if f.program.is_none() {
            self.learn(&mut f).await;
            if f.program.is_none() || f.shortest {
                return;
            }
        }
        f.shortest = true;
        let set = self.send("eval", &[], Some(SHORTEST));
        if tokio::time::timeout(PRECISION_TIMEOUT, set).await.is_err() {
            tracing::debug!("Xdebug did not answer the switch to exact floats");
        }
    }

    /// Before PHP code of the program runs: its own `precision` back.
    async fn program_floats(&self) {
        let mut f = self.floats.lock().await;
        self.restore(&mut f).await;
    }

    async fn restore(&self, f: &mut Floats) {
        if !f.shortest {
            return;
        }
        if f.recheck && !f.unavailable {
            // An expression's wrapper switched; its kept value not yet taken back.
            self.learn(f).await;
            if !f.shortest {
                return;
            }
        }
        let Some(p) = f.program.clone() else {
            return;
        };
        let code = if f.recheck {
            // Unread (a read given up on): what the wrapper kept if it is still there, else
            // the value read before the expression.
            format!(
                "(static function () {{ $p = $GLOBALS['{STASH}'] ?? '{p}'; unset($GLOBALS['{STASH}']); \\ini_set('precision', \\is_string($p) ? $p : '{p}'); }})()"
            )
        } else {
            format!("\\ini_set('precision', '{p}')")
        };
        match tokio::time::timeout(PRECISION_TIMEOUT, self.send("eval", &[], Some(&code))).await {
            Ok(Ok(_)) => (f.shortest, f.recheck) = (false, false),
            // Sent, and Xdebug runs commands in order: it is restored before what follows.
            _ => tracing::warn!("Xdebug did not confirm restoring the program's precision"),
        }
    }

    /// Reads the program's precision (see [`READ_PRECISION`]); an answer that leaves it unknown
    /// is asked again once, and then at the next read of values.
    async fn learn(&self, f: &mut Floats) {
        for _ in 0..2 {
            let read = self.send("eval", &[], Some(READ_PRECISION));
            // Closed or silent: whatever comes next fails the same way.
            let Ok(Ok(r)) = tokio::time::timeout(PRECISION_TIMEOUT, read).await else {
                return;
            };
            match program_precision(&r) {
                Learned::Program { value, shortest } => {
                    (f.program, f.shortest, f.recheck) = (Some(value), shortest, false);
                    return;
                }
                Learned::Unsupported => {
                    f.unavailable = true;
                    return;
                }
                Learned::Unknown => tracing::debug!("the program's precision unread: asking again"),
            }
        }
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
            self.program_floats().await;
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
        engine_with(vec![]).await
    }

    /// As [`engine`], its answers to the first reads of the program's precision given: a
    /// string's text, `ERR` (Xdebug's error evaluating code) or `FALSE` (`ini_set` disabled).
    /// After them, 14, followed by ` -1` when an expression's wrapper kept it.
    async fn engine_with(
        reads: Vec<&'static str>,
    ) -> (Arc<Connection>, mpsc::UnboundedReceiver<String>) {
        let mut reads = std::collections::VecDeque::from(reads);
        let mut kept = false;
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
                    // An eval is shown by its code.
                    let rest: Vec<String> = match rest.iter().position(|w| *w == "--") {
                        Some(at) if name == "eval" => {
                            use base64::Engine;
                            let code = base64::engine::general_purpose::STANDARD
                                .decode(rest[at + 1])
                                .unwrap();
                            vec![String::from_utf8(code).unwrap()]
                        }
                        _ => rest.iter().map(|w| w.to_string()).collect(),
                    };
                    let _ = seen_tx.send(format!("{name} {}", rest.join(" ")).trim().to_string());
                    // A call that never returns: its eval is never answered.
                    if name == "eval" && rest.iter().any(|c| c.contains("hang()")) {
                        continue;
                    }
                    let status = if LEAVE_FRAME.contains(&name.as_str()) {
                        at_return = name == "step_out";
                        r#" status="break" reason="ok""#
                    } else {
                        ""
                    };
                    // A step into here stops at a throw.
                    let thrown = if name == "step_into" {
                        r#"<xdebug:message xmlns:xdebug="https://xdebug.org/dbgp/xdebug" filename="file:///x.php" lineno="3" exception="E"><![CDATA[boom]]></xdebug:message>"#
                    } else {
                        ""
                    };
                    let body = if name == "context_get" && rest[..2] == ["-d", "\"0\""] && at_return
                    {
                        r#"<property name="$__RETURN_VALUE" fullname="$__RETURN_VALUE" type="int"><![CDATA[3]]></property>"#.to_string()
                    } else if name == "feature_get" {
                        // The user's max_data and max_depth (a launch entry's xdebugSettings).
                        if rest.iter().any(|a| a.contains("max_depth")) {
                            "<![CDATA[1]]>".to_string()
                        } else {
                            "<![CDATA[100]]>".to_string()
                        }
                    } else if name == "eval" && rest[0] == READ_PRECISION {
                        let read = reads
                            .pop_front()
                            .unwrap_or(if kept { "14 -1" } else { "14" });
                        kept = false;
                        match read {
                            "ERR" => r#"<error code="206"><message><![CDATA[error evaluating code]]></message></error>"#.to_string(),
                            "FALSE" => r#"<property type="bool"><![CDATA[0]]></property>"#.to_string(),
                            v => {
                                use base64::Engine;
                                let b64 = base64::engine::general_purpose::STANDARD.encode(v);
                                format!(r#"<property type="string" size="{}" encoding="base64"><![CDATA[{b64}]]></property>"#, v.len())
                            }
                        }
                    } else if name == "eval" {
                        kept |= rest[0].contains(STASH);
                        // `ini_set` of precision: the program's 14.
                        r#"<property type="string" size="2" encoding="base64"><![CDATA[MTQ=]]></property>"#.to_string()
                    } else {
                        String::new()
                    };
                    let xml = format!(
                        r#"<response xmlns="urn:debugger_protocol_v1" command="{name}" transaction_id="{txid}"{status}>{thrown}{body}</response>"#
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

    /// The commands the engine read.
    fn all(seen: &mut mpsc::UnboundedReceiver<String>) -> Vec<String> {
        std::iter::from_fn(|| seen.try_recv().ok()).collect()
    }

    /// The commands the engine read, without the `eval`s of `precision` around them.
    fn drain(seen: &mut mpsc::UnboundedReceiver<String>) -> Vec<String> {
        std::iter::from_fn(|| seen.try_recv().ok())
            .filter(|c| !c.starts_with("eval"))
            .collect()
    }

    #[test]
    fn an_expression_is_wrapped_to_switch_to_exact_floats_after_it_ran() {
        assert_eq!(
            exact_floats_eval(" $cart->total(); ").as_deref(),
            Some(
                "(static function ($v) { $GLOBALS['__debugger_mcp_precision'] = \\ini_set('precision', '-1'); return $v; })($cart->total()\n)"
            )
        );
        // A trailing comment stays inside its line.
        assert!(
            exact_floats_eval("$a + 1 // why")
                .unwrap()
                .ends_with("// why\n)")
        );
        // Statements, and expressions that may set precision themselves, run as given.
        assert_eq!(exact_floats_eval("$a = 1; $b = 2"), None);
        assert_eq!(exact_floats_eval("ini_set('PRECISION', 17)"), None);
        assert_eq!(exact_floats_eval("  "), None);
    }

    #[test]
    fn only_xdebug_before_3_4_writes_floats_with_precision() {
        for (engine, switched) in [
            ("Xdebug 3.2.0", true),
            ("Xdebug 3.3.2", true),
            ("Xdebug 3.4.0alpha1", false),
            ("Xdebug 3.5.0", false),
            ("Xdebug 4.0.0", false),
            ("Xdebug", true),
            ("Other 9.9", true),
        ] {
            assert_eq!(writes_floats_with_precision(engine), switched, "{engine}");
        }
    }

    #[test]
    fn the_program_s_precision_is_read_from_its_eval_answer() {
        let answer = |prop: &str| {
            let xml = format!(
                r#"<response xmlns="urn:debugger_protocol_v1" command="eval" transaction_id="3">{prop}</response>"#
            );
            match parse_packet(&xml).unwrap() {
                Packet::Response(r) => r,
                other => panic!("{other:?}"),
            }
        };
        let s = |b64: &str| {
            answer(&format!(
                r#"<property type="string" size="2" encoding="base64"><![CDATA[{b64}]]></property>"#
            ))
        };
        let program = |v: &str, shortest: bool| Learned::Program {
            value: v.to_string(),
            shortest,
        };
        assert_eq!(program_precision(&s("MTQ=")), program("14", false));
        assert_eq!(program_precision(&s("LTE=")), program("-1", false));
        // "10 -1": the value an expression's wrapper kept, precision -1 now.
        assert_eq!(program_precision(&s("MTAgLTE=")), program("10", true));
        // ini_set disabled (false), or no eval: nothing can be changed.
        assert_eq!(
            program_precision(&answer(r#"<property type="bool"><![CDATA[0]]></property>"#)),
            Learned::Unsupported
        );
        assert_eq!(
            program_precision(&answer(
                r#"<error code="4"><message><![CDATA[unimplemented command]]></message></error>"#
            )),
            Learned::Unsupported
        );
        // An error evaluating, a value that is no integer, no value: unknown, asked again.
        assert_eq!(
            program_precision(&answer(
                r#"<error code="206"><message><![CDATA[error evaluating code]]></message></error>"#
            )),
            Learned::Unknown
        );
        assert_eq!(program_precision(&s("eDsgZXhpdA==")), Learned::Unknown);
        assert_eq!(program_precision(&answer("")), Learned::Unknown);
    }

    #[tokio::test]
    async fn a_failed_read_of_the_program_s_precision_is_asked_again_not_taken_for_unsupported() {
        let read = format!("eval {READ_PRECISION}");
        let get = || [('n', "$x".to_string())];
        // One error: asked again at once, and the read is exact.
        let (c, mut seen) = engine_with(vec!["ERR"]).await;
        c.request("property_get", &get(), None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                read.clone(),
                read.clone(),
                format!("eval {SHORTEST}"),
                r#"property_get -n "$x""#.to_string(),
            ]
        );
        // Two: that read as Xdebug writes it, the next pause's asks again.
        let (c, mut seen) = engine_with(vec!["ERR", "ERR"]).await;
        c.request("property_get", &get(), None).await.unwrap();
        c.request("run", &[], None).await.unwrap();
        c.request("property_get", &get(), None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                read.clone(),
                read.clone(),
                r#"property_get -n "$x""#.to_string(),
                r#"context_get -d "0" -c "0""#.to_string(),
                "run".to_string(),
                read.clone(),
                format!("eval {SHORTEST}"),
                r#"property_get -n "$x""#.to_string(),
            ]
        );
        // ini_set disabled: never asked again.
        let (c, mut seen) = engine_with(vec!["FALSE"]).await;
        c.request("property_get", &get(), None).await.unwrap();
        c.request("run", &[], None).await.unwrap();
        c.request("property_get", &get(), None).await.unwrap();
        assert_eq!(
            all(&mut seen)
                .iter()
                .filter(|c| c.starts_with("eval"))
                .count(),
            1
        );
    }

    #[tokio::test]
    async fn the_program_runs_on_with_the_precision_an_expression_set() {
        // The expression (`$fmt->setUp()`) set precision 10 before its wrapper switched to -1.
        let (c, mut seen) = engine_with(vec!["14", "10 -1"]).await;
        c.eval_exact("$fmt->setUp()").await.unwrap();
        c.request("property_get", &[('n', "$x".to_string())], None)
            .await
            .unwrap();
        c.request("run", &[], None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                format!("eval {READ_PRECISION}"),
                format!("eval {}", exact_floats_eval("$fmt->setUp()").unwrap()),
                format!("eval {READ_PRECISION}"),
                r#"property_get -n "$x""#.to_string(),
                "eval \\ini_set('precision', '10')".to_string(),
                r#"context_get -d "0" -c "0""#.to_string(),
                "run".to_string(),
            ]
        );
        // The kept value unread (each read failing): the restore takes it in PHP itself, the
        // value read before the expression its fallback.
        let (c, mut seen) = engine_with(vec!["14", "ERR", "ERR", "ERR", "ERR"]).await;
        c.eval_exact("$fmt->setUp()").await.unwrap();
        c.request("run", &[], None).await.unwrap();
        let sent = all(&mut seen);
        assert_eq!(sent.len(), 8, "{sent:?}");
        assert!(
            sent[6].contains("$GLOBALS['__debugger_mcp_precision'] ?? '14'")
                && sent[6].contains("\\ini_set('precision', \\is_string($p) ? $p : '14')"),
            "{sent:?}"
        );
        assert_eq!(sent[7], "run");
        // Code run as given, and a set, may change it too: read again before the next read.
        let (c, mut seen) = engine_with(vec!["14", "9", "8"]).await;
        let get = || [('n', "$x".to_string())];
        c.request("property_get", &get(), None).await.unwrap();
        c.eval_exact("$a = 1; $b = 2").await.unwrap();
        c.request("property_get", &get(), None).await.unwrap();
        c.request("property_set", &get(), Some("1.5"))
            .await
            .unwrap();
        c.request("property_get", &get(), None).await.unwrap();
        c.request("stop", &[], None).await.unwrap();
        let restores: Vec<String> = all(&mut seen)
            .into_iter()
            .filter(|c| c.starts_with("eval \\ini_set('precision', '") && !c.contains("-1"))
            .collect();
        assert_eq!(
            restores,
            [
                "eval \\ini_set('precision', '14')",
                "eval \\ini_set('precision', '9')",
                "eval \\ini_set('precision', '8')",
            ]
        );
    }

    #[tokio::test]
    async fn an_eval_raises_max_data_then_sets_back_the_users_even_when_given_up_on() {
        let (c, mut seen) = engine().await;
        let max_data = |v: &str| format!(r#"feature_set -n "max_data" -v "{v}""#);
        c.eval_whole("$page", 64000).await.unwrap();
        c.eval_whole("$page", 64000).await.unwrap();
        // The user's value is read once; each eval is followed by it.
        assert_eq!(
            drain(&mut seen),
            [
                r#"feature_get -n "max_data""#.to_string(),
                max_data("64000"),
                max_data("100"),
                max_data("64000"),
                max_data("100"),
            ]
        );
        // The deep eval: levels and children for it only, strings at the user's max_data.
        c.eval_deep("rows()").await.unwrap();
        let set = |n: &str, v: &str| format!(r#"feature_set -n "{n}" -v "{v}""#);
        let got = drain(&mut seen);
        assert_eq!(
            got.iter()
                .filter(|x| !x.starts_with("eval"))
                .cloned()
                .collect::<Vec<_>>(),
            [
                r#"feature_get -n "max_depth""#.to_string(),
                set("max_depth", "3"),
                r#"feature_get -n "max_children""#.to_string(),
                set("max_children", "10"),
                set("max_depth", "1"),
                set("max_children", "100"),
            ],
            "{got:?}"
        );
        // Given up on (the caller's timeout dropped it) while the engine still runs it: the
        // user's value is sent before the next command.
        let given_up =
            tokio::time::timeout(Duration::from_millis(200), c.eval_whole("hang()", 64000));
        assert!(given_up.await.is_err());
        let locals = [('d', "0".to_string()), ('c', "0".to_string())];
        c.request("context_get", &locals, None).await.unwrap();
        assert_eq!(
            drain(&mut seen),
            [
                max_data("64000"),
                max_data("100"),
                r#"context_get -d "0" -c "0""#.to_string(),
            ]
        );
        c.eval_exact("1").await.unwrap();
        assert_eq!(drain(&mut seen), Vec::<String>::new());
    }

    #[tokio::test]
    async fn values_are_read_with_exact_floats_and_the_program_runs_with_its_own_precision() {
        let (c, mut seen) = engine().await;
        let locals = [('d', "0".to_string()), ('c', "0".to_string())];
        c.request("context_get", &locals, None).await.unwrap();
        c.request("property_get", &[('n', "$x".to_string())], None)
            .await
            .unwrap();
        c.request("run", &[], None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                format!("eval {READ_PRECISION}"),
                format!("eval {SHORTEST}"),
                r#"context_get -d "0" -c "0""#.to_string(),
                r#"property_get -n "$x""#.to_string(),
                "eval \\ini_set('precision', '14')".to_string(),
                r#"context_get -d "0" -c "0""#.to_string(),
                "run".to_string(),
            ]
        );
        // An expression runs at the program's precision and is written exactly; code that a
        // set runs, and the end, get the program's precision back first.
        c.request("property_get", &[('n', "$x".to_string())], None)
            .await
            .unwrap();
        c.eval_exact("$o->total()").await.unwrap();
        c.request("property_set", &[('n', "$x".to_string())], Some("1.5"))
            .await
            .unwrap();
        c.request("stop", &[], None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                format!("eval {READ_PRECISION}"),
                format!("eval {SHORTEST}"),
                r#"property_get -n "$x""#.to_string(),
                "eval \\ini_set('precision', '14')".to_string(),
                format!("eval {}", exact_floats_eval("$o->total()").unwrap()),
                format!("eval {READ_PRECISION}"),
                "eval \\ini_set('precision', '14')".to_string(),
                r#"property_set -n "$x" -- MS41"#.to_string(),
                r#"context_get -d "0" -c "0""#.to_string(),
                "stop".to_string(),
            ]
        );
        // At a throw, reads leave precision alone (an eval would let the next step stop at
        // each return the exception unwinds through) until an expression evaluated anyway.
        let (c, mut seen) = engine().await;
        c.request("step_into", &[], None).await.unwrap();
        c.request("context_get", &locals, None).await.unwrap();
        c.eval_exact("$e").await.unwrap();
        c.request("context_get", &locals, None).await.unwrap();
        assert_eq!(
            all(&mut seen),
            [
                "step_into".to_string(),
                r#"context_get -d "0" -c "0""#.to_string(),
                format!("eval {READ_PRECISION}"),
                format!("eval {}", exact_floats_eval("$e").unwrap()),
                format!("eval {READ_PRECISION}"),
                r#"context_get -d "0" -c "0""#.to_string(),
            ]
        );
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
