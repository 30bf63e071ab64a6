"""PHP function breakpoints by every natural spelling of a namespaced name (issue 26, from an
agent benchmark on a `php -S` service): `Ns\\Class::method`, `\\Ns\\Class::method`, the short
`Class::method` / `Class.method`, a plain `fn` and `Ns\\fn`; a name that binds nowhere is named
as never hit when the run or request ends; an attach says "attached to process N" (not
"started"), and a trigger ended by the detach says why. Real `debugger-mcp serve`, php-cli and
`php -S` with Xdebug 3; the namespaced sources are written into the project copy here.
"""

from __future__ import annotations

import os
import sys

from conftest import LONG, line_of

sys.path.insert(0, os.path.dirname(__file__))
from test_php_attach import curl  # noqa: E402,F401
from test_php_xdebug import WebServer, php, php_mod  # noqa: E402,F401 - pytest fixtures

LIB = """<?php
namespace Shop\\Ext;

class LinkProcessor
{
    public function applyRel($url)
    {
        $rel = 'nofollow';
        return $rel . ' ' . $url;
    }
}

function helper($x)
{
    $y = $x * 2;
    return $y;
}
"""
# The same short names in another namespace: a qualified spelling must not bind these.
OTHER = """<?php
namespace Blog;

class LinkProcessor
{
    public function applyRel($url)
    {
        return 'other';
    }
}
"""
CLI = """<?php
require __DIR__ . '/src/nslib.php';
$p = new \\Shop\\Ext\\LinkProcessor();
echo $p->applyRel('a'), ' ', \\Shop\\Ext\\helper(3), "\\n";
"""


def write(project):
    (project / "src/nslib.php").write_text(LIB)
    (project / "src/other.php").write_text(OTHER)
    (project / "nscli.php").write_text(CLI)
    (project / "src/ns.php").write_text(CLI.replace("/src/nslib.php", "/nslib.php"))
    return (
        line_of(project, "src/nslib.php", "$rel = 'nofollow';"),
        line_of(project, "src/nslib.php", "$y = $x * 2;"),
    )


def test_php_namespaced_method_and_function_breakpoints_in_every_spelling(php):
    project, m, _ = php
    rel, y = write(project)
    spellings = [
        ("Shop\\Ext\\LinkProcessor::applyRel", rel, 1),
        ("\\Shop\\Ext\\LinkProcessor::applyRel", rel, 1),
        ("LinkProcessor::applyRel", rel, 2),
        ("LinkProcessor.applyRel", rel, 2),
        ("helper", y, 1),
        ("Shop\\Ext\\helper", y, 1),
    ]
    for name, line, bound in spellings:
        r = m.ok(
            "start_debug_session",
            {"command": "php nscli.php", "breakpoints": [{"function": name}], "timeout_ms": LONG},
        )
        loc = (r.get("pause") or {}).get("location") or {}
        assert r["state"] == "paused", (name, r)
        assert (loc.get("file"), loc.get("line")) == (str(project / "src/nslib.php"), line), (name, r)
        # A namespaced spelling binds only its namespace's class, not Blog\LinkProcessor.
        bps = m.ok("list_breakpoints", {})["breakpoints"]
        assert len(bps) == bound, (name, bps)
        m.ok("stop_debug_session", {"session_id": r["session_id"]})
    # A method the namespace does not define is refused by name.
    e = m.err("set_breakpoint", {"function": "Shop\\Ext\\LinkProcessor::applyRell"})
    assert "Shop\\Ext\\LinkProcessor::applyRell" in e and "no definition" in e, e
    # The right method in a namespace that has no such class: refused too, never left pending.
    e = m.err("set_breakpoint", {"function": "Wrong\\Ns\\LinkProcessor::applyRel"})
    assert "Wrong\\Ns\\LinkProcessor::applyRel" in e and "line breakpoint" in e, e


def test_php_attach_says_attached_names_a_breakpoint_never_hit_and_why_the_trigger_ended(php):
    project, m, port = php
    rel, _ = write(project)
    web = WebServer(project / "src", port + 5)
    try:
        pid = web.proc.pid
        # A function the project does not define (PHP's own): nothing binds it, the request ends.
        r = m.ok(
            "start_debug_session",
            {"attach": str(pid), "command": f"curl -s -b XDEBUG_SESSION=agent '{web.url('/ns.php')}'",
             "breakpoints": [{"function": "str_pad"}], "timeout_ms": LONG},
        )
        msg = r["message"]
        assert msg.startswith(f"attached to process {pid}") and "started" not in msg, r
        assert "'str_pad' never hit" in msg, r
        m.ok("stop_debug_session", {"session_id": r["session_id"]})
        # The spelling stops in the handler's call; after the detach the waiting curl
        # gets the page (the request runs on), shown in the detach's result.
        r = m.ok(
            "start_debug_session",
            {"attach": str(pid), "command": f"curl -s -b XDEBUG_SESSION=agent '{web.url('/ns.php')}'",
             "breakpoints": [{"function": "\\Shop\\Ext\\LinkProcessor::applyRel"}], "timeout_ms": LONG},
        )
        assert r["message"].startswith(f"attached to process {pid}; paused"), r
        assert r["pause"]["location"]["line"] == rel, r
        s = m.ok("stop_debug_session", {"session_id": r["session_id"]})
        assert "exited with code 0 once the program ran on" in s["message"], s
        assert "trigger output:" in s["message"], s
    finally:
        web.stop()
