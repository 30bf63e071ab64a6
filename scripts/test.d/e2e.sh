#!/usr/bin/env bash
# End-to-end suite: every tool through the Python MCP SDK over Streamable HTTP against the real
# `debugger-mcp serve` binary, driving real debugpy (Python fixture) and real gdb >= 14 (a C
# fixture compiled with gcc -g -O0). Builds the sidecar first; fails if any test fails.
# Prerequisites: scripts/setup.d/e2e.sh (pytest, mcp, debugpy, gdb-for-pwndbg, gcc, go, delve).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export PATH="$HOME/.local/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

echo "e2e: cargo build -p debugger-mcp"
cargo build -q -p debugger-mcp
export DEBUGGER_MCP_BIN="$CARGO_TARGET_DIR/debug/debugger-mcp"

# Warnings and info logs of the sidecar go to stderr; keep them quiet unless asked for.
export DEBUGGER_MCP_LOG="${DEBUGGER_MCP_LOG:-warn}"
exec python3 -m pytest "$ROOT/tests/e2e" -v -p no:cacheprovider "$@"
