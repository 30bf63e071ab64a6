//! Project-level breakpoints (like an IDE's), stored here and applied to every Xdebug
//! connection: all of them when a request connects, changes at the next pause (Xdebug reads
//! commands only while the script is paused).

use crate::protocol::path_to_uri;
use crate::transport::{Connection, RequestError};
use debugger_mcp_core::backend::{BreakpointInfo, BreakpointKind};
use debugger_mcp_core::pathmap::PathMap;
use std::collections::HashMap;
use std::path::Path;

pub const PENDING: &str = "pending: binds when a PHP request connects";
pub const UNRESOLVED: &str = "not resolved yet: Xdebug binds it when the file is compiled";

#[derive(Default)]
pub struct Store {
    pub next: u64,
    pub list: Vec<BreakpointInfo>,
}

impl Store {
    pub fn new_id(&mut self) -> String {
        self.next += 1;
        format!("p{}", self.next)
    }
}

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
        // no `watch` breakpoints).
        BreakpointKind::Data => {
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

/// Brings one connection in line with the store. Returns (our id, resolved?, error) for each
/// breakpoint it set, so the caller can update what agents see.
pub async fn sync(
    conn: &Connection,
    wanted: &[BreakpointInfo],
    applied: &mut Applied,
    map: &PathMap,
) -> Vec<(String, Result<Option<bool>, String>)> {
    let mut out = Vec::new();
    let stale: Vec<String> = applied
        .iter()
        .filter(|(id, (_, was))| {
            !wanted
                .iter()
                .any(|b| &b.id == *id && b.enabled && same_request(b, was))
        })
        .map(|(id, _)| id.clone())
        .collect();
    for id in stale {
        if let Some((xid, _)) = applied.remove(&id) {
            let _ = remove(conn, &xid).await;
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
