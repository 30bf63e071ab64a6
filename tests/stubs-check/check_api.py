#!/usr/bin/env python3
"""Checks the hand-written IntelliJ stubs, and the plugin's use of them, against the project's API data
(intellij-plugin/api-data/platform-api.json): per intellij-community class the plugin uses, its kind,
modifiers, supertypes and the members the plugin's stubs declare, calls or must implement, with
their modifiers and threading rule, where and at which commit they were read, and per target branch
(252, 253, 261) whether that was checked. The format is described in intellij-plugin/api-data/README.md;
it restates facts read from intellij-community and holds none of its files or lines.

For every stub class (compiled, then read back with javap):
  - the class must be in the data under the module its citation names (`// intellij-community:
    <module>/src/...`): a class absent from it is internal/impl API or not read yet, and needs an
    ALLOWLIST entry;
  - interface/class/enum kind, abstract and final must match;
  - every public/protected stub member must be in the data with the same abstract/static/final/
    protected modifiers ("extra" members would compile here and fail against the real SDK);
  - for a type the plugin implements or extends, every abstract member, and for an interface
    every non-static method (default methods can be overridden), must be in the stub ("missing":
    the plugin could not see an overload it must handle, e.g. tooManyChildren(int, Runnable));
  - for a class read from its source (`read_from[].as == "source"`: modules without an api-dump,
    java/debugger/impl) the stub must extend the real superclass and invent no supertype;
  - a member's threading rule in the data must be the stub's `// threading:` contract.
For every IntelliJ class and member the compiled plugin references (javap -v constant pool):
  - the class must be in the data (or the ALLOWLIST) and the member listed for the class or one of
    its supertypes in the data.
Per target branch (252, 253, 261), a class marked absent is an error. A class read at a commit the
data ties to that branch (`branch_commits`: a file naming the branch was read at that same commit)
carries its members as they are there, and the stub members, the abstract members of a type the
plugin implements, and the plugin's references are compared with those too: a member missing or
with other modifiers on any target branch is an error. Classes with no such version are counted
as unknown, per branch, on every run (each says why in branches.<b>.why; branch_search lists what
was looked up).

Usage: check_api.py <api data .json> <stub sources dir> <plugin+kotlin-stub classes dir> <java-stub classes dir>
"""
import json
import os
import re
import subprocess
import sys

FLAG_CHARS = set("asfp")


def key_matches(want, have):
    """Whether a member key/type `have` (from javap, fully qualified) equals `want`, where `want`
    may hold `?Simple` placeholders: a name read from a source without its package (a same-package
    class or a nested type inherited from a supertype), which matches any class of that simple name."""
    if want == have:
        return True
    if "?" not in want:
        return False
    pattern = re.escape(want).replace(r"\?", "?")
    pattern = re.sub(r"\?(\w+)", r"(?:[\\w$]+[.$])*\1", pattern)
    return re.fullmatch(pattern, have) is not None


def find_member(members, key):
    """The source/dump key in members that matches the stub/plugin key, or None."""
    if key in members:
        return key
    for k in members:
        if "?" in k and key_matches(k, key):
            return k
    return None


BRANCHES = ("252", "253", "261")
MODIFIER_FLAGS = {"abstract": "a", "static": "s", "final": "f", "protected": "p"}
THREADING = {"edt", "read", "write", "bgt", "any"}


def load_data(path):
    """Reads the project's API data file into {module: {fqcn: entry}} with the entry fields the
    comparison uses: flags (c/a/f/e), supers, members {key: flags a/s/f/p}, threading
    {method name: kind}, source (True for a class read from its source, which adds the supertype
    check), superclass, read_from, branches, branch_members {branch: {key: flags}} (for the branches
    checked at a commit branch_commits identifies as that branch). Refuses an entry without its provenance."""
    data = json.load(open(path, encoding="utf-8"))
    branch_commits = data.get("branch_commits", {})
    for commit, info in branch_commits.items():
        if not re.fullmatch(r"[0-9a-f]{40}", commit) or not info.get("identified_by") or not info.get("says") \
                or info.get("branch") not in BRANCHES + (None,):
            raise SystemExit(f"{path}: branch_commits.{commit} needs 40 hex, identified_by (the file read at that commit), "
                             f"says (what it names) and branch (252|253|261, or null for another branch), got {info}")
    modules = {}
    for fqcn, c in data["classes"].items():
        where = f"{path}: {fqcn}"
        for field in ("module", "kind", "supertypes", "read_from", "members", "branches"):
            if field not in c:
                raise SystemExit(f"{where}: no '{field}' (see intellij-plugin/api-data/README.md)")
        for r in c["read_from"]:
            if not r.get("path") or not (r.get("commit") or r.get("file_id")) or r.get("as") not in ("api-dump", "source"):
                raise SystemExit(f"{where}: read_from needs path, commit (or file_id) and as: api-dump|source, got {r}")
        branch_members = {}
        for b in BRANCHES:
            st = c["branches"].get(b)
            if not st or st.get("status") not in ("checked", "unknown", "absent") or (st["status"] != "checked" and not st.get("why")):
                raise SystemExit(f"{where}: branches.{b} needs status checked|unknown|absent (and why, unless checked), got {st}")
            if st["status"] == "checked":
                # The facts as read at a commit of that branch: where, and the members themselves
                # (the same format as the class's own), never just a claim that they match.
                if not st.get("path") or not re.fullmatch(r"[0-9a-f]{40}", st.get("commit", "")) or not isinstance(st.get("members"), dict):
                    raise SystemExit(f"{where}: branches.{b} is checked, so it needs path, commit (40 hex) and members, got {sorted(st)}")
                known = branch_commits.get(st["commit"])
                if not known or known.get("branch") != b:
                    raise SystemExit(f"{where}: branches.{b} was read at {st['commit'][:12]}, which branch_commits does not identify as "
                                     f"branch {b} ({known.get('says') if known else 'not listed'}); a commit becomes a branch's only "
                                     f"through a file read at that same commit that names the branch")
                branch_members[b] = {}
                for key, m in st["members"].items():
                    unknown = set(m.get("modifiers", ())) - set(MODIFIER_FLAGS)
                    if unknown:
                        raise SystemExit(f"{where}: branches.{b} member {key}: unknown modifier(s) {sorted(unknown)}")
                    branch_members[b][key] = {MODIFIER_FLAGS[x] for x in m.get("modifiers", ())}
        kind = c["kind"]
        if kind not in ("class", "interface", "enum"):
            raise SystemExit(f"{where}: kind '{kind}' is not class|interface|enum")
        flags = {"class": {"c"}, "enum": {"e"}, "interface": set()}[kind]
        flags |= {MODIFIER_FLAGS[m] for m in c.get("modifiers", ())}
        members, threading = {}, {}
        for key, m in c["members"].items():
            unknown = set(m.get("modifiers", ())) - set(MODIFIER_FLAGS)
            if unknown:
                raise SystemExit(f"{where}: member {key}: unknown modifier(s) {sorted(unknown)}")
            members[key] = {MODIFIER_FLAGS[x] for x in m.get("modifiers", ())}
            if "threading" in m:
                if m["threading"] not in THREADING:
                    raise SystemExit(f"{where}: member {key}: threading '{m['threading']}' is not one of {sorted(THREADING)}")
                threading[key.split("(")[0]] = m["threading"]
        modules.setdefault(c["module"], {})[fqcn] = {
            "flags": flags, "supers": set(c["supertypes"]), "members": members, "threading": threading,
            "files": {path}, "source": any(r["as"] == "source" for r in c["read_from"]),
            "superclass": c.get("superclass"), "read_from": c["read_from"], "branches": c["branches"],
            "branch_members": branch_members}
    return modules


def stub_threading(stub_src):
    """{(fqcn, method name): kind} from the stubs' `// threading: <kind>` contract comments
    (check_threading.py's format: the comment, optional annotation lines, then the declaration)."""
    out = {}
    for dirpath, _, files in os.walk(stub_src):
        for f in files:
            if not f.endswith(".java"):
                continue
            lines = open(os.path.join(dirpath, f), encoding="utf-8").read().splitlines()
            pkg = next((re.match(r"package\s+([\w.]+);", l).group(1) for l in lines if l.startswith("package ")), "")
            pending = None
            for l in lines:
                m = re.match(r"^\s*// threading: (edt|read|write|bgt|any)\b", l)
                if m:
                    pending = m.group(1)
                elif pending and l.strip().startswith("@"):
                    continue
                elif pending:
                    mm = re.search(r"(\w+)\s*\(", l)
                    if mm:
                        out.setdefault((pkg + "." + f[:-5], mm.group(1)), pending)
                    pending = None
    return out


def load_allowlist(path):
    modules, classes = {}, {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"(module|class)\s+(\S+):\s*(.+)", line)
            if not m:
                raise SystemExit(f"{path}: cannot parse '{line}' (want 'module <path>: <reason>' or 'class <fqcn>: <reason>')")
            (modules if m.group(1) == "module" else classes)[m.group(2)] = m.group(3)
    return modules, classes


def stub_modules(stub_src):
    """fqcn of each top-level stub declaration -> cited module (the path before /src/)."""
    result = {}
    for dirpath, _, files in os.walk(stub_src):
        for f in files:
            if not f.endswith((".java", ".kt")):
                continue
            text = open(os.path.join(dirpath, f), encoding="utf-8").read()
            pkg = re.search(r"^\s*package\s+([\w.]+)", text, re.M).group(1)
            cite = re.search(r"// intellij-community: (\S+)", text).group(1)
            module = cite.split("/src/")[0] if "/src/" in cite else os.path.dirname(cite)
            stem = f.rsplit(".", 1)[0]
            result[pkg + "." + stem] = module
            if f.endswith(".kt"):
                # Top-level functions compile to <File>Kt; a .kt file may declare several classes.
                result[pkg + "." + stem[0].upper() + stem[1:] + "Kt"] = module
                for decl in re.findall(r"^(?:[a-z]+\s+)*(?:class|interface|object)\s+(\w+)", text, re.M):
                    result[pkg + "." + decl] = module
    return result


def class_files(root):
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".class"):
                out.append(os.path.relpath(os.path.join(dirpath, f), root)[:-6].replace(os.sep, "."))
    return sorted(out)


DESC = {"Z": "Z", "B": "B", "C": "C", "S": "S", "I": "I", "J": "J", "F": "F", "D": "D", "V": "V"}


def desc_types(desc):
    types, i = [], 0
    while i < len(desc):
        dims = 0
        while desc[i] == "[":
            dims += 1
            i += 1
        if desc[i] == "L":
            end = desc.index(";", i)
            t = desc[i + 1:end].replace("/", ".")
            i = end + 1
        else:
            t = DESC[desc[i]]
            i += 1
        types.append(t + "[]" * dims)
    return types


def member_key(name, descriptor):
    if descriptor.startswith("("):
        params, ret = descriptor[1:].split(")")
        return f"{name}({','.join(desc_types(params))}):{desc_types(ret)[0]}"
    return f"{name}:{desc_types(descriptor)[0]}"


def javap_classes(cp, names):
    """{fqcn: {"kind", "flags", "supers", "members": {key: flags}}} for public/protected members."""
    result = {}
    for i in range(0, len(names), 200):
        out = subprocess.run(["javap", "-protected", "-s", "-cp", cp] + names[i:i + 200], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit("javap failed: " + out.stderr)
        current, pending = None, None
        for line in out.stdout.splitlines():
            s = line.strip()
            m = re.match(r"^(?:(public|protected)\s+)?((?:abstract |final |static |sealed )*)(class|interface|enum|@interface)\s+([\w.$]+)(?:<.*?>)?(.*)\{$", s)
            if m and not line.startswith(" "):
                mods = set(m.group(2).split())
                kind = "enum" if m.group(3) == "enum" else m.group(3)
                rest = m.group(5)
                while "<" in rest:
                    rest = re.sub(r"<[^<>]*>", "", rest)
                supers = set(t.strip() for t in re.split(r"extends|implements|,", rest) if t.strip())
                if "java.lang.Enum" in supers:
                    kind = "enum"  # Kotlin enum classes print as "final class ... extends java.lang.Enum"
                current = {"kind": kind, "mods": mods, "supers": supers, "members": {}}
                result[m.group(4)] = current
                continue
            if s.startswith("descriptor:") and pending is not None:
                name, mods = pending
                current["members"][member_key(name, s.split(":", 1)[1].strip())] = mods
                pending = None
                continue
            if current is None or not s.endswith(";") or s.startswith("static {}"):
                continue
            decl = re.sub(r"<[^<>]*(<[^<>]*>)*[^<>]*>", "", s)  # drop generics
            decl = re.sub(r"\s+throws\s+.*;$", ";", decl)
            words = decl.split("(")[0].split()
            mods = {w for w in words if w in ("public", "protected", "static", "final", "abstract", "default", "native", "synchronized", "transient", "volatile")}
            if "(" in decl:
                name = words[-1]
                if name == [k for k in result if result[k] is current][0]:
                    name = "<init>"
                name = name.split(".")[-1] if name != "<init>" else name
            else:
                name = decl.rstrip(";").split("=")[0].split()[-1]
            flags = set()
            if "abstract" in mods or (current["kind"] == "interface" and "(" in decl and not mods & {"default", "static"}):
                flags.add("a")
            if "static" in mods or (current["kind"] == "interface" and "(" not in decl):
                flags.add("s")
            if "final" in mods or (current["kind"] == "interface" and "(" not in decl):
                flags.add("f")
            if "protected" in mods:
                flags.add("p")
            pending = (name, flags)
    return result


def dump_kind(flags):
    if "e" in flags:
        return "enum"
    if flags & set("acf"):
        return "class"
    return "interface"


def main(data_file, stub_src, plugin_classes, java_stub_classes):
    modules = load_data(data_file)
    allowed_modules, allowed_classes = load_allowlist(os.path.join(os.path.dirname(data_file), "ALLOWLIST.txt"))
    cited = stub_modules(stub_src)
    cp = plugin_classes + os.pathsep + java_stub_classes
    stub_names = [c for c in class_files(plugin_classes) + class_files(java_stub_classes)
                  if not c.startswith("com.debuggermcp.") and not c.endswith("$DefaultImpls")]
    plugin_names = [c for c in class_files(plugin_classes) if c.startswith("com.debuggermcp.")]
    stubs = javap_classes(cp, stub_names)
    plugin = javap_classes(cp, plugin_names)
    errors, unverified = [], set()

    def module_of(fqcn):
        top = fqcn.split("$")[0]
        return cited.get(top)

    def dump_class(fqcn):
        module = module_of(fqcn)
        if module in modules and fqcn in modules[module]:
            return modules[module][fqcn]
        return None

    implemented = set()
    for info in plugin.values():
        implemented |= {s for s in info["supers"] if s in stubs}
    # Supertypes of implemented stub types are implemented too.
    changed = True
    while changed:
        changed = False
        for s in list(implemented):
            for sup in stubs.get(s, {}).get("supers", ()):
                if sup in stubs and sup not in implemented:
                    implemented.add(sup)
                    changed = True

    checked, compared = 0, []
    for name, stub in sorted(stubs.items()):
        # Anonymous classes inside stub bodies (behaviour for the JUnit fakes, e.g. ModalityState's
        # named placeholders) are no API: the plugin cannot name them, and the dumps never list them.
        if re.search(r"\$\d+$", name):
            continue
        module = module_of(name)
        if module is None:
            errors.append(f"{name}: stub class without a citation")
            continue
        if module not in modules:
            if module not in allowed_modules:
                errors.append(f"{name}: module {module} has no class in the API data and no ALLOWLIST entry")
            unverified.add(module)
            continue
        dump = dump_class(name)
        if dump is None:
            if name in allowed_classes:
                continue
            errors.append(f"{name}: not in the API data under {module} (internal or impl API, or not read yet); read it from intellij-community into the data, stop using it, or add an ALLOWLIST entry with the reason")
            continue
        checked += 1
        compared.append((name, stub, dump))
        what = "API data"
        want_kind = dump_kind(dump["flags"])
        if stub["kind"] != want_kind:
            errors.append(f"{name}: stub is {stub['kind']}, the API data says {want_kind}")
        if want_kind == "class":
            if ("a" in dump["flags"]) != ("abstract" in stub["mods"]):
                errors.append(f"{name}: abstract differs ({what} flags '{''.join(sorted(dump['flags']))}')")
            if ("f" in dump["flags"]) != ("final" in stub["mods"]):
                errors.append(f"{name}: final differs ({what} flags '{''.join(sorted(dump['flags']))}')")
        if dump.get("source"):
            # Supertypes (read from the class declaration; those read from api-dumps are not
            # compared yet): the stub may leave out an interface, but must not invent one, and
            # must extend the real superclass.
            for sup in sorted(stub["supers"]):
                if not any(key_matches(real, sup) for real in dump["supers"]):
                    errors.append(f"{name}: stub extends/implements {sup}, the source does not")
            real_super = dump.get("superclass")
            if real_super and not any(key_matches(real_super, sup) for sup in stub["supers"]):
                errors.append(f"{name}: stub does not extend {real_super} as the source does")
        for key, flags in sorted(stub["members"].items()):
            if "$" in key.split("(")[0].split(":")[0]:
                continue
            found_key = find_member(dump["members"], key)
            if found_key is None:
                if "kotlin.jvm.internal.DefaultConstructorMarker" in key:
                    continue  # synthetic constructor of a Kotlin companion/default arguments
                prefix = key.split(")")[0] + ")"
                if "(" in key and any(k != key and k.startswith(prefix) and find_member(dump["members"], k)
                                      for k in stub["members"]):
                    continue  # bridge method javac adds for a covariant override the dump lists
                real = [k for k in dump["members"] if "(" in key and k.startswith(prefix)]
                if real:
                    errors.append(f"{name}: {key} returns another type than the API data's {real[0]}")
                    continue
                if key.startswith("<init>") and want_kind == "interface":
                    continue
                errors.append(f"{name}: extra member {key} (not in the API data)")
                continue
            want = dump["members"][found_key] & FLAG_CHARS
            if flags & FLAG_CHARS != want:
                errors.append(f"{name}.{key}: flags '{''.join(sorted(flags & FLAG_CHARS))}' but the API data says '{''.join(sorted(want))}'")
        if name in implemented:
            for key, flags in sorted(dump["members"].items()):
                needed = "a" in flags or (want_kind == "interface" and "(" in key and "s" not in flags)
                if needed and not any(key_matches(key, k) for k in stub["members"]):
                    errors.append(f"{name}: missing member {key} (the plugin implements this type)")

    # Per target branch, for the classes read at a commit of that branch: the stub's members (the
    # ones the main data lists) must be there with the same modifiers, and a type the plugin
    # implements must not have an abstract member there that the stub lacks.
    for name, stub, dump in compared:
        for b, bmembers in sorted(dump["branch_members"].items()):
            at = f"branch {b} (read at {dump['branches'][b]['commit'][:12]})"
            for key, flags in sorted(stub["members"].items()):
                if "$" in key.split("(")[0].split(":")[0] or find_member(dump["members"], key) is None:
                    continue  # not an API member, or already reported against the main data
                bkey = find_member(bmembers, key)
                if bkey is None:
                    errors.append(f"{name}: {key} missing on {at}")
                elif flags & FLAG_CHARS != bmembers[bkey] & FLAG_CHARS:
                    errors.append(f"{name}.{key}: flags '{''.join(sorted(bmembers[bkey] & FLAG_CHARS))}' on {at}, "
                                  f"the stub says '{''.join(sorted(flags & FLAG_CHARS))}'")
            if name in implemented:
                kind = dump_kind(dump["flags"])
                for key, flags in sorted(bmembers.items()):
                    needed = "a" in flags or (kind == "interface" and "(" in key and "s" not in flags)
                    if needed and not any(key_matches(key, k) for k in stub["members"]):
                        errors.append(f"{name}: missing member {key} on {at} (the plugin implements this type)")

    def on_branch(owner, key, name, b):
        """Whether key is reachable from owner on branch b: True when a class on the way has it in
        its facts of that branch; False when the class the main data says declares it was read on
        that branch without it (and no other class read there has it); None when nothing can be
        said (the declaring class was not read at a commit of that branch)."""
        seen, queue, declaring = set(), [owner], None
        while queue:
            c = queue.pop(0)
            if c in seen:
                continue
            seen.add(c)
            d = dump_class(c)
            if d is None:
                continue
            if b in d["branch_members"] and find_member(d["branch_members"][b], key) is not None:
                return True
            if declaring is None and find_member(d["members"], key) is not None:
                declaring = d
            if name != "<init>":
                queue += sorted(d["supers"])
        return False if declaring is not None and b in declaring["branch_members"] else None

    # What the compiled plugin references.
    refs = set()
    out = subprocess.run(["javap", "-v", "-cp", cp] + plugin_names, capture_output=True, text=True)
    for m in re.finditer(r"= (Class|Methodref|InterfaceMethodref|Fieldref)\s+\S+\s+// +(\S+)", out.stdout):
        target = m.group(2).replace('"', "")  # javap quotes "<init>" and array class names
        if re.match(r"^\[*L?(com/intellij|org/jetbrains/(ide|concurrency|java))", target):
            if m.group(1) == "Class":
                target = re.sub(r"^\[+L?", "", target).rstrip(";")
            refs.add((m.group(1), target))
    member_errors = 0
    for kind, target in sorted(refs):
        if kind == "Class":
            owner = target.replace("/", ".")
            member = None
        else:
            owner_path, member = target.split(".", 1) if "." in target.split(":")[0] else (target, None)
            owner = owner_path.replace("/", ".")
        module = module_of(owner)
        if module is None or module not in modules:
            if module is not None:
                unverified.add(module)
            continue
        dump = dump_class(owner)
        if dump is None:
            if owner not in allowed_classes:
                errors.append(f"plugin uses {owner}, which is not in the API data under {module}")
            continue
        if member is None:
            continue
        name, desc = member.split(":", 1)
        key = member_key(name, desc)
        seen, queue, found, left_dumps = set(), [owner], False, False
        while queue and not found:
            c = queue.pop()
            if c in seen:
                continue
            seen.add(c)
            d = dump_class(c)
            if d is None:
                left_dumps = True
                continue
            found = find_member(d["members"], key) is not None
            if name == "<init>":
                break  # constructors are not inherited: the owner's list decides
            queue += list(d["supers"])
            if not d["supers"] and dump_kind(d["flags"]) == "class":
                left_dumps = True  # java.lang.Object / unlisted superclass
        if not found and not left_dumps:
            errors.append(f"plugin calls {owner}.{key}, which the API data does not list")
            member_errors += 1
        for b in sorted(dump["branch_members"]):
            if on_branch(owner, key, name, b) is False:
                errors.append(f"plugin calls {owner}.{key}, which is absent on branch {b} "
                              f"(read at {dump['branches'][b]['commit'][:12]})")

    # Threading contracts: the data records the rule read from the source; the stub's contract
    # comment (what check_threading.py and the JUnit fakes go by) must say the same.
    contracts = stub_threading(stub_src)
    for module, classes in modules.items():
        for fqcn, entry in classes.items():
            for mname, kind in sorted(entry["threading"].items()):
                got = contracts.get((fqcn, mname))
                if got != kind:
                    errors.append(f"{fqcn}.{mname}: threading '{kind}' in the API data, the stub's contract says '{got or 'nothing'}'")
            for (cls, mname), kind in contracts.items():
                if cls == fqcn and mname not in entry["threading"] and any(k.startswith(mname + "(") for k in entry["members"]):
                    errors.append(f"{fqcn}.{mname}: the stub's threading contract '{kind}' is not recorded in the API data")

    # Target branches: a class the plugin uses that a branch lacks is an error; one whose branch
    # version could not be read is reported, per branch, as unknown (never as checked).
    used = {n for n in stubs} | {t.split(".")[0].replace("/", ".") if k != "Class" else t.replace("/", ".") for k, t in refs}
    per_branch = {b: {"checked": [], "unknown": [], "absent": []} for b in BRANCHES}
    for module, classes in modules.items():
        for fqcn, entry in classes.items():
            if fqcn not in used:
                continue
            for b in BRANCHES:
                st = entry["branches"][b]
                per_branch[b][st["status"]].append(fqcn)
                if st["status"] == "absent":
                    errors.append(f"{fqcn}: absent on branch {b} ({st['why']}), yet the plugin uses it")

    for e in errors:
        print(e, file=sys.stderr)
    sourced = sorted(m for m, classes in modules.items() if any(c.get("source") for c in classes.values()))
    print(f"api check: {checked} stub classes compared with {sum(len(v) for v in modules.values())} classes of the API data "
          f"({len(modules)} module(s); read from sources, not dumps: {', '.join(sourced) or 'none'}; unverified: "
          f"{len(unverified) or 'none'}); {len(refs)} plugin references checked; {len(errors)} problem(s)")
    for b in BRANCHES:
        pb = per_branch[b]
        print(f"  branch {b}: {len(pb['checked'])} class(es) checked against a version of that branch, "
              f"{len(pb['unknown'])} unknown (no version at a commit tied to {b} could be read; see branches.{b}.why and branch_search), "
              f"{len(pb['absent'])} absent")
    for module in sorted(unverified):
        print(f"  unverified (no API data): {module} — {allowed_modules.get(module, 'NOT ALLOWLISTED')}")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
