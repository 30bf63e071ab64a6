"""Attach, send the request, answer the stop: one call (issues 26 and 29). A service started outside
the server, `start_debug_session {attach, command: "curl …", breakpoints, evaluate}` attaches, arms
the breakpoints, runs the command as a shell runs it beside the service, and answers the
handler's stop with the values; the command's exit and output come with a later result; a request
that misses the breakpoints is answered at once with its output; the command still running when
the session detaches finishes once the service runs on, its answer in the detach's result; the
service keeps serving."""

from __future__ import annotations

import os
import time

import pytest

from conftest import build_attach, cleaned, gdb_env_check, line_of, second_job_done, served


@pytest.fixture(scope="module")
def trig_mod():
    gdb_env_check()
    yield from served("attach", prepare=build_attach)


@pytest.fixture
def trig(trig_mod):
    yield from cleaned(trig_mod)


def test_attach_by_pid_sends_the_request_and_answers_its_stop_in_one_call(attach_services, trig):
    project, m = trig
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid),
        "command": f"curl -s 'http://127.0.0.1:{svc.port}/order?item=book&qty=3'",
        "breakpoints": [{"file_path": "service.py", "line": line}],
        "evaluate": ["total", "item", "len(ORDERS)"],
    })
    pause = started["pause"]
    assert pause["state"] == "paused" and pause["reason"] == "breakpoint", started
    assert pause["location"]["line"] == line, started
    assert [v["value"] for v in pause["values"]] == ["36", "'book'", "1"], pause["values"]
    # The request waits on the paused handler: its end comes later.
    assert pause["trigger"]["status"] == "running", started
    # The resume lets the request finish: its answer says how the trigger ended, with its output.
    resumed = m.ok("resume", {})
    assert resumed["state"] == "running" and not resumed.get("timed_out"), resumed
    assert resumed["trigger"]["status"] == "exited with code 0", resumed
    assert '"total": 36' in resumed["trigger"]["output"] and '"orders": 2' in resumed["trigger"]["output"], resumed
    assert "trigger" in m.last_text and '"total": 36' in m.last_text, m.last_text
    stopped = m.ok("stop_debug_session", {})
    assert "detached" in stopped["message"], stopped
    assert svc.alive() and svc.get("item=pen&qty=1")["orders"] == 3


def test_a_request_that_misses_the_breakpoints_is_answered_at_once_with_its_output(attach_services, trig):
    project, m = trig
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    began = time.monotonic()
    # The service has no do_POST: the handler's line never runs.
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid),
        "command": f"curl -s -i -X POST http://127.0.0.1:{svc.port}/order",
        "breakpoints": [{"file_path": "service.py", "line": line}],
        "evaluate": ["total"],
    })
    took = time.monotonic() - began
    assert took < 20, f"the start waited for its timeout ({took:.1f} s): {started}"
    assert "without hitting a breakpoint" in started["message"], started
    pause = started["pause"]
    assert pause["state"] == "running" and not pause.get("timed_out"), pause
    assert pause["trigger"]["status"] == "exited with code 0", pause
    assert "501" in pause["trigger"]["output"], pause
    # The session stays attached: the next request the agent sends stops in the handler.
    pending = svc.get_later("item=pen&qty=2")
    stop = m.ok("wait_for_pause", {"timeout_ms": 55000})
    assert stop["state"] == "paused" and stop["location"]["line"] == line, stop
    assert "trigger" not in stop, stop
    m.ok("resume", {"wait": False})
    pending["thread"].join(30)
    assert pending.get("answer", {}).get("total") == 6, pending
    m.ok("stop_debug_session", {})
    assert svc.alive()


def test_the_trigger_runs_as_a_shell_runs_it_and_finishes_after_the_detach(attach_services, trig):
    project, m = trig
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    pidfile = project / "trigger.pid"
    pidfile.unlink(missing_ok=True)
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid),
        # `;`, a redirection, a variable and `exec`: sh -c reads it.
        "command": f"echo $$ > trigger.pid; Q=4; exec curl -s \"http://127.0.0.1:{svc.port}/order?item=pen&qty=$Q\"",
        "breakpoints": [{"file_path": "service.py", "line": line}],
        "evaluate": ["qty"],
    })
    assert started["pause"]["values"][0]["value"] == "4", started
    pid = int(pidfile.read_text().split()[0])
    assert os.path.exists(f"/proc/{pid}"), "the trigger should still wait on the paused handler"
    status = m.ok("get_debug_session_status", {})
    assert status["trigger"]["status"] == "running", status
    # The detach lets the service answer the request the pause held: the trigger is not cut
    # off mid-request (a service's client would see a dropped connection), and its answer is
    # shown in the stop's result.
    stopped = m.ok("stop_debug_session", {})
    msg = stopped["message"]
    assert "detached" in msg and "trigger `echo $$ > trigger.pid" in msg, stopped
    assert "exited with code 0 once the program ran on" in msg, stopped
    assert "trigger output:" in msg and '"total": 12, "orders": 2' in msg, stopped
    assert not os.path.exists(f"/proc/{pid}"), "the trigger should have finished"
    assert svc.alive() and svc.get("item=pen&qty=1")["orders"] == 3


def test_attach_with_breakpoints_and_no_command_answers_at_once(attach_services, trig):
    """Nothing stops an idle service until a request comes: the start says to send one."""
    project, m = trig
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    began = time.monotonic()
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid),
        "breakpoints": [{"file_path": "service.py", "line": line}],
        "evaluate": ["total"],
    })
    took = time.monotonic() - began
    assert took < 20, f"the start waited for its timeout ({took:.1f} s): {started}"
    assert started["state"] == "running" and "pause" not in started, started
    assert "send the request" in started["message"] and "wait_for_pause" in started["message"], started
    pending = svc.get_later("item=book&qty=1")
    stop = m.ok("wait_for_pause", {"timeout_ms": 55000})
    assert stop["state"] == "paused" and stop["location"]["line"] == line, stop
    m.ok("resume", {"wait": False})
    pending["thread"].join(30)
    assert pending.get("answer", {}).get("total") == 12, pending
    m.ok("stop_debug_session", {})


@pytest.mark.parametrize("adapter", ["gdb", "lldb"])
def test_a_c_daemon_reading_a_fifo_stops_at_the_line_the_trigger_feeds(attach_services, trig, adapter):
    """The same one call on gdb and lldb-dap: a C daemon blocked reading a FIFO, the trigger writes a number
    into it, the stop in the handler answers with the number read."""
    project, m = trig
    fifo, svc = attach_services.fifo_daemon(project, f"jobs-{adapter}")
    line = line_of(project, "fifo.c", "long cost = n * 3;")
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid), "adapter": adapter,
        "command": f"echo 7 > {fifo.name}",
        "breakpoints": [{"file_path": "fifo.c", "line": line}],
        "evaluate": ["n", "handled"],
    })
    pause = started["pause"]
    assert pause["state"] == "paused" and pause["location"]["line"] == line, started
    assert [v["value"] for v in pause["values"]] == ["7", "0"], pause["values"]
    # echo ends once the line is in the FIFO, about when the daemon stops: either is told.
    assert pause["trigger"]["status"] in ("exited with code 0", "running"), pause
    stopped = m.ok("stop_debug_session", {})
    assert "detached" in stopped["message"], stopped
    assert second_job_done(project, fifo, svc), "the daemon stopped serving after the detach"


def test_a_go_service_attached_by_pid_answers_the_triggered_request_in_one_call(attach_services, trig):
    """The same one call on delve: a Go HTTP server by pid, curl as the trigger."""
    project, m = trig
    svc = attach_services.go(project)
    line = line_of(project, "goservice/main.go", "mu.Lock()")
    started = m.ok("start_debug_session", {
        "attach": str(svc.pid),
        "command": f"curl -s 'http://127.0.0.1:{svc.port}/order?item=book&qty=2'",
        "breakpoints": [{"file_path": "goservice/main.go", "line": line}],
        "evaluate": ["total", "qty"],
    })
    pause = started["pause"]
    assert pause["state"] == "paused" and pause["location"]["line"] == line, started
    assert [v["value"] for v in pause["values"]] == ["24", "2"], pause["values"]
    resumed = m.ok("resume", {})
    assert resumed["trigger"]["status"] == "exited with code 0" and '"total": 24' in resumed["trigger"]["output"], resumed
    m.ok("stop_debug_session", {})
    assert svc.alive() and svc.get("item=pen&qty=1")["total"] == 3
