"""The sidecar's command line: the exact contract other parts depend on (first stdout line is
the URL, PORT 0 picks a port), and clear errors for a missing project or a non-loopback listen
address. Runs the real binary."""

from __future__ import annotations

import pathlib
import signal
import subprocess
import tempfile

import httpx2

from conftest import sidecar_binary


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sidecar_binary(), *args], capture_output=True, text=True, timeout=20)


def test_missing_project_dir_is_a_clear_error():
    r = run("serve", "--project", "/definitely/not/here", "--listen", "127.0.0.1:0")
    assert r.returncode != 0
    assert "/definitely/not/here" in r.stderr and "project" in r.stderr, r.stderr
    assert r.stdout == "", "nothing on stdout when not serving"
    r = run("stdio", "--project", "/definitely/not/here")
    assert r.returncode != 0 and "/definitely/not/here" in r.stderr


def test_non_loopback_listen_is_refused():
    project = tempfile.mkdtemp()
    for addr in ("0.0.0.0:0", "192.168.1.20:8080", "[::]:0"):
        r = run("serve", "--project", project, "--listen", addr)
        assert r.returncode != 0, addr
        assert "non-loopback" in r.stderr, r.stderr
    r = run("serve", "--project", project, "--listen", "not-an-address")
    assert r.returncode != 0 and "--listen" in r.stderr


def test_explicit_missing_config_file_is_an_error():
    project = tempfile.mkdtemp()
    r = run("serve", "--project", project, "--config", "/nope/debugger-mcp.toml")
    assert r.returncode != 0 and "/nope/debugger-mcp.toml" in r.stderr


def test_config_file_token_applies_and_bad_settings_are_reported():
    project = pathlib.Path(tempfile.mkdtemp())
    (project / "debugger-mcp.toml").write_text('[http]\ntoken = "from-file"\n')
    p = subprocess.Popen([sidecar_binary(), "serve", "--project", str(project)], stdout=subprocess.PIPE, text=True)
    try:
        url = p.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/debugger-mcp"), url
        assert not url.endswith(":0/debugger-mcp"), "port 0 resolves to the real port"
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        assert httpx2.post(url, json=ping).status_code == 401
        ok = httpx2.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
            headers={"Authorization": "Bearer from-file", "Accept": "application/json, text/event-stream"},
        )
        assert ok.status_code == 200, ok.text
    finally:
        p.send_signal(signal.SIGINT)  # Ctrl-C is a graceful shutdown too
        assert p.wait(timeout=10) == 0
    (project / "debugger-mcp.toml").write_text("brave_mod = true\n")
    r = run("serve", "--project", str(project))
    assert r.returncode != 0 and "brave_mod" in r.stderr, r.stderr
