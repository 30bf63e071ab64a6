"""`subscriptions/listen` (2026-07-28) through the IDE path: Netty → McpHttpRelay → JNI → the Rust
router, with the JDI callback table debugging a real Java program. The listen call is a POST whose
response stream stays open for as long as the client listens, so this proves the relay streams a
long-lived POST response chunk by chunk (not only the initialize-era GET stream)."""
import json
import os

import anyio
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated

from test_debugging_e2e import marker


def test_a_breakpoint_hit_arrives_on_the_listen_stream_through_the_relay(standin):
    app = os.path.join(standin.project, "src", "demo", "App.java")

    async def main():
        async with Client(standin.url, mode="2026-07-28") as client:
            line = marker(app, "@print")
            r = await client.call_tool("set_breakpoint", {"file_path": app, "line": line})
            assert not r.is_error, r.content
            try:
                await listen_for_the_hit(client, line)
            finally:
                # The stand-in is shared: a breakpoint left here is another test's first stop.
                await client.call_tool("remove_breakpoint", {"breakpoint_id": r.structured_content["id"]})

    async def listen_for_the_hit(client, line):
        async with client.listen(resource_subscriptions=["debugger://status"]) as sub:
            assert sub.honored.resource_subscriptions == ["debugger://status"]
            r = await client.call_tool("start_debug_session", {"run_configuration": "App", "wait_for_pause": True})
            assert not r.is_error, r.content
            sid = r.structured_content["session_id"]
            with anyio.fail_after(30):
                event = await sub.__anext__()
            assert event == ResourceUpdated(uri="debugger://status")
        status = json.loads((await client.read_resource("debugger://status")).contents[0].text)
        mine = next(s for s in status["sessions"] if s["id"] == sid)
        assert mine["state"] == "paused" and mine["reason"] == "breakpoint", status
        assert mine["location"].endswith(f"App.java:{line}"), status
        await client.call_tool("stop_debug_session", {"session_id": sid})

    anyio.run(main)
