#!/usr/bin/env python3
"""Hostile-client probes and a structured fuzzer against the real `debugger-mcp serve` (issue 16).

  hostile.py probe            the probes of issue 16, each a pass/fail check:
                              150 x 3 MiB requests grow RSS < 64 MiB (unique project_path, then
                              file_path), debugger://history stays fast, sessions are capped
                              (http.max_sessions), every bad parameter of every tool is refused
                              with an error naming the field; and of issue 28: three clients
                              stepping, pausing and stopping one debugpy session leave a stopped
                              session stopped, errors say what happened to whom (no internal op
                              names), DELETE of an unknown session is 404, an evicted session is
                              told so, 1e400 names its field, no existence oracle through a link
                              leading outside, stdio answers a line read just before end of input.
  hostile.py fuzz --seconds N structured fuzzing of tools/call (arguments generated from each
                              tool's input schema, valid and hostile) and of the JSON-RPC envelope,
                              with a live debugpy session restarted whenever the fuzz ends it;
                              fails on a crash, a 5xx, a hang or RSS growth past --rss-mib.

Standard library only. DEBUGGER_MCP_BIN names the binary (default: target/release/debugger-mcp).
Prints one summary line per check and, for fuzz, the figures BENCHMARKS.md quotes.
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile, threading, time
import http.client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("DEBUGGER_MCP_BIN", os.path.join(ROOT, "target", "release", "debugger-mcp"))
V = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "hostile", "version": "1"}}
APP = """import time
def work(n):
    total = 0
    for i in range(n):
        total += i
    return total
count = 0
while True:
    count = work(5)
    time.sleep(0.05)
"""
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


class Server:
    def __init__(self, settings=""):
        self.dir = tempfile.mkdtemp(prefix="dmcp-hostile-")
        with open(os.path.join(self.dir, "app.py"), "w") as f:
            f.write(APP)
        cfg = os.path.join(self.dir, "settings.toml")
        with open(cfg, "w") as f:
            f.write("brave_mode = true\n[memory]\nwrite_summaries = false\n" + settings)
        self.proc = subprocess.Popen([BIN, "serve", "--project", self.dir, "--config", cfg],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = self.proc.stdout.readline().strip()
        self.port = int(url.rsplit(":", 1)[1].split("/")[0])

    def rss_mib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def alive(self):
        return self.proc.poll() is None

    def post(self, body, headers=None, timeout=70, method="POST", path="/debugger-mcp"):
        """POST raw bytes to /debugger-mcp; returns (status, parsed JSON-RPC message or text)."""
        h = {"Host": f"127.0.0.1:{self.port}", "Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"}
        h.update(headers or {})
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            data = r.read().decode("utf-8", "replace")
            return r.status, parse(data), r.getheader("mcp-session-id")
        finally:
            c.close()

    def rpc(self, method, params, id=1, timeout=70):
        params = dict(params or {})
        params["_meta"] = META
        headers = {"Mcp-Protocol-Version": V, "Mcp-Method": method}
        if method == "tools/call" and isinstance(params.get("name"), str) and params["name"].isascii() and params["name"].isprintable():
            headers["Mcp-Name"] = params["name"]
        if method in ("resources/read", "prompts/get"):
            key = "uri" if method == "resources/read" else "name"
            if isinstance(params.get(key), str) and params[key].isascii() and params[key].isprintable():
                headers["Mcp-Name"] = params[key]
        body = json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        return self.post(body.encode(), headers, timeout)[:2]

    def tool(self, name, args, timeout=70):
        status, msg = self.rpc("tools/call", {"name": name, "arguments": args}, timeout=timeout)
        return status, msg

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


class Client:
    """One initialize-era MCP client (its own Mcp-Session-Id) on a shared server."""

    VERSION = "2025-06-18"

    def __init__(self, server, name="client"):
        self.s = server
        init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": self.VERSION, "capabilities": {}, "clientInfo": {"name": name, "version": "1"}}}
        st, msg, sid = server.post(json.dumps(init).encode())
        if st != 200 or not sid:
            raise RuntimeError(f"initialize: HTTP {st} {msg}")
        self.sid = sid
        self.next = 1
        server.post(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode(), self.headers())

    def headers(self):
        return {"Mcp-Session-Id": self.sid, "Mcp-Protocol-Version": self.VERSION}

    def tool(self, name, args, timeout=70):
        self.next += 1
        body = {"jsonrpc": "2.0", "id": self.next, "method": "tools/call", "params": {"name": name, "arguments": args}}
        st, msg, _ = self.s.post(json.dumps(body).encode(), self.headers(), timeout)
        return st, msg


def parse(data):
    try:
        return json.loads(data)
    except ValueError:
        for line in data.splitlines():
            if line.startswith("data:"):
                try:
                    v = json.loads(line[5:])
                except ValueError:
                    continue
                if "result" in v or "error" in v:
                    return v
        return data


def text_of(msg):
    if not isinstance(msg, dict):
        return str(msg)
    if "error" in msg:
        return msg["error"].get("message", "")
    content = msg.get("result", {}).get("content") or [{}]
    return content[0].get("text", "")


def is_error(msg):
    return isinstance(msg, dict) and ("error" in msg or msg.get("result", {}).get("isError"))


# ---- probes ----------------------------------------------------------------------------------

def probe_memory():
    s = Server()
    try:
        for _ in range(5):
            s.tool("list_breakpoints", {})
        big = "x" * (3 << 20)
        before = s.rss_mib()
        named = 0
        for i in range(150):
            st, msg = s.tool("list_breakpoints", {"project_path": f"/p{i}/{big}"})
            named += "'project_path'" in text_of(msg)
            if st >= 500:
                fail(f"memory probe: HTTP {st}")
        for i in range(150):
            st, msg = s.tool("set_breakpoint", {"file_path": big + str(i), "line": 1})
            named += "'file_path'" in text_of(msg)
        after = s.rss_mib()
        t = time.monotonic()
        st, msg = s.rpc("resources/read", {"uri": "debugger://history"})
        took = time.monotonic() - t
        growth = after - before
        print(f"probe memory: 300 x 3 MiB requests, RSS {before:.1f} -> {after:.1f} MiB (+{growth:.1f}), "
              f"{named}/300 errors name the field, debugger://history read in {took * 1000:.0f} ms", flush=True)
        if growth >= 64:
            fail(f"RSS grew {growth:.1f} MiB over 300 x 3 MiB requests (bound 64 MiB)")
        if named != 300:
            fail(f"only {named}/300 oversized-parameter errors name the field")
        if took > 1.0 or st != 200:
            fail(f"resources/read debugger://history took {took:.2f} s (HTTP {st})")
    finally:
        s.stop()


def probe_sessions():
    s = Server("[http]\nmax_sessions = 50\n")
    try:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}}}
        body = json.dumps(init).encode()
        first = None
        before = s.rss_mib()
        ok = 0
        for i in range(1000):
            st, _, sid = s.post(body)
            ok += st == 200
            first = first or sid
        after = s.rss_mib()
        st, answer, _ = s.post(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode(),
                               {"Mcp-Session-Id": first, "Mcp-Protocol-Version": "2025-06-18"})
        evicted = st == 404 and "evicted" in text_of(answer) and "initialize" in text_of(answer)
        print(f"probe sessions: 1000 initialize with max_sessions 50: {ok} answered, RSS {before:.1f} -> {after:.1f} MiB, "
              f"first session now HTTP {st}{' (told it was evicted by the cap)' if evicted else ''}", flush=True)
        if not evicted:
            fail(f"the evicted session's 404 does not say it was evicted by the cap and to initialize again: {text_of(answer)[:200]}")
        if ok != 1000:
            fail(f"{1000 - ok} initialize requests refused although idle sessions could be evicted")
        if st != 404:
            fail(f"the session idle longest was not evicted (HTTP {st})")
        if after - before >= 16:
            fail(f"RSS grew {after - before:.1f} MiB over 1000 capped sessions (bound 16 MiB)")
    finally:
        s.stop()


def bad_values(schema):
    """Values that break `schema`, each with what it breaks."""
    t = schema.get("type")
    out = [({"x": 1}, "type")] if t != "object" else [([1], "type")]
    if t == "integer":
        out += [(4294967296, "max"), (-1, "min"), (1.5, "type")]
    if t == "string" or "enum" in schema:
        out += [("x" * 70000, "length")]
    if "enum" in schema:
        out += [("no-such-value", "enum")]
    return out


def probe_errors_name_fields():
    s = Server()
    try:
        _, msg = s.rpc("tools/list", {})
        tools = msg["result"]["tools"]
        cases = named = 0
        for tool in tools:
            for prop, schema in tool["inputSchema"].get("properties", {}).items():
                for value, what in bad_values(schema):
                    cases += 1
                    st, msg = s.tool(tool["name"], {prop: value}, timeout=30)
                    text = text_of(msg)
                    if st >= 500:
                        fail(f"{tool['name']}.{prop}={what}: HTTP {st}")
                    elif is_error(msg) and f"'{prop}'" in text:
                        named += 1
                    else:
                        fail(f"{tool['name']}.{prop} ({what}): error does not name the field: {text[:200]}")
        print(f"probe errors: {named}/{cases} bad parameters over {len(tools)} tools refused naming the field", flush=True)
    finally:
        s.stop()


# ---- issue 28: many clients, one truth; errors in the agent's words ---------------------------

# Internal operation names (the Backend trait's) that must never reach an agent.
# As they leaked: a prefix of the message ("frames: session s1 has ended"), not a listing of
# the program's threads ("no thread named 'x'; threads: MainThread").
INTERNAL = re.compile(r"(^|: )(threads|frames|control|frame_variables|children|read_source|set_value): ")


def structured(msg):
    return (msg.get("result") or {}).get("structuredContent") or {} if isinstance(msg, dict) else {}


def probe_many_clients(trials=12, seed=None):
    """Item 1: client A steps (step_over, run_to_line), client B pauses and waits, client C
    stops the session; the stop must leave it ended, whatever stop arrives late."""
    rnd = random.Random(seed)
    s = Server()
    leaked = []
    try:
        a, b, c = Client(s, "A"), Client(s, "B"), Client(s, "C")
        c.tool("set_breakpoint", {"file_path": "app.py", "line": 5})
        calls = 0
        came_back = 0
        for trial in range(trials):
            _, msg = c.tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True, "timeout_ms": 30000})
            sid = structured(msg).get("session_id")
            if structured(msg).get("state") != "paused":
                fail(f"many clients, trial {trial}: the start did not pause: {text_of(msg)[:200]}")
                continue
            done = threading.Event()
            lock = threading.Lock()
            counts = [0]

            def check(who, st, msg):
                with lock:
                    counts[0] += 1
                if st >= 500:
                    fail(f"many clients: {who} got HTTP {st}: {str(msg)[:200]}")
                if is_error(msg) and INTERNAL.search(text_of(msg)):
                    leaked.append(text_of(msg))

            def stepper():
                i = 0
                while not done.is_set():
                    if i % 2 == 0:
                        st, msg = a.tool("step_over", {"session_id": sid, "timeout_ms": 2000}, timeout=30)
                    else:
                        st, msg = a.tool("run_to_line", {"session_id": sid, "file_path": "app.py", "line": 5, "timeout_ms": 2000}, timeout=30)
                    check("A", st, msg)
                    i += 1

            def pauser():
                i = 0
                while not done.is_set():
                    if i % 2 == 0:
                        st, msg = b.tool("pause", {"session_id": sid, "timeout_ms": 2000}, timeout=30)
                    else:
                        st, msg = b.tool("wait_for_pause", {"session_id": sid, "timeout_ms": 500}, timeout=30)
                    check("B", st, msg)
                    i += 1

            threads = [threading.Thread(target=stepper), threading.Thread(target=pauser)]
            for t in threads:
                t.start()
            time.sleep(rnd.uniform(0.3, 1.5))
            _, msg = c.tool("stop_debug_session", {"session_id": sid, "keep_breakpoints": True})
            if structured(msg).get("state") != "stopped":
                fail(f"many clients, trial {trial}: stop answered {text_of(msg)[:200]}")
            done.set()
            for t in threads:
                t.join(60)
            calls += counts[0]
            time.sleep(0.5)  # a late stop of a step or pause in flight arrives within this
            _, msg = c.tool("list_debug_sessions", {})
            listed = [x for x in structured(msg).get("sessions", []) if x.get("id") == sid]
            if listed:
                came_back += 1
                fail(f"many clients, trial {trial}: {sid} was stopped but is listed as {listed[0].get('state')}")
            _, msg = b.tool("wait_for_pause", {"session_id": sid, "timeout_ms": 1000})
            if structured(msg).get("state") != "stopped" or structured(msg).get("already_paused"):
                fail(f"many clients, trial {trial}: wait_for_pause on the stopped {sid} answered {text_of(msg)[:200]}")
            t0 = time.monotonic()
            _, msg = c.tool("stop_debug_session", {"session_id": sid, "keep_breakpoints": True})
            took = time.monotonic() - t0
            if took > 2.0 or "already stopped" not in text_of(msg):
                fail(f"many clients, trial {trial}: stopping {sid} again took {took:.1f} s and answered {text_of(msg)[:200]}")
        print(f"probe many clients: {trials} trials of step/run_to_line (A), pause/wait (B) and stop (C) on one debugpy "
              f"session, {calls} calls: {came_back} stopped sessions came back, {len(leaked)} errors named internal ops", flush=True)
        for text in leaked[:5]:
            fail(f"an error names an internal operation: {text[:200]}")
    finally:
        s.stop()


def probe_agent_words():
    """Item 6: a start another client stopped, stopping twice, a step after the debuggee was
    killed; item 6's schema limits; and items 2, 3 and 5 (DELETE of an unknown session, a
    number JSON cannot hold, an existence oracle through a link leading outside)."""
    s = Server()
    try:
        a, c = Client(s, "A"), Client(s, "C")
        # A start another client stopped says so.
        got = {}

        def starter():
            got["msg"] = a.tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True, "timeout_ms": 20000})[1]

        t = threading.Thread(target=starter)
        t.start()
        sid = None
        for _ in range(200):
            _, msg = c.tool("list_debug_sessions", {})
            live = structured(msg).get("sessions", [])
            if live:
                sid = live[0]["id"]
                break
            time.sleep(0.05)
        c.tool("stop_debug_session", {"session_id": sid})
        t.join(60)
        text = text_of(got.get("msg"))
        # Stopped while starting (an error) or before its first pause: either way it says who.
        if "stopped by stop_debug_session" not in text or "no breakpoint was hit" in text:
            fail(f"a start another client stopped: {text[:200]}")
        # Stopping twice says it was already stopped, not how the signal ended the process.
        _, msg = c.tool("stop_debug_session", {"session_id": sid})
        if "already stopped" not in text_of(msg) or "SIG" in text_of(msg):
            fail(f"stopping {sid} twice: {text_of(msg)[:200]}")
        # A step after the debuggee was killed says the session ended and how.
        _, bp = a.tool("set_breakpoint", {"file_path": "app.py", "line": 5})
        _, msg = a.tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": True, "timeout_ms": 30000})
        sid = structured(msg).get("session_id")
        _, msg = a.tool("list_debug_sessions", {})
        pid = next((x.get("process_id") for x in structured(msg).get("sessions", []) if x["id"] == sid), None)
        if not pid:
            fail(f"no process id for {sid}: {structured(msg)}")
        else:
            os.kill(pid, 9)
            text = ""
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                _, msg = a.tool("step_over", {"timeout_ms": 2000})
                text = text_of(msg)
                if INTERNAL.search(text):
                    fail(f"step_over after the kill names an internal operation: {text[:200]}")
                if is_error(msg) and "has ended" in text:
                    break
                time.sleep(0.1)
            if f"session {sid} has ended" not in text or "SIGKILL" not in text:
                fail(f"step_over after the debuggee was killed: {text[:200]}")
        a.tool("remove_breakpoint", {"breakpoint_id": structured(bp).get("id", "")})
        print("probe agent words: a stopped start, a second stop and a step after a kill say what happened to whom", flush=True)

        # Item 6: the string limits enforced are the ones stated: maxLength in each tool's full
        # schema (what the compact profile's help shows; the listing leaves them to the
        # instructions, which state them by kind).
        st, init, _ = s.post(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}}}).encode())
        instructions = init.get("result", {}).get("instructions", "") if isinstance(init, dict) else ""
        if "at most 1024 characters" not in instructions:
            fail("the instructions do not state the string limits")
        _, msg = s.rpc("tools/list", {})
        wrong = []
        checked = 0
        for t in msg["result"]["tools"]:
            help_call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "debugger", "arguments": {"op": "help", "about": t["name"]}, "_meta": META}}
            _, h, _ = s.post(json.dumps(help_call).encode(), {"Mcp-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "debugger"},
                             path="/debugger-mcp?profile=compact")
            full = structured(h).get("input_schema", {})
            for p, sch in full.get("properties", {}).items():
                item = sch.get("items", {}) if sch.get("type") == "array" else sch
                if item.get("type") != "string":
                    continue
                checked += 1
                limit = item.get("maxLength")
                if not limit or f" {limit}" not in instructions:
                    wrong.append(f"{t['name']}.{p}: maxLength {limit} (stated in the instructions: {f' {limit}' in instructions})")
                    continue
                wrap = (lambda x: [x]) if sch.get("type") == "array" else (lambda x: x)
                _, over = s.tool(t["name"], {p: wrap("x" * (limit + 1))}, timeout=30)
                if f"expected at most {limit} characters" not in text_of(over) or f"'{p}" not in text_of(over):
                    wrong.append(f"{t['name']}.{p} > {limit}: {text_of(over)[:120]}")
                if t["name"] in FIXED or t["name"] == "capture":
                    continue  # a valid argument would start a program
                _, at = s.tool(t["name"], {p: wrap("x" * limit)}, timeout=30)
                if "expected at most" in text_of(at):
                    wrong.append(f"{t['name']}.{p} = {limit} characters refused: {text_of(at)[:120]}")
        for w in wrong[:10]:
            fail(f"string limit not as stated: {w}")
        if checked < 100:
            fail(f"only {checked} string parameters found in the full schemas")
        print(f"probe string limits: {checked} string parameters, {len(wrong)} not stated or enforced otherwise", flush=True)

        # Item 2: DELETE of an unknown session is 404.
        deleted, msg, _ = s.post(b"", {"Mcp-Session-Id": "no-such-session", "Mcp-Protocol-Version": "2025-06-18"}, method="DELETE")
        if deleted != 404:
            fail(f"DELETE of an unknown Mcp-Session-Id answered HTTP {deleted}")
        # Item 3: a number JSON cannot hold names its field.
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "set_breakpoint", "arguments": {"file_path": "app.py", "line": 7}, "_meta": META}})
        st, msg, _ = s.post(body.replace('"line": 7', '"line": 1e400').encode(),
                            {"Mcp-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "set_breakpoint"})
        if "'line'" not in text_of(msg):
            fail(f"\"line\": 1e400 does not name the field: HTTP {st} {text_of(msg)[:200]}")
        # Item 5: through a link to /etc, an existing and a missing file answer alike.
        os.symlink("/etc", os.path.join(s.dir, "evil_dir"))
        cases = [
            ("set_breakpoint", lambda p: {"file_path": p, "line": 1}, "evil_dir/passwd"),
            ("get_source_context", lambda p: {"file_path": p, "line": 1}, "evil_dir/passwd"),
            ("start_debug_session", lambda p: {"command": "python3 app.py", "cwd": p}, "evil_dir"),
            ("debug_test", lambda p: {"test_id": "Suite.Case", "binary": p}, "evil_dir/passwd"),
        ]
        oracles = 0
        for tool, args, exists in cases:
            missing = "evil_dir/nonexistent_zz"
            _, m1 = s.tool(tool, args(exists))
            _, m2 = s.tool(tool, args(missing))
            if text_of(m1).replace(exists, "P") != text_of(m2).replace(missing, "P") or not is_error(m1):
                oracles += 1
                fail(f"{tool}: '{exists}' and '{missing}' answer differently: {text_of(m1)[:150]} / {text_of(m2)[:150]}")
        print(f"probe http and paths: DELETE unknown session HTTP {deleted}, 1e400 named, {oracles} existence oracles through a link", flush=True)
    finally:
        s.stop()


def probe_stdio_end_of_input(runs=40):
    """Item 7: every line read is answered before the process exits, even when input ends
    before the session is set up (a CPU hog runs meanwhile: the report saw 7 of 40 lost)."""
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    project = tempfile.mkdtemp(prefix="dmcp-hostile-stdio-")
    lost = 0
    try:
        for _ in range(runs):
            out = subprocess.run([BIN, "stdio", "--headless", "--project", project], input=b"{not json\n",
                                 capture_output=True, timeout=60).stdout.decode("utf-8", "replace")
            lost += "-32700" not in out
        print(f"probe stdio: {runs} runs of '{{not json' then end of input, {lost} without an answer", flush=True)
        if lost:
            fail(f"stdio: {lost}/{runs} runs printed no answer to the line they read")
    finally:
        hog.kill()
        shutil.rmtree(project, ignore_errors=True)


# ---- fuzzer ----------------------------------------------------------------------------------

WORDS = ["", "x", "main", "app.py", "app.py:3", "count", "work", "total", "i", "n", "1", "0", "-1", "s1", "v1", "w1",
         "bp1", "1+1", "count * 2", "len('abc')", "$..x", "$.a[?@.b > 1]", "../../../etc/passwd", "/etc/shadow",
         "app.py\x00", "\u202e", "ü", "😀", "%s%n", "{x}", "'", "\"", "\\", "[[[[", "a" * 300, "y" * 20000]
SAFE_NUMBERS = [0, 1, 2, 3, 7, 10, 100, 4294967295, 4294967296, -1, 2**63, 1.5, 1e300]


def gen_value(schema, rnd, name):
    if name == "timeout_ms":
        return rnd.choice([1, 50, 500, 2000, "x", -5, 999999])
    if rnd.random() < 0.15:  # wrong type or junk
        return rnd.choice([None, True, [], {}, {"a": [1, {"b": None}]}, rnd.choice(WORDS), rnd.choice(SAFE_NUMBERS)])
    if "enum" in schema:
        return rnd.choice(schema["enum"] + ["bogus"])
    t = schema.get("type")
    if t == "integer":
        lo = schema.get("minimum", 0)
        hi = schema.get("maximum", 40)
        return rnd.choice([lo, hi, rnd.randint(lo, min(hi, lo + 40)), hi + 1, lo - 1, rnd.choice(SAFE_NUMBERS)])
    if t == "boolean":
        return rnd.choice([True, False])
    if t == "array":
        return [gen_value(schema.get("items", {}), rnd, name) for _ in range(rnd.choice([0, 1, 2, 5, 150]))]
    if name == "file_path":
        return rnd.choice(["app.py", "app.py", "nope.py", "../x.py", "/etc/passwd", "app.py/..", "a" * 5000])
    if name == "line":
        return rnd.choice([1, 3, 4, 9, 10, 11, 10000])
    return rnd.choice(WORDS)


# Tools whose arguments start programs: only fixed, harmless arguments are sent to them.
FIXED = {
    "start_debug_session": [{"command": "python3 app.py", "stop_on_entry": True}, {"command": "python3 app.py"}],
    "run_configuration": [{"name": "nope"}],
    "debug_test": [{"test_id": "tests/test_nope.py::test_x"}],
}


def gen_call(tools, rnd):
    tool = rnd.choice(tools)
    name = tool["name"]
    if name in FIXED:
        return name, dict(rnd.choice(FIXED[name]))
    props = tool["inputSchema"].get("properties", {})
    args = {}
    for p in props:
        if p in ("project_path", "session_id") and rnd.random() < 0.9:
            continue
        if p in tool["inputSchema"].get("required", []) or rnd.random() < 0.4:
            args[p] = gen_value(props[p], rnd, p)
    if name in ("evaluate_expression", "evaluate_code_fragment", "set_variable", "watches"):
        args.pop("allow_side_effects", None)  # nothing generated may change the debuggee's files
    if rnd.random() < 0.05:
        args["unexpected_" + str(rnd.randint(0, 9))] = 1
    return name, args


def gen_envelope(rnd):
    """A malformed or unusual JSON-RPC message (bytes, headers)."""
    h = {"Mcp-Protocol-Version": V}
    kind = rnd.randint(0, 11)
    if kind == 0:
        return rnd.choice([b"", b"{", b"\x00", b"\xff\xfe", b"[]", b"null", b"42", b'"x"', b"{}" * 100]), h
    if kind == 1:
        return (b"[" * 5000) + (b"]" * 5000), h
    if kind == 2:
        return json.dumps({"jsonrpc": "2.0", "id": rnd.choice([None, 1.5, [], {}, True, "x" * 1000]), "method": "ping"}).encode(), h
    if kind == 3:
        return json.dumps({"jsonrpc": rnd.choice(["1.0", 2, None]), "id": 1, "method": "ping"}).encode(), h
    if kind == 4:
        m = rnd.choice(["tools/call", "tools/list", "resources/read", "prompts/get", "nope", "x" * 300, "", "initialize"])
        h["Mcp-Method"] = m if m.isascii() and 0 < len(m) < 100 else "x"
        params = rnd.choice([[], "x", 1, None, {"name": 5}, {"name": "resume", "arguments": [1]}, {"uri": 7}, {"_meta": META}])
        return json.dumps({"jsonrpc": "2.0", "id": 9, "method": m, "params": params}).encode(), h
    if kind == 5:
        return json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "ping"}] * 3).encode(), h
    if kind == 6:
        return json.dumps({"jsonrpc": "2.0", "id": 3, "result": {}}).encode(), h
    if kind == 7:  # a session id that does not exist
        h.pop("Mcp-Protocol-Version")
        h["Mcp-Session-Id"] = rnd.choice(["x", "0" * 64, "../"])
        h["Mcp-Protocol-Version"] = "2025-06-18"
        return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode(), h
    if kind == 8:  # header and body disagree
        h["Mcp-Method"] = "tools/list"
        return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": META}}).encode(), h
    if kind == 9:
        return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": rnd.choice(["1999-01-01", "2025-06-18", 5]),
                           "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}}}).encode(), {}
    if kind == 10:
        return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": rnd.choice(
            ["debugger://history", "debugger://status", "debugger://sessions/zz/summary", "file:///etc/passwd", "debugger://" + "a" * 3000]), "_meta": META}}).encode(), {**h, "Mcp-Method": "resources/read", "Mcp-Name": "debugger://history"}
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x" * rnd.choice([1, 100, 5000]), "arguments": {}, "_meta": META}}).encode(), {**h, "Mcp-Method": "tools/call", "Mcp-Name": "x"}


def fuzz(seconds, workers, rss_bound, seed):
    s = Server("[http]\nmax_sessions = 64\n")
    stats = {"requests": 0, "by_status": {}, "lat": [], "crashes": 0, "hangs": 0, "5xx": 0}
    lock = threading.Lock()
    try:
        _, msg = s.rpc("tools/list", {})
        tools = msg["result"]["tools"]
        st, msg = s.tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": False})
        if is_error(msg):
            fail(f"fuzz: cannot start the debugpy session: {text_of(msg)}")
            return
        time.sleep(1)
        s.tool("pause", {"timeout_ms": 5000})
        warm = s.rss_mib()
        deadline = time.monotonic() + seconds
        stop = threading.Event()

        def record(status, took):
            with lock:
                stats["requests"] += 1
                stats["by_status"][status] = stats["by_status"].get(status, 0) + 1
                stats["lat"].append(took)

        def worker(n):
            rnd = random.Random(seed * 100 + n)
            while time.monotonic() < deadline and not stop.is_set():
                t = time.monotonic()
                try:
                    if rnd.random() < 0.7:
                        name, args = gen_call(tools, rnd)
                        st, msg = s.tool(name, args, timeout=70)
                        what = f"tools/call {name} {json.dumps(args)[:300]}"
                    else:
                        body, headers = gen_envelope(rnd)
                        st, msg, _ = s.post(body, headers, timeout=70)
                        what = f"envelope {body[:200]!r} {headers}"
                except (TimeoutError, OSError) as e:
                    if not s.alive():
                        with lock:
                            stats["crashes"] += 1
                        fail(f"fuzz: server died (exit {s.proc.returncode}) during {e}")
                        stop.set()
                        return
                    if isinstance(e, TimeoutError) or "timed out" in str(e):
                        with lock:
                            stats["hangs"] += 1
                        fail(f"fuzz: no answer within 70 s: {e}")
                        continue
                    record("conn-error", time.monotonic() - t)
                    continue
                record(st, time.monotonic() - t)
                if is_error(msg) and INTERNAL.search(text_of(msg)):
                    fail(f"fuzz: an error names an internal operation for {what}: {text_of(msg)[:200]}")
                if st >= 500:
                    with lock:
                        stats["5xx"] += 1
                    fail(f"fuzz: HTTP {st} for {what}: {str(msg)[:300]}")

        def keeper():
            # The fuzz may stop the session: start a new one so tools keep a live debugpy to act on.
            while time.monotonic() < deadline and not stop.is_set():
                time.sleep(2)
                try:
                    _, msg = s.tool("list_debug_sessions", {}, timeout=30)
                    sessions = (msg.get("result", {}).get("structuredContent") or {}).get("sessions", [])
                    if not any(x.get("state") != "stopped" for x in sessions):
                        s.tool("start_debug_session", {"command": "python3 app.py", "wait_for_pause": False}, timeout=60)
                except (OSError, AttributeError):
                    pass

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)] + [threading.Thread(target=keeper)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 120)
        alive = s.alive()
        rss = s.rss_mib() if alive else 0
        lat = sorted(stats["lat"]) or [0]
        p50 = lat[len(lat) // 2] * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(stats["by_status"].items(), key=lambda kv: str(kv[0])))
        print(f"fuzz: {seconds} s, {workers} workers, seed {seed}: {stats['requests']} requests ({statuses}); "
              f"crashes {stats['crashes']}, 5xx {stats['5xx']}, hangs {stats['hangs']}; latency p50 {p50:.1f} ms, p99 {p99:.1f} ms; "
              f"RSS {warm:.1f} -> {rss:.1f} MiB", flush=True)
        if not alive:
            fail("fuzz: the server is not running at the end")
        elif rss - warm > rss_bound:
            fail(f"fuzz: RSS grew {rss - warm:.1f} MiB (bound {rss_bound} MiB)")
        if stats["requests"] < 50:
            fail(f"fuzz: only {stats['requests']} requests in {seconds} s")
    finally:
        s.stop()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("probe")
    f = sub.add_parser("fuzz")
    f.add_argument("--seconds", type=int, default=75)
    f.add_argument("--workers", type=int, default=4)
    f.add_argument("--rss-mib", type=int, default=64)
    f.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", time.time())) % 100000)
    a = ap.parse_args()
    if not os.access(BIN, os.X_OK):
        sys.exit(f"{BIN} not found: build it (cargo build --release -p debugger-mcp) or set DEBUGGER_MCP_BIN")
    if a.cmd == "probe":
        probe_memory()
        probe_sessions()
        probe_errors_name_fields()
        probe_many_clients()
        probe_agent_words()
        probe_stdio_end_of_input()
    else:
        fuzz(a.seconds, a.workers, a.rss_mib, a.seed)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
