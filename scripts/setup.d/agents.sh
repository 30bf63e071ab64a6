#!/usr/bin/env bash
# Prerequisites of scripts/test.d/agents.sh: the real agents' CLIs (Claude Code, Codex, Gemini
# CLI) from npm, pinned by tests/agents/package-lock.json, and curl. Idempotent.
set -uo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "agents setup: $*" >&2; exit 2; }
command -v npm >/dev/null || fail "npm is missing (apt-get install npm)"
command -v curl >/dev/null || fail "curl is missing (apt-get install curl)"
dir=tests/agents
if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $dir failed (needs the npm registry)"
fi
for b in claude codex gemini; do
  [ -x "$dir/node_modules/.bin/$b" ] || fail "$dir/node_modules/.bin/$b is missing after npm ci"
done
echo "agents setup: ok"
