//! Source context and paths, several projects, timeouts, history, rendering for a model.

use super::*;

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
    assert!(
        e.contains("did not finish listing the projects within 100 ms"),
        "{e}"
    );
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
        e.contains("did not finish starting the program within 200 ms")
            && e.contains("launch_timeout_ms"),
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

/// Issue 20: `p a` `p b` `p c` in one call — one row per expression, a failing one answers its
/// error without failing the others, secrets stay hidden, and the text is one line per row.
#[tokio::test]
async fn several_expressions_answer_in_one_table() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let r = h
        .ok(
            "evaluate_expression",
            json!({"expressions": ["config['host']", "no_such_name", "config['api_key']"]}),
        )
        .await;
    let rows = r["results"].as_array().expect("results");
    assert_eq!(rows.len(), 3, "{r}");
    assert_eq!(
        (rows[0]["name"].clone(), rows[0]["value"].clone()),
        (json!("config['host']"), json!("'localhost'"))
    );
    assert!(
        rows[1]["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{r}"
    );
    assert_eq!(rows[2]["value"], "<redacted:api_key>");
    let r = h
        .engine
        .call_tool(
            "evaluate_expression",
            json!({"expressions": ["config['host']", "no_such_name"]}),
            &h.ctx,
        )
        .await;
    let text = r.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains("config['host'] = 'localhost'") && text.contains("no_such_name → error:"),
        "{text}"
    );
    let err = h
        .err(
            "evaluate_expression",
            json!({"expression": "a", "expressions": ["b"]}),
        )
        .await;
    assert!(err.contains("not both"), "{err}");
    let err = h.err("evaluate_expression", json!({})).await;
    assert!(err.contains("expressions"), "{err}");
}
