"""Issue 20 end to end ("cheaper than print debugging"), through `debugger-mcp serve` and the
Python MCP SDK on real debugpy and gdb: redaction that hides secrets and not the program,
several values in one evaluate_expression call, and `capture` (run to points, record values at
each hit, in one call).

Line numbers are those of projects/py/tokenizer.py and projects/c/prog.c.
"""

from __future__ import annotations

import json

from conftest import LONG, var


# --- redaction: secrets, not programs ------------------------------------------------------------

def test_a_tokenizer_is_fully_readable_and_only_secrets_are_hidden(py):
    _, m = py
    m.pause_at("tokenizer.py", 33, {"command": "python3 tokenizer.py"})
    vs = m.ok("get_variables", {"depth": 2})["variables"]
    # Names that mention tokens are program data: objects, enums, lists, counters.
    token = var(vs, "token")
    assert token["value"] == "Token(NAME, 'x')" and "redacted" not in token, token
    assert var(vs, "token_type")["value"] == "<TokenType.NAME: 1>"
    fields = var(vs, "self")["children"]
    assert var(fields, "m_tokens")["value"] == "[Token(NAME, 'x')]"
    assert var(fields, "token_count")["value"] == "0"
    assert m.ok("evaluate_expression", {"expression": "token.text"})["result"]["value"] == "'x'"
    assert m.ok("evaluate_expression", {"expression": "self.m_tokens[0].type"})["result"]["value"] == "<TokenType.NAME: 1>"
    assert "redacted" not in m.last_text

    # In main: the real secrets are hidden (by name; a JWT by its shape), each saying why.
    st = m.ok("run_to_line", {"file_path": "tokenizer.py", "line": 43, "ignore_breakpoints": True, "timeout_ms": LONG})
    assert st["location"]["line"] == 43, st
    vs = m.ok("get_variables")["variables"]
    assert var(vs, "api_token")["value"] == "<redacted:token>" and var(vs, "api_token")["redacted"] is True
    header = var(vs, "auth_header")
    assert header["value"] == "'Bearer <redacted:jwt>'" and header["redacted"] is True, header
    assert var(vs, "tokens")["value"].startswith("[Token(NAME, 'x'), Token(OP, '='), Token(NUMBER, '42')")
    assert var(vs, "tokenizer")["type"] == "Tokenizer"
    shown = json.dumps(vs) + m.last_text
    assert "s3cr3t" not in shown and "eyJ" not in shown
    # The length of a secret is no secret.
    assert m.ok("evaluate_expression", {"expression": "len(api_token)"})["result"]["value"] == "12"


# --- several values per call ---------------------------------------------------------------------

def test_several_expressions_in_one_call(py):
    _, m = py
    m.pause_at("tokenizer.py", 33, {"command": "python3 tokenizer.py"})
    r = m.ok("evaluate_expression", {"expressions": ["word", "pos", "len(self.m_tokens)", "nope_undefined", "api_token"], "frame_index": 0})
    rows = {x["name"]: x for x in r["results"]}
    assert [x["name"] for x in r["results"]] == ["word", "pos", "len(self.m_tokens)", "nope_undefined", "api_token"]
    assert rows["word"]["value"] == "'x'" and rows["pos"]["value"] == "0" and rows["len(self.m_tokens)"]["value"] == "1"
    assert "nope_undefined" in rows["nope_undefined"]["error"]
    # main's local from its frame (1): a secret stays hidden here too.
    r = m.ok("evaluate_expression", {"expressions": ["api_token", "tokenizer.source"], "frame_index": 1})
    assert [x.get("value") for x in r["results"]] == ["<redacted:token>", "'x = 42 + y'"]
    assert "tokenizer.source = 'x = 42 + y'" in m.last_text


def test_keyword_arguments_are_read_only_and_a_refused_expression_fails_alone(py):
    """Issue 26: `f(g, key=None)` was taken for an assignment and refused the whole batch."""
    _, m = py
    m.pause_at("tokenizer.py", 33, {"command": "python3 tokenizer.py"})
    r = m.ok("evaluate_expression", {"expressions": [
        "sorted([word, 'b', 'a'], key=lambda s: s, reverse=True)",
        "self.m_tokens.append(1)",
        "dict(w=word)",
    ]})
    rows = r["results"]
    assert rows[0]["value"] == "['x', 'b', 'a']", r
    assert "call to mutating method 'append'" in rows[1]["error"] and not rows[1]["value"], r
    assert rows[2]["value"] == "{'w': 'x'}", r
    # Not run: the tokenizer still holds its one token.
    assert m.ok("evaluate_expression", {"expression": "len(self.m_tokens)"})["result"]["value"] == "1"


def test_nested_values_are_shown_deeper_than_debugpys_two_levels(py):
    """Issue 26: debugpy's repr cuts the third level (`((1, (...)),)`), so agents wrapped values
    in repr(); the core reads the cut levels from the children."""
    _, m = py
    m.pause_at("tokenizer.py", 33, {"command": "python3 tokenizer.py"})
    r = m.ok("evaluate_expression", {"expressions": [
        "((1, (2, (3, (4,)))), 'x')",
        "[{'a': {'b': {'c': [1, 2]}}}]",
        "[1, [2]]",
    ]})
    assert [x["value"] for x in r["results"]] == [
        "((1, (2, (3, (4,)))), 'x')",
        "[{'a': {'b': {'c': [1, 2]}}}]",
        "[1, [2]]",
    ], r
    assert "(...)" not in m.last_text and "{...}" not in m.last_text


def test_capture_runs_python_c_code_in_a_cwd(py):
    """Issue 26: capture takes `cwd` as start_debug_session does, and `python3 -c "…"` is code
    to run (debugpy's `code` launch), not a script path."""
    project, m = py
    (project / "sub").mkdir(exist_ok=True)
    (project / "sub" / "helper.py").write_text("def double(x):\n    return x * 2\n")
    r = m.ok("capture", {
        "command": "python3 -c 'import helper; print(helper.double(4))'",
        "cwd": "sub",
        "points": [{"file_path": "sub/helper.py", "line": 2}],
        "expressions": ["x"],
    })
    assert [[v["value"] for v in h["values"]] for h in r["hits"]] == [["4"]], r
    assert r["end"] == "exited", r


# --- capture: one call from question to answer --------------------------------------------------

def test_capture_records_each_hit_without_stopping_and_ends_the_program(py):
    _, m = py
    r = m.ok("capture", {
        "command": "python3 tokenizer.py",
        "points": [{"file_path": "tokenizer.py", "line": 33}],
        "expressions": ["word", "token_type.name", "len(self.m_tokens)"],
        "max_hits": 3,
    })
    hits = r["hits"]
    assert [h["hit"] for h in hits] == [1, 2, 3] and r["end"] == "hits", r
    assert [[v["value"] for v in h["values"]] for h in hits] == [
        ["'x'", "'NAME'", "1"], ["'='", "'OP'", "2"], ["'42'", "'NUMBER'", "3"]]
    assert hits[0]["at"]["line"] == 33 and hits[0]["at"]["file"] == "tokenizer.py"
    assert hits[0]["locals"]["word"] == "'x'" and hits[0]["stack"][0].startswith("tokenize tokenizer.py:33")
    assert any(s.startswith("main tokenizer.py:") for s in hits[0]["stack"])
    # The program was ended, and the capture's breakpoint is gone.
    assert r["state"] == "stopped", r
    assert m.ok("list_breakpoints")["breakpoints"] == []


def test_capture_reads_like_a_print_a_table_of_the_hits(py):
    """The text an agent reads: one header of the expressions, where and the callers once, one
    row per hit, how the run ended on the first line; locals only when no expressions were
    asked (structuredContent keeps them all)."""
    _, m = py
    m.ok("capture", {
        "command": "python3 tokenizer.py",
        "points": [{"file_path": "tokenizer.py", "line": 33}],
        "expressions": ["word", "token_type.name"],
        "max_hits": 3,
    })
    lines = m.last_text.splitlines()
    assert lines[0] == "3 hits recorded (max_hits); program ended", lines
    assert lines[1] == "hit | word | token_type.name", lines
    assert lines[2].startswith("at tokenizer.py:33 in tokenize, from main tokenizer.py:"), lines
    assert lines[3:] == ["  1 | 'x' | 'NAME'", "  2 | '=' | 'OP'", "  3 | '42' | 'NUMBER'"], lines
    # Without expressions the locals are the values: all at the first hit, then what changed.
    r = m.ok("capture", {"command": "python3 tokenizer.py", "points": [{"file_path": "tokenizer.py", "line": 33}], "max_hits": 2})
    assert r["hits"][1]["locals"]["word"] == "'='", r
    lines = m.last_text.splitlines()
    assert lines[2].startswith("  1 | ") and "word='x'" in lines[2] and "self=" in lines[2], lines
    # `self` is shown by its contents (a preview, not `<Tokenizer object at 0x…>`): it changed,
    # its m_tokens grew.
    assert lines[3].startswith("  2 | ") and "word='='" in lines[3], lines
    assert "self=Tokenizer(m_tokens=[Token(NAME, 'x'), Token(OP, '=')]" in lines[3], lines


def test_capture_with_a_condition_runs_to_the_end_and_reports_it(py):
    _, m = py
    r = m.ok("capture", {
        "command": "python3 tokenizer.py",
        "points": [{"file_path": "tokenizer.py", "line": 33, "condition": "word == 'y'"}],
        "expressions": ["pos", "token.text", "api_token"],
    })
    assert r["end"] == "exited" and [h["values"][0]["value"] for h in r["hits"]] == ["4"], r
    # An expression that fails at a hit is a row with its error; the others still answer.
    assert r["hits"][0]["values"][1]["value"] == "'y'" and r["hits"][0]["values"][2]["error"] == "not in scope"
    assert "`api_token`: not in scope at tokenizer.py:33 (1 row)" in r["message"], r["message"]
    assert r["state"] == "stopped" and r["stop"]["exit_code"] == 0


def test_a_condition_that_fails_to_evaluate_is_named_not_taken_for_no_hit(py):
    """debugpy takes a condition that fails (a syntax error; a raise, except NameError which it
    ignores quietly) as false and says so only on its console: the capture and the breakpoint's
    listing must say which condition, not just that nothing hit."""
    _, m = py
    r = m.ok("capture", {
        "command": "python3 tokenizer.py",
        "points": [{"file_path": "tokenizer.py", "line": 33, "condition": "word +* 2"}],
        "expressions": ["pos"],
    })
    assert r["end"] == "exited" and r["hits"] == [], r
    assert "point 1: its condition `word +* 2` fails to evaluate" in r["message"], r["message"]
    assert "check the lines" not in r["message"], r["message"]
    b = m.ok("set_breakpoint", {"file_path": "tokenizer.py", "line": 33, "condition": "int(word) > 1"})
    m.ok("start_debug_session", {"command": "python3 tokenizer.py", "wait_for_pause": True, "timeout_ms": LONG})
    listed = {x["id"]: x for x in m.ok("list_breakpoints")["breakpoints"]}
    assert "fails to evaluate" in listed[b["id"]].get("message", ""), listed


def test_capture_resumes_a_paused_session_and_can_stay_paused(py):
    _, m = py
    m.pause_at("tokenizer.py", 38, {"command": "python3 tokenizer.py"})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    r = m.ok("capture", {"points": [{"file_path": "tokenizer.py", "line": 42}], "expressions": ["len(tokens)"], "max_hits": 1, "keep_paused": True})
    assert r["end"] == "hits" and r["hits"][0]["values"][0]["value"] == "5", r
    assert r["state"] == "paused" and r["stop"]["location"]["line"] == 42
    # Still paused there: the session goes on from the last hit.
    assert m.ok("evaluate_expression", {"expression": "tokens[4].text"})["result"]["value"] == "'y'"


def test_capture_on_gdb(c):
    _, m = c
    r = m.ok("capture", {
        "run_configuration": "prog (gdb)",
        "points": [{"file_path": "prog.c", "line": 24}],
        "expressions": ["i", "acc"],
        "max_hits": 2,
    })
    assert r["end"] == "hits" and [[v["value"] for v in h["values"]] for h in r["hits"]] == [["1", "0"], ["2", "1"]], r
    assert r["hits"][0]["stack"][0].startswith("sum_squares prog.c:24"), r["hits"][0]
    assert any(s.startswith("main prog.c:") for s in r["hits"][0]["stack"])
    assert r["state"] == "stopped"


def test_capture_names_the_signal_a_program_dies_of(c):
    """Issue 26: a capture that ends in a crash says which signal, where, instead of "paused
    elsewhere (another breakpoint or an exception)"."""
    _, m = c
    r = m.ok("capture", {"command": "./crash", "points": [{"file_path": "crash.c", "line": 6}], "max_hits": 5})
    assert r["end"] == "elsewhere" and len(r["hits"]) == 1, r
    assert "crashed: SIGSEGV (Segmentation fault) at crash.c:8 in main" in r["message"], r["message"]
    assert "another breakpoint" not in r["message"], r["message"]


def test_capture_rows_preview_placeholders_on_gdb(c):
    """Issue 26: a capture row shows a struct's or array's contents as evaluate_expression does,
    not gdb's `{…}` / `[5 items]`."""
    _, m = c
    r = m.ok("capture", {
        "run_configuration": "prog (gdb)",
        "points": [{"file_path": "prog.c", "line": 34}],
        "expressions": ["tri", "numbers", "counter"],
        "max_hits": 1,
    })
    row = r["hits"][0]
    values = {v["name"]: v["value"] for v in row["values"]}
    assert values["numbers"] == "[10, 20, 30, 40, 50]", row
    assert values["tri"].startswith("{name = ") and "sides = 3" in values["tri"], row
    assert values["counter"] == "7", row
    assert row["locals"]["numbers"] == "[10, 20, 30, 40, 50]", row
    assert "sides = 3" in row["locals"]["tri"], row


def test_capture_rows_preview_python_objects(py):
    _, m = py
    r = m.ok("capture", {
        "command": "python3 objects_list.py",
        "points": [{"file_path": "objects_list.py", "line": 15}],
        "expressions": ["sels", "one"],
        "max_hits": 1,
    })
    row = r["hits"][0]
    values = {v["name"]: v["value"] for v in row["values"]}
    assert values == {"sels": "[Selector(kind='FIRST', parts=[1, 2, 3]), None]", "one": "Selector(kind='FIRST', parts=[1, 2, 3])"}, row
    assert row["locals"]["one"] == "Selector(kind='FIRST', parts=[1, 2, 3])", row


# --- values readable where shown ----------------------------------------------------------------

def test_a_list_of_plain_objects_reads_inline(py):
    """Issue 20 item 3: `[<Selector object at 0x…>, None]` (shown as `[<Selector>, None]`) cost
    an agent a repr() call; its items are previewed in the list's value."""
    _, m = py
    p = m.pause_at("objects_list.py", 15, {"command": "python3 objects_list.py"})["pause"]
    assert var(p["frame"]["variables"], "sels")["value"] == "[Selector(kind='FIRST', parts=[1, 2, 3]), None]", p
    r = m.ok("evaluate_expression", {"expressions": ["sels", "(sels[0], 1)"]})
    assert [x["value"] for x in r["results"]] == [
        "[Selector(kind='FIRST', parts=[1, 2, 3]), None]", "(Selector(kind='FIRST', parts=[1, 2, 3]), 1)"], r
