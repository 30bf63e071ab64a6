"""Every tool end to end against real debugpy, through the Python MCP SDK over Streamable HTTP
against `debugger-mcp serve` on a copy of tests/e2e/projects/py (brave mode on).

Line numbers are those of projects/py/app.py (and spin.py, crash.py); values are what the
fixture program computes. Each test starts its own session; `clean` stops it and removes the
agent's breakpoints and watches afterwards.
"""

from __future__ import annotations

import json
import pathlib

from conftest import LONG, REPO, output_text, var



def app(project: pathlib.Path) -> str:
    return str(project / "app.py")


def start_at(m, line: int, file="app.py", **extra) -> dict:
    """Breakpoint at `line`, start "Run app", return the first pause."""
    bp = m.ok("set_breakpoint", {"file_path": file, "line": line})
    r = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000, **extra})
    assert r["state"] == "paused", r
    p = r["pause"]
    assert p["reason"] == "breakpoint" and p["location"]["line"] == line, p
    assert p["breakpoint_ids"] == [bp["id"]]
    return {"bp": bp, "start": r, "pause": p}


# --- tool list --------------------------------------------------------------------------------

def test_the_expected_tools_with_schemas(py):
    _, m = py
    tools = m.list_tools().tools
    names = {t.name for t in tools}
    # One list of the served tools for every client test.
    expected = set(json.loads((REPO / "tests/clients/expected_tools.json").read_text())["tools"])
    assert len(tools) == len(expected) and names == expected
    for t in tools:
        # The listing leaves out what the instructions say once; the server still refuses an
        # unknown parameter by name (test_guard_and_bad_input).
        assert "additionalProperties" not in t.input_schema and "project_path" not in t.input_schema["properties"], t.name
        # No titles in tools/list (issue 6: context cost; clients show the name).
        assert t.title is None, t.name
    by = {t.name: t for t in tools}

    def hint(name, key, default):
        # Hints equal to MCP's defaults are not sent (issue 26): a client reads the default.
        a = by[name].annotations
        v = getattr(a, key) if a is not None else None
        return default if v is None else v

    assert hint("get_variables", "read_only_hint", False) is True
    assert hint("set_breakpoint", "destructive_hint", True) is False
    assert hint("set_variable", "read_only_hint", False) is False
    assert hint("set_variable", "destructive_hint", True) is True
    assert hint("start_debug_session", "destructive_hint", True) is True
    assert by["start_debug_session"].annotations is None  # every hint is MCP's default


# --- run configurations and sessions ------------------------------------------------------------

def test_list_run_configurations_reads_launch_json(py):
    _, m = py
    cfgs = m.ok("list_run_configurations")["configurations"]
    assert [c["name"] for c in cfgs] == ["Run app"]
    assert cfgs[0]["type"] == "debugpy" and cfgs[0]["source"] == ".vscode/launch.json"


def test_issue_done_when_flow(py):
    """The issue's done-when: breakpoint, start from launch.json, stopped at it, read and expand
    variables, evaluate, step and see the new line and values, stop."""
    project, m = py
    bp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 28})
    assert bp["source_line"] == "    count = 3" and bp["line"] == 28 and bp["owner"] == "agent"
    assert bp["verified"] is False and "pending" in bp["message"]  # no session yet

    r = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})
    sid = r["session_id"]
    assert r["state"] == "paused" and "paused (breakpoint)" in r["message"]
    p = r["pause"]
    assert p["location"] == {"file": app(project), "line": 28, "method": "main"}
    assert p["breakpoint_ids"] == [bp["id"]] and p["reason"] == "breakpoint"

    sessions = m.ok("list_debug_sessions")["sessions"]
    mine = [s for s in sessions if s["id"] == sid][0]
    assert mine["state"] == "paused" and mine["is_current"] is True and mine["run_configuration"] == "Run app"
    listed = m.ok("list_breakpoints")["breakpoints"]
    assert [(b["id"], b["line"], b["verified"], b["hit_count"]) for b in listed] == [(bp["id"], 28, True, 1)]

    v = m.ok("get_variables")
    v_text = m.last_text
    assert v["location"]["line"] == 28
    vs = v["variables"]
    assert "count" not in [x["name"] for x in vs]  # line 28 has not run yet
    long_text = var(vs, "long_text")
    assert long_text["truncated"] is True and long_text["value_length"] == 5000  # len(long_text), not its repr
    assert long_text["value"].startswith("'xxxx") and long_text["value"].endswith("…")
    assert len(long_text["value"]) < 300
    token = var(vs, "api_token")
    assert token["value"] == "<redacted:token>" and token["redacted"] is True
    assert "s3cr3t" not in json.dumps(v)
    items = var(vs, "items")
    assert items["type"] == "list" and items["has_children"] is True
    order = var(vs, "order")
    assert order["type"] == "Order" and order["value"].startswith("Order(") and "oid=7" in order["value"]
    # debugpy renders <__main__.Order object at 0x…>; the core previews its fields instead.
    assert order.get("preview") is True

    # expand by id, then a nested dict by path
    kids = m.ok("expand_variable", {"variable_id": order["id"]})["children"]
    assert var(kids, "oid")["value"] == "7"
    meta = var(kids, "meta")
    assert meta["value"] == "{'customer': {'name': 'Ada', 'tier': 2}, 'tags': ['a', 'b']}"
    cust = m.ok("expand_variable", {"path": "order.meta['customer']"})
    assert cust["variable"]["path"] == "order.meta['customer']"
    assert {c["name"]: c["value"] for c in cust["children"] if c["name"] != "len()"} == {"'name'": "'Ada'", "'tier'": "2"}
    tags = m.ok("expand_variable", {"path": "order.meta['tags']"})["children"]
    assert [c["value"] for c in tags if c["name"] != "len()"] == ["'a'", "'b'"]

    e = m.ok("evaluate_expression", {"expression": "len(items) + order.oid"})
    assert e["result"]["value"] == "37" and e["result"]["type"] == "int"

    s = m.ok("step_over")
    assert s["state"] == "paused" and s["reason"] == "step" and s["location"]["line"] == 29
    assert var(s["frame"]["variables"], "count")["value"] == "3"
    # The model reads a compact rendering: relative path, the source line, the new value marked.
    assert m.last_text.startswith("paused (step) at app.py:29 in main\n  29| "), m.last_text
    assert "count = 3 (int) [changed]" in m.last_text and str(project) not in m.last_text, m.last_text
    print(f"text bytes: get_variables {len(v_text.encode())} (JSON {len(json.dumps(v, separators=(',', ':')))}), "
          f"step_over {len(m.last_text.encode())} (JSON {len(json.dumps(s, separators=(',', ':')))})")

    stopped = m.ok("stop_debug_session")
    assert stopped == {**stopped, "session_id": sid, "state": "stopped"}
    assert sid not in [x["id"] for x in m.ok("list_debug_sessions")["sessions"]]  # only live sessions are listed
    assert m.ok("get_debug_session_status", {"session_id": sid})["state"] == "stopped"
    st = m.ok("get_debug_session_status")
    assert st["state"] == "no_session" and "Run app" in st["message"]


def test_start_by_command_stop_on_entry(py):
    project, m = py
    r = m.ok("start_debug_session", {"command": "python3 app.py", "stop_on_entry": True, "wait_for_pause": True, "timeout_ms": 55000})
    assert r["state"] == "paused" and r["pause"]["reason"] == "entry"
    assert r["pause"]["location"]["file"] == app(project) and r["pause"]["location"]["line"] == 1
    assert r["name"] == "python3 app.py"
    stop = m.ok("stop_debug_session", {"session_id": r["session_id"]})
    assert stop["state"] == "stopped"


def test_start_by_command_stop_on_exception(py):
    project, m = py
    r = m.ok("start_debug_session", {"command": "python3 crash.py", "stop_on_exception": True, "wait_for_pause": True, "timeout_ms": 55000})
    p = r["pause"]
    assert p["reason"] == "exception"
    assert p["location"] == {"file": str(project / "crash.py"), "line": 5, "method": "parse"}
    assert "invalid literal for int()" in p["description"]
    assert var(p["frame"]["variables"], "text")["value"] == "'not a number'"


def test_program_that_dies_at_launch_shows_exit_code_and_stderr(py):
    _, m = py
    r = m.ok("start_debug_session", {"command": "python3 bad_indent.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped" and "exit code 1" in r["message"], r
    assert r["pause"]["exit_code"] == 1
    assert "IndentationError" in r["pause"]["stderr"] and "bad_indent.py" in r["pause"]["stderr"], r
    # Without waiting, start_debug_session watches only briefly (300 ms) for an early end, so
    # on a loaded machine it may still say "started"; the next call then tells the end.
    r = m.ok("start_debug_session", {"command": "python3 bad_indent.py"})
    if r["state"] != "stopped":
        r = m.ok("wait_for_pause", {"session_id": r["session_id"], "timeout_ms": LONG})
        assert r["state"] == "stopped" and r["exit_code"] == 1, r
        assert "IndentationError" in r["stderr"], r
    else:
        assert "ended during launch with exit code 1" in r["message"], r
        assert "IndentationError" in r["pause"]["stderr"], r


def test_uncaught_exception_end_shows_the_traceback(py):
    _, m = py
    r = m.ok("start_debug_session", {"command": "python3 crash.py", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    assert "ValueError: invalid literal for int()" in r["pause"]["stderr"], r


def test_run_configuration_debug_mode_and_wait_for_pause_filter(py):
    project, m = py
    b13 = m.ok("set_breakpoint", {"file_path": "app.py", "line": 13})
    b19 = m.ok("set_breakpoint", {"file_path": "app.py", "line": 19})
    r = m.ok("run_configuration", {"name": "Run app", "mode": "debug"})
    assert r["mode"] == "debug" and r["name"] == "Run app"
    # line 19 comes first: a pause, but not the awaited breakpoint
    w = m.ok("wait_for_pause", {"breakpoint_ids": [b13["id"]], "timeout_ms": LONG})
    assert w["state"] == "paused" and w["location"]["line"] == 19 and w["breakpoint_ids"] == [b19["id"]]
    assert w["matched"] is False and b13["id"] in w["message"]
    # already paused: wait_for_pause returns at once with the same stop
    again = m.ok("wait_for_pause", {"timeout_ms": 1000})
    assert again["state"] == "paused" and again["location"]["line"] == 19 and not again.get("timed_out")
    m.ok("remove_breakpoint", {"breakpoint_id": b19["id"]})
    m.ok("resume", {"wait": False})
    w = m.ok("wait_for_pause", {"breakpoint_ids": [b13["id"]], "timeout_ms": LONG})
    assert w["matched"] is True and w["location"] == {"file": app(project), "line": 13, "method": "price"}
    assert var(w["frame"]["variables"], "base")["value"] == "2"  # item0: price 1 * qty 2


def test_run_configuration_run_mode(py):
    """mode 'run': the program runs without the debugger and its output is kept."""
    _, m = py
    r = m.ok("run_configuration", {"name": "Run app", "mode": "run"})
    assert r["mode"] == "run"
    w = m.ok("wait_for_pause", {"session_id": r["session_id"], "timeout_ms": 30000})
    assert w["state"] == "stopped"
    assert "total=930 count=3" in output_text(m, r["session_id"], expect="total=930 count=3")


# --- breakpoints -------------------------------------------------------------------------------

def test_breakpoint_moved_from_blank_line_and_updated_in_place(py):
    project, m = py
    pending = m.ok("set_breakpoint", {"file_path": "app.py", "line": 36})
    assert pending["verified"] is False and pending["source_line"] == ""
    start_at(m, 28)
    # while a session runs the debugger binds (and moves) breakpoints at once
    moved = m.ok("set_breakpoint", {"file_path": "app.py", "line": 36})
    assert moved["id"] == pending["id"] and moved["status"] == "updated"
    assert moved["verified"] is True and moved["requested_line"] == 36 and moved["line"] == 35
    assert moved["source_line"] == '    print("done", len(long_text), len(api_token))'
    assert "moved it from line 36 to line 35" in moved["moved"]
    assert "already had breakpoint" in moved["note"]  # re-setting a line updates it
    # the moved breakpoint is where the program stops
    r = m.ok("resume", {"timeout_ms": LONG})
    assert r["location"]["line"] == 35 and r["breakpoint_ids"] == [moved["id"]]
    listed = m.ok("list_breakpoints", {"file_path": "app.py", "owner": "agent"})
    assert listed["total"] == 2
    assert {(b["requested_line"], b["line"]) for b in listed["breakpoints"]} == {(28, 28), (36, 35)}


def test_conditional_breakpoint(py):
    project, m = py
    bp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 13, "condition": "base == 40"})
    assert bp["condition"] == "base == 40"
    r = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})
    p = r["pause"]
    assert p["location"]["line"] == 13 and p["breakpoint_ids"] == [bp["id"]]
    vs = p["frame"]["variables"]
    assert var(vs, "base")["value"] == "40"
    assert var(vs, "item")["value"] == "{'name': 'item19', 'price': 20, 'qty': 2}"


def test_hit_condition_breakpoint(py):
    _, m = py
    bp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 19, "hit_condition": "3"})
    assert bp["hit_condition"] == "3"
    p = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})["pause"]
    assert p["location"]["line"] == 19
    vs = p["frame"]["variables"]
    assert var(vs, "item")["value"] == "{'name': 'item2', 'price': 3, 'qty': 2}"
    assert var(vs, "acc")["value"] == "6"  # 2 + 4 from the first two items


def test_log_message_breakpoint_writes_output_without_stopping(py):
    _, m = py
    log = m.ok("set_breakpoint", {"file_path": "app.py", "line": 12, "log_message": "price of {item['name']} is {item['price']}"})
    assert log["log_message"] == "price of {item['name']} is {item['price']}"
    r = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})
    assert r["state"] == "stopped", "a log point must not stop the program"
    traces = output_text(m, r["session_id"], "tracepoint", expect="price of item29 is 30\n")
    assert traces == "".join(f"price of item{i} is {i + 1}\n" for i in range(30))
    text = output_text(m, r["session_id"], expect="done 5000 12")
    assert "total=930 count=3" in text and "done 5000 12" in text and "price of" not in text


def test_temporary_breakpoint_is_removed_after_its_hit(py):
    _, m = py
    tmp = m.ok("set_breakpoint", {"file_path": "app.py", "line": 13, "temporary": True})
    assert tmp["temporary"] is True
    p = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})["pause"]
    assert p["location"]["line"] == 13 and p["breakpoint_ids"] == [tmp["id"]]
    assert m.ok("list_breakpoints")["breakpoints"] == []
    # it is gone from the debugger too: the program runs to its end
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0


def test_remove_and_disable_breakpoints(py):
    _, m = py
    a = m.ok("set_breakpoint", {"file_path": "app.py", "line": 13})
    b = m.ok("set_breakpoint", {"file_path": "app.py", "line": 19})
    c = m.ok("set_breakpoint", {"file_path": "app.py", "line": 28})
    d = m.ok("set_breakpoint", {"file_path": "app.py", "line": 30})
    off = m.ok("set_breakpoint", {"breakpoint_id": c["id"], "enabled": False})
    assert off["enabled"] is False and off["id"] == c["id"]
    assert [x["id"] for x in m.ok("list_breakpoints", {"enabled_only": True})["breakpoints"]] == [a["id"], b["id"], d["id"]]
    gone = m.ok("remove_breakpoint", {"breakpoint_id": a["id"]})
    assert gone["ids"] == [a["id"]]
    gone = m.ok("remove_breakpoint", {"file_path": "app.py", "line": 19})
    assert gone["ids"] == [b["id"]]
    none = m.ok("remove_breakpoint", {"file_path": "app.py", "line": 3})
    assert none["removed"] == 0 and none["ids"] == [] and "nothing" in none["message"]
    # the disabled breakpoint on 28 is skipped; 30 is hit
    p = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})["pause"]
    assert p["location"]["line"] == 30 and p["breakpoint_ids"] == [d["id"]]
    on = m.ok("set_breakpoint", {"breakpoint_id": c["id"], "condition": "i > 1"})
    assert on["enabled"] is True and on["condition"] == "i > 1" and on["id"] == c["id"]
    off = m.ok("set_breakpoint", {"breakpoint_id": c["id"], "enabled": False})
    assert off["enabled"] is False
    all_gone = m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    assert sorted(all_gone["ids"]) == sorted([c["id"], d["id"]])
    assert m.ok("list_breakpoints")["total"] == 0


def test_exception_breakpoint_raised_stops_on_line_32(py):
    project, m = py
    ex = m.ok("set_breakpoint", {"exception_class": "raised"})
    assert ex["type"] == "exception" and ex["exception_class"] == "raised"
    assert ex["caught"] is True and ex["uncaught"] is True
    p = m.ok("start_debug_session", {"run_configuration": "Run app", "wait_for_pause": True, "timeout_ms": 55000})["pause"]
    listed = m.ok("list_breakpoints")["breakpoints"]
    assert [(b["id"], b["type"], b["verified"]) for b in listed] == [(ex["id"], "exception", True)]
    assert p["reason"] == "exception"
    assert p["location"] == {"file": app(project), "line": 32, "method": "main"}
    assert "ValueError" in p["description"] and "bad order" in p["description"]
    assert var(p["frame"]["variables"], "t")["value"] == "930"
    # debugpy takes class names (any dotted identifier); what is neither a class name nor one
    # of its filters is refused, naming both.
    bad = m.err("set_breakpoint", {"exception_class": "no such filter"})
    assert "raised" in bad and "uncaught" in bad and "class name" in bad, bad


# --- execution and stack -------------------------------------------------------------------------

def test_step_into_over_out_stack_and_frames(py):
    project, m = py
    start_at(m, 29)
    s = m.ok("step_into")
    assert s["location"] == {"file": app(project), "line": 17, "method": "total"}
    assert s["reason"] == "step"
    assert m.ok("step_over")["location"]["line"] == 18
    s = m.ok("step_over")
    assert s["location"]["line"] == 19 and var(s["frame"]["variables"], "acc")["value"] == "0"
    s = m.ok("step_into")
    assert s["location"] == {"file": app(project), "line": 12, "method": "price"}
    assert var(s["frame"]["variables"], "item")["value"] == "{'name': 'item0', 'price': 1, 'qty': 2}"

    st = m.ok("get_stack_trace")
    assert [(f["method"], f["line"]) for f in st["frames"]] == [("price", 12), ("total", 19), ("main", 29), ("<module>", 39)]
    assert all(f["file"] == app(project) for f in st["frames"]) and st["frames"][0]["is_current"] is True
    page = m.ok("get_stack_trace", {"offset": 1, "max_frames": 2})
    assert [(f["index"], f["method"]) for f in page["frames"]] == [(1, "total"), (2, "main")]

    threads = m.ok("list_threads")
    assert [(t["name"], t["state"], t["is_current"]) for t in threads["threads"]] == [("MainThread", "paused", True)]
    assert threads["current_thread"] == threads["threads"][0]["id"]

    sel = m.ok("select_stack_frame", {"frame_index": 2})
    assert sel["location"]["method"] == "main" and sel["location"]["line"] == 29
    caller = m.ok("get_variables")
    assert caller["frame_index"] == 2
    names = {v["name"] for v in caller["variables"]}
    assert {"count", "order", "items", "long_text", "api_token"} <= names and "item" not in names
    assert var(caller["variables"], "count")["value"] == "3"
    assert m.ok("evaluate_expression", {"expression": "count * 2"})["result"]["value"] == "6"  # selected frame
    assert m.ok("evaluate_expression", {"expression": "item['qty']", "frame_index": 0})["result"]["value"] == "2"
    m.ok("select_stack_frame", {"frame_index": 0})

    s = m.ok("step_out")
    assert s["location"]["method"] == "total" and s["location"]["line"] == 19
    s = m.ok("step_out")
    assert s["location"]["method"] == "main" and s["location"]["line"] == 29
    s = m.ok("step_over")
    assert s["location"]["line"] == 30 and var(s["frame"]["variables"], "t")["value"] == "930"


def test_run_to_line_and_resume_to_end(py):
    project, m = py
    start_at(m, 25)
    r = m.ok("run_to_line", {"file_path": "app.py", "line": 30})
    assert r["state"] == "paused" and r["location"]["line"] == 30
    assert var(r["frame"]["variables"], "t")["value"] == "930"
    assert m.ok("get_source_context", {"context_lines": 0})["lines"] == [
        {"number": 30, "content": '    print(f"total={t} count={count}")', "is_current": True}]
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0
    assert "done 5000 12" in output_text(m, end["session_id"], expect="done 5000 12")


def test_pause_a_running_program_and_wait_timeout(py):
    project, m = py
    bp = m.ok("set_breakpoint", {"file_path": "spin.py", "line": 9})
    r = m.ok("start_debug_session", {"command": "python3 spin.py", "wait_for_pause": True, "timeout_ms": 55000})
    sid = r["session_id"]
    assert r["pause"]["location"]["line"] == 9
    m.ok("remove_breakpoint", {"breakpoint_id": bp["id"]})
    sent = m.ok("resume", {"wait": False})
    assert "wait_for_pause" in sent["message"]
    w = m.ok("wait_for_pause", {"timeout_ms": 1000})
    assert w["timed_out"] is True and w["state"] == "running" and "still running" in w["message"]
    st = m.ok("get_debug_session_status")
    assert st["state"] == "running"
    p = m.ok("pause")
    assert p["state"] == "paused" and p["reason"] == "pause"
    assert p["location"]["file"] == str(project / "spin.py") and p["location"]["method"] == "spin"
    assert p["location"]["line"] in (8, 9, 10)
    assert int(var(p["frame"]["variables"], "rounds")["value"]) > 0
    # set_variable changes what the program does: the loop ends and the program exits
    sv = m.ok("set_variable", {"path": "keep_going", "new_value": "False"})
    assert sv["variable"]["value"] == "False" and "keep_going is now False" in sv["message"]
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0
    assert "spun True" in output_text(m, sid, expect="spun True")


# --- variables, evaluation, watches, source ------------------------------------------------------

def test_expand_variable_paging_and_depth(py):
    _, m = py
    p = start_at(m, 28)["pause"]
    items = var(m.ok("get_variables")["variables"], "items")
    first = m.ok("expand_variable", {"variable_id": items["id"], "offset": 0, "limit": 5})
    assert [c["value"] for c in first["children"]] == [
        f"{{'name': 'item{i}', 'price': {i + 1}, 'qty': 2}}" for i in range(5)]
    assert first["truncated"] is True and first["next_offset"] == 5 and first["offset"] == 0
    tail = m.ok("expand_variable", {"path": "items", "offset": 25, "limit": 10})
    values = [c["value"] for c in tail["children"] if c["name"] != "len()"]
    assert values == [f"{{'name': 'item{i}', 'price': {i + 1}, 'qty': 2}}" for i in range(25, 30)]
    assert "truncated" not in tail  # default-false flags are omitted
    third = m.ok("expand_variable", {"path": "items[3]"})
    assert third["variable"]["path"] == "items[3]"
    assert {c["name"]: c["value"] for c in third["children"] if c["name"] != "len()"} == {
        "'name'": "'item3'", "'price'": "4", "'qty'": "2"}
    deep = m.ok("get_variables", {"scope": "local", "depth": 2, "max_children": 3})
    assert deep["truncated"] is True and deep["total"] == 4  # items, order, long_text, api_token
    its = var(deep["variables"], "items")
    assert [c["value"] for c in its["children"]][:3] == [
        f"{{'name': 'item{i}', 'price': {i + 1}, 'qty': 2}}" for i in range(3)]
    # a secret stays redacted wherever it appears
    assert m.ok("evaluate_expression", {"expression": "api_token"})["result"]["value"] == "<redacted:token>"


def test_big_values_read_with_their_real_size(py):
    _, m = py
    r = m.pause_at("big.py", 9, {"command": "python3 big.py"})
    assert r["state"] == "paused", r
    vs = m.ok("get_variables")["variables"]
    # No "Globals" or debugpy groups unless asked for.
    assert sorted(v["name"] for v in vs) == ["records", "small", "text", "total"], vs
    records = var(vs, "records")
    assert records["child_count"] == 5000, records  # not 102: debugpy lists 100 items
    text = var(vs, "text")
    assert text["value_length"] == 100_000 and text["truncated"] is True, {k: v for k, v in text.items() if k != "value"}
    page = m.ok("expand_variable", {"path": "records", "offset": 4998, "limit": 5})
    assert [c["value"] for c in page["children"]] == ["{'id': 4998}", "{'id': 4999}"], page
    everything = m.ok("get_variables", {"scope": "all"})["variables"]
    assert "Globals" in [v["name"] for v in everything]
    assert [v["name"] for v in m.ok("get_variables", {"scope": "globals"})["variables"]] == ["Globals"]


def test_set_variable_changes_program_output(py):
    _, m = py
    start_at(m, 29)
    count = var(m.ok("get_variables")["variables"], "count")
    r = m.ok("set_variable", {"variable_id": count["id"], "new_value": "42"})
    assert r["variable"]["value"] == "42" and r["message"] == "count is now 42"
    assert m.ok("evaluate_expression", {"expression": "count + 1"})["result"]["value"] == "43"
    m.ok("run_to_line", {"file_path": "app.py", "line": 35})
    r = m.ok("set_variable", {"path": "long_text", "new_value": "'short'"})
    assert r["variable"]["value"] == "'short'"
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped"
    text = output_text(m, end["session_id"], expect="done 5 12")
    assert "total=930 count=42" in text and "done 5 12" in text


def test_evaluate_expression_and_code_fragment(py):
    _, m = py
    start_at(m, 29)
    e = m.ok("evaluate_expression", {"expression": "order.meta['customer']['name']"})
    assert e["result"]["value"] == "'Ada'" and e["expression"] == "order.meta['customer']['name']"
    d = m.ok("evaluate_expression", {"expression": "order.meta"})
    kids = m.ok("expand_variable", {"variable_id": d["result"]["id"]})["children"]
    assert var(kids, "'tags'")["value"] == "['a', 'b']"
    # without allow_side_effects the core's expression guard refuses state changes before
    # debugpy sees them (debugpy itself would run `items.append(1)`)
    msg = m.err("evaluate_expression", {"expression": "count = 99"})
    assert "looks like it changes the program (assignment '=')" in msg and "allow_side_effects: true" in msg
    msg = m.err("evaluate_expression", {"expression": "items.append(1)"})
    assert "(call to mutating method 'append')" in msg and "allow_side_effects: true" in msg
    assert m.ok("evaluate_expression", {"expression": "len(items)"})["result"]["value"] == "30"
    m.ok("evaluate_expression", {"expression": "items.append(1)", "allow_side_effects": True})
    assert m.ok("evaluate_expression", {"expression": "len(items)"})["result"]["value"] == "31"
    m.ok("evaluate_expression", {"expression": "items.pop()", "allow_side_effects": True})  # total() needs dicts
    assert m.ok("evaluate_expression", {"expression": "len(items)"})["result"]["value"] == "30"
    assert m.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "3"
    m.ok("evaluate_expression", {"expression": "count = 99", "allow_side_effects": True})
    assert m.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "99"

    refused = m.err("evaluate_code_fragment", {"code": "count = 5"})
    assert "allow_side_effects: true" in refused
    assert m.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "99"
    m.ok("evaluate_code_fragment", {"code": "z = count * 2\ncount = z + 1", "allow_side_effects": True})
    assert m.ok("evaluate_expression", {"expression": "count"})["result"]["value"] == "199"
    end = m.ok("resume", {"timeout_ms": LONG})
    assert "total=930 count=199" in output_text(m, end["session_id"], expect="total=930 count=199")


def test_module_state_is_read_by_name_and_what_changes_the_program_is_refused(py):
    """Issue 26: `__import__("sys").modules["pkg.mod"].X` and the like reach a module's state
    from a frame that has no name for it; they are reads and pass the guard. A module not
    loaded yet is refused (importing it would run its code), as is whatever mutates; in a
    batch, a refused expression fails only its own row."""
    project, m = py
    line = 8  # modstate.py: return total
    r = m.ok("start_debug_session", {"command": "python3 modstate.py", "timeout_ms": LONG,
                                     "breakpoints": [{"file_path": "modstate.py", "line": line}],
                                     "evaluate": ['__import__("pkgstate").SETTINGS["mode"]', '__import__("loud_import").X']})
    p = r["pause"]
    assert p["location"]["line"] == line, r
    first = {v["name"]: v for v in p["values"]}
    assert first['__import__("pkgstate").SETTINGS["mode"]']["value"] == "'fast'", first
    assert "not loaded in the program yet" in first['__import__("loud_import").X']["error"], first
    reads = {
        '__import__("sys").modules["pkgstate"].SETTINGS["mode"]': "'fast'",
        "__import__('pkgstate').SETTINGS['retries']": "3",
        'importlib.import_module("pkgstate").CALLS': "['a', 'b']",
        'getattr(__import__("pkgstate"), "CALLS")': "['a', 'b']",
        'sorted(vars(__import__("pkgstate"))["SETTINGS"])': "['mode', 'retries']",
        '"pkgstate" in __import__("sys").modules': "True",
        "type(xs).__name__": "'list'",
        "len(xs)": "3",
        "repr(xs)": "'[3, 1, 2]'",
        "sorted(xs)": "[1, 2, 3]",
        "list(xs)": "[3, 1, 2]",
        "dict(n=len(xs))": "{'n': 3}",
    }
    refused = {
        '__import__("loud_import").X': "not loaded in the program yet",
        "__import__(total and 'pkgstate')": "call to '__import__' with other than one module name",
        "xs.append(4)": "mutating method 'append'",
        "__import__('pkgstate').CALLS.pop()": "mutating method 'pop'",
        "__import__('pkgstate').CALLS.clear()": "mutating method 'clear'",
        "setattr(__import__('pkgstate'), 'MODE', 1)": "call to 'setattr'",
        "xs = []": "assignment '='",
        "(y := 1)": "assignment expression ':='",
        "del xs[0]": "Python statement 'del'",
    }
    rows = m.ok("evaluate_expression", {"expressions": [*reads, *refused]})["results"]
    got = {row["name"]: row for row in rows}
    assert {k: got[k].get("value") for k in reads} == reads, rows
    for expr, why in refused.items():
        assert why in got[expr]["error"] and "allow_side_effects: true" in got[expr]["error"], (expr, got[expr])
    # Nothing changed: the module was not imported, nothing was mutated.
    assert not (project / "imported.txt").exists()
    after = m.ok("evaluate_expression", {"expressions": [
        "xs", "__import__('pkgstate').CALLS", '"loud_import" in __import__("sys").modules']})["results"]
    assert [v["value"] for v in after] == ["[3, 1, 2]", "['a', 'b']", "False"], after
    # Alone, the refusal names the way to read it and the way out.
    msg = m.err("evaluate_expression", {"expression": '__import__("loud_import").X'})
    assert "imports 'loud_import' not loaded" in msg and 'sys.modules.get("name")' in msg, msg
    assert not (project / "imported.txt").exists()
    # With allow_side_effects the import runs (brave mode: no confirmation).
    m.ok("evaluate_expression", {"expression": '__import__("loud_import")', "allow_side_effects": True})
    assert (project / "imported.txt").read_text() == "imported"


def test_the_launch_bootstrap_is_invisible_to_the_program(py):
    """A debugged launch starts through a bootstrap that skips debugpy's log-only description
    of the environment (issue 29, BENCHMARKS.md "First stop of a Python program"): the program
    still sees the argv, sys.path and __main__ of `python3 modstate.py a b`, and its stack
    holds only its own frames (not the bootstrap's)."""
    project, m = py
    r = m.ok("start_debug_session", {"command": "python3 modstate.py a b", "timeout_ms": LONG,
                                     "breakpoints": [{"file_path": "modstate.py", "line": 8}],
                                     "evaluate": ["__import__('sys').argv", "__import__('sys').path[0]",
                                                  "__import__('sys').modules['__main__'].__file__",
                                                  "'debugpy' in __import__('sys').path[1]"]})
    values = [v["value"] for v in r["pause"]["values"]]
    script = str(project / "modstate.py")
    assert values == [repr([script, "a", "b"]), repr(str(project)), repr(script), "False"], values
    st = m.ok("get_stack_trace")
    assert [(f["method"], f["file"]) for f in st["frames"]] == [
        ("work", script), ("main", script), ("<module>", script)], st


def test_watches_update_at_each_pause(py):
    _, m = py
    empty = m.ok("watches", {"add": "acc * 10"})  # no session: evaluated at the next pause
    assert [(w["expression"], w.get("value")) for w in empty["watches"]] == [("acc * 10", None)]
    assert "next pause" in empty["message"]
    w2 = m.ok("watches", {"add": "item['name']"})["watches"][1]
    p = m.pause_at("app.py", 19, {"run_configuration": "Run app"})["pause"]
    watches = {w["expression"]: w["value"] for w in p["watches"]}
    assert watches == {"acc * 10": "0", "item['name']": "'item0'"}
    r = m.ok("resume", {"timeout_ms": LONG})
    assert {w["expression"]: w["value"] for w in r["watches"]} == {"acc * 10": "20", "item['name']": "'item1'"}
    r = m.ok("resume", {"timeout_ms": LONG})
    listed = m.ok("watches")["watches"]
    assert {w["expression"]: w["value"] for w in listed} == {"acc * 10": "60", "item['name']": "'item2'"}
    assert all(w["evaluated_at"]["line"] == 19 and w["evaluated_at"]["step"] == r["step"] for w in listed)
    out = m.ok("watches", {"remove": w2["id"]})
    assert out["message"] == f"watch {w2['id']} removed"
    assert [w["expression"] for w in out["watches"]] == ["acc * 10"]
    # a watch that cannot be evaluated here says why instead of failing the stop
    m.ok("watches", {"add": "no_such_name"})
    r = m.ok("resume", {"timeout_ms": LONG})
    bad = [w for w in r["watches"] if w["expression"] == "no_such_name"][0]
    assert bad.get("value") is None and "NameError" in bad["error"]


def test_get_source_context_and_status(py):
    project, m = py
    bp = start_at(m, 28)["bp"]
    src = m.ok("get_source_context")
    assert src["file"] == app(project) and src["current_line"] == 28
    assert (src["start_line"], src["end_line"]) == (23, 33)
    current = [l for l in src["lines"] if l.get("is_current")]
    assert current == [{"number": 28, "content": "    count = 3", "is_current": True}]
    assert src["breakpoints"] == [28]
    other = m.ok("get_source_context", {"file_path": "app.py", "line": 12, "context_lines": 1})
    assert [(l["number"], l["content"]) for l in other["lines"]] == [
        (11, "def price(item):"), (12, '    base = item["price"] * item["qty"]'), (13, "    return base")]
    refused = m.err("get_source_context", {"file_path": "/etc/passwd"})
    assert "outside the project" in refused
    refused = m.err("get_source_context", {"file_path": "../../../../etc/hostname"})
    assert "outside the project" in refused or "not found" in refused

    st = m.ok("get_debug_session_status")
    assert st["state"] == "paused" and st["paused_reason"] == "breakpoint"
    assert st["location"]["line"] == 28 and st["name"] == "Run app"
    assert st["breakpoint_hit"][0]["id"] == bp["id"] and st["breakpoint_hit"][0]["line"] == 28
    assert [(f["method"], f["line"]) for f in st["stack_summary"]] == [("main", 28), ("<module>", 39)]
    assert var(st["variables"], "api_token")["value"] == "<redacted:token>"
    assert st["source_context"]["current_line"] == 28
    assert st["thread_count"] == 1 and st["current_thread"]["name"] == "MainThread"
