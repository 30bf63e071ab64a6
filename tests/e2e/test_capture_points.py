"""Issue 26 end to end: what a capture (and a start's `breakpoints`) says of a point that never
bound or never hit, and of expressions a point's frame does not have, and debug_test naming the
other sessions still paused; through `debugger-mcp serve` on real gdb and debugpy. Line numbers
are those of projects/c/prog.c, projects/c/calls.c and projects/py/app.py."""

from __future__ import annotations


def test_capture_says_why_a_point_never_bound_and_names_out_of_scope_expressions_once_gdb(c):
    """prog.c:20 is blank between two functions and calls.c is not built into ./prog: gdb keeps
    both pending. Point 4 binds but its condition never holds. `v` is square's, not sum_squares's: gdb answers "No symbol" at every row."""
    _, m = c
    r = m.ok("capture", {
        "run_configuration": "prog (gdb)",
        "points": [
            {"file_path": "prog.c", "line": 20}, {"file_path": "prog.c", "line": 24}, {"file_path": "calls.c", "line": 19},
            {"file_path": "prog.c", "line": 17, "condition": "v == 99"},
        ],
        "expressions": ["v", "acc"],
        "max_hits": 6,
    })
    assert r["end"] == "exited" and [h["point"] for h in r["hits"]] == [2, 2, 2, 2], r
    msg = r["message"]
    assert ("point 1 (prog.c:20): not bound (the debugger says: pending); line 20 is blank; "
            "lines with code nearby: 19 (`}`), 21 (`static int sum_squares(int n) {`)") in msg, msg
    assert "point 3 (calls.c:19): not bound (the debugger says: pending); line 19 has code: is calls.c built into the program?" in msg, msg
    # Bound during the run (gdb says "pending" again once it ended) and never true.
    assert "point 4 (prog.c:17): never hit (its condition `v == 99` never held)" in msg, msg
    assert "point 2" not in msg, msg
    # Said once for the point, not at each row.
    assert "`v`: not in scope at prog.c:24 (4 rows)" in msg, msg
    assert [h["values"][0].get("error") for h in r["hits"]] == ["not in scope"] * 4, r["hits"]
    assert [h["values"][1]["value"] for h in r["hits"]] == ["0", "1", "5", "14"], r["hits"]
    text = m.last_text
    assert "No symbol" not in text and "  1 | - | 0" in text, text


def test_a_start_says_which_of_its_breakpoints_never_bound_gdb(c):
    _, m = c
    r = m.ok("start_debug_session", {
        "run_configuration": "prog (gdb)",
        "breakpoints": [{"file_path": "prog.c", "line": 24}, {"file_path": "calls.c", "line": 19}],
    })
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == 24, r
    assert "(calls.c:19): not bound (the debugger says: pending); line 19 has code: is calls.c built into the program?" in r["message"], r
    assert "(prog.c:24)" not in r["message"], r
    assert "calls.c:19): not bound" in m.last_text, m.last_text


def test_capture_on_debugpy_names_each_points_missing_names_once_and_the_point_not_hit(py):
    """`base` is price's, `acc` total's: each is said once for the point that lacks it."""
    _, m = py
    r = m.ok("capture", {
        "command": "python3 app.py",
        "points": [{"file_path": "app.py", "line": 13}, {"file_path": "app.py", "line": 19}, {"file_path": "tokenizer.py", "line": 33}],
        "expressions": ["base", "acc"],
        "max_hits": 4,
    })
    assert r["end"] == "hits" and [h["point"] for h in r["hits"]] == [2, 1, 2, 1], r
    msg = r["message"]
    assert "`acc`: not in scope at app.py:13 (2 rows)" in msg and "`base`: not in scope at app.py:19 (2 rows)" in msg, msg
    # app.py never runs tokenizer.py: its point is bound, and not hit.
    assert "point 3 (tokenizer.py:33): not hit" in msg and "point 1" not in msg, msg
    assert "is not defined" not in m.last_text, m.last_text


def test_debug_test_names_the_session_still_paused(pi):
    _, m = pi
    bp = [{"file_path": "orders.py", "line": 15}]
    a = m.ok("debug_test", {"test_id": "test_orders.py::test_total", "breakpoints": bp})
    assert a["state"] == "paused" and "also" not in a, a
    b = m.ok("debug_test", {"test_id": "test_orders.py::test_total", "breakpoints": bp})
    s1, s2 = a["session_id"], b["session_id"]
    assert b["state"] == "paused" and s1 != s2, b
    assert b["also"].startswith(f"still paused: {s1} (") and b["also"].endswith(f"; calls without session_id use {s2}"), b
    assert f"still paused: {s1} (" in m.last_text, m.last_text
