pub use debugger_mcp_core as core;
