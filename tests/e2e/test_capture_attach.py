"""capture on a running service (issue 26): `capture {attach, command: "curl …", points}` attaches,
arms the points, sends the request, records a row at each hit (resuming), and at the request's end
detaches, never killing the service, and removes its points: one call answers the values and the
request's exit and output. A request that runs no point answers zero rows naming the point."""

from __future__ import annotations

import pytest

from conftest import cleaned, line_of, served
from test_attach import services  # noqa: F401 - the fixture ending the services started
from test_attach_trigger import python_service


@pytest.fixture(scope="module")
def cap_mod():
    yield from served("attach")


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
