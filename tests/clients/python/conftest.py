"""Fixtures: a real `debugger-mcp serve` process per test module (the sidecar binary, not a
test double), with an empty temporary project directory.

The binary is DEBUGGER_MCP_BIN, else $CARGO_TARGET_DIR/debug/debugger-mcp, else
<repo>/target/debug/debugger-mcp (scripts/test.d/transport.sh builds it first).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
EXPECTED_TOOLS = set(json.loads((REPO / "tests/clients/expected_tools.json").read_text())["tools"])


def sidecar_binary() -> str:
    if os.environ.get("DEBUGGER_MCP_BIN"):
        return os.environ["DEBUGGER_MCP_BIN"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    path = target / "debug" / "debugger-mcp"
    if not path.exists():
        pytest.exit(f"sidecar binary not found at {path}: run `cargo build -p debugger-mcp` or set DEBUGGER_MCP_BIN", 2)
    return str(path)


class Sidecar:
    def __init__(self, *extra: str, settings: str = "", files: dict[str, str] | None = None):
        self.project = tempfile.mkdtemp(prefix="dmcp-proj-")
        # A settings file in the project (empty unless given) keeps the user's ~/.config out of
        # the tests.
        pathlib.Path(self.project, "debugger-mcp.toml").write_text(settings)
        for name, text in (files or {}).items():
            pathlib.Path(self.project, name).write_text(text)
        self.proc = subprocess.Popen(
            [sidecar_binary(), "serve", "--project", self.project, "--listen", "127.0.0.1:0", *extra],
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
            text=True,
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"first stdout line of the sidecar is not its URL: {line!r}")
        self.url = line
        self.base = line.rsplit("/debugger-mcp", 1)[0]

    def stop(self) -> int:
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture(scope="module")
def sidecar():
    s = Sidecar()
    yield s
    code = s.stop()
    assert code == 0, f"sidecar exited with {code} on SIGTERM (graceful shutdown expected)"


@pytest.fixture(scope="module")
def sidecar_with_token():
    s = Sidecar("--token", "py-test-token")
    yield s
    s.stop()
