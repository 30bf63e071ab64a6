//! Debugger MCP core: everything an agent sees, independent of where the debugger lives.
//!
//! Boundaries (see docs/ARCHITECTURE.md):
//! - `backend`: the operation table every debugger backend implements (DAP, JNI/IntelliJ).
//! - `config`: the Rust-owned TOML settings.
//! The core never binds sockets, speaks DAP or touches JNI; hosts give it a backend and serve
//! the router it builds.

pub mod backend;
pub mod config;
