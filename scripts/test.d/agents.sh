#!/usr/bin/env bash
# Installer and stdio bridge against real clients: the agents' own CLIs list (and health-check)
# what `debugger-mcp install` wrote (tests/agents/run.sh); the Python MCP SDK reaches servers
# through `debugger-mcp stdio` (tests/bridge). Prerequisites: scripts/setup.d/agents.sh,
# scripts/setup.d/transport.sh (Python SDK, Node 24).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cargo build -q -p debugger-mcp || { echo "agents: cannot build debugger-mcp" >&2; exit 1; }
export DEBUGGER_MCP_BIN="$CARGO_TARGET_DIR/debug/debugger-mcp"
failed=0
echo "== agents: real agent CLIs"
tests/agents/run.sh || failed=1
echo "== agents: stdio bridge (Python MCP SDK; one, two and no servers)"
python3 -m pytest -q -p no:cacheprovider tests/bridge || failed=1
exit $failed
