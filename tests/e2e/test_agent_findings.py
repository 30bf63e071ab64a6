"""What ten agents found misleading (issue 15), end to end: the real `debugger-mcp serve`, the
Python MCP SDK and real debugpy on projects/findings. Each test asserts what the agent reads —
the text it is shown, not only structuredContent — where the finding was about the text.
Line numbers are those of projects/findings/*.py.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from conftest import LONG, Mcp, Server, cleaned, served


@pytest.fixture(scope="module")
def fx_mod():
    yield from served("findings")


@pytest.fixture
def fx(fx_mod):
    yield from cleaned(fx_mod)


def text(m: Mcp, name: str, args: dict | None = None) -> tuple[dict, str]:
    sc = m.ok(name, args)
    return sc, m.last_text


def run_to(m: Mcp, file: str, line: int, command: str) -> dict:
    m.ok("set_breakpoint", {"file_path": file, "line": line})
    r = m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    return r


# 1 --------------------------------------------------------------------------------------------


def test_exception_breakpoint_by_class_name_stops_only_on_that_class(fx):
    _, m = fx
    bp = m.ok("set_breakpoint", {"exception_class": "KeyError"})
    r = m.ok("start_debug_session", {"command": "python3 classes.py", "wait_for_pause": True, "timeout_ms": LONG})
    # Not at the ValueError that parse() raises and catches first, but where KeyError is raised.
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == 10, r
    assert "KeyError" in m.last_text, m.last_text
    bps = m.ok("list_breakpoints")
    row = next(b for b in bps["breakpoints"] if b["id"] == bp["id"])
    assert row.get("verified") is True, row


def test_exception_breakpoint_by_class_name_stops_where_a_caught_one_is_raised(fx):
    _, m = fx
    m.ok("set_breakpoint", {"exception_class": "ValueError", "caught": True, "uncaught": False})
    r = m.ok("start_debug_session", {"command": "python3 classes.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == 3, r
    # Only ValueError: the KeyError after it ends the program instead of stopping it.
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped", end


# 2 --------------------------------------------------------------------------------------------


def test_status_shows_the_source_lines_and_each_variable_once(fx):
    _, m = fx
    run_to(m, "pets.py", 11, "python3 pets.py")
    st, t = text(m, "get_debug_session_status")
    assert st["source_context"]["current_line"] == 11
    # The lines themselves, the current one marked, not a bare file name.
    assert "11>     cat.hunger += 1" in t, t
    assert "10| def feed(cat):" in t and "12|     return cat.hunger" in t, t
    lines = t.splitlines()
    assert sum(1 for l in lines if l.strip().startswith("cat = ")) == 1, t


# 3 --------------------------------------------------------------------------------------------


def test_stop_after_the_program_ended_succeeds_and_says_how(fx):
    _, m = fx
    r = m.ok("start_debug_session", {"command": "python3 pets.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    st, t = text(m, "stop_debug_session")
    assert st["state"] == "stopped" and st["session_id"] == r["session_id"], st
    assert "already ended" in t and "exited with code 0" in t, t


# 4 --------------------------------------------------------------------------------------------


def test_remove_breakpoint_text_and_count_agree(fx):
    _, m = fx
    m.ok("set_breakpoint", {"file_path": "pets.py", "line": 6})
    b = m.ok("set_breakpoint", {"file_path": "pets.py", "line": 7})
    r, t = text(m, "remove_breakpoint", {"file_path": "pets.py", "line": 7})
    assert r["removed"] == 1 and r["ids"] == [b["id"]], r
    assert "removed: 1" in t and f"removed 1 breakpoint (id {b['id']})" in t, t


# 5 --------------------------------------------------------------------------------------------


def test_breakpoints_after_the_session_ended_say_where_they_were_bound(fx):
    _, m = fx
    bp = m.ok("set_breakpoint", {"file_path": "pets.py", "line": 19})
    m.ok("start_debug_session", {"command": "python3 pets.py", "wait_for_pause": True, "timeout_ms": LONG})
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped", end
    listed, t = text(m, "list_breakpoints")
    b = [x for x in listed["breakpoints"] if x["id"] == bp["id"]][0]
    assert b["hit_count"] == 1 and b["line"] == 19, b
    assert "pending" not in t and "[not bound]" not in t, t
    assert "[no session]" in t and "bound at line 19, hit once" in t, t


def test_an_exception_breakpoint_that_stopped_the_program_counts_its_hit(fx):
    _, m = fx
    ex = m.ok("set_breakpoint", {"exception_class": "uncaught"})
    r = m.ok("start_debug_session", {"command": "python3 boom.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["reason"] == "exception", r
    m.ok("stop_debug_session")
    md = m.ok("get_session_summary")["markdown"]
    assert f"- {ex['id']} exception uncaught (agent, 1 hit)" in md, md
    m.ok("remove_breakpoint", {"breakpoint_id": ex["id"]})


def test_a_code_fragment_is_listed_as_modified_not_as_inspected(fx):
    _, m = fx
    run_to(m, "pets.py", 19, "python3 pets.py")
    m.ok("evaluate_code_fragment", {"code": "cat.hunger = 10", "allow_side_effects": True})
    md = m.ok("get_session_summary")["markdown"]
    modified, _, inspected = md.partition("## Values inspected")
    assert "`cat.hunger = 10`" in modified, md
    assert "cat.hunger = 10" not in inspected, md


# 7 --------------------------------------------------------------------------------------------


def test_history_reports_attribute_changes_and_threads(fx):
    _, m = fx
    run_to(m, "pets.py", 18, "python3 pets.py")
    m.ok("resume", {"timeout_ms": LONG})
    m.ok("resume", {"timeout_ms": LONG})
    h, t = text(m, "get_debug_history", {"name": "cat", "changes": True})
    attrs = [(a["name"], a.get("previous"), a["value"]) for a in h["attribute_changes"]]
    assert attrs == [("cat.hunger", "0", "1"), ("cat.hunger", "1", "2")], h
    assert all(r.get("thread") for r in h["changes"] + h["attribute_changes"]), h
    assert "cat.hunger" in t, t


# 8 --------------------------------------------------------------------------------------------


def test_debug_test_output_is_line_by_line(fx):
    _, m = fx
    r, t = text(m, "debug_test", {"test_id": "test_pets.py::test_feed"})
    assert r["state"] == "stopped" and r.get("output"), r
    for line in r["output"]:
        # each runner line is a line of the text, not joined with the next one by ", "
        assert any(l.strip() == line.strip() for l in t.splitlines()), (line, t)


def test_pytest_assertion_temporaries_are_not_shown_as_locals(fx):
    _, m = fx
    m.ok("set_breakpoint", {"file_path": "test_pets.py", "line": 8})
    r = m.ok("debug_test", {"test_id": "test_pets.py::test_feed"})
    assert r["state"] == "paused", r
    names = [v["name"] for v in r["pause"]["frame"]["variables"]]
    assert "cat" in names and not any(n.startswith("@py_") for n in names), names
    v = m.ok("get_variables")
    assert not any(x["name"].startswith("@py_") for x in v["variables"]), v


# 9 --------------------------------------------------------------------------------------------


def test_files_written_into_the_project_stay_out_of_git_status(fx):
    project, m = fx
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    m.ok("start_debug_session", {"command": "python3 pets.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert (project / ".debugger-mcp" / "sessions").is_dir()
    assert (project / ".debugger-mcp" / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(["git", "-C", str(project), "status", "--porcelain", "--untracked-files=all"], capture_output=True, text=True, check=True).stdout
    assert ".debugger-mcp" not in status, status


# 10 (the core's wording; adapters report the status as a number) -------------------------------


def test_a_program_killed_by_a_signal_is_named(fx):
    _, m = fx
    r, t = text(m, "start_debug_session", {"command": "python3 killed.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    assert "SIGKILL" in t, t
    md = m.ok("get_session_summary")["markdown"]
    assert "killed by SIGKILL (signal 9)" in md, md


# 12 -------------------------------------------------------------------------------------------


def test_a_breakpoint_on_a_blank_line_says_where_it_will_bind(fx):
    _, m = fx
    b, t = text(m, "set_breakpoint", {"file_path": "pets.py", "line": 13})
    assert b["verified"] is False
    assert "line 13 is blank" in b["message"] and "12 (`return cat.hunger`)" in b["message"] and "15 (`def main():`)" in b["message"], b
    r = m.ok("start_debug_session", {"command": "python3 pets.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert f"breakpoint {b['id']} bound at line" in r["message"] and "not 13" in r["message"], r


# 11 -------------------------------------------------------------------------------------------


def live_sessions(m: Mcp) -> list:
    return [s for s in m.ok("list_debug_sessions")["sessions"] if s["state"] != "stopped"]


def test_serve_ends_a_clients_sessions_with_its_mcp_session():
    server = Server("findings", "brave_mode = true\n")
    try:
        a = Mcp(server.url)
        r = a.ok("start_debug_session", {"command": "python3 spin.py"})
        assert r["state"] in ("running", "starting"), r
        a.close()  # the SDK ends its MCP session (DELETE)
        b = Mcp(server.url)
        deadline = time.monotonic() + 30
        while live_sessions(b) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live_sessions(b) == [], "the session outlived the MCP session that started it"
        b.close()
    finally:
        server.stop()


def test_serve_keeps_them_when_configured():
    server = Server("findings", "brave_mode = true\nend_sessions_with_client = false\n")
    try:
        a = Mcp(server.url)
        sid = a.ok("start_debug_session", {"command": "python3 spin.py"})["session_id"]
        a.close()
        b = Mcp(server.url)
        time.sleep(2)  # what is checked is that nothing happens
        assert [s["id"] for s in live_sessions(b)] == [sid]
        b.ok("stop_debug_session", {"session_id": sid})
        b.close()
    finally:
        server.stop()


# 13 -------------------------------------------------------------------------------------------


def doctor(project, env: dict) -> subprocess.CompletedProcess:
    from conftest import sidecar_binary

    return subprocess.run([sidecar_binary(), "doctor", "--json", "--project", str(project)], capture_output=True, text=True, env=env, timeout=120)


def test_doctor_names_what_works_and_the_fix_for_what_does_not(tmp_path):
    import json
    import os
    import shutil
    import sys

    # A PATH with python (debugpy importable) and a gdb too old for DAP, nothing else.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    gdb = bin_dir / "gdb"
    gdb.write_text("#!/bin/sh\necho 'GNU gdb (Debian 13.1-3) 13.1'\n")
    gdb.chmod(0o755)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path / "home"), "DEBUGGER_MCP_DISCOVERY_DIR": str(tmp_path / "disc")}
    r = doctor(tmp_path, env)
    assert r.returncode == 1, r  # something fails
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    assert checks["python"]["ok"] and "debugpy" in checks["python"]["detail"], checks["python"]
    assert not checks["gdb"]["ok"] and "13.1" in checks["gdb"]["detail"] and "gdb-for-pwndbg" in checks["gdb"]["fix"], checks["gdb"]
    assert not checks["dlv"]["ok"] and "go install github.com/go-delve/delve/cmd/dlv@latest" in checks["dlv"]["fix"], checks["dlv"]
    assert not checks["php+xdebug"]["ok"] and "php-xdebug" in checks["php+xdebug"]["fix"]
    assert not checks["lldb-dap"]["ok"] or os.path.exists("/usr/lib/llvm-19/bin/lldb-dap")
    assert checks["discovery"]["ok"] and checks["token"]["ok"]
    # A project venv is the python the project uses: without debugpy, its fix names it.
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\necho 'No module named debugpy' >&2\nexit 1\n")
    (venv / "python").chmod(0o755)
    checks = {c["name"]: c for c in json.loads(doctor(tmp_path, env).stdout)["checks"]}
    assert not checks["python"]["ok"] and checks["python"]["fix"] == f"{venv / 'python'} -m pip install debugpy", checks["python"]
    # Text mode: failing lines carry their fix.
    from conftest import sidecar_binary

    text = subprocess.run([sidecar_binary(), "doctor", "--project", str(tmp_path)], capture_output=True, text=True, env=env, timeout=120).stdout
    assert "FAIL gdb:" in text and "fix: pip install gdb-for-pwndbg" in text, text
    assert shutil.which("true")  # the environment itself is untouched


def test_a_missing_debugger_error_points_to_doctor():
    server = Server("findings", "brave_mode = true\n", env={"DEBUGGER_MCP_GDB": "/nonexistent/gdb"})
    try:
        m = Mcp(server.url)
        e = m.err("start_debug_session", {"command": "/bin/true", "adapter": "gdb", "wait_for_pause": True, "timeout_ms": LONG})
        assert "debugger-mcp doctor" in e, e
        m.close()
    finally:
        server.stop()
