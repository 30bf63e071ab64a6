//! End-to-end tests of the DAP backend under delve (`dlv dap`, which speaks DAP over TCP only).
//! Fixture: tests/fixtures/go, a link to tests/e2e/projects/go (shared with the e2e suite): a
//! module with main.go and package calc; line numbers below refer to those files. scripts/setup.d/dap.sh installs go and delve.

mod common;

use common::*;
use debugger_mcp_core::backend::*;

async fn launch(h: &Harness, command: &str) -> String {
    h.launch(LaunchRequest {
        command: Some(command.into()),
        ..Default::default()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_run_breakpoint_stack_variables_evaluate_steps() {
    let mut h = Harness::new("go", "go_run");
    // `sum = calc.Add(sum, p)` inside total's loop.
    let bp = h.bp("main.go", 17).await;
    let s = launch(&h, "go run .").await;
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![bp.id.clone()])
    );

    let page = h.backend.frames(&s, &thread, 0, 20).await.unwrap();
    let f = &page.frames[0];
    assert_eq!(f.file.as_deref(), Some(h.file("main.go").as_str()));
    // delve's "main.total": package as the class, function as the method.
    assert_eq!(
        (f.line, f.class_name.as_deref(), f.method_name.as_deref()),
        (Some(17), Some("main"), Some("total"))
    );
    assert!(!f.is_library);
    let caller = &page.frames[1];
    assert_eq!(
        (caller.line, caller.method_name.as_deref()),
        (Some(25), Some("main"))
    );

    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(find(&vars, "sum").value, "0");
    assert_eq!(find(&vars, "p").value, "3");
    let prices = find(&vars, "prices");
    let items = h.children_of(&s, prices, 1, 2).await.children;
    let got: Vec<_> = items.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(got, vec!["4", "5"]);
    // The caller's struct local, field by field.
    let outer = h.backend.frame_variables(&s, &caller.handle).await.unwrap();
    let fields = h.children_of(&s, find(&outer, "o"), 0, 10).await.children;
    assert_eq!(find(&fields, "ID").value, "7");

    let e = h
        .eval(&s, &f.handle, "sum + p*10", EvalContext::Watch, false)
        .await
        .unwrap();
    assert_eq!(e.value, "30");
    let bad = h
        .eval(&s, &f.handle, "nosuch + 1", EvalContext::Watch, false)
        .await
        .unwrap_err();
    assert!(bad.to_string().contains("nosuch"), "{bad}");

    // Into calc.Add, back out, then over the loop header to the next iteration.
    h.control(&s, &thread, ControlOp::StepInto { force: false })
        .await;
    assert_eq!(h.wait_paused(&s).await.1, PauseReason::Step);
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.file.as_deref(), Some(h.file("calc/calc.go").as_str()));
    // delve stops on the `func Add(…)` line first (the function's prologue), as in VS Code.
    assert_eq!(
        (f.line, f.class_name.as_deref(), f.method_name.as_deref()),
        (Some(4), Some("example.com/gofixture/calc"), Some("Add"))
    );
    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    assert_eq!(h.wait_paused(&s).await.1, PauseReason::Step);
    assert_eq!(h.line(&s, &thread).await, 5);
    h.control(&s, &thread, ControlOp::STEP_OUT).await;
    h.wait_paused(&s).await;
    assert_eq!(
        h.top_frame(&s, &thread).await.method_name.as_deref(),
        Some("total")
    );

    // The second iteration stops at the breakpoint again, with the sum so far.
    h.control(&s, &thread, ControlOp::Resume).await;
    let (thread, reason, ..) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Breakpoint);
    let f = h.top_frame(&s, &thread).await;
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(
        (
            find(&vars, "sum").value.as_str(),
            find(&vars, "p").value.as_str()
        ),
        ("3", "4")
    );

    h.backend
        .remove_breakpoint(&h.project, &bp.id)
        .await
        .unwrap();
    h.control(&s, &thread, ControlOp::Resume).await;
    // The program's own output (dlv's stdout) comes back as the session's output.
    assert_eq!(
        h.wait_output(&s, "order 7: 2 items, total 12").await,
        OutputCategory::Stdout
    );
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_test_runs_only_the_selected_test() {
    let mut h = Harness::new("go", "go_test");
    // `if got != 5` in TestAdd, and the same line in TestAddNegative, which -run leaves out.
    let add = h.bp("calc/calc_test.go", 7).await;
    let negative = h.bp("calc/calc_test.go", 14).await;
    let s = launch(&h, "go test ./calc -run '^TestAdd$' -v").await;
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!(
        (reason, ids),
        (PauseReason::Breakpoint, vec![add.id.clone()])
    );
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(
        f.file.as_deref(),
        Some(h.file("calc/calc_test.go").as_str())
    );
    assert_eq!(
        (f.line, f.method_name.as_deref()),
        (Some(7), Some("TestAdd"))
    );
    let vars = h.backend.frame_variables(&s, &f.handle).await.unwrap();
    assert_eq!(find(&vars, "got").value, "5");

    h.control(&s, &thread, ControlOp::Resume).await;
    h.wait_output(&s, "--- PASS: TestAdd").await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
    let hit = |id: &str| {
        h.log.iter().any(|e| matches!(e, BackendEvent::Paused { breakpoint_ids, .. } if breakpoint_ids.iter().any(|b| b == id)))
    };
    assert!(!hit(&negative.id), "TestAddNegative ran: {:#?}", h.log);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_go_test_ends_with_its_exit_status_and_no_binary_is_left_in_the_project() {
    let mut h = Harness::new("go", "go_test_fail");
    std::fs::write(
        h.root.join("calc/fail_test.go"),
        "package calc\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) {\n\tt.Fatal(\"broken on purpose\")\n}\n",
    )
    .unwrap();
    let s = launch(&h, "go test ./calc -run TestBroken").await;
    h.wait_output(&s, "broken on purpose").await;
    assert_eq!(h.wait_stopped(&s).await, Some(1));
    // delve builds into a temporary directory, not as __debug_bin next to the sources.
    let mut left = Vec::new();
    for dir in [h.root.clone(), h.root.join("calc")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.contains("debug_bin") {
                left.push(name);
            }
        }
    }
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_a_go_session_ends_delve_and_the_program() {
    let mut h = Harness::new("go", "go_stop");
    let bp = h.bp("main.go", 24).await;
    let s = launch(&h, "go run .").await;
    let (_, reason, ..) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Breakpoint);
    // delve and the program it built (run from the temporary output path), in this project.
    let ours = || -> Vec<u32> {
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(cmd) = std::fs::read_to_string(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            let here = std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|d| d == h.root);
            if here
                && (cmd.starts_with("debugger-mcp-dlv-")
                    || cmd.contains("/debugger-mcp-dlv-")
                    || cmd.contains("dlv\0dap"))
                && pid_alive(pid)
            {
                out.push(pid);
            }
        }
        out
    };
    let before = ours();
    assert_eq!(before.len(), 2, "delve and the program: {before:?}");
    // The program's executable: the binary delve built for the session.
    let built: Vec<std::path::PathBuf> = before
        .iter()
        .filter_map(|p| std::fs::read_link(format!("/proc/{p}/exe")).ok())
        .filter(|e| e.to_string_lossy().contains("debugger-mcp-dlv-"))
        .collect();
    assert_eq!(built.len(), 1, "{built:?}");
    h.backend.stop(&s).await.unwrap();
    h.wait_stopped(&s).await;
    for pid in before {
        assert!(
            wait_pid_gone(pid).await,
            "process {pid} outlived its session"
        );
    }
    assert!(!built[0].exists(), "{} was left behind", built[0].display());
    let _ = bp;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_stop_on_entry_is_the_start_of_main_main() {
    let mut h = Harness::new("go", "go_entry");
    let s = h
        .launch(LaunchRequest {
            command: Some("go run .".into()),
            stop_on_entry: true,
            ..Default::default()
        })
        .await;
    let (thread, reason, ids, _) = h.wait_paused(&s).await;
    assert_eq!((reason, ids.len()), (PauseReason::Entry, 0));
    let f = h.top_frame(&s, &thread).await;
    assert_eq!(f.file.as_deref(), Some(h.file("main.go").as_str()));
    assert_eq!(
        (f.line, f.class_name.as_deref(), f.method_name.as_deref()),
        (Some(22), Some("main"), Some("main"))
    );
    h.control(&s, &thread, ControlOp::STEP_OVER).await;
    assert_eq!(h.wait_paused(&s).await.1, PauseReason::Step);
    assert_eq!(h.line(&s, &thread).await, 23);
    h.control(&s, &thread, ControlOp::Resume).await;
    assert_eq!(h.wait_stopped(&s).await, Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_panic_pauses_as_an_exception_where_it_was_raised() {
    let mut h = Harness::new("go", "go_panic");
    std::fs::create_dir_all(h.root.join("crash")).unwrap();
    std::fs::write(
        h.root.join("crash/main.go"),
        "package main\n\nfunc pick(xs []int, i int) int {\n\treturn xs[i]\n}\n\nfunc main() {\n\tprintln(pick([]int{1, 2}, 5))\n}\n",
    )
    .unwrap();
    let s = launch(&h, "go run ./crash").await;
    let (thread, reason, _, description) = h.wait_paused(&s).await;
    assert_eq!(reason, PauseReason::Exception);
    let d = description.unwrap_or_default();
    assert!(d.contains("index out of range [5] with length 2"), "{d}");
    // The first frame in the program is the line that indexed out of range.
    let page = h.backend.frames(&s, &thread, 0, 20).await.unwrap();
    let ours = page
        .frames
        .iter()
        .find(|f| f.file.as_deref() == Some(h.file("crash/main.go").as_str()))
        .expect("a frame in crash/main.go");
    assert_eq!(
        (ours.line, ours.method_name.as_deref()),
        (Some(4), Some("pick"))
    );
    h.backend.stop(&s).await.unwrap();
    h.wait_stopped(&s).await;
}

/// The `-o PATH` of the build command an error quotes.
fn output_of(message: &str) -> std::path::PathBuf {
    let after = message
        .split(" -o ")
        .nth(1)
        .unwrap_or_else(|| panic!("no -o in {message}"));
    after.split_whitespace().next().unwrap().into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_does_not_compile_is_a_launch_error_quoting_the_compiler() {
    let h = Harness::new("go", "go_broken");
    std::fs::create_dir_all(h.root.join("broken")).unwrap();
    std::fs::write(
        h.root.join("broken/main.go"),
        "package main\n\nfunc main() {\n\tprintln(missing + 1)\n}\n",
    )
    .unwrap();
    let e = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("go run ./broken".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    let m = e.to_string();
    assert!(matches!(e, BackendError::Failed(_)), "{e:?}");
    assert!(
        m.contains("launching 'go run ./broken' failed: the Go build failed"),
        "{m}"
    );
    assert!(m.contains("broken/main.go:4:10: undefined: missing"), "{m}");

    // A test package that does not compile: go test runs in the package's directory and prints
    // `./bad_test.go:…`; the error names the file relative to the project.
    std::fs::write(
        h.root.join("calc/bad_test.go"),
        "package calc\n\nimport \"testing\"\n\nfunc TestBad(t *testing.T) {\n\tvar n int = \"seven\"\n\t_ = n\n}\n",
    )
    .unwrap();
    let e = h
        .backend
        .launch(
            &h.project,
            LaunchRequest {
                command: Some("go test ./calc -run TestBad".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("calc/bad_test.go:6:14:"), "{m}");
    assert!(!m.contains("./bad_test.go"), "{m}");
    // No session, no delve and no binary remain from a build that failed.
    assert!(h.backend.sessions(&h.project).await.unwrap().is_empty());
    let out = output_of(&m);
    assert!(!out.exists(), "{} was left behind", out.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_go_build_has_its_own_timeout_named_in_the_error() {
    let h = Harness::new("go", "go_build_timeout");
    let req = LaunchRequest {
        command: Some("go run .".into()),
        ..Default::default()
    };
    // The core adds the build's bound to its launch timeout, for launches that build only.
    assert_eq!(
        h.backend.launch_build_allowance(&h.project, &req),
        std::time::Duration::from_secs(300)
    );
    let exec = LaunchRequest {
        command: Some("python3 -c pass".into()),
        ..Default::default()
    };
    assert_eq!(
        h.backend.launch_build_allowance(&h.project, &exec),
        std::time::Duration::ZERO
    );

    h.backend
        .set_go_build_timeout(std::time::Duration::from_millis(1));
    assert_eq!(
        h.backend.launch_build_allowance(&h.project, &req),
        std::time::Duration::from_millis(1)
    );
    let started = std::time::Instant::now();
    let e = h.backend.launch(&h.project, req).await.unwrap_err();
    assert!(matches!(e, BackendError::Timeout(_)), "{e:?}");
    let m = e.to_string();
    assert!(
        m.contains("building the Go program (`go build '-gcflags=all=-N -l' -o")
            && m.contains("within 1 ms"),
        "{m}"
    );
    assert!(m.contains("build_timeout_ms in the [go] section"), "{m}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(h.backend.sessions(&h.project).await.unwrap().is_empty());
}
