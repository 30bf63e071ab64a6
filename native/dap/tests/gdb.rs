//! End-to-end tests of the DAP backend under gdb >= 14 (`gdb -i dap`).
//! Fixture: tests/fixtures/c/prog.c (line numbers below refer to it), built with gcc -g -O0.

mod common;

use common::*;
use debugger_mcp_core::backend::*;

/// Compiles `<name>.c` in the test's project copy into `./<name>` (gcc -g -O0).
fn compile(h: &Harness, name: &str) {
    let out = std::process::Command::new("gcc")
        .args(["-g", "-O0", "-o", name, &format!("{name}.c")])
        .current_dir(&h.root)
        .output()
        .expect("gcc runs (scripts/setup.d/dap.sh installs it)");
    assert!(
        out.status.success(),
        "gcc failed on {name}.c: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles `<name>.c` and launches `./<name>` under gdb; the session id.
async fn compile_and_launch(h: &mut Harness, name: &str) -> String {
    compile(h, name);
    h.launch(LaunchRequest {
        command: Some(format!("./{name}")),
        ..Default::default()
    })
    .await
}

fn project(name: &str) -> Harness {
    let h = Harness::new("c", name);
    compile(&h, "prog");
    h
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn toml_launch_pending_moved_breakpoint_variables_set_value() {
    let mut h = project("gdb_toml");
    // Line 24 is blank; before any session the breakpoint is pending.
    let bp = h.bp("prog.c", 24).await;
    assert!(!bp.verified);
    let configs = h.backend.run_configurations(&h.project).await.unwrap();
    assert_eq!(configs.len(), 1);
    assert_eq!(
        (configs[0].name.as_str(), configs[0].source.as_deref()),
        ("prog", Some("debugger-mcp.toml"))
    );

    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("prog".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );
    // gdb bound it once the program loaded, on the next line with code.
    let now = h.backend.breakpoints(&h.project).await.unwrap().remove(0);
    assert!(now.verified, "{now:?}");
    assert_eq!((now.requested_line, now.line), (Some(24), Some(25)));
    let changed = h.log.iter().any(|e| matches!(e, BackendEvent::BreakpointChanged { breakpoint } if breakpoint.id == bp.id && breakpoint.line == Some(25) && breakpoint.verified));
    assert!(changed, "a BreakpointChanged event reported the binding");

    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.file.as_deref(), Some(h.file("prog.c").as_str()));
    assert_eq!((f.line, f.method_name.as_deref()), (Some(25), Some("main")));
    assert!(!f.is_library);
    assert!(
        info.process_id.is_some()
            || h.backend.sessions(&h.project).await.unwrap()[0]
                .process_id
                .is_some()
    );

    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(find(&vars, "counter").value, "7");
    // Registers: one synthetic group, not inline.
    let regs = find(&vars, "Registers");
    assert_eq!(regs.scope, ValueScope::Synthetic);

    // Array: 5 items, paged by offset/limit.
    let numbers = find(&vars, "numbers");
    assert!(numbers.has_children);
    let page = h.children_of(&s, numbers, 1, 2).await;
    let got: Vec<_> = page
        .children
        .iter()
        .map(|c| (c.name.as_str(), c.value.as_str()))
        .collect();
    assert_eq!(got, vec![("1", "20"), ("2", "30")]);
    assert_eq!(page.total, Some(5));

    // Nested struct: tri.corners[1].x == 4, tri.name is "triangle".
    let tri = find(&vars, "tri");
    let tri_kids = h.children_of(&s, tri, 0, 20).await.children;
    assert!(
        find(&tri_kids, "name").value.contains("\"triangle\""),
        "{tri_kids:?}"
    );
    assert_eq!(find(&tri_kids, "sides").value, "3");
    let corners = h
        .children_of(&s, find(&tri_kids, "corners"), 0, 20)
        .await
        .children;
    let c1 = h.children_of(&s, find(&corners, "1"), 0, 20).await.children;
    assert_eq!(find(&c1, "x").value, "4");

    // Watch context evaluates C expressions; repl context runs gdb CLI commands.
    let w = h
        .eval(&s, &f.handle, "counter * 3", EvalContext::Watch, false)
        .await
        .unwrap();
    assert_eq!(w.value, "21");
    let not_expr = h
        .eval(&s, &f.handle, "info locals", EvalContext::Watch, false)
        .await;
    assert!(
        not_expr.is_err(),
        "a CLI command is no expression: {not_expr:?}"
    );
    let repl = h
        .eval(&s, &f.handle, "info locals", EvalContext::Repl, true)
        .await
        .unwrap();
    assert!(repl.value.contains("counter = 7"), "{repl:?}");

    // set_value changes what the program prints: square(9) = 81.
    let counter = find(&vars, "counter");
    let set = h
        .backend
        .set_value(&s, counter.set_handle.as_deref().unwrap(), "9")
        .await
        .unwrap();
    assert_eq!(set.value, "9");
    // An array element: gdb's setVariable refuses it ("no variable named '1'": gdb keys
    // elements by int) and sends no evaluateName; it is set by setExpression on `numbers[1]`.
    let element = &page.children[0];
    let set = h
        .backend
        .set_value(
            &s,
            element
                .set_handle
                .as_deref()
                .expect("an element is settable"),
            "120",
        )
        .await
        .unwrap();
    assert_eq!(set.value, "120");
    h.control(&s, &thread, ControlOp::Resume).await;
    h.wait_output(&s, "sq=81 counter=9").await;
    // 9 + 10 + 120 + 30 + 40 + 50
    h.wait_output(&s, "counter=259 triangle").await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_stop_on_entry_steps_run_to_and_conditions() {
    let mut h = project("gdb_steps");
    // An ELF binary: the adapter is inferred as gdb.
    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("./prog".into()),
                stop_on_entry: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    let (thread, reason, _, _) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Entry);
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(21), Some("main")));

    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    assert_eq!(h.wait_paused(&s).await.1, PauseReason::Step);
    assert_eq!(h.line(&s, &thread).await, 22);

    h.control(
        &s,
        &thread,
        ControlOp::RunTo {
            file: h.file("prog.c"),
            line: 25,
            ignore_breakpoints: false,
        },
    )
    .await;
    h.wait_paused(&s).await;
    assert_eq!(h.line(&s, &thread).await, 25);

    h.control(&s, &thread, ControlOp::StepInto { force: false })
        .await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(
        (f.line, f.method_name.as_deref()),
        (Some(16), Some("square"))
    );
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    let v = find(&vars, "v");
    assert_eq!((v.value.as_str(), v.scope), ("7", ValueScope::Argument));

    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    h.wait_paused(&s).await;
    assert_eq!(h.line(&s, &thread).await, 17);

    h.control(&s, &thread, ControlOp::STEP_OUT).await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(25), Some("main")));

    // Conditional breakpoint inside the loop: stops when i == 3 only.
    let cond = h
        .backend
        .add_line_breakpoint(
            &h.project,
            LineBreakpointSpec {
                file: h.file("prog.c"),
                line: 29,
                condition: Some("i == 3".into()),
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(cond.verified, "{cond:?}");
    h.control(&s, &thread, ControlOp::Resume).await;
    let (_, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![cond.id.clone()])
    );
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.line, Some(29));
    assert_eq!(
        h.eval(&s, &f.handle, "i", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "3"
    );
    // 7 + 10 + 20 + 30 so far.
    assert_eq!(
        h.eval(&s, &f.handle, "counter", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "67"
    );

    h.backend
        .remove_breakpoint(&h.project, &cond.id)
        .await
        .unwrap();
    h.control(
        &s,
        &thread,
        ControlOp::RunTo {
            file: h.file("prog.c"),
            line: 31,
            ignore_breakpoints: false,
        },
    )
    .await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.line, Some(31));
    assert_eq!(
        h.eval(&s, &f.handle, "counter", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "157"
    );
    h.control(&s, &thread, ControlOp::Resume).await;
    h.wait_output(&s, "counter=157 triangle").await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_kills_the_debuggee_and_log_points_print() {
    let mut h = project("gdb_stop");
    h.backend
        .add_line_breakpoint(
            &h.project,
            LineBreakpointSpec {
                file: h.file("prog.c"),
                line: 17,
                log_message: Some("r is {r}".into()),
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let bp = h.bp("prog.c", 26).await;
    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("./prog".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    let (_, _, ids, _) = h.wait_paused(&s).await;
    assert_eq!(ids, vec![bp.id.clone()]);
    assert_eq!(
        h.wait_output(&s, "r is 49").await,
        OutputCategory::Tracepoint
    );
    let pid = h.backend.sessions(&h.project).await.unwrap()[0]
        .process_id
        .expect("process id");
    assert!(pid_alive(pid));
    h.backend.stop(&s).await.unwrap();
    h.wait_stopped(&s).await;
    assert!(
        wait_pid_gone(pid).await,
        "debuggee {pid} still runs after stop"
    );
    let sessions = h.backend.sessions(&h.project).await.unwrap();
    assert_eq!(sessions[0].state, SessionState::Stopped);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_concurrent_sessions_each_with_its_own_adapter() {
    let mut h = project("gdb_five");
    let bp = h.bp("prog.c", 26).await;
    let mut sessions = Vec::new();
    for _ in 0..5 {
        let info = h
            .backend
            .launch(
                &h.project,
                LaunchRequest {
                    command: Some("./prog".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        sessions.push(info.id);
    }
    assert_eq!(sessions, vec!["s1", "s2", "s3", "s4", "s5"]);
    let mut pids = Vec::new();
    for s in &sessions {
        // Pauses of different sessions interleave: search the whole log for each.
        h.rewind();
        let (thread, _, ids, _) = h.wait_paused(s).await;
        assert_eq!(ids, vec![bp.id.clone()]);
        let f = h.top_frame(s, &thread).await;
        assert_eq!(f.line, Some(26));
        // Each session is its own program: change one value per session and read it back.
        let n = sessions.iter().position(|x| x == s).unwrap();
        let vars = h.backend.frame_variables(s, &f.handle).await.unwrap();
        let handle = find(&vars, "counter").set_handle.clone().unwrap();
        h.backend
            .set_value(s, &handle, &(100 + n).to_string())
            .await
            .unwrap();
    }
    for (n, s) in sessions.iter().enumerate() {
        let info = h
            .backend
            .sessions(&h.project)
            .await
            .unwrap()
            .into_iter()
            .find(|i| &i.id == s)
            .unwrap();
        assert_eq!(info.state, SessionState::Paused);
        pids.push(info.process_id.expect("pid"));
        let thread = h.backend.threads(s).await.unwrap().remove(0).id;
        let f = h.top_frame(s, &thread).await;
        assert_eq!(
            h.eval(s, &f.handle, "counter", EvalContext::Watch, false)
                .await
                .unwrap()
                .value,
            (100 + n).to_string()
        );
    }
    let mut distinct = pids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 5);
    for s in &sessions {
        h.backend.stop(s).await.unwrap();
    }
    for pid in pids {
        assert!(wait_pid_gone(pid).await, "debuggee {pid} still runs");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_stop_names_the_signal_at_the_faulting_line() {
    let mut h = project("gdb_segv");
    let s = compile_and_launch(&mut h, "crash").await;
    let (thread, reason, _, description) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Signal);
    assert_eq!(
        description.as_deref(),
        Some("signal SIGSEGV (Segmentation fault)")
    );
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(8), Some("main")));
    h.backend.stop(&s).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_raised_in_a_library_names_the_programs_line() {
    let mut h = project("gdb_abort");
    let s = compile_and_launch(&mut h, "aborts").await;
    let (_, reason, _, description) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Signal);
    let d = description.unwrap_or_default();
    assert!(d.starts_with("signal SIGABRT"), "{d}");
    assert!(d.ends_with(", raised from aborts.c:6 in main"), "{d}");
    h.backend.stop(&s).await.unwrap();
}
