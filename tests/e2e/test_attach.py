"""Debugging what already runs (issue 29): services started outside the server, attached by pid
(debugpy, delve, gdb, lldb) or by the address a debugger listens on, a breakpoint in the handler
hit by a request sent after the attach, and the service still serving, breakpoint-free, once the
session ends by detaching. Refusals: no such pid, another tracer, ptrace not permitted."""

from __future__ import annotations

import ctypes
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from conftest import LONG, Mcp, Server, Service, cleaned, gdb_env_check, line_of, served

PYTHON = sys.executable


def build(project: pathlib.Path):
    gcc = shutil.which("gcc")
    if not gcc:
        pytest.fail("gcc is missing (apt-get install gcc); scripts/setup.d/e2e.sh installs it")
    subprocess.run([gcc, "-g", "-O0", "-o", str(project / "loop"), str(project / "loop.c")], check=True)
    subprocess.run([gcc, "-g", "-O0", "-pthread", "-o", str(project / "workers"), str(project / "workers.c")], check=True)
    if not shutil.which("go") or not shutil.which("dlv"):
        pytest.fail("go and delve are missing: apt-get install golang-go delve (scripts/setup.d/e2e.sh)")
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", "goservice.bin", "."], cwd=project / "goservice", check=True)


@pytest.fixture(scope="module")
def att_mod():
    gdb_env_check()
    yield from served("attach", prepare=build)


@pytest.fixture
def att(att_mod):
    yield from cleaned(att_mod)


def serve_and_attach_request(m: Mcp, project: pathlib.Path, svc: Service, file: str, line: int, attach: dict, probe: str):
    """The scenario every backend must pass: state built before the attach, a breakpoint in the
    handler hit by a request sent after it, the request's state read, detach, still serving."""
    assert svc.get("item=pen&qty=1")["orders"] == 1
    m.ok("set_breakpoint", {"file_path": file, "line": line})
    started = m.ok("start_debug_session", attach)
    assert started["state"] == "running", started
    pending = svc.get_later("item=book&qty=3")
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["state"] == "paused" and stop["reason"] == "breakpoint", stop
    assert stop["location"]["file"] == str(project / file) and stop["location"]["line"] == line, stop
    values = m.ok("evaluate_expression", {"expressions": [probe]})["results"]
    assert values[0]["value"] == "36", values
    m.ok("resume", {"wait": False})
    pending["thread"].join(30)
    assert pending.get("answer", {}).get("orders") == 2, pending
    sid = started["session_id"]
    stopped = m.ok("stop_debug_session", {"session_id": sid})
    assert stopped["state"] == "stopped" and "detached" in stopped["message"], stopped
    # Still serving, with its state, and no breakpoint left to stop this request.
    assert svc.alive()
    assert svc.get("item=book&qty=1", timeout=10)["orders"] == 3


def test_python_service_attached_by_pid(services, att):
    project, m = att
    svc = Service([PYTHON, "service.py"], project)
    services.append(svc)
    line = line_of(project, "service.py", "ORDERS.append(")
    serve_and_attach_request(m, project, svc, "service.py", line, {"attach": str(svc.pid)}, "total")


def test_go_service_attached_by_pid(services, att):
    project, m = att
    svc = Service([str(project / "goservice" / "goservice.bin")], project / "goservice")
    services.append(svc)
    line = line_of(project, "goservice/main.go", "mu.Lock()")
    serve_and_attach_request(m, project, svc, "goservice/main.go", line, {"attach": str(svc.pid)}, "total")
    assert m.ok("list_debug_sessions", {})["sessions"] == []


@pytest.mark.parametrize("adapter", ["gdb", "lldb"])
def test_the_stopped_worker_thread_of_a_c_daemon_is_listed_first(services, att, adapter):
    """A pthread daemon stopped in a worker's handler: list_threads puts that worker, by the name
    it set (pthread_setname_np), ahead of the main thread the debugger lists first."""
    project, m = att
    svc = Service([str(project / "workers")], project, port_line=False)
    services.append(svc)
    m.ok("set_breakpoint", {"file_path": "workers.c", "line": line_of(project, "workers.c", "return cost;")})
    m.ok("start_debug_session", {"attach": str(svc.pid), "adapter": adapter})
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["reason"] == "breakpoint", stop
    listed = m.ok("list_threads", {})
    threads = listed["threads"]
    assert len(threads) == 3, threads
    first = threads[0]
    assert first["id"] == stop["thread_id"] and first["is_current"], listed
    assert "worker-" in first["name"], threads
    # The main thread, which the debugger lists first by id, comes after it.
    assert any("worker-" not in t["name"] for t in threads[1:]), threads
    m.ok("stop_debug_session", {})
    assert svc.alive()


@pytest.mark.parametrize("adapter", ["debugpy", "delve"])
def test_the_paused_requests_thread_is_listed_first(services, att, adapter):
    """A threaded server (ThreadingHTTPServer, net/http's goroutines) stopped in its handler:
    list_threads puts the thread that stopped first, named for the request it serves (a Python
    thread's name, a goroutine's function), ahead of the accept loop the adapter lists first."""
    project, m = att
    if adapter == "debugpy":
        svc = Service([PYTHON, "service.py"], project)
        file, probe = "service.py", "ORDERS.append("
    else:
        svc = Service([str(project / "goservice" / "goservice.bin")], project / "goservice")
        file, probe = "goservice/main.go", "mu.Lock()"
    services.append(svc)
    m.ok("set_breakpoint", {"file_path": file, "line": line_of(project, file, probe)})
    m.ok("start_debug_session", {"attach": str(svc.pid), "adapter": adapter})
    pending = svc.get_later("item=pen&qty=2")
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["reason"] == "breakpoint", stop
    listed = m.ok("list_threads", {})
    threads = listed["threads"]
    assert len(threads) > 1, threads
    first = threads[0]
    assert first["id"] == stop["thread_id"] == listed["current_thread"] and first["is_current"], listed
    if adapter == "debugpy":
        assert "process_request_thread" in first["name"], threads
        assert any(t["name"] == "MainThread" for t in threads[1:]), threads
    else:
        assert "main.order" in first["name"], threads
        # The main goroutine, blocked in Accept, which delve lists first by id.
        assert any(t["name"].startswith("[Go 1] ") for t in threads[1:]), threads
    m.ok("resume", {"wait": False})
    pending["thread"].join(30)
    assert pending.get("answer", {}).get("total") == 6, pending
    m.ok("stop_debug_session", {})


def beats(project: pathlib.Path, name: str) -> int:
    """The loop's round count (read again when caught between its truncate and write)."""
    for _ in range(50):
        text = (project / name).read_text().split()
        if text:
            return int(text[0])
        time.sleep(0.01)
    raise AssertionError(f"{name} stays empty")


@pytest.mark.parametrize("adapter", ["gdb", "lldb"])
def test_c_loop_attached_by_pid(services, att, adapter):
    project, m = att
    beat = f"beat-{adapter}"
    svc = Service([str(project / "loop"), beat], project, port_line=False)
    services.append(svc)
    deadline = time.time() + 10
    while not (project / beat).exists() and time.time() < deadline:
        time.sleep(0.05)
    line = line_of(project, "loop.c", "return doubled;")
    m.ok("set_breakpoint", {"file_path": "loop.c", "line": line})
    started = m.ok("start_debug_session", {"attach": str(svc.pid), "adapter": adapter})
    # The loop reaches the breakpoint every 50 ms: it may have by the time the start answers.
    assert started["state"] in ("running", "paused"), started
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["state"] == "paused" and stop["location"]["line"] == line, stop
    values = m.ok("evaluate_expression", {"expressions": ["doubled == n * 2", "rounds == n"]})["results"]
    assert [v["value"] for v in values] == ["1", "1"] or [v["value"] for v in values] == ["true", "true"], values
    stopped = m.ok("stop_debug_session", {})
    assert "detached" in stopped["message"], stopped
    before = beats(project, beat)
    time.sleep(0.5)
    assert svc.alive() and beats(project, beat) > before, "the loop no longer runs after the detach"


def test_an_attached_service_outlives_the_mcp_session_that_attached_it(services, att):
    """Issue 29 item 3: the end of the agent's MCP session (not a stop call) ends its attached
    session by detaching: the service runs on with its state, and the breakpoint that agent set
    in its handler no longer stops a request."""
    project, m = att
    svc = Service([PYTHON, "service.py"], project)
    services.append(svc)
    assert svc.get("item=pen&qty=1")["orders"] == 1
    agent = Mcp(m.url)
    agent.ok("set_breakpoint", {"file_path": "service.py", "line": line_of(project, "service.py", "ORDERS.append(")})
    assert agent.ok("start_debug_session", {"attach": str(svc.pid)})["state"] == "running"
    agent.close()  # the SDK ends its MCP session (DELETE)
    deadline = time.time() + 30
    while time.time() < deadline and any(s["state"] != "stopped" for s in m.ok("list_debug_sessions", {})["sessions"]):
        time.sleep(0.1)
    assert all(s["state"] == "stopped" for s in m.ok("list_debug_sessions", {})["sessions"]), "the attached session outlived its MCP session"
    assert m.ok("list_breakpoints", {})["breakpoints"] == []
    assert svc.alive()
    assert svc.get("item=book&qty=1", timeout=10)["orders"] == 2


def test_terminate_kills_an_attached_process(services, att):
    project, m = att
    svc = Service([PYTHON, "service.py"], project)
    services.append(svc)
    m.ok("start_debug_session", {"attach": str(svc.pid)})
    stopped = m.ok("stop_debug_session", {"terminate": True})
    assert stopped["state"] == "stopped", stopped
    svc.proc.wait(timeout=15)
    assert not svc.alive()


def test_no_such_pid_and_bad_targets_are_refused(att):
    project, m = att
    pid = 4_000_000  # above pid_max's largest value (2^22)
    text = m.err("start_debug_session", {"attach": str(pid)})
    assert f"no process with pid {pid}" in text, text
    text = m.err("start_debug_session", {"attach": "my-service"})
    assert "neither a pid" in text and "host:port" in text, text
    text = m.err("start_debug_session", {"attach": "127.0.0.1:5678"})
    assert "name the adapter" in text and "debugpy" in text, text
    assert m.ok("list_debug_sessions", {})["sessions"] == []


PTRACE_SEIZE = 0x4206


def test_a_process_traced_by_another_debugger_is_refused(services, att):
    project, m = att
    target = Service(["sleep", "120"], project, port_line=False)
    services.append(target)
    # Another tracer: a process that seizes the target (as strace or a gdb would) and waits.
    holder = subprocess.Popen(
        [PYTHON, "-c", (
            "import ctypes, sys, time\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            f"r = libc.ptrace({PTRACE_SEIZE}, int(sys.argv[1]), None, None)\n"
            "print('seized' if r == 0 else f'failed {ctypes.get_errno()}', flush=True)\n"
            "time.sleep(120)\n"
        ), str(target.pid)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "seized"
        text = m.err("start_debug_session", {"attach": str(target.pid), "adapter": "gdb"})
        assert f"already traced by pid {holder.pid}" in text and "detach that debugger" in text, text
    finally:
        holder.kill()
        holder.wait()


def test_ptrace_refused_names_the_fix(services):
    """A server without CAP_SYS_PTRACE (dropped from its bounding set) and a target of another
    user: the kernel would refuse the ptrace, and the start says why and what to do."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.fail("this test needs root and util-linux setpriv (scripts/setup.d/e2e.sh)")
    server = Server("attach", "brave_mode = true\n")
    server.proc.terminate()
    server.proc.wait()
    from conftest import sidecar_binary

    proc = subprocess.Popen(
        ["setpriv", "--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace", sidecar_binary(), "serve", "--project", str(server.project), "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=sys.stderr, text=True,
    )
    url = proc.stdout.readline().strip()
    target = Service(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "120"], server.project, port_line=False)
    services.append(target)
    m = Mcp(url)
    try:
        deadline = time.time() + 10
        while time.time() < deadline and "65534" not in pathlib.Path(f"/proc/{target.pid}/status").read_text():
            time.sleep(0.05)
        text = m.err("start_debug_session", {"attach": str(target.pid), "adapter": "gdb"})
        assert "refused" in text and "uid 65534" in text and "CAP_SYS_PTRACE" in text, text
    finally:
        m.close()
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(server.tmp, ignore_errors=True)


@pytest.mark.parametrize("mapped_by", ["launch.json", "docker-compose.yml", "its files' bytes"])
def test_debugpy_listening_in_a_mount_namespace_attached_by_address(services, att, tmp_path, mapped_by):
    """`debugpy --listen` inside `unshare -rm`, where the project is bind-mounted at a path that
    does not exist outside, as a container's would be: the attach goes to its address, and the
    mapping that takes breakpoints in and stops out comes from a launch.json entry named with it,
    or, with no entry named, from the compose file's bind mount of the project, or, with nothing
    in the project saying where it runs, from the program's own files read where it runs."""
    project, m = att
    if not shutil.which("unshare"):
        pytest.fail("util-linux unshare is missing (apt-get install util-linux)")
    remote = tmp_path / "srv-app"
    remote.mkdir()
    dap_port = free_port()
    inner = f"mount --bind {project} {remote} && cd {remote} && exec {PYTHON} -m debugpy --listen 127.0.0.1:{dap_port} {remote}/service.py"
    svc = Service(["unshare", "-rm", "sh", "-c", inner], tmp_path)
    services.append(svc)
    assert not (remote / "service.py").exists(), "the bind mount leaked out of the namespace"
    if mapped_by == "launch.json":
        (project / ".vscode").mkdir(exist_ok=True)
        written = project / ".vscode" / "launch.json"
        written.write_text(json.dumps({"configurations": [{
            "name": "in the namespace", "type": "debugpy", "request": "attach",
            "connect": {"host": "127.0.0.1", "port": dap_port},
            "pathMappings": [{"localRoot": "${workspaceFolder}", "remoteRoot": str(remote)}],
        }]}))
        attach = {"attach": f"127.0.0.1:{dap_port}", "run_configuration": "in the namespace"}
    elif mapped_by == "its files' bytes":
        written = None
        wait_listening(dap_port)
        attach = {"attach": f"127.0.0.1:{tunnel_to(services, dap_port)}"}
    else:
        written = project / "docker-compose.yml"
        written.write_text(f"services:\n  app:\n    image: python:3\n    volumes:\n      - .:{remote}\n      - cache:/root/.cache\nvolumes:\n  cache: {{}}\n")
        # The published port, as docker-proxy holds it: a tunnel listens, not debugpy. No
        # adapter named: the port's answer tells it.
        wait_listening(dap_port)
        attach = {"attach": f"127.0.0.1:{tunnel_to(services, dap_port)}"}
    try:
        line = line_of(project, "service.py", "ORDERS.append(")
        serve_and_attach_request(m, project, svc, "service.py", line, attach, "total")
    finally:
        if written:
            written.unlink()


def test_debugpy_listening_on_a_script_named_relative_to_its_directory(services, att):
    """`python -m debugpy --listen … service.py` started in the project: the program's files are
    the project's (same bytes, same place), so no mapping is inferred from the relative name and
    the stop is the project file itself."""
    project, m = att
    dap_port = free_port()
    svc = Service([PYTHON, "-m", "debugpy", "--listen", f"127.0.0.1:{dap_port}", "service.py"], project)
    services.append(svc)
    line = line_of(project, "service.py", "ORDERS.append(")
    serve_and_attach_request(m, project, svc, "service.py", line, {"attach": f"127.0.0.1:{dap_port}"}, "total")


def pause(m: Mcp) -> dict:
    """A pause that stops the program within its wait (how fast: tests/bench/pause_latency.py)."""
    p = m.ok("pause", {"timeout_ms": 10000})
    assert p["state"] == "paused", p
    return p


def test_a_launched_service_is_running_and_pauses(services, att):
    """Issue 29 item 4: a service started without waiting is `running` (it was left
    `starting` for good), `pause` stops it promptly, and its threads are listed."""
    project, m = att
    started = m.ok("start_debug_session", {"command": f"{PYTHON} service.py"})
    assert started["state"] == "running", started
    assert m.ok("get_debug_session_status", {})["state"] == "running"
    pause(m)
    threads = m.ok("list_threads", {})["threads"]
    assert threads and all(t["name"] for t in threads), threads
    m.ok("stop_debug_session", {})


def printed(m: Mcp, sid: str, text: str) -> str:
    """The launched program's stdout once it contains `text` (bounded wait)."""
    deadline = time.time() + 30
    while time.time() < deadline:
        out = m.ok("get_console_output", {"session_id": sid, "category": "stdout", "max_lines": 500})["output"]
        got = "".join(o["text"] for o in out)
        if text in got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"the program did not print {text!r}")


def launched(m: Mcp, sid: str) -> Service:
    """The Go service a session launched, reached at the port it printed."""
    svc = Service.__new__(Service)
    svc.port = int(printed(m, sid, "listening on ").split("listening on ")[1].split()[0])
    return svc


def test_a_launched_go_service_pauses_where_it_is_with_its_requests_goroutine_listed(services, att):
    """Issue 29 item 4 on delve, launched: the launch's own stop before the program's code
    (where delve reads the libraries' debug information, see `Adapter::warm_up_function`) is
    no pause of the program: the start answers `running` and the service serves. A function
    breakpoint set before the start (on a library function: delve's own function breakpoint)
    still stops the handler's call; `pause` with a request held in
    its handler stops the program where it is and lists that goroutine by its handler.
    (How fast it answers: tests/bench/pause_latency.py.)"""
    project, m = att
    fb = m.ok("set_breakpoint", {"function": "strconv.Atoi"})
    started = m.ok("start_debug_session", {"command": str(project / "goservice" / "goservice.bin"), "adapter": "delve"})
    assert started["state"] == "running", started
    sid = started["session_id"]
    svc = launched(m, sid)
    pending = svc.get_later("item=pen&qty=4")
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["reason"] == "breakpoint" and stop["breakpoint_ids"] == [fb["id"]], stop
    assert stop["location"]["method"] == "Atoi", stop
    assert m.ok("get_stack_trace", {})["frames"][1]["method"] == "order"
    m.ok("remove_breakpoint", {"breakpoint_id": fb["id"]})
    m.ok("resume", {"wait": False})
    pending["thread"].join(30)
    assert pending.get("answer", {}).get("total") == 12, pending
    # A request held in its handler for 20 s while the program is paused (the session's end
    # kills the program: the request then fails, unread).
    def hold():
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{svc.port}/hold?ms=20000", timeout=60).read()
        except OSError:
            pass

    threading.Thread(target=hold, daemon=True).start()
    printed(m, sid, "holding")
    p = pause(m)
    assert p["reason"] == "pause" and p["location"]["line"] > 0 and p["location"]["method"], p
    listed = m.ok("list_threads", {})
    threads = listed["threads"]
    assert any(t["name"].startswith("[Go 1] ") for t in threads), threads
    assert any("main.hold" in t["name"] for t in threads), threads
    assert listed["current_thread"] == p["thread_id"], (listed, p)
    m.ok("stop_debug_session", {})


def test_a_library_function_breakpoint_still_stops_after_the_stop_on_entry(services, att):
    """delve's stop on entry is a function breakpoint on main.main, removed at its stop: the
    user's function breakpoints on library code (delve's own function breakpoints) stay, and a
    request stops in them (the entry stop sent an empty list, and this one never stopped)."""
    project, m = att
    m.ok("set_breakpoint", {"function": "strconv.Atoi"})
    started = m.ok("start_debug_session", {"command": str(project / "goservice" / "goservice.bin"), "adapter": "delve",
                                           "stop_on_entry": True, "wait_for_pause": True, "timeout_ms": LONG})
    assert started["pause"]["reason"] == "entry" and started["pause"]["location"]["method"] == "main", started
    m.ok("resume", {"wait": False})
    svc = launched(m, started["session_id"])
    pending = svc.get_later("item=pen&qty=4")
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["state"] == "paused" and stop["location"]["method"] == "Atoi", stop
    m.ok("stop_debug_session", {})
    pending["thread"].join(30)


def test_a_python_service_waiting_in_a_call_pauses_at_its_next_request(services, att):
    """debugpy suspends a thread only when it runs Python code: a service whose threads all wait
    (accept without a timeout, a sleep) does not stop at a pause. The pause says why and what
    to do, stays asked, and the next connection stops the program."""
    project, m = att
    svc = Service([PYTHON, "blocking.py"], project)
    services.append(svc)
    m.ok("start_debug_session", {"attach": str(svc.pid)})
    p = m.ok("pause", {"timeout_ms": 1500})
    assert p["state"] == "running" and p["timed_out"], p
    assert "Python code" in p["message"] and "a request" in p["message"] and "wait_for_pause" in p["message"], p
    import socket

    socket.create_connection(("127.0.0.1", svc.port), timeout=10).close()
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["state"] == "paused" and stop["reason"] == "pause", stop
    assert stop["location"]["file"] == str(project / "blocking.py"), stop
    m.ok("stop_debug_session", {})
    assert svc.alive()


@pytest.mark.parametrize("adapter", ["gdb", "lldb", "delve"])
def test_an_attached_process_pauses_and_resumes(services, att, adapter):
    project, m = att
    if adapter == "delve":
        svc = Service([str(project / "goservice" / "goservice.bin")], project / "goservice")
    else:
        svc = Service([str(project / "loop"), f"pause-{adapter}"], project, port_line=False)
    services.append(svc)
    started = m.ok("start_debug_session", {"attach": str(svc.pid), "adapter": adapter})
    assert started["state"] == "running", started
    pause(m)
    assert m.ok("list_threads", {})["threads"]
    resumed = m.ok("resume", {"wait": False})
    assert resumed["state"] == "running", resumed
    m.ok("stop_debug_session", {})
    if adapter == "delve":
        assert svc.get("item=pen&qty=2")["total"] == 6
    else:
        before = beats(project, f"pause-{adapter}")
        time.sleep(0.5)
        assert beats(project, f"pause-{adapter}") > before


def wait_listening(port: int) -> None:
    """Until something listens on `port`, read from /proc/net/tcp: a connection would not do, since
    debugpy 1.8's adapter answers no client after one that hung up without a DAP `disconnect`."""
    deadline = time.time() + 10
    while time.time() < deadline:
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for row in pathlib.Path(table).read_text().splitlines()[1:]:
                f = row.split()
                if int(f[1].rsplit(":", 1)[1], 16) == port and f[3] == "0A":
                    return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after 10 s")


def tunnel_to(services: list, port: int) -> int:
    """A tunnel's port to the debug port `port` (tunnel.py): its listener is not the debugger."""
    t = Service([PYTHON, str(pathlib.Path(__file__).parent / "tunnel.py"), f"127.0.0.1:{port}"], pathlib.Path(__file__).parent)
    services.append(t)
    return t.port


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("via", ["listener", "tunnel"])
def test_headless_delve_attached_by_address(services, att, via):
    """`dlv --headless --accept-multiclient` already serving a Go program: the session speaks DAP
    to it directly (remote mode); after the detach the server and the program run on. No adapter
    named: on this machine the listening process tells it, through a tunnel what the port answers."""
    project, m = att
    port = free_port()
    svc = Service(["dlv", "exec", "--headless", f"--listen=127.0.0.1:{port}", "--accept-multiclient", "--continue",
                   "--api-version=2", str(project / "goservice" / "goservice.bin")], project / "goservice")
    svc.orphans = [str(project / "goservice" / "goservice.bin")]
    services.append(svc)
    if via == "tunnel":
        wait_listening(port)
        port = tunnel_to(services, port)
    line = line_of(project, "goservice/main.go", "mu.Lock()")
    serve_and_attach_request(m, project, svc, "goservice/main.go", line,
                             {"attach": f"127.0.0.1:{port}"}, "total")


@pytest.mark.parametrize("via", ["listener", "tunnel"])
def test_gdbserver_attached_by_address(services, att, via):
    """A program under `gdbserver HOST:PORT` (stopped at its start, as gdbserver leaves it): gdb runs
    here with `target remote`, the program is resumed, a breakpoint stops it, and the detach lets
    it run on. No adapter named: the listening process tells it, or through a tunnel what the
    port answers (gdbserver's remote protocol)."""
    project, m = att
    if not shutil.which("gdbserver"):
        pytest.fail("gdbserver is missing (pip install gdb-for-pwndbg or apt-get install gdbserver)")
    port = free_port()
    beat = "beat-gdbserver"
    svc = Service(["gdbserver", f"127.0.0.1:{port}", str(project / "loop"), beat], project, port_line=False)
    svc.orphans = [f"{project / 'loop'}\0{beat}"]
    services.append(svc)
    wait_listening(port)
    if via == "tunnel":
        port = tunnel_to(services, port)
    line = line_of(project, "loop.c", "return doubled;")
    m.ok("set_breakpoint", {"file_path": "loop.c", "line": line})
    # A port no debugger listens on: the adapter must be named (nothing is started).
    e = m.err("start_debug_session", {"attach": f"127.0.0.1:{free_port()}"})
    assert "name the adapter" in e and "debugpy" in e and "doctor" not in e, e
    m.ok("start_debug_session", {"attach": f"127.0.0.1:{port}"})
    stop = m.ok("wait_for_pause", {"timeout_ms": LONG})
    assert stop["state"] == "paused" and stop["location"]["line"] == line, stop
    values = m.ok("evaluate_expression", {"expressions": ["rounds == n"]})["results"]
    assert values[0]["value"] in ("1", "true"), values
    stopped = m.ok("stop_debug_session", {})
    assert "detached" in stopped["message"], stopped
    before = beats(project, beat)
    time.sleep(0.5)
    assert beats(project, beat) > before, "the program no longer runs after the detach"

