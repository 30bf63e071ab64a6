#!/usr/bin/env bash
# Loopback HTTP load measurement of `debugger-mcp serve` (SPEC §6: HTTP round trip p50 ≤ 150 µs,
# ≥ 20,000 calls/s on 2 cores, idle RSS ≤ 15 MB). Prints figures; exits non-zero only when the
# measurement itself failed (server did not start, requests errored), not on missed targets —
# the figures are for the report.
#
# Usage: tests/load/bench.sh [seconds=10]
# Env: DEBUGGER_MCP_BIN (default: target/release/debugger-mcp), BENCH_TOOL (default
#      list_debug_sessions), BENCH_CONNECTIONS (default 16), BENCH_THREADS (default 1).
# Needs wrk (apt-get install wrk; scripts/setup.d/transport.sh installs it).
#
# What is measured, for each protocol era:
#   - latency: 1 connection, one request at a time → p50/p90/p99 round trip;
#   - throughput: BENCH_CONNECTIONS connections → calls/s (wrk and the server share the cores,
#     so this understates a server-only figure).
# The request is `tools/call BENCH_TOOL {}` (a cheap tool). With an engine that has no such
# tool yet, it falls back to `tools/list` and says so.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
secs="${1:-10}"
bin="${DEBUGGER_MCP_BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/debugger-mcp}"
conns="${BENCH_CONNECTIONS:-16}"
threads="${BENCH_THREADS:-1}"
tool="${BENCH_TOOL:-list_debug_sessions}"
command -v wrk >/dev/null || { echo "bench: wrk not installed (apt-get install wrk)" >&2; exit 2; }
[[ -x "$bin" ]] || { echo "bench: $bin missing (cargo build --release -p debugger-mcp)" >&2; exit 2; }

project="$(mktemp -d)"; : > "$project/debugger-mcp.toml"; out="$(mktemp -d)"
"$bin" serve --project "$project" --listen 127.0.0.1:0 > "$out/url" 2> "$out/log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$project" "$out"' EXIT
for _ in $(seq 100); do [[ -s "$out/url" ]] && break; sleep 0.05; done
url="$(head -1 "$out/url")"
[[ "$url" == http://127.0.0.1:* ]] || { cat "$out/log"; exit 2; }
sleep 1
rss_idle_kb=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
echo "server: $url (pid $pid, $(basename "$bin"))"
echo "idle RSS: $((rss_idle_kb / 1024)).$(( (rss_idle_kb % 1024) * 10 / 1024 )) MB (${rss_idle_kb} kB)"

meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}'
H=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')

# Pick the request: the cheap tool if the engine has it, else tools/list.
probe=$(curl -s "${H[@]}" -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H "Mcp-Name: $tool" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$tool\",\"arguments\":{},$meta}}" "$url")
if grep -q '"result"' <<<"$probe" && ! grep -q '"isError":true' <<<"$probe"; then
  method="tools/call"; name="$tool"; params="\"name\":\"$tool\",\"arguments\":{},"
  echo "request: tools/call $tool"
else
  method="tools/list"; name=""; params=""
  echo "request: tools/list (engine has no working '$tool' tool yet: ${probe:0:160})"
fi

run() { # label version session body
  local label=$1 version=$2 session=$3 body=$4
  for mode in latency throughput; do
    local c=1; [[ $mode == throughput ]] && c=$conns
    MCP_BODY="$body" MCP_METHOD="$method" MCP_NAME="$name" MCP_VERSION="$version" MCP_SESSION="$session" \
      wrk -t"$threads" -c"$c" -d"${secs}s" --timeout 5s -s "$here/mcp.lua" "$url" > "$out/wrk" 2>&1 || true
    local line; line=$(grep '^RESULT' "$out/wrk" || true)
    [[ -n "$line" ]] || { cat "$out/wrk"; exit 1; }
    echo "$label $mode (c=$c): ${line#RESULT }"
    if ! grep -q 'non200=0 rpc_errors=0 socket_errors=0' <<<"$line"; then echo "bench: requests failed" >&2; exit 1; fi
  done
}

# Stateless 2026-07-28: no session, per-request _meta and Mcp-Method/Mcp-Name headers.
run "2026-07-28 stateless" "2026-07-28" "" \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$method\",\"params\":{$params$meta}}"

# Initialize era (2025-11-25): one session shared by all connections.
init=$(curl -s -D "$out/h" "${H[@]}" -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' "$url")
session=$(awk 'tolower($1)=="mcp-session-id:" {print $2}' "$out/h" | tr -d '\r')
[[ -n "$session" ]] || { echo "bench: initialize gave no session: $init" >&2; exit 1; }
curl -s -o /dev/null "${H[@]}" -H "Mcp-Session-Id: $session" -H 'MCP-Protocol-Version: 2025-11-25' \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$url"
MCP_METHOD_SAVED=$method; method=""; name=""   # Mcp-Method/Name headers belong to 2026-07-28
run "2025-11-25 session" "2025-11-25" "$session" \
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$MCP_METHOD_SAVED\",\"params\":{${params%,}}}"

rss_after_kb=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
echo "RSS after load: $((rss_after_kb / 1024)) MB (${rss_after_kb} kB)"
