//! The tool list, output schemas and input validation as an agent meets them.

use super::*;

// ---- registry and validation ---------------------------------------------------------------

#[tokio::test]
async fn lists_the_expected_tools_and_server_info() {
    let h = H::new(Config::default());
    let names: Vec<String> = h
        .engine
        .tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    // One list of the served tools for every client test: tests/clients/expected_tools.json.
    let listed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/clients/expected_tools.json"
    ))
    .unwrap();
    let mut expected: Vec<String> = serde_json::from_str::<Value>(&listed).unwrap()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected);
    for n in [
        "get_debug_session_status",
        "evaluate_code_fragment",
        "get_source_context",
        "wait_for_pause",
    ] {
        assert!(names.contains(&n.to_string()), "{n}");
    }
    let info = rmcp::ServerHandler::get_info(&h.engine.handler());
    assert_eq!(info.server_info.name, "debugger-mcp");
    assert!(info.capabilities.tools.is_some());
    // The instructions lead with the one-call path (issue 26).
    let instructions = info.instructions.unwrap();
    assert!(
        instructions.starts_with("Debugger MCP drives a real debugger. The first answer takes one call:\n- A program: start_debug_session")
            && instructions.contains("\n- A running service, to read and leave: capture {attach"),
        "{instructions}"
    );
}

/// Results are checked against their tool's output schema on every call (tools_common); the
/// schema is strict enough for that to mean something: an undeclared field, a missing required
/// field or a wrongly typed one is rejected.
#[tokio::test]
async fn output_schemas_reject_undeclared_missing_and_mistyped_fields() {
    let h = H::new(brave());
    let paused = h.paused_at("main.py", 8).await;
    let bp = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 9}))
        .await;
    for (tool, result) in [("set_breakpoint", bp), ("start_debug_session", paused)] {
        let schema = h.engine.output_schema(tool).unwrap();
        let v = jsonschema::validator_for(&schema).unwrap();
        assert!(v.is_valid(&result), "{tool}: {result:#}");
        let mut extra = result.clone();
        extra["undeclared"] = json!(1);
        assert!(!v.is_valid(&extra), "{tool}: an undeclared field passed");
        let mut missing = result.clone();
        let m = missing.as_object_mut().unwrap();
        m.remove("session_id").or_else(|| m.remove("id")).unwrap();
        assert!(
            !v.is_valid(&missing),
            "{tool}: a missing required field passed"
        );
        let mut mistyped = result.clone();
        let key = if tool == "set_breakpoint" {
            "line"
        } else {
            "state"
        };
        mistyped[key] = json!({"x": 1});
        assert!(!v.is_valid(&mistyped), "{tool}: a mistyped field passed");
    }
    // Nested shapes are strict too: a stop result's location and variables.
    let schema = h.engine.output_schema("start_debug_session").unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let started = h.ok("wait_for_pause", json!({})).await;
    let mut wrapped = json!({"session_id": "s", "name": "n", "state": "paused", "message": "m", "pause": started});
    assert!(v.is_valid(&wrapped), "{wrapped:#}");
    wrapped["pause"]["location"]["column"] = json!(3);
    assert!(
        !v.is_valid(&wrapped),
        "an undeclared field in a nested object passed"
    );
}

#[tokio::test]
async fn bad_input_names_field_expected_and_received_and_runs_nothing() {
    let h = H::new(Config::default());
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": "abc"}),
        )
        .await;
    assert!(
        e.contains("'line'") && e.contains("integer") && e.contains("\"abc\""),
        "{e}"
    );
    let e = h.err("set_breakpoint", json!({"line": 3})).await;
    assert!(e.contains("'file_path'") && e.contains("required"), "{e}");
    let e = h
        .err("set_breakpoint", json!({"file_path": "main.py", "line": 0}))
        .await;
    assert!(
        e.contains("'line'") && e.contains(">= 1") && e.contains("0"),
        "{e}"
    );
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 3, "suspend_policy": "sometimes"}),
        )
        .await;
    assert!(
        e.contains("suspend_policy") && e.contains("\"thread\"") && e.contains("sometimes"),
        "{e}"
    );
    let e = h.err("resume", json!({"sesion_id": "s1"})).await;
    assert!(
        e.contains("'sesion_id'") && e.contains("unknown parameter") && e.contains("session_id"),
        "{e}"
    );
    let e = h.err("wait_for_pause", json!({"timeout_ms": 60000})).await;
    assert!(e.contains("'timeout_ms'") && e.contains("<= 55000"), "{e}");
    assert!(
        h.fake.calls().is_empty(),
        "validation must happen before any backend call: {:?}",
        h.fake.calls()
    );
    let e = h.err("no_such_tool", json!({})).await;
    assert!(e.contains("unknown tool"), "{e}");
}

/// Issue 28 item 6: the string limits validation enforces (1,024 / 4,096 / 16,384 / 65,536
/// characters) are stated: `maxLength` on every string parameter of each tool's full schema
/// (what `help` shows), and by kind in the instructions for the listing, which leaves them out.
#[tokio::test]
async fn string_limits_are_stated_as_enforced() {
    let h = H::new(Config::default());
    let instructions = rmcp::ServerHandler::get_info(&h.engine.handler())
        .instructions
        .unwrap();
    let mut stated = 0;
    for listed in h.engine.tools().iter() {
        let name = listed.name.to_string();
        let full = h.engine.tool(&name).unwrap();
        for (prop, p) in full.input_schema["properties"].as_object().unwrap() {
            let s = if p["type"] == "array" { &p["items"] } else { p };
            if s["type"] != "string" {
                continue;
            }
            let Some(limit) = s["maxLength"].as_u64() else {
                panic!("{name}.{prop}: no maxLength in {p}")
            };
            stated += 1;
            let words = if limit == 1024 {
                "at most 1024 characters".to_string()
            } else {
                format!(" {limit}")
            };
            assert!(instructions.contains(&words), "instructions lack {limit}");
            let value = |n: usize| {
                let x = Value::String("x".repeat(n));
                json!({ prop.as_str(): if p["type"] == "array" { json!([x]) } else { x } })
            };
            let refused = format!("'{prop}");
            let e = h.err(&name, value(limit as usize + 1)).await;
            assert!(
                e.contains(&refused) && e.contains(&format!("at most {limit} characters")),
                "{name}.{prop} at {} characters: {}",
                limit + 1,
                &e[..e.len().min(200)]
            );
            // The limit itself passes validation (the call may fail for other reasons).
            let (_, v) = h.raw(&name, value(limit as usize)).await;
            assert!(
                !v.to_string()
                    .contains(&format!("at most {limit} characters")),
                "{name}.{prop}: {limit} characters refused"
            );
        }
    }
    assert!(stated > 100, "{stated} string parameters");
}
