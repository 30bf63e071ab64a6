#!/usr/bin/env bash
# Sets up and runs every test suite of Debugger MCP on a Debian machine with only crates.io,
# PyPI, npm and apt reachable. Installs what is missing (scripts/setup.d/*.sh), then runs the
# Rust workspace tests and every area's suite (scripts/test.d/*.sh). Any failure — including a
# prerequisite that cannot be installed — fails the run with a message; nothing is skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export DEBUGGER_MCP_ROOT="$ROOT"
export PATH="$ROOT/tests/.tools/bin:$HOME/.local/bin:$PATH"

need() { # command, how to get it
  command -v "$1" >/dev/null 2>&1 || { echo "MISSING prerequisite: $1 — $2" >&2; exit 2; }
}
need cargo   "install Rust with rustup (https://rustup.rs)"
need python3 "apt-get install python3 python3-pip"
need git     "apt-get install git"

SUDO=""; [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"
export SUDO
# Base packages every area needs; each area's setup installs its own extras.
base_pkgs=()
command -v gcc  >/dev/null || base_pkgs+=(gcc)
command -v java >/dev/null || base_pkgs+=(openjdk-17-jdk-headless)
command -v javac >/dev/null || base_pkgs+=(openjdk-17-jdk-headless)
command -v node >/dev/null || base_pkgs+=(nodejs)
command -v npm  >/dev/null || base_pkgs+=(npm)
python3 -m pip --version >/dev/null 2>&1 || base_pkgs+=(python3-pip)
if [ ${#base_pkgs[@]} -gt 0 ]; then
  echo "== installing base packages: ${base_pkgs[*]}"
  $SUDO apt-get update -q && $SUDO apt-get install -y -q "${base_pkgs[@]}" \
    || { echo "FAILED to install ${base_pkgs[*]} with apt-get; install them and re-run" >&2; exit 2; }
fi

# A run builds each crate once per feature set; incremental caches would double that on disk and
# a one-shot build gains nothing from them. `disk` prints what is left, so a run that fills a
# small disk says so where it happens (a CI run once failed with "No space left on device").
export CARGO_INCREMENTAL=0
disk() { echo "   disk: $(df -Ph . | awk 'NR==2 {print $4 " free of " $2}'), target $(du -sh target 2>/dev/null | cut -f1)"; }
disk

failed=()
for s in scripts/setup.d/*.sh; do
  [ -e "$s" ] || continue
  echo "== setup: $s"
  bash "$s" || { echo "SETUP FAILED: $s" >&2; exit 2; }
done

echo "== cargo build (workspace, release cdylib for the JNI tests)"
cargo build --workspace --all-targets || failed+=("cargo build")
cargo build --release -p debugger-mcp-jni -p debugger-mcp || failed+=("cargo build --release")
disk

echo "== cargo test (workspace: core engine, transports, DAP on real debugpy and gdb)"
cargo test --workspace --all-features --no-fail-fast -- --test-threads=2 || failed+=("cargo test")
export DEBUGGER_MCP_WORKSPACE_TESTED=1
disk

for t in scripts/test.d/*.sh; do
  [ -e "$t" ] || continue
  echo "== suite: $t"
  bash "$t" || failed+=("$t")
  disk
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "ALL SUITES PASSED"
