"""The command-line MCP client the agent benchmarks give agents (tests/bench/agents/mcpc): `start`
prints what a real MCP client puts before its model (instructions and tools), so an agent needs no
listing call; `call TOOL -` takes the JSON from stdin, so a command holding quotes needs no shell
escaping; the session survives between calls; `stop` ends the server."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

from conftest import PROJECTS, REPO, sidecar_binary

MCPC = REPO / "tests" / "bench" / "agents" / "mcpc"


def mcpc(project, *args, stdin=None):
    env = dict(os.environ, DEBUGGER_MCP_BIN=sidecar_binary())
    env.pop("MCPC_STATE", None)
    return subprocess.run([str(MCPC), *args], cwd=project, input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)


def test_start_lists_the_tools_and_stdin_json_keeps_its_quotes():
    tmp = tempfile.mkdtemp(prefix="dmcp-e2e-mcpc-")
    project = pathlib.Path(tmp, "py")
    shutil.copytree(PROJECTS / "py", project)
    try:
        up = mcpc(project, "start", str(project))
        assert up.returncode == 0, up.stderr
        assert "# Instructions" in up.stdout and "## capture(" in up.stdout, up.stdout[:500]
        # From a subdirectory: the state file of the project is found again.
        sub = project / "sub"
        sub.mkdir()
        condition = "item['name'] == \"it's\""
        args = json.dumps({"file_path": "app.py", "line": 12, "condition": condition})
        r = mcpc(sub, "call", "set_breakpoint", "-", stdin=args)
        assert r.returncode == 0, r.stdout + r.stderr
        listed = mcpc(sub, "call", "list_breakpoints")
        assert listed.returncode == 0, listed.stdout + listed.stderr
        assert "app.py:12" in listed.stdout and f"condition: {condition}" in listed.stdout, listed.stdout
        bad = mcpc(sub, "call", "set_breakpoint", "-", stdin="{not json")
        assert bad.returncode != 0 and "not JSON" in (bad.stdout + bad.stderr)
    finally:
        down = mcpc(project, "stop")
        shutil.rmtree(tmp, ignore_errors=True)
    assert down.returncode == 0 and "server stopped" in down.stdout, down.stdout + down.stderr


def test_an_expired_session_is_opened_again_and_says_what_was_lost():
    # The eighth set: the host's MCP session expired (rmcp's five idle minutes) before the
    # agent's first call; mcpc answered HTTP 404 to every call and the agent opened a session
    # by hand with curl. The transport's rule is the client's: on 404, initialize again.
    tmp = tempfile.mkdtemp(prefix="dmcp-e2e-mcpc-")
    project = pathlib.Path(tmp, "py")
    shutil.copytree(PROJECTS / "py", project)
    (project / "debugger-mcp.toml").write_text("[http]\nsession_idle_ms = 1500\n")
    try:
        assert mcpc(project, "start", str(project)).returncode == 0
        r = mcpc(project, "call", "set_breakpoint", json.dumps({"file_path": "app.py", "line": 12}))
        assert r.returncode == 0, r.stdout + r.stderr
        import time

        time.sleep(3)
        listed = mcpc(project, "call", "list_breakpoints")
        assert listed.returncode == 0, listed.stdout + listed.stderr
        assert "opened a new one" in listed.stderr and "gone" in listed.stderr, listed.stderr
        # The expired session took its breakpoint with it (nothing to tidy, headless).
        assert "app.py:12" not in listed.stdout, listed.stdout
        again = mcpc(project, "call", "list_breakpoints")
        assert again.returncode == 0 and "opened a new one" not in again.stderr, again.stderr
    finally:
        mcpc(project, "stop")
        shutil.rmtree(tmp, ignore_errors=True)
