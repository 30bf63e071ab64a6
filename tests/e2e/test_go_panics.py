"""Issue 20 item 5 on delve: a step over a Go line that panics says so (the panic's value, type
and where it was raised), and the next step says where it went (the deferred function that
recovers it, in the stepping frame or a caller's; or the program's end, whose status names the
panic). Through `debugger-mcp serve` and the Python MCP SDK on tests/e2e/projects/go/panics
(its first argument picks the case). Lines are found by their text.
"""

from __future__ import annotations

import conftest
import pytest
from conftest import LONG, output_text

SRC = "panics/main.go"


def line_of(project, text: str) -> int:
    return conftest.line_of(project, SRC, text)


def paused_at(m, project, text: str, mode: str) -> tuple[int, str]:
    line = line_of(project, text)
    m.ok("set_breakpoint", {"file_path": SRC, "line": line})
    r = m.ok("start_debug_session", {"command": f"go run ./panics {mode}", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == line, r
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    return line, r["session_id"]


def step(m) -> dict:
    return m.ok("step_over", {"timeout_ms": LONG})


RAISED = 'panic: "bad number \\"x1\\"" (string), raised from panics/main.go:{line} in main.parse'


def test_go_step_over_a_recovered_panic_says_so_and_lands_in_the_handler(go):
    project, m = go
    _, sid = paused_at(m, project, "n = parse(s)", "recovered")
    raise_line = line_of(project, "panic(fmt.Sprintf")
    s = step(m)
    assert s["reason"] == "exception", s
    d = s["description"]
    assert d.startswith("the step ended in an exception: " + RAISED.format(line=raise_line)) and "raised here" in d, d
    # The next step ends in the deferred function whose recover() takes it, and says so.
    s = step(m)
    handler = line_of(project, "if r := recover(); r != nil {")
    assert (s["reason"], s["location"]["line"], s["location"]["class"]) == ("step", handler, "main.safeParse"), s
    assert s["description"].startswith("the exception " + RAISED.format(line=raise_line)) and "went here" in s["description"], s
    # From there on, steps are plain steps.
    s = step(m)
    assert s["location"]["line"] == handler + 1 and "description" not in s, s
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0, end
    assert 'parsed 0 recovered: bad number "x1"' in output_text(m, sid, expect="parsed")


def test_go_step_over_a_panic_recovered_by_a_caller_lands_in_its_handler(go):
    """delve's own step runs to the program's end here: no defer in the stepping frame."""
    project, m = go
    raise_line, _ = paused_at(m, project, "panic(fmt.Sprintf", "recovered")
    s = step(m)
    assert s["reason"] == "exception" and RAISED.format(line=raise_line) in s["description"], s
    s = step(m)
    assert s["state"] == "paused", s
    assert (s["location"]["line"], s["location"]["class"]) == (line_of(project, "if r := recover(); r != nil {"), "main.safeParse"), s
    assert "went here" in s["description"], s


def test_go_step_over_an_unrecovered_panic_says_so_and_the_end_names_it(go):
    project, m = go
    paused_at(m, project, 'fmt.Println("parsed", parse("x2"))', "unrecovered")
    s = step(m)
    raised = 'panic: "bad number \\"x2\\"" (string), raised from panics/main.go:{} in main.parse'.format(line_of(project, "panic(fmt.Sprintf"))
    assert s["reason"] == "exception" and s["description"].startswith("the step ended in an exception: " + raised), s
    s = step(m)
    assert s["reason"] == "exception" and "nothing recovered it" in s["description"], s
    assert 'bad number \\"x2\\"' in s["description"], s
    # A step from the fatal end runs the program out instead of walking the runtime.
    s = step(m)
    assert s["state"] == "stopped" and s["exit_code"] == 2, s
    assert 'panic: bad number "x2"' in s["stderr"], s


@pytest.mark.parametrize("mode, text, function, said", [
    ("index", "return items[i]", "pick", "runtime error: index out of range [5] with length 2 (runtime.boundsError)"),
    ("nilmap", "seen[w]++", "count", '"assignment to entry in nil map" (runtime.plainError)'),
])
def test_go_step_over_a_runtime_error_names_it(go, mode, text, function, said):
    project, m = go
    line, _ = paused_at(m, project, text, mode)
    s = step(m)
    assert s["reason"] == "exception", s
    assert s["description"].startswith(
        f"the step ended in an exception: panic: {said}, raised from panics/main.go:{line} in main.{function}"), s


def test_go_step_into_a_panicking_line_says_so_too(go):
    project, m = go
    line, _ = paused_at(m, project, "return items[i]", "index")
    s = m.ok("step_into", {"timeout_ms": LONG})
    assert s["reason"] == "exception" and s["description"].startswith(
        "the step ended in an exception: panic: runtime error: index out of range [5]"), s
    assert f"raised from panics/main.go:{line} in main.pick" in s["description"], s


def test_go_plain_step_leaves_no_panic_stop_armed(go):
    """A step without a panic says nothing more, and a later resume does not stop at the panic
    the program recovers from."""
    project, m = go
    line, _ = paused_at(m, project, 'mode := "recovered"', "recovered")
    s = step(m)
    assert s["reason"] == "step" and s["location"]["line"] == line + 1 and "description" not in s, s
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0, end


def test_go_recorded_call_that_panics_says_so(go):
    """A recorded call that panics: its row names the panic, recovered (the program goes on) or
    not (the program ends)."""
    _, m = go
    m.ok("set_breakpoint", {"function": "main.parse", "on_hit": "record"})
    for mode in ("recovered", "unrecovered"):
        r = m.ok("start_debug_session", {"command": f"go run ./panics {mode}", "wait_for_pause": True, "timeout_ms": LONG})
        assert r["state"] == "stopped", r
    rows = [r.split(" @")[0] for r in m.ok("get_call_records", {"function": "parse"})["rows"]]
    assert rows == [
        '#1 parse(s="x1") -> raised panic: "bad number \\"x1\\"" (string)',
        '#2 parse(s="x2") -> raised panic: "bad number \\"x2\\"" (string) (unfinished: the program ended)',
    ], rows
