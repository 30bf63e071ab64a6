#!/usr/bin/env bash
# Compiles the IDE stand-in into tests/ide-standin/build/:
#   kotlin/  the plugin's bridge package + McpHttpRelay.kt (kotlinc, against Debian's Netty jars)
#   classes/ the stand-in (Netty server, JDI callback table) and the JUnit tests (javac)
#   project/ the debuggee project: src/ (copied sources) and out/ (javac -g)
# Incremental: kotlinc only reruns when a Kotlin source is newer than its output.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B="$HERE/build"
KOTLINC="$ROOT/tests/.tools/node_modules/kotlin-compiler/bin/kotlinc"
KLIB="$ROOT/tests/.tools/node_modules/kotlin-compiler/lib"
NETTY=$(ls /usr/share/java/netty-{buffer,codec,codec-http,common,handler,transport,resolver}.jar | paste -sd:)
JUNIT=/usr/share/java/junit-platform-console-standalone.jar
mkdir -p "$B/kotlin" "$B/classes"

KT_SRC=("$ROOT"/intellij-plugin/src/main/kotlin/com/debuggermcp/bridge/*.kt
        "$ROOT"/intellij-plugin/src/main/kotlin/com/debuggermcp/http/McpHttpRelay.kt)
stamp="$B/kotlin/.stamp"
if [ ! -e "$stamp" ] || [ -n "$(find "${KT_SRC[@]}" -newer "$stamp")" ]; then
  echo "kotlinc: bridge + McpHttpRelay"
  rm -rf "$B/kotlin" && mkdir -p "$B/kotlin"
  "$KOTLINC" -nowarn -jvm-target 17 -cp "$NETTY" -d "$B/kotlin" "${KT_SRC[@]}" 2>&1 | grep -v "^warning: " || true
  [ -e "$B/kotlin/com/debuggermcp/http/McpHttpRelay.class" ] || { echo "kotlinc failed" >&2; exit 1; }
  touch "$stamp"
fi

CP="$B/kotlin:$KLIB/kotlin-stdlib.jar:$NETTY"
echo "javac: stand-in + tests"
rm -rf "$B/classes" && mkdir -p "$B/classes"
javac -g -d "$B/classes" -cp "$CP:$JUNIT" $(find "$HERE/src" "$HERE/test" -name '*.java')

echo "javac -g: debuggee project"
rm -rf "$B/project" && mkdir -p "$B/project/out"
cp -r "$HERE/debuggee/src" "$B/project/src"
javac -g -d "$B/project/out" $(find "$B/project/src" -name '*.java')
echo "$CP:$B/classes" > "$B/classpath"
