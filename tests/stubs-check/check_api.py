#!/usr/bin/env python3
"""Checks the hand-written IntelliJ stubs, and the plugin's use of them, against intellij-community's
API dumps (intellij-plugin/api-dumps/<module>/api-dump*.txt, copied from the per-module
api-dump.txt / api-dump-unreviewed.txt with source path and commit in their header).

For every stub class (compiled, then read back with javap):
  - the class must be listed in the dump of the module its citation names (`// intellij-community:
    <module>/src/...`): a class absent from it is internal/impl API and needs an ALLOWLIST entry;
  - interface/class/enum kind, abstract and final must match;
  - every public/protected stub member must exist in the dump with the same abstract/static/final/
    protected flags ("extra" members would compile here and fail against the real SDK);
  - for a type the plugin implements or extends, every abstract member, and for an interface
    every non-static method (default methods can be overridden), must be in the stub ("missing":
    the plugin could not see an overload it must handle, e.g. tooManyChildren(int, Runnable)).
For every IntelliJ class and member the compiled plugin references (javap -v constant pool):
  - the class must be covered by a dump (or the ALLOWLIST) and the member listed for the class or
    one of its dump-listed supertypes.
Modules whose dumps are not imported yet must be named in ALLOWLIST (`module <path>: <reason>`);
their classes are reported as unverified, never silently passed.

A module without an api-dump in intellij-community (java/debugger/impl) is checked against verbatim
excerpts of its real sources instead (<module>/sources/<Class>.java.txt: package, imports, class
declaration and public/protected member declaration lines); parse_source_excerpt turns them into the
same structure a dump gives, and the same comparison runs, plus a supertype check (see there).

Usage: check_api.py <api-dumps dir> <stub sources dir> <plugin+kotlin-stub classes dir> <java-stub classes dir>
"""
import os
import re
import subprocess
import sys

FLAG_CHARS = set("asfp")


def parse_dump_file(path, classes):
    current = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if not line.startswith("- "):
            flags, _, name = line.rpartition(":") if ":" in line else ("", "", line)
            entry = classes.setdefault(name, {"flags": set(), "supers": set(), "members": {}, "files": set()})
            entry["flags"] |= set(flags)
            entry["files"].add(path)
            current = entry
            continue
        body = line[2:]
        if "(" not in body and ":" not in body:
            current["supers"].add(body)
            continue
        if "(" in body:
            head = body[:body.index("(")]
            flags, key = (head.split(":", 1)[0], body[len(head.split(":", 1)[0]) + 1:]) if ":" in head else ("", body)
        else:
            parts = body.split(":")
            flags, key = (parts[0], ":".join(parts[1:])) if len(parts) == 3 else ("", body)
        current["members"][key] = set(flags)


# --- Source excerpts (modules that have no api-dump) -------------------------------------------
# parse_source_excerpt reads declaration lines copied verbatim from a .java file and yields what a
# dump section gives: class flags (c/a/f/e), supertypes, and members keyed like the dumps
# (`name(params):return` with JVM-descriptor primitives, erased generics, fully qualified classes;
# `<init>` for constructors; `name:type` for fields) with flags a/s/f/p.
# It handles: one top-level class/interface/enum per file; declarations spread over several lines
# (a declaration ends at `{` or `;`); inline annotations (dropped); class and method type
# parameters (erased to their first bound, or Object); arrays and varargs; the implicit public
# no-argument constructor of a class that declares none; implicit interface modifiers.
# It does not handle: nested/inner classes, records, Kotlin sources, annotation types, enum
# constants, package-private members (not API), and annotations themselves (nullability and
# @ApiStatus markers are not compared). Names it cannot resolve with certainty from the excerpt
# alone (same-package classes, and nested types inherited from a supertype such as
# XBreakpointType.XBreakpointCreator) are kept as `?Simple` and match any class of that simple name
# (see key_matches); explicit imports, java.lang and wildcard imports confirmed by the running JDK
# are resolved exactly.

PRIMS = {"boolean": "Z", "byte": "B", "char": "C", "short": "S", "int": "I", "long": "J",
         "float": "F", "double": "D", "void": "V"}
MODIFIERS = {"public", "protected", "private", "static", "final", "abstract", "default", "native",
             "synchronized", "transient", "volatile", "strictfp", "sealed", "non-sealed"}
_jdk_known = {}


def jdk_has(fqcn):
    """Whether the running JDK has this class (resolves java.lang and JDK wildcard imports)."""
    if fqcn not in _jdk_known:
        _jdk_known[fqcn] = subprocess.run(["javap", fqcn], capture_output=True).returncode == 0
    return _jdk_known[fqcn]


def drop_annotations(text):
    return re.sub(r"@[\w.]+(\s*\((?:[^()]|\([^()]*\))*\))?\s*", "", text)


def split_top(text, sep=","):
    """Splits at separators outside <...> and (...)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def take_angles(text):
    """('<...>', rest) when text starts with a balanced <...>, else ('', text)."""
    text = text.lstrip()
    if not text.startswith("<"):
        return "", text
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "<"
        depth -= ch == ">"
        if depth == 0:
            return text[:i + 1], text[i + 1:]
    raise ValueError("unbalanced <> in " + text)


def erase_generics(text):
    while "<" in text:
        new = re.sub(r"<[^<>]*>", "", text)
        if new == text:
            raise ValueError("unbalanced <> in " + text)
        text = new
    return text


class SourceContext:
    def __init__(self, package, imports, class_name):
        self.package, self.class_name = package, class_name
        self.explicit = {i.split(".")[-1]: i for i in imports if not i.endswith(".*")}
        self.wildcards = [i[:-2] for i in imports if i.endswith(".*")]
        self.type_vars = {}

    def resolve(self, name, type_vars=None):
        """Erased, qualified name of a source type (no generics); '?Simple' when not certain."""
        dims = name.count("[]") + name.count("...")
        base = name.replace("[]", "").replace("...", "").strip()
        tv = dict(self.type_vars, **(type_vars or {}))
        if base in PRIMS:
            out = PRIMS[base]
        elif base in tv:
            out = tv[base]
        else:
            head, _, rest = base.partition(".")
            if head in self.explicit:
                out = self.explicit[head] + ("$" + rest.replace(".", "$") if rest else "")
            elif head == self.class_name:
                out = self.package + "." + base.replace(".", "$")
            elif "." in base and base[0].islower():
                out = base  # already qualified
            elif jdk_has("java.lang." + base):
                out = "java.lang." + base
            else:
                hits = [w + "." + base for w in self.wildcards if jdk_has(w + "." + base)]
                out = hits[0] if len(hits) == 1 else "?" + base.split(".")[-1]
        return out + "[]" * dims

    def type_params(self, block):
        """{T: erasure} for a '<T extends A & B, U>' block."""
        out = {}
        for p in split_top(block[1:-1]) if block else []:
            name, _, bound = p.partition(" extends ")
            out[name.strip()] = self.resolve(erase_generics(bound.split("&")[0]).strip(), out) if bound else "java.lang.Object"
        return out


def parse_source_excerpt(path, classes):
    lines = [l for l in open(path, encoding="utf-8").read().splitlines() if l.strip() and not l.startswith("#")]
    package = re.match(r"package\s+([\w.]+);", lines[0].strip()).group(1)
    imports = [re.match(r"import\s+([\w.*]+);", l.strip()).group(1) for l in lines if l.startswith("import ")]
    decls, cur = [], ""
    for l in lines[1:]:
        if l.startswith("import "):
            continue
        cur += " " + l.strip()
        if cur.rstrip().endswith(("{", ";")):
            decls.append(drop_annotations(cur.strip()))
            cur = ""
    if cur:
        raise SystemExit(f"{path}: unterminated declaration '{cur.strip()}'")
    m = re.match(r"((?:\w+(?:-\w+)?\s+)*)(class|interface|enum)\s+(\w+)\s*(.*)\{$", decls[0])
    if not m:
        raise SystemExit(f"{path}: first declaration is not a class/interface/enum: '{decls[0]}'")
    mods, kind, name, rest = set(m.group(1).split()), m.group(2), m.group(3), m.group(4)
    ctx = SourceContext(package, imports, name)
    tparams, rest = take_angles(rest)
    ctx.type_vars = ctx.type_params(tparams)
    rest = erase_generics(rest)
    ext = re.search(r"\bextends\s+(.*?)(?:\bimplements\b|$)", rest)
    impl = re.search(r"\bimplements\s+(.*)$", rest)
    supers = [ctx.resolve(t) for t in (split_top(ext.group(1)) if ext else []) + (split_top(impl.group(1)) if impl else [])]
    flags = {"e"} if kind == "enum" else set() if kind == "interface" else {"c"}
    flags |= {"a"} if "abstract" in mods else set()
    flags |= {"f"} if "final" in mods else set()
    entry = classes.setdefault(package + "." + name, {"flags": set(), "supers": set(), "members": {}, "files": set()})
    entry["flags"] |= flags
    entry["supers"] |= set(supers)
    entry["files"].add(path)
    entry["source"] = True
    entry["package"] = package
    entry["superclass"] = supers[0] if kind == "class" and ext else None
    has_ctor = False
    for d in decls[1:]:
        words = []
        text = d
        while True:
            w = re.match(r"([\w-]+)\s+", text)
            if not w or w.group(1) not in MODIFIERS:
                break
            words.append(w.group(1))
            text = text[w.end():]
        if "private" in words or not ({"public", "protected"} & set(words) or kind == "interface"):
            continue  # not API
        mtparams, text = take_angles(text)
        tv = ctx.type_params(mtparams)
        fl = set()
        if "protected" in words:
            fl.add("p")
        if "static" in words:
            fl.add("s")
        if "final" in words:
            fl.add("f")
        if "abstract" in words or (kind == "interface" and "(" in text and not {"default", "static"} & set(words)):
            fl.add("a")
        paren = text.find("(")
        eq = text.find("=")
        if paren >= 0 and (eq < 0 or paren < eq):
            head = text[:paren].strip()
            params = text[paren + 1:text.rindex(")")]
            ptypes = []
            for p in split_top(params):
                p = re.sub(r"^final\s+", "", p)
                ptype = erase_generics(p).rsplit(None, 1)[0]
                ptypes.append(ctx.resolve(ptype, tv))
            if head == name:
                key, has_ctor = f"<init>({','.join(ptypes)}):V", True
                fl.discard("a")
            else:
                rtype, mname = erase_generics(head).rsplit(None, 1)
                key = f"{mname}({','.join(ptypes)}):{ctx.resolve(rtype, tv)}"
        else:
            head = text.split("=")[0].rstrip(";").strip()
            ftype, fname = erase_generics(head).rsplit(None, 1)
            if kind == "interface":
                fl |= {"s", "f"}
            key = f"{fname}:{ctx.resolve(ftype)}"
        entry["members"][key] = fl
    if kind == "class" and not has_ctor:
        entry["members"]["<init>():V"] = set()  # the implicit default constructor


def key_matches(want, have):
    """Whether a member key/type `have` (from javap, fully qualified) equals `want`, where `want`
    may hold `?Simple` placeholders from a source excerpt (any class of that simple name)."""
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


def load_dumps(root):
    modules = {}
    headers = {}
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            is_source = f.endswith(".java.txt") and os.path.basename(dirpath) == "sources"
            if (f.startswith("api-dump") and f.endswith(".txt")) or is_source:
                module = os.path.relpath(os.path.dirname(dirpath) if is_source else dirpath, root).replace(os.sep, "/")
                path = os.path.join(dirpath, f)
                head = [l for l in open(path, encoding="utf-8").read().splitlines() if l.startswith("#")]
                if not any(l.startswith("# commit:") for l in head) or not any(l.startswith("# source:") for l in head):
                    raise SystemExit(f"{path}: header must cite '# source:' and '# commit:'")
                headers[path] = head
                (parse_source_excerpt if is_source else parse_dump_file)(path, modules.setdefault(module, {}))
    # A same-package name that is another excerpt's class of the module is certain after all.
    for classes in modules.values():
        for entry in classes.values():
            if not entry.get("source"):
                continue
            def pin(t, pkg=entry["package"], classes=classes):
                return re.sub(r"\?(\w+)", lambda m: pkg + "." + m.group(1) if pkg + "." + m.group(1) in classes else m.group(0), t)
            entry["supers"] = {pin(t) for t in entry["supers"]}
            entry["superclass"] = pin(entry["superclass"]) if entry["superclass"] else None
            entry["members"] = {pin(k): v for k, v in entry["members"].items()}
    return modules, headers


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


def main(dumps_root, stub_src, plugin_classes, java_stub_classes):
    modules, headers = load_dumps(dumps_root)
    allowed_modules, allowed_classes = load_allowlist(os.path.join(dumps_root, "ALLOWLIST.txt"))
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

    checked = 0
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
                errors.append(f"{name}: module {module} has no imported API dump and no ALLOWLIST entry")
            unverified.add(module)
            continue
        dump = dump_class(name)
        if dump is None:
            if name in allowed_classes:
                continue
            errors.append(f"{name}: not in the API dump of {module} (internal or impl API); stop using it or add an ALLOWLIST entry with the reason")
            continue
        checked += 1
        what = "source" if dump.get("source") else "dump"
        want_kind = dump_kind(dump["flags"])
        if stub["kind"] != want_kind:
            errors.append(f"{name}: stub is {stub['kind']}, the {what} says {want_kind}")
        if want_kind == "class":
            if ("a" in dump["flags"]) != ("abstract" in stub["mods"]):
                errors.append(f"{name}: abstract differs ({what} flags '{''.join(sorted(dump['flags']))}')")
            if ("f" in dump["flags"]) != ("final" in stub["mods"]):
                errors.append(f"{name}: final differs ({what} flags '{''.join(sorted(dump['flags']))}')")
        if dump.get("source"):
            # Supertypes (from the excerpt's declaration line; the dumps' supertype lists are not
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
                    errors.append(f"{name}: {key} returns another type than the {what}'s {real[0]}")
                    continue
                if key.startswith("<init>") and want_kind == "interface":
                    continue
                errors.append(f"{name}: extra member {key} (not in the API {'source excerpt' if dump.get('source') else 'dump'})")
                continue
            want = dump["members"][found_key] & FLAG_CHARS
            if flags & FLAG_CHARS != want:
                errors.append(f"{name}.{key}: flags '{''.join(sorted(flags & FLAG_CHARS))}' but the {'source' if dump.get('source') else 'dump'} says '{''.join(sorted(want))}'")
        if name in implemented:
            for key, flags in sorted(dump["members"].items()):
                needed = "a" in flags or (want_kind == "interface" and "(" in key and "s" not in flags)
                if needed and not any(key_matches(key, k) for k in stub["members"]):
                    errors.append(f"{name}: missing member {key} (the plugin implements this type)")

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
                errors.append(f"plugin uses {owner}, which is not in the API dump of {module}")
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
            errors.append(f"plugin calls {owner}.{key}, which the API {'source excerpt' if dump.get('source') else 'dump'} does not list")
            member_errors += 1

    for e in errors:
        print(e, file=sys.stderr)
    sourced = sorted(m for m, classes in modules.items() if any(c.get("source") for c in classes.values()))
    print(f"api check: {checked} stub classes compared with {sum(len(v) for v in modules.values())} dump classes "
          f"of {len(modules)} module(s) (from source excerpts: {', '.join(sourced) or 'none'}; unverified: "
          f"{len(unverified) or 'none'}); {len(refs)} plugin references checked; {len(errors)} problem(s)")
    for module in sorted(unverified):
        print(f"  unverified (no dump imported): {module} — {allowed_modules.get(module, 'NOT ALLOWLISTED')}")
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
