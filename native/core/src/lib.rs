//! Debugger MCP core: everything an agent sees, independent of where the debugger lives.
//!
//! Boundaries (see docs/ARCHITECTURE.md):
//! - `backend`: the operation table every debugger backend implements (DAP, JNI/IntelliJ).
//! - `engine`: tools, validation, session state, waits, values, watches, guardrails.
//! - `history`: the bounded command history the IDE tool window renders.
//! - `config`: the Rust-owned TOML settings.
//! - `pathmap`: local ↔ remote paths (launch.json mappings, compose bind mounts) for every backend.
//!
//! The core never binds sockets, speaks DAP or touches JNI; hosts give it a backend and serve
//! the handler/router it builds.

pub mod backend;
pub mod config;
pub mod discovery;
pub mod engine;
pub mod history;
pub mod http;
pub mod pathmap;
pub mod stdio;
