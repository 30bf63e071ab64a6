//! End-to-end test of the DAP backend under lldb-dap (Debian's lldb-19).
//! Fixture: tests/fixtures/c/prog.c (line numbers below refer to it), built with gcc -g -O0.

mod common;

use common::*;
use debugger_mcp_core::backend::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_breakpoints_variables_steps_set_value() {
    let mut h = Harness::new("c", "lldb");
    let out = std::process::Command::new("gcc")
        .args(["-g", "-O0", "-o", "prog", "prog.c"])
        .current_dir(&h.root)
        .output()
        .unwrap();
    assert!(out.status.success());
    let bp = h.bp("prog.c", 24).await;
    let log = h
        .backend
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
    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("./prog".into()),
                adapter: Some("lldb".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    assert!(info.process_id.is_some(), "{info:?}");
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );
    let now = h.backend.breakpoints(&h.project).await.unwrap().remove(0);
    assert_eq!(
        (now.verified, now.line),
        (true, Some(25)),
        "moved off the blank line: {now:?}"
    );

    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.file.as_deref(), Some(h.file("prog.c").as_str()));
    assert_eq!((f.line, f.method_name.as_deref()), (Some(25), Some("main")));
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(find(&vars, "counter").value, "7");
    let numbers = find(&vars, "numbers");
    let page = h.children_of(&s, numbers, 3, 2).await;
    let got: Vec<_> = page.children.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(got, vec!["40", "50"]);
    let tri = h.children_of(&s, find(&vars, "tri"), 0, 20).await.children;
    assert_eq!(find(&tri, "sides").value, "3");

    assert_eq!(
        h.eval(&s, &f.handle, "counter * 3", EvalContext::Watch, false)
            .await
            .unwrap()
            .value,
        "21"
    );

    h.control(&s, &thread, ControlOp::StepInto { force: false })
        .await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(
        (f.line, f.method_name.as_deref()),
        (Some(16), Some("square"))
    );
    h.control(&s, &thread, ControlOp::STEP_OUT).await;
    h.wait_paused(&s).await;
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.method_name.as_deref(), Some("main"));
    assert_eq!(
        h.wait_output(&s, "r is 49").await,
        OutputCategory::Tracepoint
    );

    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    let counter = find(&vars, "counter");
    h.backend
        .set_value(&s, counter.set_handle.as_deref().unwrap(), "9")
        .await
        .unwrap();
    h.control(&s, &thread, ControlOp::Resume).await;
    // sq was computed from 7 before the change; counter printed after it.
    h.wait_output(&s, "sq=49 counter=9").await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
    let _ = log;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lldb_stop_on_entry_is_the_start_of_main() {
    let mut h = Harness::new("c", "lldb_entry");
    let out = std::process::Command::new("gcc")
        .args(["-g", "-O0", "-o", "prog", "prog.c"])
        .current_dir(&h.root)
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = h
        .launch(LaunchRequest {
            command: Some("./prog".into()),
            adapter: Some("lldb".into()),
            stop_on_entry: true,
            ..Default::default()
        })
        .await;
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!((reason, ids.len()), (PauseReason::Entry, 0));
    let f = h.top_frame(&s, &thread).await;
    assert_eq!((f.line, f.method_name.as_deref()), (Some(21), Some("main")));
    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    assert_eq!(h.wait_paused(&s).await.1, PauseReason::Step);
    assert_eq!(h.line(&s, &thread).await, 22);
    // The entry breakpoint is gone: the program runs to its end.
    h.control(&s, &thread, ControlOp::Resume).await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}
