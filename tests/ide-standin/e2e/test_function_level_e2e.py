"""Issue 18 through the IDE's callback table (the JDI stand-in behind the real cdylib, driven by
the official Python MCP client): field watchpoints. Lines come from the debuggee's `@marker`s."""
import os

from test_debugging_e2e import clean_slate, marker, run  # noqa: F401 (clean_slate: autouse fixture)


def account(standin):
    return os.path.join(standin.project, "src", "demo", "Account.java")


def test_field_watchpoint_fires_on_the_write_that_corrupts_a_value(standin):
    src = account(standin)

    async def scenario(agent):
        await agent.call("set_breakpoint", file_path=src, line=marker(src, "@deposit"))
        started = await agent.call("start_debug_session", run_configuration="Account", wait_for_pause=True)
        sid = started["session_id"]
        assert started["pause"]["location"]["line"] == marker(src, "@deposit"), started
        w = await agent.call("set_breakpoint", watch="acct.limit", access="write")
        assert w["type"] == "watch" and w["watch"] == "acct.limit" and w["access"] == "write" and w["verified"], w
        # deposit() writes balance only: the first stop is corrupt()'s write to limit, and the
        # stop names the field with its old and new value.
        r = await agent.call("resume", session_id=sid)
        assert r["state"] == "paused" and r["location"]["line"] == marker(src, "@corrupt"), r
        assert r["breakpoint_ids"] == [w["id"]], r
        assert r["description"] == "field demo.Account.limit written: 100 -> -1", r
        listed = {b["id"]: b for b in (await agent.call("list_breakpoints"))["breakpoints"]}
        assert listed[w["id"]]["hit_count"] == 1, listed
        await agent.call("remove_breakpoint", breakpoint_id=w["id"])
        end = await agent.call("resume", session_id=sid)
        assert end["state"] == "stopped", end
    run(standin, scenario)


def test_watch_names_fields_and_refuses_a_local_naming_the_alternative(standin):
    src = account(standin)

    async def scenario(agent):
        await agent.call("set_breakpoint", file_path=src, line=marker(src, "@deposit"))
        started = await agent.call("start_debug_session", run_configuration="Account", wait_for_pause=True)
        sid = started["session_id"]
        e = await agent.fails("set_breakpoint", watch="local", access="write")
        assert "'local' is a local variable" in e and "conditional breakpoint" in e, e
        e = await agent.fails("set_breakpoint", watch="acct.nope")
        assert "no field 'nope' in demo.Account" in e, e
        # Class.field and read access: deposit's `balance += amount` reads it first.
        w = await agent.call("set_breakpoint", watch="Account.balance", access="read")
        assert w["access"] == "read", w
        r = await agent.call("resume", session_id=sid)
        assert r["state"] == "paused" and r["location"]["line"] == marker(src, "@add-to-balance"), r
        assert r["description"] == "field demo.Account.balance read: 0", r
        await agent.call("stop_debug_session", session_id=sid)
    run(standin, scenario)


def test_fifty_recorded_calls_of_a_recursive_method_one_raising_never_pausing(standin):
    """on_hit record through the IDE's table: arguments at entry, results from the frame's method
    return value after each step out (IntelliJ's Show Method Return Values; the stand-in keeps it
    with MethodEntry/MethodExit requests as MethodReturnValueWatcher does)."""
    src = account(standin)

    async def scenario(agent):
        b = await agent.call("set_breakpoint", function="fib", on_hit="record", max_calls=100)
        assert b["on_hit"] == "record" and b["line"] == marker(src, "@fib-body"), b
        r = await agent.call("start_debug_session", run_configuration="Account", wait_for_pause=True, timeout_ms=50000)
        assert r["state"] == "stopped", f"a recording never leaves the program paused: {r}"
        rec = await agent.call("get_call_records", function="fib", limit=60)
        rows = rec["rows"]
        assert rec["matched"] == 50, rec
        calls = marker(src, "@fib-calls")
        assert rows[0].startswith("#1 fib(n=7) -> 13 @") and rows[0].endswith(f"Account.java:{calls}"), rows[0]
        # fib(n) calls fib(1) F(n) times: 13 + 2 + 1, each returning 1.
        assert sum(1 for x in rows if x.split(" @")[0].endswith("fib(n=1) -> 1")) == 16, rows
        raised = [x for x in rows if "fib(n=-1)" in x]
        # The JVM shows no return value for a call that unwound: no value is made up.
        assert len(raised) == 1 and raised[0].startswith("#50 fib(n=-1) -> (no value shown) @"), raised
    run(standin, scenario)


def test_force_return_makes_each_call_return_the_value_through_the_jvm(standin):
    """force_return through the IDE's table: the stand-in pops fib's frame with
    ThreadReference.forceEarlyReturn (IntelliJ's Force Return); bounded by max_calls."""
    async def scenario(agent):
        b = await agent.call("set_breakpoint", function="fib", force_return="7", max_calls=3)
        assert b["on_hit"] == "record" and "returns 7 at once" in b["note"], b
        r = await agent.call("start_debug_session", run_configuration="Account", wait_for_pause=True, timeout_ms=50000)
        assert r["state"] == "stopped", r
        out = "".join(o["text"] for o in (await agent.call("get_console_output", session_id=r["session_id"]))["output"])
        # fib(7) + fib(3) + fib(2), each forced to 7 without running its body; then fib(-1) runs.
        assert "fib 21" in out and "refused: negative -1" in out, out
        rows = (await agent.call("get_call_records", function="fib"))["rows"]
        assert len(rows) == 3 and rows[0].startswith("#1 fib(n=7) -> 7 (forced) @"), rows
    run(standin, scenario)
