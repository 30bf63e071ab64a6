"""Issue 29: how long a Python program launched under debugpy takes to report a breakpoint it
hits during its own start-up (a module-level line), through `debugger-mcp serve` and, for the
floor, with raw DAP to the same debugpy adapter and no server.

Each sample, the two ways alternate (same load):
- ours: `start_debug_session {command, breakpoints: [startup.py:LINE]}` from the call to its
  answer with the pause (the first-answer path: it waits for the stop);
- raw: `python -c <the same quick-ACK bootstrap> ` (debugpy.adapter), initialize, launch,
  `initialized`, setBreakpoints, setExceptionBreakpoints, configurationDone, launch response,
  `stopped`; each phase's time since the start is kept.
The program records `time.time()` at its first line (T0) and the stop reads it, so each way
also says how long passed before the program's own first line ran (Python and debugpy's
start-up, in the debuggee), and how long from there to the reported stop.

Run: python3 tests/bench/first_stop.py [--samples N] [--before BIN]   (after `cargo build -p
debugger-mcp`; DEBUGGER_MCP_BIN=... to time another build; --before BIN adds a row for another
build, its server started beside the first, the samples interleaved). Prints a table
BENCHMARKS.md quotes.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))

from conftest import start  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "agent_cost"))
import raw_dap  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
QUICKACK = (REPO / "native/dap/src/adapters/debugpy_quickack.py").read_text()
PROGRAM = '''import time
T0 = time.time()  # the program's own first line
import json, collections, decimal, argparse
CONFIG = {"mode": "fast", "retries": 3}
print("configured", json.dumps(CONFIG))  # startup: stop here
'''
LINE = 5


class Dap(raw_dap.Dap):
    """raw_dap's client on the adapter's stdio, recording when each message arrived."""

    def __init__(self, cwd: pathlib.Path):
        self.p = subprocess.Popen([sys.executable, "-c", QUICKACK], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, cwd=cwd, bufsize=0)
        self.seq = 0
        self.pending = []

    def _read(self):
        return raw_dap.Dap.read(self), time.monotonic()

    def wait(self, match):
        for i, (m, t) in enumerate(self.pending):
            if match(m):
                return self.pending.pop(i)
        while True:
            m, t = self._read()
            if match(m):
                return m, t
            self.pending.append((m, t))

    def response(self, seq):
        return self.wait(lambda m: m["type"] == "response" and m["request_seq"] == seq)

    def event(self, name):
        return self.wait(lambda m: m["type"] == "event" and m["event"] == name)

    def close(self):
        try:
            self.send("disconnect", {"terminateDebuggee": True})
            self.p.wait(timeout=5)
        except Exception:  # noqa: BLE001 - already gone
            self.p.kill()
            self.p.wait()


def raw(project: pathlib.Path) -> dict:
    prog = str(project / "startup.py")
    t0 = time.monotonic()
    wall0 = time.time()
    d = Dap(project)
    at = {}
    try:
        _, at["initialize"] = d.response(d.send("initialize", {
            "clientID": "bench", "adapterID": "debugpy", "linesStartAt1": True, "columnsStartAt1": True,
            "pathFormat": "path", "supportsVariableType": True}))
        launch = d.send("launch", {"program": prog, "cwd": str(project), "console": "internalConsole",
                                   "justMyCode": True, "showReturnValue": True})
        _, at["initialized"] = d.event("initialized")
        _, at["setBreakpoints"] = d.response(d.send("setBreakpoints", {"source": {"path": prog}, "breakpoints": [{"line": LINE}]}))
        _, at["setExceptionBreakpoints"] = d.response(d.send("setExceptionBreakpoints", {"filters": []}))
        _, at["configurationDone"] = d.response(d.send("configurationDone"))
        _, at["launch"] = d.response(launch)
        stopped, at["stopped"] = d.event("stopped")
        frames, _ = d.response(d.send("stackTrace", {"threadId": stopped["body"]["threadId"], "levels": 1}))
        frame = frames["body"]["stackFrames"][0]
        ev, _ = d.response(d.send("evaluate", {"expression": "T0", "frameId": frame["id"], "context": "watch"}))
        first_line = float(ev["body"]["result"]) - wall0
        return {"total": at["stopped"] - t0, "first_line": first_line,
                **{k: v - t0 for k, v in at.items()}, "line": frame["line"]}
    finally:
        d.close()


def ours(m, project: pathlib.Path) -> dict:  # noqa: ARG001 - the server's own project
    wall0 = time.time()
    t0 = time.monotonic()
    r = m.ok("start_debug_session", {"command": f"{sys.executable} startup.py",
                                     "breakpoints": [{"file_path": "startup.py", "line": LINE}],
                                     "evaluate": ["T0"], "timeout_ms": 30000})
    total = time.monotonic() - t0
    p = r.get("pause") or {}
    if r.get("state") != "paused" or p.get("location", {}).get("line") != LINE or "values" not in p:
        raise AssertionError(f"no stop at line {LINE}: {r}")
    t_first = float(p["values"][0]["value"])
    m.ok("stop_debug_session", {"terminate": True})
    return {"total": total, "first_line": t_first - wall0}


def ms(x: float) -> str:
    return f"{x * 1000:.0f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=6)
    ap.add_argument("--before", help="another debugger-mcp binary to time beside this one")
    args = ap.parse_args()
    servers = {"ours": start("py", "brave_mode = true\n")}
    if args.before:
        mine = os.environ.get("DEBUGGER_MCP_BIN")
        os.environ["DEBUGGER_MCP_BIN"] = args.before
        try:
            servers["ours (before)"] = start("py", "brave_mode = true\n")
        finally:
            if mine is None:
                del os.environ["DEBUGGER_MCP_BIN"]
            else:
                os.environ["DEBUGGER_MCP_BIN"] = mine
    for server, _ in servers.values():
        (server.project / "startup.py").write_text(PROGRAM)
    raw_project = servers["ours"][0].project
    rows = {way: [] for way in [*servers, "raw"]}
    try:
        for i in range(args.samples):
            order = list(rows) if i % 2 == 0 else list(reversed(rows))
            for way in order:
                if way == "raw":
                    r = raw(raw_project)
                else:
                    server, m = servers[way]
                    r = ours(m, server.project)
                rows[way].append(r)
                print(way, json.dumps({k: (ms(v) if isinstance(v, float) else v) for k, v in r.items()}), flush=True)
    finally:
        for server, m in servers.values():
            m.close()
            server.stop()
            shutil.rmtree(server.tmp, ignore_errors=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} (1 min) at the end, {args.samples} samples each")
    print("| way | to the reported stop, median (min-max) ms | program's first line ran at, median ms | first line → reported stop, median ms |")
    print("|---|---|---|---|")
    for way, rs in rows.items():
        tot = [r["total"] for r in rs]
        first = [r["first_line"] for r in rs]
        rest = [r["total"] - r["first_line"] for r in rs]
        print(f"| {way} | {ms(statistics.median(tot))} ({ms(min(tot))}-{ms(max(tot))}) | {ms(statistics.median(first))} | {ms(statistics.median(rest))} |")
    phases = [k for k in rows["raw"][0] if k not in ("total", "first_line", "line")]
    print("\nraw DAP phases, median ms since the adapter was spawned: " +
          ", ".join(f"{k} {ms(statistics.median([r[k] for r in rows['raw']]))}" for k in phases))


if __name__ == "__main__":
    main()
