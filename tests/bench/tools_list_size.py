#!/usr/bin/env python3
"""Bytes an MCP client receives for tools/list and the server instructions, as sent.

Starts `debugger-mcp serve` on an empty project, speaks Streamable HTTP by hand (no SDK, whose
models re-serialise and fill in defaults) and prints, per profile, the bytes of the JSON-RPC
`result` of tools/list exactly as the server wrote it, and of `instructions` in the initialize
result. Usage: tests/bench/tools_list_size.py [path/to/debugger-mcp]
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def post(url, body, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2025-06-18"}
    if session:
        headers["Mcp-Session-Id"] = session
    req = urllib.request.Request(url, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        raw = r.read().decode()
        sid = r.headers.get("Mcp-Session-Id") or session
    if not raw.strip() or raw.lstrip().startswith("{"):  # a notification's 202 has no body
        return raw, sid
    # SSE: the message is the data line carrying an id.
    for line in raw.splitlines():
        if line.startswith("data:") and '"id"' in line:
            return line[5:].strip(), sid
    raise SystemExit(f"no JSON-RPC answer in: {raw[:200]}")


def result_text(message: str) -> str:
    """The `result` member of a JSON-RPC message as the server wrote it (not re-serialised)."""
    parsed = json.loads(message)
    start = message.index('"result":') + len('"result":')
    text = message[start:].rstrip()[:-1]  # the envelope's closing brace
    assert json.loads(text) == parsed["result"], "result not at the end of the message"
    return text


def measure(url):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "tools_list_size", "version": "1"}}}
    raw, sid = post(url, init)
    instructions = json.loads(raw)["result"]["instructions"]
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    raw, _ = post(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, sid)
    text = result_text(raw)
    return len(text.encode()), len(json.loads(text)["tools"]), len(instructions.encode())


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(
        Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "debugger-mcp")
    with tempfile.TemporaryDirectory() as project:
        proc = subprocess.Popen([binary, "serve", "--project", project, "--listen", "127.0.0.1:0"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            base = proc.stdout.readline().strip()
            for profile in ("full", "compact", "typed"):
                n, tools, instr = measure(f"{base}?profile={profile}")
                print(f"{profile}: tools/list result {n:,} B ({tools} tools); instructions {instr:,} B; "
                      f"together {n + instr:,} B")
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
