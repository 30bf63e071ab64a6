#!/usr/bin/env python3
"""Every platform method the compiled plugin calls, in the scope below, must carry its threading
contract in the stub that declares it, read from the real source:

    // threading: <edt|read|write|bgt|any> <source: path, commit or file id; what it says>

directly above the declaration (annotation lines in between allowed). `edt` = `@RequiresEdt` or
"called from the Event Dispatch Thread"; `read` = `@RequiresReadLock` / "in a read action";
`write` = `@RequiresWriteLock` / write action on the EDT; `bgt` = `@RequiresBackgroundThread` or
"not on the EDT / not under the read lock"; `any` = no rule in the source (say so). The JUnit
fakes enforce these contracts through FakeApplication (requireEdt, requireRead, ...).

A method whose contract is not represented fails the check; so does a contract line without a
source, and one marked "unverified" (every contract in scope was read from the sources in issue 17).
Scope: the XDebugger API and the application, VFS, PSI and run APIs the adapter calls
(the kinds of call issue 17 found in the wrong context). Other referenced methods are counted.

Usage: check_threading.py <stub src dir> <compiled plugin classes dir>
"""
import os
import re
import subprocess
import sys

SCOPE = (
    "com.intellij.xdebugger.",
    "com.intellij.openapi.application.Application",
    "com.intellij.openapi.application.CoroutinesKt",
    "com.intellij.openapi.vfs.",
    "com.intellij.psi.PsiManager",
    "com.intellij.execution.ProgramRunnerUtil",
    "com.intellij.execution.RunManager",
)
CONTRACT = re.compile(r"^\s*// threading: (edt|read|write|bgt|any)\b\s*(.*)$")
SOURCED = re.compile(r"(intellij-community|file id \d+|@[0-9a-f]{7,}|[\w/]+\.(java|kt))")


def plugin_refs(classes):
    names = []
    for dirpath, _, files in os.walk(classes):
        for f in files:
            if f.endswith(".class"):
                rel = os.path.relpath(os.path.join(dirpath, f), classes)[:-6].replace(os.sep, ".")
                if rel.startswith("com.debuggermcp."):
                    names.append(rel)
    refs = set()
    for i in range(0, len(names), 200):
        out = subprocess.run(["javap", "-v", "-cp", classes] + sorted(names)[i:i + 200], capture_output=True, text=True)
        for m in re.finditer(r"= (?:Methodref|InterfaceMethodref)\s+\S+\s+// +\"?([\w/$]+)\"?\.\"?([\w<>$]+)\"?:", out.stdout):
            owner, name = m.group(1).replace("/", "."), m.group(2)
            # java.lang.Object / Enum members (Kotlin `when` over an enum calls ordinal/values) have no platform contract.
            if name.startswith("<") or owner.startswith("com.debuggermcp.") or name in ("hashCode", "equals", "toString", "ordinal", "values", "valueOf", "name"):
                continue
            if owner.startswith(("com.intellij.", "org.jetbrains.ide.", "org.jetbrains.concurrency.", "org.jetbrains.java.")):
                refs.add((owner, name))
    return refs


def stub_files(src):
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if f.endswith((".java", ".kt")):
                out.setdefault(os.path.splitext(f)[0], []).append(os.path.join(dirpath, f))
    return out


def declaration_names(name, kotlin):
    """The source names a JVM method name can be declared under (Kotlin properties: get/is/set)."""
    names = {name}
    if kotlin:
        for prefix in ("get", "is", "set"):
            if name.startswith(prefix) and len(name) > len(prefix) and name[len(prefix)].isupper():
                prop = name[len(prefix)].lower() + name[len(prefix) + 1:]
                names.add(prop if prefix != "is" else name)
    return names


def find_contract(path, name):
    """(found declaration?, contract kind or None, source text) for method `name` in stub `path`."""
    lines = open(path, encoding="utf-8").read().splitlines()
    kotlin = path.endswith(".kt")
    found = False
    for want in declaration_names(name, kotlin):
        decl = re.compile(r"^\s*(?!//|\*|/\*).*?(\bfun\s+(<[^>]*>\s*)?(\w+\.)?%s\s*\(|\b(val|var)\s+%s\b|[\s>\]]%s\s*\()" % (want, want, want))
        for i, line in enumerate(lines):
            if not decl.search(line) or line.strip().startswith(("//", "*", "/*", "import ", "package ")):
                continue
            found = True
            j = i - 1
            while j >= 0 and (lines[j].strip().startswith("@") or (lines[j].strip().startswith("//") and not CONTRACT.match(lines[j]))):
                j -= 1
            m = CONTRACT.match(lines[j]) if j >= 0 else None
            if m:
                return True, m.group(1), m.group(2)
    return found, None, ""


def main(src, classes):
    files = stub_files(src)
    errors, checked, out_of_scope, unverified = [], 0, 0, 0
    for owner, name in sorted(plugin_refs(classes)):
        if not owner.startswith(SCOPE):
            out_of_scope += 1
            continue
        outer = owner.split(".")[-1].split("$")[0]
        candidates = files.get(outer, [])
        if owner.endswith("Kt"):
            candidates = files.get(outer[:-2].lower(), []) + files.get(outer[:-2], [])
        result = None
        for path in candidates:
            found, kind, source = find_contract(path, name)
            if found:
                result = (path, kind, source)
                if kind:
                    break
        if result is None:
            # Inherited from a supertype's stub: look for the declaration in any stub of the scope.
            for paths in files.values():
                for path in paths:
                    found, kind, source = find_contract(path, name)
                    if found and kind:
                        result = (path, kind, source)
                        break
                if result:
                    break
        checked += 1
        if result is None or result[1] is None:
            where = result[0] if result else "(no stub declares it)"
            errors.append(f"{owner}.{name}: threading contract not represented in {where}; add `// threading: <edt|read|write|bgt|any> <source>` read from intellij-community")
        elif not SOURCED.search(result[2]):
            errors.append(f"{owner}.{name}: threading contract in {result[0]} cites no source ({result[2]!r})")
        elif "unverified" in result[2]:
            # Every contract in scope has been read from the sources (issue 17): a new one must be too.
            unverified += 1
            errors.append(f"{owner}.{name}: threading contract in {result[0]} is marked unverified; read the real source and cite it")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"threading check: {checked} referenced platform methods in scope checked for a contract in the stubs"
          f" ({unverified} of them marked unverified, each an error; {out_of_scope} referenced methods outside the scope);"
          f" {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
