"""PHP through Xdebug end to end, continued (issue 14): function breakpoints by PHP name
(`Cart::add`, `total`), calls recorded with arguments, caller and result (Xdebug's return value
after a step out), superglobals of a web request, and a breakpoint update that keeps Xdebug's
hit count. Same server fixture as test_php_xdebug.py; lines are those of projects/php/calls.php
and src/*.php.
"""

from __future__ import annotations

from conftest import LONG, output_text, var, line_of
from test_php_xdebug import WebServer, php, php_mod  # noqa: F401 - pytest fixtures


def test_php_function_breakpoints_by_method_and_function_name(php):
    project, m, _ = php
    add = line_of(project, "src/lib.php", "$this->lines[] = [$sku, $price * $qty];")
    tot = line_of(project, "src/lib.php", "return array_sum(array_column($cart->lines, 1));")
    a = m.ok("set_breakpoint", {"function": "Cart::add"})
    assert a["bound"] == [f"src/lib.php:{add} Cart::add (id {a['id']})"], a
    t = m.ok("set_breakpoint", {"function": "total"})
    # `total`, not `order_total` nor anything else ending in it.
    assert t["bound"] == [f"src/lib.php:{tot} total (id {t['id']})"], t
    r = m.ok("start_debug_session", {"command": "php calls.php", "wait_for_pause": True, "timeout_ms": LONG})
    loc = r["pause"]["location"]
    assert (loc["line"], loc["method"]) == (add, "Cart->add"), r
    vs = m.ok("get_variables", {"session_id": r["session_id"]})["variables"]
    assert var(vs, "$sku")["value"] == '"A-1"' and var(vs, "$qty")["value"] == "2", vs
    assert m.ok("resume", {"timeout_ms": LONG})["location"]["line"] == add
    r = m.ok("resume", {"timeout_ms": LONG})
    assert (r["location"]["line"], r["location"]["method"]) == (tot, "total"), r
    # A step out shows what the function returned.
    s = m.ok("step_out", {"timeout_ms": LONG})
    shown = m.ok("get_variables", {"session_id": r["session_id"]})["variables"]
    assert var(shown, "(return)")["value"] == "15", (s, shown)
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"


def test_php_recorded_calls_have_arguments_caller_and_result(php):
    project, m, _ = php
    m.ok("set_breakpoint", {"function": "Cart::add", "on_hit": "record"})
    m.ok("set_breakpoint", {"function": "total", "on_hit": "record"})
    r = m.ok("start_debug_session", {"command": "php calls.php", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", f"a recording runs to the end without a visible stop: {r}"
    assert "total=15" in output_text(m, r["session_id"], expect="total="), output_text(m, r["session_id"])
    rows = m.ok("get_call_records", {"function": "Cart.add"})["rows"]
    assert len(rows) == 2, rows
    # Any spelling of the name finds them (the frames' `Cart->add` too).
    assert m.ok("get_call_records", {"function": "Cart->add"})["rows"] == rows
    # Xdebug lists a frame's variables by name.
    assert rows[0] == '#1 Cart::add($price=2.5, $qty=2, $sku="A-1", $this=Cart) -> 1 @calls.php:4', rows
    # Xdebug has no value for a call whose caller discards the result (`$cart->add(...);`).
    assert rows[1].endswith("-> (no value shown) @calls.php:5"), rows
    rows = m.ok("get_call_records", {"function": "total"})["rows"]
    assert len(rows) == 1 and rows[0].startswith("#1 total($cart=Cart") and rows[0].endswith("-> 15 @calls.php:6"), rows


def test_php_superglobals_of_a_web_request(php):
    project, m, port = php
    web = WebServer(project / "src", port)
    try:
        r = m.pause_at("src/index.php", 4, {"command": f"curl -s -d qty=3 '{web.url('/api/checkout?id=7')}'"})
        sid = r["session_id"]
        g = m.ok("get_variables", {"session_id": sid, "scope": "globals"})["variables"]
        names = {v["name"] for v in g}
        assert {"$_GET", "$_POST", "$_SERVER"} <= names, names
        # The frame's own variables stay the default view.
        assert "$_SERVER" not in {v["name"] for v in m.ok("get_variables", {"session_id": sid})["variables"]}
        ev = lambda e: m.ok("evaluate_expression", {"session_id": sid, "expression": e})["result"]["value"]  # noqa: E731
        assert ev("$_GET['id']") == '"7"'
        assert ev("$_POST['qty']") == '"3"'
        assert ev("$_SERVER['REQUEST_URI']") == '"/api/checkout?id=7"'
        assert ev("$_SERVER['REQUEST_METHOD']") == '"POST"'
        assert m.ok("resume", {"session_id": sid, "timeout_ms": LONG})["state"] == "stopped"
    finally:
        web.stop()


def test_php_breakpoint_update_keeps_counting_hits(php):
    project, m, _ = php
    loop = line_of(project, "src/lib.php", "$sum += $item->price * $item->qty;")
    r = m.pause_at("src/lib.php", loop, {"command": "php cli.php"})
    b = m.ok("list_breakpoints")["breakpoints"][0]
    assert var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "$sum")["value"] == "0"
    # The 3rd hit counted from the start of the run (one hit so far), not from the update.
    m.ok("set_breakpoint", {"file_path": "src/lib.php", "line": loop, "hit_condition": "3"})
    assert m.ok("list_breakpoints")["breakpoints"][0]["id"] == b["id"]
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["state"] == "paused" and r["location"]["line"] == loop, r
    item = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "$item")
    assert item["value"] == 'Item(sku="C-3", price=1, qty=7)', item
    assert m.ok("evaluate_expression", {"expression": "$item->sku"})["result"]["value"] == '"C-3"'
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"


def test_php_a_breakpoint_after_another_waits_for_its_hit(php):
    """Issue 26 `after` on Xdebug: Cart::add runs for A-1 before line 5 and for B-2 after it;
    waiting for line 5, its first stop is B-2's call."""
    project, m, _ = php
    add = line_of(project, "src/lib.php", "$this->lines[] = [$sku, $price * $qty];")
    r = m.ok("start_debug_session", {
        "command": "php calls.php",
        "breakpoints": [{"file_path": "calls.php", "line": 5}, {"function": "Cart::add", "after": 0}],
    })
    assert r["pause"]["location"]["line"] == 5, r
    n = m.ok("resume", {"timeout_ms": LONG, "evaluate": ["$sku"]})
    assert n["location"]["line"] == add and n["values"][0]["value"] == '"B-2"', n
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
