#!/usr/bin/env bash
# Builds the JNI library for Linux target $1 (x86_64-unknown-linux-gnu or aarch64-unknown-linux-gnu)
# linked against glibc 2.17 with cargo-zigbuild, then checks its symbol versions (check-glibc.sh).
# Used by .github/workflows/plugin.yml; locally: DEBUGGER_MCP_ZIGBUILD=1 scripts/test.d/kotlin.sh.
# Needs scripts/setup.d/kotlin.sh (cargo-zigbuild + ziglang from PyPI into tests/.tools/pip).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
target="${1:?usage: build-linux-lib.sh <rust target triple>}"
GLIBC=2.17
PYTOOLS="${DEBUGGER_MCP_PYTOOLS:-$ROOT/tests/.tools/pip}"
export PATH="$PYTOOLS/bin:$PATH" PYTHONPATH="$PYTOOLS${PYTHONPATH:+:$PYTHONPATH}"
command -v cargo-zigbuild >/dev/null || { echo "cargo-zigbuild missing: run scripts/setup.d/kotlin.sh" >&2; exit 1; }
rustup target list --installed 2>/dev/null | grep -qx "$target" || rustup target add "$target"
# A target dir of its own: the zig-linked objects must not mix with the host build's.
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target/zig}" nice cargo zigbuild --release -p debugger-mcp-jni --target "$target.$GLIBC"
lib="${CARGO_TARGET_DIR:-$ROOT/target/zig}/$target/release/libdebugger_mcp_jni.so"
bash scripts/check-glibc.sh "$lib" "$GLIBC"
