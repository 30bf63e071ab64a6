//! The HTTP router the relay drives. The core owns HTTP semantics (SPEC §2); this is the one
//! place that picks its router, so switching to `debugger_mcp_core::http::router` when it lands
//! is a one-line change in [`build`].

use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::Engine;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

pub(crate) fn build(engine: &Arc<Engine>, config: &Config) -> axum::Router {
    // Interim: plain rmcp Streamable HTTP at /debugger-mcp until the core's router (security
    // middleware, legacy SSE, both protocol eras) is merged.
    let handler = engine.handler();
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_max_request_body_bytes(config.http.max_body_bytes),
    );
    axum::Router::new().route_service("/debugger-mcp", service)
}
