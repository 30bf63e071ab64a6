//! Breakpoints: pending then bound, updated in place, removed, toggled, temporary.

use super::*;

// ---- breakpoints ---------------------------------------------------------------------------

#[tokio::test]
async fn breakpoint_is_pending_then_binds_moved_with_source_text() {
    let h = H::new(brave());
    let bp = h
        .ok(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 14}),
        )
        .await;
    assert_eq!(bp["verified"], false);
    // Line 14 is blank: where it will bind is said now, from the source (issue 15).
    let msg = bp["message"].as_str().unwrap();
    assert!(msg.starts_with("pending: binds when a session starts; line 14 is blank: the debugger will bind it to a nearby line with code"), "{bp}");
    assert_eq!(bp["owner"], "agent");
    // A session binds it, moving it from the blank line 14 to the next code line (16).
    let started = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true}),
        )
        .await;
    assert_eq!(started["pause"]["location"]["line"], 16, "{started:#}");
    assert_eq!(started["pause"]["reason"], "breakpoint");
    assert!(
        started["message"].as_str().unwrap().contains(&format!(
            "breakpoint {} bound at line 16, not 14",
            bp["id"].as_str().unwrap()
        )),
        "{started:#}"
    );
    let list = h.ok("list_breakpoints", json!({})).await;
    let b = &list["breakpoints"][0];
    assert_eq!(
        (
            b["verified"].clone(),
            b["line"].clone(),
            b["requested_line"].clone()
        ),
        (json!(true), json!(16), json!(14))
    );
    assert_eq!(b["hit_count"], 1);
    // With a live session the move is reported at once, with the bound line's text.
    let moved = h
        .ok(
            "set_breakpoint",
            json!({"file_path": h.path("main.py"), "line": 2}),
        )
        .await;
    assert_eq!(moved["line"], 3);
    assert_eq!(moved["source_line"], "def main(limit):");
    assert!(
        moved["moved"]
            .as_str()
            .unwrap()
            .contains("moved it from line 2 to line 3"),
        "{moved}"
    );
}

#[tokio::test]
async fn setting_the_same_line_updates_instead_of_duplicating() {
    let h = H::new(Config::default());
    let a = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    let b = h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 8, "condition": "total > 1", "log_message": "t={total}"})).await;
    assert_eq!(a["id"], b["id"]);
    assert_eq!(b["status"], "updated");
    assert_eq!(b["condition"], "total > 1");
    assert_eq!(b["log_message"], "t={total}");
    assert!(
        h.fake
            .calls()
            .iter()
            .any(|c| c.starts_with("update_breakpoint"))
    );
    assert_eq!(h.ok("list_breakpoints", json!({})).await["total"], 1);
}

#[tokio::test]
async fn remove_by_id_file_line_all_agent_and_idempotent() {
    let h = H::new(Config::default());
    let root = h.root.to_string_lossy().into_owned();
    // A breakpoint the user set in the IDE (not through a tool).
    let user = h
        .fake
        .add_line_breakpoint(
            &root,
            LineBreakpointSpec {
                file: h.path("util.py"),
                line: 2,
                enabled: true,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let a = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    h.ok("set_breakpoint", json!({"file_path": "main.py", "line": 9}))
        .await;
    h.ok(
        "set_breakpoint",
        json!({"file_path": "main.py", "line": 12}),
    )
    .await;
    let users = h.ok("list_breakpoints", json!({"owner": "user"})).await;
    assert_eq!(users["breakpoints"][0]["id"], json!(user.id));
    let r = h
        .ok("remove_breakpoint", json!({"breakpoint_id": a["id"]}))
        .await;
    assert_eq!(
        (r["removed"].clone(), r["ids"].clone()),
        (json!(1), json!([a["id"]]))
    );
    let r = h
        .ok(
            "remove_breakpoint",
            json!({"file_path": "main.py", "line": 9}),
        )
        .await;
    assert_eq!(r["removed"], 1);
    let r = h
        .ok("remove_breakpoint", json!({"breakpoint_id": "999"}))
        .await;
    assert_eq!(
        (r["removed"].clone(), r["ids"].clone()),
        (json!(0), json!([]))
    );
    assert!(r["message"].as_str().unwrap().contains("nothing to remove"));
    let r = h
        .ok("remove_breakpoint", json!({"all_agent_breakpoints": true}))
        .await;
    assert_eq!(r["removed"], 1);
    let left = h.ok("list_breakpoints", json!({})).await;
    assert_eq!(left["total"], 1);
    assert_eq!(left["breakpoints"][0]["owner"], "user");
    let e = h.err("remove_breakpoint", json!({})).await;
    assert!(e.contains("exactly one of"), "{e}");
}

#[tokio::test]
async fn set_breakpoint_updates_by_id_and_sets_exception_breakpoints() {
    // What toggle_breakpoint and set_exception_breakpoint did, through set_breakpoint (issue 26
    // item 5: two tools fewer in every agent's listing).
    let h = H::new(Config::default());
    let bp = h
        .ok("set_breakpoint", json!({"file_path": "main.py", "line": 8}))
        .await;
    let t = h
        .ok(
            "set_breakpoint",
            json!({"breakpoint_id": bp["id"], "enabled": false, "condition": "i > 2"}),
        )
        .await;
    assert_eq!(
        (
            t["id"].clone(),
            t["enabled"].clone(),
            t["condition"].clone()
        ),
        (bp["id"].clone(), json!(false), json!("i > 2")),
        "{t}"
    );
    let t = h
        .ok("set_breakpoint", json!({"breakpoint_id": bp["id"]}))
        .await;
    assert_eq!(t["enabled"], true);
    let e = h
        .err("set_breakpoint", json!({"breakpoint_id": "77"}))
        .await;
    assert!(
        e.contains("unknown breakpoint id '77'") && e.contains(bp["id"].as_str().unwrap()),
        "{e}"
    );
    // A field the update does not take is named, and nothing changes.
    let e = h
        .err(
            "set_breakpoint",
            json!({"breakpoint_id": bp["id"], "line": 9, "enabled": false}),
        )
        .await;
    assert!(e.contains("without line"), "{e}");
    let x = h
        .ok(
            "set_breakpoint",
            json!({"exception_class": "uncaught", "caught": false}),
        )
        .await;
    assert_eq!(
        (x["type"].clone(), x["caught"].clone(), x["owner"].clone()),
        (json!("exception"), json!(false), json!("agent"))
    );
    let e = h
        .err(
            "set_breakpoint",
            json!({"exception_class": "ValueError", "file_path": "main.py", "line": 8}),
        )
        .await;
    assert!(e.contains("give exception_class without file_path"), "{e}");
    assert_eq!(
        h.ok("list_breakpoints", json!({"enabled_only": true}))
            .await["total"],
        2
    );
}

#[tokio::test]
async fn temporary_breakpoint_is_removed_after_its_first_hit() {
    let h = H::new(brave());
    h.ok(
        "set_breakpoint",
        json!({"file_path": "util.py", "line": 2, "temporary": true}),
    )
    .await;
    let s = h
        .ok(
            "start_debug_session",
            json!({"command": "python3 main.py", "wait_for_pause": true}),
        )
        .await;
    assert_eq!(s["pause"]["location"]["line"], 2);
    for _ in 0..100 {
        if h.ok("list_breakpoints", json!({})).await["total"] == 0 {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("temporary breakpoint still there");
}

// ---- issue 26: several at once after the start; `after` ------------------------------------

#[tokio::test]
async fn a_list_sets_each_item_and_a_bad_item_fails_alone_named_by_index() {
    let h = H::new(brave());
    h.paused_at("main.py", 8).await;
    let (err, v) = h
        .raw(
            "set_breakpoint",
            json!({"breakpoints": [
                {"file_path": "util.py", "line": 2},
                {"file_path": "main.py"},
                {"file_path": "nope.py", "line": 3},
                {"function": "main", "condition": "limit > 0"},
            ]}),
        )
        .await;
    assert!(!err, "{v}");
    let rows = v["breakpoints"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "{v:#}");
    assert_eq!(rows[0]["line"], 2);
    assert_eq!(rows[1]["index"], 1);
    assert!(
        rows[1]["error"]
            .as_str()
            .unwrap()
            .contains("file_path with line"),
        "{v:#}"
    );
    assert_eq!(rows[2]["index"], 2);
    assert!(rows[3]["id"].is_string(), "{v:#}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("2 of 4 set; breakpoints[1], breakpoints[2] failed"),
        "{v:#}"
    );
    let listed = h.ok("list_breakpoints", json!({})).await;
    assert_eq!(listed["total"], 3, "{listed:#}");
    // The text: one line per item, the failed ones by index.
    let r = h
        .engine
        .call_tool(
            "set_breakpoint",
            json!({"breakpoints": [{"file_path": "main.py", "line": 12}, {"line": 3}]}),
            &h.ctx,
        )
        .await;
    let text = r.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains("breakpoints[1] failed: give file_path with line"),
        "{text}"
    );
    assert!(text.contains("at main.py:12"), "{text}");
    // The list stands alone; all failing is an error.
    let e = h
        .err(
            "set_breakpoint",
            json!({"breakpoints": [{"file_path": "main.py", "line": 9}], "condition": "x"}),
        )
        .await;
    assert!(
        e.contains("give breakpoints alone, not with condition"),
        "{e}"
    );
    let e = h
        .err("set_breakpoint", json!({"breakpoints": [{"line": 9}]}))
        .await;
    assert!(e.contains("no breakpoint set: breakpoints[0]:"), "{e}");
    // A misspelt key of an item is refused by name, not dropped.
    let e = h
        .err(
            "set_breakpoint",
            json!({"breakpoints": [{"file_path": "main.py", "line": 9, "conditon": "x"}]}),
        )
        .await;
    assert!(e.contains("conditon"), "{e}");
}

#[tokio::test]
async fn a_breakpoint_after_another_stops_only_once_that_one_was_hit() {
    let h = H::new(brave());
    // main.py:11 runs before util.py:2 on each of three iterations; waiting for util.py:2, it
    // first stops on the second iteration.
    let set = h
        .ok(
            "set_breakpoint",
            json!({"breakpoints": [
                {"file_path": "util.py", "line": 2},
                {"file_path": "main.py", "line": 11, "after": 0},
            ]}),
        )
        .await;
    let master = set["breakpoints"][0]["id"].as_str().unwrap().to_string();
    let slave = &set["breakpoints"][1];
    assert_eq!(slave["after"], master.as_str(), "{set:#}");
    assert_eq!(slave["waiting"], true);
    assert_eq!(
        slave["enabled"], true,
        "as asked, though the debugger holds it back"
    );
    let started = h
        .ok(
            "start_debug_session",
            json!({"run_configuration": "main", "wait_for_pause": true, "timeout_ms": 5000, "evaluate": ["i"]}),
        )
        .await;
    assert_eq!(
        started["pause"]["location"]["file"],
        h.path("util.py"),
        "{started:#}"
    );
    let next = h.ok("resume", json!({"evaluate": ["i"]})).await;
    assert_eq!(next["location"]["line"], 11, "{next:#}");
    assert_eq!(next["values"][0]["value"], "2", "{next:#}");
    let listed = h.ok("list_breakpoints", json!({})).await;
    let s = listed["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["after"].is_string())
        .unwrap()
        .clone();
    assert!(s.get("waiting").is_none(), "{s}");
    assert_eq!(s["hit_count"], 1);
    // A new session waits again.
    h.ok("stop_debug_session", json!({"keep_breakpoints": true}))
        .await;
    let listed = h.ok("list_breakpoints", json!({})).await;
    assert!(
        listed.to_string().contains("\"waiting\":true"),
        "{listed:#}"
    );
    // Removing the master says the other now stops at every hit.
    let removed = h
        .ok("remove_breakpoint", json!({"breakpoint_id": master}))
        .await;
    assert!(
        removed["message"]
            .as_str()
            .unwrap()
            .contains("waited for it: now it stops at every hit"),
        "{removed:#}"
    );
    let listed = h.ok("list_breakpoints", json!({})).await;
    let b = &listed["breakpoints"][0];
    assert!(b.get("after").is_none(), "{b}");
    assert!(
        b["note"].as_str().unwrap().contains("which was removed"),
        "{b}"
    );
    assert_eq!(b["enabled"], true);
}

#[tokio::test]
async fn after_names_an_existing_breakpoint_that_stops() {
    let h = H::new(brave());
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 11, "after": "99"}),
        )
        .await;
    assert!(e.contains("field 'after': no breakpoint '99'"), "{e}");
    let log = h
        .ok(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 9, "log_message": "x"}),
        )
        .await;
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 11, "after": log["id"]}),
        )
        .await;
    assert!(e.contains("logs without stopping"), "{e}");
    let e = h
        .err(
            "set_breakpoint",
            json!({"file_path": "main.py", "line": 9, "after": log["id"]}),
        )
        .await;
    assert!(e.contains("is this breakpoint"), "{e}");
    let e = h
        .err(
            "start_debug_session",
            json!({"run_configuration": "main", "breakpoints": [{"file_path": "main.py", "line": 11, "after": 1}, {"file_path": "util.py", "line": 2}]}),
        )
        .await;
    assert!(
        e.contains("breakpoints[0]: after: 1 is not an earlier item"),
        "{e}"
    );
    let listed = h.ok("list_breakpoints", json!({})).await;
    assert_eq!(
        listed["total"], 1,
        "nothing set by the refused calls: {listed:#}"
    );
}
