//! The engine: tool registry, validation, session state from backend events, waits, value ids,
//! watches, guardrails and history — built once on top of [`Backend`].
//!
//! Hosts create one engine per process (sidecar) or per IDE (JNI) and serve
//! [`Engine::handler`] over any transport.

use crate::backend::{Backend, EventStream};
use crate::config::Config;
use crate::history::History;
use std::sync::{Arc, RwLock};

pub struct Engine {
    #[allow(dead_code)]
    backend: Arc<dyn Backend>,
    config: RwLock<Config>,
    history: History,
}

impl Engine {
    /// Creates the engine and starts consuming backend events on the current Tokio runtime.
    pub fn new(backend: Arc<dyn Backend>, events: EventStream, config: Config) -> Arc<Self> {
        let history = History::new(config.history_size);
        let engine = Arc::new(Self { backend, config: RwLock::new(config), history });
        drop(events); // placeholder until the event loop lands
        engine
    }

    /// The MCP server handler to serve over HTTP, SSE or stdio. Cheap to clone.
    pub fn handler(self: &Arc<Self>) -> McpHandler {
        McpHandler { engine: self.clone() }
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn config(&self) -> Config {
        self.config.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Applies new settings (e.g. after the TOML file changed).
    pub fn set_config(&self, config: Config) {
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = config;
    }
}

/// rmcp server handler backed by the engine.
#[derive(Clone)]
pub struct McpHandler {
    #[allow(dead_code)]
    engine: Arc<Engine>,
}

impl rmcp::ServerHandler for McpHandler {}
