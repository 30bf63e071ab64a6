"""Change notifications of the stateless 2026-07-28 revision with the official Python MCP SDK:
`Client.listen` (`subscriptions/listen`) against the real `debugger-mcp serve`, debugging a real
program with debugpy. A breakpoint hit must arrive on the listen stream as a resource update.
"""

from __future__ import annotations

import json

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated

from conftest import Sidecar

pytestmark = pytest.mark.anyio

PROGRAM = "total = 0\nfor i in range(3):\n    total += i\nprint(total)\n"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def debugpy_sidecar():
    # Brave mode: the SDK client here declares no elicitation, and starting a session would
    # otherwise need the user's confirmation.
    s = Sidecar(settings="brave_mode = true\n", files={"app.py": PROGRAM})
    yield s
    s.stop()


async def test_breakpoint_hit_arrives_on_the_listen_stream(debugpy_sidecar):
    async with Client(debugpy_sidecar.url, mode="2026-07-28") as client:
        r = await client.call_tool("set_breakpoint", {"file_path": "app.py", "line": 3})
        assert not r.is_error
        async with client.listen(resource_subscriptions=["debugger://status"]) as sub:
            assert sub.honored.resource_subscriptions == ["debugger://status"]
            r = await client.call_tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True})
            assert not r.is_error, r.content
            sid = r.structured_content["session_id"]
            with anyio.fail_after(20):
                # The SDK routes a notification to this subscription by its subscriptionId tag.
                event = await sub.__anext__()
            assert event == ResourceUpdated(uri="debugger://status")
        status = json.loads((await client.read_resource("debugger://status")).contents[0].text)
        mine = next(s for s in status["sessions"] if s["id"] == sid)
        assert mine["state"] == "paused" and mine["reason"] == "breakpoint" and mine["location"] == "app.py:3", status
        await client.call_tool("stop_debug_session", {"session_id": sid})


async def test_listen_naming_an_unknown_resource_is_refused(debugpy_sidecar):
    async with Client(debugpy_sidecar.url, mode="2026-07-28") as client:
        with pytest.raises(Exception) as refused:
            async with client.listen(resource_subscriptions=["debugger://satus"]):
                pass
        assert "unknown resource 'debugger://satus'" in str(refused.value)


async def test_raw_listen_stream_tags_the_update_with_the_request_id(debugpy_sidecar):
    # What goes over the wire, without an SDK in between: the acknowledgement first, then
    # notifications/resources/updated carrying io.modelcontextprotocol/subscriptionId.
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    }
    body = {"jsonrpc": "2.0", "id": "raw-listen", "method": "subscriptions/listen",
            "params": {"notifications": {"resourceSubscriptions": ["debugger://status"]}, "_meta": meta}}
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28",
               "mcp-method": "subscriptions/listen"}
    async with Client(debugpy_sidecar.url, mode="2026-07-28") as client, httpx2.AsyncClient(timeout=30) as http:
        async with http.stream("POST", debugpy_sidecar.url, json=body, headers=headers) as response:
            assert response.status_code == 200
            messages = []

            async def read():
                async for line in response.aiter_lines():
                    if line.startswith("data:") and line[5:].strip():
                        messages.append(json.loads(line[5:]))
                        if messages[-1].get("method") == "notifications/resources/updated":
                            return

            with anyio.fail_after(20):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(read)
                    while not messages:
                        await anyio.sleep(0.05)
                    r = await client.call_tool("start_debug_session", {"command": "python3 app.py", "stop_on_entry": True, "wait_for_pause": True})
                    assert not r.is_error, r.content
        ack, update = messages[0], messages[-1]
        assert ack["method"] == "notifications/subscriptions/acknowledged"
        assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "raw-listen"
        assert update["params"]["uri"] == "debugger://status"
        assert update["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "raw-listen"
        await client.call_tool("stop_debug_session", {"session_id": r.structured_content["session_id"]})
