"""Go under delve end to end: `debug_test` with a Go test id and a session started by a `go run`
command, through the real `debugger-mcp serve` (headless DAP backend, `dlv dap` over TCP) and
the Python MCP SDK, on a copy of tests/e2e/projects/go (brave mode on).

Line numbers are those of projects/go/main.go and projects/go/calc/calc_test.go.
"""

from __future__ import annotations

import shutil
import tempfile
import time

import pytest

from conftest import LONG, Mcp, Server, output_text, var



# `go` (delve on tests/e2e/projects/go): conftest.py


def test_debug_test_go_id_stops_in_the_selected_test(go):
    project, m = go
    add = m.ok("set_breakpoint", {"file_path": "calc/calc_test.go", "line": 7})
    # The same line of TestAddNegative: `-run ^TestAdd$` must leave that test out.
    m.ok("set_breakpoint", {"file_path": "calc/calc_test.go", "line": 14})
    r = m.ok("debug_test", {"test_id": "calc/calc_test.go::TestAdd"})
    assert r["framework"] == "go" and r["state"] == "paused", r
    p = r["pause"]
    assert p["breakpoint_ids"] == [add["id"]], p
    assert p["location"] == {"file": str(project / "calc" / "calc_test.go"), "line": 7, "class": "example.com/gofixture/calc", "method": "TestAdd"}, p
    assert var(m.ok("get_variables")["variables"], "got")["value"] == "5"
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0, end
    assert "PASS" in output_text(m, r["session_id"], expect="PASS")


def test_debug_test_go_without_breakpoint_reports_the_verdict(go):
    _, m = go
    r = m.ok("debug_test", {"test_id": "calc/calc_test.go::TestAddNegative"})
    assert r["state"] == "stopped" and "passed" in r["message"], r


def test_debug_test_unknown_go_ids_are_errors(go):
    _, m = go
    e = m.err("debug_test", {"test_id": "calc/calc_test.go::TestNope"})
    assert e.startswith("unknown test id 'calc/calc_test.go::TestNope': the go test run selected no test") and "no tests to run" in e, e
    e = m.err("debug_test", {"test_id": "calc/missing_test.go::TestAdd"})
    assert e.startswith("unknown test id") and "not found" in e, e
    e = m.err("debug_test", {"test_id": "calc/calc_test.go::"})
    assert "names no test" in e, e


def test_go_run_command_breakpoint_variables_evaluate_step(go):
    project, m = go
    bp = m.ok("set_breakpoint", {"file_path": "main.go", "line": 17})
    r = m.ok("start_debug_session", {"command": "go run .", "wait_for_pause": True, "timeout_ms": LONG})
    p = r["pause"]
    assert r["state"] == "paused" and p["breakpoint_ids"] == [bp["id"]], r
    assert p["location"] == {"file": str(project / "main.go"), "line": 17, "class": "main", "method": "total"}, p
    vs = m.ok("get_variables")["variables"]
    assert (var(vs, "sum")["value"], var(vs, "p")["value"]) == ("0", "3")
    assert m.ok("evaluate_expression", {"expression": "sum + p*10"})["result"]["value"] == "30"
    s = m.ok("step_into")
    # delve stops on the `func Add(...)` line first (the function's prologue).
    assert s["location"] == {"file": str(project / "calc" / "calc.go"), "line": 4, "class": "example.com/gofixture/calc", "method": "Add"}, s
    assert m.ok("step_over")["location"]["line"] == 5
    # A step out shows what Add returned (delve's DAP does not: read from the result register),
    # in the caller's frame only.
    s = m.ok("step_out")
    assert s["location"]["line"] == 17, s
    shown = m.ok("get_variables")["variables"]
    assert var(shown, "(Return Value)")["value"] == "3", (s, shown)
    assert var(m.ok("get_variables")["variables"], "(Return Value)")["value"] == "3"
    m.ok("select_stack_frame", {"frame_index": 1})
    caller = m.ok("get_variables")["variables"]
    assert "(Return Value)" not in [v["name"] for v in caller], caller
    m.ok("select_stack_frame", {"frame_index": 0})
    m.ok("remove_breakpoint", {"breakpoint_id": bp["id"]})
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0, end
    assert "order 7: 2 items, total 12" in output_text(m, r["session_id"], expect="total 12")


def test_debug_test_go_subtest_runs_only_that_case(go):
    _, m = go
    bp = m.ok("set_breakpoint", {"file_path": "calc/calc_test.go", "line": 29})
    r = m.ok("debug_test", {"test_id": "calc/calc_test.go::TestTable/negative"})
    assert r["state"] == "paused" and r["pause"]["breakpoint_ids"] == [bp["id"]], r
    assert m.ok("evaluate_expression", {"expression": "c.name"})["result"]["value"] == '"negative"'
    # The "small" case is left out: the next stop is the end of the run.
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0, end


def test_a_cold_go_build_longer_than_the_launch_timeout_still_starts_and_a_hung_one_names_its_setting():
    """The backend builds before delve starts, under [go] build_timeout_ms, and the core adds
    that bound to launch_timeout_ms: an empty build cache (the standard library compiled
    afresh, seconds) outlasts a 300 ms launch timeout and the session still starts. A build
    bound of 1 ms fails naming the setting."""
    if not shutil.which("dlv") or not shutil.which("go"):
        pytest.fail("go and delve are missing: apt-get install golang-go delve (scripts/setup.d/e2e.sh installs them)")
    cache = tempfile.mkdtemp(prefix="dmcp-e2e-gocache-")
    server = Server("go", "brave_mode = true\nlaunch_timeout_ms = 300\n", env={"GOCACHE": cache})
    m = Mcp(server.url)
    try:
        bp = m.ok("set_breakpoint", {"file_path": "main.go", "line": 17})
        started = time.monotonic()
        r = m.ok("start_debug_session", {"command": "go run .", "wait_for_pause": True, "timeout_ms": LONG})
        took = time.monotonic() - started
        assert r["state"] == "paused" and r["pause"]["breakpoint_ids"] == [bp["id"]], r
        assert took > 0.3, f"a cold build took only {took:.2f} s: the test proves nothing"
        m.ok("stop_debug_session")
    finally:
        m.close()
        server.stop()
        shutil.rmtree(cache, ignore_errors=True)

    server = Server("go", "brave_mode = true\n[go]\nbuild_timeout_ms = 1\n")
    m = Mcp(server.url)
    try:
        e = m.err("start_debug_session", {"command": "go run ."})
        assert "did not finish within 1 ms" in e and "build_timeout_ms in the [go] section" in e, e
        assert m.ok("list_debug_sessions")["sessions"] == []
    finally:
        m.close()
        server.stop()


def test_a_program_that_does_not_compile_is_a_start_error_quoting_the_compiler(go):
    project, m = go
    (project / "broken").mkdir(exist_ok=True)
    (project / "broken" / "main.go").write_text("package main\n\nfunc main() {\n\tprintln(missing + 1)\n}\n")
    e = m.err("start_debug_session", {"command": "go run ./broken"})
    assert "the Go build failed" in e and "broken/main.go:4:10: undefined: missing" in e, e


def test_capture_on_delve(go):
    """Issue 20's one call on delve: `go run .` started, two hits of a loop line recorded
    without stopping, then the program ended."""
    _, m = go
    r = m.ok("capture", {
        "command": "go run .",
        "points": [{"file_path": "main.go", "line": 17}],
        "expressions": ["p", "sum"],
        "max_hits": 2,
    })
    assert r["end"] == "hits" and [[v["value"] for v in h["values"]] for h in r["hits"]] == [["3", "0"], ["4", "3"]], r
    assert r["hits"][0]["stack"][0].startswith("main.total main.go:17") or r["hits"][0]["stack"][0].startswith("total main.go:17"), r["hits"][0]
    assert r["state"] == "stopped", r
    assert m.ok("list_breakpoints")["breakpoints"] == []
