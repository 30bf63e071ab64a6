"""Six real bugs, solved two ways side by side in one run (issue 20's benchmark, BENCHMARKS.md
"Six real bugs"): through our tools (`debugger-mcp serve` driven by the official Python MCP SDK)
and the way an agent does without us (a throwaway print or scratch script in Python; `gdb -batch`
with -ex for native code).

The bugs are public ones, in libraries fetched from a registry at their buggy release by
sources.py (pinned, sha256-checked; scripts/setup.d/real_bugs.sh fetches them; each directory's
BUGS.md describes its bugs and their upstream fixes): more-itertools 9.0.0 (two Python bugs, PyPI
sdist), cJSON 1.7.15 (three C bugs) and tinyxml2 9.0.0 (one C++ bug), both Debian bookworm's
upstream source tarballs. Each bug comes with its failing repro program (the bug report), the
only code of a project kept here; both paths start from it
and answer the same questions, the values that reveal the root cause, and the script asserts
those answers on both paths, so the benchmark fails if either path stops finding them.

Counting:
- ours: one tool call per `tools/call`; bytes = UTF-8 bytes of the result's text blocks (what
  a client puts in the model's context), as tests/bench/agent_cost counts them.
- theirs: one call per shell command or file write; bytes = the command's stdout + stderr. A
  file write is counted as a call that reads 0 bytes (an edit tool's own confirmation is not
  counted, in the baseline's favour).
Reading the source is the same on both paths and is not counted on either.

Usage: python3 tests/bench/real_bugs/bench.py [--quick] [--only NAME] [--show] [--json FILE]
  (env: DEBUGGER_MCP_BIN, else $CARGO_TARGET_DIR/debug/debugger-mcp; gdb and gcc/g++ on PATH)
--quick runs one bug (the C crash) as a smoke test.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from conftest import LONG, Mcp  # noqa: E402

import sources  # noqa: E402  (tests/bench/real_bugs/sources.py, beside this file)

SHOW = False


def line_of(path: pathlib.Path, text: str, nth: int = 1) -> int:
    """1-based line of the nth line containing `text` (the fetched sources carry no markers)."""
    hits = [i for i, l in enumerate(path.read_text().splitlines(), 1) if text in l]
    assert len(hits) >= nth, f"{text!r} not found {nth} times in {path}"
    return hits[nth - 1]


def line_after(path: pathlib.Path, anchor: str, text: str) -> int:
    """1-based line of the first line containing `text` after the line containing `anchor`."""
    start = line_of(path, anchor)
    lines = path.read_text().splitlines()
    return next(i for i in range(start + 1, len(lines) + 1) if text in lines[i - 1])


# --- the two meters --------------------------------------------------------------------------


class Ours:
    """Tool calls through `debugger-mcp serve`; counts calls and bytes of result text."""

    def __init__(self, m: Mcp):
        self.m, self.calls, self.bytes, self.log = m, 0, 0, []

    def __call__(self, tool: str, args: dict) -> dict:
        res = self.m.call(tool, args)
        text = " ".join(getattr(c, "text", "") for c in res.content)
        self.calls += 1
        self.bytes += len(text.encode())
        self.log.append(f"{tool} {json.dumps(args)}\n{text}")
        if SHOW:
            print(f"--- ours: {tool} {json.dumps(args)} ({len(text.encode())} B)\n{text}", file=sys.stderr)
        if res.is_error:
            raise AssertionError(f"ours: {tool}({json.dumps(args)}) failed: {text}")
        return res.structured_content


class Theirs:
    """Shell commands and file writes in the project directory; counts calls and bytes read."""

    def __init__(self, cwd: pathlib.Path):
        self.cwd, self.calls, self.bytes, self.log = cwd, 0, 0, []

    def run(self, argv: list[str]) -> str:
        p = subprocess.run(argv, cwd=self.cwd, capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(self.cwd)})
        out = p.stdout + p.stderr
        self.calls += 1
        self.bytes += len(out.encode())
        self.log.append(f"$ {' '.join(argv)}\n{out}")
        if SHOW:
            print(f"--- theirs: $ {' '.join(argv)} ({len(out.encode())} B)\n{out}", file=sys.stderr)
        return out

    def write(self, name: str, text: str):
        (self.cwd / name).write_text(text)
        self.calls += 1
        self.log.append(f"write {name}\n{text}")


def gdb(*ex: str, program: str) -> list[str]:
    # Debuginfod off: this machine's gdb build (gdb-for-pwndbg) otherwise asks about its server
    # and prints 300 B of banner per run, which a system gdb does not.
    argv = [shutil.which("gdb") or "gdb", "-batch", "-iex", "set debuginfod enabled off"]
    for e in ex:
        argv += ["-ex", e]
    return argv + ["--args", program]


def rows(captured: dict) -> list[dict[str, str]]:
    """capture's hits as {expression: value or error} per hit."""
    return [{v["name"]: v.get("value", v.get("error")) for v in h["values"]} for h in captured["hits"]]


# --- the bugs --------------------------------------------------------------------------------
# Each bug: where it lives, how it is built, the questions, and the two paths. A path returns
# nothing; it asserts the answers it found.

MI = "more_itertools_9_0_0"
CJ = "cjson_1_7_15"
TX = "tinyxml2_9_0_0"
LIB = {MI: "more-itertools", CJ: "cjson", TX: "tinyxml2"}


def numeric_range_ours(o: Ours, proj: pathlib.Path):
    more = proj / "more_itertools" / "more.py"
    ret = line_of(more, "return numeric_range(start, stop, step)")
    r = o("capture", {"command": "python3 numeric_range_slice.py",
                      "points": [{"file_path": "more_itertools/more.py", "line": ret}],
                      "expressions": ["start", "stop", "step", "key"], "max_hits": 1})
    assert rows(r) == [{"start": "0", "stop": "10", "step": "-1", "key": "slice(None, None, -1)"}], r


def numeric_range_theirs(t: Theirs, proj: pathlib.Path):
    # The slice is a numeric_range whose repr shows the bounds it was built with.
    out = t.run(["python3", "-c", "from more_itertools import numeric_range; r = numeric_range(0, 10)[::-1]; "
                 "print(repr(r), r._start, r._stop, r._step)"])
    assert "numeric_range(0, 10, -1) 0 10 -1" in out, out


def scratch_with_prints(source: pathlib.Path, func: str, call: str) -> str:
    """What an agent writes without a debugger: a scratch copy of `func` from `source` with a print
    before each yield (its line in the source, the value, buf and maxsplit), then `call`. Made from
    the fetched library at run time, so no line of it is kept here."""
    lines = source.read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(f"def {func}("))
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace())
    out = []
    for n, l in enumerate(lines[start:end], start + 1):
        m = re.match(r"^(\s*)yield (.+)$", l)
        if m:
            ind, expr = m.groups()
            out += [f"{ind}_y = {expr}",
                    f"{ind}print('line {n}: yield', _y, 'buf', locals().get('buf'), 'maxsplit', maxsplit)",
                    f"{ind}yield _y"]
        else:
            out.append(l)
    return "\n".join(out) + f"\n\n\nprint({call})\n"


def split_after_ours(o: Ours, proj: pathlib.Path):
    more = proj / "more_itertools" / "more.py"
    rest = line_after(more, "def split_after(", "yield list(it)")
    final = line_after(more, "def split_after(", "    if buf:") + 1  # the last `yield buf`
    r = o("capture", {"command": "python3 split_after_maxsplit.py",
                      "points": [{"file_path": "more_itertools/more.py", "line": rest},
                                 {"file_path": "more_itertools/more.py", "line": final}],
                      "expressions": ["buf", "maxsplit", "it.__length_hint__()"]})
    # One hit, at `yield list(it)`: [1] was already yielded and nothing is left in `it`.
    assert [h["at"]["line"] for h in r["hits"]] == [rest], r
    assert rows(r) == [{"buf": "[1]", "maxsplit": "1", "it.__length_hint__()": "0"}], r


def split_after_theirs(t: Theirs, proj: pathlib.Path):
    more = proj / "more_itertools" / "more.py"
    t.write("scratch_split_after.py", scratch_with_prints(more, "split_after", "list(split_after([1], lambda x: x == 1, maxsplit=1))"))
    out = t.run(["python3", "scratch_split_after.py"])
    rest = line_after(more, "def split_after(", "yield list(it)")
    final = line_after(more, "def split_after(", "    if buf:") + 1
    # [1] yielded, then [] from `yield list(it)` with nothing left; the final `yield buf` never runs.
    assert f"line {rest}: yield [] buf [1] maxsplit 1" in out and f"line {final}:" not in out, out


def long_number_ours(o: Ours, proj: pathlib.Path):
    line = line_of(proj / "cJSON.c", "input_buffer->offset += (size_t)(after_end - number_c_string);")
    r = o("capture", {"command": "./long_number", "points": [{"file_path": "cJSON.c", "line": line}],
                      "expressions": ["i", "after_end - number_c_string",
                                      "(char *)input_buffer->content + input_buffer->offset + i"], "max_hits": 1})
    (h,) = rows(r)
    # 63 of the number's 71 characters copied and parsed; the parse resumes at its digits "...001]".
    rest = h["(char *)input_buffer->content + input_buffer->offset + i"]
    assert h["i"] == "63" and h["after_end - number_c_string"] == "63" and '"00000001]"' in rest, r


def long_number_theirs(t: Theirs, proj: pathlib.Path):
    line = line_of(proj / "cJSON.c", "input_buffer->offset += (size_t)(after_end - number_c_string);")
    out = t.run(gdb(f"break cJSON.c:{line}", "run", "p i", "p after_end - number_c_string",
                    "p (char *)input_buffer->content + input_buffer->offset + i", program="./long_number"))
    assert "$1 = 63" in out and "$2 = 63" in out and '"00000001]"' in out, out


def pointer_index_ours(o: Ours, proj: pathlib.Path):
    line = line_of(proj / "cJSON_Utils.c", "if ((pointer[position] != '\\0') && (pointer[position] != '/'))")
    r = o("capture", {"command": "./pointer_index", "points": [{"file_path": "cJSON_Utils.c", "line": line}],
                      "expressions": ["parsed_index", "position", "pointer[1]"], "max_hits": 1})
    (h,) = rows(r)
    assert h["parsed_index"] == "20" and h["position"] == "2" and "':'" in h["pointer[1]"], r


def pointer_index_theirs(t: Theirs, proj: pathlib.Path):
    line = line_of(proj / "cJSON_Utils.c", "if ((pointer[position] != '\\0') && (pointer[position] != '/'))")
    out = t.run(gdb(f"break cJSON_Utils.c:{line}", "run", "p parsed_index", "p position", "p pointer[1]",
                    program="./pointer_index"))
    assert "$1 = 20" in out and "$2 = 2" in out and "':'" in out, out


def detach_twice_ours(o: Ours, proj: pathlib.Path):
    st = o("start_debug_session", {"command": "./detach_twice", "wait_for_pause": True, "timeout_ms": LONG})
    assert st["state"] == "paused", st
    text = o.log[-1]
    assert "SIGSEGV" in text and "cJSON_DetachItemViaPointer" in text and "main" in text, text
    r = o("evaluate_expression", {"expressions": ["item->prev", "item->string", "parent->child->next->string"]})
    vals = [x.get("value") for x in r["results"]]
    assert vals[0] == "0x0" and '"b"' in vals[1] and '"c"' in vals[2], r


def detach_twice_theirs(t: Theirs, proj: pathlib.Path):
    out = t.run(gdb("run", "bt", program="./detach_twice"))
    assert "SIGSEGV" in out and "cJSON_DetachItemViaPointer" in out and "main" in out, out
    out = t.run(gdb("run", "p item->prev", "p item->string", "p parent->child->next->string", program="./detach_twice"))
    assert "$1 = (struct cJSON *) 0x0" in out and '"b"' in out and '"c"' in out, out


def charref_ours(o: Ours, proj: pathlib.Path):
    line = line_of(proj / "tinyxml2.cpp", "ucs += digitScaled;")
    r = o("capture", {"command": "./charref", "points": [{"file_path": "tinyxml2.cpp", "line": line}],
                      "expressions": ["*q", "mult", "digitScaled", "ucs"], "max_hits": 20})
    hs = rows(r)
    # Nine digits; the ninth ('1', place value 16^8) is scaled by a mult that wrapped to 0.
    assert len(hs) == 9 and hs[8]["mult"] == "0" and hs[8]["digitScaled"] == "0" and hs[8]["ucs"] == "65", r
    assert "'1'" in hs[8]["*q"] and hs[7]["mult"] == str(16 ** 7), r


def charref_theirs(t: Theirs, proj: pathlib.Path):
    line = line_of(proj / "tinyxml2.cpp", "ucs += digitScaled;")
    out = t.run(gdb(f'dprintf tinyxml2.cpp:{line},"q=%c mult=%u digitScaled=%u ucs=%lu\\n",*q,mult,digitScaled,ucs',
                    "run", program="./charref"))
    lines = re.findall(r"^q=(.) mult=(\d+) digitScaled=(\d+) ucs=(\d+)$", out, re.M)
    assert len(lines) == 9 and lines[8] == ("1", "0", "0", "65") and lines[7][1] == str(16 ** 7), out


BUGS = [
    {"name": "numeric_range", "lang": "Python", "dir": MI, "build": [],
     "bug": "more-itertools 9.0.0: numeric_range(0, 10)[::-1] is empty (PR #1128, fixed in 11.0.0)",
     "questions": ["Which start, stop and step does the slice build?"],
     "ours": numeric_range_ours, "theirs": numeric_range_theirs},
    {"name": "split_after", "lang": "Python", "dir": MI, "build": [],
     "bug": "more-itertools 9.0.0: split_after([1], x == 1, maxsplit=1) yields a trailing [] (issue #658, fixed in 9.1.0)",
     "questions": ["Which yield emits the []?", "What are buf and maxsplit there, and is anything left in the iterator?"],
     "ours": split_after_ours, "theirs": split_after_theirs},
    {"name": "long_number", "lang": "C", "dir": CJ, "build": ["gcc", "-g", "-O0", "-o", "long_number", "long_number.c", "cJSON.c", "-lm"],
     "bug": "cJSON 1.7.15: a valid number longer than 63 characters is rejected (CVE-2023-26819, commit 16f21a5, fixed in 1.7.19)",
     "questions": ["How much of the number does parse_number copy and parse?", "Where does the parse resume?"],
     "ours": long_number_ours, "theirs": long_number_theirs},
    {"name": "pointer_index", "lang": "C", "dir": CJ, "build": ["gcc", "-g", "-O0", "-o", "pointer_index", "pointer_index.c", "cJSON.c", "cJSON_Utils.c", "-lm"],
     "bug": "cJSON 1.7.15: JSON pointer '/items/1:' matches items[20] (CVE-2025-57052, fixed in 1.7.19)",
     "questions": ["Which index does decode_array_index_from_pointer compute for '1:'?", "Where does its digit loop stop?"],
     "ours": pointer_index_ours, "theirs": pointer_index_theirs},
    {"name": "detach_twice", "lang": "C", "dir": CJ, "build": ["gcc", "-g", "-O0", "-o", "detach_twice", "detach_twice.c", "cJSON.c", "-lm"],
     "bug": "cJSON 1.7.15: cJSON_DetachItemViaPointer crashes on an item with no prev (commits f28a468, a78d975, fixed in 1.7.19)",
     "questions": ["Where does it crash (stack)?", "Which pointer is NULL, and is the item still in the parent's list?"],
     "ours": detach_twice_ours, "theirs": detach_twice_theirs},
    {"name": "charref", "lang": "C++", "dir": TX, "build": ["g++", "-g", "-O0", "-o", "charref", "charref.cpp", "tinyxml2.cpp"],
     "bug": "tinyxml2 9.0.0: '&#x100000041;' decodes to 'A' (CVE-2024-50615, fixed in 10.1.0)",
     "questions": ["At each hex digit of the reference: the digit, its place value (mult) and the running code point?"],
     "ours": charref_ours, "theirs": charref_theirs},
]


def binary() -> str:
    if os.environ.get("DEBUGGER_MCP_BIN"):
        return os.environ["DEBUGGER_MCP_BIN"]
    return str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "debugger-mcp")


def fresh_project(bug: dict, tmp: pathlib.Path, tag: str) -> pathlib.Path:
    proj = tmp / f"{bug['name']}-{tag}"
    shutil.copytree(HERE / bug["dir"], proj, ignore=shutil.ignore_patterns("BUGS.md"))
    sources.unpack(LIB[bug["dir"]], proj)
    if bug["build"]:
        subprocess.run(bug["build"], cwd=proj, check=True)
    return proj


def run_bug(bug: dict, tmp: pathlib.Path) -> dict:
    # theirs: a plain copy of the project (its scratch files stay there).
    proj = fresh_project(bug, tmp, "theirs")
    t = Theirs(proj)
    t0 = time.monotonic()
    bug["theirs"](t, proj)
    theirs_s = time.monotonic() - t0
    # ours: `serve` on another copy.
    proj = fresh_project(bug, tmp, "ours")
    (proj / "debugger-mcp.toml").write_text("brave_mode = true\n\n[watchdog]\nidle_seconds = 600\n")
    server = subprocess.Popen([binary(), "serve", "--project", str(proj), "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://"), url
        m = Mcp(url)
        try:
            o = Ours(m)
            t0 = time.monotonic()
            bug["ours"](o, proj)
            ours_s = time.monotonic() - t0
        finally:
            m.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return {"name": bug["name"], "lang": bug["lang"], "bug": bug["bug"], "questions": bug["questions"],
            "ours": {"calls": o.calls, "bytes": o.bytes, "s": round(ours_s, 1), "log": o.log},
            "theirs": {"calls": t.calls, "bytes": t.bytes, "s": round(theirs_s, 1), "log": t.log}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="one bug (the C crash): a smoke test")
    ap.add_argument("--only", help="run the bug of this name")
    ap.add_argument("--show", action="store_true", help="print every call and what it read")
    ap.add_argument("--json", help="write the results (with every call's text) to this file")
    a = ap.parse_args()
    global SHOW
    SHOW = a.show
    bugs = [b for b in BUGS if (not a.quick or b["name"] == "detach_twice") and (not a.only or b["name"] == a.only)]
    assert bugs, f"no bug named {a.only}: {[b['name'] for b in BUGS]}"
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="real-bugs-"))
    try:
        results = [run_bug(b, tmp) for b in bugs]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"six real bugs, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"| bug | lang | ours calls | ours bytes | theirs calls | theirs bytes |")
    print(f"|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | {r['lang']} | {r['ours']['calls']} | {r['ours']['bytes']:,} | {r['theirs']['calls']} | {r['theirs']['bytes']:,} |")
    tot = {w: {k: sum(r[w][k] for r in results) for k in ("calls", "bytes")} for w in ("ours", "theirs")}
    print(f"| total | | {tot['ours']['calls']} | {tot['ours']['bytes']:,} | {tot['theirs']['calls']} | {tot['theirs']['bytes']:,} |")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(results, indent=1))
    worse = [r["name"] for r in results if r["ours"]["calls"] > r["theirs"]["calls"]]
    verdict = not worse and (a.quick or a.only or (tot["ours"]["calls"] < tot["theirs"]["calls"]
                                                  and tot["ours"]["bytes"] <= tot["theirs"]["bytes"]))
    print("done-when (no more calls on any bug; fewer calls and no more bytes in total):",
          "met" if verdict else f"NOT met (more calls on: {worse or 'none'})")
    return 0 if verdict else 1


if __name__ == "__main__":
    sys.exit(main())
