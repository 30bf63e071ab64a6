"""A step that ends somewhere other than the next line says why (issue 20 item 5, issue 15
item 6), on real debugpy through `debugger-mcp serve` and the Python MCP SDK: an exception (its
type, message and where it was raised; then where it went, or the program's end), a new frame on
the same line (a Python 3.11 comprehension), a stop in another thread.

Line numbers are those of projects/py/stepping.py.
"""

from __future__ import annotations

from conftest import LONG

START = {"command": "python3 stepping.py"}


def test_step_over_a_raising_line_says_so_and_where_it_went(py):
    _, m = py
    m.pause_at("stepping.py", 14, START)
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["reason"] == "exception" and (s["location"]["line"], s["location"]["method"]) == (8, "parse"), s
    d = s["description"]
    assert "the step ended in an exception: ValueError: invalid literal for int() with base 10: 'x'" in d, d
    assert "raised here" in d and "ValueError" in m.last_text
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert (s["location"]["line"], s["location"]["method"]) == (15, "caught"), s
    assert "the exception ValueError" in s["description"] and "went here" in s["description"], s
    # Without an exception, a step says nothing more.
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["location"]["line"] == 16 and "description" not in s, s


def test_step_that_ends_the_program_with_an_exception(py):
    _, m = py
    m.pause_at("stepping.py", 43, START)
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["reason"] == "exception" and "ValueError" in s["description"] and s["location"]["line"] == 8, s
    for _ in range(4):
        s = m.ok("step_over", {"timeout_ms": LONG})
        if s["state"] == "stopped":
            break
    assert s["state"] == "stopped" and s["exit_code"] == 1, s
    assert "ValueError: invalid literal" in s.get("stderr", ""), s


def test_step_into_a_comprehension_names_the_new_frame(py):
    _, m = py
    m.pause_at("stepping.py", 21, START)
    s = m.ok("step_into", {"timeout_ms": LONG})
    assert s["location"]["line"] == 21 and s["location"]["method"] == "<listcomp>", s
    assert "stepped into a new frame on the same line: <listcomp>" in s["message"], s


def test_step_that_stops_in_another_thread_says_so(py):
    _, m = py
    m.ok("set_breakpoint", {"file_path": "stepping.py", "line": 27})
    r = m.pause_at("stepping.py", 35, START)
    main_thread = r["pause"]["thread_id"]
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["location"]["line"] == 27 and s["thread_id"] != main_thread, s
    assert f"not in thread {main_thread} that was stepped" in s["message"], s
