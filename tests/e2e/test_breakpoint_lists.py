"""Issue 26, what agents asked for last measurement, end to end through `debugger-mcp serve` and
the Python MCP SDK on real debugpy and gdb:

- several breakpoints in one set_breakpoint call after the start (`breakpoints: [...]`, the items
  start_debug_session takes): one result row per item; a bad item fails alone, named by index;
- "break only after breakpoint X was hit" (`after`, IntelliJ's "Disable until hit the following
  breakpoint"): a breakpoint in g waits while g runs before f's line is hit, then stops as usual;
  a new session waits again.

Line numbers are those of projects/py/app.py and projects/c/prog.c.
"""

from __future__ import annotations

from conftest import LONG, Mcp, Server, compile_c, gdb_env_check


def values(stop: dict) -> dict:
    return {v["name"]: v.get("error") or v["value"] for v in stop["values"]}


def test_a_list_after_the_start_sets_each_item_and_a_bad_one_fails_alone_debugpy(py):
    _, m = py
    r = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 29}]})
    assert r["pause"]["location"]["line"] == 29, r
    s = m.ok("set_breakpoint", {"breakpoints": [
        {"file_path": "app.py", "line": 12, "condition": "item['price'] == 2"},
        {"file_path": "app.py"},
        {"function": "total"},
    ]})
    rows = s["breakpoints"]
    assert [r.get("index") for r in rows] == [None, 1, None], s
    assert rows[0]["line"] == 12 and rows[0]["verified"] and rows[0]["condition"] == "item['price'] == 2", s
    assert "line" in rows[1]["error"], s
    assert rows[2]["function"] == "total" and rows[2]["line"] == 17, s
    assert "2 of 3 set; breakpoints[1] failed" in s["message"], s
    assert "breakpoints[1] failed:" in m.last_text and "app.py:12" in m.last_text, m.last_text
    # Both are set in the running session: total's first line, then price's second call.
    n = m.ok("resume", {"evaluate": ["order.oid"]})
    assert n["location"]["line"] == 17 and values(n) == {"order.oid": "7"}, n
    n = m.ok("resume", {"evaluate": ["item['name']"]})
    assert n["location"]["line"] == 12 and values(n) == {"item['name']": "'item1'"}, n
    assert sorted(b["line"] for b in m.ok("list_breakpoints")["breakpoints"]) == [12, 17, 29]


def test_a_breakpoint_after_another_stops_only_once_that_one_was_hit_debugpy(py):
    _, m = py
    # Line 19 runs before each call of price (line 12): waiting for price's third call, its
    # first stop is on the fourth item, not the first.
    r = m.ok("start_debug_session", {
        "command": "python3 app.py",
        "breakpoints": [
            {"file_path": "app.py", "line": 12, "condition": "item['price'] == 3"},
            {"file_path": "app.py", "line": 19, "after": 0},
        ],
        "evaluate": ["item['name']"],
    })
    p = r["pause"]
    assert p["location"]["line"] == 12 and values(p) == {"item['name']": "'item2'"}, r
    listed = {b["line"]: b for b in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[19]["after"] == listed[12]["id"] and "waiting" not in listed[19], listed
    n = m.ok("resume", {"evaluate": ["item['name']"]})
    assert n["location"]["line"] == 19 and values(n) == {"item['name']": "'item3'"}, n
    n = m.ok("resume", {"evaluate": ["item['name']"]})
    assert n["location"]["line"] == 19 and values(n) == {"item['name']": "'item4'"}, n
    m.ok("stop_debug_session", {"keep_breakpoints": True})

    # A new session waits again (hits are per session), and the listing says so.
    listed = {b["line"]: b for b in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[19]["waiting"] is True and listed[19]["enabled"] is True, listed
    assert f"waiting for {listed[12]['id']}" in m.last_text, m.last_text
    r = m.ok("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True, "timeout_ms": LONG, "evaluate": ["item['name']"]})
    assert r["pause"]["location"]["line"] == 12, r

    # Its master removed, it stops at every hit, and the removal says so.
    rm = m.ok("remove_breakpoint", {"breakpoint_id": listed[12]["id"]})
    assert f"breakpoint {listed[19]['id']} waited for it: now it stops at every hit" in rm["message"], rm
    n = m.ok("resume", {"evaluate": ["item['name']"]})
    assert n["location"]["line"] == 19 and values(n) == {"item['name']": "'item3'"}, n


def test_after_and_lists_on_gdb():
    gdb_env_check()
    server = Server("c", "brave_mode = true\n")
    try:
        compile_c(server.project)
        m = Mcp(server.url)
        # Line 24 calls square (line 17) for i = 1..4; waiting for square(2), line 24 first
        # stops at i = 3.
        r = m.ok("start_debug_session", {
            "command": "./prog", "adapter": "gdb",
            "breakpoints": [{"file_path": "prog.c", "line": 34}],
        })
        assert r["pause"]["location"]["line"] == 34, r
        s = m.ok("set_breakpoint", {"breakpoints": [
            {"file_path": "prog.c", "line": 17, "condition": "v == 2"},
            {"file_path": "prog.c", "line": 24, "after": 0},
            {"file_path": "prog.c", "line": 24, "after": 7},
        ]})
        rows = s["breakpoints"]
        assert rows[1]["after"] == rows[0]["id"] and rows[1]["waiting"] is True, s
        assert rows[2]["index"] == 2 and "not an earlier item" in rows[2]["error"], s
        n = m.ok("resume", {"evaluate": ["v"]})
        assert n["location"]["line"] == 17 and values(n) == {"v": "2"}, n
        n = m.ok("resume", {"evaluate": ["i", "acc"]})
        assert n["location"]["line"] == 24 and values(n) == {"i": "3", "acc": "5"}, n
        n = m.ok("resume", {"evaluate": ["i"]})
        assert n["location"]["line"] == 24 and values(n) == {"i": "4"}, n
        m.close()
    finally:
        server.stop()
