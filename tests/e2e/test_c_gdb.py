"""The tools end to end against real gdb (>= 14, its DAP interpreter) on a C program the fixture
compiles with `gcc -g -O0`, through the Python MCP SDK over Streamable HTTP against
`debugger-mcp serve` on a copy of tests/e2e/projects/c (brave mode on).

Line numbers are those of projects/c/prog.c and spin.c. gdb has no exception breakpoints for C
(only Ada/C++ filters): the test asserts the clear refusal naming what gdb offers.
"""

from __future__ import annotations

from conftest import LONG, output_text, var



def loc(project, line, method):
    return {"file": str(project / "prog.c"), "line": line, "method": method}


def start(m, **extra):
    r = m.ok("start_debug_session", {"run_configuration": "prog (gdb)", "wait_for_pause": True, "timeout_ms": LONG, **extra})
    return r


def test_list_run_configurations_reads_toml_launch(c):
    _, m = c
    cfgs = m.ok("list_run_configurations")["configurations"]
    assert [(x["name"], x["type"], x["source"]) for x in cfgs] == [("prog (gdb)", "gdb", "debugger-mcp.toml")]


def test_breakpoint_variables_struct_array_and_paging(c):
    project, m = c
    bp = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    assert bp["source_line"] == "    int result = sum_squares(4);" and bp["verified"] is False
    r = start(m)
    p = r["pause"]
    assert r["state"] == "paused" and p["reason"] == "breakpoint" and p["breakpoint_ids"] == [bp["id"]]
    assert p["location"] == loc(project, 34, "main")
    listed = m.ok("list_breakpoints")["breakpoints"]
    assert [(b["line"], b["verified"], b["hit_count"]) for b in listed] == [(34, True, 1)]

    vs = m.ok("get_variables")["variables"]
    assert var(vs, "counter") == {**var(vs, "counter"), "value": "7", "type": "int"}
    assert var(vs, "greeting")["value"] == '"hello"' and var(vs, "greeting")["type"] == "const char *"
    assert var(vs, "result")["value"] == "0"
    numbers = var(vs, "numbers")
    assert numbers["type"] == "int [5]" and numbers["child_count"] == 5 and numbers["has_children"] is True
    tri = var(vs, "tri")
    assert tri["type"] == "struct shape" and tri["has_children"] is True

    arr = m.ok("expand_variable", {"variable_id": numbers["id"]})
    assert [x["value"] for x in arr["children"]] == ["10", "20", "30", "40", "50"] and arr["total"] == 5
    page = m.ok("expand_variable", {"path": "numbers", "offset": 2, "limit": 2})
    assert [(x["name"], x["value"]) for x in page["children"]] == [("2", "30"), ("3", "40")]
    assert page["truncated"] is True and page["next_offset"] == 4

    fields = m.ok("expand_variable", {"variable_id": tri["id"]})["children"]
    assert var(fields, "name")["value"] == '"triangle"' and var(fields, "sides")["value"] == "3"
    assert var(fields, "corners")["type"] == "struct point [3]"
    corner = m.ok("expand_variable", {"path": "tri.corners[2]"})
    assert corner["variable"]["path"] == "tri.corners[2]"
    assert {x["name"]: x["value"] for x in corner["children"]} == {"x": "0", "y": "3"}
    deep = m.ok("get_variables", {"depth": 3, "scope": "local"})
    tri_deep = var(deep["variables"], "tri")
    corners = var(tri_deep["children"], "corners")  # depth 3: tri > corners > each point
    assert [(pt["name"], pt["type"], pt["has_children"]) for pt in corners["children"]] == [
        ("0", "struct point", True), ("1", "struct point", True), ("2", "struct point", True)]

    e = m.ok("evaluate_expression", {"expression": "numbers[1] + counter"})
    assert e["result"]["value"] == "27" and e["result"]["type"] == "int"
    assert m.ok("evaluate_expression", {"expression": "tri.corners[1].x * tri.sides"})["result"]["value"] == "12"
    # gdb would assign in the watch context; the core's expression guard refuses first
    msg = m.err("evaluate_expression", {"expression": "counter = 9"})
    assert "looks like it changes the program (assignment '=')" in msg and "allow_side_effects: true" in msg
    assert m.err("evaluate_expression", {"expression": "counter++"})
    assert m.ok("evaluate_expression", {"expression": "counter"})["result"]["value"] == "7"
    # allowed, gdb evaluates in its CLI (DAP `repl` context), hence `set var`
    m.ok("evaluate_expression", {"expression": "set var counter = 9", "allow_side_effects": True})
    assert m.ok("evaluate_expression", {"expression": "counter"})["result"]["value"] == "9"
    m.ok("evaluate_expression", {"expression": "set var counter = 7", "allow_side_effects": True})


def test_step_into_square_out_and_frames(c):
    project, m = c
    m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    start(m)
    [w] = m.ok("watches", {"add": "counter * 2"})["watches"]
    assert w["value"] == "14"
    s = m.ok("step_into")
    assert s["location"] == loc(project, 22, "sum_squares") and s["reason"] == "step"
    assert var(s["frame"]["variables"], "n")["value"] == "4"
    # the watch names a variable of main: out of scope here, with the debugger's reason
    assert "counter" in s["watches"][0]["error"] and s["watches"][0].get("value") is None
    assert m.ok("step_over")["location"]["line"] == 23
    s = m.ok("step_over")
    assert s["location"]["line"] == 24 and var(s["frame"]["variables"], "i")["value"] == "1"
    s = m.ok("step_into")
    assert s["location"] == loc(project, 17, "square")
    assert var(s["frame"]["variables"], "v")["value"] == "1"

    st = m.ok("get_stack_trace")
    assert [(f["method"], f["line"]) for f in st["frames"]] == [("square", 17), ("sum_squares", 24), ("main", 34)]
    threads = m.ok("list_threads")["threads"]
    assert len(threads) == 1 and threads[0]["state"] == "paused" and threads[0]["is_current"] is True

    sel = m.ok("select_stack_frame", {"frame_index": 2})
    assert sel["location"]["method"] == "main" and sel["location"]["line"] == 34
    caller = m.ok("get_variables")["variables"]
    assert var(caller, "counter")["value"] == "7" and "v" not in [x["name"] for x in caller]
    assert m.ok("evaluate_expression", {"expression": "counter + 1"})["result"]["value"] == "8"
    m.ok("select_stack_frame", {"frame_index": 0})

    s = m.ok("step_out")
    assert s["location"]["method"] == "sum_squares" and s["location"]["line"] == 24
    s = m.ok("step_out")
    assert s["location"] == loc(project, 34, "main")
    assert s["watches"][0]["value"] == "14" and s["watches"][0].get("error") is None
    s = m.ok("step_over")
    assert s["location"]["line"] == 35 and var(s["frame"]["variables"], "result")["value"] == "30"  # 1+4+9+16
    assert m.ok("watches")["watches"][0]["value"] == "14"
    gone = m.ok("watches", {"remove": w["id"]})
    assert gone["message"] == f"watch {w['id']} removed" and gone["watches"] == []


def test_set_variable_run_to_line_and_output(c):
    project, m = c
    m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    r = start(m)
    sid = r["session_id"]
    sv = m.ok("set_variable", {"path": "counter", "new_value": "11"})
    assert sv["variable"]["value"] == "11" and sv["message"] == "counter is now 11"
    tri = var(m.ok("get_variables")["variables"], "tri")
    sides = var(m.ok("expand_variable", {"variable_id": tri["id"]})["children"], "sides")
    sv = m.ok("set_variable", {"variable_id": sides["id"], "new_value": "4"})
    assert sv["variable"]["value"] == "4"
    assert m.ok("evaluate_expression", {"expression": "tri.sides"})["result"]["value"] == "4"
    t = m.ok("run_to_line", {"file_path": "prog.c", "line": 36})
    assert t["location"] == loc(project, 36, "main") and var(t["frame"]["variables"], "result")["value"] == "30"
    src = m.ok("get_source_context", {"context_lines": 1})
    assert [(x["number"], x["content"], x.get("is_current", False)) for x in src["lines"]] == [
        (35, '    printf("result=%d counter=%d\\n", result, counter);', False),
        (36, '    printf("%s %s %d %d\\n", greeting, tri.name, tri.sides, numbers[2]);', True),
        (37, "    return 0;", False)]
    assert src["breakpoints"] == []  # only breakpoint lines in view
    assert m.ok("get_source_context", {"context_lines": 2})["breakpoints"] == [34]
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0
    text = output_text(m, sid, expect="hello triangle 4 30\n")
    assert "result=30 counter=11\n" in text and "hello triangle 4 30\n" in text
    assert " at 0x" not in text  # gdb's CLI echo of the run-to breakpoint is not program output


def test_condition_hit_condition_log_message_temporary(c):
    project, m = c
    cond = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 24, "condition": "i == 3"})
    log = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 18, "log_message": "square {v} is {r}"})
    hit = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 17, "hit_condition": "2"})
    tmp = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 35, "temporary": True})
    r = start(m)
    sid = r["session_id"]
    p = r["pause"]
    assert p["location"] == loc(project, 17, "square") and p["breakpoint_ids"] == [hit["id"]]
    assert var(p["frame"]["variables"], "v")["value"] == "2"  # the 2nd call
    p = m.ok("resume", {"timeout_ms": LONG})
    assert p["location"]["line"] == 24 and p["breakpoint_ids"] == [cond["id"]]
    assert var(p["frame"]["variables"], "i")["value"] == "3" and var(p["frame"]["variables"], "acc")["value"] == "5"
    m.ok("set_breakpoint", {"breakpoint_id": hit["id"], "enabled": False})
    p = m.ok("resume", {"timeout_ms": LONG})
    assert p["location"] == loc(project, 35, "main") and p["breakpoint_ids"] == [tmp["id"]]
    remaining = {b["id"] for b in m.ok("list_breakpoints")["breakpoints"]}
    assert remaining == {cond["id"], log["id"], hit["id"]}  # the temporary one is gone
    text = output_text(m, sid, "tracepoint", expect="square 4 is 16")
    assert all(f"square {v} is {v * v}" in text for v in (1, 2, 3, 4)), text
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0
    removed = m.ok("remove_breakpoint", {"file_path": "prog.c"})
    assert sorted(removed["ids"]) == sorted([cond["id"], log["id"], hit["id"]])


def test_stop_on_entry_by_command_and_code_fragment(c):
    project, m = c
    r = m.ok("start_debug_session", {"command": "./prog", "stop_on_entry": True, "wait_for_pause": True, "timeout_ms": LONG})
    p = r["pause"]
    assert p["reason"] == "entry" and p["location"] == loc(project, 30, "main")
    assert "allow_side_effects: true" in m.err("evaluate_code_fragment", {"code": "print 6 * 7"})
    out = m.ok("evaluate_code_fragment", {"code": "print 6 * 7", "allow_side_effects": True})
    assert "= 42" in out["result"]["value"]
    s = m.ok("step_over")
    assert s["location"]["line"] == 31
    assert m.ok("evaluate_expression", {"expression": "numbers[4]"})["result"]["value"] == "50"
    st = m.ok("stop_debug_session")
    assert st["state"] == "stopped" and st["session_id"] == r["session_id"]


def test_pause_running_c_program_and_wait_timeout(c):
    project, m = c
    r = m.ok("start_debug_session", {"command": "./spin"})
    sid = r["session_id"]
    w = m.ok("wait_for_pause", {"timeout_ms": 1500})
    assert w["timed_out"] is True and w["state"] in ("running", "starting")
    p = m.ok("pause")
    assert p["state"] == "paused" and p["reason"] == "pause"
    # gdb stops inside usleep (libc); main's frame is on the stack
    frames = m.ok("get_stack_trace", {"max_frames": 50})["frames"]
    main = [f for f in frames if f["method"] == "main"]
    assert main and main[0]["file"] == str(project / "spin.c") and main[0]["line"] in (8, 9, 10)
    m.ok("select_stack_frame", {"frame_index": main[0]["index"]})
    assert int(var(m.ok("get_variables")["variables"], "rounds")["value"]) > 0
    m.ok("set_variable", {"path": "keep_going", "new_value": "0"})
    end = m.ok("resume", {"timeout_ms": LONG})
    assert end["state"] == "stopped" and end["exit_code"] == 0
    assert "spun 1" in output_text(m, sid, expect="spun 1")


def test_exception_breakpoints_unsupported_for_c_with_clear_message(c):
    _, m = c
    m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    start(m)
    msg = m.err("set_breakpoint", {"exception_class": "raised"})
    assert "'raised' is not offered" in msg and "throw (C++ exceptions" in msg
    # A class name, as the description offers for debugpy and the IDE: gdb takes none, and says so.
    msg = m.err("set_breakpoint", {"exception_class": "std::out_of_range"})
    assert "takes no class names" in msg and "throw (C++ exceptions" in msg, msg
    assert msg.count("catch (C++ exceptions") == 1, msg  # the filters listed once
    assert m.ok("list_breakpoints")["total"] == 1  # nothing was added


def test_set_array_element_member_and_element_by_id(c):
    """gdb's DAP setVariable refuses every array element ("no variable named '2'": it keys them
    by int, the request names them by string) and sends no evaluateName; the backend sets them
    with setExpression on the element's expression (numbers[2]), which the program then prints.
    gdb keeps the children it already sent until the program moves, so values are checked by
    evaluating them (a fresh read), not by expanding `numbers` again."""
    _, m = c
    m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    sid = start(m)["session_id"]
    kids = m.ok("expand_variable", {"path": "numbers"})["children"]
    assert [k["value"] for k in kids] == ["10", "20", "30", "40", "50"]
    r = m.ok("set_variable", {"path": "numbers[2]", "new_value": "33"})
    assert r["variable"]["value"] == "33" and r["message"] == "numbers[2] is now 33"
    assert m.ok("evaluate_expression", {"expression": "numbers[2]"})["result"]["value"] == "33"
    # a member of an element of a member, and an element picked by its variable id
    m.ok("set_variable", {"path": "tri.corners[2].y", "new_value": "9"})
    assert m.ok("evaluate_expression", {"expression": "tri.corners[2].y"})["result"]["value"] == "9"
    m.ok("set_variable", {"variable_id": kids[4]["id"], "new_value": "55"})
    assert m.ok("evaluate_expression", {"expression": "numbers[4]"})["result"]["value"] == "55"
    m.ok("resume", {"timeout_ms": LONG})
    assert "hello triangle 3 33" in output_text(m, sid, expect="hello triangle 3 33")


def test_run_configuration_sessions_status_and_wait_filter(c):
    project, m = c
    b24 = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 24})
    b35 = m.ok("set_breakpoint", {"file_path": "prog.c", "line": 35})
    r = m.ok("run_configuration", {"name": "prog (gdb)", "mode": "debug"})
    sid = r["session_id"]
    assert r["mode"] == "debug"
    w = m.ok("wait_for_pause", {"breakpoint_ids": [b35["id"]], "timeout_ms": LONG})
    assert w["matched"] is False and w["location"]["line"] == 24 and w["breakpoint_ids"] == [b24["id"]]
    sessions = m.ok("list_debug_sessions")["sessions"]
    assert [(s["id"], s["state"], s["is_current"], s["run_configuration"]) for s in sessions if s["id"] == sid] == [
        (sid, "paused", True, "prog (gdb)")]
    st = m.ok("get_debug_session_status", {"source_context_lines": 0, "max_stack_frames": 1})
    assert st["state"] == "paused" and st["paused_reason"] == "breakpoint"
    assert st["location"] == loc(project, 24, "sum_squares")
    assert st["breakpoint_hit"][0]["id"] == b24["id"]
    assert [(f["method"], f["line"]) for f in st["stack_summary"]] == [("sum_squares", 24)]
    assert var(st["variables"], "i")["value"] == "1"
    assert [l["number"] for l in st["source_context"]["lines"]] == [24]
    assert m.ok("remove_breakpoint", {"breakpoint_id": b24["id"]})["ids"] == [b24["id"]]
    m.ok("resume", {"wait": False})
    w = m.ok("wait_for_pause", {"breakpoint_ids": [b35["id"]], "timeout_ms": LONG})
    assert w["matched"] is True and w["location"] == loc(project, 35, "main")
    assert var(w["frame"]["variables"], "result")["value"] == "30"
    stop = m.ok("stop_debug_session", {"session_id": sid})
    assert stop["state"] == "stopped"
    assert m.ok("get_debug_session_status", {"session_id": sid})["state"] == "stopped"

    run = m.ok("run_configuration", {"name": "prog (gdb)", "mode": "run"})
    done = m.ok("wait_for_pause", {"session_id": run["session_id"], "timeout_ms": LONG})
    assert done["state"] == "stopped"  # no debugger: breakpoints do not stop it
    assert "result=30 counter=7" in output_text(m, run["session_id"], expect="result=30 counter=7")


def test_crash_stop_names_the_signal_and_the_faulting_line(c):
    _, m = c
    r = m.ok("start_debug_session", {"command": "./crash", "wait_for_pause": True, "timeout_ms": 55000})
    p = r["pause"]
    assert (p["reason"], p["description"]) == ("signal", "signal SIGSEGV (Segmentation fault)"), p
    assert p["location"]["line"] == 8 and p["location"]["file"].endswith("crash.c"), p
