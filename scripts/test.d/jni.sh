#!/usr/bin/env bash
# JNI bridge suite: builds the cdylib (release, as the plugin ships it) and the IDE stand-in, then
# runs the JUnit 5 tests (callback table faults and timeouts, panics, HTTP relay over Netty, the
# JDI callback table against a real JVM, 8×1000 calls under -Xcheck:jni) and the Python MCP-client
# e2e tests and the MCP conformance suite through the stand-in. Any failure fails the suite; nothing is skipped.
# Prerequisites: scripts/setup.d/jni.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
PROFILE=${JNI_PROFILE:-release}

echo "== jni: cargo build -p debugger-mcp-jni ($PROFILE)"
# The same packages as test-all.sh's release build: features unify over the packages built
# together, so building the library alone would compile every dependency a second time.
if [ "$PROFILE" = release ]; then cargo build -q --release -p debugger-mcp-jni -p debugger-mcp; else cargo build -q -p debugger-mcp-jni; fi
LIB="$CARGO_TARGET_DIR/$PROFILE/libdebugger_mcp_jni.so"
[ -e "$LIB" ] || { echo "missing $LIB" >&2; exit 1; }

if [ "${DEBUGGER_MCP_WORKSPACE_TESTED:-0}" = 1 ]; then
  echo "== jni: cargo tests of debugger-mcp-jni ran in test-all.sh's workspace cargo test"
else
  echo "== jni: cargo test -p debugger-mcp-jni"
  cargo test -q -p debugger-mcp-jni
fi

echo "== jni: build the stand-in"
tests/ide-standin/build.sh
B="$ROOT/tests/ide-standin/build"
CP=$(cat "$B/classpath")

failed=()
echo "== jni: JUnit (bridge, relay, JDI table, -Xcheck:jni stress)"
# The test hooks (injected panics) exist in the library but act only when this variable is 1.
(cd "$B" && DEBUGGER_MCP_TEST_HOOKS=1 java \
  -Ddebuggermcp.lib="$LIB" -Ddebuggermcp.project="$B/project" \
  -cp "$CP:/usr/share/java/junit-platform-console-standalone.jar" \
  org.junit.platform.console.ConsoleLauncher --disable-banner --disable-ansi-colors --details=tree \
  --fail-if-no-tests --select-package standin) || failed+=(junit)

echo "== jni: Python MCP client e2e through the stand-in"
STANDIN_BUILD="$B" DEBUGGER_MCP_LIB="$LIB" python3 -m pytest -q -p no:cacheprovider tests/ide-standin/e2e || failed+=(e2e)
echo "== jni: MCP conformance suite (server scenarios) against the stand-in"
DEBUGGER_MCP_LIB="$LIB" tests/ide-standin/conformance.sh || failed+=(conformance)
if [ ${#failed[@]} -gt 0 ]; then echo "== jni: FAILED: ${failed[*]}" >&2; exit 1; fi
echo "== jni: OK"
