#!/usr/bin/env python3
"""Lints the Gradle Kotlin scripts for mistakes that only show up on a machine that can run Gradle.

Rules (the first four each broke `gradle runIde` once):
  wrapper       the `wrapper` task exists in the root project only; configuring it in a
                subproject's script does not compile.
  script-capture with the configuration cache on, lambdas that Gradle stores (onlyIf, doFirst,
                doLast, map, flatMap, provider, filter, zip, orElseGet) are serialized; a reference to a
                script-level val or fun inside one captures the script object, which cannot be
                serialized ("cannot serialize Gradle script object references").
  project-in-action `project` inside doFirst/doLast is not available under the configuration cache.
  kotlin-api    the plugin's Kotlin apiVersion must be the one of the stdlib bundled by the
                since-build IDE (the plugin uses the IDE's stdlib), in Gradle and in the local
                kotlinc compile (scripts/test.d/kotlin.sh).
  verifier      verifyPlugin fails on what the workflow says it fails on: the failure levels of
                intellijPlatform.pluginVerification are exactly the ones the comment above the
                workflow's verifyPlugin step names, and include compatibility problems, internal
                API usage, missing dependencies and an invalid plugin (issue 27: none was set, so
                internal API use passed); the IDEs verified include 2025.2, 2025.3 and 2026.1; no
                bundledModule("intellij.platform.builtInServer.impl"): that internal module would
                put implementation classes on the compile classpath, and the plugin needs only
                BuiltInServerManager, of the API module intellij.platform.builtInServer (core,
                coreLang, on every branch), and HttpRequestHandler, of platform-util-netty (core).
  gradle-version every setup-gradle step of .github/workflows installs the Gradle version the
                root script's wrapper task names: no wrapper is tracked (Gradle's code, issue 30).

Usage: check_gradle.py <repo root>      lint the repository
       check_gradle.py --self-test      run the rules on known-bad and known-good snippets
"""
import os
import re
import sys

STORED_LAMBDAS = ("onlyIf", "doFirst", "doLast", "map", "flatMap", "provider", "filter", "zip", "orElseGet")
LAMBDA_START = re.compile(r"(?:\.|\b)(%s)\s*(?:\([^()]*\))?\s*\{" % "|".join(STORED_LAMBDAS))
TOP_DECL = re.compile(r"^(?:private\s+|internal\s+)?(?:val|var|fun)\s+(?:<[^>]*>\s*)?([A-Za-z_]\w*)", re.M)
WRAPPER = re.compile(r"(\btasks\.wrapper\b|^\s*wrapper\s*\{|named\(\s*\"wrapper\"|withType<Wrapper>)", re.M)

# Since-build → Kotlin stdlib bundled by that IDE (major.minor). 2025.2 ships 2.1.20.
BUNDLED_KOTLIN = {"252": "2.1", "253": "2.2", "261": "2.2"}


def strip_comments(text):
    """Blanks // and /* */ comments, leaving string literals ("**/*.rs" is not a comment) and line numbers intact."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_index):
    depth = 0
    i = open_index
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


def line_of(text, index):
    return text.count("\n", 0, index) + 1


def lint_script(name, text, is_root):
    errors = []
    code = strip_comments(text)
    if not is_root:
        for m in WRAPPER.finditer(code):
            errors.append(f"{name}:{line_of(code, m.start())}: [wrapper] the wrapper task exists only in the root project; configure it in the root build.gradle.kts")
    script_names = set(TOP_DECL.findall(code))
    for m in LAMBDA_START.finditer(code):
        open_index = code.index("{", m.end() - 1)
        close = matching_brace(code, open_index)
        body = code[open_index + 1:close]
        # Names the lambda declares itself (parameters, locals) shadow script-level ones.
        local = set(re.findall(r"\b(?:val|var)\s+([A-Za-z_]\w*)", body))
        params = re.match(r"\s*([\w\s,]+)->", body)
        if params:
            local |= {p.strip() for p in params.group(1).split(",")}
        for ident in sorted(script_names - local):
            hit = re.search(r"(?<![\w.$])%s\b" % re.escape(ident), body)
            if hit:
                errors.append(f"{name}:{line_of(code, open_index + 1 + hit.start())}: [script-capture] '{ident}' is a script-level "
                              f"declaration used inside {m.group(1)} {{ }}; copy it into a local val of the task configuration")
        if m.group(1) in ("doFirst", "doLast"):
            hit = re.search(r"(?<![\w.])project\b", body)
            if hit:
                errors.append(f"{name}:{line_of(code, open_index + 1 + hit.start())}: [project-in-action] 'project' inside {m.group(1)} "
                              f"is not configuration-cache safe")
    return errors


def lint_api_version(plugin_script, since_build, kotlin_sh):
    want = BUNDLED_KOTLIN.get(since_build)
    if want is None:
        return [f"gradle.properties: [kotlin-api] unknown since-build {since_build}; add its bundled Kotlin to check_gradle.py"]
    errors = []
    enum = "KOTLIN_" + want.replace(".", "_")
    m = re.search(r"apiVersion\.set\(KotlinVersion\.(KOTLIN_\d+_\d+)\)", strip_comments(plugin_script))
    if not m or m.group(1) != enum:
        errors.append(f"intellij-plugin/build.gradle.kts: [kotlin-api] apiVersion must be KotlinVersion.{enum} "
                      f"(since-build {since_build} bundles kotlin-stdlib {want}), found {m.group(1) if m else 'none'}")
    if kotlin_sh is not None:
        calls = [l for l in kotlin_sh.splitlines() if '"$KOTLINC"' in l and not l.lstrip().startswith("#") and "-d " in l]
        if not calls:
            errors.append("scripts/test.d/kotlin.sh: [kotlin-api] no kotlinc compile found")
        for l in calls:
            if f"-api-version {want}" not in l:
                errors.append(f"scripts/test.d/kotlin.sh: [kotlin-api] kotlinc must compile with -api-version {want}: {l.strip()}")
    return errors


PROMISED_LEVELS = {"COMPATIBILITY_PROBLEMS", "INTERNAL_API_USAGES", "MISSING_DEPENDENCIES", "INVALID_PLUGIN"}
VERIFIED_IDES = {"2025.2", "2025.3", "2026.1"}
LEVEL = re.compile(r"\b([A-Z][A-Z_]+[A-Z])\b")


def lint_verifier(plugin_script, workflow):
    errors = []
    code = strip_comments(plugin_script)
    m = re.search(r"\bfailureLevel\s*=\s*listOf\(([^)]*)\)", code)
    levels = set(re.findall(r"FailureLevel\.([A-Z_]+)", m.group(1))) if m else set()
    if not m:
        errors.append("intellij-plugin/build.gradle.kts: [verifier] pluginVerification sets no failureLevel: verifyPlugin keeps its default")
    elif not PROMISED_LEVELS <= levels:
        errors.append(f"intellij-plugin/build.gradle.kts: [verifier] failureLevel lacks {sorted(PROMISED_LEVELS - levels)}")
    step = re.search(r"-\s*name:\s*verifyPlugin\s*\n((?:\s*#.*\n)+)", workflow or "")
    promised = set(LEVEL.findall(step.group(1))) & (PROMISED_LEVELS | levels | {"COMPATIBILITY_WARNINGS", "DEPRECATED_API_USAGES",
        "SCHEDULED_FOR_REMOVAL_API_USAGES", "EXPERIMENTAL_API_USAGES", "OVERRIDE_ONLY_API_USAGES", "NON_EXTENDABLE_API_USAGES",
        "PLUGIN_STRUCTURE_WARNINGS", "NOT_DYNAMIC"}) if step else set()
    if not step:
        errors.append(".github/workflows/plugin.yml: [verifier] no comment above the verifyPlugin step says what it fails on")
    elif promised != levels:
        errors.append(f".github/workflows/plugin.yml: [verifier] the verifyPlugin comment names {sorted(promised)}, "
                      f"build.gradle.kts fails on {sorted(levels)}: keep them the same")
    ides = set(re.findall(r"create\(\s*IntelliJPlatformType\.\w+\s*,\s*\"([\d.]+)\"", code))
    if not VERIFIED_IDES <= ides:
        errors.append(f"intellij-plugin/build.gradle.kts: [verifier] pluginVerification ides lack {sorted(VERIFIED_IDES - ides)}")
    if re.search(r'\bbundledModule\(\s*"intellij\.platform\.builtInServer\.impl"\s*\)', code):
        errors.append("intellij-plugin/build.gradle.kts: [verifier] bundledModule(\"intellij.platform.builtInServer.impl\") puts an internal "
                      "module's classes on the compile classpath; the plugin's BuiltInServerManager (API module "
                      "intellij.platform.builtInServer) and HttpRequestHandler (platform-util-netty) are in the core on every branch: remove it")
    return errors


def lint_gradle_version(root_script, workflows):
    """No Gradle wrapper is tracked (it is Gradle's code, issue 30), so every setup-gradle step of a
    workflow must install the version the root script's wrapper task names."""
    m = re.search(r'tasks\.wrapper\s*\{[^}]*gradleVersion\s*=\s*"([^"]+)"', strip_comments(root_script))
    if not m:
        return ["build.gradle.kts: [gradle-version] no tasks.wrapper { gradleVersion = \"…\" } to take the Gradle version from"]
    want, errors = m.group(1), []
    for name, text in workflows.items():
        for step in re.finditer(r"uses:\s*gradle/actions/setup-gradle@\S+((?:\n(?![ \t]*-\s)[ \t]+.*)*)", text):
            got = re.search(r"gradle-version:\s*\"?([^\"\s]+)", step.group(1))
            if not got or got.group(1) != want:
                errors.append(f"{name}:{line_of(text, step.start())}: [gradle-version] setup-gradle must install Gradle {want} "
                              f"(build.gradle.kts's wrapper task; no wrapper is tracked), found {got.group(1) if got else 'none'}")
    return errors


def lint_repo(root):
    errors = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "target", "build", "node_modules", ".gradle", ".tools")]
        for f in filenames:
            if f.endswith(".gradle.kts") and f != "settings.gradle.kts":
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                errors += lint_script(rel, open(path, encoding="utf-8").read(), is_root=(rel == "build.gradle.kts"))
    props = open(os.path.join(root, "gradle.properties"), encoding="utf-8").read()
    since = re.search(r"^pluginSinceBuild\s*=\s*(\d+)", props, re.M).group(1)
    kotlin_sh_path = os.path.join(root, "scripts/test.d/kotlin.sh")
    kotlin_sh = open(kotlin_sh_path, encoding="utf-8").read() if os.path.exists(kotlin_sh_path) else None
    plugin_script = open(os.path.join(root, "intellij-plugin/build.gradle.kts"), encoding="utf-8").read()
    errors += lint_api_version(plugin_script, since, kotlin_sh)
    workflow_path = os.path.join(root, ".github/workflows/plugin.yml")
    workflow = open(workflow_path, encoding="utf-8").read() if os.path.exists(workflow_path) else None
    errors += lint_verifier(plugin_script, workflow)
    wf_dir = os.path.join(root, ".github/workflows")
    workflows = {os.path.join(".github/workflows", f): open(os.path.join(wf_dir, f), encoding="utf-8").read()
                 for f in sorted(os.listdir(wf_dir)) if f.endswith((".yml", ".yaml"))} if os.path.isdir(wf_dir) else {}
    errors += lint_gradle_version(open(os.path.join(root, "build.gradle.kts"), encoding="utf-8").read(), workflows)
    return errors


BAD_SUBPROJECT = '''
val host = hostPlatform()
fun libraryFile(p: String) = "lib$p.so"
val prebuilt = providers.gradleProperty("x")
val cargoBuild by tasks.registering(Exec::class) {
    onlyIf { !prebuilt.isPresent }
    outputs.file(cargoTarget.map { it.resolve("release/${libraryFile(host)}") })
    doLast { println(project.name) }
}
tasks {
    wrapper {
        gradleVersion = "9.4.1"
    }
}
'''
GOOD_SUBPROJECT = '''
val host = hostPlatform()
fun libraryFile(p: String) = "lib$p.so"
val prebuilt = providers.gradleProperty("x")
val cargoBuild by tasks.registering(Exec::class) {
    val skip = prebuilt.isPresent
    val lib = "release/" + libraryFile(host)
    onlyIf { !skip }
    outputs.file(cargoTarget.map { it.resolve(lib) })   // host in a comment: { host }
    val hostName = "x"
    from(x.map { h -> h + hostName })
}
'''


def self_test():
    bad = lint_script("bad.gradle.kts", BAD_SUBPROJECT, is_root=False)
    kinds = {e.split("[")[1].split("]")[0] + ":" + e.split("'")[1] if "'" in e else e.split("[")[1].split("]")[0] for e in bad}
    expected = {"wrapper", "script-capture:prebuilt", "script-capture:libraryFile", "script-capture:host", "project-in-action:project"}
    problems = []
    if not expected <= kinds:
        problems.append(f"bad snippet: expected {sorted(expected)}, got {sorted(kinds)}")
    good = lint_script("good.gradle.kts", GOOD_SUBPROJECT, is_root=False)
    if good:
        problems.append(f"good snippet flagged: {good}")
    if not lint_script("root.gradle.kts", "tasks.wrapper { gradleVersion = \"9\" }", is_root=True) == []:
        problems.append("wrapper in the root project must be allowed")
    api_bad = lint_api_version("apiVersion.set(KotlinVersion.KOTLIN_2_2)", "252", '"$KOTLINC" -api-version 2.2 -d out')
    if len(api_bad) != 2:
        problems.append(f"api 2.2 for since-build 252 must fail twice, got {api_bad}")
    if lint_api_version("apiVersion.set(KotlinVersion.KOTLIN_2_1)", "252", '"$KOTLINC" -api-version 2.1 -d out'):
        problems.append("api 2.1 for since-build 252 must pass")
    wf_good = "      - name: verifyPlugin\n        # Fails on: COMPATIBILITY_PROBLEMS, INTERNAL_API_USAGES,\n        # MISSING_DEPENDENCIES, INVALID_PLUGIN.\n        run: x\n"
    ides = 'ides { create(IntelliJPlatformType.IntellijIdeaCommunity, "2025.2"); create(IntelliJPlatformType.IntellijIdeaUltimate, "2025.3"); create(IntelliJPlatformType.IntellijIdeaUltimate, "2026.1") }'
    module = 'if (loadsBuiltInServerApart(v)) { bundledModule("intellij.platform.builtInServer.impl") }'
    levels = "failureLevel = listOf(FailureLevel.COMPATIBILITY_PROBLEMS, FailureLevel.INTERNAL_API_USAGES, FailureLevel.MISSING_DEPENDENCIES, FailureLevel.INVALID_PLUGIN)"
    if lint_verifier(levels + ides, wf_good):
        problems.append(f"verifier: a complete configuration must pass, got {lint_verifier(levels + ides, wf_good)}")
    before = lint_verifier(ides.replace('"2026.1"', '"2025.1"') + module, wf_good.replace("COMPATIBILITY_PROBLEMS, INTERNAL_API_USAGES,", "compatibility problems and internal API use,"))
    if len(before) != 4:
        problems.append(f"verifier: no failureLevel, a prose comment, no 2026.1 and the internal bundledModule must fail 4 times, got {before}")
    if not any("keep them the same" in e for e in lint_verifier(levels + ides, wf_good.replace(", INVALID_PLUGIN", ", INVALID_PLUGIN, DEPRECATED_API_USAGES"))):
        problems.append("verifier: a comment promising a level the build does not set must fail")
    root_kts = 'tasks.wrapper {\n    gradleVersion = "9.4.1"\n}\n'
    ok_wf = {"w.yml": "      - uses: gradle/actions/setup-gradle@v4\n        with:\n          gradle-version: \"9.4.1\"\n      - run: gradle build\n"}
    bad_wf = {"w.yml": "      - uses: gradle/actions/setup-gradle@v4\n      - run: ./gradlew build\n"}
    if lint_gradle_version(root_kts, ok_wf):
        problems.append("setup-gradle with the wrapper task's version must pass")
    if len(lint_gradle_version(root_kts, bad_wf)) != 1 or len(lint_gradle_version(root_kts, {"w.yml": ok_wf["w.yml"].replace("9.4.1", "9.4.0") + bad_wf["w.yml"]})) != 2:
        problems.append("setup-gradle without gradle-version, or with another one, must fail (each step)")
    for p in problems:
        print("SELF-TEST FAILED: " + p, file=sys.stderr)
    print(f"gradle lint self-test: {'ok' if not problems else 'FAILED'} ({len(bad)} findings on the bad snippet)")
    return not problems


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(0 if self_test() else 1)
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    errs = lint_repo(root)
    for e in errs:
        print(e, file=sys.stderr)
    print(f"gradle lint: {len(errs)} problem(s)")
    sys.exit(1 if errs else 0)
