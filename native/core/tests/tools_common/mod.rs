//! Test harness: an engine over the fake backend in a fresh temporary project, plus helpers
//! that call tools like an MCP client would and check every success against the tool's
//! declared output schema.
#![allow(dead_code)]

use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::{CallContext, Engine};
use debugger_mcp_core::fake::FakeBackend;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct H {
    pub engine: Arc<Engine>,
    pub fake: Arc<FakeBackend>,
    pub root: PathBuf,
    pub ctx: CallContext,
}

pub fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "dmcp-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn brave() -> Config {
    Config {
        brave_mode: true,
        ..Config::default()
    }
}

impl H {
    pub fn new(cfg: Config) -> Self {
        let root = temp_dir("proj");
        let (fake, events) = FakeBackend::new(&root);
        let root = std::fs::canonicalize(&root).unwrap();
        let engine = Engine::new(fake.clone(), events, cfg);
        H {
            engine,
            fake,
            root,
            ctx: CallContext::default(),
        }
    }

    pub fn path(&self, rel: &str) -> String {
        self.root.join(rel).to_string_lossy().into_owned()
    }

    /// Calls a tool and returns (is_error, structured content or error text as JSON string).
    pub async fn raw(&self, tool: &str, args: Value) -> (bool, Value) {
        let r = self.engine.call_tool(tool, args, &self.ctx).await;
        let text = r
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default();
        if r.is_error == Some(true) {
            (true, Value::String(text))
        } else {
            let structured = r
                .structured_content
                .clone()
                .expect("success carries structuredContent");
            // The text is a compact rendering for a model, not the JSON again; structured
            // content carries no nulls.
            assert!(
                !text.is_empty() && !text.starts_with('{'),
                "{tool} text is not rendered: {text}"
            );
            assert!(
                !structured.to_string().contains(":null"),
                "{tool} result carries nulls: {structured}"
            );
            // Flags whose `false` is the default say nothing: the result types skip them.
            for flag in [
                "truncated",
                "redacted",
                "has_children",
                "is_library",
                "temporary",
                "timed_out",
                "preview",
                "changed",
                "already_paused",
                "exception",
            ] {
                assert!(
                    !structured
                        .to_string()
                        .contains(&format!("\"{flag}\":false")),
                    "{tool} result states {flag}: false: {structured}"
                );
            }
            let schema = self.engine.output_schema(tool).expect("tool exists");
            let validator = jsonschema::validator_for(&schema).unwrap();
            if let Err(e) = validator.validate(&structured) {
                panic!("{tool} result does not match its output schema: {e}\n{structured:#}");
            }
            (false, structured)
        }
    }

    /// A call that must succeed.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let (err, v) = self.raw(tool, args.clone()).await;
        assert!(!err, "{tool} {args} failed: {v}");
        v
    }

    /// A call that must fail; returns the error text.
    pub async fn err(&self, tool: &str, args: Value) -> String {
        let (err, v) = self.raw(tool, args.clone()).await;
        assert!(err, "{tool} {args} should fail but returned {v}");
        v.as_str().unwrap().to_string()
    }

    /// Breakpoint on `main.py:line`, session started and paused there.
    pub async fn paused_at(&self, file: &str, line: u32) -> Value {
        self.ok("set_breakpoint", json!({"file_path": file, "line": line}))
            .await;
        let started = self
            .ok(
                "start_debug_session",
                json!({"run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000}),
            )
            .await;
        assert_eq!(started["pause"]["state"], "paused", "{started:#}");
        started
    }
}

/// How many tools the full profile serves: the one list every client test shares,
/// tests/clients/expected_tools.json.
pub fn expected_tool_count() -> usize {
    let listed = include_str!("../../../../tests/clients/expected_tools.json");
    let v: serde_json::Value = serde_json::from_str(listed).expect("expected_tools.json parses");
    v["tools"].as_array().expect("tools array").len()
}
