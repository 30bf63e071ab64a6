//! Finding the running servers (discovery records, else the IDE's port range) and choosing
//! the one for a path.

use super::wire::post;
use debugger_mcp_core::discovery::{self, Record};
use std::path::Path;
use std::time::Duration;

/// The IDE's built-in web server port range.
const PROBE_PORTS: std::ops::RangeInclusive<u16> = 63342..=63361;

/// Live servers: discovery records, else whatever answers on the IDE port range.
pub async fn find_servers() -> Vec<Record> {
    let mut records = Vec::new();
    for r in discovery::list() {
        // A record whose process id was reused by another program looks alive: only servers
        // that accept a connection count.
        let addr = format!("127.0.0.1:{}", r.port);
        match tokio::time::timeout(
            Duration::from_millis(500),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            Ok(Ok(_)) => records.push(r),
            _ => {
                tracing::debug!(url = %r.url, "discovery record of a server that does not accept connections; skipped")
            }
        }
    }
    if !records.is_empty() {
        return records;
    }
    let probes = PROBE_PORTS.map(|port| async move {
        let url = format!("http://127.0.0.1:{port}/debugger-mcp");
        let body = br#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#.to_vec();
        match tokio::time::timeout(
            Duration::from_millis(500),
            post(&url, None, None, None, body),
        )
        .await
        {
            // Any answer but 404 comes from a Debugger MCP handler (the IDE's server 404s
            // unknown paths).
            Ok(Ok(resp)) if resp.status() != http::StatusCode::NOT_FOUND => Some(Record {
                pid: 0,
                url,
                port,
                token: std::env::var("DEBUGGER_MCP_TOKEN").ok(),
                product: format!("IDE on port {port}"),
                roots: Vec::new(),
            }),
            _ => None,
        }
    });
    futures_join(probes).await.into_iter().flatten().collect()
}

async fn futures_join<F: std::future::Future>(futs: impl Iterator<Item = F>) -> Vec<F::Output> {
    let handles: Vec<_> = futs.collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await);
    }
    out
}

pub(super) fn describe(servers: &[Record]) -> String {
    servers
        .iter()
        .map(|r| {
            let roots: Vec<String> = r.roots.iter().map(|p| p.display().to_string()).collect();
            format!(
                "{} at {} (projects: {})",
                r.product,
                r.url,
                if roots.is_empty() {
                    "unknown".into()
                } else {
                    roots.join(", ")
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The server for `path`: the one with the longest root containing it; else the only one.
pub fn choose<'a>(servers: &'a [Record], path: &Path) -> Option<&'a Record> {
    servers
        .iter()
        .filter_map(|r| {
            r.best_root_for(path)
                .map(|root| (root.as_os_str().len(), r))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, r)| r)
        .or(if servers.len() == 1 {
            servers.first()
        } else {
            None
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn rec(pid: u32, roots: &[&str]) -> Record {
        Record {
            pid,
            url: format!("http://127.0.0.1:{pid}/debugger-mcp"),
            port: 1,
            token: None,
            product: "p".into(),
            roots: roots.iter().map(PathBuf::from).collect(),
        }
    }

    #[test]
    fn routing_prefers_the_most_specific_project() {
        let servers = [rec(1, &["/work"]), rec(2, &["/work/app", "/other"])];
        assert_eq!(choose(&servers, Path::new("/work/app/src")).unwrap().pid, 2);
        assert_eq!(choose(&servers, Path::new("/work/lib")).unwrap().pid, 1);
        assert_eq!(choose(&servers, Path::new("/other/x")).unwrap().pid, 2);
        assert!(
            choose(&servers, Path::new("/elsewhere")).is_none(),
            "two servers, no match: no guess"
        );
        assert_eq!(
            choose(&servers[..1], Path::new("/elsewhere")).unwrap().pid,
            1,
            "a single server is used anyway"
        );
        // A root that is a string prefix but not a parent does not match.
        assert_eq!(
            choose(
                &[rec(3, &["/work/app"]), rec(4, &["/"])],
                Path::new("/work/application")
            )
            .unwrap()
            .pid,
            4
        );
    }
}
