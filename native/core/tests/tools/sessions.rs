//! Sessions and execution: stepping, resuming, waiting, listing, status, confirmations,
//! run configurations.

use super::*;

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

/// Issue 26: a status whose variables are cut keeps the names of the current line
/// (`total = util.add(total, i)`: the local it computes and its operands), not the first ones
/// the debugger happens to list.
#[tokio::test]
async fn a_cut_status_keeps_the_current_lines_names() {
    let mut cfg = brave();
    cfg.max_children = 2;
    let h = H::new(cfg);
    h.paused_at("main.py", 11).await;
    let st = h
        .ok(
            "get_debug_session_status",
            json!({"include_variables": true}),
        )
        .await;
    let names: Vec<&str> = st["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["total", "i"], "{st:#}");
}

/// Issue 26: a resume whose wait timed out, then a resume after the program ended meanwhile
/// (a test suite run to its end): the end is the answer, never an isError result.
#[tokio::test]
async fn a_resume_after_the_program_ended_is_its_end_not_an_error() {
    let h = H::new(brave());
    let started = h.paused_at("main.py", 9).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    let r = h.ok("resume", json!({"timeout_ms": 200})).await;
    assert_eq!(r["state"], "running", "{r}");
    h.fake
        .emit(debugger_mcp_core::backend::BackendEvent::Stopped {
            session_id: sid.clone(),
            exit_code: Some(1),
        });
    // (Applied by the engine's event task.)
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let r = h.ok("resume", json!({"session_id": sid})).await;
    assert_eq!(
        (r["state"].clone(), r["exit_code"].clone()),
        (json!("stopped"), json!(1)),
        "{r}"
    );
    // A step is still refused: there is nothing to step.
    let e = h.err("step_over", json!({"session_id": sid})).await;
    assert!(e.contains("has ended"), "{e}");
}

#[tokio::test]
async fn status_is_one_call_with_everything() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    h.ok("watches", json!({"add": "total + 1"})).await;
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
        ..Default::default()
    };
    let e = h
        .err("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert!(e.contains("declined"), "{e}");
    h.ctx = CallContext {
        confirmer: Some(Arc::new(Answer(true))),
        ..Default::default()
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

// ---- issue 28: an ended session stays ended; errors in the agent's words --------------------

/// Client C stops the session while a pause of client A's step or client B's pause is still on
/// its way: the adapter's "stopped" arrives after the end. It must not bring the session back
/// as paused (listed, waited on, stopped again), and a second stop answers at once.
#[tokio::test]
async fn a_pause_reported_after_the_end_leaves_the_session_ended() {
    use debugger_mcp_core::backend::{BackendEvent, PauseReason};
    let h = H::new(brave());
    let started = h.paused_at("main.py", 8).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    let r = h.ok("stop_debug_session", json!({})).await;
    assert_eq!(r["state"], "stopped", "{r:#}");
    // The losing moment: the end has been applied, then the late stop arrives.
    h.fake.emit(BackendEvent::Paused {
        session_id: sid.clone(),
        thread_id: "1".into(),
        reason: PauseReason::Pause,
        breakpoint_ids: vec![],
        description: None,
    });
    // The event is applied by the engine's event task: a round trip through a call and a
    // yield lets it run before the checks.
    for _ in 0..10 {
        tokio::task::yield_now().await;
        h.ok("list_breakpoints", json!({})).await;
    }
    let listed = h.ok("list_debug_sessions", json!({})).await;
    assert_eq!(listed["sessions"], json!([]), "{listed:#}");
    let r = h
        .ok(
            "wait_for_pause",
            json!({"session_id": sid, "timeout_ms": 200}),
        )
        .await;
    assert_eq!(r["state"], "stopped", "{r:#}");
    assert!(r.get("already_paused").is_none(), "{r:#}");
    let status = h
        .ok("get_debug_session_status", json!({"session_id": sid}))
        .await;
    assert_eq!(status["state"], "stopped", "{status:#}");
    let again = h.ok("stop_debug_session", json!({"session_id": sid})).await;
    assert_eq!(
        again["message"],
        format!("session {sid} was already stopped (by stop_debug_session)"),
        "{again:#}"
    );
}

/// A start waiting for its first pause, stopped meanwhile by another client, says so instead
/// of "no breakpoint was hit".
#[tokio::test]
async fn a_start_another_client_stopped_says_it_was_stopped() {
    let h = Arc::new(H::new(brave()));
    let waiting = {
        let h = h.clone();
        tokio::spawn(async move {
            h.ok(
                "start_debug_session",
                json!({"run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000}),
            )
            .await
        })
    };
    let sid = loop {
        let listed = h.ok("list_debug_sessions", json!({})).await;
        if let Some(id) = listed["sessions"][0]["id"].as_str() {
            break id.to_string();
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    };
    h.ok("stop_debug_session", json!({"session_id": sid})).await;
    let started = waiting.await.unwrap();
    let message = started["message"].as_str().unwrap();
    assert!(
        message.contains("it was stopped by stop_debug_session before it paused"),
        "{message}"
    );
    assert!(!message.contains("no breakpoint was hit"), "{message}");
}

/// After the debuggee died, a step on the default session names the session and how it ended
/// instead of "no debug session is running"; tool errors carry no internal operation names.
#[tokio::test]
async fn a_step_after_the_debuggee_died_says_the_session_died_and_how() {
    use debugger_mcp_core::backend::BackendEvent;
    let h = H::new(brave());
    let started = h.paused_at("main.py", 8).await;
    let sid = started["session_id"].as_str().unwrap().to_string();
    h.fake.emit(BackendEvent::Stopped {
        session_id: sid.clone(),
        exit_code: Some(-9),
    });
    let mut e = String::new();
    for _ in 0..50 {
        let (err, v) = h.raw("step_over", json!({})).await;
        if err {
            e = v.as_str().unwrap().to_string();
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(
        e.contains(&format!("session {sid} has ended")) && e.contains("killed by SIGKILL"),
        "{e}"
    );
    for internal in ["threads:", "frames:", "control:", "frame_variables:"] {
        assert!(!e.contains(internal), "{e}");
    }
}

/// Issue 29: `command` with `attach` is a trigger only backends that run one take (the
/// headless DAP backend); elsewhere (the IDE, this fake) it is refused before anything is set
/// or started, saying what to do instead. Issue 26: capture's attach + command (the request) is
/// refused as start_debug_session's trigger is, with the same words, before a point is set or a
/// process attached.
#[tokio::test]
async fn a_trigger_where_the_backend_runs_none_is_refused_naming_the_way_round() {
    let cases = [
        (
            "start_debug_session",
            json!({"attach": "4242", "command": "curl -s localhost:8000/x",
                   "breakpoints": [{"file_path": "main.py", "line": 8}]}),
            "not available",
        ),
        (
            "capture",
            json!({"attach": "4242", "command": "curl -s localhost:8000/x",
                   "points": [{"file_path": "main.py", "line": 8}], "expressions": ["total"]}),
            "command with attach (a trigger run after the attach) is not available",
        ),
    ];
    for (tool, args, refusal) in cases {
        let h = H::new(brave());
        let e = h.err(tool, args).await;
        assert!(
            e.contains(refusal) && e.contains("attach alone") && e.contains("wait_for_pause"),
            "{tool}: {e}"
        );
        assert!(
            !h.fake
                .calls()
                .iter()
                .any(|c| c.starts_with("launch") || c.starts_with("add_line_breakpoint")),
            "{tool}: nothing may be set or run: {:?}",
            h.fake.calls()
        );
    }
}

/// wait_for_pause {command} on a backend that runs no commands for a session (the IDE's, this
/// fake's) is refused saying what to do instead, and sets nothing: the next wait has no trigger.
#[tokio::test]
async fn wait_for_pause_command_is_refused_where_the_backend_runs_none() {
    let h = H::new(brave());
    let s = h
        .ok("start_debug_session", json!({"run_configuration": "main"}))
        .await;
    assert_eq!(s["state"], "running", "{s:#}");
    let e = h
        .err(
            "wait_for_pause",
            json!({"command": "curl -s localhost:8000/x", "evaluate": ["x"]}),
        )
        .await;
    assert!(
        e.contains("not run") && e.contains("from your shell"),
        "{e}"
    );
    let r = h.ok("wait_for_pause", json!({"timeout_ms": 100})).await;
    assert!(r.get("trigger").is_none(), "{r:#}");
    assert_eq!(r["state"], "running", "{r:#}");
}

// ---- a read of a running process whose pause comes late (issue 26 review) ------------------

/// The session's state as listed, polled until it is `want` (a resume the engine sends from
/// its event loop comes a moment after the stop).
async fn state_becomes(h: &H, sid: &str, want: &str) -> String {
    let mut state = String::new();
    for _ in 0..200 {
        let list = h.ok("list_debug_sessions", json!({})).await;
        state = list["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == sid)
            .map(|s| s["state"].as_str().unwrap_or("").to_string())
            .unwrap_or_default();
        if state == want {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    state
}

/// Resumes of `sid` the fake was asked for, polled until there are `n` (the engine sends the
/// resume of a late stop from its event loop).
async fn resumes_reach(h: &H, sid: &str, n: usize) -> usize {
    let count = || {
        h.fake
            .calls()
            .iter()
            .filter(|c| *c == &format!("control {sid} Resume"))
            .count()
    };
    for _ in 0..300 {
        if count() >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    count()
}

/// A read's pause that does not come in time (debugpy pauses a thread blocked in select()
/// only when it next runs Python code) may come after the answer: nobody waits for that stop
/// any more, so it is resumed, and the answer said it would be. It used to leave the attached
/// service paused, with the agent told "running".
#[tokio::test]
async fn a_reads_pause_that_comes_after_the_read_gave_up_is_resumed() {
    let h = H::new(Config {
        backend_timeout_ms: 600,
        ..brave()
    });
    h.fake.set_late_pauses(true);
    let r = h
        .ok(
            "start_debug_session",
            json!({"attach": "4242", "evaluate": ["1 + 2"]}),
        )
        .await;
    let sid = r["session_id"].as_str().unwrap().to_string();
    assert_eq!(r["state"], "running", "{r:#}");
    // Asked more than once (the wait asks again): every one of them that lands is resumed.
    let asked = h.fake.pending_pauses(&sid);
    assert!(asked >= 2, "{asked}");
    for n in 1..=asked as usize {
        assert!(h.fake.land_pause(&sid));
        assert_eq!(resumes_reach(&h, &sid, n).await, n);
        assert_eq!(state_becomes(&h, &sid, "running").await, "running");
    }
    let msg = r["message"].as_str().unwrap();
    assert!(
        msg.contains("did not pause within 600 ms") && msg.contains("resumed at once"),
        "{msg}"
    );
    // The next read says what happened meanwhile.
    h.fake.set_late_pauses(false);
    let r = h
        .ok(
            "capture",
            json!({"attach": "4242", "expressions": ["1 + 2"]}),
        )
        .await;
    let msg = r["message"].as_str().unwrap();
    assert!(
        msg.contains(&format!(
            "{asked} late pauses of an earlier read came and were resumed"
        )),
        "{msg}"
    );
    assert_eq!(r["hits"][0]["values"][0]["value"], "3", "{r:#}");
    // The agent's own pause is never taken for a late one.
    h.fake.set_late_pauses(true);
    let e = h
        .err(
            "capture",
            json!({"attach": "4242", "expressions": ["1 + 2"]}),
        )
        .await;
    assert!(e.contains("did not pause"), "{e}");
    let _ = h.raw("pause", json!({"timeout_ms": 100})).await;
    let resumed = resumes_reach(&h, &sid, 0).await;
    let mut landed = 0;
    while h.fake.land_pause(&sid) {
        landed += 1;
        assert_eq!(state_becomes(&h, &sid, "paused").await, "paused");
        let _ = h.raw("resume", json!({"timeout_ms": 100})).await;
    }
    assert!(landed >= 2, "{landed}");
    assert_eq!(
        resumes_reach(&h, &sid, 0).await,
        resumed + landed,
        "only the agent's resumes"
    );
}

/// A pause asked again while the first was slow can land after the read resumed the process:
/// a second stop nobody waits for, resumed too. The read itself answers.
#[tokio::test]
async fn a_second_pause_the_read_asked_that_lands_after_its_resume_is_resumed() {
    let h = H::new(Config {
        backend_timeout_ms: 3_000,
        ..brave()
    });
    h.fake.set_late_pauses(true);
    let sid = "s1";
    let land_second = async {
        for _ in 0..1000 {
            if h.fake.pending_pauses(sid) >= 2 {
                return h.fake.land_pause(sid);
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        false
    };
    let (r, landed) = tokio::join!(
        h.ok(
            "start_debug_session",
            json!({"attach": "4242", "evaluate": ["1 + 2"]}),
        ),
        land_second
    );
    assert!(landed);
    assert_eq!(r["session_id"], sid, "{r:#}");
    assert_eq!(r["read"][0]["values"][0]["value"], "3", "{r:#}");
    assert_eq!(resumes_reach(&h, sid, 1).await, 1);
    assert_eq!(state_becomes(&h, sid, "running").await, "running");
    // The other pause lands now, after the read: resumed, not left stopped.
    assert!(h.fake.land_pause(sid));
    assert_eq!(resumes_reach(&h, sid, 2).await, 2);
    assert_eq!(state_becomes(&h, sid, "running").await, "running");
    let msg = r["message"].as_str().unwrap();
    assert!(msg.contains("the pause was asked 2 times"), "{msg}");
}
