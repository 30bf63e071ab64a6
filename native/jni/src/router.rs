//! The HTTP router the relay drives: the core's one router (SPEC §2), the same the sidecar serves.

use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::Engine;
use debugger_mcp_core::http::{LiveToken, RouterOptions, router_with};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Builds the router; the returned token ends every MCP session and SSE stream when cancelled
/// (bridge shutdown).
pub(crate) fn build(
    engine: &Arc<Engine>,
    config: &Config,
    live_token: LiveToken,
) -> (axum::Router, CancellationToken) {
    let mut options = RouterOptions::from_config(&config.http);
    options.live_token = Some(live_token);
    let cancel = options.cancel.clone();
    (router_with(engine.handler(), options), cancel)
}
