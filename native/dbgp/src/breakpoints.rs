//! Project-level breakpoints (like an IDE's), stored here and applied to every Xdebug
//! connection: all of them when a request connects, changes at the next pause (Xdebug reads
//! commands only while the script is paused).

use crate::protocol::path_to_uri;
use crate::session::{Inner, REQUEST_TIMEOUT, Session};
use crate::transport::{Connection, RequestError};
use debugger_mcp_core::backend::*;
use debugger_mcp_core::pathmap::PathMap;
use std::collections::HashMap;
use std::path::Path;

pub const PENDING: &str = "pending: binds when a PHP request connects";
pub const UNRESOLVED: &str = "not resolved yet: Xdebug binds it when the file is compiled";

/// What was applied to one connection: our id → (Xdebug id, the breakpoint as applied).
pub type Applied = HashMap<String, (String, BreakpointInfo)>;

/// The fields that change what Xdebug does (not what it reported back).
fn same_request(a: &BreakpointInfo, b: &BreakpointInfo) -> bool {
    (
        &a.file,
        a.requested_line,
        &a.condition,
        &a.hit_condition,
        a.temporary,
        &a.exception,
        a.enabled,
    ) == (
        &b.file,
        b.requested_line,
        &b.condition,
        &b.hit_condition,
        b.temporary,
        &b.exception,
        b.enabled,
    )
}

/// `3` / `>= 3` / `== 3` / `% 3` → Xdebug's hit value and operator.
pub fn hit_condition(h: &str) -> Result<(String, &'static str), String> {
    let h = h.trim();
    let (op, rest) = if let Some(r) = h.strip_prefix(">=") {
        (">=", r)
    } else if let Some(r) = h.strip_prefix("==") {
        ("==", r)
    } else if let Some(r) = h.strip_prefix('%') {
        ("%", r)
    } else if let Some(r) = h.strip_prefix('>') {
        // `> 2` is `>= 3`.
        let n: u64 = r
            .trim()
            .parse()
            .map_err(|_| format!("hit condition '{h}': expected a number after >"))?;
        return Ok(((n + 1).to_string(), ">="));
    } else {
        ("==", h)
    };
    let n: u64 = rest
        .trim()
        .parse()
        .map_err(|_| format!("hit condition '{h}': use N, >= N, == N or % N"))?;
    Ok((n.to_string(), op))
}

/// `breakpoint_set` for one breakpoint; returns Xdebug's id and whether it resolved.
pub async fn set(
    conn: &Connection,
    bp: &BreakpointInfo,
    map: &PathMap,
) -> Result<(String, Option<bool>), RequestError> {
    let mut args: Vec<(char, String)> = Vec::new();
    let mut data = None;
    match bp.kind {
        BreakpointKind::Line => {
            let file = bp.file.as_deref().unwrap_or("");
            let remote = map.to_remote(Path::new(file));
            let cond = bp.condition.as_deref().filter(|c| !c.is_empty());
            args.push((
                't',
                if cond.is_some() {
                    "conditional"
                } else {
                    "line"
                }
                .into(),
            ));
            args.push(('f', path_to_uri(&remote)));
            args.push(('n', bp.requested_line.unwrap_or(1).to_string()));
            data = cond;
        }
        BreakpointKind::Exception => {
            args.push(('t', "exception".into()));
            args.push(('x', bp.exception.clone().unwrap_or_else(|| "*".into())));
        }
        // Never stored here: the DBGp backend has no `add_data_breakpoint` (Xdebug 3 implements
        // no `watch` breakpoints) nor `add_function_breakpoint` (the core binds PHP functions at
        // their first body line).
        BreakpointKind::Data | BreakpointKind::Function => {
            return Err(RequestError::Invalid("Xdebug has no watchpoints".into()));
        }
    }
    if let Some(h) = bp.hit_condition.as_deref().filter(|h| !h.is_empty()) {
        let (value, op) = hit_condition(h).map_err(RequestError::Invalid)?;
        args.push(('h', value));
        args.push(('o', op.into()));
    }
    if bp.temporary {
        args.push(('r', "1".into()));
    }
    let r = conn.request("breakpoint_set", &args, data).await?;
    let id = r.attr("id").unwrap_or("").to_string();
    let resolved = r.attr("resolved").map(|s| s == "resolved");
    Ok((id, resolved))
}

pub async fn remove(conn: &Connection, xdebug_id: &str) -> Result<(), RequestError> {
    conn.request("breakpoint_remove", &[('d', xdebug_id.to_string())], None)
        .await
        .map(|_| ())
}

/// Same breakpoint for Xdebug but for its state and hit condition, which `breakpoint_update`
/// changes in place (keeping Xdebug's hit count). Xdebug 3.2's `breakpoint_update` ignores a new
/// condition (checked: the expression stays), so a condition change removes and sets it again,
/// and Xdebug's count restarts. Xdebug 3.2 also stops at a disabled exception breakpoint all
/// the same (its throw hook reads no state): one turned off is removed, and set again when
/// turned on.
fn updatable(a: &BreakpointInfo, b: &BreakpointInfo) -> bool {
    if a.kind == BreakpointKind::Exception && !a.enabled {
        return false;
    }
    (
        &a.file,
        a.requested_line,
        &a.condition,
        a.temporary,
        &a.exception,
    ) == (
        &b.file,
        b.requested_line,
        &b.condition,
        b.temporary,
        &b.exception,
    )
}

/// `breakpoint_update` of state and hit condition (`-h 0` clears it: Xdebug's "no hit value").
pub async fn update(
    conn: &Connection,
    xdebug_id: &str,
    bp: &BreakpointInfo,
) -> Result<(), RequestError> {
    let state = if bp.enabled { "enabled" } else { "disabled" };
    let mut args = vec![('d', xdebug_id.to_string()), ('s', state.to_string())];
    match bp.hit_condition.as_deref().filter(|h| !h.is_empty()) {
        Some(h) => {
            let (value, op) = hit_condition(h).map_err(RequestError::Invalid)?;
            args.push(('h', value));
            args.push(('o', op.into()));
        }
        None => {
            args.push(('h', "0".into()));
            args.push(('o', ">=".into()));
        }
    }
    conn.request("breakpoint_update", &args, None)
        .await
        .map(|_| ())
}

/// Brings one connection in line with the store. Returns (our id, resolved?, error) for each
/// breakpoint it set, so the caller can update what agents see. A breakpoint whose state or hit
/// condition changed is updated in place, so Xdebug keeps counting its hits; a disabled one
/// stays set, disabled.
pub async fn sync(
    conn: &Connection,
    wanted: &[BreakpointInfo],
    applied: &mut Applied,
    map: &PathMap,
) -> Vec<(String, Result<Option<bool>, String>)> {
    let mut out = Vec::new();
    let ids: Vec<String> = applied.keys().cloned().collect();
    for id in ids {
        let Some((xid, was)) = applied.get(&id).cloned() else {
            continue;
        };
        match wanted.iter().find(|b| b.id == id) {
            Some(b) if same_request(b, &was) => {}
            Some(b) if updatable(b, &was) => {
                match update(conn, &xid, b).await {
                    Ok(()) => {
                        applied.insert(id.clone(), (xid, b.clone()));
                    }
                    Err(e) => {
                        // Out of step with Xdebug: set it anew below.
                        tracing::debug!(%id, "breakpoint_update refused: {e}");
                        applied.remove(&id);
                        let _ = remove(conn, &xid).await;
                    }
                }
            }
            _ => {
                applied.remove(&id);
                let _ = remove(conn, &xid).await;
            }
        }
    }
    let missing: Vec<&BreakpointInfo> = wanted
        .iter()
        .filter(|b| b.enabled && !applied.contains_key(&b.id))
        .collect();
    for bp in missing {
        match set(conn, bp, map).await {
            Ok((xid, resolved)) => {
                applied.insert(bp.id.clone(), (xid, bp.clone()));
                out.push((bp.id.clone(), Ok(resolved)));
            }
            Err(e) => out.push((bp.id.clone(), Err(e.to_string()))),
        }
    }
    out
}

impl Inner {
    pub fn update_bp(&self, id: &str, f: impl FnOnce(&mut BreakpointInfo)) {
        // Reported whenever the breakpoint exists, changed or not.
        let changed = self.bps.lock().unwrap().update(id, f);
        if let Some((b, _)) = changed {
            self.emit(BackendEvent::BreakpointChanged { breakpoint: b });
        }
    }

    pub fn breakpoint(&self, id: &str) -> BackendResult<BreakpointInfo> {
        self.bps.lock().unwrap().get(id)
    }

    /// Applies the store to a paused session and records how Xdebug took each breakpoint.
    pub async fn sync_breakpoints(&self, s: &Session) {
        if s.state() != SessionState::Paused {
            return;
        }
        let wanted = self.bps.lock().unwrap().list.clone();
        let results = {
            let mut applied = s.applied.lock().await;
            tokio::time::timeout(
                REQUEST_TIMEOUT,
                sync(&s.conn, &wanted, &mut applied, &s.pathmap),
            )
            .await
            .unwrap_or_default()
        };
        for (id, r) in results {
            self.update_bp(&id, |b| match r {
                Ok(Some(true)) | Ok(None) => {
                    b.verified = true;
                    b.message = None;
                }
                Ok(Some(false)) => {
                    if !b.verified {
                        b.message = Some(UNRESOLVED.into());
                    }
                }
                Err(e) => {
                    b.verified = false;
                    b.message = Some(format!("Xdebug refused it: {e}"));
                }
            });
        }
    }

    /// Applies breakpoint changes to every paused session now; running ones get them at their
    /// next pause.
    pub async fn sync_all(&self) {
        for s in self.sessions.live() {
            self.sync_breakpoints(&s).await;
        }
    }

    pub async fn add_line_breakpoint(
        &self,
        spec: LineBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        if spec.line == 0 {
            return Err(BackendError::Failed("line numbers are 1-based".into()));
        }
        if spec.log_message.as_deref().is_some_and(|m| !m.is_empty()) {
            return Err(BackendError::Unsupported(
                "Xdebug has no log points; use a conditional breakpoint, or error_log() in the code".into(),
            ));
        }
        if let Some(h) = spec.hit_condition.as_deref().filter(|h| !h.is_empty()) {
            hit_condition(h).map_err(BackendError::Failed)?;
        }
        let file = Path::new(&spec.file);
        if !file.is_file() {
            return Err(BackendError::NotFound(format!("file '{}'", file.display())));
        }
        let file = file.display().to_string();
        let id = self.bps.lock().unwrap().put_line(&file, spec, PENDING);
        self.sync_all().await;
        self.breakpoint(&id)
    }
    pub async fn add_exception_breakpoint(
        &self,
        spec: ExceptionBreakpointSpec,
    ) -> BackendResult<BreakpointInfo> {
        let name = match spec.exception.as_str() {
            "" | "all" | "raised" | "uncaught" | "Throwable" | "\\Throwable" => "*".to_string(),
            other => other.trim_start_matches('\\').to_string(),
        };
        let id = {
            let mut store = self.bps.lock().unwrap();
            let id = store.id_for(|b| {
                b.kind == BreakpointKind::Exception && b.exception.as_deref() == Some(&name)
            });
            let bp = BreakpointInfo {
                id: id.clone(),
                kind: BreakpointKind::Exception,
                verified: false,
                message: Some(PENDING.into()),
                enabled: spec.enabled,
                condition: spec.condition.filter(|c| !c.is_empty()),
                exception: Some(name),
                // Xdebug stops where an exception is thrown, caught or not.
                caught: Some(true),
                uncaught: Some(true),
                suspend_policy: spec.suspend_policy,
                ..Default::default()
            };
            store.put(bp);
            id
        };
        self.sync_all().await;
        self.breakpoint(&id)
    }
    pub async fn update_breakpoint(
        &self,
        id: &str,
        update: BreakpointUpdate,
    ) -> BackendResult<BreakpointInfo> {
        if update.log_message.as_deref().is_some_and(|m| !m.is_empty()) {
            return Err(BackendError::Unsupported("Xdebug has no log points".into()));
        }
        if let Some(h) = update.hit_condition.as_deref().filter(|h| !h.is_empty()) {
            hit_condition(h).map_err(BackendError::Failed)?;
        }
        self.bps.lock().unwrap().apply(id, update)?;
        self.sync_all().await;
        self.breakpoint(id)
    }
    pub async fn remove_breakpoint(&self, id: &str) -> BackendResult<()> {
        self.bps.lock().unwrap().remove(id)?;
        self.sync_all().await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_conditions() {
        assert_eq!(hit_condition("3").unwrap(), ("3".into(), "=="));
        assert_eq!(hit_condition(">= 2").unwrap(), ("2".into(), ">="));
        assert_eq!(hit_condition("> 2").unwrap(), ("3".into(), ">="));
        assert_eq!(hit_condition("%5").unwrap(), ("5".into(), "%"));
        assert!(hit_condition("often").unwrap_err().contains("use N"));
    }
}
