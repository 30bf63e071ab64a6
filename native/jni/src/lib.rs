//! JNI bridge of Debugger MCP: the cdylib the IntelliJ plugin loads.
//!
//! - Entry points (`Java_com_debuggermcp_bridge_NativeBridge_*`, Kotlin `NativeBridge`): init and
//!   shutdown, the HTTP relay, answers and events from the JVM, history and settings for the
//!   tool window.
//! - [`backend::JniBackend`]: the core's `Backend` trait over the JVM callback table.
//! - [`relay`]: raw HTTP in, streamed HTTP out, through the core's axum router.
//!
//! Rules kept at every entry: no panic crosses JNI (each entry runs inside
//! `EnvUnowned::with_env`, which catches unwinds, and [`ThrowPolicy`] turns errors and panics into
//! a `java.lang.RuntimeException`); nothing blocks the calling Java thread except the explicitly
//! blocking diagnostic `backendCall`; every callback has a timeout; logs go to the IDE log.

pub mod backend;
mod install;
mod jvm;
mod logging;
pub mod ops;
mod relay;
mod router;

use backend::{Answer, JniBackend};
use bytes::Bytes;
use debugger_mcp_core::backend::{BackendEvent, EventSink, TABLE_VERSION, event_channel};
use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::Engine;
use debugger_mcp_core::history::HistoryFilter;
use http_body_util::Full;
use jni::errors::ErrorPolicy;
use jni::objects::{JByteArray, JClass, JObject, JObjectArray, JString};
use jni::signature::{Primitive, ReturnType};
use jni::sys::{JNI_VERSION_1_8, jboolean, jint, jlong};
use jni::{Env, EnvUnowned, JavaVM};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

/// Everything `init` builds; replaced as a whole by a later `init` and dropped by `shutdown`.
struct Bridge {
    runtime: Mutex<Option<tokio::runtime::Runtime>>,
    handle: tokio::runtime::Handle,
    engine: Arc<Engine>,
    backend: Arc<JniBackend>,
    router: axum::Router,
    /// Ends every MCP session and SSE stream of the router at shutdown.
    router_cancel: tokio_util::sync::CancellationToken,
    events: EventSink,
    http: Arc<relay::HttpTasks>,
    config_path: PathBuf,
    server_url: RwLock<String>,
    /// Sessions seen through events and not yet stopped (status() only).
    sessions: Mutex<HashSet<String>>,
    test_hooks: bool,
    running: AtomicBool,
    /// Watches the settings file; dropped (stopped) with the bridge.
    _watcher: Option<notify::RecommendedWatcher>,
}

static BRIDGE: RwLock<Option<Arc<Bridge>>> = RwLock::new(None);

fn bridge() -> Result<Arc<Bridge>, String> {
    BRIDGE
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| {
            "Debugger MCP native bridge is not initialized (call NativeBridge.init first)"
                .to_string()
        })
}

/// Text of a panic payload (`&str` and `String` payloads; anything else is named as such).
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

/// Error of an entry point; becomes the message of the RuntimeException Java sees.
#[derive(Debug)]
struct BridgeError(String);

impl std::fmt::Display for BridgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<jni::errors::Error> for BridgeError {
    fn from(e: jni::errors::Error) -> Self {
        BridgeError(jvm::describe(&e))
    }
}

impl From<String> for BridgeError {
    fn from(e: String) -> Self {
        BridgeError(e)
    }
}

type R<T> = Result<T, BridgeError>;

/// Errors and panics of entry points become `java.lang.RuntimeException("debugger-mcp: ...")`.
/// (jni's ThrowRuntimeExAndDefault loses `String` panic payloads, i.e. every `panic!("{x}")`.)
struct ThrowPolicy;

impl<T: Default> ErrorPolicy<T, BridgeError> for ThrowPolicy {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = ();

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        err: BridgeError,
    ) -> jni::errors::Result<T> {
        if !env.exception_check() {
            let _ = env.throw(format!("debugger-mcp: {}", err.0));
        }
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        payload: Box<dyn std::any::Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        let msg = panic_message(&*payload);
        // Dropping a payload can itself panic; leak it rather than unwind here.
        std::mem::forget(payload);
        if env.exception_check() {
            env.exception_clear();
        }
        let _ = env.throw(format!("debugger-mcp: Rust panic: {msg}"));
        Ok(T::default())
    }
}

fn jstr(env: &Env<'_>, s: &JString<'_>) -> R<String> {
    if s.is_null() {
        return Err(BridgeError("a String argument was null".into()));
    }
    Ok(s.try_to_string(env)?)
}

fn new_jstring<'local>(env: &mut Env<'local>, s: &str) -> R<JString<'local>> {
    Ok(JString::from_str(env, s)?)
}

fn test_hooks_enabled() -> bool {
    std::env::var("DEBUGGER_MCP_TEST_HOOKS").is_ok_and(|v| v == "1")
}

/// Loads ids with the plugin's class loader when possible (see jvm.rs for why).
// The JVM is the only caller and always passes its valid JavaVM pointer.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
#[unsafe(no_mangle)]
pub extern "system" fn JNI_OnLoad(
    vm: *mut jni::sys::JavaVM,
    _reserved: *mut std::ffi::c_void,
) -> jint {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: the JVM hands us its valid JavaVM pointer.
        let vm = unsafe { JavaVM::from_raw(vm) };
        let _ = vm.attach_current_thread(|env| -> jni::errors::Result<()> {
            if jvm::resolve_ids(env).is_err() {
                // Not visible from this loader; `init` resolves them from NativeBridge's own.
                env.exception_clear();
            }
            Ok(())
        });
    });
    let _ = result;
    JNI_VERSION_1_8
}

// ---------------------------------------------------------------------------------------------
// init / shutdown

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_init<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    config_path: JString<'local>,
    callbacks: JObject<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> { init(env, &config_path, &callbacks) })
        .resolve::<ThrowPolicy>()
}

fn init<'local>(
    env: &mut Env<'local>,
    config_path: &JString<'_>,
    callbacks: &JObject<'_>,
) -> R<JString<'local>> {
    let ids = jvm::resolve_ids(env)?;
    if callbacks.is_null() {
        return Err(BridgeError("callbacks must not be null".into()));
    }
    let path = PathBuf::from(jstr(env, config_path)?);

    // Handshake: the JVM side must speak this table version.
    // SAFETY: DebuggerCallbacks.tableVersion()I on an object of that interface (checked below).
    let callbacks_class =
        env.find_class(jni::jni_str!("com/debuggermcp/bridge/DebuggerCallbacks"))?;
    if !env.is_instance_of(callbacks, &callbacks_class)? {
        return Err(BridgeError(
            "callbacks does not implement com.debuggermcp.bridge.DebuggerCallbacks".into(),
        ));
    }
    env.delete_local_ref(callbacks_class);
    let version = unsafe {
        env.call_method_unchecked(
            callbacks,
            ids.callbacks_table_version,
            ReturnType::Primitive(Primitive::Int),
            &[],
        )
    }?
    .i()?;
    if version != TABLE_VERSION as i32 {
        return Err(BridgeError(format!(
            "callback table version mismatch: the native library speaks version {TABLE_VERSION}, \
             the callbacks implement version {version}"
        )));
    }

    let config = Config::load(&path).map_err(|e| BridgeError(e.to_string()))?;
    logging::install();

    // A second init replaces the first (tests, plugin reload).
    shutdown_bridge();

    let callbacks = jvm::JavaRef(env.new_global_ref(callbacks)?);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get().clamp(2, 4))
        .unwrap_or(2);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("debugger-mcp-rt")
        .on_thread_start(|| jvm::attach_daemon("debugger-mcp-rt"))
        .on_thread_stop(jvm::detach_current)
        .enable_all()
        .build()
        .map_err(|e| BridgeError(format!("cannot start the Rust runtime: {e}")))?;
    let backend = Arc::new(JniBackend::new(callbacks, backend::Limits::of(&config)));
    let (sink, stream) = event_channel();
    let engine = {
        let _entered = runtime.enter();
        Engine::new(backend.clone(), stream, config.clone())
    };
    // The router reads the bearer token from here; the settings watcher updates it, so a token
    // the installer writes into the settings file is enforced without a restart.
    let live_token: debugger_mcp_core::http::LiveToken = Arc::new(RwLock::new(
        config.http.token.clone().filter(|t| !t.is_empty()),
    ));
    let (router, router_cancel) = {
        let _entered = runtime.enter();
        router::build(&engine, &config, live_token.clone())
    };
    let watcher = watch_settings(&path, engine.clone(), backend.clone(), live_token);
    let bridge = Arc::new(Bridge {
        handle: runtime.handle().clone(),
        runtime: Mutex::new(Some(runtime)),
        engine,
        backend,
        router,
        router_cancel,
        events: sink,
        http: Arc::new(relay::HttpTasks::default()),
        config_path: path.clone(),
        server_url: RwLock::new(String::new()),
        sessions: Mutex::new(HashSet::new()),
        test_hooks: test_hooks_enabled(),
        running: AtomicBool::new(true),
        _watcher: watcher,
    });
    *BRIDGE.write().unwrap_or_else(|e| e.into_inner()) = Some(bridge.clone());
    tracing::info!(
        "Debugger MCP native bridge {} started (table version {TABLE_VERSION}, settings {})",
        env!("CARGO_PKG_VERSION"),
        path.display()
    );
    let handshake = serde_json::json!({
        "table_version": TABLE_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
        "config_path": path.display().to_string(),
        "test_hooks": bridge.test_hooks,
    });
    new_jstring(env, &handshake.to_string())
}

/// Settings are owned by Rust and watched (SPEC §5): an edit of the TOML file by hand or by another
/// process applies at once; an invalid edit is logged and the previous settings stay.
fn watch_settings(
    path: &std::path::Path,
    engine: Arc<Engine>,
    backend: Arc<JniBackend>,
    live_token: debugger_mcp_core::http::LiveToken,
) -> Option<notify::RecommendedWatcher> {
    use notify::{RecursiveMode, Watcher};
    let dir = path.parent().filter(|d| d.is_dir())?.to_path_buf();
    let file = path.to_path_buf();
    let name = path.file_name()?.to_os_string();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let Ok(event) = res else { return };
        if !event.kind.is_modify() && !event.kind.is_create() {
            return;
        }
        if !event
            .paths
            .iter()
            .any(|p| p.file_name() == Some(name.as_os_str()))
        {
            return;
        }
        let loaded = Config::load(&file);
        if let Ok(config) = &loaded {
            // Also when the rest equals the engine's (saveSettings set it already).
            let token = config.http.token.clone().filter(|t| !t.is_empty());
            *live_token.write().unwrap_or_else(|e| e.into_inner()) = token.clone();
            install::token_changed(token);
        }
        match loaded {
            Ok(config) if config != engine.config() => {
                backend.set_timeouts(backend::Limits::of(&config));
                engine.set_config(config);
                tracing::info!("settings reloaded from {}", file.display());
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(
                "settings file changed but is invalid, keeping the previous settings: {e}"
            ),
        }
    })
    .ok()?;
    watcher.watch(&dir, RecursiveMode::NonRecursive).ok()?;
    Some(watcher)
}

fn shutdown_bridge() {
    let old = BRIDGE.write().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(b) = old {
        b.running.store(false, Ordering::Relaxed);
        b.router_cancel.cancel();
        b.http.cancel_all();
        b.backend.fail_all();
        let runtime = b.runtime.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(rt) = runtime {
            if tokio::runtime::Handle::try_current().is_ok() {
                // Called from inside a runtime thread (e.g. from a callback Rust is running):
                // blocking here would panic, so let the runtime wind down on its own.
                rt.shutdown_background();
            } else {
                // A Java thread: a bounded wait lets tasks drop their Java references cleanly;
                // tasks still running after it are dropped by the runtime.
                rt.shutdown_timeout(Duration::from_millis(500));
            }
        }
        tracing::info!("Debugger MCP native bridge stopped");
    }
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_shutdown<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
) {
    unowned
        .with_env(|_env| -> R<()> {
            shutdown_bridge();
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

// ---------------------------------------------------------------------------------------------
// HTTP relay

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_handleHttp<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    method: JString<'local>,
    uri: JString<'local>,
    header_names: JObjectArray<'local, JString<'local>>,
    header_values: JObjectArray<'local, JString<'local>>,
    body: JByteArray<'local>,
    responder: JObject<'local>,
) -> jlong {
    unowned
        .with_env(|env| -> R<jlong> {
            let b = bridge()?;
            if responder.is_null() {
                return Err(BridgeError("responder must not be null".into()));
            }
            let method = jstr(env, &method)?;
            let uri = jstr(env, &uri)?;
            let mut builder = http::Request::builder()
                .method(
                    http::Method::from_bytes(method.as_bytes())
                        .map_err(|e| BridgeError(e.to_string()))?,
                )
                .uri(&uri);
            let n = header_names.len(env)?;
            if header_values.len(env)? != n {
                return Err(BridgeError(
                    "header name and value arrays differ in length".into(),
                ));
            }
            let mut test_panic = false;
            for i in 0..n {
                let name = header_names.get_element(env, i)?;
                let value = header_values.get_element(env, i)?;
                let (k, v) = (jstr(env, &name)?, jstr(env, &value)?);
                // Locals are freed per header: a request may carry more than the 16 a native
                // frame guarantees (-Xcheck:jni warns otherwise).
                env.delete_local_ref(name);
                env.delete_local_ref(value);
                if b.test_hooks && k.eq_ignore_ascii_case(relay::TEST_PANIC_HEADER) {
                    test_panic = true;
                }
                builder = builder.header(k, v);
            }
            let body = if body.is_null() {
                Vec::new()
            } else {
                env.convert_byte_array(&body)?
            };
            let request = builder
                .body(Full::new(Bytes::from(body)))
                .map_err(|e| BridgeError(format!("invalid HTTP request: {e}")))?;
            let responder = jvm::JavaRef(env.new_global_ref(&responder)?);
            let handle = relay::spawn(
                &b.handle,
                &b.http,
                b.router.clone(),
                relay::Relayed {
                    request,
                    responder,
                    test_panic,
                },
            );
            Ok(handle as jlong)
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_cancelHttp<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    unowned
        .with_env(|_env| -> R<()> {
            // Cancelling after shutdown or after the response ended is a no-op by design: the
            // Kotlin side cancels on every channel close.
            if let Ok(b) = bridge()
                && b.http.cancel(handle as u64)
            {
                tracing::debug!("HTTP request {handle} cancelled (client channel closed)");
            }
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

// ---------------------------------------------------------------------------------------------
// Callback answers and events

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_complete<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    request_id: jlong,
    ok: jboolean,
    json: JString<'local>,
) {
    unowned
        .with_env(|env| -> R<()> {
            let json = if json.is_null() {
                "null".to_string()
            } else {
                jstr(env, &json)?
            };
            let b = bridge()?;
            if !b.backend.complete(request_id as u64, Answer { ok, json }) {
                tracing::debug!("late or unknown callback answer {request_id} dropped");
            }
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_pushEvent<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    json: JString<'local>,
) {
    unowned
        .with_env(|env| -> R<()> {
            let text = jstr(env, &json)?;
            let event: BackendEvent = serde_json::from_str(&text)
                .map_err(|e| BridgeError(format!("malformed event JSON ({e}): {text}")))?;
            let b = bridge()?;
            {
                let mut sessions = b.sessions.lock().unwrap_or_else(|e| e.into_inner());
                match &event {
                    BackendEvent::SessionStarted { session } => {
                        sessions.insert(session.id.clone());
                    }
                    BackendEvent::Stopped { session_id, .. } => {
                        sessions.remove(session_id);
                    }
                    _ => {}
                }
            }
            b.events.send(event);
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

// ---------------------------------------------------------------------------------------------
// Tool window: history, settings, status

fn filter(env: &Env<'_>, json: &JString<'_>) -> R<HistoryFilter> {
    if json.is_null() {
        return Ok(HistoryFilter::default());
    }
    let text = jstr(env, json)?;
    if text.trim().is_empty() {
        return Ok(HistoryFilter::default());
    }
    serde_json::from_str(&text).map_err(|e| BridgeError(format!("invalid history filter: {e}")))
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_history<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    filter_json: JString<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let f = filter(env, &filter_json)?;
            let b = bridge()?;
            let json = serde_json::to_string(&b.engine.history().entries(&f))
                .map_err(|e| BridgeError(e.to_string()))?;
            new_jstring(env, &json)
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_exportHistory<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    format: JString<'local>,
    filter_json: JString<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let format = jstr(env, &format)?;
            let f = filter(env, &filter_json)?;
            let b = bridge()?;
            let text = match format.to_ascii_lowercase().as_str() {
                "json" => b.engine.history().export_json(&f),
                "csv" => b.engine.history().export_csv(&f),
                other => {
                    return Err(BridgeError(format!(
                        "unknown export format `{other}` (expected json or csv)"
                    )));
                }
            };
            new_jstring(env, &text)
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_clearHistory<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
) {
    unowned
        .with_env(|_env| -> R<()> {
            bridge()?.engine.history().clear(None);
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_settingsToml<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let toml = bridge()?.engine.config().to_toml();
            new_jstring(env, &toml)
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_saveSettings<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    toml: JString<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let text = jstr(env, &toml)?;
            let b = bridge()?;
            // Validation errors are returned (the settings page shows them), not thrown.
            let message = match Config::from_toml(&text) {
                Err(e) => e,
                Ok(config) => match std::fs::write(&b.config_path, config.to_toml()) {
                    Err(e) => format!("cannot write {}: {e}", b.config_path.display()),
                    Ok(()) => {
                        b.backend.set_timeouts(backend::Limits::of(&config));
                        b.engine.set_config(config);
                        String::new()
                    }
                },
            };
            new_jstring(env, &message)
        })
        .resolve::<ThrowPolicy>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_status<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let json = match bridge() {
                Ok(b) => serde_json::json!({
                    "url": *b.server_url.read().unwrap_or_else(|e| e.into_inner()),
                    "running": b.running.load(Ordering::Relaxed),
                    "version": env!("CARGO_PKG_VERSION"),
                    "sessions": b.sessions.lock().unwrap_or_else(|e| e.into_inner()).len(),
                    "active_http": b.http.active(),
                    "pending_callbacks": b.backend.pending_count(),
                }),
                Err(_) => serde_json::json!({
                    "url": "", "running": false, "version": env!("CARGO_PKG_VERSION"), "sessions": 0,
                    "active_http": 0, "pending_callbacks": 0,
                }),
            };
            new_jstring(env, &json.to_string())
        })
        .resolve::<ThrowPolicy>()
}

/// Additive: the Kotlin side tells Rust the URL it serves on (shown by `status()`).
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_setServerUrl<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    url: JString<'local>,
) {
    unowned
        .with_env(|env| -> R<()> {
            let url = jstr(env, &url)?;
            *bridge()?
                .server_url
                .write()
                .unwrap_or_else(|e| e.into_inner()) = url;
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}

// ---------------------------------------------------------------------------------------------
// Diagnostics

/// Additive, diagnostic: runs one op of the callback table through the typed `Backend` trait
/// (Rust → JVM callback → `complete` → Rust) and returns
/// `{"ok":true,"result":..}` or `{"ok":false,"error":{"kind":..,"message":..}}`.
/// Blocks the calling Java thread until the answer or the timeout: never call it from a Netty
/// I/O thread or the EDT. With test hooks on, op `__panic` panics inside this entry point.
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_NativeBridge_backendCall<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    op: JString<'local>,
    args_json: JString<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let op = jstr(env, &op)?;
            let args_text = jstr(env, &args_json)?;
            let b = bridge()?;
            if b.test_hooks && op == "__panic" {
                panic!("test hook: injected panic in backendCall ({args_text})");
            }
            let args: serde_json::Value = serde_json::from_str(&args_text)
                .map_err(|e| BridgeError(format!("args are not JSON: {e}")))?;
            let backend = b.backend.clone();
            let result = b
                .handle
                .block_on(async move { ops::dispatch(&*backend, &op, &args).await });
            let json = match result {
                Ok(text) => format!("{{\"ok\":true,\"result\":{text}}}"),
                Err(e) => serde_json::json!({ "ok": false, "error": e }).to_string(),
            };
            new_jstring(env, &json)
        })
        .resolve::<ThrowPolicy>()
}
