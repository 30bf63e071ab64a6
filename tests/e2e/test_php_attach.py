"""Attaching to PHP that already runs (issue 29 on PHP), end to end: the real `debugger-mcp
serve`, the Python MCP SDK, a real `php -S` with Xdebug 3 on `start_with_request=trigger`,
started outside the server as a user's service would be. By pid (the server listens where the
process's Xdebug connects and answers at once how to send a request), by the address Xdebug
connects to, with the request sent in the same call (`attach` + `command`), refusals naming the
setting to change, a command whose `&` the shell would split (issue 26 item 3), and capture
attached with the request as command: the rows and the request's answer in one call.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time

import pytest

from conftest import LONG, cleaned, served, var

sys.path.insert(0, os.path.dirname(__file__))
from test_php_xdebug import PHP, WebServer, free_base, settings  # noqa: E402


@pytest.fixture(scope="module")
def php_mod():
    if not PHP:
        pytest.fail("php is missing: scripts/setup.d/php.sh installs php-cli and php-xdebug")
    port = free_base()
    for project, m in served("php", settings(port)):
        yield project, m, port


@pytest.fixture
def php(php_mod):
    project, m, port = php_mod
    for _ in cleaned((project, m)):
        yield project, m, port


def curl(url: str) -> subprocess.Popen:
    """A request carrying Xdebug's trigger cookie, sent as the agent's own shell would."""
    return subprocess.Popen(
        ["curl", "-s", "-m", "60", "-b", "XDEBUG_SESSION=agent", url], stdout=subprocess.PIPE, text=True
    )


def test_attach_by_pid_answers_at_once_and_a_request_sent_after_stops_in_the_handler(php):
    project, m, port = php
    # Xdebug connects to a port of its own, not the server's [php] port: the attach listens there.
    web = WebServer(project / "src", port + 5)
    try:
        m.ok("set_breakpoint", {"file_path": "src/index.php", "line": 5})
        t0 = time.monotonic()
        r = m.ok("start_debug_session", {"attach": str(web.proc.pid)})
        assert time.monotonic() - t0 < 10, "the attach answers without waiting for a request"
        assert r["state"] == "running", r
        msg = r["message"]
        assert f"listening for Xdebug from pid {web.proc.pid}" in msg and f"port {port + 5}" in msg, msg
        assert "requests it serves with the trigger stop here" in msg and "wait_for_pause" in msg, msg
        sid = r["session_id"]
        req = curl(web.url("/api/attached?x=1"))
        p = m.ok("wait_for_pause", {"session_id": sid, "timeout_ms": LONG})
        assert p["state"] == "paused" and p["location"]["line"] == 5, p
        assert p["location"]["file"] == str(project / "src/index.php"), p
        uri = var(m.ok("get_variables", {"session_id": sid})["variables"], "$uri")
        assert uri["value"] == '"/api/attached?x=1"', uri
        # Ending the session detaches: the request runs on and is answered.
        m.ok("stop_debug_session", {"session_id": sid})
        out, _ = req.communicate(timeout=30)
        assert '"total":' in out, out
        # The service still serves.
        again = subprocess.run(["curl", "-s", "-m", "20", web.url("/x")], capture_output=True, text=True)
        assert '"uri":"\\/x"' in again.stdout, again
    finally:
        web.stop()


def test_attach_by_the_address_xdebug_connects_to(php):
    """A PHP process whose Xdebug connects to a port of its own (a container's or another host's
    client_port): a request sent without saying so is refused naming `attach` with that address;
    the address alone (no adapter: nothing listens there and the project is PHP) is listened
    at, and the request sent after stops."""
    project, m, port = php
    web = WebServer(project / "src", port + 6)
    try:
        m.ok("set_breakpoint", {"file_path": "src/index.php", "line": 5})
        e = m.err("start_debug_session", {"command": f"curl -s {web.url('/elsewhere')}", "wait_for_pause": True, "timeout_ms": LONG})
        assert "connects to another port" in e and "attach: '127.0.0.1:PORT'" in e, e
        r = m.ok("start_debug_session", {"attach": f"127.0.0.1:{port + 6}"})
        assert r["state"] == "running" and "wait_for_pause" in r["message"], r
        req = curl(web.url("/by/address"))
        p = m.ok("wait_for_pause", {"session_id": r["session_id"], "timeout_ms": LONG})
        assert p["state"] == "paused" and p["location"]["line"] == 5, p
        m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
        req.communicate(timeout=30)
    finally:
        web.stop()


def test_attach_with_command_sends_the_request_in_the_same_call(php):
    project, m, port = php
    web = WebServer(project / "src", port + 5)
    try:
        m.ok("set_breakpoint", {"file_path": "src/index.php", "line": 5})
        r = m.ok(
            "start_debug_session",
            {"attach": str(web.proc.pid), "command": f"curl -s '{web.url('/one/call?a=1&b=2')}'", "wait_for_pause": True, "timeout_ms": LONG},
        )
        assert r["state"] == "paused" and r["pause"]["location"]["line"] == 5, r
        uri = var(m.ok("get_variables", {"session_id": r["session_id"]})["variables"], "$uri")
        assert uri["value"] == '"/one/call?a=1&b=2"', uri
        # The request ends; the attach listens on for the next (wait_for_pause {command}).
        done = m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
        assert done["state"] == "running" and done["trigger"]["status"] == "exited with code 0", done
        assert '"uri":"\\/one\\/call?a=1&b=2"' in done["trigger"]["output"], done
    finally:
        web.stop()


def test_attach_refusals_name_what_to_change(php):
    project, m, port = php
    # Not PHP at all.
    sleeper = subprocess.Popen(["sleep", "60"])
    # PHP without Xdebug (-n: no ini files, so no zend_extension).
    nox = subprocess.Popen([PHP, "-n", "-r", "sleep(60);"])
    # Xdebug loaded, but not in debug mode.
    develop = subprocess.Popen([PHP, "-d", "xdebug.mode=develop", "-r", "sleep(60);"], env={k: v for k, v in os.environ.items() if k != "XDEBUG_MODE"})
    try:
        time.sleep(0.5)
        e = m.err("start_debug_session", {"adapter": "php", "attach": str(sleeper.pid)})
        assert f"process {sleeper.pid} is `sleep`, not PHP" in e, e
        e = m.err("start_debug_session", {"adapter": "php", "attach": str(nox.pid)})
        assert "does not load Xdebug" in e and "xdebug.mode=debug" in e, e
        e = m.err("start_debug_session", {"attach": str(develop.pid)})
        assert "xdebug.mode=develop" in e and "-d xdebug.mode=debug" in e, e
        # A port given where a pid goes (what an agent tried first): the address form is named.
        n = next(n for n in range(65535, 60000, -1) if not os.path.exists(f"/proc/{n}"))
        e = m.err("start_debug_session", {"adapter": "php", "attach": str(n)})
        assert f"no process {n}" in e and f'attach "127.0.0.1:{n}"' in e, e
        # An address another program listens at, without an adapter: the adapters that attach
        # there are named, PHP's too (this is a PHP project, but Xdebug does not listen).
        with socket.socket() as other:
            other.bind(("127.0.0.1", 0))
            other.listen()
            busy = other.getsockname()[1]
            e = m.err("start_debug_session", {"attach": f"127.0.0.1:{busy}"})
        assert "'php' (listen there for a PHP process's Xdebug)" in e, e
        assert m.ok("list_debug_sessions")["sessions"] == [], "a refused attach leaves nothing behind"
    finally:
        for p in (sleeper, nox, develop):
            p.kill()
            p.wait()


def test_an_ampersand_inside_a_url_is_refused_naming_the_fix(php):
    _, m, _ = php
    e = m.err("start_debug_session", {"command": "curl http://127.0.0.1:9/next?job=sync-invoices&after=2026-12-08T10:50"})
    assert "the shell splits `http://127.0.0.1:9/next?job=sync-invoices&after=2026-12-08T10:50` at `&`" in e, e
    assert "quote it ('http://127.0.0.1:9/next?job=sync-invoices&after=2026-12-08T10:50')" in e, e
    assert m.ok("list_debug_sessions")["sessions"] == [], "nothing was started"
    e = m.err("capture", {"command": "curl http://h/p?a=1&b=2", "points": [{"file_path": "src/index.php", "line": 5}]})
    assert "the shell splits `http://h/p?a=1&b=2` at `&`" in e, e


def test_capture_attached_to_php_s_answers_the_rows_and_the_request_in_one_call(php):
    project, m, port = php
    web = WebServer(project / "src", port + 5)
    try:
        r = m.ok("capture", {
            "attach": str(web.proc.pid),
            "command": f"curl -s '{web.url('/cap?a=1')}'",
            "points": [{"file_path": "src/index.php", "line": 5}],
            "expressions": ["$uri"],
        })
        assert [h["values"][0]["value"] for h in r["hits"]] == ['"/cap?a=1"'], r
        assert r["trigger"]["status"] == "exited with code 0" and '"total":' in r["trigger"]["output"], r
        assert r["state"] == "stopped" and "program ended" not in r["message"], r
        assert m.ok("list_breakpoints", {})["breakpoints"] == [], "capture's points stay"
        # The service serves on, a request with the trigger cookie included: nothing stops it.
        again = subprocess.run(["curl", "-s", "-m", "20", "-b", "XDEBUG_SESSION=agent", web.url("/x")], capture_output=True, text=True)
        assert '"uri":"\\/x"' in again.stdout, again
    finally:
        web.stop()


def test_a_read_of_running_php_without_points_is_refused_naming_the_request_to_send(php):
    """capture {attach, expressions} pauses the process once; Xdebug cannot interrupt PHP, so it
    is refused before the attach, naming capture with a request and points instead."""
    project, m, port = php
    web = WebServer(project / "src", port + 5)
    try:
        e = m.err("capture", {"attach": str(web.proc.pid), "expressions": ["$uri"]})
        assert "Xdebug cannot interrupt" in e and "command" in e and "points" in e, e
        assert m.ok("list_debug_sessions")["sessions"] == [], "nothing was attached"
        again = subprocess.run(["curl", "-s", "-m", "20", web.url("/x")], capture_output=True, text=True)
        assert '"uri":"\\/x"' in again.stdout, again
    finally:
        web.stop()
