//! Agent memory over the fake backend: the ledger behind get_debug_history, the session summary
//! (tool and file), console output with cursors, the idle watchdog, and resources/prompts over a
//! real MCP connection.

#[path = "tools_common/mod.rs"]
mod common;

use common::{H, brave};
use debugger_mcp_core::backend::{BackendEvent, PauseReason};
use debugger_mcp_core::config::Config;
use rmcp::model::{
    ClientCapabilities, ClientConfig, GetPromptRequestParams, Implementation,
    InitializeRequestParams, ReadResourceRequestParams, ResourceContents,
    ResourceUpdatedNotificationParam, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Paused at main.py:11 (`total = util.add(total, i)`) three times: total is 0, 1, 3.
async fn three_hits(h: &H) -> String {
    let started = h.paused_at("main.py", 11).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let r = h.ok("resume", json!({})).await;
        assert_eq!(r["location"]["line"], 11, "{r:#}");
    }
    sid
}

#[tokio::test]
async fn history_answers_steps_ago_changes_and_line_across_resumes() {
    let h = H::new(brave());
    let sid = three_hits(&h).await;
    // The stop results showed `total`; no explicit read was needed.
    let changes = h
        .ok(
            "get_debug_history",
            json!({"name": "total", "changes": true}),
        )
        .await;
    let vals: Vec<(u64, String)> = changes["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["step"].as_u64().unwrap(),
                c["value"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        vals,
        vec![(1, "0".into()), (2, "1".into()), (3, "3".into())],
        "{changes:#}"
    );
    assert_eq!(changes["changes"][2]["location"], "main.py:11");
    assert_eq!(changes["changes"][2]["previous"], "1");
    let ago = h
        .ok(
            "get_debug_history",
            json!({"name": "total", "steps_ago": 2}),
        )
        .await;
    assert_eq!(
        (ago["value"].clone(), ago["at_step"].clone()),
        (json!("0"), json!(1)),
        "{ago:#}"
    );
    let at_line = h
        .ok(
            "get_debug_history",
            json!({"name": "total", "line": 11, "file_path": "main.py"}),
        )
        .await;
    assert_eq!(at_line["total"], 3, "{at_line:#}");
    // Evaluations are remembered too, under their expression.
    h.ok("evaluate_expression", json!({"expression": "total + 1"}))
        .await;
    let names = h.ok("get_debug_history", json!({})).await;
    let listed: Vec<&str> = names["names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert!(
        listed.contains(&"total + 1") && listed.contains(&"total"),
        "{names:#}"
    );
    // After the session ended, history still answers.
    h.ok("stop_debug_session", json!({})).await;
    let after = h
        .ok(
            "get_debug_history",
            json!({"session_id": sid, "name": "total", "steps_ago": 0}),
        )
        .await;
    assert_eq!(after["value"], "3", "{after:#}");
}

#[tokio::test]
async fn history_bad_input_says_what_was_read() {
    let h = H::new(brave());
    three_hits(&h).await;
    let e = h.err("get_debug_history", json!({"name": "totl"})).await;
    assert!(
        e.contains("'totl' was never read") && e.contains("total"),
        "{e}"
    );
    let e = h
        .err(
            "get_debug_history",
            json!({"name": "total", "steps_ago": 9}),
        )
        .await;
    assert!(e.contains("steps_ago 9") && e.contains("step 3"), "{e}");
    let e = h
        .err("get_debug_history", json!({"name": "total", "line": 2}))
        .await;
    assert!(
        e.contains("never read at line 2") && e.contains("main.py:11"),
        "{e}"
    );
    let e = h.err("get_debug_history", json!({"changes": true})).await;
    assert!(e.contains("need `name`"), "{e}");
}

#[tokio::test]
async fn summary_names_exception_and_values_set_and_is_written_on_end() {
    let h = H::new(brave());
    let sid = three_hits(&h).await;
    let set = h
        .ok("set_variable", json!({"path": "total", "new_value": "42"}))
        .await;
    assert_eq!(set["variable"]["value"], "42");
    // An exception stop as a debugger reports it.
    h.fake.emit(BackendEvent::Paused {
        session_id: sid.clone(),
        thread_id: "1".into(),
        reason: PauseReason::Exception,
        breakpoint_ids: vec![],
        description: Some("ValueError: total too large".into()),
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let s = h.ok("get_session_summary", json!({})).await;
    let md = s["markdown"].as_str().unwrap();
    assert!(
        md.contains("## Exceptions") && md.contains("ValueError: total too large"),
        "{md}"
    );
    assert!(
        md.contains("## Values modified") && md.contains("`total` = 42"),
        "{md}"
    );
    assert!(
        md.contains("## Path taken") && md.contains("step 1: main.py:11 in main — breakpoint"),
        "{md}"
    );
    assert!(
        md.contains("changed") && md.contains("0 (step 1) → 1 (step 2) → 3 (step 3)"),
        "{md}"
    );
    h.ok("stop_debug_session", json!({})).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let file = h.root.join(format!(".debugger-mcp/sessions/{sid}.md"));
    let written =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert!(
        written.contains("ValueError: total too large") && written.contains("ended, exit code 0"),
        "{written}"
    );
    assert!(
        h.root
            .join(format!(".debugger-mcp/sessions/{sid}.ledger.jsonl"))
            .exists()
    );
}

#[tokio::test]
async fn summary_file_can_be_turned_off() {
    let mut cfg = brave();
    cfg.memory.write_summaries = false;
    let h = H::new(cfg);
    h.paused_at("main.py", 11).await;
    h.ok("stop_debug_session", json!({})).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!h.root.join(".debugger-mcp").exists());
}

#[tokio::test]
async fn console_output_pages_with_cursors_and_refuses_foreign_cursors() {
    let h = H::new(brave());
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 11, "log_message": "total={total}"}),
    )
    .await;
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 13}),
    )
    .await;
    let started = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000}),
        )
        .await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    let first = h.ok("get_console_output", json!({"max_lines": 2})).await;
    let texts: Vec<&str> = first["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["text"].as_str().unwrap().trim_end())
        .collect();
    assert_eq!(texts, ["total=0", "total=1"], "{first:#}");
    assert_eq!(first["output"][0]["category"], "tracepoint");
    assert_eq!(first["more"], true);
    let rest = h
        .ok(
            "get_console_output",
            json!({"cursor": first["next_cursor"]}),
        )
        .await;
    let texts: Vec<&str> = rest["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["text"].as_str().unwrap().trim_end())
        .collect();
    assert_eq!(texts, ["total=3", "6"], "{rest:#}");
    let none = h
        .ok("get_console_output", json!({"cursor": rest["next_cursor"]}))
        .await;
    assert_eq!(none["output"], json!([]));
    assert_eq!(none["next_cursor"], rest["next_cursor"]);
    let only = h
        .ok("get_console_output", json!({"category": "stdout"}))
        .await;
    assert_eq!(only["output"].as_array().unwrap().len(), 1);
    let e = h
        .err(
            "get_console_output",
            json!({"session_id": sid, "cursor": "other-session:3"}),
        )
        .await;
    assert!(
        e.contains("belongs to session other-session") && e.contains(&sid),
        "{e}"
    );
    let e = h
        .err("get_console_output", json!({"cursor": "garbage"}))
        .await;
    assert!(e.contains("not a cursor"), "{e}");
}

fn watchdog(idle: u64, action: &str) -> Config {
    let mut c = brave();
    c.watchdog.idle_seconds = idle;
    c.watchdog.action = action.into();
    c
}

#[tokio::test]
async fn watchdog_resumes_an_idle_agent_pause_and_tells_the_next_call() {
    let h = H::new(watchdog(1, "resume"));
    let started = h.paused_at("main.py", 11).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1600)).await;
    // Resumed: the program ran on to the next hit of the breakpoint.
    let next = h.ok("list_breakpoints", json!({})).await;
    let notice = &next["watchdog"][0];
    assert_eq!(notice["action"], "resumed", "{next:#}");
    assert_eq!(notice["session_id"], sid.as_str());
    assert!(
        notice["message"]
            .as_str()
            .unwrap()
            .contains("main.py:11 (step 1)"),
        "{notice}"
    );
    let s = h.ok("get_session_summary", json!({})).await;
    assert!(
        s["markdown"].as_str().unwrap().contains("watchdog"),
        "{s:#}"
    );
    // Told once.
    let again = h.ok("list_breakpoints", json!({})).await;
    assert!(again.get("watchdog").is_none());
}

#[tokio::test]
async fn watchdog_stop_action_and_user_pauses_left_alone() {
    let h = H::new(watchdog(1, "stop"));
    let started = h.paused_at("main.py", 11).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    // A call keeps the pause alive: the clock restarts at every agent call.
    tokio::time::sleep(Duration::from_millis(700)).await;
    h.ok("get_variables", json!({})).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let status = h.ok("get_debug_session_status", json!({})).await;
    assert_eq!(status["state"], "paused", "{status:#}");
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let status = h
        .ok("get_debug_session_status", json!({"session_id": sid}))
        .await;
    assert_eq!(status["state"], "stopped", "{status:#}");
    assert_eq!(status["watchdog"][0]["action"], "stopped");

    // A pause the IDE user made (no agent call led to it, no agent breakpoint) is not touched.
    let h = H::new(watchdog(1, "resume"));
    h.paused_at("main.py", 11).await;
    let sid = h.ok("resume", json!({"wait": false})).await["session_id"]
        .as_str()
        .unwrap()
        .to_string();
    tokio::time::sleep(Duration::from_millis(200)).await;
    h.fake.emit(BackendEvent::Paused {
        session_id: sid.clone(),
        thread_id: "1".into(),
        reason: PauseReason::Pause,
        breakpoint_ids: vec![],
        description: None,
    });
    tokio::time::sleep(Duration::from_millis(1800)).await;
    let status = h.ok("get_debug_session_status", json!({})).await;
    assert_eq!(status["state"], "paused", "{status:#}");
    assert!(status.get("watchdog").is_none(), "{status:#}");
}

// ---- resources and prompts over MCP ---------------------------------------------------------

#[derive(Clone, Default)]
struct Client {
    updates: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        InitializeRequestParams::new(
            ClientCapabilities::default(),
            Implementation::new("test-client", "0.0.0"),
        )
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.updates.lock().unwrap().push(params.uri);
    }
}

async fn connect(h: &H, client: Client) -> rmcp::service::RunningService<RoleClient, Client> {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let handler = h.engine.handler();
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client.serve(client_io).await.expect("initialize")
}

fn text(c: &ResourceContents) -> String {
    match c {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn resources_update_on_pause_and_prompts_render() {
    let h = H::new(brave());
    let client = Client::default();
    let updates = client.updates.clone();
    let c = connect(&h, client).await;
    let caps = c.peer_info().unwrap().capabilities.clone();
    assert!(
        caps.resources
            .as_ref()
            .is_some_and(|r| r.subscribe == Some(true))
            && caps.prompts.is_some()
    );
    let listed: Vec<String> = c
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri.clone())
        .collect();
    for uri in [
        "debugger://status",
        "debugger://breakpoints",
        "debugger://sessions",
        "debugger://history",
    ] {
        assert!(listed.contains(&uri.to_string()), "{listed:?}");
    }
    let templates = c.list_all_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "debugger://sessions/{id}/summary")
    );
    // Session-based revisions subscribe this way (2026-07-28 clients use listen).
    #[allow(deprecated)]
    c.subscribe(SubscribeRequestParams::new("debugger://status"))
        .await
        .unwrap();

    let started = h.paused_at("main.py", 11).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    for _ in 0..50 {
        if updates
            .lock()
            .unwrap()
            .iter()
            .any(|u| u == "debugger://status")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        updates
            .lock()
            .unwrap()
            .contains(&"debugger://status".to_string()),
        "no update on pause"
    );
    let status: Value = serde_json::from_str(&text(
        &c.read_resource(ReadResourceRequestParams::new("debugger://status"))
            .await
            .unwrap()
            .contents[0],
    ))
    .unwrap();
    assert_eq!(status["sessions"][0]["state"], "paused", "{status:#}");
    assert_eq!(
        status["sessions"][0]["location"], "main.py:11",
        "{status:#}"
    );
    let bps: Value = serde_json::from_str(&text(
        &c.read_resource(ReadResourceRequestParams::new("debugger://breakpoints"))
            .await
            .unwrap()
            .contents[0],
    ))
    .unwrap();
    assert_eq!(bps["projects"][0]["breakpoints"][0]["line"], 11, "{bps:#}");
    let summary = text(
        &c.read_resource(ReadResourceRequestParams::new(format!(
            "debugger://sessions/{sid}/summary"
        )))
        .await
        .unwrap()
        .contents[0],
    );
    assert!(summary.contains("## Path taken"), "{summary}");
    let err = c
        .read_resource(ReadResourceRequestParams::new(
            "debugger://sessions/nope/summary",
        ))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no debug session 'nope'") && err.contains(&sid),
        "{err}"
    );

    let prompts: Vec<String> = c
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(
        prompts,
        [
            "debug-session-start",
            "investigate-exception",
            "inspect-paused-location"
        ]
    );
    let p = c
        .get_prompt(GetPromptRequestParams::new("inspect-paused-location"))
        .await
        .unwrap();
    let body = serde_json::to_string(&p.messages).unwrap();
    assert!(body.contains("paused at main.py:11"), "{body}");
    let err = c
        .get_prompt(GetPromptRequestParams::new("no-such-prompt"))
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown prompt"), "{err}");
    c.cancel().await.unwrap();
}
