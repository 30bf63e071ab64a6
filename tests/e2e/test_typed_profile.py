"""`?profile=typed`: the full tool list with each tool's `outputSchema` (derived from its result
type). The Python SDK validates every `structuredContent` against the advertised schema inside
`call_tool` and raises on a mismatch, so each call below is a check that real results from real
debuggers (debugpy, gdb) meet the schemas the server publishes.

Line numbers are those of projects/py/app.py and projects/c/prog.c.
"""

from __future__ import annotations

import json

import pytest

from conftest import LONG, REPO, Mcp, Server, compile_c, gdb_env_check


def typed_client(fixture: str, prepare=None):
    server = Server(fixture, "brave_mode = true\n")
    if prepare:
        prepare(server.project)
    return server, Mcp(server.url + "?profile=typed")


def test_every_tool_advertises_an_output_schema_and_debugpy_results_meet_them():
    server, m = typed_client("py")
    try:
        tools = m.list_tools().tools
        expected = set(json.loads((REPO / "tests/clients/expected_tools.json").read_text())["tools"])
        assert {t.name for t in tools} == expected and all(t.output_schema and t.output_schema.get("type") == "object" for t in tools), \
            [t.name for t in tools if not t.output_schema]
        r = m.pause_at("app.py", 19, {"run_configuration": "Run app"})
        sid = r["session_id"]
        m.ok("get_debug_session_status", {})
        m.ok("list_debug_sessions", {})
        m.ok("list_threads", {})
        m.ok("get_stack_trace", {})
        m.ok("get_variables", {"depth": 2})
        # The SDK really checks: the same result with an undeclared field is refused.
        res = m.call("get_stack_trace", {})
        res.structured_content["frame_count"] = "many"
        with pytest.raises(RuntimeError, match="Invalid structured content"):
            m._run(m.session.validate_tool_result("get_stack_trace", res))
        m.ok("expand_variable", {"path": "order.items", "limit": 3})
        m.ok("expand_variable", {"path": "order", "filter": "$.items[?@.qty > 1].name"})
        m.ok("evaluate_expression", {"expression": "acc + 1"})
        m.ok("watches", {"add": "acc"})
        m.ok("watches", {})
        m.ok("get_source_context", {})
        m.ok("step_over", {})
        m.ok("set_variable", {"path": "acc", "new_value": "100"})
        m.ok("select_stack_frame", {"frame_index": 1})
        m.ok("list_breakpoints", {})
        m.ok("set_breakpoint", {"exception_class": "raised"})
        m.ok("resume", {})
        m.ok("get_debug_history", {"name": "acc"})
        m.ok("get_console_output", {"session_id": sid})
        m.ok("get_session_summary", {"session_id": sid})
        m.ok("stop_debug_session", {"session_id": sid})
        m.ok("list_run_configurations", {})
    finally:
        m.close()
        server.stop()


def test_gdb_results_meet_the_advertised_schemas():
    gdb_env_check()
    server, m = typed_client("c", compile_c)
    try:
        r = m.pause_at("prog.c", 24, {"run_configuration": "prog (gdb)"})
        sid = r["session_id"]
        m.ok("get_stack_trace", {})
        m.ok("get_variables", {"depth": 2})
        m.ok("evaluate_expression", {"expression": "1 + 2"})
        m.ok("step_into", {})
        m.ok("step_out", {})
        m.ok("run_to_line", {"file_path": "prog.c", "line": 24, "timeout_ms": LONG})
        m.ok("get_session_summary", {"session_id": sid})
        m.ok("stop_debug_session", {"session_id": sid})
    finally:
        m.close()
        server.stop()
