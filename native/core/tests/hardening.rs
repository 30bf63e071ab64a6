//! Issue 16: what a hostile (or careless) client sends must not grow memory without bound, and
//! every refusal names the field. Engine level, over the fake backend; the HTTP and stdio sides
//! are in http_security.rs, http_sessions.rs and stdio_transport.rs, the real binary in
//! native/sidecar/tests and scripts/test.d/hardening.sh.

mod tools_common;
use debugger_mcp_core::config::Config;
use debugger_mcp_core::history::HistoryFilter;
use serde_json::json;
use tools_common::*;

/// Item 1: 150 calls with unique 3 MiB `project_path` values and 150 with a 3 MiB `file_path`
/// kept every byte in the history (a new 1000-entry history per client-chosen key).
#[tokio::test]
async fn oversized_parameters_do_not_grow_the_history() {
    let h = H::new(Config {
        history_size: 5,
        ..Config::default()
    });
    let big = "x".repeat(3 << 20);
    // 20 of each here (a debug build walks 3 MiB strings slowly); the 150-request probe on the
    // release binary is scripts/test.d/hardening.sh.
    for i in 0..20 {
        let e = h
            .err(
                "list_breakpoints",
                json!({"project_path": format!("/p{i}/{big}")}),
            )
            .await;
        assert!(
            e.contains("'project_path'") && e.contains("at most 4096"),
            "{}",
            &e[..e.len().min(300)]
        );
        assert!(e.len() < 1024, "error echoes the input: {} bytes", e.len());
        let e = h
            .err("set_breakpoint", json!({"file_path": big, "line": 1}))
            .await;
        assert!(e.contains("'file_path'"), "{}", &e[..e.len().min(300)]);
    }
    let history = h.engine.history();
    assert!(
        history.bytes() < 64 * 1024,
        "history holds {} bytes",
        history.bytes()
    );
    let entries = history.entries(&HistoryFilter::default());
    // One key (the calls resolved no project), capped at history_size.
    assert_eq!(
        entries.len(),
        5,
        "{:?}",
        entries.iter().map(|e| e.project.len()).collect::<Vec<_>>()
    );
    let p = entries[0].params["file_path"].as_str().unwrap();
    assert!(
        p.ends_with(&format!("…[{} chars]", 3 << 20)),
        "{}",
        &p[p.len() - 30..]
    );
}

/// Item 1: a project that resolved is the key, whatever spelling of it the client sent.
#[tokio::test]
async fn history_is_keyed_by_the_resolved_project() {
    let h = H::new(Config::default());
    let root = h.root.to_string_lossy().into_owned();
    for spelling in [root.clone(), format!("{root}/."), format!("{root}/sub/../")] {
        h.ok("list_breakpoints", json!({"project_path": spelling}))
            .await;
    }
    let entries = h.engine.history().entries(&HistoryFilter {
        project: Some(root.clone()),
        ..Default::default()
    });
    assert_eq!(entries.len(), 3);
}

/// Item 1: string parameters are capped where nobody means more.
#[tokio::test]
async fn a_huge_breakpoint_condition_is_refused_naming_the_field() {
    let h = H::new(Config::default());
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 4, "condition": "x".repeat(3 << 20)}),
        )
        .await;
    assert!(
        e.contains(
            "field 'condition': expected at most 16384 characters, received a string of 3145728"
        ),
        "{e}"
    );
    assert!(
        h.ok("list_breakpoints", json!({})).await["breakpoints"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

/// Item 3: out-of-range integers are refused by validation naming the field (they failed in
/// deserialisation with "expected u32" and no field).
#[tokio::test]
async fn out_of_range_integers_name_their_field() {
    let h = H::new(brave());
    h.paused_at("main.py", 4).await;
    let cases = [
        (
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 4294967296u64}),
            "line",
        ),
        (
            "run_to_line",
            json!({"file_path": "main.py", "line": 4294967296u64}),
            "line",
        ),
        (
            "get_source_context",
            json!({"file_path": "main.py", "line": 4294967296u64}),
            "line",
        ),
        (
            "get_variables",
            json!({"frame_index": 4294967296u64}),
            "frame_index",
        ),
        (
            "select_stack_frame",
            json!({"frame_index": 4294967296u64}),
            "frame_index",
        ),
        (
            "evaluate_expression",
            json!({"expression": "1", "frame_index": 4294967296u64}),
            "frame_index",
        ),
        (
            "get_stack_trace",
            json!({"offset": 4294967296u64}),
            "offset",
        ),
        (
            "expand_variable",
            json!({"path": "x", "offset": 4294967296u64}),
            "offset",
        ),
        (
            "get_debug_history",
            json!({"steps_ago": 4294967296u64}),
            "steps_ago",
        ),
        (
            "get_debug_history",
            json!({"steps_ago": 18446744073709551616.0}),
            "steps_ago",
        ),
    ];
    for (tool, args, field) in cases {
        let e = h.err(tool, args.clone()).await;
        assert!(
            e.contains(&format!("field '{field}'")) && e.contains("4294967295"),
            "{tool} {args}: {e}"
        );
    }
}

/// Item 3: a line past the end of an existing file is not a pending breakpoint.
#[tokio::test]
async fn lines_past_the_end_of_a_file_are_refused() {
    let h = H::new(brave());
    let lines = debugger_mcp_testkit::MAIN_PY.lines().count();
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 4294967295u64}),
        )
        .await;
    assert!(
        e.contains("field 'line'")
            && e.contains(&format!("past the end of main.py ({lines} lines)")),
        "{e}"
    );
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": lines + 1}),
        )
        .await;
    assert!(e.contains("past the end"), "{e}");
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": lines}),
    )
    .await;
    h.paused_at("main.py", 4).await;
    let e = h
        .err("run_to_line", json!({"file_path": "main.py", "line": 9999}))
        .await;
    assert!(
        e.contains("field 'line'") && e.contains("past the end"),
        "{e}"
    );
}

/// Item 8: errors about paths outside the project say neither whether the file exists nor
/// where a link points.
#[tokio::test]
async fn path_errors_do_not_reveal_what_lies_outside() {
    let h = H::new(Config::default());
    let outside = temp_dir("secret");
    let secret = outside.join("shadow");
    std::fs::write(&secret, "x").unwrap();
    let missing = outside.join("missing");
    let a = h
        .err(
            "get_source_context",
            json!({"file_path": secret.to_string_lossy(), "line": 1}),
        )
        .await;
    let b = h
        .err(
            "get_source_context",
            json!({"file_path": missing.to_string_lossy(), "line": 1}),
        )
        .await;
    assert!(a.contains("outside the project"), "{a}");
    assert_eq!(
        a.replace("shadow", "X"),
        b.replace("missing", "X"),
        "existing and missing files answer differently"
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&secret, h.root.join("link")).unwrap();
        let e = h
            .err("set_breakpoint", json!({"file_path": "link", "line": 1}))
            .await;
        assert!(
            e.contains("outside the project") && !e.contains(&*outside.to_string_lossy()),
            "{e}"
        );
        assert!(!e.contains("resolves to"), "{e}");
    }
}

/// Item 9: `pause` with a thread the session does not have is an error naming its threads.
#[tokio::test]
async fn pause_with_an_unknown_thread_names_the_threads() {
    let h = H::new(brave());
    h.paused_at("main.py", 4).await;
    let e = h.err("pause", json!({"thread_id": "999"})).await;
    assert!(
        e.contains("field 'thread_id'")
            && e.contains("'999'")
            && e.contains("1 (MainThread)")
            && e.contains("2 (worker)"),
        "{e}"
    );
    h.ok("pause", json!({"thread_id": "1"})).await;
    let e = h.err("step_over", json!({"thread_id": "x"})).await;
    assert!(e.contains("field 'thread_id'"), "{e}");
}

/// Issue 28 item 5: through a link to a directory outside the project, a file that exists
/// there and one that does not answer alike, for every argument that takes a path (file
/// paths, get_source_context, a start's cwd, debug_test's binary and test file).
#[cfg(unix)]
#[tokio::test]
async fn a_link_to_a_directory_outside_is_no_existence_oracle() {
    let h = H::new(Config {
        brave_mode: true,
        ..Config::default()
    });
    let outside = temp_dir("etc");
    std::fs::write(outside.join("passwd"), "root:x:0:0").unwrap();
    std::fs::create_dir(outside.join("sub")).unwrap();
    std::os::unix::fs::symlink(&outside, h.root.join("evil_dir")).unwrap();
    std::fs::write(outside.join("t_test.py"), "def test_x(): pass").unwrap();
    let files = [
        ("evil_dir/passwd", "evil_dir/nonexistent_zz"),
        ("evil_dir/sub/../passwd", "evil_dir/nosub/deeper"),
    ];
    let dirs = [("evil_dir/sub", "evil_dir/nosub")];
    let tests = [("evil_dir/t_test.py", "evil_dir/none_test.py")];
    type Args = Box<dyn Fn(&str) -> serde_json::Value>;
    type Pairs<'a> = &'a [(&'a str, &'a str)];
    let calls: Vec<(&str, Args, Pairs)> = vec![
        (
            "set_breakpoint",
            Box::new(|p| json!({"file_path": p, "line": 1})),
            &files,
        ),
        (
            "get_source_context",
            Box::new(|p| json!({"file_path": p, "line": 1})),
            &files,
        ),
        (
            "start_debug_session",
            Box::new(|p| json!({"command": "python3 main.py", "cwd": p})),
            &dirs,
        ),
        (
            "debug_test",
            Box::new(|p| json!({"test_id": "Suite.Case", "binary": p})),
            &files,
        ),
        (
            "debug_test",
            Box::new(|p| json!({"test_id": format!("{p}::test_x")})),
            &tests,
        ),
    ];
    for (tool, args, pairs) in &calls {
        for (exists, missing) in pairs.iter() {
            let a = h.err(tool, args(exists)).await;
            let b = h.err(tool, args(missing)).await;
            assert!(a.contains("outside the project"), "{tool} {exists}: {a}");
            assert_eq!(
                a.replace(exists, "P"),
                b.replace(missing, "P"),
                "{tool}: a file that exists outside and one that does not answer differently"
            );
        }
    }
    // A missing file inside the project is still "not found".
    let e = h
        .err("set_breakpoint", json!({"file_path": "nope.py", "line": 1}))
        .await;
    assert!(e.contains("not found in the project"), "{e}");
}

/// Agents name files relative to where their shell is (`lib/x.py` for the project's
/// `work/lib/x.py`): three of four lost a call to "not found" on a real bug. The one source file
/// that ends with the path is taken, and the answer shows where; several are listed, none is
/// still "not found"; a path that climbs (`..`) is not searched.
#[tokio::test]
async fn a_path_relative_to_a_subdirectory_names_the_one_file_that_ends_with_it() {
    let h = H::new(Config {
        brave_mode: true,
        ..Config::default()
    });
    for f in ["work/lib/x.py", "a/m.py", "b/m.py"] {
        let p = h.root.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "x = 1\ny = 2\n").unwrap();
    }
    let r = h
        .ok(
            "set_breakpoint",
            json!({"file_path": "lib/x.py", "line": 2}),
        )
        .await;
    assert!(r.to_string().contains("work/lib/x.py"), "{r}");
    let e = h
        .err("set_breakpoint", json!({"file_path": "m.py", "line": 1}))
        .await;
    assert!(
        e.contains("2 files end with it") && e.contains("a/m.py") && e.contains("b/m.py"),
        "{e}"
    );
    let e = h
        .err(
            "get_source_context",
            json!({"file_path": "lib/none.py", "line": 1}),
        )
        .await;
    assert!(e.contains("not found in the project"), "{e}");
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "../lib/x.py", "line": 1}),
        )
        .await;
    assert!(!e.contains("work/lib/x.py"), "{e}");
}
