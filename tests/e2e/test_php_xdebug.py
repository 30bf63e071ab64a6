"""PHP through Xdebug 3 end to end: the real `debugger-mcp serve` (DBGp backend beside DAP), the
Python MCP SDK, real php-cli + php-xdebug. A CLI script, web requests through `php -S`
triggered by curl (one and two at once), a busy port, code running from another root (a bind
mount in a user+mount namespace) mapped by docker-compose.yml, the watchdog ending a paused
request, JSONPath over a PHP object, and bad input.

Line numbers are those of projects/php/cli.php and src/*.php. Each server listens for Xdebug on
ports of its own ([php] port), so the suite does not depend on 9003 being free.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time

import pytest

from conftest import LONG, cleaned, output_text, served, start, var

PHP = shutil.which("php")


def free_base() -> int:
    """A port with the seven after it free (the backend's fallback range), below the range the
    kernel hands out to outgoing connections: one of those took a base found free before the
    server bound it (the server then listened on the next port, where Xdebug never called)."""
    low = 32768
    try:
        low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    for _ in range(200):
        base = random.randrange(10000, max(low, 10016) - 8, 8)
        ok = True
        for p in range(base, base + 8):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError("no free port range")


def settings(port: int, extra: str = "") -> str:
    return f"brave_mode = true\n{extra}\n[php]\nport = {port}\nconnect_timeout_ms = 15000\n"


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


class WebServer:
    """`php -S` with Xdebug pointed at the debugger's port (start_with_request=trigger: only
    requests carrying the XDEBUG_SESSION cookie, which curl triggers get, are debugged)."""

    def __init__(self, docroot, xdebug_port: int, wrap: list[str] | None = None, workers: int = 2):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        cmd = [
            PHP, "-d", "xdebug.mode=debug", "-d", "xdebug.start_with_request=trigger",
            "-d", "xdebug.client_host=127.0.0.1", "-d", f"xdebug.client_port={xdebug_port}",
            "-S", f"127.0.0.1:{self.port}", "-t", str(docroot),
        ]
        env = {**os.environ, "PHP_CLI_SERVER_WORKERS": str(workers)}
        env.pop("XDEBUG_MODE", None)
        # Its own process group: `php -S` forks its workers, which outlive a signal to it alone.
        self.proc = subprocess.Popen(
            (wrap or []) + cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("php -S did not start")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


def values(r: dict) -> list:
    return [x["value"] for x in r["matches"]]


# ---- a CLI script ------------------------------------------------------------------------------


def test_cli_script_breakpoint_variables_jsonpath_step_and_output(php):
    project, m, _ = php
    r = m.pause_at("cli.php", 4, {"command": "php cli.php"})
    sid = r["session_id"]
    assert r["name"] == "cli.php", r
    assert r["pause"]["reason"] == "breakpoint" and r["pause"]["location"]["file"] == str(project / "cli.php"), r
    vs = m.ok("get_variables", {"session_id": sid})["variables"]
    order = var(vs, "$order")
    # An object reads by its contents (the core's preview), its secret key still redacted.
    assert order["value"].startswith("Order(id=42, items=[Item, Item, Item], customer=['name' => \"Ada\"") and order["type"] == "Order", order
    assert "hunter2" not in order["value"], order
    # JSONPath over a PHP object: `order` and `$order` both name it; members are keys.
    q = m.ok("expand_variable", {"path": "order", "filter": "$.items[?@.qty > 1].sku"})
    assert values(q) == ["B-2", "C-3"], q
    q = m.ok("expand_variable", {"path": "$order", "filter": "$..price"})
    assert values(q) == [2.5, 10, 1], q
    # Redaction works on PHP arrays too.
    q = m.ok("expand_variable", {"path": "$order->customer", "filter": "$.password"})
    assert "hunter2" not in str(q), q
    e = m.ok("evaluate_expression", {"session_id": sid, "expression": "count($order->items) * 100"})
    assert e["result"]["value"] == "300", e
    m.ok("set_variable", {"session_id": sid, "path": "$order->items[2]->qty", "new_value": "70"})
    s = m.ok("step_into", {"session_id": sid, "timeout_ms": LONG})
    assert s["location"]["file"] == str(project / "src/lib.php") and s["location"]["line"] == 30, s
    done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
    assert done["state"] == "stopped", done
    # 2.5 + 30 + 70: the value set reached the program.
    assert "total=102.5" in output_text(m, sid, expect="total="), output_text(m, sid)


def test_launch_json_php_entry_and_presets(php):
    project, m, _ = php
    cfgs = {c["name"]: c for c in m.ok("list_run_configurations")["configurations"]}
    assert cfgs["Run cli.php"]["type"] == "php" and "Listen for Xdebug" in cfgs, cfgs
    r = m.ok("start_debug_session", {"run_configuration": "Run cli.php", "stop_on_entry": True, "wait_for_pause": True, "timeout_ms": LONG})
    assert r["pause"]["reason"] == "entry" and r["pause"]["location"] == {**r["pause"]["location"], "file": str(project / "cli.php"), "line": 2}, r


# ---- web requests --------------------------------------------------------------------------------


def test_web_request_through_php_s_triggered_by_curl(php):
    project, m, port = php
    web = WebServer(project / "src", port)
    try:
        r = m.pause_at("src/index.php", 5, {"command": f"curl -s {web.url('/api/checkout')}"})
        sid = r["session_id"]
        assert r["name"] == "GET /api/checkout", r
        uri = var(m.ok("get_variables", {"session_id": sid})["variables"], "$uri")
        assert uri["value"] == '"/api/checkout"', uri
        done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
        assert done["state"] == "stopped", done
        # The request's output (Xdebug's copy of its stdout) is the session's console output,
        # once (curl prints the same response; it is not added a second time).
        out = output_text(m, sid, expect="total")
        assert out.count('"total":39.5') == 1, out
    finally:
        web.stop()


def test_two_concurrent_requests_are_two_sessions_named_by_what_ran(php):
    project, m, port = php
    # Two servers (php -S handles one request at a time), one trigger sending both requests.
    webs = [WebServer(project / "src", port), WebServer(project / "src", port)]
    try:
        m.ok("set_breakpoint", {"file_path": "src/index.php", "line": 5})
        cmd = f"curl -s {webs[0].url('/orders/1')} & curl -s {webs[1].url('/orders/2')} & wait"
        m.ok("start_debug_session", {"command": cmd, "wait_for_pause": True, "timeout_ms": LONG})
        deadline = time.monotonic() + 30
        while True:
            live = [s for s in m.ok("list_debug_sessions")["sessions"] if s["state"] == "paused"]
            if len(live) == 2 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert sorted(s["name"] for s in live) == ["GET /orders/1", "GET /orders/2"], live
        # Each is its own session: its own variables, resumed on its own.
        for s in live:
            uri = var(m.ok("get_variables", {"session_id": s["id"]})["variables"], "$uri")
            assert uri["value"] == '"' + s["name"][4:] + '"', (s, uri)
        for s in live:
            assert m.ok("resume", {"session_id": s["id"], "timeout_ms": LONG})["state"] == "stopped"
    finally:
        for w in webs:
            w.stop()


def test_a_request_after_values_were_read_stops_again_in_the_same_php_worker(php):
    """PHP servers (php -S, php-fpm, mod_php) serve request after request in one process. Xdebug
    (3.2 at least) keeps pointing at the frame a variable was last read in (property_get) after
    the request ends, and the next request's read of a superglobal (how a session learns its
    `GET /uri` name) followed that pointer: the worker crashed and the request never stopped.
    One worker here, so the second request surely lands where the first read its values."""
    project, m, port = php
    web = WebServer(project / "src", port, workers=1)
    try:
        m.ok("set_breakpoint", {"file_path": "src/index.php", "line": 5})
        for n in (1, 2):
            r = m.ok("start_debug_session", {"command": f"curl -s {web.url(f'/orders/{n}')}", "wait_for_pause": True, "timeout_ms": LONG})
            assert r["state"] == "paused" and r["name"] == f"GET /orders/{n}", r
            sid = r["session_id"]
            assert m.ok("evaluate_expression", {"session_id": sid, "expression": "$uri"})["result"]["value"] == f'"/orders/{n}"'
            assert m.ok("resume", {"session_id": sid, "timeout_ms": LONG})["state"] == "stopped"
    finally:
        web.stop()


# ---- ports, other roots, the watchdog ----------------------------------------------------------


def test_busy_port_falls_back_to_the_next_and_the_trigger_gets_it():
    base = free_base()
    busy = socket.socket()
    busy.bind(("127.0.0.1", base))
    busy.listen()
    server, m = start("php", settings(base))
    try:
        r = m.ok("start_debug_session", {"command": "php -r 'echo getenv(\"XDEBUG_CONFIG\"), PHP_EOL;'", "wait_for_pause": True, "timeout_ms": LONG})
        assert r["state"] == "stopped", r
        assert f"client_port={base + 1}" in output_text(m, r["session_id"], expect="client_port"), r
        # A web server set to connect to the busy port (its client_port nobody may change): the
        # request ends without a connection, and the error says who holds that port.
        project = server.project
        web = WebServer(project / "src", base)
        try:
            e = m.err("start_debug_session", {"command": f"curl -s {web.url('/index.php')}", "wait_for_pause": True, "timeout_ms": LONG})
            assert f"port {base}, where Xdebug connects unless told otherwise, is held by process {os.getpid()}" in e, e
            assert f"the server listens on {base + 1}" in e, e
        finally:
            web.stop()
    finally:
        m.close()
        assert server.stop() == 0
        busy.close()


UNSHARE = shutil.which("unshare")


def test_code_under_another_root_mapped_by_docker_compose_and_unmapped_paths_said():
    """The web server runs the project's src/ as /mnt/www/html (a bind mount inside a user+mount
    namespace, as a container would); docker-compose.yml says so. Breakpoints go out mapped,
    stops come back as project paths; a file only the server has is reported unmapped."""
    if not UNSHARE:
        pytest.fail("unshare is missing (apt-get install util-linux)")
    base = free_base()
    server, m = start("php", settings(base), prepare=lambda p: (p / "docker-compose.yml").write_text(
        "services:\n  app:\n    image: php:8.2-apache\n    volumes:\n      - ./src:/mnt/www/html\n"))
    project = server.project
    script = (
        "mount -t tmpfs tmpfs /mnt && mkdir -p /mnt/www/html /mnt/www/extra && "
        f"mount --bind {project / 'src'} /mnt/www/html && "
        "printf '<?php\\nxdebug_break();\\necho \"outside\";\\n' > /mnt/www/extra/outside.php && exec \"$@\""
    )
    web = WebServer("/mnt/www", base, wrap=[UNSHARE, "-rm", "sh", "-c", script, "sh"])
    try:
        r = m.pause_at("src/index.php", 5, {"command": f"curl -s {web.url('/html/index.php')}"})
        loc = r["pause"]["location"]
        assert loc["file"] == str(project / "src/index.php") and loc["line"] == 5, loc
        st = m.ok("get_stack_trace", {"session_id": r["session_id"]})
        assert any(f.get("file") == str(project / "src/index.php") for f in st["frames"]), st
        m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
        r = m.ok("start_debug_session", {"command": f"curl -s {web.url('/extra/outside.php')}", "wait_for_pause": True, "timeout_ms": LONG})
        text = str(r["pause"]["location"])
        assert "/mnt/www/extra/outside.php" in text and "no mapping covers it" in text, r
        m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
    finally:
        web.stop()
        m.close()
        assert server.stop() == 0


def test_code_under_another_root_with_no_mapping_file_is_mapped_by_its_scripts_bytes():
    """As above but nothing in the project says where the code runs (no compose file, no
    launch.json: a container started elsewhere, a staging host): the request's script, read
    through Xdebug, is byte for byte the project's src/index.php, so /mnt/www/html maps onto
    src/ — a breakpoint in another file of it binds, and stops come back as project paths."""
    if not UNSHARE:
        pytest.fail("unshare is missing (apt-get install util-linux)")
    base = free_base()
    server, m = start("php", settings(base))
    project = server.project
    script = (
        "mount -t tmpfs tmpfs /mnt && mkdir -p /mnt/www/html && "
        f"mount --bind {project / 'src'} /mnt/www/html && exec \"$@\""
    )
    web = WebServer("/mnt/www", base, wrap=[UNSHARE, "-rm", "sh", "-c", script, "sh"])
    try:
        assert not list(project.glob("*compose*")) and "pathMappings" not in (project / ".vscode/launch.json").read_text()
        line = next(i for i, t in enumerate((project / "src/lib.php").read_text().splitlines(), 1) if "return $sum" in t)
        r = m.pause_at("src/lib.php", line, {"command": f"curl -s {web.url('/html/index.php')}"})
        loc = r["pause"]["location"]
        assert loc["file"] == str(project / "src/lib.php") and loc["line"] == line, r
        st = m.ok("get_stack_trace", {"session_id": r["session_id"]})
        assert [f.get("file") for f in st["frames"]][:2] == [str(project / "src/lib.php"), str(project / "src/index.php")], st
        m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
        # The next request (a new Xdebug connection) keeps the mapping.
        r = m.pause_at("src/index.php", 5, {"command": f"curl -s {web.url('/html/index.php?again')}"})
        assert r["pause"]["location"]["file"] == str(project / "src/index.php"), r
        m.ok("resume", {"session_id": r["session_id"], "timeout_ms": LONG})
    finally:
        web.stop()
        m.close()
        assert server.stop() == 0


def test_watchdog_ends_a_request_left_paused():
    base = free_base()
    server, m = start("php", settings(base, '[watchdog]\nidle_seconds = 2\naction = "stop"\n'))
    web = WebServer(server.project / "src", base)
    try:
        r = m.pause_at("src/index.php", 5, {"command": f"curl -s {web.url('/slow')}"})
        sid = r["session_id"]
        time.sleep(4)
        listed = m.ok("list_debug_sessions")
        notice = listed["watchdog"][0]
        assert notice["session_id"] == sid and notice["action"] == "stopped", listed
        assert m.ok("get_debug_session_status", {"session_id": sid})["state"] == "stopped"
    finally:
        web.stop()
        m.close()
        assert server.stop() == 0


# ---- bad input --------------------------------------------------------------------------------


def test_a_trigger_that_never_connects_names_the_port_and_the_settings():
    base = free_base()
    server, m = start("php", f"brave_mode = true\n[php]\nport = {base}\nconnect_timeout_ms = 1500\n")
    try:
        text = m.err("start_debug_session", {"command": "sleep 20", "adapter": "php"})
        assert f"127.0.0.1:{base}" in text and "xdebug.mode=debug" in text and f"client_port={base}" in text, text
        # A PHP run without the trigger's environment never connects either: said, with its output.
        text = m.err("start_debug_session", {"command": "XDEBUG_MODE=off php cli.php"})
        assert "before Xdebug connected" in text and "total=" in text, text
    finally:
        m.close()
        assert server.stop() == 0


def test_capture_shows_php_arrays_and_objects_by_their_contents(php):
    """A capture row reads like a print: a PHP array or object is shown with its contents
    (`[Item(sku="A-1", …), …]`, `['name' => "Ada", …]`), not as Xdebug's `array(3)` or a bare
    class name that takes another call to open; a secret among the keys stays redacted."""
    _, m, _ = php
    r = m.ok("capture", {
        "command": "php cli.php",
        "points": [{"file_path": "src/lib.php", "line": 32}],
        "expressions": ["$item", "$order->customer", "$order->items"],
        "max_hits": 1,
    })
    item, customer, items = [v.get("value") for v in r["hits"][0]["values"]]
    assert item.startswith("Item(") and 'sku="A-1"' in item and "price=2.5" in item, item
    assert customer.startswith("['name' => \"Ada\", 'password' => ") and "hunter2" not in customer, customer
    assert items.startswith('[Item(sku="A-1"') and items.count("Item(") == 3, items
    assert "array(" not in m.last_text and 'Item(sku="A-1"' in m.last_text, m.last_text


def test_a_php_expression_result_shows_its_contents(php):
    """An expression Xdebug evaluates (a call, not a variable by name) comes back with its
    first level inline, as a variable read does: `['name' => "Ada", …]`, not `array(2)` that no
    call can open (an eval result has no name to page it by); a secret among the keys stays
    redacted, and a nested array shows its own elements (one level further, as a variable's)."""
    _, m, _ = php
    r = m.ok("capture", {
        "command": "php cli.php",
        "points": [{"file_path": "src/lib.php", "line": 32}],
        "expressions": ["array_slice($order->customer, 0)", "array_keys($order->customer)",
                        "[$order->id, $order->customer]"],
        "max_hits": 1,
    })
    sliced, keys, nested = [v.get("value") for v in r["hits"][0]["values"]]
    assert sliced.startswith("['name' => \"Ada\", 'password' => ") and "hunter2" not in sliced, sliced
    assert keys == '["name", "password"]', keys
    assert nested == "[42, ['name' => \"Ada\", 'password' => <redacted:password>]]", nested


def test_a_php_expression_naming_a_variable_the_frame_lacks_says_which(php):
    """Xdebug answers an expression that fails with only "error evaluating code"; the usual cause
    is a variable the frame does not hold (`$this` in a function, a local of another point), so
    the error names it, and capture counts such rows as not in scope, once per point."""
    _, m, _ = php
    r = m.ok("capture", {
        "command": "php cli.php",
        "points": [{"file_path": "src/lib.php", "line": 32}],
        "expressions": ["count($this->items)", "$sum + 1"],
        "max_hits": 1,
    })
    row = r["hits"][0]["values"]
    assert row[0].get("error") == "not in scope" and row[1].get("value") is not None, row
    assert "`count($this->items)`: not in scope at src/lib.php:32" in m.last_text, m.last_text
    s = m.pause_at("src/lib.php", 32, {"command": "php cli.php"})
    e = m.err("evaluate_expression", {"session_id": s["session_id"], "expression": "count($this->items) + $nope"})
    assert "$this, $nope not defined in frame 0 ($this exists only in a method)" in e, e


def test_capture_on_php(php):
    """Issue 20's one call over DBGp: `php cli.php` triggered, each pass of a loop line
    recorded without stopping, then the script ended."""
    _, m, _ = php
    r = m.ok("capture", {
        "command": "php cli.php",
        "points": [{"file_path": "src/lib.php", "line": 32}],
        "expressions": ["$item->sku", "$sum"],
        "max_hits": 3,
    })
    rows = [[v.get("value") for v in h["values"]] for h in r["hits"]]
    assert r["end"] == "hits" and [row[0].strip("'\"") for row in rows] == ["A-1", "B-2", "C-3"], r
    assert [row[1] for row in rows] == ["0", "2.5", "32.5"], r
    assert r["hits"][0]["stack"][0].startswith("order_total"), r["hits"][0]
    assert r["state"] == "stopped", r
