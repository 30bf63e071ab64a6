"""The official Python MCP SDK (`mcp` 2.x) against the real `debugger-mcp` binary, over every
transport the product serves: Streamable HTTP (initialize era and the stateless 2026-07-28 era,
which this SDK speaks natively), legacy HTTP+SSE, and stdio.

Tests named `*_engine_*` assert the product's tool list (SPEC §3) and need the merged engine;
the others exercise the transport and pass with an empty handler too.
"""

from __future__ import annotations

import json

import anyio
import httpx2
import pytest
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from conftest import EXPECTED_TOOLS, sidecar_binary

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _tool_names(client: Client) -> set[str]:
    result = await client.list_tools()
    return {t.name for t in result.tools}


# --- Streamable HTTP, initialize era ---------------------------------------------------------

async def test_streamable_http_initialize_era(sidecar):
    async with Client(sidecar.url, mode="legacy") as client:
        # The SDK negotiates its newest handshake version; the server must echo a known one.
        assert client.protocol_version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
        assert client.server_info is not None and client.server_info.name
        await client.send_ping()
        tools = await client.list_tools()
        assert isinstance(tools.tools, list)


async def test_streamable_http_initialize_era_engine_tools(sidecar):
    async with Client(sidecar.url, mode="legacy") as client:
        assert await _tool_names(client) == EXPECTED_TOOLS
        result = await client.call_tool("list_debug_sessions", {})
        assert not result.is_error, result


class _LogInbox:
    """The client's notifications/message, in arrival order. The server sends them on the
    standalone GET stream, which is not ordered with the POST stream that carries the tool result:
    a call can return before its log line arrives. So the test waits for each line it expects
    (with a deadline), and proves a line was *not* sent by waiting for a later, expected one:
    the GET stream is FIFO, so anything sent before it would have arrived first."""

    def __init__(self):
        self._send, self._receive = anyio.create_memory_object_stream(64)

    async def callback(self, params):
        await self._send.send(params)

    async def next(self):
        with anyio.fail_after(10):
            return await self._receive.receive()


async def _failed_call(session, sid):
    assert (await session.call_tool("get_stack_trace", {"session_id": sid})).is_error


async def test_logging_level_gates_tool_outcome_notifications(sidecar):
    """Nothing is logged until the client asks; after logging/setLevel, a failed call is logged at
    warning, and a level above warning silences it again."""
    inbox = _LogInbox()
    async with streamable_http_client(sidecar.url) as streams:
        async with ClientSession(streams[0], streams[1], logging_callback=inbox.callback) as session:
            await session.initialize()
            await _failed_call(session, "s91")  # before any setLevel: must not be logged
            await session.set_logging_level("warning")
            await _failed_call(session, "s92")
            note = await inbox.next()
            assert "'s92'" in str(note.data), f"logged before the client set a level: {note.data}"
            assert note.level == "warning" and note.logger == "debugger-mcp", note
            assert "get_stack_trace failed" in str(note.data), note.data
            await session.set_logging_level("error")
            await _failed_call(session, "s93")  # a warning: must not be logged at "error"
            await session.set_logging_level("warning")
            await _failed_call(session, "s94")
            note = await inbox.next()
            assert "'s94'" in str(note.data), f"a warning was logged at level error: {note.data}"


async def test_logging_level_is_per_connection(sidecar):
    """One client's logging/setLevel does not make the server log to another client."""
    quiet, loud = _LogInbox(), _LogInbox()
    async with streamable_http_client(sidecar.url) as qs, streamable_http_client(sidecar.url) as ls:
        async with ClientSession(qs[0], qs[1], logging_callback=quiet.callback) as q, \
                ClientSession(ls[0], ls[1], logging_callback=loud.callback) as l:
            await q.initialize()
            await l.initialize()
            await l.set_logging_level("warning")
            await _failed_call(q, "s95")  # the quiet client never asked: must not be logged to it
            await _failed_call(l, "s96")
            assert "'s96'" in str((await loud.next()).data)
            await q.set_logging_level("warning")
            await _failed_call(q, "s97")
            note = await quiet.next()
            assert "'s97'" in str(note.data), f"logged to a client that had not set a level: {note.data}"


# --- Streamable HTTP, stateless 2026-07-28 ----------------------------------------------------

async def test_streamable_http_stateless_2026(sidecar):
    # mode="auto" probes server/discover first; our server answers it, so the SDK must pick
    # 2026-07-28 rather than falling back to initialize.
    async with Client(sidecar.url, mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        tools = await client.list_tools()
        assert isinstance(tools.tools, list)


async def test_streamable_http_stateless_2026_engine_tools(sidecar):
    async with Client(sidecar.url, mode="2026-07-28") as client:
        assert await _tool_names(client) == EXPECTED_TOOLS
        result = await client.call_tool("list_debug_sessions", {})
        assert not result.is_error, result


async def test_stateless_raw_http_header_checks(sidecar):
    """The 2026-07-28 header rules with raw HTTP: matching Mcp-Method passes, a mismatch is 400."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
    }
    async with httpx2.AsyncClient(timeout=10) as http:
        ok = await http.post(sidecar.url, json=body, headers={**headers, "Mcp-Method": "tools/list"})
        assert ok.status_code == 200, ok.text
        assert "mcp-session-id" not in ok.headers
        bad = await http.post(sidecar.url, json=body, headers={**headers, "Mcp-Method": "tools/call"})
        assert bad.status_code == 400, bad.text
        assert "error" in bad.json()
        again = await http.post(sidecar.url, json=body, headers={**headers, "Mcp-Method": "tools/list"})
        assert again.status_code == 200


# --- Legacy HTTP+SSE ---------------------------------------------------------------------------

async def test_legacy_sse(sidecar):
    async with Client(sse_client(sidecar.url + "/sse"), mode="legacy") as client:
        assert client.server_info is not None
        await client.send_ping()
        tools = await client.list_tools()
        assert isinstance(tools.tools, list)


async def test_legacy_sse_engine_tools(sidecar):
    async with Client(sse_client(sidecar.url + "/sse"), mode="legacy") as client:
        assert await _tool_names(client) == EXPECTED_TOOLS


async def test_legacy_sse_unknown_session_is_404(sidecar):
    async with httpx2.AsyncClient(timeout=10) as http:
        r = await http.post(sidecar.base + "/debugger-mcp/message?sessionId=nope", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert r.status_code == 404
        assert r.json()["error"] == "unknown_session"


# --- stdio -------------------------------------------------------------------------------------

def _stdio_params(sidecar) -> StdioServerParameters:
    return StdioServerParameters(command=sidecar_binary(), args=["stdio", "--project", sidecar.project])


async def test_stdio(sidecar):
    async with Client(_stdio_params(sidecar), mode="legacy") as client:
        assert client.server_info is not None
        await client.send_ping()
        tools = await client.list_tools()
        assert isinstance(tools.tools, list)


async def test_stdio_engine_tools(sidecar):
    async with Client(_stdio_params(sidecar), mode="legacy") as client:
        assert await _tool_names(client) == EXPECTED_TOOLS


# --- Security on the real socket ---------------------------------------------------------------

async def test_token_is_enforced_for_sdk_clients(sidecar_with_token):
    url = sidecar_with_token.url
    # Without the token the SDK cannot even connect.
    with pytest.raises(Exception):
        with anyio.fail_after(10):
            async with Client(url, mode="legacy"):
                pass
    async with httpx2.AsyncClient(timeout=10) as http:
        r = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert r.status_code == 401
        assert r.headers["www-authenticate"].startswith("Bearer")
    # With it, the SDK works (Streamable HTTP and SSE).
    auth_headers = {"Authorization": "Bearer py-test-token"}
    http = httpx2.AsyncClient(headers=auth_headers, timeout=httpx2.Timeout(30, read=300))
    async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
        await client.send_ping()
    async with Client(sse_client(url + "/sse", headers=auth_headers), mode="legacy") as client:
        await client.send_ping()


async def test_foreign_host_and_origin_are_403(sidecar):
    async with httpx2.AsyncClient(timeout=10) as http:
        r = await http.post(sidecar.url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Host": "evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "forbidden_host"
        r = await http.get(sidecar.url + "/sse", headers={"Origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "forbidden_origin"
