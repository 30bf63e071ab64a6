"""Issue 20 item 2 through the IDE's callback table (the JDI stand-in behind the real cdylib,
driven by the official Python MCP client): `capture`, one call from question to answer, on a
real JVM. Lines come from the debuggee's `@marker`s."""
import os

from test_debugging_e2e import clean_slate, marker, run  # noqa: F401 (clean_slate: autouse fixture)


def source(standin, name):
    return os.path.join(standin.project, "src", "demo", name)


def values(hit):
    return [v.get("value", v.get("error")) for v in hit["values"]]


def test_capture_records_hits_with_expressions_and_ends_the_program(standin):
    app = source(standin, "App.java")
    loop = marker(app, "@loop")

    async def scenario(agent):
        r = await agent.call("capture", run_configuration="App", points=[{"file_path": app, "line": loop}],
                             expressions=["i", "counter", "i * 10"], max_hits=3)
        assert r["end"] == "hits" and [h["hit"] for h in r["hits"]] == [1, 2, 3], r
        # counter is 49 (square(7)) before the loop adds 0, 1, 2.
        assert [values(h) for h in r["hits"]] == [["0", "49", "0"], ["1", "49", "10"], ["2", "50", "20"]], r
        first = r["hits"][0]
        assert first["at"]["line"] == loop and first["at"]["file"].endswith("App.java"), first
        assert first["stack"][0] == f"main src/demo/App.java:{loop}", first["stack"]
        assert first["locals"]["n"] == "7", first["locals"]
        # The program was ended, not left paused at the third hit.
        assert r["state"] == "stopped" and "ended" in r["message"], r
        listed = await agent.call("list_breakpoints")
        assert listed["breakpoints"] == [], "capture's own breakpoints outlive it"
    run(standin, scenario)


def test_capture_with_a_condition_runs_to_the_end_and_says_so(standin):
    app = source(standin, "App.java")

    async def scenario(agent):
        r = await agent.call("capture", run_configuration="App",
                             points=[{"file_path": app, "line": marker(app, "@loop"), "condition": "i == 2"}],
                             expressions=["i", "counter", "nope"])
        assert r["end"] == "exited" and len(r["hits"]) == 1, r
        row = r["hits"][0]["values"]
        assert [row[0]["value"], row[1]["value"]] == ["2", "50"], row
        # An expression that fails at a hit is its row's error; the others still answer.
        assert "nope" in row[2]["error"], row
        assert r["state"] == "stopped" and r["stop"]["exit_code"] == 0, r
    run(standin, scenario)


def test_capture_resumes_a_paused_session_and_stays_paused(standin):
    app = source(standin, "App.java")
    loop = marker(app, "@loop")

    async def scenario(agent):
        b = await agent.call("set_breakpoint", file_path=app, line=marker(app, "@main-first"))
        started = await agent.call("start_debug_session", run_configuration="App", wait_for_pause=True)
        sid = started["session_id"]
        await agent.call("remove_breakpoint", breakpoint_id=b["id"])
        r = await agent.call("capture", points=[{"file_path": app, "line": loop}], expressions=["i"],
                             max_hits=2, keep_paused=True)
        assert r["session_id"] == sid and r["end"] == "hits" and [values(h) for h in r["hits"]] == [["0"], ["1"]], r
        assert r["state"] == "paused" and r["stop"]["location"]["line"] == loop, r
        # Still paused at the last hit: the session goes on from there.
        e = await agent.call("evaluate_expression", session_id=sid, expression="counter")
        assert e["result"]["value"] == "49", e
        end = await agent.call("resume", session_id=sid)
        assert end["state"] == "stopped", end
    run(standin, scenario)


def test_capture_rows_are_bounded_in_count_and_bytes(standin):
    account = source(standin, "Account.java")
    body = marker(account, "@fib-body")

    async def scenario(agent):
        e = await agent.fails("capture", run_configuration="Account", points=[{"file_path": account, "line": body}],
                              max_hits=101)
        assert "max_hits" in e, e
        # fib's body runs 50 times, with a stack up to 8 calls deep: the rows are cut at the
        # byte limit, and the call says so and how to ask for less.
        r = await agent.call("capture", run_configuration="Account", points=[{"file_path": account, "line": body}],
                             expressions=["n"], max_hits=100)
        assert r["end"] == "bytes" and 0 < len(r["hits"]) < 50, r
        assert "cut at" in r["message"] and "fewer" in r["message"], r
        assert r["state"] == "stopped", r
        # Bounded in count: max_hits of them, in order of the calls (fib(7) first).
        r = await agent.call("capture", run_configuration="Account", points=[{"file_path": account, "line": body}],
                             expressions=["n"], max_hits=4)
        assert r["end"] == "hits" and [values(h) for h in r["hits"]] == [["7"], ["6"], ["5"], ["4"]], r
    run(standin, scenario)


def test_capture_without_expressions_shows_locals_and_says_which_are_left_out(standin):
    """main has twelve locals before its loop's `i`: the rows say the locals past the cap are
    there (they read empty while `i` counted) and that a row changed nothing shown."""
    app = source(standin, "App.java")

    async def scenario(agent):
        r = await agent.s.call_tool("capture", {"run_configuration": "App", "max_hits": 2,
                                                "points": [{"file_path": app, "line": marker(app, "@loop")}]})
        assert not r.is_error, r.content[0].text
        hits = r.structured_content["hits"]
        assert len(hits[0]["locals"]) == 12 and hits[0]["locals"]["sq"] == "49" and hits[0]["more_locals"] == 1, hits[0]
        lines = r.content[0].text.splitlines()
        assert lines[2].startswith("  1 | ") and "n=7" in lines[2], lines
        assert lines[2].endswith("(+1 more locals: name them in expressions)"), lines
        assert lines[3] == "  2 | (no local changed)", lines
    run(standin, scenario)
