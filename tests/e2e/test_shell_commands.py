"""Commands as a shell runs them (issue 26, item 3), and how their end and output read, end to
end on real gdb, lldb and debugpy:
`VAR=value` prefixes, `< in`, `> out 2>&1` and a pipeline into the program reach the
debugged program itself (a breakpoint in it stops, its locals show what it read), and what a
launch cannot honour is refused naming it, before anything starts.

Line numbers are those of projects/shell/readin.c and readin.py.
"""

from __future__ import annotations

import pytest

from conftest import LONG, build_c, cleaned, gdb_env_check, served

C_PRINT = 12  # printf("total=%d mode=%s\n", ...)
PY_PRINT = 8  # print(f"total={total} mode={mode}")


@pytest.fixture(scope="module")
def sh_mod():
    gdb_env_check()
    yield from served("shell", prepare=lambda project: build_c(project, "readin"))


@pytest.fixture
def sh(sh_mod):
    yield from cleaned(sh_mod)


def paused(m, file, line, command):
    m.ok("set_breakpoint", {"file_path": file, "line": line})
    r = m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == line, r
    return {v["name"]: v["value"] for v in m.ok("get_variables")["variables"]}


@pytest.mark.parametrize(
    "file,line,command",
    [("readin.c", C_PRINT, "MODE=fast ./readin < nums.txt"), ("readin.py", PY_PRINT, "MODE=fast python3 readin.py <nums.txt")],
)
def test_stdin_from_a_file_and_an_env_prefix_reach_the_program(sh, file, line, command):
    _, m = sh
    vs = paused(m, file, line, command)
    # Without the redirection the program read nothing (total 0) and `<` was an argument.
    assert vs["total"] == "6", vs
    assert "fast" in vs["mode"], vs


@pytest.mark.parametrize(
    "file,line,command",
    [("readin.c", C_PRINT, "printf '10 20' | ./readin"), ("readin.py", PY_PRINT, "echo 5 7 | python3 readin.py")],
)
def test_a_pipeline_feeds_the_debugged_program(sh, file, line, command):
    _, m = sh
    vs = paused(m, file, line, command)
    assert vs["total"] in ("30", "12"), vs
    assert "fast" not in vs["mode"], vs


@pytest.mark.parametrize("command", ["./readin < nums.txt > out.txt 2>&1", "python3 readin.py < nums.txt > out.txt 2>&1"])
def test_output_redirected_to_a_file_with_stderr(sh, command):
    project, m = sh
    (project / "out.txt").unlink(missing_ok=True)
    r = m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    out = (project / "out.txt").read_text()
    assert "read done" in out and "total=6 mode=none" in out, out


def test_what_cannot_be_honoured_is_refused_naming_it(sh):
    _, m = sh
    e = m.err("start_debug_session", {"command": "./readin < nums.txt | head -1", "timeout_ms": LONG})
    assert "| head" in e and "get_console_output" in e, e
    e = m.err("start_debug_session", {"command": "make && ./readin", "timeout_ms": LONG})
    assert "'&&'" in e, e
    e = m.err("start_debug_session", {"command": "./readin < missing.txt", "timeout_ms": LONG})
    assert "missing.txt" in e, e
    # Nothing was started by any of them.
    assert m.ok("list_debug_sessions")["sessions"] == []


@pytest.mark.parametrize("command", ["./readin < /dev/null", "python3 readin.py < /dev/null"])
def test_an_exit_status_of_255_is_the_programs_own_not_a_signal(sh, command):
    _, m = sh
    r = m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    text = m.last_text + " " + m.ok("get_session_summary")["markdown"]
    # `return -1` / `sys.exit(-1)`: 255, which was told as "killed by SIGHUP (signal 1)".
    assert "255" in text and "SIGHUP" not in text and "killed" not in text, text


def test_console_output_comes_as_lines_not_as_the_writes(sh):
    _, m = sh
    r = m.ok("start_debug_session", {"command": "python3 tokens.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    out = m.ok("get_console_output", {"session_id": r["session_id"], "category": "stdout"})["output"]
    # Each word was its own write (and output event); the reader gets the line.
    assert [o["text"].strip() for o in out] == ["alpha beta gamma", "second line"], out


def test_lldb_points_the_streams_through_its_launch_settings(sh):
    project, m = sh
    m.ok("set_breakpoint", {"file_path": "readin.c", "line": C_PRINT})
    r = m.ok("start_debug_session", {"command": "MODE=fast ./readin < nums.txt 2> err.txt", "adapter": "lldb", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == C_PRINT, r
    vs = {v["name"]: v["value"] for v in m.ok("get_variables")["variables"]}
    assert vs["total"] == "6" and "fast" in vs["mode"], vs
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    assert (project / "err.txt").read_text() == "read done\n"
    # One open file for two streams is not lldb's: refused, naming it, nothing started.
    e = m.err("start_debug_session", {"command": "./readin < nums.txt > out.txt 2>&1", "adapter": "lldb", "timeout_ms": LONG})
    assert "2>&1" in e and "lldb" in e, e


@pytest.mark.parametrize(
    "command,missing",
    [("python3 rep.py", "rep.py"), ("./readin < in2.txt", "in2.txt"), ("python3 readin.py < in2.txt", "in2.txt")],
)
def test_a_path_relative_to_another_directory_names_where_it_is(sh, command, missing):
    project, m = sh
    # An agent whose shell is in work/ made its files there; commands run in the project's root.
    (project / "work").mkdir(exist_ok=True)
    (project / "work" / "rep.py").write_text("print('rep')\n")
    (project / "work" / "in2.txt").write_text("1 2\n")
    e = m.err("capture", {"command": command, "points": [{"file_path": "readin.c", "line": C_PRINT}], "expressions": ["total"]})
    # It said only "not found: script" (and pointed at `debugger-mcp doctor`), or, for PHP,
    # that Xdebug never connected.
    assert f"`{missing}` is not in the project's root" in e and "pass cwd: 'work'" in e, e
    assert "doctor" not in e, e
    assert m.ok("list_debug_sessions")["sessions"] == [] and m.ok("list_breakpoints")["breakpoints"] == []
