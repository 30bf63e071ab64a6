"""`debugger-mcp stdio` reaching the "IDE": stand-ins (real cdylib, JDI callback table) publish
discovery records through the plugin's InstallBridge; the Python MCP SDK's stdio client talks to
the bridge, which relays to the stand-in whose project contains the working directory — down to
a paused JDI debuggee. With two stand-ins, calls go to the one named by cwd or project_path
(checked in each stand-in's own tool-call history)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.subscriptions import ResourceUpdated

from test_debugging_e2e import marker

REPO = pathlib.Path(__file__).resolve().parents[3]


def binary():
    if os.environ.get("DEBUGGER_MCP_BIN"):
        return os.environ["DEBUGGER_MCP_BIN"]
    return str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "debugger-mcp")


class Ide:
    def __init__(self, project, discovery, settings):
        build = os.environ["STANDIN_BUILD"]
        with open(os.path.join(build, "classpath")) as f:
            cp = f.read().strip()
        self.project = project
        self.log = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
        env = dict(os.environ, DEBUGGER_MCP_DISCOVERY_DIR=discovery)
        self.proc = subprocess.Popen(
            ["java", "-cp", cp, "standin.StandIn", os.environ["DEBUGGER_MCP_LIB"], project, settings, "0"],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        deadline = time.time() + 60
        self.port = None
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("STANDIN READY"):
                self.port = int(line.split()[2])
                break
        assert self.port, "stand-in did not start:\n" + open(self.log.name).read()

    def history_tools(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/standin/history", timeout=10) as r:
            return [e["tool"] for e in json.loads(r.read())]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def ides():
    root = tempfile.mkdtemp(prefix="dmcp-standin-bridge-")
    discovery = os.path.join(root, "discovery")
    settings = os.path.join(root, "settings.toml")
    with open(settings, "w") as f:
        f.write("brave_mode = true\nbackend_timeout_ms = 20000\n")
    started = []

    def start(name):
        project = os.path.join(root, name)
        shutil.copytree(os.path.join(os.environ["STANDIN_BUILD"], "project"), project)
        ide = Ide(project, discovery, settings)
        started.append(ide)
        return ide

    start.discovery = discovery
    yield start
    for ide in started:
        ide.stop()
    assert not [p for p in os.listdir(discovery) if p.endswith(".json")] if os.path.isdir(discovery) else True, \
        "stand-ins withdraw their records on exit"


def stdio(ides, cwd, *args):
    env = dict(os.environ, DEBUGGER_MCP_DISCOVERY_DIR=ides.discovery)
    return StdioServerParameters(command=binary(), args=["stdio", *args], env=env, cwd=cwd)


def data(result):
    assert not result.is_error, result.content[0].text
    return result.structured_content or json.loads(result.content[0].text)


def test_bridge_reaches_the_ide_debuggee(ides):
    ide = ides("one")
    app = os.path.join(ide.project, "src", "demo", "App.java")
    records = os.listdir(ides.discovery)
    assert len(records) == 1 and json.load(open(os.path.join(ides.discovery, records[0])))["roots"] == [ide.project]

    async def main():
        with anyio.fail_after(120):
            async with Client(stdio(ides, os.path.join(ide.project, "src")), mode="legacy") as client:
                assert "IDE stand-in" in client.instructions
                bp = data(await client.call_tool("set_breakpoint", {"file_path": app, "line": marker(app, "@print")}))
                started = data(await client.call_tool("start_debug_session", {"run_configuration": "App", "wait_for_pause": True}))
                assert started["state"] == "paused" and bp["id"] in started["pause"]["breakpoint_ids"], started
                assert started["pause"]["location"]["line"] == marker(app, "@print")
                stack = data(await client.call_tool("get_stack_trace", {"session_id": started["session_id"]}))
                assert stack["frames"][0]["method"] == "main"
                data(await client.call_tool("stop_debug_session", {"session_id": started["session_id"]}))
    anyio.run(main)


def test_two_ides_routed_by_directory_and_project_path(ides):
    a, b = ides("alpha"), ides("beta")

    async def main():
        with anyio.fail_after(120):
            async with Client(stdio(ides, b.project), mode="legacy") as client:
                data(await client.call_tool("list_run_configurations", {}))
                data(await client.call_tool("list_breakpoints", {"project_path": a.project}))
    anyio.run(main)
    assert "list_run_configurations" in b.history_tools() and "list_run_configurations" not in a.history_tools()
    assert "list_breakpoints" in a.history_tools() and "list_breakpoints" not in b.history_tools()


def test_token_installed_from_the_tool_window_is_enforced_at_once(ides):
    """Install through the plugin's InstallBridge path writes the token into the IDE settings;
    the IDE's server enforces it without a restart, its discovery record carries it, and the
    stdio bridge still gets through."""
    ide = ides("tok")
    url = f"http://127.0.0.1:{ide.port}/debugger-mcp"

    def post(token=None):
        req = urllib.request.Request(url, data=b'{"jsonrpc":"2.0","id":1,"method":"ping"}', method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    assert post() != 401, "no token configured yet"
    # What InstallBridge.apply does to the IDE settings (the installer crate's token writer).
    settings = [a for a in ide.proc.args if a.endswith(".toml")][0]
    with open(settings, "a") as f:
        f.write('\n[http]\ntoken = "from-the-tool-window"\n')
    deadline = time.time() + 10
    while post() != 401 and time.time() < deadline:
        time.sleep(0.1)
    assert post() == 401, "the new token is enforced without a restart"
    assert post("from-the-tool-window") != 401
    record = json.load(open(os.path.join(ides.discovery, os.listdir(ides.discovery)[0])))
    assert record["token"] == "from-the-tool-window"

    async def main():
        with anyio.fail_after(60):
            async with Client(stdio(ides, ide.project), mode="legacy") as client:
                data(await client.call_tool("list_breakpoints", {}))
    anyio.run(main)


def test_calls_naming_a_session_go_to_the_ide_that_runs_it(ides):
    a, b = ides("alpha"), ides("beta")
    app = os.path.join(a.project, "src", "demo", "App.java")

    async def main():
        with anyio.fail_after(120):
            # Working directory in beta; the session is started in alpha by project_path.
            async with Client(stdio(ides, b.project), mode="legacy") as client:
                data(await client.call_tool("set_breakpoint", {"file_path": app, "line": marker(app, "@print"), "project_path": a.project}))
                started = data(await client.call_tool("start_debug_session", {
                    "run_configuration": "App", "wait_for_pause": True, "project_path": a.project}))
                sid = started["session_id"]
                # No project_path: the bridge knows alpha runs this session.
                stack = data(await client.call_tool("get_stack_trace", {"session_id": sid}))
                assert stack["frames"][0]["line"] == marker(app, "@print")
                data(await client.call_tool("stop_debug_session", {"session_id": sid}))
    anyio.run(main)
    assert "get_stack_trace" in a.history_tools() and "get_stack_trace" not in b.history_tools()


def test_stateless_client_through_the_bridge_listens_to_the_ide(ides):
    # A 2026-07-28 stdio client (server/discover, no initialize): its requests and its
    # subscriptions/listen stream pass through the bridge and the IDE's relay to the JDI debuggee.
    ide = ides("one")
    app = os.path.join(ide.project, "src", "demo", "App.java")

    async def main():
        with anyio.fail_after(120):
            async with Client(stdio(ides, ide.project), mode="auto") as client:
                assert client.protocol_version == "2026-07-28" and "IDE stand-in" in client.instructions
                data(await client.call_tool("set_breakpoint", {"file_path": app, "line": marker(app, "@print")}))
                async with client.listen(resource_subscriptions=["debugger://status"]) as sub:
                    started = data(await client.call_tool("start_debug_session", {"run_configuration": "App", "wait_for_pause": True}))
                    with anyio.fail_after(30):
                        event = await sub.__anext__()
                    assert event == ResourceUpdated(uri="debugger://status")
                data(await client.call_tool("stop_debug_session", {"session_id": started["session_id"]}))
    anyio.run(main)
    assert "start_debug_session" in ide.history_tools()
