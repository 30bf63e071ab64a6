#!/usr/bin/env python3
"""Fails when a tracked file looks like third-party material (issue 30): the repository holds only
what we wrote; third-party code is fetched from a registry, pinned and hash-checked, and facts
about it are restated in our own form.

A tracked file is reported when it is
  license      a license file (LICENSE, LICENCE, COPYING, NOTICE, UNLICENSE, with any suffix)
               anywhere but the repository root, where only our own may stand;
  copyright    a text file whose first 30 lines carry a copyright line or an SPDX identifier
               (a header of someone else's file: ours carry none), or any text file holding a
               license's boilerplate (MIT's grant, the Apache or GNU license notices);
  marker       a text file saying it, or part of it, is another project's: "vendored", "copied
               verbatim/unchanged/from", "verbatim copy/excerpt";
  binary       a built or archived binary (.jar, .class, .so, .dylib, .dll, .zip, .whl, .tar.*),
               which we never write by hand (the Gradle wrapper jar was one).
This file is exempt from the marker and copyright rules: it has to name them.

Usage: check_own_files.py [<repository root>]   (default: this checkout)
       check_own_files.py --self-test           (plants one file of each kind in a scratch
                                                 repository and expects exactly those reported)
"""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import tempfile

SELF = "tests/repo-check/check_own_files.py"
LICENSE_NAME = re.compile(r"^(licen[cs]e|copying|notice|unlicense)([._-].*)?$", re.I)
HEADER = re.compile(r"(\bcopyright\b\s*(\(c\)|©|\d{4})|©\s*\d{4}|SPDX-License-Identifier)", re.I)
BOILERPLATE = re.compile(r"(Permission is hereby granted, free of charge|Licensed under the Apache License"
                         r"|GNU (Lesser )?General Public License as published|Redistribution and use in source and binary forms)", re.I)
MARKER = re.compile(r"\b(vendored|copied (verbatim|unchanged|from)|verbatim (copy|copies|excerpts?))\b", re.I)
BINARY = re.compile(r"\.(jar|class|so|dylib|dll|zip|whl|tar|tgz|tar\.\w+)$", re.I)


def tracked(root: pathlib.Path) -> list[str]:
    out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def problems(root: pathlib.Path) -> list[tuple[str, str, str]]:
    """(file[:line], rule, what to do) for each tracked file that looks third-party."""
    found = []
    for rel in tracked(root):
        path = root / rel
        name = os.path.basename(rel)
        if "/" in rel and LICENSE_NAME.match(name):
            found.append((rel, "license", "a license file outside the repository root (third-party "
                          "material: fetch it from its registry instead)"))
            continue
        if BINARY.search(name):
            found.append((rel, "binary", "a built or archived binary is tracked (fetch or build it instead)"))
            continue
        if rel == SELF or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        lines = text.splitlines()
        hit = next((i for i, l in enumerate(lines[:30], 1) if HEADER.search(l)), None)
        if hit:
            found.append((f"{rel}:{hit}", "copyright", f"a copyright/SPDX header ('{lines[hit - 1].strip()[:80]}'): "
                          "another project's file; fetch it or restate its facts in our own words"))
            continue
        m = BOILERPLATE.search(text)
        if m:
            line = text[:m.start()].count("\n") + 1
            found.append((f"{rel}:{line}", "copyright", f"license text ('{m.group(0)}')"))
            continue
        m = MARKER.search(text)
        if m:
            line = text[:m.start()].count("\n") + 1
            found.append((f"{rel}:{line}", "marker", f"says '{m.group(0)}': third-party material must be fetched, "
                          "not kept (or reword if the file is ours)"))
    return found


def self_test() -> int:
    plant = {
        "LICENSE": "our own license may stand at the root\n",
        "lib/LICENSE.txt": "MIT License\n",
        "src/parser.c": "/*\n  Copyright (c) 2009-2017 Someone Else\n*/\nint x;\n",
        "scripts/gradlew": "#!/bin/sh\n#\n# SPDX-License-Identifier: Apache-2.0\n",
        "docs/notes.md": "# Notes\n\nThis directory is vendored from upstream.\n",
        "data/api.txt": "lines copied verbatim from the real source\n",
        "tools/wrapper.jar": "PK\x03\x04",
        "src/main.rs": "// Ours: a path under debugpy/_vendored/ is only a string here.\nfn main() {}\n",
        "docs/policy.md": "We copy nothing; we restate facts (copyright years are not headers here).\n" * 1,
    }
    expect = {"lib/LICENSE.txt": "license", "src/parser.c": "copyright", "scripts/gradlew": "copyright",
              "docs/notes.md": "marker", "data/api.txt": "marker", "tools/wrapper.jar": "binary"}
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        for rel, text in plant.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
        got = {where.split(":")[0]: kind for where, kind, _ in problems(root)}
    if got != expect:
        print(f"check_own_files self-test: FAILED: reported {got}, expected {expect}", file=sys.stderr)
        return 1
    print(f"check_own_files self-test: ok ({len(expect)} planted third-party files reported, "
          f"{len(plant) - len(expect)} of ours left alone)")
    return 0


def main(argv: list[str]) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    found = problems(root)
    for where, kind, what in found:
        print(f"{where}: {kind}: {what}", file=sys.stderr)
    n = len(tracked(root))
    print(f"own files: {n} tracked files checked, {len(found)} look third-party")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
