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
        assert r["state"] == "paused" and r["location"]["line"] == marker(src, "@deposit-body"), r
        assert r["description"] == "field demo.Account.balance read: 0", r
        await agent.call("stop_debug_session", session_id=sid)
    run(standin, scenario)
