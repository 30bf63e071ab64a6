"""Object-like C macros in expressions (issue 26): at a stop in json-c's json_tokener.c an agent
wrote `state`, there `#define state tok->stack[tok->depth].state`, and gdb said `No symbol
"state" in current context` (built -g, no macro information). The server reads the macro from
the frame's source (or a header it includes with quotes) and evaluates its expansion, naming
it; a function-like macro is named with its definition. projects/c/macros.c and tok.h (the
fixture's macro is `level_state`: here glibc's debug information has a global `state`).
"""

from __future__ import annotations

import pytest
from conftest import LONG, line_of


def rows(r: dict) -> dict:
    return {x["name"]: x for x in r["results"]}


def test_gdb_expands_object_like_macros_and_names_function_like_ones(c):
    project, m = c
    at = line_of(project, "macros.c", "stop here")
    m.pause_at("macros.c", at, {"command": "./macros", "adapter": "gdb"})
    one = m.ok("evaluate_expression", {"expression": "level_state"})
    assert one["result"]["value"] == "5", one
    assert "level_state → tok->stack[tok->depth].state (macro, macros.c:12)" in one["result"]["type"], one
    got = rows(m.ok("evaluate_expression", {"expressions": [
        "top_level.state + total", "LEVEL_AT(0).seen", "level_state.seen", "/x level_state", "nothing_here",
    ]}))
    # Nested: `top_level` names TOP_DEPTH, defined over two lines in the header tok.h.
    assert got["top_level.state + total"]["value"] == "12", got
    assert "TOP_DEPTH → tok->depth (macro, tok.h:15)" in got["top_level.state + total"]["type"], got
    fl = got["LEVEL_AT(0).seen"]["error"]
    assert "`LEVEL_AT` is a function-like macro at macros.c:14" in fl and "#define LEVEL_AT(i) (tok->stack[(i)])" in fl, got
    failed = got["level_state.seen"]["error"]
    assert "level_state → tok->stack[tok->depth].state" in failed and "`(tok->stack[tok->depth].state).seen` failed too" in failed, got
    assert got["/x level_state"]["value"] == "0x5", got
    assert got["nothing_here"]["error"].endswith('No symbol "nothing_here" in current context.'), got
    # The expressions of a step answer macros too.
    s = m.ok("step_over", {"evaluate": ["level_state"], "timeout_ms": LONG})
    assert s["values"][0]["value"] == "5", s


def test_gdb_takes_the_definition_of_the_compiled_branch_and_says_when_it_cannot_tell(c):
    """`level_seen` has an `#ifdef FLAT_TOKENER` alternative first (FLAT_TOKENER #undef-ed just
    above), which used to win: 1 instead of 2. `level_mark` and `level_trace` depend on
    TRACE_TOKENER, which no file decides."""
    project, m = c
    at = line_of(project, "macros.c", "stop here")
    m.pause_at("macros.c", at, {"command": "./macros", "adapter": "gdb"})
    seen = line_of(project, "macros.c", "#define level_seen tok->stack[0].seen")
    got = rows(m.ok("evaluate_expression", {"expressions": ["level_seen", "level_mark", "level_trace"]}))
    assert got["level_seen"]["value"] == "2", got
    assert f"level_seen → tok->stack[0].seen (macro, macros.c:{seen})" in got["level_seen"]["type"], got
    ifdef = line_of(project, "macros.c", "#ifdef TRACE_TOKENER")
    # Two definitions with different values: neither is picked, both are told.
    mark = got["level_mark"]["error"]
    assert f"`level_mark` is uncertain: #ifdef TRACE_TOKENER (macros.c:{ifdef})" in mark, got
    assert f"macros.c:{ifdef + 1} `(tok->depth + 100)` = 101; macros.c:{ifdef + 4} `tok->depth` = 1" in mark, got
    # One of them evaluates here: that value, said to be uncertain.
    trace = got["level_trace"]
    assert trace["value"] == "1", got
    assert f"level_trace → tok->depth (macro, macros.c:{ifdef + 5}; uncertain: #ifdef TRACE_TOKENER (macros.c:{ifdef}); macros.c:{ifdef + 2} `tok->trace` fails here)" in trace["type"], got


def test_gdb_an_undecided_macro_beside_another_macro_expands_both(c):
    """`level_trace + LEVEL_ON`: each candidate of `level_trace` ran with only itself written
    out, so `LEVEL_ON` failed in every one and the whole expression failed."""
    project, m = c
    m.pause_at("macros.c", line_of(project, "macros.c", "stop here"), {"command": "./macros", "adapter": "gdb"})
    r = m.ok("evaluate_expression", {"expression": "level_trace + LEVEL_ON"})["result"]
    assert r["value"] == "4", r
    on = line_of(project, "macros.c", "#define LEVEL_ON 3")
    assert "uncertain: #ifdef TRACE_TOKENER" in r["type"] and f"LEVEL_ON → 3 (macro, macros.c:{on})" in r["type"], r


def test_gdb_a_macro_that_changes_the_program_needs_allow_side_effects(c):
    """`#define BUMP (macro_bumps += 1)`: evaluating `BUMP` read-only ran the increment (0 → 1),
    and an undecided `BUMP_MANY` ran each of its candidates; a search's condition too."""
    project, m = c
    m.pause_at("macros.c", line_of(project, "macros.c", "stop here"), {"command": "./macros", "adapter": "gdb"})
    bump = line_of(project, "macros.c", "#define BUMP (macro_bumps += 1)")
    msg = m.err("evaluate_expression", {"expression": "BUMP"})
    assert f"`BUMP` expands to (macro_bumps += 1) (macro, macros.c:{bump}), which changes the program" in msg, msg
    assert "allow_side_effects" in msg, msg
    got = rows(m.ok("evaluate_expression", {"expressions": ["BUMP_MANY", "level_seen for i in 0..3 if BUMP", "macro_bumps"]}))
    assert "`BUMP_MANY` expands to (macro_bumps += " in got["BUMP_MANY"]["error"], got
    assert "`BUMP` expands to" in m.last_text, m.last_text
    assert got["macro_bumps"]["value"] == "0", got
    done = m.ok("evaluate_expression", {"expression": "BUMP", "allow_side_effects": True})["result"]
    assert done["value"] == "1", done
    assert m.ok("evaluate_expression", {"expression": "macro_bumps"})["result"]["value"] == "1"


def test_gdb_a_breakpoint_condition_does_not_write_out_a_macro_that_changes_the_program(c):
    """The condition `BUMP > 5` was sent as `(macro_bumps += 1) > 5`: every hit incremented."""
    project, m = c
    before, at = line_of(project, "macros.c", "level_state = 5;"), line_of(project, "macros.c", "stop here")
    m.ok("set_breakpoint", {"file_path": "macros.c", "line": before, "condition": "BUMP > 5"})
    m.ok("set_breakpoint", {"file_path": "macros.c", "line": at})
    r = m.ok("start_debug_session", {"command": "./macros", "adapter": "gdb", "wait_for_pause": True, "timeout_ms": LONG})
    while r.get("state") == "paused" and r["pause"]["location"]["line"] != at:
        r = m.ok("continue_execution", {"wait_for_pause": True, "timeout_ms": LONG})
    assert m.ok("evaluate_expression", {"expression": "macro_bumps"})["result"]["value"] == "0"


def test_lldb_expands_object_like_macros(c):
    project, m = c
    at = line_of(project, "macros.c", "stop here")
    m.pause_at("macros.c", at, {"command": "./macros", "adapter": "lldb"})
    got = rows(m.ok("evaluate_expression", {"expressions": ["level_state", "top_level.state", "LEVEL_AT(0)"]}))
    assert got["level_state"]["value"] == "5" and "(macro, macros.c:12)" in got["level_state"]["type"], got
    assert got["top_level.state"]["value"] == "5", got
    assert "`LEVEL_AT` is a function-like macro at macros.c:14" in got["LEVEL_AT(0)"]["error"], got


@pytest.mark.parametrize("adapter", ["gdb", "lldb"])
def test_a_breakpoint_condition_reads_macros_as_the_code_does(c, adapter):
    """gdb took a condition it cannot evaluate as false (and the run ended), lldb as a stop."""
    project, m = c
    before, at = line_of(project, "macros.c", "level_state = 5;"), line_of(project, "macros.c", "stop here")
    m.ok("set_breakpoint", {"file_path": "macros.c", "line": before, "condition": "level_state == 5"})
    m.ok("set_breakpoint", {"file_path": "macros.c", "line": at, "condition": "level_state == 5 && top_level.state == 5"})
    r = m.ok("start_debug_session", {"command": "./macros", "adapter": adapter, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused" and r["pause"]["location"]["line"] == at, r
