"""What agents hit on PHP (issue 26), end to end on real Xdebug: a step out of a method the
object inherits stops at its return, and a binary string is shown escaped. Same server
fixture as test_php_xdebug.py; lines are those of projects/php/inherit.php.
"""

from __future__ import annotations

from conftest import LONG, line_of, var
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures


def test_step_out_of_an_inherited_method_stops_at_its_return(php):
    project, m, _ = php
    inside = line_of(project, "inherit.php", "$sum = array_sum($this->items);")
    call = line_of(project, "inherit.php", "$t = $c->doubled();")
    r = m.pause_at("inherit.php", inside, {"command": "php inherit.php"})
    # Named as Xdebug names it: the declaring class, `->` for a call on an object.
    assert r["pause"]["location"]["method"] == "Base->doubled", r
    # Base::doubled on a Child: Xdebug matches the return breakpoint on the object's class
    # (Child), not the one its stack names (Base); with Base the program ran to its end.
    s = m.ok("step_out", {"timeout_ms": LONG})
    assert s["state"] == "paused" and s["location"]["line"] == call, s
    shown = m.ok("get_variables", {"session_id": r["session_id"]})["variables"]
    assert var(shown, "(return)")["value"] == "10", shown


def test_a_binary_string_is_shown_escaped(php):
    project, m, _ = php
    line = line_of(project, "inherit.php", 'echo "t=$t "')
    r = m.pause_at("inherit.php", line, {"command": "php inherit.php"})
    v = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "$bin")
    assert "\ufffd" not in v["value"] and "\\xff" in v["value"], v
    assert v["value"].startswith('"ab') and v["value"].endswith('c"'), v


def test_an_element_at_a_variable_key_is_that_element(php):
    # `$c->items[$i]` was sent to Xdebug as a name to look up, which answered the whole array.
    project, m, _ = php
    line = line_of(project, "inherit.php", 'echo "t=$t "')
    m.pause_at("inherit.php", line, {"command": "php inherit.php"})
    r = m.ok("evaluate_expression", {"expressions": ["$c->items[$i]", "$c->items[1]", "$c->items[$i - 1]"]})
    assert [v["value"] for v in r["results"]] == ["3", "3", "2"], r


def test_stop_on_exception_stops_where_user_code_raises_not_in_the_framework(php):
    project, m, _ = php
    raised = line_of(project, "framework.php", "throw new InvalidArgumentException")
    r = m.ok("start_debug_session", {"command": "php framework.php", "stop_on_exception": True, "wait_for_pause": True, "timeout_ms": LONG})
    # Not first at the ReflectionException the framework (vendor/) throws and catches itself.
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == raised, r
    assert "InvalidArgumentException" in r["pause"].get("description", ""), r


def test_a_closures_own_variables_may_be_assigned_without_side_effects(php):
    """An agent's filter over records, `array_filter($rs, function ($r) { $l = …; return …; })`,
    was refused as a side effect: a PHP closure's plain variables are its own. The caller's
    variable of the same name is untouched; one shared by reference is still refused."""
    project, m, _ = php
    line = line_of(project, "calls.php", 'echo "total="')
    m.pause_at("calls.php", line, {"command": "php calls.php"})
    e = m.ok("evaluate_expression", {"expression": "array_values(array_filter([1, 2, 3, 4], function ($r) { $n = $r * 2; $n++; return $n > 5; }))"})["result"]
    assert "3" in m.last_text and "4" in m.last_text and "1 =>" not in e.get("value", ""), m.last_text
    # The frame's own $n (add() returned 1 line) is what it was.
    assert m.ok("evaluate_expression", {"expression": "$n"})["result"]["value"] == "1", m.last_text
    refused = m.err("evaluate_expression", {"expression": "array_map(function ($r) use (&$n) { $n = $r; }, [7])"})
    assert "allow_side_effects" in refused, refused
    assert m.ok("evaluate_expression", {"expression": "$n"})["result"]["value"] == "1", m.last_text


def test_a_computed_list_of_records_shows_each_records_fields(php):
    """An agent filtered 77 usage records to the one out of its period and was shown
    `[array(5)]`: an eval result's nested arrays have no name to fetch them by, so Xdebug is
    asked for them with the result (max_depth raised for the eval, then set back)."""
    project, m, _ = php
    line = line_of(project, "calls.php", 'echo "total="')
    m.pause_at("calls.php", line, {"command": "php calls.php"})
    rows = "array_values(array_filter(array_map(fn($i) => ['at' => \"d$i\", 'units' => $i * 10, 'meta' => ['k' => $i]], [1, 2, 3]), fn($r) => $r['units'] >= 20))"
    e = m.ok("evaluate_expression", {"expression": rows})["result"]
    assert e["value"] == "[['at' => \"d2\", 'units' => 20, 'meta' => array(1)], ['at' => \"d3\", 'units' => 30, 'meta' => array(1)]]", e
    # The same in a capture's row (the unit tests of dbgp's transport show max_depth set back).
    m.ok("stop_debug_session")
    r = m.ok("capture", {"command": "php calls.php", "points": [{"file_path": "calls.php", "line": line}], "expressions": [rows]})
    assert "'units' => 30, 'meta' => array(1)]" in r["hits"][0]["values"][0]["value"], r


def test_a_script_relative_to_another_directory_names_where_it_is(php):
    # An agent in work/ wrote work/repro.php and ran `php repro.php`: the command runs in the
    # project's root, PHP said "Could not open input file", and the error blamed Xdebug's setup.
    project, m, _ = php
    (project / "work").mkdir(exist_ok=True)
    (project / "work" / "repro.php").write_text("<?php\n$x = 41 + 1;\necho $x, \"\\n\";\n")
    args = {"command": "php repro.php", "points": [{"file_path": "work/repro.php", "line": 3}], "expressions": ["$x"]}
    e = m.err("capture", args)
    assert "`repro.php` is not in the project's root" in e and "pass cwd: 'work'" in e, e
    assert "Xdebug" not in e, e
    assert m.ok("list_debug_sessions")["sessions"] == [] and m.ok("list_breakpoints")["breakpoints"] == []
    m.ok("capture", {**args, "cwd": "work"})
    assert "42" in m.last_text, m.last_text
