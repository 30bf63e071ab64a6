"""A PHP bug scenario through two MCP servers, side by side: ours (`debugger-mcp serve`) and the
seed-004 peer wallter/smart-xdebug-mcp (Node, stdio) when a build of it is given (PEER_JS=path of
its dist/index.js; it is not on npm, so it is built from its repository outside this one).

The bug (invoice.php): the total is negative. To see why, an agent stops at `return $net - $off`
and reads $net, $rate and $off at the first hit (rate 10 is a percent, used as a fraction), then
$off at the second hit to confirm. Each server's natural path (fewest calls that learn those
facts) is scripted; the third path is an agent without a debugger: add an error_log line, run,
read, remove it. Counted: tool calls, UTF-8 bytes of the tool results' text, the tools/list size.

Usage: python3 bench.py   (env: DEBUGGER_MCP_BIN, PEER_JS, NODE; SHOW_TEXT=1 adds the texts)
The peer listens on every interface with no option to narrow it, so it runs in a network
namespace of its own (unshare -rn: loopback only), with its trigger inside; there its default
port 9003 is free (it takes no port past 9010).
"""
from __future__ import annotations

import asyncio
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]
MARK = "php_scenario: stop here"


def line_of(path: pathlib.Path) -> int:
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1) if MARK in l)


def compact(obj) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())


class Recorder:
    def __init__(self, s: ClientSession):
        self.s = s
        self.calls: list[tuple[str, int]] = []
        self.texts: list[str] = []

    async def call(self, tool: str, args: dict) -> str:
        r = await self.s.call_tool(tool, args)
        text = "".join(getattr(c, "text", "") for c in r.content)
        self.calls.append((tool, len(text.encode())))
        self.texts.append(text)
        if r.is_error:
            raise RuntimeError(f"{tool}({args}) failed: {text[:400]}")
        return text

    def summary(self, tools_bytes: int, n_tools: int) -> dict:
        return {
            "tool_calls": len(self.calls),
            "text_bytes": sum(b for _, b in self.calls),
            "tools_list_bytes": tools_bytes,
            "tools": n_tools,
            "calls": self.calls,
            **({"texts": self.texts} if os.environ.get("SHOW_TEXT") else {}),
        }


def facts_found(texts: list[str]) -> bool:
    """The facts the agent needs: $rate 10, $net 20 and $off 200 (first hit), $off 150 (second)."""
    t = " ".join(texts)
    return all(x in t for x in ("200", "150", "10", "20"))


def project_copy() -> pathlib.Path:
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="php-scenario-")).resolve()
    shutil.copy(HERE / "invoice.php", tmp / "invoice.php")
    return tmp


async def ours() -> dict:
    binary = os.environ.get("DEBUGGER_MCP_BIN") or str(REPO / "target" / "debug" / "debugger-mcp")
    project = project_copy()
    (project / "debugger-mcp.toml").write_text("brave_mode = true\n[php]\nport = 29403\n")
    line = line_of(project / "invoice.php")
    proc = subprocess.Popen([binary, "serve", "--project", str(project), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = proc.stdout.readline().strip()
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                listed = await s.list_tools()
                r = Recorder(s)
                await r.call("set_breakpoint", {"file_path": "invoice.php", "line": line})
                # The stop result carries the frame's locals: $net, $rate, $off at the first hit.
                await r.call("start_debug_session", {"command": "php invoice.php", "wait_for_pause": True})
                await r.call("resume", {})  # the second hit's locals: $off
                await r.call("stop_debug_session", {})
                out = r.summary(compact(listed.model_dump(mode="json", by_alias=True, exclude_none=True)), len(listed.tools))
                out["facts_found"] = facts_found(r.texts)
                return out
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(project, ignore_errors=True)


async def peer(js: str) -> dict:
    node = os.environ.get("NODE") or shutil.which("node")
    project = project_copy()
    line = line_of(project / "invoice.php")
    data = project / ".peer-data"
    params = StdioServerParameters(
        command="unshare", args=["-rn", "sh", "-c", f"ip link set lo up 2>/dev/null; exec {node} {js}"],
        cwd=str(project),
        # Its default maps the project to /var/www/html (a container); a local run maps it to itself.
        env={**os.environ, "XDEBUG_MCP_PROJECT_ROOT": str(project), "XDEBUG_MCP_DATA_DIR": str(data),
             "XDEBUG_MCP_PATH_MAPPINGS": json.dumps([{"local": ".", "remote": str(project)}])},
    )
    try:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                listed = await s.list_tools()
                r = Recorder(s)
                await r.call("set_breakpoint", {"file": "invoice.php", "line": line})
                # Its trigger points Xdebug at host.docker.internal; a CLI run here overrides it.
                await r.call("start_debug_session", {
                    "command": 'XDEBUG_CONFIG="client_host=127.0.0.1 client_port=9003" php invoice.php'})
                for v in ("$net", "$rate", "$off"):
                    await r.call("inspect_variable", {"name": v})
                await r.call("control_execution", {"action": "continue"})
                await r.call("inspect_variable", {"name": "$off"})
                await r.call("control_execution", {"action": "stop"})
                out = r.summary(compact(listed.model_dump(mode="json", by_alias=True, exclude_none=True)), len(listed.tools))
                out["facts_found"] = facts_found(r.texts)
                return out
    finally:
        shutil.rmtree(project, ignore_errors=True)


def scripted() -> dict:
    """No debugger: edit in an error_log of the three values, run, read, edit it out. The tool
    text is the edit tool's echo (the inserted line, twice) and the run's output."""
    project = project_copy()
    src = project / "invoice.php"
    line = line_of(src)
    probe = "    error_log(json_encode(compact('net', 'rate', 'off')));"
    lines = src.read_text().splitlines()
    src.write_text("\n".join(lines[: line - 1] + [probe] + lines[line - 1:]) + "\n")
    run = subprocess.run(["php", str(src)], capture_output=True, text=True, cwd=project)
    out = run.stdout + run.stderr
    shutil.rmtree(project, ignore_errors=True)
    calls = [("edit (add error_log)", len(probe.encode())), ("run php invoice.php", len(out.encode())),
             ("edit (remove it)", len(probe.encode()))]
    return {"tool_calls": len(calls), "text_bytes": sum(b for _, b in calls), "calls": calls,
            "facts_found": facts_found([out])}


async def main():
    results = {"ours": await ours(), "scripted": scripted()}
    js = os.environ.get("PEER_JS")
    if js:
        try:
            results["peer"] = await peer(js)
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            results["peer"] = {"error": f"{type(e).__name__}: {e}"}
    else:
        results["peer"] = {"error": "PEER_JS not set (the peer is not on npm; build it from its repository)"}
    json.dump(results, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    asyncio.run(main())
