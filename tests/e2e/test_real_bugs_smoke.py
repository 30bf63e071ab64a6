"""Smoke run of the real-bugs benchmark (tests/bench/real_bugs, BENCHMARKS.md "Six real bugs"):
one real bug (cJSON 1.7.15 crashing in cJSON_DetachItemViaPointer) solved through our tools and
through `gdb -batch`, both paths asserting the answers, our path in no more calls. cJSON comes
from Debian's source package, fetched and hash-checked by scripts/setup.d/real_bugs.sh. A few
seconds; the full six-bug run is `python3 tests/bench/real_bugs/bench.py`."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from conftest import gdb_env_check, sidecar_binary

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench" / "real_bugs" / "bench.py"


def test_real_bugs_quick():
    gdb_env_check()
    p = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "DEBUGGER_MCP_BIN": sidecar_binary()})
    assert p.returncode == 0, p.stdout + p.stderr
    assert "| detach_twice | C | 2 |" in p.stdout, p.stdout
