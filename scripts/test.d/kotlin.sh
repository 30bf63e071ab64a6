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

NETTY="$(for j in buffer codec codec-http common transport; do printf '%s:' "/usr/share/java/netty-$j.jar"; done)"
CP="$KLIB/kotlinx-coroutines-core-jvm.jar:$KLIB/annotations-13.0.jar:$NETTY"

echo "== compile plugin sources against stubs"
mapfile -t MAIN < <(find "$PLUGIN/src/main/kotlin" -name '*.kt' | sort)
mapfile -t STUBS < <(find "$PLUGIN/stubs/src" -name '*.kt' -o -name '*.java' | sort)
# All of src/main is compiled: the bridge package and McpHttpRelay.kt (JNI side) included.
[ -f "$PLUGIN/src/main/kotlin/com/debuggermcp/http/McpHttpRelay.kt" ] || { echo "McpHttpRelay.kt missing" >&2; exit 1; }
# -Werror is not used: deprecation warnings of the stubs' real counterparts are not errors here.
# Language/API 2.2 = the Kotlin runtime bundled with IntelliJ 2025.2 (same as the Gradle build).
if ! "$KOTLINC" -jvm-target 17 -language-version 2.2 -api-version 2.2 -no-reflect -cp "$CP" -d "$OUT/main" \
    "${MAIN[@]}" "${STUBS[@]}" 2>"$OUT/compile.log"; then
  grep -v '^warning:' "$OUT/compile.log" >&2 || true
  echo "FAILED: plugin sources do not compile" >&2
  exit 1
fi
echo "compiled ${#MAIN[@]} plugin sources against ${#STUBS[@]} stubs"

echo "== unit tests"
# Pure sources only: tests run without IntelliJ classes.
PURE=(
  "$PLUGIN/src/main/kotlin/com/debuggermcp/json/Json.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/adapter/Ops.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/adapter/OpRunner.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/adapter/Wire.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/adapter/Handles.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/nativelib/NativeLibraryLocator.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/ui/HistoryEntries.kt"
  "$PLUGIN/src/main/kotlin/com/debuggermcp/ui/InstallOnAgentsModel.kt"
)
mapfile -t TESTS < <(find "$PLUGIN/src/test/kotlin" -name '*.kt' | sort)
JUNIT=/usr/share/java/junit-jupiter-api.jar:/usr/share/java/apiguardian-api.jar:/usr/share/java/opentest4j.jar
if ! "$KOTLINC" -jvm-target 17 -no-reflect -cp "$CP:$JUNIT" -d "$OUT/test" "${PURE[@]}" "${TESTS[@]}" 2>"$OUT/test-compile.log"; then
  grep -v '^warning:' "$OUT/test-compile.log" >&2 || true
  echo "FAILED: unit tests do not compile" >&2
  exit 1
fi
set +e
java -Drepo.root="$ROOT" -jar /usr/share/java/junit-platform-console-standalone.jar \
  --class-path "$OUT/test:$KLIB/kotlin-stdlib.jar:$KLIB/kotlinx-coroutines-core-jvm.jar" \
  --scan-class-path --disable-banner --disable-ansi-colors --details=tree >"$OUT/junit.log" 2>&1
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
