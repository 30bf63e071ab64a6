//! User-visible behaviour of the tools through the engine and the fake backend, one module per
//! area (the `tools` test target; filter by name as before: `cargo test --test tools <name>`).

#[path = "../tools_common/mod.rs"]
mod common;

use async_trait::async_trait;
use common::{H, brave, temp_dir};
use debugger_mcp_core::backend::{Backend, LineBreakpointSpec};
use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::{CallContext, Confirmer, Engine};
use debugger_mcp_core::history::HistoryFilter;
use debugger_mcp_testkit::FakeBackend;
use serde_json::{Value, json};
use std::sync::Arc;

pub(crate) fn var<'a>(vars: &'a Value, name: &str) -> &'a Value {
    vars.as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {vars:#}"))
}

mod breakpoints;
mod projects;
mod registry;
mod sessions;
mod values;
