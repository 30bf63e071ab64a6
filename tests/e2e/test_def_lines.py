"""Issue 26: a point on a Python `def` line (or its decorator) was "never hit" although the
function ran: CPython runs a `def` line once, when it defines the function, never at a call, and
debugpy stops only where a line runs. The server moves such a line to the body's first line and
says so, for capture points, set_breakpoint and run_to_line. projects/py/team.py's `who` runs
twice; its def line once, at import.
"""

from __future__ import annotations

from conftest import LONG, line_of


def lines(project) -> tuple[int, int, int]:
    """team.py's `@logged`, `def who` and the first line of who's body (past the docstring)."""
    deco = line_of(project, "team.py", "@logged")
    d = line_of(project, "team.py", "def who(self, at):")
    body = line_of(project, "team.py", "name = self.names[at]")
    return deco, d, body


def test_capture_on_a_def_line_records_each_call_and_says_where_it_moved(py):
    project, m = py
    _, d, body = lines(project)
    r = m.ok("capture", {
        "command": "python3 team.py",
        "points": [{"file_path": "team.py", "line": d}],
        "expressions": ["at"],
        "max_hits": 5,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body, body], r
    assert [h["values"][0]["value"] for h in r["hits"]] == ["2", "0"], r
    msg = r["message"]
    assert f"point 1 (team.py): line {d} (def who) runs at definition; set at {body}, the first line of its body" in msg, msg
    assert "not hit" not in msg, msg


def test_a_text_point_on_a_decorator_moves_too(py):
    project, m = py
    deco, _, body = lines(project)
    r = m.ok("capture", {
        "command": "python3 team.py",
        "points": [{"text": "@logged"}],
        "expressions": ["at"],
        "max_hits": 5,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body, body], r
    assert f"line {deco} (a decorator of def who) runs at definition; set at {body}" in r["message"], r


def test_set_breakpoint_on_a_def_line_then_start_stops_at_the_call(py):
    project, m = py
    _, d, body = lines(project)
    b = m.ok("set_breakpoint", {"file_path": "team.py", "line": d})
    assert b["line"] == body and b["requested_line"] == body, b
    assert b["moved"] == f"line {d} (def who) runs at definition; set at {body}, the first line of its body", b
    r = m.ok("start_debug_session", {"command": "python3 team.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == body, r
    assert r["pause"]["breakpoint_ids"] == [b["id"]], r
    assert m.ok("evaluate_expression", {"expression": "at"})["result"]["value"] == "2"


def test_a_starts_breakpoint_on_a_def_line_stops_at_the_call_and_run_to_line_moves_too(py):
    project, m = py
    _, d, body = lines(project)
    r = m.ok("start_debug_session", {
        "command": "python3 team.py",
        "breakpoints": [{"file_path": "team.py", "line": d}],
        "wait_for_pause": True,
        "timeout_ms": LONG,
    })
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == body, r
    assert f"breakpoints[0]: line {d} (def who) runs at definition; set at {body}" in r["pause"]["message"], r
    # Stopped in the first call: running to the def line reaches the second call's body.
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    ret = line_of(project, "team.py", "return name")
    m.ok("run_to_line", {"file_path": "team.py", "line": ret, "timeout_ms": LONG})
    r = m.ok("run_to_line", {"file_path": "team.py", "line": d, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == body, r
    assert f"line {d} (def who) runs at definition; set at {body}" in r["message"], r
    assert m.ok("evaluate_expression", {"expression": "at"})["result"]["value"] == "0"
