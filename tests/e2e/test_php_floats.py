"""PHP floats shown exactly (issue 26): Xdebug 3.2 writes a float in a DBGp property with
PHP's `precision` (14 significant digits), so 50 - 1e-14 read `50` beside a `>= 50.0` that
was false. Every value the PHP backend shows is the shortest text that reads back as the same
double, and the program, which prints with its own precision, never notices. Same server
fixture as test_php_xdebug.py; lines are those of projects/php/floats.php and precision.php.
"""

from __future__ import annotations

import base64
import socket
import threading

import pytest

from conftest import LONG, line_of, output_text, var
from test_php_xdebug import php, php_mod  # noqa: F401 - pytest fixtures

ECHO = 'echo "sum=" . $sum'


def test_evaluated_and_local_floats_are_exact_and_the_program_prints_as_before(php):
    project, m, _ = php
    line = line_of(project, "floats.php", ECHO)
    r = m.pause_at("floats.php", line, {"command": "php floats.php"})
    sid = r["session_id"]
    ev = lambda e: m.ok("evaluate_expression", {"session_id": sid, "expression": e})["result"]["value"]  # noqa: E731
    assert ev("$subtotal->toFloat()") == "49.99999999999999"
    assert ev("$subtotal->toFloat() >= 50.0") == "false"
    assert ev("0.1 + 0.2") == "0.30000000000000004"
    assert ev("$tenth") == "0.1"
    # Code the expression runs converts floats as the program does (precision 14).
    assert ev('"total " . $sum') == '"total 0.3"'
    vs = m.ok("get_variables", {"session_id": sid})["variables"]
    assert var(vs, "$sum")["value"] == "0.30000000000000004", vs
    assert var(vs, "$tenth")["value"] == "0.1", vs
    q = m.ok("expand_variable", {"path": "$prices"})
    assert "0.30000000000000004" in m.last_text and "1.5" in m.last_text, q
    assert "49.99999999999999" in str(m.ok("expand_variable", {"path": "$subtotal"})), m.last_text
    done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
    assert done["state"] == "stopped", done
    out = output_text(m, sid, expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_capture_rows_and_a_start_s_values_show_exact_floats(php):
    project, m, _ = php
    line = line_of(project, "floats.php", ECHO)
    r = m.ok("capture", {
        "command": "php floats.php",
        "points": [{"file_path": "floats.php", "line": line}],
        "expressions": ["$sum", "$subtotal->toFloat()", "$prices"],
        "max_hits": 1,
    })
    row = [v.get("value") for v in r["hits"][0]["values"]]
    assert row[:2] == ["0.30000000000000004", "49.99999999999999"], r
    assert "0.30000000000000004" in row[2], row
    started = m.ok("start_debug_session", {
        "command": "php floats.php",
        "breakpoints": [{"file_path": "floats.php", "line": line}],
        "evaluate": ["$sum", "$subtotal->toFloat()"],
    })
    pause = started["pause"]
    assert [v["value"] for v in pause["values"]] == ["0.30000000000000004", "49.99999999999999"], pause
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    out = output_text(m, started["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_a_step_out_s_returned_float_is_exact(php):
    project, m, _ = php
    inside = line_of(project, "floats.php", "return $this->amount;")
    r = m.pause_at("floats.php", inside, {"command": "php floats.php"})
    m.ok("step_out", {"timeout_ms": LONG})
    shown = m.ok("get_variables", {"session_id": r["session_id"]})["variables"]
    assert var(shown, "(return)")["value"] == "49.99999999999999", shown
    assert m.ok("resume", {"timeout_ms": LONG})["state"] == "stopped"
    out = output_text(m, r["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out


def test_a_recorded_call_s_float_result_is_exact(php):
    project, m, _ = php
    m.ok("set_breakpoint", {"function": "Money::toFloat", "on_hit": "record"})
    r = m.ok("start_debug_session", {"command": "php floats.php", "wait_for_pause": True, "timeout_ms": LONG})
    assert r["state"] == "stopped", r
    out = output_text(m, r["session_id"], expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out
    rows = m.ok("get_call_records", {"function": "Money::toFloat"})["rows"]
    assert len(rows) == 1 and "-> 49.99999999999999 @floats.php:" in rows[0], rows


def test_the_program_prints_with_the_precision_it_set_and_an_expression_changed(php):
    """The program sets precision 12; an expression evaluated (with side effects allowed) calls
    a function of it that sets 10. Reads stay exact, and the program prints with 12, then 10,
    as it would have had it called that function itself."""
    project, m, _ = php
    first = line_of(project, "precision.php", 'echo "a="')
    r = m.pause_at("precision.php", first, {"command": "php precision.php"})
    sid = r["session_id"]
    third = lambda: var(m.ok("get_variables", {"session_id": sid})["variables"], "$third")["value"]  # noqa: E731
    assert third() == "0.3333333333333333"
    s = m.ok("step_over", {"session_id": sid, "timeout_ms": LONG})
    assert s["location"]["line"] == first + 1, s
    assert "a=0.333333333333\n" in output_text(m, sid, expect="a=")
    ev = m.ok("evaluate_expression", {"session_id": sid, "expression": "useTenDigits()", "allow_side_effects": True})
    assert ev["result"]["value"] == '"ten"', ev
    assert third() == "0.3333333333333333"
    ev = m.ok("evaluate_expression", {"session_id": sid, "expression": "$third * 3 - 1"})
    assert ev["result"]["value"] == "0", ev
    # What the debugger keeps for the switch is gone before anything of the program runs.
    ev = m.ok("evaluate_expression", {"session_id": sid, "expression": "array_key_exists('__debugger_mcp_precision', $GLOBALS)"})
    assert ev["result"]["value"] == "false", ev
    done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
    assert done["state"] == "stopped", done
    out = output_text(m, sid, expect="b=")
    assert "a=0.333333333333\nb=0.3333333333\n" in out, out


class FailingPrecisionReads:
    """A DBGp relay between Xdebug and the server that answers the server's first `failures`
    reads of `precision` (an `eval` of `ini_get('precision')`) with Xdebug's own error for an
    eval that failed (code 206), instead of passing them on: a transient failure, on demand."""

    def __init__(self, server_port: int, failures: int):
        self.server_port, self.failures, self.failed = server_port, failures, 0
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        xdebug, _ = self.listener.accept()
        self.listener.close()
        server = socket.create_connection(("127.0.0.1", self.server_port))
        threading.Thread(target=self._relay, args=(self._to_server, xdebug, server), daemon=True).start()
        self._relay(self._to_xdebug, server, xdebug)

    @staticmethod
    def _relay(loop, source, dest):
        """Runs one direction until its source ends, then ends the other side's reading too."""
        try:
            loop(source, dest)
        except OSError:
            pass
        for s in (source, dest):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        source.close()

    def _to_xdebug(self, server, xdebug):
        buf = b""
        while chunk := server.recv(65536):
            buf += chunk
            while b"\0" in buf:
                cmd, buf = buf.split(b"\0", 1)
                words = cmd.decode().split(" ")
                code = base64.b64decode(words[-1]).decode() if words[0] == "eval" and "--" in words else ""
                if "ini_get('precision')" in code and self.failed < self.failures:
                    self.failed += 1
                    tx = words[words.index("-i") + 1]
                    xml = (
                        '<?xml version="1.0" encoding="iso-8859-1"?>\n<response xmlns="urn:debugger_protocol_v1" '
                        f'command="eval" transaction_id="{tx}"><error code="206"><message>'
                        "<![CDATA[error evaluating code]]></message></error></response>"
                    ).encode()
                    with self.lock:
                        server.sendall(str(len(xml)).encode() + b"\0" + xml + b"\0")
                else:
                    xdebug.sendall(cmd + b"\0")

    def _to_server(self, xdebug, server):
        """Xdebug's packets (`length NUL xml NUL`) passed on whole, never split by an injected one."""
        buf = b""
        while chunk := xdebug.recv(65536):
            buf += chunk
            while True:
                head, sep, rest = buf.partition(b"\0")
                if not sep or len(rest) < int(head) + 1:
                    break
                packet, buf = buf[: len(head) + 2 + int(head)], rest[int(head) + 1:]
                with self.lock:
                    server.sendall(packet)


@pytest.mark.parametrize("failures", [1, 2])
def test_reads_stay_exact_after_a_failed_read_of_the_program_s_precision(php, failures):
    """Xdebug answering one read of `precision` with an error (retried at once) or two (the
    next read asks again) leaves floats exact for the rest of the session, not 14 digits."""
    project, m, port = php
    relay = FailingPrecisionReads(port, failures)
    env = f"XDEBUG_CONFIG='client_host=127.0.0.1 client_port={relay.port} idekey=debugger-mcp'"
    r = m.pause_at("floats.php", line_of(project, "floats.php", ECHO), {"command": f"{env} php floats.php"})
    sid = r["session_id"]
    vs = m.ok("get_variables", {"session_id": sid})["variables"]
    if failures == 1:
        assert var(vs, "$sum")["value"] == "0.30000000000000004", vs
    ev = m.ok("evaluate_expression", {"session_id": sid, "expression": "$subtotal->toFloat()"})
    assert ev["result"]["value"] == "49.99999999999999", ev
    vs = m.ok("get_variables", {"session_id": sid})["variables"]
    assert var(vs, "$sum")["value"] == "0.30000000000000004", vs
    assert relay.failed == failures
    done = m.ok("resume", {"session_id": sid, "timeout_ms": LONG})
    assert done["state"] == "stopped", done
    out = output_text(m, sid, expect="precision=")
    assert "sum=0.3 big=no" in out and "precision=14 0.3" in out, out
