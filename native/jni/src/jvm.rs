//! The JVM side of the bridge: the `JavaVM`, class and method ids resolved once, and the helpers
//! Rust threads use to call into Java.
//!
//! Why ids are resolved up front: `FindClass` on a thread Rust created only sees the system
//! class loader, never the plugin's classes. They are resolved in `JNI_OnLoad` (runs in the
//! thread that called `System.load`, with the plugin's loader) and, failing that, in
//! `NativeBridge.init` (a native method of the plugin's own class, so `FindClass` uses its loader).
//! Method ids of the interfaces stay valid for every implementation object.

use jni::errors::Error as JniError;
use jni::ids::{JMethodID, JStaticMethodID};
use jni::objects::{Global, JClass, JObject};
use jni::sys;
use jni::{Env, JavaVM, jni_sig, jni_str};
use std::ffi::{CString, c_void};
use std::sync::OnceLock;

pub(crate) struct Ids {
    /// `NativeBridge` itself, kept alive so the static `log` method id stays valid.
    pub bridge_class: Global<JClass<'static>>,
    pub bridge_log: JStaticMethodID,
    pub callbacks_table_version: JMethodID,
    pub callbacks_call: JMethodID,
    pub responder_start: JMethodID,
    pub responder_chunk: JMethodID,
    pub responder_end: JMethodID,
}

static IDS: OnceLock<Ids> = OnceLock::new();

pub(crate) fn ids() -> Option<&'static Ids> {
    IDS.get()
}

/// Resolves the ids with the current thread's class loader context. Idempotent; an error means
/// the plugin classes are not visible from this thread (the caller then retries from `init`).
pub(crate) fn resolve_ids(env: &mut Env<'_>) -> Result<&'static Ids, JniError> {
    if let Some(ids) = IDS.get() {
        return Ok(ids);
    }
    let bridge = env.find_class(jni_str!("com/debuggermcp/bridge/NativeBridge"))?;
    let callbacks = env.find_class(jni_str!("com/debuggermcp/bridge/DebuggerCallbacks"))?;
    let responder = env.find_class(jni_str!("com/debuggermcp/bridge/HttpResponder"))?;
    let ids = Ids {
        bridge_log: env.get_static_method_id(
            &bridge,
            jni_str!("log"),
            jni_sig!((level: jint, target: java.lang.String, message: java.lang.String) -> void),
        )?,
        callbacks_table_version: env.get_method_id(
            &callbacks,
            jni_str!("tableVersion"),
            jni_sig!(() -> jint),
        )?,
        callbacks_call: env.get_method_id(
            &callbacks,
            jni_str!("call"),
            jni_sig!((request_id: jlong, op: java.lang.String, args: java.lang.String) -> void),
        )?,
        responder_start: env.get_method_id(
            &responder,
            jni_str!("start"),
            jni_sig!((status: jint, names: java.lang.String[], values: java.lang.String[]) -> void),
        )?,
        responder_chunk: env.get_method_id(
            &responder,
            jni_str!("chunk"),
            jni_sig!((data: jbyte[]) -> void),
        )?,
        responder_end: env.get_method_id(&responder, jni_str!("end"), jni_sig!(() -> void))?,
        bridge_class: env.new_global_ref(&bridge)?,
    };
    // Local class refs die with the caller's frame; only the global one is kept.
    env.delete_local_ref(callbacks);
    env.delete_local_ref(responder);
    env.delete_local_ref(bridge);
    let _ = IDS.set(ids);
    Ok(IDS.get().expect("just set"))
}

/// Runs `f` with an `Env` on the current (Rust-owned or JVM) thread. Threads of Rust's runtime
/// are attached as daemons when they start (see [`attach_daemon`]); any other thread gets a
/// permanent attachment here. A local frame is pushed and popped around `f`, so local references
/// made inside cannot leak. A Java exception left pending by `f` comes back as
/// `Error::CaughtJavaException` (cleared).
pub(crate) fn with_env<T>(
    f: impl FnOnce(&mut Env<'_>) -> Result<T, JniError>,
) -> Result<T, JniError> {
    let vm = JavaVM::singleton()?;
    vm.attach_current_thread(f)
}

/// Like [`with_env`] but without pushing a local frame: for hot paths that delete every local
/// reference they make themselves (saves a PushLocalFrame/PopLocalFrame pair per call).
pub(crate) fn with_env_no_frame<T>(
    f: impl FnOnce(&mut Env<'_>) -> Result<T, JniError>,
) -> Result<T, JniError> {
    let vm = JavaVM::singleton()?;
    vm.attach_current_thread_with_config(jni::AttachConfig::default, None, f)
}

/// Attaches the current thread as a daemon thread named `name`: the JVM then never waits for
/// Rust's runtime threads when it exits (jni 0.22 only offers non-daemon attachments, hence the
/// raw call). jni-rs later finds this attachment through `GetEnv` and does not own it.
pub(crate) fn attach_daemon(name: &str) {
    let Ok(vm) = JavaVM::singleton() else { return };
    let raw = vm.get_raw();
    let cname = CString::new(name).unwrap_or_default();
    let mut args = sys::JavaVMAttachArgs {
        version: sys::JNI_VERSION_1_8,
        name: cname.as_ptr() as *mut _,
        group: std::ptr::null_mut(),
    };
    let mut env: *mut c_void = std::ptr::null_mut();
    // SAFETY: `raw` is the process' JavaVM (set in JNI_OnLoad); args outlive the call.
    unsafe {
        ((*(*raw)).v1_4.AttachCurrentThreadAsDaemon)(
            raw,
            &mut env,
            &mut args as *mut _ as *mut c_void,
        );
    }
}

/// Detaches a thread attached by [`attach_daemon`] (called when a runtime thread stops).
pub(crate) fn detach_current() {
    let Ok(vm) = JavaVM::singleton() else { return };
    let raw = vm.get_raw();
    // SAFETY: no jni-rs guard is alive on this thread when the runtime stops it.
    unsafe {
        ((*(*raw)).v1_4.DetachCurrentThread)(raw);
    }
}

/// One-line description of a JNI error, with the Java exception class and message when there is one.
pub(crate) fn describe(err: &JniError) -> String {
    match err {
        JniError::CaughtJavaException { name, msg, .. } => {
            if msg.is_empty() {
                name.clone()
            } else {
                format!("{name}: {msg}")
            }
        }
        other => other.to_string(),
    }
}

/// A global reference to a Java object that Rust keeps across awaits and threads.
///
/// Why a newtype: `Global<JObject<'static>>` is `Send` only through bounds that mention
/// `JObject<'static>`, and async state machines erase that lifetime, so the compiler cannot
/// prove futures holding one are `Send`. A global reference is valid on every thread.
pub(crate) struct JavaRef(pub Global<JObject<'static>>);

// SAFETY: JNI global references may be used from any attached thread.
unsafe impl Send for JavaRef {}
unsafe impl Sync for JavaRef {}

impl JavaRef {
    pub(crate) fn obj(&self) -> &JObject<'static> {
        self.0.as_obj()
    }
}
