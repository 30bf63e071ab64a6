"""Long strings (issue 26: "strings cut at 1,024 characters with no visible way to ask for
more"), end to end on real Xdebug, debugpy, gdb and delve: a row of variables or of a capture says a
string was cut and how long it really is; evaluate_expression gives it whole up to 16,000
characters; past that the language's own slice reads the next window. The programs
(projects/*/longstr.*) build the same 6,041-character page."""

from __future__ import annotations

import json
import time

import pytest
from conftest import LONG, cleaned, compile_c, gdb_env_check, line_of, served, var
from test_php_xdebug import free_base, php, php_mod, settings  # noqa: F401 - pytest fixtures

PAGE = "<html><body><table>" + "".join("<tr><td>row %04d</td><td>value</td></tr>" % i for i in range(150)) + "</table></body></html>"
HINT = "cut: a slice reads on where the text ends (s[16000:32000], substr($s, 16000, 16000))"


def test_php_a_long_string_says_its_length_and_evaluates_whole(php):
    project, m, _ = php
    assert len(PAGE) == 6041
    line = line_of(project, "longstr.php", "echo strlen($page)")
    r = m.pause_at("longstr.php", line, {"command": "php longstr.php"})
    row = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "$page")
    # Xdebug sent 1,024 bytes and the size; the row says the real length, not "1024".
    assert row["truncated"] is True and row["value_length"] == 6041, row
    assert "(cut: 200 of 6,041 chars)" in m.last_text, m.last_text
    # By name (property_get) and as an expression (eval): whole, not Xdebug's 1,024 bytes.
    for expr in ("$page", "$page . ''"):
        e = m.ok("evaluate_expression", {"expression": expr})["result"]
        assert e["value"] == json.dumps(PAGE) and not e.get("truncated"), (expr, len(e["value"]), e.get("value_length"))
        assert "cut" not in m.last_text, m.last_text
    # Lines, backticks: Xdebug answers property_value in a <value> element (ninth set: a
    # runbook read as "cut: 0 of 1,166 chars", even captured alone).
    doc = "## step\n```sh\npg_isready -h db\n```\n" * 40
    e = m.ok("evaluate_expression", {"expression": "$doc"})["result"]
    assert e["value"] == json.dumps(doc) and not e.get("truncated"), e
    # Past the bound: cut at 16,000 with the real length; a slice reads the next window.
    e = m.ok("evaluate_expression", {"expression": "str_repeat($page, 4)"})["result"]
    assert e["truncated"] is True and e["value_length"] == 4 * 6041, {k: v for k, v in e.items() if k != "value"}
    assert "(cut: 16,000 of 24,164 chars)" in m.last_text and m.last_text.endswith(HINT), m.last_text[-400:]
    e = m.ok("evaluate_expression", {"expression": "substr(str_repeat($page, 4), 16000, 16000)"})["result"]
    assert e["value"] == json.dumps((PAGE * 4)[16000:32000]), len(e["value"])


def test_php_a_capture_row_says_a_local_was_cut_and_its_length(php):
    project, m, _ = php
    line = line_of(project, "longstr.php", "echo strlen($page)")
    r = m.ok("capture", {"command": "php longstr.php", "points": [{"file_path": "longstr.php", "line": line}], "max_hits": 1})
    page = r["hits"][0]["locals"]["$page"]
    assert page.startswith('"<html>') and page.endswith("(cut: 80 of 6,041 chars)"), page
    assert "(cut: 80 of 6,041 chars)" in m.last_text, m.last_text


def test_python_a_long_string_says_its_length_and_evaluates_whole(py):
    project, m = py
    line = line_of(project, "longstr.py", "print(len(page))")
    r = m.pause_at("longstr.py", line, {"command": "python3 longstr.py"})
    row = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "page")
    assert row["truncated"] is True and row["value_length"] == 6041, row
    assert "(cut: 200 of 6,041 chars)" in m.last_text, m.last_text
    e = m.ok("evaluate_expression", {"expression": "page"})["result"]
    assert e["value"] == repr(PAGE) and not e.get("truncated"), (len(e["value"]), e.get("value_length"))
    e = m.ok("evaluate_expression", {"expression": "page * 4"})["result"]
    assert e["truncated"] is True and e["value_length"] == 4 * 6041, {k: v for k, v in e.items() if k != "value"}
    assert "(cut: 16,000 of 24,164 chars)" in m.last_text and m.last_text.endswith(HINT), m.last_text[-400:]
    e = m.ok("evaluate_expression", {"expression": "(page * 4)[16000:32000]"})["result"]
    assert e["value"] == repr((PAGE * 4)[16000:32000]), len(e["value"])


def render_page(rows):
    return "<html><body><table>" + "".join("<tr><td>row %04d</td><td>value</td></tr>" % i for i in range(rows)) + "</table></body></html>"


def test_python_a_string_inside_a_list_is_not_cut_in_its_middle(py):
    """pydevd's SafeRepr cut a string inside a collection at 128 characters with a bare `...`
    in its middle (`['<html>…...…Z', 'tail']`), which no cut note revealed (the tenth set's
    compiled patterns): the list reads whole."""
    project, m = py
    line = line_of(project, "longstr.py", "print(len(page))")
    r = m.pause_at("longstr.py", line, {"command": "python3 longstr.py"})
    e = m.ok("evaluate_expression", {"expression": "pair"})["result"]
    assert e["value"] == repr([PAGE[:300] + "Z", "tail"]) and not e.get("truncated"), e["value"][:400]


def test_python_a_list_of_more_than_sixty_items_reads_whole(py):
    """Twelfth set: a capture of the 62 devices a rollout skipped showed 60 and `...` (pydevd's
    SafeRepr keeps 60 items of a list, 20 of a nested one), and the agent captured again to
    be sure of the rest. A list asked for reads whole within the value's room."""
    project, m = py
    line = line_of(project, "longstr.py", "print(len(page))")
    m.pause_at("longstr.py", line, {"command": "python3 longstr.py"})
    devices = "[(i, 'RX-%d' % i, [j for j in range(30)]) for i in range(100)]"
    want = repr([(i, "RX-%d" % i, list(range(30))) for i in range(100)])
    e = m.ok("evaluate_expression", {"expression": devices})["result"]
    assert e["value"] == want and not e.get("truncated"), (len(e["value"]), e["value"][:200], e["value"][-200:])
    m.ok("stop_debug_session")
    r = m.ok("capture", {"command": "python3 longstr.py", "points": [{"file_path": "longstr.py", "line": line}], "expressions": [devices]})
    v = r["hits"][0]["values"][0]
    assert v["value"] == want and not v.get("truncated"), v["value"][-300:]


def test_python_a_capture_of_fewer_hits_than_max_hits_shows_values_with_the_room_left(py):
    """Two hits recorded of twenty allowed (render_page's two calls): the values are shown with
    what two rows leave, not cut for twenty (the ninth set: a tenant's file cut at 300
    characters took a second capture)."""
    project, m = py
    line = line_of(project, "longstr.py", "return html")
    r = m.ok("capture", {"command": "python3 longstr.py", "points": [{"file_path": "longstr.py", "line": line}],
                         "expressions": ["html", "rows"], "max_hits": 20})
    assert len(r["hits"]) == 2, r
    whole, cut = r["hits"][1]["values"][0], r["hits"][0]["values"][0]
    small = render_page(20)
    assert whole["value"] == repr(small) and not whole.get("truncated"), whole
    assert cut["truncated"] is True and cut["value_length"] == 6041 and len(cut["value"]) > 1000, cut


def test_python_a_capture_row_says_a_local_was_cut_and_its_length(py):
    project, m = py
    line = line_of(project, "longstr.py", "print(len(page))")
    r = m.ok("capture", {"command": "python3 longstr.py", "points": [{"file_path": "longstr.py", "line": line}], "max_hits": 1})
    page = r["hits"][0]["locals"]["page"]
    assert page.startswith("'<html>") and page.endswith("(cut: 80 of 6,041 chars)"), page


def test_gdb_a_char_buffer_says_its_length_and_evaluates_whole(c):
    project, m = c
    line = line_of(project, "longstr.c", 'printf("%zu\\n", n);')
    m.ok("set_breakpoint", {"file_path": "longstr.c", "line": line})
    r = m.ok("start_debug_session", {"command": "./longstr", "adapter": "gdb", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    row = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "page")
    # gdb printed 200 elements then `...`: the row says cut, and the length gdb can read.
    assert row["truncated"] is True and row["value_length"] == 6041, row
    assert "(cut: 200 of 6,041 chars)" in m.last_text, m.last_text
    e = m.ok("evaluate_expression", {"expression": "page"})["result"]
    assert e["value"].startswith('"<html>') and PAGE in e["value"] and not e.get("truncated"), (len(e["value"]), e["value"][-80:])
    # gdb's own limit is back for the rows that follow.
    m.ok("get_variables", {"session_id": r["session_id"]})
    assert "(cut: 200 of 6,041 chars)" in m.last_text, m.last_text


def test_delve_a_long_string_says_its_length_and_evaluates_whole(go):
    project, m = go
    line = line_of(project, "longstr/main.go", "fmt.Println(len(page))")
    m.ok("set_breakpoint", {"file_path": "longstr/main.go", "line": line})
    r = m.ok("start_debug_session", {"command": "go run ./longstr", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    row = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "page")
    # delve loaded 512 bytes and said "...+5529 more": the row says the real length.
    assert row["truncated"] is True and row["value_length"] == 6041, row
    assert "(cut: 200 of 6,041 chars)" in m.last_text, m.last_text
    # delve shows 4,096 bytes of one value; the rest is read in windows.
    e = m.ok("evaluate_expression", {"expression": "page"})["result"]
    assert e["value"] == json.dumps(PAGE) and not e.get("truncated"), (len(e["value"]), e["value"][-80:])
    e = m.ok("evaluate_expression", {"expression": "page[6000:]"})["result"]
    assert e["value"] == json.dumps(PAGE[6000:]), e


def test_lldb_a_char_buffer_says_its_length_and_evaluates_whole(c):
    """lldb shows a char array whole, past its NUL (`\\0` and what follows), up to its summary
    length: 1,024 characters then `...` before, which read as whole."""
    project, m = c
    line = line_of(project, "longstr.c", 'printf("%zu\\n", n);')
    r = m.pause_at("longstr.c", line, {"command": "./longstr", "adapter": "lldb"})
    row = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "page")
    assert row["truncated"] is True and row["value_length"] > 6041, row
    assert f"(cut: 200 of {row['value_length']:,} chars)" in m.last_text, m.last_text
    e = m.ok("evaluate_expression", {"expression": "page"})["result"]
    assert e["value"].startswith(json.dumps(PAGE)[:-1] + "\\0") and not e.get("truncated"), (len(e["value"]), e["value"][-80:])


def test_gdb_a_members_length_is_its_own_not_a_same_named_locals(c):
    """gdb names no evaluateName: a cut member's length was asked as `$_strlen(body)`, which
    read the local `body` (230) for `req.body` (260)."""
    project, m = c
    line = line_of(project, "longstr.c", "return strlen(req.body) + strlen(body);")
    r = m.pause_at("longstr.c", line, {"command": "./longstr", "adapter": "gdb"})
    local = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "body")
    assert local["truncated"] is True and local["value_length"] == 230, local
    member = var(m.ok("expand_variable", {"path": "req"})["children"], "body")
    assert member["truncated"] is True and member["value_length"] == 260, member
    assert "(cut: 200 of 260 chars)" in m.last_text, m.last_text


def test_gdb_the_users_print_elements_stays_after_a_whole_string(c):
    """An evaluation raises gdb's `print elements` to give a string whole, then sets back the
    user's own value (here set through evaluate_expression), not gdb's default 200."""
    project, m = c
    line = line_of(project, "longstr.c", 'printf("%zu\\n", n);')
    r = m.pause_at("longstr.c", line, {"command": "./longstr", "adapter": "gdb"})
    sid = r["session_id"]
    m.ok("evaluate_expression", {"expression": "set print elements 100", "allow_side_effects": True})
    m.ok("get_variables", {"session_id": sid})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text
    e = m.ok("evaluate_expression", {"expression": "page"})["result"]
    assert PAGE in e["value"] and not e.get("truncated"), (len(e["value"]), e["value"][-80:])
    m.ok("get_variables", {"session_id": sid})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text
    shown = m.ok("evaluate_expression", {"expression": "show print elements", "allow_side_effects": True})["result"]
    assert "is 100" in shown["value"], shown


@pytest.fixture(scope="module")
def c_short_mod():
    """A server whose backend calls time out after 3 s."""
    gdb_env_check()
    yield from served("c", "brave_mode = true\nbackend_timeout_ms = 3000\n", prepare=compile_c)


@pytest.fixture
def c_short(c_short_mod):
    yield from cleaned(c_short_mod)


def variables_again(m, sid: str) -> None:
    """Waits (bounded) until the debugger lists variables again after a call it was given up
    on (no evaluation in between: one would set the limit back itself)."""
    deadline = time.monotonic() + 60
    while m.call("get_variables", {"session_id": sid}).is_error:
        assert time.monotonic() < deadline, "the debugger did not answer again"
        time.sleep(0.5)


def test_gdb_print_elements_is_set_back_when_an_evaluation_times_out(c_short):
    """The evaluation was given up on (the server's timeout) while gdb still ran the call: its
    raised `print elements` was never set back, and later rows were no longer cut by gdb."""
    project, m = c_short
    line = line_of(project, "longstr.c", 'printf("%zu\\n", n);')
    r = m.pause_at("longstr.c", line, {"command": "./longstr", "adapter": "gdb"})
    sid = r["session_id"]
    m.ok("evaluate_expression", {"expression": "set print elements 100", "allow_side_effects": True})
    msg = m.err("evaluate_expression", {"expression": "slow(6)", "allow_side_effects": True})
    assert "did not finish" in msg, msg
    variables_again(m, sid)
    m.ok("get_variables", {"session_id": sid})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text


def test_php_the_users_max_data_stays_after_a_whole_string(php):
    """xdebugSettings.max_data (the launch entry's, 100 bytes) is what Xdebug sends again after
    an evaluation that raised it, not our default 1,024."""
    project, m, _ = php
    line = line_of(project, "longstr.php", "echo strlen($page)")
    m.ok("set_breakpoint", {"file_path": "longstr.php", "line": line})
    r = m.ok("start_debug_session", {"run_configuration": "longstr.php, max_data 100", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    m.ok("get_variables", {"session_id": r["session_id"]})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text
    e = m.ok("evaluate_expression", {"expression": "$page . ''"})["result"]
    assert e["value"] == json.dumps(PAGE) and not e.get("truncated"), (len(e["value"]), e.get("value_length"))
    m.ok("get_variables", {"session_id": r["session_id"]})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text


@pytest.fixture(scope="module")
def php_short_mod():
    """PHP with backend calls timing out after 3 s."""
    port = free_base()
    for project, m in served("php", settings(port, "backend_timeout_ms = 3000")):
        yield project, m


@pytest.fixture
def php_short(php_short_mod):
    yield from cleaned(php_short_mod)


def test_php_max_data_is_set_back_when_an_evaluation_times_out(php_short):
    """An eval given up on (the server's timeout) while PHP still ran it left `max_data` raised:
    the rows after it were Xdebug's whole string, no longer the user's 100 bytes."""
    project, m = php_short
    line = line_of(project, "longstr.php", "echo strlen($page)")
    m.ok("set_breakpoint", {"file_path": "longstr.php", "line": line})
    r = m.ok("start_debug_session", {"run_configuration": "longstr.php, max_data 100", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    msg = m.err("evaluate_expression", {"expression": "sleep(6)", "allow_side_effects": True})
    assert "did not finish" in msg, msg
    variables_again(m, r["session_id"])
    m.ok("get_variables", {"session_id": r["session_id"]})
    assert "(cut: 100 of 6,041 chars)" in m.last_text, m.last_text


def _row_value(m, args):
    """The value of the one expression of a capture's first hit, as the agent reads it."""
    r = m.ok("capture", args)
    assert r["hits"], r
    return r["hits"][0]["values"][0]


def _capture_rows_show_their_share(m, command, file, line, expr, quote, length=6041):
    """A capture of one hit shows its values as evaluate_expression's batch would: the page
    whole, even beside another expression (16,000 / 2 chars each); so does a capture that
    allowed more hits but recorded one (the room is the rows', known when recording ends),
    three expressions sharing it (16,000 / 3). `length`: the value's length as the debugger
    prints it whole."""
    point = [{"file_path": file, "line": line}]
    r = m.ok("capture", {"command": command, "points": point, "expressions": [expr, "1"], "max_hits": 1})
    v = r["hits"][0]["values"][0]
    assert v["value"].startswith(quote + "<html>") and len(v["value"]) >= 6041, {k: x for k, x in v.items() if k != "value"}
    if length:
        assert not v.get("truncated") and "(cut:" not in m.last_text, m.last_text[-300:]
    else:  # gdb's whole char[8192] text is longer than the two expressions' 8,000 each
        assert f"(cut: 8,000 of {v['value_length']:,} chars)" in m.last_text, m.last_text[-300:]
    v = _row_value(m, {"command": command, "points": point, "expressions": [expr], "max_hits": 2})
    assert v["value"].startswith(quote + "<html>") and len(v["value"]) >= 6041 and not v.get("truncated"), {k: x for k, x in v.items() if k != "value"}
    v = _row_value(m, {"command": command, "points": point, "expressions": [expr, expr, expr], "max_hits": 10})
    if length:
        assert v.get("value_length") == 6041 and 5320 <= len(v["value"]) <= 5345, len(v["value"])
        assert "(cut: 5,333 of 6,041 chars)" in m.last_text, m.last_text[-300:]
    else:
        assert len(v["value"]) >= 5320, len(v["value"])


def test_python_capture_rows_of_few_hits_show_longer_values(py):
    project, m = py
    line = line_of(project, "longstr.py", "print(len(page))")
    _capture_rows_show_their_share(m, "python3 longstr.py", "longstr.py", line, "page", "'")


def test_php_capture_rows_of_few_hits_show_longer_values(php):
    project, m, _ = php
    line = line_of(project, "longstr.php", "echo strlen($page)")
    _capture_rows_show_their_share(m, "php longstr.php", "longstr.php", line, "$page", '"')


def test_gdb_capture_rows_of_few_hits_show_longer_values(c):
    project, m = c
    line = line_of(project, "longstr.c", 'printf("%zu\\n", n);')
    # gdb prints the whole char[8192], its NULs as `'\\000' <repeats N times>`: that text's length.
    _capture_rows_show_their_share(m, "./longstr", "longstr.c", line, "page", '"', length=None)


def test_php_an_array_asked_for_shows_its_items_not_eight(php):
    """Tenth set: an agent evaluated a list of 30 module names and was shown 8 and `…`, and
    captured again for the rest. A value asked for by name shows as many items as its room
    holds (a listing keeps its short preview), and a cut list says how many are left."""
    project, m, _ = php
    line = line_of(project, "longstr.php", "echo strlen($page)")
    names = ['"assets/module-%02d.js"' % i for i in range(1, 31)]
    m.pause_at("longstr.php", line, {"command": "php longstr.php"})
    e = m.ok("evaluate_expression", {"expression": "$modules"})["result"]
    assert e["value"] == "[" + ", ".join(names) + "]", e["value"]
    # A listing's row stays short and says what it left out.
    row = var(m.ok("get_variables", {})["variables"], "$modules")
    assert row["value"].startswith("[" + ", ".join(names[:3])) and "more" in row["value"], row
    m.ok("stop_debug_session")
    # One hit of a capture reads like a print.
    r = m.ok("capture", {"command": "php longstr.php", "points": [{"file_path": "longstr.php", "line": line}], "expressions": ["$modules"]})
    assert r["hits"][0]["values"][0]["value"] == "[" + ", ".join(names) + "]", r["hits"][0]["values"][0]
