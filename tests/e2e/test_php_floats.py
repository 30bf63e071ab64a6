"""PHP floats shown exactly (issue 26): Xdebug 3.2 writes a float in a DBGp property with
PHP's `precision` (14 significant digits), so 50 - 1e-14 read `50` beside a `>= 50.0` that
was false. Every value the PHP backend shows is the shortest text that reads back as the same
double, and the program, which prints with its own precision, never notices. Same server
fixture as test_php_xdebug.py; lines are those of projects/php/floats.php.
"""

from __future__ import annotations

from conftest import LONG, line_of, output_text, var
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures

ECHO = 'echo "sum=" . $sum'


def test_evaluated_and_local_floats_are_exact_and_the_program_prints_as_before(php):
    project, m, _ = php
    line = line_of(project, "floats.php", ECHO)
    r = m.pause_at("floats.php", line, {"command": "php floats.php"})
    sid = r["session_id"]
    ev = lambda e: m.ok("evaluate_expression", {"session_id": sid, "expression": e})["result"]["value"]  # noqa: E731
    assert ev("$subtotal->toFloat()") == "49.99999999999999"
    assert ev("$subtotal->toFloat() >= 50.0") == "false"
    assert ev("0.1 + 0.2") == "0.30000000000000004"
    assert ev("$tenth") == "0.1"
    # Code the expression runs converts floats as the program does (precision 14).
    assert ev('"total " . $sum') == '"total 0.3"'
    vs = m.ok("get_variables", {"session_id": sid})["variables"]
    assert var(vs, "$sum")["value"] == "0.30000000000000004", vs
    assert var(vs, "$tenth")["value"] == "0.1", vs
    q = m.ok("expand_variable", {"path": "$prices"})
    assert "0.30000000000000004" in m.last_text and "1.5" in m.last_text, q
    assert "49.99999999999999" in str(m.ok("expand_variable", {"path": "$subtotal"})), m.last_text
    done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
    assert done["state"] == "stopped", done
    out = output_text(m, sid, expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_capture_rows_and_a_start_s_values_show_exact_floats(php):
    project, m, _ = php
    line = line_of(project, "floats.php", ECHO)
    r = m.ok("capture", {
        "command": "php floats.php",
        "points": [{"file_path": "floats.php", "line": line}],
        "expressions": ["$sum", "$subtotal->toFloat()", "$prices"],
        "max_hits": 1,
    })
    row = [v.get("value") for v in r["hits"][0]["values"]]
    assert row[:2] == ["0.30000000000000004", "49.99999999999999"], r
    assert "0.30000000000000004" in row[2], row
    started = m.ok("start_debug_session", {
        "command": "php floats.php",
        "breakpoints": [{"file_path": "floats.php", "line": line}],
        "evaluate": ["$sum", "$subtotal->toFloat()"],
    })
    pause = started["pause"]
    assert [v["value"] for v in pause["values"]] == ["0.30000000000000004", "49.99999999999999"], pause
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    out = output_text(m, started["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_a_step_out_s_returned_float_is_exact(php):
    project, m, _ = php
    inside = line_of(project, "floats.php", "return $this->amount;")
    r = m.pause_at("floats.php", inside, {"command": "php floats.php"})
    m.ok("step_out", {"timeout_ms": LONG})
    shown = m.ok("get_variables", {"session_id": r["session_id"]})["variables"]
    assert var(shown, "(return)")["value"] == "49.99999999999999", shown
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    out = output_text(m, r["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_a_recorded_call_s_float_result_is_exact(php):
    project, m, _ = php
    m.ok("set_breakpoint", {"function": "Money::toFloat", "on_hit": "record"})
    r = m.ok("start_debug_session", {"command": "php floats.php", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    out = output_text(m, r["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out
    rows = m.ok("get_call_records", {"function": "Money::toFloat"})["rows"]
    assert len(rows) == 1 and "-> 49.99999999999999 @floats.php:" in rows[0], rows
