"""capture on a running service (issue 26): `capture {attach, command: "curl …", points}` attaches,
arms the points, sends the request, records a row at each hit (resuming), and at the request's end
detaches, never killing the service, and removes its points: one call answers the values and the
request's exit and output, on debugpy, delve and gdb (PHP: test_php_attach.py). A request that runs
no point answers zero rows naming the point."""

from __future__ import annotations

import os
import time

import pytest

from conftest import cleaned, gdb_env_check, line_of, served
from test_attach import Service
from test_attach_trigger import build, python_service


@pytest.fixture(scope="module")
def cap_mod():
    gdb_env_check()
    yield from served("attach", prepare=build)


@pytest.fixture
def cap(cap_mod):
    yield from cleaned(cap_mod)


def test_capture_attached_to_a_service_answers_the_rows_and_the_request_then_detaches(services, cap):
    project, m = cap
    svc = python_service(project, services)
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


def test_capture_attached_whose_request_runs_no_point_answers_zero_rows_naming_it(services, cap):
    project, m = cap
    svc = python_service(project, services)
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


def test_capture_attached_to_a_go_service_on_delve(services, cap):
    project, m = cap
    svc = Service([str(project / "goservice" / "goservice.bin")], project / "goservice")
    services.append(svc)
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


def test_capture_attached_to_a_c_daemon_on_gdb(services, cap):
    """A C daemon reading a FIFO: the trigger writes a number, the row holds what it read."""
    project, m = cap
    fifo = project / "jobs-cap"
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    svc = Service([str(project / "fifo"), str(fifo)], project, port_line=False)
    services.append(svc)
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
    with open(fifo, "w") as f:
        f.write("5\n")
    done = project / f"{fifo.name}.done"
    deadline = time.time() + 10
    while time.time() < deadline and not (done.exists() and done.read_text().split()[:1] == ["2"]):
        time.sleep(0.05)
    assert svc.alive() and done.read_text().split()[:1] == ["2"], "the daemon stopped serving after the detach"
