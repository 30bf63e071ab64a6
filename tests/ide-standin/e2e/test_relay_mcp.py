"""The official Python MCP client (mcp 2.x) against the stand-in: everything goes through Netty →
McpHttpRelay (Kotlin) → JNI → the Rust router, and streams back the same way."""
import asyncio
import json
import socket
import time
import urllib.request

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def status(standin):
    with urllib.request.urlopen(f"http://127.0.0.1:{standin.port}/standin/status", timeout=5) as r:
        return json.loads(r.read())


async def _session_roundtrip(url):
    async with streamable_http_client(url) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            await session.send_ping()
            return init, tools


def test_initialize_list_tools_and_ping(standin):
    init, tools = anyio.run(_session_roundtrip, standin.url)
    assert init.protocol_version
    assert init.server_info.name
    assert isinstance(tools.tools, list)
    assert status(standin)["running"] is True


def test_concurrent_clients(standin):
    async def many():
        results = []
        async with anyio.create_task_group() as tg:
            async def one():
                results.append(await _session_roundtrip(standin.url))
            for _ in range(8):
                tg.start_soon(one)
        return results
    results = anyio.run(many)
    assert len(results) == 8


def await_active_http(standin, expected, why):
    """Waits (5 s at most) until Rust counts `expected` relay tasks. A task leaves the count only
    after its last write to the responder, so a client holding a complete response can still see
    its task counted for a moment: a count sampled right after a request races it (this test
    once saw `before` include the notification's task and then waited for one too many)."""
    deadline = time.monotonic() + 5
    while (active := status(standin)["active_http"]) != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert active == expected, f"{why}: {active} relay tasks, expected {expected}"


def test_disconnect_mid_stream_cancels_the_rust_stream(standin):
    # Open the standalone SSE stream of a fresh session with a raw socket, then vanish.
    init_body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
    req = urllib.request.Request(standin.url, data=init_body.encode(), method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(req, timeout=10) as r:
        sid = r.headers["mcp-session-id"]
        r.read()
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
    urllib.request.urlopen(urllib.request.Request(standin.url, data=note, method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "mcp-session-id": sid}), timeout=10).read()
    # Tests run one at a time and every earlier client has closed: once the tasks of the two
    # requests above have ended, nothing is in flight. Wait for that instead of sampling.
    await_active_http(standin, 0, "a relay task outlived its completed request")
    with socket.create_connection(("127.0.0.1", standin.port)) as s:
        s.sendall((f"GET /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:{standin.port}\r\n"
                   f"Accept: text/event-stream\r\nMcp-Session-Id: {sid}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
        head = head.decode(errors="replace")
        assert head.startswith("HTTP/1.1 200"), head
        assert "text/event-stream" in head.lower()
        # The SSE stream stays open: its Rust task is alive while the client is connected.
        await_active_http(standin, 1, "the open SSE stream's task must be running")
    await_active_http(standin, 0, "stream task still alive after the client left")


def test_injected_panic_is_a_500_and_the_standin_keeps_serving(standin):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    req = urllib.request.Request(standin.url, data=body, method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "x-debugger-mcp-test-panic": "1"})
    try:
        urllib.request.urlopen(req, timeout=10)
        raise AssertionError("expected HTTP 500")
    except urllib.error.HTTPError as e:
        assert e.code == 500
        assert b"injected panic" in e.read()
    init, _ = anyio.run(_session_roundtrip, standin.url)
    assert init.server_info.name
