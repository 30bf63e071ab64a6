#!/usr/bin/env bash
# Benchmarks (release cdylib): one JNI round trip (Java → Rust → Java callback → complete → back)
# and an HTTP MCP request through the Netty stand-in (McpHttpRelay → JNI → router → back).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
cargo build -q --release -p debugger-mcp-jni
LIB="$CARGO_TARGET_DIR/release/libdebugger_mcp_jni.so"
tests/ide-standin/build.sh >/dev/null
CP=$(cat tests/ide-standin/build/classpath)
java -cp "$CP" standin.Bench "$LIB" "${BENCH_N:-300000}" 2>/dev/null
java -cp "$CP" standin.HttpBench "$LIB" tests/ide-standin/build/project "${HTTP_BENCH_N:-5000}" 2>/dev/null
