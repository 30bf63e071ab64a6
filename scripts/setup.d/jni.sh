#!/usr/bin/env bash
# Prerequisites of the JNI bridge suite (scripts/test.d/jni.sh): a JDK with jdk.jdi, Debian's
# JUnit 5 and Netty jars, the Kotlin compiler (npm package, kept in tests/.tools) and pytest.
# Idempotent: installs only what is missing; fails with a how-to message otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
SUDO=${SUDO:-}
[ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"

fail() { echo "jni setup: $*" >&2; exit 2; }

# javac + the jdk.jdi module (the stand-in's callback table debugs a real JVM through JDI).
if ! command -v javac >/dev/null || ! java --list-modules 2>/dev/null | grep -q '^jdk.jdi@'; then
  $SUDO apt-get update -q && $SUDO apt-get install -y -q openjdk-17-jdk-headless \
    || fail "install a JDK 17+ with jdk.jdi (apt-get install openjdk-17-jdk-headless)"
fi

pkgs=()
[ -e /usr/share/java/junit-platform-console-standalone.jar ] || pkgs+=(junit5)
[ -e /usr/share/java/netty-codec-http.jar ] || pkgs+=(libnetty-java)
if [ ${#pkgs[@]} -gt 0 ]; then
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${pkgs[@]}" \
    || fail "install ${pkgs[*]} (apt-get install ${pkgs[*]})"
fi

# kotlinc compiles the plugin's bridge package + McpHttpRelay.kt for the stand-in.
KOTLINC="$ROOT/tests/.tools/node_modules/kotlin-compiler/bin/kotlinc"
if [ ! -x "$KOTLINC" ]; then
  command -v npm >/dev/null || fail "npm is missing (apt-get install npm)"
  mkdir -p "$ROOT/tests/.tools"
  (cd "$ROOT/tests/.tools" && npm install --no-audit --no-fund --silent kotlin-compiler@2) \
    || fail "could not install the Kotlin compiler: cd tests/.tools && npm install kotlin-compiler"
fi
[ -x "$KOTLINC" ] || fail "kotlinc not found at $KOTLINC after npm install"

python3 -c 'import pytest' 2>/dev/null || python3 -m pip install -q pytest 2>/dev/null \
  || python3 -m pip install -q --break-system-packages pytest \
  || fail "install pytest (python3 -m pip install pytest)"
python3 -c 'import mcp.client.streamable_http' 2>/dev/null || python3 -m pip install -q 'mcp>=2' 2>/dev/null \
  || python3 -m pip install -q --break-system-packages 'mcp>=2' \
  || fail "install the Python MCP SDK (python3 -m pip install 'mcp>=2')"
echo "jni setup: ok"
