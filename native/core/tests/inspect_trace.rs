//! expand_variable's JSONPath filter, trace_function and debug_test through the engine and the fake backend.

#[path = "tools_common/mod.rs"]
mod common;

use common::{H, brave};
use serde_json::{Value, json};

fn values(r: &Value) -> Vec<Value> {
    r["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].clone())
        .collect()
}

fn children_calls(h: &H) -> usize {
    h.fake
        .calls()
        .iter()
        .filter(|c| c.starts_with("children"))
        .count()
}

#[tokio::test]
async fn inspect_filters_a_value_tree_with_jsonpath() {
    let h = H::new(brave());
    h.paused_at("main.py", 10).await;
    // Named branches only: user → address → city, one children call per level.
    let before = children_calls(&h);
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "user", "filter": "$.address.city"}),
        )
        .await;
    assert_eq!(values(&r), vec![json!("London")]);
    assert_eq!(r["matches"][0]["path"], "user.address.city");
    assert_eq!(children_calls(&h) - before, 2, "{:?}", h.fake.calls());
    assert!(
        r.get("message").is_none(),
        "a complete answer needs no note: {r:#}"
    );
    // Filters compare numbers parsed from the debugger's rendering.
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "items", "filter": "$[?@ > 1]"}),
        )
        .await;
    assert_eq!(values(&r), vec![json!(2), json!(3)]);
    assert_eq!(r["matches"][0]["path"], "items[1]");
    // Descendants.
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "user", "filter": "$..city"}),
        )
        .await;
    assert_eq!(values(&r), vec![json!("London")]);
    // Paging: 5 matches, 2 per page.
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "numbers", "filter": "$[?@ >= 45]", "limit": 2}),
        )
        .await;
    assert_eq!(
        (
            r["total"].clone(),
            r["truncated"].clone(),
            r["next_offset"].clone()
        ),
        (json!(5), json!(true), json!(2))
    );
    assert_eq!(values(&r), vec![json!(45), json!(46)]);
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "numbers", "filter": "$[?@ >= 45]", "offset": 4}),
        )
        .await;
    // The last page: no `truncated` (false flags are omitted from results).
    assert_eq!((values(&r), r.get("truncated")), (vec![json!(49)], None));
    // Secrets stay redacted inside filters (object members come in key order).
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "config", "filter": "$.*"}),
        )
        .await;
    assert_eq!(
        values(&r),
        vec![json!("<redacted:api_key>"), json!("localhost")]
    );
    // `$`: the shape, one level deep, with an id to expand further.
    let r = h
        .ok("expand_variable", json!({"path": "user", "filter": "$"}))
        .await;
    assert_eq!(r["matches"][0]["value"]["name"], "ada");
    assert!(
        r["matches"][0]["value"]["address"]
            .as_str()
            .unwrap()
            .starts_with("Address("),
        "{r:#}"
    );
    let id = r["matches"][0]["id"].as_str().unwrap().to_string();
    let r = h
        .ok(
            "expand_variable",
            json!({"variable_id": id, "filter": "$.address.zip"}),
        )
        .await;
    assert_eq!(values(&r), vec![json!("N1")]);
    // Deeper than 3 levels is not fetched, and the answer says what to do.
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "user", "filter": "$.address.city.a.b"}),
        )
        .await;
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("reaches 4 levels below 'user'"),
        "{r:#}"
    );
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "user.address", "filter": "$.city"}),
        )
        .await;
    assert_eq!(values(&r), vec![json!("London")]);
    // No match says so.
    let r = h
        .ok(
            "expand_variable",
            json!({"path": "user", "filter": "$.nope"}),
        )
        .await;
    assert_eq!(r["total"], 0);
    assert!(r["message"].as_str().unwrap().contains("no match"), "{r:#}");
}

#[tokio::test]
async fn inspect_rejects_a_bad_jsonpath_quoting_the_position_before_reading_anything() {
    let h = H::new(brave());
    h.paused_at("main.py", 10).await;
    let before = children_calls(&h);
    let e = h
        .err(
            "expand_variable",
            json!({"path": "user", "filter": "$.items[?@.qty >]"}),
        )
        .await;
    assert!(e.starts_with("invalid JSONPath filter at position"), "{e}");
    assert!(e.contains("$.items[?@.qty >]") && e.contains('^'), "{e}");
    assert_eq!(children_calls(&h), before);
    let e = h
        .err("expand_variable", json!({"path": "nope", "filter": "$.a"}))
        .await;
    assert!(e.contains("no variable 'nope'"), "{e}");
    let e = h.err("expand_variable", json!({"filter": "$.a"})).await;
    assert!(e.contains("give variable_id"), "{e}");
}

fn lines(r: &Value) -> Vec<u64> {
    r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["line"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn trace_function_records_a_loop_until_the_function_returns() {
    let h = H::new(brave());
    h.paused_at("main.py", 10).await;
    let r = h.ok("trace_function", json!({})).await;
    assert_eq!(r["function"], "main");
    assert_eq!(r["returned"], true, "{r:#}");
    assert_eq!(lines(&r), vec![10, 11, 10, 11, 10, 11, 12, 13]);
    let rows = r["rows"].as_array().unwrap();
    // The counter and the running total change on their lines, each iteration.
    assert_eq!(rows[0]["changed"], json!({"i": "1"}));
    assert_eq!(rows[1]["changed"], json!({"total": "1"}));
    assert_eq!(rows[3]["changed"], json!({"total": "3"}));
    assert_eq!(rows[4]["changed"], json!({"i": "3"}));
    assert_eq!(rows[5]["changed"], json!({"total": "6"}));
    assert!(rows[6].get("changed").is_none());
    assert_eq!(rows[7]["returned"], true);
    assert_eq!(r["start_locals"]["limit"], "3");
    // Secrets inside values are masked in the table too.
    assert_eq!(
        r["start_locals"]["config"],
        "{'host': 'localhost', 'api_key': <redacted:api_key>}"
    );
    // The server did the stepping; the program now waits in the caller.
    assert_eq!(r["now"]["location"]["method"], "<module>");
    assert_eq!(r["steps"], 8);
    // What the trace showed is in the ledger: the history of `total` has its three changes.
    let hist = h
        .ok(
            "get_debug_history",
            json!({"name": "total", "changes": true}),
        )
        .await;
    let vals: Vec<&str> = hist["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap())
        .collect();
    assert_eq!(&vals[vals.len() - 3..], ["1", "3", "6"], "{hist:#}");
}

#[tokio::test]
async fn inspected_values_are_remembered_in_the_history() {
    let h = H::new(brave());
    h.paused_at("main.py", 10).await;
    h.ok(
        "expand_variable",
        json!({"path": "user", "filter": "$.address.city"}),
    )
    .await;
    let hist = h
        .ok(
            "get_debug_history",
            json!({"name": "user.address.city", "steps_ago": 0}),
        )
        .await;
    assert_eq!(hist["value"], "London", "{hist:#}");
}

#[tokio::test]
async fn trace_function_enters_the_call_on_the_line_and_respects_its_bounds() {
    let h = H::new(brave());
    h.paused_at("main.py", 11).await;
    let r = h.ok("trace_function", json!({"enter": true})).await;
    assert_eq!(
        (r["function"].clone(), r["start_line"].clone()),
        (json!("add"), json!(2))
    );
    assert_eq!(r["start_locals"], json!({"a": "0", "b": "1"}));
    assert_eq!(lines(&r), vec![2, 3]);
    assert_eq!(r["rows"][0]["changed"], json!({"result": "1"}));
    // Back in main: a bounded trace stops early and says how to go on.
    let r = h.ok("trace_function", json!({"max_lines": 2})).await;
    assert_eq!((lines(&r).len(), r["returned"].clone()), (2, json!(false)));
    assert!(
        r["message"].as_str().unwrap().contains("max_lines (2)"),
        "{r:#}"
    );
    // Not on a call line: enter refuses and says why.
    let e = h.err("trace_function", json!({"enter": true})).await;
    assert!(e.contains("no call was entered"), "{e}");
    h.ok("resume", json!({"wait": false})).await;
    let e = h.err("trace_function", json!({})).await;
    assert!(e.contains("is running"), "{e}");
}

#[tokio::test]
async fn debug_test_refuses_ids_it_cannot_run_before_starting_anything() {
    let h = H::new(brave());
    let e = h
        .err(
            "debug_test",
            json!({"test_id": "tests/test_nope.py::test_x"}),
        )
        .await;
    assert!(
        e.starts_with("unknown test id 'tests/test_nope.py::test_x'") && e.contains("not found"),
        "{e}"
    );
    let e = h
        .err(
            "debug_test",
            json!({"test_id": "Suite.Case", "binary": "build/missing_tests"}),
        )
        .await;
    assert!(e.contains("'build/missing_tests' not found"), "{e}");
    // Ids only the IDE could resolve: the fake answers like a headless backend.
    let e = h
        .err("debug_test", json!({"test_id": "com.acme.FooTest#bar"}))
        .await;
    assert!(
        e.contains("cannot run test 'com.acme.FooTest#bar' headless") && e.contains("in the IDE"),
        "{e}"
    );
    assert!(
        h.fake
            .calls()
            .iter()
            .any(|c| c.ends_with("com.acme.FooTest#bar")),
        "the IDE op is tried first"
    );
    assert!(
        !h.fake.calls().iter().any(|c| c.starts_with("launch")),
        "{:?}",
        h.fake.calls()
    );
}

#[tokio::test]
async fn debug_test_runs_a_go_test_id_as_go_test_of_its_package() {
    let h = H::new(brave());
    std::fs::create_dir_all(h.root.join("calc")).unwrap();
    std::fs::write(h.root.join("calc/calc_test.go"), "package calc\n").unwrap();
    // The fake runs its one program: a breakpoint ends the wait for the first pause at once.
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 10}),
    )
    .await;
    // A subtest: each level anchored, regexp characters of the case name escaped.
    let r = h
        .ok(
            "debug_test",
            json!({"test_id": "calc/calc_test.go::TestTable/neg(1)"}),
        )
        .await;
    assert_eq!(
        (r["framework"].as_str(), r["state"].as_str()),
        (Some("go"), Some("paused")),
        "{r:#}"
    );
    let launch = format!(
        "launch go test '{}' -run '^TestTable$/^neg\\(1\\)$'",
        h.root.join("calc").display()
    );
    assert!(
        h.fake.calls().contains(&launch),
        "{launch} not among {:?}",
        h.fake.calls()
    );
    let e = h
        .err("debug_test", json!({"test_id": "calc/calc_test.go::"}))
        .await;
    assert!(
        e.contains("names no test") && e.contains("x_test.go::TestName"),
        "{e}"
    );
    let e = h
        .err(
            "debug_test",
            json!({"test_id": "calc/other_test.go::TestAdd"}),
        )
        .await;
    assert!(
        e.starts_with("unknown test id 'calc/other_test.go::TestAdd'") && e.contains("not found"),
        "{e}"
    );
}
