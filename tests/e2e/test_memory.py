"""Agent memory and guardrails end to end on real debuggers (debugpy, gdb), through the Python
MCP SDK against `debugger-mcp serve`: value history across resumes, the session summary (tool and
file), console output with cursors, resource update notifications on pause, and the idle
watchdog with a short configured timeout.

Line numbers are those of projects/py/app.py and projects/c/prog.c.
"""

from __future__ import annotations

import json
import time

import pytest

from conftest import LONG, start



def wait_for(predicate, what: str, seconds: float = 20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def test_history_of_a_variable_that_changed_three_times_debugpy(py):
    _, m = py
    r = m.pause_at("app.py", 19, {"run_configuration": "Run app"})
    sid = r["session_id"]
    for _ in range(3):
        assert m.ok("resume", {"timeout_ms": LONG})["location"]["line"] == 19
    # acc is 0, 2, 6, 12 at the four hits (item prices 1..n, qty 2); the agent only stepped.
    h = m.ok("get_debug_history", {"name": "acc", "changes": True})
    assert [(c["step"], c["value"], c["location"]) for c in h["changes"]] == [
        (1, "0", "app.py:19"), (2, "2", "app.py:19"), (3, "6", "app.py:19"), (4, "12", "app.py:19")]
    assert h["changes"][3]["previous"] == "6" and h["changes"][3]["function"] == "total"
    ago = m.ok("get_debug_history", {"name": "acc", "steps_ago": 3})
    assert ago["value"] == "0" and ago["at_step"] == 1
    at_line = m.ok("get_debug_history", {"name": "acc", "line": 19, "file_path": "app.py"})
    assert [v["value"] for v in at_line["values"]] == ["0", "2", "6", "12"]
    # Value ids died at each resume; the ledger did not, and it outlives the session.
    m.ok("stop_debug_session", {"session_id": sid})
    assert m.ok("get_debug_history", {"session_id": sid, "name": "acc", "steps_ago": 0})["value"] == "12"
    bad = m.err("get_debug_history", {"session_id": sid, "name": "accc"})
    assert "'accc' was never read" in bad and "'acc'" in bad


def test_summary_names_the_exception_and_the_values_set_debugpy(py):
    project, m = py
    bp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 19})
    sid = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": LONG})["session_id"]
    assert m.ok("set_variable", {"path": "acc", "new_value": "100"})["variable"]["value"] == "100"
    m.ok("remove_breakpoint", {"breakpoint_id": bp["id"]})
    m.ok("set_breakpoint", {"exception_class": "raised"})
    p = m.ok("resume", {"timeout_ms": LONG})
    assert p["reason"] == "exception" and p["location"]["line"] == 32, p
    md = m.ok("get_session_summary")["markdown"]
    assert "## Exceptions" in md and "ValueError" in md and "bad order" in md and "app.py:32" in md, md
    assert "## Values modified" in md and "`acc` = 100" in md, md
    assert "step 1: app.py:19 in total — breakpoint" in md, md
    m.ok("stop_debug_session", {"session_id": sid})
    written = project / ".debugger-mcp" / "sessions" / f"{sid}.md"
    wait_for(written.exists, f"{written}")
    text = written.read_text()
    assert "ValueError" in text and "`acc` = 100" in text, text


def test_console_output_since_a_cursor_debugpy(py):
    _, m = py
    sid = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": LONG})["session_id"]

    def all_output():
        got = m.ok("get_console_output", {"session_id": sid, "category": "stdout"})
        text = "".join(o["text"] for o in got["output"])
        return got if "done 5000 12" in text else None

    first = wait_for(all_output, "the program's output")
    text = "".join(o["text"] for o in first["output"])
    assert "total=930 count=3" in text and "caught bad order" in text
    again = m.ok("get_console_output", {"cursor": first["next_cursor"]})
    assert again["output"] == [] and again["next_cursor"] == first["next_cursor"]
    bad = m.err("get_console_output", {"session_id": sid, "cursor": "another-session:0"})
    assert "belongs to session another-session" in bad and sid in bad


def test_resource_update_arrives_on_pause_debugpy(py):
    _, m = py
    m.subscribe("debugger://status")
    before = len(m.updated_uris())
    sid = m.pause_at("app.py", 19, {"run_configuration": "Run app"})["session_id"]
    wait_for(lambda: "debugger://status" in m.updated_uris()[before:], "notifications/resources/updated for debugger://status")
    status = json.loads(m.read_resource("debugger://status"))
    mine = [s for s in status["sessions"] if s["id"] == sid][0]
    assert mine["state"] == "paused" and mine["reason"] == "breakpoint" and mine["location"] == "app.py:19", status
    summary = m.read_resource(f"debugger://sessions/{sid}/summary")
    assert "step 1: app.py:19" in summary, summary


def test_progress_notifications_during_a_long_wait_debugpy(py):
    _, m = py
    sid = m.ok("start_debug_session", {"command": "python3 spin.py"})["session_id"]
    res, seen = m.call_with_progress("wait_for_pause", {"session_id": sid, "timeout_ms": 3500})
    assert not res.is_error and res.structured_content["timed_out"] is True
    assert len(seen) >= 2, seen
    assert [p for p, _ in seen] == sorted(p for p, _ in seen) and "wait_for_pause: waiting" in seen[0][1], seen


def test_watchdog_resumes_an_idle_pause_after_a_short_timeout_debugpy():
    server, m = start("py", 'brave_mode = true\n[watchdog]\nidle_seconds = 2\naction = "resume"\n')
    try:
        r = m.pause_at("app.py", 35, {"run_configuration": "Run app"})
        sid = r["session_id"]
        assert r["pause"]["location"]["line"] == 35
        time.sleep(4)
        # The next call is told what happened; the program ran to its end meanwhile.
        listed = m.ok("list_debug_sessions")
        notice = listed["watchdog"][0]
        assert notice["action"] == "resumed" and notice["session_id"] == sid, listed
        assert "app.py:35 (step 1)" in notice["message"] and "2 s" in notice["message"], notice
        st = wait_for(lambda: (s := m.ok("get_debug_session_status", {"session_id": sid}))["state"] == "stopped" and s, "the end of the program")
        assert "watchdog" not in st  # told once
        assert "watchdog" in m.ok("get_session_summary", {"session_id": sid})["markdown"]
    finally:
        m.close()
        assert server.stop() == 0


def test_history_summary_and_output_on_gdb(c):
    project, m = c
    r = m.pause_at("prog.c", 24, {"run_configuration": "prog (gdb)"})
    sid = r["session_id"]
    for _ in range(3):
        assert m.ok("resume", {"timeout_ms": LONG})["location"]["line"] == 24
    # acc in sum_squares before each `acc += square(i)`: 0, 1, 5, 14.
    h = m.ok("get_debug_history", {"name": "acc", "changes": True})
    assert [(c["step"], c["value"]) for c in h["changes"]] == [(1, "0"), (2, "1"), (3, "5"), (4, "14")], h
    assert h["changes"][0]["location"] == "prog.c:24"
    assert m.ok("get_debug_history", {"name": "acc", "steps_ago": 2})["value"] == "1"
    m.ok("set_variable", {"path": "acc", "new_value": "70"})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped"

    def printed():
        got = m.ok("get_console_output", {"session_id": sid, "category": "stdout"})
        return got if any("result=" in o["text"] for o in got["output"]) else None

    out = wait_for(printed, "gdb program output")
    assert any("result=86 counter=7" in o["text"] for o in out["output"]), out  # 70 + 16
    md = m.ok("get_session_summary", {"session_id": sid})["markdown"]
    assert "`acc` = 70" in md and "ended" in md, md
    bad = m.err("get_debug_history", {"session_id": sid, "name": "nope"})
    assert "'nope' was never read" in bad
