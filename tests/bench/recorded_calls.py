"""Issue 18 benchmark: "which of 200 calls returns the wrong value" (tests/e2e/projects/py/calls.py
and projects/c/calls.c), solved with a recording and with the best path on the other tools, and
the cost of one recorded call on debugpy, gdb, lldb-dap and delve. Prints the figures BENCHMARKS.md quotes.

Run: CARGO_TARGET_DIR=target python3 tests/bench/recorded_calls.py (after `cargo build -p debugger-mcp`).
"""

from __future__ import annotations

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))

from conftest import LONG, compile_c, start  # noqa: E402


class Meter:
    """Counts tool calls and bytes of tool text (what an agent reads)."""

    def __init__(self, m):
        self.m, self.calls, self.bytes = m, 0, 0

    def ok(self, name, args=None):
        r = self.m.ok(name, args)
        self.calls += 1
        self.bytes += len(self.m.last_text.encode())
        return r


def recording(m, command: str, where: str) -> tuple[int, int, list]:
    a = Meter(m)
    a.ok("set_breakpoint", {"function": "shipping_cost", "on_hit": "record", "max_calls": 200})
    a.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    rows = a.ok("get_call_records", {"function": "shipping_cost", "where": where})["rows"]
    return a.calls, a.bytes, rows


def stepping(m, command: str, calls: int) -> tuple[int, int]:
    """Today's general path: a breakpoint in the function, then per call step_out (its result
    is among the caller's variables) and resume. Measured on the first `calls` calls."""
    a = Meter(m)
    a.ok("set_breakpoint", {"function": "shipping_cost"})
    a.ok("start_debug_session", {"command": command, "wait_for_pause": True, "timeout_ms": LONG})
    for _ in range(calls):
        a.ok("step_out", {"timeout_ms": LONG})
        a.ok("resume", {"timeout_ms": LONG})
    return a.calls, a.bytes


def rate(m, command: str, calls: int, adapter: str | None = None, function: str = "shipping_cost") -> tuple[float, float]:
    """Wall time of the whole run without and with a recording of every call."""
    start = {"command": command, "wait_for_pause": True, "timeout_ms": LONG}
    if adapter:
        start["adapter"] = adapter
    t = time.monotonic()
    m.ok("start_debug_session", start)
    plain = time.monotonic() - t
    m.ok("set_breakpoint", {"function": function, "on_hit": "record", "max_calls": calls})
    t = time.monotonic()
    m.ok("start_debug_session", start)
    recorded = time.monotonic() - t
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    return plain, recorded


def clean(m):
    for s in m.ok("list_debug_sessions")["sessions"]:
        if s["state"] != "stopped":
            m.ok("stop_debug_session", {"session_id": s["id"]})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})


def go_200_calls(project: pathlib.Path):
    """The Go fixture's main with 200 calls of calc.Add (built once before the runs)."""
    (project / "main.go").write_text(
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/gofixture/calc"\n)\n\n'
        "func main() {\n\tsum := 0\n\tfor i := 0; i < 200; i++ {\n\t\tsum = calc.Add(sum, i)\n\t}\n"
        '\tfmt.Println("sum", sum)\n}\n'
    )


def rates_only():
    """lldb-dap (calls.c) and delve (200 calls of calc.Add): the cost of a recorded call."""
    for fixture, command, adapter, function, prepare in [
        ("c", "./calls", "lldb", "shipping_cost", compile_c),
        ("go", "go run .", None, "calc.Add", go_200_calls),
    ]:
        server, m = start(fixture, "brave_mode = true\n", prepare)
        try:
            plain, recorded = rate(m, command, 200, adapter, function)
            print(f"{adapter or 'delve'}: run {plain:.2f} s plain, {recorded:.2f} s recording 200 calls: "
                  f"{200 / max(recorded - plain, 1e-3):.0f} recorded calls/s "
                  f"({(recorded - plain) / 200 * 1000:.1f} ms each)")
        finally:
            m.close()
            server.stop()


def main():
    if "--rates-only" in sys.argv:
        return rates_only()
    for fixture, command, where, prepare in [
        ("py", "python3 calls.py", "-> None", None),
        ("c", "./calls", "-> -", compile_c),
    ]:
        server, m = start(fixture, "brave_mode = true\n", prepare)
        try:
            n, b, rows = recording(m, command, where)
            print(f"{fixture}: recording: {n} tool calls, {b} B of tool text -> {rows}")
            clean(m)
            n, b = stepping(m, command, 10)
            print(f"{fixture}: step_out+resume per call: {n} tool calls, {b} B for 10 calls "
                  f"-> ~{2 + 2 * 200} calls, ~{b * 200 // 10 // 1000} KB for 200")
            clean(m)
            plain, recorded = rate(m, command, 200)
            print(f"{fixture}: run {plain:.2f} s plain, {recorded:.2f} s recording 200 calls: "
                  f"{200 / max(recorded - plain, 1e-3):.0f} recorded calls/s "
                  f"({(recorded - plain) / 200 * 1000:.1f} ms each)")
        finally:
            m.close()
            server.stop()
    rates_only()


if __name__ == "__main__":
    main()
