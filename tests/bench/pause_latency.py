"""Issue 29 item 4: how long `pause` takes to answer "paused" on a running service, per backend,
launched and attached (tests/e2e/projects/attach: a threaded Python HTTP service, a Go net/http
server, a C loop). Each round: `pause` (timed, from the call to its answer, stop result
included), `resume {wait: false}`, then a random 0.2-0.7 s of running, so the pause lands
anywhere in the program's idle loop. Prints a table BENCHMARKS.md quotes: how long the start
took to answer, the session's first pause (the slow one, if any), the median and max of all.

Run: CARGO_TARGET_DIR=target python3 tests/bench/pause_latency.py [--rounds N] [-k NAME]
(after `cargo build -p debugger-mcp`; DEBUGGER_MCP_BIN=... to time another build). PHP has no row: Xdebug cannot interrupt a running script,
and `pause` says so.
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))

from conftest import start  # noqa: E402
from test_attach import Service, build  # noqa: E402

PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scenarios(project: pathlib.Path):
    """(name, how to start it: returns (start_debug_session arguments, the outside process or None))."""
    go = project / "goservice" / "goservice.bin"

    def launched(command, adapter=None):
        return lambda: ({"command": command, **({"adapter": adapter} if adapter else {})}, None)

    def by_pid(argv, cwd, adapter, port_line=True):
        def run():
            svc = Service(argv, cwd, port_line=port_line)
            return {"attach": str(svc.pid), "adapter": adapter}, svc
        return run

    def debugpy_listen():
        port = free_port()
        svc = Service([PYTHON, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", "service.py"], project)
        return {"attach": f"127.0.0.1:{port}", "adapter": "debugpy"}, svc

    def dlv_headless():
        port = free_port()
        svc = Service(["dlv", "exec", "--headless", f"--listen=127.0.0.1:{port}", "--accept-multiclient",
                       "--continue", "--api-version=2", str(go)], go.parent)
        return {"attach": f"127.0.0.1:{port}", "adapter": "delve"}, svc

    return [
        ("debugpy launched (ThreadingHTTPServer)", launched(f"{PYTHON} service.py")),
        ("debugpy attached by pid", by_pid([PYTHON, "service.py"], project, "debugpy")),
        ("debugpy --listen by address", debugpy_listen),
        ("delve launched (net/http)", launched(str(go), "delve")),
        ("delve attached by pid", by_pid([str(go)], go.parent, "delve")),
        ("dlv --headless by address", dlv_headless),
        ("gdb launched (C loop)", launched("./loop beat-bench", "gdb")),
        ("gdb attached by pid", by_pid([str(project / "loop"), "beat-bench"], project, "gdb", port_line=False)),
        ("lldb-dap launched (C loop)", launched("./loop beat-bench", "lldb")),
        ("lldb-dap attached by pid", by_pid([str(project / "loop"), "beat-bench"], project, "lldb", port_line=False)),
    ]


def measure(m, rounds: int) -> list[float]:
    took = []
    for _ in range(rounds):
        time.sleep(random.uniform(0.2, 0.7))
        t0 = time.monotonic()
        r = m.ok("pause", {"timeout_ms": 10000})
        took.append(time.monotonic() - t0)
        if r["state"] != "paused":
            raise AssertionError(f"pause answered {r}")
        m.ok("resume", {"wait": False})
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("-k", default="", help="only scenarios whose name contains this")
    ap.add_argument("--verbose", action="store_true", help="each round's time too")
    args = ap.parse_args()
    server, m = start("attach", "brave_mode = true\n", prepare=build)
    project = server.project
    print("| Backend, how | start answered (ms) | first pause (ms) | median (ms) | max (ms) | rounds |")
    print("|---|---|---|---|---|---|")
    try:
        for name, how in scenarios(project):
            if args.k not in name:
                continue
            svc = None
            try:
                start_args, svc = how()
                t0 = time.monotonic()
                started = m.ok("start_debug_session", start_args)
                start_ms = (time.monotonic() - t0) * 1000
                if started["state"] == "paused":
                    m.ok("resume", {"wait": False})
                took = measure(m, args.rounds)
                print(f"| {name} | {start_ms:.0f} | {took[0] * 1000:.0f} | {statistics.median(took) * 1000:.0f} | "
                      f"{max(took) * 1000:.0f} | {len(took)} |", flush=True)
                if args.verbose:
                    print("  each (ms):", " ".join(f"{t * 1000:.0f}" for t in took), flush=True)
            except Exception as e:  # noqa: BLE001 - a row says what failed, the rest still run
                print(f"| {name} | failed: {e} | | | | |", flush=True)
            finally:
                try:
                    m.ok("stop_debug_session", {"terminate": True})
                except Exception:  # noqa: BLE001 - already gone
                    pass
                if svc:
                    svc.end()
    finally:
        m.close()
        server.stop()
        shutil.rmtree(server.tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
