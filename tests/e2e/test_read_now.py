"""A read of a running process in one call (issue 26), as `gdb -batch -p PID -ex 'p x'` is:
`capture {attach, expressions}` with no points and no command attaches, pauses the process once,
evaluates each expression in the paused thread's frames top down (the first frame that has its
names answers it, and is named), resumes and detaches. `start_debug_session {attach, evaluate}`
does the same read and stays attached, running. On gdb (a C daemon blocked in accept()) and
debugpy (a service idle in serve_forever); the process serves on after the read."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys

import pytest

from conftest import Service, build_c, cleaned, gdb_env_check, served


@pytest.fixture(scope="module")
def rn_mod():
    gdb_env_check()
    yield from served("attach", prepare=lambda project: build_c(project, "roster"))


@pytest.fixture
def rn(rn_mod):
    yield from cleaned(rn_mod)


def ask_roster(svc: Service) -> str:
    """One connection to roster.c's daemon: the size of its table."""
    with socket.create_connection(("127.0.0.1", svc.port), timeout=10) as s:
        return s.makefile().readline().strip()


def values_by_name(r: dict) -> dict:
    return {v["name"]: v for h in r["hits"] for v in h["values"]}


def frame_of(r: dict, name: str) -> str:
    return next(h["frame"] for h in r["hits"] if any(v["name"] == name for v in h["values"]))


def nothing_left(m):
    assert m.ok("list_debug_sessions", {})["sessions"] == [], "still attached"
    assert m.ok("list_breakpoints", {})["breakpoints"] == []


def test_capture_reads_a_c_static_while_the_daemon_blocks_in_accept(services, rn):
    project, m = rn
    svc = Service([str(project / "roster")], project)
    services.append(svc)
    assert ask_roster(svc) == "2"
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["npeople", "people[1].age", "people[0].name"]})
    vals = values_by_name(r)
    assert vals["npeople"]["value"] == "2", r
    assert vals["people[1].age"]["value"] == "42", r
    assert '"ann"' in vals["people[0].name"]["value"], r
    # Named by the frame that answered, and said in one short text.
    assert frame_of(r, "npeople").startswith("#"), r
    assert "npeople = 2" in m.last_text and "people[1].age = 42" in m.last_text, m.last_text
    assert r["end"] == "read" and "detached" in r["message"], r
    nothing_left(m)
    assert svc.alive() and ask_roster(svc) == "2", "the daemon stopped serving after the read"


def test_capture_reads_a_module_global_of_a_python_service_idle_in_serve_forever(services, rn):
    project, m = rn
    svc = Service([sys.executable, "service.py"], project)
    services.append(svc)
    assert svc.get("item=book&qty=3")["orders"] == 1
    long = "'x' * 300 + str(len(ORDERS))"
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["len(ORDERS)", "ORDERS[0][2]", "nosuch + 1", long]})
    vals = values_by_name(r)
    assert vals["len(ORDERS)"]["value"] == "1" and vals["ORDERS[0][2]"]["value"] == "36", r
    # Asked for by name, a value is read whole, as evaluate_expression reads it (not cut at a
    # row's 200 characters: an agent spent two more reads on a cut list).
    assert vals[long]["value"] == "'" + "x" * 300 + "1'", vals[long]
    # Found where the main module runs, below the select() the pause landed in.
    assert "service.py" in frame_of(r, "len(ORDERS)"), r
    # A name nothing has fails alone, saying so.
    assert "nosuch" in vals["nosuch + 1"]["error"] and not vals["nosuch + 1"]["value"], r
    assert "3 of 4 expressions read" in r["message"] and "detached" in r["message"], r
    nothing_left(m)
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 2


def test_start_debug_session_attach_with_evaluate_answers_the_values_and_stays_attached_running(services, rn):
    project, m = rn
    svc = Service([sys.executable, "service.py"], project)
    services.append(svc)
    assert svc.get("item=pen&qty=2")["orders"] == 1
    r = m.ok("start_debug_session", {"attach": str(svc.pid), "evaluate": ["ORDERS[-1][2]", "ORDERS.clear()", "len(ORDERS)"]})
    assert "read" in r, r
    vals = {v["name"]: v for h in r["read"] for v in h["values"]}
    assert vals["ORDERS[-1][2]"]["value"] == "6" and vals["len(ORDERS)"]["value"] == "1", r
    # The side-effect guard holds here as in every evaluation: refused alone, never run.
    assert "allow_side_effects" in vals["ORDERS.clear()"]["error"], r
    assert r["state"] == "running" and "resumed" in r["message"], r
    assert "ORDERS[-1][2] = 6" in m.last_text, m.last_text
    sessions = m.ok("list_debug_sessions", {})["sessions"]
    assert [(s["id"], s["state"]) for s in sessions] == [(r["session_id"], "running")], sessions
    # Running, still attached: requests are served.
    assert svc.get("item=pen&qty=1", timeout=10)["orders"] == 2
    m.ok("stop_debug_session", {})
    assert svc.alive()


@pytest.mark.parametrize("adapter", ["gdb", "lldb"])
def test_start_debug_session_attach_with_evaluate_on_a_c_daemon(services, rn, adapter):
    project, m = rn
    svc = Service([str(project / "roster")], project)
    services.append(svc)
    r = m.ok("start_debug_session", {"attach": str(svc.pid), "adapter": adapter, "evaluate": ["people[1].age", "no_such_thing"]})
    assert "read" in r, r
    vals = {v["name"]: v for h in r["read"] for v in h["values"]}
    assert vals["people[1].age"]["value"] == "42", r
    assert "no_such_thing" in vals["no_such_thing"]["error"], r
    assert r["state"] == "running", r
    assert ask_roster(svc) == "2", "the daemon does not serve while attached"
    m.ok("stop_debug_session", {})
    assert svc.alive() and ask_roster(svc) == "2"


def test_capture_reads_a_daemon_whose_binary_was_rebuilt_meanwhile(services, rn):
    # An agent rebuilt the program while its daemon ran: /proc names the executable
    # `roster2 (deleted)`, and the read asked for an adapter that capture did not take.
    project, m = rn
    copy = project / "roster2"
    shutil.copy(project / "roster", copy)
    svc = Service([str(copy)], project)
    services.append(svc)
    copy.unlink()
    shutil.copy(project / "roster", copy)
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["people[1].age"]})
    assert values_by_name(r)["people[1].age"]["value"] == "42", r
    # Named, as the error of a process no debugger recognises says to.
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["npeople"], "adapter": "gdb"})
    assert values_by_name(r)["npeople"]["value"] == "2", r
    assert svc.alive() and ask_roster(svc) == "2"


def test_capture_reads_a_go_global_on_delve(services, rn):
    project, m = rn
    if not shutil.which("go") or not shutil.which("dlv"):
        pytest.fail("go and delve are missing: apt-get install golang-go delve (scripts/setup.d/e2e.sh)")
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", "goservice.bin", "."], cwd=project / "goservice", check=True)
    svc = Service([str(project / "goservice" / "goservice.bin")], project / "goservice")
    services.append(svc)
    assert svc.get("item=pen&qty=2")["orders"] == 1
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["main.orders", "orders"]})
    vals = values_by_name(r)
    assert vals["main.orders"]["value"] == "1" and vals["orders"]["value"] == "1", r
    # Unqualified, found in a frame of package main below the runtime's.
    assert "main." in frame_of(r, "orders"), r
    nothing_left(m)
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 2


def test_a_read_without_points_refuses_what_it_cannot_do_and_changes_nothing(services, rn):
    project, m = rn
    e = m.err("capture", {"attach": "4242", "expressions": []})
    assert "expressions" in e and "give" in e, e
    e = m.err("capture", {"expressions": ["x"]})
    assert "points" in e and "attach" in e, e
    e = m.err("capture", {"attach": "4242", "command": "curl -s http://127.0.0.1:1/", "expressions": ["x"]})
    assert "points" in e, e
    e = m.err("capture", {"attach": "4242", "expressions": ["x"], "keep_paused": True})
    assert "keep_paused" in e and "start_debug_session" in e, e
    nothing_left(m)


def test_a_read_runs_a_call_once_and_its_own_error_is_the_answer(services, rn):
    """The frames are tried top down only for a name the expression itself lacks: `bump()`
    runs (it counts its calls) and fails on a name of its own body, which is its answer, not a
    reason to run it again in the next frame and in __main__."""
    project, m = rn
    svc = Service([sys.executable, "service.py"], project)
    services.append(svc)
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["bump()", "len(CALLS)"]})
    vals = values_by_name(r)
    assert "missing_name" in vals["bump()"]["error"] and "frames" not in vals["bump()"]["error"], r
    assert vals["len(CALLS)"]["value"] == "1", r
    nothing_left(m)
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 1


def test_a_read_refuses_a_changing_expression_alone(services, rn):
    """capture {attach, expressions} has the side-effect guard of every read (in `read_paused`,
    shared with start_debug_session {attach, evaluate}): refused alone, never run; the others
    answer."""
    project, m = rn
    svc = Service([sys.executable, "service.py"], project)
    services.append(svc)
    assert svc.get("item=pen&qty=1")["orders"] == 1
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": ["ORDERS.clear()", "len(ORDERS)"]})
    vals = values_by_name(r)
    assert "allow_side_effects" in vals["ORDERS.clear()"]["error"] and vals["len(ORDERS)"]["value"] == "1", r
    nothing_left(m)
    assert svc.alive() and svc.get("item=pen&qty=1", timeout=10)["orders"] == 2


def escaped(ch: str) -> str:
    """`ch` as Python's repr writes it inside a '-quoted string (one holding both quotes)."""
    return repr(ch + "'\"")[1:-4]


def test_a_cut_value_of_a_batch_says_where_its_text_ended_in_its_own_characters(services, rn):
    """A batch shares the whole-string bound, and quotes and newlines are written as escapes:
    the slice the result offers starts exactly where the shown text ended."""
    project, m = rn
    svc = Service([sys.executable, "service.py"], project)
    services.append(svc)
    text = "a\"b'\n" * 6000
    expr = "'a\"b\\'\\n' * 6000"
    assert eval(expr) == text
    r = m.ok("capture", {"attach": str(svc.pid), "expressions": [expr, "len(ORDERS)"]})
    shown = values_by_name(r)[expr]["value"]
    assert shown.startswith("'a\"b\\'\\n") and shown.endswith("…"), shown[:40]
    hint = m.last_text.splitlines()[-1]
    at = int(re.search(r"s\[(\d+):", hint).group(1))
    body = shown[1:-1]
    written = "".join(escaped(ch) for ch in text[:at])
    # The shown text is the string's first `at` characters, and at most part of the next one's
    # escape: a slice from `at` goes on exactly where it ended.
    assert body.startswith(written) and len(body) - len(written) < len(escaped(text[at])), (hint, at, len(body))
    nothing_left(m)
