//! JNI entry points of the tool window's "Install on Agents" and of the IDE's discovery record
//! (Kotlin: `com.debuggermcp.bridge.InstallBridge`). The installer itself is the
//! `debugger-mcp-install` crate — the same code as `debugger-mcp install`.

use crate::{R, ThrowPolicy, jstr, new_jstring};
use debugger_mcp_core::discovery::{self, Published, Record};
use jni::EnvUnowned;
use jni::objects::{JClass, JString};
use std::sync::Mutex;

static PUBLISHED: Mutex<Option<(Published, Record)>> = Mutex::new(None);

/// The settings' token changed (watcher): the discovery record must carry the new one, or the
/// stdio bridge would be refused.
pub(crate) fn token_changed(token: Option<String>) {
    let mut slot = PUBLISHED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((published, record)) = slot.as_mut()
        && record.token != token
    {
        record.token = token;
        if let Err(e) = published.update(record) {
            tracing::warn!("cannot update the discovery record with the new token: {e}");
        }
    }
}

/// Plans an install request (JSON, see `debugger_mcp_install::report`): every agent's status,
/// file, diff and copy text. Writes nothing.
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_InstallBridge_plan<'local>(
    unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    run_request(unowned, request, false)
}

/// Applies an install request; returns the per-agent report (errors per agent, not thrown).
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_InstallBridge_apply<'local>(
    unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    request: JString<'local>,
) -> JString<'local> {
    run_request(unowned, request, true)
}

/// plan and apply differ only in whether the installer writes.
fn run_request<'local>(
    mut unowned: EnvUnowned<'local>,
    request: JString<'local>,
    apply: bool,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let request = jstr(env, &request)?;
            let report =
                debugger_mcp_install::report::run(&request, apply).map_err(crate::BridgeError)?;
            new_jstring(env, &report.to_string())
        })
        .resolve::<ThrowPolicy>()
}

/// Writes (or rewrites) this IDE's discovery record from its JSON (pid is filled in here);
/// returns "" or the error message. Called when the server starts and when projects open/close.
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_InstallBridge_publishDiscovery<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
    record: JString<'local>,
) -> JString<'local> {
    unowned
        .with_env(|env| -> R<JString<'local>> {
            let text = jstr(env, &record)?;
            let message =
                match serde_json::from_str::<serde_json::Value>(&text).and_then(|mut v| {
                    v["pid"] = serde_json::json!(std::process::id());
                    // The token the IDE's server enforces, from its settings (Kotlin never sees it).
                    if v.get("token").is_none_or(|t| t.is_null())
                        && let Ok(b) = crate::bridge()
                        && let Some(t) = b.engine.config().http.token.filter(|t| !t.is_empty())
                    {
                        v["token"] = serde_json::json!(t);
                    }
                    serde_json::from_value::<Record>(v)
                }) {
                    Err(e) => format!("bad discovery record: {e}"),
                    Ok(record) => {
                        let mut slot = PUBLISHED.lock().unwrap_or_else(|e| e.into_inner());
                        let result = match slot.as_mut() {
                            Some((p, current)) => p.update(&record).map(|()| *current = record),
                            None => discovery::publish(&record).map(|p| {
                                *slot = Some((p, record));
                            }),
                        };
                        result
                            .err()
                            .map(|e| format!("cannot write the discovery record: {e}"))
                            .unwrap_or_default()
                    }
                };
            new_jstring(env, &message)
        })
        .resolve::<ThrowPolicy>()
}

/// Removes this IDE's discovery record (server stopped, plugin unloaded).
#[unsafe(no_mangle)]
pub extern "system" fn Java_com_debuggermcp_bridge_InstallBridge_withdrawDiscovery<'local>(
    mut unowned: EnvUnowned<'local>,
    _class: JClass<'local>,
) {
    unowned
        .with_env(|_env| -> R<()> {
            PUBLISHED.lock().unwrap_or_else(|e| e.into_inner()).take();
            Ok(())
        })
        .resolve::<ThrowPolicy>()
}
