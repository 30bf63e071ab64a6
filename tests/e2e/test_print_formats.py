"""gdb's print formats in an expression (issue 26: agents wrote `/x mask` and `p/x mask`), end to
end: gdb answers them with its own `print/FMT` and `x/NFU`, lldb with its `p/FMT` and `x` (which
take gdb's letters); debugpy, delve and Xdebug, which have
no such formats, refuse them saying what to write in the program's language instead of a syntax
error. Lines are those of projects/c/prog.c, py/app.py, go/main.go and php/calls.php.
"""

from __future__ import annotations

from conftest import LONG
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures


def rows(r: dict) -> dict:
    return {x["name"]: x for x in r["results"]}


def test_gdb_takes_print_formats_and_memory_examine(c):
    _, m = c
    r = m.pause_at("prog.c", 34, {"run_configuration": "prog (gdb)"})
    one = m.ok("evaluate_expression", {"expression": "/x counter"})
    assert one["result"]["value"] == "0x7", one
    got = rows(m.ok("evaluate_expression", {"expressions": [
        "p/x counter", "print/t counter", "/o counter", "/c numbers[0]", "/x numbers",
        "x/2dw numbers", "counter", "/q counter", "counter/2",
    ]}))
    assert got["p/x counter"]["value"] == "0x7", got
    assert got["print/t counter"]["value"] == "111", got
    assert got["/o counter"]["value"] == "07", got
    assert got["/c numbers[0]"]["value"] == "10 '\\n'", got
    assert got["/x numbers"]["value"] == "{0xa, 0x14, 0x1e, 0x28, 0x32}", got
    # Memory at the array's address, as gdb's `x` prints it: the address, then the words.
    assert got["x/2dw numbers"]["value"].endswith(":\t10\t20"), got
    assert got["counter"]["value"] == "7" and got["counter/2"]["value"] == "3", got
    # A bad letter fails its own row, naming the letters there are.
    assert "one format letter of x (hex)" in got["/q counter"]["error"], got
    # The expressions of a step answer formats too.
    s = m.ok("step_over", {"evaluate": ["/x counter"], "timeout_ms": LONG})
    assert s["values"][0]["value"] == "0x7", s
    assert r["session_id"] == s["session_id"]


def test_debugpy_refuses_a_format_saying_what_to_write(py):
    _, m = py
    m.pause_at("app.py", 29, {"command": "python3 app.py"})
    err = m.err("evaluate_expression", {"expression": "/x count"})
    assert "'/x' is a gdb print format" in err and "write hex(count)" in err, err
    got = rows(m.ok("evaluate_expression", {"expressions": ["p/t count", "x/4xb long_text", "count"]}))
    assert "write bin(count)" in got["p/t count"]["error"], got
    assert "examines raw memory" in got["x/4xb long_text"]["error"], got
    assert got["count"]["value"] == "3", got


def test_delve_refuses_a_format_saying_what_to_write(go):
    _, m = go
    m.pause_at("main.go", 25, {"command": "go run ."})
    err = m.err("evaluate_expression", {"expression": "/x o.ID"})
    assert "'/x' is a gdb print format; Go (delve)" in err and "o.ID for its decimal value" in err, err


def test_xdebug_refuses_a_format_saying_what_to_write(php):
    _, m, _ = php
    m.pause_at("calls.php", 5, {"command": "php calls.php"})
    err = m.err("evaluate_expression", {"expression": "p/x $n"})
    assert "'/x' is a gdb print format; PHP (Xdebug)" in err and "write dechex($n)" in err, err


def test_lldb_takes_print_formats_and_memory_examine(c):
    _, m = c
    m.pause_at("prog.c", 34, {"command": "./prog", "adapter": "lldb"})
    got = rows(m.ok("evaluate_expression", {"expressions": [
        "/x counter", "p/t counter", "x/2dw &numbers", "x/2dw numbers", "counter",
    ]}))
    assert got["/x counter"]["value"] == "0x00000007" and got["/x counter"]["type"] == "int", got
    assert got["p/t counter"]["value"] == "0b00000000000000000000000000000111", got
    # lldb's `memory read` rows: one word a line.
    assert [r.split(": ")[1] for r in got["x/2dw &numbers"]["value"].splitlines()] == ["10", "20"], got
    # lldb's own error for an array where it wants an address, as a row error.
    assert "address" in got["x/2dw numbers"]["error"], got
    assert got["counter"]["value"] == "7", got
