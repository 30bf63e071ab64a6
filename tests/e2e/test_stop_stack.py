"""A stop shows where it was called from (issue 26: agents guessed `frame_index` because a
breakpoint stop did not show the stack): every stop but a step's carries up to three caller rows
`#<frame_index> method file:line`, a recursion's identical frames as one row with its count, and
a last row saying how many frames are left out (real debugpy; gdb: test_native_crash.py)."""

from __future__ import annotations

from conftest import line_of


def test_a_breakpoint_stop_shows_its_callers_with_the_frame_index_each_takes(py):
    project, m = py
    top = line_of(project, "calls.py", "if n <= 1")
    rec = line_of(project, "calls.py", "return n * fact(n - 1)")
    main = line_of(project, "calls.py", "total += fact(10)")
    r = m.ok("start_debug_session", {
        "command": "python3 calls.py",
        "breakpoints": [{"file_path": "calls.py", "line": top, "condition": "n == 7"}],
    })
    p = r["pause"]
    assert p["reason"] == "breakpoint" and p["location"]["line"] == top, p
    # fact(7) called by fact(8), fact(9), fact(10) (one row: frames 1-3), then main.
    assert p["callers"][:2] == [f"#1 fact calls.py:{rec} ×3", f"#4 main calls.py:{main}"], p["callers"]
    assert len(p["callers"]) <= 4, p["callers"]
    assert f"callers:\n    #1 fact calls.py:{rec} ×3\n    #4 main calls.py:{main}" in m.last_text, m.last_text
    # The index shown is the one frame_index takes: frame 3 is fact(10), frame 4 main.
    e = m.ok("evaluate_expression", {"expression": "n", "frame_index": 3})
    assert e["result"]["value"] == "10", e
    e = m.ok("evaluate_expression", {"expression": "total", "frame_index": 4})
    assert e["result"]["value"] == "0", e
    # A step stays in the frame already shown: no callers, as short as it was.
    s = m.ok("step_over", {})
    assert s["reason"] == "step" and "callers" not in s, s
