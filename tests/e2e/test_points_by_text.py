"""Issue 26: points named without a line number. Agents ran `grep -n` before every capture point
or breakpoint; now `text` (a fragment of the line, file_path optional) stands for `line`, and a
capture point takes `function` (recorded at its entry). Through `debugger-mcp serve` on real
debugpy, gdb, lldb, delve and Xdebug; lines are those of projects/py/app.py, projects/c/prog.c,
projects/go and projects/php (found here with line_of, never typed)."""

from __future__ import annotations

from conftest import line_of
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures


def nothing_changed(m):
    """A refused call set no breakpoint and started no program."""
    assert m.ok("list_breakpoints")["breakpoints"] == []
    assert [s for s in m.ok("list_debug_sessions")["sessions"] if s["state"] != "stopped"] == []


def test_capture_at_a_line_named_by_its_text_debugpy(py):
    project, m = py
    line = line_of(project, "app.py", "acc += price(item)")
    r = m.ok("capture", {
        "command": "python3 app.py",
        "points": [{"file_path": "app.py", "text": "  acc += price(item) "}],
        "expressions": ["acc"],
        "max_hits": 3,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [line] * 3, r
    assert [h["values"][0]["value"] for h in r["hits"]] == ["0", "2", "6"], r["hits"]
    assert f"point 1 (text `acc += price(item)`) at app.py:{line}" in r["message"], r


def test_a_text_copied_over_two_lines_names_its_first_debugpy(py):
    """Twelfth set: an agent copied a statement's text as it stands in the file, over two
    lines, and the point was refused ("holds a line break"), costing a call and a grep. A text
    whose lines stand one after another in a file names its first line; one whose lines are
    not together there is refused, naming it on one line."""
    project, m = py
    loop = line_of(project, "app.py", "for item in order.items:")
    r = m.ok("capture", {
        "command": "python3 app.py",
        "points": [{"text": "for item in order.items:\n        acc += price(item)"}],
        "expressions": ["acc"],
        "max_hits": 1,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [loop], r
    e = m.err("capture", {"command": "python3 app.py", "points": [{"text": "acc = 0\nreturn acc"}], "expressions": ["acc"]})
    assert "no line holds `acc = 0 ↵ return acc`" in e, e
    nothing_changed(m)


def test_capture_at_a_function_entry_debugpy(py):
    """`price` is recorded at each call, with its argument, as a print at its first line would."""
    project, m = py
    body = line_of(project, "app.py", 'base = item["price"] * item["qty"]')
    r = m.ok("capture", {
        "command": "python3 app.py",
        "points": [{"function": "price"}],
        "expressions": ["item['name']"],
        "max_hits": 2,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body, body], r
    assert [h["values"][0]["value"] for h in r["hits"]] == ["'item0'", "'item1'"], r["hits"]
    assert f"point 1 (function price) at app.py:{body}" in r["message"], r


def test_capture_at_a_function_entry_gdb(c):
    project, m = c
    body = line_of(project, "prog.c", "int r = v * v;")
    r = m.ok("capture", {
        "run_configuration": "prog (gdb)",
        "points": [{"function": "square"}],
        "expressions": ["v"],
        "max_hits": 4,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body] * 4, r
    assert [h["values"][0]["value"] for h in r["hits"]] == ["1", "2", "3", "4"], r["hits"]
    assert f"point 1 (function square) at prog.c:{body}" in r["message"], r


def test_set_breakpoint_list_and_start_breakpoints_by_text_gdb(c):
    project, m = c
    loop = line_of(project, "prog.c", "acc += square(i);")
    sq = line_of(project, "prog.c", "int r = v * v;")
    r = m.ok("set_breakpoint", {"breakpoints": [{"file_path": "prog.c", "text": "acc += square(i);"}]})
    row = r["breakpoints"][0]
    assert row["line"] == loop and row["source_line"].strip() == "acc += square(i);", r
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    # Without file_path: the project's sources are searched.
    s = m.ok("start_debug_session", {
        "run_configuration": "prog (gdb)",
        "breakpoints": [{"text": "int r = v * v;"}],
        "evaluate": ["v"],
    })
    assert s["state"] == "paused" and s["pause"]["location"]["line"] == sq, s
    assert s["pause"]["values"][0]["value"] == "1", s
    assert f"breakpoints[0] (text) at prog.c:{sq}" in m.last_text, m.last_text


def test_capture_by_text_without_file_path_finds_vendor_code_php(php):
    """PHP agents set points in Composer packages: vendor/ is searched."""
    project, m, _ = php
    run = line_of(project, "vendor/acme/runner/Runner.php", "(new $class())->$method();")
    r = m.ok("capture", {
        "command": "php framework.php",
        "points": [{"text": "(new $class())->$method();"}],
        "expressions": ["$method"],
        "max_hits": 1,
    })
    assert r["hits"] and r["hits"][0]["at"]["line"] == run, r
    assert r["hits"][0]["at"]["file"].endswith("vendor/acme/runner/Runner.php"), r
    assert r["hits"][0]["values"][0]["value"] == '"testPrice"', r
    assert f"point 1 (text `(new $class())->$method();`) at vendor/acme/runner/Runner.php:{run}" in r["message"], r


def test_ambiguous_missing_and_mixed_text_is_refused_and_changes_nothing_gdb(c):
    project, m = c
    e = m.err("capture", {"run_configuration": "prog (gdb)", "points": [{"text": "return"}]})
    assert "points[0]: field 'text': `return` is on" in e and "give file_path, a longer text, or line:\n" in e, e
    assert e.count("\n") == 6 and "more)" in e, e
    # In one file: each line listed as path:line: source, relative to the project.
    e = m.err("set_breakpoint", {"breakpoints": [{"file_path": "prog.c", "text": "return"}]})
    ret = lambda t: f"prog.c:{line_of(project, 'prog.c', t)}: {t}"  # noqa: E731
    assert e.endswith(f"`return` is on 3 lines; give a longer text, or line:\n{ret('return r;')}\n{ret('return acc;')}\n{ret('return 0;')}"), e
    nothing_changed(m)
    e = m.err("start_debug_session", {"run_configuration": "prog (gdb)", "breakpoints": [{"file_path": "prog.c", "text": "no such code"}]})
    assert "breakpoints[0]: field 'text': no line holds `no such code` in prog.c" in e, e
    nothing_changed(m)
    e = m.err("set_breakpoint", {"file_path": "prog.c", "line": 24, "text": "acc +="})
    assert "give line or text, not both" in e, e
    e = m.err("capture", {"run_configuration": "prog (gdb)", "points": [{"text": "acc +=", "function": "square"}]})
    assert "points[0]: give text or function, not both" in e, e
    e = m.err("start_debug_session", {"run_configuration": "prog (gdb)", "breakpoints": [{"text": "  "}]})
    assert "breakpoints[0]: field 'text': empty" in e, e
    e = m.err("set_breakpoint", {"file_path": "../outside.c", "text": "main"})
    assert "outside the project" in e, e
    e = m.err("capture", {"run_configuration": "prog (gdb)", "points": [{"function": "no_such_function_here"}]})
    assert "points[0]: field 'function': no definition of 'no_such_function_here'" in e, e
    nothing_changed(m)


def test_text_on_a_comment_line_is_named_as_a_line_without_code_gdb(c):
    project, m = c
    b = m.ok("set_breakpoint", {"file_path": "prog.c", "text": "Fixture program for"})
    assert b["line"] == 1 and "line 1 is a comment" in b.get("message", ""), b


def test_capture_at_a_function_entry_delve(go):
    project, m = go
    body = line_of(project, "calc/calc.go", "return a + b")
    r = m.ok("capture", {
        "command": "go run .",
        "points": [{"function": "calc.Add"}],
        "expressions": ["b"],
        "max_hits": 3,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body] * 3, r
    assert [h["values"][0]["value"] for h in r["hits"]] == ["3", "4", "5"], r["hits"]
    assert f"point 1 (function calc.Add) at calc/calc.go:{body}" in r["message"], r


def test_capture_at_a_function_entry_php(php):
    project, m, _ = php
    body = line_of(project, "src/lib.php", "$this->lines[] = [$sku, $price * $qty];")
    r = m.ok("capture", {
        "command": "php calls.php",
        "points": [{"function": "Cart::add"}],
        "expressions": ["$sku"],
        "max_hits": 2,
    })
    assert [h["at"]["line"] for h in r["hits"]] == [body] * 2, r
    assert [h["values"][0]["value"] for h in r["hits"]] == ['"A-1"', '"B-2"'], r["hits"]
    assert f"point 1 (function Cart::add) at src/lib.php:{body}" in r["message"], r


def test_capture_of_a_function_defined_several_times_lists_them_debugpy(py):
    project, m = py
    e = m.err("capture", {"command": "python3 app.py", "points": [{"function": "main"}]})
    assert "points[0]: field 'function': 'main' has" in e and "definitions: " in e and f"app.py:{line_of(project, 'app.py', 'def main():')} main" in e, e
    assert "qualify it (Class.method, pkg.Func), give file_path, or one point per definition" in e, e
    nothing_changed(m)
    # file_path picks the one.
    body = line_of(project, "app.py", "items = [{")
    r = m.ok("capture", {"command": "python3 app.py", "points": [{"function": "main", "file_path": "app.py"}], "max_hits": 1})
    assert r["hits"][0]["at"]["line"] == body, r


def test_run_to_line_by_text_gdb(c):
    project, m = c
    s = m.ok("start_debug_session", {"run_configuration": "prog (gdb)", "breakpoints": [{"file_path": "prog.c", "text": "int counter = 7;"}]})
    assert s["state"] == "paused", s
    e = m.err("run_to_line", {"file_path": "prog.c", "line": 35, "text": "printf"})
    assert "give line or text, not both" in e, e
    # Refused before anything ran: still paused where it was.
    assert m.ok("get_debug_session_status")["location"]["line"] == line_of(project, "prog.c", "int counter = 7;")
    r = m.ok("run_to_line", {"file_path": "prog.c", "text": 'printf("result=', "evaluate": ["result"]})
    assert r["location"]["line"] == line_of(project, "prog.c", 'printf("result='), r
    assert r["values"][0]["value"] == "30", r


def test_start_breakpoints_by_text_lldb(c):
    project, m = c
    sq = line_of(project, "prog.c", "int r = v * v;")
    s = m.ok("start_debug_session", {
        "command": "./prog", "adapter": "lldb",
        "breakpoints": [{"file_path": "prog.c", "text": "int r = v * v;"}],
        "evaluate": ["v"],
    })
    assert s["state"] == "paused" and s["pause"]["location"]["line"] == sq, s
    assert s["pause"]["values"][0]["value"] == "1", s
    assert f"breakpoints[0] (text) at prog.c:{sq}" in m.last_text, m.last_text
