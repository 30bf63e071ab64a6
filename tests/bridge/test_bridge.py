"""`debugger-mcp stdio` as a bridge, end to end with the Python MCP SDK (stdio client):

- one running `debugger-mcp serve` (found through its discovery record) → relayed, with the
  server's bearer token; the instructions say where the bridge is connected;
- two running servers for two projects → routed by the working directory and by each call's
  project_path; a path in neither gets an error listing both;
- the server closing mid-session → a clear tool error, then the call works again once a server
  for the project is back (new port, new session);
- no server → headless over DAP, saying so in the instructions;
- a resource update the server sends outside any call (on the session's GET stream) reaches the
  stdio client that subscribed;
- a 2026-07-28 (stateless) client: `server/discover`, tools, a debugpy session stopping at a
  breakpoint, the update arriving on its `subscriptions/listen` stream; routed by project_path;
  the server vanishing mid-listen ends the subscription with an error instead of a hang.

Each test uses its own DEBUGGER_MCP_DISCOVERY_DIR so it sees only its own servers.
"""

from __future__ import annotations

import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.subscriptions import ResourceUpdated, SubscriptionLost

REPO = pathlib.Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


def binary() -> str:
    if os.environ.get("DEBUGGER_MCP_BIN"):
        return os.environ["DEBUGGER_MCP_BIN"]
    return str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "debugger-mcp")


def make_project(root: pathlib.Path, name: str) -> pathlib.Path:
    p = root / name
    p.mkdir()
    (p / "main.py").write_text("print('hi')\n")
    # A launch entry named after the project shows which server answered.
    (p / "debugger-mcp.toml").write_text(
        f'[[launch]]\nname = "{name}-launch"\nadapter = "debugpy"\nprogram = "${{workspaceFolder}}/main.py"\n'
    )
    return p


class Server:
    def __init__(self, project: pathlib.Path, env: dict, *extra: str):
        self.proc = subprocess.Popen(
            [binary(), "serve", "--project", str(project), *extra],
            stdout=subprocess.PIPE, stderr=sys.stderr, text=True, env=env,
        )
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), self.url

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)


@pytest.fixture
def world():
    root = pathlib.Path(tempfile.mkdtemp(prefix="dmcp-bridge-"))
    env = dict(os.environ, DEBUGGER_MCP_DISCOVERY_DIR=str(root / "discovery"), HOME=str(root / "home"))
    servers: list[Server] = []

    class World:
        def __init__(self):
            self.root, self.env = root, env

        def project(self, name):
            return make_project(root, name)

        def serve(self, project, *extra):
            s = Server(project, env, *extra)
            servers.append(s)
            return s

        def stdio(self, cwd, *args):
            return StdioServerParameters(command=binary(), args=["stdio", *args], env=env, cwd=str(cwd))

    yield World()
    for s in servers:
        if s.proc.poll() is None:
            s.stop()


def text(result) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "text", None))


async def launches(client, **args) -> str:
    r = await client.call_tool("list_run_configurations", args)
    assert not r.is_error, text(r)
    return text(r)


async def test_one_server_relayed_with_its_token(world):
    alpha = world.project("alpha")
    server = world.serve(alpha, "--token", "bridge-secret")
    records = list((world.root / "discovery").glob("*.json"))
    assert len(records) == 1 and json.loads(records[0].read_text())["token"] == "bridge-secret"
    with anyio.fail_after(60):
        async with Client(world.stdio(alpha), mode="legacy") as client:
            assert "Connected through `debugger-mcp stdio`" in client.instructions
            assert server.url in client.instructions
            assert "alpha-launch" in await launches(client)
    server.stop()
    assert not list((world.root / "discovery").glob("*.json")), "serve removes its record on exit"


async def test_two_servers_routed_by_directory_and_project_path(world):
    alpha, beta = world.project("alpha"), world.project("beta")
    world.serve(alpha)
    world.serve(beta)
    with anyio.fail_after(60):
        async with Client(world.stdio(beta), mode="legacy") as client:
            assert "beta-launch" in await launches(client)
            out = await launches(client, project_path=str(alpha))
            assert "alpha-launch" in out and "beta-launch" not in out
            assert "beta-launch" in await launches(client, project_path=str(beta / "main.py"))
        # From outside both projects: calls must name one, and the error lists them.
        async with Client(world.stdio(world.root), mode="legacy") as client:
            r = await client.call_tool("list_run_configurations", {})
            assert r.is_error
            msg = text(r)
            assert "several Debugger MCP servers" in msg and str(alpha) in msg and str(beta) in msg, msg
            assert "alpha-launch" in await launches(client, project_path=str(alpha))


async def test_server_closing_mid_session_then_coming_back(world):
    alpha = world.project("alpha")
    first = world.serve(alpha)
    with anyio.fail_after(90):
        async with Client(world.stdio(alpha), mode="legacy") as client:
            assert "alpha-launch" in await launches(client)
            first.stop()
            r = await client.call_tool("list_run_configurations", {})
            assert r.is_error
            assert "no Debugger MCP server is running" in text(r), text(r)
            second = world.serve(alpha)
            assert "alpha-launch" in await launches(client)


async def test_no_server_serves_headless_and_says_so(world):
    alpha = world.project("alpha")
    with anyio.fail_after(60):
        async with Client(world.stdio(alpha), mode="legacy") as client:
            assert "running headless over DAP" in client.instructions
            assert "alpha-launch" in await launches(client)


async def test_explicit_project_no_server_has_open_is_headless(world):
    alpha, beta = world.project("alpha"), world.project("beta")
    world.serve(alpha)
    with anyio.fail_after(60):
        async with Client(world.stdio(world.root, "--project", str(beta)), mode="legacy") as client:
            assert "running headless over DAP" in client.instructions
            assert "beta-launch" in await launches(client)


async def test_record_of_a_server_that_is_gone_is_ignored(world):
    # A record left behind whose pid is alive (here: this test process) but nothing listens.
    alpha = world.project("alpha")
    disc = world.root / "discovery"
    disc.mkdir(parents=True, exist_ok=True)
    (disc / f"{os.getpid()}.json").write_text(json.dumps({
        "pid": os.getpid(), "url": "http://127.0.0.1:9/debugger-mcp", "port": 9,
        "product": "ghost", "roots": [str(alpha)]}))
    with anyio.fail_after(60):
        async with Client(world.stdio(alpha), mode="legacy") as client:
            assert "running headless over DAP" in client.instructions
            assert "alpha-launch" in await launches(client)


async def test_resource_update_outside_a_call_reaches_the_stdio_client(world):
    # The update of a session ending is sent when the program exits, on the server's standalone
    # GET stream, not in answer to any request: only a bridge that relays that stream passes it on.
    alpha = world.project("alpha")
    settings = alpha / "debugger-mcp.toml"
    settings.write_text("brave_mode = true\n" + settings.read_text())
    world.serve(alpha)
    updated: list[str] = []
    arrived = anyio.Event()

    async def on_message(message):
        if getattr(message, "method", "") == "notifications/resources/updated":
            updated.append(str(message.params.uri))
            arrived.set()

    with anyio.fail_after(60):
        async with Client(world.stdio(alpha), mode="legacy", message_handler=on_message) as client:
            await client.subscribe_resource("debugger://status")
            r = await client.call_tool("start_debug_session", {"run_configuration": "alpha-launch"})
            assert not r.is_error, text(r)
            await arrived.wait()
            assert set(updated) == {"debugger://status"}, updated


PROGRAM = "total = 0\nfor i in range(3):\n    total += i\nprint(total)\n"


def brave(project: pathlib.Path) -> pathlib.Path:
    # The SDK client declares no elicitation; starting a session would otherwise need the
    # user's confirmation.
    settings = project / "debugger-mcp.toml"
    settings.write_text("brave_mode = true\n" + settings.read_text())
    (project / "app.py").write_text(PROGRAM)
    return project


async def test_stateless_client_discovers_debugs_and_listens_through_the_bridge(world):
    alpha = brave(world.project("alpha"))
    server = world.serve(alpha)
    with anyio.fail_after(90):
        # mode="auto" probes server/discover and falls back to initialize when that fails:
        # the negotiated version shows the probe went through the bridge.
        async with Client(world.stdio(alpha), mode="auto") as client:
            assert client.protocol_version == "2026-07-28"
            assert "Connected through `debugger-mcp stdio`" in client.instructions and server.url in client.instructions
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"start_debug_session", "set_breakpoint"} <= names, names
            r = await client.call_tool("set_breakpoint", {"file_path": "app.py", "line": 3})
            assert not r.is_error, text(r)
            async with client.listen(resource_subscriptions=["debugger://status"]) as sub:
                assert sub.honored.resource_subscriptions == ["debugger://status"]
                r = await client.call_tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True})
                assert not r.is_error, text(r)
                sid = r.structured_content["session_id"]
                with anyio.fail_after(20):
                    event = await sub.__anext__()
                assert event == ResourceUpdated(uri="debugger://status")
            status = json.loads((await client.read_resource("debugger://status")).contents[0].text)
            mine = next(s for s in status["sessions"] if s["id"] == sid)
            assert mine["state"] == "paused" and mine["location"] == "app.py:3", status
            r = await client.call_tool("stop_debug_session", {"session_id": sid})
            assert not r.is_error, text(r)


async def test_stateless_client_routed_by_project_path(world):
    alpha, beta = world.project("alpha"), world.project("beta")
    world.serve(alpha)
    world.serve(beta)
    with anyio.fail_after(60):
        async with Client(world.stdio(beta), mode="2026-07-28") as client:
            assert "beta-launch" in await launches(client)
            out = await launches(client, project_path=str(alpha))
            assert "alpha-launch" in out and "beta-launch" not in out


async def test_server_vanishing_mid_listen_ends_the_subscription_with_an_error(world):
    alpha = world.project("alpha")
    server = world.serve(alpha)
    with anyio.fail_after(60):
        async with Client(world.stdio(alpha), mode="2026-07-28") as client:
            async with client.listen(resource_subscriptions=["debugger://status"]) as sub:
                server.proc.kill()  # no goodbye: the connection just drops
                server.proc.wait(timeout=10)
                with pytest.raises(Exception) as lost:
                    with anyio.fail_after(30):
                        await sub.__anext__()
            # The SDK raises SubscriptionLost from the error the bridge answered the listen with.
            assert isinstance(lost.value, SubscriptionLost), repr(lost.value)
            # Not re-sent elsewhere (events in between would be lost unnoticed): the client re-listens.
            assert "closed the stream mid-call" in str(lost.value.__cause__), repr(lost.value.__cause__)


def test_cancelled_listen_gets_nothing_more_and_eof_ends_the_rest(world):
    # On the wire, as a stdio client writes it: a listen cancelled with notifications/cancelled
    # must stop relaying (the bridge closes its HTTP stream), while another listen still gets the
    # update; closing stdin with a listen open must end the bridge, not leave it waiting.
    alpha = brave(world.project("alpha"))
    world.serve(alpha)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}
    bridge = subprocess.Popen([binary(), "stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr,
                              text=True, env=world.env, cwd=str(alpha))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(json.loads(l)) for l in bridge.stdout], daemon=True).start()
    seen: list[dict] = []

    def send(msg):
        bridge.stdin.write(json.dumps(msg) + "\n")
        bridge.stdin.flush()

    def wait_for(pred, timeout=30):
        if any(pred(m) for m in seen):  # arrived already, while waiting for something else
            return
        deadline = time.monotonic() + timeout
        while True:
            msg = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            seen.append(msg)
            if pred(msg):
                return msg

    def tag(msg):
        return msg.get("params", {}).get("_meta", {}).get("io.modelcontextprotocol/subscriptionId")

    def listen(rid):
        send({"jsonrpc": "2.0", "id": rid, "method": "subscriptions/listen",
              "params": {"notifications": {"resourceSubscriptions": ["debugger://status"]}, "_meta": meta}})
        wait_for(lambda m: m.get("method") == "notifications/subscriptions/acknowledged" and tag(m) == rid)

    try:
        listen("cancelled-listen")
        send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "cancelled-listen"}})
        listen("open-listen")
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "start_debug_session", "_meta": meta,
              "arguments": {"command": "python3 app.py", "stop_on_entry": True, "wait_for_pause": True}}})
        wait_for(lambda m: m.get("id") == 2)
        wait_for(lambda m: m.get("method") == "notifications/resources/updated" and tag(m) == "open-listen")
        time.sleep(0.5)  # an update for the cancelled listen would have arrived alongside
        while not lines.empty():
            seen.append(lines.get())
        assert not [m for m in seen if tag(m) == "cancelled-listen" and m.get("method") != "notifications/subscriptions/acknowledged"], seen
        assert not [m for m in seen if m.get("id") == "cancelled-listen"], "a cancelled request gets no answer"
        bridge.stdin.close()
        assert bridge.wait(timeout=10) == 0
    finally:
        if bridge.poll() is None:
            bridge.kill()
