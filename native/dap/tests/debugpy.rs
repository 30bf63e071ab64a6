//! End-to-end tests of the DAP backend under debugpy (`debugpy.adapter`, started as adapter.rs does).
//! Fixture: tests/fixtures/py/app.py (line numbers below refer to it).

mod common;

use common::*;
use debugger_mcp_core::backend::*;

fn cmd(command: &str) -> LaunchRequest {
    LaunchRequest {
        command: Some(command.into()),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_json_pending_breakpoint_variables_paging_set_value_evaluate() {
    let mut h = Harness::new("py", "launch_json_vars");
    // Set before any session exists: stored, pending.
    let bp = h.bp("app.py", 17).await;
    assert_eq!(bp.id, "1");
    assert!(!bp.verified);
    assert_eq!(
        bp.message.as_deref(),
        Some("pending: binds when a session starts")
    );

    let configs = h.backend.run_configurations(&h.project).await.unwrap();
    let names: Vec<_> = configs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["Run app", "Current file"]);

    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("Run app".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(info.id, "s1");
    assert_eq!(info.run_configuration.as_deref(), Some("Run app"));
    let s = info.id.clone();

    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Breakpoint);
    assert_eq!(ids, vec!["1".to_string()]);
    // The pending breakpoint bound when the session started.
    let bps = h.backend.breakpoints(&h.project).await.unwrap();
    assert!(bps[0].verified, "{bps:?}");
    assert_eq!(bps[0].line, Some(17));

    let page = h.backend.frames(&s, &thread, 0, 20).await.unwrap();
    assert_eq!(page.frames.len(), 2, "{page:?}");
    let top = &page.frames[0];
    assert_eq!(top.file.as_deref(), Some(h.file("app.py").as_str()));
    assert_eq!(top.line, Some(17));
    assert_eq!(top.method_name.as_deref(), Some("main"));
    assert!(!top.is_library);
    assert_eq!(page.frames[1].line, Some(30));

    let vars = h.backend.frame_variables(&s, &top.handle).await.unwrap();
    assert_eq!(find(&vars, "n").value, "3");
    assert_eq!(find(&vars, "n").type_name.as_deref(), Some("int"));
    assert_eq!(find(&vars, "name").value, "'widget'");
    assert_eq!(find(&vars, "items").value, "[10, 20, 30]");
    // Globals come as one expandable group, not inline.
    let globals = find(&vars, "Globals");
    assert_eq!(globals.scope, ValueScope::Global);
    assert!(globals.has_children);

    // Nested dict: nested['outer']['inner'] == 42.
    let nested = find(&vars, "nested");
    let kids = h.children_of(&s, nested, 0, 100).await;
    // debugpy's "special variables"/"function variables" groups are not program values and are
    // left out of pages (they would shift offsets).
    assert!(
        kids.children
            .iter()
            .all(|c| c.name != "special variables" && c.name != "function variables"),
        "{kids:?}"
    );
    let outer = find(&kids.children, "'outer'");
    let inner = h.children_of(&s, outer, 0, 100).await;
    assert_eq!(find(&inner.children, "'inner'").value, "42");

    // Paging: 50 list items plus debugpy's synthetic entries, sliced by offset/limit.
    let big = find(&vars, "big");
    let all = h.children_of(&s, big, 0, 1000).await;
    // debugpy zero-pads item names ("00".."49") so that they sort.
    let first_item = all
        .children
        .iter()
        .position(|c| c.name.parse::<u32>() == Ok(0))
        .expect("item 0");
    let page = h.children_of(&s, big, first_item as u32 + 10, 5).await;
    let values: Vec<_> = page.children.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(values, vec!["10", "11", "12", "13", "14"]);
    assert_eq!(page.total, Some(all.children.len() as u64));

    // Watch context: expressions only; REPL context: statements too.
    let doubled = h
        .eval(&s, &top.handle, "n * 2", EvalContext::Watch, false)
        .await
        .unwrap();
    assert_eq!(doubled.value, "6");
    let stmt = h
        .eval(&s, &top.handle, "extra = 1", EvalContext::Expression, false)
        .await;
    assert!(
        stmt.is_err(),
        "an assignment is not an expression: {stmt:?}"
    );
    let refused = h
        .eval(
            &s,
            &top.handle,
            "extra = 1",
            EvalContext::CodeFragment,
            false,
        )
        .await;
    assert!(
        matches!(refused, Err(BackendError::InvalidState(_))),
        "{refused:?}"
    );
    h.eval(&s, &top.handle, "items.append(40)", EvalContext::Repl, true)
        .await
        .unwrap();
    let items = h
        .eval(&s, &top.handle, "items", EvalContext::Watch, false)
        .await
        .unwrap();
    assert_eq!(items.value, "[10, 20, 30, 40]");

    // set_value changes what the program later prints: n = add(99, 4) → "n=103".
    let n = find(&vars, "n");
    let set = h
        .backend
        .set_value(&s, n.set_handle.as_deref().expect("n is settable"), "99")
        .await
        .unwrap();
    assert_eq!(set.value, "99");
    h.control(&s, &thread, ControlOp::Resume).await;
    h.wait_for(
        "resumed",
        |e| matches!(e, BackendEvent::Resumed { session_id } if session_id == &s),
    )
    .await;
    h.wait_output(&s, "n=103").await;
    // The program exits with main() - 7 = 96.
    assert_eq!(h.wait_stopped(&s).await, Some(96));
    let ended = h.backend.threads(&s).await.unwrap_err().to_string();
    assert!(ended.contains("session s1 has ended"), "{ended}");
    // With no session left, breakpoints are pending again.
    assert!(!h.backend.breakpoints(&h.project).await.unwrap()[0].verified);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_launch_stop_on_entry_steps_and_run_to_line() {
    let mut h = Harness::new("py", "command_steps");
    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                stop_on_entry: true,
                ..cmd("python3 app.py")
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    assert!(info.process_id.is_some(), "{info:?}");
    let (thread, reason, _, _) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Entry);
    assert_eq!(
        h.top_frame(&s, &thread).await.file.as_deref(),
        Some(h.file("app.py").as_str())
    );

    // Set while the session is live: bound at once.
    let bp = h.bp("app.py", 17).await;
    assert!(bp.verified, "{bp:?}");
    assert_eq!(bp.line, Some(17));
    h.control(&s, &thread, ControlOp::Resume).await;
    let (_, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );
    assert_eq!(h.line(&s, &thread).await, 17);

    h.control(&s, &thread, ControlOp::StepInto { force: false })
        .await;
    let (_, reason, _, _) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Step);
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(6), Some("add")));
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(find(&vars, "a").value, "3");
    assert_eq!(find(&vars, "b").value, "4");

    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    h.wait_paused(&s).await;
    assert_eq!(h.line(&s, &thread).await, 7);

    h.control(&s, &thread, ControlOp::STEP_OUT).await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(17), Some("main")));

    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    h.wait_paused(&s).await;
    assert_eq!(h.line(&s, &thread).await, 18);

    h.control(
        &s,
        &thread,
        ControlOp::RunTo {
            file: h.file("app.py"),
            line: 21,
            ignore_breakpoints: false,
        },
    )
    .await;
    let (_, _, ids, _) = h.wait_paused(&s).await;
    assert!(
        ids.is_empty(),
        "the run-to breakpoint is not a user breakpoint: {ids:?}"
    );
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.line, Some(21));
    let total = h
        .eval(&s, &f.handle, "total", EvalContext::Watch, false)
        .await
        .unwrap();
    assert_eq!(total.value, "8");

    // The temporary run-to breakpoint is gone: nothing stops the program any more.
    h.control(&s, &thread, ControlOp::Resume).await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moved_conditional_and_log_point_breakpoints() {
    let mut h = Harness::new("py", "bp_kinds");
    // Line 16 is blank: the adapter moves the breakpoint to a line with code.
    let moved = h.bp("app.py", 16).await;
    let cond = h
        .backend
        .add_line_breakpoint(
            &h.project,
            LineBreakpointSpec {
                file: h.file("app.py"),
                line: 20,
                condition: Some("i == 3".into()),
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let log = h
        .backend
        .add_line_breakpoint(
            &h.project,
            LineBreakpointSpec {
                file: h.file("app.py"),
                line: 18,
                log_message: Some("n is {n}".into()),
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = h.launch(cmd("python3 app.py")).await;
    let (thread, _, ids, _) = h.wait_paused(&s).await;
    let bps = h.backend.breakpoints(&h.project).await.unwrap();
    let moved_now = bps.iter().find(|b| b.id == moved.id).unwrap();
    assert!(moved_now.verified);
    assert_eq!(moved_now.requested_line, Some(16));
    let bound = moved_now.line.unwrap();
    assert_ne!(bound, 16, "a blank line cannot hold a breakpoint");
    assert_eq!(ids, vec![moved.id.clone()]);
    assert_eq!(h.line(&s, &thread).await, bound);

    h.control(&s, &thread, ControlOp::Resume).await;
    let (_, _, ids, _) = h.wait_paused(&s).await;
    assert_eq!(ids, vec![cond.id.clone()]);
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.line, Some(20));
    assert_eq!(
        h.eval(&s, &f.handle, "i", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "3"
    );
    // The log point ran before (line 18) without stopping.
    assert_eq!(
        h.wait_output(&s, "n is 7").await,
        OutputCategory::Tracepoint
    );

    // Disabling removes it from the adapter: no further stop.
    let upd = h
        .backend
        .update_breakpoint(
            &h.project,
            &cond.id,
            BreakpointUpdate {
                enabled: Some(false),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(!upd.enabled);
    h.control(&s, &thread, ControlOp::Resume).await;
    h.wait_stopped(&s).await;
    let _ = log;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exception_breakpoint_stops_on_raised_exception() {
    let mut h = Harness::new("py", "exceptions");
    let ex = h
        .backend
        .add_exception_breakpoint(
            &h.project,
            ExceptionBreakpointSpec {
                exception: "raised".into(),
                caught: true,
                uncaught: true,
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(ex.kind, BreakpointKind::Exception);
    let s = h.launch(cmd("python3 app.py")).await;
    let (thread, reason, _, description) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Exception);
    assert!(
        description.as_deref().unwrap_or("").contains("ValueError"),
        "{description:?}"
    );
    assert_eq!(h.line(&s, &thread).await, 23);
    // The adapter's filters are known now.
    let hs = h.backend.handshake().await.unwrap();
    let ids: Vec<_> = hs.exception_filters.iter().map(|f| f.id.as_str()).collect();
    assert!(
        ids.contains(&"raised") && ids.contains(&"uncaught"),
        "{ids:?}"
    );
    let bad = h
        .backend
        .add_exception_breakpoint(
            &h.project,
            ExceptionBreakpointSpec {
                // Neither a filter nor a class name (debugpy takes `KeyError`, `pkg.MyError`).
                exception: "no such filter".into(),
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&bad, BackendError::Unsupported(m) if m.contains("raised")),
        "{bad:?}"
    );
    h.backend.stop(&s).await.unwrap();
    h.wait_stopped(&s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_sessions_and_stop_ends_the_process() {
    let mut h = Harness::new("py", "two_sessions");
    let bp = h.bp("app.py", 17).await;
    let a = h
        .backend
        .launch(&h.project, cmd("python3 app.py"))
        .await
        .unwrap();
    let b = h
        .backend
        .launch(&h.project, cmd("python3 app.py"))
        .await
        .unwrap();
    assert_eq!((a.id.as_str(), b.id.as_str()), ("s1", "s2"));
    let (pa, pb) = (a.process_id.unwrap(), b.process_id.unwrap());
    assert_ne!(pa, pb);
    let (ta, _, ids_a, _) = h.wait_paused("s1").await;
    assert_eq!(ids_a, vec![bp.id.clone()]);
    // s2's pause may have come before s1's: search the log from its start.
    h.rewind();
    let (tb, _, ids_b, _) = h.wait_paused("s2").await;
    assert_eq!(ids_b, vec![bp.id.clone()]);
    let sessions = h.backend.sessions(&h.project).await.unwrap();
    assert_eq!(sessions.len(), 2);
    assert!(
        sessions.iter().all(|s| s.state == SessionState::Paused),
        "{sessions:?}"
    );

    h.backend.stop("s1").await.unwrap();
    assert!(
        wait_pid_gone(pa).await,
        "debuggee {pa} of s1 still runs after stop"
    );
    // s2 is unaffected: still paused and inspectable.
    let f = h.top_frame("s2", &tb).await;
    assert_eq!(f.line, Some(17));
    assert_eq!(
        h.eval("s2", &f.handle, "n", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "3"
    );
    let err = h
        .backend
        .control("s1", Some(&ta), ControlOp::Resume)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("has ended"), "{err}");
    h.backend.stop("s2").await.unwrap();
    assert!(wait_pid_gone(pb).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn editor_variables_in_launch_json_are_a_clear_error() {
    let h = Harness::new("py", "editor_vars");
    let err = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("Current file".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("${file}") && err.contains("Current file"),
        "{err}"
    );
    let err = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("Nope".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Run app"),
        "lists the known configurations: {err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn step_over_ignoring_breakpoints_and_temporary_breakpoints() {
    let mut h = Harness::new("py", "ignore_and_temporary");
    let at_call = h.bp("app.py", 17).await;
    // Inside add(): a plain step over line 17 would stop here.
    let inside = h.bp("app.py", 6).await;
    let once = h
        .backend
        .add_line_breakpoint(
            &h.project,
            LineBreakpointSpec {
                file: h.file("app.py"),
                line: 20,
                temporary: true,
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = h.launch(cmd("python3 app.py")).await;
    let (thread, _, ids, _) = h.wait_paused(&s).await;
    assert_eq!(ids, vec![at_call.id.clone()]);

    h.control(
        &s,
        &thread,
        ControlOp::StepOver {
            ignore_breakpoints: true,
        },
    )
    .await;
    let (_, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!((reason, ids.len()), (PauseReason::Step, 0));
    assert_eq!(
        h.line(&s, &thread).await,
        18,
        "the breakpoint in add() was ignored"
    );
    // ...and restored afterwards.
    let bps = h.backend.breakpoints(&h.project).await.unwrap();
    assert!(
        bps.iter().any(|b| b.id == inside.id && b.verified),
        "{bps:?}"
    );

    h.control(&s, &thread, ControlOp::Resume).await;
    let (_, _, ids, _) = h.wait_paused(&s).await;
    assert_eq!(ids, vec![once.id.clone()]);
    // Removed before the pause is reported (so a quick resume cannot hit it again).
    h.rewind();
    h.wait_for(
        "removal of the temporary breakpoint",
        |e| matches!(e, BackendEvent::BreakpointRemoved { id } if id == &once.id),
    )
    .await;
    assert!(
        h.backend
            .breakpoints(&h.project)
            .await
            .unwrap()
            .iter()
            .all(|b| b.id != once.id)
    );
    // Line 20 runs four more times; the temporary breakpoint does not stop it again.
    h.control(&s, &thread, ControlOp::Resume).await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_mode_runs_without_stopping() {
    let mut h = Harness::new("py", "run_mode");
    h.bp("app.py", 17).await;
    let s = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                mode: LaunchMode::Run,
                ..cmd("python3 app.py")
            },
        )
        .await
        .unwrap();
    assert_eq!(s.mode, LaunchMode::Run);
    h.wait_output(&s.id, "total=8").await;
    assert_eq!(h.wait_stopped(&s.id).await, Some(0));
    assert!(
        !h.log
            .iter()
            .any(|e| matches!(e, BackendEvent::Paused { .. })),
        "no breakpoint stops a run: {:#?}",
        h.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn big_values_report_their_real_size_and_length() {
    let mut h = Harness::new("py", "big_values");
    h.bp("big.py", 9).await;
    let s = h.launch(cmd("python3 big.py")).await;
    let (thread, _, _, _) = h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    // debugpy lists 100 items and cuts the repr; the real size is 5,000.
    let records = find(&vars, "records");
    assert_eq!(records.child_count, Some(5000), "{records:?}");
    // The repr of a 100,000-character string is cut to ~65,536 by debugpy.
    let text = find(&vars, "text");
    assert!(text.value.chars().count() < 100_000);
    assert_eq!(text.value_length, Some(100_000), "{text:?}");
    // Small values are shown whole: no extra look-up, nothing claimed.
    let small = find(&vars, "small");
    assert_eq!(
        (small.child_count, small.value_length),
        (None, None),
        "{small:?}"
    );
    // Frame variables of a function: no "Globals" or debugpy group among them.
    assert!(
        vars.iter().all(|v| v.scope != ValueScope::Synthetic),
        "{:?}",
        vars.iter().map(|v| (&v.name, v.scope)).collect::<Vec<_>>()
    );

    let first = h.children_of(&s, records, 0, 3).await;
    assert_eq!(first.total, Some(5000));
    assert_eq!(
        first
            .children
            .iter()
            .map(|c| c.value.as_str())
            .collect::<Vec<_>>(),
        ["{'id': 0}", "{'id': 1}", "{'id': 2}"]
    );
    // Beyond debugpy's first 100 items: reached through its buckets, at the right index.
    let deep = h.children_of(&s, records, 4098, 3).await;
    assert_eq!(deep.total, Some(5000));
    assert_eq!(
        deep.children
            .iter()
            .map(|c| c.value.as_str())
            .collect::<Vec<_>>(),
        ["{'id': 4098}", "{'id': 4099}", "{'id': 4100}"]
    );
    let straddle = h.children_of(&s, records, 98, 4).await;
    assert_eq!(
        straddle
            .children
            .iter()
            .map(|c| c.value.as_str())
            .collect::<Vec<_>>(),
        ["{'id': 98}", "{'id': 99}", "{'id': 100}", "{'id': 101}"]
    );

    let e = h
        .eval(&s, &f.handle, "text", EvalContext::Expression, false)
        .await
        .unwrap();
    assert_eq!(e.value_length, Some(100_000));
    h.backend.stop(&s).await.unwrap();
}
