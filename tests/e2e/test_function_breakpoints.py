"""Issue 18 end to end: function breakpoints and recorded calls through `debugger-mcp serve` and
the Python MCP SDK, on real debugpy (projects/py/calls.py) and gdb (projects/c/calls.c).

Lines are found in the fixture's source by their text, so the assertions say which line of the
function a breakpoint must bind at (the first line of its body).
"""

from __future__ import annotations

import time

import pytest

from conftest import LONG, line_of


def run_to_end(m, command: str) -> dict:
    """Starts `command` and waits until it pauses or ends; a recording must let it end."""
    r = m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", f"the program should run to its end without a visible stop: {r}"
    return r


# --- debugpy -------------------------------------------------------------------------------------

def test_py_function_breakpoint_by_plain_and_qualified_name(py):
    project, m = py
    b = m.ok("set_breakpoint", {"function": "fact"})
    body = line_of(project, "calls.py", "if n <= 1:")
    assert b["function"] == "fact" and b["line"] == body and b["file"].endswith("calls.py"), b
    assert b["bound"] == [f"calls.py:{body} fact (id {b['id']})"], b
    assert b["source_line"].strip() == "if n <= 1:", b
    q = m.ok("set_breakpoint", {"function": "Cart.add_item"})
    add = line_of(project, "calls.py", "self.items.append((name, price))")
    assert q["line"] == add and q["bound"][0].startswith(f"calls.py:{add} Cart.add_item"), q
    # module:func names the file too.
    assert m.ok("set_breakpoint", {"function": "calls:fact"})["id"] == b["id"]
    r = m.ok("start_debug_session", {"command": "python3 calls.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == add, r
    assert r["pause"]["location"]["method"] == "add_item"
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == add, r
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == body and r["location"]["method"] == "fact", r
    listed = {x["id"]: x for x in m.ok("list_breakpoints")["breakpoints"]}
    # Re-set as calls:fact, the same breakpoint keeps the name given last.
    assert listed[b["id"]]["function"] == "calls:fact" and listed[q["id"]]["function"] == "Cart.add_item"


def test_py_function_that_matches_nothing_lists_near_names(py):
    _, m = py
    e = m.err("set_breakpoint", {"function": "fcat"})
    assert "no definition of 'fcat'" in e and "near: fact (calls.py:14)" in e, e
    e = m.err("set_breakpoint", {"function": "Cart.remove_item"})
    assert "add_item" in e, e
    e = m.err("set_breakpoint", {"function": "fact", "file_path": "calls.py", "line": 3})
    assert "not both" in e
    e = m.err("set_breakpoint", {"file_path": "calls.py", "line": 15, "on_hit": "record"})
    assert "needs function" in e
    assert m.ok("list_breakpoints")["total"] == 0, "a refused call must set nothing"


def test_py_function_with_a_file_binds_there_only_or_says_where_it_is_defined(py):
    project, m = py
    # `parse` is defined in calls.py, crash.py and stepping.py: with a file, only that one.
    b = m.ok("set_breakpoint", {"function": "parse", "file_path": "crash.py"})
    body = line_of(project, "crash.py", "return int(text)")
    assert b["line"] == body and b["file"].endswith("crash.py"), b
    assert b["bound"] == [f"crash.py:{body} parse (id {b['id']})"], b
    q = m.ok("set_breakpoint", {"function": "Cart.add_item", "file_path": "calls.py"})
    add = line_of(project, "calls.py", "self.items.append((name, price))")
    assert q["bound"] == [f"calls.py:{add} Cart.add_item (id {q['id']})"], q
    # Not in that file: where a function of that name is, and nothing set.
    e = m.err("set_breakpoint", {"function": "parse", "file_path": "app.py"})
    assert "'parse' is not defined in app.py" in e, e
    assert "parse calls.py:20" in e and "parse crash.py:4" in e and "parse stepping.py:7" in e, e
    e = m.err("set_breakpoint", {"function": "prase", "file_path": "crash.py"})
    assert "no definition of 'prase' in crash.py" in e and "parse" in e, e
    assert "not both" in m.err("set_breakpoint", {"function": "parse", "file_path": "crash.py", "line": 5})
    assert sorted(x["id"] for x in m.ok("list_breakpoints")["breakpoints"]) == sorted([b["id"], q["id"]])
    r = m.ok("start_debug_session", {"command": "python3 crash.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == body, r
    assert r["pause"]["location"]["file"].endswith("crash.py"), r
    m.ok("stop_debug_session")
    # The breakpoints a start takes: the same, one bound in stepping.py alone.
    step = line_of(project, "stepping.py", "n = int(s)")
    r = m.ok("start_debug_session", {
        "command": "python3 stepping.py",
        "breakpoints": [{"function": "parse", "file_path": "stepping.py"}],
        "evaluate": ["s"],
    })
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == step, r
    assert r["pause"]["location"]["file"].endswith("stepping.py"), r


def test_py_records_50_recursive_calls_and_a_raise_without_stopping(py):
    project, m = py
    b = m.ok("set_breakpoint", {"function": "fact", "on_hit": "record", "max_calls": 60})
    assert b["on_hit"] == "record" and "get_call_records" in b["note"], b
    m.ok("set_breakpoint", {"function": "parse", "on_hit": "record"})
    r = run_to_end(m, "python3 calls.py")
    out = m.ok("get_console_output", {"session_id": r["session_id"]})
    printed = "".join(o["text"] for o in out["output"])
    assert "total 18144000 parsed [12, None, 7] costs 200" in printed, out
    rows = m.ok("get_call_records", {"function": "fact", "limit": 100})
    assert rows["matched"] == 50, rows
    loop = line_of(project, "calls.py", "total += fact(10)")
    inner = line_of(project, "calls.py", "return n * fact(n - 1)")
    assert rows["rows"][0] == f"#1 fact(n=10) -> 3628800 @calls.py:{loop}", rows["rows"][:3]
    assert rows["rows"][1] == f"#2 fact(n=9) -> 362880 @calls.py:{inner}", rows["rows"][:3]
    assert rows["rows"][9] == f"#10 fact(n=1) -> 1 @calls.py:{inner}", rows["rows"][:10]
    assert rows["rows"][49].startswith("#50 fact(n=1) -> 1 "), rows["rows"][49]
    p = m.ok("get_call_records", {"function": "parse"})["rows"]
    assert [x.split(" @")[0] for x in p] == [
        "#1 parse(text='12') -> 12",
        # The step out stops at the raise (debugpy steps with its "raised" filter): the row
        # says what the call raised, not the None Python's return event carries.
        "#2 parse(text='x') -> raised ValueError: invalid literal for int() with base 10: 'x'",
        "#3 parse(text='7') -> 7",
    ], p
    assert m.ok("get_call_records", {"function": "fact", "where": "n=3)"})["matched"] == 5
    # Issue 26: a comparison on arguments and result, not only text of the row.
    assert m.ok("get_call_records", {"function": "fact", "where": "n == 3 and result == 6"})["matched"] == 5
    assert m.ok("get_call_records", {"function": "fact", "where": "result > 3000000"})["matched"] == 5
    assert m.ok("get_call_records", {"function": "parse", "where": "text == 'x'"})["rows"][0].startswith("#2 parse(text='x') -> raised")
    # The hand-off summary lists them too (the first 20, and where the rest is).
    md = m.ok("get_session_summary", {"session_id": r["session_id"]})["markdown"]
    assert "## Recorded calls (53)" in md and f"- #1 fact(n=10) -> 3628800 @calls.py:{loop}" in md, md
    assert "- … 33 more: get_call_records" in md, md


def test_py_recording_is_bounded_by_max_calls_and_then_disabled(py):
    _, m = py
    b = m.ok("set_breakpoint", {"function": "shipping_cost", "on_hit": "record", "max_calls": 10})
    run_to_end(m, "python3 calls.py")
    rows = m.ok("get_call_records", {"function": "shipping_cost"})
    assert rows["matched"] == 10 and rows["rows"][9].startswith("#10 shipping_cost(weight=45) -> 5"), rows
    listed = {x["id"]: x for x in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[b["id"]]["enabled"] is False and listed[b["id"]]["on_hit"] == "record", listed


def test_py_which_of_200_calls_returns_the_wrong_value(py):
    """The BENCHMARKS.md scenario: a recording answers it in 3 tool calls."""
    _, m = py
    texts = []
    m.ok("set_breakpoint", {"function": "shipping_cost", "on_hit": "record", "max_calls": 200})
    texts.append(m.last_text)
    started = time.monotonic()
    run_to_end(m, "python3 calls.py")
    elapsed = time.monotonic() - started
    texts.append(m.last_text)
    rows = m.ok("get_call_records", {"function": "shipping_cost", "where": "-> None"})
    texts.append(m.last_text)
    assert rows["matched"] == 1 and rows["rows"][0].startswith("#138 shipping_cost(weight=1200) -> None"), rows
    assert m.ok("get_call_records", {"function": "shipping_cost", "limit": 1})["matched"] == 200
    size = sum(len(t.encode()) for t in texts)
    print(f"\nBENCH recorded-calls debugpy: 3 tool calls, {size} B of tool text; 200 calls recorded in {elapsed:.2f} s ({200 / elapsed:.0f} calls/s incl. start)")
    assert size <= 1500, texts


# --- gdb -----------------------------------------------------------------------------------------

def test_gdb_function_breakpoint_and_records_with_return_values(c):
    project, m = c
    body = line_of(project, "calls.c", "if (n <= 1)")
    b = m.ok("set_breakpoint", {"function": "fact"})
    assert b["line"] == body and b["bound"] == [f"calls.c:{body} fact (id {b['id']})"], b
    e = m.err("set_breakpoint", {"function": "shiping_cost"})
    assert "shipping_cost (calls.c:" in e, e
    r = m.ok("start_debug_session", {"command": "./calls", "adapter": "gdb", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == body, r
    m.ok("stop_debug_session", {})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})

    m.ok("set_breakpoint", {"function": "fact", "on_hit": "record", "max_calls": 50})
    m.ok("set_breakpoint", {"function": "shipping_cost", "on_hit": "record", "max_calls": 200})
    started = time.monotonic()
    run_to_end(m, "./calls")
    elapsed = time.monotonic() - started
    f = m.ok("get_call_records", {"function": "fact", "limit": 100})
    loop = line_of(project, "calls.c", "total += fact(10)")
    assert f["matched"] == 50 and f["rows"][0] == f"#1 fact(n=10) -> 3628800 @calls.c:{loop}", f["rows"][:2]
    assert f["rows"][9].startswith("#10 fact(n=1) -> 1 @calls.c:"), f["rows"][:10]
    s = m.ok("get_call_records", {"function": "shipping_cost", "where": "-> -"})
    assert s["matched"] == 1 and s["rows"][0].startswith("#138 shipping_cost(weight=685) -> -11"), s
    # Issue 26: "which call returned a negative value" without guessing how rows are printed.
    s = m.ok("get_call_records", {"function": "shipping_cost", "where": "result < 0"})
    assert s["matched"] == 1 and s["rows"][0].startswith("#138 shipping_cost(weight=685)"), s
    assert m.ok("get_call_records", {"function": "shipping_cost", "where": "weight >= 990"})["matched"] == 2
    print(f"\nBENCH recorded-calls gdb: 250 calls recorded in {elapsed:.2f} s ({250 / elapsed:.0f} calls/s incl. start)")


def test_gdb_a_recursion_is_one_stack_line_with_a_count(c):
    """Issue 26: a recursion listed twenty identical lines; runs of the same frame are told once."""
    project, m = c
    body = line_of(project, "calls.c", "if (n <= 1)")
    inner = line_of(project, "calls.c", "return n * fact(n - 1)")
    m.ok("set_breakpoint", {"file_path": "calls.c", "line": body, "condition": "n == 1"})
    r = m.ok("start_debug_session", {"command": "./calls", "adapter": "gdb", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["location"]["line"] == body, r
    st = m.ok("get_stack_trace", {})
    frames = [(f["line"], f["method"], f.get("repeated")) for f in st["frames"]]
    loop = line_of(project, "calls.c", "total += fact(10)")
    assert frames[:3] == [(body, "fact", None), (inner, "fact", 9), (loop, "main", None)], st
    assert f"calls.c:{inner} in fact ×9" in m.last_text, m.last_text


def test_lldb_records_recursive_calls_with_return_values(c):
    project, m = c
    m.ok("set_breakpoint", {"function": "fact", "on_hit": "record", "max_calls": 50})
    m.ok("set_breakpoint", {"function": "shipping_cost", "on_hit": "record", "max_calls": 200})
    started = time.monotonic()
    r = m.ok("start_debug_session", {"command": "./calls", "adapter": "lldb", "wait_for_pause": True, "timeout_ms": LONG})
    elapsed = time.monotonic() - started
    assert r["state"] == "stopped", f"the program should run to its end without a visible stop: {r}"
    f = m.ok("get_call_records", {"function": "fact", "limit": 100})
    loop = line_of(project, "calls.c", "total += fact(10)")
    inner = line_of(project, "calls.c", "return n * fact(n - 1)")
    assert f["matched"] == 50 and f["rows"][0] == f"#1 fact(n=10) -> 3628800 @calls.c:{loop}", f["rows"][:2]
    assert f["rows"][1] == f"#2 fact(n=9) -> 362880 @calls.c:{inner}", f["rows"][:2]
    assert f["rows"][9].startswith("#10 fact(n=1) -> 1 @calls.c:"), f["rows"][:10]
    s = m.ok("get_call_records", {"function": "shipping_cost", "where": "-> -"})
    assert s["matched"] == 1 and s["rows"][0].startswith("#138 shipping_cost(weight=685) -> -11"), s
    print(f"\nBENCH recorded-calls lldb: 250 calls recorded in {elapsed:.2f} s ({250 / elapsed:.0f} calls/s incl. start)")


# --- delve ---------------------------------------------------------------------------------------

# `go` (delve on tests/e2e/projects/go): conftest.py


def test_go_function_breakpoint_by_package_name_and_recorded_calls(go):
    project, m = go
    b = m.ok("set_breakpoint", {"function": "calc.Add", "on_hit": "record"})
    assert b["bound"] == [f"calc/calc.go:5 Add (id {b['id']})"], b
    e = m.err("set_breakpoint", {"function": "calc.Ad"})
    assert "near: Add (calc/calc.go:4)" in e, e
    run_to_end(m, "go run .")
    rows = m.ok("get_call_records", {"function": "Add"})["rows"]
    loop = line_of(project, "main.go", "sum = calc.Add(sum, p)")
    # delve's DAP shows no returned value after a step out: it is read from the result
    # registers (Go's register ABI).
    assert [r.split(" @")[0] for r in rows] == [
        f"#{i} Add(a={a}, b={b}) -> {a + b}" for i, a, b in [(1, 0, 3), (2, 3, 4), (3, 7, 5)]], rows
    assert rows[0].endswith(f"@main.go:{loop}"), rows


def test_go_recorded_calls_of_a_recursive_function_have_results(go):
    project, m = go
    m.ok("set_breakpoint", {"function": "main.fact", "on_hit": "record"})
    m.ok("set_breakpoint", {"function": "main.sign", "on_hit": "record"})
    m.ok("set_breakpoint", {"function": "main.label", "on_hit": "record"})
    m.ok("set_breakpoint", {"function": "main.half", "on_hit": "record"})
    run_to_end(m, "go run ./calls")
    f = m.ok("get_call_records", {"function": "fact"})
    outer = line_of(project, "calls/main.go", "fmt.Println(fact(10))")
    inner = line_of(project, "calls/main.go", "return n * fact(n-1)")
    assert f["matched"] == 10 and f["rows"][0] == f"#1 fact(n=10) -> 3628800 @calls/main.go:{outer}", f["rows"][:2]
    assert f["rows"][1] == f"#2 fact(n=9) -> 362880 @calls/main.go:{inner}", f["rows"][:2]
    assert f["rows"][9].startswith("#10 fact(n=1) -> 1 @calls/main.go:"), f["rows"]
    # Two results (a small signed integer and a bool) read from two registers.
    s = m.ok("get_call_records", {"function": "sign"})["rows"]
    assert s[0].startswith("#1 sign(n=-5) -> -1, true @"), s
    # A string: its bytes read at the address in the registers.
    rows = m.ok("get_call_records", {"function": "label"})["rows"]
    assert rows[0].startswith('#1 label(n=3) -> "n=3" @'), rows
    # A float is not in the integer registers: no value, said so.
    rows = m.ok("get_call_records", {"function": "half"})["rows"]
    assert rows[0].startswith("#1 half(n=3) -> (no value shown) @"), rows


# --- watchpoints ---------------------------------------------------------------------------------

def pause_before_the_corruption(m, project, adapter: str) -> int:
    first = line_of(project, "calls.c", "withdraw(&acct, 30);")
    m.ok("set_breakpoint", {"file_path": "calls.c", "line": first})
    r = m.ok("start_debug_session", {"command": "./calls", "adapter": adapter, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == first, r
    return line_of(project, "calls.c", "acct.limit = -1;")


def test_gdb_watchpoint_fires_on_the_write_that_corrupts_a_value(c):
    """gdb 18's DAP has no dataBreakpointInfo: the watchpoint is its CLI `watch`."""
    project, m = c
    e = m.err("set_breakpoint", {"watch": "acct.limit"})
    assert "paused session" in e, e
    corrupt = pause_before_the_corruption(m, project, "gdb")
    w = m.ok("set_breakpoint", {"watch": "acct.limit", "access": "write"})
    assert w["type"] == "watch" and w["watch"] == "acct.limit" and w["verified"], w
    assert "give watch alone" in m.err("set_breakpoint", {"watch": "acct.limit", "function": "fact"})
    assert "needs watch" in m.err("set_breakpoint", {"file_path": "calls.c", "line": 3, "access": "read"})
    # withdraw() writes acct.balance only: the first stop is the write to limit (gdb stops on
    # the line after the write).
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] in (corrupt, corrupt + 1), r
    assert m.ok("evaluate_expression", {"expression": "acct.limit"})["result"]["value"] == "-1"
    listed = {b["id"]: b for b in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[w["id"]]["hit_count"] == 1, listed
    # Removed, it stops nothing more: the program runs to its end.
    m.ok("remove_breakpoint", {"breakpoint_id": w["id"]})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "stopped", r


def test_lldb_watchpoint_fires_on_the_write_that_corrupts_a_value(c):
    project, m = c
    corrupt = pause_before_the_corruption(m, project, "lldb")
    w = m.ok("set_breakpoint", {"watch": "acct.limit", "access": "write"})
    assert w["type"] == "watch" and w["watch"] == "acct.limit" and w["access"] == "write" and w["verified"], w
    # withdraw() writes acct.balance only: the first stop is the write to limit.
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] in (corrupt, corrupt + 1), r
    assert m.ok("evaluate_expression", {"expression": "acct.limit"})["result"]["value"] == "-1"
    listed = {b["id"]: b for b in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[w["id"]]["hit_count"] == 1, listed


# --- on_hit log, force_return --------------------------------------------------------------------

def test_py_on_hit_log_logs_each_call_and_force_return_is_refused(py):
    _, m = py
    b = m.ok("set_breakpoint", {"function": "parse", "on_hit": "log"})
    assert b["log_message"] == "parse called", b
    r = run_to_end(m, "python3 calls.py")
    out = m.ok("get_console_output", {"session_id": r["session_id"]})["output"]
    assert sum(o["text"].count("parse called") for o in out) == 3, out
    e = m.err("set_breakpoint", {"function": "fact", "force_return": "1"})
    # The backend says which debugger would run calls.py (debugpy) and that it cannot.
    assert "debugpy adapter" in e and "cannot make a call return a value" in e and "gdb can" in e, e
    assert "calls.py" in e and "set_variable" in e, e
    assert "force_return needs function" in m.err("set_breakpoint", {"file_path": "calls.py", "line": 15, "force_return": "1"})


def test_gdb_force_return_stubs_every_call(c):
    _, m = c
    b = m.ok("set_breakpoint", {"function": "shipping_cost", "force_return": "7", "max_calls": 200})
    assert b["on_hit"] == "record" and "returns 7 at once" in b["note"], b
    r = run_to_end(m, "./calls")
    out = "".join(o["text"] for o in m.ok("get_console_output", {"session_id": r["session_id"]})["output"])
    # 200 calls each returning 7 instead of 5 + w/100 (and -11 for the bad input).
    assert "sum 1400 " in out, out
    rows = m.ok("get_call_records", {"function": "shipping_cost", "limit": 2})["rows"]
    assert rows[0].startswith("#1 shipping_cost(weight=0) -> 7 (forced) @calls.c:"), rows


def test_py_a_recorded_call_inside_a_step_keeps_the_step_stop(py):
    """Issue 26: a recording breakpoint hit during step_over / step_out used to resume the
    program and lose the step's stop ("still running"); the call is recorded and the step stops
    where it would have, whether the recorded call is on the stepped line or one call deeper."""
    project, m = py
    m.ok("set_breakpoint", {"function": "leaf", "on_hit": "record"})
    first = line_of(project, "record_in_step.py", "a = middle(1)")
    m.ok("set_breakpoint", {"file_path": "record_in_step.py", "line": first})
    r = m.ok("start_debug_session", {"command": "python3 record_in_step.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["location"]["line"] == first, r
    # leaf runs inside middle, one call below the stepped line.
    r = m.ok("step_over", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == first + 1, r
    assert r["location"]["method"] == "main", r
    rows = m.ok("get_call_records", {"function": "leaf"})["rows"]
    inner = line_of(project, "record_in_step.py", "y = leaf(x)")
    assert rows == [f"#1 leaf(x=1) -> 2 @record_in_step.py:{inner}"], rows
    # leaf called on the stepped line itself.
    r = m.ok("step_over", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == first + 2, r
    rows = m.ok("get_call_records", {"function": "leaf"})["rows"]
    assert rows[1] == f"#2 leaf(x=3) -> 6 @record_in_step.py:{first + 1}", rows


def test_py_trace_function_over_recorded_calls_runs_to_the_return(py):
    project, m = py
    m.ok("set_breakpoint", {"function": "leaf", "on_hit": "record"})
    inner = line_of(project, "record_in_step.py", "y = leaf(x)")
    m.ok("set_breakpoint", {"file_path": "record_in_step.py", "line": inner})
    m.ok("start_debug_session", {"command": "python3 record_in_step.py", "wait_for_pause": True, "timeout_ms": LONG})
    r = m.ok("trace_function", {})
    assert r["function"] == "middle" and r["returned"] is True, r
    assert [row["line"] for row in r["rows"]] == [inner, inner + 1], r
    assert r["rows"][0]["changed"]["y"] == "2" and r["now"]["location"]["method"] == "main", r
    assert m.ok("get_call_records", {"function": "leaf"})["rows"] == [f"#1 leaf(x=1) -> 2 @record_in_step.py:{inner}"]


def test_py_a_recorded_call_inside_a_step_out_keeps_the_step_stop(py):
    project, m = py
    m.ok("set_breakpoint", {"function": "leaf", "on_hit": "record"})
    inner = line_of(project, "record_in_step.py", "y = leaf(x)")
    m.ok("set_breakpoint", {"file_path": "record_in_step.py", "line": inner})
    r = m.ok("start_debug_session", {"command": "python3 record_in_step.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["location"]["line"] == inner, r
    r = m.ok("step_out", {"timeout_ms": LONG})
    first = line_of(project, "record_in_step.py", "a = middle(1)")
    assert r["state"] == "paused" and r["location"]["method"] == "main", r
    assert r["location"]["line"] == first, r
    rows = m.ok("get_call_records", {"function": "leaf"})["rows"]
    assert rows == [f"#1 leaf(x=1) -> 2 @record_in_step.py:{inner}"], rows
