"""`debug_test` when the test runner itself is missing (issue 16 item 10): the agent is told
which runner is missing, what the runner printed, and the command that installs it, instead of
a bare "failed (exit code 1)". The real `debugger-mcp serve`, the Python MCP SDK, and real
debugpy under a Python environment that has debugpy but not pytest (as a project venv often is).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import Mcp, Server


@pytest.fixture(scope="module")
def no_pytest(tmp_path_factory):
    d = tmp_path_factory.mktemp("nopytest")
    venv = d / "venv"
    # No system site-packages: pytest (installed for this suite) must not be importable.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    import debugpy

    (site / "debugpy").symlink_to(pathlib.Path(debugpy.__file__).parent)
    check = subprocess.run([str(venv / "bin/python3"), "-c", "import pytest"], capture_output=True)
    assert check.returncode != 0, "the venv must not see pytest"
    bin_dir = d / "bin"
    bin_dir.mkdir()
    # A wrapper, not a symlink: Python finds its venv next to the path it was started by.
    wrapper = bin_dir / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec "{venv}/bin/python3" "$@"\n')
    wrapper.chmod(0o755)
    server = Server("findings", "brave_mode = true\n", env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    client = Mcp(server.url)
    yield client
    client.close()
    server.stop()


def test_debug_test_without_pytest_says_how_to_install_it(no_pytest):
    m = no_pytest
    r = m.ok("debug_test", {"test_id": "test_pets.py::test_feed"})
    t = m.last_text
    assert r["state"] == "stopped", r
    # What the runner printed reaches the agent, in the text it reads.
    assert "No module named" in t and "pytest" in t, t
    # And the next step: which runner is missing and how to install it.
    assert "pytest is not installed" in r["message"], r
    assert "pip install pytest" in r["message"], r
