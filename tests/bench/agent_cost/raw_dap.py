"""Raw DAP round trips to debugpy, outside debugger-mcp: the floor any server built on debugpy
pays per request. Starts `python -m debugpy.adapter` on stdio exactly as DapBackend does, stops
at a breakpoint in heavy.py, then times N evaluate / variables / stackTrace requests.

Usage: [SHIM=1] python3 raw_dap.py [N]   (prints medians and minima in ms, and what debugpy
showed for the big values)
"""
import json, os, subprocess, sys, time, statistics

# The bootstrap debugger-mcp starts debugpy's adapter with (native/dap/src/adapter.rs includes
# this same file): the adapter acknowledges every read at once, so pydevd's two-part writes are
# not held by Nagle + delayed ACK. SHIM=1 uses it.
HERE = os.path.dirname(os.path.abspath(__file__))
QUICKACK = open(os.path.join(HERE, "..", "..", "..", "native", "dap", "src", "adapters", "debugpy_quickack.py")).read()

PROG = os.path.join(HERE, "heavy.py")
LINE = next(i for i, l in enumerate(open(PROG), 1) if "heavy: stop here" in l)


class Dap:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable] + (["-c", QUICKACK] if os.environ.get("SHIM") else ["-m", "debugpy.adapter"]), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, cwd=HERE, bufsize=0)
        self.seq = 0
        self.events = []

    def send(self, command, args=None):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command}
        if args is not None:
            msg["arguments"] = args
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()
        return self.seq

    def read(self):
        n = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError
            line = line.strip()
            if not line:
                if n is not None:
                    break
                continue
            k, v = line.split(b":", 1)
            if k.lower() == b"content-length":
                n = int(v)
        data = b""
        while len(data) < n:
            data += self.p.stdout.read(n - len(data))
        return json.loads(data)

    def wait_response(self, seq):
        while True:
            m = self.read()
            if m["type"] == "response" and m["request_seq"] == seq:
                return m
            if m["type"] == "event":
                self.events.append(m)

    def wait_event(self, name):
        for i, e in enumerate(self.events):
            if e["event"] == name:
                return self.events.pop(i)
        while True:
            m = self.read()
            if m["type"] == "event" and m["event"] == name:
                return m
            if m["type"] == "event":
                self.events.append(m)

    def call(self, command, args=None):
        r = self.wait_response(self.send(command, args))
        if not r["success"]:
            raise RuntimeError(f"{command}: {r.get('message')}")
        return r.get("body", {})


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    d = Dap()
    t0 = time.perf_counter()
    d.call("initialize", {"adapterID": "debugpy", "linesStartAt1": True, "columnsStartAt1": True,
                          "pathFormat": "path", "supportsVariableType": True, "supportsVariablePaging": True})
    launch = d.send("launch", {"program": PROG, "console": "internalConsole", "justMyCode": True, "cwd": HERE})
    d.wait_event("initialized")
    d.call("setBreakpoints", {"source": {"path": PROG}, "breakpoints": [{"line": LINE}]})
    d.call("configurationDone")
    d.wait_response(launch)
    stopped = d.wait_event("stopped")["body"]
    start_ms = (time.perf_counter() - t0) * 1000
    tid = stopped["threadId"]
    frame = d.call("stackTrace", {"threadId": tid, "startFrame": 0, "levels": 20})["stackFrames"][0]
    scopes = d.call("scopes", {"frameId": frame["id"]})["scopes"]
    loc = next(s for s in scopes if s["name"].lower().startswith("locals"))
    times = {"evaluate": [], "variables": [], "stackTrace": []}
    facts = {}
    for _ in range(n):
        t = time.perf_counter(); d.call("evaluate", {"expression": "len(records)", "frameId": frame["id"], "context": "watch"})
        times["evaluate"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter(); v = d.call("variables", {"variablesReference": loc["variablesReference"]})
        times["variables"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter(); d.call("stackTrace", {"threadId": tid, "startFrame": 0, "levels": 20})
        times["stackTrace"].append((time.perf_counter() - t) * 1000)
    for var in v["variables"]:
        if var["name"] in ("records", "text", "items"):
            facts[var["name"]] = {k: (var[k][:60] + f"...({len(var[k])} chars)" if k == "value" else var[k])
                                  for k in var if k in ("value", "type", "indexedVariables", "namedVariables", "variablesReference")}
    rec = next(x for x in v["variables"] if x["name"] == "records")
    kids = d.call("variables", {"variablesReference": rec["variablesReference"]})["variables"]
    facts["records_children"] = {"count": len(kids), "first": [k["name"] for k in kids[:3]], "last": [k["name"] for k in kids[-3:]]}
    facts["scopes"] = [s["name"] for s in scopes]
    facts["locals_names"] = [x["name"] for x in v["variables"]]
    d.send("disconnect", {"terminateDebuggee": True})
    time.sleep(0.2)
    d.p.kill()
    print(json.dumps({"n": n, "start_to_stop_ms": round(start_ms), **{k: round(statistics.median(x), 2) for k, x in times.items()},
                      "min": {k: round(min(x), 2) for k, x in times.items()}, "facts": facts}, indent=1))


if __name__ == "__main__":
    main()
