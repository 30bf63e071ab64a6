//! User-visible behaviour of the tools through the engine and the fake backend.

#[path = "tools_common/mod.rs"]
mod common;

use async_trait::async_trait;
use common::{H, brave, temp_dir};
use debugger_mcp_core::backend::{Backend, LineBreakpointSpec};
use debugger_mcp_core::config::Config;
use debugger_mcp_core::engine::{CallContext, Confirmer, Engine};
use debugger_mcp_core::fake::FakeBackend;
use debugger_mcp_core::history::HistoryFilter;
use serde_json::{Value, json};
use std::sync::Arc;

fn var<'a>(vars: &'a Value, name: &str) -> &'a Value {
    vars.as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {vars:#}"))
}

// ---- registry and validation ---------------------------------------------------------------

#[tokio::test]
async fn lists_the_expected_tools_and_server_info() {
    let h = H::new(Config::default());
    let names: Vec<String> = h
        .engine
        .tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    // One list of the served tools for every client test: tests/clients/expected_tools.json.
    let listed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/clients/expected_tools.json"
    ))
    .unwrap();
    let mut expected: Vec<String> = serde_json::from_str::<Value>(&listed).unwrap()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected);
    for n in [
        "get_debug_session_status",
        "evaluate_code_fragment",
        "get_source_context",
        "wait_for_pause",
    ] {
        assert!(names.contains(&n.to_string()), "{n}");
    }
    let info = rmcp::ServerHandler::get_info(&h.engine.handler());
    assert_eq!(info.server_info.name, "debugger-mcp");
    assert!(info.capabilities.tools.is_some());
    assert!(info.instructions.unwrap().contains("set_breakpoint"));
}

/// Results are checked against their tool's output schema on every call (tools_common); the
/// schema is strict enough for that to mean something: an undeclared field, a missing required
/// field or a wrongly typed one is rejected.
#[tokio::test]
async fn output_schemas_reject_undeclared_missing_and_mistyped_fields() {
    let h = H::new(brave());
    let paused = h.paused_at("main.py", 8).await;
    let bp = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 9}))
        .await;
    for (tool, result) in [("set_breakpoint", bp), ("start_debug_session", paused)] {
        let schema = h.engine.output_schema(tool).unwrap();
        let v = jsonschema::validator_for(&schema).unwrap();
        assert!(v.is_valid(&result), "{tool}: {result:#}");
        let mut extra = result.clone();
        extra["undeclared"] = json!(1);
        assert!(!v.is_valid(&extra), "{tool}: an undeclared field passed");
        let mut missing = result.clone();
        let m = missing.as_object_mut().unwrap();
        m.remove("session_id").or_else(|| m.remove("id")).unwrap();
        assert!(
            !v.is_valid(&missing),
            "{tool}: a missing required field passed"
        );
        let mut mistyped = result.clone();
        let key = if tool == "set_breakpoint" {
            "line"
        } else {
            "state"
        };
        mistyped[key] = json!({"x": 1});
        assert!(!v.is_valid(&mistyped), "{tool}: a mistyped field passed");
    }
    // Nested shapes are strict too: a stop result's location and variables.
    let schema = h.engine.output_schema("start_debug_session").unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let started = h.ok("wait_for_pause", json!({})).await;
    let mut wrapped = json!({"session_id": "s", "name": "n", "state": "paused", "message": "m", "pause": started});
    assert!(v.is_valid(&wrapped), "{wrapped:#}");
    wrapped["pause"]["location"]["column"] = json!(3);
    assert!(
        !v.is_valid(&wrapped),
        "an undeclared field in a nested object passed"
    );
}

#[tokio::test]
async fn bad_input_names_field_expected_and_received_and_runs_nothing() {
    let h = H::new(Config::default());
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": "abc"}),
        )
        .await;
    assert!(
        e.contains("'line'") && e.contains("integer") && e.contains("\"abc\""),
        "{e}"
    );
    let e = h.err("set_breakpoint", json!({"line": 3})).await;
    assert!(e.contains("'file_path'") && e.contains("required"), "{e}");
    let e = h
        .err("set_breakpoint", json!({"file_path": "main.py", "line": 0}))
        .await;
    assert!(
        e.contains("'line'") && e.contains(">= 1") && e.contains("0"),
        "{e}"
    );
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 3, "suspend_policy": "sometimes"}),
        )
        .await;
    assert!(
        e.contains("suspend_policy") && e.contains("\"thread\"") && e.contains("sometimes"),
        "{e}"
    );
    let e = h.err("resume", json!({"sesion_id": "s1"})).await;
    assert!(
        e.contains("'sesion_id'") && e.contains("unknown parameter") && e.contains("session_id"),
        "{e}"
    );
    let e = h.err("wait_for_pause", json!({"timeout_ms": 60000})).await;
    assert!(e.contains("'timeout_ms'") && e.contains("<= 55000"), "{e}");
    assert!(
        h.fake.calls().is_empty(),
        "validation must happen before any backend call: {:?}",
        h.fake.calls()
    );
    let e = h.err("no_such_tool", json!({})).await;
    assert!(e.contains("unknown tool"), "{e}");
}

// ---- breakpoints ---------------------------------------------------------------------------

#[tokio::test]
async fn breakpoint_is_pending_then_binds_moved_with_source_text() {
    let h = H::new(brave());
    let bp = h
        .ok(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 14}),
        )
        .await;
    assert_eq!(bp["verified"], false);
    assert_eq!(
        bp["message"], "pending: binds when a session starts",
        "{bp}"
    );
    assert_eq!(bp["owner"], "agent");
    // A session binds it, moving it from the blank line 14 to the next code line (16).
    let started = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true}),
        )
        .await;
    assert_eq!(started["pause"]["location"]["line"], 16, "{started:#}");
    assert_eq!(started["pause"]["reason"], "breakpoint");
    let list = h.ok("list_breakpoints", json!({})).await;
    let b = &list["breakpoints"][0];
    assert_eq!(
        (
            b["verified"].clone(),
            b["line"].clone(),
            b["requested_line"].clone()
        ),
        (json!(true), json!(16), json!(14))
    );
    assert_eq!(b["hit_count"], 1);
    // With a live session the move is reported at once, with the bound line's text.
    let moved = h
        .ok(
            "set_breakpoint",
            json!({"file_path": h.path("main.py"), "line": 2}),
        )
        .await;
    assert_eq!(moved["line"], 3);
    assert_eq!(moved["source_line"], "def main(limit):");
    assert!(
        moved["moved"]
            .as_str()
            .unwrap()
            .contains("moved it from line 2 to line 3"),
        "{moved}"
    );
}

#[tokio::test]
async fn setting_the_same_line_updates_instead_of_duplicating() {
    let h = H::new(Config::default());
    let a = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    let b = h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 8, "condition": "total > 1", "log_message": "t={total}"})).await;
    assert_eq!(a["id"], b["id"]);
    assert_eq!(b["status"], "updated");
    assert_eq!(b["condition"], "total > 1");
    assert_eq!(b["log_message"], "t={total}");
    assert!(
        h.fake
            .calls()
            .iter()
            .any(|c| c.starts_with("update_breakpoint"))
    );
    assert_eq!(h.ok("list_breakpoints", json!({})).await["total"], 1);
}

#[tokio::test]
async fn remove_by_id_file_line_all_agent_and_idempotent() {
    let h = H::new(Config::default());
    let root = h.root.to_string_lossy().into_owned();
    // A breakpoint the user set in the IDE (not through a tool).
    let user = h
        .fake
        .add_line_breakpoint(
            &root,
            LineBreakpointSpec {
                file: h.path("util.py"),
                line: 2,
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let a = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 9}))
        .await;
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 12}),
    )
    .await;
    let users = h.ok("list_breakpoints", json!({"owner": "user"})).await;
    assert_eq!(users["breakpoints"][0]["id"], json!(user.id));
    let r = h
        .ok("remove_breakpoint", json!({"breakpoint_id": a["id"]}))
        .await;
    assert_eq!(r["removed"], json!([a["id"]]));
    let r = h
        .ok(
            "remove_breakpoint",
            json!({"file_path": "main.py", "line": 9}),
        )
        .await;
    assert_eq!(r["removed"].as_array().unwrap().len(), 1);
    let r = h
        .ok("remove_breakpoint", json!({"breakpoint_id": "999"}))
        .await;
    assert_eq!(r["removed"], json!([]));
    assert!(r["message"].as_str().unwrap().contains("nothing to remove"));
    let r = h
        .ok("remove_breakpoint", json!({"all_agent_breakpoints": true}))
        .await;
    assert_eq!(r["removed"].as_array().unwrap().len(), 1);
    let left = h.ok("list_breakpoints", json!({})).await;
    assert_eq!(left["total"], 1);
    assert_eq!(left["breakpoints"][0]["owner"], "user");
    let e = h.err("remove_breakpoint", json!({})).await;
    assert!(e.contains("exactly one of"), "{e}");
}

#[tokio::test]
async fn toggle_flips_and_exception_breakpoints_are_listed() {
    let h = H::new(Config::default());
    let bp = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    let t = h
        .ok("toggle_breakpoint", json!({"breakpoint_id": bp["id"]}))
        .await;
    assert_eq!(t["enabled"], false);
    let t = h
        .ok(
            "toggle_breakpoint",
            json!({"breakpoint_id": bp["id"], "enabled": true}),
        )
        .await;
    assert_eq!(t["enabled"], true);
    let e = h
        .err("toggle_breakpoint", json!({"breakpoint_id": "77"}))
        .await;
    assert!(
        e.contains("unknown breakpoint id '77'") && e.contains(bp["id"].as_str().unwrap()),
        "{e}"
    );
    let x = h
        .ok(
            "set_exception_breakpoint",
            json!({"exception_class": "uncaught", "caught": false}),
        )
        .await;
    assert_eq!(
        (x["type"].clone(), x["caught"].clone(), x["owner"].clone()),
        (json!("exception"), json!(false), json!("agent"))
    );
    assert_eq!(
        h.ok("list_breakpoints", json!({"enabled_only": true}))
            .await["total"],
        2
    );
}

#[tokio::test]
async fn temporary_breakpoint_is_removed_after_its_first_hit() {
    let h = H::new(brave());
    h.ok(
        "set_breakpoint",
        json!({"file_path": "util.py", "line": 2, "temporary": true}),
    )
    .await;
    let s = h
        .ok(
            "start_debug_session",
            json!({"command": "python3 main.py", "wait_for_pause": true}),
        )
        .await;
    assert_eq!(s["pause"]["location"]["line"], 2);
    for _ in 0..100 {
        if h.ok("list_breakpoints", json!({})).await["total"] == 0 {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("temporary breakpoint still there");
}

// ---- sessions and execution ----------------------------------------------------------------

#[tokio::test]
async fn stepping_waits_and_returns_the_new_line_and_variables() {
    let h = H::new(brave());
    h.paused_at("main.py", 8).await;
    let r = h.ok("step_over", json!({})).await;
    assert_eq!(r["state"], "paused");
    assert_eq!(r["reason"], "step");
    assert_eq!(r["location"]["line"], 9);
    assert_eq!(var(&r["frame"]["variables"], "total")["value"], "0");
    let r = h
        .ok("run_to_line", json!({"file_path": "main.py", "line": 11}))
        .await;
    assert_eq!(
        (r["location"]["line"].clone(), r["reason"].clone()),
        (json!(11), json!("goto"))
    );
    let r = h.ok("step_into", json!({})).await;
    assert!(
        r["location"]["file"].as_str().unwrap().ends_with("util.py"),
        "{r:#}"
    );
    assert_eq!(r["location"]["method"], "add");
    assert_eq!(var(&r["frame"]["variables"], "b")["value"], "1");
    let r = h.ok("step_out", json!({})).await;
    assert!(r["location"]["file"].as_str().unwrap().ends_with("main.py"));
    assert_eq!(r["location"]["method"], "main");
    assert!(r["step"].as_u64().unwrap() >= 5);
}

#[tokio::test]
async fn resume_counts_hits_and_times_out_as_running() {
    let h = H::new(brave());
    let bp = h
        .ok("set_breakpoint", json!({"file_path": "util.py", "line": 2}))
        .await;
    h.ok(
        "start_debug_session",
        json!({"run_configuration": "main", "wait_for_pause": true}),
    )
    .await;
    let r = h.ok("resume", json!({})).await;
    assert_eq!(r["breakpoint_ids"], json!([bp["id"]]));
    assert_eq!(var(&r["frame"]["variables"], "a")["value"], "1");
    h.ok("resume", json!({})).await;
    let list = h.ok("list_breakpoints", json!({})).await;
    assert_eq!(list["breakpoints"][0]["hit_count"], 3);
    // No breakpoint is left ahead: the program runs on; the wait gives up and says so.
    let r = h.ok("resume", json!({"timeout_ms": 150})).await;
    assert_eq!(r["state"], "running");
    assert_eq!(r["timed_out"], true);
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("still running after 150 ms"),
        "{r}"
    );
    let e = h.err("step_over", json!({})).await;
    assert!(
        e.contains("is running; call pause or wait_for_pause first"),
        "{e}"
    );
    let r = h.ok("pause", json!({})).await;
    assert_eq!(
        (r["state"].clone(), r["reason"].clone()),
        (json!("paused"), json!("pause"))
    );
    assert_eq!(r["location"]["method"], "serve");
}

#[tokio::test]
async fn wait_for_pause_returns_immediately_when_paused_and_filters_breakpoints() {
    let h = H::new(brave());
    h.paused_at("main.py", 8).await;
    let r = h.ok("wait_for_pause", json!({})).await;
    assert_eq!(r["already_paused"], true);
    let r = h
        .ok("wait_for_pause", json!({"breakpoint_ids": ["nope"]}))
        .await;
    assert_eq!(r["matched"], false);
    let bp = h
        .ok(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 12}),
        )
        .await;
    let sent = h.ok("resume", json!({"wait": false})).await;
    assert!(sent["message"].as_str().unwrap().contains("wait_for_pause"));
    let r = h
        .ok(
            "wait_for_pause",
            json!({"breakpoint_ids": [bp["id"]], "timeout_ms": 2000}),
        )
        .await;
    assert_eq!(r["matched"], true);
    assert_eq!(r["location"]["line"], 12);
}

#[tokio::test]
async fn sessions_are_listed_defaulted_and_stopped() {
    let h = H::new(brave());
    let s1 = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "stop_on_entry": true, "wait_for_pause": true}),
        )
        .await;
    assert_eq!(s1["pause"]["reason"], "entry");
    let s2 = h
        .ok(
            "start_debug_session",
            json!({"command": "python3 main.py", "stop_on_entry": true, "wait_for_pause": true}),
        )
        .await;
    let list = h.ok("list_debug_sessions", json!({})).await;
    assert_eq!(list["sessions"].as_array().unwrap().len(), 2);
    let current: Vec<&Value> = list["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["is_current"] == true)
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["id"], s2["session_id"]);
    let e = h.err("resume", json!({"session_id": "s42"})).await;
    assert!(
        e.contains("unknown session id 's42'") && e.contains("s1") && e.contains("s2"),
        "{e}"
    );
    let stop = h
        .ok(
            "stop_debug_session",
            json!({"session_id": s2["session_id"]}),
        )
        .await;
    assert_eq!(stop["state"], "stopped");
    // Only s1 is left: it becomes the default.
    let st = h.ok("get_debug_session_status", json!({})).await;
    assert_eq!(st["session_id"], s1["session_id"]);
    h.ok("stop_debug_session", json!({})).await;
    let st = h.ok("get_debug_session_status", json!({})).await;
    assert_eq!(st["state"], "no_session");
    assert!(
        st["message"]
            .as_str()
            .unwrap()
            .contains("start_debug_session")
    );
    let e = h.err("step_over", json!({})).await;
    assert!(e.contains("no debug session is running"), "{e}");
    let e = h.err("start_debug_session", json!({})).await;
    assert!(
        e.contains("run_configuration") && e.contains("command"),
        "{e}"
    );
    let e = h
        .err("start_debug_session", json!({"run_configuration": "nope"}))
        .await;
    assert!(e.contains("nope"), "{e}");
}

#[tokio::test]
async fn status_is_one_call_with_everything() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    h.ok("add_watch", json!({"expression": "total + 1"})).await;
    let st = h
        .ok(
            "get_debug_session_status",
            json!({"max_stack_frames": 2, "source_context_lines": 2}),
        )
        .await;
    assert_eq!(st["state"], "paused");
    assert_eq!(st["paused_reason"], "breakpoint");
    assert_eq!(st["location"]["line"], 9);
    assert_eq!(st["breakpoint_hit"][0]["line"], 9);
    assert_eq!(st["stack_summary"].as_array().unwrap().len(), 2);
    assert_eq!(st["total_stack_depth"], 3);
    assert_eq!(st["thread_count"], 2);
    assert_eq!(st["current_thread"]["name"], "MainThread");
    assert_eq!(var(&st["variables"], "total")["value"], "0");
    assert_eq!(st["watches"][0]["value"], "1");
    let lines = st["source_context"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[2]["is_current"], true);
    assert_eq!(st["source_context"]["breakpoints"], json!([9]));
}

#[tokio::test]
async fn destructive_tools_refuse_without_brave_mode_or_a_way_to_ask() {
    let h = H::new(Config::default());
    let e = h
        .err("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert!(
        e.contains("brave_mode = true") && e.contains("confirmation"),
        "{e}"
    );
    assert!(
        !h.fake.calls().iter().any(|c| c.starts_with("launch")),
        "nothing may run: {:?}",
        h.fake.calls()
    );
    let e = h.err("run_configuration", json!({"name": "main"})).await;
    assert!(e.contains("brave_mode"), "{e}");
}

#[tokio::test]
async fn ide_dialog_decline_stops_destructive_tools() {
    let h = H::new(Config::default());
    h.fake.set_confirm(true, false);
    let e = h
        .err("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert!(e.contains("declined"), "{e}");
    assert!(!h.fake.calls().iter().any(|c| c.starts_with("launch")));
}

#[tokio::test]
async fn ide_confirmation_allows_destructive_tools() {
    let (fake, events) = FakeBackend::new(temp_dir("ide"));
    fake.set_confirm(true, true);
    let engine = Engine::new(fake.clone(), events, Config::default());
    let r = engine
        .call_tool(
            "start_debug_session",
            json!({"run_configuration": "main"}),
            &CallContext::default(),
        )
        .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    assert!(fake.calls().iter().any(|c| c.starts_with("confirm")));
}

struct Answer(bool);

#[async_trait]
impl Confirmer for Answer {
    async fn confirm(&self, message: &str) -> Result<bool, String> {
        assert!(message.contains("start a debug session"), "{message}");
        Ok(self.0)
    }
}

#[tokio::test]
async fn client_elicitation_is_used_when_available() {
    let mut h = H::new(Config::default());
    h.ctx = CallContext {
        confirmer: Some(Arc::new(Answer(false))),
    };
    let e = h
        .err("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert!(e.contains("declined"), "{e}");
    h.ctx = CallContext {
        confirmer: Some(Arc::new(Answer(true))),
    };
    let s = h
        .ok("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert!(s["session_id"].as_str().unwrap().starts_with('s'));
}

#[tokio::test]
async fn run_configurations_are_listed_and_run() {
    let h = H::new(brave());
    let l = h.ok("list_run_configurations", json!({})).await;
    assert_eq!(l["configurations"][0]["name"], "main");
    assert_eq!(l["configurations"][0]["type"], "debugpy");
    let r = h
        .ok("run_configuration", json!({"name": "tests", "mode": "run"}))
        .await;
    assert_eq!(r["mode"], "run");
    let e = h.err("run_configuration", json!({"name": "missing"})).await;
    assert!(e.contains("missing"), "{e}");
}

// ---- stack, threads ----------------------------------------------------------------------

#[tokio::test]
async fn stack_threads_and_frame_selection() {
    let h = H::new(brave());
    h.paused_at("util.py", 3).await;
    let st = h.ok("get_stack_trace", json!({})).await;
    let frames = st["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0]["method"], "add");
    assert_eq!(frames[0]["is_current"], true);
    assert_eq!(frames[3]["is_library"], true);
    let by_name = h
        .ok(
            "get_stack_trace",
            json!({"thread_name": "MainThread", "max_frames": 1}),
        )
        .await;
    assert_eq!(by_name["truncated"], true);
    let e = h
        .err("get_stack_trace", json!({"thread_name": "nope"}))
        .await;
    assert!(e.contains("MainThread"), "{e}");
    let sel = h.ok("select_stack_frame", json!({"frame_index": 1})).await;
    assert_eq!(sel["location"]["method"], "main");
    assert!(h.fake.calls().iter().any(|c| c.starts_with("select_frame")));
    // Variables and evaluation now default to the caller's frame.
    let vars = h.ok("get_variables", json!({})).await;
    assert_eq!(vars["frame_index"], 1);
    assert!(
        vars["variables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "items")
    );
    assert_eq!(
        h.ok("evaluate_expression", json!({"expression": "len(items)"}))
            .await["result"]["value"],
        "3"
    );
    let e = h
        .err("select_stack_frame", json!({"frame_index": 40}))
        .await;
    assert!(e.contains("no frame 40"), "{e}");
    let th = h.ok("list_threads", json!({})).await;
    assert_eq!(th["current_thread"], "1");
    assert_eq!(th["threads"][0]["is_current"], true);
    assert_eq!(th["threads"][1]["is_current"], false);
}

// ---- variables ---------------------------------------------------------------------------

#[tokio::test]
async fn variables_have_ids_truncation_paging_and_go_stale_on_resume() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let v = h.ok("get_variables", json!({"depth": 2})).await;
    let vars = &v["variables"];
    let notes = var(vars, "notes");
    assert_eq!(notes["truncated"], true);
    assert_eq!(notes["value_length"], 502); // 500 x's plus quotes
    assert!(notes["value"].as_str().unwrap().ends_with('…'));
    let numbers = var(vars, "numbers");
    assert_eq!(numbers["children"].as_array().unwrap().len(), 20);
    assert_eq!(
        (numbers["truncated"].clone(), numbers["total"].clone()),
        (json!(true), json!(50))
    );
    let limit = var(vars, "limit");
    assert_eq!(limit["type"], "int");
    let args = h.ok("get_variables", json!({"scope": "arguments"})).await;
    assert_eq!(args["variables"].as_array().unwrap().len(), 1);
    // Paging by id.
    let page = h
        .ok(
            "expand_variable",
            json!({"variable_id": numbers["id"], "offset": 40, "limit": 20}),
        )
        .await;
    assert_eq!(page["children"].as_array().unwrap().len(), 10);
    // The last page is not truncated; a default-false flag is omitted from the result.
    assert_eq!(
        (page["total"].clone(), page.get("truncated")),
        (json!(50), None)
    );
    assert_eq!(page["children"][0]["value"], "40");
    // By path.
    let addr = h
        .ok("expand_variable", json!({"path": "user.address"}))
        .await;
    assert_eq!(var(&addr["children"], "city")["value"], "'London'");
    let e = h.err("expand_variable", json!({"path": "user.nope"})).await;
    assert!(e.contains("'user' has no child 'nope'"), "{e}");
    let e = h.err("expand_variable", json!({"path": "limit.x"})).await;
    assert!(e.contains("'limit' has no children"), "{e}");
    let e = h
        .err("expand_variable", json!({"variable_id": "v9999"}))
        .await;
    assert!(e.contains("unknown variable id 'v9999'"), "{e}");
    // After a step the old ids are stale, and say so.
    h.ok("step_over", json!({})).await;
    let e = h
        .err("expand_variable", json!({"variable_id": numbers["id"]}))
        .await;
    assert_eq!(
        e,
        format!(
            "value id {} is stale: the program resumed since it was read; call get_variables again",
            numbers["id"].as_str().unwrap()
        )
    );
}

#[tokio::test]
async fn secrets_are_redacted_unless_disabled() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let v = h.ok("get_variables", json!({"depth": 2})).await;
    let config = var(&v["variables"], "config");
    assert!(
        !config["value"].as_str().unwrap().contains("sk-123"),
        "{config}"
    );
    assert_eq!(var(&config["children"], "'api_key'")["value"], "<redacted>");
    assert_eq!(var(&config["children"], "'host'")["value"], "'localhost'");
    let ev = h
        .ok(
            "evaluate_expression",
            json!({"expression": "config['api_key']"}),
        )
        .await;
    assert_eq!(ev["result"]["value"], "<redacted>");
    let mut cfg = h.engine.config();
    cfg.redaction.enabled = false;
    h.engine.set_config(cfg);
    let ev = h
        .ok(
            "evaluate_expression",
            json!({"expression": "config['api_key']"}),
        )
        .await;
    assert_eq!(ev["result"]["value"], "'sk-123'");
}

#[tokio::test]
async fn set_variable_needs_confirmation_then_changes_the_value() {
    let h = H::new(Config::default());
    h.fake.set_confirm(true, true); // start the session through the IDE dialog
    h.paused_at("main.py", 9).await;
    h.fake.set_confirm(false, false);
    let v = h.ok("get_variables", json!({})).await;
    let total = var(&v["variables"], "total")["id"].clone();
    let e = h
        .err(
            "set_variable",
            json!({"variable_id": total, "new_value": "100"}),
        )
        .await;
    assert!(e.contains("brave_mode"), "{e}");
    let mut cfg = h.engine.config();
    cfg.brave_mode = true;
    h.engine.set_config(cfg);
    let r = h
        .ok(
            "set_variable",
            json!({"variable_id": total, "new_value": "100"}),
        )
        .await;
    assert_eq!(r["variable"]["value"], "100");
    let r = h
        .ok(
            "set_variable",
            json!({"path": "user.name", "new_value": "'bob'"}),
        )
        .await;
    assert_eq!(r["message"], "user.name is now 'bob'");
    let v = h.ok("get_variables", json!({})).await;
    assert_eq!(var(&v["variables"], "total")["value"], "100");
    assert!(
        var(&v["variables"], "user")["value"]
            .as_str()
            .unwrap()
            .contains("'bob'")
    );
    let e = h
        .err(
            "set_variable",
            json!({"path": "total", "new_value": "not a literal"}),
        )
        .await;
    assert!(e.contains("set_value failed"), "{e}");
}

// ---- evaluation and watches --------------------------------------------------------------

#[tokio::test]
async fn evaluation_is_side_effect_free_unless_allowed() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let r = h
        .ok("evaluate_expression", json!({"expression": "total + 41"}))
        .await;
    assert_eq!(
        (r["result"]["value"].clone(), r["result"]["type"].clone()),
        (json!("41"), json!("int"))
    );
    let e = h
        .err("evaluate_expression", json!({"expression": "total = 5"}))
        .await;
    assert!(
        e.contains("assignment '='") && e.contains("allow_side_effects: true"),
        "{e}"
    );
    let e = h
        .err("evaluate_expression", json!({"expression": "missing_name"}))
        .await;
    assert!(e.contains("NameError"), "{e}");
    h.ok(
        "evaluate_expression",
        json!({"expression": "total = 5", "allow_side_effects": true}),
    )
    .await;
    let e = h
        .err(
            "evaluate_code_fragment",
            json!({"code": "total = 1\ntotal + 1"}),
        )
        .await;
    assert!(e.contains("allow_side_effects: true"), "{e}");
    let r = h
        .ok(
            "evaluate_code_fragment",
            json!({"code": "total = 40\ntotal + 2", "allow_side_effects": true}),
        )
        .await;
    assert_eq!(r["result"]["value"], "42");
    assert!(h.fake.calls().iter().any(|c| c.contains("CodeFragment")));
    let r = h
        .ok("evaluate_expression", json!({"expression": "user"}))
        .await;
    let kids = h
        .ok("expand_variable", json!({"variable_id": r["result"]["id"]}))
        .await;
    assert_eq!(kids["children"][0]["name"], "name");
}

#[tokio::test]
async fn state_changing_expressions_are_refused_before_the_backend_sees_them() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let evaluations = || {
        h.fake
            .calls()
            .iter()
            .filter(|c| c.starts_with("evaluate"))
            .count()
    };
    let before = evaluations();
    for (expr, what) in [
        ("items.append(1)", "call to mutating method 'append'"),
        ("counter = 9", "assignment '='"),
        ("i++", "increment/decrement '++'"),
    ] {
        let e = h
            .err("evaluate_expression", json!({"expression": expr}))
            .await;
        assert!(
            e.contains(&format!(
                "expression `{expr}` looks like it changes the program ({what}"
            )),
            "{e}"
        );
        assert!(e.contains("Pass allow_side_effects: true"), "{e}");
    }
    let e = h
        .err("add_watch", json!({"expression": "items.pop()"}))
        .await;
    assert!(e.contains("mutating method 'pop'"), "{e}");
    assert_eq!(
        evaluations(),
        before,
        "the backend must not be asked: {:?}",
        h.fake.calls()
    );
    // Pure reads still go through; with allow_side_effects (brave mode here) the change happens.
    let r = h
        .ok("evaluate_expression", json!({"expression": "total + 1"}))
        .await;
    assert_eq!(r["result"]["value"], "1");
    h.ok(
        "evaluate_expression",
        json!({"expression": "total = 7", "allow_side_effects": true}),
    )
    .await;
    assert_eq!(
        h.ok("evaluate_expression", json!({"expression": "total"}))
            .await["result"]["value"],
        "7"
    );
    // The switch in [expression_safety] turns the guard off (the backend then decides).
    let mut cfg = h.engine.config();
    cfg.expression_safety.enabled = false;
    h.engine.set_config(cfg);
    let e = h
        .err("evaluate_expression", json!({"expression": "total = 5"}))
        .await;
    assert!(!e.contains("looks like it changes"), "{e}");
}

#[tokio::test]
async fn watches_are_evaluated_at_every_pause() {
    let h = H::new(brave());
    let w = h.ok("add_watch", json!({"expression": "total"})).await;
    assert_eq!(w["id"], "w1");
    assert!(w["message"].as_str().unwrap().contains("next pause"));
    h.paused_at("main.py", 9).await;
    let r = h.ok("step_over", json!({})).await;
    assert_eq!(r["watches"][0]["value"], "0");
    let step = r["step"].clone();
    let bad = h.ok("add_watch", json!({"expression": "nope"})).await;
    assert!(
        bad["error"].as_str().unwrap().contains("NameError"),
        "{bad}"
    );
    h.ok("run_to_line", json!({"file_path": "main.py", "line": 12}))
        .await;
    let l = h.ok("list_watches", json!({})).await;
    assert_eq!(l["watches"][0]["value"], "6");
    assert!(l["watches"][0]["evaluated_at"]["step"].as_u64() > step.as_u64());
    assert_eq!(l["watches"][0]["evaluated_at"]["line"], 12);
    assert_eq!(
        h.ok("remove_watch", json!({"watch_id": "w1"})).await["removed"],
        true
    );
    let r = h.ok("remove_watch", json!({"watch_id": "w1"})).await;
    assert_eq!(r["removed"], false);
    assert!(r["message"].as_str().unwrap().contains("w2"));
}

// ---- source and paths --------------------------------------------------------------------

#[tokio::test]
async fn source_context_marks_current_line_and_refuses_outside_paths() {
    let h = H::new(brave());
    h.paused_at("main.py", 11).await;
    let s = h
        .ok("get_source_context", json!({"context_lines": 1}))
        .await;
    assert_eq!(
        (
            s["start_line"].clone(),
            s["end_line"].clone(),
            s["current_line"].clone()
        ),
        (json!(10), json!(12), json!(11))
    );
    assert_eq!(
        s["lines"][1]["content"],
        "        total = util.add(total, i)"
    );
    assert_eq!(s["lines"][1]["is_current"], true);
    assert_eq!(s["breakpoints"], json!([11]));
    let s = h
        .ok(
            "get_source_context",
            json!({"file_path": "util.py", "line": 1, "context_lines": 50}),
        )
        .await;
    assert_eq!(
        (s["start_line"].clone(), s["end_line"].clone()),
        (json!(1), json!(6))
    );
    let e = h
        .err(
            "get_source_context",
            json!({"file_path": "main.py", "line": 99}),
        )
        .await;
    assert!(e.contains("beyond the end"), "{e}");
    // Outside the root: absolute, via .., and via a symlink inside the project.
    let outside = temp_dir("outside").join("secret.txt");
    std::fs::write(&outside, "x").unwrap();
    let root = h.root.to_string_lossy().into_owned();
    for p in [
        outside.to_string_lossy().into_owned(),
        format!(
            "../{}",
            outside
                .strip_prefix(h.root.parent().unwrap())
                .unwrap()
                .display()
        ),
    ] {
        let e = h
            .err("get_source_context", json!({"file_path": p, "line": 1}))
            .await;
        assert!(
            e.contains(&format!("outside the project root {root}")),
            "{e}"
        );
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, h.root.join("link.txt")).unwrap();
        let e = h
            .err(
                "set_breakpoint",
                json!({"file_path": "link.txt", "line": 1}),
            )
            .await;
        assert!(e.contains("outside the project root"), "{e}");
    }
    let e = h
        .err("set_breakpoint", json!({"file_path": "nope.py", "line": 1}))
        .await;
    assert!(e.contains("not found"), "{e}");
}

// ---- projects, timeouts, history ---------------------------------------------------------

#[tokio::test]
async fn several_projects_need_project_path() {
    let (a, b) = (temp_dir("pa"), temp_dir("pb"));
    let (fake, events) = FakeBackend::with_projects(&[&a, &b]);
    let engine = Engine::new(fake, events, Config::default());
    let ctx = CallContext::default();
    let r = engine.call_tool("list_breakpoints", json!({}), &ctx).await;
    assert_eq!(r.is_error, Some(true));
    let text = &r.content[0].as_text().unwrap().text;
    let (ca, cb) = (
        std::fs::canonicalize(&a).unwrap(),
        std::fs::canonicalize(&b).unwrap(),
    );
    assert!(
        text.contains("pass project_path")
            && text.contains(&*ca.to_string_lossy())
            && text.contains(&*cb.to_string_lossy()),
        "{text}"
    );
    let r = engine
        .call_tool(
            "set_breakpoint",
            json!({"project_path": b, "file_path": "main.py", "line": 8}),
            &ctx,
        )
        .await;
    assert_eq!(r.is_error, Some(false), "{r:?}");
    let listed = engine
        .call_tool("list_breakpoints", json!({"project_path": a}), &ctx)
        .await;
    assert_eq!(listed.structured_content.unwrap()["total"], 0);
}

#[tokio::test]
async fn a_backend_that_never_answers_times_out_with_advice() {
    let h = H::new(Config {
        backend_timeout_ms: 100,
        ..Config::default()
    });
    h.fake.set_hang(true);
    let started = std::time::Instant::now();
    let e = h.err("list_breakpoints", json!({})).await;
    assert!(e.contains("did not answer 'projects' within 100 ms"), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// A backend that builds before it launches (headless Go) gets its build's bound on top of
/// launch_timeout_ms; without that allowance the same slow launch is cut at launch_timeout_ms.
#[tokio::test]
async fn a_launch_that_builds_first_gets_the_build_allowance_on_top_of_the_launch_timeout() {
    use std::time::Duration;
    let h = H::new(Config {
        launch_timeout_ms: 200,
        ..brave()
    });
    h.fake
        .set_launch_build(Duration::from_millis(600), Duration::from_millis(2_000));
    let r = h
        .ok("start_debug_session", json!({"command": "go run ."}))
        .await;
    assert!(r["session_id"].is_string(), "{r}");
    h.fake
        .set_launch_build(Duration::from_millis(600), Duration::ZERO);
    let e = h
        .err("start_debug_session", json!({"command": "go run ."}))
        .await;
    assert!(
        e.contains("did not answer 'launch' within 200 ms") && e.contains("launch_timeout_ms"),
        "{e}"
    );
}

#[tokio::test]
async fn every_call_is_recorded_in_history() {
    let h = H::new(Config::default());
    h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    h.err("step_over", json!({})).await;
    let entries = h.engine.history().entries(&HistoryFilter::default());
    assert_eq!(entries.len(), 2);
    assert_eq!(
        (entries[0].tool.as_str(), entries[0].status.as_str()),
        ("step_over", "error")
    );
    assert!(
        entries[0]
            .error
            .as_ref()
            .unwrap()
            .contains("no debug session")
    );
    assert_eq!(
        (entries[1].tool.as_str(), entries[1].status.as_str()),
        ("set_breakpoint", "ok")
    );
    assert_eq!(entries[1].params["line"], 8);
    assert_eq!(entries[1].project, h.root.to_string_lossy());
    assert_eq!(entries[1].result.as_ref().unwrap()["line"], 8);
}

/// Many steps on a multi-threaded runtime: every step must report the line the fake moved to,
/// never the previous stop (events can arrive before or after the control op returns).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_never_report_a_stale_stop_on_a_multi_threaded_runtime() {
    let h = H::new(brave());
    for _ in 0..5 {
        h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 4}))
            .await;
        h.ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true}),
        )
        .await;
        let mut last = 0;
        let mut lines = Vec::new();
        for _ in 0..6 {
            let r = h.ok("step_over", json!({})).await;
            let line = r["location"]["line"].as_u64().unwrap();
            assert_ne!(line, last, "{r:#}");
            last = line;
            lines.push(line);
        }
        assert_eq!(lines, [5, 6, 7, 8, 9, 10]);
        h.ok("stop_debug_session", json!({})).await;
    }
}

/// Issue 6: the text block is what a model reads — location relative to the project, the
/// source line, changed values marked — and is much smaller than the JSON it renders.
#[tokio::test]
async fn results_render_compactly_for_a_model() {
    let h = H::new(brave());
    h.paused_at("main.py", 8).await;
    let text_of = |r: &rmcp::model::CallToolResult| r.content[0].as_text().unwrap().text.clone();
    let step = h.engine.call_tool("step_over", json!({}), &h.ctx).await;
    let text = text_of(&step);
    let json_len = step.structured_content.as_ref().unwrap().to_string().len();
    let root = h.root.to_string_lossy().into_owned();
    assert!(
        text.starts_with("paused (step) at main.py:9 in main\n  9| items = [1, 2, 3]"),
        "{text}"
    );
    assert!(
        !text.contains(&root),
        "absolute paths leak into the text: {text}"
    );
    assert!(
        text.contains("total = 0 (int) [changed]") && text.contains("user = User(name='ada'"),
        "{text}"
    );
    // `total` was set by the stepped line; `limit` did not change.
    let changed: Vec<&str> = text.lines().filter(|l| l.contains("[changed]")).collect();
    assert!(changed.iter().all(|l| !l.contains("limit =")), "{text}");
    let vars = h
        .engine
        .call_tool("get_variables", json!({"depth": 2}), &h.ctx)
        .await;
    let vtext = text_of(&vars);
    let vjson = vars.structured_content.as_ref().unwrap().to_string().len();
    assert!(
        vtext.contains("user = User(") && vtext.contains("\n    name = 'ada' (str)\n"),
        "{vtext}"
    );
    eprintln!(
        "step_over: text {} B vs JSON {json_len} B; get_variables depth 2: text {} B vs JSON {vjson} B",
        text.len(),
        vtext.len()
    );
    assert!(
        text.len() * 4 < json_len * 3 && vtext.len() * 2 < vjson,
        "text is not compact"
    );
}
