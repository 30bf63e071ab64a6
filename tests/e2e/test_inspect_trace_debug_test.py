"""expand_variable's JSONPath filter, trace_function (server-side stepping) and debug_test (a test by
id, no run configuration) end to end: the real `debugger-mcp serve`, the Python MCP SDK, real
debugpy and real gdb. Line numbers are those of projects/pyinspect/*.py, projects/c/prog.c and
projects/cinspect/gtest_like.c.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import cleaned, cleanup, gdb_env_check, served


@pytest.fixture
def py(pyinspect_mod):
    """This module's Python project is projects/pyinspect (conftest's `py` is projects/py)."""
    yield from cleaned(pyinspect_mod)


def compile_gtest_like(project):
    subprocess.run([shutil.which("gcc") or "gcc", "-g", "-O0", "-o", str(project / "gtest_like"), str(project / "gtest_like.c")], check=True)


@pytest.fixture(scope="module")
def gt_mod():
    gdb_env_check()
    yield from served("cinspect", prepare=compile_gtest_like)


def values(r):
    return [x["value"] for x in r["matches"]]


def paused_py(m, line):
    return m.pause_at("orders.py", line, {"command": "python3 orders.py"})


# ---- expand_variable {filter} ------------------------------------------------------------------


def test_inspect_filters_a_list_of_objects_on_debugpy(py):
    _, m = py
    paused_py(m, 21)
    r = m.ok("expand_variable", {"path": "order", "filter": "$.items[?@.qty > 1].name"})
    assert values(r) == ["pear", "fig"], r
    assert r["total"] == 2 and "truncated" not in r
    assert r["matches"][0]["path"].endswith("[1].name"), r
    r = m.ok("expand_variable", {"path": "items", "filter": "$..price"})
    assert values(r) == [0.5, 0.25, 1.0], r
    # Scalars are JSON: a bool, null and an int, comparable in filters.
    r = m.ok("expand_variable", {"path": "order", "filter": "$['paid','note','id']"})
    assert values(r) == [False, None, 7], r
    # Paging over matches.
    r = m.ok("expand_variable", {"path": "items", "filter": "$[*].qty", "limit": 2})
    assert values(r) == [1, 3] and r["truncated"] is True and r["next_offset"] == 2, r
    r = m.ok("expand_variable", {"path": "items", "filter": "$[*].qty", "offset": 2})
    assert values(r) == [2] and "truncated" not in r, r


def test_inspect_rejects_an_invalid_jsonpath_with_its_position(py):
    _, m = py
    paused_py(m, 21)
    e = m.err("expand_variable", {"path": "order", "filter": "$.items[?@.qty >]"})
    assert e.startswith("invalid JSONPath filter at position"), e
    assert "$.items[?@.qty >]" in e and "^" in e, e


def test_inspect_filters_structs_and_arrays_on_gdb(c):
    _, m = c
    r = m.pause_at("prog.c", 34, {"run_configuration": "prog (gdb)"})
    assert r["pause"]["state"] == "paused", r
    assert values(m.ok("expand_variable", {"path": "numbers", "filter": "$[?@ > 25]"})) == [30, 40, 50]
    assert values(m.ok("expand_variable", {"path": "tri", "filter": "$.corners[?@.x > 0].x"})) == [4]
    assert values(m.ok("expand_variable", {"path": "tri", "filter": "$.name"})) == ["triangle"]


# ---- trace_function ----------------------------------------------------------------------------


def test_trace_function_rows_for_a_loop_on_debugpy(py):
    _, m = py
    paused_py(m, 12)
    r = m.ok("trace_function", {})
    assert r["function"] == "total" and r["returned"] is True, r
    lines = [row["line"] for row in r["rows"]]
    assert lines == [12, 13, 14, 13, 14, 13, 14, 13, 15], r
    acc = [row["changed"]["acc"] for row in r["rows"] if "acc" in row.get("changed", {})]
    assert acc == ["0", "0.5", "1.25", "3.25"], r
    assert r["rows"][-1].get("returned") is True
    # Back in the caller (debugpy finishes the calling line: 22).
    assert r["now"]["location"]["method"] == "main" and r["now"]["location"]["line"] in (21, 22), r


def test_trace_function_enters_the_call_on_the_line_on_debugpy(py):
    _, m = py
    paused_py(m, 21)
    r = m.ok("trace_function", {"enter": True, "max_lines": 3})
    assert r["function"] == "total" and r["start_locals"]["items"].startswith("[<"), r
    assert len(r["rows"]) == 3 and r["returned"] is False and "max_lines (3)" in r["message"], r


def line_in(project, name, text):
    return next(i for i, l in enumerate((project / name).read_text().splitlines(), 1) if text in l)


def test_trace_function_goes_past_a_callees_caught_exception_on_debugpy(py):
    """Issue 26: a callee that raises and catches its own exception (int('x') in parse_or_zero)
    stopped the trace inside the callee, with returned: false."""
    project, m = py
    start = line_in(project, "raising.py", "acc = 0")
    m.pause_at("raising.py", start, {"command": "python3 raising.py"})
    r = m.ok("trace_function", {})
    assert r["function"] == "total" and r["returned"] is True and "raised" not in r, r
    acc = [row["changed"]["acc"] for row in r["rows"] if "acc" in row.get("changed", {})]
    assert acc == ["0", "1", "3"], r
    assert not any(row.get("exception") for row in r["rows"]), r
    assert r["now"]["location"]["method"] == "main", r


def test_trace_function_reports_the_traced_functions_own_raise_on_debugpy(py):
    project, m = py
    start = line_in(project, "raising.py", "acc = total(items)")
    m.pause_at("raising.py", start, {"command": "python3 raising.py"})
    r = m.ok("trace_function", {})
    assert r["function"] == "checked" and r["returned"] is False, r
    assert r["raised"].startswith("RuntimeError: total too big: 3"), r
    raise_line = line_in(project, "raising.py", "raise RuntimeError")
    assert [row["line"] for row in r["rows"]][-1] == raise_line and r["rows"][-1]["exception"] is True, r


def test_trace_function_on_gdb(c):
    _, m = c
    r = m.pause_at("prog.c", 22, {"run_configuration": "prog (gdb)"})
    assert r["pause"]["location"]["line"] == 22, r
    r = m.ok("trace_function", {})
    assert r["function"] == "sum_squares" and r["returned"] is True, r
    acc = [row["changed"]["acc"] for row in r["rows"] if "acc" in row.get("changed", {})]
    assert acc[-4:] == ["1", "5", "14", "30"], r
    assert r["now"]["location"]["method"] == "main", r


# ---- debug_test --------------------------------------------------------------------------------


def test_debug_test_pytest_node_id_stops_in_the_test(py):
    project, m = py
    m.ok("set_breakpoint", {"file_path": "test_orders.py", "line": 6})
    r = m.ok("debug_test", {"test_id": "test_orders.py::test_total"})
    assert r["framework"] == "pytest" and r["state"] == "paused", r
    assert r["pause"]["location"]["file"] == str(project / "test_orders.py") and r["pause"]["location"]["line"] == 6, r
    assert r["pause"]["location"]["method"] == "test_total"
    got = m.ok("expand_variable", {"path": "items", "filter": "$[*].qty"})
    assert values(got) == [2, 1]


def test_debug_test_without_breakpoint_reports_the_verdict(py):
    _, m = py
    r = m.ok("debug_test", {"test_id": "test_orders.py::test_other"})
    assert r["state"] == "stopped" and "passed" in r["message"], r


def test_debug_test_unknown_pytest_id_is_an_error(py):
    _, m = py
    e = m.err("debug_test", {"test_id": "test_orders.py::test_nope"})
    assert e.startswith("unknown test id 'test_orders.py::test_nope'") and "not found" in e, e
    e = m.err("debug_test", {"test_id": "tests/missing.py::test_x"})
    assert e.startswith("unknown test id") and "not found" in e, e


def test_debug_test_gtest_filter_under_gdb(gt_mod):
    project, m = gt_mod
    cleanup(m)
    m.ok("set_breakpoint", {"file_path": "gtest_like.c", "line": 12})
    r = m.ok("debug_test", {"test_id": "Math.Add", "binary": "gtest_like"})
    assert r["framework"] == "gtest" and r["state"] == "paused", r
    assert r["pause"]["location"]["line"] == 12 and r["pause"]["location"]["method"] == "test_math_add", r
    cleanup(m)
    e = m.err("debug_test", {"test_id": "Math.Nope", "binary": "gtest_like"})
    assert e.startswith("unknown test id 'Math.Nope'") and "Running 0 tests" in e, e
    cleanup(m)
