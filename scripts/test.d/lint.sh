#!/usr/bin/env bash
# Lint gate (issue 13): the workspace is rustfmt-clean and clippy-clean with warnings as errors,
# test and bench targets included. Clippy uses the normal target dir (CARGO_TARGET_DIR or
# ./target), so after the suite's build it only re-checks the workspace crates. Prints only the
# findings; any finding fails the script.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
failed=0
echo "== lint: cargo fmt --check"
if ! out=$(cargo fmt --all --check 2>&1); then
  echo "$out" | grep '^Diff in' | head -20
  echo "lint: rustfmt would change the files above (run cargo fmt)" >&2
  failed=1
fi
echo "== lint: cargo clippy --workspace --all-targets -- -D warnings"
if ! out=$(cargo clippy -q --workspace --all-targets -- -D warnings 2>&1); then
  echo "$out" | grep -E '^(error|warning)|^ +--> ' | head -40
  echo "lint: clippy found the problems above" >&2
  failed=1
fi
echo "== lint: no merge conflict markers in tracked files"
# A merge left unresolved once (docs/ARCHITECTURE.md) and nothing else caught it.
if out=$(git grep -n -I -E '^(<<<<<<< |>>>>>>> |=======$)' -- . ':!*.diff' ':!*.patch' 2>/dev/null); then
  echo "$out" | head -20
  echo "lint: merge conflict markers above (resolve the merge)" >&2
  failed=1
fi
[ "$failed" -eq 0 ] && echo "lint: fmt, clippy and merge markers clean"
exit $failed
