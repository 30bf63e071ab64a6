"""End-to-end fixtures: a real `debugger-mcp serve` per test module on a temporary copy of a
fixture project, driven by the official Python MCP SDK (`mcp` 2.x) over Streamable HTTP.

The MCP client runs on its own event loop in a background thread; tests call tools
synchronously through `Mcp.call` (result) / `Mcp.ok` (asserts success, returns structured
content) / `Mcp.err` (asserts isError, returns the message).

The binary is DEBUGGER_MCP_BIN, else $CARGO_TARGET_DIR/debug/debugger-mcp, else
<repo>/target/debug/debugger-mcp (scripts/test.d/e2e.sh builds it first).
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

REPO = pathlib.Path(__file__).resolve().parents[2]
PROJECTS = pathlib.Path(__file__).resolve().parent / "projects"
# Generous: a real debugger under a loaded 2-core machine.
CALL_TIMEOUT_S = 90
# The longest wait a tool accepts (55 s): the tools block until the stop, no polling in the tests.
LONG = 55000


def sidecar_binary() -> str:
    if os.environ.get("DEBUGGER_MCP_BIN"):
        return os.environ["DEBUGGER_MCP_BIN"]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    path = target / "debug" / "debugger-mcp"
    if not path.exists():
        pytest.exit(f"sidecar binary not found at {path}: run `cargo build -p debugger-mcp` or set DEBUGGER_MCP_BIN", 2)
    return str(path)


class ToolFailed(AssertionError):
    pass


class Mcp:
    """A synchronous facade over an MCP ClientSession living on a background event loop."""

    def __init__(self, url: str, elicitation_callback=None):
        self.url = url
        self.elicitation_callback = elicitation_callback
        # Server notifications (resource updates, progress, ...) in arrival order.
        self.notifications: list = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._ready = asyncio.run_coroutine_threadsafe(self._open(), self.loop)
        self._ready.result(timeout=60)

    async def _open(self):
        self._stop = asyncio.Event()
        started = asyncio.get_running_loop().create_future()

        async def run():
            try:
                async with streamable_http_client(self.url) as (read, write):
                    kw = {"elicitation_callback": self.elicitation_callback} if self.elicitation_callback else {}

                    async def on_message(message):
                        if not isinstance(message, Exception):
                            self.notifications.append(message)

                    async with ClientSession(read, write, message_handler=on_message, **kw) as session:
                        await session.initialize()
                        self.session = session
                        started.set_result(None)
                        await self._stop.wait()
            except BaseException as e:  # noqa: BLE001 - surfaced through `started`
                if not started.done():
                    started.set_exception(e)
                else:
                    raise

        self._task = asyncio.create_task(run())
        await started

    def _run(self, coro, timeout=CALL_TIMEOUT_S):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=timeout)

    def list_tools(self):
        return self._run(self.session.list_tools())

    def subscribe(self, uri: str):
        return self._run(self.session.subscribe_resource(uri))

    def read_resource(self, uri: str) -> str:
        return self._run(self.session.read_resource(uri)).contents[0].text

    def updated_uris(self) -> list[str]:
        return [str(n.params.uri) for n in self.notifications if getattr(n, "method", "") == "notifications/resources/updated"]

    def call(self, name: str, args: dict | None = None):
        return self._run(self.session.call_tool(name, args or {}))

    def call_with_progress(self, name: str, args: dict | None = None):
        """A call with a progress token; returns (result, [(progress, message), ...])."""
        seen: list = []

        async def on_progress(progress, total, message):
            seen.append((progress, message))

        res = self._run(self.session.call_tool(name, args or {}, progress_callback=on_progress))
        return res, seen

    def ok(self, name: str, args: dict | None = None) -> dict:
        res = self.call(name, args)
        text = " ".join(getattr(c, "text", "") for c in res.content)
        if res.is_error:
            raise ToolFailed(f"{name}({json.dumps(args)}) failed: {text}")
        sc = res.structured_content
        assert isinstance(sc, dict), f"{name}: no structuredContent: {res}"
        # The text is a compact rendering for the model (issue 6), not the JSON a second time;
        # structuredContent carries the complete result without nulls.
        assert text.strip() and not text.lstrip().startswith("{"), f"{name}: text is not rendered: {text}"
        # (A program's own value may be null: expand_variable's filter match of a Python None.)
        assert '":null' not in json.dumps(sc, separators=(",", ":")).replace('"value":null', ""), f"{name}: nulls in structuredContent: {sc}"
        self.last_text = text
        return sc

    def pause_at(self, file: str, line: int, start: dict) -> dict:
        """Sets a breakpoint at file:line, starts `start` (a run_configuration or command) and
        waits for the pause there; the start_debug_session result."""
        self.ok("set_breakpoint", {"file_path": file, "line": line})
        r = self.ok("start_debug_session", {**start, "wait_for_pause": True, "timeout_ms": LONG})
        assert r["state"] == "paused" and r["pause"]["location"]["line"] == line, r
        return r

    def err(self, name: str, args: dict | None = None) -> str:
        res = self.call(name, args)
        text = " ".join(getattr(c, "text", "") for c in res.content)
        assert res.is_error, f"{name}({json.dumps(args)}) should have failed but returned {res.structured_content or text}"
        assert text.strip(), f"{name}: error without a message"
        return text

    def close(self):
        async def shut():
            self._stop.set()
            try:
                await asyncio.wait_for(self._task, 15)
            except Exception:  # noqa: BLE001 - teardown best effort
                pass

        try:
            self._run(shut(), timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


class Server:
    """`debugger-mcp serve --project DIR --listen 127.0.0.1:0` on a copy of a fixture project."""

    def __init__(self, fixture: str, settings: str = "", env: dict | None = None, args: tuple = ()):
        self.tmp = tempfile.mkdtemp(prefix=f"dmcp-e2e-{fixture}-")
        # Resolved: the backend reports canonical paths (macOS /private/var and the like).
        self.project = pathlib.Path(self.tmp, fixture).resolve()
        shutil.copytree(PROJECTS / fixture, self.project)
        toml = self.project / "debugger-mcp.toml"
        existing = toml.read_text() if toml.exists() else ""
        # Settings keys must come before any [[launch]] table; a long watchdog keeps a slow
        # machine from resuming a paused session between two calls of a test.
        # A test of the watchdog itself brings its own [watchdog] table.
        watchdog = "" if "[watchdog]" in settings else "\n[watchdog]\nidle_seconds = 600\n"
        toml.write_text(settings + watchdog + "\n" + existing)
        self.proc = subprocess.Popen(
            [sidecar_binary(), "serve", "--project", str(self.project), "--listen", "127.0.0.1:0", *args],
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
            text=True,
            env={**os.environ, **(env or {})},
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"first stdout line of the sidecar is not its URL: {line!r}")
        self.url = line

    def stop(self) -> int:
        self.proc.terminate()
        try:
            code = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = -9
        shutil.rmtree(self.tmp, ignore_errors=True)
        return code


def start(fixture: str, settings: str = "", prepare=None):
    server = Server(fixture, settings)
    if prepare:
        prepare(server.project)
    client = Mcp(server.url)
    return server, client


def build_c(project: pathlib.Path, *names: str):
    """gcc -g -O0 of each `name.c` of the project to `name`."""
    gcc = shutil.which("gcc")
    if not gcc:
        pytest.fail("gcc is missing (apt-get install gcc); scripts/setup.d/e2e.sh installs it")
    for name in names:
        subprocess.run([gcc, "-g", "-O0", "-o", str(project / name), str(project / f"{name}.c")], check=True)


def compile_c(project: pathlib.Path):
    build_c(project, "prog", "spin", "crash", "calls", "blank", "macros", "longstr")


def gdb_env_check():
    """gdb >= 14 with DAP, as the backend finds it (DEBUGGER_MCP_GDB or PATH)."""
    gdb = os.environ.get("DEBUGGER_MCP_GDB") or shutil.which("gdb")
    if not gdb:
        pytest.fail("no gdb found: pip install gdb-for-pwndbg (scripts/setup.d/e2e.sh) or set DEBUGGER_MCP_GDB")


def served(fixture: str, settings: str = "brave_mode = true\n", prepare=None):
    """Body of a module-scoped fixture (`yield from served(...)`): one `serve` on a copy of
    `fixture` and a client, shared by the module's tests; the server must exit cleanly."""
    server, client = start(fixture, settings, prepare)
    yield server.project, client
    client.close()
    assert server.stop() == 0, "sidecar did not exit cleanly on SIGTERM"


def cleaned(module_fixture):
    """Body of a per-test fixture (`yield from cleaned(...)`): the module's (project, client),
    left as a fresh test expects it before and after the test (see `cleanup`)."""
    project, m = module_fixture
    cleanup(m)
    yield project, m
    cleanup(m)


def compile_native(project: pathlib.Path):
    """projects/native: C programs that crash (one built with the stack protector) and C++ ones."""
    cc, cxx = shutil.which("gcc"), shutil.which("g++")
    if not cc or not cxx:
        pytest.fail("gcc/g++ missing (apt-get install g++); scripts/setup.d/e2e.sh installs them")
    for name in ("divzero", "recurse", "assertf"):
        subprocess.run([cc, "-g", "-O0", "-o", str(project / name), str(project / f"{name}.c")], check=True)
    subprocess.run([cc, "-g", "-O0", "-fstack-protector-all", "-o", str(project / "smash"), str(project / "smash.c")], check=True)
    for name in ("scan", "thrower", "shapes", "passup", "nodes", "jobs"):
        subprocess.run([cxx, "-g", "-O0", "-o", str(project / name), str(project / f"{name}.cpp")], check=True)


def launch_paused(m: "Mcp", command: str, adapter: str, **extra) -> dict:
    """start_debug_session of `command` on `adapter`, waiting for its first stop."""
    return m.ok("start_debug_session", {"command": command, "adapter": adapter, "wait_for_pause": True, "timeout_ms": LONG, **extra})


def line_of(project: pathlib.Path, name: str, text: str) -> int:
    """The 1-based line of `name` (relative to the project) that contains `text`."""
    for i, line in enumerate((project / name).read_text().splitlines(), 1):
        if text in line:
            return i
    raise AssertionError(f"{text!r} not in {name}")


@pytest.fixture(scope="module")
def py_brave():
    yield from served("py")


@pytest.fixture(scope="module")
def c_brave():
    gdb_env_check()
    yield from served("c", prepare=compile_c)


@pytest.fixture
def py(py_brave):
    yield from cleaned(py_brave)


@pytest.fixture(scope="module")
def pyinspect_mod():
    """projects/pyinspect, brave (its per-test fixture is `pi`)."""
    yield from served("pyinspect")


@pytest.fixture
def pi(pyinspect_mod):
    yield from cleaned(pyinspect_mod)


@pytest.fixture(scope="module")
def go_mod():
    if not shutil.which("dlv") or not shutil.which("go"):
        pytest.fail("go and delve are missing: apt-get install golang-go delve (scripts/setup.d/e2e.sh installs them)")
    yield from served("go")


@pytest.fixture
def go(go_mod):
    yield from cleaned(go_mod)


@pytest.fixture(scope="module")
def native_brave():
    gdb_env_check()
    yield from served("native", prepare=compile_native)


@pytest.fixture
def n(native_brave):
    yield from cleaned(native_brave)


@pytest.fixture
def c(c_brave):
    yield from cleaned(c_brave)


@pytest.fixture(scope="module")
def py_careful():
    """The Python project without brave mode: destructive tools must be refused (this client
    cannot ask its user), or asked through MCP elicitation (the `asking` client, whose user's
    answers are queued in `answers`; each question is recorded in `asked`)."""
    from mcp import types

    server, client = start("py", "")
    answers: list[bool] = []
    asked: list[str] = []

    async def on_elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action="accept" if answers.pop(0) else "decline", content={})

    asking = Mcp(server.url, elicitation_callback=on_elicit)
    yield server.project, client, asking, answers, asked
    asking.close()
    client.close()
    assert server.stop() == 0, "sidecar did not exit cleanly on SIGTERM"


def cleanup(m: Mcp):
    """Leaves the server as a fresh test expects it: no live session, no agent breakpoint, no
    watch. Every test starts its own session."""
    for s in m.ok("list_debug_sessions")["sessions"]:
        if s["state"] != "stopped":
            m.ok("stop_debug_session", {"session_id": s["id"]})
    m.ok("remove_breakpoint", {"all_agent_breakpoints": True})
    for w in m.ok("watches")["watches"]:
        m.ok("watches", {"remove": w["id"]})


def var(variables: list, name: str) -> dict:
    found = [v for v in variables if v["name"] == name]
    assert found, f"no variable {name!r} among {[v['name'] for v in variables]}"
    return found[0]


def output_text(m: Mcp, session_id: str, category: str = "stdout", expect: str | None = None) -> str:
    """The session's output of one category (stdout, stderr, tracepoint), joined. Streams are
    joined separately: the debuggee's stdout and the debugger's tracepoint output arrive on
    different channels and interleave arbitrarily.

    With `expect`, waits (bounded) until that text has arrived: the debuggee's output is read
    from its pipe by the adapter independently of the exit event, so it may trail the
    "stopped" state by a moment, and no tool can wait for output (there is no console-output
    tool among the 30)."""
    deadline = time.monotonic() + 30
    while True:
        st = m.ok("get_debug_session_status", {"session_id": session_id})
        text = "".join(o["text"] for o in st.get("recent_output", []) if o["category"] == category)
        if expect is None or expect in text or time.monotonic() > deadline:
            return text
        time.sleep(0.05)


class Service:
    """A program started outside the debugger server, ended with the test."""

    def __init__(self, argv: list[str], cwd: pathlib.Path, port_line: bool = True, **kw):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True, **kw)
        self.port = None
        if port_line:
            deadline = time.time() + 30
            while time.time() < deadline:
                line = self.proc.stdout.readline()
                if not line:
                    raise AssertionError(f"{argv} ended before printing its port (exit {self.proc.poll()})")
                if line.startswith("listening on "):
                    self.port = int(line.split()[-1])
                    break
            assert self.port, f"{argv} printed no port"
            # Keep draining its output so it never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def get(self, query: str, timeout: float = 10) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/order?{query}", timeout=timeout) as r:
            return json.loads(r.read())

    def get_later(self, query: str) -> dict:
        """Sends the request from another thread (it blocks while the handler is paused)."""
        out: dict = {}

        def run():
            try:
                out["answer"] = self.get(query, timeout=LONG / 1000)
            except Exception as e:  # noqa: BLE001 - reported by the test
                out["error"] = repr(e)

        t = threading.Thread(target=run, daemon=True)
        t.start()
        out["thread"] = t
        return out

    def alive(self) -> bool:
        return self.proc.poll() is None

    def end(self):
        # The whole group, also when its leader is gone.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        # A program a debugger started in a process group of its own (gdbserver, `dlv exec`),
        # which runs on when the debugger is gone: found by its command line.
        for prefix in getattr(self, "orphans", ()):
            for entry in pathlib.Path("/proc").iterdir():
                try:
                    argv = (entry / "cmdline").read_bytes().decode(errors="replace")
                    if entry.name.isdigit() and argv.startswith(prefix):
                        os.kill(int(entry.name), signal.SIGKILL)
                except OSError:
                    pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # Still traced by a debugger the failing test left attached: its death goes to
            # the tracer first; the module's server ends that session.
            pass


@pytest.fixture
def services():
    """Processes a test started outside the server (a Service); each ended after it."""
    started: list = []
    yield started
    for s in started:
        s.end()


def build_attach(project: pathlib.Path):
    """projects/attach's C daemon (fifo.c, for gdb and lldb) and Go service (for delve)."""
    gcc = shutil.which("gcc")
    if not gcc:
        pytest.fail("gcc is missing (apt-get install gcc); scripts/setup.d/e2e.sh installs it")
    subprocess.run([gcc, "-g", "-O0", "-o", str(project / "fifo"), str(project / "fifo.c")], check=True)
    if not shutil.which("go") or not shutil.which("dlv"):
        pytest.fail("go and delve are missing: apt-get install golang-go delve (scripts/setup.d/e2e.sh)")
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", "goservice.bin", "."], cwd=project / "goservice", check=True)


class AttachServices:
    """Starts projects/attach's services for an attach-and-trigger test, each ended after it."""

    def __init__(self, started: list):
        self.started = started

    def _start(self, svc: Service) -> Service:
        self.started.append(svc)
        return svc

    def python(self, project: pathlib.Path) -> Service:
        """service.py, one order already served (state that exists before the attach)."""
        svc = self._start(Service([sys.executable, "service.py"], project))
        assert svc.get("item=pen&qty=1")["orders"] == 1
        return svc

    def go(self, project: pathlib.Path) -> Service:
        """goservice (built by build_attach)."""
        return self._start(Service([str(project / "goservice" / "goservice.bin")], project / "goservice"))

    def fifo_daemon(self, project: pathlib.Path, name: str) -> tuple[pathlib.Path, Service]:
        """The C daemon of fifo.c (built by build_attach) reading jobs from a new FIFO `name`:
        (fifo, service)."""
        fifo = project / name
        fifo.unlink(missing_ok=True)
        os.mkfifo(fifo)
        return fifo, self._start(Service([str(project / "fifo"), str(fifo)], project, port_line=False))


def second_job_done(project: pathlib.Path, fifo: pathlib.Path, svc: Service) -> bool:
    """Sends fifo.c's daemon a second job; whether it served it (its .done file counts 2)."""
    with open(fifo, "w") as f:
        f.write("5\n")
    done = project / f"{fifo.name}.done"
    deadline = time.time() + 10
    while time.time() < deadline and not (done.exists() and done.read_text().split()[:1] == ["2"]):
        time.sleep(0.05)
    return svc.alive() and done.read_text().split()[:1] == ["2"]


@pytest.fixture
def attach_services(services):
    """An AttachServices whose processes end after the test (test_attach_trigger,
    test_capture_attach, test_wait_trigger)."""
    return AttachServices(services)
