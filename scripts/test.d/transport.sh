#!/usr/bin/env bash
# Transport suites of Debugger MCP: router integration tests (Rust), real MCP clients against
# the real `debugger-mcp` binary (Python SDK: Streamable HTTP in both eras, legacy SSE, stdio;
# TypeScript SDK: Streamable HTTP and SSE), the MCP conformance suite, and a short load run
# that must complete without errors (full figures: tests/load/bench.sh).
# Prerequisites: scripts/setup.d/transport.sh. Every suite runs; any failure fails the script.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
passed=0; failed=0; failures=()
step() { # name, command...
  local name=$1; shift
  echo "== transport: $name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}

cargo build -q -p debugger-mcp || { echo "transport: cannot build debugger-mcp" >&2; exit 1; }
export DEBUGGER_MCP_BIN="$CARGO_TARGET_DIR/debug/debugger-mcp"

step "rust router tests" cargo test -q -p debugger-mcp-core --test http_streamable --test http_security --test http_legacy_sse --test http_socket --test stdio_transport --test subscriptions
step "rust sidecar/security unit tests" cargo test -q -p debugger-mcp -p debugger-mcp-core --lib
step "python sdk clients" python3 -m pytest -q -p no:cacheprovider tests/clients/python
step "typescript sdk client" node --test tests/clients/typescript/streamable_http.test.mjs
step "mcp conformance suite" tests/conformance/run.sh
# Short load run: proves the benchmark works and the server takes load without a single error.
bench_bin="$CARGO_TARGET_DIR/release/debugger-mcp"
[ -x "$bench_bin" ] || bench_bin="$DEBUGGER_MCP_BIN"
step "load smoke (tests/load/bench.sh 2)" env DEBUGGER_MCP_BIN="$bench_bin" tests/load/bench.sh 2

echo "transport: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "transport FAILED: ${failures[*]}" >&2; exit 1; }
