"""Code that runs from another root (a container's /app, a deploy directory) debugged through a
DAP adapter with the launch entry's path mappings (issue 14 item 3: one mapping implementation
in the core for every backend). The real `debugger-mcp serve`, the Python MCP SDK, and real
debugpy running a copy of the project under another directory: the agent sets breakpoints on
project files and reads stops as project files; debugpy only ever sees the other root.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import LONG, Mcp, Server, gdb_env_check


@pytest.fixture(scope="module")
def remote():
    server = Server("findings", "brave_mode = true\n")
    other = Path(tempfile.mkdtemp(prefix="dmcp-remote-root-")).resolve()
    # The "deployed" copy: same files, another root.
    shutil.copytree(server.project, other / "app", ignore=shutil.ignore_patterns(".debugger-mcp"))
    (server.project / ".vscode").mkdir()
    (server.project / ".vscode" / "launch.json").write_text(json.dumps({
        "version": "0.2.0",
        "configurations": [{
            "name": "pets (deployed)",
            "type": "debugpy",
            "request": "launch",
            "program": str(other / "app" / "pets.py"),
            "pathMappings": [{"localRoot": "${workspaceFolder}", "remoteRoot": str(other / "app")}],
        }],
    }))
    client = Mcp(server.url)
    yield server.project, other, client
    client.close()
    server.stop()
    shutil.rmtree(other, ignore_errors=True)


def test_breakpoints_go_out_mapped_and_stops_come_back_as_project_files(remote):
    project, other, m = remote
    bp = m.ok("set_breakpoint", {"file_path": "pets.py", "line": 11})
    r = m.ok("start_debug_session", {"run_configuration": "pets (deployed)", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    loc = r["pause"]["location"]
    # The project's file, never the deployed copy's path.
    assert loc["line"] == 11 and loc["file"] == str(project / "pets.py"), loc
    assert str(other) not in m.last_text, m.last_text
    stack = m.ok("get_stack_trace")
    assert [f["file"] for f in stack["frames"][:2]] == [str(project / "pets.py")] * 2, stack
    listed = [b for b in m.ok("list_breakpoints")["breakpoints"] if b["id"] == bp["id"]]
    assert listed[0]["verified"] is True and listed[0]["hit_count"] == 1, listed
    m.ok("stop_debug_session")


@pytest.fixture(scope="module")
def remote_c():
    """gdb has no mapping of its own (its DAP takes no sourceFileMap): the binary was built in
    the other root, so gdb knows only those paths; the core maps them both ways."""
    gdb_env_check()
    server = Server("c", "brave_mode = true\n")
    other = Path(tempfile.mkdtemp(prefix="dmcp-remote-c-")).resolve()
    (other / "app").mkdir()
    shutil.copy(server.project / "prog.c", other / "app" / "prog.c")
    subprocess.run(["gcc", "-g", "-O0", "-o", "prog", "prog.c"], cwd=other / "app", check=True)
    (server.project / ".vscode").mkdir()
    (server.project / ".vscode" / "launch.json").write_text(json.dumps({
        "version": "0.2.0",
        "configurations": [{
            "name": "prog (deployed)",
            "type": "cppdbg",
            "request": "launch",
            "program": str(other / "app" / "prog"),
            "cwd": str(other / "app"),
            "sourceFileMap": {str(other / "app"): "${workspaceFolder}"},
        }],
    }))
    client = Mcp(server.url)
    yield server.project, other, client
    client.close()
    server.stop()
    shutil.rmtree(other, ignore_errors=True)


def test_gdb_binary_built_elsewhere_binds_project_breakpoints_and_stops_in_project_files(remote_c):
    project, other, m = remote_c
    m.ok("set_breakpoint", {"file_path": "prog.c", "line": 34})
    r = m.ok("start_debug_session", {"run_configuration": "prog (deployed)", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "paused", r
    loc = r["pause"]["location"]
    assert loc["line"] == 34 and loc["file"] == str(project / "prog.c"), loc
    assert str(other) not in m.last_text, m.last_text
    src = m.ok("get_source_context")
    assert "sum_squares(4)" in json.dumps(src), src
    m.ok("stop_debug_session")
