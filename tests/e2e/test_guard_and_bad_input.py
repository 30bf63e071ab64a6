"""Without brave mode destructive tools are refused (a client that cannot ask its user) or asked
through MCP elicitation; bad input of every kind gets isError with a clear message and the
server keeps working. Real sidecar, real debugpy, Python MCP SDK over Streamable HTTP."""

from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError

from conftest import LONG, cleanup, var



def still_works(m):
    cfgs = m.ok("list_run_configurations")["configurations"]
    assert [c["name"] for c in cfgs] == ["Run app"]


# --- confirmation (no brave mode) ----------------------------------------------------------------

def test_destructive_tools_refused_without_brave_mode(py_careful):
    project, m, *_ = py_careful
    msg = m.err("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True})
    assert "needs the user's confirmation" in msg and "brave_mode = true" in msg
    # Headless users learn both ways to allow it, not only the IDE setting.
    assert "debugger-mcp.toml" in msg and "--brave" in msg, msg
    msg = m.err("run_configuration", {"name": "Run app", "mode": "run"})
    assert "brave_mode = true" in msg
    assert m.ok("list_debug_sessions")["sessions"] == []  # nothing was started
    # An unknown configuration is reported as such, not as a confirmation to give.
    msg = m.err("start_debug_session", {"run_configuration": "Nope"})
    assert "run configuration 'Nope' not found" in msg and "'Run app'" in msg and "brave_mode" not in msg
    # non-destructive tools still work
    bp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 28})
    assert bp["source_line"] == "    count = 3"
    m.ok("remove_breakpoint", {"breakpoint_id": bp["id"]})


def test_elicitation_asks_the_user_and_respects_the_answer(py_careful):
    project, m, asking, answers, asked = py_careful
    cleanup(asking)
    try:
        m.ok("set_breakpoint", {"file_path": "app.py", "line": 29})
        answers[:] = [False]
        msg = asking.err("start_debug_session", {"run_configuration": "Run app"})
        assert "declined" in msg and asked and "Run app" in asked[-1]
        assert asking.ok("list_debug_sessions")["sessions"] == []

        answers[:] = [True]
        r = asking.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": LONG})
        assert r["pause"]["location"]["line"] == 29
        answers[:] = [False]
        msg = asking.err("set_variable", {"path": "count", "new_value": "5"})
        assert "declined" in msg and "count = 5" in asked[-1]
        assert asking.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "3"
        # the client without elicitation gets the refusal, the one with it is asked
        assert "brave_mode" in m.err("evaluate_code_fragment", {"code": "count = 6", "allow_side_effects": True})
        answers[:] = [True]
        asking.ok("evaluate_code_fragment", {"code": "count = 6", "allow_side_effects": True})
        assert asking.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "6"
        assert answers == []
    finally:
        cleanup(asking)


# --- bad input ---------------------------------------------------------------------------------

def test_wrong_types_name_field_expected_and_received(py_careful):
    _, m, *_ = py_careful
    msg = m.err("set_breakpoint", {"file_path": 12})
    assert "field 'file_path': expected string, received integer 12" in msg
    # `line` goes with `file_path`; `function` replaces both (issue 18), so the schema does not
    # require it, the tool does, by name.
    msg = m.err("set_breakpoint", {"file_path": "app.py"})
    assert "field 'line': required" in msg, msg
    msg = m.err("set_breakpoint", {"file_path": "app.py", "line": "x", "bogus": 1})
    assert "field 'line': expected integer, received string \"x\"" in msg
    assert "field 'bogus': unknown parameter" in msg and "file_path" in msg
    msg = m.err("run_configuration", {"name": "Run app", "mode": "fast"})
    assert "mode" in msg and "run" in msg and "debug" in msg and "fast" in msg
    msg = m.err("resume", {"timeout_ms": 60000})
    assert "field 'timeout_ms'" in msg and "55000" in msg
    msg = m.err("set_breakpoint", {"file_path": "app.py", "line": 0})
    assert "field 'line'" in msg
    still_works(m)


def test_unknown_tool(py_careful):
    _, m, *_ = py_careful
    # The server answers an unknown tool with a JSON-RPC error (-32602), which the SDK raises;
    # either form must name the tool.
    try:
        res = m.call("no_such_tool", {})
    except MCPError as e:
        assert "no_such_tool" in str(e)
    else:
        assert res.is_error and "no_such_tool" in res.content[0].text
    still_works(m)


def test_unknown_ids(py_careful):
    _, m, *_ = py_careful
    msg = m.err("stop_debug_session", {"session_id": "s99"})
    assert "s99" in msg
    msg = m.err("get_debug_session_status", {"session_id": "s99"})
    assert "s99" in msg
    msg = m.err("set_breakpoint", {"breakpoint_id": "b99", "enabled": False})
    assert "unknown breakpoint id 'b99'" in msg
    none = m.ok("remove_breakpoint", {"breakpoint_id": "b99"})
    assert none["removed"] == 0 and none["ids"] == [] and "nothing" in none["message"]
    gone = m.ok("watches", {"remove": "w77"})
    assert "no watch 'w77'" in gone["message"] and gone["watches"] == []
    msg = m.err("expand_variable", {"variable_id": "v9999"})
    assert "v9999" in msg or "no debug session" in msg
    msg = m.err("resume", {})
    assert "no debug session" in msg and "start_debug_session" in msg
    msg = m.err("get_source_context", {"file_path": "/etc/passwd", "line": 1})
    assert "outside the project" in msg
    still_works(m)


def test_bad_ids_while_paused_and_stale_value_after_resume(py_brave):
    project, m = py_brave
    cleanup(m)
    try:
        msg = m.err("start_debug_session", {"run_configuration": "Nope"})
        assert "run configuration 'Nope'" in msg and "'Run app'" in msg  # lists the known ones
        r = m.pause_at("app.py", 19, {"run_configuration": "Run app"})
        sid = r["session_id"]
        acc = var(m.ok("get_variables")["variables"], "acc")
        msg = m.err("expand_variable", {"variable_id": "v9999"})
        assert "unknown variable id 'v9999'" in msg
        msg = m.err("get_variables", {"session_id": "s42"})
        assert "s42" in msg
        msg = m.err("select_stack_frame", {"frame_index": 40})
        assert "40" in msg
        msg = m.err("expand_variable", {"path": "order.nope"})
        assert "'order' has no child 'nope'" in msg
        msg = m.err("get_variables", {"thread_id": "777"})
        assert "777" in msg
        m.ok("resume", {"timeout_ms": LONG})
        msg = m.err("set_variable", {"variable_id": acc["id"], "new_value": "1"})
        assert f"value id {acc['id']} is stale" in msg and "get_variables" in msg
        msg = m.err("expand_variable", {"variable_id": acc["id"]})
        assert "stale" in msg
        # the server and the session keep working
        again = var(m.ok("get_variables")["variables"], "acc")
        assert again["value"] == "2" and again["id"] != acc["id"]
        assert m.ok("get_debug_session_status")["session_id"] == sid
    finally:
        cleanup(m)


def test_allow_side_effects_where_expressions_are_taken(py_brave):
    """The guard's refusal says "pass allow_side_effects: true": capture, a start's and a step's
    evaluate take it as evaluate_expression does (not listed: the instructions name it once)."""
    project, m = py_brave
    cleanup(m)
    try:
        grow = ["order.items.append({'price': 100, 'qty': 1})", "len(order.items)"]
        at = {"file_path": "app.py", "line": 19}
        r = m.ok("capture", {"run_configuration": "Run app", "points": [at], "expressions": grow[1:],
                             "max_hits": 1})
        assert r["hits"][0]["values"][0]["value"] == "30", r
        msg = m.err("capture", {"run_configuration": "Run app", "points": [at], "expressions": grow, "max_hits": 1})
        assert "allow_side_effects: true" in msg, msg
        r = m.ok("capture", {"run_configuration": "Run app", "points": [at], "expressions": grow, "max_hits": 1,
                             "allow_side_effects": True})
        vals = r["hits"][0]["values"]
        assert "error" not in vals[0] and vals[1]["value"] == "31", r
        cleanup(m)
        r = m.ok("start_debug_session", {"run_configuration": "Run app", "breakpoints": [at], "evaluate": grow,
                                         "allow_side_effects": True, "timeout_ms": LONG})
        assert [v.get("error") for v in r["pause"]["values"]] == [None, None], r
        assert r["pause"]["values"][1]["value"] == "31", r
        # A step's evaluate: refused alone without it, run with it (the list grew twice).
        r = m.ok("step_over", {"evaluate": grow, "timeout_ms": LONG})
        assert "allow_side_effects: true" in r["values"][0]["error"], r
        assert r["values"][1]["value"] == "31", r
        r = m.ok("step_over", {"evaluate": grow, "allow_side_effects": True, "timeout_ms": LONG})
        assert r["values"][1]["value"] == "32", r
        # adapter names the debugger of a session capture starts; here it would be ignored.
        msg = m.err("capture", {"points": [at], "expressions": grow[1:], "adapter": "gdb"})
        assert "adapter" in msg and "leave it out" in msg, msg
    finally:
        cleanup(m)


def test_allow_side_effects_in_capture_asks_the_user(py_careful):
    project, m, asking, answers, asked = py_careful
    cleanup(asking)
    try:
        answers[:] = [True, False]
        msg = asking.err("capture", {"run_configuration": "Run app", "points": [{"file_path": "app.py", "line": 19}],
                                     "expressions": ["order.items.clear()"], "allow_side_effects": True})
        assert "declined" in msg and "order.items.clear()" in asked[-1], (msg, asked)
        assert asking.ok("list_debug_sessions")["sessions"] == []
        # Asked before its points were set: a refusal leaves no breakpoint behind.
        assert asking.ok("list_breakpoints")["breakpoints"] == [], asking.last_text
    finally:
        cleanup(asking)


def test_allow_side_effects_in_an_attach_read_asks_the_user(py_careful):
    """start_debug_session {attach, evaluate, allow_side_effects} reads at once, on no stop of its
    own: the side effects are asked for before anything is attached, and declined run nothing."""
    import subprocess
    import sys
    import time

    project, m, asking, answers, asked = py_careful
    cleanup(asking)
    loop = "import time\nITEMS = [1, 2]\nwhile True:\n    time.sleep(0.05)\n"
    proc = subprocess.Popen([sys.executable, "-c", loop], cwd=project)
    try:
        time.sleep(0.5)
        answers[:] = [True, False]
        msg = asking.err("start_debug_session", {"attach": str(proc.pid), "evaluate": ["ITEMS.clear()"],
                                                 "allow_side_effects": True})
        assert "declined" in msg and "ITEMS.clear()" in asked[-1], (msg, asked)
        assert asking.ok("list_debug_sessions")["sessions"] == []
        answers[:] = [True]
        r = asking.ok("capture", {"attach": str(proc.pid), "expressions": ["len(ITEMS)"]})
        assert r["hits"][0]["values"][0]["value"] == "2", r
        assert answers == [], asked
    finally:
        proc.kill()
        cleanup(asking)


def test_brave_flag_allows_starting_without_settings_file_change():
    """`serve --brave` is brave mode without touching debugger-mcp.toml."""
    from conftest import Mcp, Server

    server = Server("py", "", args=("--brave",))
    m = Mcp(server.url)
    try:
        r = m.ok("start_debug_session", {"command": "python3 bad_indent.py", "wait_for_pause": True, "timeout_ms": LONG})
        assert r["state"] == "stopped", r
    finally:
        m.close()
        server.stop()
