"""Starts the IDE stand-in (Netty + McpHttpRelay + the real cdylib + JDI callback table) once per
test session and hands tests its MCP URL. Paths come from the environment set by
scripts/test.d/jni.sh: DEBUGGER_MCP_LIB (the .so) and STANDIN_BUILD (tests/ide-standin/build)."""
import os
import subprocess
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def _env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set; run scripts/test.d/jni.sh")
    return value


class StandIn:
    def __init__(self, proc, port, project, log_path, settings):
        self.settings = settings
        self.proc = proc
        self.port = port
        self.project = project
        self.url = f"http://127.0.0.1:{port}/debugger-mcp"
        self.log_path = log_path

    def log(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()


@pytest.fixture(scope="session")
def standin():
    build = _env("STANDIN_BUILD")
    lib = _env("DEBUGGER_MCP_LIB")
    with open(os.path.join(build, "classpath")) as f:
        cp = f.read().strip()
    project = os.path.join(build, "project")
    settings = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    # Brave mode: the stand-in's confirmations are tested at the callback level (JdiTableTest).
    settings.write("brave_mode = true\nbackend_timeout_ms = 20000\n")
    settings.close()
    log = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
    env = dict(os.environ, DEBUGGER_MCP_TEST_HOOKS="1")
    proc = subprocess.Popen(
        ["java", "-cp", cp, "standin.StandIn", lib, project, settings.name, "0"],
        stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    port = None
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("STANDIN READY"):
            port = int(line.split()[2])
            break
    if port is None:
        proc.kill()
        raise RuntimeError("the stand-in did not start:\n" + open(log.name).read())
    yield StandIn(proc, port, project, log.name, settings.name)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
