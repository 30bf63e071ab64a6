//! HTTP over JNI: one relayed request = one task on Rust's runtime that drives the router with
//! `tower::ServiceExt::oneshot` and streams the response back through the Java `HttpResponder`:
//! `start(status, headers)`, `chunk(bytes)` per body frame as it arrives (SSE streams stay open),
//! `end()`. The Netty thread that called `handleHttp` only copies the request and returns.
//!
//! Cancellation: `cancelHttp(handle)` (the Kotlin side calls it when the client channel closes)
//! aborts the task; dropping the response body is what tells rmcp the stream is gone. A responder
//! that throws (channel already closed) ends the task the same way.

use crate::jvm;
use bytes::Bytes;
use futures::FutureExt;
use http_body_util::{BodyExt, Full};
use jni::objects::{JByteArray, JObjectArray, JString};
use jni::signature::{Primitive, ReturnType};
use jni::sys::jvalue;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::task::AbortHandle;
use tower::ServiceExt;

/// Header a test sends to make the relay task panic (only when test hooks are enabled).
pub(crate) const TEST_PANIC_HEADER: &str = "x-debugger-mcp-test-panic";

#[derive(Default)]
pub(crate) struct HttpTasks {
    next: AtomicU64,
    running: Mutex<HashMap<u64, AbortHandle>>,
}

impl HttpTasks {
    pub(crate) fn active(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub(crate) fn cancel(&self, handle: u64) -> bool {
        let task = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&handle);
        match task {
            Some(t) => {
                t.abort();
                true
            }
            None => false,
        }
    }

    pub(crate) fn cancel_all(&self) {
        for (_, t) in self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
        {
            t.abort();
        }
    }
}

pub(crate) struct Relayed {
    pub request: http::Request<Full<Bytes>>,
    pub responder: jvm::JavaRef,
    pub test_panic: bool,
}

/// Spawns the relay task and returns its handle for `cancelHttp`.
pub(crate) fn spawn(
    runtime: &tokio::runtime::Handle,
    tasks: &Arc<HttpTasks>,
    router: axum::Router,
    relayed: Relayed,
) -> u64 {
    let handle = tasks.next.fetch_add(1, Ordering::Relaxed) + 1;
    let tasks2 = tasks.clone();
    // The map lock is held across spawn so the task's own removal (at its end) cannot run
    // before the insertion below; otherwise a fast request would leave a stale entry.
    let mut running = tasks.running.lock().unwrap_or_else(|e| e.into_inner());
    let join = runtime.spawn(async move {
        let Relayed {
            request,
            responder,
            test_panic,
        } = relayed;
        let outcome = AssertUnwindSafe(async move {
            if test_panic {
                panic!("test hook: injected panic in the HTTP relay task");
            }
            router.oneshot(request).await
        })
        .catch_unwind()
        .await;
        match outcome {
            Ok(Ok(response)) => stream(response, &responder).await,
            Ok(Err(never)) => match never {},
            Err(payload) => {
                let msg = crate::panic_message(&*payload);
                tracing::error!("HTTP relay task panicked: {msg}");
                let body = format!(
                    "{{\"error\":\"internal error: {}\"}}",
                    msg.replace('"', "'")
                );
                let _ = start(
                    &responder,
                    500,
                    &[("content-type".into(), "application/json".into())],
                );
                let _ = chunk(&responder, body.as_bytes());
                let _ = end(&responder);
            }
        }
        tasks2
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&handle);
    });
    running.insert(handle, join.abort_handle());
    handle
}

async fn stream(response: axum::response::Response, responder: &jvm::JavaRef) {
    let (parts, mut body) = response.into_parts();
    let headers: Vec<(String, String)> = parts
        .headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    if let Err(e) = start(responder, parts.status.as_u16() as i32, &headers) {
        tracing::debug!("responder.start failed, dropping the response: {e}");
        return;
    }
    loop {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data()
                    && !data.is_empty()
                    && let Err(e) = chunk(responder, &data)
                {
                    // The channel is gone: dropping `body` cancels the stream in rmcp.
                    tracing::debug!("responder.chunk failed, cancelling the stream: {e}");
                    return;
                }
            }
            Some(Err(e)) => {
                tracing::warn!("response body failed mid-stream: {e}");
                break;
            }
            None => break,
        }
    }
    if let Err(e) = end(responder) {
        tracing::debug!("responder.end failed: {e}");
    }
}

fn start(
    responder: &jvm::JavaRef,
    status: i32,
    headers: &[(String, String)],
) -> Result<(), String> {
    let ids = jvm::ids().ok_or("bridge classes not resolved")?;
    jvm::with_env(|env| {
        let empty = JString::from_str(env, "")?;
        let names = JObjectArray::<JString>::new(env, headers.len(), &empty)?;
        let values = JObjectArray::<JString>::new(env, headers.len(), &empty)?;
        for (i, (k, v)) in headers.iter().enumerate() {
            let k = JString::from_str(env, k)?;
            names.set_element(env, i, &k)?;
            env.delete_local_ref(k);
            let v = JString::from_str(env, v)?;
            values.set_element(env, i, &v)?;
            env.delete_local_ref(v);
        }
        let args = [
            jvalue { i: status },
            jvalue { l: names.as_raw() },
            jvalue { l: values.as_raw() },
        ];
        // SAFETY: HttpResponder.start(I[Ljava/lang/String;[Ljava/lang/String;)V.
        unsafe {
            env.call_method_unchecked(
                responder.obj(),
                ids.responder_start,
                ReturnType::Primitive(Primitive::Void),
                &args,
            )
        }?;
        Ok(())
    })
    .map_err(|e| jvm::describe(&e))
}

fn chunk(responder: &jvm::JavaRef, data: &[u8]) -> Result<(), String> {
    let ids = jvm::ids().ok_or("bridge classes not resolved")?;
    jvm::with_env(|env| {
        let bytes: JByteArray = env.byte_array_from_slice(data)?;
        let args = [jvalue { l: bytes.as_raw() }];
        // SAFETY: HttpResponder.chunk([B)V.
        unsafe {
            env.call_method_unchecked(
                responder.obj(),
                ids.responder_chunk,
                ReturnType::Primitive(Primitive::Void),
                &args,
            )
        }?;
        Ok(())
    })
    .map_err(|e| jvm::describe(&e))
}

fn end(responder: &jvm::JavaRef) -> Result<(), String> {
    let ids = jvm::ids().ok_or("bridge classes not resolved")?;
    jvm::with_env(|env| {
        // SAFETY: HttpResponder.end()V.
        unsafe {
            env.call_method_unchecked(
                responder.obj(),
                ids.responder_end,
                ReturnType::Primitive(Primitive::Void),
                &[],
            )
        }?;
        Ok(())
    })
    .map_err(|e| jvm::describe(&e))
}
