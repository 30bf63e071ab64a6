"""Agent cost, side by side: what a debugging task costs an agent in tool calls, tool text
bytes, wire bytes and wall time, through the real servers and the official Python MCP SDK.

- ours: `debugger-mcp serve` (release build) over Streamable HTTP;
- peer: `@debugmcp/mcp-debugger` (npm) over stdio, when installed under tests/.tools/peer.

Scenarios (programs beside this file):
- calc: breakpoint, start, locals, evaluate, expand a list of objects, step, read the changed
  value, stop;
- heavy: 5,000 dicts, 6-level nesting, a 100 KB string, 200-frame recursion.

Each scenario is the natural path for the server's tool set (fewest calls an agent would make
to learn the same facts). Byte counts:
- text: UTF-8 bytes of the text content blocks of every tool result (what most clients put in
  the model's context);
- wire: compact JSON of every tools/call request params and result (text + structuredContent);
- tools/list: compact JSON of the tools/list result.

Usage: python3 bench.py [--out results.json]   (env: DEBUGGER_MCP_BIN, PEER_CLI, NODE)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

SHOW_TEXT = False  # --show-text

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]
TOOLS = REPO / "tests" / ".tools"


def line_of(path: pathlib.Path, marker: str) -> int:
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1) if marker in l)


def compact(obj) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())


class Recorder:
    def __init__(self, session: ClientSession, name: str):
        self.s = session
        self.name = name
        self.calls = []  # (tool, text bytes, wire bytes, ms)

    async def call(self, tool: str, args: dict, expect_ok=True):
        t = time.perf_counter()
        r = await self.s.call_tool(tool, args)
        ms = (time.perf_counter() - t) * 1000
        text = "".join(getattr(c, "text", "") for c in r.content)
        wire = compact(args) + compact(r.model_dump(mode="json", by_alias=True, exclude_none=True))
        self.calls.append({"tool": tool, "text": len(text.encode()), "wire": wire, "ms": round(ms, 1)})
        if SHOW_TEXT:
            print(f"--- {self.name} {tool} ({len(text.encode())} B)\n{text}", file=sys.stderr)
        if expect_ok and r.is_error:
            raise RuntimeError(f"{self.name}: {tool}({args}) failed: {text[:500]}")
        sc = r.structured_content
        if sc is None:
            try:
                sc = json.loads(text)
            except ValueError:
                sc = {"text": text}
        return sc, text

    def summary(self, wall_ms: float):
        return {
            "tool_calls": len(self.calls),
            "text_bytes": sum(c["text"] for c in self.calls),
            "wire_bytes": sum(c["wire"] for c in self.calls),
            "max_result_text_bytes": max(c["text"] for c in self.calls),
            "wall_ms": round(wall_ms),
            "calls": self.calls,
        }


# --- ours -------------------------------------------------------------------------------------

async def ours_calc(r: Recorder, project: pathlib.Path):
    # Issue 26's path: the start sets the breakpoint and answers the value asked for; the step
    # answers the changed value; nothing to tidy (the MCP session's end takes both).
    line = line_of(project / "calc.py", "calc: stop here")
    st, _ = await r.call("start_debug_session", {"command": "python3 calc.py",
                                                 "breakpoints": [{"file_path": "calc.py", "line": line}],
                                                 "evaluate": ["it.price * it.qty"]})
    assert st["state"] == "paused" and st["pause"]["values"], st  # the pause carries the frame's locals
    await r.call("expand_variable", {"path": "items"})
    step, _ = await r.call("step_over", {})  # the new pause shows subtotal changed
    assert step["state"] == "paused", step


async def ours_heavy(r: Recorder, project: pathlib.Path):
    line = line_of(project / "heavy.py", "heavy: stop here")
    bottom = line_of(project / "heavy.py", "heavy: recursion bottom")
    st, _ = await r.call("start_debug_session", {"command": "python3 heavy.py",
                                                 "breakpoints": [{"file_path": "heavy.py", "line": line}],
                                                 "evaluate": ["text"]})
    assert st["state"] == "paused", st
    await r.call("expand_variable", {"path": "records", "limit": 5})
    await r.call("expand_variable", {"path": "tree"})
    await r.call("run_to_line", {"file_path": "heavy.py", "line": bottom})
    await r.call("get_stack_trace", {})


def latency(n: int):
    """Per-call round trips of a full MCP call at a pause (the top layer of docs/DAP_LATENCY.md)."""

    async def scenario(r: Recorder, project: pathlib.Path):
        line = line_of(project / "heavy.py", "heavy: stop here")
        await r.call("set_breakpoint", {"file_path": "heavy.py", "line": line})
        await r.call("start_debug_session", {"command": "python3 heavy.py", "wait_for_pause": True})
        r.calls.clear()
        for _ in range(n):
            await r.call("evaluate_expression", {"expression": "len(records)"})
            await r.call("get_stack_trace", {"max_frames": 20})
            # No debugger request at all: the MCP client, HTTP and the core alone.
            await r.call("list_breakpoints", {})
        med = lambda tool: sorted(c["ms"] for c in r.calls if c["tool"] == tool)[n // 2]  # noqa: E731
        r.latency = {t: med(t) for t in ("evaluate_expression", "get_stack_trace", "list_breakpoints")}
        await r.call("stop_debug_session", {})

    return scenario


async def run_ours(binary: str, scenario, profile: str | None = None, env: dict | None = None):
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="agent-cost-"))
    project = tmp / "proj"
    project.mkdir()
    for f in ("calc.py", "heavy.py"):
        shutil.copy(HERE / f, project / f)
    (project / "debugger-mcp.toml").write_text("brave_mode = true\n")
    proc = subprocess.Popen([binary, "serve", "--project", str(project), "--listen", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})})
    try:
        url = proc.stdout.readline().strip()
        if profile:
            url += f"?profile={profile}"
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                listed = await s.list_tools()
                # exclude_unset: what the server sent. The SDK's model fills in defaults the
                # server never sends (ttlMs 0, cacheScope "private": 33 B the agent never sees).
                tools_bytes = compact(listed.model_dump(mode="json", by_alias=True, exclude_unset=True))
                n_tools = len(listed.tools)
                if scenario is None:
                    return {"tools_list_bytes": tools_bytes, "tools": n_tools}
                r = Recorder(s, "ours")
                t = time.perf_counter()
                await scenario(r, project)
                out = r.summary((time.perf_counter() - t) * 1000)
                out["tools_list_bytes"] = tools_bytes
                if hasattr(r, "latency"):
                    return r.latency
                return out
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


# --- peer -------------------------------------------------------------------------------------

async def peer_wait_paused(r: Recorder, sid: str, tries=100):
    """The peer's start/continue return before the stop; an agent asks for the stack until it is
    paused (each ask is a tool call and counts)."""
    for _ in range(tries):
        st, text = await r.call("get_stack_trace", {"sessionId": sid}, expect_ok=False)
        frames = st.get("stackFrames") if isinstance(st, dict) else None
        if frames:
            return frames
        await asyncio.sleep(0.2)
    raise RuntimeError("peer: never paused")


async def peer_calc(r: Recorder, project: pathlib.Path):
    line = line_of(project / "calc.py", "calc: stop here")
    st, _ = await r.call("create_debug_session", {"language": "python"})
    sid = st["sessionId"]
    await r.call("set_breakpoint", {"sessionId": sid, "file": str(project / "calc.py"), "line": line})
    await r.call("start_debugging", {"sessionId": sid, "scriptPath": str(project / "calc.py")})
    await r.call("get_local_variables", {"sessionId": sid})
    await r.call("evaluate_expression", {"sessionId": sid, "expression": "it.price * it.qty"})
    loc, _ = await r.call("get_local_variables", {"sessionId": sid, "names": ["items"]})
    ref = next((v.get("variablesReference") for v in loc.get("variables", []) if v.get("name") == "items"), None)
    if ref is None:
        # items is a local of main (frame 1), not of total(): ask the caller's frame.
        await r.call("evaluate_expression", {"sessionId": sid, "expression": "[vars(i) for i in items]"})
    else:
        await r.call("get_variables", {"sessionId": sid, "scope": ref})
    await r.call("step_over", {"sessionId": sid})
    await r.call("get_local_variables", {"sessionId": sid})
    await r.call("close_debug_session", {"sessionId": sid})


async def peer_heavy(r: Recorder, project: pathlib.Path):
    line = line_of(project / "heavy.py", "heavy: stop here")
    bottom = line_of(project / "heavy.py", "heavy: recursion bottom")
    st, _ = await r.call("create_debug_session", {"language": "python"})
    sid = st["sessionId"]
    await r.call("set_breakpoint", {"sessionId": sid, "file": str(project / "heavy.py"), "line": line})
    await r.call("start_debugging", {"sessionId": sid, "scriptPath": str(project / "heavy.py")})
    loc, _ = await r.call("get_local_variables", {"sessionId": sid})
    refs = {v.get("name"): v.get("variablesReference") for v in loc.get("variables", [])}
    if refs.get("records"):
        await r.call("get_variables", {"sessionId": sid, "scope": refs["records"]})
    if refs.get("tree"):
        await r.call("get_variables", {"sessionId": sid, "scope": refs["tree"]})
    await r.call("evaluate_expression", {"sessionId": sid, "expression": "text"})
    await r.call("set_breakpoint", {"sessionId": sid, "file": str(project / "heavy.py"), "line": bottom})
    await r.call("continue_execution", {"sessionId": sid})
    await peer_wait_paused(r, sid)  # continue returns before the stop
    await r.call("close_debug_session", {"sessionId": sid})


async def run_peer(node: str, cli: str, scenario):
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="agent-cost-peer-"))
    project = tmp / "proj"
    project.mkdir()
    for f in ("calc.py", "heavy.py"):
        shutil.copy(HERE / f, project / f)
    params = StdioServerParameters(command=node, args=[cli, "stdio", "--log-level", "error"], cwd=str(project),
                                   env={**os.environ})
    try:
        with open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    listed = await s.list_tools()
                    tools_bytes = compact(listed.model_dump(mode="json", by_alias=True, exclude_unset=True))
                    r = Recorder(s, "peer")
                    t = time.perf_counter()
                    await scenario(r, project)
                    out = r.summary((time.perf_counter() - t) * 1000)
                    out["tools_list_bytes"] = tools_bytes
                    out["tools"] = len(listed.tools)
                    return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--show-text", action="store_true", help="print every result's text block to stderr")
    ap.add_argument("--no-peer", action="store_true")
    a = ap.parse_args()
    global SHOW_TEXT
    SHOW_TEXT = a.show_text
    binary = os.environ.get("DEBUGGER_MCP_BIN") or str(REPO / "target" / "release" / "debugger-mcp")
    node = os.environ.get("NODE") or shutil.which("node") or "node"
    cli = os.environ.get("PEER_CLI") or str(TOOLS / "peer" / "node_modules" / "@debugmcp" / "mcp-debugger" / "dist" / "cli.mjs")
    res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "ours": {}, "peer": {}}
    full = await run_ours(binary, None)
    compact_list = await run_ours(binary, None, profile="compact")
    res["ours"]["tools_list_full_bytes"] = full["tools_list_bytes"]
    res["ours"]["tools_full"] = full["tools"]
    # A server without the compact profile ignores the query and lists every tool.
    res["ours"]["tools_list_compact_bytes"] = compact_list["tools_list_bytes"] if compact_list["tools"] < full["tools"] else None
    for name, sc in (("calc", ours_calc), ("heavy", ours_heavy)):
        res["ours"][name] = await run_ours(binary, sc)
    res["ours"]["mcp_round_trip_ms"] = await run_ours(binary, latency(20))
    res["ours"]["mcp_round_trip_ms_without_quickack"] = await run_ours(binary, latency(20), env={"DEBUGGER_MCP_DEBUGPY_QUICKACK": "0"})
    if not a.no_peer:
        if not os.path.exists(cli):
            res["peer"]["error"] = f"not installed ({cli}); run.sh installs it"
        else:
            for name, sc in (("calc", peer_calc), ("heavy", peer_heavy)):
                try:
                    res["peer"][name] = await run_peer(node, cli, sc)
                except Exception as e:  # noqa: BLE001 - reported, the run goes on
                    res["peer"][name] = {"error": f"{type(e).__name__}: {e}"[:400]}
    report(res)
    if a.out:
        pathlib.Path(a.out).write_text(json.dumps(res, indent=1))


def report(res):
    o, p = res["ours"], res["peer"]
    print(f"agent cost, {res['date']}")
    comp = o["tools_list_compact_bytes"]
    print(f"tools/list: ours full {o['tools_list_full_bytes']} B ({o['tools_full']} tools; target <= 16384), "
          f"compact {comp if comp is not None else 'n/a'} B (target <= 3072)"
          + (f"; peer {p['calc']['tools_list_bytes']} B ({p['calc']['tools']} tools)" if isinstance(p.get("calc"), dict) and "tools_list_bytes" in p["calc"] else ""))
    print(f"MCP round trip at a pause (median of 20): {o['mcp_round_trip_ms']} ms; "
          f"with debugpy's adapter started plainly: {o['mcp_round_trip_ms_without_quickack']} ms")
    for sc in ("calc", "heavy"):
        for who in ("ours", "peer"):
            x = (o if who == "ours" else p).get(sc)
            if not x:
                continue
            if "error" in x:
                print(f"{sc:5} {who}: error: {x['error']}")
                continue
            print(f"{sc:5} {who}: {x['tool_calls']} calls, text {x['text_bytes']} B, wire {x['wire_bytes']} B, "
                  f"largest result {x['max_result_text_bytes']} B, wall {x['wall_ms']} ms")
            print("      " + ", ".join(f"{c['tool']} {c['text']}B {c['ms']:.0f}ms" for c in x["calls"]))


if __name__ == "__main__":
    asyncio.run(main())
