//! Pause, stop_on_exception, and the errors a user meets when an adapter cannot run.
//! Fixtures: tests/fixtures/misc.

mod common;

use common::*;
use debugger_mcp_core::backend::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_a_running_program_then_stop() {
    let mut h = Harness::new("misc", "pause");
    let info = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("python3 spin.py".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let s = info.id.clone();
    assert_eq!(info.state, SessionState::Running);
    // Stepping needs a pause.
    let err = h
        .backend
        .control(&s, None, ControlOp::STEP_OVER)
        .await
        .unwrap_err();
    assert!(matches!(err, BackendError::InvalidState(_)), "{err:?}");
    // Pause once the loop runs (a pause during interpreter start-up lands before line 1).
    h.wait_output(&s, "spinning").await;
    h.backend.control(&s, None, ControlOp::Pause).await.unwrap();
    let (thread, reason, _, _) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Pause);
    let page = h.backend.frames(&s, &thread, 0, 0).await.unwrap();
    // Paused inside time.sleep's caller or the loop: some frame is in spin.py.
    assert!(
        page.frames
            .iter()
            .any(|f| f.file.as_deref() == Some(h.file("spin.py").as_str())),
        "{page:?}"
    );
    let user = page
        .frames
        .iter()
        .find(|f| f.file.as_deref() == Some(h.file("spin.py").as_str()))
        .unwrap();
    // In the loop.
    assert_eq!(user.method_name.as_deref(), Some("<module>"));
    assert!((6..=8).contains(&user.line.unwrap_or(0)), "{page:?}");
    let ticks: u64 = h
        .eval(&s, &user.handle, "ticks", EvalContext::Watch, false)
        .await
        .unwrap()
        .value
        .parse()
        .unwrap();
    assert!(ticks >= 1);
    let pid = info.process_id.expect("pid");
    h.backend.stop(&s).await.unwrap();
    h.wait_stopped(&s).await;
    assert!(wait_pid_gone(pid).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_on_exception_pauses_at_the_raise() {
    let mut h = Harness::new("misc", "stop_on_exception");
    let s = h
        .launch(LaunchRequest {
            command: Some("python3 crash.py".into()),
            stop_on_exception: true,
            ..Default::default()
        })
        .await;
    let (thread, reason, _, description) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Exception);
    assert!(
        description
            .as_deref()
            .unwrap_or("")
            .contains("exploded with 5"),
        "{description:?}"
    );
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(
        (f.line, f.method_name.as_deref()),
        (Some(6), Some("explode"))
    );
    h.backend.stop(&s).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adapter_that_dies_is_a_clear_error_and_a_stopped_session() {
    let mut h = Harness::new("misc", "dead_adapter");
    let err = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("broken adapter".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("exited with code 3"), "{err}");
    assert!(
        err.contains("boom: no debug adapter here"),
        "the adapter's stderr is in the message: {err}"
    );
    h.wait_stopped("s1").await;
    let err = h.backend.threads("s1").await.unwrap_err().to_string();
    assert!(err.contains("session s1 has ended"), "{err}");

    let typo = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                configuration: Some("typo".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(typo.contains("stop_on_entyr"), "{typo}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gdb_without_dap_is_refused_with_a_how_to() {
    let h = Harness::new("misc", "old_gdb");
    // Only this test of this binary starts gdb, so the process-wide variable is safe here.
    unsafe { std::env::set_var("DEBUGGER_MCP_GDB", h.file("old-gdb")) };
    let err = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("/bin/true".into()),
                adapter: Some("gdb".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    unsafe { std::env::remove_var("DEBUGGER_MCP_GDB") };
    let msg = err.to_string();
    assert!(matches!(err, BackendError::Unsupported(_)), "{err:?}");
    assert!(
        msg.contains("13.1") && msg.contains(">= 14") && msg.contains("gdb-for-pwndbg"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delve_that_never_listens_is_a_clear_error_with_its_output() {
    let h = Harness::new("misc", "dlv_cannot_listen");
    std::fs::write(h.root.join("main.go"), "package main\n\nfunc main() {}\n").unwrap();
    // Only this test of this binary starts delve, so the process-wide variable is safe here.
    unsafe { std::env::set_var("DEBUGGER_MCP_DLV", h.file("dlv-cannot-listen")) };
    let err = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("main.go".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    unsafe { std::env::remove_var("DEBUGGER_MCP_DLV") };
    assert!(err.contains("cannot start the delve adapter"), "{err}");
    assert!(
        err.contains("exit code 1") && err.contains("without printing the address"),
        "{err}"
    );
    // What it said on both streams, and how to get a working delve.
    assert!(
        err.contains("Type 'dlv help'") && err.contains("address already in use"),
        "{err}"
    );
    assert!(err.contains("apt install delve"), "{err}");
    assert!(h.backend.sessions(&h.project).await.unwrap().is_empty());
}
