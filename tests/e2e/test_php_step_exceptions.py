"""A step over PHP code that throws says so (issue 20 item 5, on DBGp as on DAP): the exception's
class, message and where it was raised; the next step says where it went (a catch in a caller),
or the end names it. Real php-cli + Xdebug 3 through `debugger-mcp serve` and the Python MCP SDK;
same server fixture as test_php_xdebug.py. Lines are found by their text in
projects/php/raising.php.
"""

from __future__ import annotations

from conftest import LONG, line_of
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures

TEXTS = {
    "throw": "throw new InvalidArgumentException",
    "call": "$q = parse_qty($s);",
    "catch": 'echo "caught: "',
    "after": "$q = 0;",
    "uncaught": "parse_qty('y');",
}


def lines(project) -> dict:
    return {k: line_of(project, "raising.php", t) for k, t in TEXTS.items()}


def at(s: dict) -> tuple:
    return s["location"]["line"], s["location"]["method"]


def step_over_to_the_throw(m, n: dict, line: str, command: str = "php raising.php") -> str:
    """Paused at `n[line]`, a step over that stops at the throw in parse_qty; what it says."""
    m.pause_at("raising.php", n[line], {"command": command})
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["reason"] == "exception" and at(s) == (n["throw"], "parse_qty"), s
    return s["description"]


def test_php_step_over_a_call_that_throws_says_so_and_where_it_went(php):
    project, m, _ = php
    n = lines(project)
    d = step_over_to_the_throw(m, n, "call")
    assert d.startswith("the step ended in an exception: InvalidArgumentException: not a quantity: 'x'"), d
    assert f"'x'; raised here (raising.php:{n['throw']}). Step again" in d, d
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert at(s) == (n["catch"], "read_qty"), s
    d = s.get("description", "")
    assert f"the exception InvalidArgumentException: not a quantity: 'x' (raised at raising.php:{n['throw']}) went here" in d, s
    # Without an exception, a step says nothing more.
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["location"]["line"] == n["after"] and "description" not in s, s
    # The exception breakpoint of the step is gone: the next throw ('z') does not stop a run.
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["reason"] == "breakpoint" and r["location"]["line"] == n["call"], r
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "stopped", r
    assert [b["type"] for b in m.ok("list_breakpoints")["breakpoints"]] == ["line"]


def test_php_step_into_a_throw(php):
    project, m, _ = php
    n = lines(project)
    m.pause_at("raising.php", n["throw"], {"command": "php raising.php"})
    # Xdebug may stop first where the exception's constructor returns (with its return value).
    for _ in range(3):
        s = m.ok("step_into", {"timeout_ms": LONG})
        if not s["location"]["method"].endswith("__construct"):
            break
    assert s["reason"] == "exception" and at(s) == (n["throw"], "parse_qty"), s
    assert "the step ended in an exception: InvalidArgumentException: not a quantity: 'x'" in s["description"], s
    s = m.ok("step_into", {"timeout_ms": LONG})
    assert at(s) == (n["catch"], "read_qty") and "went here" in s.get("description", ""), s


def test_php_step_over_an_uncaught_throw_then_the_end_names_it(php):
    project, m, _ = php
    n = lines(project)
    d = step_over_to_the_throw(m, n, "uncaught", "php raising.php uncaught")
    assert "InvalidArgumentException: not a quantity: 'y'" in d, d
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert s["state"] == "stopped" and s["exit_code"] == 255, s
    assert "Uncaught InvalidArgumentException: not a quantity: 'y'" in s.get("stderr", ""), s


def test_php_users_exception_breakpoint_stays_as_set_through_steps(php):
    """The user's breakpoint on `Exception` (a name the step's own breakpoints use too: Xdebug
    keeps one per name) stops the step once, and stays for the next throw."""
    project, m, _ = php
    n = lines(project)
    ex = m.ok("set_breakpoint", {"exception_class": "Exception"})
    d = step_over_to_the_throw(m, n, "call")
    assert d.startswith("the step ended in an exception: InvalidArgumentException"), d
    s = m.ok("step_over", {"timeout_ms": LONG})
    assert at(s) == (n["catch"], "read_qty") and "went here" in s.get("description", ""), s
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["reason"] == "breakpoint" and r["location"]["line"] == n["call"], r
    # A run (no step) to the next throw: the user's breakpoint, said as before.
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["reason"] == "exception" and at(r) == (n["throw"], "parse_qty"), r
    assert r["description"].startswith("InvalidArgumentException: not a quantity: 'z'"), r
    assert ex["id"] in [b["id"] for b in m.ok("list_breakpoints")["breakpoints"]]
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"


def test_php_recorded_call_that_throws_says_what_it_raised(php):
    _, m, _ = php
    m.ok("set_breakpoint", {"function": "parse_qty", "on_hit": "record"})
    r = m.ok("start_debug_session", {"command": "php raising.php", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    rows = m.ok("get_call_records", {"function": "parse_qty"})["rows"]
    assert len(rows) == 2, rows
    # Where it was called from; what it raised (the place is the stop's, not the row's).
    assert rows[0] == "#1 parse_qty($s=\"x\") -> raised InvalidArgumentException: not a quantity: 'x' @raising.php:14", rows
    assert rows[1].startswith("#2 parse_qty($s=\"z\") -> raised InvalidArgumentException: not a quantity: 'z'"), rows
