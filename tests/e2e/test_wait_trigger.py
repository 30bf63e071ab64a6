"""wait_for_pause takes what a start takes for its stop (issue 26): `evaluate` answers the stop
with those values, as resume and the steps do; `command` on a running session sends the request
as an attach's trigger is sent (its exit and output reported as start reports them) and answers
the stop it causes. The case from the benchmark: an attach+trigger on a wrong line ran through, a
breakpoint on the right line, then one call answers the handler's values (real debugpy).

Line numbers are those of projects/py/app.py and projects/attach/service.py."""

from __future__ import annotations

import time

import pytest

from conftest import cleaned, line_of, served


@pytest.fixture(scope="module")
def svc_mod():
    yield from served("attach")


@pytest.fixture
def svc(svc_mod):
    yield from cleaned(svc_mod)


def values(stop: dict) -> dict:
    return {v["name"]: v.get("error") or v["value"] for v in stop["values"]}


def test_after_a_missed_trigger_wait_for_pause_sends_the_request_and_answers_the_values(attach_services, svc):
    project, m = svc
    service = attach_services.python(project)
    url = f"http://127.0.0.1:{service.port}/order?item=book&qty=3"
    # The agent's first guess: a line no request runs (the start-up print, run before the
    # attach; not `def log_message`, now moved to its body, which each request runs).
    wrong = line_of(project, "service.py", "listening on")
    started = m.ok("start_debug_session", {
        "attach": str(service.pid),
        "command": f"curl -s '{url}'",
        "breakpoints": [{"file_path": "service.py", "line": wrong}],
        "evaluate": ["total"],
    })
    assert "without hitting a breakpoint" in started["message"], started
    right = line_of(project, "service.py", "ORDERS.append(")
    m.ok("set_breakpoint", {"file_path": "service.py", "line": right})
    began = time.monotonic()
    stop = m.ok("wait_for_pause", {"command": f"curl -s '{url}'", "evaluate": ["total", "item", "qty"]})
    assert stop["state"] == "paused" and stop["location"]["line"] == right, stop
    assert values(stop) == {"total": "36", "item": "'book'", "qty": "3"}, stop
    assert time.monotonic() - began < 20, stop
    # The request waits on the paused handler; the resume that lets it finish tells its end.
    resumed = m.ok("resume", {})
    assert resumed["trigger"]["status"] == "exited with code 0", resumed
    assert '"total": 36' in resumed["trigger"]["output"], resumed
    # A request that misses every breakpoint is answered at once, with its output.
    began = time.monotonic()
    missed = m.ok("wait_for_pause", {"command": f"curl -s -i -X POST http://127.0.0.1:{service.port}/order", "evaluate": ["total"]})
    assert time.monotonic() - began < 20, missed
    assert missed["state"] == "running" and "without hitting a breakpoint" in missed["message"], missed
    assert "501" in missed["trigger"]["output"] and "nothing evaluated" in missed["message"], missed
    m.ok("stop_debug_session", {})
    assert service.alive()


def test_wait_for_pause_command_is_refused_at_a_pause_naming_what_to_do(attach_services, svc):
    project, m = svc
    service = attach_services.python(project)
    right = line_of(project, "service.py", "ORDERS.append(")
    url = f"http://127.0.0.1:{service.port}/order?item=pen&qty=2"
    m.ok("start_debug_session", {
        "attach": str(service.pid),
        "command": f"curl -s '{url}'",
        "breakpoints": [{"file_path": "service.py", "line": right}],
    })
    e = m.err("wait_for_pause", {"command": f"curl -s '{url}'"})
    assert "paused" in e and "resume" in e, e
    e = m.err("wait_for_pause", {"evaluate": [" "]})
    assert "evaluate[0] is empty" in e, e
    m.ok("stop_debug_session", {})


def test_wait_for_pause_evaluates_at_the_stop_of_a_launched_program(py):
    _, m = py
    r = m.ok("start_debug_session", {
        "command": "python3 app.py",
        "breakpoints": [{"file_path": "app.py", "line": 19, "condition": "item['price'] >= 3"}],
    })
    assert r["pause"]["location"]["line"] == 19, r
    m.ok("resume", {"wait": False})
    s = m.ok("wait_for_pause", {"evaluate": ["item['name']", "acc"]})
    assert s["state"] == "paused" and s["location"]["line"] == 19, s
    assert values(s) == {"item['name']": "'item3'", "acc": "12"}, s


def test_each_request_to_an_attached_service_answers_the_calls_it_made(attach_services, svc):
    # Recording breakpoints on an attached service: each request's calls (arguments and
    # result) come with the answer that sent it. The start said "completed without hitting a
    # breakpoint" (read as: never reached), and wait_for_pause {command} showed no calls.
    project, m = svc
    service = attach_services.python(project)
    url = f"http://127.0.0.1:{service.port}/order"
    started = m.ok("start_debug_session", {
        "attach": str(service.pid),
        "command": f"curl -s '{url}?item=book&qty=3'",
        "breakpoints": [{"function": "price", "on_hit": "record"}],
    })
    assert "without hitting" not in started["message"] and "record" in started["message"], started
    calls = started["pause"]["calls"]
    assert len(calls) == 1 and "item='book'" in calls[0] and "-> 36" in calls[0], started
    again = m.ok("wait_for_pause", {"command": f"curl -s '{url}?item=pen&qty=2'"})
    assert again["state"] == "running" and "without hitting" not in again["message"], again
    # Only this request's call, not the first one's again.
    assert len(again["calls"]) == 1 and "item='pen'" in again["calls"][0], again
