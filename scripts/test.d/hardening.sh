#!/usr/bin/env bash
# Hostile-client suite (issue 16) against the real `debugger-mcp serve`: the probes (150 x 3 MiB
# requests twice keep RSS growth under 64 MiB and every error names its field; 1000 initialize
# requests stay under http.max_sessions; every bad parameter of every tool is refused naming the
# field; issue 28: three clients stepping, pausing and stopping one debugpy session leave it
# stopped, errors in the agent's words, DELETE/eviction answers, 1e400, links leading outside,
# stdio's last answer) and a bounded structured fuzz of tools/call and the JSON-RPC envelope with a live
# debugpy session (fails on a crash, a 5xx, a hang or RSS growth past 64 MiB). FUZZ_SECONDS
# (default 75) and FUZZ_SEED (default: time) vary the run; the seed is printed for replay.
# Prerequisites: python3 and debugpy (scripts/setup.d/e2e.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cargo build -q -p debugger-mcp || { echo "hardening: cannot build debugger-mcp" >&2; exit 1; }
# The release binary when test-all.sh built it (3 MiB strings are walked slowly by a debug build).
bin="$CARGO_TARGET_DIR/release/debugger-mcp"
[ -x "$bin" ] && [ "$bin" -nt "$CARGO_TARGET_DIR/debug/debugger-mcp" ] || bin="$CARGO_TARGET_DIR/debug/debugger-mcp"
export DEBUGGER_MCP_BIN="$bin" DEBUGGER_MCP_LOG="${DEBUGGER_MCP_LOG:-error}"
failed=0
echo "== hardening: probes ($bin)"
python3 tests/hardening/hostile.py probe || failed=1
echo "== hardening: fuzz ${FUZZ_SECONDS:-75} s"
python3 tests/hardening/hostile.py fuzz --seconds "${FUZZ_SECONDS:-75}" || failed=1
[ "$failed" -eq 0 ] || { echo "hardening FAILED" >&2; exit 1; }
echo "hardening: ok"
