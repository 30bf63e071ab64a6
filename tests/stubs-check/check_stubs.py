#!/usr/bin/env python3
"""Asserts that every declaration in the compile-only IntelliJ stubs cites its source.

Each class/interface/enum/object/annotation declared in intellij-plugin/stubs/src (top-level and
nested) must be directly preceded (annotations in between allowed) by a comment
`// intellij-community: <path>` naming the file of JetBrains/intellij-community whose signature
it mirrors. The cited path must end with the stub's own file name (so a Java stub cites a .java
file and a Kotlin stub a .kt file) and its package directories must match the stub's package
(or, for a source root with a package prefix such as platform/core-ui/src, be its tail).
"""
import os
import re
import sys

DECL = re.compile(
    r"^\s*(?:(?:public|protected|private|internal|abstract|final|open|static|sealed|data|enum|annotation|fun)\s+)*"
    r"(class|interface|enum|object|@interface)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
# Top-level Kotlin functions (e.g. coroutines.kt's readAction) are declarations too.
TOP_FUN = re.compile(r"^(?:suspend\s+|inline\s+)*fun\s+(?:<[^>]*>\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\(")
CITE = re.compile(r"^\s*// intellij-community: ((?:[\w.-]+/)+[\w.-]+\.(?:java|kt))\s*$")
PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;?\s*$")


def in_prefixed_root(cited, expected_dir):
    """Some modules (platform/core-ui) declare a package prefix for their source root:
    platform/core-ui/src/ui/ColoredText.java is com.intellij.ui.ColoredText. The directories under
    src/ must then be the tail of the package."""
    if "/src/" not in cited:
        return False
    under_src = os.path.dirname(cited.split("/src/", 1)[1])
    return bool(under_src) and expected_dir.endswith("/" + under_src)


def check_file(path):
    errors = []
    lines = open(path, encoding="utf-8").read().splitlines()
    name = os.path.basename(path)
    package = next((m.group(1) for m in map(PACKAGE.match, lines) if m), None)
    if package is None:
        return [f"{path}: no package declaration"]
    expected_dir = package.replace(".", "/")
    rel_dir = os.path.dirname(path).replace(os.sep, "/")
    if not rel_dir.endswith(expected_dir):
        errors.append(f"{path}: package {package} does not match the directory")
    in_block_comment = False
    count = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if in_block_comment:
            in_block_comment = "*/" not in stripped
            continue
        if stripped.startswith("/*"):
            in_block_comment = "*/" not in stripped
            continue
        if stripped.startswith("//") or stripped.startswith("*"):
            continue
        m = DECL.match(line)
        if m and m.group(1) == "object" and "companion" in line.split("object")[0]:
            continue
        if not m and name.endswith(".kt"):
            m = TOP_FUN.match(line)
            if m:
                m = re.match(r"(.*?)(\w+)\s*\(", "fun " + m.group(1) + "(")  # group(2) = name
        if not m:
            continue
        count += 1
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("@"):
            j -= 1
        cite = CITE.match(lines[j]) if j >= 0 else None
        where = f"{path}:{i + 1} ({m.group(2)})"
        if not cite:
            errors.append(f"{where}: missing '// intellij-community: <path>' citation on the line before")
            continue
        cited = cite.group(1)
        if os.path.basename(cited) != name:
            errors.append(f"{where}: cites {cited}, but the stub file is {name}")
        if f"/{expected_dir}/" not in f"/{cited}" and not in_prefixed_root(cited, expected_dir):
            errors.append(f"{where}: cites {cited}, which is not in package {package}")
    if count == 0:
        errors.append(f"{path}: declares nothing")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "intellij-plugin/stubs/src"
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith((".java", ".kt"))
    )
    if not files:
        print(f"no stubs under {root}", file=sys.stderr)
        return 1
    errors = [e for f in files for e in check_file(f)]
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"stub citations: {len(errors)} problem(s) in {len(files)} files", file=sys.stderr)
        return 1
    print(f"stub citations ok: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
