"""Issue 18 end to end: function breakpoints the debugger binds by name (DAP
`setFunctionBreakpoints`), for names the project scan cannot find: C++ overloads in a namespace,
library functions. Through `debugger-mcp serve` and the Python MCP SDK on real gdb, lldb-dap and
debugpy.
"""

from __future__ import annotations

from conftest import LONG, launch_paused, line_of


def start(m, adapter: str) -> dict:
    r = launch_paused(m, "./shapes", adapter)
    assert r["state"] == "paused", r
    return r["pause"]["location"]


def test_gdb_binds_cpp_overloads_and_library_functions_by_name(n):
    project, m = n
    # Before any session: the project scan does not see a method defined inside its class, so
    # the debugger binds it once a session loads the program.
    b = m.ok("set_breakpoint", {"function": "ns::Cart::add"})
    assert not b["verified"] and b["bound"] == [f"ns::Cart::add (id {b['id']}): pending: binds when a session loads it"], b
    first = line_of(project, "shapes.cpp", "n += x;")
    second = line_of(project, "shapes.cpp", "n += (int)std::strlen(s);")
    loc = start(m, "gdb")
    assert loc["line"] == first and loc["file"].endswith("shapes.cpp"), loc
    listed = {x["id"]: x for x in m.ok("list_breakpoints")["breakpoints"]}
    assert listed[b["id"]]["verified"] and listed[b["id"]]["function"] == "ns::Cart::add", listed
    # Both overloads.
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == second, r
    # A library function, bound at once in the running program.
    p = m.ok("set_breakpoint", {"function": "printf"})
    assert p["verified"] and "printf" in p["bound"][0] and "pending" not in p["bound"][0], p
    # A name neither the project nor the program has: an error, with near names, and nothing set.
    e = m.err("set_breakpoint", {"function": "ns::Cart::ad"})
    assert "no definition of 'ns::Cart::ad' in the project" in e and "no function 'ns::Cart::ad' in the running program" in e, e
    assert "near: " in e and "add" in e, e
    assert m.ok("list_breakpoints")["total"] == 2
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and "printf" in r["location"]["method"], r


def test_gdb_binds_a_name_the_scan_cannot_see_with_the_file_given(n):
    """A function named with its file, which the project scan does not see (a method defined in
    its class): gdb's DAP takes no file with a function name, so it binds the name, and says so."""
    project, m = n
    b = m.ok("set_breakpoint", {"function": "ns::Cart::add", "file_path": "shapes.cpp"})
    assert b["note"] == "not found in shapes.cpp by the source scan: the debugger binds 'ns::Cart::add' wherever it is defined", b
    loc = start(m, "gdb")
    assert loc["line"] == line_of(project, "shapes.cpp", "n += x;") and loc["file"].endswith("shapes.cpp"), loc


def test_lldb_binds_several_names_each_where_it_belongs(n):
    """lldb-dap 19 answers a list of function breakpoints in its own order: each must still
    get its own binding."""
    project, m = n
    names = ["ns::twice<double>", "ns::Cart::add(int)", "nosuch_fn", "printf"]
    ids = {n: m.ok("set_breakpoint", {"function": n})["id"] for n in names}
    loc = start(m, "lldb")
    first = line_of(project, "shapes.cpp", "n += x;")
    assert loc["line"] == first, loc
    listed = {x["function"]: x for x in m.ok("list_breakpoints")["breakpoints"]}
    assert listed["ns::Cart::add(int)"]["line"] == first and listed["ns::Cart::add(int)"]["verified"], listed
    assert listed["ns::twice<double>"]["line"] == line_of(project, "shapes.cpp", "return v + v;"), listed
    assert not listed["nosuch_fn"]["verified"], listed
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == line_of(project, "shapes.cpp", "return v + v;"), r
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and "printf" in r["location"]["method"], r


def test_delve_binds_a_library_function_and_names_what_it_cannot_find(go):
    _, m = go
    b = m.ok("set_breakpoint", {"function": "fmt.Printf"})
    assert not b["verified"] and b["bound"] == [f"fmt.Printf (id {b['id']}): pending: binds when a session loads it"], b
    r = m.ok("start_debug_session", {"command": "go run .", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    loc = r["pause"]["location"]
    assert loc["file"].endswith("fmt/print.go") and "Printf" in loc["method"], loc
    e = m.err("set_breakpoint", {"function": "strings.Contains"})
    assert 'location "strings.Contains" not found' in e and "no definition of 'strings.Contains' in the project" in e, e
    assert m.ok("list_breakpoints")["total"] == 1


def test_debugpy_refuses_names_outside_the_project_saying_why(py):
    """debugpy "verifies" every function breakpoint, then matches bare call names in the
    project's code only: a library name cannot be bound, and the error says so."""
    project, m = py
    m.ok("set_breakpoint", {"file_path": "calls.py", "line": line_of(project, "calls.py", "cart = Cart()")})
    r = m.ok("start_debug_session", {"command": "python3 calls.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    e = m.err("set_breakpoint", {"function": "json.loads"})
    assert "no definition of 'json.loads' in the project" in e and "bare names of calls" in e, e
    assert m.ok("list_breakpoints")["total"] == 1
