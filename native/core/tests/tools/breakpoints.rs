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
