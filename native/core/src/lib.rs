//! Debugger MCP core: everything an agent sees, independent of where the debugger lives.
//!
//! Boundaries (see docs/ARCHITECTURE.md):
//! - `backend`: the operation table every debugger backend implements (DAP, JNI/IntelliJ).
//! - `engine`: tools, validation, session state, waits, values, watches, guardrails.
//! - `history`: the bounded command history the IDE tool window renders.
//! - `config`: the Rust-owned TOML settings.
//! - `pathmap`: local ↔ remote paths (launch.json mappings, compose bind mounts) for every backend.
//! - `project`: what a protocol backend keeps for its project (session table, breakpoint store,
//!   project check), shared by the DAP and DBGp backends.
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
pub mod project;
pub mod stdio;
