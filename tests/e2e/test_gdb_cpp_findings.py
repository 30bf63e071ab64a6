"""What agents hit on C++ with gdb (issue 26), end to end on real gdb through `debugger-mcp
serve` on projects/native/nodes.cpp (g++ -g -O0). Line numbers are those of nodes.cpp.
"""

from __future__ import annotations

from conftest import LONG, launch_paused, var

WEIGH = 15  # int w = n.v * 10;
PRINT = 32  # std::printf("total %d size %zu\n", ...)


def test_a_condition_gdb_cannot_evaluate_is_named_and_not_taken_for_a_hit(n):
    _, m = n
    bp = m.ok("set_breakpoint", {"file_path": "nodes.cpp", "line": WEIGH, "condition": 'n.name == "beta"'})
    r = launch_paused(m, "./nodes", "gdb")
    p = r["pause"]
    assert p["location"]["line"] == WEIGH, r
    # gdb stopped at the first call (alpha) without knowing: the stop says the condition
    # failed, and it is not counted as a hit of the breakpoint.
    assert "operator==" in p.get("description", ""), r
    assert "fails to evaluate" in m.last_text and bp["id"] in m.last_text, m.last_text
    assert bp["id"] not in p.get("breakpoint_ids", []), p
    row = next(b for b in m.ok("list_breakpoints")["breakpoints"] if b["id"] == bp["id"])
    assert "operator==" in row.get("message", "") and row["hit_count"] == 0, row


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
