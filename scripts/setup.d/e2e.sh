#!/usr/bin/env bash
# Prerequisites of the end-to-end suite (scripts/test.d/e2e.sh): pytest, the Python MCP SDK
# (mcp >= 2), debugpy, gdb >= 14 with its DAP interpreter (PyPI gdb-for-pwndbg), gcc, and go
# with delve (Debian's golang-go and delve) for the Go project.
# Idempotent: installs only what is missing; fails with a how-to message otherwise.
set -uo pipefail
SUDO=${SUDO:-}
[ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"
export PATH="$HOME/.local/bin:$PATH"

fail() { echo "e2e setup: $*" >&2; exit 2; }

pip_install() { # import-check, pip spec
  python3 -c "$1" 2>/dev/null && return 0
  python3 -m pip install -q "$2" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "$2" \
    || python3 -m pip install -q --user --break-system-packages "$2" \
    || fail "could not install $2 (python3 -m pip install '$2')"
  python3 -c "$1" 2>/dev/null || fail "$2 installed but '$1' still fails; check which python3 pip installs for"
}

pip_install 'import pytest' pytest
pip_install 'import mcp.client.streamable_http; from mcp import ClientSession' 'mcp>=2'
pip_install 'import debugpy' debugpy

if ! command -v gcc >/dev/null; then
  $SUDO apt-get update -q && $SUDO apt-get install -y -q gcc || fail "install gcc (apt-get install gcc)"
fi

# gdb >= 14 (first with `-i dap`): DEBUGGER_MCP_GDB, else the first gdb on PATH.
gdb_major() { "$1" --version 2>/dev/null | head -1 | awk '{print $NF}' | cut -d. -f1; }
gdb_ok() {
  local g="${DEBUGGER_MCP_GDB:-$(command -v gdb || true)}"
  [ -n "$g" ] && [ "$(gdb_major "$g" || echo 0)" -ge 14 ] 2>/dev/null
}
if ! gdb_ok; then
  python3 -m pip install -q gdb-for-pwndbg 2>/dev/null \
    || python3 -m pip install -q --break-system-packages gdb-for-pwndbg \
    || python3 -m pip install -q --user --break-system-packages gdb-for-pwndbg \
    || fail "could not install gdb >= 14: python3 -m pip install gdb-for-pwndbg (or set DEBUGGER_MCP_GDB)"
  hash -r
  gdb_ok || fail "gdb >= 14 not found on PATH after installing gdb-for-pwndbg; put its bin directory on PATH or set DEBUGGER_MCP_GDB"
fi
if ! command -v go >/dev/null; then
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q golang-go; } \
    || fail "install go (apt-get install golang-go, or https://go.dev/dl/)"
fi
if ! command -v dlv >/dev/null && [ -z "${DEBUGGER_MCP_DLV:-}" ] && [ ! -x "${GOPATH:-$HOME/go}/bin/dlv" ]; then
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q delve; } \
    || fail "install delve (apt-get install delve, or go install github.com/go-delve/delve/cmd/dlv@latest; or set DEBUGGER_MCP_DLV)"
fi
echo "e2e setup: ok ($(${DEBUGGER_MCP_GDB:-gdb} --version | head -1))"
