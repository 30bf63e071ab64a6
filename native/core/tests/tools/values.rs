//! Stack, threads, variables (ids, truncation, paging, redaction, setting), evaluation and
//! watches.

use super::*;

// ---- stack, threads ----------------------------------------------------------------------

#[tokio::test]
async fn stack_threads_and_frame_selection() {
    let h = H::new(brave());
    h.paused_at("util.py", 3).await;
    let st = h.ok("get_stack_trace", json!({})).await;
    let frames = st["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0]["method"], "add");
    assert_eq!(frames[0]["is_current"], true);
    assert_eq!(frames[3]["is_library"], true);
    let by_name = h
        .ok(
            "get_stack_trace",
            json!({"thread_name": "MainThread", "max_frames": 1}),
        )
        .await;
    assert_eq!(by_name["truncated"], true);
    let e = h
        .err("get_stack_trace", json!({"thread_name": "nope"}))
        .await;
    assert!(e.contains("MainThread"), "{e}");
    let sel = h.ok("select_stack_frame", json!({"frame_index": 1})).await;
    assert_eq!(sel["location"]["method"], "main");
    assert!(h.fake.calls().iter().any(|c| c.starts_with("select_frame")));
    // Variables and evaluation now default to the caller's frame.
    let vars = h.ok("get_variables", json!({})).await;
    assert_eq!(vars["frame_index"], 1);
    assert!(
        vars["variables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "items")
    );
    assert_eq!(
        h.ok("evaluate_expression", json!({"expression": "len(items)"}))
            .await["result"]["value"],
        "3"
    );
    let e = h
        .err("select_stack_frame", json!({"frame_index": 40}))
        .await;
    assert!(e.contains("no frame 40"), "{e}");
    let th = h.ok("list_threads", json!({})).await;
    assert_eq!(th["current_thread"], "1");
    assert_eq!(th["threads"][0]["is_current"], true);
    assert_eq!(th["threads"][1]["is_current"], false);
}

#[tokio::test]
async fn frames_the_debugger_hid_are_named_at_the_gap() {
    let h = H::new(brave());
    h.paused_at("util.py", 3).await;
    // The IDE folds library frames: depths 1-2 are not frames, indexes keep their depths.
    h.fake.set_folded(1, 2);
    let text = |r: &rmcp::model::CallToolResult| {
        r.content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default()
    };
    let st = h.ok("get_stack_trace", json!({})).await;
    let frames = st["frames"].as_array().unwrap();
    let indexes: Vec<u64> = frames
        .iter()
        .map(|f| f["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, [0, 3]);
    assert_eq!(frames[1]["hidden_above"], 2);
    assert!(frames[0].get("hidden_above").is_none());
    assert_eq!(st["hidden"], "library frames folded");
    let r = h
        .engine
        .call_tool("get_stack_trace", json!({}), &h.ctx)
        .await;
    let t = text(&r);
    assert!(
        t.contains("in add\n  … frames 1-2 hidden\n  /usr/lib/python3/runpy.py:86 in _run_code"),
        "{t}"
    );
    assert!(t.contains("\nhidden: library frames folded"), "{t}");
    // Pages count depths: the next page starts after the last shown index.
    let first = h.ok("get_stack_trace", json!({"max_frames": 1})).await;
    assert_eq!(first["next_offset"], 1);
    let next = h.ok("get_stack_trace", json!({"offset": 1})).await;
    assert_eq!(next["frames"][0]["index"], 3);
    assert_eq!(next["frames"][0]["hidden_above"], 2);
    // The status's stack says the same.
    let r = h
        .engine
        .call_tool("get_debug_session_status", json!({}), &h.ctx)
        .await;
    let status = r.structured_content.clone().unwrap();
    assert_eq!(status["stack_summary"][1]["hidden_above"], 2);
    assert_eq!(status["stack_hidden"], "library frames folded");
    assert!(text(&r).contains("  … frames 1-2 hidden\n"), "{}", text(&r));
    // A hidden depth cannot be selected, and the error says why.
    let e = h.err("select_stack_frame", json!({"frame_index": 1})).await;
    assert!(e.contains("frame 1") && e.contains("hidden"), "{e}");
}

// ---- variables ---------------------------------------------------------------------------

#[tokio::test]
async fn variables_have_ids_truncation_paging_and_go_stale_on_resume() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let v = h.ok("get_variables", json!({"depth": 2})).await;
    let vars = &v["variables"];
    let notes = var(vars, "notes");
    assert_eq!(notes["truncated"], true);
    assert_eq!(notes["value_length"], 500); // the string's 500 x's, not its quotes
    assert!(notes["value"].as_str().unwrap().ends_with('…'));
    let numbers = var(vars, "numbers");
    assert_eq!(numbers["children"].as_array().unwrap().len(), 20);
    assert_eq!(
        (numbers["truncated"].clone(), numbers["total"].clone()),
        (json!(true), json!(50))
    );
    let limit = var(vars, "limit");
    assert_eq!(limit["type"], "int");
    let args = h.ok("get_variables", json!({"scope": "arguments"})).await;
    assert_eq!(args["variables"].as_array().unwrap().len(), 1);
    // Paging by id.
    let page = h
        .ok(
            "expand_variable",
            json!({"variable_id": numbers["id"], "offset": 40, "limit": 20}),
        )
        .await;
    assert_eq!(page["children"].as_array().unwrap().len(), 10);
    // The last page is not truncated; a default-false flag is omitted from the result.
    assert_eq!(
        (page["total"].clone(), page.get("truncated")),
        (json!(50), None)
    );
    assert_eq!(page["children"][0]["value"], "40");
    // By path.
    let addr = h
        .ok("expand_variable", json!({"path": "user.address"}))
        .await;
    assert_eq!(var(&addr["children"], "city")["value"], "'London'");
    let e = h.err("expand_variable", json!({"path": "user.nope"})).await;
    assert!(e.contains("'user' has no child 'nope'"), "{e}");
    let e = h.err("expand_variable", json!({"path": "limit.x"})).await;
    assert!(e.contains("'limit' has no children"), "{e}");
    let e = h
        .err("expand_variable", json!({"variable_id": "v9999"}))
        .await;
    assert!(e.contains("unknown variable id 'v9999'"), "{e}");
    // After a step the old ids are stale, and say so.
    h.ok("step_over", json!({})).await;
    let e = h
        .err("expand_variable", json!({"variable_id": numbers["id"]}))
        .await;
    assert_eq!(
        e,
        format!(
            "value id {} is stale: the program resumed since it was read; call get_variables again",
            numbers["id"].as_str().unwrap()
        )
    );
}

#[tokio::test]
async fn secrets_are_redacted_unless_disabled() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let v = h.ok("get_variables", json!({"depth": 2})).await;
    let config = var(&v["variables"], "config");
    assert!(
        !config["value"].as_str().unwrap().contains("sk-123"),
        "{config}"
    );
    assert_eq!(
        var(&config["children"], "'api_key'")["value"],
        "<redacted:api_key>"
    );
    assert_eq!(var(&config["children"], "'host'")["value"], "'localhost'");
    let ev = h
        .ok(
            "evaluate_expression",
            json!({"expression": "config['api_key']"}),
        )
        .await;
    assert_eq!(ev["result"]["value"], "<redacted:api_key>");
    let mut cfg = h.engine.config();
    cfg.redaction.enabled = false;
    h.engine.set_config(cfg);
    let ev = h
        .ok(
            "evaluate_expression",
            json!({"expression": "config['api_key']"}),
        )
        .await;
    assert_eq!(ev["result"]["value"], "'sk-123'");
}

#[tokio::test]
async fn set_variable_needs_confirmation_then_changes_the_value() {
    let h = H::new(Config::default());
    h.fake.set_confirm(true, true); // start the session through the IDE dialog
    h.paused_at("main.py", 9).await;
    h.fake.set_confirm(false, false);
    let v = h.ok("get_variables", json!({})).await;
    let total = var(&v["variables"], "total")["id"].clone();
    let e = h
        .err(
            "set_variable",
            json!({"variable_id": total, "new_value": "100"}),
        )
        .await;
    assert!(e.contains("brave_mode"), "{e}");
    let mut cfg = h.engine.config();
    cfg.brave_mode = true;
    h.engine.set_config(cfg);
    let r = h
        .ok(
            "set_variable",
            json!({"variable_id": total, "new_value": "100"}),
        )
        .await;
    assert_eq!(r["variable"]["value"], "100");
    let r = h
        .ok(
            "set_variable",
            json!({"path": "user.name", "new_value": "'bob'"}),
        )
        .await;
    assert_eq!(r["message"], "user.name is now 'bob'");
    let v = h.ok("get_variables", json!({})).await;
    assert_eq!(var(&v["variables"], "total")["value"], "100");
    assert!(
        var(&v["variables"], "user")["value"]
            .as_str()
            .unwrap()
            .contains("'bob'")
    );
    let e = h
        .err(
            "set_variable",
            json!({"path": "total", "new_value": "not a literal"}),
        )
        .await;
    assert!(e.contains("setting the value failed"), "{e}");
}

// ---- evaluation and watches --------------------------------------------------------------

#[tokio::test]
async fn evaluation_is_side_effect_free_unless_allowed() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let r = h
        .ok("evaluate_expression", json!({"expression": "total + 41"}))
        .await;
    assert_eq!(
        (r["result"]["value"].clone(), r["result"]["type"].clone()),
        (json!("41"), json!("int"))
    );
    let e = h
        .err("evaluate_expression", json!({"expression": "total = 5"}))
        .await;
    assert!(
        e.contains("assignment '='") && e.contains("allow_side_effects: true"),
        "{e}"
    );
    let e = h
        .err("evaluate_expression", json!({"expression": "missing_name"}))
        .await;
    assert!(e.contains("NameError"), "{e}");
    h.ok(
        "evaluate_expression",
        json!({"expression": "total = 5", "allow_side_effects": true}),
    )
    .await;
    let e = h
        .err(
            "evaluate_code_fragment",
            json!({"code": "total = 1\ntotal + 1"}),
        )
        .await;
    assert!(e.contains("allow_side_effects: true"), "{e}");
    let r = h
        .ok(
            "evaluate_code_fragment",
            json!({"code": "total = 40\ntotal + 2", "allow_side_effects": true}),
        )
        .await;
    assert_eq!(r["result"]["value"], "42");
    assert!(h.fake.calls().iter().any(|c| c.contains("CodeFragment")));
    let r = h
        .ok("evaluate_expression", json!({"expression": "user"}))
        .await;
    let kids = h
        .ok("expand_variable", json!({"variable_id": r["result"]["id"]}))
        .await;
    assert_eq!(kids["children"][0]["name"], "name");
}

#[tokio::test]
async fn state_changing_expressions_are_refused_before_the_backend_sees_them() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let evaluations = || evaluations_sent(&h);
    let before = evaluations();
    for (expr, what) in [
        ("items.append(1)", "call to mutating method 'append'"),
        ("counter = 9", "assignment '='"),
        ("i++", "increment/decrement '++'"),
    ] {
        let e = h
            .err("evaluate_expression", json!({"expression": expr}))
            .await;
        assert!(
            e.contains(&format!(
                "expression `{expr}` looks like it changes the program ({what}"
            )),
            "{e}"
        );
        assert!(e.contains("Pass allow_side_effects: true"), "{e}");
    }
    let e = h.err("watches", json!({"add": "items.pop()"})).await;
    assert!(e.contains("mutating method 'pop'"), "{e}");
    assert_eq!(
        evaluations(),
        before,
        "the backend must not be asked: {:?}",
        h.fake.calls()
    );
    // Pure reads still go through; with allow_side_effects (brave mode here) the change happens.
    let r = h
        .ok("evaluate_expression", json!({"expression": "total + 1"}))
        .await;
    assert_eq!(r["result"]["value"], "1");
    h.ok(
        "evaluate_expression",
        json!({"expression": "total = 7", "allow_side_effects": true}),
    )
    .await;
    assert_eq!(
        h.ok("evaluate_expression", json!({"expression": "total"}))
            .await["result"]["value"],
        "7"
    );
    // The switch in [expression_safety] turns the guard off (the backend then decides).
    let mut cfg = h.engine.config();
    cfg.expression_safety.enabled = false;
    h.engine.set_config(cfg);
    let e = h
        .err("evaluate_expression", json!({"expression": "total = 5"}))
        .await;
    assert!(!e.contains("looks like it changes"), "{e}");
}

/// Issue 26: a Python call's keyword argument (`f(g, node_match=None)`) or a lambda's default is
/// no assignment, so the expression reaches the debugger; in a batch, an expression the guard
/// refuses fails alone, named with why, and the others are answered.
#[tokio::test]
async fn keyword_arguments_pass_the_guard_and_a_refused_expression_fails_only_itself() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let evaluations = || evaluations_sent(&h);
    for expr in [
        "f(g, node_match=None)",
        "sorted(items, key=lambda v: -v, reverse=True)",
        "(lambda x, y=2: x + y)(total)",
    ] {
        let before = evaluations();
        let r = h
            .engine
            .call_tool("evaluate_expression", json!({"expression": expr}), &h.ctx)
            .await;
        let text = r.content[0].as_text().unwrap().text.clone();
        assert!(!text.contains("looks like it changes"), "{expr}: {text}");
        assert_eq!(evaluations(), before + 1, "{expr} must reach the debugger");
    }
    let before = evaluations();
    let r = h
        .ok(
            "evaluate_expression",
            json!({"expressions": ["total + 1", "items.append(1)", "config['host']"]}),
        )
        .await;
    let rows = r["results"].as_array().expect("results");
    assert_eq!(rows.len(), 3, "{r}");
    assert_eq!(
        (rows[0]["name"].clone(), rows[0]["value"].clone()),
        (json!("total + 1"), json!("1"))
    );
    assert_eq!(rows[1]["name"], "items.append(1)");
    let why = rows[1]["error"].as_str().unwrap_or_default();
    assert!(
        why.contains("call to mutating method 'append'")
            && why.contains("allow_side_effects: true"),
        "{r}"
    );
    assert_eq!(rows[2]["value"], "'localhost'", "{r}");
    assert_eq!(evaluations(), before + 2, "the refused one is never sent");
}

#[tokio::test]
async fn watches_are_evaluated_at_every_pause() {
    let h = H::new(brave());
    let w = h.ok("watches", json!({"add": "total"})).await;
    assert_eq!(w["watches"][0]["id"], "w1");
    assert!(w["message"].as_str().unwrap().contains("next pause"), "{w}");
    h.paused_at("main.py", 9).await;
    let r = h.ok("step_over", json!({})).await;
    assert_eq!(r["watches"][0]["value"], "0");
    let step = r["step"].clone();
    // Added at a pause: evaluated at once, and the answer is every watch.
    let bad = h.ok("watches", json!({"add": "nope"})).await;
    assert_eq!(bad["watches"][0]["value"], "0", "{bad}");
    assert!(
        bad["watches"][1]["error"]
            .as_str()
            .unwrap()
            .contains("NameError"),
        "{bad}"
    );
    h.ok("run_to_line", json!({"file_path": "main.py", "line": 12}))
        .await;
    let l = h.ok("watches", json!({})).await;
    assert_eq!(l["watches"][0]["value"], "6");
    assert!(l["watches"][0]["evaluated_at"]["step"].as_u64() > step.as_u64());
    assert_eq!(l["watches"][0]["evaluated_at"]["line"], 12);
    assert!(l.get("message").is_none(), "{l}");
    let r = h.ok("watches", json!({"remove": "w1"})).await;
    assert_eq!(r["message"], "watch w1 removed");
    assert_eq!(r["watches"].as_array().unwrap().len(), 1, "{r}");
    let r = h.ok("watches", json!({"remove": "w1"})).await;
    assert!(
        r["message"].as_str().unwrap().contains("no watch 'w1'")
            && r["message"].as_str().unwrap().contains("w2"),
        "{r}"
    );
    let e = h
        .err("watches", json!({"add": "total", "remove": "w2"}))
        .await;
    assert!(e.contains("add or remove, not both"), "{e}");
    assert_eq!(
        h.ok("watches", json!({})).await["watches"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// How many `evaluate` requests reached the fake debugger.
fn evaluations_sent(h: &H) -> usize {
    h.fake
        .calls()
        .iter()
        .filter(|c| c.starts_with("evaluate"))
        .count()
}

/// Issue 26: a search over a sequence in one expression (`EXPR for VAR in A..B [if COND]`),
/// answered by the core one backend evaluation per element, on every backend.
#[tokio::test]
async fn a_search_over_a_range_is_one_expression() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let value = |r: &Value| {
        r["result"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let before = evaluations_sent(&h);
    let r = h
        .ok(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in 0..len(numbers) if numbers[i] > 46"}),
        )
        .await;
    assert_eq!(
        value(&r),
        "i in 0..50: visited 50, matched 3\ni=47: 47\ni=48: 48\ni=49: 49",
        "{r}"
    );
    // The end once, the condition per element, the expression per match.
    assert_eq!(evaluations_sent(&h), before + 1 + 50 + 3);
    let sent = h.fake.calls();
    assert!(
        sent.iter().any(|c| c.ends_with(" numbers[47] > 46")),
        "{sent:?}"
    );
    // Without a condition the rows bound ends it, saying where to go on.
    let r = h
        .ok(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in 0..100"}),
        )
        .await;
    let v = value(&r);
    assert!(
        v.starts_with("i in 0..100 (rows bound: the first 50 shown; continue with 50..100, or add `if COND`): visited 50, matched 50\ni=0: 0\n"),
        "{v}"
    );
    assert_eq!(v.lines().count(), 51, "{v}");
    // More matches than rows: all are counted, the first 50 shown.
    let v = value(
        &h.ok(
            "evaluate_expression",
            json!({"expression": "i for i in 0..60 if i > 0"}),
        )
        .await,
    );
    assert!(
        v.starts_with("i in 0..60: visited 60, matched 59 (the first 50 shown"),
        "{v}"
    );
    assert_eq!(v.lines().count(), 51, "{v}");
    // An error part-way stops it there with the debugger's words; at the first element the
    // expression is wrong, an error.
    let v = value(
        &h.ok(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in 48..52"}),
        )
        .await,
    );
    assert_eq!(
        v,
        "i in 48..52: visited 3, matched 2; stopped early at i=50: AttributeError: 'list' has no attribute or item '50'\ni=48: 48\ni=49: 49"
    );
    let e = h
        .err(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in 50..52"}),
        )
        .await;
    assert!(e.contains("at i=50: AttributeError"), "{e}");
    // A bound the debugger cannot evaluate, or that is no integer, is named.
    let e = h
        .err(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in 0..missing"}),
        )
        .await;
    assert!(
        e.contains("the range's end `missing` could not be evaluated: NameError"),
        "{e}"
    );
    let e = h
        .err(
            "evaluate_expression",
            json!({"expression": "numbers[i] for i in config..3"}),
        )
        .await;
    assert!(e.contains("the range's start `config` is `{"), "{e}");
    assert!(e.contains("not an integer"), "{e}");
    // The visited bound.
    let v = value(
        &h.ok(
            "evaluate_expression",
            json!({"expression": "i for i in 0..20000 if i < 0"}),
        )
        .await,
    );
    assert_eq!(
        v,
        "i in 0..20000: visited 10,000, matched 0; stopped early at i=10000 (continue with 10000..20000): the bound of 10,000 elements visited"
    );
    // In a batch and in a step's `evaluate`, the same answer.
    let r = h
        .ok(
            "evaluate_expression",
            json!({"expressions": ["total", "numbers[i] for i in 0..50 if numbers[i] == 7"]}),
        )
        .await;
    assert_eq!(
        r["results"][1]["value"], "i in 0..50: visited 50, matched 1\ni=7: 7",
        "{r}"
    );
    let r = h
        .ok(
            "step_over",
            json!({"evaluate": ["numbers[i] for i in 0..3 if numbers[i] == 2"]}),
        )
        .await;
    assert_eq!(
        r["values"][0]["value"], "i in 0..3: visited 3, matched 1\ni=2: 2",
        "{r}"
    );
}

/// The guard checks the search's parts once, before anything runs; a walk is C/C++'s; a
/// comprehension is the language's, sent as written.
#[tokio::test]
async fn a_search_is_guarded_first_and_a_comprehension_is_left_alone() {
    let h = H::new(brave());
    h.paused_at("main.py", 9).await;
    let before = evaluations_sent(&h);
    for (expr, part) in [
        (
            "numbers[i] for i in 0..3 if items.append(i)",
            "the condition",
        ),
        ("items.pop() for i in 0..3", "the expression"),
    ] {
        let e = h
            .err("evaluate_expression", json!({"expression": expr}))
            .await;
        assert!(e.contains("looks like it changes the program"), "{e}");
        assert!(e.contains(part), "{e}");
    }
    // VAR's replacement can make a call of what was none: `items.pop (-1)` is refused before
    // it is sent, naming the element.
    let e = h
        .err(
            "evaluate_expression",
            json!({"expression": "items.pop i for i in -1..0"}),
        )
        .await;
    assert!(
        e.contains("at i=-1: the side-effect guard refused it")
            && e.contains("items.pop (-1)")
            && e.contains("pop"),
        "{e}"
    );
    let e = h
        .err(
            "evaluate_expression",
            json!({"expression": "n.value for n in head, n.next"}),
        )
        .await;
    assert!(e.contains("C/C++") && e.contains("comprehension"), "{e}");
    assert_eq!(evaluations_sent(&h), before, "{:?}", h.fake.calls());
    let comprehension = "[x for x in numbers if x > 47]";
    h.engine
        .call_tool(
            "evaluate_expression",
            json!({"expression": comprehension}),
            &h.ctx,
        )
        .await;
    let sent: Vec<String> = h
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.starts_with("evaluate"))
        .collect();
    assert_eq!(sent.len(), before + 1, "{sent:?}");
    assert!(sent.last().unwrap().ends_with(comprehension), "{sent:?}");
}
