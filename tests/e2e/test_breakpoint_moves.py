"""Breakpoints on lines without code and runs to lines never reached (issue 26: an agent guessed a
blank line, the run went through, and nothing said the breakpoint was not there), end to end on
gdb, debugpy, delve and Xdebug. Each project's `blank.*` has a blank line inside `f` and one
after it; the branch calling `f` again never runs. Lines are looked up by their text.

What each debugger does with a blank line, as these tests found it: gdb binds the one inside a
function to the next line with code and never binds the one between two functions; delve binds
neither; debugpy binds both (the one after `f` to `f`'s last line); Xdebug binds both, the one
inside `f` only once `f` is compiled, without telling (its `breakpoint_list` knows).
"""

from __future__ import annotations

from conftest import LONG, line_of
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures


def by_id(m) -> dict:
    return {b["id"]: b for b in m.ok("list_breakpoints")["breakpoints"]}


def start(m, command: str, **extra) -> dict:
    return m.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG, **extra})


def test_gdb_names_the_blank_line_it_never_bound_and_the_line_a_run_never_reached(c):
    project, m = c
    inner = line_of(project, "blank.c", "int a = n + 1;") + 1
    between = line_of(project, "blank.c", "int main(") - 1
    unreached = line_of(project, "blank.c", "r = f(r);")
    moved = m.ok("set_breakpoint", {"file_path": "blank.c", "line": inner})
    lost = m.ok("set_breakpoint", {"file_path": "blank.c", "line": between})
    r = start(m, "./blank", adapter="gdb")
    assert r["pause"]["location"]["line"] == inner + 1 and r["pause"]["breakpoint_ids"] == [moved["id"]], r
    assert f"breakpoint {moved['id']} bound at line {inner + 1}, not {inner}" in r["message"], r
    # Set before the start and never bound by gdb (a blank line between two functions): said
    # at the first stop, with the lines that have code.
    assert (f"breakpoint {lost['id']} (blank.c:{between}): not bound" in r["message"]
            and f"line {between} is blank; lines with code nearby: {between - 1} (`}}`), {between + 1} (`int main(" in r["message"]), r
    listed = by_id(m)
    assert listed[moved["id"]]["line"] == inner + 1 and listed[moved["id"]]["requested_line"] == inner, listed
    assert f"line {between} is blank; lines with code nearby" in listed[lost["id"]]["message"], listed
    end = m.ok("run_to_line", {"file_path": "blank.c", "line": unreached, "timeout_ms": LONG})
    assert end["state"] == "stopped", end
    assert f"line {unreached} of blank.c was not reached: the program ended first" in end["message"], end


def test_delve_binds_no_blank_line_and_the_start_says_so(go):
    project, m = go
    inner = line_of(project, "blankgo/main.go", "a := n + 1") + 1
    between = line_of(project, "blankgo/main.go", "func main()") - 1
    b1 = m.ok("set_breakpoint", {"file_path": "blankgo/main.go", "line": inner})
    b2 = m.ok("set_breakpoint", {"file_path": "blankgo/main.go", "line": between})
    r = start(m, "go run ./blankgo")
    assert r["state"] == "stopped", r
    msg = r["message"]
    assert (f"breakpoint {b1['id']} (blankgo/main.go:{inner}): not bound" in msg
            and f"line {inner} is blank; lines with code nearby: {inner - 1} (`a := n + 1`), {inner + 1} (`b := a * 2`)" in msg), msg
    assert f"breakpoint {b2['id']} (blankgo/main.go:{between}): not bound" in msg, msg


def test_delve_run_to_a_line_never_reached(go):
    project, m = go
    first = line_of(project, "blankgo/main.go", "r := f(3)")
    unreached = line_of(project, "blankgo/main.go", "r = f(r)")
    m.pause_at("blankgo/main.go", first, {"command": "go run ./blankgo"})
    end = m.ok("run_to_line", {"file_path": "blankgo/main.go", "line": unreached, "timeout_ms": LONG})
    assert end["state"] == "stopped", end
    assert f"line {unreached} of blankgo/main.go was not reached: the program ended first" in end["message"], end


def test_debugpy_run_to_a_line_never_reached_and_past_a_blank_line(py):
    project, m = py
    inner = line_of(project, "blank.py", "a = n + 1") + 1
    unreached = line_of(project, "blank.py", "r = f(r)")
    b = m.ok("set_breakpoint", {"file_path": "blank.py", "line": inner})
    r = start(m, "python3 blank.py")
    # debugpy binds the blank line to the one before it.
    assert r["pause"]["breakpoint_ids"] == [b["id"]] and r["pause"]["location"]["line"] == inner - 1, r
    assert f"breakpoint {b['id']} bound at line {inner - 1}, not {inner}" in r["message"], r
    end = m.ok("run_to_line", {"file_path": "blank.py", "line": unreached, "timeout_ms": LONG})
    assert end["state"] == "stopped", end
    assert f"line {unreached} of blank.py was not reached: the program ended first" in end["message"], end


def test_xdebug_stop_at_a_breakpoint_it_moved_inside_a_function(php):
    project, m, _ = php
    inner = line_of(project, "blank.php", "$a = $n + 1;") + 1
    after = line_of(project, "blank.php", "$r = f(3);") - 1
    unreached = line_of(project, "blank.php", "$r = f($r);")
    b1 = m.ok("set_breakpoint", {"file_path": "blank.php", "line": inner})
    b2 = m.ok("set_breakpoint", {"file_path": "blank.php", "line": after})
    r = start(m, "php blank.php")
    assert r["pause"]["location"]["line"] == after + 1 and r["pause"]["breakpoint_ids"] == [b2["id"]], r
    # The run stops at the breakpoint inside f first, told as that breakpoint (not a pause of
    # unknown cause) at the line it moved to.
    s = m.ok("run_to_line", {"file_path": "blank.php", "line": unreached, "timeout_ms": LONG})
    assert s["state"] == "paused" and s["location"]["line"] == inner + 1, s
    assert s["reason"] == "breakpoint" and s["breakpoint_ids"] == [b1["id"]], s
    assert f"line {unreached} of blank.php was not reached: breakpoint {b1['id']} stopped it first" in s["message"], s
    listed = by_id(m)
    assert listed[b1["id"]]["line"] == inner + 1 and listed[b1["id"]]["requested_line"] == inner, listed


def test_xdebug_run_to_a_blank_line_it_cannot_bind_names_the_lines_with_code(php):
    project, m, _ = php
    after = line_of(project, "blank.php", "$r = f(3);") - 1
    b = m.ok("set_breakpoint", {"file_path": "blank.php", "line": after})
    r = start(m, "php blank.php")
    assert r["pause"]["location"]["line"] == after + 1 and r["pause"]["breakpoint_ids"] == [b["id"]], r
    # Xdebug binds the run's temporary breakpoint where breakpoint b already is, and refuses it
    # ("breakpoint could not be set"): the error says which lines have code.
    err = m.err("run_to_line", {"file_path": "blank.php", "line": after, "timeout_ms": LONG})
    assert f"line {after} is blank; lines with code nearby: {after - 1} (`}}`), {after + 1} (`$r = f(3);`): run to one of those" in err, err
    # Nothing moved: the program is still paused where it was.
    st = m.ok("get_debug_session_status")
    assert st["state"] == "paused" and st["location"]["line"] == after + 1, st
