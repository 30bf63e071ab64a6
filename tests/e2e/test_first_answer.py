"""Issue 26 end to end ("fewer turns than a print"), through `debugger-mcp serve` (and the
`debugger-mcp stdio` bridge) and the Python MCP SDK on real debugpy and gdb:

- the first answer in one call: start_debug_session / debug_test set the breakpoints they are
  given and answer with the first stop and the values asked for, or, with only recording
  breakpoints, with the run's end and the recorded calls; a step takes expressions too;
- nothing to tidy: what an MCP session made (breakpoints, debug sessions) goes when it ends
  (DELETE, or its stdio bridge's client gone); stop_debug_session takes the agent's breakpoints
  unless asked to keep them; a program that ended needs no stop.

Line numbers are those of projects/py/app.py, projects/pyinspect and projects/c/prog.c.
"""

from __future__ import annotations

import asyncio
import os
import time

from conftest import LONG, Mcp, Server, compile_c, gdb_env_check


def values(stop: dict) -> dict:
    return {v["name"]: v.get("error") or v["value"] for v in stop["values"]}


# --- the first answer in one call -----------------------------------------------------------------


def test_one_call_sets_the_breakpoint_and_answers_the_values_at_the_stop_debugpy(py):
    _, m = py
    r = m.ok("start_debug_session", {
        "command": "python3 app.py",
        "breakpoints": [{"file_path": "app.py", "line": 19, "condition": "item['price'] == 3"}],
        "evaluate": ["item['name']", "acc", "nope_undefined"],
    })
    p = r["pause"]
    assert r["state"] == "paused" and p["reason"] == "breakpoint" and p["location"]["line"] == 19, r
    got = values(p)
    assert got["item['name']"] == "'item2'" and got["acc"] == "6", p["values"]
    assert "nope_undefined" in got["nope_undefined"], p["values"]
    assert "item['name'] = 'item2'" in m.last_text and "acc = 6" in m.last_text, m.last_text
    # The breakpoint is an ordinary one: listed, with its condition.
    bps = m.ok("list_breakpoints")["breakpoints"]
    assert [(b["line"], b.get("condition")) for b in bps] == [(19, "item['price'] == 3")], bps

    # A step answers the values at its new stop in the same call.
    s = m.ok("step_over", {"evaluate": ["acc", "item['qty']"]})
    assert s["location"]["line"] == 18 and values(s) == {"acc": "12", "item['qty']": "2"}, s
    s = m.ok("run_to_line", {"file_path": "app.py", "line": 12, "evaluate": ["item['name']"]})
    assert s["location"]["line"] == 12 and values(s) == {"item['name']": "'item3'"}, s
    assert "item['name'] = 'item3'" in m.last_text
    # The condition holds no more: the run ends, and the answer says nothing was evaluated.
    s = m.ok("resume", {"evaluate": ["item['name']"]})
    assert s["state"] == "stopped" and "values" not in s and "nothing evaluated" in s["message"], s


def test_a_function_breakpoint_and_only_recordings_answer_the_run_debugpy(py):
    _, m = py
    r = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"function": "price"}], "evaluate": ["item['price']"]})
    assert r["pause"]["location"]["line"] == 12 and values(r["pause"]) == {"item['price']": "1"}, r
    m.ok("stop_debug_session")

    # Only recordings: the run goes to its end, and the answer is every call with its result.
    r = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"function": "total", "on_hit": "record"}]})
    assert r["state"] == "stopped", r
    calls = r["pause"]["calls"]
    assert len(calls) == 1 and calls[0].startswith("#1 total(order=") and "-> 930" in calls[0], calls
    assert "-> 930" in m.last_text


def test_debug_test_records_the_calls_of_a_test_in_one_call(pi):
    _, m = pi
    r = m.ok("debug_test", {"test_id": "test_orders.py::test_total", "breakpoints": [{"function": "total", "on_hit": "record"}]})
    assert r["state"] == "stopped" and "passed" in r["message"], r
    calls = r["pause"]["calls"]
    assert len(calls) == 1 and calls[0].startswith("#1 total(items=") and "-> 5.0 @test_orders.py:" in calls[0], calls

    r = m.ok("debug_test", {"test_id": "test_orders.py::test_total", "breakpoints": [{"file_path": "orders.py", "line": 15}], "evaluate": ["acc", "len(items)"]})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == 15, r
    assert values(r["pause"]) == {"acc": "5.0", "len(items)": "2"}, r["pause"]


def test_bad_breakpoints_are_refused_before_anything_starts(py):
    _, m = py
    e = m.err("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}, {"file_path": "app.py"}]})
    assert "breakpoints[1]" in e and "line" in e, e
    e = m.err("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}, {"file_path": "no_such_file.py", "line": 3}]})
    assert "breakpoints[1]" in e and "no_such_file.py" in e, e
    # Nothing was left behind: no breakpoint, no session.
    assert m.ok("list_breakpoints")["breakpoints"] == []
    assert [s for s in m.ok("list_debug_sessions")["sessions"] if s["state"] != "stopped"] == []


def test_one_call_on_gdb():
    gdb_env_check()
    server = Server("c", "brave_mode = true\n")
    try:
        compile_c(server.project)
        m = Mcp(server.url)
        r = m.ok("start_debug_session", {
            "command": "./prog", "adapter": "gdb",
            "breakpoints": [{"file_path": "prog.c", "line": 17, "condition": "v == 3"}],
            "evaluate": ["v", "v * v"],
        })
        p = r["pause"]
        assert p["location"]["line"] == 17 and values(p) == {"v": "3", "v * v": "9"}, r
        s = m.ok("step_over", {"evaluate": ["r"]})
        assert s["location"]["line"] == 18 and values(s) == {"r": "9"}, s
        s = m.ok("step_out", {"evaluate": ["acc", "i"]})
        assert s["location"]["file"].endswith("prog.c") and values(s)["i"] == "3", s
        m.close()
    finally:
        server.stop()


# --- nothing to tidy ------------------------------------------------------------------------------


def live(m: Mcp) -> list:
    return [s["id"] for s in m.ok("list_debug_sessions")["sessions"] if s["state"] != "stopped"]


def eventually(check, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_stop_takes_the_agents_breakpoints_unless_kept(py):
    _, m = py
    m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}]})
    st = m.ok("stop_debug_session", {"keep_breakpoints": True})
    assert st["state"] == "stopped" and [b["line"] for b in m.ok("list_breakpoints")["breakpoints"]] == [19], st
    r = m.ok("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["location"]["line"] == 19
    st = m.ok("stop_debug_session")
    assert "removed your breakpoints" in st["message"], st
    assert m.ok("list_breakpoints")["breakpoints"] == []


def test_a_program_that_ended_needs_no_stop(py):
    _, m = py
    r = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"function": "price", "on_hit": "record"}]})
    assert r["state"] == "stopped"
    # The next start needs nothing first: no stop, no removal.
    r = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 30}], "evaluate": ["t"]})
    assert r["state"] == "paused" and values(r["pause"]) == {"t": "930"}, r


def test_a_call_without_session_id_never_answers_from_another_session_once_the_last_ended(py):
    _, m = py
    a = m.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}]})
    assert a["state"] == "paused" and "also" not in a, a
    s2 = a["session_id"]
    # A second session started while the first is paused says the first is still there.
    b = m.ok("start_debug_session", {"command": "python3 calls.py", "wait_for_pause": True, "timeout_ms": LONG})
    s3 = b["session_id"]
    assert b["state"] == "stopped" and s3 != s2, b
    assert b["also"] == f"still paused: {s2} (python3 app.py); calls without session_id use {s3}", b
    assert f"still paused: {s2} (python3 app.py)" in m.last_text, m.last_text
    # s3 ended: the stack of s2 would pass for s3's. The answer names both instead.
    e = m.err("get_stack_trace")
    assert f"session {s3} has ended (exit code 0)" in e and f'{s2} is still paused — pass session_id: "{s2}"' in e, e
    e = m.err("evaluate_expression", {"expression": "acc"})
    assert f"session {s3} has ended" in e, e
    # Named once, s2 is the one the agent uses: later calls without session_id go to it.
    st = m.ok("get_stack_trace", {"session_id": s2})
    assert st["frames"][0]["line"] == 19, st
    assert m.ok("get_stack_trace")["frames"][0]["line"] == 19


def test_what_an_mcp_session_made_goes_when_it_ends():
    server = Server("py", "brave_mode = true\n")
    try:
        other = Mcp(server.url)
        kept = other.ok("set_breakpoint", {"file_path": "app.py", "line": 35})["id"]
        a = Mcp(server.url)
        r = a.ok("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}]})
        assert r["state"] == "paused"
        a.ok("set_breakpoint", {"function": "price"})
        a.ok("start_debug_session", {"command": "python3 spin.py"})
        assert len(live(other)) == 2
        a.close()  # the SDK ends its MCP session (DELETE)
        eventually(lambda: live(other) == [], "the sessions outlived the MCP session that started them")
        eventually(lambda: [b["id"] for b in other.ok("list_breakpoints")["breakpoints"]] == [kept],
                   "the breakpoints outlived the MCP session that set them")
        other.close()
    finally:
        server.stop()


def test_the_stdio_bridge_ends_its_session_when_its_client_goes(tmp_path):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from conftest import sidecar_binary

    env = {"DEBUGGER_MCP_DISCOVERY_DIR": str(tmp_path / "discovery")}
    server = Server("py", "brave_mode = true\n", env=env)
    try:
        params = StdioServerParameters(command=sidecar_binary(), args=["stdio", "--project", str(server.project)],
                                       env={**os.environ, **env}, cwd=str(server.project))

        async def agent():
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as s:
                    init = await s.initialize()
                    assert "Connected through `debugger-mcp stdio`" in (init.instructions or "")
                    r = await s.call_tool("start_debug_session", {"command": "python3 app.py", "breakpoints": [{"file_path": "app.py", "line": 19}]})
                    assert not r.is_error and r.structured_content["state"] == "paused", r

        asyncio.run(agent())
        m = Mcp(server.url)
        eventually(lambda: live(m) == [] and m.ok("list_breakpoints")["breakpoints"] == [],
                   "the bridge's client is gone but its session and breakpoint are still there")
        m.close()
    finally:
        server.stop()
