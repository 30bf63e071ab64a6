#!/usr/bin/env bash
# Flake hunt: runs every suite of the test command (scripts/test-all.sh) many times, in shuffled
# order where the runner allows it, with the machine's other cores kept busy, and reports every
# test that failed at least once with its failure text. Not part of the test command (it takes
# hours at the default 10 runs); docs/TESTING.md says how to read its report.
#
#   scripts/flake-hunt.sh                      # every suite 10 times, one CPU hog per other core
#   scripts/flake-hunt.sh -n 20 --only standin-e2e,bridge
#   scripts/flake-hunt.sh --list               # the suites (one per cargo test binary, ...)
#   nice -n 10 scripts/flake-hunt.sh ...       # the hogs inherit the niceness: they compete with
#                                              # the suites, not with the rest of the machine
# Options are scripts/flake_hunt.py's (--help). Setup: the same scripts/setup.d/*.sh as the test
# command (skip with --no-setup), plus PyPI pytest-random-order (opt-in: it shuffles only when
# asked, so having it installed does not change the test command).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export DEBUGGER_MCP_ROOT="$ROOT"
export PATH="$ROOT/tests/.tools/bin:$HOME/.local/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

setup=1
for a in "$@"; do
  case "$a" in
    --no-setup) setup=0 ;;
    --list|-h|--help) setup=0 ;;
  esac
done

if [ "$setup" = 1 ]; then
  for s in scripts/setup.d/*.sh; do
    echo "== setup: $s"
    bash "$s" || { echo "SETUP FAILED: $s" >&2; exit 2; }
  done
  if ! python3 -c 'import random_order' 2>/dev/null; then
    python3 -m pip install -q "pytest-random-order==1.2.0" 2>/dev/null \
      || python3 -m pip install -q --break-system-packages "pytest-random-order==1.2.0" \
      || python3 -m pip install -q --user --break-system-packages "pytest-random-order==1.2.0" \
      || { echo "flake hunt: cannot install pytest-random-order (python3 -m pip install pytest-random-order)" >&2; exit 2; }
  fi
fi
exec python3 scripts/flake_hunt.py "$@"
