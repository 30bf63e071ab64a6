"""capture on a running service (issue 26): `capture {attach, command: "curl …", points}` attaches,
arms the points, sends the request, records a row at each hit (resuming), and at the request's end
detaches, never killing the service, and removes its points: one call answers the values and the
request's exit and output, on debugpy, delve and gdb (PHP: test_php_attach.py). A request that runs
no point answers zero rows naming the point."""

from __future__ import annotations

import pytest

from conftest import Mcp, build_attach, cleaned, gdb_env_check, line_of, second_job_done, served


@pytest.fixture(scope="module")
def cap_mod():
    gdb_env_check()
    yield from served("attach", prepare=build_attach)


@pytest.fixture
def cap(cap_mod):
    yield from cleaned(cap_mod)


def test_capture_attached_to_a_service_answers_the_rows_and_the_request_then_detaches(attach_services, cap):
    project, m = cap
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    r = m.ok("capture", {
        "attach": str(svc.pid),
        "command": f"curl -s 'http://127.0.0.1:{svc.port}/order?item=book&qty=3'",
        "points": [{"file_path": "service.py", "line": line}],
        "expressions": ["total", "item", "len(ORDERS)"],
    })
    assert r["end"] == "trigger", r
    assert len(r["hits"]) == 1, r
    assert [v["value"] for v in r["hits"][0]["values"]] == ["36", "'book'", "1"], r["hits"]
    assert r["trigger"]["status"] == "exited with code 0", r
    assert '"total": 36' in r["trigger"]["output"], r
    assert r["state"] == "stopped" and "detached" in r["message"], r
    # What the agent reads: the values and the request's answer.
    assert "total = 36" in m.last_text and "trigger `curl" in m.last_text and '"total": 36' in m.last_text, m.last_text
    # Nothing left behind: no breakpoint, no session; the service serves on, unpaused.
    assert m.ok("list_breakpoints", {})["breakpoints"] == [], "capture's points stay"
    assert m.ok("list_debug_sessions", {})["sessions"] == [], "still attached"
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 3


def test_capture_attached_whose_request_runs_no_point_answers_zero_rows_naming_it(attach_services, cap):
    project, m = cap
    svc = attach_services.python(project)
    line = line_of(project, "service.py", "ORDERS.append(")
    # The service has no do_POST: the handler's line never runs.
    r = m.ok("capture", {
        "attach": str(svc.pid),
        "command": f"curl -s -i -X POST http://127.0.0.1:{svc.port}/order",
        "points": [{"file_path": "service.py", "line": line}],
        "expressions": ["total"],
    })
    assert r["hits"] == [] and r["end"] == "trigger", r
    assert f"point 1 (service.py:{line}): never hit" in r["message"], r["message"]
    assert "501" in r["trigger"]["output"], r
    assert m.ok("list_breakpoints", {})["breakpoints"] == []
    assert svc.alive() and svc.get("item=pen&qty=2", timeout=10)["total"] == 6


def test_capture_attach_needs_the_request_as_command(cap):
    _, m = cap
    e = m.err("capture", {"attach": "4242", "points": [{"file_path": "service.py", "line": 3}]})
    assert "command" in e and "curl" in e, e
    assert m.ok("list_breakpoints", {})["breakpoints"] == [], "a refused capture changes nothing"


def test_capture_attached_to_a_go_service_on_delve(attach_services, cap):
    project, m = cap
    svc = attach_services.go(project)
    line = line_of(project, "goservice/main.go", "mu.Lock()")
    r = m.ok("capture", {
        "attach": str(svc.pid),
        "command": f"curl -s 'http://127.0.0.1:{svc.port}/order?item=book&qty=2'",
        "points": [{"file_path": "goservice/main.go", "line": line}],
        "expressions": ["total", "qty"],
    })
    assert [[v["value"] for v in h["values"]] for h in r["hits"]] == [["24", "2"]], r
    assert r["trigger"]["status"] == "exited with code 0" and '"total": 24' in r["trigger"]["output"], r
    assert m.ok("list_debug_sessions", {})["sessions"] == [], "still attached"
    assert svc.alive() and svc.get("item=pen&qty=1")["total"] == 3


def test_capture_attached_to_a_c_daemon_on_gdb(attach_services, cap):
    """A C daemon reading a FIFO: the trigger writes a number, the row holds what it read."""
    project, m = cap
    fifo, svc = attach_services.fifo_daemon(project, "jobs-cap")
    line = line_of(project, "fifo.c", "long cost = n * 3;")
    r = m.ok("capture", {
        "attach": str(svc.pid),
        "command": f"echo 7 > {fifo.name}",
        "points": [{"file_path": "fifo.c", "line": line}],
        "expressions": ["n"],
    })
    assert [[v["value"] for v in h["values"]] for h in r["hits"]] == [["7"]], r
    assert r["trigger"]["status"] == "exited with code 0", r
    assert m.ok("list_debug_sessions", {})["sessions"] == [], "still attached"
    assert second_job_done(project, fifo, svc), "the daemon stopped serving after the detach"


# --- capture on the agent's own attached session (issue 26, third hidden set) ---------------------


def curl(svc, query: str) -> str:
    return f"curl -s 'http://127.0.0.1:{svc.port}/order?{query}'"


def live_sessions(m) -> dict:
    return {s["id"]: s["state"] for s in m.ok("list_debug_sessions", {})["sessions"]}


def test_capture_command_while_attached_is_the_sessions_trigger_and_leaves_it_attached(attach_services, cap):
    """`capture {command: "curl …"}` after start_debug_session {attach}: the command is the
    attached session's trigger (not a program to launch), rows are recorded at each hit, and the
    session stays attached and running with the agent's own breakpoint as it was."""
    project, m = cap
    svc = attach_services.python(project)
    sid = m.ok("start_debug_session", {"attach": str(svc.pid)})["session_id"]
    # The agent's own breakpoint, on a line a GET never runs (the start-up print, run before
    # the attach; not `def log_message`, now moved to its body, which each request runs):
    # capture leaves it alone.
    mine = m.ok("set_breakpoint", {"file_path": "service.py", "line": line_of(project, "service.py", "listening on")})
    line = line_of(project, "service.py", "ORDERS.append(")
    r = m.ok("capture", {
        "command": curl(svc, "item=book&qty=3"),
        "points": [{"file_path": "service.py", "line": line}],
        "expressions": ["total", "item"],
    })
    assert r["session_id"] == sid and r["end"] == "trigger", r
    assert [[v["value"] for v in h["values"]] for h in r["hits"]] == [["36", "'book'"]], r
    assert r["trigger"]["status"] == "exited with code 0" and '"total": 36' in r["trigger"]["output"], r
    assert r["state"] == "running" and f"session {sid} stays attached" in r["message"], r
    assert "detached" not in r["message"], r
    assert [b["id"] for b in m.ok("list_breakpoints", {})["breakpoints"]] == [mine["id"]], "capture's point stayed, or the agent's went"
    assert live_sessions(m) == {sid: "running"}, "the attached session did not stay"
    # Still attached: a second capture records again through the same session.
    r = m.ok("capture", {
        "command": curl(svc, "item=pen&qty=2"),
        "points": [{"file_path": "service.py", "line": line}],
        "expressions": ["total"],
        "max_hits": 1,
    })
    assert r["session_id"] == sid and [[v["value"] for v in h["values"]] for h in r["hits"]] == [["6"]], r
    assert live_sessions(m) == {sid: "running"}
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 4


def test_capture_attach_on_the_agents_own_attached_process_reuses_its_session(attach_services, cap):
    """`capture {attach: pid, command}` while the agent's session is attached to that pid: no
    second attach and no refusal; the session records and stays attached (delve)."""
    project, m = cap
    svc = attach_services.go(project)
    sid = m.ok("start_debug_session", {"attach": str(svc.pid)})["session_id"]
    line = line_of(project, "goservice/main.go", "mu.Lock()")
    r = m.ok("capture", {
        "attach": str(svc.pid),
        "command": curl(svc, "item=book&qty=2"),
        "points": [{"file_path": "goservice/main.go", "line": line}],
        "expressions": ["total", "qty"],
    })
    assert r["session_id"] == sid, r
    assert [[v["value"] for v in h["values"]] for h in r["hits"]] == [["24", "2"]], r
    assert r["trigger"]["status"] == "exited with code 0", r
    assert live_sessions(m) == {sid: "running"} and m.ok("list_breakpoints", {})["breakpoints"] == []
    assert svc.alive() and svc.get("item=pen&qty=1")["total"] == 3


def test_capture_command_on_a_c_daemon_the_agent_attached_to_with_gdb(attach_services, cap):
    project, m = cap
    fifo, svc = attach_services.fifo_daemon(project, "jobs-own")
    sid = m.ok("start_debug_session", {"attach": str(svc.pid)})["session_id"]
    line = line_of(project, "fifo.c", "long cost = n * 3;")
    r = m.ok("capture", {
        "command": f"echo 7 > {fifo.name}",
        "points": [{"file_path": "fifo.c", "line": line}],
        "expressions": ["n"],
    })
    assert r["session_id"] == sid and [[v["value"] for v in h["values"]] for h in r["hits"]] == [["7"]], r
    assert live_sessions(m) == {sid: "running"}, "the attached session did not stay"
    # Running, with no point left: the next job goes through.
    assert second_job_done(project, fifo, svc), "the daemon stopped serving"


def test_capture_command_with_two_attached_sessions_names_them_and_takes_session_id(attach_services, cap):
    project, m = cap
    one, two = attach_services.python(project), attach_services.python(project)
    s1 = m.ok("start_debug_session", {"attach": str(one.pid)})["session_id"]
    s2 = m.ok("start_debug_session", {"attach": str(two.pid)})["session_id"]
    line = line_of(project, "service.py", "ORDERS.append(")
    args = {"command": curl(two, "item=book&qty=1"), "points": [{"file_path": "service.py", "line": line}], "expressions": ["total"]}
    e = m.err("capture", args)
    assert s1 in e and s2 in e and "session_id" in e, e
    assert m.ok("list_breakpoints", {})["breakpoints"] == [], "a refused capture changes nothing"
    r = m.ok("capture", {**args, "session_id": s2})
    assert r["session_id"] == s2 and [[v["value"] for v in h["values"]] for h in r["hits"]] == [["12"]], r
    assert live_sessions(m) == {s1: "running", s2: "running"}


def test_capture_attach_on_a_process_another_client_is_attached_to_is_refused_naming_it(attach_services, cap):
    project, m = cap
    svc = attach_services.python(project)
    other = Mcp(m.url)
    try:
        theirs = other.ok("start_debug_session", {"attach": str(svc.pid)})["session_id"]
        line = line_of(project, "service.py", "ORDERS.append(")
        e = m.err("capture", {
            "attach": str(svc.pid),
            "command": curl(svc, "item=book&qty=1"),
            "points": [{"file_path": "service.py", "line": line}],
        })
        assert f"debug session {theirs}" in e and "another client" in e, e
        assert m.ok("list_breakpoints", {})["breakpoints"] == []
    finally:
        other.close()
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 2
