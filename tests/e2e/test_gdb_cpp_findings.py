"""What agents hit on C++ with gdb (issue 26), end to end on real gdb through `debugger-mcp
serve` on projects/native/nodes.cpp (g++ -g -O0). Line numbers are those of nodes.cpp.
"""

from __future__ import annotations

from conftest import LONG, launch_paused, var

WEIGH = 15  # int w = n.v * 10;
PRINT = 32  # std::printf("total %d size %zu\n", ...)


def test_a_string_compared_with_a_literal_is_compared_as_text(n):
    # `n.name == "beta"` on a std::string: gdb has no operator== for it (and on a `char *` it
    # compares addresses, always false); the server sends gdb a text comparison instead.
    _, m = n
    bp = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH, "condition": 'n.name == "beta"'})
    r = launch_paused(m, "./nodes", "gdb")
    assert r["state"] == "paused" and r["pause"].get("breakpoint_ids") == [bp["id"]], r
    vals = m.ok("evaluate_expression", {"expressions": ["n.v", 'n.name == "beta"', 'n.name != "beta"', 'n.name == "alpha"']})
    # C++ shows `!` as a bool: false.
    assert [v["value"] for v in vals["results"]] == ["2", "1", "false", "0"], vals
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"


def test_a_condition_gdb_cannot_evaluate_is_passed_named_and_not_taken_for_a_hit(n):
    _, m = n
    bp = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH, "condition": 'n.name < "beta"'})
    end = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": PRINT})
    r = launch_paused(m, "./nodes", "gdb")
    p = r["pause"]
    # gdb stops at each of the three calls without knowing whether the condition holds: none
    # is a stop the agent asked for, so the answer is the next real one, saying what passed.
    assert p["location"]["line"] == PRINT and p.get("breakpoint_ids") == [end["id"]], r
    said = p.get("description", "")
    assert "operator<" in said and "fails to evaluate" in said and bp["id"] in said and "3 times" in said, r
    row = next(b for b in m.ok("list_breakpoints")["breakpoints"] if b["id"] == bp["id"])
    assert "operator<" in row.get("message", "") and "3 times" in row["message"] and row["hit_count"] == 0, row
    # gdb's "Error in testing condition" lines are the debugger's, not the program's output.
    out = m.ok("get_console_output", {"session_id": r["session_id"], "max_lines": 500})["output"]
    assert not [o for o in out if o["category"] == "stdout" and "condition" in o["text"]], out
    assert any(o["category"] == "console" and "Error in testing condition" in o["text"] for o in out), out
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"


def test_a_run_whose_only_condition_fails_ends_and_says_so(n):
    _, m = n
    bp = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH, "condition": 'n.name < "beta"'})
    r = launch_paused(m, "./nodes", "gdb")
    assert r["state"] == "stopped" and r["pause"]["exit_code"] == 0, r
    assert "operator<" in m.last_text and "3 times" in m.last_text and bp["id"] in m.last_text, m.last_text


def test_passing_a_failing_condition_is_bounded(n):
    _, m = n
    # recurse.c calls depth() about 100,000 times before its stack is gone: passing every
    # failed evaluation would crawl through all of them; the run stops after a bounded few.
    bp = m.ok("set_breakpoint", {"file_path": "recurse.c", "line": 6, "condition": "*(int *) 0 == n"})
    r = launch_paused(m, "./recurse", "gdb")
    p = r["pause"]
    assert r["state"] == "paused" and p["location"]["line"] == 6, r
    said = p.get("description", "")
    assert "Cannot access memory" in said and bp["id"] in said and "in a row" in said, r
    assert bp["id"] not in p.get("breakpoint_ids", []), p


def test_a_deque_size_comes_from_its_printer_where_gdbs_xmethod_miscounts(n):
    _, m = n
    # libstdc++'s xmethod counts a deque filled at its front from its block's first slot: 12
    # for jobs.cpp's one Job, where the printer says "1 element".
    m.ok("set_breakpoint", {"file_path": "jobs.cpp", "line": 16})
    launch_paused(m, "./jobs", "gdb")
    assert "1 element" in m.ok("evaluate_expression", {"expression": "jobs"})["result"]["value"]
    r = m.call("evaluate_expression", {"expression": "jobs.size()"})
    text = " ".join(getattr(c, "text", "") for c in r.content)
    assert not r.is_error and r.structured_content["result"]["value"] == "1", text
    assert "printer" in text and "12" in text, text


def test_hit_counts_start_at_zero_in_each_session(n):
    _, m = n
    bp = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH})

    def hits():
        return next(b for b in m.ok("list_breakpoints")["breakpoints"] if b["id"] == bp["id"])["hit_count"]

    launch_paused(m, "./nodes", "gdb")
    assert hits() == 1
    # Three calls: three hits, then the program ends.
    for _ in range(2):
        assert m.ok("resume", {"timeout_ms": LONG})["state"] == "paused"
    assert hits() == 3
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    # A fresh session: its first stop is the breakpoint's first hit.
    launch_paused(m, "./nodes", "gdb")
    assert hits() == 1


def test_a_reference_shows_its_referent(n):
    _, m = n
    m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH})
    launch_paused(m, "./nodes", "gdb")
    vs = m.ok("get_variables")["variables"]
    ref = var(vs, "n")
    assert "alpha" in ref["value"] and "@0x" not in ref["value"] and "items" not in ref["value"], ref
    assert "alpha" in m.ok("evaluate_expression", {"expression": "n"})["result"]["value"]


def test_a_size_gdb_cannot_call_comes_from_the_printer(n):
    _, m = n
    m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": PRINT})
    launch_paused(m, "./nodes", "gdb")
    # std::queue / std::stack never call size(): not in the binary ("may be inlined"), and no
    # xmethod covers the adaptors; their printers say how many elements they hold.
    for expr, size in (("waiting.size()", "2"), ("undo.size()", "1")):
        r = m.call("evaluate_expression", {"expression": expr})
        text = " ".join(getattr(c, "text", "") for c in r.content)
        assert not r.is_error and r.structured_content["result"]["value"] == size, (expr, text)
        assert "printer" in text, text
