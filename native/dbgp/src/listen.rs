//! Where sessions come from: the listening ports (the configured one or the next free of the
//! seven after it) and each Xdebug connection — matched to the launch that triggered it,
//! features negotiated, breakpoints applied, then run to the first stop.

use crate::PAGE;
use crate::launch;
use crate::protocol::{self, uri_to_path};
use crate::session::{Inner, Session, Trap};
use crate::transport::{ConnEvent, Connection};
use crate::values::parse_prop;
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::PathMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

/// Bytes of a string Xdebug sends by default (`max_data`); longer ones report their real size
/// and `evaluate` fetches them whole (`property_value -m`, or `max_data` raised around `eval`).
pub(crate) const MAX_DATA: u64 = 1024;

impl Inner {
    /// Binds `wanted` exactly, or (None) the default port: the configured one, else the next
    /// free of the seven after it (9004-9010 for 9003).
    pub async fn ensure_listener(self: &Arc<Self>, wanted: Option<u16>) -> BackendResult<u16> {
        if let Some(p) = wanted {
            if self.listeners.lock().unwrap().contains_key(&p) {
                return Ok(p);
            }
            return self.bind(p).await.map_err(|e| {
                BackendError::Failed(format!(
                    "cannot listen for Xdebug on {}:{p} (the configuration's 'port'): {e}; free the port or change 'port'",
                    self.listen_host.lock().unwrap()
                ))
            });
        }
        let mut default = self.default_port.lock().await;
        if let Some(p) = *default {
            return Ok(p);
        }
        let first = self.port.load(Ordering::Relaxed) as u16;
        let mut errors = Vec::new();
        for p in first..=first.saturating_add(7) {
            match self.bind(p).await {
                Ok(p) => {
                    if p != first {
                        tracing::info!(
                            port = p,
                            "port {first} is busy; listening for Xdebug on {p}"
                        );
                    }
                    *default = Some(p);
                    return Ok(p);
                }
                Err(e) => errors.push(format!("{p}: {e}")),
            }
        }
        Err(BackendError::Failed(format!(
            "cannot listen for Xdebug: ports {first}-{} are all in use ({}); stop what holds them or set [php] port in debugger-mcp.toml",
            first.saturating_add(7),
            errors.join(", ")
        )))
    }

    pub async fn bind(self: &Arc<Self>, port: u16) -> std::io::Result<u16> {
        let host = *self.listen_host.lock().unwrap();
        self.bind_on(host, port).await
    }

    pub async fn bind_on(
        self: &Arc<Self>,
        host: std::net::IpAddr,
        port: u16,
    ) -> std::io::Result<u16> {
        let listener = tokio::net::TcpListener::bind((host, port)).await?;
        let port = listener.local_addr()?.port();
        let inner = Arc::downgrade(self);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let Some(inner) = inner.upgrade() else { return };
                tokio::spawn(async move { inner.on_connection(stream, port).await });
            }
        });
        self.listeners.lock().unwrap().insert(port, task);
        Ok(port)
    }

    /// Which launch a connection belongs to: a waiting trap whose trigger is the PHP process
    /// (or its parent); else a waiting trap that triggers indirectly (curl, listen-only); else
    /// a running trigger that already has a session (concurrent requests of one command).
    pub fn pick_trap(&self, appid: Option<u32>, port: u16) -> (Option<Arc<Trap>>, bool) {
        let traps = self.traps.lock().unwrap();
        let mut on_port = traps.iter().filter(|t| t.port == port);
        let descends = |t: &Trap| {
            appid
                .zip(t.pid)
                .is_some_and(|(a, p)| launch::descends_from(a, p))
        };
        // An attach by pid takes only that process's connections (and its workers').
        let of_target = |t: &Trap| {
            t.launch
                .attach_pid
                .is_none_or(|p| appid.is_none_or(|a| launch::descends_from(a, p)))
        };
        let unclaimed: Vec<&Arc<Trap>> = on_port
            .clone()
            .filter(|t| !t.claimed.load(Ordering::SeqCst) && of_target(t))
            .collect();
        let pick = unclaimed
            .iter()
            .find(|t| descends(t))
            .or_else(|| {
                unclaimed.iter().find(|t| {
                    t.launch
                        .command
                        .as_deref()
                        .is_none_or(|c| !c.trim_start().starts_with("php"))
                })
            })
            .copied();
        if let Some(t) = pick {
            let first = !t.claimed.swap(true, Ordering::SeqCst);
            return (Some(t.clone()), first);
        }
        // Later requests of an attached process keep its settings (path mappings).
        let sibling = on_port
            .rfind(|t| {
                t.running() || descends(t) || (t.launch.attach_pid.is_some() && of_target(t))
            })
            .cloned();
        (sibling, false)
    }

    /// A mapping for a script that runs from a root no mapping covers and the project does not
    /// have (a container, another host, a deploy directory, with no launch.json or compose file
    /// saying where): the project file with the script's very bytes (read with DBGp `source`)
    /// gives it (`PathMap::inferred`). Else breakpoints would never bind there and every stop
    /// would be a remote path. Kept for the server's later requests.
    async fn inferred_mapping(
        &self,
        conn: &Connection,
        fileuri: &str,
        known: &PathMap,
    ) -> Option<PathMap> {
        use debugger_mcp_core::pathmap::Located;
        let remote = uri_to_path(fileuri)?;
        if matches!(known.to_local(&remote), Located::Local(_)) {
            return None;
        }
        let kept = self.inferred.lock().unwrap().clone();
        if matches!(kept.to_local(&remote), Located::Local(_)) {
            return Some(kept);
        }
        if self.unmatched.lock().unwrap().contains(&remote) {
            return None;
        }
        let source = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            conn.request("source", &[('f', fileuri.to_string())], None),
        )
        .await
        .ok()?
        .ok()?;
        let bytes = protocol::decoded_bytes(&source.root);
        let root = self.root.clone();
        let sought = remote.clone();
        let found =
            tokio::task::spawn_blocking(move || PathMap::inferred(&root, &sought, |b| b == bytes))
                .await
                .ok()
                .flatten();
        let Some(found) = found else {
            self.unmatched.lock().unwrap().insert(remote);
            return None;
        };
        tracing::info!("path mapping {}", found.describe(&self.root));
        let mut kept = self.inferred.lock().unwrap();
        kept.extend(found);
        Some(kept.clone())
    }

    pub async fn on_connection(self: Arc<Self>, stream: tokio::net::TcpStream, port: u16) {
        let (init, conn, mut rx) = match Connection::accept(stream).await {
            Ok(x) => x,
            Err(e) => {
                tracing::warn!("an Xdebug connection failed before its init packet: {e}");
                return;
            }
        };
        let (trap, claims) = self.pick_trap(init.appid, port);
        let owns_process = trap.as_ref().is_some_and(|t| {
            init.appid
                .zip(t.pid)
                .is_some_and(|(a, p)| launch::descends_from(a, p))
        });
        let id = match (&trap, claims) {
            (Some(t), true) => t.session_id.clone(),
            _ => self.new_session_id(),
        };
        let mut pathmap = trap
            .as_ref()
            .map(|t| t.launch.pathmap.clone())
            .unwrap_or_default();
        if pathmap.is_empty() {
            pathmap = PathMap::from_compose(&self.root).unwrap_or_default();
        }
        if let Some(inferred) = self.inferred_mapping(&conn, &init.fileuri, &pathmap).await {
            pathmap.extend(inferred);
        }
        let stop_on_entry = trap.as_ref().is_some_and(|t| t.launch.stop_on_entry);
        let stop_on_exception = trap.as_ref().is_some_and(|t| t.launch.stop_on_exception);
        let s = Arc::new(Session {
            id: id.clone(),
            name: Mutex::new(String::new()),
            conn: conn.clone(),
            state: Mutex::new(SessionState::Paused),
            appid: init.appid,
            pathmap,
            root: self.root.clone(),
            trap: trap.clone(),
            owns_process,
            stop_on_entry,
            applied: tokio::sync::Mutex::default(),
            values: Mutex::default(),
            ended: AtomicBool::new(false),
            ended_notify: Notify::new(),
            exit_code: Mutex::new(None),
            location: Mutex::new(None),
            at_return: AtomicBool::new(false),
            step_out: Mutex::new(None),
            user_exceptions_only: AtomicBool::new(stop_on_exception),
            step_catch: Mutex::new(None),
            step_exception: Mutex::new(None),
            detaching: AtomicBool::new(false),
        });
        // Negotiation happens at the init pause, before anything runs.
        let mut features: Vec<(String, String)> = vec![
            ("max_children".into(), PAGE.to_string()),
            ("max_data".into(), MAX_DATA.to_string()),
            ("max_depth".into(), "1".into()),
            ("resolved_breakpoints".into(), "1".into()),
            ("notify_ok".into(), "1".into()),
            ("extended_properties".into(), "1".into()),
            // Return breakpoints then carry the value (`$__RETURN_VALUE`): how a step out
            // shows what the function returned (Xdebug 3.2+; refused quietly by older ones).
            ("breakpoint_include_return_value".into(), "1".into()),
        ];
        if let Some(t) = &trap {
            for (k, v) in &t.launch.features {
                features.retain(|(n, _)| n != k);
                features.push((k.clone(), v.clone()));
            }
        }
        for (name, value) in &features {
            if let Err(e) = s
                .req(
                    "feature_set",
                    &[('n', name.clone()), ('v', value.clone())],
                    None,
                )
                .await
            {
                tracing::debug!(feature = %name, "feature_set refused: {e}");
            }
        }
        // A CLI run's output reaches us through the trigger's pipes; a web request's only
        // through DBGp's copy of stdout.
        if !owns_process {
            let _ = s.req("stdout", &[('c', "1".into())], None).await;
        }
        let script = uri_to_path(&init.fileuri).map(|p| match s.pathmap.to_local(&p) {
            debugger_mcp_core::pathmap::Located::Local(l) => l.display().to_string(),
            debugger_mcp_core::pathmap::Located::Unmapped(r) => r,
        });
        let request = self.web_request(&s).await;
        *s.name.lock().unwrap() = Session::what_ran(&self.root, script.as_deref(), request);
        self.sessions.add(s.clone());
        let mut info = s.info();
        info.state = SessionState::Running;
        self.emit(BackendEvent::SessionStarted {
            session: info.clone(),
        });
        if let Some(t) = &trap {
            if claims || t.output_to.lock().unwrap().is_none() {
                *t.output_to.lock().unwrap() = Some(id.clone());
                t.output_owned.store(owns_process, Ordering::SeqCst);
                let pending: Vec<(OutputCategory, String)> =
                    t.pending_output.lock().unwrap().clone();
                for (category, text) in pending {
                    if category == OutputCategory::Stdout && !owns_process {
                        continue;
                    }
                    self.emit(BackendEvent::Output {
                        session_id: id.clone(),
                        category,
                        text,
                    });
                }
            }
            if claims && let Some(tx) = t.claim_tx.lock().unwrap().take() {
                let _ = tx.send(info);
            }
        }
        // Events of this connection.
        {
            let inner = self.clone();
            let s = s.clone();
            tokio::spawn(async move {
                while let Some(ev) = rx.recv().await {
                    match ev {
                        ConnEvent::Stream { kind, text } => inner.emit(BackendEvent::Output {
                            session_id: s.id.clone(),
                            category: match kind {
                                protocol::StreamKind::Stdout => OutputCategory::Stdout,
                                protocol::StreamKind::Stderr => OutputCategory::Stderr,
                            },
                            text,
                        }),
                        ConnEvent::Notify { name, root } => inner.on_notify(&s, &name, &root),
                        ConnEvent::Closed { reason } => {
                            inner.end(&s, &reason).await;
                            break;
                        }
                    }
                }
            });
        }
        self.sync_breakpoints(&s).await;
        if stop_on_exception {
            // Every exception and PHP's fatal errors: what `panic` promises.
            for name in ["*", "Fatal error"] {
                let _ = s
                    .req(
                        "breakpoint_set",
                        &[('t', "exception".into()), ('x', name.into())],
                        None,
                    )
                    .await;
            }
        }
        let first = if stop_on_entry { "step_into" } else { "run" };
        self.cont(&s, first, stop_on_entry, false);
    }

    /// Method and URI of a web request (None for CLI runs).
    pub async fn web_request(&self, s: &Session) -> Option<(String, String)> {
        let get = |n: &'static str| async move {
            let r = s
                .req("property_get", &[('c', "1".into()), ('n', n.into())], None)
                .await
                .ok()?;
            let p = parse_prop(r.root.child("property")?);
            (p.type_name == "string").then_some(p.value)
        };
        let method = get("$_SERVER['REQUEST_METHOD']").await?;
        let uri = get("$_SERVER['REQUEST_URI']")
            .await
            .unwrap_or_else(|| "/".into());
        Some((method, uri))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use debugger_mcp_core::backend::event_channel;

    /// Xdebug in a container reaches the host on another address than 127.0.0.1; stood in for
    /// here by 127.0.0.2, which a listener bound to 127.0.0.1 refuses.
    #[tokio::test]
    async fn listen_host_widens_who_can_connect() {
        let (sink, _ev) = event_channel();
        let inner = Arc::new(Inner::new(std::env::temp_dir(), sink));
        let p = inner.bind(0).await.unwrap();
        assert!(
            tokio::net::TcpStream::connect(("127.0.0.2", p))
                .await
                .is_err(),
            "loopback only by default"
        );
        let (sink, _ev) = event_channel();
        let wide = Arc::new(Inner::new(std::env::temp_dir(), sink));
        *wide.listen_host.lock().unwrap() = std::net::Ipv4Addr::UNSPECIFIED.into();
        let p = wide.bind(0).await.unwrap();
        tokio::net::TcpStream::connect(("127.0.0.2", p))
            .await
            .expect("[php] listen_host = \"0.0.0.0\" accepts other addresses");
    }
}
